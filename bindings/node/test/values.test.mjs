import { test } from "node:test";
import assert from "node:assert/strict";
import Realm from "../index.mjs";
import { openRealm } from "./helpers.mjs";

const { ObjectId, UUID, Decimal128 } = Realm.BSON;

const schema = [
  {
    name: "All",
    primaryKey: "_id",
    properties: {
      _id: "objectId", u: "uuid?", d: "decimal128?", dt: "date?", data: "data?", f: "float?", db: "double?",
      b: "bool?", i: "int?", s: "string?", m: "mixed", ints: "int[]", tags: "string<>", dict: "int{}",
      dogs: "Dog[]", best: "Dog", home: "Addr", homes: "Addr[]",
    },
  },
  { name: "Dog", primaryKey: "name", properties: { name: "string", owners: { type: "linkingObjects", objectType: "All", property: "dogs" } } },
  { name: "Addr", embedded: true, properties: { city: "string" } },
];

test("ObjectId: constructors, hex, equality, timestamp and validation", () => {
  const id = new ObjectId("65f1c0ffee0123456789abcd");
  assert.equal(id.toHexString(), "65f1c0ffee0123456789abcd");
  assert.equal(String(id), "65f1c0ffee0123456789abcd");
  assert.equal(JSON.stringify({ id }), '{"id":"65f1c0ffee0123456789abcd"}');
  assert.equal(id.getTimestamp().toISOString(), "2024-03-13T15:06:39.000Z");
  assert.ok(id.equals(new ObjectId(id)));
  assert.ok(id.equals("65F1C0FFEE0123456789ABCD"));
  assert.ok(!id.equals(new ObjectId()));
  assert.deepEqual(new ObjectId(id.id), id);
  assert.notEqual(new ObjectId().toHexString(), new ObjectId().toHexString());
  assert.equal(ObjectId.isValid("nope"), false);
  assert.throws(() => new ObjectId("xyz"), /must be a string of 12 bytes or a string of 24 hex characters/);
});

test("UUID: dashed hex, equality with strings, version-4 generation", () => {
  const u = new UUID("8f190752-ddcd-4061-95d0-dcec8983d1b8");
  assert.equal(u.toHexString(), "8f190752-ddcd-4061-95d0-dcec8983d1b8");
  assert.equal(u.toHexString(false), "8f190752ddcd406195d0dcec8983d1b8");
  assert.ok(u.equals("8f190752ddcd406195d0dcec8983d1b8"));
  assert.equal(new UUID().toHexString()[14], "4");
  assert.throws(() => new UUID("123"), /32 or 36 character hex string/);
});

test("Decimal128: text round trips as the bson package prints it", () => {
  for (const text of ["1.10", "-2.5E+40", "0.000001", "1E-7", "123456789.000", "NaN", "Infinity", "-Infinity", "0"]) {
    assert.equal(Decimal128.fromString(text).toString(), text);
  }
  assert.ok(Decimal128.fromString("1.5").equals(new Decimal128("1.5")));
  assert.throws(() => Decimal128.fromString("one"), /not a valid Decimal128 string/);
});

test("every value type round-trips through a property", (t) => {
  const realm = openRealm(t, { schema });
  const id = new ObjectId();
  const u = new UUID();
  const when = new Date("2024-03-18T13:50:58.402Z");
  realm.write(() => realm.create("All", {
    _id: id, u, d: Decimal128.fromString("1.10"), dt: when, data: new Uint8Array([1, 2, 3]), f: 1.5, db: 2.25,
    b: true, i: -7, s: "snow ❄", m: 42,
  }));
  const a = realm.objectForPrimaryKey("All", id);
  assert.ok(a._id instanceof ObjectId && a._id.equals(id));
  assert.ok(a.u instanceof UUID && a.u.equals(u));
  assert.equal(a.d.toString(), "1.10");
  assert.equal(a.dt.getTime(), when.getTime());
  assert.ok(a.data instanceof ArrayBuffer);
  assert.deepEqual([...new Uint8Array(a.data)], [1, 2, 3]);
  assert.deepEqual([a.f, a.db, a.b, a.i, a.s, a.m], [1.5, 2.25, true, -7, "snow ❄", 42]);
  realm.write(() => {
    a.u = null;
    a.m = new Date(0);
  });
  assert.equal(a.u, null);
  assert.deepEqual(a.m, new Date(0));
  assert.equal(a.getPropertyType("m"), "date");
  assert.equal(realm.objects("All").filtered("_id == $0 AND dt == $1 AND d == $2", id, when, Decimal128.fromString("1.10")).length, 1);
});

test("mixed holds nested lists and dictionaries, read back whole", (t) => {
  const realm = openRealm(t, { schema });
  const a = realm.write(() => realm.create("All", { _id: new ObjectId(), m: [1, "two", { three: [3] }] }));
  assert.deepEqual(a.m, [1, "two", { three: [3] }]);
  assert.equal(a.getPropertyType("m"), "list");
});

