"""Query shapes of every size (issue #19, item 4): each runs or is a clear LIMIT/SCHEMA error,
never INTERNAL or a raw SQLite message."""

from __future__ import annotations

from typing import Any

import pytest

import drumlin

pytestmark = pytest.mark.stress

SCHEMA = [{"name": "N", "primaryKey": "id", "properties": {"id": "int", "s": "string", "next": "N"}}]
SIZES = [1, 10, 100, 998, 999, 1000, 10_000, 100_000]


@pytest.fixture(scope="module")
def db() -> Any:
    database = drumlin.open(":memory:", SCHEMA)
    with database.write():
        previous = None
        for i in range(300):
            previous = database.create("N", {"id": i, "s": str(i), "next": previous})
    yield database
    database.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_long_in_list_argument_runs(db: Any, size: int) -> None:
    # One IN over a JSON array: linear in the list's length (100,000 values took ~30 s as an OR).
    assert db.count("N", "id IN $0", list(range(size))) == min(size, 300)
    assert db.count("N", "s IN $0", [str(i) for i in range(size)]) == min(size, 300)
    assert db.count("N", "NOT id IN $0", list(range(size))) == 300 - min(size, 300)
    assert db.count("N", "id == NONE $0", list(range(size))) == 300 - min(size, 300)
    assert db.count("N", "id == ANY $0", [*range(size), "x"]) == min(size, 300)  # a mixed list


@pytest.mark.parametrize("size", SIZES)
def test_many_ored_terms_run(db: Any, size: int) -> None:
    query = " OR ".join(f"id == {i}" for i in range(size))
    assert db.count("N", query) == min(size, 300)


@pytest.mark.parametrize("hops", [1, 10, 11, 48, 49, 100, 256])
def test_long_link_paths_run(db: Any, hops: int) -> None:
    # N(i).next is N(i-1): `hops` links from N(i) reach N(i - hops).
    assert db.count("N", ".".join(["next"] * hops) + ".id == 0") == 1


@pytest.mark.parametrize("hops", [257, 1000, 100_000])
def test_longer_link_paths_are_a_limit(db: Any, hops: int) -> None:
    with pytest.raises(drumlin.LimitError, match="A key path may follow at most 256 links to objects"):
        db.count("N", ".".join(["next"] * hops) + ".id == 0")


@pytest.mark.parametrize("size", SIZES)
def test_many_sort_keys_run(db: Any, size: int) -> None:
    keys = ", ".join(["s DESC", "id ASC"] * (size // 2) or ["s DESC"])
    rows = db.query_dicts("N", f"TRUEPREDICATE SORT({keys}) LIMIT(3)")
    assert [row["s"] for row in rows] == ["99", "98", "97"]
    assert db.count("N", f"TRUEPREDICATE DISTINCT({', '.join(['s'] * size)})") == 300


def test_a_stored_name_starting_with_sqlite_is_a_schema_error() -> None:
    for schema in (
        [{"name": "M", "mapTo": "sqlite_m", "properties": {"x": "int"}}],
        [{"name": "SQLite_stat", "properties": {"x": "int"}}],
    ):
        with pytest.raises(drumlin.SchemaValidationError, match="which SQLite reserves for its own tables"):
            drumlin.open(":memory:", schema)


def test_too_many_properties_is_a_schema_error_and_the_most_still_work() -> None:
    with pytest.raises(
        drumlin.SchemaValidationError, match="Too many properties: type 'M' needs 2001 stored columns; SQLite allows at most 2000"
    ):
        drumlin.open(":memory:", [{"name": "M", "properties": {f"p{i}": "int" for i in range(2000)}}])
    db = drumlin.open(":memory:", [{"name": "M", "properties": {f"p{i}": "int?" for i in range(1999)}}])
    with db.write():
        db.create("M", {"p1998": 5})
    assert db.count("M", "p1998 == 5") == 1
    db.close()
