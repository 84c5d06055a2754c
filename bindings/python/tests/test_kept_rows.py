"""Objects keep their row and stay live: every change is seen on the next attribute read.

An object read through the package keeps its row, revalidated against the database's read version
(see drumlin/_rows.py). These tests check each way the row can go stale. No timing here.
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from pathlib import Path
from typing import Any, Optional

import pytest

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "name": "string", "age": "int", "score": "double", "active": "bool"},
    },
    {
        "name": "Task",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "title": "string",
            "owner": "Person?",
            "tags": "string[]",
            "due": "date?",
            "cost": "decimal128?",
            "ratio": "float",
            "uid": "uuid?",
            "extra": "mixed",
        },
    },
]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "rows.drumlin"


@pytest.fixture
def db(path: Path) -> Any:
    with drumlin.open(path, SCHEMA) as db:
        with db.write():
            db.create_many("Person", [{"id": i, "name": f"p{i}", "age": 20 + i, "score": 0.5, "active": True} for i in range(1, 4)])
        yield db


def count_calls(monkeypatch: Any, module: Any, name: str) -> list[int]:
    """A list that grows by one on each call of ``module.name`` (replaced for the test)."""
    function = getattr(module, name)
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return function(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_write_through_another_object_of_the_same_row_is_seen(db: Any) -> None:
    first = db.get("Person", 1)
    second = db.get("Person", 1)
    assert first.name == "p1"
    with db.write():
        second.name = "renamed"
        assert first.name == "renamed"  # inside the transaction
    assert first.name == "renamed"


def test_a_write_of_another_object_keeps_rows_correct(db: Any) -> None:
    one = db.get("Person", 1)
    assert one.age == 21
    with db.write():
        db.get("Person", 2).age = 99
    assert one.age == 21
    assert db.get("Person", 2).age == 99


def test_a_rollback_is_seen(db: Any) -> None:
    person = db.get("Person", 1)
    with pytest.raises(RuntimeError):
        with db.write():
            person.score = 7.0
            assert person.score == 7.0
            raise RuntimeError("roll back")
    assert person.score == 0.5


def test_a_delete_makes_the_next_read_raise(db: Any) -> None:
    person = db.get("Person", 1)
    assert person.name == "p1"
    with db.write():
        db.delete(db.get("Person", 1))
    with pytest.raises(drumlin.InvalidatedObjectError):
        person.name
    assert not person.is_valid


def test_another_handles_commit_is_seen_at_the_next_read_call(db: Any, path: Path) -> None:
    person = db.get("Person", 1)
    assert person.name == "p1"
    with drumlin.open(path) as other:
        with other.write():
            other.get("Person", 1).name = "from elsewhere"
        # Documented: the kept row answers until a call on this handle reads the file.
        assert person.name == "p1"
        db.count("Person")
        assert person.name == "from elsewhere"
        with other.write():
            other.get("Person", 1).name = "again"
        # Any read call notices it: a get of another object, a query.
        db.get("Person", 2)
        assert person.name == "again"


def test_objects_from_results_keep_rows_and_stay_live(db: Any) -> None:
    people = list(db.query("Person", "age > $0", 21))
    assert [p.name for p in people] == ["p2", "p3"]
    with db.write():
        people[0].name = "changed"
    assert people[0].name == "changed"
    assert db.get("Person", 2).name == "changed"


def test_a_closed_database_makes_reads_raise_misuse(path: Path) -> None:
    db = drumlin.open(path, SCHEMA)
    with db.write():
        db.create("Person", {"id": 1, "name": "a", "age": 1, "score": 1.0, "active": False})
    person = db.get("Person", 1)
    assert person.name == "a"
    db.close()
    with pytest.raises(drumlin.MisuseError):
        person.name


def test_a_closed_database_makes_packed_writes_raise_misuse(path: Path) -> None:
    # A number written to a plain property fills the property's write record (its database, class
    # and property filled in once): once the database closes, the record holds no handle.
    db = drumlin.open(path, SCHEMA)
    with db.write():
        db.create("Person", {"id": 1, "name": "a", "age": 1, "score": 1.0, "active": False})
    person = db.get("Person", 1)
    record = type(person).age._record
    assert record.db == db._class("Person").rows.db.value
    with db.write():
        person.age = 2
    assert (record.key, person.age) == (person._drumlin_key, 2)
    db.close()
    assert record.db is None
    with pytest.raises(drumlin.MisuseError):
        person.age = 3



def test_every_kind_of_kept_read_raises_misuse_once_the_database_closes(path: Path) -> None:
    # Each accessor's read is a function made for its property with the version cell it checks;
    # closing the database remakes them around the closed cell, for every kind of value.
    db = drumlin.open(path, SCHEMA)
    with db.write():
        db.create("Person", {"id": 1, "name": "a", "age": 1, "score": 1.0, "active": False})
        db.create("Task", {"id": 1, "title": "t", "owner": 1, "due": datetime.datetime(2024, 1, 2),
                           "cost": decimal.Decimal("1.5"), "ratio": 0.5, "extra": 7})
    task = db.get("Task", 1)
    names = ("title", "owner", "due", "cost", "ratio", "uid", "extra")
    assert [getattr(task, name) is None for name in names] == [False] * 5 + [True, False]
    accessor = type(task).title
    assert repr(accessor) == "<drumlin ScalarAccessor Task.title: string>"
    assert accessor.fget(task) == "t"
    live_cell = db._version
    assert all(any(cell is live_cell for cell in getattr(type(task), name).fget.__defaults__) for name in names)
    db.close()
    for name in names:
        with pytest.raises(drumlin.MisuseError):
            getattr(task, name)
    # The reads no longer look at the closed database's memory (its version word is gone).
    assert not any(any(cell is live_cell for cell in getattr(type(task), name).fget.__defaults__) for name in names)
    assert type(task).title is accessor


def test_a_loop_over_pages_makes_each_object_once_in_order(db: Any) -> None:
    # Objects are made a page of rows at a time: across page boundaries, in a loop read at once
    # inside a write, and for results of one page, each object comes once, in order.
    from drumlin._rows import PAGE_ROWS

    count = 2 * PAGE_ROWS + 3
    with db.write():
        db.create_many("Person", [{"id": i, "name": f"n{i}", "age": i % 7, "score": 0.0, "active": False}
                                  for i in range(10, 10 + count)])
    ids = [p.id for p in db.query("Person", "id >= 10")]
    assert ids == list(range(10, 10 + count))
    with db.write():
        seen = []
        for person in db.query("Person", "id >= 10"):
            person.age = 100
            seen.append(person.id)
    assert seen == ids
    assert db.query("Person", "age == 100").count() == count
    assert [p.name for p in db.query("Person", "id < 10")] == ["p1", "p2", "p3"]

def test_rows_of_every_scalar_type_link_and_collection(db: Any) -> None:
    due = datetime.datetime(2024, 5, 6, 7, 8, 9, 123000, tzinfo=datetime.timezone.utc)
    uid = uuid.uuid4()
    with db.write():
        db.create(
            "Task",
            {
                "id": 1,
                "title": "write",
                "owner": 2,
                "tags": ["a", "b"],
                "due": due,
                "cost": decimal.Decimal("12.50"),
                "ratio": 0.1,
                "uid": uid,
                "extra": "free",
            },
        )
        db.create("Task", {"id": 2, "title": "none", "ratio": 1.0})
    task = db.get("Task", 1)
    assert (task.title, task.due, task.cost, task.ratio, task.uid, task.extra) == (
        "write", due, decimal.Decimal("12.50"), 0.1, uid, "free",
    )
    assert task.owner == db.get("Person", 2)
    assert task.owner.name == "p2"
    assert list(task.tags) == ["a", "b"]
    empty = db.get("Task", 2)
    assert (empty.owner, empty.due, empty.cost, empty.uid, empty.extra) == (None, None, None, None, None)
    assert [t.title for t in db.objects("Task")] == ["write", "none"]
    assert db.get("Task", 1).to_dict()["tags"] == ["a", "b"]
    with db.write():
        db.get("Person", 2).name = "owner renamed"
        task.owner = None
    assert task.owner is None


def test_a_write_through_an_object_read_as_a_row_needs_no_handle_first(db: Any) -> None:
    person = db.get("Person", 3)
    with db.write():
        person.update({"name": "several", "age": 5})
        person.active = False
    assert (person.name, person.age, person.active) == ("several", 5, False)
    with pytest.raises(drumlin.TransactionError):
        person.age = 1


def test_objects_release_the_handle_they_took_once(db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Objects read as rows have no handle and no finalizer; one that took a handle (a call that
    # needs it) releases it when closed or when garbage, exactly once.
    from drumlin import _ffi

    released: list[int] = []
    release = _ffi.drumlin_object_release
    monkeypatch.setattr(_ffi, "drumlin_object_release", lambda handle: (released.append(1), release(handle)))
    person = db.get("Person", 1)
    assert not hasattr(type(person), "__del__")
    assert person._drumlin_h is None
    assert "p1" in person.to_json()  # needs the handle
    assert person._drumlin_h
    del person
    import gc

    gc.collect()
    assert released == [1]
    other = db.get("Person", 2)
    other.to_json()
    other.close()
    other.close()
    del other
    gc.collect()
    assert released == [1, 1]



def test_a_short_read_after_a_long_one_decodes_only_its_own_bytes(db: Any) -> None:
    # Packed reads decode from the arena's data without cutting out their size (marshal stops at
    # the end of its value): the bytes a longer earlier read left behind are never read.
    with db.write():
        db.create("Person", {"id": 9, "name": "n" * 50_000, "age": 1, "score": 2.5, "active": False})
    assert len(db.get("Person", 9).name) == 50_000
    short = db.get("Person", 1)
    assert (short.id, short.name, short.age, short.score, short.active) == (1, "p1", 21, 0.5, True)
    assert [p.name for p in db.query("Person", "age > 100")] == []
    assert db.get("Person", 404) is None
    assert [len(p.name) for p in db.query("Person", "age < 22")] == [2, 50_000]
    assert [p.id for p in db.query("Person", "id == 2")] == [2]

def test_results_release_the_handle_they_opened_once(db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Results have no finalizer: the handle they open releases itself when they are closed or
    # garbage, exactly once; a lookup answered from its first rows never opens one.
    from drumlin import _ffi

    released: list[int] = []
    release = _ffi.drumlin_results_release
    monkeypatch.setattr(_ffi, "drumlin_results_release", lambda handle: (released.append(1), release(handle)))
    import gc

    found = db.query("Person", "name == $0", "p1")
    assert not hasattr(type(found), "__del__")
    assert [p.id for p in found] == [1]
    del found
    gc.collect()
    assert released == []  # never opened
    everyone = db.objects("Person")
    assert len(everyone) == 3
    del everyone
    gc.collect()
    assert released == [1]
    adults = db.objects("Person").filter("age > $0", 21)
    assert [p.id for p in adults] == [2, 3]
    adults.close()
    adults.close()
    assert released == [1, 1, 1]  # the filtered results and the unfiltered ones they came from
    with pytest.raises(drumlin.MisuseError, match="These results are closed."):
        len(adults)
    del adults
    gc.collect()
    assert released == [1, 1, 1]
    # A closed object reads no more, and releasing did not break the database's other objects.
    assert db.get("Person", 3).name == "p3"


def test_attribute_writes_of_numbers_and_bools_are_what_the_general_write_stores(db: Any, path: Path) -> None:
    # Numbers and bools are packed into a value cell the accessor keeps; the values read back
    # (here and through another handle) are those the general write (obj["name"] = x) stores.
    person = db.get("Person", 1)
    task_values = {"id": 9, "title": "t", "ratio": 0.0}
    with db.write():
        task = db.create("Task", task_values)
        person.age = 41
        person.score = 2.75
        person.active = False
        task.ratio = 0.1  # a float property: narrowed by the engine, read as the shortest float32
        person.age = -(1 << 63)
        person.age = (1 << 63) - 1
        with pytest.raises(drumlin.DrumlinError):
            person.age = 1 << 63
        with pytest.raises(drumlin.DrumlinError):
            person.score = "not a number"
        person.active = True
        person.active = False
    assert (person.age, person.score, person.active) == ((1 << 63) - 1, 2.75, False)
    assert task.ratio == 0.1
    with drumlin.open(path) as other:
        again = other.get("Person", 1)
        assert (again.age, again.score, again.active) == ((1 << 63) - 1, 2.75, False)
        assert other.get("Task", 9).ratio == 0.1
    with db.write():
        person["score"] = 2.75
        person.score = 3  # an int into a double property: as the general write converts it
    assert person.score == 3.0 and type(person.score) is float
    with pytest.raises(drumlin.DrumlinError):
        person.score = 1.0  # outside a write transaction


def test_the_packed_write_serves_subscripts_and_model_classes_and_leaves_other_values_to_the_general_write(
    path: Path, monkeypatch: Any
) -> None:
    # Object.__setattr__ writes numbers and bools itself; obj["name"] = x takes the same write,
    # a model class's objects too, and an int subclass or a string takes the general write.
    import enum

    class Level(enum.IntEnum):
        HIGH = 7

    class Person(drumlin.Object):
        id: int = drumlin.persisted(primary_key=True)
        name: str = ""
        age: int = 0
        score: float = 0.0
        active: bool = True

    from drumlin import object as object_module

    calls = count_calls(monkeypatch, object_module, "_write_by_key_unchecked")
    with drumlin.open(path, [Person]) as db:
        with db.write():
            db.create(Person, {"id": 1, "name": "a"})
            person = db.get(Person, 1)  # read objects know their object key: the packed write
            dynamic = db.get("Person", 1)
            person.age = 41
            dynamic["score"] = 1.5
            dynamic["active"] = False
            assert len(calls) == 3
            person.age = Level.HIGH
            dynamic["name"] = "b"
            with pytest.raises(drumlin.DrumlinError):
                dynamic["age"] = 1 << 63
        assert len(calls) == 3
        assert (person.age, person.score, person.active, person.name) == (7, 1.5, False, "b")
        assert type(person.age) is int
        with pytest.raises(drumlin.DrumlinError):
            dynamic["age"] = 3  # outside a write transaction
        with pytest.raises(drumlin.NoSuchPropertyError):
            with db.write():
                dynamic.nickname = 3
        assert db.get(Person, 1).age == 7


def test_a_number_written_to_a_deleted_object_raises_and_writes_nothing(db: Any) -> None:
    # The packed write's call reports the engine's status (InvalidatedObjectError), as the
    # general write does; the transaction stays usable.
    person, same = db.get("Person", 1), db.get("Person", 1)
    other = db.get("Person", 2)
    with db.write():
        db.delete(same)
        with pytest.raises(drumlin.InvalidatedObjectError, match="invalidated or deleted"):
            person.score = 9.5
        with pytest.raises(drumlin.InvalidatedObjectError):
            person.active = False
        other.score = 9.5
    assert other.score == 9.5 and db.count("Person") == 2


def test_dates_and_decimals_are_converted_when_read_and_stay_live(db: Any) -> None:
    due = datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.timezone.utc)
    with db.write():
        db.create("Task", {"id": 1, "title": "t", "due": due, "cost": decimal.Decimal("1.50"), "ratio": 0.1,
                           "uid": uuid.UUID(int=7)})
    task = db.get("Task", 1)
    other = db.get("Task", 1)
    # Read twice: the same values, of Python's types (the second read is the converted one kept).
    for _ in range(2):
        assert task.due == due and type(task.due) is datetime.datetime
        assert task.cost == decimal.Decimal("1.50") and type(task.cost) is decimal.Decimal
        assert task.ratio == 0.1 and task.uid == uuid.UUID(int=7)
    # The kept, converted row is still revalidated: a write through another object is seen.
    later = due + datetime.timedelta(days=1)
    with db.write():
        other.due = later
        other.cost = None
    assert task.due == later
    assert task.cost is None
    assert task["due"] == later  # the read by name takes the same accessor
    # A rollback brings the old value back on the next read.
    with pytest.raises(RuntimeError):
        with db.write():
            other.due = due
            assert task.due == due
            raise RuntimeError("roll back")
    assert task.due == later


def test_iteration_makes_each_object_when_reached_and_leaves_the_collector_as_it_was(db: Any) -> None:
    """Results read every row in one call but make each object when the loop reaches it (a loop
    that drops its objects holds one at a time); the cyclic collector, paused while the rows are
    decoded, is as it was afterwards."""
    import gc

    with db.write():
        db.create_many("Person", [{"id": i, "name": f"p{i}", "age": i, "score": 0.5, "active": True} for i in range(4, 300)])
    cls = db.get("Person", 4).__class__
    iterator = iter(db.objects("Person"))
    made = sum(1 for o in gc.get_objects() if type(o) is cls)
    assert made <= 1  # only an object kept by something else, if any
    assert gc.isenabled()
    with db.write():
        db.create("Person", {"id": 300, "name": "late", "age": 1, "score": 0.5, "active": True})
    # The rows were read when the iteration began; each object is live from there on.
    first = next(iterator)
    assert first.id == 1 and [p.id for p in iterator] == list(range(2, 300))
    gc.disable()
    try:
        assert len(list(db.objects("Person"))) == 300
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_is_paused_for_large_reads_only(db: Any, monkeypatch: Any) -> None:
    """A packed read of many objects pauses the cyclic collector when the last result of the
    same read was large (marshal makes every container at once); a lookup's few do not."""
    import gc

    from drumlin import _rows

    pauses: list[int] = []

    class Counted:
        isenabled = staticmethod(gc.isenabled)
        enable = staticmethod(gc.enable)

        @staticmethod
        def disable() -> None:
            pauses.append(1)
            gc.disable()

    monkeypatch.setattr(_rows, "gc", Counted)
    assert [d["id"] for d in db.query_dicts("Person", "id == $0", 2)] == [2]
    assert [d["id"] for d in db.query_dicts("Person", "id == $0", 3)] == [3]
    assert pauses == []
    with db.write():
        db.create_many("Person", [{"id": i, "name": f"p{i}" * 20, "age": i, "score": 0.5, "active": True} for i in range(4, 500)])
    assert len(db.query_dicts("Person", "id > $0", 0)) == 499  # the last size was small: no pause
    assert pauses == []
    assert len(db.query_dicts("Person", "id > $0", 1)) == 498  # now it is large
    assert pauses == [1] and gc.isenabled()