test("lists: push, splice, pop, shift, unshift, move, swap, indexOf, and live reads", (t) => {
  const realm = openRealm(t, { schema });
  const a = realm.write(() => realm.create("All", { _id: new ObjectId(), ints: [3, 1, 2] }));
  const ints = a.ints;
  assert.ok(ints instanceof Realm.List);
  realm.write(() => {
    assert.equal(ints.push(9, 8), 5);
    assert.deepEqual(ints.splice(1, 2, 7), [1, 2]);
    assert.equal(ints.pop(), 8);
    assert.equal(ints.shift(), 3);
    ints.unshift(0);
    ints.move(0, 2);
    ints.swap(0, 1);
    ints[0] = 5;
  });
  assert.deepEqual([...a.ints], [5, 7, 0]);
  assert.equal(ints.indexOf(0), 2);
  assert.equal(ints.indexOf(100), -1);
  assert.equal(ints[7], undefined);
  assert.deepEqual(ints.toJSON(), [5, 7, 0]);
  assert.throws(() => ints.push(1), { message: "Cannot modify managed objects outside of a write transaction." });
  assert.throws(() => new Realm.List(), { name: "IllegalConstructorError" });
});

test("sets and dictionaries", (t) => {
  const realm = openRealm(t, { schema });
  const a = realm.write(() => realm.create("All", { _id: new ObjectId(), tags: ["a", "b", "a"], dict: { x: 1, y: 2 } }));
  assert.ok(a.tags instanceof Realm.Set);
  assert.deepEqual([...a.tags], ["a", "b"]);
  assert.equal(a.tags.size, 2);
  assert.ok(a.dict instanceof Realm.Dictionary);
  assert.deepEqual(a.dict.toJSON(), { x: 1, y: 2 });
  realm.write(() => {
    a.tags.add("c");
    assert.equal(a.tags.delete("a"), true);
    assert.equal(a.tags.delete("zzz"), false);
    a.dict.z = 3;
    a.dict.set({ w: 0 });
    a.dict.remove("x");
  });
  assert.deepEqual([...a.tags], ["b", "c"]);
  assert.equal(a.tags.has("c"), true);
  assert.deepEqual({ ...a.dict }, { w: 0, y: 2, z: 3 });
  assert.equal(a.dict.y, 2);
  assert.equal(a.dict.nope, undefined);
});

test("links, lists of objects, embedded objects and linkingObjects", (t) => {
  const realm = openRealm(t, { schema });
  const id = new ObjectId();
  const a = realm.write(() => realm.create("All", {
    _id: id, dogs: [{ name: "Rex" }, { name: "Fido" }], best: { name: "Max" }, home: { city: "Oslo" },
    homes: [{ city: "Rome" }],
  }));
  assert.deepEqual(a.dogs.map((d) => d.name), ["Rex", "Fido"]);
  assert.equal(a.best.name, "Max");
  assert.equal(a.home.city, "Oslo");
  assert.equal(a.homes[0].city, "Rome");
  const max = realm.objectForPrimaryKey("Dog", "Max");
  realm.write(() => {
    a.dogs.push(max);
    a.home = { city: "Bergen" };
  });
  assert.equal(a.dogs.indexOf(max), 2);
  assert.deepEqual(a.dogs.sorted("name").map((d) => d.name), ["Fido", "Max", "Rex"]);
  assert.deepEqual(a.dogs.filtered("name BEGINSWITH $0", "F").map((d) => d.name), ["Fido"]);
  assert.equal(a.home.city, "Bergen");
  assert.equal(max.owners.length, 1);
  assert.ok(max.owners[0]._id.equals(id));
  assert.equal(max.linkingObjects("All", "dogs").length, 1);
  assert.equal(realm.objects("All").filtered("best == $0", a.best).length, 1);
  assert.equal(a.getPropertyType("dogs"), "list<Dog>");
  assert.equal(a.getPropertyType("best"), "<Dog>");
  assert.deepEqual(JSON.parse(JSON.stringify(a)).homes, [{ city: "Rome" }]);
});

test("function defaults run once per new object; others come from the engine", (t) => {
  let calls = 0;
  const realm = openRealm(t, {
    schema: [{
      name: "Car",
      primaryKey: "_id",
      properties: { _id: { type: "objectId", default: () => (calls++, new ObjectId()) }, miles: { type: "int", default: 7 } },
    }],
  });
  const car = realm.write(() => realm.create("Car", {}));
  assert.equal(calls, 1);
  assert.ok(car._id instanceof ObjectId);
  assert.equal(car.miles, 7);
  realm.write(() => realm.create("Car", { _id: car._id, miles: 8 }, "modified"));
  assert.equal(calls, 1);
  assert.equal(car.miles, 8);
});

test("mixed elements of lists and dictionaries may hold nested collections", (t) => {
  const realm = openRealm(t, { schema: [{ name: "Bag", properties: { list: "mixed[]", dict: "mixed{}" } }] });
  const bag = realm.write(() => realm.create("Bag", { list: [1, [2, { three: 3 }]], dict: { x: [1, { y: 2 }], n: 5 } }));
  assert.deepEqual(bag.list[1], [2, { three: 3 }]);
  assert.deepEqual(bag.dict.x, [1, { y: 2 }]);
  assert.deepEqual(bag.dict.toJSON(), { n: 5, x: [1, { y: 2 }] });
  assert.deepEqual(bag.list.toJSON(), [1, [2, { three: 3 }]]);
});
