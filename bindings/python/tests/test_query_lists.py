"""To-many paths: lists of objects and of primitives, positions ([0], [FIRST], [LAST], [*]),
@count / @size, the ANY / SOME / ALL / NONE quantifiers (ALL is true for an empty list), nested
to-many paths and list membership of objects."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "dogs": "Dog[]",
            "scores": "int[]",
            "nicks": "string?[]",
        },
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int", "toys": "Toy[]"}},
    {"name": "Toy", "embedded": True, "properties": {"label": "string", "price": "double"}},
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
            ],
        )
        db.create_many(
            "Person",
            [
                {"id": 1, "name": "Ann", "dogs": ["Rex", "Bo"], "scores": [1, 2, 3], "nicks": ["a", None]},
                {"id": 2, "name": "Bob", "dogs": ["Bo", "Bo", "Fido"], "scores": [10, 2], "nicks": ["b"]},
                {"id": 3, "name": "Cy"},
                {"id": 4, "name": "Dee", "dogs": ["Fido"], "scores": [5]},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("dogs.age > 5", [1, 2]),
        ("ANY dogs.age > 5", [1, 2]),
        ("SOME dogs.name == 'Fido'", [2, 4]),
        ("ALL dogs.age > 2", [1, 3]),  # Cy has no dogs: ALL is true
        ("NONE dogs.age > 2", [3, 4]),
        ("dogs.toys.label == 'bone'", [1]),
        ("ALL dogs.toys.price > 3", [2, 3, 4]),
        ("dogs.@count == 3", [2]),
        ("dogs.@size > 1", [1, 2]),
        ("dogs.@count == 0", [3]),
        ("dogs[0].name == 'Bo'", [2]),
        ("dogs[1].name == 'Bo'", [1, 2]),
        ("dogs[FIRST].age > 2", [1, 2]),
        ("dogs[LAST].name == 'Fido'", [2, 4]),
        ("dogs[5].name == 'Bo'", []),
        ("dogs[*].age == 1", [2, 4]),
    ],
)
def test_lists_of_objects(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("scores[0] == 1", [1]),
        ("scores[FIRST] == 10", [2]),
        ("scores[LAST] == 3", [1]),
        ("scores[*] > 1", [1, 2, 4]),
        ("scores > 5", [2]),
        ("ANY scores == 2", [1, 2]),
        ("ALL scores > 1", [2, 3, 4]),
        ("NONE scores > 2", [3]),
        ("2 IN scores", [1, 2]),
        ("scores.@count == 2", [2]),
        ("scores.@size == 0", [3]),
        ("nicks == nil", [1]),
        ("nicks ==[c] 'B'", [2]),
        ("ALL nicks != nil", [2, 3, 4]),
    ],
)
def test_lists_of_primitives(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_list_membership(db: drumlin.Database) -> None:
    bo, fido = db.get("Dog", "Bo"), db.get("Dog", "Fido")
    assert ids(db, "dogs == $0", bo) == [1, 2]
    assert ids(db, "$0 IN dogs", bo) == [1, 2]
    assert ids(db, "ANY dogs == $0", "Fido") == [2, 4]
    assert ids(db, "ALL dogs == $0", bo) == [3]
    assert ids(db, "NONE dogs == $0", fido) == [1, 3]
    assert ids(db, "$0 IN scores", 5) == [4]
    assert ids(db, "scores IN $0", [3, 10]) == [1, 2]


def test_list_queries_follow_changes(db: drumlin.Database) -> None:
    three = db.query("Person", "dogs.@count == 3")
    last_fido = db.query("Person", "dogs[LAST].name == 'Fido'")
    ann = db.get("Person", 1)
    assert ann is not None
    with db.write():
        ann.dogs.append("Fido")
    assert [p.id for p in three] == [1, 2] and [p.id for p in last_fido] == [1, 2, 4]
    with db.write():
        db.delete(db.get("Dog", "Fido"))  # type: ignore[arg-type]
    assert [p.id for p in three] == [] and [p.id for p in last_fido] == []


def test_list_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "scores[-1] == 3")
    assert caught.value.message == (
        "Invalid predicate: 'scores[-1] == 3': syntax error, unexpected '-', expecting an index, FIRST, "
        "LAST, SIZE, '*', a string key or an argument at position 8"
    )
    with pytest.raises(drumlin.QueryError, match=r"^'Dog' has no property 'nope' \(at position 6\)$"):
        db.query("Person", "dogs.nope == 1")
    with pytest.raises(drumlin.QueryError, match=r"^Property 'Person\.scores' has no property 'age' \(at position 1\)$"):
        db.query("Person", "scores.age == 1")
