import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Classes added to an open database: what a face does when a class is first used after the
/// database was opened (Realm Swift's `Realm()` without `objectTypes`, then `realm.add(dog)`).
/// Existing classes keep their indexes; the new ones are appended. SQLite's schema changes are
/// transactional: inside a write transaction the new tables commit or roll back with it, and a
/// rollback removes the classes from the handle again.
extension Database {
    /// Adds classes to the schema open on this handle. `added` holds the classes to use and every
    /// class they reach (link targets, backlinks' origins): those already open here must have the
    /// definition they are open with; the others are added. A class the file does not store gets
    /// its tables; one it stores is compared with it as at open (additive changes apply, one that
    /// needs a migration is `DrumlinError.migrationRequired`). The tables are made inside the
    /// current write transaction, when there is one, else in a transaction of their own;
    /// read-only, the classes must be stored as given. Returns the class index of each class of
    /// `added`, in order. A failed call changes nothing.
    ///
    /// The class list changes under the call lock; a few lookups by name read it without the lock
    /// (`classIndex(cString:)`), so no other thread may look classes up on this handle during
    /// the call. Its caller, the Swift face, uses each handle from one thread (the C API has no
    /// counterpart).
    public func addClasses(_ added: Schema) throws(DrumlinError) -> [Int] {
        try serialized { (connection) throws(DrumlinError) -> [Int] in try addClassesLocked(added, connection) }
    }

    /// The error of a call on an object or results of a class that was removed from the handle
    /// (added in a write transaction that rolled back).
    static func removedClass(_ info: ClassInfo) -> DrumlinError {
        DrumlinError(.invalidatedObject, "Object type '\(info.name)' was added in a write transaction that was rolled back: its objects no longer exist.")
    }

    private func addClassesLocked(_ added: Schema, _ connection: Connection) throws(DrumlinError) -> [Int] {
        if isMigrating {
            throw DrumlinError(.wrongTransactionState, "Cannot add classes to the database of a migration: give them in the schema opened with.")
        }
        var differences: [String] = []
        var fresh: [ObjectSchema] = []
        for objectSchema in added.objectSchemas {
            if let open = classByName[ExactName(objectSchema.name)] {
                var additive: [(message: String, apply: [String], info: ClassInfo?)] = []
                SchemaMigration.compare(old: open.schema, new: ClassInfo(index: open.index, schema: objectSchema),
                                        additive: &additive, breaking: &differences)
                differences += additive.map(\.message)
            } else if !fresh.contains(where: { ExactName($0.name) == ExactName(objectSchema.name) }) {
                fresh.append(objectSchema)
            }
        }
        guard differences.isEmpty else {
            throw DrumlinError(.migrationRequired, "Cannot change classes while the database is open; open it again with the new definitions:"
                             + differences.map { "\n- " + $0 }.joined())
        }
        if !fresh.isEmpty { try install(fresh, connection) }
        return try added.objectSchemas.map { (objectSchema) throws(DrumlinError) -> Int in try classInfo(objectSchema.name).index }
    }

    /// Makes (or finds) the tables of new classes and appends the classes to the handle.
    private func install(_ fresh: [ObjectSchema], _ connection: Connection) throws(DrumlinError) {
        let combined = Schema(schema.objectSchemas + fresh)
        try combined.validate()
        let first = classes.count
        var slotBase = slotCount
        let infos = fresh.enumerated().map { offset, objectSchema in
            let info = ClassInfo(index: first + offset, schema: objectSchema)
            info.slotBase = slotBase
            slotBase += info.slotCount
            return info
        }
        let all = classes + infos
        ClassInfo.resolve(all)
        var applied: [String] = []
        do throws(DrumlinError) {
            applied = try createTables(infos, connection)
            try recorder?.setClasses(all, connection)
        } catch {
            for info in infos { info.markRemoved() }
            ClassInfo.resolve(classes)
            throw error
        }
        _ = keyOrderHints.count     // made for the classes open so far, then extended
        keyOrderHints += repeatElement(true, count: infos.count)
        classes = all
        for info in infos { classByName[ExactName(info.name)] = info }
        for info in infos where classByName[ExactName(info.schema.storedName)] == nil { classByName[ExactName(info.schema.storedName)] = info }
        schema = combined
        queryTemplates.removeAll()
        if inWriteTransaction && classCountBeforeWrite == nil { classCountBeforeWrite = first }
        log(.info, "Added \(infos.map { "'\($0.name)'" }.joined(separator: ", ")) to the schema open on '\(path)'"
            + (applied.isEmpty ? " (already stored in the file)." : ":" + applied.map { "\n- " + $0 }.joined()))
    }

