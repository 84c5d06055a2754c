"""create_many of classes with relationships writes its rows in multi-row batches (the objects'
own rows, embedded rows, list and dictionary elements, nested mixed values) and finds link
targets once per call: every piece must store exactly what creating the objects one by one
stores, fail on the same element with the same message, and leave the database unchanged on a
failure. Batches hold 64 rows, so the fixtures here cross several batch boundaries."""

from __future__ import annotations

import marshal
from ctypes import c_int32
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest

import drumlin
from drumlin._constants import DRUMLIN_TYPE_TIMESTAMP

SCHEMA = [
    {"name": "User", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
    {"name": "Tag", "primaryKey": "name", "properties": {"name": "string", "weight": "int"}},
    {
        "name": "Task",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "title": "string",
            "due": "date",
            "estimate": "decimal128?",
            "extra": "mixed",
            "owner": "User?",
            "tags": "string[]",
            "labels": "string<>",
            "scores": "int{}",
            "watchers": "User[]",
            "topics": "Tag[]",
            "notes": "mixed[]",
            "stops": "Location[]",
            "location": "Location?",
            "parent": "Task?",
        },
    },
    {"name": "Location", "embedded": True, "properties": {"city": "string", "floor": "int", "codes": "int[]"}},
    # No primary key: objects are keyed by _drumlin_key, which a batch assigns as SQLite would.
    {"name": "Event", "properties": {"what": "string", "where": "Location?", "data": "mixed", "by": "User?"}},
]
START = datetime(2025, 1, 1, tzinfo=timezone.utc)


def task(i: int) -> dict[str, Any]:
    """Task i: lists of 0-4 elements, a mixed value that is a scalar, a list or a dict (nested
    two deep on some), embedded objects alone and in a list, links by primary key."""
    extra: Any = [i, f"s{i}", {"k": [i, None]}] if i % 5 == 0 else ({"n": i, "l": [1.5, "x"]} if i % 5 == 1 else i * 0.5)
    return {
        "id": i,
        "title": f"task {i}",
        "due": START + timedelta(minutes=i, microseconds=i),
        "estimate": Decimal(f"{i}.25") if i % 3 else None,
        "extra": extra,
        "owner": 1 + i % 3 if i % 7 else None,
        "tags": [f"t{(i + k) % 5}" for k in range(i % 5)],
        "labels": {f"l{i % 2}", "all"},
        "scores": {f"s{k}": i * k for k in range(i % 3)},
        "watchers": [1 + (i + k) % 3 for k in range(i % 4)],
        "topics": ["red", "blue"][: i % 3],
        "notes": [i, "n", [i, {"deep": True}]] if i % 2 else [],
        "stops": [{"city": f"c{k}", "floor": k, "codes": list(range(k))} for k in range(i % 3)],
        "location": {"city": f"city{i % 4}", "floor": i, "codes": [i, i + 1]} if i % 4 else None,
    }


def open_db(path: Any) -> Any:
    db = drumlin.open(str(path), schema=SCHEMA)
    with db.write():
        db.create_many("User", [{"id": u, "name": f"user{u}"} for u in (1, 2, 3)])
        db.create_many("Tag", [{"name": "red", "weight": 1}, {"name": "blue", "weight": 2}])
    return db


@pytest.fixture
def pair(tmp_path: Any) -> Any:
    """Two databases with the same users and tags: one for create_many, one for create()."""
    many, single = open_db(tmp_path / "many.drumlin"), open_db(tmp_path / "single.drumlin")
    yield many, single
    many.close()
    single.close()


def contents(db: Any, class_name: str) -> list[dict[str, Any]]:
    return db.objects(class_name).to_dicts()


def error_of(db: Any, create: Any) -> tuple[type, str]:
    with pytest.raises(drumlin.DrumlinError) as raised:
        with db.write():
            create()
    return type(raised.value), str(raised.value)


