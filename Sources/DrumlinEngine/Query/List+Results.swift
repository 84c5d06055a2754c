import DrumlinStorage
import DrumlinValues

/// A list of objects as `Results`, to filter and sort in list order.
extension List {
    /// The list's objects as results, to filter and sort (lists of objects only).
    public func results() throws(DrumlinError) -> Results {
        guard let target = info.targets[propertyIndex], property.type == .object else {
            throw DrumlinError(.typeMismatch, "List '\(info.name).\(property.name)' does not hold objects, so it cannot be queried.")
        }
        return Results(database: database, info: target, base: .list(owner: object.key, table: table), owner: (info, object.key))
    }
}
