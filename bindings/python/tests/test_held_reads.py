"""Read transactions held between read calls (docs/storage.md, "Concurrency").

A read call leaves its read transaction open for the next one, which reuses it while no connection
has committed. These tests check what that must not change: every read still sees each commit
made before it, by another handle or process, and a reader (busy or idle) does not make another
process's write-ahead log grow past SQLite's automatic checkpoint (1000 pages) by keeping it from
being copied and started over."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import drumlin

SCHEMA = [{"name": "Row", "primaryKey": "id", "properties": {"id": "int", "text": "string"}}]

# The writer: COMMITS transactions of ten rows of 4000 bytes (about ten pages each), measuring
# the write-ahead log after each; prints the largest size in bytes.
WRITER = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
import drumlin
path, commits = sys.argv[2], int(sys.argv[3])
db = drumlin.open(path, [{"name": "Row", "primaryKey": "id", "properties": {"id": "int", "text": "string"}}])
largest = 0
for n in range(commits):
    with db.write():
        db.create_many("Row", [{"id": 100 + n * 10 + k, "text": "x" * 4000} for k in range(10)])
    largest = max(largest, os.path.getsize(path + "-wal"))
db.close()
print(largest)
"""

COMMITS = 600  # about 6000 pages (24 MB) of log if nothing were ever copied back
LIMIT = 12 * 1024 * 1024  # the automatic checkpoint keeps it near 1000 pages (4 MB)


def start_writer(path: Path) -> subprocess.Popen[str]:
    package = str(Path(drumlin.__file__).resolve().parents[1])
    return subprocess.Popen([sys.executable, "-c", WRITER, package, str(path), str(COMMITS)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(writer: subprocess.Popen[str]) -> int:
    out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    return int(out)


def fixture(tmp_path: Path) -> tuple[Path, drumlin.Database]:
    path = tmp_path / "held.drumlin"
    db = drumlin.open(str(path), SCHEMA)
    with db.write():
        db.create_many("Row", [{"id": i, "text": f"row {i}"} for i in range(10)])
    return path, db


def test_a_busy_reader_does_not_keep_another_process_log_from_starting_over(tmp_path: Path) -> None:
    path, db = fixture(tmp_path)
    writer = start_writer(path)
    reads = 0
    while writer.poll() is None:
        assert db.get("Row", reads % 10).text == f"row {reads % 10}"
        reads += 1
    largest = finish(writer)
    assert reads > 0
    assert largest < LIMIT, f"the write-ahead log reached {largest} bytes"
    assert db.count("Row") == 10 + 10 * COMMITS  # and the reader sees every commit
    db.close()


def test_an_idle_reader_does_not_keep_another_process_log_from_starting_over(tmp_path: Path) -> None:
    path, db = fixture(tmp_path)
    assert db.get("Row", 1).text == "row 1"  # a read, then no call until the writer is done
    largest = finish(start_writer(path))
    assert largest < LIMIT, f"the write-ahead log reached {largest} bytes"
    assert db.get("Row", 100 + 10 * COMMITS - 1) is not None
    db.close()


def test_every_read_sees_the_commits_of_another_handle_made_before_it(tmp_path: Path) -> None:
    path, reader = fixture(tmp_path)
    writer = drumlin.open(str(path), SCHEMA)
    row = reader.get("Row", 1)
    for n in range(30):
        with writer.write():
            writer.get("Row", 1).text = f"version {n}"
        # Each kind of read call sees it: by primary key, a query, a count, an object's refresh.
        assert reader.get("Row", 1).text == f"version {n}"
        assert [r.id for r in reader.query("Row", "text == $0", f"version {n}")] == [1]
        with writer.write():
            writer.create("Row", {"id": 1000 + n, "text": "new"})
        assert reader.count("Row") == 11 + n
        reader.refresh()
        assert row.text == f"version {n}"
    writer.close()
    reader.close()


def test_threads_sharing_a_handle_read_forward_while_two_handles_write(tmp_path: Path) -> None:
    # Two reader threads and a writer thread share one Database while another handle writes row 1
    # (from "row 1" up to "row 409"): no read ever goes back to an older value, and the last
    # reads see the last commits.
    import threading

    path, db = fixture(tmp_path)
    other = drumlin.open(str(path), SCHEMA)
    errors: list[str] = []
    done = threading.Event()
    writes = 400

    def read() -> None:
        last = -1
        while not done.is_set():
            value = int(db.get("Row", 1).text.removeprefix("row "))
            if value < last:
                errors.append(f"row 1 went back from {last} to {value}")
            last = value
            db.count("Row")

    def write_shared() -> None:
        for n in range(writes):
            with db.write():
                db.get("Row", 2).text = f"row {n}"

    def write_other() -> None:
        for n in range(writes):
            with other.write():
                other.get("Row", 1).text = f"row {10 + n}"

    readers = [threading.Thread(target=read) for _ in range(2)]
    writers = [threading.Thread(target=write_shared), threading.Thread(target=write_other)]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    for thread in readers:
        thread.join()
    assert errors == []
    assert db.get("Row", 1).text == f"row {10 + writes - 1}"
    assert db.get("Row", 2).text == f"row {writes - 1}"
    other.close()
    db.close()
