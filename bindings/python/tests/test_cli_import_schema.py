"""`drumlin import FILE --schema S data` is all or nothing with the schema change too (issue #45,
item 11; docs/cli.md): a refused import leaves a file it created as it was before (absent, or
empty), and an existing database with the schema and contents it had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import stored_rows
from test_cli import run

import drumlin

SCHEMA = [{"name": "Thing", "primaryKey": "id", "properties": {"id": "int", "label": "string"}}]


def inputs(tmp_path: Path, bad: bool) -> tuple[Path, Path]:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    data = tmp_path / "data.ndjson"
    lines = ['{"id": 1, "label": "one"}', '{"id": "two", "label": 2}' if bad else '{"id": 2, "label": "two"}']
    data.write_text("\n".join(lines) + "\n")
    return schema, data


def sidecars(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir() if p.name.startswith(path.name)]


def test_a_refused_import_into_a_new_file_leaves_no_file(tmp_path: Path) -> None:
    schema, data = inputs(tmp_path, bad=True)
    target = tmp_path / "new.drumlin"
    result = run("import", target, data, "--type", "Thing", "--schema", schema)
    assert result.returncode != 0
    assert "Line 2:" in result.stderr
    assert sidecars(target) == []


def test_a_refused_import_into_an_empty_file_leaves_it_empty(tmp_path: Path) -> None:
    schema, data = inputs(tmp_path, bad=True)
    target = tmp_path / "empty.drumlin"
    target.write_bytes(b"")
    result = run("import", target, data, "--type", "Thing", "--schema", schema)
    assert result.returncode != 0
    assert sidecars(target) == [target]
    assert target.read_bytes() == b""


def test_a_good_import_into_a_new_file_keeps_its_objects(tmp_path: Path) -> None:
    schema, data = inputs(tmp_path, bad=False)
    target = tmp_path / "new.drumlin"
    result = run("import", target, data, "--type", "Thing", "--schema", schema)
    assert result.returncode == 0, result.stderr
    with drumlin.open(target) as db:
        assert [t.label for t in db.objects("Thing")] == ["one", "two"]


def test_a_refused_import_into_an_existing_file_keeps_its_objects(tmp_path: Path) -> None:
    schema, data = inputs(tmp_path, bad=True)
    target = tmp_path / "old.drumlin"
    with drumlin.open(target, SCHEMA) as db:
        with db.write():
            db.create("Thing", {"id": 9, "label": "kept"})
    result = run("import", target, data, "--type", "Thing", "--schema", schema)
    assert result.returncode != 0
    with drumlin.open(target) as db:
        assert [t.label for t in db.objects("Thing")] == ["kept"]


def test_a_path_with_a_lone_surrogate_is_a_clear_error_in_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from drumlin import cli

    schema, data = inputs(tmp_path, bad=False)
    bad = str(tmp_path / "\ud800.drumlin")
    for argv in (
        ["info", bad],
        ["check", bad],
        ["export", bad],
        ["import", bad, str(data), "--type", "Thing", "--schema", str(schema)],
        ["import", str(tmp_path / "ok.drumlin"), bad, "--type", "Thing", "--schema", str(schema)],
        ["import", str(tmp_path / "ok.drumlin"), str(data), "--type", "Thing", "--schema", bad],
    ):
        assert cli.main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith("drumlin: "), err
        assert "surrogate" in err, err
    assert not (tmp_path / "ok.drumlin").exists()


# ---- Into an existing database: the schema's changes and the objects in one transaction ----------

WIDER = [
    {"name": "Thing", "primaryKey": "id", "properties": {"id": "int", "label": "string", "note": "string?"}},
    {"name": "Tag", "properties": {"name": "string", "thing": "Thing?"}},
]


def existing(tmp_path: Path, version: int = 0) -> Path:
    target = tmp_path / "old.drumlin"
    with drumlin.open(target, SCHEMA, schema_version=version) as db:
        with db.write():
            db.create("Thing", {"id": 9, "label": "kept"})
    return target


def state(target: Path) -> tuple[str, list[tuple[object, ...]], list[tuple[object, ...]]]:
    """What a refused import must leave as it was: the schema as `drumlin schema` shows it, the
    file's tables and columns, and Thing's rows."""
    schema = run("schema", target)
    assert schema.returncode == 0, schema.stderr
    sql = (
        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p"
        " WHERE m.type = 'table' ORDER BY 1, 2"
    )
    return schema.stdout, stored_rows(target, sql), stored_rows(target, 'SELECT id, label FROM "Thing"')


def wider_inputs(tmp_path: Path, bad: bool) -> tuple[Path, Path]:
    schema = tmp_path / "wider.json"
    schema.write_text(json.dumps(WIDER))
    data = tmp_path / "wider.ndjson"
    lines = [
        '{"$type": "Thing", "id": 1, "label": "one", "note": "new column"}',
        '{"$type": "Tag", "name": "first", "thing": 9}',
        '{"$type": "Tag", "name": 2}' if bad else '{"$type": "Tag", "name": "second", "thing": 1}',
    ]
    data.write_text("\n".join(lines) + "\n")
    return schema, data


def test_a_refused_import_into_an_existing_file_adds_no_type_and_no_property(tmp_path: Path) -> None:
    target = existing(tmp_path)
    before = state(target)
    schema, data = wider_inputs(tmp_path, bad=True)
    result = run("import", target, data, "--schema", schema)
    assert result.returncode == 1
    assert result.stderr == (
        "drumlin: Line 3: Type mismatch for property 'Tag.name': expected string, got int.\n"
    )
    assert state(target) == before
    assert "Tag" not in before[0] and "note" not in before[0]


def test_a_good_import_into_an_existing_file_adds_the_type_the_property_and_the_objects(
    tmp_path: Path,
) -> None:
    target = existing(tmp_path)
    schema, data = wider_inputs(tmp_path, bad=False)
    result = run("import", target, data, "--schema", schema)
    assert result.returncode == 0, result.stderr
    with drumlin.open(target) as db:
        assert [(c["name"], list(c["properties"])) for c in db.schema] == [
            ("Thing", ["id", "label", "note"]),
            ("Tag", ["name", "thing"]),
        ]
        things = [(t.id, t.label, t.note) for t in db.objects("Thing")]
        assert things == [(9, "kept", None), (1, "one", "new column")]
        assert [(t.name, t.thing.id) for t in db.objects("Tag")] == [("first", 9), ("second", 1)]


def test_an_existing_file_at_a_higher_schema_version_keeps_it(tmp_path: Path) -> None:
    target = existing(tmp_path, version=3)
    schema, data = wider_inputs(tmp_path, bad=False)
    result = run("import", target, data, "--schema", schema)
    assert result.returncode == 0, result.stderr  # was "Provided schema version 0 is less than ..."
    with drumlin.open(target) as db:
        assert db.schema_version == 3
        assert db.count("Tag") == 2


def test_a_schema_that_needs_a_migration_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    target = existing(tmp_path)
    before = state(target)
    changed = [{"name": "Thing", "primaryKey": "id", "properties": {"id": "int", "label": "int"}}] + WIDER[1:]
    schema = tmp_path / "changed.json"
    schema.write_text(json.dumps(changed))
    data = tmp_path / "tags.ndjson"
    data.write_text('{"$type": "Tag", "name": "first"}\n')
    result = run("import", target, data, "--schema", schema)
    assert result.returncode == 1
    assert result.stderr == (
        "drumlin: Migration is required due to the following errors:\n"
        "- Property 'Thing.label' has been changed from 'string' to 'int'.\n"
    )
    assert state(target) == before


def test_with_batches_the_schema_and_the_batches_before_a_bad_line_are_kept(tmp_path: Path) -> None:
    target = existing(tmp_path)
    schema, data = wider_inputs(tmp_path, bad=True)
    result = run("import", target, data, "--schema", schema, "--batch", "1")
    assert result.returncode == 1
    assert "Line 3:" in result.stderr
    with drumlin.open(target) as db:
        assert [c["name"] for c in db.schema] == ["Thing", "Tag"]
        assert [t.id for t in db.objects("Thing")] == [9, 1]
        assert [t.name for t in db.objects("Tag")] == ["first"]
