// The Task workload through GRDB (`--workload task`), the same data and steps as
// drumlin-bench-swift's TaskWorkload.swift, written the way GRDB's documentation shows:
// - the to-one link is a foreign key `ownerId` with `belongsTo(User.self)`, read with
//   `including(optional: Task.owner)` into a decoded `TaskInfo` (the documented way to fetch a
//   record with its associated record);
// - the list of strings and the embedded object are Codable properties, which GRDB's Codable
//   records store as JSON text in their column;
// - the date is a `Date` (GRDB's text format), the decimal a `Decimal?` (GRDB stores its text),
//   the mixed value a small `DatabaseValueConvertible` enum in an untyped column (stored as a
//   native integer, text or real).
// `--system row` does the same with cached statements and `Row`s: the tags and the location are
// the same JSON text (encoded and decoded with JSONEncoder/JSONDecoder, as the record does).
// Steps: insert every task in one write (users exist before the clock starts), get each task
// with its owner reading every property, iterate `done == false` reading 3 properties, set `done`
// on every task in one write. Each step's result is checked untimed; a wrong answer exits 1.
import Foundation
import GRDB

struct User: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
    var id: Int64
    var name: String
}

struct Location: Codable, Equatable {
    var city: String
    var street: String
}

enum Extra: Codable, DatabaseValueConvertible, Equatable {
    case int(Int64), string(String), double(Double)

    var databaseValue: DatabaseValue {
        switch self {
        case .int(let v): return v.databaseValue
        case .string(let v): return v.databaseValue
        case .double(let v): return v.databaseValue
        }
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Extra? {
        switch dbValue.storage {
        case .int64(let v): return .int(v)
        case .string(let v): return .string(v)
        case .double(let v): return .double(v)
        default: return nil
        }
    }
}

struct Task: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "task"
    static let owner = belongsTo(User.self, using: ForeignKey(["ownerId"]))
    var id: Int64
    var title: String
    var done: Bool
    var due: Date
    var estimate: Decimal?
    var extra: Extra
    var ownerId: Int64?
    var tags: [String]
    var location: Location?
}

struct TaskInfo: Decodable, FetchableRecord {
    var task: Task
    var owner: User?
}

func makeTask(_ i: Int, userCount: Int) -> Task {
    let owner = i % userCount == 0 ? userCount : i % userCount
    return Task(id: Int64(i), title: "task \(i)", done: i % 3 == 0,
                due: Date(timeIntervalSince1970: 1_735_689_600 + Double(i) * 60),
                estimate: i % 4 == 0 ? nil : Decimal(Double(i % 100) + 0.5),
                extra: i % 3 == 0 ? .int(Int64(i)) : (i % 3 == 1 ? .string("x\(i)") : .double(Double(i) * 0.25)),
                ownerId: Int64(owner), tags: (0 ..< i % 4).map { "tag\((i + $0) % 10)" },
                location: Location(city: "city\(i % 50)", street: "\(i) Main Street"))
}

