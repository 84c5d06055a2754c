#!/usr/bin/env python3
"""task_api.py — a realistic schema through the documented Python object API, next to the
one-call variants and Python's sqlite3 with an equivalent hand-written schema (issue #20 item 4).
Medians of --runs, one process; prints a markdown table with the ratios and targets. Nothing is
asserted here (the checks below only make sure every system read the same data).

    python3 bench/task_api.py [--n 50000] [--runs 3] [--steps all|insert|read]

The schema (Drumlin):

    User     {id int primary key, name string}
    Task     {id int primary key, title string, done bool, due date, estimate decimal128?,
              extra mixed, owner User?, tags string[], location Location?}
    Location (embedded) {city string, street string}

and the same data in sqlite3 (foreign keys on, WAL, synchronous=NORMAL, as Drumlin):

    users(id INTEGER PRIMARY KEY, name TEXT NOT NULL)
    tasks(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL, due TEXT NOT NULL,
          estimate TEXT, extra ANY, owner_id INTEGER REFERENCES users(id),
          location_city TEXT, location_street TEXT)        -- the embedded object inline
    task_tags(task_id INTEGER NOT NULL REFERENCES tasks(id), position INTEGER NOT NULL,
              tag TEXT NOT NULL, PRIMARY KEY (task_id, position)) WITHOUT ROWID

Dates are ISO 8601 text (``datetime.isoformat()``, read back with ``datetime.fromisoformat``),
decimals their text (``str``, read back with ``Decimal``): what a sqlite3 user writes to get the
same Python values back. Both systems start from the same list of dicts (Python values: datetime,
Decimal, nested list and dict); the sqlite3 side's flattening into rows is timed, as it is the
code its users write.
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bindings", "python"))
import drumlin  # noqa: E402
import bounds  # noqa: E402  (bench/bounds.py: each step's library calls timed alone)
from run import fmt_rate  # noqa: E402  (bench/run.py: k/s, M/s, or /s below 1000)
from task_data import task, users_count  # noqa: E402  (the data, shared with bench/orm_peers.py)

SCHEMA = [
    {"name": "User", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
    {"name": "Task", "primaryKey": "id", "properties": {
        "id": "int", "title": "string", "done": "bool", "due": "date", "estimate": "decimal128?",
        "extra": "mixed", "owner": "User", "tags": "string[]", "location": "Location"}},
    {"name": "Location", "embedded": True, "properties": {"city": "string", "street": "string"}},
]
SQL_SCHEMA = """
CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE tasks(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL, due TEXT NOT NULL,
                   estimate TEXT, extra ANY, owner_id INTEGER REFERENCES users(id),
                   location_city TEXT, location_street TEXT);
CREATE TABLE task_tags(task_id INTEGER NOT NULL REFERENCES tasks(id), position INTEGER NOT NULL,
                       tag TEXT NOT NULL, PRIMARY KEY (task_id, position)) WITHOUT ROWID;