PLACE_SCHEMA: list[dict[str, Any]] = [
    {"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
    {"name": "Trip", "primaryKey": "id", "properties": {"id": "int", "place": "Place?", "extra": "mixed"}},
    {"name": "Place", "embedded": True, "properties": {"city": "string", "note": "mixed"}},
]


@pytest.fixture
def trips(tmp_path: Path) -> Any:
    with drumlin.open(tmp_path / "trips.drumlin", PLACE_SCHEMA) as db:
        with db.write():
            db.create("Person", {"id": 1, "name": "Ann"})
            db.create("Trip", {"id": 1, "place": {"city": "Oslo", "note": 5}, "extra": "x"})
        yield db


def test_embedded_objects_and_mixed_values_from_the_parents_row_stay_live(trips: Any, tmp_path: Path) -> None:
    trip = trips.get("Trip", 1)
    place = trip.place
    assert place.city == "Oslo" and place.note == 5 and trip.extra == "x"
    # A write through another object of the same rows is seen by both.
    with trips.write():
        other = trips.get("Trip", 1)
        other.place.city = "Bergen"
        other.extra = trips.get("Person", 1)
        other.place.note = [1, {"k": "v"}]
    assert place.city == "Bergen" and trip.place.city == "Bergen"
    assert trip.extra == trips.get("Person", 1) and trip.extra.name == "Ann"
    assert place.note == [1, {"k": "v"}]
    # A rollback is seen.
    with pytest.raises(RuntimeError):
        with trips.write():
            trip.place.city = "Rome"
            trip.extra = {"a": [2]}
            assert trip.place.city == "Rome" and trip.extra == {"a": [2]}
            raise RuntimeError("roll back")
    assert trip.place.city == "Bergen" and trip.extra.name == "Ann"
    # Another handle's commit, after refresh().
    with drumlin.open(tmp_path / "trips.drumlin") as other_db:
        with other_db.write():
            other_db.get("Trip", 1).extra = 2.5
            other_db.get("Trip", 1).place.city = "Paris"
    trips.refresh()
    assert trip.extra == 2.5 and place.city == "Paris"
    # Replacing the embedded object invalidates the one read before; the parent reads the new one.
    with trips.write():
        trip.place = {"city": "Lima", "note": None}
    assert trip.place.city == "Lima" and trip.place.note is None
    with pytest.raises(drumlin.InvalidatedObjectError):
        _ = place.city
    # A deleted parent: its embedded object and mixed value raise.
    kept = trip.place
    with trips.write():
        trips.delete(trip)
    with pytest.raises(drumlin.InvalidatedObjectError):
        _ = trip.extra
    with pytest.raises(drumlin.InvalidatedObjectError):
        _ = kept.city


def test_dates_read_from_the_row_at_the_edges_of_the_stored_range(db: Any) -> None:
    # Dates are stored as int64 nanoseconds (1677-09-21 to 2262-04-11); a row holds them as the
    # text fromisoformat reads, to the microsecond (the nanoseconds below it truncated).
    utc = datetime.timezone.utc
    edges = {
        1: datetime.datetime(1677, 9, 21, 0, 12, 44, tzinfo=utc),
        2: datetime.datetime(2262, 4, 11, 23, 47, 16, 854775, tzinfo=utc),
        3: datetime.datetime(1969, 12, 31, 23, 59, 59, 500001, tzinfo=utc),  # before the epoch
        4: datetime.datetime(2024, 2, 29, 12, 0, 0, 7, tzinfo=utc),  # a leap day, 7 microseconds
    }
    with db.write():
        for i, due in edges.items():
            db.create("Task", {"id": i, "title": "t", "due": due, "ratio": 0.0})
        # One nanosecond before the epoch, through JSON: 1969-12-31T23:59:59.999999 (truncated).
        payload = b'{"id": 5, "title": "t", "ratio": 0, "due": {"$date": "1969-12-31T23:59:59.999999999Z"}}'
        drumlin._ffi.drumlin_create_json(db._ptr(), b"Task", payload, 0, None)
    edges[5] = datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=utc)
    for i, due in edges.items():
        read = db.get("Task", i).due
        assert read == due and read.tzinfo is utc, i
        assert next(iter(db.query("Task", "id == $0", i))).due == due


