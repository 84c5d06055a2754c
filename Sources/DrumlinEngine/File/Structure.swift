import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// The file's SQLite schema (`sqlite_master`) compared with what Drumlin makes for the classes
/// stored in it (docs/storage.md, "Objects Drumlin did not make"). Objects that change what a
/// read or a write does — a trigger, an index that refuses or computes (unique, partial,
/// expression), a `CHECK`, `UNIQUE`, `COLLATE`, `REFERENCES` or other clause in one of Drumlin's
/// tables, a generated or `NOT NULL` column Drumlin did not make — refuse the open with `CORRUPT`,
/// naming them, before anything is written. Harmless extras (a view, another table, a plain index)
/// are left alone and listed by `check()`. One read of `sqlite_master` and one
/// `pragma_table_xinfo` per stored table, all from SQLite's in-memory schema.
enum Structure {
    /// One row of `sqlite_master`.
    struct Entry {
        let type: String
        let name: String
        let table: String
        let sql: String
    }

    /// Names compared byte for byte.
    typealias Name = ExactName

    /// What Drumlin makes for the stored classes: each object's type and SQL, by name.
    struct Expected {
        var objects: [Name: (type: String, sql: String)] = [:]
        /// Class and collection tables, with their class (for messages and column checks).
        var classTables: [Name: ClassInfo] = [:]
        var collectionTables: [Name: (ClassInfo, Int)] = [:]
        /// Full-text tables: their shadow tables (`<name>_data` …) are SQLite's.
        var fullTextTables: Set<Name> = []

        init(_ classes: [ClassInfo]) {
            for sql in Storage.metadataStatements + [ChangeLog.createSQL, UploadQueue.createSQL] { add(sql) }
            for info in classes {
                classTables[Name(info.schema.storedName)] = info
                for (index, table) in info.collectionTables.enumerated() {
                    if let table { collectionTables[Name(table.rawName)] = (info, index) }
                }
                for sql in info.createStatements { add(sql) }
                for property in info.schema.properties where property.index == .fullText && property.isColumn {
                    fullTextTables.insert(Name(FullText.tableName(info, property)))
                }
            }
        }

        private mutating func add(_ sql: String) {
            guard let (type, name) = Structure.createdObject(sql) else { return }
            objects[Name(name)] = (type, sql.replacing(" IF NOT EXISTS", with: ""))
        }
    }

    /// The type (`table`, `index`, `trigger`) and name of the object a CREATE statement makes.
    static func createdObject(_ sql: String) -> (String, String)? {
        let tokens = Array(SQLTokens(sql).prefix(8))
        guard tokens.first?.word == "CREATE" else { return nil }
        var iterator = tokens.dropFirst().makeIterator()
        var type: String?
        while let token = iterator.next() {
            switch token.word {
            case "TABLE", "INDEX", "TRIGGER", "VIEW": type = token.word?.lowercased()
            case "IF", "NOT", "EXISTS", "UNIQUE", "VIRTUAL", "TEMP", "TEMPORARY": continue
            default: break
            }
            if type != nil { break }
        }
        guard let type else { return nil }
        while let token = iterator.next() {
            if ["IF", "NOT", "EXISTS"].contains(token.word ?? "") { continue }
            guard let name = token.identifier else { return nil }
            return (type, name)
        }
        return nil
    }

    static func entries(_ connection: Connection) throws(DrumlinError) -> [Entry] {
        let statement = try connection.statement("SELECT type, name, tbl_name, sql FROM sqlite_master")
        defer { statement.reset() }
        var entries: [Entry] = []
        while try statement.step() {
            entries.append(Entry(type: statement.string(0), name: statement.string(1), table: statement.string(2), sql: statement.string(3)))
        }
        return entries
    }

    /// Refuses a file holding objects that change what Drumlin's reads and writes do, or whose
    /// tables lack a column the stored schema names (`CORRUPT`, every problem named).
    static func verify(_ connection: Connection, path: String) throws(DrumlinError) {
        let stored = try SchemaMigration.storedSchema(connection, path: path)
        let classes = stored.objectSchemas.enumerated().map { ClassInfo(index: $0, schema: $1) }
        let (refused, _) = try inspect(connection, classes: classes)
        guard !refused.isEmpty else { return }
        throw DrumlinError(.corrupt, "The file '\(path)' is damaged: " + refused.prefix(10).joined(separator: " ")
                         + (refused.count > 10 ? " (and \(refused.count - 10) more)" : "") + " It was left unchanged.")
    }

