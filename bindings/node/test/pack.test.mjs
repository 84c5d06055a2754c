// `npm pack` gives a tarball carrying the addon and libdrumlin.so.1 that installs offline and runs
// with no compiler, build tree or LD_LIBRARY_PATH.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./helpers.mjs";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const npm = spawnSync("npm", ["--version"]);

function run(command, args, cwd) {
  const env = { ...process.env };
  delete env.LD_LIBRARY_PATH;
  delete env.DRUMLIN_NODE_ADDON;
  const ran = spawnSync(command, args, { cwd, encoding: "utf8", env });
  assert.equal(ran.status, 0, ran.stdout + ran.stderr);
  return ran.stdout;
}

test("npm pack's tarball installs offline and opens a realm", { skip: npm.error && "npm is not installed" }, (t) => {
  const dir = tempDir(t);
  const listing = JSON.parse(run("npm", ["pack", packageDir, "--pack-destination", dir, "--json"], dir));
  const files = listing[0].files.map((file) => file.path).sort();
  for (const expected of ["build/drumlin.node", "build/libdrumlin.so.1", "index.d.ts", "index.mjs", "lib/index.js", "package.json"]) {
    assert.ok(files.includes(expected), `${expected} missing from ${files.join(", ")}`);
  }
  assert.ok(!files.some((file) => file.startsWith("test/") || file.startsWith("src/")), files.join(", "));
  const app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(dir, listing[0].filename)], app);
  writeFileSync(join(app, "main.mjs"), `
import Realm from "drumlin";
const realm = new Realm({ path: "app.realm", schema: [{ name: "A", properties: { n: "int" } }] });
realm.write(() => realm.create("A", { n: 41 }));
console.log(realm.objects("A")[0].n + 1);
realm.close();
`);
  assert.equal(run("node", ["main.mjs"], app), "42\n");
});
