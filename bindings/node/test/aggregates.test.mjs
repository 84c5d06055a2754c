import { test } from "node:test";
import assert from "node:assert/strict";
import { openRealm } from "./helpers.mjs";

const schema = [
  {
    name: "Person",
    properties: { name: "string", age: "int", score: "double?", born: "date?", friends: "Person[]", ints: "int[]" },
  },
];

function fixture(t) {
  const realm = openRealm(t, { schema });
  realm.write(() => {
    const a = realm.create("Person", { name: "a", age: 10, score: 1.5, born: new Date("2000-01-01T00:00:00Z") });
    const b = realm.create("Person", { name: "b", age: 30, score: 2.5, born: new Date("1990-01-01T00:00:00Z") });
    realm.create("Person", { name: "c", age: 20, friends: [a, b], ints: [1, 2] });
  });
  return realm;
}

test("aggregates: results and lists of objects sum, min, max and avg a property", (t) => {
  const realm = fixture(t);
  const people = realm.objects("Person");
  assert.equal(people.sum("age"), 60);
  assert.equal(people.min("age"), 10);
  assert.equal(people.max("age"), 30);
  assert.equal(people.avg("age"), 20);
  assert.equal(people.sum("score"), 4);
  assert.equal(people.max("born").toISOString(), "2000-01-01T00:00:00.000Z");
  const friends = people.filtered("name == 'c'")[0].friends;
  assert.equal(friends.sum("age"), 40);
  assert.equal(friends.avg("score"), 2);
  const none = people.filtered("age > 100");
  assert.equal(none.sum("age"), 0);
  assert.equal(none.min("age"), undefined);
  assert.equal(none.avg("age"), undefined);
});

test("aggregates: Realm JS's errors for a missing, unknown or non-numeric property", (t) => {
  const realm = fixture(t);
  const people = realm.objects("Person");
  assert.throws(() => people.sum(), { name: "TypeAssertionError", message: "Expected 'name' to be a string, got undefined" });
  assert.throws(() => people.min(3), { message: "Expected 'name' to be a string, got a number" });
  assert.throws(() => people.avg("nope"), { message: "Property 'nope' does not exist on 'Person' objects" });
  assert.throws(() => people.sum("name"), { message: "Operation 'sum' not supported for string property 'Person.name'" });
  assert.throws(() => people.avg("born"), { message: "Operation 'avg' not supported for date property 'Person.born'" });
  const friends = people.filtered("name == 'c'")[0].friends;
  assert.throws(() => friends.max(), { message: "Expected 'name' to be a string, got undefined" });
  assert.throws(() => friends.sum("name"), { message: "Operation 'sum' not supported for string property 'Person.name'" });
});

test("aggregates: a property name on a list of values is Realm JS's error", (t) => {
  const realm = fixture(t);
  const ints = realm.objects("Person").filtered("name == 'c'")[0].ints;
  assert.throws(() => ints.sum("age"), { message: "Cannot get property named 'age' on a list of primitives" });
});
