import DrumlinSchema

/// Full-text indexes: an FTS5 table per `indexed: "full-text"` property, kept in sync with the
/// class's table by triggers (unicode61 tokenizer, diacritics removed, so searches ignore case and
/// accents).
package enum FullText {
    package static func tableName(_ info: ClassInfo, _ property: Property) -> String {
        sideName("fts", table: info.schema.storedName, column: property.storedName)
    }

    package static func createStatements(_ info: ClassInfo, _ property: Property) -> [String] {
        let fts = tableName(info, property)
        let table = quoted(fts)
        let column = quoted(property.storedName)
        let key = info.keyColumn
        let content = "'" + info.schema.storedName.replacing("'", with: "''") + "'"
        let contentRowid = "'" + (info.hasSequenceColumn ? info.schema.primaryKeyProperty!.storedName : ClassInfo.keyColumnName).replacing("'", with: "''") + "'"
        return [
            "CREATE VIRTUAL TABLE \(table) USING fts5(\(column), content=\(content), content_rowid=\(contentRowid), tokenize='unicode61 remove_diacritics 2')",
            "CREATE TRIGGER \(quoted(fts + "_insert")) AFTER INSERT ON \(info.table) BEGIN INSERT INTO \(table)(rowid, \(column)) VALUES (new.\(key), new.\(column)); END",
            "CREATE TRIGGER \(quoted(fts + "_delete")) AFTER DELETE ON \(info.table) BEGIN INSERT INTO \(table)(\(table), rowid, \(column)) VALUES ('delete', old.\(key), old.\(column)); END",
            "CREATE TRIGGER \(quoted(fts + "_update")) AFTER UPDATE OF \(column) ON \(info.table) BEGIN INSERT INTO \(table)(\(table), rowid, \(column)) VALUES ('delete', old.\(key), old.\(column)); INSERT INTO \(table)(rowid, \(column)) VALUES (new.\(key), new.\(column)); END",
            "INSERT INTO \(table)(\(table)) VALUES ('rebuild')",
        ]
    }

    package static func dropStatements(_ info: ClassInfo, _ property: Property) -> [String] {
        let fts = tableName(info, property)
        return ["_insert", "_delete", "_update"].map { "DROP TRIGGER IF EXISTS \(quoted(fts + $0))" } + ["DROP TABLE IF EXISTS \(quoted(fts))"]
    }
}
