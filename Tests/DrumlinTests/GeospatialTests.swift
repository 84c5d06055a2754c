import Drumlin
import Testing

/// Realm Swift's geospatial initializers: failable ones, (latitude, longitude) tuples, and
/// `Distance` conversions with Realm's earth radius (6378.1 km).
@Suite struct GeospatialTests {
    @Test func pointsAndShapesRefuseWhatRealmRefuses() throws {
        #expect(GeoPoint(latitude: 91, longitude: 0) == nil)
        #expect(GeoPoint(latitude: 0, longitude: -180.5) == nil)
        #expect(GeoPoint(latitude: .nan, longitude: 0) == nil)
        #expect(GeoPoint(latitude: 1, longitude: 2, altitude: -1) == nil)
        #expect(GeoPoint(latitude: 1, longitude: 2, altitude: 3)?.altitude == 3)
        #expect(GeoCircle(center: (0, 0), radiusInRadians: -0.1) == nil)
        #expect(GeoCircle(center: (95, 0), radiusInRadians: 0.1) == nil)
        #expect(GeoCircle(center: (10, 20), radiusInRadians: 0.5)?.center == GeoPoint(latitude: 10, longitude: 20))
        #expect(GeoBox(bottomLeft: (0, 0), topRight: (1, 200)) == nil)
        #expect(GeoBox(bottomLeft: (0, 0), topRight: (1, 2))?.topRight.longitude == 2)
        // Rings need four points and must be closed.
        #expect(GeoPolygon(outerRing: [(0, 0), (0, 1), (0, 0)]) == nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (0, 1), (1, 1), (1, 0)]) == nil)
        let square = [(0.0, 0.0), (0.0, 4.0), (4.0, 4.0), (4.0, 0.0), (0.0, 0.0)]
        let hole = [(1.0, 1.0), (1.0, 2.0), (2.0, 2.0), (2.0, 1.0), (1.0, 1.0)]
        #expect(GeoPolygon(outerRing: square, holes: hole)?.holes.count == 1)
        #expect(GeoPolygon(outerRing: square, holes: [(1, 1), (1, 2), (1, 1)]) == nil)
        #expect(GeoPolygon(outerRing: square.map { ($0.0, $0.1 + 200) }) == nil)
    }

    @Test func distancesConvert() throws {
        let km = try #require(Distance.kilometers(6378.1))
        #expect(abs(km.radians - 1) < 1e-15)
        #expect(abs(km.asKilometers() - 6378.1) < 1e-9)
        #expect(abs(try #require(Distance.miles(1)).asKilometers() - 1.609344) < 1e-12)
        #expect(abs(try #require(Distance.degrees(180)).radians - .pi) < 1e-15)
        #expect(abs(try #require(Distance.radians(.pi / 2)).asDegrees() - 90) < 1e-12)
        #expect(abs(try #require(Distance.kilometers(1.609344)).asMiles() - 1) < 1e-12)
        #expect(Distance.kilometers(-1) == nil && Distance.radians(.nan) == nil)
        let circle = try #require(GeoCircle(center: (59.9, 10.7), radius: km))
        #expect(circle.radians == km.radians)
    }
}