func runTaskWorkload(system: String, n: Int, runs: Int, dir: String) throws {
    let name = "grdb-\(system)-task"
    func emitTask(_ run: Int, _ step: String, ops: Int, seconds: Double, how: String) {
        print("{\"harness\": \"swift\", \"system\": \"\(name)\", \"run\": \(run), \"step\": \"\(step)\", \"ops\": \(ops), \"rows\": \(ops), \"seconds\": \(seconds), \"how\": \"\(how)\"}")
        fflush(stdout)
    }
    let userCount = max(100, n / 100)
    let expectedTags = (1 ... n).reduce(0) { $0 + $1 % 4 }
    let openCount = (1 ... n).filter { $0 % 3 != 0 }.count
    let encoder = JSONEncoder(), decoder = JSONDecoder()
    print("{\"harness\": \"swift\", \"kind\": \"info\", \"system\": \"\(name)\", \"workload\": \"task\", \"n\": \(n), \"runs\": \(runs)}")
    for run in 0 ..< runs {
        FileHandle.standardError.write(Data("  \(name): run \(run + 1)/\(runs) (N=\(n))\n".utf8))
        let path = URL(fileURLWithPath: dir).appendingPathComponent("grdb-bench-task-\(system)-\(getpid())-\(run).sqlite").path
        let pool = try openPool(path)
        try pool.write { db in
            try db.create(table: "user") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "task") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text).notNull()
                t.column("done", .boolean).notNull()
                t.column("due", .datetime).notNull()
                t.column("estimate", .text)
                t.column("extra")
                t.belongsTo("owner", inTable: "user")   // ownerId, indexed, a foreign key
                t.column("tags", .jsonText).notNull()
                t.column("location", .jsonText)
            }
            for u in 1 ... userCount { try User(id: Int64(u), name: "user\(u)").insert(db) }
        }
        let tasks = (1 ... n).map { makeTask($0, userCount: userCount) }

        var t0 = now()
        if system == "record" {
            try pool.write { db in for task in tasks { try task.insert(db) } }
        } else {
            try pool.write { db in
                let statement = try db.cachedStatement(sql: "INSERT INTO task (id, title, done, due, estimate, extra, ownerId, tags, location) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
                for t in tasks {
                    let tags = String(decoding: try encoder.encode(t.tags), as: UTF8.self)
                    let location = try t.location.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
                    try statement.execute(arguments: [t.id, t.title, t.done, t.due, t.estimate, t.extra, t.ownerId, tags, location])
                }
            }
        }
        emitTask(run, "insert", ops: n, seconds: now() - t0,
                 how: system == "record" ? "task.insert(db) per record in one pool.write (ownerId an existing user)"
                                         : "cachedStatement(INSERT).execute per task, tags and location as JSON text")
        guard try pool.read({ try Task.fetchCount($0) }) == n else { fail("task insert count") }

        t0 = now()
        var tags = 0
        var check = 0
        for id in 1 ... n {
            let info: TaskInfo
            if system == "record" {
                guard let found = try pool.read({ db in
                    try Task.filter(key: id).including(optional: Task.owner).asRequest(of: TaskInfo.self).fetchOne(db)
                }) else { fail("task get: no task \(id)") }
                info = found
            } else {
                info = try pool.read { db in
                    let statement = try db.cachedStatement(sql: "SELECT task.id, title, done, due, estimate, extra, ownerId, tags, location, user.name FROM task LEFT JOIN user ON user.id = task.ownerId WHERE task.id = ?")
                    guard let row = try Row.fetchOne(statement, arguments: [id]) else { fail("task get: no task \(id)") }
                    let tagText: String = row[7], locationText: String? = row[8]
                    let task = Task(id: row[0], title: row[1], done: row[2], due: row[3], estimate: row[4], extra: row[5],
                                    ownerId: row[6], tags: try decoder.decode([String].self, from: Data(tagText.utf8)),
                                    location: try locationText.map { try decoder.decode(Location.self, from: Data($0.utf8)) })
                    let ownerName: String? = row[9]
                    return TaskInfo(task: task, owner: task.ownerId.flatMap { id in ownerName.map { User(id: id, name: $0) } })
                }
            }
            let t = info.task
            check += Int(t.id) + t.title.utf8.count + (t.done ? 1 : 0) + Int(t.due.timeIntervalSince1970) % 7
            check += (t.estimate == nil ? 0 : 1) + (info.owner?.name.utf8.count ?? 0)
            if case .string = t.extra { check += 1 }
            for tag in t.tags { tags += tag.isEmpty ? 0 : 1 }
            check += (t.location?.city.utf8.count ?? 0) + (t.location?.street.utf8.count ?? 0)
        }
        emitTask(run, "get", ops: n, seconds: now() - t0,
                 how: system == "record" ? "pool.read { Task.filter(key:).including(optional: owner) as TaskInfo }, every property"
                                         : "pool.read { Row.fetchOne(cached SELECT ... LEFT JOIN user) }, JSON decoded")
        guard tags == expectedTags, check > 0 else { fail("task get read \(tags) tags, expected \(expectedTags)") }

        t0 = now()
        var open = 0
        try pool.read { db in
            if system == "record" {
                let cursor = try Task.filter(Column("done") == false).including(optional: Task.owner)
                    .asRequest(of: TaskInfo.self).fetchCursor(db)
                while let info = try cursor.next() {
                    open += info.task.title.isEmpty ? 0 : 1
                    check += Int(info.task.due.timeIntervalSince1970) % 7 + (info.owner == nil ? 0 : 1)
                }
            } else {
                let statement = try db.cachedStatement(sql: "SELECT title, due, ownerId FROM task WHERE done = 0")
                let cursor = try Row.fetchCursor(statement)
                while let row = try cursor.next() {
                    let title: String = row[0], due: Date = row[1], owner: Int64? = row[2]
                    open += title.isEmpty ? 0 : 1
                    check += Int(due.timeIntervalSince1970) % 7 + (owner == nil ? 0 : 1)
                }
            }
        }
        emitTask(run, "iterate", ops: open, seconds: now() - t0,
                 how: system == "record" ? "Task.filter(done == false).including(optional: owner).fetchCursor, read title, due, owner"
                                         : "Row.fetchCursor(cached SELECT title, due, ownerId WHERE done = 0)")
        guard open == openCount else { fail("task iterate read \(open), expected \(openCount)") }

        t0 = now()
        try pool.write { db in
            if system == "record" {
                for id in 1 ... n {
                    guard var task = try Task.fetchOne(db, key: id) else { fail("task update: no task \(id)") }
                    try task.updateChanges(db) { $0.done = id % 2 == 0 }
                }
            } else {
                let statement = try db.cachedStatement(sql: "UPDATE task SET done = ? WHERE id = ?")
                for id in 1 ... n { try statement.execute(arguments: [id % 2 == 0, id]) }
            }
        }
        emitTask(run, "update", ops: n, seconds: now() - t0,
                 how: system == "record" ? "fetchOne(db, key:) + updateChanges { $0.done = x } in one pool.write"
                                         : "cachedStatement(UPDATE done by id).execute per task in one pool.write")
        guard try pool.read({ try Task.filter(Column("done") == true).fetchCount($0) }) == n / 2 else { fail("task update") }
        try pool.close()
        removeFiles(path)
    }
}