    /// Applies what the new classes need in the file (as at open: tables for classes it does not
    /// store, additive changes to those it does), inside the current write transaction (under a
    /// savepoint, so that a failure leaves it usable) or in one of its own. Returns the changes.
    private func createTables(_ infos: [ClassInfo], _ connection: Connection) throws(DrumlinError) -> [String] {
        func decide() throws(DrumlinError) -> SchemaMigration.Diff {
            let diff = SchemaMigration.Diff(stored: try SchemaMigration.loadStored(connection, path: path), classes: infos)
            if !diff.clashes.isEmpty {
                // A stored class this handle does not have open: as at open (not a missing table).
                throw DrumlinError(.schema, "The classes cannot be added to '\(path)':" + diff.clashes.map { "\n- " + $0 }.joined())
            }
            if !diff.breaking.isEmpty { throw diff.migrationRequired }
            return diff
        }
        func apply(_ diff: SchemaMigration.Diff) throws(DrumlinError) {
            var touched: [Int: ClassInfo] = [:]
            for change in diff.additive {
                for sql in change.apply { try connection.execute(sql) }
                if let info = change.info { touched[info.index] = info }
            }
            for info in touched.values.sorted(by: { $0.index < $1.index }) { try Storage.storeDefinition(connection, info) }
            let missing = try Storage.missingTables(connection, classes: infos)
            if !missing.isEmpty {
                throw DrumlinError(.corrupt, "The file '\(path)' is damaged: " + missing.joined(separator: " ") + " It was left unchanged.")
            }
        }
        var diff = try decide()
        if options.readOnly {
            if !diff.additive.isEmpty {
                throw DrumlinError(.migrationRequired, "The following changes cannot be made in read-only schema mode:"
                                 + diff.additive.map { "\n- " + $0.message }.joined())
            }
            try apply(diff)
            return []
        }
        if inWriteTransaction {
            try atomically(connection) { () throws(DrumlinError) in try apply(diff) }
            return diff.additive.map(\.message)
        }
        if diff.additive.isEmpty {
            try apply(diff)
            return []
        }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(DrumlinError) {
            // Another connection may have added them while this one waited for the write lock.
            diff = try decide()
            try apply(diff)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        commitCount += 1
        bumpReadVersion()
        return diff.additive.map(\.message)
    }

    /// Removes the classes the current write transaction added (it rolled back, and their tables
    /// with it): their objects and results become invalid, their statement slots are freed.
    func removeClassesAddedInWrite(_ connection: Connection) {
        guard let floor = classCountBeforeWrite else { return }
        classCountBeforeWrite = nil
        let removed = Array(classes[floor...])
        classes.removeSubrange(floor...)
        classByName = classByName.filter { $0.value.index < floor }
        schema = Schema(Array(schema.objectSchemas.prefix(floor)))
        for info in removed { info.markRemoved() }
        ClassInfo.resolve(classes)
        if keyOrderHints.count > floor { keyOrderHints.removeSubrange(floor...) }
        queryTemplates.removeAll()
        upsertStatements.removeAll()
        if let first = removed.first { connection.clearSlots(from: first.slotBase) }
        try? recorder?.setClasses(classes, connection)
        log(.info, "Removed \(removed.map { "'\($0.name)'" }.joined(separator: ", ")) from the schema open on '\(path)': the write transaction that added \(removed.count == 1 ? "it" : "them") rolled back.")
    }
}
