"""SORT, DISTINCT and LIMIT: in the query text (applied in the order written) and as chained
Results methods; nulls first, ties keep the previous order, to-one paths as keys, and errors."""

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
            "age": "int?",
            "active": "bool",
            "city": "string?",
            "score": "double?",
            "dog": "Dog",
            "tags": "string[]",
        },
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many("Dog", [{"name": "Rex", "age": 3}, {"name": "Bo", "age": 12}])
        db.create_many(
            "Person",
            [
                {
                    "id": 1,
                    "name": "Ann",
                    "age": 31,
                    "active": True,
                    "city": "Bern",
                    "dog": "Rex",
                    "score": 1.0,
                },
                {"id": 2, "name": "Bob", "age": 17, "active": False, "city": "Zug", "dog": "Bo"},
                {"id": 3, "name": "Cy", "age": None, "active": True, "city": None, "score": 2.0},
                {
                    "id": 4,
                    "name": "Dee",
                    "age": 31,
                    "active": False,
                    "city": "Bern",
                    "dog": "Rex",
                    "score": -1.0,
                },
                {"id": 5, "name": "Eve", "age": 17, "active": True, "city": "Zug", "score": 1.0},
                {"id": 6, "name": "Finn", "age": 45, "active": True, "city": "Bern", "score": 2.0},
            ],
        )
    return db


def ids(results: drumlin.Results) -> list[int]:
    return [person.id for person in results]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("TRUEPREDICATE", [1, 2, 3, 4, 5, 6]),  # creation order
        ("TRUEPREDICATE SORT(age DESC)", [6, 1, 4, 2, 5, 3]),  # ties keep creation order
        ("TRUEPREDICATE SORT(age ASC)", [3, 2, 5, 1, 4, 6]),  # nulls first
        ("TRUEPREDICATE SORT(name DESC)", [6, 5, 4, 3, 2, 1]),
        ("TRUEPREDICATE SORT(score ASC, id DESC)", [2, 4, 5, 1, 6, 3]),
        ("active == true SORT(age ASC, name DESC) LIMIT(2)", [3, 5]),
        ("TRUEPREDICATE LIMIT(3) SORT(age DESC)", [1, 2, 3]),  # the first three created, then sorted
        ("TRUEPREDICATE SORT(age DESC) LIMIT(3)", [6, 1, 4]),
        ("TRUEPREDICATE SORT(name ASC) DISTINCT(active) SORT(id DESC)", [2, 1]),
        ("TRUEPREDICATE DISTINCT(city)", [1, 2, 3]),  # null is one value
        ("TRUEPREDICATE DISTINCT(city, active)", [1, 2, 3, 4, 5]),
        ("age > 20 SORT(age DESC) DISTINCT(age)", [6, 1]),
        ("TRUEPREDICATE SORT(age DESC) LIMIT(2) SORT(name ASC)", [1, 6]),
        ("TRUEPREDICATE SORT(dog.name ASC)", [3, 5, 6, 2, 1, 4]),  # to-one paths; null links first
        ("TRUEPREDICATE SORT(dog.age DESC, id ASC)", [2, 1, 4, 3, 5, 6]),
        ("TRUEPREDICATE DISTINCT(dog.name)", [1, 2, 3]),
        ("TRUEPREDICATE LIMIT(0)", []),
        ("TRUEPREDICATE LIMIT(100)", [1, 2, 3, 4, 5, 6]),
        ("age == $0 SORT(id DESC)", [5, 2]),
    ],
)
def test_in_the_query(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db.query("Person", query, 17)) == expected


def test_chained_methods(db: drumlin.Database) -> None:
    people = db.objects("Person")
    assert ids(people.sort("age", ascending=False)) == [6, 1, 4, 2, 5, 3]
    assert ids(people.sort([("age", False), ("name", True)])) == [6, 1, 4, 2, 5, 3]
    assert ids(people.sort([("age", False), ("name", False)])) == [6, 4, 1, 5, 2, 3]
    assert ids(people.sort(["city", "age"])) == [3, 1, 4, 6, 2, 5]
    assert ids(people.sort(["city", "age"], ascending=False)) == [2, 5, 6, 1, 4, 3]
    assert ids(people.sort("dog.age")) == [3, 5, 6, 1, 4, 2]
    assert ids(people.distinct("age")) == [1, 2, 3, 6]
    assert ids(people.distinct("city", "active")) == [1, 2, 3, 4, 5]
    assert ids(people.distinct(["city", "active"])) == [1, 2, 3, 4, 5]
    assert ids(people.limit(2)) == [1, 2]
    # in the order chained, as in the query text
    assert ids(people.sort("name").distinct("active").sort("id", ascending=False)) == [2, 1]
    assert ids(people.limit(3).sort("age", ascending=False)) == [1, 2, 3]
    assert ids(people.sort("age", ascending=False).limit(3)) == [6, 1, 4]
    assert ids(people.filter("active == true").sort("age").limit(2)) == [3, 5]
    assert ids(people.filter("TRUEPREDICATE SORT(age DESC)").filter("city == 'Bern'")) == [6, 1, 4]
    assert ids(people.sort("age").filter("age > 20 SORT(id DESC)")) == [6, 4, 1]


def test_sorted_results_stay_live(db: drumlin.Database) -> None:
    oldest = db.query("Person", "age != nil SORT(age DESC) LIMIT(2)")
    assert ids(oldest) == [6, 1]
    with db.write():
        db.create("Person", {"id": 7, "name": "Gus", "age": 80, "active": True})
        db.get("Person", 6).age = 10  # type: ignore[union-attr]
    assert ids(oldest) == [7, 1]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            "TRUEPREDICATE SORT(tags ASC)",
            "Cannot sort or group on key path 'tags': it goes through a list (at position 20)",
        ),
        ("TRUEPREDICATE SORT(nope ASC)", "'Person' has no property 'nope' (at position 20)"),
        (
            "TRUEPREDICATE SORT(age)",
            "Invalid predicate: 'TRUEPREDICATE SORT(age)': syntax error, unexpected ')', expecting ASC "
            "or DESC after the sort property at position 23",
        ),
        (
            "TRUEPREDICATE LIMIT(-1)",
            "Invalid predicate: 'TRUEPREDICATE LIMIT(-1)': syntax error, unexpected '-', expecting a "
            "non-negative integer in LIMIT at position 21",
        ),
    ],
)
def test_errors_in_the_query(db: drumlin.Database, query: str, message: str) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", query)
    assert caught.value.message == message


def test_errors_of_the_methods(db: drumlin.Database) -> None:
    people = db.objects("Person")
    with pytest.raises(drumlin.QueryError) as caught:
        people.sort("tags")
    assert (
        caught.value.message
        == "Cannot sort or group on key path 'tags': it goes through a list (at position 1)"
    )
    with pytest.raises(drumlin.QueryError, match=r"^'Person' has no property 'nope' \(at position 1\)$"):
        people.distinct("nope")
    with pytest.raises(drumlin.InvalidArgumentError):
        people.sort("age DESC name")
