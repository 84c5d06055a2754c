import CSQLite
import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// The by-primary-key fast paths: read a row in place, write columns in one statement.
extension Database {
    /// The object with a primary key and the values of some of its properties, read in one
    /// statement; nil when there is none.
    public func objectValues(classIndex: Int, primaryKey: Value, propertyIndices: [Int]) throws(DrumlinError) -> (Object, [Value])? {
        try withObjectRow(classIndex: classIndex, primaryKey: primaryKey, propertyIndices: propertyIndices) {
            (row) throws(DrumlinError) -> (Object, [Value]) in
            var values: [Value] = []
            values.reserveCapacity(propertyIndices.count)
            try row.forEach { (_, value) throws(DrumlinError) in values.append(try value.value()) }
            return (row.object, values)
        }
    }

    /// Finds the object with a primary key and hands `body` the values of `propertyIndices`
    /// straight from the row, without copying them (one statement for properties stored in the
    /// row). Borrowed text and bytes are valid only inside `body`. Nil when there is no object.
    /// The corresponding C function is `drumlin_object_find_values`.
    @inlinable
    public func withObjectRow<R>(classIndex: Int, primaryKey: Value, propertyIndices: [Int],
                                 _ body: (ObjectRow) throws(DrumlinError) -> R) throws(DrumlinError) -> R? {
        var result: R?
        let found = try visitObjectRow(classIndex: classIndex, primaryKey: primaryKey, propertyIndices: propertyIndices) {
            (row) throws(DrumlinError) in result = try body(row)
        }
        return found ? result : nil
    }

    /// `withObjectRow` without a result type: true when the object exists (and `body` ran). Not
    /// generic, so callers in other modules pay no generic dispatch on this hot path.
    public func visitObjectRow(classIndex: Int, primaryKey: Value, propertyIndices: [Int],
                               _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) -> Bool {
        try serializedRead { (connection) throws(DrumlinError) -> Bool in
            let info = try readable(try classInfo(index: classIndex))
            for index in propertyIndices { try checkIndex(info, index) }
            guard let pkIndex = info.primaryKeyIndex else {
                throw DrumlinError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
            }
            // Properties stored outside the row (collections, backlinks, nested mixed) need more
            // reads: take the general path for them.
            if !info.allInRow(propertyIndices) {
                guard let key = try findKey(info, primaryKey, connection) else { return false }
                let values = try readRow(info, key, connection, indices: propertyIndices)
                try body(ObjectRow(database: self, info: info, key: key, values: values, indices: propertyIndices))
                return true
            }
            guard let pk = try primaryKeyValue(primaryKey, info, pkIndex) else { return false }
            let statement = try connection.statement(slot: info.slot(.selectRowByPrimaryKey), info.selectRowByPrimaryKeySQL)
            defer { statement.reset() }
            try ValueCodec.bind(pk, to: statement, at: 1)
            guard try statement.step() else { return false }
            try body(ObjectRow(database: self, info: info, statement: statement, indices: propertyIndices))
            return true
        }
    }

