import DrumlinEngine
import CSQLite
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory for one test's files.
func temporaryDirectory() -> String {
    var template = Array("/tmp/drumlin-test-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
}

func temporaryPath(_ name: String = "test.drumlin") -> String {
    temporaryDirectory() + "/" + name
}

let personSchema = """
[{"name": "Person", "primaryKey": "id", "properties": {
   "id": "int", "name": {"type": "string", "indexed": true}, "age": "int?", "email": "string?",
   "score": {"type": "double", "default": 1.5}, "active": {"type": "bool", "default": true}}}]
"""

func openPeople(_ path: String = ":memory:") throws -> Database {
    try Database(path: path, schemaJSON: personSchema)
}

/// Asserts that `body` throws a DrumlinError with `code` (and, if given, exactly `message`).
func expectError(_ code: DrumlinError.Code, _ message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(code) but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as DrumlinError {
        #expect(error.code == code, "message: \(error.message)", sourceLocation: sourceLocation)
        if let message { #expect(error.message == message, sourceLocation: sourceLocation) }
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

/// Runs SQL on the file behind Drumlin's back (another program's write, or an older library's).
func execute(_ path: String, _ sql: String) {
    var handle: OpaquePointer?
    sqlite3_open(path, &handle)
    sqlite3_exec(handle, sql, nil, nil, nil)
    sqlite3_close(handle)
}

/// Runs an SQL query on a database file with a separate raw connection and returns rows as text.
func sqlRows(_ path: String, _ sql: String) -> [[String]] {
    var rows: [[String]] = []
    var db: OpaquePointer?
    sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil)
    defer { sqlite3_close(db) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return [["error", String(cString: sqlite3_errmsg(db))]] }
    defer { sqlite3_finalize(statement) }
    while sqlite3_step(statement) == SQLITE_ROW {
        var row: [String] = []
        for i in 0..<sqlite3_column_count(statement) {
            row.append(sqlite3_column_text(statement, i).map { String(cString: $0) } ?? "NULL")
        }
        rows.append(row)
    }
    return rows
}