    /// The problems that refuse the file, and the harmless extras `check()` lists.
    static func inspect(_ connection: Connection, classes: [ClassInfo]) throws(DrumlinError) -> (refused: [String], harmless: [String]) {
        let expected = Expected(classes)
        var refused: [String] = []
        var harmless: [String] = []
        let all = try entries(connection)
        var tables = Set<Name>()
        for entry in all where entry.type == "table" { tables.insert(Name(entry.name)) }
        func isShadow(_ name: String) -> Bool {
            for suffix in ["_data", "_idx", "_docsize", "_config", "_content"] where name.hasSuffix(suffix) {
                if expected.fullTextTables.contains(Name(String(name.utf8.dropLast(suffix.utf8.count))!)) { return true }
            }
            return false
        }
        for entry in all {
            let name = Name(entry.name)
            let known = expected.objects[name]
            switch entry.type {
            case "table":
                if entry.name.hasPrefix("sqlite_") || isShadow(entry.name) { continue }
                guard let known else {
                    harmless.append("The file holds a table '\(entry.name)' that Drumlin did not make (Drumlin leaves it alone).")
                    continue
                }
                if entry.sql.hasPrefix("CREATE VIRTUAL TABLE") || known.sql.hasPrefix("CREATE VIRTUAL TABLE") {
                    if entry.sql != known.sql {
                        refused.append("The full-text table '\(entry.name)' is not the one Drumlin makes (\(entry.sql.prefix(160))).")
                    }
                    continue
                }
                if let clause = foreignClause(entry.sql) {
                    refused.append("The table '\(entry.name)' has \(clause) that Drumlin did not make.")
                }
                try refused += columnProblems(connection, entry.name, expected)
            case "index":
                if entry.name.hasPrefix("sqlite_autoindex_") { continue }
                if let known, known.type == "index", known.sql == entry.sql { continue }
                // An index of Drumlin's name made another way (by another version) may do what
                // Drumlin's own does: unique for a primary key, partial for held objects.
                var effects = try indexEffects(connection, entry)
                if let known, known.type == "index" {
                    let words = Set(SQLTokens(known.sql).compactMap(\.word))
                    effects.removeAll { ($0 == "unique" && words.contains("UNIQUE")) || ($0 == "partial" && words.contains("WHERE")) }
                }
                let effect = effects.isEmpty ? nil : effects.joined(separator: ", ")
                let onDrumlin = expected.objects[Name(entry.table)] != nil
                if let effect, onDrumlin {
                    refused.append("The index '\(entry.name)' on '\(entry.table)' is \(effect), which Drumlin did not make: it would change what writes or reads do.")
                } else if known != nil {
                    harmless.append("The index '\(entry.name)' is not the one Drumlin makes (\(entry.sql.prefix(160))).")
                } else {
                    harmless.append("The file holds an index '\(entry.name)' on '\(entry.table)' that Drumlin did not make.")
                }
            case "trigger":
                if let known, known.type == "trigger", known.sql == entry.sql { continue }
                refused.append("The trigger '\(entry.name)' on '\(entry.table)' was not made by Drumlin: it would run on Drumlin's writes.")
            case "view":
                harmless.append("The file holds a view '\(entry.name)' that Drumlin did not make (Drumlin leaves it alone).")
            default:
                harmless.append("The file holds a \(entry.type) '\(entry.name)' that Drumlin did not make.")
            }
        }
        // Each stored property's column (a table that is missing is reported elsewhere).
        for info in classes where tables.contains(Name(info.schema.storedName)) {
            let columns = try tableColumns(connection, info.schema.storedName)
            var names = Set<Name>()
            for column in columns { names.insert(Name(column.name)) }
            for property in info.schema.properties where property.isColumn {
                var needed = [property.storedName]
                if property.type == .mixed { needed.append(ClassInfo.mixedTypeColumn(property)) }
                for column in needed where !names.contains(Name(column)) {
                    refused.append("The column '\(column)' of '\(info.name).\(property.name)' is missing from the table '\(info.schema.storedName)'.")
                }
                if let column = columns.first(where: { Name($0.name) == Name(property.storedName) }),
                   column.type.uppercased() != ValueCodec.columnType(property) {
                    refused.append("The column '\(column.name)' of '\(info.name).\(property.name)' is declared '\(column.type)', not '\(ValueCodec.columnType(property))' as a \(property.type.realmName) property's is.")
                }
            }
            let keyColumn = info.hasSequenceColumn ? info.schema.primaryKeyProperty!.storedName : ClassInfo.keyColumnName
            if !names.contains(Name(keyColumn)) {
                refused.append("The key column '\(keyColumn)' of class '\(info.name)' is missing from the table '\(info.schema.storedName)'.")
            }
        }
        return (refused, harmless)
    }

