"""Realm's query rules through Python: whole-list comparison without a quantifier, quantified
constant lists, quantifiers that need a list, null rules, numeric strings, long OR chains and
division by zero (the engine's own tests cover each rule in full)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "age": "int?", "score": "double?", "scores": "int[]", "tags": "string<>"},
    },
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Person",
            [
                {"id": 1, "age": 31, "score": 1.5, "scores": [1, 2, 3], "tags": ["a", "b"]},
                {"id": 2, "age": 17, "score": 9.0, "scores": [10], "tags": ["b"]},
                {"id": 3},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("scores == {1, 2, 3}", [1]),
        ("scores == {3, 2, 1}", []),
        ("scores != {1, 2, 3}", [2, 3]),
        ("tags == {'a', 'b'}", [1]),  # a set in its order, as Realm
        ("tags == {'b', 'a'}", []),
        ("ANY scores == {1, 10}", [1, 2]),
        ("ALL {1, 2} IN scores", [1]),
        ("NONE {1, 10} IN scores", [3]),
        ("NULL CONTAINS tags", []),
        ("age == score", [3]),
        ("age >= score", [1, 2, 3]),
        ("age == '31'", [1]),
        ("score / 0 == inf", [1, 2]),
        ("age / 0 == nil", [3]),  # int / 0 is the largest int, as Realm
        ("age / 0 > 1000", [1, 2]),
    ],
)
def test_realm_rules(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_list_argument_is_compared_whole(db: drumlin.Database) -> None:
    assert ids(db, "scores == $0", [1, 2, 3]) == [1]
    assert ids(db, "age >= $0", None) == [3]


def test_fifty_thousand_or_terms(db: drumlin.Database) -> None:
    query = " OR ".join(f"age == {n + 100}" for n in range(50_000)) + " OR age == 17"
    assert ids(db, query) == [2]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("ANY age > 3", "The keypath following 'ANY' must contain a list ('age' does not)"),
        ("age == inf", "Infinity not supported for int (property 'age')"),
        ("age == 'x'", "Unsupported comparison between type 'int' and type 'string'"),
    ],
)
def test_errors_name_the_property(db: drumlin.Database, query: str, message: str) -> None:
    with pytest.raises(drumlin.QueryError) as raised:
        ids(db, query)
    assert message in str(raised.value)


def test_length_in_lists_arithmetic_on_lists_and_in_any(db: drumlin.Database) -> None:
    assert ids(db, "tags.length == 1") == [1, 2]
    assert ids(db, "ALL tags.length == 1") == [1, 2, 3]
    assert ids(db, "ANY scores * 2 > 10") == [2]
    assert ids(db, "NONE scores * 2 > 10") == [1, 3]
    assert ids(db, "age IN ANY $0", [31, 5]) == [1]
    assert ids(db, "age IN {31, 'x'}") == [1]


def test_object_arguments_of_the_wrong_class_are_an_error(open_db: OpenDb) -> None:
    db = open_db(
        [
            {"name": "Person", "primaryKey": "id", "properties": {"id": "int", "dog": "Dog", "friend": "Person"}},
            {"name": "Dog", "primaryKey": "name", "properties": {"name": "string"}},
        ]
    )
    with db.write():
        db.create("Person", {"id": 1, "dog": {"name": "Rex"}})
        db.create("Person", {"id": 2})
    rex, bob = db.get("Dog", "Rex"), db.get("Person", 2)
    assert [p.id for p in db.query("Person", "dog == $0", rex)] == [1]
    assert [p.id for p in db.query("Person", "dog IN {obj('Dog', $0)}", "Rex")] == [1]
    assert [p.id for p in db.query("Person", "friend == $0", bob)] == []
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "dog == $0", bob)
    assert caught.value.message == (
        "The relationship 'dog' which links to type 'Dog' cannot be compared to an argument of type "
        "'Person' (at position 1)"
    )
    with pytest.raises(drumlin.QueryError):
        db.query("Person", "dog IN $0", [rex, bob])
