"""The hostile-file generator (issue #45, "The suite of your own"): files changed behind Drumlin's
back in the ways the reliability probes found (metadata edits, planted schema objects, values of
the wrong type, truncation, bit flips), generated from a seed. Every generated file either opens
and reads the objects it was made with, or is refused with a drumlin error (CORRUPT, FILE, or a
migration error for a changed stored schema), and a refused open leaves the file byte-identical;
a read of a damaged object is CORRUPT. Never INTERNAL, another exception, a crash or a value that
was not written — except after a bit flip in a value's bytes, which SQLite keeps no checksum to
find (only the absence of INTERNAL and crashes is asserted for bit flips).

A child process runs the cases, so that a crash fails the test with the case that caused it.
``make test`` runs ``DRUMLIN_HOSTILE_FILES`` (default 60) cases; ``make stress`` many more, with a
random ``DRUMLIN_FUZZ_SEED`` (printed on failure)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.stress

CASES = int(os.environ.get("DRUMLIN_HOSTILE_FILES", "60"))
SEED = int(os.environ.get("DRUMLIN_FUZZ_SEED", "45"))

GENERATOR = r"""
import hashlib, json, os, random, shutil, sqlite3, sys
sys.path.insert(0, sys.argv[1])
import drumlin
workdir, seed, cases = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)

SCHEMA = [
    {"name": "T", "primaryKey": "id", "properties": {"id": "int", "label": "string"}},
    {"name": "Item", "properties": {
        "name": "string", "n": "int?", "d": "double", "flag": "bool", "link": "T?", "m": "mixed",
        "oid": "objectId?", "tags": "string[]", "links": "T[]",
        "body": {"type": "string", "indexed": "full-text"}, "code": {"type": "string", "indexed": True}}},
]
ALLOWED = (drumlin.CorruptError, drumlin.FileError)
SCHEMA_CHANGED = (drumlin.MigrationRequiredError, drumlin.MigrationError, drumlin.SchemaValidationError)

base = os.path.join(workdir, "base.drumlin")
with drumlin.open(base, SCHEMA) as db:
    with db.write():
        ts = [db.create("T", {"id": i, "label": f"t{i}"}) for i in range(3)]
        for i in range(6):
            db.create("Item", {"name": f"item {i}", "n": i if i % 2 else None, "d": i / 4, "flag": i % 3 == 0,
                               "link": ts[i % 3], "m": [1, "two", 3.5][i % 3], "tags": [f"x{i}", "y"],
                               "links": ts[: i % 3], "body": f"hello world {i}", "code": f"c{i}"})
    expected = {name: sorted(json.dumps(row, sort_keys=True, default=str) for row in db.objects(name).to_dicts(json=True))
                for name in ("T", "Item")}
c = sqlite3.connect(base)
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.close()

TEXT_BAD = ["x'00ff'", "NULL", "CAST(x'fffe' AS TEXT)"]
# Values each column's type cannot hold (and SQLite's column affinity does not convert into one
# it can): a read must refuse them, never show them as something else.
BAD = {
    ("Item", "name"): TEXT_BAD, ("Item", "code"): TEXT_BAD, ("Item", "body"): TEXT_BAD, ("T", "label"): TEXT_BAD,
    ("Item", "n"): ["'text'", "1.5", "x'00'"],
    ("Item", "d"): ["'text'", "x'00ff'", "NULL"],
    ("Item", "flag"): ["'text'", "1.5", "NULL", "x''"],
    ("Item", "link"): ["'text'", "1.5", "x'00'"],
    ("Item", "oid"): ["x'0102'", "'text'", "5"],
}

def sql(path, script):
    c = sqlite3.connect(path)
    c.executescript(script)
    c.commit()
    c.close()

