"""An existing object given as a value reaches the engine as a reference to it (a typed link, a
``$link`` in a JSON payload, a tagged link in a packed create_many row), whichever call carries
it: the engine checks it, so every write verb gives the engine's exception and message."""

from __future__ import annotations

from typing import Any, Callable

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
            "favorites": "Dog<>",
            "by_name": "Dog{}",
            "address": "Address",
            "anything": "mixed",
            "items": "mixed[]",
        },
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string"}},
    {"name": "Address", "embedded": True, "properties": {"street": "string"}},
]

Write = Callable[[drumlin.Database, drumlin.Object, Any], None]

# Every way a value for Person.dog (or an element of Person.dogs / favorites / by_name) is written,
# and the property its message names.
LINK_ROUTES: dict[str, tuple[str, Write]] = {
    "assign": ("dog", lambda db, ann, value: setattr(ann, "dog", value)),
    "update": ("dog", lambda db, ann, value: ann.update({"dog": value})),
    "create": ("dog", lambda db, ann, value: db.create("Person", {"id": 9, "name": "x", "dog": value})),
    "create, in a list": ("dogs", lambda db, ann, value: db.create("Person", {"id": 9, "name": "x", "dogs": [value]})),
    "create, in a dict": (
        "by_name", lambda db, ann, value: db.create("Person", {"id": 9, "name": "x", "by_name": {"k": value}})
    ),
    "create_many, packed": ("dog", lambda db, ann, value: db.create_many("Person", [{"id": 9, "name": "x", "dog": value}])),
    "create_many, JSON": (
        "dog", lambda db, ann, value: db.create_many("Person", [{"id": 9, "name": "x", "dog": value}, {"id": 10}])
    ),
    "list append": ("dogs", lambda db, ann, value: ann.dogs.append(value)),
    "list assign": ("dogs", lambda db, ann, value: setattr(ann, "dogs", [value])),
    "set add": ("favorites", lambda db, ann, value: ann.favorites.add(value)),
    "dict item": ("by_name", lambda db, ann, value: ann.by_name.__setitem__("k", value)),
}


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


def _message(error: pytest.ExceptionInfo[drumlin.DrumlinError]) -> str:
    message = error.value.message
    return message.removeprefix("Element 0: ")  # create_many names the element


@pytest.mark.parametrize("route", LINK_ROUTES)
def test_an_object_of_another_class_is_the_engines_type_mismatch(db: drumlin.Database, route: str) -> None:
    prop, write = LINK_ROUTES[route]
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            write(db, ann, ann)
    assert _message(caught) == (
        f"Type mismatch for property 'Person.{prop}': expected an object of type 'Dog', got 'Person'."
    )
    assert db.count("Person") == 1


@pytest.mark.parametrize("route", LINK_ROUTES)
def test_a_deleted_object_is_the_engines_invalidated_object_error(db: drumlin.Database, route: str) -> None:
    prop, write = LINK_ROUTES[route]
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        db.create("Dog", {"name": "Gone"})
        gone = db.query("Dog", "name == 'Gone'")[0]  # read as a row: no handle of its own
        db.delete(db.objects("Dog"))
        with pytest.raises(drumlin.InvalidatedObjectError) as caught:
            write(db, ann, gone)
    assert _message(caught) == f"The object of type 'Dog' assigned to 'Person.{prop}' has been deleted."


@pytest.mark.parametrize(
    "write",
    [
        lambda db, ann, other: setattr(ann, "address", other.address),
        lambda db, ann, other: ann.update({"address": other.address}),
        lambda db, ann, other: db.create("Person", {"id": 9, "name": "x", "address": other.address}),
        lambda db, ann, other: db.create_many("Person", [{"id": 9, "name": "x", "address": other.address}]),
    ],
    ids=["assign", "update", "create", "create_many"],
)
def test_an_existing_embedded_object_is_refused_by_the_engine(db: drumlin.Database, write: Write) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        other = db.create("Person", {"id": 2, "name": "Bo", "address": {"street": "a"}})
        with pytest.raises(drumlin.InvalidArgumentError) as caught:
            write(db, ann, other)
    assert _message(caught) == (
        "Cannot link 'Person.address' to an existing embedded object of type 'Address': embedded objects "
        "have exactly one owner. Assign a new object (a copy of its properties) instead."
    )


