import CDrumlinHeader
import DrumlinC
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The C ABI driven from Swift as a C client would: status codes, last error, handles, values.
@Suite struct CABITests {
    let schema = #"[{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "nick": "string?", "blob": "data?", "m": "mixed"}}]"#

    func open() -> OpaquePointer? {
        var db: OpaquePointer?
        #expect(DrumlinC.drumlin_open(":memory:", schema, nil, &db) == DRUMLIN_OK)
        return db
    }

    var lastMessage: String { String(cString: DrumlinC.drumlin_last_error_message()!) }

    @Test func statusNamesAndVersions() {
        #expect(String(cString: DrumlinC.drumlin_version()!) == DRUMLIN_VERSION)
        #expect(DrumlinC.drumlin_abi_version() == DRUMLIN_ABI_VERSION)
        #expect(String(cString: DrumlinC.drumlin_status_name(DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY)!) == "DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY")
        #expect(String(cString: DrumlinC.drumlin_status_name(999)!) == "DRUMLIN_UNKNOWN")
    }

    @Test func jsonLayerRoundTripAndErrors() {
        let db = open()
        defer { _ = DrumlinC.drumlin_close(db) }
        var count: Int64 = -1
        #expect(DrumlinC.drumlin_create_json(db, "Person", #"{"id": 1, "name": "A"}"#, DRUMLIN_UPDATE_NEVER, nil) == DRUMLIN_ERR_WRONG_TRANSACTION_STATE)
        #expect(DrumlinC.drumlin_last_error_code() == DRUMLIN_ERR_WRONG_TRANSACTION_STATE)
        #expect(DrumlinC.drumlin_begin_write(db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_last_error_code() == DRUMLIN_OK)
        #expect(lastMessage == "")
        var out: UnsafeMutablePointer<CChar>?
        #expect(DrumlinC.drumlin_create_json(db, "Person", #"{"id": 1, "name": "A", "m": 3.0}"#, DRUMLIN_UPDATE_NEVER, &out) == DRUMLIN_OK)
        #expect(String(cString: out!) == #"{"id":1,"name":"A","nick":null,"blob":null,"m":3.0}"#)
        DrumlinC.drumlin_free(out)
        #expect(DrumlinC.drumlin_create_json(db, "Person", #"{"id": 1, "name": "B"}"#, DRUMLIN_UPDATE_NEVER, nil) == DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY)
        #expect(lastMessage == "Attempting to create an object of type 'Person' with an existing primary key value '1'.")
        #expect(DrumlinC.drumlin_create_json(db, "Person", #"{"id": 2, "name": "B""#, DRUMLIN_UPDATE_NEVER, nil) == DRUMLIN_ERR_INVALID_ARGUMENT)
        #expect(DrumlinC.drumlin_create_json(db, "Person", #"{"id": 2}"#, 7, nil) == DRUMLIN_ERR_INVALID_ARGUMENT)
        #expect(DrumlinC.drumlin_create_many_json(db, "Person", #"[{"id": 2, "name": "B"}, {"id": 3, "name": "C"}]"#, DRUMLIN_UPDATE_NEVER, &count) == DRUMLIN_OK)
        #expect(count == 2)
        #expect(DrumlinC.drumlin_commit(db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_count(db, "Person", nil, nil, &count) == DRUMLIN_OK)
        #expect(count == 3)
        #expect(DrumlinC.drumlin_get_json(db, "Person", "4", &out) == DRUMLIN_NOT_FOUND)
        #expect(out == nil)
        #expect(DrumlinC.drumlin_last_error_code() == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_get_json(db, "Person", "2", &out) == DRUMLIN_OK)
        #expect(String(cString: out!) == #"{"id":2,"name":"B","nick":null,"blob":null,"m":null}"#)
        DrumlinC.drumlin_free(out)
    }

