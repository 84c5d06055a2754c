import DrumlinStorage
import DrumlinValues

/// Backlinks: the objects linking to an object, as `Results` over the linking class.
extension Object {
    /// The objects linking here: `name` is a linkingObjects property, or `@links.Class.property`.
    public func backlinks(_ name: String) throws(DrumlinError) -> Results {
        let origin: ClassInfo
        let originIndex: Int
        if name.hasPrefix("@links.") {
            let parts = name.dropFirst("@links.".count).split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw DrumlinError(.invalidArgument, "Expected '@links.<Class>.<property>', got '\(name)'.") }
            origin = try database.classInfo(parts[0])
            guard let index = origin.propertyIndex(parts[1]), origin.targets[index] === info,
                  origin.property(index).type == .object else {
                throw DrumlinError(.noSuchProperty, "No property '\(parts[1])' found in type '\(parts[0])' which links to type '\(info.name)'")
            }
            originIndex = index
        } else {
            guard let index = info.propertyIndex(name) else { throw database.noSuchProperty(info, name) }
            (origin, originIndex) = try database.backlinkOrigin(info, index)
        }
        _ = try database.readable(origin)
        return Results(database: database, info: origin, base: .backlinks(origin: origin, property: originIndex, key: key), owner: (info, key))
    }
}
