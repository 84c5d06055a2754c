"""Paths and media (issue #19): a path is a file path (``file:`` is part of a name, the empty path
is refused), and ``read_only=True`` reads files on read-only media and in directories this process
cannot write, with errors that say why (never CORRUPT for a readable file)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest

import drumlin

SCHEMA = [{"name": "A", "properties": {"x": "int"}}]


def test_a_path_starting_with_file_is_a_file_of_that_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = drumlin.open("file:x?mode=memory", SCHEMA)
    with db.write():
        db.create("A", {"x": 1})
    db.close()
    assert (tmp_path / "file:x?mode=memory").is_file()
    db = drumlin.open("file:x?mode=memory", SCHEMA)
    assert db.count("A") == 1
    db.close()


def test_the_empty_path_is_refused_and_in_memory_still_works() -> None:
    with pytest.raises(drumlin.InvalidArgumentError, match=r"The path is empty: give a file path, or \":memory:\""):
        drumlin.open("", SCHEMA)
    with pytest.raises(drumlin.InvalidArgumentError, match="The path is empty"):
        drumlin.open("")
    for db in (drumlin.open("", SCHEMA, in_memory=True), drumlin.open(":memory:", SCHEMA)):
        with db.write():
            db.create("A", {"x": 1})
        assert db.count("A") == 1
        db.close()


def make_file(directory: Path) -> Path:
    path = directory / "a.drumlin"
    db = drumlin.open(path, SCHEMA)
    with db.write():
        db.create("A", {"x": 1})
    db.close()
    return path


def attempt(path: Path, **options: Any) -> str:
    """Open, count and close; the result or the error, as text."""
    try:
        db = drumlin.open(path, SCHEMA if options.pop("schema", True) else None, **options)
    except drumlin.DrumlinError as error:
        return f"{type(error).__name__}: {error}"
    try:
        return f"count {db.count('A')}"
    finally:
        db.close()


def unprivileged(function: Callable[[], str]) -> str:
    """Runs `function` where file permissions apply: as `nobody` in a forked child when this
    process is root (root writes anywhere), else here."""
    if os.geteuid() != 0:
        return function()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to nobody, report, and leave without running pytest's cleanup
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            os.write(write, function().encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        result = pipe.read()
    os.waitpid(pid, 0)
    return result


@pytest.fixture
def locked_dir() -> Any:
    """A directory others can read but nobody (but root) can write, with a Drumlin file in it."""
    directory = Path(tempfile.mkdtemp(prefix="drumlin-ro-"))
    directory.chmod(0o755)
    make_file(directory).chmod(0o666)  # the file is writable: the directory is the problem
    directory.chmod(0o555)
    yield directory
    directory.chmod(0o755)
    shutil.rmtree(directory)


def test_read_only_opens_a_file_in_an_unwritable_directory(locked_dir: Path) -> None:
    path = locked_dir / "a.drumlin"
    assert unprivileged(lambda: attempt(path, read_only=True)) == "count 1"
    assert unprivileged(lambda: attempt(path, read_only=True, schema=False)) == "count 1"
    assert unprivileged(lambda: attempt(path)) == (
        f"FileError: Cannot open '{path}' for writing: its directory is not writable (permission denied), "
        "and SQLite keeps its '-wal' and '-shm' files there. Open it read-only to read it."
    )
    new = locked_dir / "new.drumlin"
    assert unprivileged(lambda: attempt(new)) == (
        f"FileError: Cannot create '{new}': its directory is not writable (permission denied)."
    )


def leave_wal(path: Path) -> None:
    """Commits a row with Python's sqlite3 in a child that exits without closing: the changes stay
    in the -wal file."""
    code = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('INSERT INTO A (_drumlin_key, x) VALUES (99, 2)')\n"
        "c.commit()\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True)


def test_read_only_refuses_a_log_it_cannot_read_and_says_why(tmp_path: Path) -> None:
    directory = Path(tempfile.mkdtemp(prefix="drumlin-wal-"))
    try:
        directory.chmod(0o755)
        path = make_file(directory)
        leave_wal(path)
        for name in os.listdir(directory):
            (directory / name).chmod(0o644)
        directory.chmod(0o555)
        # With the -shm file there, SQLite reads the log read-only: both rows.
        assert unprivileged(lambda: attempt(path, read_only=True)) == "count 2"
        directory.chmod(0o755)
        (directory / "a.drumlin-shm").unlink()
        directory.chmod(0o555)
        result = unprivileged(lambda: attempt(path, read_only=True))
        assert result.startswith(f"FileError: Cannot open '{path}' read-only: its directory is not writable (permission denied), and its write-ahead log")
        assert "write-ahead log" in result
    finally:
        directory.chmod(0o755)
        shutil.rmtree(directory)


READ_ONLY_MEDIA = r"""
import sys
sys.path.insert(0, sys.argv[1])
import drumlin
path = sys.argv[2]
db = drumlin.open(path, read_only=True)
print("count", db.count("A"))
db.close()
try:
    drumlin.open(path, [{"name": "A", "properties": {"x": "int"}}])
except drumlin.FileError as error:
    print(error)
"""


def test_read_only_opens_a_file_on_read_only_media(tmp_path: Path) -> None:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("mounting a read-only file system needs root and unshare")
    make_file(tmp_path)
    mount = tmp_path / "media"
    mount.mkdir()
    package = str(Path(drumlin.__file__).resolve().parents[1])
    script = (
        f"mount -t tmpfs tmpfs {mount} && cp {tmp_path}/a.drumlin {mount}/ && mount -o remount,ro {mount} && "
        f'"{sys.executable}" -c "$0" {package} {mount}/a.drumlin'
    )
    result = subprocess.run(["unshare", "-m", "sh", "-c", script, READ_ONLY_MEDIA], capture_output=True, text=True)
    if result.returncode != 0 and "mount" in result.stderr:
        pytest.skip(f"cannot mount here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "count 1",
        f"Cannot open '{mount}/a.drumlin' for writing: read-only file system. Open it read-only to read it.",
    ]


def test_a_lone_surrogate_in_a_path_or_a_schema_is_a_drumlin_error() -> None:
    # Python strings may hold lone surrogates, which have no UTF-8 form: an error of the library,
    # not UnicodeEncodeError (issue #19).
    with pytest.raises(drumlin.InvalidArgumentError, match="path is not valid UTF-8"):
        drumlin.open("/tmp/\udcff.drumlin")
    with pytest.raises(drumlin.SchemaValidationError, match="unpaired surrogate"):
        drumlin.open(":memory:", [{"name": "P\udcff", "properties": {"a": "int"}}])


def test_a_directory_is_not_a_database_file(tmp_path: Path) -> None:
    """A directory as the path is a FileError that says so (SQLite's own word was "disk I/O
    error"), with a schema, with the stored one and read-only; nothing is made inside it."""
    folder = tmp_path / "folder.drumlin"
    folder.mkdir()
    expected = f"Cannot open '{folder}': it is a directory, not a database file."
    for open_it in (lambda: drumlin.open(str(folder), SCHEMA), lambda: drumlin.open(str(folder)),
                    lambda: drumlin.open(str(folder), read_only=True)):
        with pytest.raises(drumlin.FileError) as raised:
            open_it()
        assert raised.value.message == expected
    assert list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.drumlin"]