    @Test func typedValuesAndBorrowedStrings() {
        let db = open()
        defer { _ = DrumlinC.drumlin_close(db) }
        var idIndex: Int32 = -1, nameIndex: Int32 = -1, blobIndex: Int32 = -1, mIndex: Int32 = -1
        #expect(DrumlinC.drumlin_property_index(db, "Person", "id", &idIndex) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_property_index(db, "Person", "name", &nameIndex) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_property_index(db, "Person", "blob", &blobIndex) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_property_index(db, "Person", "m", &mIndex) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_property_index(db, "Person", "nope", &mIndex) == DRUMLIN_ERR_NO_SUCH_PROPERTY)
        #expect(lastMessage == "Property 'Person.nope' does not exist.")
        #expect(mIndex == -1)
        _ = DrumlinC.drumlin_property_index(db, "Person", "m", &mIndex)

        let name = Array("Zoë\u{0}!".utf8)
        let bytes: [UInt8] = [0, 1, 255]
        var object: OpaquePointer?
        name.withUnsafeBufferPointer { namePointer in
            bytes.withUnsafeBufferPointer { bytesPointer in
                var values = [drumlin_value](repeating: drumlin_value(), count: 4)
                values[0].type = DRUMLIN_TYPE_INT; values[0].`as`.integer = 7
                values[1].type = DRUMLIN_TYPE_STRING
                values[1].`as`.string = drumlin_string(data: UnsafeRawPointer(namePointer.baseAddress!).assumingMemoryBound(to: CChar.self), size: name.count)
                values[2].type = DRUMLIN_TYPE_BINARY
                values[2].`as`.binary = drumlin_binary(data: bytesPointer.baseAddress, size: bytes.count)
                values[3].type = DRUMLIN_TYPE_BOOL; values[3].`as`.boolean = 1
                let indices = [idIndex, nameIndex, blobIndex, mIndex]
                #expect(DrumlinC.drumlin_begin_write(db) == DRUMLIN_OK)
                #expect(DrumlinC.drumlin_object_create(db, "Person", 4, indices, values, DRUMLIN_UPDATE_NEVER, &object) == DRUMLIN_OK)
                #expect(DrumlinC.drumlin_commit(db) == DRUMLIN_OK)
            }
        }
        var out = [drumlin_value](repeating: drumlin_value(), count: 4)
        #expect(DrumlinC.drumlin_object_get_values(object, 4, [idIndex, nameIndex, blobIndex, mIndex], &out) == DRUMLIN_OK)
        #expect(out[0].type == DRUMLIN_TYPE_INT && out[0].`as`.integer == 7)
        #expect(out[1].type == DRUMLIN_TYPE_STRING)
        #expect(Array(UnsafeRawBufferPointer(start: out[1].`as`.string.data, count: out[1].`as`.string.size)) == name)
        #expect(Array(UnsafeBufferPointer(start: out[2].`as`.binary.data, count: out[2].`as`.binary.size)) == bytes)
        #expect(out[3].type == DRUMLIN_TYPE_BOOL && out[3].`as`.boolean == 1)

        var key: Int64 = 0
        #expect(DrumlinC.drumlin_object_key(object, &key) == DRUMLIN_OK)
        #expect(key == 7)
        var pk = drumlin_value()
        pk.type = DRUMLIN_TYPE_INT; pk.`as`.integer = 7
        var found: OpaquePointer?
        #expect(DrumlinC.drumlin_object_find(db, "Person", &pk, &found) == DRUMLIN_OK)
        pk.`as`.integer = 8
        var missing: OpaquePointer?
        #expect(DrumlinC.drumlin_object_find(db, "Person", &pk, &missing) == DRUMLIN_NOT_FOUND)
        #expect(missing == nil)
        DrumlinC.drumlin_object_release(found)
        DrumlinC.drumlin_object_release(object)
    }

    @Test func objectsOfAClosedDatabaseAndClosedHandlesAreMisuse() {
        let db = open()
        #expect(DrumlinC.drumlin_begin_write(db) == DRUMLIN_OK)
        var object: OpaquePointer?
        #expect(DrumlinC.drumlin_object_create(db, "Person", 0, nil, nil, DRUMLIN_UPDATE_NEVER, &object) == DRUMLIN_ERR_MISSING_VALUE)
        #expect(DrumlinC.drumlin_create_json(db, "Person", #"{"id": 1, "name": "A"}"#, DRUMLIN_UPDATE_NEVER, nil) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_commit(db) == DRUMLIN_OK)
        var pk = drumlin_value()
        pk.type = DRUMLIN_TYPE_INT; pk.`as`.integer = 1
        #expect(DrumlinC.drumlin_object_find(db, "Person", &pk, &object) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_close(db) == DRUMLIN_OK)
        var value = drumlin_value()
        #expect(DrumlinC.drumlin_object_get(object, "name", &value) == DRUMLIN_ERR_MISUSE)
        #expect(DrumlinC.drumlin_begin_write(db) == DRUMLIN_ERR_MISUSE)   // the closed handle itself
        #expect(DrumlinC.drumlin_close(db) == DRUMLIN_ERR_MISUSE)
        DrumlinC.drumlin_object_release(object)
    }