@pytest.mark.parametrize(
    "write",
    [
        lambda db, ann, rex: setattr(ann, "name", rex),
        lambda db, ann, rex: ann.update({"name": rex}),
        lambda db, ann, rex: db.create("Person", {"id": 9, "name": rex}),
        lambda db, ann, rex: db.create_many("Person", [{"id": 9, "name": rex}]),
    ],
    ids=["assign", "update", "create", "create_many"],
)
def test_an_object_for_a_scalar_property_is_the_engines_type_mismatch(db: drumlin.Database, write: Write) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        rex = db.create("Dog", {"name": "Rex"})
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            write(db, ann, rex)
    assert _message(caught) == "Type mismatch for property 'Person.name': expected string, got link."


@pytest.mark.parametrize(
    ("write", "read"),
    [
        (lambda db, ann, rex: setattr(ann, "anything", {"a": [rex]}), lambda db, rex: (db.get("Person", 1).anything, {"a": [rex]})),
        (lambda db, ann, rex: ann.update({"anything": [rex]}), lambda db, rex: (db.get("Person", 1).anything, [rex])),
        (lambda db, ann, rex: db.create("Person", {"id": 9, "name": "x", "anything": [rex]}),
         lambda db, rex: (db.get("Person", 9).anything, [rex])),
        (lambda db, ann, rex: db.create_many("Person", [{"id": 9, "name": "x", "anything": [[rex]]}]),
         lambda db, rex: (db.get("Person", 9).anything, [[rex]])),
        (lambda db, ann, rex: ann.items.append([rex]), lambda db, rex: (list(db.get("Person", 1).items), [[rex]])),
    ],
    ids=["assign", "update", "create", "create_many", "list append"],
)
def test_an_object_inside_a_nested_mixed_value_is_stored_by_every_route(
    db: drumlin.Database, write: Write, read: Callable[[drumlin.Database, drumlin.Object], tuple[Any, Any]]
) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        rex = db.create("Dog", {"name": "Rex"})
        write(db, ann, rex)
    stored, expected = read(db, rex)
    assert stored == expected


def test_an_existing_object_in_a_payload_is_linked_not_looked_up_by_primary_key(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create(
            "Person",
            {"id": 1, "name": "Ann", "dog": rex, "dogs": [rex, "Rex"], "favorites": [rex], "by_name": {"r": rex},
             "anything": rex, "items": [rex]},
        )
        db.create_many("Person", [{"id": 2, "name": "Bo", "dog": rex, "dogs": [rex]}])
    assert ann.dog == rex and list(ann.dogs) == [rex, rex] and list(ann.favorites) == [rex]
    assert ann.by_name["r"] == rex and ann.anything == rex and list(ann.items) == [rex]
    assert db.get("Person", 2).dogs[0] == rex


# ---- A primary key, a new object or a nested value given to a set or a list element -------------

KEYED: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "dogs": "Dog[]", "favorites": "Dog<>", "tags": "Tag<>", "bag": "mixed<>"},
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string"}},
    {"name": "Tag", "properties": {"label": "string"}},
]


