import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import Realm, { UpdateMode } from "../index.mjs";
import { openRealm, tempDir } from "./helpers.mjs";

class Person extends Realm.Object {
  static schema = {
    name: "Person",
    primaryKey: "name",
    properties: { name: "string", age: "int", city: { type: "string", default: "Oslo" } },
  };
}
const Note = { name: "Note", properties: { text: "string" } };

test("open, write, create and read back through objects()", (t) => {
  const realm = openRealm(t, { schema: [Person] });
  const returned = realm.write(() => {
    realm.create(Person, { name: "Ann", age: 31 });
    return realm.create(Person, { name: "Bob", age: 25, city: "Rome" });
  });
  assert.ok(returned instanceof Person);
  assert.ok(returned instanceof Realm.Object);
  const people = realm.objects(Person);
  assert.ok(people instanceof Realm.Results);
  assert.equal(people.length, 2);
  assert.deepEqual(people.map((p) => [p.name, p.age, p.city]), [["Ann", 31, "Oslo"], ["Bob", 25, "Rome"]]);
  assert.deepEqual(Object.keys(people[0]), ["name", "age", "city"]);
  assert.deepEqual({ ...people[1] }, { name: "Bob", age: 25, city: "Rome" });
  assert.equal(people[2], undefined);
});

test("Results are live, filtered with arguments, sorted, snapshotted and aggregated", (t) => {
  const realm = openRealm(t, { schema: [Person] });
  realm.write(() => {
    for (const [name, age] of [["Cy", 40], ["Di", 20], ["Ed", 30]]) realm.create(Person, { name, age });
  });
  const adults = realm.objects(Person).filtered("age >= $0 AND name != $1", 25, "Ed");
  assert.deepEqual(adults.map((p) => p.name), ["Cy"]);
  const byAge = realm.objects(Person).sorted("age");
  assert.deepEqual([...byAge].map((p) => p.age), [20, 30, 40]);
  assert.deepEqual(realm.objects(Person).sorted("age", true).map((p) => p.age), [40, 30, 20]);
  assert.deepEqual(realm.objects(Person).sorted([["age", true]]).map((p) => p.name), ["Cy", "Ed", "Di"]);
  const snapshot = byAge.snapshot();
  realm.write(() => realm.create(Person, { name: "Fa", age: 10 }));
  assert.equal(byAge.length, 4);
  assert.equal(byAge[0].name, "Fa");
  assert.equal(snapshot.length, 3);
  const all = realm.objects(Person);
  assert.equal(all.min("age"), 10);
  assert.equal(all.max("age"), 40);
  assert.equal(all.sum("age"), 100);
  assert.equal(all.avg("age"), 25);
  assert.equal(all.filtered("age > 100").min("age"), undefined);
  assert.equal(all.filtered("age > 100").sum("age"), 0);
  assert.deepEqual(JSON.parse(JSON.stringify(all.filtered("name == 'Di'"))), [{ name: "Di", age: 20, city: "Oslo" }]);
});

test("a bad query throws the engine's message and an unknown class Realm JS's", (t) => {
  const realm = openRealm(t, { schema: [Person] });
  assert.throws(() => realm.objects(Person).filtered("age >"), /Invalid predicate: 'age >'/);
  assert.throws(() => realm.objects("Dog"), { message: "Object type 'Dog' not found in schema." });
});

test("property writes, update modes and objectForPrimaryKey", (t) => {
  const realm = openRealm(t, { schema: [Person, Note] });
  const ann = realm.write(() => realm.create(Person, { name: "Ann", age: 31 }));
  realm.write(() => {
    ann.age = 32;
  });
  assert.equal(realm.objectForPrimaryKey(Person, "Ann").age, 32);
  assert.equal(realm.objectForPrimaryKey(Person, "Zed"), null);
  assert.throws(() => realm.write(() => realm.create(Person, { name: "Ann", age: 1 })), {
    message: "Attempting to create an object of type 'Person' with an existing primary key value 'Ann'.",
  });
  realm.write(() => realm.create(Person, { name: "Ann", city: "Bergen" }, UpdateMode.Modified));
  assert.deepEqual([ann.age, ann.city], [32, "Bergen"]);
  realm.write(() => realm.create(Person, { name: "Ann", age: 40 }, true));
  assert.deepEqual([ann.age, ann.city], [40, "Bergen"]);
  assert.equal(realm.objects(Person).length, 1);
  assert.throws(() => realm.write(() => realm.create(Person, { name: "Bo", age: 1 }, "sometimes")), {
    message: "Unsupported 'updateMode'. Only 'never', 'modified' or 'all' is supported.",
  });
  assert.throws(() => realm.objectForPrimaryKey(Note, "x"), { message: "Expected a primary key on 'Note'" });
});