def test_embedded_objects_inside_embedded_objects_read_with_their_parent(tmp_path: Path) -> None:
    schema: list[dict[str, Any]] = [
        {"name": "Tree", "primaryKey": "id", "properties": {"id": "int", "root": "Branch?"}},
        {"name": "Branch", "embedded": True, "properties": {"name": "string", "tag": "mixed", "leaf": "Leaf?"}},
        {"name": "Leaf", "embedded": True, "properties": {"name": "string", "tag": "mixed", "when": "date?"}},
    ]
    when = datetime.datetime(2025, 3, 4, 5, 6, 7, 8, tzinfo=datetime.timezone.utc)
    with drumlin.open(tmp_path / "tree.drumlin", schema) as db:
        with db.write():
            db.create("Tree", {"id": 1, "root": {"name": "b", "tag": 2.5, "leaf": {"name": "l", "tag": [4], "when": when}}})
        tree = db.get("Tree", 1)
        _, _, _, branch_row = tree._drumlin_row[1]
        assert branch_row[0] == "b" and branch_row[2][3][0] == "l"  # the leaf's row inside the branch's
        root = tree.root
        leaf = root.leaf
        assert (root.name, root.tag, leaf.name, leaf.tag, leaf.when) == ("b", 2.5, "l", [4], when)
        # After a write, each embedded object reads its own row again (with the one inside it).
        with db.write():
            leaf.name = "L"
            root.tag = None
        assert (root.name, root.tag, leaf.name) == ("b", None, "L")
        assert root.leaf.name == "L" and root.leaf.when == when
        assert db.get("Tree", 1).to_dict()["root"]["leaf"]["name"] == "L"


