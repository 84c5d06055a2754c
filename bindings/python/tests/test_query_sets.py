"""Sets in queries: sets of primitives and of objects behave as to-many paths (ANY by default, ALL,
NONE, IN), with @count / @size and aggregates, and follow changes made through drumlin.Set."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "tags": "string<>", "lucky": "int<>", "favorites": "Dog<>"},
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {
            "name": "string",
            "age": "int",
            "fans": {"type": "linkingObjects", "objectType": "Person", "property": "favorites"},
        },
    },
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Dog", [{"name": "Rex", "age": 3}, {"name": "Bo", "age": 12}, {"name": "Fido", "age": 1}]
        )
        db.create_many(
            "Person",
            [
                {"id": 1, "tags": ["a", "b"], "lucky": [7, 3], "favorites": ["Rex", "Bo"]},
                {"id": 2, "tags": ["b"], "lucky": [3], "favorites": ["Bo"]},
                {"id": 3},
                {"id": 4, "tags": ["c", "B"], "lucky": [13, 40, 1], "favorites": ["Fido"]},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("'b' IN tags", [1, 2]),
        ("tags == 'B'", [4]),
        ("tags ==[c] 'B'", [1, 2, 4]),
        ("ANY tags BEGINSWITH[c] 'b'", [1, 2, 4]),
        ("ALL tags == 'b'", [2, 3]),
        ("NONE tags == 'b'", [3, 4]),
        ("tags IN {'c', 'z'}", [4]),
        ("tags.@count == 2", [1, 4]),
        ("tags.@size == 0", [3]),
        ("lucky > 10", [4]),
        ("ALL lucky < 10", [1, 2, 3]),
        ("lucky.@sum == 10", [1]),
        ("lucky.@max == 40", [4]),
        ("lucky.@min == nil", [3]),
        ("lucky.@avg == 3", [2]),
        ("favorites.name == 'Bo'", [1, 2]),
        ("favorites.age > 10", [1, 2]),
        ("ALL favorites.age > 2", [1, 2, 3]),
        ("NONE favorites.age > 2", [3, 4]),
        ("favorites.@count == 1", [2, 4]),
        ("favorites.@sum.age == 15", [1]),
        ("favorites.@min.age == 1", [4]),
        ("SUBQUERY(favorites, $f, $f.age > 2).@count == 2", [1]),
    ],
)
def test_sets(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_set_arguments_and_backlinks(db: drumlin.Database) -> None:
    rex = db.get("Dog", "Rex")
    assert ids(db, "favorites == $0", rex) == [1]
    assert ids(db, "$0 IN favorites", "Bo") == [1, 2]
    assert ids(db, "$0 IN tags", "c") == [4]
    assert ids(db, "ANY lucky IN $0", {1, 3}) == [1, 2, 4]
    assert [d.name for d in db.query("Dog", "fans.@count == 2")] == ["Bo"]
    assert [d.name for d in db.query("Dog", "@links.Person.favorites.id == 4")] == ["Fido"]


def test_set_changes_are_seen(db: drumlin.Database) -> None:
    tagged_b = db.query("Person", "tags ==[c] 'b'")
    person = db.get("Person", 3)
    assert person is not None
    with db.write():
        person.tags.add("b")
        db.get("Person", 4).tags.discard("B")  # type: ignore[union-attr]
        person.favorites.add("Rex")
    assert [p.id for p in tagged_b] == [1, 2, 3]
    assert ids(db, "favorites.name == 'Rex'") == [1, 3]