def metadata_edit(path):
    kind = rng.randrange(7)
    if kind == 0:
        prop, to = rng.choice([("name", "int"), ("n", "string?"), ("d", "string"), ("flag", "double"), ("code", "data")])
        old = {"name": "string", "n": "int?", "d": "double", "flag": "bool", "code": "string"}[prop]
        c = sqlite3.connect(path)
        (definition,) = c.execute("SELECT definition FROM _drumlin_classes WHERE table_name = 'Item'").fetchone()
        spec = json.loads(definition)
        for p in spec["properties"] if isinstance(spec["properties"], list) else []:
            if p.get("name") == prop:
                p["type"] = to.rstrip("?")
                p["optional"] = to.endswith("?")
        if isinstance(spec["properties"], dict) and prop in spec["properties"]:
            value = spec["properties"][prop]
            if isinstance(value, dict):
                value["type"] = to.rstrip("?"); value["optional"] = to.endswith("?")
            else:
                spec["properties"][prop] = to
        c.execute("UPDATE _drumlin_classes SET definition = ? WHERE table_name = 'Item'", (json.dumps(spec),))
        c.commit(); c.close()
        return f"definition of Item.{prop} {old} -> {to}"
    if kind == 1:
        sql(path, "DELETE FROM _drumlin_classes WHERE table_name = 'T'")
        return "catalogue row of T deleted"
    if kind == 2:
        sql(path, "UPDATE _drumlin_classes SET definition = '{not json' WHERE table_name = 'Item'")
        return "definition garbage"
    if kind == 3:
        value = rng.choice(["'x'", "99", "-5", "NULL", "0"])
        sql(path, f"UPDATE _drumlin_meta SET value = {value} WHERE key = 'format'")
        return f"format = {value}"
    if kind == 4:
        sql(path, 'ALTER TABLE "Item" ADD COLUMN "extra" TEXT')
        return "column the catalogue does not list"
    if kind == 5:
        column = rng.choice(["label"])
        sql(path, f'ALTER TABLE "T" DROP COLUMN "{column}"')
        return f"column T.{column} dropped"
    value = rng.choice(["'abc'", "99", "-1", "NULL"])
    sql(path, f"UPDATE _drumlin_meta SET value = {value} WHERE key = 'schema_version'")
    return f"schema_version = {value}"

def planted(path):
    choices = [
        'CREATE TRIGGER "t" AFTER INSERT ON "Item" BEGIN DELETE FROM "Item"; END',
        'CREATE TRIGGER "t" BEFORE UPDATE ON "T" BEGIN SELECT RAISE(ABORT, \'no\'); END',
        'CREATE UNIQUE INDEX "u" ON "Item" ("flag")',
        'CREATE INDEX "p" ON "Item" ("n") WHERE "n" > 2',
        'CREATE INDEX "e" ON "Item" (length("name"))',
        'CREATE VIEW "v" AS SELECT 1',
        'CREATE TABLE "stranger" (a, b)',
        'CREATE INDEX "plain" ON "T" ("label")',
        'ALTER TABLE "Item" ADD COLUMN "g" INTEGER GENERATED ALWAYS AS (1) VIRTUAL',
        'ALTER TABLE "Item" ADD COLUMN "nn" TEXT NOT NULL DEFAULT \'\'',
        "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, '\"n\" INTEGER', '\"n\" INTEGER CHECK (\"n\" < 3)') WHERE name = 'Item'",
        "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, '\"label\" TEXT', '\"label\" TEXT COLLATE NOCASE') WHERE name = 'T'",
    ]
    script = rng.choice(choices)
    sql(path, script)
    return "planted: " + script[:80]

def wrong_value(path):
    if rng.random() < 0.3:
        # Tags whose type none of the stored values (1, "two", 3.5) has: 4 data, 9 objectId, 11 uuid.
        tag = rng.choice([999, -3, 12, 13, 10, 4, 9, 11])
        sql(path, f'UPDATE "Item" SET "_drumlin_type_m" = {tag} WHERE "_drumlin_key" = {rng.randint(1, 6)}')
        return f"mixed tag = {tag}"
    if rng.random() < 0.2:
        value = rng.choice(TEXT_BAD)
        sql(path, f'UPDATE "_drumlin_list_4_Item_tags" SET value = {value} WHERE owner = 1')
        return f"list element = {value}"
    table, column = rng.choice(list(BAD))
    value = rng.choice(BAD[(table, column)])
    key = "_drumlin_key" if table == "Item" else "id"
    sql(path, f'UPDATE "{table}" SET "{column}" = {value} WHERE "{key}" = (SELECT min("{key}") FROM "{table}")')
    return f"{table}.{column} = {value}"

