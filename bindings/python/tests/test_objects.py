"""Objects: create, read as attributes and items, write, update, delete, equality, lifetimes."""

from __future__ import annotations

import gc
import pickle
import sys
import weakref

import pytest
from conftest import PERSON, OpenDb

import drumlin

PEOPLE = [
    {
        "name": "Person",
        "primaryKey": "_id",
        "properties": {
            "_id": "objectId",
            "name": {"type": "string", "indexed": True},
            "age": "int?",
            "nickname": {"type": "string", "mapTo": "nick_name", "default": "none"},
            "update": "string?",
        },
    },
    {"name": "Note", "properties": {"text": "string"}},
]


@pytest.fixture
def people(open_db: OpenDb) -> drumlin.Database:
    return open_db(PEOPLE)


def make_ann(db: drumlin.Database, **extra: object) -> drumlin.Object:
    with db.write():
        ann = db.create("Person", {"_id": drumlin.ObjectId(), "name": "Ann", "age": 30, **extra})
    assert ann is not None
    return ann


# ---- Create and read ---------------------------------------------------------------------------


def test_create_returns_a_live_object_with_defaults(people: drumlin.Database) -> None:
    oid = drumlin.ObjectId()
    with people.write():
        ann = people.create("Person", {"_id": oid, "name": "Ann"})
    assert isinstance(ann, drumlin.Object)
    assert type(ann).__name__ == "Person"
    assert (ann._id, ann.name, ann.age, ann.nickname) == (oid, "Ann", None, "none")
    assert ann.primary_key == oid
    assert ann.is_valid


def test_attribute_and_item_access_read_the_same_values(people: drumlin.Database) -> None:
    ann = make_ann(people)
    for name in ("_id", "name", "age", "nickname"):
        assert getattr(ann, name) == ann[name]


def test_stored_names_are_accepted_too(people: drumlin.Database) -> None:
    ann = make_ann(people, nickname="Annie")
    assert ann.nick_name == ann["nick_name"] == "Annie"
    # The stored name is the same descriptor as the public one, for writes too.
    assert type(ann).__dict__["nick_name"] is type(ann).__dict__["nickname"]
    with people.write():
        ann.nick_name = "Ann B"
    assert (ann.nickname, ann.nick_name) == ("Ann B", "Ann B")


def test_unknown_attribute_is_an_attribute_error_and_unknown_item_no_such_property(people: drumlin.Database) -> None:
    # An attribute the class does not have is Python's own AttributeError (Object has no
    # __getattr__: it would slow every attribute read); obj["name"] is the engine's error.
    ann = make_ann(people)
    with pytest.raises(AttributeError, match="'Person' object has no attribute 'salary'") as caught:
        ann.salary
    if sys.version_info >= (3, 10):  # the name and object Python 3.10+ suggests near names from
        assert caught.value.name == "salary" and caught.value.obj is ann
    assert not hasattr(ann, "salary")
    assert getattr(ann, "salary", "fallback") == "fallback"
    with pytest.raises(drumlin.NoSuchPropertyError) as item:
        ann["salary"]
    assert item.value.message == "Property 'Person.salary' does not exist."
    assert isinstance(item.value, AttributeError)


def test_property_named_like_a_method_is_reached_by_item(people: drumlin.Database) -> None:
    ann = make_ann(people, update="weekly")
    assert callable(ann.update)
    assert ann["update"] == "weekly"
    with people.write():
        ann["update"] = "daily"
        with pytest.raises(AttributeError, match=r"obj\['update'\] = value"):
            ann.update = "never"  # type: ignore[method-assign]
    assert ann["update"] == "daily"


def test_get_finds_by_primary_key_or_returns_none(people: drumlin.Database) -> None:
    ann = make_ann(people)
    found = people.get("Person", ann._id)
    assert found is not None and found is not ann
    assert found == ann and hash(found) == hash(ann)
    assert found.name == "Ann"
    assert people.get("Person", drumlin.ObjectId()) is None


def test_get_with_a_key_of_the_wrong_type_is_a_type_mismatch(people: drumlin.Database) -> None:
    with pytest.raises(drumlin.TypeMismatchError, match="expected objectId, got string"):
        people.get("Person", "65f1c0ffee00000000000001")


def test_objects_are_live(people: drumlin.Database) -> None:
    ann = make_ann(people)
    other = people.get("Person", ann._id)
    with people.write():
        other.age = 31
    assert ann.age == 31


