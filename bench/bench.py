#!/usr/bin/env python3
"""bench.py — the Python half of Drumlin's benchmark harness (see bench/README.md).

Times the same Person workload on Python's sqlite3, Drumlin's Python package and (when they can be
imported) ObjectBox's Python package, SQLAlchemy 2's ORM and peewee (the last two in orm_peers.py).
Each system runs in its own process per run (this script re-invokes itself with --worker), so peak
RSS is per system and per run.

Output: one JSON object per line on stdout (measurements), progress on stderr; bench/run.py turns
them into tables. Nothing here judges a number.

    python3 bench/bench.py --n 100000 [--runs 3] [--systems sqlite3,drumlin,objectbox,sqlalchemy,peewee]
                           [--steps insert,get,lookup,range,update,delete]

Drumlin is imported from bindings/python (next to this directory) with the library named by
DRUMLIN_LIBRARY, as documented in docs/python.md.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ALL_STEPS = ["insert", "get", "lookup", "range", "update", "delete"]
ALL_SYSTEMS = ["sqlite3", "drumlin", "objectbox", "sqlalchemy", "peewee", "drumlin-objects"]
ORM_SYSTEMS = ("sqlalchemy", "peewee", "drumlin-objects")  # bench/orm_peers.py (the last: Drumlin's object API)
LOOKUPS = 1000
RANGE_LO, RANGE_HI = 30, 40

SCHEMA = [{"name": "Person", "primaryKey": "id", "properties": {
    "id": "int", "name": {"type": "string", "indexed": True}, "age": "int",
    "email": "string", "score": "double", "active": "bool"}}]


# ---- the data (the same rule as bench.c) ------------------------------------------------------

def person_tuple(i: int) -> tuple:
    return (i, f"name{i}", 18 + (i * 7) % 60, f"user{i}@example.com", i * 0.5, i % 2 == 0)


def lookup_ids(n: int) -> list[int]:
    return [1 + k * n // LOOKUPS for k in range(LOOKUPS)]


def expected_range(n: int) -> tuple[int, int]:
    rows = ids = 0
    for i in range(1, n + 1):
        if RANGE_LO <= 18 + (i * 7) % 60 <= RANGE_HI:
            rows += 1
            ids += i
    return rows, ids


def rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGESIZE") // 1024)


def peak_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Worker:
    """One system, one run: emits a line per step and one for memory."""

    system = "?"

    def __init__(self, n: int, run: int, steps: list[str], path: str, step_timeout: int = 0) -> None:
        self.n, self.run, self.steps, self.path = n, run, steps, path
        self.ids = range(1, n + 1)
        self.step_timeout = step_timeout
        self.current = "insert"
        if step_timeout:
            signal.signal(signal.SIGALRM, self._timed_out)

    def _timed_out(self, *_args) -> None:
        """A step ran longer than step_timeout: say so and stop (exit status 3); the orchestrator
        leaves the step out of this system's later runs."""
        self.emit(kind="timeout", step=self.current, seconds=self.step_timeout)
        sys.stdout.flush()
        os._exit(3)

    def begin(self, step: str) -> None:
        self.current = step
        if self.step_timeout:
            signal.alarm(self.step_timeout)

    def emit(self, **fields) -> None:
        print(json.dumps({"harness": "python", "system": self.system, "run": self.run, **fields}), flush=True)

    def step(self, name: str, ops: int, rows: int, seconds: float, how: str) -> None:
        self.emit(step=name, ops=ops, rows=rows, seconds=seconds, how=how)

    def skip(self, name: str, reason: str) -> None:
        self.emit(step=name, skipped=reason)

    def check(self, what: str, got, want) -> None:
        if got != want:
            raise AssertionError(f"{self.system}: {what} read the wrong data: {got!r}, expected {want!r}")

    def timed(self, fn, *args):
        gc.collect()
        t0 = time.perf_counter()
        result = fn(*args)
        return time.perf_counter() - t0, result

    def go(self) -> None:
        self.open()
        n = self.n
        baseline = rss_kb()
        data = self.build_input()
        after_input = rss_kb()
        self.input_size = (after_input - baseline) * 1024  # what the Python objects occupy
        self.begin("insert")
        seconds, how = self.timed(self.insert, data)
        insert_peak = peak_rss_kb()
        self.step("insert", n, n, seconds, how)
        del data
        self.check("insert count", self.count(), n)
        names = [f"name{i}" for i in lookup_ids(n)]
        want_range = expected_range(n)
        for name in self.steps[1:]:
            self.begin(name)
            if name == "get":
                seconds, (how, acc) = self.timed(self.get)
                self.step("get", n, n, seconds, how)
                self.check("get (sum of ages)", acc, sum(18 + (i * 7) % 60 for i in self.ids))
            elif name == "lookup":
                reason = self.unavailable("lookup")
                if reason:
                    self.skip("lookup", reason)
                    continue
                seconds, (how, rows, ids) = self.timed(self.lookup, names)
                self.step("lookup", LOOKUPS, rows, seconds, how)
                self.check("lookup rows", rows, LOOKUPS)
                self.check("lookup ids", ids, sum(lookup_ids(n)))
            elif name == "range":
                reason = self.unavailable("range")
                if reason:
                    self.skip("range", reason)
                    continue
                seconds, (how, rows, ids) = self.timed(self.range_query)
                self.step("range", 1, rows, seconds, how)
                self.check("range (rows, ids)", (rows, ids), want_range)
            elif name == "update":
                params = self.update_input()
                seconds, how = self.timed(self.update, params)
                del params
                self.step("update", n, n, seconds, how)
                mid = n // 2 + 1
                self.check("updated score", self.score_of(mid), mid * 0.5 + 1)
            elif name == "delete":
                params = self.delete_input()
                seconds, how = self.timed(self.delete, params)
                del params
                self.step("delete", n, n, seconds, how)
                self.check("count after delete", self.count(), 0)
        signal.alarm(0)
        self.emit(kind="mem", n=n, baseline_kb=baseline, after_input_kb=after_input,
                  input_bytes=self.input_size, input=self.input_what, insert_peak_kb=insert_peak,
                  peak_kb=peak_rss_kb())
        self.close()

    # defaults
    input_size = 0
    input_what = ""

    def unavailable(self, step: str) -> str | None:
        return None

    def update_input(self):
        return None

    def delete_input(self):
        return None