def truncate(path):
    size = os.path.getsize(path)
    cut = rng.randrange(1, size)
    with open(path, "r+b") as f:
        f.truncate(cut)
    return f"cut to {cut} of {size} bytes"

def flip(path):
    data = bytearray(open(path, "rb").read())
    flips = []
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data))
        bit = 1 << rng.randrange(8)
        data[at] ^= bit
        flips.append(at)
    open(path, "wb").write(bytes(data))
    return f"bits flipped at {flips}"

MUTATIONS = [metadata_edit, planted, wrong_value, truncate, flip]

def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.exists(path) else None

def read_all(db, strict):
    for name in ("T", "Item"):
        try:
            rows = sorted(json.dumps(row, sort_keys=True, default=str) for row in db.objects(name).to_dicts(json=True))
        except drumlin.CorruptError:
            continue
        if strict and rows != expected[name]:
            raise AssertionError(f"{name} read other values than were written: {rows[:2]} ...")
        for obj in db.objects(name):
            try:
                obj.to_dict()
            except drumlin.CorruptError:
                pass
    db.check()

failures = 0
for case in range(cases):
    path = os.path.join(workdir, f"case{case}.drumlin")
    shutil.copy(base, path)
    mutation = MUTATIONS[case % len(MUTATIONS)] if case < len(MUTATIONS) else rng.choice(MUTATIONS)
    try:
        what = mutation(path)
    except sqlite3.Error as error:   # the mutation itself could not be made: nothing to test
        continue
    strict = mutation is not flip
    for mode in ("read_only", "no_schema", "write"):  # the write last: it adds an object
        before = digest(path)
        try:
            if mode == "write":
                db = drumlin.open(path, SCHEMA)
            elif mode == "read_only":
                db = drumlin.open(path, SCHEMA, read_only=True)
            else:
                db = drumlin.open(path, read_only=True)
        except ALLOWED + SCHEMA_CHANGED as error:
            if isinstance(error, SCHEMA_CHANGED) and mutation is not metadata_edit and strict:
                print(f"FAIL case {case} ({what}), {mode}: {type(error).__name__}: {error}", flush=True)
                failures += 1
            if digest(path) != before:
                print(f"FAIL case {case} ({what}), {mode}: a refused open changed the file", flush=True)
                failures += 1
            continue
        except Exception as error:
            print(f"FAIL case {case} ({what}), {mode}: {type(error).__name__}: {error}", flush=True)
            failures += 1
            continue
        try:
            read_all(db, strict)
            if mode == "write":
                try:
                    with db.write():
                        db.create("T", {"id": 100 + case, "label": "new"})
                except ALLOWED:
                    pass
        except (AssertionError, Exception) as error:
            if isinstance(error, ALLOWED) and not isinstance(error, AssertionError):
                pass
            else:
                print(f"FAIL case {case} ({what}), {mode}: {type(error).__name__}: {error}", flush=True)
                failures += 1
        finally:
            db.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
print(f"{cases} cases, {failures} failures (seed {seed})", flush=True)
sys.exit(1 if failures else 0)
"""


def test_generated_hostile_files_open_correctly_or_are_refused(tmp_path: Path) -> None:
    package = str(Path(__file__).resolve().parents[1])
    result = subprocess.run(
        [sys.executable, "-c", GENERATOR, package, str(tmp_path), str(SEED), str(CASES)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, f"seed {SEED}:\n{report[-6000:]}"
    assert f"{CASES} cases, 0 failures" in result.stdout
