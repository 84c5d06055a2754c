"""Opening, options, schema introspection and closing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PERSON, OpenDb

import drumlin


def test_open_with_a_schema_list_or_json_string(tmp_path: Path) -> None:
    with drumlin.open(tmp_path / "a.drumlin", PERSON) as first:
        assert first.path == str(tmp_path / "a.drumlin")
    with drumlin.open(str(tmp_path / "b.drumlin"), json.dumps(PERSON)) as second:
        assert [c["name"] for c in second.schema] == ["Person"]
    assert first.is_closed and second.is_closed


def test_schema_is_the_normalized_long_form(db: drumlin.Database) -> None:
    assert db.schema == [
        {
            "name": "Person",
            "primaryKey": "_id",
            "embedded": False,
            "asymmetric": False,
            "properties": {
                "_id": {"type": "int", "optional": False, "indexed": True, "mapTo": "_id"},
                "name": {"type": "string", "optional": False, "indexed": False, "mapTo": "name"},
                "age": {"type": "int", "optional": True, "indexed": False, "mapTo": "age"},
            },
        }
    ]
    db.schema.clear()  # a copy: the cached schema is unaffected
    assert len(db.schema) == 1


def test_schema_version_is_stored(open_db: OpenDb) -> None:
    assert open_db(PERSON, name="zero.drumlin").schema_version == 0
    open_db(PERSON, schema_version=7).close()
    assert open_db(PERSON, schema_version=7).schema_version == 7


def test_memory_databases_vanish_when_closed(open_db: OpenDb) -> None:
    for db in (drumlin.open(":memory:", PERSON), open_db(PERSON, name="mem.drumlin", in_memory=True)):
        with db.write():
            db.create("Person", {"_id": 1, "name": "Ann"})
        assert db.count("Person") == 1
        db.close()
    assert open_db(PERSON, name="mem.drumlin").count("Person") == 0


def test_in_memory_does_not_create_the_file(tmp_path: Path) -> None:
    with drumlin.open(tmp_path / "never.drumlin", PERSON, in_memory=True):
        pass
    assert not (tmp_path / "never.drumlin").exists()


def test_delete_if_migration_needed_starts_afresh(open_db: OpenDb) -> None:
    db = open_db(PERSON)
    with db.write():
        db.create("Person", {"_id": 1, "name": "Ann"})
    db.close()
    changed = [{**PERSON[0], "properties": {"_id": "int", "name": "int"}}]
    fresh = open_db(changed, delete_if_migration_needed=True)
    assert fresh.count("Person") == 0


def test_read_only_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(drumlin.FileError, match="the file does not exist"):
        drumlin.open(tmp_path / "none.drumlin", PERSON, read_only=True)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"schema_version": -1}, drumlin.InvalidArgumentError),
        ({"schema_version": 2**64}, drumlin.InvalidArgumentError),
        ({"schema_version": "1"}, drumlin.TypeMismatchError),
        ({"schema_version": True}, drumlin.TypeMismatchError),
        ({"read_only": 1}, drumlin.TypeMismatchError),
        ({"in_memory": "yes"}, drumlin.TypeMismatchError),
    ],
)
def test_bad_options_are_refused(tmp_path: Path, kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        drumlin.open(tmp_path / "x.drumlin", PERSON, **kwargs)
    assert not (tmp_path / "x.drumlin").exists()


def test_bad_path_or_schema_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(drumlin.TypeMismatchError, match="schema must be"):
        drumlin.open(tmp_path / "x.drumlin", 42)  # type: ignore[arg-type]
    with pytest.raises(drumlin.TypeMismatchError, match="path must be"):
        drumlin.open(42, PERSON)  # type: ignore[arg-type]
    with pytest.raises(drumlin.InvalidArgumentError, match="NUL"):
        drumlin.open(str(tmp_path / "x\0y.drumlin"), PERSON)
    with pytest.raises(TypeError, match="migration must be a function"):
        drumlin.open(tmp_path / "x.drumlin", PERSON, migration=42)  # type: ignore[arg-type]


def test_close_is_idempotent_and_context_manager_closes(db: drumlin.Database) -> None:
    assert repr(db).endswith("(open)>")
    with db as same:
        assert same is db
    assert db.is_closed
    db.close()
    assert repr(db).endswith("(closed)>")
    for attempt in (lambda: db.schema, lambda: db.schema_version, lambda: db.get("Person", 1)):
        with pytest.raises(drumlin.MisuseError, match="This database is closed."):
            attempt()


def test_count(db: drumlin.Database) -> None:
    assert db.count("Person") == 0
    with db.write():
        db.create_many("Person", [{"_id": i, "name": "x"} for i in range(3)])
    assert db.count("Person") == 3


def test_subset_schema_leaves_other_classes_alone(open_db: OpenDb) -> None:
    both = [*PERSON, {"name": "Dog", "properties": {"name": "string"}}]
    db = open_db(both)
    with db.write():
        db.create("Dog", {"name": "Rex"})
    db.close()
    only_people = open_db(PERSON)
    with pytest.raises(drumlin.NoSuchClassError):
        only_people.count("Dog")
    only_people.close()
    assert open_db(both).count("Dog") == 1