test("writes outside a transaction throw Realm JS's message and write nothing", (t) => {
  const realm = openRealm(t, { schema: [Person] });
  const ann = realm.write(() => realm.create(Person, { name: "Ann", age: 31 }));
  const outside = "Cannot modify managed objects outside of a write transaction.";
  assert.throws(() => realm.create(Person, { name: "Bob", age: 1 }), { message: outside });
  assert.throws(() => {
    ann.age = 99;
  }, { message: outside });
  assert.throws(() => realm.delete(ann), { message: "Can only delete objects within a transaction." });
  assert.equal(ann.age, 31);
  assert.equal(realm.objects(Person).length, 1);
});

test("a write that throws is rolled back; cancelTransaction discards; nesting is refused", (t) => {
  const realm = openRealm(t, { schema: [Person] });
  assert.throws(() => realm.write(() => {
    realm.create(Person, { name: "Ann", age: 1 });
    throw new Error("stop");
  }), { message: "stop" });
  assert.equal(realm.objects(Person).length, 0);
  assert.equal(realm.isInTransaction, false);
  realm.beginTransaction();
  assert.equal(realm.isInTransaction, true);
  realm.create(Person, { name: "Bob", age: 2 });
  assert.throws(() => realm.beginTransaction(), { message: "The Realm is already in a write transaction" });
  realm.cancelTransaction();
  assert.equal(realm.objects(Person).length, 0);
  realm.beginTransaction();
  realm.create(Person, { name: "Cy", age: 3 });
  realm.commitTransaction();
  assert.deepEqual(realm.objects(Person).map((p) => p.name), ["Cy"]);
});

test("wrong types and missing values throw the engine's messages and write nothing", (t) => {
  const realm = openRealm(t, { schema: [Person] });
  assert.throws(() => realm.write(() => realm.create(Person, { name: "Ann", age: "old" })), {
    name: "TypeAssertionError",
    message: "Expected value to be a number or bigint, got a string",
  });
  const bob = realm.write(() => realm.create(Person, { name: "Bob", age: 1 }));
  assert.throws(() => realm.write(() => {
    bob.age = 1.5;
  }), { name: "TypeAssertionError", message: "Expected value to be a number or bigint, got a decimal number" });
  assert.equal(bob.age, 1);
  realm.write(() => realm.delete(bob));
  assert.throws(() => realm.write(() => realm.create(Person, { name: "Ann" })), {
    message: "Missing value for property 'age'",
  });
  assert.throws(() => realm.objects(Person).min("height"), {
    message: "Property 'height' does not exist on 'Person' objects",
  });
  assert.equal(realm.objects(Person).length, 0);
});

test("delete, deleteAll, and reading a deleted object", (t) => {
  const realm = openRealm(t, { schema: [Person, Note] });
  const [ann] = realm.write(() => [
    realm.create(Person, { name: "Ann", age: 1 }),
    realm.create(Person, { name: "Bob", age: 2 }),
    realm.create(Person, { name: "Cy", age: 3 }),
    realm.create("Note", { text: "n" }),
  ]);
  realm.write(() => realm.delete(ann));
  assert.equal(ann.isValid(), false);
  assert.throws(() => ann.age, { message: "Accessing object which has been invalidated or deleted" });
  realm.write(() => realm.delete(realm.objects(Person).filtered("age > 2")));
  assert.deepEqual(realm.objects(Person).map((p) => p.name), ["Bob"]);
  realm.write(() => realm.deleteAll());
  assert.equal(realm.objects(Person).length, 0);
  assert.equal(realm.objects("Note").length, 0);
  assert.equal(realm.isEmpty, true);
});

