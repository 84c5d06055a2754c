"""get_dict and query_dicts read whole rows (drumlin/_rows.py) once a class is known: they must give
what the live objects give, per database and per thread, for every key type and result size."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import drumlin

SCHEMA = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int", "name": {"type": "string", "indexed": True}, "age": "int", "bio": "string?",
        },
    },
    {"name": "Tag", "primaryKey": "label", "properties": {"label": "string", "uses": "int"}},
]


def person(i: int, **extra: Any) -> dict[str, Any]:
    return {"id": i, "name": f"n{i % 3}", "age": 20 + i, "bio": None, **extra}


@pytest.fixture
def db(open_db: Any) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many("Person", [person(i) for i in range(6)])
        db.create("Tag", {"label": "red", "uses": 2})
    assert db.get_dict("Person", 0) == person(0)  # builds the reader: what follows is the fast path
    assert db.query_dicts("Person", "name == $0", "n0") == [person(0), person(3)]
    return db


def test_fast_reads_match_the_live_objects(db: drumlin.Database) -> None:
    for i in range(6):
        assert db.get_dict("Person", i) == db.get("Person", i).to_dict() == person(i)
    assert db.get_dict("Person", 6) is None
    assert db.get_dict("Person", -(2**63)) is None
    assert [d["id"] for d in db.query_dicts("Person", "name == $0", "n1")] == [1, 4]
    assert db.query_dicts("Person", "age >= $0 AND name == $1", 23, "n2") == [person(5)]
    assert db.query_dicts("Person", "name == $0", "nobody") == []


def test_keys_the_fast_path_does_not_take_get_the_general_paths_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.InvalidArgumentError, match="64 bits"):
        db.get_dict("Person", 2**63)
    with pytest.raises(drumlin.TypeMismatchError, match="Person.id"):
        db.get_dict("Person", "1")
    with pytest.raises(drumlin.TypeMismatchError, match="Person.id"):
        db.get_dict("Person", 1.0)
    with pytest.raises(drumlin.TypeMismatchError, match="class names are strings"):
        db.get_dict(["Person"], 1)  # type: ignore[arg-type]
    with pytest.raises(drumlin.TypeMismatchError, match="class names are strings"):
        db.query_dicts(["Person"], "TRUEPREDICATE")  # type: ignore[arg-type]
    with pytest.raises(drumlin.TypeMismatchError, match="a query is a string"):
        db.query_dicts("Person", ["TRUEPREDICATE"])  # type: ignore[arg-type]
    assert db.get_dict("Person", 1) == person(1)  # and nothing changed


def test_a_string_primary_key_reads_through_the_general_path(db: drumlin.Database) -> None:
    assert db.get_dict("Tag", "red") == {"label": "red", "uses": 2}
    assert db.get_dict("Tag", "red") == {"label": "red", "uses": 2}
    assert db.get_dict("Tag", "blue") is None


def test_a_row_larger_than_the_arena_is_read_whole(db: drumlin.Database) -> None:
    bio = "b" * 100_000 + "end"  # larger than the 16 KB arena, smaller than the kept scratch area
    with db.write():
        db.get("Person", 2).bio = bio
    assert db.get_dict("Person", 2) == person(2, bio=bio)
    rows = db.query_dicts("Person", "bio != nil OR name == $0", "n0")  # grows the arena
    assert rows == [person(0), person(2, bio=bio), person(3)]
    assert db.query_dicts("Person", "name == $0", "n1") == [person(1), person(4)]  # after growing


def test_readers_belong_to_their_database(db: drumlin.Database, open_db: Any) -> None:
    other = open_db(SCHEMA, name="other.drumlin")
    with other.write():
        other.create("Person", person(0, name="elsewhere"))
    assert other.get_dict("Person", 0) == person(0, name="elsewhere")
    assert other.query_dicts("Person", "name == $0", "n0") == []
    assert db.get_dict("Person", 0) == person(0)
    db.close()
    with pytest.raises(drumlin.MisuseError, match="closed"):
        db.get_dict("Person", 0)
    with pytest.raises(drumlin.MisuseError, match="closed"):
        db.query_dicts("Person", "name == $0", "n0")
    assert other.get_dict("Person", 0) == person(0, name="elsewhere")  # still reads its own file


def test_errors_from_the_fast_query_path_name_the_problem(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError, match=r"\$1"):
        db.query_dicts("Person", "name == $1", "n0")
    with pytest.raises(drumlin.QueryError, match="Unsupported comparison"):
        db.query_dicts("Person", "age == $0", "old")
    assert db.query_dicts("Person", "name == $0", "n2") == [person(2), person(5)]


def test_many_distinct_queries_keep_working(db: drumlin.Database) -> None:
    # More query texts than the cache of encoded texts keeps: it empties and refills.
    for i in range(300):
        assert [d["id"] for d in db.query_dicts("Person", f"age == {20 + i % 6} AND id >= 0")] == [i % 6]


def test_threads_read_with_their_own_arena(db: drumlin.Database) -> None:
    failures: list[str] = []
    start = threading.Barrier(4)

    def reader(offset: int) -> None:
        start.wait()
        for round_ in range(300):
            i = (offset + round_) % 6
            if db.get_dict("Person", i) != person(i):
                failures.append(f"get {i}")
            name = f"n{i % 3}"
            expected = [person(j) for j in range(6) if j % 3 == i % 3]
            if db.query_dicts("Person", "name == $0", name) != expected:
                failures.append(f"query {name}")

    threads = [threading.Thread(target=reader, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_dicts_take_any_property_name(open_db: Any) -> None:
    names = ("plain", "it's", 'quote"}', "back\\slash", "Grüße 🌍", "row")
    db = open_db([{"name": "Odd", "primaryKey": "plain", "properties": {name: "int" for name in names}}])
    values = dict(zip(names, range(len(names))))
    with db.write():
        db.create("Odd", values)
    assert db.get_dict("Odd", 0) == values
    assert list(db.get_dict("Odd", 0)) == list(names)  # type: ignore[arg-type]
