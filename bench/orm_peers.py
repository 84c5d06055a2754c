#!/usr/bin/env python3
"""orm_peers.py — the Python ORMs a user would pick instead of Drumlin: SQLAlchemy 2 (ORM,
declarative models, a Session) and peewee (models), installed in bench/.venv by bench/run.py.

- The Person workload: ``SQLAlchemyWorker`` and ``PeeweeWorker``, systems ``sqlalchemy`` and
  ``peewee`` of bench/bench.py (which runs each in its own process per run, on a fresh file, as it
  runs sqlite3, Drumlin and ObjectBox).
- The Task workload (a link, a list, an embedded object, a date, a decimal, a mixed value): this
  script's main, each of ``drumlin`` (the object API), ``sqlalchemy`` and ``peewee`` in its own
  process per run on a fresh file, printing one JSON line per measurement for bench/run.py:

      bench/.venv/bin/python bench/orm_peers.py --workload task --n 50000 [--runs 3]
                                                [--systems drumlin,sqlalchemy,peewee]

Every file is WAL with ``synchronous=NORMAL`` (Drumlin's own settings). Each library is used the
way its documentation shows (the ``how`` of each line says what was called); each step's result is
checked untimed, and a wrong answer makes the worker exit non-zero.
"""
# No `from __future__ import annotations`: SQLAlchemy reads the models' annotations at run time, and
# the models are declared inside functions (the ORMs are imported only in the worker processes).

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench  # noqa: E402  (bench/bench.py: Worker, the Person data)

TASK_STEPS = ["insert", "get", "iterate", "update"]
TASK_GETS = 20000  # as bench/task_api.py: the get and update steps touch the first 20k tasks


# ---- Person: SQLAlchemy 2 ORM --------------------------------------------------------------------

class SQLAlchemyWorker(bench.Worker):
    system = "sqlalchemy"

    def open(self) -> None:
        from sqlalchemy import create_engine, event
        from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

        class Base(DeclarativeBase):
            pass

        class Person(Base):
            __tablename__ = "person"
            id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
            name: Mapped[str] = mapped_column(index=True)
            age: Mapped[int]
            email: Mapped[str]
            score: Mapped[float]
            active: Mapped[bool]

        self.Person = Person
        self.engine = create_engine(f"sqlite:///{self.path}")
        event.listen(self.engine, "connect", _wal_normal)
        Base.metadata.create_all(self.engine)

    def session(self):
        from sqlalchemy.orm import Session
        return Session(self.engine)

    def build_input(self):
        P = self.Person
        self.input_what = "list of mapped objects"
        return [P(id=i, name=f"name{i}", age=18 + (i * 7) % 60, email=f"user{i}@example.com",
                  score=i * 0.5, active=i % 2 == 0) for i in self.ids]

    def insert(self, objs) -> str:
        with self.session() as s, s.begin():
            s.add_all(objs)
        return "with Session(engine) as s, s.begin(): s.add_all(objects)"

    def count(self) -> int:
        from sqlalchemy import func, select
        with self.session() as s:
            return s.scalar(select(func.count()).select_from(self.Person))

    def get(self):
        acc = 0
        P = self.Person
        with self.session() as s:  # a fresh session: every get runs its SELECT (no identity-map hit)
            get = s.get
            for i in self.ids:
                p = get(P, i)
                p.id, p.name, p.email, p.score, p.active
                acc += p.age
        return "session.get(Person, i), every attribute (one fresh Session)", acc

    def lookup(self, names):
        from sqlalchemy import select
        P = self.Person
        rows = ids = 0
        with self.session() as s:
            for name in names:
                for p in s.scalars(select(P).where(P.name == name)).all():
                    rows += 1
                    ids += p.id
        return "session.scalars(select(Person).where(Person.name == x)).all()", rows, ids

    def range_query(self):
        from sqlalchemy import select
        P = self.Person
        with self.session() as s:
            objs = s.scalars(select(P).where(P.age.between(bench.RANGE_LO, bench.RANGE_HI))).all()
            return ("session.scalars(select(Person).where(Person.age.between(30, 40))).all()",
                    len(objs), sum(p.id for p in objs))

    def update(self, _params) -> str:
        P = self.Person
        with self.session() as s, s.begin():
            get = s.get
            for i in self.ids:
                get(P, i).score = i * 0.5 + 1
        return "with Session() as s, s.begin(): s.get(Person, i).score = x (flushed at commit)"

    def score_of(self, i: int) -> float:
        with self.session() as s:
            return s.get(self.Person, i).score

    def delete(self, _params) -> str:
        from sqlalchemy import delete
        with self.session() as s, s.begin():
            s.execute(delete(self.Person))
        return "with Session() as s, s.begin(): s.execute(delete(Person)) (ORM bulk delete)"

    def close(self) -> None:
        self.engine.dispose()


