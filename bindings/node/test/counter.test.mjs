import { test } from "node:test";
import assert from "node:assert/strict";
import Realm, { Counter } from "../index.mjs";
import { openRealm } from "./helpers.mjs";

const schema = [
  {
    name: "Score",
    primaryKey: "_id",
    properties: {
      _id: "int",
      hits: "counter",
      misses: "counter?",
      long: { type: "int", presentation: "counter", optional: true },
      any: "mixed",
    },
  },
];
const RESET =
  "You can only reset a Counter instance when initializing a previously null Counter or resetting a nullable Counter to null. To update the value of the Counter, use its instance methods.";

function fixture(t) {
  const realm = openRealm(t, { schema });
  const score = realm.write(() => realm.create("Score", { _id: 1, hits: 5 }));
  return { realm, score };
}

test("Counter: a counter property reads as a Counter, nullable ones as null, and the schema says 'counter'", (t) => {
  const { realm, score } = fixture(t);
  assert.ok(score.hits instanceof Counter);
  assert.ok(score.hits instanceof Realm.Types.Counter);
  assert.equal(score.hits.value, 5);
  assert.equal(score.misses, null);
  assert.equal(score.long, null);
  const property = realm.schema[0].properties.hits;
  assert.equal(property.type, "int");
  assert.equal(property.presentation, "counter");
  assert.equal(realm.schema[0].properties.long.presentation, "counter");
  assert.equal(realm.schema[0].properties.long.optional, true);
  assert.equal(JSON.stringify(score), '{"_id":1,"hits":5,"misses":null,"long":null,"any":null}');
});

test("Counter: increment, decrement and set in a write; the value is stored", (t) => {
  const { realm, score } = fixture(t);
  const counter = score.hits;
  realm.write(() => {
    counter.increment();
    counter.increment(10);
    counter.decrement();
    counter.decrement(3);
  });
  assert.equal(counter.value, 12);
  assert.equal(realm.objectForPrimaryKey("Score", 1).hits.value, 12);
  realm.write(() => counter.set(-4));
  assert.equal(score.hits.value, -4);
  assert.equal(realm.objects("Score").filtered("hits == -4").length, 1);
});

test("Counter: changes outside a write, decimals and non-numbers throw Realm JS's errors and write nothing", (t) => {
  const { realm, score } = fixture(t);
  assert.throws(() => score.hits.increment(), { message: "Cannot modify managed objects outside of a write transaction." });
  assert.throws(() => score.hits.set(1), { message: "Cannot modify managed objects outside of a write transaction." });
  realm.write(() => {
    assert.throws(() => score.hits.increment(1.5), {
      name: "TypeAssertionError",
      message: "Expected 'by' to be an integer, got a decimal number",
    });
    assert.throws(() => score.hits.decrement("2"), { message: "Expected 'by' to be a number, got a string" });
    assert.throws(() => score.hits.set(NaN), { message: "Expected 'value' to be an integer, got NaN" });
  });
  assert.throws(() => {
    score.hits.value = 9;
  }, { message: "To update the value, use the methods on the Counter." });
  assert.equal(score.hits.value, 5);
});

test("Counter: a number is assigned only to a null counter, null only to a nullable one", (t) => {
  const { realm, score } = fixture(t);
  realm.write(() => {
    assert.throws(() => {
      score.hits = 3;
    }, { message: RESET });
    assert.throws(() => {
      score.hits = null;
    }, { message: RESET });
    score.misses = 7;
    assert.throws(() => {
      score.misses = 8;
    }, { message: RESET });
  });
  assert.equal(score.hits.value, 5);
  assert.equal(score.misses.value, 7);
  realm.write(() => {
    score.misses = null;
  });
  assert.equal(score.misses, null);
});

test("Counter: create with UpdateMode.Modified sets the number; a Counter copies its value", (t) => {
  const { realm, score } = fixture(t);
  realm.write(() => realm.create("Score", { _id: 1, hits: 40 }, Realm.UpdateMode.Modified));
  assert.equal(score.hits.value, 40);
  const copy = realm.write(() => realm.create("Score", { _id: 2, hits: score.hits }));
  assert.equal(copy.hits.value, 40);
  realm.write(() => score.hits.increment());
  assert.equal(copy.hits.value, 40);
});

test("Counter: not a mixed value, not a query argument, not constructible", (t) => {
  const { realm, score } = fixture(t);
  realm.write(() => {
    assert.throws(() => {
      score.any = score.hits;
    }, { message: "Using a Counter as a Mixed value is not supported" });
  });
  assert.equal(score.any, null);
  assert.throws(() => realm.objects("Score").filtered("hits == $0", score.hits), {
    message: "Using a Counter as a query argument is not supported. Use 'Counter.value'.",
  });
  assert.equal(realm.objects("Score").filtered("hits == $0", score.hits.value).length, 1);
  assert.throws(() => new Counter(), {
    name: "IllegalConstructorError",
    message: "Illegal constructor: Counter objects are read from managed objects only.",
  });
});

test("Counter: schemas reject counters in collections and as primary keys", (t) => {
  assert.throws(() => openRealm(t, { schema: [{ name: "X", properties: { c: "counter[]" } }] }), {
    name: "SchemaParseError",
    message: /Counters cannot be used in collections\./,
  });
  assert.throws(() => openRealm(t, { schema: [{ name: "X", primaryKey: "c", properties: { c: "counter" } }] }), {
    message: /Counters cannot be primary keys\./,
  });
});

test("Counter: a deleted object's or closed realm's counter throws", (t) => {
  const { realm, score } = fixture(t);
  const counter = score.hits;
  realm.write(() => realm.delete(score));
  assert.throws(() => counter.value, { message: "Accessing object which has been invalidated or deleted" });
  realm.close();
  assert.throws(() => counter.value, { message: "Accessing object which has been invalidated or deleted" });
});
