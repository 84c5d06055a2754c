import DrumlinStorage
import DrumlinValues

/// Whole values: what a binding needs to turn an object into a dictionary in one crossing
/// (collections, mixed values, embedded objects and link targets' primary keys included; the C
/// layer's packed values, drumlin.h "Packed values").
extension Database {
    /// Every property of class `classIndex` but linkingObjects ones (computed, and left out of a
    /// dictionary of the object), in property order: what an embedded object's packed values hold.
    public func wholeRowPropertyIndices(classIndex: Int) throws(DrumlinError) -> [Int] {
        let info = try classInfo(index: classIndex)
        if let cached = info.cachedWholeRowIndices { return cached }
        let indices = info.traits.indices.filter { !info.traits[$0].isComputed }
        info.cachedWholeRowIndices = indices
        return indices
    }
}

extension ObjectRow {
    /// The index of the row's class.
    public var classIndex: Int { info.index }

    /// How many properties the row's class has.
    public var propertyCount: Int { info.traits.count }

    /// The property indexes of the values, in order.
    public var propertyIndices: [Int] { indices }

    /// The property index of the value at `position`.
    public func propertyIndex(at position: Int) -> Int { indices[position] }

    /// The public name of the class with index `classIndex` (a link's target class).
    public func className(ofClass classIndex: Int) -> String {
        database.classes.indices.contains(classIndex) ? database.classes[classIndex].name : ""
    }

    /// Whether the value at `position` is a link property's (a link, or a collection of links,
    /// whose targets packed values show as embedded objects' values or primary keys), not a mixed value's.
    public func holdsLinks(at position: Int) -> Bool {
        info.traits[indices[position]].type == .object
    }

    /// Whether a link held by a link property points at an embedded object.
    public func isEmbedded(_ link: ObjectLink) -> Bool {
        database.classes.indices.contains(link.classIndex) && database.classes[link.classIndex].isEmbedded
    }

    /// Hands `body` the values of every property (`Database.wholeRowPropertyIndices`) of the embedded object a
    /// link of this row points at. Read on the connection this row's call holds, so only inside
    /// the closure that received this row.
    public func visitEmbedded(_ link: ObjectLink, _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) {
        let target = try database.classInfo(index: link.classIndex)
        let indices = try database.wholeRowPropertyIndices(classIndex: link.classIndex)
        let values = try database.readRow(target, link.key, try nestedConnection(), indices: indices, slot: .selectNestedRow)
        try body(ObjectRow(database: database, info: target, key: link.key, values: values, indices: indices))
    }

    /// Hands `body` the row (`Database.rowPropertyIndices`) of the object (embedded or not) a
    /// link of this row points at, straight from its statement: what a whole row holds for a link
    /// target. Only inside the closure that received this row, as `visitEmbedded`.
    /// Returns false, calling nothing, when the target is missing (a damaged file: the link is all
    /// a row can show then).
    @discardableResult
    public func visitTargetRow(_ link: ObjectLink, _ body: (ObjectRow) throws(DrumlinError) -> Void) throws(DrumlinError) -> Bool {
        let target = try database.classInfo(index: link.classIndex)
        let indices = target.rowIndices
        // The slot is free: a class is at most once in a chain of embedded objects (the schema
        // refuses cycles through embedded objects), a row carries the rows of linked (top-level)
        // objects only at its own level, whose chains of embedded objects hold other classes, and
        // the first row reads on another slot (selectRow, selectRowByPrimaryKey).
        let statement = try nestedConnection().statement(slot: target.slot(.selectNestedRow), target.selectRowSQL)
        defer { statement.reset() }
        statement.bind(link.key, at: 1)
        guard try statement.step() else { return false }
        try body(ObjectRow(database: database, info: target, statement: statement, indices: indices))
        return true
    }

    /// What a whole row holds for a mixed property: its scalar (an object it holds as the link),
    /// or which kind of nested collection it holds (read by the typed or packed calls).
    public enum MixedCell {
        case scalar(Value)
        case nestedList
        case nestedDictionary
    }

    /// Whether property `index` is a mixed value stored in the row's columns.
    public func isMixedColumn(_ index: Int) -> Bool {
        info.traits[index].type == .mixed && info.slots[index] != nil
    }

    /// The mixed property `index` (`isMixedColumn`) when the statement's row holds it as a value
    /// that needs no conversion (`ValueCodec.readMixedInPlace`): read in place, nothing made. Nil
    /// otherwise, and on a row of read values: `mixedCell` reads it. Only inside the closure that
    /// received this row, as `visitEmbedded`.
    public func mixedInPlace(_ index: Int) -> BorrowedValue? {
        guard let handle = statementHandle, let slot = info.slots[index] else { return nil }
        let column = Int32(slot + 1)
        return ValueCodec.readMixedInPlace(handle, value: column, type: column + 1)
    }

    /// The mixed property `index` (`isMixedColumn`) of the object, as a whole row holds it: read
    /// from the statement's row, or from the object's row again when the values were read
    /// already. Only inside the closure that received this row, as `visitEmbedded`.
    public func mixedCell(_ index: Int) throws(DrumlinError) -> MixedCell {
        switch source {
        case .statement(let statement):
            return try database.mixedCell(info, statement, index)
        case .values:
            let statement = try nestedConnection().statement(slot: info.slot(.selectNestedRow), info.selectRowSQL)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            guard try statement.step() else { throw database.invalidated(info) }
            return try database.mixedCell(info, statement, index)
        }
    }

    /// How many elements a collection may have for a row of one object to carry it
    /// (`smallCollection`): bounded, so an object with a long collection costs at most this many
    /// elements read for nothing.
    public static let carriedElements = 16

    /// The elements of collection property `index` of this row's object, when it is a list, set or
    /// dictionary of values (not links, not mixed values) with at most `carriedElements`; nil
    /// otherwise. Read in this row's read transaction: what a row of one object carries, so a
    /// binding reads a short collection of the object it read with no second call. Only inside
    /// the closure that received this row, as `visitEmbedded`.
    public func smallCollection(_ index: Int) throws(DrumlinError) -> Value? {
        guard let table = info.collectionTables[index], !table.isMixed, info.traits[index].type != .object,
              !info.traits[index].isComputed else { return nil }
        return try database.readCollection(info, key, index, try nestedConnection(), limit: Self.carriedElements)
    }

    /// The primary key of the object a link of this row points at; nil when its class has none.
    /// Only inside the closure that received this row, as `visitEmbedded`.
    public func primaryKey(of link: ObjectLink) throws(DrumlinError) -> Value? {
        let target = try database.classInfo(index: link.classIndex)
        guard let pk = target.primaryKeyIndex else { return nil }
        return try database.readRow(target, link.key, try nestedConnection(), indices: [pk], slot: .selectNestedRow)[0]
    }

    /// The connection of the call this row was handed out by (its lock is held while the row is
    /// valid); nested reads use their own statement slot, so the row's statement stays on its row.
    private func nestedConnection() throws(DrumlinError) -> Connection {
        guard let connection = database.connection else { throw DrumlinError(.misuse, "The database is closed.") }
        return connection
    }
}
