#!/usr/bin/env python3
"""object_api.py — the Python steps users write with the documented object API, next to the
one-call variants and Python's sqlite3 (issue #20). Person workload of bench.py, in one process
per run, medians of --runs. Prints a markdown table with the targets; nothing is asserted.

    python3 bench/object_api.py [--n 100000] [--runs 3]
"""
from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bindings", "python"))
import drumlin  # noqa: E402
import bounds  # noqa: E402  (bench/bounds.py: each step's library calls timed alone)
from run import fmt_rate  # noqa: E402  (bench/run.py: k/s, M/s, or /s below 1000)

SCHEMA = [{"name": "Person", "primaryKey": "id", "properties": {
    "id": "int", "name": {"type": "string", "indexed": True}, "age": "int",
    "email": "string", "score": "double", "active": "bool"}}]
COLS = "id, name, age, email, score, active"


def person(i: int) -> tuple:
    return (i, f"name{i}", 18 + (i * 7) % 60, f"user{i}@example.com", i * 0.5, i % 2 == 0)


def setup(n: int, where: str):
    db = drumlin.open(os.path.join(where, "d.drumlin"), schema=SCHEMA)
    keys = ("id", "name", "age", "email", "score", "active")
    with db.write():
        db.create_many("Person", [dict(zip(keys, person(i))) for i in range(1, n + 1)])
    con = sqlite3.connect(os.path.join(where, "s.db"), isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, email TEXT, score REAL, active INTEGER)")
    con.execute("CREATE INDEX person_name ON person(name)")
    con.execute("BEGIN")
    con.executemany("INSERT INTO person VALUES (?,?,?,?,?,?)", [person(i) for i in range(1, n + 1)])
    con.execute("COMMIT")
    return db, con


LOOKUP_PASSES = 5
RANGE_QUERIES = 3

MODEL_WAY = "object API, model class: db.get(Person, i) then attributes"


def person_model() -> type:
    """The Person class as a model class (issue #16: reading through it costs no more than
    through the dynamic object)."""

    class Person(drumlin.Object):
        id: int = drumlin.persisted(primary_key=True)
        name: str = drumlin.persisted(default="", indexed=True)
        age: int = 0
        email: str = ""
        score: float = 0.0
        active: bool = False

    return Person


