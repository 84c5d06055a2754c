/// A shape for `GEOWITHIN` queries, as Realm Swift's geospatial types: written into the query
/// text as the engine's shape literal (`geoCircle([lon, lat], radians)`).
public protocol RLMGeospatial {
    /// The shape in the query language.
    var _queryText: String { get }
}

/// A point on the globe, latitude and longitude in degrees.
public struct GeoPoint: Equatable, Sendable {
    public let latitude: Double
    public let longitude: Double
    public let altitude: Double

    /// Nil when a coordinate is out of range (latitude ±90, longitude ±180).
    public init?(latitude: Double, longitude: Double, altitude: Double = 0) {
        guard (-90 ... 90).contains(latitude), (-180 ... 180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    var queryText: String { "[\(longitude), \(latitude)]" }
}

/// A distance on the globe, kept in radians (Realm's earth radius: 6378.1 km).
public struct Distance: Equatable, Sendable {
    public let radians: Double
    static let earthRadiusKilometers = 6378.1
    static let kilometersPerMile = 1.609344

    public static func radians(_ value: Double) -> Distance? { value >= 0 ? Distance(radians: value) : nil }
    public static func kilometers(_ value: Double) -> Distance? { radians(value / earthRadiusKilometers) }
    public static func miles(_ value: Double) -> Distance? { kilometers(value * kilometersPerMile) }
    public static func degrees(_ value: Double) -> Distance? { radians(value * .pi / 180) }

    public var asKilometers: Double { radians * Self.earthRadiusKilometers }
    public var asMiles: Double { asKilometers / Self.kilometersPerMile }
}

/// A rectangle between its south-west and north-east corners.
public struct GeoBox: RLMGeospatial, Equatable, Sendable {
    public let bottomLeft: GeoPoint
    public let topRight: GeoPoint

    public init(bottomLeft: GeoPoint, topRight: GeoPoint) {
        self.bottomLeft = bottomLeft
        self.topRight = topRight
    }

    public var _queryText: String { "geoBox(\(bottomLeft.queryText), \(topRight.queryText))" }
}

/// A circle around a center.
public struct GeoCircle: RLMGeospatial, Equatable, Sendable {
    public let center: GeoPoint
    public let radiusInRadians: Double

    public init(center: GeoPoint, radiusInRadians: Double) {
        self.center = center
        self.radiusInRadians = radiusInRadians
    }

    public init(center: GeoPoint, radius: Distance) {
        self.init(center: center, radiusInRadians: radius.radians)
    }

    public var _queryText: String { "geoCircle(\(center.queryText), \(radiusInRadians))" }
}

/// A polygon: an outer ring and holes, each closed (first point repeated last).
public struct GeoPolygon: RLMGeospatial, Equatable, Sendable {
    public let outerRing: [GeoPoint]
    public let holes: [[GeoPoint]]

    public init(outerRing: [GeoPoint], holes: [[GeoPoint]] = []) {
        self.outerRing = outerRing
        self.holes = holes
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
