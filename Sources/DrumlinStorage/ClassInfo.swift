import DrumlinSchema
import DrumlinValues

/// A class of the open schema, resolved once at open: its table, its columns and the SQL for the
/// operations on it. Property indexes (positions in `schema.properties`) are what the C API's
/// `drumlin_property_index` hands out.
@usableFromInline
package final class ClassInfo {
    package let index: Int
    package let schema: ObjectSchema
    package let table: String
    /// The INTEGER PRIMARY KEY column: the primary key itself for a required `int` key (so a
    /// lookup by key is one B-tree search), otherwise `_drumlin_key`.
    package let keyColumn: String
    /// Classes whose row key is their int primary key keep creation order in `_drumlin_seq`.
    package let hasSequenceColumn: Bool
    package let primaryKeyIndex: Int?
    /// Per property: its position in `selectColumns` (nil for collections and computed ones).
    @usableFromInline package let slots: [Int?]
    /// The quoted columns `selectRowSQL` reads, in order (a mixed property adds its type column).
    let selectColumns: [String]
    private let indexByName: [ExactName: Int]

    package let selectRowSQL: String
    /// `e.<key>, e.<column>, ...`: a row of this class read under the alias `e`.
    package let aliasedRowColumns: String
    /// The same row read under the alias `t0`.
    package let rowColumnsT0: String
    /// The creation-order expression under the alias `t0`.
    package let creationOrderT0: String
    /// For a class keyed by its int primary key (`hasSequenceColumn`): the `_drumlin_meta` key whose
    /// row says that the class's creation order is its key order (see
    /// DrumlinEngine/Objects/Database+KeyOrder.swift), and the SQL condition that holds while that
    /// row exists.
    package let keyOrderMetaKey: String
    package let keyOrderGuard: String
    /// The class's table under the alias `t0` joined to that `_drumlin_meta` row (`FROM` and
    /// `WHERE`): a read of `t0` that finds nothing unless the class is in key order. As a join on
    /// the row (one B-tree search before the scan), not `keyOrderGuard`, which SQLite evaluates
    /// again for every row it scans (its subroutine's `Once` test): ~600 instructions per row
    /// of a range read that keeps one row in five.
    package let keyOrderTableT0: (from: String, condition: String)
    /// The row (key first) by primary key, in one statement.
    package let selectRowByPrimaryKeySQL: String
    package let keyByPrimaryKeySQL: String
    package let existsSQL: String
    package let insertSQL: String
    /// `INSERT INTO t (columns)`, for multi-row inserts.
    package let insertPrefix: String
    package let deleteSQL: String
    package let countSQL: String

    package static let keyColumnName = "_drumlin_key"

    /// Statement slots (see `Connection.statement(slot:)`): fixed operations first, then one
    /// single-property UPDATE by object key per property, then one by primary key per property.
    package enum Slot: Int {
        case insert, selectRow, keyByPrimaryKey, exists, delete, count, readSequence, writeSequence, insertBatch, selectRowByPrimaryKey
        /// `selectRow` for a read nested in another row's read (an embedded object, a link target's
        /// primary key), which may be on `selectRow` of the same class.
        case selectNestedRow
    }
    static let fixedSlots = 11
    // The vars below are set while the database opens (`resolve`, the slot layout) and only read
    // afterwards, under the database's call lock: they skip Swift's dynamic exclusivity checks,
    // which the hot paths would otherwise pay on every call.
    /// Where this class's slots start; set once at open.
    @exclusivity(unchecked) package var slotBase = 0
    package var slotCount: Int { Self.fixedSlots + 3 * schema.properties.count }
    package func slot(_ slot: Slot) -> Int { slotBase + slot.rawValue }
    package func updateSlot(_ propertyIndex: Int) -> Int { slotBase + Self.fixedSlots + propertyIndex }
    /// Whether the primary key may be null (for one object at most).
    package var hasOptionalPrimaryKey: Bool { primaryKeyIndex.map { traits[$0].isOptional } ?? false }
    /// Whether these properties are all read from the row itself (no collection, backlink or
    /// nested mixed value, which need more reads).
    package func inRow(_ indices: [Int]) -> Bool { indices.allSatisfy { traits[$0].isColumn && traits[$0].type != .mixed } }
    /// `inRow`, remembering the answer for the last array asked about (a face asks with the same
    /// array on every read of a class; comparing it with itself is one identity check).
    package func allInRow(_ indices: [Int]) -> Bool {
        if let last = lastInRow, last.indices == indices { return last.answer }
        let answer = inRow(indices)
        lastInRow = (indices, answer)
        return answer
    }
    @exclusivity(unchecked) private var lastInRow: (indices: [Int], answer: Bool)?
    package func updateByPrimaryKeySlot(_ propertyIndex: Int) -> Int { slotBase + Self.fixedSlots + schema.properties.count + propertyIndex }
    /// The slot of `selectElementsSQL[propertyIndex]`: every element of one owner's collection.
    package func elementsSlot(_ propertyIndex: Int) -> Int { slotBase + Self.fixedSlots + 2 * schema.properties.count + propertyIndex }
    /// The public name as a C string, to find classes by name without allocating.
    package let nameBytes: [UInt8]
    package let storedNameBytes: [UInt8]

    /// What the hot paths need to know about a property, without copying `Property` (which holds
    /// strings and JSON) for every value read or written.
    @usableFromInline
    package struct Traits {
        @usableFromInline package var type: PropertyType
        package var collection: CollectionKind
        @usableFromInline package var isOptional: Bool
        package var isPrimaryKey: Bool
        package var isColumn: Bool { collection == .single && type != .linkingObjects }
        package var isComputed: Bool { type == .linkingObjects }
    }
    @usableFromInline package let traits: [Traits]
    /// Public property names, by property index.
    package let propertyNames: [String]
    /// Decoded `default` values of scalar properties (checked at open).
    package let defaults: [Value?]
    /// Property indexes of the column properties, in column order.
    package let columnIndexes: [Int]
    /// Per property: the side table of a list, set or dictionary property.
    package let collectionTables: [CollectionTable?]
    /// Per property: its side table's `selectElementsSQL`, made once (a read of the collection
    /// does not build the string again; its statement has a slot, `elementsSlot`).
    package let selectElementsSQL: [String?]
    /// Per property: the class a link, link collection or linkingObjects property points at.
    /// Set by `resolve(_:)` once every class exists.
    ///
    /// This and the other state set after `init` are private stored properties read through
    /// computed ones: Swift checks the exclusivity of a stored `var` accessed from another module
    /// (the engine) at every access, `@exclusivity(unchecked)` here notwithstanding; a getter
    /// compiled in this module does not.
    @exclusivity(unchecked) private var _targets: [ClassInfo?] = []
    package var targets: [ClassInfo?] { _targets }
    /// The class index of property `index`'s target (-1: not a link): what a row read needs per
    /// link value, without the copy (a retain and a release) of `targets` a read through it makes.
    package func targetIndex(_ index: Int) -> Int { _targets[index]?.index ?? -1 }
    /// Properties (of any class, this one included) that link to this class.
    @exclusivity(unchecked) private var _incoming: [(origin: ClassInfo, property: Int)] = []
    package var incoming: [(origin: ClassInfo, property: Int)] { _incoming }
    package static let sequenceColumnName = "_drumlin_seq"

    /// `allowsIntegerRowKey` false keeps `_drumlin_key` as the row key even for a required int
    /// primary key: a migration's tables hold the key as a plain column until it is checked.
    package init(index: Int, schema: ObjectSchema, allowsIntegerRowKey: Bool = true) {
        self.index = index
        self.schema = schema
        nameBytes = Array(schema.name.utf8)
        storedNameBytes = Array(schema.storedName.utf8)
        table = quoted(schema.storedName)
        let pk = schema.primaryKeyProperty
        let pkIsRowKey = allowsIntegerRowKey && pk.map { $0.type == .int && !$0.isOptional && $0.collection == .single } ?? false
        keyColumn = pkIsRowKey ? quoted(pk!.storedName) : quoted(Self.keyColumnName)
        hasSequenceColumn = pkIsRowKey
        primaryKeyIndex = schema.primaryKey.flatMap { name in schema.properties.firstIndex { $0.name.isSameName(name) } }

        var slots: [Int?] = []
        var columns: [String] = []
        var names: [ExactName: Int] = [:]
        for (i, property) in schema.properties.enumerated() {
            names[ExactName(property.storedName)] = i
            if property.isColumn {
                slots.append(columns.count)
                columns.append(quoted(property.storedName))
                if property.type == .mixed { columns.append(quoted(Self.mixedTypeColumn(property))) }
            } else {
                slots.append(nil)
            }
        }
        // Public names win over stored names when they collide across properties.
        for (i, property) in schema.properties.enumerated() { names[ExactName(property.name)] = i }
        self.slots = slots
        propertyNames = schema.properties.map(\.name)
        traits = schema.properties.map {
            Traits(type: $0.type, collection: $0.collection, isOptional: $0.isOptional, isPrimaryKey: $0.isPrimaryKey)
        }
        defaults = schema.properties.map { property in
            guard let json = property.defaultValue, property.collection == .single, property.type != .object,
                  let value = try? ExtendedJSON.mixedValue(json) else { return nil }
            return try? Coercion.scalar(value, property.type, optional: property.isOptional,
                                        nested: property.type == .mixed, Label(className: schema.name, propertyName: property.name))
        }
        columnIndexes = schema.properties.indices.filter { schema.properties[$0].isColumn }
        collectionTables = schema.properties.map { property in
            property.isCollection
                ? CollectionTable(kind: property.collection, table: schema.storedName, column: property.storedName,
                                  elementType: property.type, isIndexed: property.index == .general)
                : nil
        }
        selectElementsSQL = collectionTables.map { $0?.selectElementsSQL }
        selectColumns = columns
        indexByName = names

        let columnList = columns.isEmpty ? "" : ", " + columns.joined(separator: ", ")
        selectRowSQL = "SELECT \(keyColumn)\(columnList) FROM \(table) WHERE \(keyColumn) = ?1"
        let rowKey = keyColumn, rowTable = table
        aliasedRowColumns = (["e.\(rowKey)"] + columns.map { "e.\($0)" }).joined(separator: ", ")
        rowColumnsT0 = (["t0.\(rowKey)"] + columns.map { "t0.\($0)" }).joined(separator: ", ")
        creationOrderT0 = pkIsRowKey ? "t0.\(quoted(Self.sequenceColumnName))" : "t0.\(rowKey)"
        keyOrderMetaKey = "key_order:" + schema.storedName
        let keyOrderLiteral = "'\(keyOrderMetaKey.replacing("'", with: "''"))'"
        keyOrderGuard = "EXISTS (SELECT 1 FROM _drumlin_meta WHERE key = \(keyOrderLiteral))"
        keyOrderTableT0 = ("_drumlin_meta AS key_order CROSS JOIN \(table) AS t0", "key_order.key = \(keyOrderLiteral)")
        selectRowByPrimaryKeySQL = pk.map { "SELECT \(rowKey)\(columnList) FROM \(rowTable) WHERE \(quoted($0.storedName)) IS ?1" } ?? ""
        if let pk {
            keyByPrimaryKeySQL = "SELECT \(keyColumn) FROM \(table) WHERE \(quoted(pk.storedName)) IS ?1"
        } else {
            keyByPrimaryKeySQL = ""
        }
        existsSQL = "SELECT 1 FROM \(table) WHERE \(keyColumn) = ?1"
        var insertColumns = columns
        if hasSequenceColumn { insertColumns.append(quoted(Self.sequenceColumnName)) }
        let placeholders = (1...max(insertColumns.count, 1)).map { "?\($0)" }.joined(separator: ", ")
        insertPrefix = "INSERT INTO \(table) (\(insertColumns.joined(separator: ", ")))"
        insertSQL = insertColumns.isEmpty
            ? "INSERT INTO \(table) DEFAULT VALUES"
            : "\(insertPrefix) VALUES (\(placeholders))"
        deleteSQL = "DELETE FROM \(table) WHERE \(keyColumn) = ?1"
        countSQL = "SELECT count(*) FROM \(table)"
    }

    package static func mixedTypeColumn(_ property: Property) -> String { "_drumlin_type_" + property.storedName }

    /// Connects link properties to their target classes, and targets to the properties pointing
    /// at them. Runs once at open, after every ClassInfo exists.
    /// Runs again when classes are added to an open database or removed by a rollback (each
    /// class's incoming links start afresh).
    package static func resolve(_ classes: [ClassInfo]) {
        var byName: [ExactName: ClassInfo] = [:]
        for info in classes { byName[ExactName(info.name)] = info }
        for info in classes { info._incoming = [] }
        for info in classes {
            info._targets = info.schema.properties.map { property in property.objectType.flatMap { byName[ExactName($0)] } }
            for (index, property) in info.schema.properties.enumerated() where property.type == .object {
                info._targets[index]?._incoming.append((info, index))
            }
        }
        for info in classes {
            info._hasCollections = info.collectionTables.contains { $0 != nil }
            info._hasRelationships = info.schema.properties.contains { $0.isCollection || $0.type == .object || $0.type == .mixed }
                || !info.incoming.isEmpty
            info._geoPointIndices = geoPointIndices(info)
        }
        // Where a mixed value can hold a link: every class's mixed columns and mixed collections.
        var holders: [MixedLinkHolder] = []
        for info in classes {
            for (index, property) in info.schema.properties.enumerated() where property.type == .mixed {
                if property.isColumn {
                    holders.append(.column(info, index))
                } else if let table = info.collectionTables[index] {
                    holders.append(.collection(info, index, table))
                }
            }
        }
        var probes = holders.map { holder -> String in
            switch holder {
            case .column(let info, let index):
                let property = info.property(index)
                return "EXISTS (SELECT 1 FROM \(info.table) WHERE \(quoted(mixedTypeColumn(property))) = 10 AND \(quoted(property.storedName)) = ?1)"
            case .collection(_, _, let table):
                return "EXISTS (SELECT 1 FROM \(table.name) WHERE value_type = 10 AND value = ?1)"
            }
        }
        // Nested lists and dictionaries exist only inside mixed values.
        if !holders.isEmpty { probes.append("EXISTS (SELECT 1 FROM \(MixedStore.table) WHERE value_type = 10 AND value = ?1)") }
        for info in classes where info.schema.kind == .topLevel {
            info._mixedLinkHolders = holders
            info._mixedLinkProbeSQL = probes.isEmpty ? nil : "SELECT " + probes.joined(separator: " OR ")
        }
    }

    /// A GeoJSON point type: an embedded class with `type: "string"` and `coordinates: "double[]"`
    /// (see DrumlinEngine/Objects/Database+Geo.swift).
    static func geoPointIndices(_ info: ClassInfo) -> (type: Int, coordinates: Int)? {
        guard info.isEmbedded,
              let type = info.propertyIndex("type"), let coordinates = info.propertyIndex("coordinates"),
              info.property(type).type == .string, info.property(type).collection == .single,
              info.property(coordinates).type == .double, info.property(coordinates).collection == .list
        else { return nil }
        return (type, coordinates)
    }

    /// One statement telling whether any mixed value holds a given object (`?1`: its stored form).
    @exclusivity(unchecked) private var _mixedLinkProbeSQL: String?
    package var mixedLinkProbeSQL: String? { _mixedLinkProbeSQL }

    /// Where mixed values pointing at this class's objects may be (empty for classes a mixed
    /// value cannot link to, and for schemas without mixed properties).
    @exclusivity(unchecked) private var _mixedLinkHolders: [MixedLinkHolder] = []
    package var mixedLinkHolders: [MixedLinkHolder] { _mixedLinkHolders }

    package var isEmbedded: Bool { schema.kind == .embedded }

    /// Whether the class has list, set or dictionary properties.
    @exclusivity(unchecked) private var _hasCollections: Bool = false
    package var hasCollections: Bool { _hasCollections }
    /// Whether writes to this class can touch more than its own row (links, collections, mixed,
    /// or links pointing here), so they need a savepoint and cascading deletes.
    @exclusivity(unchecked) private var _hasRelationships: Bool = false
    package var hasRelationships: Bool { _hasRelationships }
    /// For GeoJSON point types: the `type` and `coordinates` properties.
    @exclusivity(unchecked) private var _geoPointIndices: (type: Int, coordinates: Int)?
    package var geoPointIndices: (type: Int, coordinates: Int)? { _geoPointIndices }
    /// The row properties, computed on first use (`rowIndices`).
    @exclusivity(unchecked) private var _cachedRowIndices: [Int]?
    package var cachedRowIndices: [Int]? {
        get { _cachedRowIndices }
        set { _cachedRowIndices = newValue }
    }
    /// See `Database.wholeRowPropertyIndices(classIndex:)`.
    @exclusivity(unchecked) private var _cachedWholeRowIndices: [Int]?
    package var cachedWholeRowIndices: [Int]? {
        get { _cachedWholeRowIndices }
        set { _cachedWholeRowIndices = newValue }
    }

    /// Targets and incoming links reference classes both ways; the database breaks the cycle
    /// when it goes away.
    package func unlinkClasses() {
        _targets = []
        _incoming = []
        _mixedLinkHolders = []
    }

    /// Set when the class leaves its database: it was added in a write transaction that rolled
    /// back, and its table is gone with it. Objects and results of it are then invalid.
    @exclusivity(unchecked) private var _isRemoved = false
    package var isRemoved: Bool { _isRemoved }
    package func markRemoved() {
        _targets = _targets.map { _ in nil }
        _incoming = []
        _mixedLinkHolders = []
        _isRemoved = true
    }

    package var name: String { schema.name }

    /// Resolves a public or stored property name.
    package func propertyIndex(_ name: String) -> Int? { indexByName[ExactName(name)] }

    package func property(_ index: Int) -> Property { schema.properties[index] }

    /// The DDL that creates this class's table and indexes.
    package var createStatements: [String] {
        var definitions: [String] = []
        if hasSequenceColumn {
            let pk = schema.primaryKeyProperty!
            definitions.append("\(quoted(pk.storedName)) INTEGER PRIMARY KEY")
            definitions.append("\(quoted(Self.sequenceColumnName)) INTEGER NOT NULL")
        } else {
            definitions.append("\(quoted(Self.keyColumnName)) INTEGER PRIMARY KEY")
        }
        for property in schema.properties where property.isColumn {
            if hasSequenceColumn && property.isPrimaryKey { continue }
            definitions.append(contentsOf: Self.columnDefinitions(property, withDefault: false))
        }
        var statements = ["CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))"]
        for property in schema.properties where property.isColumn {
            if let sql = indexStatement(property) { statements.append(sql) }
            if let sql = mixedLinkIndexStatement(property) { statements.append(sql) }
        }
        for table in collectionTables.compactMap({ $0 }) { statements.append(contentsOf: table.createStatements) }
        for property in schema.properties where property.index == .fullText && property.isColumn {
            statements.append(contentsOf: FullText.createStatements(self, property))
        }
        return statements
    }

    /// Column definitions for one property; `withDefault` gives existing rows a value when the
    /// column is added to a table that already has objects.
    package static func columnDefinitions(_ property: Property, withDefault: Bool) -> [String] {
        let type = ValueCodec.columnType(property)
        var definition = quoted(property.storedName) + (type.isEmpty ? "" : " " + type)
        if withDefault, !property.isOptional, property.type != .object, property.type != .mixed {
            definition += " DEFAULT " + zeroLiteral(property.type)
        }
        var definitions = [definition]
        if property.type == .mixed {
            definitions.append("\(quoted(mixedTypeColumn(property))) INTEGER NOT NULL DEFAULT 0")
        }
        return definitions
    }

    /// The value existing objects get for a new required property (Realm's zero values).
    package static func zeroLiteral(_ type: PropertyType) -> String {
        switch type {
        case .bool, .int, .date: "0"
        case .float, .double: "0.0"
        case .decimal128: "'0'"
        case .string: "''"
        case .data: "x''"
        case .objectId: "x'000000000000000000000000'"
        case .uuid: "x'00000000000000000000000000000000'"
        case .mixed, .object, .linkingObjects: "NULL"
        }
    }

    package func indexName(_ property: Property) -> String {
        quoted(sideName(property.isPrimaryKey ? "pk" : "idx", table: schema.storedName, column: property.storedName))
    }

    /// The CREATE INDEX statement a property needs, if any. The primary key gets a unique index
    /// (unless it is the row key itself); `indexed: true` properties and links get a plain one.
    package func indexStatement(_ property: Property) -> String? {
        let column = quoted(property.storedName)
        if property.isPrimaryKey {
            if hasSequenceColumn { return nil }
            return "CREATE UNIQUE INDEX \(indexName(property)) ON \(table) (\(column))"
        }
        if property.index == .general || property.type == .object {
            return "CREATE INDEX \(indexName(property)) ON \(table) (\(column))"
        }
        return nil
    }

    /// For a mixed column: a partial index over the rows holding a link (type 10), so deleting
    /// an object finds the mixed values pointing at it without scanning the table.
    package func mixedLinkIndexStatement(_ property: Property) -> String? {
        guard property.type == .mixed, property.isColumn else { return nil }
        let name = quoted(sideName("mlink", table: schema.storedName, column: property.storedName))
        return "CREATE INDEX IF NOT EXISTS \(name) ON \(table) (\(quoted(property.storedName))) WHERE \(quoted(Self.mixedTypeColumn(property))) = 10"
    }
}
