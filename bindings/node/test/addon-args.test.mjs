// The addon's string arguments (src/addon.h STRINGS): which may be null, the TypeError for one
// that is not a string, that a rejected call leaves the realm as it was and frees what it read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { tmpdir } from "node:os";
import nativeModule from "../lib/native.js";
import { openRealm, tempDir } from "./helpers.mjs";

const { native, INTERNAL } = nativeModule;
const Note = { name: "Note", properties: { text: "string" } };
const Holder = { name: "Holder", properties: { notes: "Note[]" } };
const notAString = { name: "TypeError", message: "Expected a string" };

function fixture(t) {
  const realm = openRealm(t, { schema: [Note, Holder] });
  const holder = realm.write(() => {
    realm.create(Note, { text: "a" });
    realm.create(Note, { text: "b" });
    return realm.create(Holder, { notes: [{ text: "c" }, { text: "a" }] });
  });
  return { realm, db: realm[INTERNAL].db, holder };
}

test("query: the class name is required, the query and its arguments may be null", (t) => {
  const { realm, db } = fixture(t);
  assert.equal(native.resultsCount(native.query(db, "Note", null, null)), 4);
  assert.equal(native.resultsCount(native.query(db, "Note", undefined, undefined)), 4);
  assert.equal(native.resultsCount(native.query(db, "Note", "text == $0", '["a"]')), 2);
  assert.throws(() => native.query(db, null, null, null), notAString);
  assert.throws(() => native.query(db, 5, null, null), notAString);
  assert.throws(() => native.query(db, "Note", 7, null), notAString);
  assert.throws(() => native.query(db, "Note", "text == $0", 7), notAString);
  assert.equal(realm.objects("Note").length, 4);
});

test("resultsFilter: the query is required, its arguments may be null", (t) => {
  const { db } = fixture(t);
  const all = native.query(db, "Note", null, null);
  assert.equal(native.resultsCount(native.resultsFilter(all, "text == 'b'", null)), 1);
  assert.equal(native.resultsCount(native.resultsFilter(all, "text == $0", '["a"]')), 2);
  assert.throws(() => native.resultsFilter(all, null, null), notAString);
  assert.throws(() => native.resultsFilter(all, "text == $0", {}), notAString);
  assert.equal(native.resultsCount(all), 4);
});

test("listQuery: the query and its arguments may both be null", (t) => {
  const { holder } = fixture(t);
  const list = holder.notes[INTERNAL].handle;
  assert.equal(native.resultsCount(native.listQuery(list, null, null)), 2);
  assert.equal(native.resultsCount(native.listQuery(list, "text == $0", '["c"]')), 1);
  assert.throws(() => native.listQuery(list, 1, null), notAString);
  assert.throws(() => native.listQuery(list, "text == $0", 1), notAString);
  assert.equal(native.listSize(list), 2);
});

test("propertyIndex and classIndex take names; open takes a path and a nullable schema", (t) => {
  const { realm, db } = fixture(t);
  assert.equal(native.propertyIndex(db, "Note", "text"), 0);
  assert.throws(() => native.propertyIndex(db, "Note", 0), notAString);
  assert.throws(() => native.propertyIndex(db, null, "text"), notAString);
  assert.equal(native.classIndex(db, "Holder"), native.classIndex(db, "Note") === 0 ? 1 : 0);
  assert.throws(() => native.classIndex(db, 1), notAString);
  assert.throws(() => native.open(5, null, {}), notAString);
  assert.throws(() => native.open(join(tempDir(t), "other.realm"), 5, {}), notAString);
  const again = native.open(realm.path, null, { readOnly: true }); // the file's own schema
  assert.deepEqual(JSON.parse(native.schemaJson(again)).map((c) => c.name).sort(), ["Holder", "Note"]);
  native.close(again);
});

// open() copied the path before it read the schema argument, and returned without freeing the
// copy when the schema was not a string: 1000 rejected calls with a 100 KB path kept ~100 MB.
test("a rejected string argument frees the ones read before it", { skip: !globalThis.gc && "needs --expose-gc" }, async () => {
  const longPath = join(tmpdir(), "x".repeat(100 * 1024));
  const attempt = () => assert.throws(() => native.open(longPath, 5, {}), notAString);
  for (let i = 0; i < 100; i++) attempt(); // warm up
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 1000; i++) attempt();
  globalThis.gc();
  const grown = process.memoryUsage().rss - before;
  assert.ok(grown < 40 * 1024 * 1024, `RSS grew by ${(grown / 1048576).toFixed(1)} MiB over 1000 rejected calls`);
});
