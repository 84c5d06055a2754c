"""Full-text search (TEXT) on an `indexed: "full-text"` property: all terms required, prefixes,
exclusions, case and diacritics ignored, combined with other predicates, kept in sync with
creates, updates and deletes (also inside a write transaction), and its errors."""

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
            "bio": {"type": "string", "optional": True, "indexed": "full-text"},
        },
    }
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Person",
            [
                {"id": 1, "name": "Ann", "bio": "Loves the Alps and hiking"},
                {"id": 2, "name": "Bob", "bio": "A skier who hikes; café owner"},
                {"id": 3, "name": "Cy", "bio": None},
                {"id": 4, "name": "Dee", "bio": "CAFE lover, hiker and skier"},
                {"id": 5, "name": "Eve", "bio": "naïve résumé writer"},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("bio TEXT 'loves alps'", [1]),  # every term
        ("bio TEXT 'alps -hiking'", []),
        ("bio TEXT 'hik*'", [1, 2, 4]),  # prefix
        ("bio TEXT 'hik* -skier'", [1]),  # exclusion
        ("bio TEXT 'hik* skier'", [2, 4]),
        ("bio TEXT 'skier'", [2, 4]),
        ("bio TEXT 'ski'", []),  # whole words only
        ("bio TEXT 'hike'", []),
        ("bio TEXT 'SKIER'", [2, 4]),  # case-insensitive
        ("bio TEXT 'cafe'", [2, 4]),  # diacritics-insensitive both ways
        ("bio TEXT 'CAFÉ'", [2, 4]),
        ("bio TEXT 'naive resume'", [5]),
        ("bio TEXT 'loves' OR bio TEXT 'lover'", [1, 4]),
        ("NOT bio TEXT 'skier'", [1, 3, 5]),
        ("bio TEXT 'skier' AND name BEGINSWITH 'D'", [4]),
        ("bio TEXT 'who-hikes'", [2]),
    ],
)
def test_text_search(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query) == expected


def test_text_arguments(db: drumlin.Database) -> None:
    assert ids(db, "bio TEXT $0", "alps hiking") == [1]
    assert ids(db, "bio TEXT $0", "Résumé") == [5]
    assert ids(db, "bio TEXT $0 SORT(name DESC)", "hik*") == [4, 2, 1]


def test_index_follows_writes(db: drumlin.Database) -> None:
    skiers = db.query("Person", "bio TEXT 'skier'")
    with db.write():
        db.get("Person", 3).bio = "new skier"  # type: ignore[union-attr]
        db.get("Person", 2).bio = "nothing to see"  # type: ignore[union-attr]
        db.delete(db.get("Person", 4))  # type: ignore[arg-type]
    assert [p.id for p in skiers] == [3]
    assert ids(db, "bio TEXT 'cafe'") == []
    with db.write():
        db.create("Person", {"id": 9, "name": "Zed", "bio": "Skier"})
        assert [p.id for p in skiers] == [3, 9]  # inside the transaction too
        db.create("Person", {"id": 3, "name": "Cy", "bio": None}, update="modified")
        assert [p.id for p in skiers] == [9]
        db.objects("Person").filter("id == 9").delete_all()
        assert [p.id for p in skiers] == []
    with pytest.raises(RuntimeError), db.write():
        db.create("Person", {"id": 10, "name": "Al", "bio": "skier"})
        assert [p.id for p in skiers] == [10]
        raise RuntimeError("roll back")
    assert [p.id for p in skiers] == []  # a rollback leaves the index as it was


@pytest.mark.parametrize(
    ("query", "args", "message"),
    [
        ("bio TEXT ''", (), "A full-text search needs at least one term (at position 10)"),
        (
            "bio TEXT 'skier -skier'",
            (),
            "A full-text search cannot both include and exclude 'skier' (at position 10)",
        ),
        (
            "name TEXT 'a'",
            (),
            "Column has no fulltext index: 'name' is not a full-text indexed string property (at position 1)",
        ),
        ("bio TEXT $0", (None,), "TEXT needs a string on the right (at position 10)"),
        ("bio TEXT $0", (1,), "TEXT needs a string on the right (at position 10)"),
    ],
)
def test_text_errors(db: drumlin.Database, query: str, args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", query, *args)
    assert caught.value.message == message
