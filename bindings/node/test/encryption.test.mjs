import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Realm from "../index.mjs";
import { tempDir } from "./helpers.mjs";

// encryptionKey and writeCopyTo (docs/encryption.md): adding, changing and removing the key.
const Note = { name: "Note", primaryKey: "id", properties: { id: "int", text: "string" } };
const key = new Uint8Array(64).map((_, i) => i);
const other = new Int8Array(64).fill(-7);

function texts(path, encryptionKey) {
  const realm = new Realm({ path, schema: [Note], encryptionKey });
  try {
    return realm.objects("Note").sorted("id").map((n) => n.text);
  } finally {
    realm.close();
  }
}

const expected = Array.from({ length: 30 }, (_, i) => `marker-${i}-private`);

test("an encrypted realm opens with its key only, and holds no plaintext", (t) => {
  const path = join(tempDir(t), "notes.realm");
  const realm = new Realm({ path, schema: [Note], encryptionKey: key.buffer });
  realm.write(() => expected.forEach((text, id) => realm.create("Note", { id, text })));
  realm.close();
  const data = readFileSync(path);
  assert.equal(data.subarray(0, 16).toString("latin1"), "DrumlinEncrypted");
  assert.equal(data.includes("marker-"), false);
  assert.deepEqual(texts(path, Buffer.from(key)), expected);
  assert.throws(() => new Realm({ path, schema: [Note] }), {
    code: "DRUMLIN_ERR_DECRYPTION_FAILED",
    message: `Realm file decryption failed: '${path}' is encrypted; open it with its encryption key. It was left unchanged.`,
  });
  assert.throws(() => new Realm({ path, schema: [Note], encryptionKey: other }), {
    message: `Realm file decryption failed: the encryption key is not the key of '${path}'; it was left unchanged.`,
  });
});

test("a key of another length or type is Realm JS's error and creates no file", (t) => {
  const path = join(tempDir(t), "notes.realm");
  assert.throws(() => new Realm({ path, schema: [Note], encryptionKey: new Uint8Array(63) }), {
    message: "Encryption key must be 64 bytes.",
  });
  assert.throws(() => new Realm({ path, schema: [Note], encryptionKey: "x".repeat(64) }), {
    name: "TypeAssertionError",
    message: "Expected 'encryptionKey' to be an ArrayBuffer, ArrayBufferView (Uint8Array), or Int8Array, got a string",
  });
  assert.equal(existsSync(path), false);
});

test("writeCopyTo encrypts, changes the key and decrypts; the source is unchanged", (t) => {
  const dir = tempDir(t);
  const plain = join(dir, "plain.realm");
  const realm = new Realm({ path: plain, schema: [Note] });
  t.after(() => realm.close());
  realm.write(() => expected.forEach((text, id) => realm.create("Note", { id, text })));
  realm.writeCopyTo({ path: join(dir, "encrypted.realm"), encryptionKey: key });
  assert.deepEqual(texts(join(dir, "encrypted.realm"), key), expected);
  assert.throws(() => new Realm({ path: join(dir, "encrypted.realm"), schema: [Note] }), { code: "DRUMLIN_ERR_DECRYPTION_FAILED" });

  const encrypted = new Realm({ path: join(dir, "encrypted.realm"), schema: [Note], encryptionKey: key });
  encrypted.writeCopyTo({ path: join(dir, "rekeyed.realm"), encryptionKey: other });
  encrypted.writeCopyTo({ path: join(dir, "decrypted.realm") });
  encrypted.close();
  assert.deepEqual(texts(join(dir, "rekeyed.realm"), other), expected);
  assert.throws(() => texts(join(dir, "rekeyed.realm"), key), { code: "DRUMLIN_ERR_DECRYPTION_FAILED" });
  assert.equal(readFileSync(join(dir, "decrypted.realm")).subarray(0, 15).toString("latin1"), "SQLite format 3");
  assert.deepEqual(texts(join(dir, "decrypted.realm"), undefined), expected);
  assert.equal(realm.objects("Note").length, 30);

  // Refusals: nothing written.
  assert.throws(() => realm.writeCopyTo({ path: join(dir, "x.realm"), encryptionKey: new Uint8Array(63) }), {
    message: "Encryption key must be 64 bytes.",
  });
  assert.throws(() => realm.writeCopyTo({ path: join(dir, "rekeyed.realm") }), {
    code: "DRUMLIN_ERR_FILE",
    message: `Cannot write a copy to '${join(dir, "rekeyed.realm")}': the file already exists.`,
  });
  assert.throws(() => realm.writeCopyTo({ path: dir }), { code: "DRUMLIN_ERR_FILE", message: /it is a directory/ });
  realm.write(() => {
    assert.throws(() => realm.writeCopyTo({ path: join(dir, "x.realm") }), { message: "Can only convert Realms outside a transaction." });
  });
  assert.throws(() => realm.writeCopyTo("x.realm"), { name: "TypeAssertionError" });
  assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith(".realm")).sort(),
    ["decrypted.realm", "encrypted.realm", "plain.realm", "rekeyed.realm"]);
});
