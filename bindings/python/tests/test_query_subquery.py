"""SUBQUERY(collection, $var, predicate).@count: over lists of objects and backlinks, with
arguments, nested with different variables, and its errors."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "Person", "primaryKey": "id", "properties": {"id": "int", "dogs": "Dog[]", "scores": "int[]"}},
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {
            "name": "string",
            "age": "int",
            "toys": "Toy[]",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
        },
    },
    {"name": "Toy", "properties": {"label": "string", "price": "double"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Dog",
            [
                {
                    "name": "Rex",
                    "age": 3,
                    "toys": [{"label": "bone", "price": 2.5}, {"label": "ball", "price": 4.0}],
                },
                {"name": "Bo", "age": 12, "toys": [{"label": "rope", "price": 5.5}]},
                {"name": "Fido", "age": 1},
                {"name": "Rufus", "age": 2, "toys": [{"label": "stick", "price": 0.5}]},
            ],
        )
        db.create_many(
            "Person",
            [
                {"id": 1, "dogs": ["Rex", "Bo"], "scores": [1, 2]},
                {"id": 2, "dogs": ["Bo", "Bo", "Fido"]},
                {"id": 3},
                {"id": 4, "dogs": ["Fido", "Rufus"]},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("SUBQUERY(dogs, $d, $d.age > 2 AND $d.name BEGINSWITH 'R').@count > 0", [1]),
        ("SUBQUERY(dogs, $d, $d.age > 2).@count == 2", [1, 2]),  # Bob's two Bo entries count twice
        ("SUBQUERY(dogs, $d, $d.age > 2).@count == 0", [3, 4]),
        ("SUBQUERY(dogs, $d, $d.name BEGINSWITH 'R').@size == 1", [1, 4]),
        ("SUBQUERY(dogs, $dog, $dog.toys.price > 3).@count >= 1", [1, 2]),
        ("SUBQUERY(dogs, $d, ALL $d.toys.price < 1).@count == 2", [4]),  # Fido: no toys
        # nested, with different variables
        ("SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > 3).@count > 0).@count == 2", [1, 2]),
        ("SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price < 3).@count == 1).@count == 1", [1, 4]),
    ],
)
def test_subqueries(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_subquery_arguments_and_backlinks(db: drumlin.Database) -> None:
    assert ids(db, "SUBQUERY(dogs, $d, $d.age >= $0).@count == $1", 3, 1) == []
    assert ids(db, "SUBQUERY(dogs, $d, $d.age >= $0).@count == $1", 3, 2) == [1, 2]
    assert ids(db, "SUBQUERY(dogs, $d, $d == $0).@count == 2", "Bo") == [2]
    dogs = db.query("Dog", "SUBQUERY(owners, $o, $o.id > $0).@count >= 1", 1)
    assert [dog.name for dog in dogs] == ["Bo", "Fido", "Rufus"]
    assert [d.name for d in db.query("Dog", "SUBQUERY(toys, $t, $t.price < $0).@count == 1", 3)] == [
        "Rex",
        "Rufus",
    ]


def test_subquery_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "SUBQUERY(scores, $s, $s > 1).@count > 0")
    assert caught.value.message == (
        "A subquery can not operate on a list of primitive values (property 'scores') (at position 10)"
    )
    with pytest.raises(drumlin.QueryError, match="expecting a comparison operator"):
        db.query("Person", "SUBQUERY(dogs, $d, $d.age > 2).@count")
    with pytest.raises(drumlin.QueryError, match="'Dog' has no property 'nope'"):
        db.query("Person", "SUBQUERY(dogs, $d, $d.nope > 2).@count > 0")
