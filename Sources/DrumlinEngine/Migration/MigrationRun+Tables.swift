import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Rebuilding the kept classes' tables around the callback: renaming the old ones aside, copying
/// the rows with Realm's conversions, and building the final tables afterwards.
extension MigrationRun {
    /// Renames the kept classes' tables aside and creates the new schema's tables, filled with
    /// the old rows. Primary keys are plain columns (with a plain index) until `finish`.
    func prepare() throws(DrumlinError) {
        let newTables = Set(schema.objectSchemas.map(\.storedName))
        var storedByTable: [ExactName: ObjectSchema] = [:]
        for old in stored.objectSchemas where newTables.contains(old.storedName) {
            storedByTable[ExactName(old.storedName)] = old
            kept.insert(old.storedName)
            let oldInfo = ClassInfo(index: 0, schema: old)
            for property in old.properties where property.index == .fullText && property.isColumn {
                for sql in FullText.dropStatements(oldInfo, property) { try connection.execute(sql) }
            }
            // Index names are global: the new tables' indexes take the same ones.
            for table in [old.storedName] + oldInfo.collectionTables.compactMap({ $0?.rawName }) {
                for index in try indexes(on: table) { try connection.execute("DROP INDEX \(quoted(index))") }
            }
            try connection.execute("ALTER TABLE \(oldInfo.table) RENAME TO \(quoted(Self.oldPrefix + old.storedName))")
            for (i, property) in old.properties.enumerated() {
                guard let side = oldInfo.collectionTables[i] else { continue }
                try connection.execute("ALTER TABLE \(side.name) RENAME TO \(quoted(oldSideName(old, property)))")
            }
        }
        for (i, objectSchema) in schema.objectSchemas.enumerated() {
            let info = ClassInfo(index: i, schema: objectSchema, allowsIntegerRowKey: false)
            try connection.execute(info.createStatements[0])
            if ClassInfo(index: i, schema: objectSchema).hasSequenceColumn {
                try connection.execute("ALTER TABLE \(info.table) ADD COLUMN \(quoted(ClassInfo.sequenceColumnName)) INTEGER")
            }
            for side in info.collectionTables.compactMap({ $0 }) {
                for sql in side.createStatements { try connection.execute(sql) }
            }
            if let pk = objectSchema.primaryKeyProperty {
                try connection.execute("CREATE INDEX \(migratingIndexName(objectSchema)) ON \(info.table) (\(quoted(pk.storedName)))")
            }
            if let old = storedByTable[ExactName(objectSchema.storedName)] { try copyRows(from: old, into: info) }
        }
    }

    func oldSideName(_ old: ObjectSchema, _ property: Property) -> String {
        sideName(property.collection.typeWord ?? "single", table: Self.oldPrefix + old.storedName, column: property.storedName)
    }

    func migratingIndexName(_ objectSchema: ObjectSchema) -> String {
        quoted(sideName("migrating", table: objectSchema.storedName, column: objectSchema.primaryKeyProperty?.storedName ?? ""))
    }

    /// Whether a stored property's values carry over to a new property as they are.
    static func carriesOver(_ old: Property, to new: Property) -> Bool {
        !old.isComputed && !new.isComputed && SchemaMigration.typeDescription(old) == SchemaMigration.typeDescription(new)
    }

    /// What a new column gets from an old one: the value, Realm's zero value where a property
    /// made required was null, or (new property, changed type) null or the zero value.
    static func valueExpression(_ new: Property, from old: Property?, column: String) -> String {
        let nullable = new.isOptional || new.type == .object || new.type == .mixed
        guard let old, carriesOver(old, to: new) else { return nullable ? "NULL" : ClassInfo.zeroLiteral(new.type) }
        if !nullable && old.isOptional { return "coalesce(\(column), \(ClassInfo.zeroLiteral(new.type)))" }
        return column
    }