test("a closed realm throws on use; close is idempotent; its objects become invalid", (t) => {
  const realm = new Realm({ path: join(tempDir(t), "closed.realm"), schema: [Person] });
  const ann = realm.write(() => realm.create(Person, { name: "Ann", age: 1 }));
  realm.close();
  realm.close();
  assert.equal(realm.isClosed, true);
  const closed = "Cannot access realm that has been closed.";
  assert.throws(() => realm.objects(Person), { message: closed });
  assert.throws(() => realm.write(() => {}), { message: closed });
  assert.equal(ann.isValid(), false);
  assert.throws(() => ann.name, { message: "Accessing object which has been invalidated or deleted" });
});

test("Realm.open resolves; config errors reject; readOnly refuses writes", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, "ro.realm");
  const realm = await Realm.open({ path, schema: [Person] });
  realm.write(() => realm.create(Person, { name: "Ann", age: 1 }));
  realm.close();
  await assert.rejects(Realm.open({ path, readOnly: true, deleteRealmIfMigrationNeeded: true }), {
    message: "Cannot set 'deleteRealmIfMigrationNeeded' when 'readOnly' is set.",
  });
  const readOnly = new Realm({ path, readOnly: true });
  t.after(() => readOnly.close());
  assert.equal(readOnly.isReadOnly, true);
  assert.equal(readOnly.objects("Person")[0].name, "Ann");
  assert.throws(() => readOnly.write(() => {}), { message: "Can't perform transactions on read-only Realms." });
});

test("Realm.exists, Realm.schemaVersion, Realm.deleteFile and relative paths", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "sub", "v.realm");
  assert.equal(Realm.exists({ path }), false);
  assert.equal(Realm.schemaVersion(path), -1);
  const realm = new Realm({ path, schema: [Note], schemaVersion: 3 });
  assert.equal(realm.schemaVersion, 3);
  assert.equal(realm.path, path);
  realm.close();
  assert.equal(Realm.exists({ path }), true);
  assert.equal(Realm.schemaVersion(path), 3);
  Realm.deleteFile({ path });
  assert.equal(existsSync(path), false);
  assert.equal(Realm.defaultPath, join(process.cwd(), "default.realm"));
});

test("inMemory realms keep data while open and leave no file", (t) => {
  const path = join(tempDir(t), "mem.realm");
  const realm = new Realm({ path, schema: [Note], inMemory: true });
  realm.write(() => realm.create("Note", { text: "kept" }));
  assert.equal(realm.objects("Note")[0].text, "kept");
  assert.equal(realm.isInMemory, true);
  realm.close();
  assert.equal(existsSync(path), false);
});

test("schemaVersion bump runs onMigration with the old and the new realm", (t) => {
  const path = join(tempDir(t), "m.realm");
  const v0 = new Realm({ path, schema: [{ name: "P", properties: { first: "string", last: "string" } }] });
  v0.write(() => v0.create("P", { first: "Ada", last: "Lovelace" }));
  v0.close();
  const seen = [];
  const v1 = new Realm({
    path,
    schemaVersion: 1,
    schema: [{ name: "P", properties: { full: "string" } }],
    onMigration(oldRealm, newRealm) {
      seen.push([oldRealm.schemaVersion, newRealm.schemaVersion, newRealm.isInMigration]);
      const olds = oldRealm.objects("P");
      const news = newRealm.objects("P");
      for (let i = 0; i < olds.length; i++) news[i].full = `${olds[i].first} ${olds[i].last}`;
    },
  });
  t.after(() => v1.close());
  assert.deepEqual(seen, [[0, 1, true]]);
  assert.equal(v1.objects("P")[0].full, "Ada Lovelace");
  assert.equal(v1.schemaVersion, 1);
});

test("an exception in onMigration cancels the open and leaves the file as it was", (t) => {
  const path = join(tempDir(t), "m.realm");
  const v0 = new Realm({ path, schema: [Note] });
  v0.write(() => v0.create("Note", { text: "a" }));
  v0.close();
  assert.throws(() => new Realm({
    path,
    schemaVersion: 1,
    schema: [{ name: "Note", properties: { text: "string", n: "int" } }],
    onMigration() {
      throw new Error("no migration today");
    },
  }), { message: "no migration today" });
  assert.equal(Realm.schemaVersion(path), 0);
});

