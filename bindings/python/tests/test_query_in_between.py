"""IN and BETWEEN: constant lists with ANY / ALL / NONE, list arguments from Python lists, tuples
and sets (of scalars and of Objects), IN[c], BETWEEN on scalars and ALL ... BETWEEN on lists."""

from __future__ import annotations

from datetime import datetime, timezone
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
            "score": "double?",
            "born": "date?",
            "scores": "int[]",
            "dog": "Dog",
        },
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string"}},
]

UTC = timezone.utc


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many("Dog", [{"name": "Rex"}, {"name": "Bo"}])
        db.create_many(
            "Person",
            [
                {
                    "id": 1,
                    "name": "Ann",
                    "age": 31,
                    "score": 1.5,
                    "born": datetime(1990, 1, 1, tzinfo=UTC),
                    "scores": [1, 2, 3],
                    "dog": "Rex",
                },
                {
                    "id": 2,
                    "name": "Eve",
                    "age": 17,
                    "score": 2.0,
                    "born": datetime(2005, 1, 1, tzinfo=UTC),
                    "scores": [3],
                    "dog": "Bo",
                },
                {"id": 3, "name": "Cy", "age": None, "scores": []},
                {"id": 4, "name": "Dee", "age": 62, "score": None, "scores": [0, 5]},
                {"id": 5, "name": "Finn", "age": 45, "score": 3.25, "scores": [2, 2]},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("age IN {17, 45}", [2, 5]),
        ("age == ANY {31, 99}", [1]),
        ("age == NONE {31, 17}", [3, 4, 5]),
        ("age == ALL {45}", [5]),
        ("NOT age IN {17, 31}", [3, 4, 5]),
        ("age IN {}", []),
        ("age IN {nil, 17}", [2, 3]),
        ("score IN {1.5, 2}", [1, 2]),  # numbers across types
        ("name IN {'Ann', 'Cy'}", [1, 3]),
        ("name IN[c] {'ANN', 'EVE'}", [1, 2]),
        ("dog IN {'Rex', 'Nobody'}", [1]),
        ("age BETWEEN {17, 31}", [1, 2]),  # inclusive
        ("age BETWEEN {32, 40}", []),
        ("score BETWEEN {1.5, 2.5}", [1, 2]),
        ("born BETWEEN {1989-01-01@00:00:00, 2000-01-01@00:00:00}", [1]),
        ("ALL scores BETWEEN {1, 3}", [1, 2, 3, 5]),  # true for an empty list
        ("scores IN {0, 1}", [1, 4]),
    ],
)
def test_constant_lists(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_list_arguments(db: drumlin.Database) -> None:
    assert ids(db, "age IN $0", [31, 62]) == [1, 4]
    assert ids(db, "age IN $0", (31,)) == [1]
    assert ids(db, "age IN $0", {17, 45}) == [2, 5]
    assert ids(db, "age IN $0", frozenset()) == []
    assert ids(db, "age IN $0", []) == []
    assert ids(db, "name IN $0", ["Ann", "Cy"]) == [1, 3]
    assert ids(db, "name IN[c] $0", ["ann", "FINN"]) == [1, 5]
    assert ids(db, "born IN $0", [datetime(2005, 1, 1, tzinfo=UTC)]) == [2]
    assert ids(db, "dog IN $0", [db.get("Dog", "Bo")]) == [2]
    assert ids(db, "dog IN $0", {db.get("Dog", "Bo"), db.get("Dog", "Rex")}) == [1, 2]
    assert ids(db, "age BETWEEN {$0, $1}", 30, 45) == [1, 5]
    assert ids(db, "scores IN $0", [5]) == [4]
    assert ids(db, "ALL scores IN $0", [2, 3]) == [2, 3, 5]


def test_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "scores BETWEEN {1, 3}")
    assert (
        caught.value.message
        == "Only 'ALL' supported for operator 'BETWEEN' when applied to lists. (at position 1)"
    )
    with pytest.raises(drumlin.QueryError, match="expecting '{' and two values after BETWEEN"):
        db.query("Person", "age BETWEEN $0", [17, 31])
    with pytest.raises(drumlin.QueryError, match="Unsupported comparison between type 'int' and type 'string'"):
        db.query("Person", "age IN $0", ["seventeen"])