    private func copyRows(from old: ObjectSchema, into info: ClassInfo) throws(DrumlinError) {
        let oldInfo = ClassInfo(index: 0, schema: old)
        var oldByColumn: [ExactName: Property] = [:]
        for property in old.properties where !property.isComputed { oldByColumn[ExactName(property.storedName)] = property }
        var columns = [quoted(ClassInfo.keyColumnName)]
        var values = [oldInfo.keyColumn]
        if ClassInfo(index: 0, schema: info.schema).hasSequenceColumn {
            columns.append(quoted(ClassInfo.sequenceColumnName))
            values.append(oldInfo.hasSequenceColumn ? quoted(ClassInfo.sequenceColumnName) : oldInfo.keyColumn)
        }
        for property in info.schema.properties where property.isColumn {
            let source = oldByColumn[ExactName(property.storedName)]
            columns.append(quoted(property.storedName))
            values.append(Self.valueExpression(property, from: source, column: quoted(property.storedName)))
            if property.type == .mixed {
                columns.append(quoted(ClassInfo.mixedTypeColumn(property)))
                values.append(source.map { Self.carriesOver($0, to: property) } == true ? quoted(ClassInfo.mixedTypeColumn(property)) : "0")
            }
        }
        try connection.execute("INSERT INTO \(info.table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(quoted(Self.oldPrefix + old.storedName))")
        for (i, property) in info.schema.properties.enumerated() {
            guard let side = info.collectionTables[i], let source = oldByColumn[ExactName(property.storedName)],
                  Self.carriesOver(source, to: property) else { continue }
            try copyCollection(from: quoted(oldSideName(old, source)), source, to: side, property, owners: nil)
        }
    }

    /// Copies a collection property's rows (all, or those of the owners an SQL set selects).
    func copyCollection(from oldTable: String, _ old: Property, to side: CollectionTable, _ new: Property,
                        owners: String?) throws(DrumlinError) {
        var columns = ["owner"]
        switch side.kind {
        case .list: columns.append("position")
        case .dictionary: columns.append("key")
        case .set, .single: break
        }
        var values = columns
        columns.append("value")
        values.append(new.isOptional || new.type == .object || new.type == .mixed || !old.isOptional
                      ? "value" : "coalesce(value, \(ClassInfo.zeroLiteral(new.type)))")
        if side.isMixed {
            columns.append("value_type")
            values.append("value_type")
        }
        let filter = owners.map { " WHERE owner IN (\($0))" } ?? ""
        try connection.execute("INSERT INTO \(side.name) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(oldTable)\(filter)")
    }

