"""An encrypted file and one write transaction larger than the page cache (issue 50).

An encrypted connection keeps 128 MiB of pages in its cache (Connection.swift; the bug was found
with 32 MiB); a transaction that changes more spills pages
into the write-ahead log before its commit, and a spilled page changed again is written over its
own frame. From then on SQLite writes frame headers without their salts and puts them in at the
commit, header only (docs/encryption.md, "The write-ahead log"). Each test writes about 160 MB in
one `with db.write():`, then reads every object back, again after reopening the file, and checks
the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli import run

import drumlin

# About 160 MB per test: the engine's, not the Python version's (the packaging run leaves it out).
pytestmark = pytest.mark.stress

KEY = bytes(range(64))
SCHEMA = [{"name": "Blob", "primaryKey": "id", "properties": {"id": "int", "text": "string"}}]
COUNT = 8000
CACHE = 128 * 1024 * 1024


def text(index: int, round: int = 0) -> str:
    """20,000 characters, different for every object and round."""
    return (f"<{round}:{index:05}>" * 2000)[:20_000]


def log_size(path: Path) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else 0


def assert_all(db: drumlin.Database, round: int) -> None:
    """Every object's value, whole: each reads its overflow pages (about five per object)."""
    assert db.objects("Blob").count() == COUNT
    for index in range(COUNT):
        assert db.get_dict("Blob", index) == {"id": index, "text": text(index, round)}, index


def assert_checked(path: Path) -> None:
    """The engine's check and the CLI's."""
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        assert db.check() == []
    key_file = path.parent / "blobs.key"
    key_file.write_bytes(KEY)
    checked = run("check", path, "--key-file", key_file)
    assert (checked.returncode, checked.stdout, checked.stderr) == (0, f"{path}: ok\n", "")


def test_one_write_larger_than_the_page_cache_reads_back(tmp_path: Path) -> None:
    # 160,000 objects of 1,000 characters in a scattered key order: their rows fill the table's
    # leaf pages (about three to a page) in no order, so a leaf spilled to the log is written
    # again later in the same transaction.
    path = tmp_path / "blobs.drumlin"
    count = 160_000
    order = [(index * 7919) % count for index in range(count)]
    assert sorted(order) == list(range(count))
    expected = [{"id": index, "text": (f"<{index:06}>" * 125)[:1000]} for index in range(count)]
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        with db.write():
            assert db.create_many("Blob", [expected[index] for index in order]) == count
        assert log_size(path) > CACHE  # one transaction, all of it in the log
        assert db.objects("Blob").sort("id").to_dicts() == expected
    # Reopened: every page again from the file, read and authenticated by the checks (the engine's
    # integrity check reads every page); a sample of values.
    assert_checked(path)
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        assert db.objects("Blob").count() == count
        assert [db.get_dict("Blob", index) for index in range(0, count, 997)] == expected[::997]


def test_objects_changed_twice_in_one_write_larger_than_the_page_cache(tmp_path: Path) -> None:
    path = tmp_path / "blobs.drumlin"
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        with db.write():
            for index in range(COUNT):
                db.create("Blob", {"id": index, "text": text(index)})
        assert_all(db, 0)
        with db.write():  # the same pages twice: spilled to the log, then written over in place
            for round in (1, 2):
                for index in range(COUNT):
                    db.create("Blob", {"id": index, "text": text(index, round)}, update="modified")
        assert log_size(path) > CACHE
        assert_all(db, 2)
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        assert_all(db, 2)
    assert_checked(path)