# ---- Python's sqlite3 ---------------------------------------------------------------------------

class Sqlite3Worker(Worker):
    system = "sqlite3"
    COLS = "id, name, age, email, score, active"

    def open(self) -> None:
        import sqlite3
        self.con = sqlite3.connect(self.path, isolation_level=None)  # autocommit; explicit BEGIN/COMMIT
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=NORMAL")
        self.con.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, email TEXT, "
                         "score REAL, active INTEGER)")
        self.con.execute("CREATE INDEX person_name ON person(name)")

    def build_input(self):
        rows = [person_tuple(i) for i in self.ids]
        self.input_what = "list of tuples"
        return rows

    def insert(self, rows) -> str:
        con = self.con
        con.execute("BEGIN")
        con.executemany("INSERT INTO person(id, name, age, email, score, active) VALUES (?,?,?,?,?,?)", rows)
        con.execute("COMMIT")
        return "BEGIN; executemany(INSERT, list of tuples); COMMIT"

    def count(self) -> int:
        return self.con.execute("SELECT count(*) FROM person").fetchone()[0]

    def get(self):
        execute = self.con.execute
        sql = f"SELECT {self.COLS} FROM person WHERE id = ?"
        acc = 0
        for i in self.ids:
            row = execute(sql, (i,)).fetchone()
            acc += row[2]
        return "execute(SELECT by id, (i,)).fetchone() (a tuple of all 6 columns), autocommit", acc

    def lookup(self, names):
        execute = self.con.execute
        sql = f"SELECT {self.COLS} FROM person WHERE name = ?"
        rows = ids = 0
        for name in names:
            for row in execute(sql, (name,)).fetchall():
                rows += 1
                ids += row[0]
        return "execute(SELECT by name, (name,)).fetchall()", rows, ids

    def range_query(self):
        rows = self.con.execute(f"SELECT {self.COLS} FROM person WHERE age BETWEEN ? AND ?",
                                (RANGE_LO, RANGE_HI)).fetchall()
        return "execute(SELECT ... WHERE age BETWEEN 30 AND 40).fetchall()", len(rows), sum(r[0] for r in rows)

    def update_input(self):
        return [(i * 0.5 + 1, i) for i in self.ids]

    def update(self, params) -> str:
        self.con.execute("BEGIN")
        self.con.executemany("UPDATE person SET score = ? WHERE id = ?", params)
        self.con.execute("COMMIT")
        return "BEGIN; executemany(UPDATE score by id, list of tuples); COMMIT"

    def score_of(self, i: int) -> float:
        return self.con.execute("SELECT score FROM person WHERE id = ?", (i,)).fetchone()[0]

    def delete_input(self):
        return [(i,) for i in self.ids]

    def delete(self, params) -> str:
        self.con.execute("BEGIN")
        self.con.executemany("DELETE FROM person WHERE id = ?", params)
        self.con.execute("COMMIT")
        return "BEGIN; executemany(DELETE by id, list of tuples); COMMIT"

    def close(self) -> None:
        self.con.close()


