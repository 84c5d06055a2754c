/// A shape for `GEOWITHIN` queries, as Realm Swift's geospatial types: written into the query
/// text as the engine's shape literal (`geoCircle([lon, lat], radians)`).
public protocol RLMGeospatial {
    /// The shape in the query language.
    var _queryText: String { get }
}

/// A point on the globe, latitude and longitude in degrees (altitude in meters, not used by
/// queries).
public struct GeoPoint: Equatable, Sendable {
    public let latitude: Double
    public let longitude: Double
    public let altitude: Double

    /// Nil when a coordinate is out of range (latitude ±90, longitude ±180) or NaN.
    public init?(latitude: Double, longitude: Double) {
        self.init(latitude: latitude, longitude: longitude, altitude: 0)
    }

    /// Nil when a coordinate is out of range or NaN, or the altitude is negative.
    public init?(latitude: Double, longitude: Double, altitude: Double) {
        guard (-90 ... 90).contains(latitude), (-180 ... 180).contains(longitude), altitude >= 0 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// A (latitude, longitude) pair; nil when out of range.
    init?(_ pair: (Double, Double)) { self.init(latitude: pair.0, longitude: pair.1) }

    var queryText: String { "[\(longitude), \(latitude)]" }
}

/// A distance on the globe, kept in radians (Realm's earth radius: 6378.1 km).
public struct Distance: Equatable, Sendable {
    public let radians: Double
    static let earthRadiusMeters = 6_378_100.0
    static let metersPerMile = 1609.344
    static let radiansPerDegree = Double.pi / 180

    /// Nil for a negative or NaN distance (each of the four).
    public static func radians(_ value: Double) -> Distance? { value >= 0 ? Distance(radians: value) : nil }
    public static func kilometers(_ value: Double) -> Distance? { radians(value * 1000 / earthRadiusMeters) }
    public static func miles(_ value: Double) -> Distance? { radians(value * metersPerMile / earthRadiusMeters) }
    public static func degrees(_ value: Double) -> Distance? { radians(value * radiansPerDegree) }

    public func asKilometers() -> Double { radians * Self.earthRadiusMeters / 1000 }
    public func asMiles() -> Double { radians * Self.earthRadiusMeters / Self.metersPerMile }
    public func asDegrees() -> Double { radians / Self.radiansPerDegree }
}

/// A rectangle between its south-west and north-east corners.
public struct GeoBox: RLMGeospatial, Equatable, Sendable {
    public let bottomLeft: GeoPoint
    public let topRight: GeoPoint

    public init(bottomLeft: GeoPoint, topRight: GeoPoint) {
        self.bottomLeft = bottomLeft
        self.topRight = topRight
    }

    /// Corners as (latitude, longitude); nil when one is out of range.
    public init?(bottomLeft: (Double, Double), topRight: (Double, Double)) {
        guard let bottomLeft = GeoPoint(bottomLeft), let topRight = GeoPoint(topRight) else { return nil }
        self.init(bottomLeft: bottomLeft, topRight: topRight)
    }

    public var _queryText: String { "geoBox(\(bottomLeft.queryText), \(topRight.queryText))" }
}

/// A circle around a center.
public struct GeoCircle: RLMGeospatial, Equatable, Sendable {
    public let center: GeoPoint
    /// The radius in radians.
    public let radians: Double
    public var radiusInRadians: Double { radians }

    /// Nil for a negative or NaN radius.
    public init?(center: GeoPoint, radiusInRadians: Double) {
        guard radiusInRadians >= 0 else { return nil }
        self.center = center
        radians = radiusInRadians
    }

    public init(center: GeoPoint, radius: Distance) {
        self.center = center
        radians = radius.radians
    }

    /// A center as (latitude, longitude); nil when out of range or the radius is negative.
    public init?(center: (Double, Double), radiusInRadians: Double) {
        guard let point = GeoPoint(center) else { return nil }
        self.init(center: point, radiusInRadians: radiusInRadians)
    }

    public init?(center: (Double, Double), radius: Distance) {
        guard let point = GeoPoint(center) else { return nil }
        self.init(center: point, radius: radius)
    }

    public var _queryText: String { "geoCircle(\(center.queryText), \(radians))" }
}

/// A polygon: an outer ring and holes, each closed (first point repeated last).
public struct GeoPolygon: RLMGeospatial, Equatable, Sendable {
    public let outerRing: [GeoPoint]
    public let holes: [[GeoPoint]]

    /// Nil unless every ring has at least four points and ends where it starts, as in Realm.
    public init?(outerRing: [GeoPoint], holes: [[GeoPoint]] = []) {
        func closed(_ ring: [GeoPoint]) -> Bool { ring.count > 3 && ring.first == ring.last }
        guard closed(outerRing), holes.allSatisfy(closed) else { return nil }
        self.outerRing = outerRing
        self.holes = holes
    }

    /// Rings of (latitude, longitude) pairs; nil when a point is out of range or a ring is not closed.
    public init?(outerRing: [(Double, Double)], holes: [[(Double, Double)]] = []) {
        let outer = outerRing.compactMap(GeoPoint.init)
        let inner = holes.map { $0.compactMap(GeoPoint.init) }
        guard outer.count == outerRing.count, zip(holes, inner).allSatisfy({ $0.count == $1.count }) else { return nil }
        self.init(outerRing: outer, holes: inner)
    }

    public init?(outerRing: [(Double, Double)], holes: [(Double, Double)]...) {
        self.init(outerRing: outerRing, holes: holes)
    }

    public var _queryText: String {
        let rings = [outerRing] + holes
        return "geoPolygon(" + rings.map { "{" + $0.map(\.queryText).joined(separator: ", ") + "}" }.joined(separator: ", ") + ")"
    }
}

extension Query {
    /// Matches objects whose point (an embedded object with `type` and `coordinates`) lies in
    /// the shape.
    public func geoWithin<Shape: RLMGeospatial>(_ shape: Shape) -> Query<Bool> {
        Query<Bool>(text: "\(text) GEOWITHIN \(shape._queryText)", arguments: arguments)
    }
}
