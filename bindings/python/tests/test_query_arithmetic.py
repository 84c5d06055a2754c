"""Arithmetic in queries: + - * / with parentheses and precedence on int, double and decimal
properties, constants, arguments, aggregates and link paths; nulls and division by zero."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Item",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "qty": "int?",
            "price": "double?",
            "cost": "decimal128?",
            "name": "string",
            "parts": "int[]",
            "parent": "Item",
        },
    }
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Item",
            [
                {"id": 1, "qty": 31, "price": 1.5, "cost": Decimal("2.5"), "name": "a", "parts": [1, 2]},
                {"id": 2, "qty": 17, "price": 2.0, "cost": Decimal("10"), "name": "b", "parent": 1},
                {"id": 3, "qty": None, "price": None, "name": "c", "parent": 2},
                {"id": 4, "qty": 62, "price": 0.25, "cost": Decimal("-1"), "name": "d", "parts": [5]},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [item.id for item in db.query("Item", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("qty * 2 > 60", [1, 4]),
        ("(qty - 1) * 2 == 32", [2]),
        ("qty - 1 * 2 == 29", [1]),  # * before -
        ("qty + 1 == 32", [1]),
        ("2 * qty == 62", [1]),
        ("qty / 2 == 31", [4]),
        ("qty / 2 == 8", [2]),  # int / int is an integer division, as in Realm
        ("qty / 2.0 == 8.5", [2]),
        ("qty * -1 < -60", [4]),
        ("qty * price == 46.5", [1]),
        ("qty - price > 29", [1, 4]),
        ("price * 4 == 1", [4]),
        ("cost * 2 == 5", [1]),
        ("cost + qty == 27", [2]),
        ("qty * 2 == nil", [3]),  # null in, null out
        ("qty / 0 == 1", []),  # division by zero matches nothing
        ("qty > parts.@sum * 10", [1, 2, 4]),
        ("parts.@count * 10 + qty == 51", [1]),
        ("parent.qty * 2 == 62", [2]),
        ("qty + 1 < parent.qty", [2]),
    ],
)
def test_arithmetic(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_arithmetic_with_arguments(db: drumlin.Database) -> None:
    assert ids(db, "qty * $0 == 62", 2) == [1]
    assert ids(db, "qty * $0 > $1", 1.5, 50) == [4]
    assert ids(db, "price + $0 == 2", Decimal("0.5")) == [1]


def test_arithmetic_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Item", "qty + 'x' == 1")
    assert caught.value.message == "Cannot do arithmetic on 'string' (at position 7)"
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Item", "parts * parts == 2")
    assert caught.value.message.startswith("Arithmetic needs at most one list")
    with pytest.raises(drumlin.QueryError):
        db.query("Item", "name * 2 == 2")
