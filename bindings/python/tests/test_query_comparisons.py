"""Comparisons on every scalar type: operators, nulls, literals and Python arguments (int, float,
Decimal, bool, datetime, ObjectId, UUID, bytes), numbers across types, logic and TRUEPREDICATE."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Item",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "count": "int?",
            "score": "double?",
            "ratio": "float?",
            "price": "decimal128?",
            "active": "bool?",
            "when": "date?",
            "oid": "objectId?",
            "uid": "uuid?",
            "blob": "data?",
        },
    }
]

O1 = drumlin.ObjectId("65f1c0ffee00000000000001")
O2 = drumlin.ObjectId("65f1c0ffee00000000000002")
U1 = UUID("8f14e45f-ceea-467e-a8f2-3b5a1c2d3e4f")
U2 = UUID("00000000-0000-4000-8000-000000000001")
UTC = timezone.utc
D1990 = datetime(1990, 5, 17, tzinfo=UTC)
D1960 = datetime(1960, 1, 1, 12, 30, tzinfo=UTC)
D2024 = datetime(2024, 3, 18, 13, 50, 58, 402979, tzinfo=UTC)


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Item",
            [
                {
                    "id": 1,
                    "name": "one",
                    "count": 31,
                    "score": 1.5,
                    "ratio": 0.5,
                    "price": Decimal("0.1"),
                    "active": True,
                    "when": D1990,
                    "oid": O1,
                    "uid": U1,
                    "blob": b"\x01\x02\x03",
                },
                {
                    "id": 2,
                    "name": "two",
                    "count": 17,
                    "score": -2.0,
                    "ratio": 2.5,
                    "price": Decimal("10.25"),
                    "active": False,
                    "when": D1960,
                    "oid": O2,
                    "uid": U2,
                    "blob": b"",
                },
                {"id": 3, "name": "three"},
                {
                    "id": 4,
                    "name": "four",
                    "count": 62,
                    "score": 3.0,
                    "ratio": 3.0,
                    "price": Decimal("-3"),
                    "active": False,
                    "when": D2024,
                    "blob": b"\x01",
                },
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [item.id for item in db.query("Item", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("count == 31", [1]),
        ("count = 31", [1]),
        ("31 == count", [1]),
        ("count != 31", [2, 3, 4]),  # a null count matches !=
        ("count <> 31", [2, 3, 4]),
        ("count > 17", [1, 4]),
        ("17 < count", [1, 4]),
        ("count >= 17", [1, 2, 4]),
        ("count => 17", [1, 2, 4]),
        ("count < 31", [2]),
        ("count <= 31", [1, 2]),
        ("count =< 31", [1, 2]),
        ("count == nil", [3]),
        ("count == null", [3]),
        ("count != nil", [1, 2, 4]),
        ("count == 0x1F", [1]),
        ("count > -1", [1, 2, 4]),
        ("count > 1e1", [1, 2, 4]),
    ],
)
def test_int_operators(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_int_arguments(db: drumlin.Database) -> None:
    assert ids(db, "count == $0", 31) == [1]
    assert ids(db, "count == $0", None) == [3]
    assert ids(db, "count > $0 AND count < $1", 10, 40) == [1, 2]
    assert ids(db, "id == $0", 2**63 - 1) == []


def test_numbers_compare_across_types(db: drumlin.Database) -> None:
    assert ids(db, "count > 30.5") == [1, 4]
    assert ids(db, "count == 31.0") == [1]
    assert ids(db, "count == 31.5") == []
    assert ids(db, "count == $0", 31.0) == [1]
    assert ids(db, "count == $0", Decimal("31")) == [1]
    assert ids(db, "score == 3") == [4]
    assert ids(db, "score == $0", 3) == [4]
    assert ids(db, "score > $0", Decimal("1.4")) == [1, 4]
    assert ids(db, "score < 0") == [2]
    assert ids(db, "ratio > 2") == [2, 4]
    assert ids(db, "ratio == 2.5f") == [2]
    assert ids(db, "ratio == $0", 2.5) == [2]
    assert ids(db, "score < inf") == [1, 2, 4]
    assert ids(db, "score > $0", float("-inf")) == [1, 2, 4]


def test_decimal_comparisons_are_exact(db: drumlin.Database) -> None:
    # A decimal literal compares as the exact decimal written, not as a double.
    assert ids(db, "price == 0.1") == [1]
    assert ids(db, "price == 0.10") == [1]
    assert ids(db, "price == 1e-1") == [1]
    assert ids(db, "price >= 0.1 AND price <= 0.1") == [1]
    assert ids(db, "price == $0", Decimal("0.1")) == [1]
    assert ids(db, "price == $0", Decimal("10.250")) == [2]
    assert ids(db, "price > 10") == [2]
    assert ids(db, "price < -2.5") == [4]
    assert ids(db, "price == -3") == [4]
    assert ids(db, "price < $0", 0) == [4]
    assert ids(db, "price == $0", 10.25) == [2]  # exactly representable as a double
    assert ids(db, "price > $0", 10.2) == [2]
    assert ids(db, "price == nil") == [3]


def test_bool(db: drumlin.Database) -> None:
    assert ids(db, "active == true") == [1]
    assert ids(db, "active == false") == [2, 4]
    assert ids(db, "active != true") == [2, 3, 4]
    assert ids(db, "active == $0", False) == [2, 4]
    assert ids(db, "active == nil") == [3]
    with pytest.raises(drumlin.QueryError, match=r"^Unsupported comparison between type 'bool' and type 'int'"):
        db.query("Item", "active == 1")
    with pytest.raises(
        drumlin.QueryError, match=r"^Unsupported comparison between type 'int' and type 'bool'"
    ):
        db.query("Item", "count == $0", True)


def test_dates(db: drumlin.Database) -> None:
    assert ids(db, "when < $0", datetime(1970, 1, 1, tzinfo=UTC)) == [2]
    assert ids(db, "when >= $0", datetime(1990, 5, 17)) == [1, 4]  # a naive datetime is UTC
    assert ids(db, "when == $0", D2024) == [4]  # microseconds kept
    assert ids(db, "when > 2000-01-01@00:00:00") == [4]
    assert ids(db, "when == 1960-01-01@12:30:00") == [2]
    assert ids(db, "when == 2024-03-18T13:50:58:402979000") == [4]
    assert ids(db, "when > T0:0") == [1, 4]
    assert ids(db, "when < T-1:0") == [2]  # before 1970
    assert ids(db, "when == nil") == [3]
    assert ids(db, "when BETWEEN {$0, $1}", D1960, D1990) == [1, 2]


def test_object_id_and_uuid(db: drumlin.Database) -> None:
    assert ids(db, "oid == $0", O1) == [1]
    assert ids(db, "oid == oid(65f1c0ffee00000000000002)") == [2]
    assert ids(db, "oid > $0", O1) == [2]
    assert ids(db, "oid != $0", O1) == [2, 3, 4]
    assert ids(db, "oid == nil") == [3, 4]
    assert ids(db, "uid == $0", U1) == [1]
    assert ids(db, "uid == uuid(00000000-0000-4000-8000-000000000001)") == [2]
    assert ids(db, "uid < $0", U1) == [2]
    assert ids(db, "uid == nil") == [3, 4]
    with pytest.raises(drumlin.QueryError, match="between type 'objectId' and type 'string'"):
        db.query("Item", "oid == $0", O1.hex)
    with pytest.raises(drumlin.QueryError, match="between type 'uuid' and type 'string'"):
        db.query("Item", "uid == $0", str(U1))


def test_binary(db: drumlin.Database) -> None:
    assert ids(db, "blob == $0", b"\x01\x02\x03") == [1]
    assert ids(db, "blob == $0", bytearray(b"\x01")) == [4]
    assert ids(db, 'blob == B64"AQID"') == [1]
    assert ids(db, "blob == $0", b"") == [2]
    assert ids(db, "blob == nil") == [3]
    assert ids(db, "blob BEGINSWITH $0", b"\x01") == [1, 4]
    assert ids(db, "blob CONTAINS $0", b"\x02") == [1]
    assert ids(db, "blob.@size == 3") == [1]


def test_strings_compare(db: drumlin.Database) -> None:
    assert ids(db, "name == 'one'") == [1]
    assert ids(db, 'name == "two"') == [2]
    assert ids(db, "name > 'o'") == [1, 2, 3]
    assert ids(db, "name == nil") == []
    assert ids(db, "name == $0", "one\0") == []  # NUL travels inside arguments


def test_logic_and_constants(db: drumlin.Database) -> None:
    assert ids(db, "TRUEPREDICATE") == [1, 2, 3, 4]
    assert ids(db, "FALSEPREDICATE") == []
    assert ids(db, "NOT (count > 30) OR name == 'four'") == [2, 3, 4]
    assert ids(db, "count > 20 && active == false") == [4]
    assert ids(db, "count < 20 || count == nil") == [2, 3]
    assert ids(db, "!(count == nil)") == [1, 2, 4]
    assert ids(db, "(count > 20 OR count < 0) AND NOT active == true") == [4]


@pytest.mark.parametrize(
    ("query", "args", "message"),
    [
        ("count == 'x'", (), "Unsupported comparison between type 'int' and type 'string' (at position 1)"),
        (
            "count == $0",
            ("thirty-one",),  # a numeric string such as "31" is read as a number, as in Realm
            "Unsupported comparison between type 'int' and type 'string' (at position 1)",
        ),
        ("name == $0", (1,), "Unsupported comparison between type 'string' and type 'int' (at position 1)"),
        (
            "when == $0",
            ("2024",),
            "Unsupported comparison between type 'date' and type 'string' (at position 1)",
        ),
        (
            "blob == $0",
            ("x",),
            "Cannot compare argument $0 with value 'x' to a binary (property 'blob') (at position 1)",
        ),
        (
            "count == $0",
            ({"a": 1},),
            "Unsupported comparison between type 'int' and type 'dictionary' (at position 1)",
        ),
    ],
)
def test_type_mismatches(db: drumlin.Database, query: str, args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Item", query, *args)
    assert caught.value.code == 16
    assert caught.value.message == message
