"""Views of collections of values, and mixed properties, read by their owner's object key: one packed
call (drumlin_object_read_marshal), no handle, the values kept while the database's read version is
unchanged. These tests check that such reads stay live: each way the kept values can go stale is
seen on the next read. No timing here.
"""

from __future__ import annotations

import datetime
import decimal
from pathlib import Path
from typing import Any

import pytest

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "User", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
    {
        "name": "Task",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "tags": "string[]",
            "dates": "date[]",
            "labels": "string<>",
            "scores": "int{}",
            "mixes": "mixed[]",
            "extra": "mixed",
            "owners": "User[]",
        },
    },
]
DAY = datetime.datetime(2025, 3, 1, 12, 0, 0, 250000, tzinfo=datetime.timezone.utc)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "views.drumlin"


@pytest.fixture
def db(path: Path) -> Any:
    with drumlin.open(path, SCHEMA) as db:
        with db.write():
            db.create("User", {"id": 1, "name": "ann"})
            db.create(
                "Task",
                {
                    "id": 1,
                    "tags": ["a", "b"],
                    "dates": [DAY],
                    "labels": ["x"],
                    "scores": {"k": 1},
                    "mixes": [1, "two", [3, DAY], {"d": decimal.Decimal("1.5")}],
                    "extra": DAY,
                    "owners": [1],
                },
            )
        yield db


def test_values_read_by_key_are_what_the_handle_reads(db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from drumlin import _ffi

    task = db.get("Task", 1)
    assert list(task.tags) == ["a", "b"] and len(task.tags) == 2 and task.tags[-1] == "b"
    assert list(task.dates) == [DAY]
    assert set(task.labels) == {"x"}
    assert dict(task.scores) == {"k": 1} and list(task.scores) == ["k"]
    assert list(task.mixes) == [1, "two", [3, DAY], {"d": decimal.Decimal("1.5")}]
    assert task.mixes[2] == [3, DAY]
    assert task.extra == DAY
    # No handle was opened for any of these reads (a view opens one for writes and lookups).
    opened: list[Any] = []
    monkeypatch.setattr(_ffi, "drumlin_object_get_list", lambda *args: opened.append(args))
    assert list(db.get("Task", 1).tags) == ["a", "b"]
    assert opened == []


def test_a_write_through_another_view_is_seen(db: Any) -> None:
    task = db.get("Task", 1)
    tags = task.tags
    assert list(tags) == ["a", "b"]
    with db.write():
        db.get("Task", 1).tags.append("c")
        assert list(tags) == ["a", "b", "c"]  # inside the transaction
        db.get("Task", 1).scores["j"] = 2
        db.get("Task", 1).extra = [1, DAY]
    assert list(tags) == ["a", "b", "c"] and len(tags) == 3
    assert dict(task.scores) == {"k": 1, "j": 2}
    assert task.extra == [1, DAY]


def test_a_view_made_before_a_commit_and_read_after_it_reads_the_commit(db: Any) -> None:
    # The view keeps the items its owner's row carried when it was made; a commit before its
    # first read makes them stale, for len() and iteration alike.
    task = db.get("Task", 1)
    tags, labels = task.tags, task.labels
    with db.write():
        db.get("Task", 1).tags.append("c")
        db.get("Task", 1).labels.add("y")
    assert len(tags) == 3
    assert list(tags) == ["a", "b", "c"]
    assert sorted(labels) == ["x", "y"] and len(labels) == 2


def test_a_rollback_is_seen(db: Any) -> None:
    task = db.get("Task", 1)
    tags = task.tags
    with pytest.raises(RuntimeError):
        with db.write():
            tags.append("gone")
            assert len(tags) == 3
            raise RuntimeError("roll back")
    assert list(tags) == ["a", "b"]


def test_another_handles_commit_is_seen_at_the_next_read_call(db: Any, path: Path) -> None:
    task = db.get("Task", 1)
    tags = task.tags
    assert len(tags) == 2
    with drumlin.open(path) as other:
        with other.write():
            other.get("Task", 1).tags.append("elsewhere")
            other.get("Task", 1).extra = 7
    db.refresh()
    assert list(tags) == ["a", "b", "elsewhere"]
    assert task.extra == 7


def test_a_deleted_owner_fails_on_the_next_read(db: Any) -> None:
    task = db.get("Task", 1)
    tags = task.tags
    assert len(tags) == 2
    with db.write():
        db.delete(db.get("Task", 1))
    with pytest.raises(drumlin.InvalidatedObjectError):
        list(tags)
    with pytest.raises(drumlin.InvalidatedObjectError):
        task.tags
    with pytest.raises(drumlin.InvalidatedObjectError):
        task.extra


def test_closed_views_and_databases_make_reads_raise_misuse(path: Path) -> None:
    db = drumlin.open(path, SCHEMA)
    with db.write():
        db.create("Task", {"id": 1, "tags": ["a"]})
    task = db.get("Task", 1)
    view = task.tags
    view.close()  # never opened: closing it is still final
    assert view.is_closed
    with pytest.raises(drumlin.MisuseError):
        len(view)
    read = task.tags
    assert list(read) == ["a"]
    read.close()  # closed after a read: its kept items are gone too
    with pytest.raises(drumlin.MisuseError):
        list(read)
    tags = task.tags
    assert list(tags) == ["a"]
    db.close()
    with pytest.raises(drumlin.MisuseError):
        list(tags)
    with pytest.raises(drumlin.MisuseError):
        task.extra


def test_views_of_links_and_writes_open_their_handle(db: Any) -> None:
    task = db.get("Task", 1)
    assert [u.name for u in task.owners] == ["ann"]
    labels = task.labels
    assert "x" in labels and "y" not in labels  # a lookup through the handle
    with db.write():
        labels.add("y")
    assert set(labels) == {"x", "y"}
    seen: list[Any] = []
    token = task.tags.observe(seen.append)
    with db.write():
        task.tags.append("z")
    token.cancel()
    assert len(seen) == 1


def test_views_are_made_by_reading_a_property_not_by_calling_their_class(db: Any) -> None:
    task = db.get("Task", 1)
    for view_type in (drumlin.List, drumlin.Set, drumlin.Dictionary):
        with pytest.raises(TypeError, match="views come from reading a property of an object"):
            view_type(task, None)
    assert isinstance(task.tags, drumlin.List)
