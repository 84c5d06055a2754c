"""`Database.add_classes`: classes added to an open database (drumlin_add_classes), outside a
write transaction and inside one, where a rollback removes them again (issue 45, item 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PERSON, OpenDb, stored_rows

import drumlin

TAG = [{"name": "Tag", "properties": {"label": "string"}}]


class Note(drumlin.Object):
    text: str = ""


def tables(path: str | Path) -> list[str]:
    sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    return [row[0] for row in stored_rows(path, sql)]


@pytest.mark.parametrize("form", ["dicts", "json"])
def test_classes_given_as_dicts_or_json_are_added_and_stored(
    open_db: OpenDb, tmp_path: Path, form: str
) -> None:
    db = open_db(PERSON)
    db.add_classes(TAG if form == "dicts" else json.dumps(TAG))
    assert [c["name"] for c in db.schema] == ["Person", "Tag"]
    with db.write():
        db.create("Tag", {"label": "red"})
    assert [t.label for t in db.objects("Tag")] == ["red"]
    db.close()
    assert "Tag" in tables(tmp_path / "test.drumlin")
    with drumlin.open(tmp_path / "test.drumlin") as again:
        assert [c["name"] for c in again.schema] == ["Person", "Tag"]
        assert again.count("Tag") == 1


def test_model_classes_are_added_and_their_objects_are_their_instances(open_db: OpenDb) -> None:
    db = open_db(PERSON)
    db.add_classes([Note])
    with db.write():
        note = db.create(Note, {"text": "hi"})
    assert isinstance(note, Note)
    assert isinstance(db.objects("Note")[0], Note)
    assert db.objects(Note)[0].text == "hi"


def test_a_rollback_removes_the_classes_its_transaction_added(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(PERSON)
    before = tables(tmp_path / "test.drumlin")
    with pytest.raises(RuntimeError, match="refused"):
        with db.write():
            db.add_classes(TAG)
            db.create("Tag", {"label": "red"})
            assert db.count("Tag") == 1
            raise RuntimeError("refused")
    assert [c["name"] for c in db.schema] == ["Person"]
    with pytest.raises(drumlin.NoSuchClassError, match="Object type 'Tag' is not in the schema."):
        db.count("Tag")
    assert tables(tmp_path / "test.drumlin") == before
    # Added again with other properties: this database knows the new definition, not the old.
    with db.write():
        db.add_classes([{"name": "Tag", "properties": {"weight": "int"}}])
        db.create("Tag", {"weight": 3})
    assert db.objects("Tag")[0].weight == 3
    assert list(db.schema[1]["properties"]) == ["weight"]


def test_what_cannot_be_added_raises_and_changes_nothing(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(PERSON)
    wider = [{**PERSON[0], "properties": {**PERSON[0]["properties"], "email": "string?"}}]
    with pytest.raises(drumlin.MigrationRequiredError) as raised:
        db.add_classes(wider)
    assert raised.value.message == (
        "Cannot change classes while the database is open; open it again with the new definitions:\n"
        "- Property 'Person.email' has been added."
    )
    with pytest.raises(drumlin.SchemaValidationError, match="Nowhere"):
        db.add_classes([{"name": "Tag", "properties": {"to": "Nowhere?"}}])
    with pytest.raises(drumlin.TypeMismatchError, match="schema must be a list of object schemas"):
        db.add_classes(5)  # type: ignore[arg-type]
    assert [c["name"] for c in db.schema] == ["Person"]
    db.close()
    with pytest.raises(drumlin.MisuseError):
        db.add_classes(TAG)
    with drumlin.open(tmp_path / "test.drumlin", read_only=True) as ro:
        with pytest.raises(drumlin.MigrationRequiredError, match="cannot be made in read-only schema mode"):
            ro.add_classes(TAG)
        assert [c["name"] for c in ro.schema] == ["Person"]
