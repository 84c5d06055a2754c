"""Embedded objects: single, in lists and in dictionaries; created from nested payloads or by
assigning a dict; replaced ones deleted; parent deletion cascades (checked in the SQLite tables);
never created alone or owned twice."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb, stored_rows

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "address": "Address",
            "addresses": "Address[]",
            "book": "Address{}",
            "dogs": "Dog[]",
        },
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {
            "name": "string",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
        },
    },
    {
        "name": "Address",
        "embedded": True,
        "properties": {"street": "string", "city": "string?", "location": "GeoPoint"},
    },
    {"name": "GeoPoint", "embedded": True, "properties": {"type": "string", "coordinates": "double[]"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


def _rows(db: drumlin.Database, sql: str) -> list[tuple[Any, ...]]:
    """Read the file with Python's sqlite3 (committed data only)."""
    return stored_rows(db.path, sql)


def _count(db: drumlin.Database, table: str) -> int:
    return int(_rows(db, f'SELECT count(*) FROM "{table}"')[0][0])


def test_a_single_embedded_object(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "address": {"street": "Main St"}})
    address = ann.address
    assert isinstance(address, drumlin.Object) and type(address).__name__ == "Address"
    assert address.street == "Main St" and address.city is None and address.primary_key is None
    with db.write():
        address.city = "Paris"
        address.location = {"type": "Point", "coordinates": [2.35, 48.85]}
    assert ann.to_dict()["address"] == {
        "street": "Main St",
        "city": "Paris",
        "location": {"type": "Point", "coordinates": [2.35, 48.85]},
    }
    assert _count(db, "Address") == 1 and _count(db, "GeoPoint") == 1


def test_assigning_a_new_embedded_object_deletes_the_old_one(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create(
            "Person",
            {
                "id": 1,
                "name": "Ann",
                "address": {"street": "Old", "location": {"type": "Point", "coordinates": [1, 2]}},
            },
        )
        old = ann.address
        ann.address = {"street": "New"}
    assert not old.is_valid
    with pytest.raises(drumlin.InvalidatedObjectError):
        old.street
    assert ann.address.street == "New"
    assert _rows(db, 'SELECT street FROM "Address"') == [("New",)]
    assert _count(db, "GeoPoint") == 0 and _count(db, "_drumlin_list_8_GeoPoint_coordinates") == 0
    with db.write():
        ann.address = None
    assert ann.address is None
    assert _count(db, "Address") == 0


def test_embedded_objects_in_a_list(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "addresses": [{"street": "a"}, {"street": "b"}]})
        addresses = ann.addresses
        addresses.append({"street": "c"})
        addresses.insert(0, {"street": "z"})
        old = addresses[1]
        addresses[1] = {"street": "A"}  # the replaced one is deleted
        assert not old.is_valid
        addresses.move(0, 3)
        assert [a.street for a in addresses] == ["A", "b", "c", "z"]
        del addresses[0]
        addresses.reverse()
        assert [a.street for a in addresses] == ["z", "c", "b"]
        assert all(type(a).__name__ == "Address" for a in addresses)
    assert _rows(db, 'SELECT street FROM "Address" ORDER BY street') == [("b",), ("c",), ("z",)]
    with db.write():
        ann.addresses.pop()
        assert _count(db, "Address") == 3  # not committed yet
    assert _count(db, "Address") == 2
    with db.write():
        ann.addresses.clear()
    assert _count(db, "Address") == 0


def test_embedded_objects_in_a_dictionary(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "book": {"home": {"street": "a"}}})
        book = ann.book
        book["work"] = {"street": "b"}
        home = book["home"]
        book["home"] = {"street": "c"}
        assert not home.is_valid
        assert {key: a.street for key, a in book.items()} == {"home": "c", "work": "b"}
        del book["work"]
    assert ann.to_dict()["book"] == {"home": {"street": "c", "city": None, "location": None}}
    assert _rows(db, 'SELECT street FROM "Address"') == [("c",)]


def test_whole_collections_of_embedded_objects_are_replaced(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "addresses": [{"street": "a"}, {"street": "b"}]})
        ann.addresses = [{"street": "c"}]
        ann.book = {"k": {"street": "d"}}
        ann.book = {"k": {"street": "e"}}
        ann.addresses += [{"street": "f"}]  # appended in place, then assigned to itself
    assert [a.street for a in ann.addresses] == ["c", "f"]
    assert _rows(db, 'SELECT street FROM "Address" ORDER BY street') == [("c",), ("e",), ("f",)]


