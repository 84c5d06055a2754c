import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Object keys that change in a migration (a class whose row key becomes its int primary key),
/// and classes that become embedded.
extension MigrationRun {
    /// The stored classes the new schema dropped whose tables are still in the file.
    private func removedClasses() throws(DrumlinError) -> [ObjectSchema] {
        var removed: [ObjectSchema] = []
        for old in stored.objectSchemas where !kept.contains(old.storedName) && !dropped.contains(old.storedName) {
            if try tableExists(old.storedName) { removed.append(old) }
        }
        return removed
    }

    /// Rewrites every reference to `target`'s objects by `temp._drumlin_keymap` (old key → new
    /// key): its collection rows' owners, and links to it from any class in the file.
    func remapKeys(of target: ClassInfo) throws(DrumlinError) {
        let mapped = "(SELECT old FROM temp._drumlin_keymap)"
        let suffix = "':" + target.schema.storedName.replacing("'", with: "''") + "'"
        func map(_ column: String) -> String { "(SELECT new FROM temp._drumlin_keymap WHERE old = \(column))" }
        for side in target.collectionTables.compactMap({ $0 }) {
            // Owners move one row at a time, so a unique (owner, key) could see a collision half-way.
            if side.isKeyedByPosition {
                // A list keyed by (owner, position): its rows move out and back.
                try connection.execute("CREATE TEMP TABLE _drumlin_moving AS SELECT * FROM \(side.name) WHERE owner IN \(mapped)")
                try connection.execute("DELETE FROM \(side.name) WHERE owner IN \(mapped)")
                try connection.execute("UPDATE temp._drumlin_moving SET owner = \(map("owner"))")
                try connection.execute("INSERT INTO \(side.name) SELECT * FROM temp._drumlin_moving")
                try connection.execute("DROP TABLE temp._drumlin_moving")
            } else {
                // A rowid table (whose order sets and backlinks keep): its indexes are rebuilt
                // afterwards, as they were.
                let indexes = try indexDefinitions(on: side.rawName)
                for (name, _) in indexes { try connection.execute("DROP INDEX \(quoted(name))") }
                try connection.execute("UPDATE \(side.name) SET owner = \(map("owner")) WHERE owner IN \(mapped)")
                for (_, sql) in indexes { try connection.execute(sql) }
            }
        }
        for objectSchema in schema.objectSchemas + (try removedClasses()) {
            let info = ClassInfo(index: 0, schema: objectSchema)
            for (i, property) in objectSchema.properties.enumerated()
            where property.type == .object && property.objectType == target.name {
                if property.isColumn {
                    let column = quoted(property.storedName)
                    try connection.execute("UPDATE \(info.table) SET \(column) = \(map(column)) WHERE \(column) IN \(mapped)")
                } else if let side = info.collectionTables[i] {
                    try connection.execute("UPDATE \(side.name) SET value = \(map("value")) WHERE value IN \(mapped)")
                }
            }
            // Mixed values linking to it: '<key>:<class>' texts.
            for (i, property) in objectSchema.properties.enumerated() where property.type == .mixed {
                guard let (table, value, type) = mixedColumns(info, i, property) else { continue }
                try connection.execute("""
                    UPDATE \(table) SET \(value) = (SELECT new || \(suffix) FROM temp._drumlin_keymap WHERE old || \(suffix) = \(value)) \
                    WHERE \(type) = 10 AND \(value) IN (SELECT old || \(suffix) FROM temp._drumlin_keymap)
                    """)
            }
        }
        // ... and the links inside nested lists and dictionaries of mixed values.
        try connection.execute("""
            UPDATE \(MixedStore.table) SET value = (SELECT new || \(suffix) FROM temp._drumlin_keymap WHERE old || \(suffix) = value) \
            WHERE value_type = 10 AND value IN (SELECT old || \(suffix) FROM temp._drumlin_keymap)
            """)
    }

    /// Where a mixed property's values are: its table, value column and type column.
    private func mixedColumns(_ info: ClassInfo, _ index: Int, _ property: Property) -> (String, String, String)? {
        if property.isColumn { return (info.table, quoted(property.storedName), quoted(ClassInfo.mixedTypeColumn(property))) }
        return info.collectionTables[index].map { ($0.name, "value", "value_type") }
    }

