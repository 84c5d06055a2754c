#if canImport(Glibc)
import Glibc
#endif

/// A `GEOWITHIN` shape, as the compiler passes it to `drumlin_geo`: `{"box": [[lon, lat], [lon, lat]]}`,
/// `{"circle": [[lon, lat], radians]}` or `{"polygon": [[[lon, lat], ...], [hole...], ...]}`.
///
/// Boxes and polygons are tested on the longitude/latitude plane (a box whose west edge is east of
/// its east edge crosses the antimeridian); circles by great-circle distance. Points on the edge of
/// a box or polygon are outside, as in Realm.
package final class GeoShape {
    package enum Kind {
        case box(west: Double, south: Double, east: Double, north: Double)
        case circle(longitude: Double, latitude: Double, radius: Double)
        case polygon([[(Double, Double)]])
    }

    package let kind: Kind

    package init(_ kind: Kind) { self.kind = kind }

    package convenience init?(text: String) {
        guard let json = try? JSON.parse(text), case .object(let members) = json, members.count == 1 else { return nil }
        func point(_ json: JSON) -> (Double, Double)? {
            guard let items = json.arrayElements, items.count >= 2, let lon = number(items[0]), let lat = number(items[1]) else { return nil }
            return (lon, lat)
        }
        func number(_ json: JSON) -> Double? {
            switch json {
            case .int(let i): return Double(i)
            case .double(let d): return d
            default: return nil
            }
        }
        let (key, body) = members[0]
        switch key {
        case "box":
            guard let corners = body.arrayElements, corners.count == 2, let sw = point(corners[0]), let ne = point(corners[1]) else { return nil }
            self.init(.box(west: sw.0, south: sw.1, east: ne.0, north: ne.1))
        case "circle":
            guard let parts = body.arrayElements, parts.count == 2, let center = point(parts[0]), let radius = number(parts[1]) else { return nil }
            self.init(.circle(longitude: center.0, latitude: center.1, radius: radius))
        case "polygon":
            guard let rings = body.arrayElements else { return nil }
            var result: [[(Double, Double)]] = []
            for ring in rings {
                guard let points = ring.arrayElements else { return nil }
                var parsed: [(Double, Double)] = []
                for p in points { guard let q = point(p) else { return nil }; parsed.append(q) }
                result.append(parsed)
            }
            self.init(.polygon(result))
        default:
            return nil
        }
    }

    package func contains(longitude: Double, latitude: Double) -> Bool {
        switch kind {
        case let .box(west, south, east, north):
            guard latitude > south, latitude < north else { return false }
            return west <= east ? (longitude > west && longitude < east) : (longitude > west || longitude < east)
        case let .circle(lon, lat, radius):
            return Self.centralAngle(lon, lat, longitude, latitude) <= radius
        case let .polygon(rings):
            guard let outer = rings.first, Self.inside(outer, longitude, latitude) else { return false }
            return !rings.dropFirst().contains { Self.inside($0, longitude, latitude) || Self.onEdge($0, longitude, latitude) }
        }
    }

    /// Great-circle angle in radians between two points given in degrees (haversine).
    static func centralAngle(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * atan2(sqrt(a), sqrt(max(0, 1 - a)))
    }

    /// Strictly inside a closed ring (ray casting); a point on an edge is not inside.
    static func inside(_ ring: [(Double, Double)], _ x: Double, _ y: Double) -> Bool {
        if onEdge(ring, x, y) { return false }
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let (xi, yi) = ring[i]
            let (xj, yj) = ring[j]
            if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
            j = i
        }
        return inside
    }

    static func onEdge(_ ring: [(Double, Double)], _ x: Double, _ y: Double) -> Bool {
        guard ring.count >= 2 else { return false }
        for i in 0..<ring.count - 1 {
            let (x1, y1) = ring[i]
            let (x2, y2) = ring[i + 1]
            let cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
            if abs(cross) < 1e-12, x >= min(x1, x2), x <= max(x1, x2), y >= min(y1, y2), y <= max(y1, y2) { return true }
        }
        return false
    }
}