def test_batched_objects_store_what_creating_them_one_by_one_stores(pair: Any) -> None:
    many, single = pair
    rows = [task(i) for i in range(1, 301)]
    with many.write():
        assert many.create_many("Task", rows) == 300
    with single.write():
        for row in rows:
            single.create("Task", row)
    assert contents(many, "Task") == contents(single, "Task")
    # Spot checks that the comparison above compares something.
    assert list(many.get("Task", 4).tags) == ["t4", "t0", "t1", "t2"]
    assert list(many.get("Task", 299).tags) == ["t4", "t0", "t1", "t2"]
    assert many.get("Task", 10).extra == [10, "s10", {"k": [10, None]}]
    assert many.get("Task", 11).extra == {"n": 11, "l": [1.5, "x"]}
    assert [s.city for s in many.get("Task", 11).stops] == ["c0", "c1"]
    assert list(many.get("Task", 11).stops[1].codes) == [0]
    assert dict(many.get("Task", 2).scores) == {"s0": 0, "s1": 2}
    assert [w.id for w in many.get("Task", 7).watchers] == [2, 3, 1]
    assert [tp.name for tp in many.get("Task", 2).topics] == ["red", "blue"]
    assert list(many.get("Task", 3).notes) == [3, "n", [3, {"deep": True}]]
    assert many.get("Task", 7).owner is None and many.get("Task", 8).owner.id == 3
    assert many.count("Location") == single.count("Location")
    assert sum(len(t.tags) for t in many.objects("Task")) == sum(i % 5 for i in range(1, 301))


def test_links_given_as_objects_and_by_primary_key_batch_alike(pair: Any) -> None:
    many, single = pair
    users = {u.id: u for u in many.objects("User")}
    tags = {t.name: t for t in many.objects("Tag")}
    rows = [task(i) for i in range(1, 151)]
    as_objects = [
        dict(row, owner=users.get(row["owner"]), watchers=[users[w] for w in row["watchers"]],
             topics=[tags[name] for name in row["topics"]])
        for row in rows
    ]
    with many.write():
        many.create_many("Task", as_objects)
    with single.write():
        single.create_many("Task", rows)
    assert contents(many, "Task") == contents(single, "Task")


def test_packed_rows_referring_back_to_a_list_or_dict_store_what_each_row_gives(pair: Any) -> None:
    # marshal writes a list or dict that several rows share once and refers back to it after;
    # the engine reads such containers in place the first time, so it must read them again.
    many, single = pair
    location = {"city": "shared", "floor": 3, "codes": [7, 8]}
    tags = ["a", "b", "a"]
    start = int(START.timestamp())
    rows = [(i, f"task {i}", (DRUMLIN_TYPE_TIMESTAMP, start + i, 0), tags, location) for i in range(1, 140)]
    data = marshal.dumps(rows)
    unshared = [(i, title, due, list(tags), dict(location, codes=[7, 8])) for i, title, due, _, _ in rows]
    assert len(data) < len(marshal.dumps(unshared))   # the back references are there
    info = many._class("Task")
    names = ("id", "title", "due", "tags", "location")
    indices = (c_int32 * len(names))(*(info.by_name[name].index for name in names))
    with many.write():
        assert many._create_many_packed(many._ptr(), b"Task", indices, data, 0) == 139
    with single.write():
        for i, title, _, tag_list, place in rows:
            due = START + timedelta(seconds=i)
            single.create("Task", {"id": i, "title": title, "due": due, "tags": tag_list, "location": place})
    assert contents(many, "Task") == contents(single, "Task")
    assert [many.get("Task", i).location.city for i in (1, 70, 139)] == ["shared"] * 3
    assert list(many.get("Task", 139).tags) == ["a", "b", "a"]
    assert list(many.get("Task", 139).location.codes) == [7, 8]
    assert many.count("Location") == 139


def test_decimals_given_in_any_form_store_what_creating_them_one_by_one_stores(pair: Any) -> None:
    # A decimal's canonical text is stored as given; other forms are parsed and printed.
    many, single = pair
    texts = ["12.5", "-12.50", "0", "-0", "0.000001", "0.0000001", "0.000000", "1E+3", "100", "7.000",
             "1234567890123456789012345678901234", "0.0012300", "-0.0", "1.5E-9", "NaN", "Infinity"]
    rows = [dict(task(i + 1), estimate=Decimal(text)) for i, text in enumerate(texts * 10)]
    with many.write():
        many.create_many("Task", rows)
    with single.write():
        for row in rows:
            single.create("Task", row)
    stored = [str(t.estimate) for t in many.objects("Task")]
    assert stored == [str(t.estimate) for t in single.objects("Task")]
    assert stored[: len(texts)] == [str(Decimal(text)) for text in texts]   # trailing zeros kept: "-12.50", "7.000"


