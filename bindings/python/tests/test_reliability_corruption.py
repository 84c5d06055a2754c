"""Damaged files and full disks (issue #19, items 7 and 8): a damaged file is CORRUPT — on open
with ``quick_check=True``, on open when a table the engine needs is gone, and in ``check()``,
which lists every broken invariant; a full disk is FILE saying so; never INTERNAL."""

from __future__ import annotations

import marshal
import os
import shutil
import sqlite3
import subprocess
import sys
from ctypes import byref, c_int32, c_int64
from pathlib import Path
from typing import Any

import pytest

import drumlin
from drumlin import _ffi

SCHEMA: list[dict[str, Any]] = [
    {"name": "Dog", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "name": "string", "dog": "Dog?", "dogs": "Dog[]", "tags": "string[]"},
    },
]


def run_sql(path: Path, script: str) -> None:
    """Changes the file with Python's sqlite3 (never Drumlin's SQLite copy), then closes it."""
    connection = sqlite3.connect(path)
    connection.executescript(script)
    connection.commit()
    connection.close()


def people_file(tmp_path: Path, count: int = 3) -> Path:
    path = tmp_path / "people.drumlin"
    db = drumlin.open(path, SCHEMA)
    with db.write():
        for i in range(count):
            dog = db.create("Dog", {"id": i, "name": f"dog {i}"})
            db.create("Person", {"id": i, "name": f"person {i}" * 20, "dog": dog, "dogs": [dog], "tags": ["a", "b"]})
    db.close()
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    return path


def overwrite_page(path: Path, page: int) -> None:
    """Fills one page (SQLite's default 4096 bytes) with bytes no b-tree page has."""
    with open(path, "r+b") as f:
        f.seek(page * 4096)
        f.write(bytes([0xA5]) * 4096)


# ---- quick_check on open ---------------------------------------------------------------------


