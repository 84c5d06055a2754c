import DrumlinEngine
import CDrumlinHeader

// The exports of drumlin.h's section "Whole rows and the read version".

// Whole rows, packed, for bindings that keep an object's row and revalidate it against the
// database's read version (drumlin_db_read_version): one crossing per object or per page of
// results, and one per attribute write.

@_cdecl("drumlin_db_read_version")
public func drumlin_db_read_version(_ db: OpaquePointer?,
                                    _ outVersion: UnsafeMutablePointer<UnsafePointer<UInt64>?>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outVersion else { throw misuse("out_version must not be NULL.") }
        outVersion.pointee = nil
        outVersion.pointee = UnsafePointer(try database(db).readVersionAddress)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_find_row")
public func drumlin_object_find_row(_ db: OpaquePointer?, _ classIndex: Int32, _ primaryKey: UnsafePointer<drumlin_value>?,
                                    _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                                    _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let outSize = try packedOutput(0, buffer, capacity, outSize)
        let db = try database(db)
        guard let primaryKey else { throw misuse("primary_key must not be NULL.") }
        let index = Int(classIndex)
        let (rowIndices, width) = try rowShape(db, index)
        var writer = MarshalWriter(into: buffer, capacity: capacity)
        let found = try db.visitObjectRow(classIndex: index, primaryKey: try value(from: primaryKey.pointee),
                                          propertyIndices: rowIndices) { (row) throws(DrumlinError) in
            try packRow(row, width: width, rowIndices, targets: .linked, into: &writer)
        }
        guard found else { return DRUMLIN_NOT_FOUND }
        finishPacked(writer, outSize)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_read_row")
public func drumlin_object_read_row(_ db: OpaquePointer?, _ classIndex: Int32, _ key: Int64,
                                    _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                                    _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        let outSize = try packedOutput(0, buffer, capacity, outSize)
        let db = try database(db)
        let index = Int(classIndex)
        let (rowIndices, width) = try rowShape(db, index)
        var writer = MarshalWriter(into: buffer, capacity: capacity)
        try db.visitRow(classIndex: index, key: key) { (row) throws(DrumlinError) in
            try packRow(row, width: width, rowIndices, targets: .linked, into: &writer)
        }
        finishPacked(writer, outSize)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_get_rows")
public func drumlin_results_get_rows(_ results: OpaquePointer?, _ start: Int, _ maxRows: Int,
                                     _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                                     _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        try resultsRows(results, start, maxRows, keys: nil, buffer, capacity, outSize)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_results_get_rows_keyed")
public func drumlin_results_get_rows_keyed(_ results: OpaquePointer?, _ start: Int, _ maxRows: Int,
                                           _ outKeys: UnsafeMutablePointer<Int64>?,
                                           _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                                           _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let outKeys else { throw misuse("out_keys must not be NULL.") }
        try resultsRows(results, start, maxRows, keys: outKeys, buffer, capacity, outSize)
        return DRUMLIN_OK
    }
}

/// The page of rows of both functions above, each row's object key written to `keys` when given.
private func resultsRows(_ results: OpaquePointer?, _ start: Int, _ maxRows: Int, keys: UnsafeMutablePointer<Int64>?,
                         _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                         _ outSize: UnsafeMutablePointer<Int>?) throws(DrumlinError) {
    let outSize = try packedOutput(0, buffer, capacity, outSize)
    let handle = try resultsHandle(results)
    guard start >= 0, maxRows >= 0 else { throw DrumlinError(.invalidArgument, "start and max_rows must not be negative.") }
    let results = handle.results
    let classIndex = results.classIndex
    let db = results.database
    let (rowIndices, width) = try rowShape(db, classIndex)
    var writer = MarshalWriter(into: buffer, capacity: capacity)
    writer.beginList(0)
    var next = keys
    let rows = try results.forEachRow(from: start, maxRows: maxRows, rowIndices) { (row) throws(DrumlinError) in
        try packRow(row, width: width, rowIndices, targets: .none, into: &writer)
        if let key = next {
            key.pointee = row.key
            next = key + 1
        }
    }
    writer.patchList(at: 0, count: rows)
    finishPacked(writer, outSize)
}

@_cdecl("drumlin_query_rows")
public func drumlin_query_rows(_ db: OpaquePointer?, _ classIndex: Int32, _ query: UnsafePointer<CChar>?,
                               _ argsJSON: UnsafePointer<CChar>?, _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                               _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        try queryRows(db, classIndex, query, argsJSON, maxRows: .max, buffer, capacity, outSize)
    }
}

@_cdecl("drumlin_query_first_rows")
public func drumlin_query_first_rows(_ db: OpaquePointer?, _ classIndex: Int32, _ query: UnsafePointer<CChar>?,
                                     _ argsJSON: UnsafePointer<CChar>?, _ maxRows: Int, _ buffer: UnsafeMutableRawPointer?,
                                     _ capacity: Int, _ outSize: UnsafeMutablePointer<Int>?) -> Int32 {
    capi { () throws(DrumlinError) in
        // A size_t above Int.max arrives negative: every row.
        try queryRows(db, classIndex, query, argsJSON, maxRows: maxRows < 0 ? .max : maxRows, buffer, capacity, outSize)
    }
}

/// The rows of `drumlin_query_rows` and `drumlin_query_first_rows`: at most `maxRows`, the first
/// in the results' order.
private func queryRows(_ db: OpaquePointer?, _ classIndex: Int32, _ query: UnsafePointer<CChar>?,
                       _ argsJSON: UnsafePointer<CChar>?, maxRows: Int, _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                       _ outSize: UnsafeMutablePointer<Int>?) throws(DrumlinError) -> Int32 {
    let outSize = try packedOutput(0, buffer, capacity, outSize)
    let db = try database(db)
    guard let query else { throw misuse("query must not be NULL (use \"TRUEPREDICATE\" to read every object).") }
    let index = Int(classIndex)
    let (rowIndices, width) = try rowShape(db, index)
    let text = try string(query, "query")
    let arguments = try queryArguments(db, argsJSON)
    var writer = MarshalWriter(into: buffer, capacity: capacity)
    writer.beginList(0)
    var rows = 0
    // A query run before with arguments of the same types: its rows straight from the shared
    // statement (classes of plain columns). Anything else takes the general path.
    let read = try db.visitTemplateRows(classIndex: index, text: text, arguments: arguments,
                                        propertyIndices: rowIndices, maxRows: maxRows) { (row) throws(DrumlinError) in
        try packRow(row, width: width, rowIndices, targets: .none, into: &writer)
        rows += 1
    }
    if !read {
        writer = MarshalWriter(into: buffer, capacity: capacity)
        writer.beginList(0)
        let results = try db.objects(classIndex: index).filter(text, arguments)
        rows = try results.forEachRow(from: 0, maxRows: maxRows, rowIndices, parking: false) { (row) throws(DrumlinError) in
            try packRow(row, width: width, rowIndices, targets: .none, into: &writer)
        }
    }
    writer.patchList(at: 0, count: rows)
    finishPacked(writer, outSize)
    return DRUMLIN_OK
}

@_cdecl("drumlin_object_set_by_key")
public func drumlin_object_set_by_key(_ db: OpaquePointer?, _ classIndex: Int32, _ key: Int64, _ propertyIndex: Int32,
                                      _ value: UnsafePointer<drumlin_value>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let value else { throw misuse("value must not be NULL.") }
        try setByKey(db, classIndex, key, propertyIndex, value.pointee)
        return DRUMLIN_OK
    }
}

@_cdecl("drumlin_object_write_by_key")
public func drumlin_object_write_by_key(_ write: UnsafePointer<drumlin_key_write>?) -> Int32 {
    capi { () throws(DrumlinError) in
        guard let write else { throw misuse("write must not be NULL.") }
        try setByKey(write.pointee.db, write.pointee.class_index, write.pointee.key, write.pointee.property_index,
                     write.pointee.value)
        return DRUMLIN_OK
    }
}

/// The write of both functions above: one property of the object with an object key, the value
/// borrowed for the call.
private func setByKey(_ db: OpaquePointer?, _ classIndex: Int32, _ key: Int64, _ propertyIndex: Int32,
                      _ value: drumlin_value) throws(DrumlinError) {
    let db = try database(db)
    try db.setValue(classIndex: Int(classIndex), key: key, propertyIndex: Int(propertyIndex), try borrowed(from: value))
}

// MARK: - The packer of every packed read
//
// One packer for rows (the four row functions above) and for the values of chosen properties
// (drumlin_object_get_marshal, drumlin_object_find_marshal, drumlin_results_get_marshal,
// drumlin_query_marshal); drumlin.h, "Packed values", documents both forms. Rows hold what the
// row statement read (scalars, and a link as its target's class and key); chosen values are
// whole: collections, a mixed value's nested lists and dictionaries, embedded objects and link
// targets' primary keys, which cost further reads.

/// What a packed row carries beyond its own columns (see `packRow`).
enum TargetRows {
    /// Nothing: the rows of results (a page would read every target of every row).
    case none
    /// Embedded objects' rows: the row of an object's embedded or linked object.
    case embedded
    /// Embedded and linked objects' rows, and short collections of values: the row of one
    /// object, read to be used (a link or a short list read next costs no second call; the
    /// target's own links and collections are not followed).
    case linked
}

/// One object as a row: a tuple of `width + 1` items, every property by index (the row
/// properties' values, mixed values, None for collections and linkingObjects), then the object
/// key. A date property's value is `YYYY-MM-DDTHH:MM:SS.ffffff+00:00` text within years 1–9999. A
/// link is (DRUMLIN_TYPE_LINK, class, key); a link whose target `targets` names also carries the
/// target's row, (DRUMLIN_TYPE_LINK, class, key, row).
func packRow(_ row: ObjectRow, width: Int, _ rowIndices: [Int], targets: TargetRows,
             into writer: inout MarshalWriter) throws(DrumlinError) {
    writer.beginTuple(width + 1)
    // The row's values in one pass (`forEach`: no per-value dispatch on the row's source), the
    // properties between them (`rowIndices` ascend) as None.
    var next = 0
    try row.forEach { (position, value) throws(DrumlinError) in
        let index = rowIndices[position]
        while next < index {
            try putOutOfRow(row, next, targets: targets, into: &writer)
            next += 1
        }
        if !writer.put(value), case .value(let value) = value {
            try putRowValue(value, row, position, targets: targets, into: &writer)
        }
        next += 1
    }
    while next < width {
        try putOutOfRow(row, next, targets: targets, into: &writer)
        next += 1
    }
    writer.put(.int(row.key))
}

/// A value of a row that marshal has no type for (see `packRow`).
private func putRowValue(_ value: Value, _ row: ObjectRow, _ position: Int, targets: TargetRows,
                         into writer: inout MarshalWriter) throws(DrumlinError) {
    var names = PackedNames()
    switch value {
    case .link(let link) where targets != .none && row.holdsLinks(at: position)
                               && (targets == .linked || row.isEmbedded(link)):
        let found = try row.visitTargetRow(link) { (target) throws(DrumlinError) in
            writer.beginTuple(4)
            writer.put(.int(Int64(DRUMLIN_TYPE_LINK)))
            writer.put(.int(Int64(link.classIndex)))
            writer.put(.int(link.key))
            try packRow(target, width: target.propertyCount, target.propertyIndices, targets: .embedded, into: &writer)
        }
        // A dangling link (a damaged file): the link alone, so the object reads and its target
        // reports itself deleted when used.
        if !found { try putValue(value, whole: false, links: false, row, names: &names, into: &writer) }
    case .date(let date):
        // The text Python's fromisoformat reads (in C); the tagged tuple outside years 1-9999.
        if !date.withMicrosecondISO8601({ (text) in _ = writer.put(.text(text)) }) {
            try putValue(value, whole: false, links: false, row, names: &names, into: &writer)
        }
    default:
        try putValue(value, whole: false, links: false, row, names: &names, into: &writer)
    }
}

/// A property a row's statement does not read as a value of its own type: a mixed value (its
/// scalar, or `(DRUMLIN_TYPE_LIST,)` / `(DRUMLIN_TYPE_DICTIONARY,)` for a nested collection); in
/// the row of one object (`.linked`), a short collection of values as packed values hold it (a
/// list, or a dict for a dictionary; `ObjectRow.smallCollection`); else None (a longer collection,
/// a collection of links or mixed values, a linkingObjects property).
private func putOutOfRow(_ row: ObjectRow, _ index: Int, targets: TargetRows,
                         into writer: inout MarshalWriter) throws(DrumlinError) {
    guard row.isMixedColumn(index) else {
        if targets == .linked, let items = try row.smallCollection(index) {
            var names = PackedNames()
            try putValue(items, whole: false, links: false, row, names: &names, into: &writer)
        } else {
            writer.put(.null)
        }
        return
    }
    // A plain scalar (most mixed values): straight from the statement's row.
    if let value = row.mixedInPlace(index), writer.put(value) { return }
    switch try row.mixedCell(index) {
    case .scalar(let value):
        var names = PackedNames()
        try putValue(value, whole: false, links: false, row, names: &names, into: &writer)
    case .nestedList:
        writer.beginTuple(1)
        writer.put(.int(Int64(DRUMLIN_TYPE_LIST)))
    case .nestedDictionary:
        writer.beginTuple(1)
        writer.put(.int(Int64(DRUMLIN_TYPE_DICTIONARY)))
    }
}

/// The names of packed values' dicts, each written once per call and referred back to after
/// (marshal's references): a results set of many objects names each property once. Also the
/// primary keys of the link targets the call has read.
struct PackedNames {
    /// Per link target read in this call (one snapshot): its primary key (nil: its class has none).
    var primaryKeys: [ObjectLink: Value?] = [:]
    /// Per class seen: the reference index of each property's name (-1 until written).
    private var classes: [(classIndex: Int, refs: [Int32])] = []
    /// "$link", "class" and "key" of a mixed value's link (no array: a row's packer makes a
    /// table for every value it hands to `putValue`).
    private var linkNames: (Int32, Int32, Int32) = (-1, -1, -1)
    private static let linkNameTexts = ["$link", "class", "key"]
    private var next: Int32 = 0

    /// Writes the name of property `position` of `row`'s values: the string the first time, a
    /// reference to it after.
    mutating func put(_ row: ObjectRow, _ position: Int, into writer: inout MarshalWriter) {
        let classIndex = row.classIndex
        var slot = 0
        while slot < classes.count, classes[slot].classIndex != classIndex { slot += 1 }
        if slot == classes.count { classes.append((classIndex, [Int32](repeating: -1, count: row.propertyCount))) }
        let property = row.propertyIndex(at: position)
        let known = classes[slot].refs[property]
        if known >= 0 {
            writer.putReference(known)
            return
        }
        var name = row.propertyName(property)
        name.withUTF8 { writer.putReferable(UnsafeRawBufferPointer($0)) }
        classes[slot].refs[property] = next
        next += 1
    }

    /// Writes one of a mixed value's link names (0: "$link", 1: "class", 2: "key").
    mutating func putLinkName(_ which: Int, into writer: inout MarshalWriter) {
        let known = which == 0 ? linkNames.0 : which == 1 ? linkNames.1 : linkNames.2
        if known >= 0 {
            writer.putReference(known)
            return
        }
        var name = Self.linkNameTexts[which]
        name.withUTF8 { writer.putReferable(UnsafeRawBufferPointer($0)) }
        switch which {
        case 0: linkNames.0 = next
        case 1: linkNames.1 = next
        default: linkNames.2 = next
        }
        next += 1
    }
}

/// The values `row` holds, whole, as a dict by property name (drumlin.h, "Packed values").
func packValues(_ row: ObjectRow, names: inout PackedNames, into writer: inout MarshalWriter) throws(DrumlinError) {
    writer.beginDict()
    for position in 0..<row.count {
        names.put(row, position, into: &writer)
        let value = try row[position]
        if !writer.put(value), case .value(let value) = value {
            try putValue(value, whole: true, links: row.holdsLinks(at: position), row, names: &names, into: &writer)
        }
    }
    writer.endDict()
}

/// `value` as a packed item, for values marshal has no type for. `whole`: embedded objects as
/// their values (packValues of every property but linkingObjects ones) and link targets with
/// their primary key; `links`: the value is a link property's (or its collection's), not a mixed
/// value's (whose links are always (DRUMLIN_TYPE_LINK, class, key)).
private func putValue(_ value: Value, whole: Bool, links: Bool, _ row: ObjectRow, names: inout PackedNames,
                      into writer: inout MarshalWriter) throws(DrumlinError) {
    if writer.put(.value(value)) { return }
    switch value {
    case .float(let f):
        writer.beginTuple(2)
        writer.put(.int(Int64(DRUMLIN_TYPE_FLOAT)))
        writer.put(.double(Double(f)))
    case .decimal(let d):
        // Its text, which Python's Decimal reads in C (decoding the 128 bits in Python took 8x as long).
        writer.beginTuple(2)
        writer.put(.int(Int64(DRUMLIN_TYPE_DECIMAL128)))
        d.withText { _ = writer.put(.text($0)) }
    case .date(let t):
        writer.beginTuple(3)
        writer.put(.int(Int64(DRUMLIN_TYPE_TIMESTAMP)))
        writer.put(.int(t.seconds))
        writer.put(.int(Int64(t.nanoseconds)))
    case .objectId(let oid):
        writer.beginTuple(2)
        writer.put(.int(Int64(DRUMLIN_TYPE_OBJECT_ID)))
        oid.bytes.withUnsafeBytes { _ = writer.put(.bytes($0)) }
    case .uuid(let uuid):
        writer.beginTuple(2)
        writer.put(.int(Int64(DRUMLIN_TYPE_UUID)))
        uuid.bytes.withUnsafeBytes { _ = writer.put(.bytes($0)) }
    case .link(let link) where whole && links && row.isEmbedded(link):
        try row.visitEmbedded(link) { (embedded) throws(DrumlinError) in
            try packValues(embedded, names: &names, into: &writer)
        }
    case .link(let link) where whole && links:
        // What a dict shows for a link property: the target's primary key, else its object key.
        // Read once per target and call (the objects of results often share theirs).
        let primaryKey: Value?
        if let known = names.primaryKeys[link] {
            primaryKey = known
        } else {
            primaryKey = try row.primaryKey(of: link)
            names.primaryKeys[link] = primaryKey
        }
        if let primaryKey {
            try putValue(primaryKey, whole: false, links: false, row, names: &names, into: &writer)
        } else {
            writer.put(.int(link.key))
        }
    case .link(let link) where whole:
        // A mixed value's link, as Extended JSON writes it: {"$link": {"class": ..., "key": ...}}.
        writer.beginDict()
        names.putLinkName(0, into: &writer)
        writer.beginDict()
        names.putLinkName(1, into: &writer)
        var className = row.className(ofClass: link.classIndex)
        className.withUTF8 { _ = writer.put(.text(UnsafeRawBufferPointer($0))) }
        names.putLinkName(2, into: &writer)
        writer.put(.int(link.key))
        writer.endDict()
        writer.endDict()
    case .link(let link):
        writer.beginTuple(3)
        writer.put(.int(Int64(DRUMLIN_TYPE_LINK)))
        writer.put(.int(Int64(link.classIndex)))
        writer.put(.int(link.key))
    case .list(let items):
        writer.beginList(items.count)
        for item in items { try putValue(item, whole: whole, links: links, row, names: &names, into: &writer) }
    case .dictionary(let entries):
        writer.beginDict()
        for entry in entries {
            var key = entry.key
            key.withUTF8 { _ = writer.put(.text(UnsafeRawBufferPointer($0))) }
            try putValue(entry.value, whole: whole, links: links, row, names: &names, into: &writer)
        }
        writer.endDict()
    default:
        writer.put(.null)
    }
}

/// What a whole row of class `classIndex` holds: the indexes of the properties it packs, and its
/// width (one item per property, before the object key).
private func rowShape(_ db: Database, _ classIndex: Int) throws(DrumlinError) -> (indices: [Int], width: Int) {
    (try db.rowPropertyIndices(classIndex: classIndex), try db.propertyCount(classIndex: classIndex))
}
