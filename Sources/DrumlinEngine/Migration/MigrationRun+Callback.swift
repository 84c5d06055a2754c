import DrumlinStorage
import DrumlinValues

/// What the migration callback asks for beyond reading and writing objects.
extension MigrationRun {
    func renameProperty(_ className: String, from oldName: String, to newName: String,
                        migration: Migration) throws(DrumlinError) {
        guard let old = storedClass(className), let new = newClass(className) else {
            throw DrumlinError(.noSuchClass, "Cannot rename properties of '\(className)': the class is not in both the old and the new schema.")
        }
        guard let source = old.property(named: oldName) ?? old.properties.first(where: { $0.storedName == oldName }) else {
            throw DrumlinError(.noSuchProperty, "Renamed property '\(className).\(oldName)' does not exist.")
        }
        guard let target = new.property(named: newName) ?? new.properties.first(where: { $0.storedName == newName }) else {
            throw DrumlinError(.noSuchProperty, "Cannot rename property '\(className).\(oldName)' to '\(newName)' because it does not exist.")
        }
        let from = SchemaMigration.typeDescription(source), to = SchemaMigration.typeDescription(target)
        if from != to || source.isComputed || target.isComputed {
            throw DrumlinError(.typeMismatch, "Cannot rename property '\(className).\(oldName)' to '\(newName)' because it would change from type '\(from)' to '\(to)'.")
        }
        if source.isOptional && !target.isOptional && target.type != .object && target.type != .mixed {
            throw DrumlinError(.notNullable, "Cannot rename property '\(className).\(oldName)' to '\(newName)' because it would change from optional to required.")
        }
        let oldInfo = try migration.oldDatabase.classInfo(old.name)
        let newInfo = try migration.newDatabase.classInfo(new.name)
        let oldRows = "SELECT \(oldInfo.keyColumn) FROM \(oldInfo.table)"
        if target.isColumn {
            var columns = [quoted(target.storedName)]
            var values = [quoted(source.storedName)]
            if target.type == .mixed {
                columns.append(quoted(ClassInfo.mixedTypeColumn(target)))
                values.append(quoted(ClassInfo.mixedTypeColumn(source)))
            }
            try connection.execute("""
                UPDATE \(newInfo.table) SET (\(columns.joined(separator: ", "))) = \
                (SELECT \(values.joined(separator: ", ")) FROM \(oldInfo.table) o WHERE o.\(oldInfo.keyColumn) = \(newInfo.table).\(newInfo.keyColumn)) \
                WHERE \(newInfo.keyColumn) IN (\(oldRows))
                """)
        } else if let index = newInfo.propertyIndex(target.name), let side = newInfo.collectionTables[index] {
            try connection.execute("DELETE FROM \(side.name) WHERE owner IN (\(oldRows))")
            try copyCollection(from: quoted(oldSideName(old, source)), source, to: side, target,
                               owners: "SELECT \(newInfo.keyColumn) FROM \(newInfo.table)")
        }
        migration.newDatabase.discardCachedResults()
    }

    func deleteData(_ className: String, migration: Migration) throws(DrumlinError) -> Bool {
        if let info = try? migration.newDatabase.classInfo(className) {
            let database = migration.newDatabase
            try database.serialized { (connection) throws(DrumlinError) in
                let statement = try connection.statement("SELECT \(info.keyColumn) FROM \(info.table)")
                var keys: [Int64] = []
                while try statement.step() { keys.append(statement.int64(0)) }
                statement.reset()
                for key in keys where try database.exists(info, key, connection) {
                    try database.deleteObject(info, key, connection)
                }
            }
            database.discardCachedResults()
            return true
        }
        guard let old = storedClass(className), !kept.contains(old.storedName), !dropped.contains(old.storedName),
              try tableExists(old.storedName) else { return false }
        let info = ClassInfo(index: 0, schema: old)
        for property in old.properties where property.index == .fullText && property.isColumn {
            for sql in FullText.dropStatements(info, property) { try connection.execute(sql) }
        }
        for side in info.collectionTables.compactMap({ $0 }) { try connection.execute("DROP TABLE IF EXISTS \(side.name)") }
        try connection.execute("DROP TABLE \(info.table)")
        let forget = try connection.statement("DELETE FROM _drumlin_classes WHERE table_name = ?1")
        forget.bind(old.storedName, at: 1)
        try forget.run()
        dropped.insert(old.storedName)
        return true
    }
}
