import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Updating an existing object: its columns in one statement, then its collections. An update
/// through an `Object` handle (Object.swift) or an upsert (Database+Create.swift) ends here.
extension Database {
    /// Writes inputs to an existing object. `.modified` writes only values that differ.
    func update(_ info: ClassInfo, _ key: Int64, _ given: [(Int, Input)], mode: UpdateMode,
                _ connection: Connection) throws(DrumlinError) {
        let traits = info.traits
        let columns = given.filter { traits[$0.0].isColumn }
        let currentIndices = columns.filter { mode == .modified || traits[$0.0].isPrimaryKey
            || traits[$0.0].type == .mixed || (info.targets[$0.0]?.isEmbedded ?? false) }.map(\.0)
        let current = currentIndices.isEmpty ? [] : try readRow(info, key, connection, indices: currentIndices)
        func currentValue(_ index: Int) -> Value? { currentIndices.firstIndex(of: index).map { current[$0] } }

        var changes: [(Int, Value)] = []
        var replacedEmbedded: [(ClassInfo, Int64)] = []
        for (index, input) in columns {
            let value = try resolveColumn(input, info, index, mode: mode, connection)
            let old = currentValue(index)
            if traits[index].isPrimaryKey && !isMigrating {
                if old != value {
                    throw DrumlinError(.primaryKeyImmutable, "Cannot modify primary key after creation: '\(info.name).\(info.propertyNames[index])'")
                }
                continue
            }
            if mode == .modified, let old, old == value { continue }
            if let target = info.targets[index], target.isEmbedded, case .link(let link)? = old {
                replacedEmbedded.append((target, link.key))
            }
            changes.append((index, value))
        }
        if !changes.isEmpty {
            // Nested mixed collections are replaced wholesale: drop the old trees first.
            let mixedIndices = changes.map(\.0).filter { traits[$0].type == .mixed }
            if !mixedIndices.isEmpty { try deleteMixedTrees(info, key, mixedIndices, connection) }
            var bindings: [(Value, Int64?)] = []
            bindings.reserveCapacity(changes.count)
            for (index, value) in changes {
                if traits[index].type == .mixed {
                    let (stored, code) = try storeMixed(value, connection)
                    bindings.append((stored, code))
                } else {
                    bindings.append((value, nil))
                }
            }
            func sql() -> String {
                var assignments: [String] = []
                for (index, _) in changes {
                    let property = info.property(index)
                    assignments.append("\(quoted(property.storedName)) = ?")
                    if property.type == .mixed { assignments.append("\(quoted(ClassInfo.mixedTypeColumn(property))) = ?") }
                }
                return "UPDATE \(info.table) SET \(assignments.joined(separator: ", ")) WHERE \(info.keyColumn) = ?"
            }
            let statement = changes.count == 1
                ? try connection.statement(slot: info.updateSlot(changes[0].0), sql())
                : try connection.statement(sql())
            defer { statement.reset() }
            var parameter: Int32 = 1
            for (value, code) in bindings {
                try ValueCodec.bind(value, to: statement, at: parameter)
                parameter += 1
                if let code {
                    statement.bind(code, at: parameter)
                    parameter += 1
                }
            }
            statement.bind(key, at: parameter)
            _ = try assigning(changes.lazy.map(\.0)) { () throws(DrumlinError) in try statement.step() }
            if connection.changes == 0 { throw invalidated(info) }
            statement.reset()
        } else if currentIndices.isEmpty, !(try exists(info, key, connection)) {
            throw invalidated(info)
        }
        for (target, old) in replacedEmbedded { try deleteObject(target, old, connection) }
        for (index, input) in given where traits[index].collection != .single {
            try clearCollection(info, key, index, connection)
            try writeCollection(info, key, index, input, mode: mode, connection)
        }
        if info.geoPointIndices != nil { try validateGeoPoint(info, key, connection) }
    }
}
