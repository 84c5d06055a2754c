"""Several processes opening one file at the same moment (issue #19, item 1).

Opening a new file and opening with a schema that adds a class decide under the write lock, so
any number of processes can do it at once: every open succeeds and the file ends up with one
copy of each table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import drumlin
from conftest import stored_rows

BASE = [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "n": "int"}}]
EXTRA = {"name": "Extra", "properties": {"x": "int"}}

# Each child waits for the start file, then opens every path in turn with the given schemas and
# writes one object; it prints how many opens failed and why.
CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
import drumlin
start, paths, schemas, who = sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
key = bytes.fromhex(sys.argv[6]) if len(sys.argv) > 6 else None
while not os.path.exists(start):
    time.sleep(0.001)
failures = []
for i, path in enumerate(paths):
    try:
        db = drumlin.open(path, schemas[(i + who) % len(schemas)], busy_timeout=60, encryption_key=key)
        with db.write():
            db.create("Item", {"id": who * 1000 + i, "n": i})
        db.close()
    except drumlin.DrumlinError as error:
        failures.append(f"{type(error).__name__}: {error}")
print(json.dumps(failures))
"""

PROCESSES = 4
OPENS = 20


def run_racing_children(tmp_path: Path, paths: list[str], schemas: list[object], key: bytes | None = None) -> list[str]:
    package = str(Path(drumlin.__file__).resolve().parents[1])
    start = tmp_path / "start"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, package, str(start), json.dumps(paths), json.dumps(schemas), str(who)]
            + ([key.hex()] if key else []),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        for who in range(PROCESSES)
    ]
    start.write_text("go")
    failures: list[str] = []
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
        failures += json.loads(out)
    return failures


def test_processes_opening_new_files_at_once_all_succeed(tmp_path: Path) -> None:
    paths = [str(tmp_path / f"new{i}.drumlin") for i in range(OPENS)]
    failures = run_racing_children(tmp_path, paths, [BASE])
    assert failures == []
    for path in paths:
        assert stored_rows(path, "SELECT count(*) FROM Item") == [(PROCESSES,)]
        assert stored_rows(path, "SELECT count(*) FROM _drumlin_classes") == [(1,)]


def test_processes_adding_a_class_at_once_all_succeed(tmp_path: Path) -> None:
    paths = []
    for i in range(OPENS):
        path = str(tmp_path / f"grow{i}.drumlin")
        drumlin.open(path, BASE).close()
        paths.append(path)
    failures = run_racing_children(tmp_path, paths, [BASE + [EXTRA]])
    assert failures == []
    for path in paths:
        assert stored_rows(path, "SELECT count(*) FROM Item") == [(PROCESSES,)]
        assert stored_rows(path, "SELECT name FROM _drumlin_classes ORDER BY rowid") == [("Item",), ("Extra",)]


def test_processes_opening_new_files_with_different_additions_all_succeed(tmp_path: Path) -> None:
    # Half the processes open with the base schema, half with the extra class: whoever comes
    # first creates the file, the others add or find what they need.
    paths = [str(tmp_path / f"mixed{i}.drumlin") for i in range(OPENS)]
    failures = run_racing_children(tmp_path, paths, [BASE, BASE + [EXTRA]])
    assert failures == []
    for path in paths:
        assert stored_rows(path, "SELECT count(*) FROM Item") == [(PROCESSES,)]


def test_processes_creating_and_growing_encrypted_files_at_once_all_succeed(tmp_path: Path) -> None:
    # docs/encryption.md: whoever creates the file encrypts it; the others read its key check.
    key = bytes(range(7, 71))
    paths = [str(tmp_path / f"secret{i}.drumlin") for i in range(OPENS)]
    failures = run_racing_children(tmp_path, paths, [BASE, BASE + [EXTRA]], key)
    assert failures == []
    for path in paths:
        with open(path, "rb") as f:
            assert f.read(16) == b"DrumlinEncrypted"
        with drumlin.open(path, encryption_key=key) as db:
            assert db.objects("Item").count() == PROCESSES
            assert db.check() == []