    struct Column {
        let name: String
        let type: String
        let notNull: Bool
        let hasDefault: Bool
        let hidden: Int64
    }

    static func tableColumns(_ connection: Connection, _ table: String) throws(DrumlinError) -> [Column] {
        let statement = try connection.statement("SELECT name, type, \"notnull\", dflt_value IS NOT NULL, hidden FROM pragma_table_xinfo(?1)")
        defer { statement.reset() }
        statement.bind(table, at: 1)
        var columns: [Column] = []
        while try statement.step() {
            columns.append(Column(name: statement.string(0), type: statement.string(1), notNull: statement.int64(2) != 0,
                                  hasDefault: statement.int64(3) != 0, hidden: statement.int64(4)))
        }
        return columns
    }

    /// Generated columns and `NOT NULL` where Drumlin stores nulls, in one of Drumlin's tables.
    private static func columnProblems(_ connection: Connection, _ table: String, _ expected: Expected) throws(DrumlinError) -> [String] {
        let name = Name(table)
        var allowedNotNull: Set<Name>
        var known: Set<Name>?
        if let info = expected.classTables[name] {
            allowedNotNull = [Name(ClassInfo.sequenceColumnName), Name(ClassInfo.keyColumnName)]
            known = allowedNotNull
            if info.hasSequenceColumn { allowedNotNull.insert(Name(info.schema.primaryKeyProperty!.storedName)) }
            for property in info.schema.properties where property.isColumn {
                known?.insert(Name(property.storedName))
                if property.type == .mixed {
                    allowedNotNull.insert(Name(ClassInfo.mixedTypeColumn(property)))
                    known?.insert(Name(ClassInfo.mixedTypeColumn(property)))
                }
            }
        } else if expected.collectionTables[name] != nil {
            allowedNotNull = [Name("owner"), Name("position"), Name("key"), Name("value_type")]
        } else {
            return []   // Drumlin's metadata tables: their clauses were checked
        }
        var problems: [String] = []
        for column in try tableColumns(connection, table) {
            if column.hidden == 2 || column.hidden == 3 {
                problems.append("The table '\(table)' has a generated column '\(column.name)' that Drumlin did not make.")
            } else if column.notNull && !allowedNotNull.contains(Name(column.name)) {
                if known?.contains(Name(column.name)) ?? true {
                    problems.append("The column '\(column.name)' of the table '\(table)' is NOT NULL, which Drumlin did not make it.")
                } else if !column.hasDefault {
                    problems.append("The table '\(table)' has a NOT NULL column '\(column.name)' without a default that Drumlin did not make: it would refuse every new object.")
                }
            }
        }
        return problems
    }