    @Test func lastErrorIsPerThread() {
        let db = open()
        defer { _ = DrumlinC.drumlin_close(db) }
        final class Box: @unchecked Sendable { var results: [Int: (Int32, String)] = [:]; var db: OpaquePointer?; var lock = pthread_mutex_t() }
        let box = Box()
        box.db = db
        var threads: [pthread_t] = []
        let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
        pthread_barrier_init(barrier, nil, 4)
        final class Arg { let i: Int; let box: Box; let barrier: UnsafeMutablePointer<pthread_barrier_t>
            init(_ i: Int, _ box: Box, _ barrier: UnsafeMutablePointer<pthread_barrier_t>) { self.i = i; self.box = box; self.barrier = barrier } }
        pthread_mutex_init(&box.lock, nil)
        for i in 0..<4 {
            var thread = pthread_t()
            let arg = Unmanaged.passRetained(Arg(i, box, barrier)).toOpaque()
            pthread_create(&thread, nil, { raw in
                let arg = Unmanaged<Arg>.fromOpaque(raw!).takeRetainedValue()
                var count: Int64 = 0
                if arg.i % 2 == 0 {
                    _ = DrumlinC.drumlin_count(arg.box.db, "Nobody\(arg.i)", nil, nil, &count)
                } else {
                    _ = DrumlinC.drumlin_commit(arg.box.db)
                }
                pthread_barrier_wait(arg.barrier)
                let code = DrumlinC.drumlin_last_error_code()
                let message = String(cString: DrumlinC.drumlin_last_error_message()!)
                pthread_mutex_lock(&arg.box.lock)
                arg.box.results[arg.i] = (code, message)
                pthread_mutex_unlock(&arg.box.lock)
                return nil
            }, arg)
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        pthread_barrier_destroy(barrier)
        barrier.deallocate()
        for i in 0..<4 {
            let (code, message) = box.results[i]!
            if i % 2 == 0 {
                #expect(code == DRUMLIN_ERR_NO_SUCH_CLASS)
                #expect(message == "Object type 'Nobody\(i)' is not in the schema.")
            } else {
                #expect(code == DRUMLIN_ERR_WRONG_TRANSACTION_STATE)
            }
        }
    }
}

@Suite struct FindValuesABITests {
    @Test func findValuesReadsAWholeObjectInOneCall() {
        var db: OpaquePointer?
        let schema = #"[{"name": "P", "primaryKey": "id", "properties": {"id": "int", "name": "string", "tags": "string[]"}}]"#
        #expect(DrumlinC.drumlin_open(":memory:", schema, nil, &db) == DRUMLIN_OK)
        defer { _ = DrumlinC.drumlin_close(db) }
        #expect(DrumlinC.drumlin_begin_write(db) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_create_json(db, "P", #"{"id": 7, "name": "Zoë", "tags": ["a"]}"#, DRUMLIN_UPDATE_NEVER, nil) == DRUMLIN_OK)
        #expect(DrumlinC.drumlin_commit(db) == DRUMLIN_OK)
        var pk = drumlin_value()
        pk.type = DRUMLIN_TYPE_INT; pk.`as`.integer = 7
        var out = [drumlin_value](repeating: drumlin_value(), count: 2)
        #expect(DrumlinC.drumlin_object_find_values(db, "P", &pk, 2, [1, 0], &out, nil) == DRUMLIN_OK)
        #expect(String(cString: out[0].`as`.string.data) == "Zoë" && out[1].`as`.integer == 7)
        var object: OpaquePointer?
        #expect(DrumlinC.drumlin_object_find_values(db, "P", &pk, 1, [2], &out, &object) == DRUMLIN_OK)   // a list: general path
        #expect(object != nil)
        DrumlinC.drumlin_object_release(object)
        pk.`as`.integer = 8
        #expect(DrumlinC.drumlin_object_find_values(db, "P", &pk, 2, [1, 0], &out, &object) == DRUMLIN_NOT_FOUND)
        #expect(object == nil)
        #expect(DrumlinC.drumlin_object_find_values(db, "P", &pk, 1, [9], &out, nil) == DRUMLIN_ERR_INVALID_ARGUMENT)
    }
}
