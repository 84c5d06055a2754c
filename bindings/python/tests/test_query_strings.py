"""String operators: ==[c], BEGINSWITH, ENDSWITH, CONTAINS, LIKE (with [c]), Unicode case folding
without accent folding, NULL on the right, @size of a string, and SQL wildcards staying literal."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "City",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "note": {"type": "string", "optional": True, "indexed": True},
        },
    }
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "City",
            [
                {"id": 1, "name": "Ann", "note": "ZÜRICH"},
                {"id": 2, "name": "Ánna", "note": "zürich"},
                {"id": 3, "name": "Eve", "note": None},
                {"id": 4, "name": "anne-marie", "note": "Bern"},
                {"id": 5, "name": "", "note": "a*b?c"},
                {"id": 6, "name": "Ève", "note": "50% off_"},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [city.id for city in db.query("City", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("name BEGINSWITH 'A'", [1]),
        ("name BEGINSWITH[c] 'a'", [1, 4]),  # 'Ánna' keeps its accent
        ("name BEGINSWITH[c] 'á'", [2]),
        ("name ENDSWITH 'e'", [3, 4, 6]),
        ("name ENDSWITH[c] 'E'", [3, 4, 6]),
        ("name CONTAINS 'nn'", [1, 2, 4]),
        ("name CONTAINS[c] 'NN'", [1, 2, 4]),
        ("name LIKE '?ve'", [3, 6]),
        ("name LIKE 'A*'", [1]),
        ("name LIKE[c] 'a*'", [1, 4]),
        ("name LIKE '*'", [1, 2, 3, 4, 5, 6]),
        ("name LIKE '??'", []),
        ("name LIKE[c] 'ÈVE'", [6]),
        ("name ==[c] 'ève'", [6]),
        ("name ==[c] 'eve'", [3]),  # case folds, accents stay
        ("name !=[c] 'EVE'", [1, 2, 4, 5, 6]),
        ("note ==[c] 'zürich'", [1, 2]),  # Unicode case folding: Ü == ü
        ("note BEGINSWITH[c] 'zü'", [1, 2]),
        ("note CONTAINS[c] 'Ü'", [1, 2]),
        ("name == ''", [5]),
        ("name BEGINSWITH ''", [1, 2, 3, 4, 5, 6]),
        ("name CONTAINS ''", [1, 2, 3, 4, 5, 6]),
        ("name.@size == 3", [1, 3, 6]),
        ("name.@size > 3", [2, 4]),
        ("name.@count == 0", [5]),
    ],
)
def test_string_operators(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_null_on_the_right(db: drumlin.Database) -> None:
    # As in Realm: BEGINSWITH / ENDSWITH / CONTAINS NULL match everything, LIKE NULL only nulls.
    assert ids(db, "note BEGINSWITH NULL") == [1, 2, 3, 4, 5, 6]
    assert ids(db, "note ENDSWITH nil") == [1, 2, 3, 4, 5, 6]
    assert ids(db, "note CONTAINS NULL") == [1, 2, 3, 4, 5, 6]
    assert ids(db, "note CONTAINS $0", None) == [1, 2, 3, 4, 5, 6]
    assert ids(db, "note LIKE NULL") == [3]
    assert ids(db, "note == NULL") == [3]
    assert ids(db, "note != NULL") == [1, 2, 4, 5, 6]


def test_arguments(db: drumlin.Database) -> None:
    assert ids(db, "name ENDSWITH[c] $0", "VE") == [3, 6]
    assert ids(db, "name CONTAINS $0", "n") == [1, 2, 4]
    assert ids(db, "name LIKE $0", "?nn") == [1]
    assert ids(db, "name LIKE $0", "?nn*") == [1, 2, 4]
    assert ids(db, "name BEGINSWITH[c] $0 AND note != nil", "A") == [1, 4]


def test_sql_wildcards_are_literal(db: drumlin.Database) -> None:
    assert ids(db, "note CONTAINS '%'") == [6]
    assert ids(db, "note CONTAINS '_'") == [6]
    assert ids(db, "note LIKE '50% *'") == [6]
    assert ids(db, "note LIKE '*_'") == [6]
    assert ids(db, "note BEGINSWITH '5_'") == []
    assert ids(db, "note == 'a*b?c'") == [5]


def test_string_escapes_in_literals(db: drumlin.Database) -> None:
    with db.write():
        db.create("City", {"id": 7, "name": 'it\'s "x"\n\\'})
    assert ids(db, "name == 'it\\'s \"x\"\\n\\\\'") == [7]
    assert ids(db, 'name == "it\'s \\"x\\"\\n\\\\"') == [7]
    assert ids(db, "name BEGINSWITH '\\u0069t'") == [7]


def test_string_operators_on_other_types(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("City", "id BEGINSWITH 'x'")
    assert caught.value.message == (
        "Unsupported comparison operator 'beginswith' against type 'int', right side must be a string "
        "or binary type (at position 1)"
    )
    with pytest.raises(
        drumlin.QueryError, match=r"^Unsupported comparison between type 'string' and type 'int'"
    ):
        db.query("City", "name CONTAINS 1")