    /// The first clause of a CREATE TABLE statement that Drumlin never writes (a `CHECK`
    /// constraint, `UNIQUE`, `COLLATE`, `REFERENCES`, `GENERATED` …), described; nil if none.
    static func foreignClause(_ sql: String) -> String? {
        let allowed: Set<String> = ["CREATE", "TABLE", "INTEGER", "PRIMARY", "KEY", "NOT", "NULL", "DEFAULT", "TEXT",
                                    "REAL", "BLOB", "WITHOUT", "ROWID", "ANY",
                                    // bare column names of Drumlin's metadata and collection tables
                                    "VALUE", "OWNER", "POSITION", "VALUE_TYPE", "TABLE_NAME", "NAME", "DEFINITION",
                                    "NEXT_SEQ", "ID", "KIND", "COLLECTION", "SEQ", "DATA", "FRAME", "OBJECTS",
                                    "_DRUMLIN_META", "_DRUMLIN_CLASSES", "_DRUMLIN_MIXED_COLLECTIONS", "_DRUMLIN_MIXED",
                                    "_DRUMLIN_CHANGES", "_DRUMLIN_SYNC_BATCHES"]
        for token in SQLTokens(sql) {
            guard let word = token.word else { continue }
            if allowed.contains(word) { continue }
            return ["CHECK", "UNIQUE", "COLLATE", "REFERENCES", "FOREIGN", "GENERATED", "AS"].contains(word)
                ? (word == "CHECK" ? "a CHECK constraint" : word == "GENERATED" || word == "AS" ? "a generated column" : "a \(word) clause")
                : "the clause '\(word)'"
        }
        return nil
    }

    /// What an index does besides speeding up reads: "unique", "partial", "on an expression";
    /// none for a plain index on columns.
    private static func indexEffects(_ connection: Connection, _ entry: Entry) throws(DrumlinError) -> [String] {
        let list = try connection.statement("SELECT \"unique\", partial FROM pragma_index_list(?1) WHERE name = ?2")
        list.bind(entry.table, at: 1)
        list.bind(entry.name, at: 2)
        var effects: [String] = []
        if try list.step() {
            if list.int64(0) != 0 { effects.append("unique") }
            if list.int64(1) != 0 { effects.append("partial") }
        }
        list.reset()
        let columns = try connection.statement("SELECT count(*) FROM pragma_index_xinfo(?1) WHERE cid = -2")
        columns.bind(entry.name, at: 1)
        if try columns.step(), columns.int64(0) > 0 { effects.append("on an expression") }
        columns.reset()
        return effects
    }
}

/// The tokens of one SQL statement, enough to tell keywords from names: quoted identifiers
/// ("…", `…`, […]), string and blob literals, numbers, bare words, punctuation.
struct SQLTokens: Sequence, IteratorProtocol {
    struct Token {
        /// A bare word, upper-cased (a keyword or an unquoted name).
        var word: String?
        /// A name: quoted, or a bare word.
        var identifier: String?
    }

    private let bytes: [UInt8]
    private var at = 0

    init(_ sql: String) { bytes = Array(sql.utf8) }

    mutating func next() -> Token? {
        while at < bytes.count {
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                at += 1
            case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "'"):
                let text = quoted(until: byte)
                return byte == UInt8(ascii: "'") ? Token() : Token(identifier: text)
            case UInt8(ascii: "["):
                return Token(identifier: quoted(until: UInt8(ascii: "]")))
            case UInt8(ascii: "-") where at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: "-"):
                while at < bytes.count && bytes[at] != UInt8(ascii: "\n") { at += 1 }
            case UInt8(ascii: "/") where at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: "*"):
                at += 2
                while at + 1 < bytes.count && !(bytes[at] == UInt8(ascii: "*") && bytes[at + 1] == UInt8(ascii: "/")) { at += 1 }
                at += 2
            default:
                if isWordByte(byte) {
                    let start = at
                    while at < bytes.count && isWordByte(bytes[at]) { at += 1 }
                    // x'…' is a blob literal.
                    if at - start == 1 && (byte | 0x20) == UInt8(ascii: "x") && at < bytes.count && bytes[at] == UInt8(ascii: "'") {
                        _ = quoted(until: UInt8(ascii: "'"))
                        return Token()
                    }
                    if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { return Token() }
                    let text = String(decoding: bytes[start..<at], as: UTF8.self)
                    return Token(word: text.uppercased(), identifier: text)
                }
                at += 1
                return Token()
            }
        }
        return nil
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: ".")
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// The text of a quoted token starting at `at` (a doubled closing quote is one quote).
    private mutating func quoted(until close: UInt8) -> String {
        at += 1
        var text: [UInt8] = []
        while at < bytes.count {
            if bytes[at] == close {
                if close != UInt8(ascii: "]") && at + 1 < bytes.count && bytes[at + 1] == close {
                    text.append(close)
                    at += 2
                    continue
                }
                at += 1
                break
            }
            text.append(bytes[at])
            at += 1
        }
        return String(decoding: text, as: UTF8.self)
    }
}
