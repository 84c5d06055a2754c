/// A live, ordered collection of objects of one class. Every read re-evaluates it, so it always
/// reflects the latest committed (or own uncommitted) state. The C handle is `cairn_results`.
public final class Results: @unchecked Sendable {
    public let database: Database
    let info: ClassInfo

    enum Source {
        /// The objects of `origin` linking to `target` through `origin.property(index)`.
        case backlinks(origin: Int, property: Int, target: ClassInfo, key: Int64)
    }

    let source: Source

    init(database: Database, info: ClassInfo, source: Source) {
        self.database = database
        self.info = info
        self.source = source
    }

    public var className: String { info.name }

    /// The object keys, in order.
    func keys(_ connection: Connection) throws(CairnError) -> [Int64] {
        switch source {
        case .backlinks(_, let property, let target, let key):
            guard try database.exists(target, key, connection) else { throw database.invalidated(target) }
            return try database.linkingKeys(info, property, to: key, connection)
        }
    }

    public var count: Int {
        get throws(CairnError) { try database.serialized { (connection) throws(CairnError) in try keys(connection).count } }
    }

    public var objects: [Object] {
        get throws(CairnError) {
            try database.serialized { (connection) throws(CairnError) in
                try keys(connection).map { Object(database: database, info: info, key: $0) }
            }
        }
    }

    public func object(at index: Int) throws(CairnError) -> Object {
        try database.serialized { (connection) throws(CairnError) in
            let keys = try keys(connection)
            guard index >= 0, index < keys.count else {
                throw CairnError(.invalidArgument, "Index \(index) is out of bounds for results of size \(keys.count).")
            }
            return Object(database: database, info: info, key: keys[index])
        }
    }

    /// The objects as a JSON array.
    public func jsonText(depth: Int = 0) throws(CairnError) -> String {
        try database.serialized { (connection) throws(CairnError) in
            var writer = JSONWriter()
            writer.writeByte(UInt8(ascii: "["))
            for (i, key) in try keys(connection).enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                try database.writeJSON(info, key, depth: max(depth, 0), connection, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "]"))
            return writer.string
        }
    }
}

extension Object {
    /// The objects linking here: `name` is a linkingObjects property, or `@links.Class.property`.
    public func backlinks(_ name: String) throws(CairnError) -> Results {
        let origin: ClassInfo
        let originIndex: Int
        if name.hasPrefix("@links.") {
            let parts = name.dropFirst("@links.".count).split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw CairnError(.invalidArgument, "Expected '@links.<Class>.<property>', got '\(name)'.") }
            origin = try database.classInfo(parts[0])
            guard let index = origin.propertyIndex(parts[1]), origin.targets[index] === info,
                  origin.property(index).type == .object else {
                throw CairnError(.noSuchProperty, "No property '\(parts[1])' found in type '\(parts[0])' which links to type '\(info.name)'")
            }
            originIndex = index
        } else {
            guard let index = info.propertyIndex(name) else { throw database.noSuchProperty(info, name) }
            (origin, originIndex) = try database.backlinkOrigin(info, index)
        }
        return Results(database: database, info: origin, source: .backlinks(origin: origin.index, property: originIndex, target: info, key: key))
    }
}