"""
def open_drumlin(path: str, users: int):
    db = drumlin.open(path, schema=SCHEMA)
    with db.write():
        db.create_many("User", [{"id": u, "name": f"user{u}"} for u in range(1, users + 1)])
    return db


def open_sqlite(path: str, users: int):
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("PRAGMA foreign_keys=ON")
    con.executescript(SQL_SCHEMA)
    con.execute("BEGIN")
    con.executemany("INSERT INTO users VALUES (?, ?)", [(u, f"user{u}") for u in range(1, users + 1)])
    con.execute("COMMIT")
    return con


def sqlite_insert(con, tasks: list[dict]) -> None:
    rows = []
    tag_rows = []
    for t in tasks:
        estimate = t["estimate"]
        location = t["location"]
        rows.append((t["id"], t["title"], t["done"], t["due"].isoformat(),
                     None if estimate is None else str(estimate), t["extra"], t["owner"],
                     location["city"], location["street"]))
        tid = t["id"]
        tag_rows.extend((tid, k, tag) for k, tag in enumerate(t["tags"]))
    con.execute("BEGIN")
    con.executemany("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    con.executemany("INSERT INTO task_tags VALUES (?, ?, ?)", tag_rows)
    con.execute("COMMIT")


def insert_steps(n: int, where: str, runs: int) -> tuple[list, dict]:
    """create_many on fresh files (links by primary key, and by object) against sqlite3."""
    users = users_count(n)
    tasks = [task(i, users) for i in range(1, n + 1)]
    times: dict[str, list[float]] = {}

    def timed(name: str, fn) -> None:
        gc.collect()
        t0 = time.perf_counter()
        fn()
        times.setdefault(name, []).append(time.perf_counter() - t0)

    for run in range(runs):
        path = os.path.join(where, f"insert-{run}")
        con = open_sqlite(path + ".db", users)
        timed("sqlite3", lambda: sqlite_insert(con, tasks))
        (count,) = con.execute("SELECT count(*) FROM task_tags").fetchone()
        assert count == sum(len(t["tags"]) for t in tasks), count
        con.close()

        db = open_drumlin(path + "-pk.drumlin", users)

        def by_key() -> None:
            with db.write():
                db.create_many("Task", tasks)

        timed("pk", by_key)
        assert db.count("Task") == n
        db.close()

        db = open_drumlin(path + "-obj.drumlin", users)
        people = {u.id: u for u in db.objects("User")}
        with_objects = [dict(t, owner=people[t["owner"]]) for t in tasks]

        def by_object() -> None:
            with db.write():
                db.create_many("Task", with_objects)

        timed("obj", by_object)
        assert db.get("Task", n).owner.name == f"user{tasks[-1]['owner']}"
        db.close()
    sql = statistics.median(times["sqlite3"])
    rows = [
        (f"insert {n} tasks in one write", n, "create_many, owner by primary key", statistics.median(times["pk"]), sql),
        (f"insert {n} tasks in one write", n, "create_many, owner as an Object", statistics.median(times["obj"]), sql),
    ]
    return rows, times


def read_steps(n: int, where: str, runs: int) -> list:
    users = users_count(n)
    tasks = [task(i, users) for i in range(1, n + 1)]
    db = open_drumlin(os.path.join(where, "read.drumlin"), users)
    with db.write():
        db.create_many("Task", tasks)
    con = open_sqlite(os.path.join(where, "read.db"), users)
    sqlite_insert(con, tasks)
    m = min(n, 20000)
    ids = range(1, m + 1)
    expected_tags = sum(len(tasks[i - 1]["tags"]) for i in ids)

    def get_obj():
        get = db.get
        tags = 0
        for i in ids:
            t = get("Task", i)
            t.id, t.title, t.done, t.due, t.estimate, t.extra, t.owner.name
            tags += len(list(t.tags))
            location = t.location
            location.city, location.street
        assert tags == expected_tags

    def get_dict():
        get = db.get_dict
        for i in ids:
            get("Task", i)

    def get_sql():
        ex = con.execute
        task_sql = ("SELECT t.id, t.title, t.done, t.due, t.estimate, t.extra, u.name, t.location_city, "
                    "t.location_street FROM tasks t LEFT JOIN users u ON u.id = t.owner_id WHERE t.id = ?")
        tag_sql = "SELECT tag FROM task_tags WHERE task_id = ? ORDER BY position"
        fromiso = datetime.fromisoformat
        tags = 0
        for i in ids:
            r = ex(task_sql, (i,)).fetchone()
            r[0], r[1], bool(r[2]), fromiso(r[3]), None if r[4] is None else Decimal(r[4]), r[5], r[6], r[7], r[8]
            tags += len([row[0] for row in ex(tag_sql, (i,))])
        assert tags == expected_tags

    open_count = sum(1 for t in tasks if not t["done"])

    def iterate_obj():
        count = 0
        for t in db.query("Task", "done == false"):
            t.title, t.due, t.owner
            count += 1
        assert count == open_count

    def iterate_dicts():
        assert len(db.query_dicts("Task", "done == false")) == open_count

    def iterate_sql():
        fromiso = datetime.fromisoformat
        count = 0
        for r in con.execute("SELECT title, due, owner_id FROM tasks WHERE done = 0"):
            r[0], fromiso(r[1]), r[2]
            count += 1
        assert count == open_count

    def to_dicts():
        assert len(db.objects("Task").to_dicts()) == n

    def to_dicts_sql():
        # Every task as a dict, as to_dicts() gives it (owner as its key, the embedded object
        # as a dict, tags as a list): two queries merged in Python.
        fromiso = datetime.fromisoformat
        tags: dict[int, list[str]] = {}
        for tid, tag in con.execute("SELECT task_id, tag FROM task_tags ORDER BY task_id, position"):
            tags.setdefault(tid, []).append(tag)
        out = []
        for r in con.execute("SELECT * FROM tasks ORDER BY id"):
            out.append({"id": r[0], "title": r[1], "done": bool(r[2]), "due": fromiso(r[3]),
                        "estimate": None if r[4] is None else Decimal(r[4]), "extra": r[5], "owner": r[6],
                        "tags": tags.get(r[0], []), "location": {"city": r[7], "street": r[8]}})
        assert len(out) == n

    # The updates write the opposite of each task's own done (every write changes what is stored);
    # the resets put the own values back after each timing, untimed, so the reads see the same data
    # in every run.
    def update_obj():
        with db.write():
            get = db.get
            for i in ids:
                get("Task", i).done = i % 3 != 0

    objs = list(db.query("Task", "id <= $0", m))

    def set_obj():
        with db.write():
            for i, t in enumerate(objs):
                t.done = (i + 1) % 3 != 0

    def update_sql():
        con.execute("BEGIN")
        ex = con.execute
        for i in ids:
            ex("UPDATE tasks SET done = ? WHERE id = ?", (i % 3 != 0, i))
        con.execute("COMMIT")

    def reset_obj():
        with db.write():
            for i, t in enumerate(objs):
                t.done = (i + 1) % 3 == 0
        bounds.settle(db=db)

    def reset_sql():
        con.execute("UPDATE tasks SET done = (id % 3 = 0) WHERE id <= ?", (m,))
        bounds.settle(con=con)

    keys = list(ids)
    plan = [
        (f"get + read every attribute ({m})", m, [("object API: db.get(...), attributes, owner.name, list(tags)", get_obj),
                                                 ("one call: db.get_dict", get_dict),
                                                 (bounds.WAY, bounds.get(db, "Task", ids)),
                                                 (bounds.FLOOR, bounds.get_related_floor(
                                                     db, "Task", ids, ("id", "title", "done", "due", "estimate", "extra"),
                                                     ("owner", ("name",)), "tags", ("location", ("city", "street")))),
                                                 (bounds.GUARDED_FLOOR, bounds.get_related_floor(
                                                     db, "Task", ids, ("id", "title", "done", "due", "estimate", "extra"),
                                                     ("owner", ("name",)), "tags", ("location", ("city", "street")),
                                                     guarded=True))],
         get_sql),
        ("iterate done == false, read 3 attributes (tasks)", open_count,
         [("object API: iterate db.query(...)", iterate_obj), ("one call: db.query_dicts", iterate_dicts),
          (bounds.WAY, bounds.query(db, "Task", "done == false", [()]))], iterate_sql),
        (f"every task as a dict ({n})", n, [("one call: db.objects(...).to_dicts()", to_dicts)], to_dicts_sql),
        (f"{m} updates of done in one write", m, [("object API: db.get(...).done = x", update_obj),
                                                  (bounds.WAY + ", with the get",
                                                   bounds.update(db, "Task", keys, "done", [i % 3 != 0 for i in keys], True)),
                                                  ("object API: obj.done = x on objects read before", set_obj),
                                                  (bounds.WAY, bounds.update(db, "Task", keys, "done",
                                                                             [i % 3 != 0 for i in keys], False)),
                                                  (bounds.FLOOR, bounds.update_floor(db, "Task", keys, "done",
                                                                                     "(i + 1) % 3 != 0"))],
         update_sql, (reset_obj, reset_sql)),
    ]
    medians = bounds.time_plan(plan, runs)
    rows = []
    for label, ops, variants, *_ in plan:
        for name, _fn in variants:
            rows.append((label, ops, name, medians[label + "|" + name], medians[label + "|sqlite3"]))
    db.close()
    con.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", choices=("all", "insert", "read"), default="all",
                        help="run only the insert steps (create_many) or only the read and update steps")
    args = parser.parse_args()
    where = tempfile.mkdtemp(prefix="drumlin-task-")
    try:
        rows = insert_steps(args.n, where, args.runs)[0] if args.steps in ("all", "insert") else []
        if args.steps in ("all", "read"):
            rows += read_steps(args.n, where, args.runs)
    finally:
        shutil.rmtree(where, ignore_errors=True)
    print(f"## Python object API on the Task schema vs sqlite3 (N = {args.n} tasks, "
          f"{users_count(args.n)} users, median of {args.runs})\n")
    print("| step | way | Drumlin | sqlite3 | ratio | target | met? |")
    print("|---|---|---|---|---|---|---|")
    targeted = [name.startswith("object API") or name.startswith("create_many") for _label, _ops, name, _t, _base in rows]
    verdicts: list[str] = []
    for label in dict.fromkeys(row[0] for row in rows):  # each step's ways, in order
        verdicts += bounds.verdicts([(name, base / t, on) for (step, _ops, name, t, base), on in zip(rows, targeted)
                                     if step == label])
    for (label, ops, name, t, base), on, met in zip(rows, targeted, verdicts):
        target = "≥ 1.0× sqlite3" if on else "—"
        print(f"| {label} | {name} | {fmt_rate(ops / t)} | {fmt_rate(ops / base)} | {base / t:.2f}× | {target} | {met} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