@pytest.mark.parametrize(
    ("prop", "value", "error", "message"),
    [
        ("favorites", "Nope", drumlin.InvalidArgumentError,
         "Property 'Person.favorites': no object of type 'Dog' with primary key 'Nope'."),
        ("tags", "x", drumlin.TypeMismatchError,
         "Type mismatch for property 'Person.tags': 'Tag' has no primary key, so a link is a nested object or an "
         "object key (int), got string."),
        ("tags", 99, drumlin.InvalidArgumentError, "Property 'Person.tags': no object of type 'Tag' with object key '99'."),
        ("bag", [1], drumlin.TypeMismatchError,
         "Type mismatch for property 'Person.bag': sets of mixed values hold scalars only, got list."),
        ("bag", {"a": 1}, drumlin.TypeMismatchError,
         "Type mismatch for property 'Person.bag': sets of mixed values hold scalars only, got dictionary."),
    ],
)
def test_a_set_add_the_engine_refuses_gives_its_message(
    open_db: OpenDb, prop: str, value: Any, error: type[drumlin.DrumlinError], message: str
) -> None:
    db = open_db(KEYED)
    with db.write():
        ann = db.create("Person", {"id": 1})
        with pytest.raises(error) as caught:
            getattr(ann, prop).add(value)
    assert caught.value.message == message
    assert len(getattr(ann, prop)) == 0


def test_a_set_takes_a_new_object_or_a_primary_key_in_one_call(open_db: OpenDb) -> None:
    db = open_db(KEYED)
    with db.write():
        ann = db.create("Person", {"id": 1})
        ann.favorites.add({"name": "Bo"})
        db.create("Dog", {"name": "Rex"})
        ann.favorites.add("Rex")
        ann.favorites.add("Rex")
    assert sorted(dog.name for dog in ann.favorites) == ["Bo", "Rex"]


def test_replacing_a_list_element_with_a_missing_primary_key_leaves_the_list_unchanged(open_db: OpenDb) -> None:
    db = open_db(KEYED)
    with db.write():
        ann = db.create("Person", {"id": 1, "dogs": [{"name": "Rex"}, {"name": "Bo"}]})
        with pytest.raises(drumlin.InvalidArgumentError) as caught:
            ann.dogs[0] = "Nope"
        assert caught.value.message == "Property 'Person.dogs': no object of type 'Dog' with primary key 'Nope'."
        assert [dog.name for dog in ann.dogs] == ["Rex", "Bo"]
        ann.dogs[1] = {"name": "Cy"}
        ann.dogs[0] = "Cy"
    assert [dog.name for dog in ann.dogs] == ["Cy", "Cy"]


@pytest.mark.parametrize(
    ("write", "prop"),
    [
        (lambda ann: ann.dogs.extend([{"name": "Cy"}, "Nope"]), "dogs"),
        (lambda ann: ann.dogs.insert(0, "Nope"), "dogs"),
        (lambda ann: ann.favorites.update([{"name": "Cy"}, "Nope"]), "favorites"),
        (lambda ann: ann.by_name.update({"c": {"name": "Cy"}, "n": "Nope"}), "by_name"),
    ],
    ids=["list extend", "list insert", "set update", "dict update"],
)
def test_adding_many_objects_is_one_engine_call_all_or_nothing(
    db: drumlin.Database, write: Callable[[drumlin.Object], None], prop: str
) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "dogs": [{"name": "Rex"}]})
        with pytest.raises(drumlin.InvalidArgumentError) as caught:
            write(ann)
        assert caught.value.message == f"Property 'Person.{prop}': no object of type 'Dog' with primary key 'Nope'."
        assert db.count("Dog") == 1  # Cy was not kept
        ann.dogs.extend([{"name": "Cy"}, "Rex", db.get("Dog", "Rex")])
        ann.favorites.update(["Rex", "Cy"])
        ann.by_name.update({"r": "Rex", "c": db.get("Dog", "Cy")})
    assert [dog.name for dog in ann.dogs] == ["Rex", "Cy", "Rex", "Rex"]
    assert sorted(dog.name for dog in ann.favorites) == ["Cy", "Rex"]
    assert {key: dog.name for key, dog in ann.by_name.items()} == {"c": "Cy", "r": "Rex"}
