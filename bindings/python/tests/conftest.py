"""Fixtures: every test opens its own small database under pytest's tmp_path.

The suite tests the package in this source tree (bindings/python), whatever else is installed;
with DRUMLIN_TEST_INSTALLED=1 it tests the installed package instead (Tests/packaging runs it so
against the wheel under every Python version the package claims). The library comes from
DRUMLIN_LIBRARY (`make test` sets it), else the package's own copy, else the build tree.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest

if not os.environ.get("DRUMLIN_TEST_INSTALLED"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import drumlin

PERSON = [
    {
        "name": "Person",
        "primaryKey": "_id",
        "properties": {"_id": "int", "name": "string", "age": "int?"},
    }
]

OpenDb = Callable[..., drumlin.Database]


def stored_rows(path: str | Path, sql: str) -> list[tuple[Any, ...]]:
    """Run `sql` on the file with Python's sqlite3 in a child process (committed data only).

    Never in this process while Drumlin has the file open: an installed wheel carries its own copy
    of SQLite, and two copies of SQLite in one process break each other's POSIX locks (SQLite's
    "How To Corrupt An SQLite Database File", 2.2.1; docs/packaging.md)."""
    code = (
        "import sqlite3, sys\n"
        "connection = sqlite3.connect(sys.argv[1])\n"
        "print(repr(connection.execute(sys.argv[2]).fetchall()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(path), sql], capture_output=True, text=True, check=True
    )
    rows: list[tuple[Any, ...]] = ast.literal_eval(result.stdout)
    return rows


def run_sql(path: str | Path, script: str) -> None:
    """Run and commit an SQL script on the file with Python's sqlite3 in a child process (see
    `stored_rows` for why not in this process)."""
    code = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()\n"
    subprocess.run([sys.executable, "-c", code, str(path), script], check=True, capture_output=True)


@pytest.fixture
def open_db(tmp_path: Path) -> Iterator[OpenDb]:
    """open_db(schema, name="test.drumlin", **options) -> an open Database, closed after the test."""
    opened: list[drumlin.Database] = []

    def _open(schema: Any = PERSON, name: str = "test.drumlin", **options: Any) -> drumlin.Database:
        db = drumlin.open(tmp_path / name, schema, **options)
        opened.append(db)
        return db

    yield _open
    for db in opened:
        db.close()


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    """A database with the PERSON schema: Person {_id int pk, name string, age int?}."""
    return open_db(PERSON)
