"""A loop over results reads them in pages (drumlin/_rows.py, results_pages) and still visits the
objects that were in the results when it began, whatever the loop writes.

Each test has its own file of 600 objects: more than two pages of PAGE_ROWS (256).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import drumlin
from drumlin import _rows

SCHEMA: list[dict[str, Any]] = [
    {"name": "Item", "primaryKey": "id", "properties": {"id": "int", "done": "bool", "note": "string"}},
]
COUNT = 600


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "pages.drumlin"


@pytest.fixture
def db(path: Path) -> Any:
    with drumlin.open(path, SCHEMA) as db:
        with db.write():
            db.create_many("Item", [{"id": i, "done": False, "note": f"n{i}"} for i in range(1, COUNT + 1)])
        yield db


def page_reads(monkeypatch: Any) -> list[int]:
    """The start of every drumlin_results_get_rows call (a loop's pages: the _keyed form), in order."""
    starts: list[int] = []
    for name in ("_results_rows", "_results_rows_keyed"):
        function = getattr(_rows, name)

        def counted(results: Any, start: Any, max_rows: Any, *rest: Any, function: Any = function) -> Any:
            starts.append(start.value)
            return function(results, start, max_rows, *rest)

        monkeypatch.setattr(_rows, name, counted)
    return starts


def test_a_loop_reads_a_page_at_a_time_in_order(db: Any, monkeypatch: Any) -> None:
    assert _rows.PAGE_ROWS == 256
    starts = page_reads(monkeypatch)
    iterator = iter(db.objects("Item"))
    assert starts == [0]  # the first page when the loop begins
    assert [item.id for item in iterator] == list(range(1, COUNT + 1))
    assert starts == [0, 256, 512]
    assert [item.note for item in db.query("Item", "id > 100")] == [f"n{i}" for i in range(101, COUNT + 1)]
    assert len(db.objects("Item").to_list()) == COUNT


def test_a_loop_writing_in_its_own_transactions_visits_the_objects_it_began_with(db: Any) -> None:
    visited = []
    for item in db.query("Item", "done == false"):
        visited.append(item.id)
        with db.write():
            item.done = True  # leaves the results
            if item.id == 1:
                db.create("Item", {"id": 1000, "done": False, "note": "late"})  # joins them
    assert visited == list(range(1, COUNT + 1))
    assert db.count("Item", "done == false") == 1


def test_an_object_deleted_before_the_loop_reaches_it_is_visited_as_deleted(db: Any) -> None:
    visited = []
    for item in db.objects("Item"):
        visited.append(item)
        if len(visited) == 2:
            with db.write():
                db.delete(db.get("Item", 500))
    assert [item.id for item in visited[:499]] == list(range(1, 500))
    assert len(visited) == COUNT
    gone = visited[499]
    assert not gone.is_valid
    with pytest.raises(drumlin.InvalidatedObjectError):
        gone.note


def test_a_loop_inside_a_write_reads_its_rows_at_once(db: Any, monkeypatch: Any) -> None:
    starts = page_reads(monkeypatch)
    with db.write():
        for item in db.query("Item", "done == false"):
            item.done = True
            db.create("Item", {"id": COUNT + item.id, "done": False, "note": "new"})
    assert starts == [0]
    assert db.count("Item", "done == false") == COUNT


def test_a_commit_seen_between_pages_continues_over_the_results_as_they_are_without_repeats(db: Any, path: Path) -> None:
    visited = []
    with drumlin.open(path, SCHEMA) as other:
        for item in db.objects("Item"):
            visited.append(item.id)
            if item.id == 10:
                with other.write():
                    other.create("Item", {"id": 1000, "done": False, "note": "new"})
                    other.delete(other.get("Item", 400))
                assert db.refresh()  # this database sees the commit before its next page
    assert visited == [i for i in range(1, COUNT + 1) if i != 400] + [1000]


def test_another_threads_write_between_pages_continues_without_repeats(db: Any) -> None:
    visited = []
    for item in db.objects("Item"):
        visited.append(item.id)
        if item.id == 300:  # in the second page

            def write() -> None:
                with db.write():
                    db.delete(db.get("Item", 2))  # visited already
                    db.delete(db.get("Item", 599))  # not yet
                    db.create("Item", {"id": 1000, "done": False, "note": "new"})

            thread = threading.Thread(target=write)
            thread.start()
            thread.join()
    assert visited == [i for i in range(1, COUNT + 1) if i != 599] + [1000]


def test_closing_the_database_in_a_loop_raises_at_the_next_page(path: Path) -> None:
    db = drumlin.open(path, SCHEMA)
    with db.write():
        db.create_many("Item", [{"id": i, "done": False, "note": ""} for i in range(1, COUNT + 1)])
    iterator = iter(db.objects("Item"))
    assert next(iterator).id == 1
    db.close()
    with pytest.raises(drumlin.MisuseError, match="database is closed"):
        list(iterator)


def test_closing_the_results_in_a_loop_raises_at_the_next_page(db: Any) -> None:
    results = db.objects("Item")
    iterator = iter(results)
    assert next(iterator).id == 1
    results.close()
    with pytest.raises(drumlin.MisuseError, match="closed"):
        list(iterator)
    assert db.count("Item") == COUNT  # the database is untouched and open


def test_a_loop_left_early_is_forgotten(db: Any) -> None:
    for item in db.objects("Item"):
        if item.id == 3:
            break
    assert not getattr(_rows._local, "paging", None)
    with db.write():  # reads no pages for the loop that was left
        db.get("Item", 1).done = True
    kept = iter(db.objects("Item"))
    next(kept)
    assert len(_rows._local.paging) == 1
    del kept
    assert not _rows._local.paging


def test_threads_looping_over_the_same_results_each_visit_every_object(db: Any) -> None:
    shared = db.objects("Item")
    seen: dict[int, list[int]] = {}
    errors: list[BaseException] = []

    def loop(name: int) -> None:
        try:
            for _ in range(5):
                seen[name] = [item.id for item in shared]
                assert seen[name] == list(range(1, COUNT + 1))
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=loop, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert sorted(seen) == [0, 1, 2]


def test_reading_the_rest_at_once_leaves_the_pages_their_own_size(db: Any) -> None:
    # Regression: the rest read by a write inside a loop was sized as a page, so every later page
    # started in an arena as large as that whole rest (a new buffer per page beyond 1 MB).
    with db.write():
        db.create_many("Item", [{"id": i, "done": False, "note": "n" * 4000} for i in range(COUNT + 1, 2 * COUNT + 1)])
    access = db._class("Item").rows
    for item in db.objects("Item"):
        if item.id == 1:
            with db.write():  # the rest of the loop's pages, at once: 2.4 MB
                item.done = True
    assert access.last_size[_rows._ROWS] > 2_000_000
    assert [item.id for item in db.objects("Item")][-1] == 2 * COUNT
    assert access.last_size[_rows._PAGES] < 1_100_000  # one page: 256 rows of 4 kB at most
