"""Migrations: a higher schema_version changes the schema with Realm's conversions and runs the
migration function, all in one transaction (docs/migrations.md)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any, Optional

import pytest

import drumlin

from conftest import stored_rows

ITEM_V1 = [
    {
        "name": "Item",
        "primaryKey": "id",
        "properties": {"id": "int", "title": "string", "n": "int", "note": "string?"},
    },
    {"name": "Old", "properties": {"x": "int", "xs": "int[]"}},
]


def item(**properties: str) -> list[dict[str, Any]]:
    return [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", **properties}}]


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    """A file at version 1: two items and one Old object."""
    path = tmp_path / "v1.drumlin"
    with drumlin.open(path, ITEM_V1, schema_version=1) as db, db.write():
        db.create("Item", {"id": 1, "title": "12", "n": 5, "note": "x"})
        db.create("Item", {"id": 2, "title": "b", "n": 7})
        db.create("Old", {"x": 4, "xs": [1, 2]})
    return path


def everything(path: Path) -> list[Any]:
    """Every table's rows and the schema objects, for "nothing changed" comparisons."""
    master = stored_rows(path, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY name")
    # A table without a rowid (a list of values) in its key's order: owner, position.
    tables = [(row[1], "1, 2" if row[3].endswith("WITHOUT ROWID") else "rowid")
              for row in master if row[0] == "table" and not row[1].startswith("sqlite_")]
    return [master] + [stored_rows(path, f'SELECT * FROM "{table}" ORDER BY {order}') for table, order in tables]


def test_the_function_reads_removed_properties_and_converts_values(v1: Path) -> None:
    seen: list[Any] = []

    def migrate(m: drumlin.Migration) -> None:
        seen.append((m.old_schema_version, m.new_schema_version, list(m.old_schema[0]["properties"])))

        def convert(old: drumlin.Object, new: Optional[drumlin.Object]) -> None:
            assert new is not None
            seen.append((old.title, old["n"], old.note))
            new.title = int(old.title) if old.title.isdigit() else None

        m.enumerate_objects("Item", convert)

    with drumlin.open(v1, item(title="int?"), schema_version=2, migration=migrate) as db:
        assert db.schema_version == 2
        assert [o.to_dict() for o in db.objects("Item")] == [{"id": 1, "title": 12}, {"id": 2, "title": None}]
    assert seen == [(1, 2, ["id", "title", "n", "note"]), ("12", 5, "x"), ("b", 7, None)]


def test_the_function_iterates_and_queries_both_databases(v1: Path) -> None:
    # Objects read as rows from the databases a migration lends out (a regression: they had no
    # lock for their calls, so a loop over new_db.objects() raised AttributeError).
    def migrate(m: drumlin.Migration) -> None:
        titles = {o.id: o.title for o in m.old_db.objects("Item")}
        for new in m.new_db.objects("Item"):
            new.label = f"{titles[new.id]}/{new.n}"
        (first,) = m.new_db.query("Item", "id == $0", 1)
        assert first.label == "12/5" and m.new_db.objects("Item")[-1].id == 2

    with drumlin.open(v1, item(n="int", label="string"), schema_version=2, migration=migrate) as db:
        assert [o.label for o in db.objects("Item")] == ["12/5", "b/7"]


def test_without_a_function_a_higher_version_applies_realms_conversions(v1: Path) -> None:
    # title string -> int: zero; n required -> optional: kept; note optional -> required: "" for null.
    with drumlin.open(v1, item(title="int", n="int?", note="string"), schema_version=2) as db:
        assert [o.to_dict() for o in db.objects("Item")] == [
            {"id": 1, "title": 0, "n": 5, "note": "x"},
            {"id": 2, "title": 0, "n": 7, "note": ""},
        ]


def test_the_same_version_still_requires_a_migration(v1: Path) -> None:
    with pytest.raises(drumlin.MigrationRequiredError) as info:
        drumlin.open(v1, item(title="string"), schema_version=1)
    assert info.value.message == (
        "Migration is required due to the following errors:\n"
        "- Property 'Item.n' has been removed.\n- Property 'Item.note' has been removed."
    )


def test_rename_property_keeps_the_data(v1: Path) -> None:
    def migrate(m: drumlin.Migration) -> None:
        m.rename_property("Item", "title", "name")

    with drumlin.open(v1, item(name="string"), schema_version=2, migration=migrate) as db:
        assert [o.name for o in db.objects("Item")] == ["12", "b"]


def test_rename_property_of_another_type_fails_naming_both(v1: Path) -> None:
    with pytest.raises(drumlin.TypeMismatchError) as info:
        drumlin.open(v1, item(name="int"), schema_version=2, migration=lambda m: m.rename_property("Item", "title", "name"))
    assert info.value.message == (
        "Cannot rename property 'Item.title' to 'name' because it would change from type 'string' to 'int'."
    )


def test_a_removed_class_keeps_its_data_unless_deleted(v1: Path) -> None:
    seen: list[Any] = []

    def migrate(m: drumlin.Migration) -> None:
        m.enumerate_objects("Old", lambda old, new: seen.append((old.x, list(old.xs), new)))

    drumlin.open(v1, ITEM_V1[:1], schema_version=2, migration=migrate).close()
    assert seen == [(4, [1, 2], None)]
    assert stored_rows(v1, "SELECT x FROM Old") == [(4,)]
    results: list[bool] = []

    def delete(m: drumlin.Migration) -> None:
        results.extend([m.delete_data("Old"), m.delete_data("Nothing")])

    drumlin.open(v1, ITEM_V1[:1], schema_version=3, migration=delete).close()
    assert results == [True, False]
    assert stored_rows(v1, "SELECT name FROM _drumlin_classes") == [("Item",)]


def test_a_changed_primary_key_is_checked_for_duplicates(v1: Path) -> None:
    before = everything(v1)
    schema = [{"name": "Item", "primaryKey": "code", "properties": {"id": "int", "code": "string"}}]
    with pytest.raises(drumlin.MigrationError) as info:
        drumlin.open(v1, schema, schema_version=2)
    assert info.value.message == "Primary key property 'Item.code' has duplicate values after migration: ''."
    assert everything(v1) == before

    def migrate(m: drumlin.Migration) -> None:
        def fill(old: drumlin.Object, new: Optional[drumlin.Object]) -> None:
            assert new is not None
            new.code = f"c{old.id}"

        m.enumerate_objects("Item", fill)

    with drumlin.open(v1, schema, schema_version=2, migration=migrate) as db:
        assert db.get("Item", "c2").id == 2


def test_create_and_delete_in_the_function(v1: Path) -> None:
    def migrate(m: drumlin.Migration) -> None:
        def drop_first(old: drumlin.Object, new: Optional[drumlin.Object]) -> None:
            if old.id == 1 and new is not None:
                m.delete(new)

        m.enumerate_objects("Item", drop_first)
        m.create("Item", {"id": 3, "title": "c", "n": 3})

    with drumlin.open(v1, ITEM_V1, schema_version=2, migration=migrate) as db:
        assert [o.id for o in db.objects("Item")] == [2, 3]


def test_old_objects_are_read_only(v1: Path) -> None:
    def migrate(m: drumlin.Migration) -> None:
        def write_old(old: drumlin.Object, new: Optional[drumlin.Object]) -> None:
            old.title = "x"

        m.enumerate_objects("Item", write_old)

    with pytest.raises(drumlin.ReadOnlyError):
        drumlin.open(v1, ITEM_V1, schema_version=2, migration=migrate)


class Stop(Exception):
    pass


def test_an_exception_leaves_the_file_untouched_and_is_re_raised(v1: Path) -> None:
    before = everything(v1)

    def migrate(m: drumlin.Migration) -> None:
        def write(old: drumlin.Object, new: Optional[drumlin.Object]) -> None:
            assert new is not None
            new.title = 99

        m.enumerate_objects("Item", write)
        raise Stop("no, thanks")

    with pytest.raises(Stop, match="no, thanks"):
        drumlin.open(v1, item(title="int"), schema_version=2, migration=migrate)
    assert everything(v1) == before
    with drumlin.open(v1, ITEM_V1, schema_version=1) as db:
        assert db.schema_version == 1
        assert [o.title for o in db.objects("Item")] == ["12", "b"]


def test_a_lower_version_is_an_error(v1: Path) -> None:
    drumlin.open(v1, ITEM_V1, schema_version=5).close()
    with pytest.raises(drumlin.MigrationError) as info:
        drumlin.open(v1, ITEM_V1, schema_version=4, migration=lambda m: pytest.fail("ran"))
    assert info.value.message == "Provided schema version 4 is less than last set version 5."


def test_the_function_runs_once(v1: Path) -> None:
    runs: list[int] = []
    for _ in range(2):
        drumlin.open(v1, ITEM_V1, schema_version=2, migration=lambda m: runs.append(1)).close()
    assert runs == [1]


class Person(drumlin.Object):
    _id: int = drumlin.persisted(primary_key=True)
    full_name: str = ""


def test_model_classes_get_model_instances(tmp_path: Path) -> None:
    path = tmp_path / "models.drumlin"
    old_schema = [{"name": "Person", "primaryKey": "_id", "properties": {"_id": "int", "first": "string", "last": "string"}}]
    with drumlin.open(path, old_schema) as db, db.write():
        db.create("Person", {"_id": 1, "first": "Ann", "last": "Lee"})
    kinds: list[type] = []

    def migrate(m: drumlin.Migration) -> None:
        def join(old: drumlin.Object, new: Optional[drumlin.Object]) -> None:
            assert isinstance(new, Person)
            kinds.append(type(new))
            new.full_name = f"{old.first} {old['last']}"

        m.enumerate_objects(Person, join)

    with drumlin.open(path, [Person], schema_version=1, migration=migrate) as db:
        assert db.get(Person, 1).full_name == "Ann Lee"
    assert len(kinds) == 1


def test_objects_from_the_migration_stop_working_afterwards(v1: Path) -> None:
    kept: list[drumlin.Object] = []
    drumlin.open(v1, ITEM_V1, schema_version=2, migration=lambda m: m.enumerate_objects("Item", lambda old, new: kept.append(old))).close()
    with pytest.raises(drumlin.MisuseError):
        kept[0].title


# ---- Other processes -----------------------------------------------------------------------------


def _upgrade(path: str, marker: str, hang: bool) -> None:
    def migrate(m: drumlin.Migration) -> None:
        with open(marker, "a") as file:
            file.write("ran\n")
        time.sleep(60 if hang else 0.3)

    drumlin.open(path, item(title="string"), schema_version=2, migration=migrate).close()


def test_two_processes_upgrading_at_once_run_the_function_once(v1: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_upgrade, args=(str(v1), str(marker), False)) for _ in range(2)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [process.exitcode for process in processes] == [0, 0]
    assert marker.read_text() == "ran\n"
    with drumlin.open(v1, item(title="string"), schema_version=2) as db:
        assert [o.title for o in db.objects("Item")] == ["12", "b"]


def test_a_process_killed_during_a_migration_leaves_the_old_file(v1: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    process = multiprocessing.get_context("spawn").Process(target=_upgrade, args=(str(v1), str(marker), True))
    process.start()
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert marker.exists()
    assert process.pid is not None
    os.kill(process.pid, signal.SIGKILL)
    process.join(30)
    assert process.exitcode == -signal.SIGKILL
    with drumlin.open(v1, ITEM_V1, schema_version=1) as db:
        assert db.schema_version == 1
        assert [o.to_dict() for o in db.objects("Item")] == [
            {"id": 1, "title": "12", "n": 5, "note": "x"},
            {"id": 2, "title": "b", "n": 7, "note": None},
        ]
