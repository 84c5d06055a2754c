// Property reads of primitive values come from one read of the object's row while the engine's
// read version stands (lib/object.js): every way the stored values can change must show.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import Realm from "../index.mjs";
import { tempDir } from "./helpers.mjs";

const schema = [{ name: "P", primaryKey: "id", properties: { id: "int", name: "string", age: "int?", score: "double", ok: "bool", when: "date?" } }];

function open(t, path) {
  const realm = new Realm({ path, schema });
  t.after(() => realm.close());
  return realm;
}

function fixture(t) {
  const path = join(tempDir(t), "rows.realm");
  const realm = open(t, path);
  const p = realm.write(() => realm.create("P", { id: 1, name: "a", age: 3, score: 1.5, ok: true }));
  return { path, realm, p };
}

test("row cache: reads see this realm's writes, at once and after commit", (t) => {
  const { realm, p } = fixture(t);
  assert.deepEqual([p.name, p.age, p.score, p.ok], ["a", 3, 1.5, true]);
  realm.write(() => {
    p.name = "b";
    assert.equal(p.name, "b");
    p.age = null;
    assert.equal(p.age, null);
  });
  assert.deepEqual([p.name, p.age], ["b", null]);
  realm.write(() => realm.create("P", { id: 1, score: 9 }, Realm.UpdateMode.Modified));
  assert.equal(p.score, 9);
  realm.write(() => realm.objects("P").update("ok", false));
  assert.equal(p.ok, false);
});

test("row cache: a cancelled transaction's values are gone from reads", (t) => {
  const { realm, p } = fixture(t);
  assert.equal(p.name, "a");
  realm.beginTransaction();
  p.name = "temporary";
  assert.equal(p.name, "temporary");
  realm.cancelTransaction();
  assert.equal(p.name, "a");
});

test("row cache: another instance's commit shows after this realm reads again", (t) => {
  const { path, realm, p } = fixture(t);
  assert.equal(p.name, "a");
  const other = open(t, path);
  other.write(() => {
    other.objectForPrimaryKey("P", 1).name = "from the other";
  });
  // Any read through this realm sees the commit (as drumlin_refresh after a notification would).
  assert.equal(realm.objects("P").length, 1);
  assert.equal(p.name, "from the other");
  assert.equal(realm.objectForPrimaryKey("P", 1).name, "from the other");
});

test("row cache: a deleted object and a closed realm still throw Realm JS's error", (t) => {
  const { realm, p } = fixture(t);
  const q = realm.write(() => realm.create("P", { id: 2, name: "q", score: 0, ok: false }));
  assert.equal(q.name, "q");
  realm.write(() => realm.delete(q));
  assert.throws(() => q.name, { message: "Accessing object which has been invalidated or deleted" });
  assert.equal(p.name, "a");
  realm.close();
  assert.throws(() => p.name, { message: "Accessing object which has been invalidated or deleted" });
});

test("row cache: non-primitive values are new on every read", (t) => {
  const { realm, p } = fixture(t);
  realm.write(() => {
    p.when = new Date(1000);
  });
  const first = p.when;
  first.setTime(5);
  assert.equal(p.when.getTime(), 1000);
  assert.notEqual(p.when, p.when);
});

test("iteration pages: every object of a long result reads its own values (strings too)", (t) => {
  const { realm } = fixture(t);
  realm.write(() => {
    for (let i = 2; i <= 1500; i++) realm.create("P", { id: i, name: `name-${i}-${"x".repeat(i % 40)}`, age: i % 7, score: i / 2, ok: i % 2 === 0 });
  });
  for (let round = 0; round < 5; round++) {
    // Garbage handles whose finalizers run between pages.
    for (let i = 2; i <= 400; i++) realm.objectForPrimaryKey("P", i).name;
    let seen = 0;
    for (const p of realm.objects("P").filtered("id >= 2 SORT(id ASC)")) {
      seen += 1;
      assert.equal(p.name, `name-${p.id}-${"x".repeat(p.id % 40)}`);
      assert.equal(p.age, p.id % 7);
      assert.equal(p.score, p.id / 2);
      assert.equal(p.ok, p.id % 2 === 0);
    }
    assert.equal(seen, 1499);
  }
});

test("iteration pages: an object read in a loop writes, links, listens and is invalidated as any other", async (t) => {
  const { realm } = fixture(t);
  realm.write(() => {
    for (let i = 2; i <= 100; i++) realm.create("P", { id: i, name: `n${i}`, score: 0, ok: false });
  });
  const objects = [...realm.objects("P").filtered("id >= 2 SORT(id ASC)")];
  assert.equal(objects.length, 99);
  const [first, second] = objects;
  assert.equal(first._objectKey(), realm.objectForPrimaryKey("P", 2)._objectKey());
  realm.write(() => {
    first.name = "changed";
  });
  assert.equal(first.name, "changed");
  assert.equal(realm.objectForPrimaryKey("P", 2).name, "changed");
  assert.equal(first.when, null);
  assert.ok(second.isValid());
  realm.write(() => realm.delete(realm.objectForPrimaryKey("P", 3)));
  assert.equal(second.isValid(), false);
  assert.throws(() => second.name, { message: "Accessing object which has been invalidated or deleted" });
  // Deleted before it ever needed an engine handle: still Realm JS's error, and a write fails too.
  const late = [...realm.objects("P").filtered("id == 4")][0];
  realm.write(() => realm.delete(realm.objectForPrimaryKey("P", 4)));
  assert.equal(late.isValid(), false);
  assert.throws(() => late.name, { message: "Accessing object which has been invalidated or deleted" });
  assert.throws(() => realm.write(() => {
    late.name = "x";
  }), { message: "Accessing object which has been invalidated or deleted" });
  assert.equal(realm.objects("P").length, 98);
});

test("iteration: a loop that writes reads the rest live, as before", (t) => {
  const { realm } = fixture(t);
  realm.write(() => {
    for (let i = 2; i <= 200; i++) realm.create("P", { id: i, name: `n${i}`, score: 0, ok: false });
  });
  const names = [];
  realm.write(() => {
    for (const p of realm.objects("P").filtered("id <= 150 SORT(id ASC)")) {
      names.push(p.name);
      p.score = 1;
    }
  });
  assert.equal(names.length, 150);
  assert.equal(names[149], "n150");
  assert.equal(realm.objects("P").filtered("score == 1").length, 150);
});

test("iteration pages: objects of a class without a primary key are found by object key", (t) => {
  const plain = new Realm({ path: join(tempDir(t), "plain.realm"), schema: [{ name: "Note", properties: { text: "string", n: "int" } }] });
  t.after(() => plain.close());
  plain.write(() => {
    for (let i = 0; i < 200; i++) plain.create("Note", { text: `t${i}`, n: i });
  });
  const notes = [...plain.objects("Note").sorted("n")];
  assert.equal(notes.length, 200);
  assert.deepEqual(notes.slice(0, 3).map((note) => note.text), ["t0", "t1", "t2"]);
  assert.equal(notes[150].text, "t150");
  plain.write(() => {
    notes[150].text = "changed";
    plain.delete(notes[151]);
  });
  assert.equal(plain.objects("Note").filtered("n == 150")[0].text, "changed");
  assert.equal(notes[151].isValid(), false);
  assert.equal(notes[152].text, "t152");
  assert.equal(plain.objects("Note").length, 199);
});
