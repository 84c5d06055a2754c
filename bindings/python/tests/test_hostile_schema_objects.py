"""Files made by someone else (issue #45, items 3-5): schema objects Drumlin did not make, stored
metadata that disagrees with the tables, columns the metadata names that the tables lack. Each file
is crafted with Python's sqlite3 in a child process; a refused open is CORRUPT naming the problem
and leaves the file byte-identical."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from conftest import run_sql, stored_rows

import drumlin

ITEM: list[dict[str, Any]] = [
    {"name": "Item", "properties": {"name": "string", "n": "int?", "body": {"type": "string", "indexed": "full-text"}}}
]



def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def item_file(tmp_path: Path, script: str = "") -> Path:
    path = tmp_path / "planted.drumlin"
    with drumlin.open(path, ITEM) as db:
        with db.write():
            db.create("Item", {"name": "a", "n": 1, "body": "hello world"})
    if script:
        run_sql(path, script)
    run_sql(path, "PRAGMA wal_checkpoint(TRUNCATE);")
    return path


def refused(path: Path, match: str, schema: Any = ITEM) -> None:
    before = digest(path)
    with pytest.raises(drumlin.CorruptError, match=match):
        drumlin.open(path, schema)
    with pytest.raises(drumlin.CorruptError, match=match):
        drumlin.open(path, schema, read_only=True)
    assert digest(path) == before


def test_a_planted_trigger_is_refused_on_open_naming_it(tmp_path: Path) -> None:
    path = item_file(tmp_path, 'CREATE TRIGGER "eat" AFTER INSERT ON "Item" BEGIN DELETE FROM "Item"; END;')
    refused(path, r"The trigger 'eat' on 'Item' was not made by Drumlin")


@pytest.mark.parametrize(
    ("script", "match"),
    [
        ('CREATE UNIQUE INDEX "u" ON "Item" ("n");', r"The index 'u' on 'Item' is unique"),
        ('CREATE INDEX "p" ON "Item" ("n") WHERE "n" > 0;', r"The index 'p' on 'Item' is partial"),
        ('CREATE INDEX "e" ON "Item" (abs("n"));', r"The index 'e' on 'Item' is on an expression"),
    ],
)
def test_an_index_with_side_effects_on_a_drumlin_table_is_refused(tmp_path: Path, script: str, match: str) -> None:
    refused(item_file(tmp_path, script), match)


def test_a_check_constraint_is_refused_instead_of_failing_writes_with_internal(tmp_path: Path) -> None:
    # SQLite cannot add a CHECK to a table: rebuild "Item" with one (what a planted file holds).
    path = item_file(
        tmp_path,
        """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_master SET sql = replace(sql, '"n" INTEGER', '"n" INTEGER CHECK ("n" < 100)')
            WHERE name = 'Item';
        """,
    )
    refused(path, r"The table 'Item' has a CHECK constraint that Drumlin did not make")


def test_a_generated_column_is_refused(tmp_path: Path) -> None:
    path = item_file(tmp_path, 'ALTER TABLE "Item" ADD COLUMN "g" INTEGER GENERATED ALWAYS AS ("n" + 1) VIRTUAL;')
    refused(path, r"The table 'Item' has a generated column")


def test_harmless_extras_open_and_check_lists_them(tmp_path: Path) -> None:
    path = item_file(
        tmp_path,
        """
        CREATE VIEW "v" AS SELECT * FROM "Item";
        CREATE TABLE "notes" (x);
        CREATE INDEX "plain" ON "Item" ("n");
        """,
    )
    with drumlin.open(path, ITEM) as db:
        with db.write():
            db.create("Item", {"name": "b", "n": 2, "body": ""})
        assert db.count("Item") == 2
        problems = db.check()
    assert "The file holds a view 'v' that Drumlin did not make (Drumlin leaves it alone)." in problems
    assert "The file holds a table 'notes' that Drumlin did not make (Drumlin leaves it alone)." in problems
    assert "The file holds an index 'plain' on 'Item' that Drumlin did not make." in problems
    assert len(problems) == 3


def test_a_file_drumlin_wrote_opens_and_checks_clean(tmp_path: Path) -> None:
    path = item_file(tmp_path)
    with drumlin.open(path, ITEM) as db:
        assert db.check() == []
        assert [o.name for o in db.query("Item", "body TEXT 'hello'")] == ["a"]


def test_a_table_the_catalogue_does_not_list_is_corrupt_not_internal(tmp_path: Path) -> None:
    path = item_file(tmp_path, 'CREATE TABLE "Other" ("_drumlin_key" INTEGER PRIMARY KEY, "x" TEXT);')
    before = digest(path)
    schema = ITEM + [{"name": "Other", "properties": {"x": "string"}}]
    with pytest.raises(drumlin.CorruptError, match=r"its tables disagree with its stored schema \(table \"?Other\"? already exists"):
        drumlin.open(path, schema)
    assert digest(path) == before


def test_a_column_the_catalogue_does_not_list_is_corrupt_not_internal(tmp_path: Path) -> None:
    path = item_file(tmp_path, 'ALTER TABLE "Item" ADD COLUMN "extra" TEXT;')
    before = digest(path)
    schema = [{"name": "Item", "properties": {**ITEM[0]["properties"], "extra": "string?"}}]
    with pytest.raises(drumlin.CorruptError, match=r"disagree with its stored schema \(duplicate column name: extra"):
        drumlin.open(path, schema)
    assert digest(path) == before


def test_a_column_missing_from_its_table_is_corrupt_not_its_own_name(tmp_path: Path) -> None:
    schema = [{"name": "C", "primaryKey": "id", "properties": {"id": "int", "ghost": "string"}}]
    path = tmp_path / "ghost.drumlin"
    with drumlin.open(path, schema) as db:
        with db.write():
            db.create("C", {"id": 1, "ghost": "boo"})
    run_sql(path, 'ALTER TABLE "C" DROP COLUMN "ghost"; PRAGMA wal_checkpoint(TRUNCATE);')
    refused(path, r"The column 'ghost' of 'C.ghost' is missing from the table 'C'", schema)


def test_a_double_quoted_name_that_is_no_column_is_an_error_not_a_string(tmp_path: Path) -> None:
    # The column goes missing while the database is open: SQLite's double-quoted string fallback
    # would read "ghost" as the string 'ghost'.
    schema = [{"name": "C", "primaryKey": "id", "properties": {"id": "int", "ghost": "string"}}]
    path = tmp_path / "ghost.drumlin"
    with drumlin.open(path, schema) as db:
        with db.write():
            db.create("C", {"id": 1, "ghost": "boo"})
        run_sql(path, 'ALTER TABLE "C" DROP COLUMN "ghost";')
        with pytest.raises(drumlin.CorruptError, match=r"no such column: (t0\.)?ghost"):
            db.get("C", 1).ghost  # noqa: B018
        with pytest.raises(drumlin.CorruptError, match=r"no such column: (t0\.)?ghost"):
            db.count("C", "ghost == 'ghost'")


def test_a_declared_type_that_disagrees_with_the_metadata_is_refused(tmp_path: Path) -> None:
    path = item_file(
        tmp_path,
        """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_master SET sql = replace(sql, '"name" TEXT', '"name" INTEGER') WHERE name = 'Item';
        """,
    )
    refused(path, r"The column 'name' of 'Item.name' is declared 'INTEGER', not 'TEXT'")
    assert stored_rows(path, "SELECT count(*) FROM Item") == [(1,)]


def test_a_stored_schema_edited_to_be_invalid_is_corrupt_when_opened_without_a_schema(tmp_path: Path) -> None:
    schema = [
        {"name": "T", "properties": {"x": "int"}},
        {"name": "L", "properties": {"to": "T?"}},
    ]
    path = tmp_path / "edited.drumlin"
    with drumlin.open(path, schema):
        pass
    run_sql(
        path,
        """UPDATE _drumlin_classes SET definition = replace(definition, '"objectType": "T"', '"objectType": "Missing"')
               WHERE table_name = 'L';
           UPDATE _drumlin_classes SET definition = replace(definition, '"objectType":"T"', '"objectType":"Missing"')
               WHERE table_name = 'L';
           PRAGMA wal_checkpoint(TRUNCATE);""",
    )
    assert "Missing" in stored_rows(path, "SELECT definition FROM _drumlin_classes WHERE table_name = 'L'")[0][0]
    before = digest(path)
    with pytest.raises(drumlin.CorruptError, match=r"(?s)The schema stored in '.*' is invalid: .*unknown object type 'Missing'"):
        drumlin.open(path, read_only=True)
    assert digest(path) == before
