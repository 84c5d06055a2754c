"""Dictionaries in queries: ['key'], .key and [$0] values, @keys, @values, @count / @size, the
quantifiers, aggregates, dictionaries of objects, and changes made through drumlin.Dictionary."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "extra": "mixed{}", "ages": "int?{}", "pets": "Dog{}"},
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
                    "extra": {"k": 2, "s": "x", "n": None},
                    "ages": {"a": 1, "b": 5},
                    "pets": {"first": "Rex"},
                },
                {"id": 2, "extra": {"k": 1}, "ages": {"a": 7}, "pets": {"first": "Bo", "second": "Rex"}},
                {"id": 3},
                {"id": 4, "extra": {"s": "y", "k": "2"}, "ages": {"z": None}, "pets": {"none": None}},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("extra['k'] == 2", [1]),
        ("extra['k'] == '2'", [4]),
        ('extra["k"] > 1', [1]),
        ("extra.k == 1", [2]),
        ("extra['missing'] == nil", [1, 2, 3, 4]),
        ("extra['n'] == nil", [1, 2, 3, 4]),
        ("extra.@keys == 's'", [1, 4]),
        ("extra.@keys BEGINSWITH 'k'", [1, 2, 4]),
        ("ANY extra.@keys == 'k'", [1, 2, 4]),
        ("NONE extra.@keys == 'k'", [3]),
        ("extra.@values == 'x'", [1]),
        ("extra.@values > 1", [1]),
        ("ALL extra.@values == 1", [2, 3]),
        ("extra.@count == 1", [2]),
        ("extra.@size == 0", [3]),
        ("extra.@max == 'x'", [1]),  # strings order above numbers, as in Realm
        ("extra.@max == 1", [2]),
        ("ages.@sum == 6", [1]),
        ("ages.@avg == 3", [1]),
        ("ages.@min == nil", [3, 4]),
        ("ages['a'] < 5", [1]),
        ("ages > 6", [2]),
        ("ALL ages > 0", [1, 2, 3]),  # a null value is not > 0
        ("pets['first'].name == 'Bo'", [2]),
        ("pets.@values.name == 'Rex'", [1, 2]),
        ("pets.name == nil", [1, 2, 3, 4]),  # .name is the value under the key 'name'
        ("pets.first.age == 12", [2]),
        ("pets.@values.age > 10", [2]),
        ("pets.@count == 2", [2]),
        ("pets['none'] == nil", [1, 2, 3, 4]),
        ("pets.@keys == 'none'", [4]),
    ],
)
def test_dictionaries(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_dictionary_arguments(db: drumlin.Database) -> None:
    assert ids(db, "extra[$0] == $1", "k", 1) == [2]
    assert ids(db, "$0 IN extra.@keys", "s") == [1, 4]
    assert ids(db, "pets['first'] == $0", db.get("Dog", "Rex")) == [1]
    assert ids(db, "pets == $0", "Rex") == [1, 2]


def test_dictionary_changes_are_seen(db: drumlin.Database) -> None:
    with_s = db.query("Person", "extra.@keys == 's'")
    person = db.get("Person", 3)
    assert person is not None
    with db.write():
        person.extra["s"] = "z"
        del db.get("Person", 1).extra["s"]  # type: ignore[union-attr]
        db.delete(db.get("Dog", "Rex"))  # type: ignore[arg-type]
    assert [p.id for p in with_s] == [3, 4]
    assert ids(db, "pets.@keys == 'first'") == [1, 2]  # the key stays, with a null value
    assert ids(db, "pets['first'] == nil") == [1, 3, 4]
