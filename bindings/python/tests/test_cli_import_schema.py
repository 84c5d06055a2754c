"""`drumlin import FILE --schema S data` is all or nothing with the schema change too (issue #45,
item 11; docs/cli.md): a refused import leaves a file it created as it was before: absent, or
empty."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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