    /// Clears mixed values linking to classes the new schema does not have as top-level classes
    /// (removed, or made embedded): null in a property or dictionary, removed from a list or set,
    /// at any depth of nested collections.
    func clearStaleMixedLinks() throws(DrumlinError) {
        let valid = schema.objectSchemas.filter { $0.kind == .topLevel }
            .map { "'" + $0.storedName.replacing("'", with: "''") + "'" }.joined(separator: ", ")
        for objectSchema in schema.objectSchemas {
            let info = ClassInfo(index: 0, schema: objectSchema)
            for (i, property) in objectSchema.properties.enumerated() where property.type == .mixed {
                guard let (table, value, type) = mixedColumns(info, i, property) else { continue }
                let stale = "\(type) = 10 AND substr(\(value), instr(\(value), ':') + 1) NOT IN (\(valid))"
                switch property.collection {
                case .single, .dictionary:
                    try connection.execute("UPDATE \(table) SET \(value) = NULL, \(type) = 0 WHERE \(stale)")
                case .set:
                    try connection.execute("DELETE FROM \(table) WHERE \(stale)")
                case .list:
                    try connection.execute("DELETE FROM \(table) WHERE \(stale)")
                    try connection.execute("""
                        UPDATE \(table) SET position = r.n FROM \
                        (SELECT rowid AS id, row_number() OVER (PARTITION BY owner ORDER BY position) - 1 AS n FROM \(table)) AS r \
                        WHERE \(table).rowid = r.id AND \(table).position != r.n
                        """)
                }
            }
        }
        try Database.clearNestedMixedLinks("substr(value, instr(value, ':') + 1) NOT IN (\(valid))", connection) { _ throws(DrumlinError) in }
    }

    /// The SQL selecting every link to a class's objects, one row per link (column `k`).
    private func incomingLinks(_ target: ObjectSchema) -> [String] {
        var selects: [String] = []
        for objectSchema in schema.objectSchemas {
            let info = ClassInfo(index: 0, schema: objectSchema)
            for (i, property) in objectSchema.properties.enumerated()
            where property.type == .object && property.objectType == target.name {
                if property.isColumn {
                    let column = quoted(property.storedName)
                    selects.append("SELECT \(column) AS k FROM \(info.table) WHERE \(column) IS NOT NULL")
                } else if let side = info.collectionTables[i] {
                    selects.append("SELECT value AS k FROM \(side.name) WHERE value IS NOT NULL")
                }
            }
        }
        return selects
    }

    /// Realm's rules for a class that becomes embedded: an object no other object links to is
    /// deleted (with what it owns); an object linked from more than one place is an error.
    func checkEmbedded() throws(DrumlinError) {
        let becameEmbedded = schema.objectSchemas.filter { objectSchema in
            objectSchema.kind == .embedded
                && stored.objectSchemas.first { $0.storedName == objectSchema.storedName }.map { $0.kind != .embedded } == true
        }
        guard !becameEmbedded.isEmpty else { return }
        for objectSchema in becameEmbedded {
            let links = incomingLinks(objectSchema)
            let all = links.isEmpty ? "SELECT NULL AS k WHERE 0" : links.joined(separator: " UNION ALL ")
            if try connection.scalarText("SELECT 1 FROM (\(all)) GROUP BY k HAVING count(*) > 1 LIMIT 1") != nil {
                throw DrumlinError(.migrationFailed,
                                 "Cannot convert '\(objectSchema.name)' to embedded: at least one object has more than one incoming link.")
            }
        }
        // Deleting an orphan can orphan the embedded objects it linked to: repeat until none is left.
        var deleted = true
        while deleted {
            deleted = false
            for objectSchema in schema.objectSchemas where objectSchema.kind == .embedded {
                let info = ClassInfo(index: 0, schema: objectSchema)
                let links = incomingLinks(objectSchema)
                let all = links.isEmpty ? "SELECT NULL AS k WHERE 0" : links.joined(separator: " UNION ALL ")
                try connection.execute("DELETE FROM \(info.table) WHERE \(info.keyColumn) NOT IN (SELECT k FROM (\(all)) WHERE k IS NOT NULL)")
                if connection.changes > 0 {
                    deleted = true
                    for side in info.collectionTables.compactMap({ $0 }) {
                        try connection.execute("DELETE FROM \(side.name) WHERE owner NOT IN (SELECT \(info.keyColumn) FROM \(info.table))")
                    }
                }
            }
        }
    }
}
