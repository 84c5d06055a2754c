"""create_many of classes with links, collections, embedded objects, dates, decimals and mixed
values takes the packed path (one call, the engine walks the nested values) and behaves exactly
like creating each object with create(): the same objects, the same error messages, all or
nothing."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest

import drumlin
from drumlin import _ffi

SCHEMA = [
    {"name": "User", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
    {
        "name": "Task",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "title": "string",
            "due": "date",
            "estimate": "decimal128?",
            "extra": "mixed",
            "owner": "User",
            "tags": "string[]",
            "labels": "string<>",
            "scores": "int{}",
            "watchers": "User[]",
            "ref": "uuid?",
            "location": "Location",
        },
    },
    {"name": "Location", "embedded": True, "properties": {"city": "string", "floor": "int"}},
]
DUE = datetime(2025, 3, 1, 12, 30, 15, 123456, tzinfo=timezone.utc)


def task(i: int, **changes: Any) -> dict[str, Any]:
    values = {
        "id": i,
        "title": f"t{i}",
        "due": DUE,
        "estimate": Decimal("1.25") if i % 2 else None,
        "extra": [1, "two", {"three": 3.0}] if i == 1 else i,
        "owner": 1,
        "tags": ["a", "b"],
        "labels": {"x"},
        "scores": {"k": i},
        "watchers": [1, 2],
        "ref": UUID(int=i),
        "location": {"city": "Oslo", "floor": i},
    }
    values.update(changes)
    return values


@pytest.fixture
def db(tmp_path: Any) -> Any:
    database = drumlin.open(str(tmp_path / "bulk.drumlin"), schema=SCHEMA)
    with database.write():
        database.create_many("User", [{"id": 1, "name": "ann"}, {"id": 2, "name": "bo"}])
    yield database
    database.close()


def calls_to(monkeypatch: Any, name: str) -> list[Any]:
    seen: list[Any] = []
    original = getattr(_ffi, name)

    def spy(*args: Any) -> Any:
        seen.append(args)
        return original(*args)

    monkeypatch.setattr(_ffi, name, spy)
    return seen


def test_realistic_objects_take_one_packed_call_and_read_back_as_created(db: Any, monkeypatch: Any) -> None:
    packed = calls_to(monkeypatch, "drumlin_create_many_marshal")
    json_calls = calls_to(monkeypatch, "drumlin_create_many_json")
    rows = [task(i) for i in range(1, 5)]
    with db.write():
        assert db.create_many("Task", rows) == 4
    assert len(packed) == 1 and not json_calls
    first = db.get("Task", 1)
    assert first.due == DUE
    assert first.estimate == Decimal("1.25") and db.get("Task", 2).estimate is None
    assert first.extra == [1, "two", {"three": 3.0}]
    assert first.owner.name == "ann"
    assert list(first.tags) == ["a", "b"] and set(first.labels) == {"x"}
    assert dict(first.scores) == {"k": 1}
    assert [w.name for w in first.watchers] == ["ann", "bo"]
    assert first.ref == UUID(int=1)
    assert (first.location.city, first.location.floor) == ("Oslo", 1)


def test_links_given_as_objects_or_primary_keys_store_the_same(db: Any) -> None:
    ann, bo = db.get("User", 1), db.get("User", 2)
    with db.write():
        db.create_many("Task", [task(1, owner=ann, watchers=[bo, 1]), task(2, owner=2, watchers=(u for u in [ann]))])
    assert db.get("Task", 1).owner == ann
    assert [w.id for w in db.get("Task", 1).watchers] == [2, 1]
    assert db.get("Task", 2).owner == bo and [w.id for w in db.get("Task", 2).watchers] == [1]


def test_nested_new_object_in_a_link_is_created(db: Any) -> None:
    with db.write():
        db.create_many("Task", [task(1, owner={"id": 7, "name": "new"})])
    assert db.get("User", 7).name == "new"


def error_of(db: Any, create: Any) -> tuple[type, str]:
    with pytest.raises(drumlin.DrumlinError) as raised:
        with db.write():
            create()
    return type(raised.value), str(raised.value)


@pytest.mark.parametrize(
    "bad",
    [
        {"tags": ["a", 2]},                              # wrong type in a list
        {"owner": 99},                                   # missing link target
        {"watchers": [1, 42]},                           # missing target in a list of links
        {"location": {"city": "Oslo", "floor": "x"}},    # bad embedded value
        {"location": {"city": "Oslo", "room": 1}},       # unknown embedded property
        {"due": "2025-01-01"},                           # a string for a date
        {"scores": {"a.b": 1}},                          # a dictionary key the engine refuses
        {"extra": [[1], {"k": None}], "tags": "ab"},     # a string for a list
        {"id": 1},                                       # duplicate primary key
    ],
)
def test_a_bad_element_fails_with_the_message_of_create_and_writes_nothing(db: Any, bad: dict[str, Any]) -> None:
    with db.write():
        db.create("Task", task(1))
    rows = [task(2), task(3, **bad)]
    kind, message = error_of(db, lambda: db.create_many("Task", rows))
    single_kind, single = error_of(db, lambda: db.create("Task", rows[1]))
    assert kind is single_kind
    assert message == f"Element 1: {single}"
    assert db.count("Task") == 1
    assert db.get("Task", 2) is None


def test_a_failing_batch_leaves_nested_objects_uncreated(db: Any) -> None:
    rows = [task(1, owner={"id": 8, "name": "eight"}), task(2, tags=[None])]
    with pytest.raises(drumlin.DrumlinError):
        with db.write():
            db.create_many("Task", rows)
    assert db.get("User", 8) is None
    assert db.count("Task") == 0


def test_whole_columns_encode_as_each_value_would(db: Any) -> None:
    """Dates, decimals and nested objects' dicts are encoded a whole column at a time (no call per
    value); the result is what the per-value encoder gives, and the objects read back as given."""
    from datetime import timedelta

    from drumlin import _payload

    info = db._class("Task")
    east = timezone(timedelta(hours=5, minutes=30))
    dues = (DUE, datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=east), datetime(2262, 1, 1, tzinfo=timezone.utc))
    estimates = (Decimal("1.25"), None, Decimal("NaN"), Decimal("-0"), Decimal("-1E+30"))
    locations = ({"city": "Oslo", "floor": 1}, None, {"floor": 2, "city": "Bergen"})
    for name, column in (("due", dues), ("estimate", estimates), ("location", locations)):
        prop = info.by_name[name]
        encode = _payload._encoder(db, prop)
        whole = _payload._encode_column(db, prop, set(map(type, column)), column)
        assert whole is not None, name
        assert list(whole) == [encode(value) for value in column], name
    rows = [task(i, due=dues[i % 3], estimate=estimates[i % 5], location=locations[i % 3]) for i in range(1, 16)]
    with db.write():
        db.create_many("Task", rows)
    for row in rows:
        stored = db.get("Task", row["id"])
        assert stored.due == row["due"]
        if row["estimate"] is not None and row["estimate"].is_nan():
            assert stored.estimate.is_nan()
        else:
            assert stored.estimate == row["estimate"]
        location = row["location"]
        assert (None if stored.location is None else (stored.location.city, stored.location.floor)) == (
            None if location is None else (location["city"], location["floor"])
        )


def test_columns_the_whole_column_encoding_does_not_take_go_value_by_value(db: Any) -> None:
    """A naive datetime (taken as UTC), a nested dict holding a date: the per-value encoders."""
    from drumlin import _payload

    info = db._class("Task")
    naive = (datetime(2025, 1, 1), DUE)
    assert _payload._encode_column(db, info.by_name["due"], {datetime}, naive) is None
    nested = ({"city": "Oslo", "floor": 1}, {"city": DUE, "floor": 2})
    assert _payload._encode_column(db, info.by_name["location"], {dict}, nested) is None
    with db.write():
        db.create_many("Task", [task(1, due=naive[0]), task(2, due=DUE)])
    assert db.get("Task", 1).due == datetime(2025, 1, 1, tzinfo=timezone.utc)


def test_a_column_of_stored_objects_encodes_as_each_link_would(db: Any, tmp_path: Any) -> None:
    """Owners given as stored objects are encoded a whole column at a time, as the link encoder
    gives each; an unmanaged object, a deleted one or another database's takes the per-value
    path, with its own error or outcome."""
    from drumlin import _payload

    prop = db._class("Task").by_name["owner"]
    ann, bo = db.get("User", 1), db.get("User", 2)
    column = (ann, None, bo, ann)
    whole = _payload._encode_column(db, prop, set(map(type, column)), column)
    encode = _payload._encoder(db, prop)
    assert whole == [encode(value) for value in column]
    assert whole[0] == (_ffi.DRUMLIN_TYPE_LINK, ann._drumlin_class.index, ann._drumlin_key)
    with db.write():
        db.create_many("Task", [task(i, owner=column[i - 1]) for i in range(1, 5)])
    assert [None if t.owner is None else t.owner.name for t in db.objects("Task")] == ["ann", None, "bo", "ann"]

    other = drumlin.open(str(tmp_path / "other.drumlin"), schema=SCHEMA)
    with other.write():
        stranger = other.create("User", {"id": 3, "name": "cy"})
    with db.write():
        gone = db.create("User", {"id": 4, "name": "dee"})
        db.delete(gone)
    assert _payload._encode_column(db, prop, {type(stranger)}, (ann, stranger)) is None
    # A deleted object keeps its key: encoded as the link encoder encodes it, refused by the engine.
    assert _payload._encode_column(db, prop, {type(gone)}, (ann, gone)) == [encode(ann), encode(gone)]
    for odd in (stranger, gone):
        kind, message = error_of(db, lambda: db.create_many("Task", [task(10, owner=ann), task(11, owner=odd)]))
        single_kind, single = error_of(db, lambda: db.create("Task", task(11, owner=odd)))
        assert kind is single_kind
        assert message in (single, f"Element 1: {single}")  # refused in Python, or by the engine
        assert db.get("Task", 10) is None
    other.close()