def test_quick_check_refuses_an_overwritten_file_that_a_plain_open_reads(tmp_path: Path) -> None:
    path = people_file(tmp_path, count=400)
    pages = path.stat().st_size // 4096
    assert pages > 8
    overwrite_page(path, pages // 2)
    before = path.read_bytes()
    with pytest.raises(drumlin.CorruptError, match=r"is damaged \(SQLite's quick check found .*Page \d+.*it was left unchanged"):
        drumlin.open(path, SCHEMA, quick_check=True)
    assert path.read_bytes() == before
    db = drumlin.open(path, SCHEMA)  # without the option the open does not read every page
    problems = db.check()
    db.close()
    assert problems and all(p.startswith("SQLite integrity check") for p in problems[:1])


def test_quick_check_opens_a_sound_file_read_write_and_read_only(tmp_path: Path) -> None:
    path = people_file(tmp_path)
    for read_only in (False, True):
        db = drumlin.open(path, SCHEMA, quick_check=True, read_only=read_only)
        assert db.count("Person") == 3
        assert db.check() == []
        db.close()


def test_quick_check_is_off_by_default_and_ignored_for_a_new_file(tmp_path: Path) -> None:
    db = drumlin.open(tmp_path / "new.drumlin", SCHEMA, quick_check=True)
    assert db.count("Dog") == 0
    db.close()


@pytest.mark.parametrize("cut", [1, 4096, 4097])
def test_a_file_cut_short_is_corrupt_on_every_open(tmp_path: Path, cut: int) -> None:
    path = people_file(tmp_path, count=400)
    size = path.stat().st_size
    os.truncate(path, size - cut)
    for options in ({}, {"read_only": True}, {"quick_check": True}):
        with pytest.raises(drumlin.CorruptError, match=f"is damaged: it is {size - cut} bytes long, but its header says {size} .*cut short"):
            drumlin.open(path, SCHEMA, **options)
    with pytest.raises(drumlin.CorruptError):
        drumlin.open(path)


CUT_WHILE_READING = """
import os, sys
import drumlin
path = sys.argv[1]
db = drumlin.open(path)
results = db.query("Person", "id >= 0").sort("name")
loop = iter(results)
next(loop)  # a read left open: its snapshot is the whole file
os.truncate(path, 4096 * 4)
try:
    sum(1 for _ in loop)
    results[350].name
    db.get("Person", 399).name
    db.count("Person")
except drumlin.CorruptError as error:
    print("CorruptError", error)
db.close()
"""


def test_a_file_cut_short_under_an_open_read_is_an_error_not_a_crash(tmp_path: Path) -> None:
    # Pages are read with pread() into the page cache, never memory-mapped: a file mapped and cut
    # short by another program would stop the process with SIGBUS on the next page read.
    path = people_file(tmp_path, count=400)
    assert path.stat().st_size > 4096 * 40
    done = subprocess.run([sys.executable, "-c", CUT_WHILE_READING, str(path)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("CorruptError SQLite error 11 (database disk image is malformed)"), done.stdout


# ---- tables the engine needs ------------------------------------------------------------------


def test_a_dropped_class_table_is_corrupt_on_open_naming_every_missing_table(tmp_path: Path) -> None:
    path = people_file(tmp_path)
    run_sql(path, 'DROP TABLE "Dog"; DROP TABLE "_drumlin_list_6_Person_tags";')
    expected = (
        f"The file '{path}' is damaged: The table 'Dog' of class 'Dog' is missing. "
        "The table '_drumlin_list_6_Person_tags' of 'Person.tags' is missing. It was left unchanged."
    )
    for options in ({}, {"read_only": True}):
        with pytest.raises(drumlin.CorruptError) as raised:
            drumlin.open(path, SCHEMA, **options)
        assert str(raised.value) == expected


@pytest.mark.parametrize("table", ["_drumlin_classes", "_drumlin_mixed", "_drumlin_mixed_collections"])
def test_a_missing_internal_table_is_corrupt_not_internal(tmp_path: Path, table: str) -> None:
    path = people_file(tmp_path)
    run_sql(path, f"DROP TABLE {table};")
    with pytest.raises(drumlin.CorruptError, match=f"{table}"):
        drumlin.open(path, SCHEMA)
    with pytest.raises(drumlin.CorruptError):
        drumlin.open(path)  # with the stored schema


def test_a_table_dropped_while_open_is_corrupt_not_internal(tmp_path: Path) -> None:
    path = people_file(tmp_path)
    db = drumlin.open(path, SCHEMA)
    run_sql(path, 'DROP TABLE "Dog";')
    with pytest.raises(drumlin.CorruptError, match="is damaged: no such table: Dog"):
        db.count("Dog")
    with pytest.raises(drumlin.CorruptError):
        with db.write():
            db.create("Dog", {"id": 10, "name": "x"})
    problems = db.check()
    assert "The table 'Dog' of class 'Dog' is missing." in problems
    db.close()


# ---- check() lists every broken invariant ----------------------------------------------------


def test_a_read_of_every_object_that_disagrees_with_the_count_is_corrupt(tmp_path: Path) -> None:
    # An index with an entry for an object whose row is gone: SQLite counts the class from the
    # index (50), its table holds 49 rows. Reads of every object say so instead of returning 49.
    path = tmp_path / "items.drumlin"
    schema = [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "name": {"type": "string", "indexed": True}}}]
    db = drumlin.open(path, schema)
    with db.write():
        for i in range(50):
            db.create("Item", {"id": i, "name": f"n{i % 5}"})
    db.close()
    connection = sqlite3.connect(path)
    index = connection.execute("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Item'").fetchone()
    connection.execute("PRAGMA writable_schema = ON")
    connection.execute("DELETE FROM sqlite_master WHERE name = ?", (index[1],))
    connection.commit()
    connection.close()
    run_sql(path, 'DELETE FROM "Item" WHERE id = 7')
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA writable_schema = ON")
    connection.execute("INSERT INTO sqlite_master VALUES (?, ?, ?, ?, ?)", index)
    connection.commit()
    connection.close()

    db = drumlin.open(path, schema)
    message = r"The file is damaged: 'Item' has 50 objects by the count of the file and 49 rows in its table"
    with pytest.raises(drumlin.CorruptError, match=message):
        len(db.objects("Item"))
    with pytest.raises(drumlin.CorruptError, match=message):
        list(db.objects("Item"))
    with pytest.raises(drumlin.CorruptError, match=message):
        [item.name for item in db.objects("Item")]
    # A filtered read reads the rows it names: the damaged entry is SQLite's to report.
    assert db.count("Item", "id < 5") == 5
    assert any("Item" in problem for problem in db.check())
    db.close()


def test_check_reports_every_broken_invariant(tmp_path: Path) -> None:
    path = people_file(tmp_path)
    run_sql(
        path,
        """
        DELETE FROM "Dog" WHERE id = 0;
        INSERT INTO "_drumlin_list_6_Person_tags" (owner, position, value) VALUES (999, 0, 'stray');
        UPDATE _drumlin_classes SET next_seq = 1 WHERE table_name = 'Person';
        INSERT INTO _drumlin_mixed (collection, position, key, value, value_type) VALUES (12345, 0, NULL, 1, 0);
        INSERT INTO _drumlin_classes (table_name, name, definition)
            VALUES ('Gone', 'Gone', '{"name":"Gone","properties":{"x":{"type":"int"}}}');
        """,
    )
    db = drumlin.open(path, SCHEMA)
    assert sorted(db.check()) == sorted(
        [
            "1 link of 'Person.dog' point at no live 'Dog' object.",
            "1 entry of 'Person.dogs' point at no live 'Dog' object.",
            "1 entry of 'Person.tags' belong to no live 'Person' object.",
            "3 'Person' objects have creation-order numbers not below the class's next one (_drumlin_classes.next_seq).",
            "1 entry of nested mixed collections belong to no stored collection.",
            "1 class in Drumlin's catalogue (_drumlin_classes) has no table.",
        ]
    )
    db.close()


def test_check_of_a_sound_file_is_empty_inside_a_write_transaction_too(tmp_path: Path) -> None:
    db = drumlin.open(people_file(tmp_path), SCHEMA)
    with db.write():
        db.create("Person", {"id": 50, "name": "new"})
        assert db.check() == []
    assert db.check() == []
    db.close()


# ---- a full disk -----------------------------------------------------------------------------

FILL = r"""
import sys
sys.path.insert(0, sys.argv[1])
import drumlin
db = drumlin.open(sys.argv[2], [{"name": "Blob", "properties": {"data": "data"}}])
try:
    for i in range(1000):
        with db.write():
            db.create("Blob", {"data": bytes(64 * 1024)})
    print("never full")
except drumlin.DrumlinError as error:
    print(type(error).__name__, error.code, str(error).split(":")[0])
    written = db.count("Blob")
    db.close()
    db = drumlin.open(sys.argv[2], [{"name": "Blob", "properties": {"data": "data"}}])
    print("reopened", db.count("Blob") == written, db.check())
"""


def test_a_full_disk_is_a_file_error_saying_so_and_keeps_every_commit(tmp_path: Path) -> None:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("mounting a small tmpfs needs root and unshare")
    mount = tmp_path / "small"
    mount.mkdir()
    package = Path(drumlin.__file__).parent.parent
    script = f'mount -t tmpfs -o size=1m tmpfs {mount} && "{sys.executable}" -c "$0" {package} {mount}/full.drumlin'
    result = subprocess.run(["unshare", "-m", "sh", "-c", script, FILL], capture_output=True, text=True)
    if result.returncode != 0 and "mount" in result.stderr:
        pytest.skip(f"cannot mount here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"FileError {_ffi.DRUMLIN_ERR_FILE} The disk or file is full", "reopened True []"]


# ---- marshal input ---------------------------------------------------------------------------


@pytest.mark.parametrize("rows", [[], [(1, "a")], [(1, "a"), (2, "b")]])
def test_marshal_rows_with_trailing_bytes_are_refused_and_nothing_is_written(rows: list[Any]) -> None:
    db = drumlin.open(":memory:", SCHEMA)
    indices = (c_int32 * 2)()
    for position, name in enumerate([b"id", b"name"]):
        index = c_int32()
        _ffi.drumlin_property_index(db._ptr(), b"Dog", name, byref(index))
        indices[position] = index.value
    count = c_int64()
    for data in (marshal.dumps(rows, 2) + b"\0", marshal.dumps(rows, 2) + marshal.dumps(rows, 2)):
        with db.write():
            with pytest.raises(drumlin.InvalidArgumentError, match=r"Invalid marshal data at byte \d+: \d+ trailing bytes? after the list of rows"):
                _ffi.drumlin_create_many_marshal(db._ptr(), b"Dog", 2, indices, data, len(data), 0, byref(count))
    assert db.count("Dog") == 0
    with db.write():
        data = marshal.dumps(rows, 2)
        _ffi.drumlin_create_many_marshal(db._ptr(), b"Dog", 2, indices, data, len(data), 0, byref(count))
    assert db.count("Dog") == len(rows)
    db.close()
