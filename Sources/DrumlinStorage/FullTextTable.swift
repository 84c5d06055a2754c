import DrumlinSchema

/// Full-text indexes: an FTS5 table per `indexed: "full-text"` property, kept in sync with the
/// class's table by triggers (unicode61 tokenizer, diacritics removed, so searches ignore case and
/// accents).
package enum FullText {
    package static func tableName(_ info: ClassInfo, _ property: Property) -> String {
        sideName("fts", table: info.schema.storedName, column: property.storedName)
    }

    /// FTS5 refuses a column named `rowid` or `rank` (ASCII case ignored): a property of such a
    /// name is indexed in a contentless FTS5 table (`content=''`) under the column name
    /// `_drumlin_text`, which the triggers fill from the property's column (a table's own column
    /// named `rowid` hides the rowid in `new."rowid"`). Other names keep the external-content
    /// table that reads the class's table itself.
    package static func isReservedName(_ name: String) -> Bool {
        let lower = String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        return lower == "rowid" || lower == "rank"
    }

    package static func createStatements(_ info: ClassInfo, _ property: Property) -> [String] {
        let fts = tableName(info, property)
        let table = quoted(fts)
        let source = quoted(property.storedName)
        let reserved = isReservedName(property.storedName)
        let column = reserved ? quoted("_drumlin_text") : source
        let key = info.keyColumn
        let content = "'" + info.schema.storedName.replacing("'", with: "''") + "'"
        let contentRowid = "'" + (info.hasSequenceColumn ? info.schema.primaryKeyProperty!.storedName : ClassInfo.keyColumnName).replacing("'", with: "''") + "'"
        let storage = reserved ? "content=''" : "content=\(content), content_rowid=\(contentRowid)"
        return [
            "CREATE VIRTUAL TABLE \(table) USING fts5(\(column), \(storage), tokenize='unicode61 remove_diacritics 2')",
            "CREATE TRIGGER \(quoted(fts + "_insert")) AFTER INSERT ON \(info.table) BEGIN INSERT INTO \(table)(rowid, \(column)) VALUES (new.\(key), new.\(source)); END",
            "CREATE TRIGGER \(quoted(fts + "_delete")) AFTER DELETE ON \(info.table) BEGIN INSERT INTO \(table)(\(table), rowid, \(column)) VALUES ('delete', old.\(key), old.\(source)); END",
            "CREATE TRIGGER \(quoted(fts + "_update")) AFTER UPDATE OF \(source) ON \(info.table) BEGIN INSERT INTO \(table)(\(table), rowid, \(column)) VALUES ('delete', old.\(key), old.\(source)); INSERT INTO \(table)(rowid, \(column)) VALUES (new.\(key), new.\(source)); END",
            reserved
                ? "INSERT INTO \(table)(rowid, \(column)) SELECT \(key), \(source) FROM \(info.table)"
                : "INSERT INTO \(table)(\(table)) VALUES ('rebuild')",
        ]
    }

    package static func dropStatements(_ info: ClassInfo, _ property: Property) -> [String] {
        let fts = tableName(info, property)
        return ["_insert", "_delete", "_update"].map { "DROP TRIGGER IF EXISTS \(quoted(fts + $0))" } + ["DROP TABLE IF EXISTS \(quoted(fts))"]
    }
}