test("deleteRealmIfMigrationNeeded starts afresh when the schema changed", (t) => {
  const path = join(tempDir(t), "d.realm");
  const v0 = new Realm({ path, schema: [Note] });
  v0.write(() => v0.create("Note", { text: "a" }));
  v0.close();
  const realm = new Realm({
    path,
    deleteRealmIfMigrationNeeded: true,
    schema: [{ name: "Note", properties: { text: "int" } }],
  });
  t.after(() => realm.close());
  assert.equal(realm.objects("Note").length, 0);
});

test("embedded and asymmetric types cannot be queried; a class must extend Realm.Object", (t) => {
  const realm = openRealm(t, {
    schema: [
      { name: "Addr", embedded: true, properties: { city: "string" } },
      { name: "Log", asymmetric: true, primaryKey: "_id", properties: { _id: "int" } },
    ],
  });
  assert.throws(() => realm.objects("Addr"), { message: "You cannot query an embedded object." });
  assert.throws(() => realm.objects("Log"), { message: "You cannot query an asymmetric object." });
  assert.equal(realm.write(() => realm.create("Log", { _id: 1 })), undefined);
  class Plain {
    static schema = { name: "Plain", properties: { a: "int" } };
  }
  assert.throws(() => new Realm({ path: join(tempDir(t), "x.realm"), schema: [Plain] }), {
    name: "SchemaParseError",
    message: "Class 'Plain' must extend Realm.Object",
  });
  assert.throws(() => new Realm.Results(), { name: "IllegalConstructorError" });
});

test("realm.schema is Realm JS's canonical form", (t) => {
  const realm = openRealm(t, { schema: [Person] });
  const [person] = realm.schema;
  assert.equal(person.name, "Person");
  assert.equal(person.ctor, Person);
  assert.equal(person.primaryKey, "name");
  assert.deepEqual(person.properties.age, { name: "age", type: "int", optional: false, indexed: false, mapTo: "age" });
  assert.notEqual(realm.schema, realm.schema);
});

test("Realm.shutdown closes every open realm; clearTestState needs its flag", (t) => {
  const dir = tempDir(t);
  const first = new Realm({ path: join(dir, "a.realm"), schema: [Note] });
  const second = new Realm({ path: join(dir, "b.realm"), schema: [Note] });
  Realm.shutdown();
  assert.deepEqual([first.isClosed, second.isClosed], [true, true]);
  assert.throws(() => Realm.clearTestState(), {
    message: "Set the flag 'ALLOW_CLEAR_TEST_STATE' to true before calling 'clearTestState'.",
  });
  assert.throws(() => Realm.copyBundledRealmFiles(), { message: "Realm for Node does not support this method." });
});

test("Results of a closed realm are invalid: Realm JS's message", (t) => {
  const realm = new Realm({ path: join(tempDir(t), "r.realm"), schema: [Person] });
  const people = realm.objects(Person);
  const sorted = people.sorted("age");
  assert.equal(people.isValid(), true);
  realm.close();
  for (const results of [people, sorted]) {
    assert.equal(results.isValid(), false);
    for (const use of [() => results[0], () => results.filtered("age < 42"), () => results.sorted("age", true),
      () => results.snapshot(), () => results.length, () => results.update("age", 1)]) {
      assert.throws(use, { message: "Access to invalidated Results objects" });
    }
  }
});

test("onFirstOpen seeds a new file once, in a write transaction", (t) => {
  const path = join(tempDir(t), "seeded.realm");
  const seen = [];
  const config = {
    path,
    schema: [Note],
    onFirstOpen(realm) {
      seen.push(realm.isInTransaction);
      realm.create("Note", { text: "welcome" });
    },
  };
  new Realm(config).close();
  const again = new Realm(config);
  t.after(() => again.close());
  assert.deepEqual(seen, [true]);
  assert.deepEqual(again.objects("Note").map((n) => n.text), ["welcome"]);
});