def test_objects_without_a_primary_key_get_the_keys_create_gives(pair: Any) -> None:
    many, single = pair
    for db in (many, single):
        with db.write():
            for n in range(3):
                db.create("Event", {"what": f"old{n}"})
            db.delete(db.query("Event", "what == 'old2'")[0])   # the greatest key is free again
    rows = [
        {"what": f"e{i}", "where": {"city": "x", "floor": i, "codes": [i]} if i % 2 else None,
         "data": [i, {"a": i}] if i % 3 == 0 else i, "by": 1 + i % 3}
        for i in range(130)
    ]
    with many.write():
        many.create_many("Event", rows)
    with single.write():
        for row in rows:
            single.create("Event", row)
    assert contents(many, "Event") == contents(single, "Event")
    keys = [e._drumlin_object_key() for e in many.objects("Event")]
    assert keys == [e._drumlin_object_key() for e in single.objects("Event")]
    assert keys == sorted(keys) and len(keys) == 132


def test_rows_of_different_keys_take_the_json_path_and_batch_alike(pair: Any) -> None:
    many, single = pair
    rows = [task(i) for i in range(1, 140)]
    for row in rows[::2]:
        del row["estimate"]   # not every row has the same keys: the JSON path
    with many.write():
        many.create_many("Task", rows)
    with single.write():
        for row in rows:
            single.create("Task", row)
    assert contents(many, "Task") == contents(single, "Task")


def test_a_link_to_an_object_created_earlier_in_the_batch_finds_it(pair: Any) -> None:
    many, _ = pair
    rows = [dict(task(1), owner={"id": 40, "name": "new"})] + [dict(task(i), owner=40, parent=1) for i in range(2, 100)]
    with many.write():
        many.create_many("Task", rows)
    assert many.get("Task", 99).owner.name == "new"
    assert many.get("Task", 99).parent.id == 1
    assert len(many.get("User", 40).linking_objects("Task", "owner")) == 99


@pytest.mark.parametrize(
    ("position", "bad"),
    [
        (0, {"tags": ["a", 2]}),
        (70, {"watchers": [1, 42]}),
        (130, {"stops": [{"city": "x", "floor": 1, "codes": ["no"]}]}),
        (150, {"location": "not a dict"}),
        (199, {"scores": {"k": "not an int"}}),
        (100, {"id": 1}),      # a duplicate of an object created before the call
        (120, {"id": 60}),     # a duplicate of an object created earlier in the call
        (64, {"topics": ["green"]}),
    ],
)
def test_a_bad_element_anywhere_in_the_batches_fails_alone_and_writes_nothing(pair: Any, position: int, bad: dict[str, Any]) -> None:
    many, single = pair
    for db in (many, single):
        with db.write():
            db.create("Task", task(1))
    locations = many.count("Location")
    rows = [task(i) for i in range(2, 202)]
    rows[position] = dict(rows[position], **bad)
    kind, message = error_of(many, lambda: many.create_many("Task", rows))
    with single.write():
        single.create_many("Task", rows[:position])  # what was created before the bad element
    single_kind, single_message = error_of(single, lambda: single.create("Task", rows[position]))
    assert kind is single_kind
    assert message == f"Element {position}: {single_message}"
    assert many.count("Task") == 1 and many.count("Location") == locations == 2
    assert many.count("User") == 3 and many.count("Tag") == 2


def test_the_first_bad_element_is_reported_when_a_later_one_is_bad_too(pair: Any) -> None:
    many, _ = pair
    rows = [task(i) for i in range(1, 200)]
    rows[90] = dict(rows[90], id=5)                 # a duplicate key, found when its batch is written
    rows[110] = dict(rows[110], tags=["ok", 3])     # a wrong type, found when it is read
    kind, message = error_of(many, lambda: many.create_many("Task", rows))
    assert kind is drumlin.DuplicatePrimaryKeyError
    assert message == "Element 90: Attempting to create an object of type 'Task' with an existing primary key value '5'."
    assert many.count("Task") == 0 and many.count("Location") == 0
    rows[90] = dict(rows[90], id=91)
    kind, message = error_of(many, lambda: many.create_many("Task", rows))
    assert kind is drumlin.TypeMismatchError and message.startswith("Element 110: ")


@pytest.mark.parametrize("mode", ["modified", "all"])
def test_update_modes_store_what_upserting_one_by_one_stores(pair: Any, mode: str) -> None:
    many, single = pair
    first = [task(i) for i in range(1, 100)]
    again = [dict(task(i), title=f"again {i}", tags=["z"] * (i % 3)) for i in range(50, 170)]
    with many.write():
        many.create_many("Task", first)
        many.create_many("Task", again, update=mode)
    with single.write():
        for row in first:
            single.create("Task", row)
        for row in again:
            single.create("Task", row, update=mode)
    assert contents(many, "Task") == contents(single, "Task")
    assert list(many.get("Task", 53).tags) == ["z", "z"] and many.get("Task", 53).title == "again 53"
