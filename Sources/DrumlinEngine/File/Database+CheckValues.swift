import DrumlinStorage
import DrumlinValues

/// The parts of `check()` that read every stored value and the file's SQLite schema.
extension Database {
    /// One sentence per property holding values its type cannot hold (`ValueCodec.misfit`: what
    /// a read refuses as `CORRUPT`), naming the class, the property, how many objects and the
    /// first of their keys. One scan of each class's table and collection tables.
    func misfitProblems(_ connection: Connection, skipping broken: Set<Int>) throws(DrumlinError) -> [String] {
        var problems: [String] = []
        func report(_ info: ClassInfo, _ index: Int, _ found: [(Int64, String)], element: Bool) {
            guard !found.isEmpty else { return }
            let keys = found.prefix(10).map { "\($0.0) (\($0.1))" }.joined(separator: ", ")
            let count = found.count
            problems.append("\(element ? "Elements of " : "")'\(info.name).\(info.propertyNames[index])' of \(count) '\(info.name)' object\(count == 1 ? "" : "s") hold\(element || count != 1 ? "" : "s") values the property's type cannot hold: \(keys)\(count > 10 ? ", …" : "").")
        }
        for info in classes where !broken.contains(info.index) {
            let columns = info.columnIndexes
            if !columns.isEmpty {
                var found = [[(Int64, String)]](repeating: [], count: info.traits.count)
                let statement = try connection.statement(info.selectRowSQL.replacing(" WHERE \(info.keyColumn) = ?1", with: ""))
                defer { statement.reset() }
                while try statement.step() {
                    let key = statement.int64(0)
                    for index in columns {
                        let column = Int32((info.slots[index] ?? 0) + 1)
                        let trait = info.traits[index]
                        let what = trait.type == .mixed
                            ? ValueCodec.mixedMisfit(statement.handle, value: column, type: column + 1)
                            : ValueCodec.misfit(statement.handle, column, as: trait.type, optional: trait.isOptional)
                        if let what { found[index].append((key, what)) }
                    }
                }
                for index in columns { report(info, index, found[index], element: false) }
            }
            for (index, table) in info.collectionTables.enumerated() {
                guard let table else { continue }
                let trait = info.traits[index]
                let statement = try connection.statement("SELECT owner, value\(table.isMixed ? ", value_type" : "") FROM \(table.name)")
                defer { statement.reset() }
                var found: [(Int64, String)] = []
                while try statement.step() {
                    let what = table.isMixed
                        ? ValueCodec.mixedMisfit(statement.handle, value: 1, type: 2)
                        : ValueCodec.misfit(statement.handle, 1, as: trait.type, optional: trait.isOptional || trait.type == .object)
                    if let what { found.append((statement.int64(0), what)) }
                }
                report(info, index, found, element: true)
            }
        }
        return problems
    }

    /// The file's objects Drumlin did not make (`Structure`): harmless ones and, planted since
    /// the open, ones that would refuse it.
    func structureProblems(_ connection: Connection) throws(DrumlinError) -> [String] {
        let stored = try SchemaMigration.storedSchema(connection, path: path)
        let storedClasses = stored.objectSchemas.enumerated().map { ClassInfo(index: $0, schema: $1) }
        let (refused, harmless) = try Structure.inspect(connection, classes: storedClasses)
        return refused + harmless
    }
}