def test_equality_distinguishes_objects_and_classes(people: drumlin.Database) -> None:
    ann = make_ann(people)
    bob = make_ann(people)
    with people.write():
        note = people.create("Note", {"text": "x"})
    assert ann != bob and ann != note and ann != "Ann"
    assert len({ann, bob, people.get("Person", ann._id)}) == 2


def test_repr_dir_and_no_pickling(people: drumlin.Database) -> None:
    ann = make_ann(people)
    assert repr(ann) == f"<drumlin.Object Person _id={ann._id!r}>"
    assert {"name", "age", "nickname", "to_dict"} <= set(dir(ann))
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(ann)
    with people.write():
        note = people.create("Note", {"text": "x"})
    assert repr(note).startswith("<drumlin.Object Note key=")


def test_create_with_no_values_uses_defaults(open_db: OpenDb) -> None:
    db = open_db([{"name": "Counter", "properties": {"n": {"type": "int", "default": 5}}}])
    with db.write():
        counter = db.create("Counter")
    assert counter.n == 5
    assert counter.primary_key is None


def test_create_rejects_a_non_dict(people: drumlin.Database) -> None:
    with people.write(), pytest.raises(drumlin.TypeMismatchError, match="takes a dict"):
        people.create("Person", [("name", "Ann")])  # type: ignore[arg-type]


def test_class_names_must_be_strings_without_nul(people: drumlin.Database) -> None:
    with pytest.raises(drumlin.TypeMismatchError):
        people.count(5)  # type: ignore[arg-type]
    with pytest.raises(drumlin.InvalidArgumentError, match="NUL"):
        people.get("Person\0Evil", 1)


# ---- Upserts and bulk --------------------------------------------------------------------------


def test_update_modes(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"_id": 1, "name": "Ann", "age": 30})
        same = db.create("Person", {"_id": 1, "name": "Anna"}, update="modified")
        assert same == ann and ann.name == "Anna" and ann.age == 30
        db.create("Person", {"_id": 1, "name": "Anna", "age": None}, update="all")
        assert ann.age is None
        # Nothing differs: the same object comes back (no row written); a new key creates one.
        assert db.create("Person", {"_id": 1, "name": "Anna"}, update="modified") == ann
        bo = db.create("Person", {"_id": 2, "name": "Bo"}, update="all")
        assert bo.name == "Bo" and bo.age is None
        db.delete(bo)
        with pytest.raises(drumlin.InvalidArgumentError, match="update must be None, 'modified' or 'all'"):
            db.create("Person", {"_id": 1, "name": "x"}, update="sometimes")
    assert db.count("Person") == 1


def test_create_many_creates_all_or_nothing(db: drumlin.Database) -> None:
    rows = [{"_id": i, "name": f"p{i}", "age": i} for i in range(100)]
    with db.write():
        assert db.create_many("Person", rows) == 100
        assert db.create_many("Person", (r for r in [{"_id": 500, "name": "gen"}])) == 1
        with pytest.raises(drumlin.DuplicatePrimaryKeyError, match="^Element 1: "):
            db.create_many("Person", [{"_id": 1000, "name": "new"}, {"_id": 5, "name": "dup"}])
        assert db.create_many("Person", [{"_id": 5, "name": "five"}], update="modified") == 1
    assert db.count("Person") == 101
    assert db.get("Person", 1000) is None
    assert db.get("Person", 5).name == "five"
    assert db.get("Person", 99).to_dict() == {"_id": 99, "name": "p99", "age": 99}


def test_create_many_of_nothing(db: drumlin.Database) -> None:
    with db.write():
        assert db.create_many("Person", []) == 0


# ---- Write -------------------------------------------------------------------------------------


def test_attribute_item_and_update_writes(people: drumlin.Database) -> None:
    ann = make_ann(people)
    with people.write():
        ann.age = 31
        ann["name"] = "Anna"
        ann.nick_name = "A"
    assert (ann.age, ann.name, ann.nickname) == (31, "Anna", "A")
    with people.write():
        ann.update({"age": 32, "nickname": "Annie"})
    assert (ann.age, ann.nickname) == (32, "Annie")


def test_update_is_all_or_nothing(people: drumlin.Database) -> None:
    ann = make_ann(people)
    with people.write():
        with pytest.raises(drumlin.NotNullableError):
            ann.update({"age": 40, "name": None})
        assert ann.age == 30
        with pytest.raises(drumlin.NoSuchPropertyError):
            ann.update({"age": 40, "salary": 1})
        assert ann.age == 30