def test_embedded_objects_cannot_be_created_alone(db: drumlin.Database) -> None:
    with db.write():
        with pytest.raises(drumlin.InvalidArgumentError) as caught:
            db.create("Address", {"street": "x"})
        assert caught.value.message == (
            "Cannot create an object of embedded type 'Address' on its own: assign it to a property of "
            "its parent."
        )
        with pytest.raises(drumlin.InvalidArgumentError, match="on its own"):
            db.create_many("Address", [{"street": "x"}])
    assert _count(db, "Address") == 0


def test_an_embedded_object_cannot_have_a_second_owner(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create(
            "Person", {"id": 1, "name": "Ann", "address": {"street": "a"}, "addresses": [{"street": "b"}]}
        )
        bob = db.create("Person", {"id": 2, "name": "Bob"})
        with pytest.raises(drumlin.InvalidArgumentError) as single:
            bob.address = ann.address
        assert single.value.message == (
            "Cannot link 'Person.address' to an existing embedded object of type 'Address': embedded objects "
            "have exactly one owner. Assign a new object (a copy of its properties) instead."
        )
        with pytest.raises(drumlin.InvalidArgumentError, match="embedded objects have exactly one owner"):
            bob.addresses.append(ann.addresses[0])
        with pytest.raises(drumlin.InvalidArgumentError, match="embedded objects have exactly one owner"):
            bob.book["k"] = ann.address
        with pytest.raises(drumlin.InvalidArgumentError) as in_payload:
            bob.update({"addresses": list(ann.addresses)})
        assert in_payload.value.message == (
            "Cannot link 'Person.addresses' to an existing embedded object of type 'Address': embedded "
            "objects have exactly one owner. Assign a new object (a copy of its properties) instead."
        )
        with pytest.raises(drumlin.InvalidArgumentError, match="exactly one owner"):
            db.create("Person", {"id": 3, "name": "Cy", "address": ann.address})
        bob.address = ann.address.to_dict()  # a copy is fine
    assert bob.address.street == "a" and bob.address != ann.address
    assert ann.address.street == "a"
    assert _count(db, "Address") == 3


def test_a_failed_nested_create_leaves_no_embedded_rows(db: drumlin.Database) -> None:
    with db.write(), pytest.raises(drumlin.NotNullableError):
        db.create(
            "Person", {"id": 1, "name": "Ann", "address": {"street": "a"}, "addresses": [{"street": None}]}
        )
    assert _count(db, "Person") == 0 and _count(db, "Address") == 0


def test_deleting_an_embedded_object_removes_it_from_its_parent(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create(
            "Person",
            {
                "id": 1,
                "name": "Ann",
                "address": {"street": "a"},
                "addresses": [{"street": "b"}, {"street": "c"}],
            },
        )
        db.delete(ann.addresses[0])
        db.delete(ann.address)
    assert ann.address is None
    assert [a.street for a in ann.addresses] == ["c"]
    assert _rows(db, 'SELECT street FROM "Address"') == [("c",)]


def test_deleting_a_parent_deletes_its_embedded_objects_and_its_backlinks(db: drumlin.Database) -> None:
    # The acceptance scenario: three embedded addresses (one with a nested geo point) and two dogs.
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create(
            "Person",
            {
                "id": 1,
                "name": "Ann",
                "address": {"street": "a", "location": {"type": "Point", "coordinates": [1.5, 2.5]}},
                "addresses": [{"street": "b"}],
                "book": {"k": {"street": "c"}},
                "dogs": [rex, {"name": "Bo"}],
            },
        )
        bob = db.create("Person", {"id": 2, "name": "Bob", "addresses": [{"street": "kept"}], "dogs": ["Bo"]})
    bo = db.get("Dog", "Bo")
    assert bo is not None
    assert rex.owners.to_list() == [ann] and bo.owners.to_list() == [ann, bob]
    assert _count(db, "Address") == 4 and _count(db, "GeoPoint") == 1

    with db.write():
        db.delete(ann)

    assert not ann.is_valid
    assert rex.owners.to_list() == [] and bo.owners.to_list() == [bob]
    assert rex.is_valid and bo.is_valid and db.count("Dog") == 2
    # The tables themselves: no orphan embedded rows, no collection rows owned by Ann.
    assert _rows(db, 'SELECT street FROM "Address"') == [("kept",)]
    assert _count(db, "GeoPoint") == 0
    assert _count(db, "_drumlin_list_8_GeoPoint_coordinates") == 0
    assert _rows(db, 'SELECT owner FROM "_drumlin_list_6_Person_addresses"') == [(2,)]
    assert _count(db, "_drumlin_dictionary_6_Person_book") == 0
    assert _rows(db, 'SELECT owner, position FROM "_drumlin_list_6_Person_dogs"') == [(2, 0)]
    assert _rows(db, 'SELECT id, name FROM "Person"') == [(2, "Bob")]
