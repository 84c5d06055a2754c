import DrumlinStorage
import DrumlinValues

/// GeoJSON points: an embedded type with `type: "string"` and `coordinates: "double[]"` holds
/// `[longitude, latitude]` (an optional third element is the altitude). Points are checked on every
/// write so that `GEOWITHIN` can rely on them.
extension Database {
    /// Checks a geo point object after a write; throws (so the write's savepoint rolls back) when
    /// it is not a valid point.
    func validateGeoPoint(_ info: ClassInfo, _ key: Int64, _ connection: Connection) throws(DrumlinError) {
        guard let (typeIndex, coordinatesIndex) = info.geoPointIndices else { return }
        let values = try readRow(info, key, connection, indices: [typeIndex, coordinatesIndex])
        guard case .string(let type) = values[0], type.lowercased() == "point" else {
            throw DrumlinError(.invalidArgument, "Invalid geo point '\(info.name)': 'type' must be \"Point\", got \(values[0].extendedJSON).")
        }
        guard case .list(let coordinates) = values[1], coordinates.count == 2 || coordinates.count == 3 else {
            throw DrumlinError(.invalidArgument, "Invalid geo point '\(info.name)': 'coordinates' must be [longitude, latitude] or [longitude, latitude, altitude].")
        }
        guard case .double(let longitude) = coordinates[0], case .double(let latitude) = coordinates[1],
              longitude.isFinite, latitude.isFinite else {
            throw DrumlinError(.invalidArgument, "Invalid geo point '\(info.name)': coordinates must be finite numbers.")
        }
        guard (-180...180).contains(longitude) else {
            throw DrumlinError(.invalidArgument, "Invalid geo point '\(info.name)': longitude \(longitude) is outside [-180, 180].")
        }
        guard (-90...90).contains(latitude) else {
            throw DrumlinError(.invalidArgument, "Invalid geo point '\(info.name)': latitude \(latitude) is outside [-90, 90].")
        }
    }
}
