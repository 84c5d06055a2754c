// One file, several languages: a file written from Node opens from Python (the same engine through
// its ctypes skin), and a file Python wrote opens from Node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Realm from "../index.mjs";
import { tempDir } from "./helpers.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const python = spawnSync("python3", ["--version"]);

function runPython(code) {
  const ran = spawnSync("python3", ["-c", code], {
    encoding: "utf8",
    env: {
      ...process.env,
      PYTHONPATH: join(root, "bindings", "python"),
      // The library the addon loaded: the one beside it, unless LD_LIBRARY_PATH chose another.
      DRUMLIN_LIBRARY: process.env.DRUMLIN_LIBRARY ?? join(root, "bindings", "node", "build", "libdrumlin.so.1"),
    },
  });
  assert.equal(ran.stderr, "");
  assert.equal(ran.status, 0);
  return ran.stdout;
}

test("a file written from Node reads the same from Python, and back", { skip: python.error && "python3 is not installed" }, (t) => {
  const path = join(tempDir(t), "shared.realm");
  const id = new Realm.BSON.ObjectId("65f1c0ffee0123456789abcd");
  const realm = new Realm({
    path,
    schema: [{ name: "Note", primaryKey: "_id", properties: { _id: "objectId", text: "string", stars: "int[]", at: "date" } }],
  });
  realm.write(() => realm.create("Note", { _id: id, text: "from node", stars: [1, 2], at: new Date("2024-01-02T03:04:05Z") }));
  realm.close();

  const printed = runPython(`
import drumlin
db = drumlin.open(${JSON.stringify(path)})
note = db.objects("Note")[0]
print(str(note._id), note.text, list(note.stars), note.at.isoformat())
with db.write():
    db.create("Note", {"_id": drumlin.ObjectId("65f1c0ffee0123456789abce"), "text": "from python", "stars": [3], "at": note.at})
db.close()
`);
  assert.equal(printed, "65f1c0ffee0123456789abcd from node [1, 2] 2024-01-02T03:04:05+00:00\n");

  const again = new Realm({ path });
  t.after(() => again.close());
  assert.deepEqual(again.objects("Note").map((n) => [n._id.toHexString(), n.text, [...n.stars]]), [
    ["65f1c0ffee0123456789abcd", "from node", [1, 2]],
    ["65f1c0ffee0123456789abce", "from python", [3]],
  ]);
});
