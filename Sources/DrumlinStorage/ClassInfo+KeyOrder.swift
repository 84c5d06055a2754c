import DrumlinValues

/// The key-order row of a class keyed by its int primary key: see DrumlinEngine/Objects/Database+KeyOrder.swift.
extension ClassInfo {
    /// Writes the key-order row of a class whose table was just created (empty, so in order).
    package func markKeyOrdered(_ connection: Connection) throws(DrumlinError) {
        for sql in markKeyOrderedStatements { try connection.execute(sql) }
    }

    /// The statements of `markKeyOrdered` (none for other classes).
    package var markKeyOrderedStatements: [String] {
        guard hasSequenceColumn else { return [] }
        return ["INSERT OR REPLACE INTO _drumlin_meta (key, value) VALUES ('\(keyOrderMetaKey.replacing("'", with: "''"))', 1)"]
    }

    /// Works out from the rows whether a class's creation order is its key order (after a
    /// migration rebuilt its table), and writes or deletes its key-order row accordingly.
    package func recomputeKeyOrder(_ connection: Connection) throws(DrumlinError) {
        guard hasSequenceColumn else { return }
        let seq = quoted(ClassInfo.sequenceColumnName)
        let statement = try connection.statement("""
            SELECT NOT EXISTS (SELECT 1 FROM (SELECT \(seq) < lag(\(seq)) OVER (ORDER BY \(keyColumn)) AS back \
            FROM \(table)) WHERE back)
            """)
        defer { statement.reset() }
        let ordered = try statement.step() && statement.int64(0) == 1
        statement.reset()
        if ordered {
            try markKeyOrdered(connection)
        } else {
            try unmarkKeyOrdered(connection)
        }
    }

    /// Deletes the key-order row: the class's creation order is no longer its key order.
    package func unmarkKeyOrdered(_ connection: Connection) throws(DrumlinError) {
        let delete = try connection.statement("DELETE FROM _drumlin_meta WHERE key = ?1")
        delete.bind(keyOrderMetaKey, at: 1)
        try delete.run()
    }
}
