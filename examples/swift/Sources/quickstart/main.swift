// Drumlin from Swift: open, create, get, update, count, and handle a duplicate primary key.
import Drumlin

#if canImport(Glibc)
import Glibc
#endif

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "quickstart-swift.drumlin"
for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }

let schema = """
[
  {"name": "Person", "mapTo": "people", "primaryKey": "id",
   "properties": {
     "id": "int",
     "name": {"type": "string", "indexed": true},
     "email": {"type": "string", "optional": true, "mapTo": "email_address"},
     "age": "int?",
     "score": {"type": "double", "default": 0},
     "joined": "date?",
     "dogs": "Dog[]",
     "address": "Address",
     "extra": "mixed"
   }},
  {"name": "Dog", "primaryKey": "name", "properties": {
     "name": "string",
     "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
  {"name": "Address", "embedded": true, "properties": {"street": "string", "city": "string?"}}
]
"""

do {
    let db = try Database(path: path, schemaJSON: schema)
    defer { db.close() }

    try db.write {
        try db.create("Person", json: #"{"id": 1, "name": "Ann", "email": "ann@example.com", "age": 31, "joined": {"$date": "2024-03-18T13:50:58.402979123Z"}}"#)
        try db.create("Person", values: [("id", 2), ("name", "Bo"), ("score", 7.5)])
    }

    if let ann = try db.object("Person", primaryKey: 1) {
        print("get 1 ->", try ann.jsonText())
        try db.write { try ann.set("age", to: 32) }
        print("after update: age =", try ann["age"])
    }
    print("count =", try db.count("Person"))

    do {
        try db.write { try db.create("Person", json: #"{"id": 1, "name": "Again"}"#) }
    } catch let error as DrumlinError where error.code == .duplicatePrimaryKey {
        print("duplicate key ->", error.code, "|", error.message)
    }

    // Upsert: "modified" writes only the changed properties of the existing object.
    try db.write { try db.create("Person", json: #"{"id": 2, "name": "Bo", "age": 40}"#, update: .modified) }
    print("get 2 ->", try db.getJSON("Person", primaryKey: .int(2)) ?? "not found")

    // Relationships: a list of dogs (one new, one existing), an embedded address, a mixed payload.
    try db.write {
        try db.create("Dog", json: #"{"name": "Rex"}"#)
        try db.create("Person", json: """
            {"id": 3, "name": "Cy", "dogs": ["Rex", {"name": "Bo"}],
             "address": {"street": "1 Main St", "city": "Springfield"},
             "extra": {"tags": ["a", "b"], "visits": 3}}
            """)
    }
    let cy = try db.object("Person", primaryKey: 3)!
    print("Cy ->", try cy.jsonText())
    let rex = try db.object("Dog", primaryKey: "Rex")!
    print("Rex's owners ->", try rex.linkingObjects("owners").map { try $0["name"] })
    try db.write { try cy.list("dogs").remove(at: 0) }
    print("after removing Rex from Cy's dogs ->", try rex.linkingObjects("owners").count, "owners")
} catch {
    print("error:", error)
    exit(1)
}