def test_objects_made_from_rows_are_of_their_class_with_its_attribute_rules(db: Any, path: Path) -> None:
    # Objects are built as instances of a builder class (plain slot stores), then made instances
    # of the class: nothing of the builder shows afterwards.
    person = db.get("Person", 1)
    cls = type(person)
    assert cls.__name__ == "Person" and cls is type(next(iter(db.objects("Person"))))
    makers = db._class("Person").makers
    builder = makers.from_row.__defaults__[1]
    assert builder is not cls and builder.__bases__ == (cls,)
    # Each class's makers and each property's getter run code of their own: CPython's inline
    # caches of their slot loads and stores then serve one class (_makers.own_code).
    task_makers = db._class("Task").makers
    assert makers.from_row.__code__ is not task_makers.from_row.__code__
    assert makers.of_rows.__code__ is not task_makers.of_rows.__code__
    assert makers.keyed.__code__ is not task_makers.keyed.__code__
    task_class = db._class("Task").object_type
    assert cls.name.fget.__code__ is not task_class.title.fget.__code__
    assert cls.name.fget.__code__.co_code == task_class.title.fget.__code__.co_code  # one def
    assert person.name == "p1" and person.is_managed and person.is_valid
    with pytest.raises(drumlin.NoSuchPropertyError, match="Person.nope"):
        person.nope = 1
    with pytest.raises(AttributeError, match="cannot be deleted"):
        del person.name
    with db.write():
        db.create("Task", {"id": 1, "title": "t", "owner": 1, "ratio": 0.0})
    owner = db.get("Task", 1).owner  # made from its key alone
    assert type(owner) is cls and owner.name == "p1" and owner == person


