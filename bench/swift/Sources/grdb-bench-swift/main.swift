// The GRDB.swift peer of the Swift harness (see bench/README.md): the Person workload of bench.c
// through GRDB 7, the library a Swift user would pick instead of Drumlin, in two ways:
//
//   --system record   Codable records (`FetchableRecord`, `PersistableRecord`) on a `DatabasePool`,
//                     the query interface (`filter`, `fetchOne(db, key:)`, `fetchCursor`,
//                     `updateChanges`, `deleteAll`): what GRDB's documentation recommends;
//   --system row      raw `Row`s from cached statements (`db.cachedStatement(sql:)`), the fastest
//                     documented way to read and write with GRDB.
//
// Same data, steps and checks as drumlin-bench-swift; a fresh file per run, WAL (a
// `DatabasePool`'s default) with `synchronous=NORMAL` (Drumlin's own settings). Each get, lookup
// and range runs in its own `dbPool.read` (as each of Drumlin's runs in its own read), each write
// step in one `dbPool.write`. Prints one JSON line per measurement; exits 1 on a wrong answer.
//
//   grdb-bench-swift --system record|row --n 100000 [--runs 3] [--dir DIR] [--workload person|task]
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

struct Person: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "person"
    var id: Int64
    var name: String
    var age: Int
    var email: String
    var score: Double
    var active: Bool
}

func makePerson(_ id: Int) -> Person {
    Person(id: Int64(id), name: "name\(id)", age: 18 + (id * 7) % 60, email: "user\(id)@example.com",
           score: Double(id) * 0.5, active: id % 2 == 0)
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("grdb harness: \(message)\n".utf8))
    exit(1)
}

/// A pool on a fresh file in WAL mode (the pool's default) with Drumlin's synchronous setting.
func openPool(_ path: String) throws -> DatabasePool {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
    return try DatabasePool(path: path, configuration: configuration)
}

func removeFiles(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}

var n = 100_000
var runs = 3
var dir = NSTemporaryDirectory()
var system = ""
var workload = "person"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--n": n = Int(arguments.next() ?? "") ?? n
    case "--runs": runs = Int(arguments.next() ?? "") ?? runs
    case "--dir": dir = arguments.next() ?? dir
    case "--system": system = arguments.next() ?? ""
    case "--workload": workload = arguments.next() ?? workload
    default: fail("unknown argument \(argument)")
    }
}
guard system == "record" || system == "row" else { fail("--system record or row") }
guard n >= 1000 else { fail("need --n >= 1000") }
if workload == "task" {
    try runTaskWorkload(system: system, n: n, runs: runs, dir: dir)
    exit(0)
}
guard workload == "person" else { fail("unknown workload \(workload) (person or task)") }

var getSum = 0
var rangeRows = 0
var rangeSum = 0
for id in 1 ... n {
    let age = 18 + (id * 7) % 60
    getSum += id + age + "name\(id)".utf8.count + "user\(id)@example.com".utf8.count + (id % 2 == 0 ? 1 : 0) + id
    if age >= 30 && age <= 40 { rangeRows += 1; rangeSum += id }
}
let lookupIds = (0 ..< 1000).map { 1 + $0 * n / 1000 }
let systemName = "grdb-\(system)"

func emit(_ run: Int, _ step: String, ops: Int, rows: Int, seconds: Double, how: String) {
    print("{\"harness\": \"swift\", \"system\": \"\(systemName)\", \"run\": \(run), \"step\": \"\(step)\", \"ops\": \(ops), \"rows\": \(rows), \"seconds\": \(seconds), \"how\": \"\(how)\"}")
    fflush(stdout)
}

