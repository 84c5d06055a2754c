import { test } from "node:test";
import assert from "node:assert/strict";
import Realm from "../index.mjs";
import { openRealm, settle } from "./helpers.mjs";

const schema = [{ name: "P", properties: { name: "string", age: "int", tags: "string[]", dict: "int{}" } }];

test("results listeners get an empty first call, then Realm's change sets", async (t) => {
  const realm = openRealm(t, { schema });
  realm.write(() => {
    realm.create("P", { name: "a", age: 1 });
    realm.create("P", { name: "b", age: 2 });
  });
  const byAge = realm.objects("P").sorted("age");
  const calls = [];
  const listener = (collection, changes) => calls.push([collection.map((p) => p.name), changes]);
  byAge.addListener(listener);
  await settle();
  assert.deepEqual(calls, [[["a", "b"], { deletions: [], insertions: [], newModifications: [], oldModifications: [] }]]);
  realm.write(() => {
    byAge[0].age = 5; // a moves behind b
  });
  realm.write(() => realm.create("P", { name: "c", age: 0 }));
  await settle();
  assert.deepEqual(calls.slice(1), [
    [["c", "b", "a"], { deletions: [1], insertions: [0], newModifications: [1], oldModifications: [0] }],
    [["c", "b", "a"], { deletions: [], insertions: [0], newModifications: [], oldModifications: [] }],
  ]);
  assert.throws(() => byAge.addListener(listener), { message: "Remove callback before adding it again" });
  byAge.removeListener(listener);
  realm.write(() => realm.create("P", { name: "d", age: 9 }));
  await settle();
  assert.equal(calls.length, 3);
});

test("key paths limit which property changes count as modifications", async (t) => {
  const realm = openRealm(t, { schema });
  const p = realm.write(() => realm.create("P", { name: "a", age: 1 }));
  const all = realm.objects("P");
  const calls = [];
  all.addListener((_, changes) => calls.push(changes.newModifications), ["age"]);
  await settle();
  realm.write(() => {
    p.name = "renamed";
  });
  realm.write(() => {
    p.age = 2;
  });
  await settle();
  assert.deepEqual(calls, [[], [0]]);
});

test("object listeners report changed properties and deletion", async (t) => {
  const realm = openRealm(t, { schema });
  const p = realm.write(() => realm.create("P", { name: "a", age: 1 }));
  const calls = [];
  p.addListener((_, changes) => calls.push(changes));
  await settle();
  realm.write(() => {
    p.age = 2;
  });
  await settle();
  realm.write(() => realm.delete(p));
  await settle();
  assert.deepEqual(calls, [
    { deleted: false, changedProperties: [] },
    { deleted: false, changedProperties: ["age"] },
    { deleted: true, changedProperties: [] },
  ]);
});

test("list and dictionary listeners", async (t) => {
  const realm = openRealm(t, { schema });
  const p = realm.write(() => realm.create("P", { name: "a", age: 1, tags: ["x"], dict: { k: 1 } }));
  const lists = [];
  const dicts = [];
  p.tags.addListener((_, changes) => lists.push(changes));
  p.dict.addListener((_, changes) => dicts.push(changes));
  await settle();
  realm.write(() => {
    p.tags.push("y");
    p.dict.k = 2;
    p.dict.n = 3;
  });
  await settle();
  assert.deepEqual(lists[1], { deletions: [], insertions: [1], newModifications: [], oldModifications: [] });
  assert.deepEqual(dicts, [
    { deletions: [], insertions: [], modifications: [] },
    { deletions: [], insertions: ["n"], modifications: ["k"] },
  ]);
});

test("realm change listeners run synchronously at commit, once per callback", (t) => {
  const realm = openRealm(t, { schema });
  const calls = [];
  const listener = (r, name) => calls.push([r === realm, name]);
  realm.addListener("change", listener);
  realm.addListener("change", listener);
  realm.write(() => realm.create("P", { name: "a", age: 1 }));
  assert.deepEqual(calls, [[true, "change"]]);
  realm.removeListener("change", listener);
  realm.write(() => realm.create("P", { name: "b", age: 1 }));
  assert.equal(calls.length, 1);
  assert.throws(() => realm.addListener("nope", listener), /Unknown event name 'nope'/);
});

test("commits through another instance of the file reach this one's listeners", async (t) => {
  const realm = openRealm(t, { schema });
  const other = new Realm({ path: realm.path });
  t.after(() => other.close());
  const calls = [];
  const changes = [];
  realm.objects("P").addListener((collection, change) => calls.push([collection.length, change.insertions]));
  realm.addListener("change", () => changes.push("change"));
  await settle();
  other.write(() => other.create("P", { name: "elsewhere", age: 1 }));
  for (let i = 0; i < 100 && calls.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(calls, [[0, []], [1, [0]]]);
  assert.deepEqual(changes, ["change"]);
});