def test_model_objects_made_from_rows_are_model_instances(path: Path) -> None:
    class Pet(drumlin.Object):
        id: int = drumlin.persisted(primary_key=True)
        name: str = ""

        def shout(self) -> str:
            return self.name.upper()

    with drumlin.open(path, [Pet]) as pets:
        with pets.write():
            pets.create(Pet, {"id": 1, "name": "rex"})
        pet = pets.get(Pet, 1)
        assert isinstance(pet, Pet) and type(pet).__name__ == "Pet" and pet.shout() == "REX"
        assert [p.name for p in pets.objects(Pet)] == ["rex"]


def test_mixed_values_of_objects_read_by_key_in_results_of_backlinks(tmp_path: Path) -> None:
    # Results of a linkingObjects property read each row by its key (not from one statement):
    # their rows hold the mixed values too, each read from the object's row again.
    schema: list[dict[str, Any]] = [
        {"name": "Parent", "primaryKey": "id", "properties": {
            "id": "int", "kids": {"type": "linkingObjects", "objectType": "Kid", "property": "parent"}}},
        {"name": "Kid", "primaryKey": "id", "properties": {"id": "int", "parent": "Parent?", "extra": "mixed"}},
    ]
    with drumlin.open(tmp_path / "kids.drumlin", schema) as db:
        with db.write():
            parent = db.create("Parent", {"id": 1})
            db.create("Kid", {"id": 1, "parent": 1, "extra": "text"})
            db.create("Kid", {"id": 2, "parent": 1, "extra": [1, {"k": 2}]})
            db.create("Kid", {"id": 3, "parent": 1, "extra": parent})
        kids = sorted(db.get("Parent", 1).kids, key=lambda kid: kid.id)
        assert [kid.extra for kid in kids] == ["text", [1, {"k": 2}], parent]
        LIST = drumlin._ffi.DRUMLIN_TYPE_LIST
        assert kids[1]._drumlin_row[2] == (LIST,)


