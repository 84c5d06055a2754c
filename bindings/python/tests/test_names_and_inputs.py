"""Names and inputs (issue #45, items 7-10): names compared byte for byte (Unicode normalization
included), full-text properties named like FTS5's own columns, integers out of range at the C
boundary, paths that are no file name."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import pytest

import drumlin

NFC = unicodedata.normalize("NFC", "Café")
NFD = unicodedata.normalize("NFD", "Café")


def test_a_class_in_another_normalization_is_another_class(tmp_path: Path) -> None:
    assert NFC.encode() == b"Caf\xc3\xa9" and NFD.encode() == b"Cafe\xcc\x81"
    path = tmp_path / "names.drumlin"
    with drumlin.open(path, [{"name": NFD, "properties": {"x": "int"}}]) as db:
        with db.write():
            db.create(NFD, {"x": 1})
    # Realm compares names as given: the composed name is a new class (a new table), not the
    # stored one read through a table SQLite does not have.
    with drumlin.open(path, [{"name": NFC, "properties": {"x": "int"}}]) as db:
        assert db.count(NFC) == 0
        with db.write():
            db.create(NFC, {"x": 2})
        assert [o.x for o in db.objects(NFC)] == [2]
        assert db.count(NFC, "x == 2") == 1
    with drumlin.open(path) as db:
        assert db.count(NFD) == 1 and db.count(NFC) == 1


def test_a_property_in_another_normalization_is_another_property(tmp_path: Path) -> None:
    path = tmp_path / "props.drumlin"
    with drumlin.open(path, [{"name": "P", "properties": {NFD: "int"}}]) as db:
        with db.write():
            db.create("P", {NFD: 5})
        assert db.count("P", f"{NFD} == 5") == 1
        with pytest.raises(drumlin.QueryError, match=f"'P' has no property '{NFC}'"):
            db.count("P", f"{NFC} == 5")
    with pytest.raises(drumlin.MigrationRequiredError, match=f"Property 'P.{NFD}' has been removed"):
        drumlin.open(path, [{"name": "P", "properties": {NFC: "int"}}])


def test_a_class_whose_table_differs_only_in_ascii_case_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "case.drumlin"
    with drumlin.open(path, [{"name": "Item", "properties": {"x": "int"}}]):
        pass
    with pytest.raises(drumlin.SchemaValidationError, match="Name clash: type 'item' would be stored as 'item', and the file stores type 'Item'"):
        drumlin.open(path, [{"name": "item", "properties": {"x": "int"}}])


@pytest.mark.parametrize("name", ["rowid", "rank", "RowID", "RANK"])
def test_a_full_text_property_named_like_an_fts5_column_works(tmp_path: Path, name: str) -> None:
    schema: list[dict[str, Any]] = [
        {"name": "Doc", "primaryKey": "id", "properties": {"id": "int", name: {"type": "string", "indexed": "full-text"}}}
    ]
    path = tmp_path / "fts.drumlin"
    with drumlin.open(path, schema) as db:
        with db.write():
            db.create("Doc", {"id": 1, name: "hello world"})
            db.create("Doc", {"id": 2, name: "goodbye"})
        assert [d.id for d in db.query("Doc", f"{name} TEXT 'hello'")] == [1]
        with db.write():
            db.get("Doc", 1)[name] = "nothing"
            db.get("Doc", 2)[name] = "hello again"
        assert [d.id for d in db.query("Doc", f"{name} TEXT 'hello'")] == [2]
        with db.write():
            db.delete(db.get("Doc", 2))
        assert db.count("Doc", f"{name} TEXT 'hello'") == 0
        assert db.check() == []
    # Added to a class with objects, the index holds them.
    schema2 = [{"name": "Doc", "primaryKey": "id", "properties": {"id": "int", name: {"type": "string", "indexed": "full-text"}, "note": {"type": "string", "indexed": "full-text"}}}]
    with drumlin.open(path, schema2) as db:
        assert [d.id for d in db.query("Doc", f"{name} TEXT 'nothing'")] == [1]


def test_a_full_text_index_added_later_to_a_property_named_rowid_indexes_the_objects(tmp_path: Path) -> None:
    plain: list[dict[str, Any]] = [{"name": "Doc", "properties": {"rowid": "string"}}]
    path = tmp_path / "later.drumlin"
    with drumlin.open(path, plain) as db:
        with db.write():
            db.create("Doc", {"rowid": "alpha beta"})
    indexed = [{"name": "Doc", "properties": {"rowid": {"type": "string", "indexed": "full-text"}}}]
    with drumlin.open(path, indexed) as db:
        assert db.count("Doc", "rowid TEXT 'beta'") == 1


def test_a_results_index_past_int64_is_index_error_never_a_wrap(tmp_path: Path) -> None:
    with drumlin.open(tmp_path / "r.drumlin", [{"name": "N", "properties": {"v": "int"}}]) as db:
        with db.write():
            for v in range(3):
                db.create("N", {"v": v})
        results = db.objects("N")
        for index in (2**70, 2**64, 2**64 + 2, 2**63):
            with pytest.raises(IndexError, match=f"Index {index} is out of bounds for results of size 3"):
                results[index]
        for index in (-(2**70), -(2**64) + 1):
            with pytest.raises(IndexError):
                results[index]
        assert results[2].v == 2 and results[-3].v == 0
        assert [n.v for n in results[: 2**70]] == [0, 1, 2]
        assert len(results.limit(2**70)) == 3


@pytest.mark.parametrize("bad", ["\ud800.drumlin", "dir\udfff/x.drumlin"])
def test_a_path_with_a_lone_surrogate_is_an_invalid_argument(tmp_path: Path, bad: str) -> None:
    path = str(tmp_path) + "/" + bad
    with pytest.raises(drumlin.InvalidArgumentError, match="cannot be a file name: surrogates not allowed"):
        drumlin.open(path, [{"name": "N", "properties": {"v": "int"}}])
    with drumlin.open(tmp_path / "ok.drumlin", [{"name": "N", "properties": {"v": "int"}}]) as db:
        with pytest.raises(drumlin.InvalidArgumentError, match="cannot be a file name"):
            db.export_ndjson(path, "N")
        with pytest.raises(drumlin.InvalidArgumentError, match="cannot be a file name"):
            db.import_ndjson(path, "N")
