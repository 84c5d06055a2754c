"""Opening a file by its stored schema takes its stored schema version (issue 44, item 1):
``drumlin.open(path)`` and every ``drumlin`` command work on a migrated file. The version is an
unsigned 64-bit number in every API: 2**63 and 2**64-1 read back as given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import run

import drumlin
from drumlin import MigrationError

ITEM = [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "title": "string"}}]


def migrated(tmp_path: Path, version: int) -> Path:
    """A file at `version` holding Item 1."""
    path = tmp_path / f"v{version}.drumlin"
    with drumlin.open(path, ITEM, schema_version=version) as db, db.write():
        db.create("Item", {"id": 1, "title": "one"})
    return path


@pytest.mark.parametrize("version", [0, 1, 2**63, 2**64 - 1])
def test_a_file_opens_by_its_stored_schema_at_its_stored_version(tmp_path: Path, version: int) -> None:
    path = migrated(tmp_path, version)
    with drumlin.open(path) as db:
        assert db.schema_version == version
        assert db.get("Item", 1).to_dict() == {"id": 1, "title": "one"}
        with db.write():
            db.create("Item", {"id": 2, "title": "two"})
    with drumlin.open(path, read_only=True) as db:
        assert db.schema_version == version
        assert db.objects("Item").count() == 2
    # A lower version given with the schema is still refused.
    if version:
        with pytest.raises(MigrationError) as caught:
            drumlin.open(path, ITEM, schema_version=version - 1)
        assert str(caught.value).endswith(f"Provided schema version {version - 1} is less than last set version {version}.")


def test_a_higher_version_without_a_schema_upgrades_the_file(tmp_path: Path) -> None:
    path = migrated(tmp_path, 1)
    with drumlin.open(path, schema_version=4) as db:
        assert db.schema_version == 4
    with drumlin.open(path) as db:
        assert db.schema_version == 4


@pytest.mark.parametrize("version", [2, 2**63])
def test_every_command_works_on_a_migrated_file(tmp_path: Path, version: int) -> None:
    path = migrated(tmp_path, version)
    info = run("info", path)
    assert info.returncode == 0, info.stderr
    assert info.stdout.splitlines()[2:4] == [f"schema version  {version}", "types           1"]
    schema = run("schema", path, "--json")
    assert schema.returncode == 0, schema.stderr
    assert [entry["name"] for entry in json.loads(schema.stdout)] == ["Item"]
    query = run("query", path, "Item", "id == 1", "--json")
    assert query.returncode == 0, query.stderr
    assert json.loads(query.stdout) == [{"id": 1, "title": "one"}]
    exported = run("export", path)
    assert exported.returncode == 0, exported.stderr
    assert [json.loads(line) for line in exported.stdout.splitlines()] == [{"$type": "Item", "id": 1, "title": "one"}]
    assert run("check", path).stdout == f"{path}: ok\n"
    compacted = run("compact", path)
    assert compacted.returncode == 0 and compacted.stdout.startswith(f"{path}: "), compacted.stderr
    with drumlin.open(path, read_only=True) as db:
        assert db.schema_version == version
        assert db.objects("Item").count() == 1