def test_a_large_read_after_small_reads_of_another_kind_runs_once(db: Any, monkeypatch: Any) -> None:
    # A read of many rows starts in an arena as large as the last read of the same kind for the
    # class. Regression: small query_dicts lookups used to reset that size, so every large
    # iteration after them ran twice (once to learn the size), 40% slower in make bench's range.
    from drumlin import _rows

    with db.write():
        db.create_many("Person", [{"id": i, "name": "n" * 60_000, "age": 1, "score": 0.0, "active": True}
                                  for i in range(10, 34)])  # 1.4 MB of rows
    calls = count_calls(monkeypatch, _rows, "_results_rows_keyed")  # a loop's pages

    def names() -> int:
        return sum(len(person.name) for person in db.objects("Person"))

    assert names() == 24 * 60_000 + 6 and len(calls) == 2  # the first read learns the size
    for expected in (3, 4):
        assert db.query_dicts("Person", "id == 1")[0]["name"] == "p1"
        assert names() == 24 * 60_000 + 6 and len(calls) == expected


def test_an_object_read_carries_its_links_row_and_short_lists_in_one_call(db: Any, monkeypatch: Any) -> None:
    # db.get reads the task's row with its owner's row and its tags (16 at most): reading them
    # makes no further call.
    with db.write():
        db.create("Task", {"id": 1, "title": "t", "owner": 2, "tags": ["a", "b"], "ratio": 1.0})
        db.create("Task", {"id": 2, "title": "long", "owner": None, "tags": [f"x{i}" for i in range(17)], "ratio": 1.0})
    from drumlin import _rows

    calls = [count_calls(monkeypatch, _rows, name) for name in ("_find_row", "_read_row", "_read_values")]
    task = db.get("Task", 1)
    assert task.owner.name == "p2" and task.owner.age == 22 and list(task.tags) == ["a", "b"] and len(task.tags) == 2
    assert [len(c) for c in calls] == [1, 0, 0]
    # A list longer than a row carries is read when asked for, by one call.
    long = db.get("Task", 2)
    assert long.owner is None and list(long.tags) == [f"x{i}" for i in range(17)]
    assert [len(c) for c in calls] == [2, 0, 1]


