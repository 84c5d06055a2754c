// The Swift harness of Drumlin's benchmark (see bench/README.md): the Person workload of bench.c
// through the documented Swift model API — `realm.add` in one write, `object(ofType:forPrimaryKey:)`
// then reading every property, `where { }` lookups, iterating a range query, `person.score = x` in
// one write, `realm.delete(results)`. Prints one JSON line per measurement (bench/run.py reads them);
// checks what each step read against the generator, untimed, and exits 1 on a wrong answer.
//
//   drumlin-bench-swift --n 100000 [--runs 3] [--dir DIR] [--steps insert,get,lookup,range,update,delete]
//   drumlin-bench-swift --workload task --n 50000 [--runs 3]   (TaskWorkload.swift: the realistic schema)
//
// --steps runs only those steps (as the C harness's option; for profiling one step): the insert
// always runs, since every other step reads what it wrote.
import Drumlin
#if canImport(Glibc)
import Glibc
#endif

final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var email = ""
    @Persisted var score = 0.0
    @Persisted var active = false
}

func makePerson(_ id: Int) -> Person {
    let person = Person()
    person.id = id
    person.age = 18 + (id * 7) % 60
    person.score = Double(id) * 0.5
    person.active = id % 2 == 0
    person.name = "name\(id)"
    person.email = "user\(id)@example.com"
    return person
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("swift harness: \(message)\n".utf8))
    exit(1)
}

var n = 100_000
var runs = 3
var dir = NSTemporaryDirectory()
let allSteps = ["insert", "get", "lookup", "range", "update", "delete"]
var steps = Set(allSteps)
var workload = "person"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--n": n = Int(arguments.next() ?? "") ?? n
    case "--runs": runs = Int(arguments.next() ?? "") ?? runs
    case "--dir": dir = arguments.next() ?? dir
    case "--workload": workload = arguments.next() ?? workload
    case "--steps":
        steps = Set((arguments.next() ?? "").split(separator: ",").map(String.init))
        if let unknown = steps.first(where: { !allSteps.contains($0) }) { fail("unknown step \(unknown)") }
    default: fail("unknown argument \(argument)")
    }
}
guard n >= 1000 else { fail("need --n >= 1000") }
if workload == "task" {
    try runTaskWorkload(n: n, runs: runs, dir: dir)
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

func emit(_ run: Int, _ step: String, ops: Int, rows: Int, seconds: Double, how: String) {
    print("{\"harness\": \"swift\", \"system\": \"swift\", \"run\": \(run), \"step\": \"\(step)\", \"ops\": \(ops), \"rows\": \(rows), \"seconds\": \(seconds), \"how\": \"\(how)\"}")
    fflush(stdout)
}

print("{\"harness\": \"swift\", \"kind\": \"info\", \"n\": \(n), \"runs\": \(runs)}")
for run in 0 ..< runs {
    FileHandle.standardError.write(Data("  swift: run \(run + 1)/\(runs) (N=\(n))\n".utf8))
    let url = URL(fileURLWithPath: dir).appendingPathComponent("drumlin-bench-swift-\(getpid())-\(run).drumlin")
    let configuration = Realm.Configuration(fileURL: url, objectTypes: [Person.self])
    try Realm.deleteFiles(for: configuration)
    let realm = try Realm(configuration: configuration)
    let people = (1 ... n).map(makePerson)

    var t0 = now()
    try realm.write { realm.add(people) }
    emit(run, "insert", ops: n, rows: n, seconds: now() - t0, how: "realm.add([Person]) in one write")

    if steps.contains("get") {
        t0 = now()
        var sum = 0
        for id in 1 ... n {
            guard let p = realm.object(ofType: Person.self, forPrimaryKey: id) else { fail("get: no person \(id)") }
            sum += p.id + p.age + p.name.utf8.count + p.email.utf8.count + (p.active ? 1 : 0) + Int(2 * p.score)
        }
        emit(run, "get", ops: n, rows: n, seconds: now() - t0, how: "object(ofType:forPrimaryKey:), every property")
        guard sum == getSum else { fail("get read \(sum), expected \(getSum)") }
    }

    let all = realm.objects(Person.self)
    if steps.contains("lookup") {
        t0 = now()
        var found = 0
        for id in lookupIds {
            for p in all.where({ $0.name == "name\(id)" }) { found += p.id }
        }
        emit(run, "lookup", ops: lookupIds.count, rows: lookupIds.count, seconds: now() - t0, how: "where { $0.name == x }, iterate")
        guard found == lookupIds.reduce(0, +) else { fail("lookups read \(found)") }
    }

    if steps.contains("range") {
        t0 = now()
        var rows = 0
        var ids = 0
        for p in all.where({ $0.age >= 30 && $0.age <= 40 }) {
            rows += 1
            ids += p.id + (p.name.isEmpty ? 1 : 0)
        }
        emit(run, "range", ops: 1, rows: rows, seconds: now() - t0, how: "where { age in 30...40 }, iterate, read 2 properties")
        guard rows == rangeRows && ids == rangeSum else { fail("range read \(rows) rows") }
    }

    if steps.contains("update") {
        t0 = now()
        try realm.write {
            for id in 1 ... n { realm.object(ofType: Person.self, forPrimaryKey: id)!.score = Double(id) }
        }
        emit(run, "update", ops: n, rows: n, seconds: now() - t0, how: "object(ofType:forPrimaryKey:).score = x in one write")
    }

    if steps.contains("delete") {
        t0 = now()
        try realm.write { realm.delete(all) }
        emit(run, "delete", ops: n, rows: n, seconds: now() - t0, how: "realm.delete(results) in one write")
        guard all.isEmpty else { fail("delete left \(all.count)") }
    }
    try Realm.deleteFiles(for: configuration)
}