    /// Finds the object with a primary key and writes the values of `propertyIndices`
    /// (`values(position)` gives each), all or nothing. When they are all plain columns this is
    /// one `UPDATE ... WHERE primary key = ?`, with no read first. Returns false, writing nothing,
    /// when there is no such object. The corresponding C function is `drumlin_object_update_values`.
    @discardableResult
    public func updateValues(classIndex: Int, primaryKey: Value, propertyIndices: [Int],
                             values: (_ position: Int) throws(DrumlinError) -> BorrowedValue) throws(DrumlinError) -> Bool {
        try serialized { (connection) throws(DrumlinError) -> Bool in
            try requireWriteTransaction()
            let info = try classInfo(index: classIndex)
            try checkWritable(info, mode: .all)
            guard let pkIndex = info.primaryKeyIndex else {
                throw DrumlinError(.invalidArgument, "'\(info.name)' does not have a primary key defined")
            }
            try checkWriteIndices(info, propertyIndices)
            guard let pk = try primaryKeyValue(primaryKey, info, pkIndex) else { return false }
            let direct = !propertyIndices.isEmpty && propertyIndices.allSatisfy {
                $0 != pkIndex && info.traits[$0].isColumn && Self.isPlainType(info.traits[$0].type)
            }
            guard direct else {
                guard let key = try findKey(info, pk, connection) else { return false }
                var given: [(Int, Input)] = []
                for (position, index) in propertyIndices.enumerated() {
                    given.append((index, try input(from: try values(position).value(), info, index)))
                }
                try atomicallyIfNeeded(info, given, connection) { () throws(DrumlinError) in
                    try update(info, key, given, mode: .all, connection)
                }
                return true
            }
            func sql() -> String {
                var assignments: [String] = []
                for (position, index) in propertyIndices.enumerated() {
                    assignments.append("\(quoted(info.property(index).storedName)) = ?\(position + 2)")
                }
                let key = quoted(info.property(pkIndex).storedName)
                return "UPDATE \(info.table) SET \(assignments.joined(separator: ", ")) WHERE \(key) IS ?1"
            }
            let statement: Statement
            if propertyIndices.count == 1 {
                statement = try connection.statement(slot: info.updateByPrimaryKeySlot(propertyIndices[0]), sql())
            } else {
                var cacheKey: [Int] = [-1 - info.index]
                cacheKey.append(contentsOf: propertyIndices)
                if let cached = upsertStatements[cacheKey] {
                    statement = cached
                } else {
                    statement = try connection.statement(sql())
                    upsertStatements[cacheKey] = statement
                }
            }
            defer { statement.reset() }
            try ValueCodec.bind(pk, to: statement, at: 1)
            for (position, index) in propertyIndices.enumerated() {
                try bind(try values(position), info.traits[index],
                         Label(className: info.name, propertyName: info.propertyNames[index]), statement, Int32(position + 2))
            }
            _ = try assigning(propertyIndices) { () throws(DrumlinError) in try statement.step() }
            return connection.changes > 0
        }
    }
}

extension Database {
    /// A primary key as stored: a value of the property's own type as is (the common case, with no
    /// coercion), anything else coerced or refused naming the property; nil for a null key of a
    /// required primary key, which no object has.
    func primaryKeyValue(_ primaryKey: Value, _ info: ClassInfo, _ pkIndex: Int) throws(DrumlinError) -> Value? {
        let trait = info.traits[pkIndex]
        switch (trait.type, primaryKey) {
        case (.int, .int), (.string, .string), (.objectId, .objectId), (.uuid, .uuid): return primaryKey
        case (_, .null) where !trait.isOptional: return nil
        default:
            return try Coercion.scalar(primaryKey, trait.type, optional: trait.isOptional, nested: false,
                                       Label(className: info.name, propertyName: info.propertyNames[pkIndex]))
        }
    }
}

extension Object {
    /// Hands `body` the values of `indices` straight from the object's row (borrowed text and
    /// bytes, valid only inside `body`). Properties stored outside the row are read in full.
    @inlinable
    public func withRow<R>(_ indices: [Int], _ body: (ObjectRow) throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        var result: R?
        try visitRow(indices) { (row) throws(DrumlinError) in result = try body(row) }
        return result!  // visitRow returns only after running body once
    }

    /// `withRow` without a result type (not generic, for callers in other modules).
    public func visitRow(_ indices: [Int], _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) {
        try access(reading: true) { (connection) throws(DrumlinError) in
            let info = self.info
            for index in indices { try database.checkIndex(info, index) }
            if !info.inRow(indices) {
                let values = try database.readRow(info, key, connection, indices: indices)
                return try body(ObjectRow(database: database, info: info, key: key, values: values, indices: indices))
            }
            let statement = try connection.statement(slot: info.slot(.selectRow), info.selectRowSQL)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            guard try statement.step() else { throw database.invalidated(info) }
            return try body(ObjectRow(database: database, info: info, statement: statement, indices: indices))
        }
    }
}
