"""Mixed values in queries: exact types kept, numbers compared across types, @type with every type
name, paths into nested lists and dictionaries, and lists of mixed values."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "Box", "primaryKey": "id", "properties": {"id": "int", "anything": "mixed", "many": "mixed[]"}}
]

OID = drumlin.ObjectId("65f1c0ffee00000000000001")


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    values: list[Any] = [
        3,  # 1
        3.0,  # 2
        "3",  # 3
        Decimal("3"),  # 4
        [1, 2, {"key": "x"}],  # 5
        {"key": "x", "n": [1, 1], "inner": {"deep": True}},  # 6
        None,  # 7
        True,  # 8
        datetime(2020, 1, 1, tzinfo=timezone.utc),  # 9
        b"\x00",  # 10
        OID,  # 11
        UUID(int=1),  # 12
        2.5,  # 13
    ]
    with db.write():
        db.create_many("Box", [{"id": i + 1, "anything": value} for i, value in enumerate(values)])
        db.create("Box", {"id": 14, "many": [1, "a", None, 2.5]})
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [box.id for box in db.query("Box", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("anything == 3", [1, 2, 4]),  # 3, 3.0 and decimal 3; not '3'
        ("anything == '3'", [3]),
        ("anything > 2", [1, 2, 4, 13]),
        ("anything == true", [8]),
        ("anything == nil", [7, 14]),
        ("anything == 2020-01-01@00:00:00", [9]),
        ("anything == oid(65f1c0ffee00000000000001)", [11]),
        ("anything.@type == 'int'", [1]),
        ("anything.@type == 'double'", [2, 13]),
        ("anything.@type == 'string'", [3]),
        ("anything.@type == 'decimal'", [4]),
        ("anything.@type == 'numeric'", [1, 2, 4, 13]),
        ("anything.@type == 'list'", [5]),
        ("anything.@type == 'array'", [5]),
        ("anything.@type == 'dictionary'", [6]),
        ("anything.@type == 'object'", [6]),
        ("anything.@type == 'collection'", [5, 6]),
        ("anything.@type == 'null'", [7, 14]),
        ("anything.@type == 'bool'", [8]),
        ("anything.@type == 'date'", [9]),
        ("anything.@type == 'binary'", [10]),
        ("anything.@type == 'data'", [10]),
        ("anything.@type == 'objectid'", [11]),
        ("anything.@type == 'uuid'", [12]),
        ("anything.@type == 'float'", []),
        ("anything.@type == 'link'", []),
        ("anything.@type IN {'bool', 'uuid'}", [8, 12]),
        ("anything.@type != 'numeric'", [3, 5, 6, 7, 8, 9, 10, 11, 12, 14]),
        ("anything[1] == 2", [5]),
        ("anything[*] == 1", [5]),
        ("anything[2].key == 'x'", [5]),
        ("anything[2]['key'] == 'x'", [5]),
        ("anything['key'] == 'x'", [6]),
        ("anything.key == 'x'", [6]),
        ("anything.n[0] == 1", [6]),
        ("anything.inner.deep == true", [6]),
        ("anything.@size == 3", [5, 6]),
        ("anything.@count == 3", [5, 6]),
        ("many == 'a'", [14]),
        ("many.@type == 'string'", [14]),
        ("many > 2", [14]),
        ("ALL many.@type == 'numeric'", list(range(1, 14))),  # empty lists
    ],
)
def test_mixed(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_mixed_arguments(db: drumlin.Database) -> None:
    assert ids(db, "anything == $0", 3) == [1, 2, 4]
    assert ids(db, "anything == $0", "3") == [3]
    assert ids(db, "anything == $0", UUID(int=1)) == [12]
    assert ids(db, "anything == $0", OID) == [11]
    assert ids(db, "anything == $0", b"\x00") == [10]
    assert ids(db, "anything == $0", Decimal("2.5")) == [13]
    assert ids(db, "anything IN $0", [True, "3"]) == [3, 8]
    assert ids(db, "anything.@type == $0", "date") == [9]


def test_mixed_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Box", "anything.@type == 'nope'")
    assert caught.value.message == "Unknown type name 'nope' for @type (at position 19)"
    # @type of a typed property is a constant, its type: compared with a type name, two
    # constants are compared, which Realm refuses (issue #44, item 6).
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Box", "id.@type == 'string'")
    assert caught.value.message == (
        "Comparison between two constants is not supported ('\"int\"' and '\"string\"') (at position 1)"
    )
    assert len(db.query("Box", "anything.@type == id.@type")) == 1
