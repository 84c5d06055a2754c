"""Files the process did not write (issue #19): crafted with SQLite directly, they give a drumlin
error — CORRUPT for damage — and never crash the reader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_sql, stored_rows

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "Note", "primaryKey": "id", "properties": {"id": "int", "anything": "mixed", "items": "mixed[]"}},
]



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


def test_a_stale_wal_of_another_database_gives_no_crash_and_no_internal(tmp_path: Path) -> None:
    # A -wal left by another database (copied beside this file): SQLite replays any well-formed
    # log, so what reads back is documented as undetected (docs/reliability.md); it must still
    # give data or a drumlin error, in a child process that survives the read.
    mine = note_file(tmp_path, "mine")
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    other = note_file(other_dir, "theirs")
    # Take the other file's log while a connection holds it open (closing would checkpoint it).
    code = (
        "import shutil, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "c.executescript(\"UPDATE Note SET anything = 'changed'; INSERT INTO Note (id, _drumlin_seq, anything, _drumlin_type_anything) SELECT 2, 99, 'x', 3;\")\n"
        "shutil.copy(sys.argv[1] + '-wal', sys.argv[2])\n"
    )
    subprocess.run([sys.executable, "-c", code, str(other), f"{mine}-wal"], check=True, capture_output=True)
    assert Path(f"{mine}-wal").stat().st_size > 0
    reader = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "import drumlin\n"
        "try:\n"
        "    db = drumlin.open(sys.argv[1])\n"
        "    print('read', sorted(n.id for n in db.objects('Note')), db.check() == [] or 'problems')\n"
        "except drumlin.InternalError as e:\n"
        "    print('INTERNAL', e)\n"
        "except drumlin.DrumlinError as e:\n"
        "    print('error', type(e).__name__)\n"
    )
    package = str(Path(drumlin.__file__).resolve().parents[1])  # the package this suite runs
    ran = subprocess.run([sys.executable, "-c", reader, str(mine), package], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith(("read", "error")), ran.stdout


def test_a_dangling_embedded_link_reads_the_parent_and_reports_the_embedded_object(tmp_path: Path) -> None:
    # The parent's row comes with its embedded object's row; when that row is gone (deleted behind
    # Drumlin's back), the parent still reads and only the embedded object reports itself deleted.
    path = tmp_path / "dangling.drumlin"
    schema: list[dict[str, Any]] = [
        {"name": "Trip", "primaryKey": "id", "properties": {"id": "int", "title": "string", "place": "Place?"}},
        {"name": "Place", "embedded": True, "properties": {"city": "string"}},
    ]
    db = drumlin.open(path, schema)
    with db.write():
        db.create("Trip", {"id": 1, "title": "t", "place": {"city": "Oslo"}})
    db.close()
    run_sql(path, 'DELETE FROM "Place"')
    db = drumlin.open(path, schema)
    try:
        trip = db.get("Trip", 1)
        assert trip is not None and trip.title == "t"
        place = trip.place
        with pytest.raises(drumlin.InvalidatedObjectError):
            _ = place.city
    finally:
        db.close()
