"""Backlinks in queries: named linkingObjects properties, @links.Class.property for any link
property (to-one and list), @links.@count over every incoming link, quantifiers over backlinks,
and backlinks Results refined with filter and sort."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "name": "string", "age": "int", "dog": "Dog", "dogs": "Dog[]"},
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {
            "name": "string",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
        },
    },
    {"name": "Walker", "properties": {"name": "string", "walks": "Dog<>"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many("Dog", [{"name": n} for n in ("Rex", "Bo", "Fido", "Lonely")])
        db.create_many(
            "Person",
            [
                {"id": 1, "name": "Ann", "age": 31, "dog": "Rex", "dogs": ["Rex", "Bo"]},
                {"id": 2, "name": "Bob", "age": 17, "dog": "Bo", "dogs": ["Bo", "Bo", "Fido"]},
                {"id": 3, "name": "Cy", "age": 45},
                {"id": 4, "name": "Dave", "age": 62, "dog": "Fido", "dogs": ["Fido"]},
            ],
        )
        db.create("Walker", {"name": "Wes", "walks": ["Rex", "Lonely"]})
    return db


def names(db: drumlin.Database, query: str, *args: Any) -> list[str]:
    return [dog.name for dog in db.query("Dog", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("owners.name == 'Bob'", ["Bo", "Fido"]),
        ("owners.@count == 0", ["Lonely"]),
        ("owners.@count == 3", ["Bo"]),  # Bob holds Bo twice: one backlink per link
        ("owners.@size == 2", ["Fido"]),
        ("ALL owners.name == 'Bob'", ["Lonely"]),
        ("NONE owners.age > 30", ["Lonely"]),
        ("ANY owners.age < 20", ["Bo", "Fido"]),
        ("owners.@max.age == 62", ["Fido"]),
        ("owners.@sum.age == 65", ["Bo"]),
        ("@links.Person.dogs.@count == 2", ["Fido"]),
        ("@links.Person.dogs.name == 'Ann'", ["Rex", "Bo"]),
        ("@links.Person.dog.@count == 1", ["Rex", "Bo", "Fido"]),
        ("@links.Person.dog.age > 40", ["Fido"]),
        ("@links.Walker.walks.name == 'Wes'", ["Rex", "Lonely"]),
        ("@links.@count == 0", []),
        ("@links.@count == 1", ["Lonely"]),  # the Walker's set
        ("@links.@count == 3", ["Rex", "Fido"]),  # Rex: Ann's dog + Ann's list + Wes; Fido: Dave x2 + Bob
        ("@links.@count > 3", ["Bo"]),
    ],
)
def test_backlinks_in_queries(db: drumlin.Database, query: str, expected: list[str]) -> None:
    assert names(db, query) == expected


def test_backlinks_follow_changes(db: drumlin.Database) -> None:
    lonely = db.query("Dog", "@links.@count == 0")
    assert names(db, "@links.@count == 0") == []
    with db.write():
        db.delete(db.objects("Walker"))
    assert [dog.name for dog in lonely] == ["Lonely"]
    with db.write():
        db.get("Person", 3).dogs.append("Lonely")  # type: ignore[union-attr]
    assert [dog.name for dog in lonely] == []
    assert names(db, "owners.name == $0", "Cy") == ["Lonely"]


def test_backlinks_results_are_queryable(db: drumlin.Database) -> None:
    bo = db.get("Dog", "Bo")
    assert bo is not None
    assert [p.id for p in bo.owners] == [1, 2, 2]
    assert [p.id for p in bo.owners.filter("age < $0", 20)] == [2, 2]
    assert [p.id for p in bo.owners.sort("age")] == [2, 2, 1]
    assert [p.id for p in bo.owners.distinct("id").sort("name", ascending=False)] == [2, 1]
    assert bo.owners.avg("age") == pytest.approx((31 + 17 + 17) / 3)
    fans = bo.linking_objects("Person", "dog")
    assert [p.id for p in fans.filter("age > 10")] == [2]
    assert [w.name for w in bo.linking_objects("Walker", "walks")] == []


def test_backlinks_against_objects(db: drumlin.Database) -> None:
    ann = db.get("Person", 1)
    assert names(db, "owners == $0", ann) == ["Rex", "Bo"]
    assert names(db, "owners == 2") == ["Bo", "Fido"]  # a primary key stands for the object
    assert names(db, "@links.Person.dog == $0", ann) == ["Rex"]


def test_backlink_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Dog", "@links.Person.name.@count == 1")
    assert (
        caught.value.message
        == "No property 'name' found in type 'Person' which links to type 'Dog' (at position 1)"
    )
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Dog", "@links.Cat.dogs.@count == 1")
    assert caught.value.message == "No object type 'Cat' for '@links.Cat.dogs' (at position 1)"
    with pytest.raises(drumlin.QueryError, match="expecting a property name after '@links.Person.'"):
        db.query("Dog", "@links.Person.@count == 1")
