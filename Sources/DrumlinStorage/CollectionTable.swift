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
    /// its `(owner, position)` index, for the same lookups. Its elements move by rotating values
    /// (`rotateSQL`), as no row may take a position another still holds.
    /// Lists of links and of mixed values keep a rowid: it orders backlinks by when each link was
    /// made, and it renumbers a list after the elements holding a deleted object are removed.
    /// Files of formats 1 and 2 are given this layout when opened for writing (`Storage`).
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

    /// For a list keyed by position: rotates one owner's (`?1`) elements at positions `?2` ... `?3`
    /// by `?4` places toward the end (`?4` in 0 ..< `?5`, the range's length). Each value is
    /// written at its new position by an upsert from a SELECT, which SQLite reads whole before it
    /// writes; an UPDATE of the positions would meet another row's key half-way, as SQLite checks
    /// each row as it writes it. Inserting, removing and moving an element are each one rotation.
    package var rotateSQL: String {
        "INSERT INTO \(name) (owner, position, value) SELECT owner, ?2 + (position - ?2 + ?4) % ?5, value FROM \(name) "
            + "WHERE owner = ?1 AND position BETWEEN ?2 AND ?3 ON CONFLICT (owner, position) DO UPDATE SET value = excluded.value"
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
        linkIndexStatement,
    ]
    /// The links held inside nested collections (format 4): deleting an object finds them with one
    /// index probe. A format-3 file gets it when opened for writing.
    package static let linkIndexStatement = "CREATE INDEX _drumlin_mixed_links ON _drumlin_mixed (value) WHERE value_type = 10"
}

/// Where a mixed value can hold a link (see DrumlinEngine/Objects/Database+MixedLinks.swift): a
/// mixed property of a class, or a mixed list, set or dictionary property with its table.
package enum MixedLinkHolder {
    case column(ClassInfo, Int)
    case collection(ClassInfo, Int, CollectionTable)
}
