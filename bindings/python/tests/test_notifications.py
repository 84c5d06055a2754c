"""Change notifications: observe() on results, objects, lists, sets and dictionaries; delivery
after a commit on the same database and on refresh() for other connections and processes."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import OpenDb

import drumlin
from drumlin import CollectionChange, DictionaryChange, ObjectChange

PEOPLE = [
    {
        "name": "Person",
        "primaryKey": "_id",
        "properties": {
            "_id": "int",
            "name": "string",
            "age": "int?",
            "tags": "string[]",
            "labels": "string<>",
            "extra": "mixed{}",
            "dogs": "Dog[]",
        },
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int?"}},
]


@pytest.fixture
def people(open_db: OpenDb) -> drumlin.Database:
    db = open_db(PEOPLE)
    with db.write():
        db.create("Person", {"_id": 1, "name": "Ann", "age": 30, "dogs": [{"name": "Rex"}]})
        db.create("Person", {"_id": 2, "name": "Bob", "age": 20})
    return db


def test_results_report_insertions_modifications_and_deletions(people: drumlin.Database) -> None:
    got: list[CollectionChange] = []
    token = people.objects("Person").observe(got.append)
    with people.write():
        people.create("Person", {"_id": 3, "name": "Cy"})
    with people.write():
        people.get("Person", 2).name = "Bobby"
    with people.write():
        people.delete(people.get("Person", 1))
    assert got == [
        CollectionChange(insertions=[2]),
        CollectionChange(modifications=[1]),
        CollectionChange(deletions=[0]),
    ]
    token.cancel()


def test_sorted_results_report_a_move_as_deletion_and_insertion(people: drumlin.Database) -> None:
    got: list[CollectionChange] = []
    token = people.objects("Person").sort("age").observe(got.append)  # Bob 20, Ann 30
    with people.write():
        people.get("Person", 1).age = 10
    assert got == [CollectionChange(deletions=[1], insertions=[0])]
    assert token


def test_filtered_results_see_objects_leave(people: drumlin.Database) -> None:
    got: list[CollectionChange] = []
    adults = people.objects("Person").filter("age >= 25")
    token = adults.observe(got.append)
    with people.write():
        people.get("Person", 1).age = 5
    assert got == [CollectionChange(deletions=[0])]
    assert len(adults) == 0
    assert token


def test_key_paths_limit_which_properties_count(people: drumlin.Database) -> None:
    got: list[CollectionChange] = []
    token = people.objects("Person").observe(got.append, key_paths=["age"])
    with people.write():
        people.get("Person", 1).name = "Anna"
    with people.write():
        people.get("Person", 2).age = 21
    assert got == [CollectionChange(modifications=[1])]
    with pytest.raises(drumlin.NoSuchPropertyError):
        people.objects("Person").observe(got.append, key_paths=["nope"])
    with pytest.raises(TypeError, match="list of property names"):
        people.objects("Person").observe(got.append, key_paths="age")
    assert token


def test_object_observer_reports_names_old_and_new_values_then_deletion(people: drumlin.Database) -> None:
    ann = people.get("Person", 1)
    got: list[ObjectChange] = []
    token = ann.observe(got.append)
    with people.write():
        ann.name = "Anna"
        ann.age = 31
        ann.tags.append("x")
    with people.write():
        people.delete(ann)
    assert got == [
        ObjectChange(
            changed=["name", "age", "tags"],
            old_values={"name": "Ann", "age": 30},
            new_values={"name": "Anna", "age": 31},
        ),
        ObjectChange(deleted=True),
    ]
    assert token


def test_list_set_and_dictionary_observers(people: drumlin.Database) -> None:
    ann = people.get("Person", 1)
    lists: list[CollectionChange] = []
    sets: list[CollectionChange] = []
    dicts: list[DictionaryChange] = []
    dogs: list[CollectionChange] = []
    tokens = [
        ann.tags.observe(lists.append),
        ann.labels.observe(sets.append),
        ann.extra.observe(dicts.append),
        ann.dogs.observe(dogs.append),
    ]
    with people.write():
        ann.tags.extend(["a", "b"])
        ann.labels.add("l")
        ann.extra["k"] = 1
    with people.write():
        ann.tags[1] = "B"
        del ann.extra["k"]
        ann.extra["j"] = [1, 2]
        people.get("Dog", "Rex").age = 4
    assert lists == [CollectionChange(insertions=[0, 1]), CollectionChange(modifications=[1])]
    assert sets == [CollectionChange(insertions=[0])]
    assert dicts == [DictionaryChange(insertions=["k"]), DictionaryChange(deletions=["k"], insertions=["j"])]
    assert dogs == [CollectionChange(modifications=[0])]
    with pytest.raises(TypeError, match="no key_paths"):
        ann.extra.observe(dicts.append, key_paths=["x"])
    assert tokens


def test_a_rolled_back_write_delivers_nothing(people: drumlin.Database) -> None:
    got: list[CollectionChange] = []
    token = people.objects("Person").observe(got.append)
    with pytest.raises(RuntimeError):
        with people.write():
            people.create("Person", {"_id": 9, "name": "X"})
            raise RuntimeError("abort")
    assert got == []
    assert token


def test_write_without_notifying_skips_one_token(people: drumlin.Database) -> None:
    skipped: list[CollectionChange] = []
    other: list[CollectionChange] = []
    skipped_token = people.objects("Person").observe(skipped.append)
    other_token = people.objects("Person").observe(other.append)
    with people.write(without_notifying=[skipped_token]):
        people.create("Person", {"_id": 5, "name": "E"})
    with people.write():
        people.create("Person", {"_id": 6, "name": "F"})
    assert skipped == [CollectionChange(insertions=[3])]
    assert other == [CollectionChange(insertions=[2]), CollectionChange(insertions=[3])]
    with pytest.raises(TypeError, match="notification tokens"):
        with people.write(without_notifying=["nope"]):  # type: ignore[list-item]
            people.create("Person", {"_id": 7, "name": "G"})
    assert people.get("Person", 7) is None
    assert other_token


def test_cancelled_and_collected_tokens_stop_delivery(people: drumlin.Database) -> None:
    kept: list[Any] = []
    cancelled: list[Any] = []
    collected: list[Any] = []
    token = people.objects("Person").observe(kept.append)
    cancelled_token = people.objects("Person").observe(cancelled.append)
    people.objects("Person").observe(collected.append)  # token dropped at once
    gc.collect()
    cancelled_token.cancel()
    cancelled_token.cancel()
    assert cancelled_token.is_cancelled
    with people.write():
        people.create("Person", {"_id": 3, "name": "C"})
    assert len(kept) == 1 and cancelled == [] and collected == []
    with token:
        pass
    assert token.is_cancelled


def test_writing_inside_a_callback_is_a_clear_error(people: drumlin.Database) -> None:
    errors: list[BaseException] = []
    counts: list[int] = []

    def callback(change: CollectionChange) -> None:
        counts.append(len(people.objects("Person")))  # reading is fine
        try:
            with people.write():
                pass
        except drumlin.TransactionError as error:
            errors.append(error)
        assert people.refresh() is False

    token = people.objects("Person").observe(callback)
    with people.write():
        people.create("Person", {"_id": 3, "name": "C"})
    assert counts == [3]
    assert len(errors) == 1
    assert str(errors[0]).startswith("Cannot begin a write transaction from inside a notification callback")
    assert not people.is_in_write
    assert token


def test_a_failing_callback_is_reported_and_others_still_run(
    people: drumlin.Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    reported: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    got: list[Any] = []

    def broken(change: CollectionChange) -> None:
        raise ValueError("callback bug")

    tokens = [people.objects("Person").observe(broken), people.objects("Person").observe(got.append)]
    with people.write():
        people.create("Person", {"_id": 3, "name": "C"})
    assert len(got) == 1
    assert len(reported) == 1 and isinstance(reported[0].exc_value, ValueError)
    assert people.get("Person", 3) is not None
    assert tokens


def test_observing_inside_a_write_is_refused(people: drumlin.Database) -> None:
    with people.write():
        with pytest.raises(drumlin.TransactionError, match="within write transactions"):
            people.objects("Person").observe(print)
    with pytest.raises(TypeError, match="callable"):
        people.objects("Person").observe(42)  # type: ignore[arg-type]


def test_other_connections_commits_arrive_on_refresh(open_db: OpenDb) -> None:
    writer = open_db(PEOPLE, "shared.drumlin")
    observer = open_db(PEOPLE, "shared.drumlin")
    got: list[CollectionChange] = []
    token = observer.objects("Person").observe(got.append)
    assert observer.has_changes() is False
    with writer.write():
        writer.create("Person", {"_id": 1, "name": "A"})
    assert got == []
    assert observer.has_changes() is True
    assert observer.refresh() is True
    assert got == [CollectionChange(insertions=[0])]
    assert observer.has_changes() is False
    assert observer.refresh() is False
    assert token


def test_another_process_commits_arrive_on_refresh(open_db: OpenDb, tmp_path: Path) -> None:
    observer = open_db(PEOPLE, "process.drumlin")
    with observer.write():
        observer.create("Person", {"_id": 1, "name": "A"})
    got: list[CollectionChange] = []
    token = observer.objects("Person").observe(got.append)
    code = (
        "import sys, drumlin\n"
        f"db = drumlin.open(sys.argv[1], {PEOPLE!r})\n"
        "with db.write():\n"
        "    db.create('Person', {'_id': 2, 'name': 'B'})\n"
        "    db.get('Person', 1).name = 'changed'\n"
        "db.close()\n"
    )
    package = str(Path(drumlin.__file__).resolve().parents[1])
    subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {package!r})\n" + code, str(tmp_path / "process.drumlin")],
        check=True,
    )
    assert got == []
    assert observer.refresh() is True
    assert got == [CollectionChange(insertions=[1], modifications=[0])]
    assert token


def test_model_objects_and_results_observe(open_db: OpenDb) -> None:
    class Pet(drumlin.Object):
        _primary_key = "name"
        name: str
        age: int = 0

    db = open_db([Pet], "models.drumlin")
    with db.write():
        rex = db.add(Pet(name="Rex"))
    got: list[Any] = []
    tokens = [rex.observe(got.append, key_paths=["age"]), db.objects(Pet).observe(got.append)]
    with db.write():
        rex.age = 3
    assert got == [
        ObjectChange(changed=["age"], old_values={"age": 0}, new_values={"age": 3}),
        CollectionChange(modifications=[0]),
    ]
    assert tokens


def test_tokens_outlive_a_closed_database(open_db: OpenDb) -> None:
    db = open_db(PEOPLE, "closing.drumlin")
    got: list[Any] = []
    token = db.objects("Person").observe(got.append)
    db.close()
    token.cancel()
    with pytest.raises(drumlin.MisuseError):
        db.refresh()
    assert got == []
