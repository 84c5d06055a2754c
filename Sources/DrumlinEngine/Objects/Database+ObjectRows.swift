import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// Whole-row reads by object key and single-property writes by object key: what a binding that
/// keeps an object's row (revalidated by `readVersion`) needs, with no object handle in between.
extension Database {
    /// The properties stored in an object's own row (every column except mixed values, whose
    /// nested lists and dictionaries live elsewhere), in property order: what a row read returns.
    public func rowPropertyIndices(classIndex: Int) throws(DrumlinError) -> [Int] {
        try classInfo(index: classIndex).rowIndices
    }

    /// How many properties class `classIndex` has (the width of a whole-row read).
    public func propertyCount(classIndex: Int) throws(DrumlinError) -> Int {
        try classInfo(index: classIndex).traits.count
    }

    /// Every object of class `classIndex`, as live results.
    public func objects(classIndex: Int) throws(DrumlinError) -> Results {
        try objects(try classInfo(index: classIndex).name)
    }

    /// Hands `body` the row values (`rowPropertyIndices`) of the object of class `classIndex`
    /// with object key `key`, read in one statement. An object that no longer exists is
    /// `DrumlinError.invalidatedObject`. The corresponding C function is `drumlin_object_read_row`.
    public func visitRow(classIndex: Int, key: Int64, _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) {
        let info = try classInfo(index: classIndex)
        try Object(database: self, info: info, key: key).visitRow(info.rowIndices, body)
    }

    /// Hands `body` the values of `propertyIndices` (collections and mixed values included) of
    /// the object of class `classIndex` with object key `key`, read in one call. The
    /// corresponding C function is `drumlin_object_read_marshal`.
    public func visitValues(classIndex: Int, key: Int64, propertyIndices: [Int],
                            _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) {
        let info = try classInfo(index: classIndex)
        try Object(database: self, info: info, key: key).visitRow(propertyIndices, body)
    }

    /// Writes one property of the object with object key `key` (inside a write transaction). A
    /// plain column (bool, int, float, double, string, data; not the primary key) is one cached
    /// `UPDATE ... WHERE key = ?`, with no read first; anything else takes the general path
    /// (`Object.set(at:to:)`). A deleted object is `DrumlinError.invalidatedObject`. The
    /// corresponding C function is `drumlin_object_set_by_key`.
    public func setValue(classIndex: Int, key: Int64, propertyIndex: Int, _ value: BorrowedValue) throws(DrumlinError) {
        let info = try classInfo(index: classIndex)
        let direct = try serialized { (connection) throws(DrumlinError) -> Bool in
            try checkIndex(info, propertyIndex)
            let trait = info.traits[propertyIndex]
            guard trait.isColumn, !trait.isPrimaryKey, Self.isPlainType(trait.type), info.geoPointIndices == nil,
                  info.schema.kind != .asymmetric else { return false }
            try requireWriteTransaction()
            // The same statement (and slot) the general update uses for one plain column.
            let statement = try connection.statement(slot: info.updateSlot(propertyIndex),
                "UPDATE \(info.table) SET \(quoted(info.property(propertyIndex).storedName)) = ? WHERE \(info.keyColumn) = ?")
            defer { statement.reset() }
            try bind(value, trait, Label(className: info.name, propertyName: info.propertyNames[propertyIndex]), statement, 1)
            statement.bind(key, at: 2)
            _ = try assigning(CollectionOfOne(propertyIndex)) { () throws(DrumlinError) in try statement.step() }
            if connection.changes == 0 { throw invalidated(info) }
            return true
        }
        if !direct {
            try Object(database: self, info: info, key: key).set(at: propertyIndex, to: try value.value())
        }
    }
}

extension ClassInfo {
    /// See `Database.rowPropertyIndices(classIndex:)`.
    var rowIndices: [Int] {
        if let cached = cachedRowIndices { return cached }
        let indices = traits.indices.filter { traits[$0].isColumn && traits[$0].type != .mixed }
        cachedRowIndices = indices
        return indices
    }
}

extension Results {
    /// The index of the results' class in the schema.
    public var classIndex: Int { info.index }
}
