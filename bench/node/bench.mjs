// bench/node/bench.mjs — the Person workload of bench/bench.py and bench/object_api.py on Node:
// Drumlin's documented calls (realm.create in realm.write, objectForPrimaryKey then property
// reads, objects().filtered(...) iterated, obj.x = v in a write) against Debian's node-sqlite3
// with prepared statements in transactions. Medians of --runs; prints a markdown table of ops/s
// and the Drumlin/node-sqlite3 ratios (target >= 1.0x each). A benchmark, not a test: nothing is
// asserted but that both read the same data.
//
//   node bench/node/bench.mjs [--n 100000] [--runs 3]      (make bench-node sets up the peer)
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const Realm = require(join(here, "../../bindings/node/lib/index.js"));
const sqlite3 = require("./peer.cjs");

const args = Object.fromEntries(process.argv.slice(2).join("=").split(/=?--/).filter(Boolean).map((a) => a.split("=")));
const N = Number(String(args.n ?? "100000").replace(/k$/, "000").replace(/M$/, "000000"));
const RUNS = Number(args.runs ?? 3);
const LOOKUP_PASSES = 5;
const RANGE_QUERIES = 3;
const M = Math.min(N, 20000);

const schema = [{ name: "Person", primaryKey: "id", properties: {
  id: "int", name: { type: "string", indexed: true }, age: "int", email: "string", score: "double", active: "bool" } }];
const person = (i) => ({ id: i, name: `name${i}`, age: 18 + ((i * 7) % 60), email: `user${i}@example.com`, score: i * 0.5, active: i % 2 === 0 });
const names = Array.from({ length: 1000 }, (_, k) => `name${1 + Math.floor((k * N) / 1000)}`);
const lookups = Array.from({ length: LOOKUP_PASSES }, () => names).flat();

const now = () => Number(process.hrtime.bigint()) / 1e9;
async function timed(fn) {
  const start = now();
  const result = await fn();
  return [now() - start, result];
}

// ---- Drumlin: the calls docs/javascript.md shows
async function drumlinRun(dir) {
  const realm = new Realm({ path: join(dir, "d.realm"), schema });
  const people = Array.from({ length: N }, (_, k) => person(k + 1));
  const out = {};
  [out.insert] = await timed(() => realm.write(() => { for (const p of people) realm.create("Person", p); }));
  let check = 0;
  [out.get] = await timed(() => {
    for (let i = 1; i <= N; i++) {
      const o = realm.objectForPrimaryKey("Person", i);
      check += o.id + o.name.length + o.age + o.email.length + o.score + (o.active ? 1 : 0);
    }
  });
  let found = 0;
  [out.lookup] = await timed(() => {
    const all = realm.objects("Person");
    for (const name of lookups) for (const o of all.filtered("name == $0", name)) { found += o.name.length; }
  });
  let ranged = 0;
  [out.range] = await timed(() => {
    for (let q = 0; q < RANGE_QUERIES; q++) for (const o of realm.objects("Person").filtered("age BETWEEN {30, 40}")) { ranged += o.id + o.name.length; }
  });
  [out.update] = await timed(() => realm.write(() => {
    for (let i = 1; i <= M; i++) realm.objectForPrimaryKey("Person", i).score = i * 0.5 + 1;
  }));
  const updated = realm.objects("Person").filtered("id <= $0", M).sum("score");
  realm.close();
  return { times: out, check, found, ranged, updated };
}