# ---- Drumlin's Python package ---------------------------------------------------------------------

class DrumlinWorker(Worker):
    system = "drumlin"

    def open(self) -> None:
        sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))
        import drumlin
        self.drumlin = drumlin
        self.db = drumlin.open(self.path, schema=SCHEMA)

    def build_input(self):
        dicts = [{"id": i, "name": f"name{i}", "age": 18 + (i * 7) % 60, "email": f"user{i}@example.com",
                  "score": i * 0.5, "active": i % 2 == 0} for i in self.ids]
        self.input_what = "list of dicts"
        return dicts

    def insert(self, dicts) -> str:
        with self.db.write():
            self.db.create_many("Person", dicts)
        return 'with db.write(): db.create_many("Person", list_of_dicts)'

    def count(self) -> int:
        return self.db.count("Person")

    def get(self):
        get_dict = self.db.get_dict
        acc = 0
        for i in self.ids:
            d = get_dict("Person", i)
            acc += d["age"]
        return 'db.get_dict("Person", i) (every field, one call), autocommit', acc

    def unavailable(self, step: str) -> str | None:
        if not hasattr(self.db, "query"):
            return "skipped: Database.query not available"
        return None

    def lookup(self, names):
        query_dicts = self.db.query_dicts
        rows = ids = 0
        for name in names:
            for d in query_dicts("Person", "name == $0", name):
                rows += 1
                ids += d["id"]
        return 'db.query_dicts("Person", "name == $0", name) (one call)', rows, ids

    def range_query(self):
        dicts = self.db.query_dicts("Person", "age BETWEEN {30, 40}")
        return 'db.query_dicts("Person", "age BETWEEN {30, 40}") (one call)', len(dicts), sum(d["id"] for d in dicts)

    def update_input(self):
        return [{"id": i, "score": i * 0.5 + 1} for i in self.ids]

    def update(self, rows) -> str:
        with self.db.write():
            self.db.create_many("Person", rows, update="all")
        return 'with db.write(): db.create_many("Person", [{"id": i, "score": new value}, ...], update="all")'

    def score_of(self, i: int) -> float:
        return self.db.get("Person", i).score

    def delete(self, _params) -> str:
        db = self.db
        with db.write():
            if hasattr(db, "objects"):
                db.delete(db.objects("Person"))
                return 'with db.write(): db.delete(db.objects("Person"))'
            get = db.get
            db.delete([get("Person", i) for i in self.ids])
        return ('with db.write(): db.delete([db.get("Person", i) for every id]) '
                '(no db.objects yet: each object fetched, then deleted)')

    def close(self) -> None:
        self.db.close()


