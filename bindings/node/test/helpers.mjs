// Shared by the tests: a fresh folder per test and a realm in it, closed and removed afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Realm from "../index.mjs";

export function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), "drumlin-node-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A realm on a fresh file; closed when the test ends.
export function openRealm(t, config) {
  const realm = new Realm({ path: join(tempDir(t), "test.realm"), ...config });
  t.after(() => realm.close());
  return realm;
}

// Resolves after pending listener deliveries (they run from setImmediate).
export function settle() {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