def _wal_normal(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


# ---- Person: peewee ------------------------------------------------------------------------------

PEEWEE_PRAGMAS = {"journal_mode": "wal", "synchronous": "normal"}


class PeeweeWorker(bench.Worker):
    system = "peewee"

    def open(self) -> None:
        import peewee as pw
        self.pw = pw
        self.db = pw.SqliteDatabase(self.path, pragmas=PEEWEE_PRAGMAS)

        class Person(pw.Model):
            id = pw.IntegerField(primary_key=True)
            name = pw.TextField(index=True)
            age = pw.IntegerField()
            email = pw.TextField()
            score = pw.FloatField()
            active = pw.BooleanField()

            class Meta:
                database = self.db

        self.Person = Person
        self.db.connect()
        self.db.create_tables([Person])

    def build_input(self):
        self.input_what = "list of dicts"
        return [{"id": i, "name": f"name{i}", "age": 18 + (i * 7) % 60, "email": f"user{i}@example.com",
                 "score": i * 0.5, "active": i % 2 == 0} for i in self.ids]

    def insert(self, rows) -> str:
        with self.db.atomic():
            for batch in self.pw.chunked(rows, 100):
                self.Person.insert_many(batch).execute()
        return "with db.atomic(): Person.insert_many(batch).execute() per chunked(rows, 100)"

    def count(self) -> int:
        return self.Person.select().count()

    def get(self):
        get_by_id = self.Person.get_by_id
        acc = 0
        for i in self.ids:
            p = get_by_id(i)
            p.id, p.name, p.email, p.score, p.active
            acc += p.age
        return "Person.get_by_id(i), every attribute (autocommit)", acc

    def lookup(self, names):
        P = self.Person
        rows = ids = 0
        for name in names:
            for p in P.select().where(P.name == name):
                rows += 1
                ids += p.id
        return "Person.select().where(Person.name == x), iterated", rows, ids

    def range_query(self):
        P = self.Person
        objs = list(P.select().where(P.age.between(bench.RANGE_LO, bench.RANGE_HI)))
        return "list(Person.select().where(Person.age.between(30, 40)))", len(objs), sum(p.id for p in objs)

    def update(self, _params) -> str:
        get_by_id = self.Person.get_by_id
        with self.db.atomic():
            for i in self.ids:
                p = get_by_id(i)
                p.score = i * 0.5 + 1
                p.save()
        return "with db.atomic(): p = Person.get_by_id(i); p.score = x; p.save()"

    def score_of(self, i: int) -> float:
        return self.Person.get_by_id(i).score

    def delete(self, _params) -> str:
        with self.db.atomic():
            self.Person.delete().execute()
        return "with db.atomic(): Person.delete().execute()"

    def close(self) -> None:
        self.db.close()


# ---- Person: Drumlin's object API (what the ORMs are set against) -------------------------------

class DrumlinObjectsWorker(bench.DrumlinWorker):
    """Drumlin Python through the documented object API, as the ORMs are used: objects read by
    primary key and their attributes, queries iterated as objects, `db.get(...).score = x`. The
    insert and delete are DrumlinWorker's (`create_many`, `db.delete(db.objects(...))`)."""

    system = "drumlin-objects"

    def get(self):
        get = self.db.get
        acc = 0
        for i in self.ids:
            p = get("Person", i)
            p.id, p.name, p.email, p.score, p.active
            acc += p.age
        return 'db.get("Person", i), every attribute', acc

    def lookup(self, names):
        query = self.db.query
        rows = ids = 0
        for name in names:
            for p in query("Person", "name == $0", name):
                rows += 1
                ids += p.id
        return 'for p in db.query("Person", "name == $0", name)', rows, ids

    def range_query(self):
        rows = ids = 0
        for p in self.db.query("Person", "age BETWEEN {30, 40}"):
            p.name
            rows += 1
            ids += p.id
        return 'for p in db.query("Person", "age BETWEEN {30, 40}"): p.id, p.name', rows, ids

    def update(self, _params) -> str:
        get = self.db.get
        with self.db.write():
            for i in self.ids:
                get("Person", i).score = i * 0.5 + 1
        return 'with db.write(): db.get("Person", i).score = x'


PERSON_WORKERS = {"sqlalchemy": SQLAlchemyWorker, "peewee": PeeweeWorker, "drumlin-objects": DrumlinObjectsWorker}


def status(python: str, system: str) -> str | None:
    """None when `system` imports under `python`, else the reason it does not."""
    module = {"sqlalchemy": "sqlalchemy", "peewee": "peewee", "drumlin-objects": "sqlite3"}[system]
    try:
        proc = subprocess.run([python, "-c", f"import {module}"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if proc.returncode:
        lines = [line for line in proc.stderr.strip().splitlines() if line.strip()]
        return lines[-1] if lines else f"import {module} failed"
    return None


# ---- Task ----------------------------------------------------------------------------------------

def task_data(n: int):
    """The same list of dicts as bench/task_api.py (datetime, Decimal, nested list and dict)."""
    from task_data import task, users_count
    users = users_count(n)
    return users, [task(i, users) for i in range(1, n + 1)]


class TaskRun:
    """One system, one run of the Task workload; subclasses give open/insert/get/iterate/update."""

    system = "?"

    def __init__(self, n: int, run: int, path: str) -> None:
        self.n, self.run, self.path = n, run, path
        self.users, self.tasks = task_data(n)
        self.m = min(n, TASK_GETS)
        self.expected_tags = sum(len(t["tags"]) for t in self.tasks[:self.m])
        self.open_count = sum(1 for t in self.tasks if not t["done"])

    def emit(self, step: str, ops: int, seconds: float, how: str) -> None:
        print(json.dumps({"harness": "python", "system": f"{self.system}-task", "run": self.run, "step": step,
                          "ops": ops, "rows": ops, "seconds": seconds, "how": how}), flush=True)

    def timed(self, step: str, ops: int, fn) -> None:
        gc.collect()
        t0 = time.perf_counter()
        how = fn()
        self.emit(step, ops, time.perf_counter() - t0, how)

    def go(self) -> None:
        self.open()
        self.timed("insert", self.n, self.insert)
        self.check("insert count", self.count(), self.n)
        self.timed("get", self.m, self.get)
        self.check("get tags", self.tags_read, self.expected_tags)
        self.timed("iterate", self.open_count, self.iterate)
        self.check("iterate count", self.iterated, self.open_count)
        self.timed("update", self.m, self.update)
        # the update wrote done = (i % 3 != 0) on the first m tasks, the opposite of each one's own
        self.check("open tasks after update", self.count_open(),
                   sum(1 for i in range(1, self.m + 1) if i % 3 == 0)
                   + sum(1 for i in range(self.m + 1, self.n + 1) if i % 3 != 0))
        self.close()

    def check(self, what: str, got, want) -> None:
        if got != want:
            raise AssertionError(f"{self.system} task: {what}: {got!r}, expected {want!r}")


class DrumlinTask(TaskRun):
    """The documented object API, as bench/task_api.py's "object API" rows."""

    system = "drumlin"

    def open(self) -> None:
        import task_api
        self.db = task_api.open_drumlin(self.path, self.users)

    def insert(self) -> str:
        with self.db.write():
            self.db.create_many("Task", self.tasks)
        return 'with db.write(): db.create_many("Task", list_of_dicts) (owner by primary key)'

    def count(self) -> int:
        return self.db.count("Task")

    def get(self) -> str:
        get = self.db.get
        tags = 0
        for i in range(1, self.m + 1):
            t = get("Task", i)
            t.id, t.title, t.done, t.due, t.estimate, t.extra, t.owner.name
            tags += len(list(t.tags))
            location = t.location
            location.city, location.street
        self.tags_read = tags
        return 'db.get("Task", i), every attribute, owner.name, list(tags), location'

    def iterate(self) -> str:
        count = 0
        for t in self.db.query("Task", "done == false"):
            t.title, t.due, t.owner
            count += 1
        self.iterated = count
        return 'for t in db.query("Task", "done == false"): t.title, t.due, t.owner'

    def update(self) -> str:
        with self.db.write():
            get = self.db.get
            for i in range(1, self.m + 1):
                get("Task", i).done = i % 3 != 0
        return 'with db.write(): db.get("Task", i).done = x'

    def count_open(self) -> int:
        return self.db.count("Task", "done == false")

    def close(self) -> None:
        self.db.close()


class SQLAlchemyTask(TaskRun):
    """Declarative models: `owner` a many-to-one relationship, the tags a one-to-many relationship
    to a `task_tag` table ordered by position, the embedded location a `composite` of two columns,
    the date a `DateTime`, the decimal a `Numeric`, the mixed value a `JSON` column."""

    system = "sqlalchemy"

    def open(self) -> None:
        import dataclasses
        from decimal import Decimal
        from sqlalchemy import JSON, DateTime, ForeignKey, Numeric, create_engine, event
        from sqlalchemy.orm import DeclarativeBase, Mapped, composite, mapped_column, relationship

        warnings.filterwarnings("ignore", message=".*Decimal objects natively.*")

        class Base(DeclarativeBase):
            pass

        @dataclasses.dataclass
        class Location:
            city: str
            street: str

        class User(Base):
            __tablename__ = "user"
            id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
            name: Mapped[str]

        class TaskTag(Base):
            __tablename__ = "task_tag"
            task_id: Mapped[int] = mapped_column(ForeignKey("task.id"), primary_key=True)
            position: Mapped[int] = mapped_column(primary_key=True)
            tag: Mapped[str]

        class Task(Base):
            __tablename__ = "task"
            id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
            title: Mapped[str]
            done: Mapped[bool]
            due = mapped_column(DateTime(timezone=True), nullable=False)
            estimate: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
            extra = mapped_column(JSON)
            owner_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"))
            owner: Mapped[User | None] = relationship()
            tags: Mapped[list[TaskTag]] = relationship(order_by=TaskTag.position, cascade="all, delete-orphan")
            location: Mapped[Location] = composite(mapped_column("location_city"), mapped_column("location_street"))

        self.User, self.Task, self.TaskTag, self.Location = User, Task, TaskTag, Location
        self.engine = create_engine(f"sqlite:///{self.path}")
        event.listen(self.engine, "connect", _wal_normal)
        Base.metadata.create_all(self.engine)
        with self.session() as s, s.begin():
            s.add_all([User(id=u, name=f"user{u}") for u in range(1, self.users + 1)])

    def session(self):
        from sqlalchemy.orm import Session
        return Session(self.engine)

    def insert(self) -> str:
        Task, TaskTag, Location = self.Task, self.TaskTag, self.Location
        with self.session() as s, s.begin():
            s.add_all([Task(id=t["id"], title=t["title"], done=t["done"], due=t["due"], estimate=t["estimate"],
                            extra=t["extra"], owner_id=t["owner"],
                            tags=[TaskTag(position=k, tag=tag) for k, tag in enumerate(t["tags"])],
                            location=Location(**t["location"])) for t in self.tasks])
        return "with Session() as s, s.begin(): s.add_all(Task(..., tags=[TaskTag...], location=Location(...)))"

    def count(self) -> int:
        from sqlalchemy import func, select
        with self.session() as s:
            return s.scalar(select(func.count()).select_from(self.Task))

    def get(self) -> str:
        from sqlalchemy.orm import joinedload, selectinload
        options = [joinedload(self.Task.owner), selectinload(self.Task.tags)]
        tags = 0
        with self.session() as s:
            for i in range(1, self.m + 1):
                t = s.get(self.Task, i, options=options)
                t.id, t.title, t.done, t.due, t.estimate, t.extra, t.owner.name
                tags += len([tag.tag for tag in t.tags])
                location = t.location
                location.city, location.street
        self.tags_read = tags
        return ("session.get(Task, i, options=[joinedload(owner), selectinload(tags)]), every attribute, "
                "owner.name, tags, location")

    def iterate(self) -> str:
        from sqlalchemy import select
        from sqlalchemy.orm import joinedload
        Task = self.Task
        count = 0
        with self.session() as s:
            for t in s.scalars(select(Task).options(joinedload(Task.owner)).where(Task.done.is_(False))):
                t.title, t.due, t.owner
                count += 1
        self.iterated = count
        return "session.scalars(select(Task).options(joinedload(owner)).where(done is false)), 3 attributes"

    def update(self) -> str:
        with self.session() as s, s.begin():
            get = s.get
            for i in range(1, self.m + 1):
                get(self.Task, i).done = i % 3 != 0
        return "with Session() as s, s.begin(): s.get(Task, i).done = x"

    def count_open(self) -> int:
        from sqlalchemy import func, select
        with self.session() as s:
            return s.scalar(select(func.count()).select_from(self.Task).where(self.Task.done.is_(False)))

    def close(self) -> None:
        self.engine.dispose()


class PeeweeTask(TaskRun):
    """Models: `owner` a ForeignKeyField, the tags a `TaskTag` model (backref `tags`), the embedded
    location two fields inline (peewee has no embedded type), the date a DateTimeField, the decimal
    a DecimalField, the mixed value a BareField (SQLite's untyped column)."""

    system = "peewee"

    def open(self) -> None:
        import peewee as pw
        self.pw = pw
        self.db = pw.SqliteDatabase(self.path, pragmas={**PEEWEE_PRAGMAS, "foreign_keys": 1})

        class Base(pw.Model):
            class Meta:
                database = self.db

        class User(Base):
            id = pw.IntegerField(primary_key=True)
            name = pw.TextField()

        class Task(Base):
            id = pw.IntegerField(primary_key=True)
            title = pw.TextField()
            done = pw.BooleanField()
            due = pw.DateTimeField()
            estimate = pw.DecimalField(max_digits=10, decimal_places=2, null=True)
            extra = pw.BareField(null=True)
            owner = pw.ForeignKeyField(User, null=True, backref="tasks")
            location_city = pw.TextField(null=True)
            location_street = pw.TextField(null=True)

        class TaskTag(Base):
            task = pw.ForeignKeyField(Task, backref="tags")
            position = pw.IntegerField()
            tag = pw.TextField()

            class Meta:
                primary_key = pw.CompositeKey("task", "position")

        self.User, self.Task, self.TaskTag = User, Task, TaskTag
        self.db.connect()
        self.db.create_tables([User, Task, TaskTag])
        with self.db.atomic():
            User.insert_many([(u, f"user{u}") for u in range(1, self.users + 1)], fields=[User.id, User.name]).execute()

    def insert(self) -> str:
        Task, TaskTag = self.Task, self.TaskTag
        rows, tag_rows = [], []
        for t in self.tasks:
            location = t["location"]
            rows.append({"id": t["id"], "title": t["title"], "done": t["done"], "due": t["due"],
                         "estimate": t["estimate"], "extra": t["extra"], "owner": t["owner"],
                         "location_city": location["city"], "location_street": location["street"]})
            tag_rows.extend({"task": t["id"], "position": k, "tag": tag} for k, tag in enumerate(t["tags"]))
        with self.db.atomic():
            for batch in self.pw.chunked(rows, 100):
                Task.insert_many(batch).execute()
            for batch in self.pw.chunked(tag_rows, 100):
                TaskTag.insert_many(batch).execute()
        return "with db.atomic(): Task.insert_many / TaskTag.insert_many per chunked(rows, 100)"

    def count(self) -> int:
        return self.Task.select().count()

    def get(self) -> str:
        Task, User = self.Task, self.User
        tags = 0
        for i in range(1, self.m + 1):
            t = (Task.select(Task, User).join(User, self.pw.JOIN.LEFT_OUTER).where(Task.id == i).get())
            t.id, t.title, t.done, t.due, t.estimate, t.extra, t.owner.name, t.location_city, t.location_street
            tags += len([tag.tag for tag in t.tags.order_by(self.TaskTag.position)])
        self.tags_read = tags
        return ("Task.select(Task, User).join(User).where(id == i).get(), every attribute, owner.name, "
                "t.tags.order_by(position)")

    def iterate(self) -> str:
        Task, User = self.Task, self.User
        count = 0
        for t in Task.select(Task, User).join(User, self.pw.JOIN.LEFT_OUTER).where(Task.done == False):  # noqa: E712
            t.title, t.due, t.owner
            count += 1
        self.iterated = count
        return "Task.select(Task, User).join(User).where(done == False), 3 attributes"

    def update(self) -> str:
        get_by_id = self.Task.get_by_id
        with self.db.atomic():
            for i in range(1, self.m + 1):
                t = get_by_id(i)
                t.done = i % 3 != 0
                t.save()
        return "with db.atomic(): t = Task.get_by_id(i); t.done = x; t.save()"

    def count_open(self) -> int:
        return self.Task.select().where(self.Task.done == False).count()  # noqa: E712

    def close(self) -> None:
        self.db.close()


TASK_RUNS = {"drumlin": DrumlinTask, "sqlalchemy": SQLAlchemyTask, "peewee": PeeweeTask}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=["task"], default="task")
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--systems", default=",".join(TASK_RUNS))
    parser.add_argument("--worker", choices=list(TASK_RUNS), help=argparse.SUPPRESS)
    parser.add_argument("--run", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        TASK_RUNS[args.worker](args.n, args.run, args.path).go()
        return 0
    systems = [s for s in args.systems.split(",") if s]
    for s in systems:
        if s not in TASK_RUNS:
            parser.error(f"unknown system {s!r}")
    for s in [s for s in systems if s != "drumlin"]:
        reason = status(sys.executable, s)
        if reason:
            print(json.dumps({"harness": "python", "kind": "skipped", "system": f"{s}-task", "reason": reason}),
                  flush=True)
            systems.remove(s)
    env = dict(os.environ)
    env.setdefault("DRUMLIN_LIBRARY", os.path.join(ROOT, ".build", "release", "libdrumlin.so"))
    tmp = tempfile.mkdtemp(prefix="drumlin-bench-orm-")
    failed = 0
    try:
        for run in range(args.runs):
            for k in range(len(systems)):
                system = systems[(k + run) % len(systems)]
                path = os.path.join(tmp, f"{system}-task-{run}.db")
                print(f"  python task: {system:<10} run {run + 1}/{args.runs} (N={args.n})", file=sys.stderr, flush=True)
                proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", system, "--n", str(args.n),
                                       "--run", str(run), "--path", path], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env)
                sys.stdout.write(proc.stdout)
                sys.stdout.flush()
                if proc.returncode:
                    failed = 1
                    tail = proc.stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
                    sys.stderr.write(proc.stderr)
                    print(json.dumps({"harness": "python", "kind": "failed", "system": f"{system}-task", "run": run,
                                      "reason": tail[0]}), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return failed


if __name__ == "__main__":
    sys.exit(main())
