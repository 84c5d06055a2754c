"""Fixtures: every test opens its own small database under pytest's tmp_path.

The suite tests the package in this source tree (bindings/python), whatever else is installed.
The library comes from DRUMLIN_LIBRARY (`make test` sets it), else the build tree.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest

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
