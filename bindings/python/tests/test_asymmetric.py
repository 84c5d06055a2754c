"""Asymmetric (insert-only) objects: create and create_many work, nothing reads them back, and
they sit in their table, in insertion order, as a durable outbox."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from conftest import OpenDb, stored_rows

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string"}},
    {"name": "Address", "embedded": True, "properties": {"street": "string"}},
    {
        "name": "Reading",
        "asymmetric": True,
        "properties": {"value": "double", "dog": "Dog", "where": "Address", "tags": "string[]"},
    },
    {
        "name": "Event",
        "asymmetric": True,
        "primaryKey": "_id",
        "properties": {"_id": "uuid", "kind": "string"},
    },
]

MESSAGE = "Objects of asymmetric type '{}' are insert-only and cannot be read, queried, updated or deleted."


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


def _rows(db: drumlin.Database, sql: str) -> list[tuple[Any, ...]]:
    """Read the file with Python's sqlite3 (committed data only)."""
    return stored_rows(db.path, sql)


def test_create_and_create_many_return_nothing_to_read(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        assert db.create("Reading", {"value": 1.0}) is None
        assert db.create("Reading", {"value": 2.0, "dog": rex}) is None  # typed path, with a link
        assert (
            db.create("Reading", {"value": 3.0, "dog": "Rex", "where": {"street": "s"}, "tags": ["a"]})
            is None
        )
        assert db.create_many("Reading", [{"value": 4.0}, {"value": 5.0, "dog": rex, "tags": {"b"}}]) == 2
        assert db.create("Event", {"_id": uuid.uuid4(), "kind": "start"}) is None


def test_asymmetric_objects_cannot_be_read_counted_or_found(db: drumlin.Database) -> None:
    key = uuid.uuid4()
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        db.create("Reading", {"value": 1.0, "dog": rex})
        db.create("Event", {"_id": key, "kind": "start"})
    for call, class_name in (
        (lambda: db.get("Event", key), "Event"),
        (lambda: db.count("Reading"), "Reading"),
        (lambda: db.count("Event"), "Event"),
        (lambda: rex.linking_objects("Reading", "dog"), "Reading"),
    ):
        with pytest.raises(drumlin.NotSupportedError) as caught:
            call()
        assert caught.value.code == 17
        assert caught.value.message == MESSAGE.format(class_name)
    with db.write(), pytest.raises(drumlin.DuplicatePrimaryKeyError):
        db.create("Event", {"_id": key, "kind": "again"})


def test_the_outbox_holds_every_insert_in_order(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        db.create("Reading", {"value": 1.0})
        db.create("Reading", {"value": 2.0, "dog": rex, "where": {"street": "Main"}})
        db.create_many("Reading", [{"value": 3.0}, {"value": 4.0, "dog": "Rex"}])
        db.create("Reading", {"value": 5.0, "tags": ["x", "y"]})
    with pytest.raises(RuntimeError), db.write():
        db.create("Reading", {"value": 99.0})
        raise RuntimeError("rolled back: never in the outbox")
    with db.write():
        db.create("Reading", {"value": 6.0})
    rows = _rows(db, 'SELECT _drumlin_key, value, dog, "where" FROM "Reading" ORDER BY _drumlin_key')
    assert [value for _, value, _, _ in rows] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    rex_key = _rows(db, 'SELECT _drumlin_key FROM "Dog"')[0][0]
    assert [dog for _, _, dog, _ in rows] == [None, rex_key, None, rex_key, None, None]
    where = rows[1][3]
    assert _rows(db, f'SELECT street FROM "Address" WHERE _drumlin_key = {int(where)}') == [("Main",)]
    reading_keys = [key for key, _, _, _ in rows]
    assert reading_keys == sorted(reading_keys)


def test_nothing_may_link_to_an_asymmetric_class(open_db: OpenDb) -> None:
    schema = [*SCHEMA, {"name": "Log", "properties": {"reading": "Reading"}}]
    with pytest.raises(drumlin.SchemaValidationError) as caught:
        open_db(schema)
    assert caught.value.message == (
        "Schema validation failed due to the following errors:\n"
        "- Property 'Log.reading' of type 'object' cannot be a link to an asymmetric object."
    )