def test_assigning_an_unknown_attribute_raises_no_such_property(people: drumlin.Database) -> None:
    ann = make_ann(people)
    with people.write():
        with pytest.raises(drumlin.NoSuchPropertyError, match="Property 'Person.salary' does not exist."):
            ann.salary = 1
        with pytest.raises(AttributeError):
            ann._drumlin_h = None  # internal attributes cannot be replaced
        with pytest.raises(AttributeError, match="cannot be deleted"):
            del ann.age
    assert ann.age == 30


# ---- Delete and invalidation -------------------------------------------------------------------


def test_delete_invalidates_every_accessor(people: drumlin.Database) -> None:
    ann = make_ann(people)
    other = people.get("Person", ann._id)
    oid = ann._id
    with people.write():
        people.delete(ann)
    assert not ann.is_valid and not other.is_valid
    assert people.get("Person", oid) is None
    with pytest.raises(drumlin.InvalidatedObjectError):
        other.name
    with pytest.raises(drumlin.InvalidatedObjectError):
        other.to_dict()
    with people.write(), pytest.raises(drumlin.InvalidatedObjectError):
        other.age = 1
    assert repr(other) == "<drumlin.Object Person (invalid)>"


def test_delete_rejects_what_is_not_an_object_of_this_database(
    people: drumlin.Database, open_db: OpenDb
) -> None:
    elsewhere = open_db(PEOPLE, name="other.drumlin")
    stranger = make_ann(elsewhere)
    with people.write():
        with pytest.raises(drumlin.TypeMismatchError, match="takes a drumlin.Object"):
            people.delete("Ann")  # type: ignore[arg-type]
        with pytest.raises(drumlin.InvalidArgumentError, match="another database"):
            people.delete(stranger)


# ---- Lifetimes ---------------------------------------------------------------------------------


def test_object_outliving_its_closed_database_raises_instead_of_crashing(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"_id": 1, "name": "Ann"})
    db.close()
    for attempt in (
        lambda: ann.name,
        lambda: ann["age"],
        lambda: ann.to_dict(),
        lambda: ann.primary_key,
        lambda: setattr(ann, "age", 3),
        lambda: ann.update({"age": 3}),
    ):
        with pytest.raises(drumlin.MisuseError):
            attempt()
    assert not ann.is_valid
    assert repr(ann) == "<drumlin.Object Person (invalid)>"
    ann.close()
    ann.close()


def test_closed_object_handle_raises_misuse(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"_id": 1, "name": "Ann"})
    with ann:
        assert ann.name == "Ann"
    assert ann.is_closed and not ann.is_valid
    with pytest.raises(drumlin.MisuseError, match="This object is closed."):
        ann.name
    assert repr(ann) == "<drumlin.Object Person (closed)>"
    assert db.get("Person", 1).name == "Ann"  # the stored object is untouched


def test_an_object_keeps_its_database_alive(tmp_path: object) -> None:
    db = drumlin.open(":memory:", PERSON)
    with db.write():
        ann = db.create("Person", {"_id": 1, "name": "Ann"})
    db_ref = weakref.ref(db)
    del db
    gc.collect()
    assert db_ref() is not None
    assert ann.name == "Ann"
    del ann
    gc.collect()
    assert db_ref() is None


def test_dropped_objects_and_databases_are_released_by_the_garbage_collector(
    open_db: OpenDb,
) -> None:
    db = open_db(PERSON)
    with db.write():
        db.create_many("Person", [{"_id": i, "name": "x"} for i in range(10)])
    for _ in range(3):
        objects = [db.get("Person", i) for i in range(10)]
        refs = [weakref.ref(o) for o in objects]
        del objects
        gc.collect()
        assert all(r() is None for r in refs)


def test_a_second_null_primary_key_is_a_duplicate(open_db: OpenDb) -> None:
    # Regression: SQLite's unique index allows many NULLs; one object at most may have a null key.
    db = open_db([{"name": "M", "primaryKey": "id", "properties": {"id": "int?", "n": "int"}}])
    with db.write():
        db.create("M", {"id": None, "n": 1})
    with pytest.raises(drumlin.DuplicatePrimaryKeyError, match="existing primary key value 'null'"), db.write():
        db.create("M", {"id": None, "n": 2})
    with pytest.raises(drumlin.DuplicatePrimaryKeyError), db.write():
        db.create_many("M", [{"id": 5, "n": 3}, {"id": None, "n": 4}])
    assert len(db.objects("M")) == 1
    assert db.get("M", None).n == 1  # type: ignore[union-attr]
