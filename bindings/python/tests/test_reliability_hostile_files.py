"""Files the process did not write (issue #19): crafted with SQLite directly, they give a drumlin
error — CORRUPT for damage — and never crash the reader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import stored_rows

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "Note", "primaryKey": "id", "properties": {"id": "int", "anything": "mixed", "items": "mixed[]"}},
]


def run_sql(path: Path, script: str) -> None:
    """Changes the file with Python's sqlite3 in a child process (never Drumlin's SQLite copy)."""
    code = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()\n"
    subprocess.run([sys.executable, "-c", code, str(path), script], check=True, capture_output=True)


def note_file(tmp_path: Path, value: Any) -> Path:
    path = tmp_path / "crafted.drumlin"
    db = drumlin.open(path, SCHEMA)
    with db.write():
        db.create("Note", {"id": 1, "anything": value, "items": [value]})
    db.close()
    return path


def outer_and_inner(path: Path) -> tuple[int, int]:
    """The collection ids of the Note's `anything` value [[1]]: the outer list and the inner one."""
    rows = stored_rows(path, "SELECT collection, value FROM _drumlin_mixed WHERE value_type = 12")
    inner_ids = {value for _, value in rows}
    (outer,) = [collection for collection, _ in rows if collection not in inner_ids and collection == min(c for c, _ in rows)]
    (inner,) = [value for collection, value in rows if collection == outer]
    return outer, inner


def expect_corrupt_read_and_delete(path: Path) -> None:
    db = drumlin.open(path, SCHEMA)
    try:
        with pytest.raises(drumlin.CorruptError, match="is damaged: the nested mixed collection"):
            db.get_dict("Note", 1)
        note = db.get("Note", 1)
        with pytest.raises(drumlin.CorruptError, match="is damaged"):
            _ = note.anything
        with pytest.raises(drumlin.CorruptError, match="is damaged"):
            with db.write():
                db.delete(note)
        assert db.count("Note") == 1
    finally:
        db.close()


def test_a_mixed_list_that_contains_itself_is_corrupt_not_a_crash(tmp_path: Path) -> None:
    path = note_file(tmp_path, [[1]])
    outer, inner = outer_and_inner(path)
    run_sql(path, f"UPDATE _drumlin_mixed SET value = {outer} WHERE collection = {outer} AND value = {inner}")
    expect_corrupt_read_and_delete(path)


def test_a_chain_of_200k_nested_lists_is_corrupt_not_a_crash(tmp_path: Path) -> None:
    path = note_file(tmp_path, [[1]])
    outer, inner = outer_and_inner(path)
    run_sql(
        path,
        f"""
        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 200000)
        INSERT INTO _drumlin_mixed_collections (id, kind) SELECT 1000000 + k, 12 FROM n;
        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 200000)
        INSERT INTO _drumlin_mixed (collection, position, key, value, value_type)
            SELECT 1000000 + k, 0, NULL, 1000001 + k, 12 FROM n WHERE k < 200000;
        UPDATE _drumlin_mixed SET value = 1000001 WHERE collection = {outer} AND value = {inner};
        """,
    )
    expect_corrupt_read_and_delete(path)


def test_nested_lists_100_deep_still_read_and_delete(tmp_path: Path) -> None:
    value: Any = [0]
    for _ in range(99):
        value = [value]
    path = note_file(tmp_path, value)
    db = drumlin.open(path, SCHEMA)
    try:
        assert db.get_dict("Note", 1)["anything"] == value  # type: ignore[index]
        with db.write():
            db.delete(db.get("Note", 1))
        assert db.count("Note") == 0
    finally:
        db.close()
    assert stored_rows(path, "SELECT count(*) FROM _drumlin_mixed") == [(0,)]


def deep_list(levels: int) -> list[Any]:
    value: list[Any] = [0]
    for _ in range(levels - 1):
        value = [value]
    return value


def test_a_10k_deep_list_argument_is_a_limit_error_everywhere() -> None:
    db = drumlin.open(":memory:", SCHEMA)
    try:
        deep = deep_list(10_000)
        looped: list[Any] = []
        looped.append(looped)
        for argument in (deep, looped):
            with pytest.raises(drumlin.LimitError, match="nested too deeply"):
                db.query("Note", "anything == $0", argument).count()
            with pytest.raises(drumlin.LimitError, match="nested too deeply"):
                db.count("Note", "id IN $0", argument)
        with db.write():
            with pytest.raises(drumlin.LimitError, match="nested too deeply"):
                db.create("Note", {"id": 1, "anything": deep})
            with pytest.raises(drumlin.LimitError):
                db.create("Note", {"id": 1, "items": [deep_list(101)]})
        assert db.count("Note") == 0
    finally:
        db.close()