    /// Checks the primary keys, gives each class its final table and indexes, stores the new
    /// definitions and drops the old tables.
    func finish() throws(DrumlinError) {
        for (i, objectSchema) in schema.objectSchemas.enumerated() {
            let info = ClassInfo(index: i, schema: objectSchema)
            if let pk = objectSchema.primaryKeyProperty {
                try checkDuplicates(info, pk)
                try connection.execute("DROP INDEX \(migratingIndexName(objectSchema))")
            }
            if info.hasSequenceColumn {
                try rebuildAroundPrimaryKey(info)
                try info.recomputeKeyOrder(connection)
            }
            for property in objectSchema.properties where property.isColumn {
                if let sql = info.indexStatement(property) { try connection.execute(sql) }
                if let sql = info.mixedLinkIndexStatement(property) { try connection.execute(sql) }
                if property.index == .fullText {
                    for sql in FullText.createStatements(info, property) { try connection.execute(sql) }
                }
            }
            try Storage.storeDefinition(connection, info)
        }
        try checkEmbedded()
        try clearStaleMixedLinks()
        for old in stored.objectSchemas where kept.contains(old.storedName) {
            for property in old.properties where property.isCollection {
                try connection.execute("DROP TABLE IF EXISTS \(quoted(oldSideName(old, property)))")
            }
            try connection.execute("DROP TABLE \(quoted(Self.oldPrefix + old.storedName))")
        }
        try connection.execute("DROP TABLE IF EXISTS temp._drumlin_keymap")
        // Key-order rows (Objects/Database+KeyOrder.swift) of classes that are no longer kept
        // by their int primary key.
        let keyOrdered = schema.objectSchemas.map { ClassInfo(index: 0, schema: $0) }.filter(\.hasSequenceColumn)
        let keep = keyOrdered.map { "'\($0.keyOrderMetaKey.replacing("'", with: "''"))'" }.joined(separator: ", ")
        try connection.execute("DELETE FROM _drumlin_meta WHERE key LIKE 'key\\_order:%' ESCAPE '\\' AND key NOT IN (\(keep))")
    }

    /// Realm's check after a migration: no two objects of a class share a primary key value.
    private func checkDuplicates(_ info: ClassInfo, _ pk: Property) throws(DrumlinError) {
        let column = quoted(pk.storedName)
        let statement = try connection.statement(
            "SELECT \(column) FROM \(info.table) GROUP BY \(column) HAVING count(*) > 1 ORDER BY \(column) LIMIT 6")
        defer { statement.reset() }
        var values: [String] = []
        while try statement.step() {
            values.append("'\(ValueCodec.read(statement, 0, as: pk.type))'")
        }
        guard !values.isEmpty else { return }
        let list = values.prefix(5).joined(separator: ", ") + (values.count > 5 ? ", ..." : "")
        throw DrumlinError(.migrationFailed,
                         "Primary key property '\(info.name).\(pk.name)' has duplicate values after migration: \(list).")
    }

    /// A class whose row key is its required int primary key: its rows move to a table keyed by
    /// it (creation order in `_drumlin_seq`), and links and collection rows follow the new keys.
    private func rebuildAroundPrimaryKey(_ info: ClassInfo) throws(DrumlinError) {
        guard let pk = info.schema.primaryKeyProperty else { return }
        let pkColumn = quoted(pk.storedName)
        let seq = quoted(ClassInfo.sequenceColumnName)
        let key = quoted(ClassInfo.keyColumnName)
        let building = quoted("_drumlin_building_" + info.schema.storedName)
        let createTable = info.createStatements[0]
        let prefix = "CREATE TABLE \(info.table) ("
        guard createTable.hasPrefix(prefix) else {
            throw DrumlinError(.internal, "Unexpected table definition for '\(info.name)'.")
        }
        try connection.execute("CREATE TABLE \(building) (" + createTable.dropFirst(prefix.count))
        var columns = [pkColumn, seq]
        let firstNew = "(SELECT max(coalesce(max(\(seq)), 0) + 1, coalesce((SELECT next_seq FROM _drumlin_classes WHERE table_name = '\(info.schema.storedName.replacing("'", with: "''"))'), 1)) FROM \(info.table))"
        var values = [pkColumn, "coalesce(\(seq), \(firstNew) + \(key))"]
        for property in info.schema.properties where property.isColumn && !property.isPrimaryKey {
            columns.append(quoted(property.storedName))
            if property.type == .mixed { columns.append(quoted(ClassInfo.mixedTypeColumn(property))) }
        }
        values += columns.dropFirst(2)
        try connection.execute("INSERT INTO \(building) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(info.table)")
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS _drumlin_keymap (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
        try connection.execute("DELETE FROM temp._drumlin_keymap")
        try connection.execute("INSERT INTO temp._drumlin_keymap (old, new) SELECT \(key), \(pkColumn) FROM \(info.table) WHERE \(key) IS NOT \(pkColumn)")
        try connection.execute("DROP TABLE \(info.table)")
        try connection.execute("ALTER TABLE \(building) RENAME TO \(info.table)")
        let next = try connection.statement("""
            INSERT INTO _drumlin_classes (table_name, name, definition, next_seq) \
            VALUES (?1, ?2, '', (SELECT coalesce(max(\(seq)), 0) + 1 FROM \(info.table))) \
            ON CONFLICT (table_name) DO UPDATE SET next_seq = max(next_seq, excluded.next_seq)
            """)
        next.bind(info.schema.storedName, at: 1)
        next.bind(info.schema.name, at: 2)
        try next.run()
        if try connection.scalarText("SELECT count(*) FROM temp._drumlin_keymap") != "0" { try remapKeys(of: info) }
    }
}