def steps(db, con, n: int):
    ids = range(1, n + 1)
    names = [f"name{1 + k * n // 1000}" for k in range(1000)]
    # One pass of 1000 lookups or one range query takes ~8 or ~22 ms, where this 2-core machine's
    # noise is a few ms: each run makes LOOKUP_PASSES passes and RANGE_QUERIES queries.
    lookups = names * LOOKUP_PASSES

    def get_obj():
        get = db.get
        for i in ids:
            o = get("Person", i)
            o.id, o.name, o.age, o.email, o.score, o.active

    model = person_model()

    def get_model():
        get = db.get
        for i in ids:
            o = get(model, i)
            o.id, o.name, o.age, o.email, o.score, o.active

    def get_dict():
        get = db.get_dict
        for i in ids:
            get("Person", i)

    def get_sql():
        ex = con.execute
        sql = f"SELECT {COLS} FROM person WHERE id = ?"
        for i in ids:
            r = ex(sql, (i,)).fetchone()
            r[0], r[1], r[2], r[3], r[4], r[5]

    def lookup_obj():
        for name in lookups:
            for o in db.query("Person", "name == $0", name):
                o.name

    def lookup_dicts():
        for name in lookups:
            for d in db.query_dicts("Person", "name == $0", name):
                d["name"]

    def lookup_sql():
        sql = f"SELECT {COLS} FROM person WHERE name = ?"
        for name in lookups:
            for r in con.execute(sql, (name,)).fetchall():
                r[1]

    def range_obj():
        for _ in range(RANGE_QUERIES):
            for o in db.query("Person", "age BETWEEN {30, 40}"):
                o.id, o.name

    def range_dicts():
        for _ in range(RANGE_QUERIES):
            for d in db.query_dicts("Person", "age BETWEEN {30, 40}"):
                d["id"], d["name"]

    def range_sql():
        for _ in range(RANGE_QUERIES):
            for r in con.execute(f"SELECT {COLS} FROM person WHERE age BETWEEN ? AND ?", (30, 40)).fetchall():
                r[0], r[1]

    m = min(n, 20000)

    # Every update writes values other than the stored ones (the scores start at i * 0.5); the
    # resets put the starting scores back after each timing, untimed.
    def update_obj():
        with db.write():
            get = db.get
            for i in range(1, m + 1):
                get("Person", i).score = i * 0.5 + 1

    def update_sql():
        con.execute("BEGIN")
        ex = con.execute
        for i in range(1, m + 1):
            ex("UPDATE person SET score = ? WHERE id = ?", (i * 0.5 + 1, i))
        con.execute("COMMIT")

    objs = list(db.query("Person", "id <= $0", m))

    def set_obj():
        with db.write():
            for i, o in enumerate(objs):
                o.score = i + 0.25

    def reset_obj():
        with db.write():
            for i, o in enumerate(objs):
                o.score = (i + 1) * 0.5
        bounds.settle(db=db)

    def reset_sql():
        con.execute("UPDATE person SET score = id * 0.5 WHERE id <= ?", (m,))
        bounds.settle(con=con)

    keys = list(range(1, m + 1))
    return [
        ("get + read all 6 attributes", n, [("object API: db.get(...) then attributes", get_obj),
                                           (MODEL_WAY, get_model),
                                           ("one call: db.get_dict", get_dict),
                                           (bounds.WAY, bounds.get(db, "Person", ids))], get_sql),
        (f"1000 indexed lookups ({LOOKUP_PASSES} times), read name", len(lookups), [("object API: iterate db.query(...)", lookup_obj),
                                                  ("one call: db.query_dicts", lookup_dicts),
                                                  (bounds.WAY, bounds.query(db, "Person", "name == $0",
                                                                            [(name,) for name in lookups])),
                                                  (bounds.FLOOR, bounds.query_floor(db, "Person", "name == $0",
                                                                                    [(name,) for name in lookups],
                                                                                    ("name",)))],
         lookup_sql),
        (f"range age 30..40, read 2 attributes ({RANGE_QUERIES} a run; queries)", RANGE_QUERIES, [("object API: iterate db.query(...)", range_obj),
                                                              ("one call: db.query_dicts", range_dicts),
                                                              (bounds.WAY, bounds.query(db, "Person", "age BETWEEN {30, 40}",
                                                                                        [()] * RANGE_QUERIES)),
                                                              (bounds.FLOOR, bounds.query_floor(
                                                                  db, "Person", "age BETWEEN {30, 40}", [()] * RANGE_QUERIES,
                                                                  ("id", "name"))),
                                                              (bounds.GUARDED_FLOOR, bounds.query_floor(
                                                                  db, "Person", "age BETWEEN {30, 40}", [()] * RANGE_QUERIES,
                                                                  ("id", "name"), guarded=True))], range_sql),
        (f"{m} updates in one write", m, [("object API: db.get(...).score = x", update_obj),
                                          (bounds.WAY + ", with the get", bounds.update(
                                              db, "Person", keys, "score", [i * 0.5 + 1 for i in keys], True)),
                                          ("object API: obj.score = x on objects read before", set_obj),
                                          (bounds.WAY, bounds.update(
                                              db, "Person", keys, "score", [i + 0.25 for i in range(m)], False)),
                                          (bounds.FLOOR, bounds.update_floor(
                                              db, "Person", keys, "score", "i + 0.25"))],
         update_sql, (reset_obj, reset_sql)),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    where = tempfile.mkdtemp(prefix="drumlin-objapi-")
    try:
        db, con = setup(args.n, where)
        plan = steps(db, con, args.n)
        medians = bounds.time_plan(plan, args.runs)
        print(f"## Python object API vs sqlite3 (N = {args.n}, median of {args.runs})\n")
        print("| step | way | Drumlin | sqlite3 | ratio | target | met? |")
        print("|---|---|---|---|---|---|---|")
        for label, ops, variants, *_ in plan:
            base = medians[label + "|sqlite3"]
            times = [medians[label + "|" + name] for name, _fn in variants]
            targeted = [name.startswith("object API") for name, _fn in variants]
            verdicts = bounds.verdicts([(name, base / t, on) for (name, _fn), t, on in zip(variants, times, targeted)])
            for (name, _fn), t, on, met in zip(variants, times, targeted, verdicts):
                target = "≥ 1.0× sqlite3" if on else "—"
                print(f"| {label} | {name} | {fmt_rate(ops / t)} | {fmt_rate(ops / base)} | {base / t:.2f}× | {target} | {met} |")
        model = medians["get + read all 6 attributes|" + MODEL_WAY]
        dynamic = medians["get + read all 6 attributes|object API: db.get(...) then attributes"]
        print(f"\nModel class against the dynamic object (get + 6 attributes): {dynamic / model:.2f}× "
              f"(target ≥ 1.0×, within noise: {'met' if dynamic / model >= 0.95 else 'MISSED'})")
        db.close()
        con.close()
    finally:
        shutil.rmtree(where, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
