import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Compares the schema an application opens with against the one stored in the file. Additive
/// changes (a new class, a new property, an index added or dropped) are applied automatically;
/// anything else needs a migration and is reported with Realm's wording.
enum SchemaMigration {
    static func reconcile(_ connection: Connection, path: String, schema: Schema, classes: [ClassInfo],
                          options: OpenOptions, storedVersion: inout UInt64) throws(DrumlinError) {
        var options = options
        var version = try loadVersion(connection, options: &options)
        var stored = try loadStored(connection, path: path)
        var diff = Diff(stored: stored, classes: classes)
        if !diff.clashes.isEmpty {
            throw DrumlinError(.schema, "The schema cannot be opened with '\(path)':" + diff.clashes.map { "\n- " + $0 }.joined())
        }
        let upgrade = options.schemaVersion > version
        if !diff.breaking.isEmpty && (!upgrade || options.readOnly || options.deleteIfMigrationNeeded) {
            throw diff.migrationRequired
        }
        if options.readOnly {
            if !diff.additive.isEmpty {
                throw DrumlinError(.migrationRequired, "The following changes cannot be made in read-only schema mode:"
                                 + diff.additive.map { "\n- " + $0.message }.joined())
            }
            storedVersion = version
            return
        }
        guard !diff.additive.isEmpty || upgrade else {
            storedVersion = version
            return
        }
        try connection.execute("BEGIN IMMEDIATE")
        var migrated = false
        do throws(DrumlinError) {
            // Another connection may have changed the file while this one waited for the write
            // lock: decide again from what is stored now.
            version = try loadVersion(connection, options: &options)
            stored = try loadStored(connection, path: path)
            diff = Diff(stored: stored, classes: classes)
            if options.schemaVersion > version && (!diff.breaking.isEmpty || options.migration != nil) {
                try MigrationRun(connection: connection, path: path, stored: try storedSchema(connection, path: path),
                                 schema: schema, options: options, oldVersion: version).run()
                migrated = true
            } else {
                if !diff.breaking.isEmpty { throw diff.migrationRequired }
                var touched: [Int: ClassInfo] = [:]
                for change in diff.additive {
                    for sql in change.apply { try connection.execute(sql) }
                    if let info = change.info { touched[info.index] = info }
                }
                for info in touched.values { try Storage.storeDefinition(connection, info) }
            }
            if options.schemaVersion != version {
                let statement = try connection.statement("UPDATE _drumlin_meta SET value = ?1 WHERE key = 'schema_version'")
                statement.bind(Int64(bitPattern: options.schemaVersion), at: 1)
                try statement.run()
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            connection.clearStatementCache()
            throw error
        }
        if migrated {
            options.log(.info, "Migrated '\(path)' from schema version \(version) to \(options.schemaVersion)"
                        + (diff.breaking.isEmpty && diff.additive.isEmpty ? " (the migration callback ran)."
                           : ":" + (diff.breaking + diff.additive.map(\.message)).map { "\n- " + $0 }.joined()))
            storedVersion = options.schemaVersion
        } else if !diff.additive.isEmpty || options.schemaVersion != version {
            options.log(.info, "Migrated '\(path)' from schema version \(version) to \(max(version, options.schemaVersion))"
                        + (diff.additive.isEmpty ? "." : ":" + diff.additive.map { "\n- " + $0.message }.joined()))
            storedVersion = max(version, options.schemaVersion)
        } else {
            storedVersion = version
        }
    }

    /// The stored schema version; a lower requested one is an error, except when opening by the
    /// stored schema (`OpenOptions.adoptsStoredVersion`), which takes the stored one. The version
    /// is unsigned 64-bit in every API and stored as SQLite's signed integer with the same bits:
    /// 2^63 and above are stored negative and read back unchanged.
    private static func loadVersion(_ connection: Connection, options: inout OpenOptions) throws(DrumlinError) -> UInt64 {
        let versionText = try connection.scalarText("SELECT value FROM _drumlin_meta WHERE key = 'schema_version'")
        let version = versionText.flatMap { Int64($0) }.map { UInt64(bitPattern: $0) } ?? 0
        if options.adoptsStoredVersion && options.schemaVersion < version { options.schemaVersion = version }
        if options.schemaVersion < version {
            throw DrumlinError(.migrationFailed,
                             "Provided schema version \(options.schemaVersion) is less than last set version \(version).")
        }
        return version
    }

    /// Whether an open failed because the requested schema version is lower than the stored one
    /// (which `deleteIfMigrationNeeded` treats as a needed migration; a failed migration callback
    /// is not one).
    static func isLowerVersion(_ error: DrumlinError) -> Bool {
        error.code == .migrationFailed && error.message.hasPrefix("Provided schema version ")
    }

    /// How a stored schema differs from the one opened: changes applied in place, and changes
    /// that need a migration (a higher schema version).
    struct Diff {
        var additive: [(message: String, apply: [String], info: ClassInfo?)] = []
        var breaking: [String] = []

        /// New classes whose table name only differs in ASCII case from a stored one's.
        var clashes: [String] = []

        static func asciiLowercased(_ name: String) -> String {
            String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        }

        init(stored: [ExactName: ObjectSchema], classes: [ClassInfo]) {
            for info in classes {
                guard let old = stored[ExactName(info.schema.storedName)] else {
                    // SQLite compares table names ignoring ASCII case: a new class cannot take
                    // the table of a stored class whose name differs only in case.
                    let folded = Self.asciiLowercased(info.schema.storedName)
                    if let clash = stored.values.first(where: { Self.asciiLowercased($0.storedName).isSameName(folded) }) {
                        clashes.append("Name clash: type '\(info.name)' would be stored as '\(info.schema.storedName)', and the file stores type '\(clash.name)' as '\(clash.storedName)'; SQLite compares table names ignoring letter case, so the file cannot hold both.")
                        continue
                    }
                    additive.append(("Class '\(info.name)' has been added.", info.createStatements + info.markKeyOrderedStatements, info))
                    continue
                }
                SchemaMigration.compare(old: old, new: info, additive: &additive, breaking: &breaking)
            }
        }

        var migrationRequired: DrumlinError {
            DrumlinError(.migrationRequired,
                       "Migration is required due to the following errors:" + breaking.map { "\n- " + $0 }.joined())
        }
    }

    /// The stored classes by table name.
    static func loadStored(_ connection: Connection, path: String) throws(DrumlinError) -> [ExactName: ObjectSchema] {
        var byTable: [ExactName: ObjectSchema] = [:]
        for objectSchema in try storedSchema(connection, path: path).objectSchemas { byTable[ExactName(objectSchema.storedName)] = objectSchema }
        return byTable
    }

    /// The schema stored in the file, classes in the order they were stored.
    static func storedSchema(_ connection: Connection, path: String) throws(DrumlinError) -> Schema {
        var definitions: [JSON] = []
        let statement = try connection.statement("SELECT definition FROM _drumlin_classes ORDER BY rowid")
        defer { statement.reset() }
        while try statement.step() {
            guard let json = try? JSON.parse(statement.string(0)) else {
                throw Storage.notDrumlin(path, detail: "its stored schema is unreadable")
            }
            definitions.append(json)
        }
        let stored: Schema
        do throws(DrumlinError) {
            stored = try Schema(json: .array(definitions), validating: false)
        } catch {
            throw DrumlinError(.corrupt, "The schema stored in '\(path)' is invalid: \(error.message)")
        }
        return stored
    }

    private static func kindName(_ kind: ObjectKind) -> String {
        switch kind {
        case .topLevel: "TopLevel"
        case .embedded: "Embedded"
        case .asymmetric: "TopLevelAsymmetric"
        }
    }

    static func typeDescription(_ property: Property) -> String {
        var element = property.type.realmName
        if property.type == .object || property.type == .linkingObjects {
            element = "<\(property.objectType ?? "")>"
        }
        if let collection = property.collection.realmName { return "\(collection)<\(element)>" }
        return element
    }

    static func compare(old: ObjectSchema, new info: ClassInfo,
                                additive: inout [(message: String, apply: [String], info: ClassInfo?)],
                                breaking: inout [String]) {
        let new = info.schema
        let name = new.name
        if old.kind != new.kind {
            breaking.append("Class '\(name)' has been changed from \(kindName(old.kind)) to \(kindName(new.kind)).")
        }
        let oldPK = old.primaryKeyProperty?.storedName
        let newPK = new.primaryKeyProperty?.storedName
        if oldPK.map(ExactName.init) != newPK.map(ExactName.init) {
            switch (oldPK, newPK) {
            case (nil, let added?): breaking.append("Primary Key for class '\(name)' has been added: '\(added)'.")
            case (let removed?, nil): breaking.append("Primary Key for class '\(name)' has been removed: '\(removed)'.")
            default: breaking.append("Primary Key for class '\(name)' has changed from '\(oldPK ?? "")' to '\(newPK ?? "")'.")
            }
        }
        var oldByColumn: [ExactName: Property] = [:]
        for property in old.properties { oldByColumn[ExactName(property.storedName)] = property }
        for property in new.properties {
            let label = "Property '\(name).\(property.name)'"
            guard let previous = oldByColumn.removeValue(forKey: ExactName(property.storedName)) else {
                if property.isComputed { continue }
                var statements: [String] = []
                if property.isColumn {
                    statements = ClassInfo.columnDefinitions(property, withDefault: true).map {
                        "ALTER TABLE \(info.table) ADD COLUMN \($0)"
                    }
                    if let index = info.indexStatement(property) { statements.append(index) }
                    if let index = info.mixedLinkIndexStatement(property) { statements.append(index) }
                    if property.index == .fullText { statements.append(contentsOf: FullText.createStatements(info, property)) }
                } else if let table = info.collectionTables.first(where: { $0?.rawName == sideName(property.collection.typeWord ?? "", table: info.schema.storedName, column: property.storedName) }) ?? nil {
                    statements = table.createStatements
                }
                additive.append(("\(label) has been added.", statements, info))
                continue
            }
            if previous.isComputed && property.isComputed {
                if previous.objectType.map(ExactName.init) != property.objectType.map(ExactName.init)
                    || previous.originProperty.map(ExactName.init) != property.originProperty.map(ExactName.init) {
                    additive.append(("\(label) has been changed.", [], info))
                }
                continue
            }
            let oldType = typeDescription(previous)
            let newType = typeDescription(property)
            if !oldType.isSameName(newType) || previous.isComputed != property.isComputed {
                breaking.append("\(label) has been changed from '\(oldType)' to '\(newType)'.")
                continue
            }
            if previous.isOptional != property.isOptional {
                breaking.append("\(label) has been made \(property.isOptional ? "optional" : "required").")
                continue
            }
            if previous.index != property.index, property.isColumn, !property.isPrimaryKey {
                var statements: [String] = []
                if previous.index == .general && property.type != .object {
                    statements.append("DROP INDEX IF EXISTS \(info.indexName(property))")
                }
                if previous.index == .fullText { statements.append(contentsOf: FullText.dropStatements(info, property)) }
                if property.index == .general, let index = info.indexStatement(property) {
                    statements.append(index.replacing("CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS"))
                }
                if property.index == .fullText { statements.append(contentsOf: FullText.createStatements(info, property)) }
                let word = property.index == .none ? "unindexed" : property.index == .fullText ? "full-text indexed" : "indexed"
                additive.append(("\(label) has been made \(word).", statements, info))
            } else if !previous.name.isSameName(property.name) || previous.defaultValue != property.defaultValue
                        || previous.isCounter != property.isCounter {
                additive.append(("\(label) has been renamed or given a new default.", [], info))
            }
        }
        for removed in old.properties where oldByColumn[ExactName(removed.storedName)] != nil && !removed.isComputed {
            breaking.append("Property '\(name).\(removed.name)' has been removed.")
        }
        if !old.name.isSameName(new.name) {
            additive.append(("Class '\(name)' has been given a new public name.", [], info))
        }
    }
}