# ---- ObjectBox's Python package -----------------------------------------------------------------

class ObjectBoxWorker(Worker):
    system = "objectbox"

    def open(self) -> None:
        from objectbox import Bool, Entity, Float64, Id, Index, Int64, Store, String

        @Entity()
        class Person:
            id = Id(assignable=True)  # our ids 1..N, like the other systems
            name = String(index=Index())
            age = Int64
            email = String
            score = Float64
            active = Bool

        self.Person = Person
        os.makedirs(self.path, exist_ok=True)
        self.store = Store(directory=self.path, model_json_file=os.path.join(self.path, "objectbox-model.json"),
                           max_db_size_in_kb=8 * 1024 * 1024)
        self.box = self.store.box(Person)

    def build_input(self):
        P = self.Person
        objs = [P(id=i, name=f"name{i}", age=18 + (i * 7) % 60, email=f"user{i}@example.com",
                  score=i * 0.5, active=i % 2 == 0) for i in self.ids]
        self.input_what = "list of entity objects"
        return objs

    def insert(self, objs) -> str:
        self.box.put(objs)
        return "box.put(list_of_objects) (one transaction)"

    def count(self) -> int:
        return self.box.count()

    def get(self):
        get = self.box.get
        acc = 0
        for i in self.ids:
            o = get(i)
            acc += o.age
        return "box.get(i) (unmarshals every field), own read transaction each", acc

    def lookup(self, names):
        P = self.Person
        q = self.box.query(P.name.equals("")).build()  # built once, like a prepared statement
        rows = ids = 0
        for name in names:
            q.set_parameter(P.name, name)
            for o in q.find():
                rows += 1
                ids += o.id
        return "query(name.equals) built once; set_parameter + find() per lookup", rows, ids

    def range_query(self):
        P = self.Person
        objs = self.box.query(P.age.between(RANGE_LO, RANGE_HI)).build().find()
        return "query(age.between(30, 40)).build().find()", len(objs), sum(o.id for o in objs)

    def update(self, _params) -> str:
        get = self.box.get
        objs = []
        for i in self.ids:
            o = get(i)
            o.score = i * 0.5 + 1
            objs.append(o)
        self.box.put(objs)
        return "o = box.get(i); o.score = new value (each); box.put(all of them) (one write transaction)"

    def score_of(self, i: int) -> float:
        return self.box.get(i).score

    def delete(self, _params) -> str:
        self.box.remove_all()
        return "box.remove_all()"

    def close(self) -> None:
        self.store.close()


WORKERS = {"sqlite3": Sqlite3Worker, "drumlin": DrumlinWorker, "objectbox": ObjectBoxWorker}


def worker_main(args) -> int:
    steps = ["insert"] + [s for s in args.steps if s != "insert"]
    if args.worker in ORM_SYSTEMS:
        import orm_peers
        worker = orm_peers.PERSON_WORKERS[args.worker]
    else:
        worker = WORKERS[args.worker]
    worker(args.n, args.run, steps, args.path, args.step_timeout).go()
    return 0