let columns = "id, name, age, email, score, active"
print("{\"harness\": \"swift\", \"kind\": \"info\", \"system\": \"\(systemName)\", \"n\": \(n), \"runs\": \(runs)}")
for run in 0 ..< runs {
    FileHandle.standardError.write(Data("  \(systemName): run \(run + 1)/\(runs) (N=\(n))\n".utf8))
    let path = URL(fileURLWithPath: dir).appendingPathComponent("grdb-bench-\(system)-\(getpid())-\(run).sqlite").path
    let pool = try openPool(path)
    try pool.write { db in
        try db.create(table: "person") { t in
            t.primaryKey("id", .integer)
            t.column("name", .text).notNull().indexed()
            t.column("age", .integer).notNull()
            t.column("email", .text).notNull()
            t.column("score", .double).notNull()
            t.column("active", .boolean).notNull()
        }
    }
    let people = (1 ... n).map(makePerson)

    // insert
    var t0 = now()
    if system == "record" {
        try pool.write { db in for p in people { try p.insert(db) } }
        emit(run, "insert", ops: n, rows: n, seconds: now() - t0, how: "record.insert(db) per record in one pool.write")
    } else {
        try pool.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO person (\(columns)) VALUES (?, ?, ?, ?, ?, ?)")
            for p in people {
                try statement.execute(arguments: [p.id, p.name, p.age, p.email, p.score, p.active])
            }
        }
        emit(run, "insert", ops: n, rows: n, seconds: now() - t0, how: "cachedStatement(INSERT).execute(arguments:) per row in one pool.write")
    }
    guard try pool.read({ try Person.fetchCount($0) }) == n else { fail("insert count") }

    // get
    t0 = now()
    var sum = 0
    if system == "record" {
        for id in 1 ... n {
            guard let p = try pool.read({ db in try Person.fetchOne(db, key: id) }) else { fail("get: no person \(id)") }
            sum += Int(p.id) + p.age + p.name.utf8.count + p.email.utf8.count + (p.active ? 1 : 0) + Int(2 * p.score)
        }
        emit(run, "get", ops: n, rows: n, seconds: now() - t0, how: "pool.read { Person.fetchOne(db, key:) } per id")
    } else {
        for id in 1 ... n {
            sum += try pool.read { db in
                let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM person WHERE id = ?")
                guard let row = try Row.fetchOne(statement, arguments: [id]) else { fail("get: no person \(id)") }
                let name: String = row[1], email: String = row[3], score: Double = row[4], active: Bool = row[5]
                return (row[0] as Int) + (row[2] as Int) + name.utf8.count + email.utf8.count + (active ? 1 : 0) + Int(2 * score)
            }
        }
        emit(run, "get", ops: n, rows: n, seconds: now() - t0, how: "pool.read { Row.fetchOne(cachedStatement, arguments:) } per id, 6 column reads")
    }
    guard sum == getSum else { fail("get read \(sum), expected \(getSum)") }

    // lookup
    t0 = now()
    var found = 0
    for id in lookupIds {
        let name = "name\(id)"
        if system == "record" {
            found += try pool.read { db in try Person.filter(Column("name") == name).fetchAll(db).reduce(0) { $0 + Int($1.id) } }
        } else {
            found += try pool.read { db in
                let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM person WHERE name = ?")
                var ids = 0
                let rows = try Row.fetchCursor(statement, arguments: [name])
                while let row = try rows.next() { ids += row[0] as Int; _ = row[3] as String }
                return ids
            }
        }
    }
    emit(run, "lookup", ops: lookupIds.count, rows: lookupIds.count, seconds: now() - t0,
         how: system == "record" ? "pool.read { Person.filter(Column(name) == x).fetchAll(db) }"
                                 : "pool.read { Row.fetchCursor(cachedStatement WHERE name = ?) }")
    guard found == lookupIds.reduce(0, +) else { fail("lookups read \(found)") }

    // range: iterate, read 2 properties (as drumlin-bench-swift)
    t0 = now()
    let (rows, ids): (Int, Int) = try pool.read { db in
        var rows = 0, ids = 0
        if system == "record" {
            let cursor = try Person.filter((30 ... 40).contains(Column("age"))).fetchCursor(db)
            while let p = try cursor.next() { rows += 1; ids += Int(p.id) + (p.name.isEmpty ? 1 : 0) }
        } else {
            let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM person WHERE age BETWEEN ? AND ?")
            let cursor = try Row.fetchCursor(statement, arguments: [30, 40])
            while let row = try cursor.next() {
                let name: String = row[1]
                rows += 1; ids += (row[0] as Int) + (name.isEmpty ? 1 : 0)
            }
        }
        return (rows, ids)
    }
    emit(run, "range", ops: 1, rows: rows, seconds: now() - t0,
         how: system == "record" ? "Person.filter((30...40).contains(age)).fetchCursor, read 2 properties"
                                 : "Row.fetchCursor(cachedStatement BETWEEN), read 2 columns")
    guard rows == rangeRows && ids == rangeSum else { fail("range read \(rows) rows") }

    // update: every score, one write
    t0 = now()
    try pool.write { db in
        if system == "record" {
            for id in 1 ... n {
                guard var p = try Person.fetchOne(db, key: id) else { fail("update: no person \(id)") }
                try p.updateChanges(db) { $0.score = Double(id) }
            }
        } else {
            let statement = try db.cachedStatement(sql: "UPDATE person SET score = ? WHERE id = ?")
            for id in 1 ... n { try statement.execute(arguments: [Double(id), id]) }
        }
    }
    emit(run, "update", ops: n, rows: n, seconds: now() - t0,
         how: system == "record" ? "fetchOne(db, key:) + updateChanges { $0.score = x } in one pool.write"
                                 : "cachedStatement(UPDATE score by id).execute per row in one pool.write")
    let mid = n / 2 + 1
    guard try pool.read({ db in try Double.fetchOne(db, sql: "SELECT score FROM person WHERE id = ?", arguments: [mid]) }) == Double(mid)
    else { fail("update did not write the score") }

    // delete all
    t0 = now()
    if system == "record" {
        _ = try pool.write { db in try Person.deleteAll(db) }
    } else {
        try pool.write { db in try db.execute(sql: "DELETE FROM person") }
    }
    emit(run, "delete", ops: n, rows: n, seconds: now() - t0,
         how: system == "record" ? "Person.deleteAll(db) in one pool.write" : "execute(DELETE FROM person) in one pool.write")
    guard try pool.read({ try Person.fetchCount($0) }) == 0 else { fail("delete left rows") }
    try pool.close()
    removeFiles(path)
}
