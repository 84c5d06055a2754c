@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues
import Testing

/// Encodes rows the way Python's `marshal.dumps(list_of_tuples)` does (version 4, no references).
func marshalRows(_ rows: [[Value]]) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "[")]
    func int32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
    int32(Int32(rows.count))
    for row in rows {
        out.append(UInt8(ascii: ")"))
        out.append(UInt8(row.count))
        for value in row {
            switch value {
            case .null: out.append(UInt8(ascii: "N"))
            case .bool(let b): out.append(UInt8(ascii: b ? "T" : "F"))
            case .int(let i) where i >= Int64(Int32.min) && i <= Int64(Int32.max):
                out.append(UInt8(ascii: "i")); int32(Int32(i))
            case .int(let i):
                // Python longs: base-2^15 digits, the sign on the digit count.
                var magnitude = i.magnitude
                var digits: [UInt16] = []
                while magnitude > 0 { digits.append(UInt16(magnitude & 0x7FFF)); magnitude >>= 15 }
                out.append(UInt8(ascii: "l")); int32(Int32(i < 0 ? -digits.count : digits.count))
                for d in digits { withUnsafeBytes(of: d.littleEndian) { out.append(contentsOf: $0) } }
            case .double(let d):
                out.append(UInt8(ascii: "g")); withUnsafeBytes(of: d.bitPattern.littleEndian) { out.append(contentsOf: $0) }
            case .string(let s):
                out.append(UInt8(ascii: "u")); int32(Int32(s.utf8.count)); out.append(contentsOf: s.utf8)
            case .data(let bytes):
                out.append(UInt8(ascii: "s")); int32(Int32(bytes.count)); out.append(contentsOf: bytes)
            default: fatalError("not a marshal value")
            }
        }
    }
    return out
}

@Suite struct BulkTests {
    func open() throws -> Database { try openPeople() }
    var indices: [Int] { [0, 1, 2, 4] }   // id, name, age, score

    @Test func marshalRowsAreCreatedInBatches() throws {
        let db = try open()
        let rows: [[Value]] = (1...200).map { [.int(Int64($0)), .string("n\($0) é"), $0 % 3 == 0 ? .null : .int(Int64($0)), .int(Int64($0))] }
        let data = marshalRows(rows)
        let created = try db.write { try data.withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: indices, marshal: $0) } }
        #expect(created == 200)
        #expect(try db.count("Person") == 200)
        #expect(try db.getJSON("Person", primaryKey: 3) == #"{"id":3,"name":"n3 é","age":null,"email":null,"score":3.0,"active":true}"#)
        #expect(try db.getJSON("Person", primaryKey: 200) == #"{"id":200,"name":"n200 é","age":200,"email":null,"score":200.0,"active":true}"#)
    }

    @Test func aBadRowNamesItsElementAndWritesNothing() throws {
        let db = try open()
        var rows: [[Value]] = (1...100).map { [.int(Int64($0)), .string("n"), .int(1), .double(1)] }
        rows[70][2] = .string("old")
        try db.beginWrite()
        expectError(.typeMismatch, "Element 70: Type mismatch for property 'Person.age': expected int, got string.") {
            _ = try marshalRows(rows).withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: indices, marshal: $0) }
        }
        rows[70][2] = .int(1)
        rows[90][0] = .int(5)
        expectError(.duplicatePrimaryKey, "Element 90: Attempting to create an object of type 'Person' with an existing primary key value '5'.") {
            _ = try marshalRows(rows).withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: indices, marshal: $0) }
        }
        rows[90][1] = .null
        expectError(.notNullable) {
            _ = try marshalRows(rows).withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: indices, marshal: $0) }
        }
        expectError(.invalidArgument) {
            _ = try [UInt8]([0x5B, 1, 0, 0, 0, 0x29, 4, 0x7A]).withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: indices, marshal: $0) }
        }
        expectError(.missingValue) {
            _ = try marshalRows([[.int(1)]]).withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: [0], marshal: $0) }
        }
        try db.commit()
        #expect(try db.count("Person") == 0)
    }

    @Test func bigIntegersAndTheGeneralPathForUpdates() throws {
        let db = try open()
        let rows: [[Value]] = [[.int(.max), "big", .int(.min), .double(0.5)]]
        try db.write { _ = try marshalRows(rows).withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: indices, marshal: $0) } }
        #expect(try db.object("Person", primaryKey: .int(.max))?["age"] == .int(.min))
        // Update modes go through the general path.
        let update: [[Value]] = [[.int(.max), "bigger", .int(1), .double(2)]]
        try db.write { _ = try marshalRows(update).withUnsafeBytes { try db.createMany(classIndex: 0, propertyIndices: indices, marshal: $0, update: .modified) } }
        #expect(try db.object("Person", primaryKey: .int(.max))?["name"] == "bigger")
    }

    @Test func jsonBatchesStreamAndFailCleanly() throws {
        let db = try open()
        let text = "[" + (1...500).map { #"{"id": \#($0), "name": "p\#($0)"}"# }.joined(separator: ",") + "]"
        let created = try db.write { try Array(text.utf8).withUnsafeBytes { try db.createMany("Person", jsonBytes: $0) } }
        #expect(created == 500)
        try db.beginWrite()
        expectError(.invalidArgument) { _ = try Array(#"[{"id": 1000, "name": "x"}, {"id": "#.utf8).withUnsafeBytes { try db.createMany("Person", jsonBytes: $0) } }
        expectError(.invalidArgument) { _ = try Array(#"{"id": 1}"#.utf8).withUnsafeBytes { try db.createMany("Person", jsonBytes: $0) } }
        try db.commit()
        #expect(try db.count("Person") == 500)
    }
}
