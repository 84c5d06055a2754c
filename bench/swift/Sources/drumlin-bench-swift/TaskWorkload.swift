// The Task workload of the Swift harness (`--workload task`): the realistic schema of
// bench/task_api.py through the Swift model API — a to-one link, a list of strings, an embedded
// object, a date, an optional decimal and a mixed value. Steps: `realm.add(tasks)` in one write,
// `object(ofType:forPrimaryKey:)` then reading every property (including `owner.name` and the
// tags), iterating `where { !$0.done }` reading 3 properties, `task.done = x` in one write. There
// is no raw SQLite C peer for this schema: the rates are absolute (the Python harness has the
// sqlite3 ratios). Each step's result is checked untimed; a wrong answer exits 1.
import Drumlin
#if canImport(Glibc)
import Glibc
#endif

final class User: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

final class Location: EmbeddedObject {
    @Persisted var city = ""
    @Persisted var street = ""
}

final class Task: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var done = false
    @Persisted var due = Date(timeIntervalSince1970: 0)
    @Persisted var estimate: Decimal128?
    @Persisted var extra: AnyRealmValue
    @Persisted var owner: User?
    @Persisted var tags: List<String>
    @Persisted var location: Location?
}

/// Task i, as bench/task_api.py makes it: 0-3 tags, an estimate on 3 tasks of 4, a mixed value
/// that is an int, a string or a double, the owner one of `users` existing users.
func makeTask(_ i: Int, owners: [User]) -> Task {
    let task = Task()
    task.id = i
    task.title = "task \(i)"
    task.done = i % 3 == 0
    task.due = Date(timeIntervalSince1970: 1_735_689_600 + Double(i) * 60)
    task.estimate = i % 4 == 0 ? nil : Decimal128(number: Double(i % 100) + 0.5)
    task.extra = i % 3 == 0 ? .int(i) : (i % 3 == 1 ? .string("x\(i)") : .double(Double(i) * 0.25))
    task.owner = owners[i % owners.count]
    for k in 0 ..< i % 4 { task.tags.append("tag\((i + k) % 10)") }
    let location = Location()
    location.city = "city\(i % 50)"
    location.street = "\(i) Main Street"
    task.location = location
    return task
}

func runTaskWorkload(n: Int, runs: Int, dir: String) throws {
    func emitTask(_ run: Int, _ step: String, ops: Int, seconds: Double, how: String) {
        print("{\"harness\": \"swift\", \"system\": \"swift-task\", \"run\": \(run), \"step\": \"\(step)\", \"ops\": \(ops), \"rows\": \(ops), \"seconds\": \(seconds), \"how\": \"\(how)\"}")
        fflush(stdout)
    }
    let userCount = max(100, n / 100)
    let expectedTags = (1 ... n).reduce(0) { $0 + $1 % 4 }
    let openCount = (1 ... n).filter { $0 % 3 != 0 }.count
    print("{\"harness\": \"swift\", \"kind\": \"info\", \"workload\": \"task\", \"n\": \(n), \"runs\": \(runs)}")
    for run in 0 ..< runs {
        FileHandle.standardError.write(Data("  swift task: run \(run + 1)/\(runs) (N=\(n))\n".utf8))
        let url = URL(fileURLWithPath: dir).appendingPathComponent("drumlin-bench-swift-task-\(getpid())-\(run).drumlin")
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [User.self, Task.self, Location.self])
        try Realm.deleteFiles(for: configuration)
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for u in 1 ... userCount {
                let user = User()
                user.id = u
                user.name = "user\(u)"
                realm.add(user)
            }
        }
        let owners = (0 ..< userCount).map { realm.object(ofType: User.self, forPrimaryKey: $0 == 0 ? userCount : $0)! }
        let tasks = (1 ... n).map { makeTask($0, owners: owners) }

        var t0 = now()
        try realm.write { realm.add(tasks) }
        emitTask(run, "insert", ops: n, seconds: now() - t0, how: "realm.add([Task]) in one write (owner an existing User)")
        guard realm.objects(Task.self).count == n else { fail("task insert: \(realm.objects(Task.self).count) tasks") }

        t0 = now()
        var tags = 0
        var check = 0
        for id in 1 ... n {
            guard let t = realm.object(ofType: Task.self, forPrimaryKey: id) else { fail("task get: no task \(id)") }
            check += t.id + t.title.utf8.count + (t.done ? 1 : 0) + Int(t.due.timeIntervalSince1970) % 7
            check += (t.estimate == nil ? 0 : 1) + (t.extra == .none ? 1 : 0) + (t.owner?.name.utf8.count ?? 0)
            for tag in t.tags { tags += tag.isEmpty ? 0 : 1 }
            check += (t.location?.city.utf8.count ?? 0) + (t.location?.street.utf8.count ?? 0)
        }
        emitTask(run, "get", ops: n, seconds: now() - t0, how: "object(ofType:forPrimaryKey:), every property, owner.name, tags")
        guard tags == expectedTags, check > 0 else { fail("task get read \(tags) tags, expected \(expectedTags)") }

        t0 = now()
        var open = 0
        for t in realm.objects(Task.self).where({ $0.done == false }) {
            open += t.title.isEmpty ? 0 : 1
            check += Int(t.due.timeIntervalSince1970) % 7 + (t.owner == nil ? 0 : 1)
        }
        emitTask(run, "iterate", ops: open, seconds: now() - t0, how: "where { $0.done == false }, iterate, read title, due, owner")
        guard open == openCount else { fail("task iterate read \(open), expected \(openCount)") }

        t0 = now()
        try realm.write {
            for id in 1 ... n { realm.object(ofType: Task.self, forPrimaryKey: id)!.done = id % 2 == 0 }
        }
        emitTask(run, "update", ops: n, seconds: now() - t0, how: "object(ofType:forPrimaryKey:).done = x in one write")
        guard realm.objects(Task.self).where({ $0.done == true }).count == n / 2 else { fail("task update") }
        try Realm.deleteFiles(for: configuration)
    }
}