def test_a_links_row_and_a_list_carried_by_the_owners_row_stay_live(db: Any, path: Path) -> None:
    with db.write():
        db.create("Task", {"id": 1, "title": "t", "owner": 2, "tags": ["a"], "ratio": 1.0})
    task = db.get("Task", 1)
    owner, tags = task.owner, task.tags
    assert owner.name == "p2" and list(tags) == ["a"]
    # A write through another object of the same rows is seen by both.
    with db.write():
        other = db.get("Task", 1)
        other.owner.name = "Pia"
        other.tags.append("b")
    assert owner.name == "Pia" and task.owner.name == "Pia"
    assert list(tags) == ["a", "b"] and list(task.tags) == ["a", "b"] and len(tags) == 2
    # A rollback is seen.
    with pytest.raises(RuntimeError):
        with db.write():
            task.owner = db.get("Person", 3)
            task.tags.append("c")
            assert task.owner.name == "p3" and list(task.tags) == ["a", "b", "c"]
            raise RuntimeError("roll back")
    assert task.owner.name == "Pia" and list(tags) == ["a", "b"]
    # Another handle's commit, after refresh().
    with drumlin.open(path) as other_db:
        with other_db.write():
            other_db.get("Person", 2).name = "Paz"
            other_db.get("Task", 1).tags.clear()
    db.refresh()
    assert owner.name == "Paz" and task.owner.name == "Paz" and list(tags) == [] and len(task.tags) == 0
    # A deleted target: the link reads None, the object read before raises.
    with db.write():
        db.delete(db.get("Person", 2))
    assert task.owner is None
    with pytest.raises(drumlin.InvalidatedObjectError):
        _ = owner.name
    # A deleted owner: its list raises.
    with db.write():
        db.delete(task)
    with pytest.raises(drumlin.InvalidatedObjectError):
        list(tags)


