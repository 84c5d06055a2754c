"""``db.query`` reads the first rows with the query (one call, no results handle) and answers from
them while nothing may have changed: then every change is seen on the next read, and results of
more rows, or any read the rows cannot answer, go through a results handle as before (see
``Database.query``). No timing here: the calls made are counted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import drumlin
from drumlin import _ffi, _rows

SCHEMA: list[dict[str, Any]] = [
    {"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "age": "int"}},
]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "first.drumlin"


@pytest.fixture
def db(path: Path) -> Any:
    with drumlin.open(path, SCHEMA) as db:
        with db.write():
            db.create_many("Person", [{"id": i, "name": f"p{i}", "age": i % 10} for i in range(1, 201)])
        yield db


class Calls:
    """The results handles opened and the packed row reads made, counted."""

    def __init__(self, monkeypatch: Any) -> None:
        self.opened = 0
        self.pages = 0
        query, rows, pages = _ffi.drumlin_query, _rows.results_rows, _rows.results_pages

        def counted_query(*args: Any) -> Any:
            self.opened += 1
            return query(*args)

        def counted_rows(*args: Any) -> Any:
            self.pages += 1
            return rows(*args)

        def counted_pages(*args: Any) -> Any:  # a loop's first page (these results have one)
            self.pages += 1
            return pages(*args)

        monkeypatch.setattr(_ffi, "drumlin_query", counted_query)
        monkeypatch.setattr("drumlin.results.results_rows", counted_rows)
        monkeypatch.setattr("drumlin.results.results_pages", counted_pages)


def test_a_small_result_answers_its_first_read_from_its_query(db: Any, monkeypatch: Any) -> None:
    calls = Calls(monkeypatch)
    query = "age == $0 AND id < $1"
    found = db.query("Person", query, 3, 50)
    assert [p.id for p in found] == [3, 13, 23, 33, 43]
    assert (calls.opened, calls.pages) == (0, 0)
    # Every later read re-evaluates the results, through their handle.
    assert len(found) == 5 and found[1].name == "p13" and [p.id for p in found][-1] == 43
    assert (calls.opened, calls.pages) == (1, 1)
    assert db.query("Person", query, 3, 50)[-1].id == 43
    assert len(db.query("Person", query, 3, 50)) == 5
    assert db.query("Person", query, 3, 50)[1:3] == [db.get("Person", 13), db.get("Person", 23)]
    with pytest.raises(IndexError, match="Index 5 is out of bounds for results of size 5"):
        db.query("Person", query, 3, 50)[5]
    assert (calls.opened, calls.pages) == (1, 1)
    assert found.filter("id > 20").to_list() == [db.get("Person", i) for i in (23, 33, 43)]


def test_a_result_larger_than_the_first_rows_reads_through_its_handle(db: Any, monkeypatch: Any) -> None:
    calls = Calls(monkeypatch)
    many = db.query("Person", "id > 0")
    assert len(list(many)) == 200 > _rows.FIRST_ROWS
    assert (calls.opened, calls.pages) == (1, 1)
    exactly = db.query("Person", "id <= $0", _rows.FIRST_ROWS)
    assert [p.id for p in exactly] == list(range(1, _rows.FIRST_ROWS + 1))
    assert calls.opened == 1  # FIRST_ROWS rows are all kept


def test_a_write_through_the_same_database_is_seen(db: Any) -> None:
    found = db.query("Person", "age == 3")
    with db.write():
        db.create("Person", {"id": 1000, "name": "new", "age": 3})
        assert len(found) == 21 and found[-1].name == "new"
    with db.write():
        db.get("Person", 3).age = 4
    assert [p.id for p in found][:2] == [13, 23]


def test_a_rollback_is_seen(db: Any) -> None:
    found = db.query("Person", "age == 3")
    with pytest.raises(RuntimeError):
        with db.write():
            db.create("Person", {"id": 1000, "name": "new", "age": 3})
            assert len(found) == 21
            raise RuntimeError("roll back")
    assert len(found) == 20 and 1000 not in [p.id for p in found]


def test_another_database_s_commit_is_seen_without_refresh(db: Any, path: Path) -> None:
    found = db.query("Person", "age == 3")
    assert len(found) == 20
    with drumlin.open(path) as other:
        with other.write():
            other.create("Person", {"id": 1000, "name": "other", "age": 3})
    assert len(found) == 21 and found[-1].name == "other"


def test_a_deleted_object_leaves_the_results(db: Any) -> None:
    found = db.query("Person", "age == 3")
    with db.write():
        db.delete(db.get("Person", 3))
    assert [p.id for p in found][:1] == [13]


def test_closed_results_and_a_closed_database_fail(db: Any, path: Path) -> None:
    found = db.query("Person", "age == 3")
    found.close()
    with pytest.raises(drumlin.MisuseError):
        list(found)
    with pytest.raises(drumlin.MisuseError):
        len(found)
    again = db.query("Person", "age == 3")
    db.close()
    with pytest.raises(drumlin.MisuseError):
        list(again)


def test_a_lookup_of_one_object_is_live_like_any_result(db: Any, monkeypatch: Any) -> None:
    calls = Calls(monkeypatch)
    (found,) = db.query("Person", "id == $0", 7)
    assert (found.id, found.name, found.age) == (7, "p7", 7) and found == db.get("Person", 7)
    assert type(found) is type(db.get("Person", 8))
    assert (calls.opened, calls.pages) == (0, 0)
    # A commit between the query and the loop: the loop reads the results as they are now.
    lookup = db.query("Person", "name == $0", "p9")
    with db.write():
        db.get("Person", 9).name = "renamed"
    assert list(lookup) == []
    lookup = db.query("Person", "id == $0", 9)
    with db.write():
        db.get("Person", 9).age = 99
    assert [p.age for p in lookup] == [99]
    closed = db.query("Person", "id == $0", 5)
    closed.close()
    with pytest.raises(drumlin.MisuseError, match="These results are closed"):
        list(closed)


def test_a_bad_query_fails_at_the_call(db: Any) -> None:
    with pytest.raises(drumlin.QueryError, match="name =="):
        db.query("Person", "name ==")
    with pytest.raises(drumlin.QueryError):
        db.query("Person", "nope == 1")


def test_threads_sharing_results_open_one_handle(db: Any, monkeypatch: Any) -> None:
    import threading

    calls = Calls(monkeypatch)
    found = db.query("Person", "age == 3")
    list(found)  # the first read, answered from the query's rows
    sizes: list[int] = []
    start = threading.Barrier(8)

    def read() -> None:
        start.wait()
        sizes.append(len(found))

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sizes == [20] * 8
    assert calls.opened == 1
