"""create_many's packed path (marshal rows) must behave exactly like the JSON path."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

import drumlin

SCHEMA = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": {"type": "string", "indexed": True},
            "age": "int?",
            "score": "double",
            "active": {"type": "bool", "default": True},
            "photo": "data?",
        },
    }
]


@pytest.fixture
def db(tmp_path: Any) -> Any:
    database = drumlin.open(str(tmp_path / "bulk.drumlin"), schema=SCHEMA)
    yield database
    database.close()


def test_packed_batch_round_trips_every_simple_type(db: Any) -> None:
    rows = [
        {
            "id": i,
            "name": f"n{i} é",
            "age": None if i % 3 == 0 else i,
            "score": i * 0.5,
            "photo": bytes([i % 256]),
        }
        for i in range(1, 301)
    ]
    with db.write():
        assert db.create_many("Person", rows) == 300
    assert db.count("Person") == 300
    assert db.get("Person", 3).to_dict() == {
        "id": 3,
        "name": "n3 é",
        "age": None,
        "score": 1.5,
        "active": True,
        "photo": b"\x03",
    }
    assert db.get("Person", 300).to_dict()["age"] is None
    assert db.get("Person", 299).to_dict()["age"] == 299


def test_packed_batch_errors_name_the_element_and_write_nothing(db: Any, tmp_path: Any) -> None:
    rows: list[dict[str, Any]] = [{"id": i, "name": "n", "score": 1.0} for i in range(100)]
    rows[70]["score"] = "high"
    with db.write():
        with pytest.raises(
            drumlin.TypeMismatchError, match="Element 70: Type mismatch for property 'Person.score'"
        ):
            db.create_many("Person", rows)
        rows[70]["score"] = 1.0
        rows[90]["id"] = 5
        with pytest.raises(
            drumlin.DuplicatePrimaryKeyError, match="Element 90: .*existing primary key value '5'"
        ):
            db.create_many("Person", rows)
        rows[90]["id"] = 2**63
        with pytest.raises(drumlin.InvalidArgumentError, match="64-bit"):
            db.create_many("Person", rows)
    assert db.count("Person") == 0
    db.close()
    raw = sqlite3.connect(str(tmp_path / "bulk.drumlin"))
    assert raw.execute('SELECT count(*) FROM "Person"').fetchone() == (0,)


def test_packed_upserts_update_given_properties_and_create_missing_objects(db: Any) -> None:
    with db.write():
        db.create_many("Person", [{"id": i, "name": f"n{i}", "age": i, "score": 1.0} for i in range(4)])
    with db.write():
        count = db.create_many("Person", [{"id": 1, "score": 5.5}, {"id": 3, "score": 7}], update="all")
    assert count == 2
    one = {"id": 1, "name": "n1", "age": 1, "score": 5.5, "active": True, "photo": None}
    assert db.get_dict("Person", 1) == one
    assert db.get_dict("Person", 3)["score"] == 7.0  # an int for a double property
    with db.write():  # unchanged, changed, new (with the required name): every row counts
        rows = [{"id": 1, "name": "n1", "score": 5.5}, {"id": 2, "name": "two", "score": 2.5},
                {"id": 9, "name": "nine", "score": 9.5}]
        assert db.create_many("Person", rows, update="modified") == 3
    assert db.count("Person") == 5
    two = {"id": 2, "name": "two", "age": 2, "score": 2.5, "active": True, "photo": None}
    nine = {"id": 9, "name": "nine", "age": None, "score": 9.5, "active": True, "photo": None}
    assert db.get_dict("Person", 2) == two
    assert db.get_dict("Person", 9) == nine


def test_packed_upsert_errors_name_the_element_and_undo_the_batch(db: Any) -> None:
    with db.write():
        db.create_many("Person", [{"id": i, "name": f"n{i}", "score": 1.0} for i in range(3)])
    with db.write():
        bad_type = [{"id": 0, "score": 3.0}, {"id": 1, "score": "x"}]
        message = "Element 1: Type mismatch for property 'Person.score'"
        with pytest.raises(drumlin.TypeMismatchError, match=message):
            db.create_many("Person", bad_type, update="all")
        new_without_name = [{"id": 0, "score": 3.0}, {"id": 7, "score": 1.0}]
        message = "Element 1: Missing value for property 'Person.name'"
        with pytest.raises(drumlin.MissingValueError, match=message):
            db.create_many("Person", new_without_name, update="modified")
        with pytest.raises(drumlin.NotNullableError, match="Element 0: .*'Person.score'"):
            db.create_many("Person", [{"id": 0, "score": None}], update="all")
    assert [db.get_dict("Person", i)["score"] for i in range(3)] == [1.0, 1.0, 1.0]
    assert db.count("Person") == 3


def test_packing_leaves_the_cyclic_collector_as_it_found_it(db: Any) -> None:
    import gc

    assert gc.isenabled()
    with db.write():
        assert db.create_many("Person", [{"id": i, "name": "n", "score": 1.0} for i in range(50)]) == 50
        assert gc.isenabled()
        with pytest.raises(drumlin.TypeMismatchError):
            db.create_many("Person", [{"id": 99, "name": "n", "score": object()}])
        assert gc.isenabled()
        gc.disable()
        try:
            db.create_many("Person", [{"id": 100, "name": "n", "score": 2.0}])
            assert not gc.isenabled()
        finally:
            gc.enable()
    assert db.count("Person") == 51


def test_mixed_key_sets_and_other_types_take_the_json_path(db: Any) -> None:
    with db.write():
        assert (
            db.create_many("Person", [{"id": 1, "name": "a", "score": 1}, {"id": 2, "score": 2, "name": "b"}])
            == 2
        )
        assert db.create_many("Person", [{"id": 3, "name": "c", "score": 3, "age": 30}]) == 1
        with pytest.raises(drumlin.NoSuchPropertyError):
            db.create_many("Person", [{"id": 4, "name": "d", "score": 4, "nope": 1}])
    assert [p.name for p in db.objects("Person")] == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("bad", "kind"),
    [
        ([1], "list"),
        ((1, 2), "tuple"),
        ((1, 2, 3), "tuple"),          # three items, no such tag
        ((5, "x", 1), "tuple"),        # a date's tag with a text for its seconds
        ((10, 0), "tuple"),            # a link's tag with one item
        ((), "tuple"),
        ((1, 2, 3, 4), "tuple"),
        ({"a": 1}, "dict"),
        ({1}, "set"),
        (1j, "complex"),
    ],
)
def test_a_container_in_a_plain_class_names_the_element_and_property(db: Any, bad: Any, kind: str) -> None:
    rows = [{"id": i, "name": f"n{i}", "age": i, "score": 1.0} for i in range(100)]
    rows[70]["age"] = bad
    with (
        pytest.raises(drumlin.TypeMismatchError, match=rf"Element 70: .*'Person\.age'.*got {kind}"),
        db.write(),
    ):
        db.create_many("Person", rows)
    assert len(db.objects("Person")) == 0


def test_values_marshal_cannot_carry_take_the_general_path(db: Any) -> None:
    import datetime
    import enum

    class Level(enum.IntEnum):
        HIGH = 3

    with db.write():
        assert db.create_many("Person", [{"id": 1, "name": "a", "age": Level.HIGH, "score": 2.0}]) == 1
    assert db.get("Person", 1).age == 3
    with pytest.raises(drumlin.TypeMismatchError, match="Person.name"), db.write():
        db.create_many("Person", [{"id": 2, "name": datetime.datetime(2020, 1, 1), "age": 1, "score": 1.0}])


def test_containers_in_a_mixed_property_are_stored(tmp_path: Any) -> None:
    schema = [{"name": "Bag", "primaryKey": "id", "properties": {"id": "int", "stuff": "mixed"}}]
    database = drumlin.open(str(tmp_path / "mixed.drumlin"), schema=schema)
    try:
        with database.write():
            database.create_many("Bag", [{"id": 1, "stuff": [1, {"k": "v"}]}, {"id": 2, "stuff": 5}])
        assert database.get("Bag", 1).stuff == [1, {"k": "v"}]
        assert database.get("Bag", 2).stuff == 5
    finally:
        database.close()