def test_each_state_an_object_can_be_in_reads_as_that_state(path: Path) -> None:
    # An object's key is its row's last item, and a model object not stored yet keeps its values
    # where the row goes (drumlin/object.py, Object.__slots__): each state, and each way between.
    class Pet(drumlin.Object):
        id: int = drumlin.persisted(primary_key=True)
        name: str = ""
        friend: Optional[Pet] = None

    with drumlin.open(path, [Pet]) as pets:
        rex = Pet(id=1, name="rex")  # not stored yet: its values, no key
        assert not rex.is_managed and not rex.is_valid and rex.to_dict()["name"] == "rex"
        assert repr(rex) == "Pet(id=1, name='rex', friend=None)" and rex == rex and rex != Pet(id=1)
        with pets.write():
            pets.add(rex)  # made from a handle: its key not asked yet
            assert rex.is_managed and rex.name == "rex" and rex.to_dict()["id"] == 1
            made = pets.create(Pet, {"id": 2, "name": "fido"})
            # Linked from a bulk insert before anything asked its key: the per-value route.
            pets.create_many(Pet, [{"id": 3, "name": "a", "friend": made}, {"id": 4, "name": "b", "friend": rex}])
        assert [(p.id, p.friend.name) for p in pets.objects(Pet).filter("friend != nil")] == [(3, "fido"), (4, "rex")]
        read = pets.get(Pet, 2)
        assert made == read and hash(made) == hash(read) and {made, read} == {read}
        with pets.write():  # linked again, now that both know their keys: the column route
            pets.create_many(Pet, [{"id": 5, "name": "c", "friend": read}, {"id": 6, "name": "d", "friend": made}])
        assert [p.friend.id for p in pets.objects(Pet).filter("id >= 5")] == [2, 2]
        read.close()  # a closed accessor: no key, no row
        assert repr(read) == "<drumlin.Object Pet (closed)>" and not read.is_valid
        with pytest.raises(drumlin.MisuseError, match="closed"):
            read.name
        with pets.write():
            pets.delete(made)
        with pytest.raises(drumlin.InvalidatedObjectError):
            made.name
        assert pets.get(Pet, 3).friend is None and not made.is_valid

