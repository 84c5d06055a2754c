"""Links inside mixed values (Realm's ``AnyRealmValue.object``): a mixed property, list, set or
dictionary holds a ``drumlin.Object`` (or a model instance), reads it back as the object, is
queried with ``== obj(...)``, ``== $0``, ``@type == 'objectlink'`` and ``mixed.name``, and is
cleared when the object is deleted."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Holder",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "any": "mixed",
            "items": "mixed[]",
            "bag": "mixed<>",
            "map": "mixed{}",
            "spot": "Spot",
        },
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int?"}},
    {"name": "Spot", "embedded": True, "properties": {"street": "string"}},
    {"name": "Reading", "asymmetric": True, "properties": {"value": "double"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


def dog(db: drumlin.Database, name: str, age: int = 1) -> drumlin.Object:
    obj = db.create("Dog", {"name": name, "age": age})
    assert obj is not None
    return obj


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return sorted(h.id for h in db.objects("Holder").filter(query, *args))


def test_a_mixed_property_holds_an_object_and_reads_it_back(db: drumlin.Database) -> None:
    with db.write():
        rex = dog(db, "Rex", 3)
        holder = db.create("Holder", {"id": 1, "any": rex})
    assert holder is not None
    assert holder.any == rex
    assert isinstance(holder.any, drumlin.Object) and holder.any.name == "Rex"
    # to_dict and to_json give the $link form.
    assert holder.to_dict()["any"] == {"$link": {"class": "Dog", "key": rex._drumlin_object_key()}}
    assert '"any":{"$link":{"class":"Dog","key":' in holder.to_json()


def test_lists_sets_and_dictionaries_of_mixed_hold_objects(db: drumlin.Database) -> None:
    with db.write():
        rex, bo = dog(db, "Rex"), dog(db, "Bo")
        holder = db.create("Holder", {"id": 1, "items": [1, rex], "bag": [rex], "map": {"r": rex, "n": 2}})
        assert holder is not None
        holder.items.append(bo)
        holder.bag.add(bo)
        holder.bag.add(rex)  # already there
        holder.map["b"] = bo
    assert list(holder.items) == [1, rex, bo]
    assert holder.items[1] == rex and holder.items[2].name == "Bo"
    assert rex in holder.bag and len(holder.bag) == 2 and set(holder.bag) == {rex, bo}
    assert holder.map["r"] == rex and holder.map["b"] == bo and holder.map["n"] == 2
    assert dict(holder.map.items()) == {"b": bo, "n": 2, "r": rex}


def test_refusals_change_nothing(db: drumlin.Database, open_db: OpenDb) -> None:
    other_db = open_db(SCHEMA, name="other.drumlin")
    with other_db.write():
        stranger = dog(other_db, "Stranger")
    with db.write():
        holder = db.create("Holder", {"id": 1, "spot": {"street": "Main"}})
        assert holder is not None
        gone = dog(db, "Gone")
        db.delete(gone)
        with pytest.raises(drumlin.InvalidArgumentError, match="belongs to another database"):
            holder.any = stranger
        with pytest.raises(drumlin.NotSupportedError) as caught:
            holder.any = holder.spot
        assert caught.value.message == "A mixed value cannot hold an embedded object ('Spot'), as in Realm."
        with pytest.raises(drumlin.InvalidatedObjectError):
            holder.items.append(gone)
        with pytest.raises(drumlin.NotSupportedError):
            holder.map["k"] = [holder.spot]  # nested lists hold top-level objects only, as in Realm
    assert holder.any is None and len(holder.items) == 0 and len(holder.map) == 0


def test_an_unmanaged_model_instance_is_refused(open_db: OpenDb) -> None:
    class Pet(drumlin.Object):
        name: str

    class Box(drumlin.Object):
        id: int = drumlin.persisted(primary_key=True)
        anything: Any = None

    db = open_db([Pet, Box])
    with db.write():
        box = db.add(Box(id=1))
        with pytest.raises(drumlin.InvalidArgumentError, match="not stored in a database yet"):
            box.anything = Pet(name="x")
        pet = db.add(Pet(name="p"))
        box.anything = pet
    assert isinstance(box.anything, Pet) and box.anything.name == "p"


def test_queries(db: drumlin.Database) -> None:
    with db.write():
        rex, bo = dog(db, "Rex", 3), dog(db, "Bo", 9)
        db.create("Holder", {"id": 1, "any": rex, "items": [rex]})
        db.create("Holder", {"id": 2, "any": bo, "items": ["Rex"]})
        db.create("Holder", {"id": 3, "any": "Rex"})
    assert ids(db, "any == obj('Dog', 'Rex')") == [1]
    assert ids(db, "any == $0", rex) == [1]
    assert ids(db, "any != $0", rex) == [2, 3]
    assert ids(db, "any.@type == 'objectlink'") == [1, 2]
    assert ids(db, "any.name == 'Rex'") == [1]
    assert ids(db, "any.age > 5") == [2]
    assert ids(db, "ANY items.name == 'Rex'") == [1]
    assert ids(db, "ANY items == $0", rex) == [1]


def test_deleting_the_target_clears_it(db: drumlin.Database) -> None:
    with db.write():
        rex, bo = dog(db, "Rex"), dog(db, "Bo")
        holder = db.create("Holder", {"id": 1, "any": rex, "items": [rex, 1, bo], "bag": [rex], "map": {"r": rex}})
        assert holder is not None
    with db.write():
        db.delete(rex)
    assert holder.any is None
    assert list(holder.items) == [1, bo]  # Realm removes list and set elements
    assert len(holder.bag) == 0
    assert holder.map["r"] is None  # and nulls dictionary values
    assert ids(db, "any == NULL") == [1]
    with db.write():
        db.objects("Dog").delete_all()
    assert list(holder.items) == [1]
