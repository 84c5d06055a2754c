import DrumlinSchema

/// The side table holding one collection property's elements. Elements are rows, not JSON blobs,
/// so they are queryable and indexed:
///
/// | kind | columns | indexes |
/// |---|---|---|
/// | list | owner, position (0...n-1), value [, value_type] | keyed by (owner, position) (see `isKeyedByPosition`), else (owner, position); (value) for links |
/// | set | owner, value [, value_type] | (owner, value) |
/// | dictionary | owner, key, value [, value_type] | unique (owner, key); (value) for links |
///
/// `owner` is the object key of the owning object; for links `value` is the target's object key.
package struct CollectionTable {
    package let kind: CollectionKind
    /// Unquoted table name.
    package let rawName: String
    /// Quoted table name, for SQL.
    package let name: String
    let elementType: PropertyType
    package var isMixed: Bool { elementType == .mixed }
    var isLink: Bool { elementType == .object }

    /// `indexed: true` on a list of strings indexes the elements.
    let isIndexed: Bool

    /// A list of values that are neither links nor mixed values is a `WITHOUT ROWID` table keyed
    /// by `(owner, position)` (file format 3): one B-tree, where a rowid table needs a second one,
    /// its `(owner, position)` index, for the same lookups. So (owner, position) is unique in every
    /// row a statement writes: positions move through negative numbers (`shiftStatements`).
    /// Lists of links and of mixed values keep a rowid: it orders backlinks by when each link was
    /// made, and it renumbers a list after the elements holding a deleted object are removed.
    /// Files of formats 1 and 2 keep rowid tables for every list; each statement works on both.
    package var isKeyedByPosition: Bool { kind == .list && !isLink && !isMixed }

    package init(kind: CollectionKind, table: String, column: String, elementType: PropertyType, isIndexed: Bool = false) {
        self.kind = kind
        self.isIndexed = isIndexed
        rawName = sideName(kind.typeWord ?? "single", table: table, column: column)
        name = quoted(rawName)
        self.elementType = elementType
    }

    /// Every element of one owner (`?1`), in the collection's order: `value` (then `value_type`
    /// for mixed elements, then `key` for a dictionary).
    package var selectElementsSQL: String {
        let columns = "value" + (isMixed ? ", value_type" : "")
        return switch kind {
        case .list: "SELECT \(columns) FROM \(name) WHERE owner = ?1 ORDER BY position"
        case .set, .single: "SELECT \(columns) FROM \(name) WHERE owner = ?1 ORDER BY rowid"
        case .dictionary: "SELECT \(columns), key FROM \(name) WHERE owner = ?1 ORDER BY key"
        }
    }

    package var createStatements: [String] {
        var property = Property(name: "value", type: elementType, isOptional: true)
        property.collection = .single
        let type = ValueCodec.columnType(property)
        let valueColumn = "value" + (type.isEmpty ? "" : " " + type)
        let typeColumn = isMixed ? ", value_type INTEGER NOT NULL DEFAULT 0" : ""
        var statements: [String] = []
        switch kind {
        case .list where isKeyedByPosition:
            statements.append("CREATE TABLE \(name) (owner INTEGER NOT NULL, position INTEGER NOT NULL, \(valueColumn), PRIMARY KEY (owner, position)) WITHOUT ROWID")
        case .list:
            statements.append("CREATE TABLE \(name) (owner INTEGER NOT NULL, position INTEGER NOT NULL, \(valueColumn)\(typeColumn))")
            statements.append("CREATE INDEX \(quoted(rawName + "_owner")) ON \(name) (owner, position)")
        case .set:
            statements.append("CREATE TABLE \(name) (owner INTEGER NOT NULL, \(valueColumn)\(typeColumn))")
            statements.append("CREATE INDEX \(quoted(rawName + "_owner")) ON \(name) (owner, value)")
        case .dictionary:
            statements.append("CREATE TABLE \(name) (owner INTEGER NOT NULL, key TEXT NOT NULL, \(valueColumn)\(typeColumn))")
            statements.append("CREATE UNIQUE INDEX \(quoted(rawName + "_owner")) ON \(name) (owner, key)")
        case .single:
            break
        }
        if (isLink || isIndexed) && kind != .set {
            statements.append("CREATE INDEX \(quoted(rawName + "_value")) ON \(name) (value)")
        }
        if isMixed {
            // The elements holding a link (type 10), for clearing them when the target is deleted.
            statements.append("CREATE INDEX \(quoted(rawName + "_mlink")) ON \(name) (value) WHERE value_type = 10")
        }
        return statements
    }

    /// The statements adding `delta` to the positions of one owner's (`?1`) elements that match
    /// `condition` (over `position`, its parameters from `?2` on, bound on the first statement).
    /// A list keyed by position moves them to `-2 - position` first and from there to their new
    /// places, so no row meets another's key half-way (SQLite checks each row as it writes it);
    /// -1 stays free for an element put aside (`List.move`).
    package func shiftStatements(where condition: String, by delta: Int) -> [String] {
        guard isKeyedByPosition else {
            return ["UPDATE \(name) SET position = position + \(delta) WHERE owner = ?1 AND \(condition)"]
        }
        return ["UPDATE \(name) SET position = -2 - position WHERE owner = ?1 AND \(condition)",
                "UPDATE \(name) SET position = \(delta - 2) - position WHERE owner = ?1 AND position <= -2"]
    }
}

/// Names of Drumlin's per-property tables and indexes: `_drumlin_<kind>_<length of table>_<table>_<column>`.
/// The length makes the name unambiguous whatever characters the table and column names contain.
package func sideName(_ kind: String, table: String, column: String) -> String {
    "_drumlin_\(kind)_\(table.utf8.count)_\(table)_\(column)"
}

/// Nested lists and dictionaries inside mixed values. A mixed slot holding a collection stores
/// `DRUMLIN_TYPE_LIST` / `DRUMLIN_TYPE_DICTIONARY` and the collection's id; its elements are rows here
/// (dictionary entries keep their insertion order in `position`).
package enum MixedStore {
    package static let table = "_drumlin_mixed"
    package static let createStatements = [
        "CREATE TABLE _drumlin_mixed_collections (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL)",
        "CREATE TABLE _drumlin_mixed (collection INTEGER NOT NULL, position INTEGER NOT NULL, key TEXT, value, value_type INTEGER NOT NULL)",
        "CREATE INDEX _drumlin_mixed_collection ON _drumlin_mixed (collection, position)",
    ]
}

/// Where a mixed value can hold a link (see DrumlinEngine/Objects/Database+MixedLinks.swift): a
/// mixed property of a class, or a mixed list, set or dictionary property with its table.
package enum MixedLinkHolder {
    case column(ClassInfo, Int)
    case collection(ClassInfo, Int, CollectionTable)
}
