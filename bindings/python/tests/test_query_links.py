"""Link paths: to-one paths (also through embedded objects), null links and paths through them,
comparing a link with an Object argument, a primary key, obj('Class', pk), and link errors."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "name": "string", "dog": "Dog", "home": "Address", "pal": "Person"},
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {"name": "string", "age": "int", "vet": "Vet"},
    },
    {"name": "Vet", "properties": {"name": "string"}},
    {"name": "Address", "embedded": True, "properties": {"city": "string", "zip": "string?"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create("Dog", {"name": "Rex", "age": 3, "vet": {"name": "Dr. Who"}})
        db.create("Dog", {"name": "Bo", "age": 12})
        db.create("Dog", {"name": "Fido", "age": 1, "vet": {"name": "Dr. No"}})
        db.create_many(
            "Person",
            [
                {"id": 1, "name": "Ann", "dog": "Rex", "home": {"city": "Bern", "zip": "3000"}},
                {"id": 2, "name": "Bob", "dog": "Bo", "home": {"city": "Zug"}, "pal": 1},
                {"id": 3, "name": "Cy", "pal": 2},
                {"id": 4, "name": "Dee", "dog": "Fido"},
            ],
        )
        dee = db.get("Person", 4)
        assert dee is not None
        dee.pal = dee
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("dog.name == 'Rex'", [1]),
        ("dog.age > 2", [1, 2]),
        ("dog.name != 'Rex'", [2, 3, 4]),
        ("dog.vet.name BEGINSWITH 'Dr.'", [1, 4]),
        ("dog.vet.name == nil", [2, 3]),  # null vet, and no dog at all
        ("dog == nil", [3]),
        ("dog != nil", [1, 2, 4]),
        ("dog.name == nil", [3]),  # a path through a null link is null
        ("dog.age == nil", [3]),
        ("dog.name.@size == 3", [1]),
        ("home.city == 'Zug'", [2]),
        ("home.zip == nil", [2, 3, 4]),
        ("home == nil", [3, 4]),
        ("pal.pal.name == 'Ann'", [3]),
        ("pal.name == name", [4]),  # property against property
        ("pal.dog.age < dog.age", [2]),
    ],
)
def test_link_paths(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_links_against_objects_and_keys(db: drumlin.Database) -> None:
    rex, bo = db.get("Dog", "Rex"), db.get("Dog", "Bo")
    ann = db.get("Person", 1)
    assert ids(db, "dog == $0", rex) == [1]
    assert ids(db, "dog != $0", rex) == [2, 3, 4]
    assert ids(db, "dog == $0", "Bo") == [2]  # the primary key stands for the object
    assert ids(db, "dog == obj('Dog', 'Fido')") == [4]
    assert ids(db, "dog == $0", None) == [3]
    assert ids(db, "dog IN $0", [rex, bo]) == [1, 2]
    assert ids(db, "pal == $0", ann) == [2]
    assert ids(db, "dog == $0", "Nobody") == []
    with db.write():
        db.get("Person", 3).dog = rex  # type: ignore[union-attr]
    assert ids(db, "dog == $0", rex) == [1, 3]


def test_link_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "dog == 5")
    assert (
        caught.value.message
        == "Unsupported comparison between type 'link to Dog' and type 'int' (at position 1)"
    )
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "dog > $0", db.get("Dog", "Rex"))
    assert caught.value.message == (
        "Unsupported comparison operator '>' against type 'link', only == and != are supported "
        "(at position 1)"
    )
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "dog.undefined == 1")
    assert caught.value.message == "'Dog' has no property 'undefined' (at position 5)"
    vet = db.objects("Vet")[0]
    assert [dog.name for dog in db.query("Dog", "vet == $0", vet)] == ["Rex"]  # no primary key needed
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Dog", "vet == $0", db.get("Dog", "Rex"))
    assert caught.value.message.startswith("The relationship 'vet' which links to type 'Vet' cannot be compared")
