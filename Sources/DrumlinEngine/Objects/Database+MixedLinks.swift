import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Links inside mixed values (Realm's `AnyRealmValue.object`).
///
/// A mixed property, or an element of a `mixed[]`, `mixed<>` or `mixed{}` property, may hold a
/// link to a top-level object of any class. It is stored in the value column as the text
/// `"<object key>:<stored class name>"` with type code 10 (`DRUMLIN_TYPE_LINK`) in the type
/// column. Class names never change in a migration (Realm renames properties, not classes) and a
/// migration that changes object keys rewrites these texts (`MigrationRun.remapKeys`), so the
/// stored form survives schema changes. Each mixed column and mixed collection table has a
/// partial index over its link rows (`WHERE type = 10`): deleting an object finds the mixed
/// values pointing at it with one index probe per mixed property of the schema.
///
/// Links inside nested lists and dictionaries of a mixed value are rows of `_drumlin_mixed` in
/// the same form, with a partial index of their own (`MixedStore.linkIndexStatement`, format 4).
///
/// Rules (Realm's): an embedded or asymmetric object cannot be held; deleting the target makes
/// a mixed property and a dictionary value null and removes the element from a list or set, at
/// any depth of nesting (realm-core's `Lst<Mixed>::nullify` and `Dictionary::nullify`).
extension Database {
    static let mixedLinkCode: Int64 = 10

    /// The stored form of a link to `target`'s object `key`.
    static func mixedLinkText(_ target: ClassInfo, _ key: Int64) -> String { "\(key):\(target.schema.storedName)" }

    /// Checks a link a mixed value is about to hold and returns its stored form. The target must
    /// be a live top-level object of this database's schema.
    func storedMixedLink(_ link: ObjectLink, _ connection: Connection) throws(DrumlinError) -> String {
        guard classes.indices.contains(link.classIndex) else {
            throw DrumlinError(.invalidArgument, "A link in a mixed value names class index \(link.classIndex), which is not in the schema (it has \(classes.count) classes).")
        }
        let target = classes[link.classIndex]
        switch target.schema.kind {
        case .embedded:
            throw DrumlinError(.notSupported, "A mixed value cannot hold an embedded object ('\(target.name)'), as in Realm.")
        case .asymmetric:
            throw DrumlinError(.notSupported, "A mixed value cannot hold an asymmetric object ('\(target.name)'), as in Realm.")
        case .topLevel:
            break
        }
        guard try exists(target, link.key, connection) else {
            throw DrumlinError(.invalidatedObject, "A mixed value cannot hold the '\(target.name)' object \(link.key): it does not exist (it was deleted or never created).")
        }
        return Self.mixedLinkText(target, link.key)
    }

    /// Reads a mixed value (never a nested collection) from its value and type columns.
    func readMixedValue(_ statement: Statement, value column: Int32, type typeColumn: Int32) -> Value {
        if statement.int64(typeColumn) == Self.mixedLinkCode { return mixedLink(text: statement.string(column)) }
        return ValueCodec.readMixed(statement, value: column, type: typeColumn)
    }

    /// Decodes the stored form; a class the open schema does not have reads as null.
    func mixedLink(text: String) -> Value {
        guard let colon = text.firstIndex(of: ":"), let key = Int64(text[..<colon]) else { return .null }
        let storedName = String(text[text.index(after: colon)...])
        // During a migration the old schema's classes read their `_drumlin_old_` tables.
        guard let info = classes.first(where: { $0.schema.storedName.isSameName(storedName) })
            ?? classes.first(where: { $0.schema.storedName.isSameName(MigrationRun.oldPrefix + storedName) }) else { return .null }
        return .link(ObjectLink(classIndex: info.index, key: key))
    }

    /// Clears every mixed value linking to `target`'s object `key` (it is being deleted): mixed
    /// properties and dictionary values become null, list and set elements are removed.
    func clearMixedLinks(to target: ClassInfo, _ key: Int64, _ connection: Connection) throws(DrumlinError) {
        guard try isHeldByMixedValues(target, key, connection) else { return }
        let text = Self.mixedLinkText(target, key)
        for holder in target.mixedLinkHolders {
            switch holder {
            case .column(let info, let index):
                let property = info.property(index)
                let column = quoted(property.storedName)
                let type = quoted(ClassInfo.mixedTypeColumn(property))
                try run("UPDATE \(info.table) SET \(column) = NULL, \(type) = 0 WHERE \(type) = 10 AND \(column) = ?1", text, connection)
            case .collection(_, _, let table):
                switch table.kind {
                case .list:
                    var owners: [Int64] = []
                    let select = try connection.statement("SELECT DISTINCT owner FROM \(table.name) WHERE value_type = 10 AND value = ?1")
                    select.bind(text, at: 1)
                    while try select.step() { owners.append(select.int64(0)) }
                    select.reset()
                    guard !owners.isEmpty else { continue }
                    try run("DELETE FROM \(table.name) WHERE value_type = 10 AND value = ?1", text, connection)
                    for owner in owners { try renumber(table, owner, connection) }
                case .set:
                    try run("DELETE FROM \(table.name) WHERE value_type = 10 AND value = ?1", text, connection)
                case .dictionary:
                    try run("UPDATE \(table.name) SET value = NULL, value_type = 0 WHERE value_type = 10 AND value = ?1", text, connection)
                case .single:
                    break
                }
            }
        }
        try Self.clearNestedMixedLinks("value = ?1", connection) { (statement) throws(DrumlinError) in statement.bind(text, at: 1) }
    }

    /// The same inside nested lists and dictionaries of mixed values (`_drumlin_mixed`, through
    /// its partial index of links): a dictionary's value becomes null; a list's element is
    /// removed and the elements after it close up. `matching` is a condition on `value` whose
    /// parameters `bind` binds. The objects holding these values are not reported as changed to
    /// observers (a nested collection's rows do not name their owner).
    static func clearNestedMixedLinks(_ matching: String, _ connection: Connection,
                               bind: (Statement) throws(DrumlinError) -> Void) throws(DrumlinError) {
        func run(_ sql: String, _ body: ((Statement) throws(DrumlinError) -> Void)? = nil) throws(DrumlinError) {
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try bind(statement)
            if let body { try body(statement) } else { _ = try statement.step() }
        }
        let links = "value_type = \(Self.mixedLinkCode) AND \(matching)"
        var lists: [Int64] = []
        try run("""
            SELECT DISTINCT collection FROM \(MixedStore.table) WHERE \(links) AND collection IN \
            (SELECT id FROM _drumlin_mixed_collections WHERE kind = \(MixedStorage.listCode))
            """) { (statement) throws(DrumlinError) in
            while try statement.step() { lists.append(statement.int64(0)) }
        }
        try run("""
            UPDATE \(MixedStore.table) SET value = NULL, value_type = 0 WHERE \(links) AND collection IN \
            (SELECT id FROM _drumlin_mixed_collections WHERE kind = \(MixedStorage.dictionaryCode))
            """)
        guard !lists.isEmpty else { return }
        try run("DELETE FROM \(MixedStore.table) WHERE \(links)")
        let renumber = try connection.statement("""
            UPDATE \(MixedStore.table) SET position = r.n FROM \
            (SELECT rowid AS id, row_number() OVER (ORDER BY position) - 1 AS n FROM \(MixedStore.table) WHERE collection = ?1) AS r \
            WHERE \(MixedStore.table).rowid = r.id AND \(MixedStore.table).position != r.n
            """)
        defer { renumber.reset() }
        for list in lists {
            renumber.bind(list, at: 1)
            _ = try renumber.step()
            renumber.reset()
        }
    }

    /// Whether any mixed value holds `target`'s object `key`: one statement (an index probe per
    /// mixed property), so deleting an object no mixed value holds costs little more than before.
    func isHeldByMixedValues(_ target: ClassInfo, _ key: Int64, _ connection: Connection) throws(DrumlinError) -> Bool {
        guard let sql = target.mixedLinkProbeSQL else { return false }
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(Self.mixedLinkText(target, key), at: 1)
        return try statement.step() && statement.int64(0) != 0
    }

    private func run(_ sql: String, _ text: String, _ connection: Connection) throws(DrumlinError) {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(text, at: 1)
        _ = try statement.step()
    }
}

extension Database {
    /// `{"$link":{"class":"Dog","key":12}}`: a link held by a mixed value, as JSON (the form
    /// payloads and query arguments take).
    func writeMixedLinkJSON(_ link: ObjectLink, to writer: inout JSONWriter) {
        writer.writeRaw("{\"$link\":{\"class\":")
        writer.writeString(classes.indices.contains(link.classIndex) ? classes[link.classIndex].name : "")
        writer.writeRaw(",\"key\":")
        writer.writeInt(link.key)
        writer.writeRaw("}}")
    }

    /// A mixed value as Extended JSON, links in the `$link` form.
    public func mixedJSON(_ value: Value) -> String {
        var writer = JSONWriter()
        writeMixedJSON(value, to: &writer)
        return writer.string
    }

    func writeMixedJSON(_ value: Value, to writer: inout JSONWriter) {
        switch value {
        case .link(let link): writeMixedLinkJSON(link, to: &writer)
        case .list(let items) where value.containsLink:
            writer.writeByte(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writeMixedJSON(item, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "]"))
        case .dictionary(let entries) where value.containsLink:
            writer.writeByte(UInt8(ascii: "{"))
            for (i, entry) in entries.enumerated() {
                if i > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writer.writeString(entry.key)
                writer.writeByte(UInt8(ascii: ":"))
                writeMixedJSON(entry.value, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "}"))
        default:
            ExtendedJSON.write(value, to: &writer)
        }
    }
}

extension Database {
    /// A scalar element as it is stored, for finding it (no existence check): a link in its
    /// stored text form, anything else as it is.
    func comparable(_ table: CollectionTable, _ value: Value) -> (Value, Int64) {
        if table.isMixed, case .link(let link) = value, classes.indices.contains(link.classIndex) {
            return (.string(Self.mixedLinkText(classes[link.classIndex], link.key)), Self.mixedLinkCode)
        }
        return (value, ValueCodec.typeCode(value))
    }
}

extension Database {
    /// A mixed value from Extended JSON, where the value itself, or any element of its nested
    /// lists and dictionaries, may be `{"$link": {"class": "Dog", "key": 12}}`.
    public func mixedValue(extendedJSON json: JSON) throws(DrumlinError) -> Value {
        if case .object(let members) = json, Self.isLinkJSON(json) { return .link(try linkJSON(members[0].value)) }
        return try ExtendedJSON.mixedValue(json) { (body) throws(DrumlinError) -> Value in .link(try self.linkJSON(body)) }
    }
}

// MARK: Export and import

extension Database {
    /// `{"$link":{"class":"Dog","primaryKey":"Rex"}}`: how an export names a mixed value's link
    /// to an object with a primary key (object keys differ between files).
    func writeExportedMixedLink(_ target: ClassInfo, _ key: Int64, _ pk: Int, _ connection: Connection,
                                to writer: inout JSONWriter) throws(DrumlinError) {
        writer.writeRaw("{\"$link\":{\"class\":")
        writer.writeString(target.name)
        writer.writeRaw(",\"primaryKey\":")
        ExtendedJSON.write(try readRow(target, key, connection, indices: [pk])[0], to: &writer)
        writer.writeRaw("}}")
    }

    /// A mixed property's value from an import line with every `$link` in it rewritten for this
    /// file: `{"class", "primaryKey"}` becomes the object key of the object with that primary key,
    /// `{"class", "key"}` goes through `mapKey` (keys of the exporting file). Nil when a target
    /// does not exist yet (the value is set at the end of the import).
    func resolveMixedLinks(_ json: JSON, _ connection: Connection,
                           _ mapKey: (ClassInfo, Int64) throws(DrumlinError) -> JSON?) throws(DrumlinError) -> JSON? {
        func resolve(_ element: JSON) throws(DrumlinError) -> JSON? {
            guard case .object(let members) = element, Self.isLinkJSON(element) else { return element }
            let body = members[0].value
            guard let className = body["class"]?.stringValue, body.objectMembers?.count == 2,
                  let target = try? classInfo(className) else { return element }  // the create reports it
            if let primaryKey = body["primaryKey"], let pk = target.primaryKeyIndex {
                let value = try Self.decodeValue(primaryKey, Label(className: target.name, propertyName: target.propertyNames[pk]))
                let key = try findKey(target, value, connection)
                return key.map { Self.linkJSON(target, $0) }
            }
            guard target.primaryKeyIndex == nil, case .int(let old)? = body["key"] else { return element }
            guard let mapped = try mapKey(target, old) else { return nil }
            guard case .int(let new) = mapped else { return element }
            return Self.linkJSON(target, new)
        }
        // The property's own list, set or dictionary and the nested collections of its values
        // read alike: every `$link` at any depth is resolved.
        func resolveDeep(_ json: JSON) throws(DrumlinError) -> JSON? {
            switch json {
            case .array(let items):
                var resolved: [JSON] = []
                resolved.reserveCapacity(items.count)
                for item in items {
                    guard let item = try resolveDeep(item) else { return nil }
                    resolved.append(item)
                }
                return .array(resolved)
            case .object(let members) where !Self.isLinkJSON(json) && (try? ExtendedJSON.wrapped(json)) == nil:
                var resolved: [(key: String, value: JSON)] = []
                resolved.reserveCapacity(members.count)
                for (key, value) in members {
                    guard let value = try resolveDeep(value) else { return nil }
                    resolved.append((key, value))
                }
                return .object(resolved)
            default:
                return try resolve(json)
            }
        }
        return try resolveDeep(json)
    }

    static func linkJSON(_ target: ClassInfo, _ key: Int64) -> JSON {
        .object([("$link", .object([("class", .string(target.name)), ("key", .int(key))]))])
    }
}

extension Database {
    /// `clearMixedLinks(to:_:_:)` for every object `keysSQL` selects (a bulk delete), in one
    /// statement per mixed property. `parameters` are bound from `?1` on.
    func clearMixedLinks(to target: ClassInfo, keysSQL: String, _ parameters: [Value],
                         _ connection: Connection) throws(DrumlinError) {
        guard !target.mixedLinkHolders.isEmpty else { return }
        let suffix = "':" + target.schema.storedName.replacing("'", with: "''") + "'"
        let texts = "(SELECT k || \(suffix) FROM (\(keysSQL)))"
        func run(_ sql: String, _ body: ((Statement) throws(DrumlinError) -> Void)? = nil) throws(DrumlinError) {
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(parameters)
            if let body { try body(statement) } else { _ = try statement.step() }
        }
        for holder in target.mixedLinkHolders {
            switch holder {
            case .column(let info, let index):
                let property = info.property(index)
                let column = quoted(property.storedName)
                let type = quoted(ClassInfo.mixedTypeColumn(property))
                // Most deletes find no link: look in the (partial) index before building the list.
                guard try connection.scalarText("SELECT 1 FROM \(info.table) WHERE \(type) = 10 LIMIT 1") != nil else { continue }
                try run("UPDATE \(info.table) SET \(column) = NULL, \(type) = 0 WHERE \(type) = 10 AND \(column) IN \(texts)")
            case .collection(_, _, let table):
                guard try connection.scalarText("SELECT 1 FROM \(table.name) WHERE value_type = 10 LIMIT 1") != nil else { continue }
                let matching = "value_type = 10 AND value IN \(texts)"
                switch table.kind {
                case .list:
                    var owners: [Int64] = []
                    try run("SELECT DISTINCT owner FROM \(table.name) WHERE \(matching)") { (statement) throws(DrumlinError) in
                        while try statement.step() { owners.append(statement.int64(0)) }
                    }
                    guard !owners.isEmpty else { continue }
                    try run("DELETE FROM \(table.name) WHERE \(matching)")
                    for owner in owners { try renumber(table, owner, connection) }
                case .set:
                    try run("DELETE FROM \(table.name) WHERE \(matching)")
                case .dictionary:
                    try run("UPDATE \(table.name) SET value = NULL, value_type = 0 WHERE \(matching)")
                case .single:
                    break
                }
            }
        }
        guard try connection.scalarText("SELECT 1 FROM \(MixedStore.table) WHERE value_type = \(Self.mixedLinkCode) LIMIT 1") != nil else { return }
        try Self.clearNestedMixedLinks("value IN \(texts)", connection) { (statement) throws(DrumlinError) in try statement.bind(parameters) }
    }
}