// ---- node-sqlite3: prepared statements, transactions, the callback API
const p = (fn) => new Promise((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value))));
async function sqliteRun(dir) {
  const db = new sqlite3.Database(join(dir, "s.db"));
  const exec = (sql) => p((cb) => db.exec(sql, cb));
  await exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;" +
    "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, email TEXT, score REAL, active INTEGER);" +
    "CREATE INDEX person_name ON person(name);");
  const people = Array.from({ length: N }, (_, k) => person(k + 1));
  const out = {};
  [out.insert] = await timed(async () => {
    await exec("BEGIN");
    const insert = db.prepare("INSERT INTO person VALUES (?,?,?,?,?,?)");
    for (const x of people) insert.run(x.id, x.name, x.age, x.email, x.score, x.active ? 1 : 0);
    await p((cb) => insert.finalize(cb));
    await exec("COMMIT");
  });
  let check = 0;
  [out.get] = await timed(async () => {
    const get = db.prepare("SELECT id, name, age, email, score, active FROM person WHERE id = ?");
    for (let i = 1; i <= N; i++) {
      const r = await p((cb) => get.get(i, cb));
      check += r.id + r.name.length + r.age + r.email.length + r.score + (r.active ? 1 : 0);
    }
    await p((cb) => get.finalize(cb));
  });
  let found = 0;
  [out.lookup] = await timed(async () => {
    const lookup = db.prepare("SELECT id, name, age, email, score, active FROM person WHERE name = ?");
    for (const name of lookups) for (const r of await p((cb) => lookup.all(name, cb))) found += r.name.length;
    await p((cb) => lookup.finalize(cb));
  });
  let ranged = 0;
  [out.range] = await timed(async () => {
    const range = db.prepare("SELECT id, name, age, email, score, active FROM person WHERE age BETWEEN ? AND ?");
    for (let q = 0; q < RANGE_QUERIES; q++) for (const r of await p((cb) => range.all(30, 40, cb))) ranged += r.id + r.name.length;
    await p((cb) => range.finalize(cb));
  });
  [out.update] = await timed(async () => {
    await exec("BEGIN");
    const update = db.prepare("UPDATE person SET score = ? WHERE id = ?");
    for (let i = 1; i <= M; i++) update.run(i * 0.5 + 1, i);
    await p((cb) => update.finalize(cb));
    await exec("COMMIT");
  });
  const updated = (await p((cb) => db.get("SELECT sum(score) AS s FROM person WHERE id <= ?", M, cb))).s;
  await p((cb) => db.close(cb));
  return { times: out, check, found, ranged, updated };
}

const steps = [
  ["insert", `bulk insert (${N} in one write)`, N],
  ["get", "get by primary key + read all 6 properties", N],
  ["lookup", `1000 indexed lookups (${LOOKUP_PASSES} times), read name`, lookups.length],
  ["range", `range age 30..40, read 2 properties (${RANGE_QUERIES} queries)`, RANGE_QUERIES],
  ["update", `${M} updates in one write (get + obj.score = x)`, M],
];
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M/s` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k/s` : `${x.toFixed(0)}/s`);

const results = { drumlin: [], sqlite3: [] };
for (let run = 0; run < RUNS; run++) {
  for (const [system, fn] of [["drumlin", drumlinRun], ["sqlite3", sqliteRun]]) {
    const dir = mkdtempSync(join(tmpdir(), "drumlin-bench-node-"));
    try {
      results[system].push(await fn(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
// Both read the same data.
for (const key of ["check", "found", "ranged", "updated"]) assert.equal(results.drumlin[0][key], results.sqlite3[0][key], key);

console.log(`## Node.js: Drumlin vs node-sqlite3 (N = ${N}, median of ${RUNS} runs)\n`);
console.log(`node ${process.version}; Debian's node-sqlite3 on SQLite ${sqlite3.VERSION}; Drumlin through bindings/node.\n`);
console.log("| step | Drumlin (documented calls) | node-sqlite3 (prepared, in transactions) | ratio |");
console.log("|---|---:|---:|---:|");
for (const [key, label, ops] of steps) {
  const d = ops / median(results.drumlin.map((r) => r.times[key]));
  const s = ops / median(results.sqlite3.map((r) => r.times[key]));
  console.log(`| ${label} | ${rate(d)} | ${rate(s)} | ${(d / s).toFixed(2)}× |`);
}
console.log("\nTarget: ratio >= 1.0× on every step. Ops: objects for insert/get/update, lookups, queries for range.");
