"""To-one links, linkingObjects (drumlin.Results), JSON rendering of links and nested payloads."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "dog": "Dog",
            "dogs": "Dog[]",
            "best": "Person",
            "tag": "Tag",
        },
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {
            "name": "string",
            "age": "int?",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
            "fans": {"type": "linkingObjects", "objectType": "Person", "property": "dog"},
        },
    },
    {"name": "Tag", "properties": {"label": "string"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


# ---- Reading and assigning a link ---------------------------------------------------------------


def test_a_link_reads_as_the_target_object_or_none(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dog": rex})
        bob = db.create("Person", {"id": 2, "name": "Bob"})
    dog = ann.dog
    assert isinstance(dog, drumlin.Object)
    assert type(dog).__name__ == "Dog"
    assert dog == rex and dog.name == "Rex"
    assert ann["dog"] == rex
    assert bob.dog is None


def test_assigning_an_object_a_dict_a_primary_key_or_none(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        ann.dog = rex
        assert ann.dog == rex
        ann.dog = {"name": "Bo", "age": 2}  # a new Dog
        assert ann.dog.name == "Bo" and ann.dog.age == 2
        assert db.count("Dog") == 2
        ann.dog = "Rex"  # the primary key of an existing Dog
        assert ann.dog == rex
        ann["dog"] = None
        assert ann.dog is None
        ann.update({"dog": "Bo", "name": "Anna"})
    assert ann.dog.name == "Bo" and ann.name == "Anna"
    assert db.count("Dog") == 2


def test_assigning_a_dict_with_an_existing_primary_key_updates_that_object(db: drumlin.Database) -> None:
    # Attribute assignment goes through the engine's update, which upserts nested objects.
    with db.write():
        rex = db.create("Dog", {"name": "Rex", "age": 1})
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        ann.dog = {"name": "Rex", "age": 5}
    assert ann.dog == rex
    assert rex.age == 5
    assert db.count("Dog") == 1


def test_link_assignment_errors_change_nothing(db: drumlin.Database, open_db: OpenDb) -> None:
    other_db = open_db(SCHEMA, name="other.drumlin")
    with other_db.write():
        stranger = other_db.create("Dog", {"name": "Stranger"})
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dog": rex})
        bob = db.create("Person", {"id": 2, "name": "Bob"})
        gone = db.create("Dog", {"name": "Gone"})
        db.delete(gone)

        with pytest.raises(drumlin.TypeMismatchError) as mismatch:
            ann.dog = bob
        assert mismatch.value.message == (
            "Type mismatch for property 'Person.dog': expected an object of type 'Dog', got 'Person'."
        )
        with pytest.raises(drumlin.InvalidArgumentError) as missing:
            ann.dog = "Nope"
        assert (
            missing.value.message == "Property 'Person.dog': no object of type 'Dog' with primary key 'Nope'."
        )
        with pytest.raises(drumlin.TypeMismatchError) as wrong_key:
            ann.dog = 5
        assert wrong_key.value.message == "Type mismatch for property 'Dog.name': expected string, got int."
        with pytest.raises(drumlin.InvalidatedObjectError) as deleted:
            ann.dog = gone
        assert deleted.value.message == "The object of type 'Dog' assigned to 'Person.dog' has been deleted."
        with pytest.raises(drumlin.InvalidatedObjectError) as deleted_in_payload:
            ann.update({"dogs": [gone]})
        assert deleted_in_payload.value.message == (
            "The object of type 'Dog' assigned to 'Person.dogs' has been deleted."
        )
        with pytest.raises(drumlin.InvalidArgumentError, match="belongs to another database"):
            ann.dog = stranger
        with pytest.raises(drumlin.InvalidArgumentError, match="belongs to another database"):
            ann.update({"dogs": [stranger]})
    assert ann.dog == rex
    assert len(ann.dogs) == 0


def test_assigning_a_link_outside_a_write_transaction(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann"})
    with pytest.raises(drumlin.TransactionError):
        ann.dog = rex
    with pytest.raises(drumlin.TransactionError):
        ann.dog = {"name": "Bo"}
    assert ann.dog is None
    assert db.count("Dog") == 1


def test_links_to_a_class_without_a_primary_key_use_the_object_key(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "tag": {"label": "red"}})
        tag = ann.tag
        key = tag._drumlin_object_key()
        bob = db.create("Person", {"id": 2, "name": "Bob", "tag": key})  # an object key, in a payload
        cy = db.create("Person", {"id": 3, "name": "Cy", "tag": tag})  # an Object
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            db.create("Person", {"id": 4, "name": "Di", "tag": "red"})
        assert caught.value.message == (
            "Type mismatch for property 'Person.tag': 'Tag' has no primary key, so a link is a nested "
            "object or an object key (int), got string."
        )
        with pytest.raises(drumlin.InvalidArgumentError) as missing:
            db.create("Person", {"id": 4, "name": "Di", "tag": 99})
        assert missing.value.message == "Property 'Person.tag': no object of type 'Tag' with object key '99'."
    assert bob.tag == tag and cy.tag == tag
    assert ann.to_dict()["tag"] == key
    assert ann.to_dict(depth=1)["tag"] == {"label": "red"}
    assert db.count("Person") == 3


# ---- Nested payloads ----------------------------------------------------------------------------


def test_create_with_nested_objects_primary_keys_and_objects(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create(
            "Person",
            {"id": 1, "name": "Ann", "dog": {"name": "Bo"}, "dogs": ["Rex", {"name": "Cy"}, rex]},
        )
    assert ann.dog.name == "Bo"
    assert [dog.name for dog in ann.dogs] == ["Rex", "Cy", "Rex"]
    assert db.count("Dog") == 3
    assert ann.to_dict() == {
        "id": 1,
        "name": "Ann",
        "dog": "Bo",
        "dogs": ["Rex", "Cy", "Rex"],
        "best": None,
        "tag": None,
    }


def test_a_failed_nested_create_writes_nothing(db: drumlin.Database) -> None:
    with db.write():
        db.create("Dog", {"name": "Rex"})
        with pytest.raises(drumlin.InvalidArgumentError) as caught:
            db.create("Person", {"id": 1, "name": "Ann", "dog": {"name": "Bo"}, "dogs": ["Nope"]})
        assert (
            caught.value.message == "Property 'Person.dogs': no object of type 'Dog' with primary key 'Nope'."
        )
        with pytest.raises(drumlin.DuplicatePrimaryKeyError) as duplicate:
            db.create("Person", {"id": 1, "name": "Ann", "dog": {"name": "Rex"}})
        assert duplicate.value.message == (
            "Attempting to create an object of type 'Dog' with an existing primary key value 'Rex'."
        )
    assert db.count("Person") == 0
    assert db.count("Dog") == 1


def test_nested_objects_are_upserted_in_the_update_modes(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex", "age": 1})
        db.create("Person", {"id": 1, "name": "Ann", "dog": {"name": "Rex", "age": 3}}, update="modified")
        bob = db.create(
            "Person",
            {"id": 2, "name": "Bob", "dogs": [{"name": "Rex", "age": 4}, {"name": "Bo"}]},
            update="all",
        )
        assert bob is not None
        ann = db.get("Person", 1)
        assert ann is not None
    assert ann.dog == rex and rex.age == 4
    assert [dog.name for dog in bob.dogs] == ["Rex", "Bo"]
    assert db.count("Dog") == 2


def test_create_many_with_objects_and_nested_payloads(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        created = db.create_many(
            "Person",
            [
                {"id": 1, "name": "Ann", "dog": rex, "dogs": [rex, "Rex"]},
                {"id": 2, "name": "Bob", "dog": {"name": "Bo"}},
            ],
        )
    assert created == 2
    ann, bob = db.get("Person", 1), db.get("Person", 2)
    assert ann is not None and bob is not None
    assert ann.dog == rex and list(ann.dogs) == [rex, rex]
    assert bob.dog.name == "Bo"


# ---- JSON rendering -----------------------------------------------------------------------------


def test_to_dict_renders_links_as_keys_or_nested_with_a_depth(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "dog": {"name": "Rex"}, "tag": {"label": "t"}})
        bob = db.create("Person", {"id": 2, "name": "Bob", "best": ann, "dogs": ["Rex"]})
    key = ann.tag._drumlin_object_key()
    assert ann.to_dict() == {"id": 1, "name": "Ann", "dog": "Rex", "dogs": [], "best": None, "tag": key}
    assert bob.to_dict(depth=1) == {
        "id": 2,
        "name": "Bob",
        "dog": None,
        "dogs": [{"name": "Rex", "age": None}],
        "best": {"id": 1, "name": "Ann", "dog": "Rex", "dogs": [], "best": None, "tag": key},
        "tag": None,
    }
    assert bob.to_dict(depth=2)["best"]["dog"] == {"name": "Rex", "age": None}
    assert bob.to_dict(depth=2)["best"]["tag"] == {"label": "t"}


def test_to_dict_with_a_depth_ends_cycles(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        bob = db.create("Person", {"id": 2, "name": "Bob", "best": ann})
        ann.best = bob
    deep = ann.to_dict(depth=50)
    assert deep["best"]["id"] == 2
    assert deep["best"]["best"] == 1  # Ann is already being printed: her key
    with db.write():
        ann.best = ann
    assert ann.to_dict(depth=3)["best"] == 1


def test_to_dict_depth_arguments(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
    with pytest.raises(drumlin.InvalidArgumentError, match="depth must not be negative"):
        ann.to_dict(depth=-1)
    with pytest.raises(drumlin.TypeMismatchError, match="depth must be an int"):
        ann.to_dict(depth="1")  # type: ignore[arg-type]
    assert ann.to_dict(depth=10**12)["id"] == 1


# ---- linkingObjects -----------------------------------------------------------------------------


def test_linking_objects_are_a_live_read_only_results(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        bob = db.create("Person", {"id": 2, "name": "Bob"})
    owners = rex.owners
    assert isinstance(owners, drumlin.Results)
    assert len(owners) == 0 and list(owners) == []
    with db.write():
        ann.dogs.append(rex)
        ann.dogs.append(rex)  # twice in Ann's list: Ann is listed twice
        bob.dogs.append(rex)
    assert len(owners) == 3
    assert owners.to_list() == [ann, ann, bob]
    assert owners[0] == ann and owners[-1] == bob
    assert owners[1:] == [ann, bob]
    assert ann in owners
    assert [row["name"] for row in owners.to_dicts()] == ["Ann", "Ann", "Bob"]
    with pytest.raises(IndexError, match="Index 3 is out of bounds for results of size 3."):
        owners[3]
    with pytest.raises(TypeError):
        owners[0] = bob  # type: ignore[index]
    with db.write():
        ann.dogs.clear()
    assert owners.to_list() == [bob]
    assert rex.owners.to_list() == [bob]


def test_linking_objects_cannot_be_assigned(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dogs": [rex]})
        with pytest.raises(drumlin.InvalidArgumentError) as caught:
            rex.owners = []
        assert caught.value.message == "Cannot modify read-only property 'Dog.owners'."
        for write in (
            lambda: db.create("Dog", {"name": "Bo", "owners": [ann]}),
            lambda: db.create_many("Dog", [{"name": "Bo", "owners": [ann]}]),
            lambda: rex.update({"owners": [ann]}),
        ):
            with pytest.raises(drumlin.InvalidArgumentError) as in_payload:
                write()
            assert in_payload.value.message.removeprefix("Element 0: ") == (
                "Cannot modify read-only property 'Dog.owners'."
            )
    assert rex.owners.to_list() == [ann]
    assert db.count("Dog") == 1


def test_linking_objects_of_a_to_one_link_and_at_links(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dog": rex})
        bob = db.create("Person", {"id": 2, "name": "Bob", "dog": rex})
    assert rex.fans.to_list() == [ann, bob]
    assert rex.linking_objects("Person", "dog").to_list() == [ann, bob]
    assert rex.linking_objects("Person", "dogs").to_list() == []
    with pytest.raises(drumlin.NoSuchPropertyError) as no_property:
        rex.linking_objects("Person", "name")
    assert no_property.value.message == "No property 'name' found in type 'Person' which links to type 'Dog'"
    with pytest.raises(drumlin.NoSuchClassError):
        rex.linking_objects("Cat", "dog")


def test_deleting_a_target_nulls_links_and_updates_backlinks(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        bo = db.create("Dog", {"name": "Bo"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dog": rex, "dogs": [rex, bo, rex]})
        bob = db.create("Person", {"id": 2, "name": "Bob", "dogs": [bo]})
    owners = bo.owners
    assert owners.to_list() == [ann, bob]
    with db.write():
        db.delete(rex)
    assert ann.dog is None
    assert list(ann.dogs) == [bo]
    with db.write():
        db.delete(ann)
    assert owners.to_list() == [bob]


def test_results_of_a_deleted_object_raise_invalidated(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
    owners = rex.owners
    with db.write():
        db.delete(rex)
    with pytest.raises(drumlin.InvalidatedObjectError) as caught:
        len(owners)
    assert caught.value.message == "Accessing object of type Dog which has been invalidated or deleted"


def test_objects_read_through_links_compare_and_hash_alike(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dog": rex, "dogs": [rex, rex]})
    assert len({ann.dog, rex, *ann.dogs}) == 1
    assert ann.dogs[0] == ann.dogs[1] == db.get("Dog", "Rex")