def objectbox_status(python: str) -> str | None:
    """None when ObjectBox imports under `python`, else the reason it does not."""
    try:
        proc = subprocess.run([python, "-c", "import objectbox; print(objectbox.version)"],
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.strip().splitlines() if line.strip()]
        return lines[-1] if lines else f"import failed ({proc.returncode})"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--systems", default=",".join(ALL_SYSTEMS))
    parser.add_argument("--steps", default=",".join(ALL_STEPS))
    parser.add_argument("--python", default=sys.executable, help="interpreter for the worker processes")
    parser.add_argument("--step-timeout", type=int, default=0,
                        help="seconds a step may take before its worker is stopped and the step left out of "
                             "later runs (default: 60 per 100k objects, at least 60)")
    parser.add_argument("--worker", choices=ALL_SYSTEMS, help=argparse.SUPPRESS)
    parser.add_argument("--run", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.steps = [s for s in args.steps.split(",") if s]
    for s in args.steps:
        if s not in ALL_STEPS:
            parser.error(f"unknown step {s!r}")
    if not args.step_timeout:
        args.step_timeout = 60 * max(1, -(-args.n // 100_000))
    if args.worker:
        return worker_main(args)

    systems = [s for s in args.systems.split(",") if s]
    for s in systems:
        if s not in ALL_SYSTEMS:
            parser.error(f"unknown system {s!r}")
    if "objectbox" in systems:
        reason = objectbox_status(args.python)
        if reason:
            print(json.dumps({"harness": "python", "kind": "skipped", "system": "objectbox", "reason": reason}),
                  flush=True)
            print(f"ObjectBox: skipped ({reason})", file=sys.stderr, flush=True)
            systems.remove("objectbox")
    for s in [s for s in systems if s in ORM_SYSTEMS]:
        sys.path.insert(0, HERE)
        import orm_peers
        reason = orm_peers.status(args.python, s)
        if reason:
            print(json.dumps({"harness": "python", "kind": "skipped", "system": s, "reason": reason}), flush=True)
            print(f"{s}: skipped ({reason})", file=sys.stderr, flush=True)
            systems.remove(s)
    import sqlite3
    print(json.dumps({"harness": "python", "kind": "info", "n": args.n, "runs": args.runs,
                      "python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version}), flush=True)
    env = dict(os.environ)
    env.setdefault("DRUMLIN_LIBRARY", os.path.join(ROOT, ".build", "release", "libdrumlin.so"))
    tmp = tempfile.mkdtemp(prefix="drumlin-bench-py-")
    failed = 0
    skip: dict[str, dict[str, int]] = {system: {} for system in systems}  # timed-out step -> run
    try:
        for run in range(args.runs):
            for k in range(len(systems)):
                system = systems[(k + run) % len(systems)]  # rotate the order per run
                if "insert" in skip[system]:
                    continue
                for step, when in skip[system].items():
                    print(json.dumps({"harness": "python", "system": system, "run": run, "step": step,
                                      "skipped": f"timed out (> {args.step_timeout} s) in run {when + 1}"}),
                          flush=True)
                steps = [s for s in args.steps if s not in skip[system]]
                path = os.path.join(tmp, f"{system}-{run}.db")
                print(f"  python: {system:<9} run {run + 1}/{args.runs} (N={args.n})", file=sys.stderr, flush=True)
                cmd = [args.python, os.path.abspath(__file__), "--worker", system, "--n", str(args.n),
                       "--run", str(run), "--path", path, "--steps", ",".join(steps),
                       "--step-timeout", str(args.step_timeout)]
                proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                sys.stdout.write(proc.stdout)
                sys.stdout.flush()
                if proc.returncode == 3:
                    timeouts = [json.loads(line) for line in proc.stdout.splitlines()
                                if line.startswith("{") and '"timeout"' in line]
                    for t in timeouts:
                        skip[system][t["step"]] = run
                        print(f"  python: {system} run {run + 1}: step {t['step']} timed out "
                              f"(> {args.step_timeout} s); left out of later runs", file=sys.stderr, flush=True)
                elif proc.returncode != 0:
                    failed = 1
                    tail = proc.stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
                    print(f"  python: {system} run {run + 1} failed: {tail[0]}", file=sys.stderr, flush=True)
                    sys.stderr.write(proc.stderr)
                    print(json.dumps({"harness": "python", "kind": "failed", "system": system, "run": run,
                                      "reason": tail[0]}), flush=True)
                for suffix in ("", "-wal", "-shm"):
                    p = path + suffix
                    if os.path.isdir(p):
                        shutil.rmtree(p, ignore_errors=True)
                    elif os.path.exists(p):
                        os.remove(p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return failed


if __name__ == "__main__":
    sys.exit(main())
