// index.d.ts under `tsc --strict` (Debian's node-typescript): test/types/usage.ts must type-check
// as a program importing "drumlin", and every @ts-expect-error line in it must be an error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./helpers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = spawnSync("tsc", ["--version"], { encoding: "utf8" });

test("index.d.ts types a Realm JS program under tsc --strict", { skip: tsc.error && "tsc is not installed (apt-get install -y node-typescript)" }, (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(here, ".."), join(dir, "node_modules", "drumlin"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  copyFileSync(join(here, "types", "usage.ts"), join(dir, "usage.ts"));
  const flags = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022"];
  const checked = spawnSync("tsc", [...flags, "usage.ts"], { cwd: dir, encoding: "utf8" });
  assert.equal(checked.stdout + checked.stderr, "");
  assert.equal(checked.status, 0);
  // The same file with the expectations removed has exactly that many errors.
  const source = readFileSync(join(dir, "usage.ts"), "utf8");
  const expected = source.split("\n").filter((line) => line.trim().startsWith("// @ts-expect-error")).length;
  writeFileSync(join(dir, "usage.ts"), source.replaceAll("@ts-expect-error", "(no expectation)"));
  const unchecked = spawnSync("tsc", [...flags, "usage.ts"], { cwd: dir, encoding: "utf8" });
  const errors = (unchecked.stdout.match(/error TS\d+/g) ?? []).length;
  assert.equal(expected, 5);
  assert.equal(errors, expected, unchecked.stdout);
});
