"""drumlin.List, drumlin.Set and drumlin.Dictionary: primitive elements of every type, objects, the
MutableSequence / MutableSet / MutableMapping protocols, deletion, whole-collection assignment,
db.delete(collection), transactions and handle lifetime."""

from __future__ import annotations

import gc
import pickle
import threading
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest
from conftest import OpenDb

import drumlin

TYPES: dict[str, tuple[Any, Any]] = {
    "bool": (True, False),
    "int": (1, -(2**63)),
    "float": (1.5, -0.25),
    "double": (0.1, -1e300),
    "decimal128": (Decimal("1.10"), Decimal("-3E+5")),
    "string": ("a", "ünï\0code"),
    "data": (b"\x00\x01", b""),
    "date": (
        datetime(2024, 3, 18, 13, 50, 58, 402979, tzinfo=timezone.utc),
        datetime(1960, 1, 1, tzinfo=timezone.utc),
    ),
    "objectId": (drumlin.ObjectId("65f1c0ffee0000000000000a"), drumlin.ObjectId("65f1c0ffee0000000000000b")),
    "uuid": (UUID("8a1f3e4c-1b2d-4c5e-9f60-718293a4b5c6"), UUID("00000000-0000-0000-0000-000000000001")),
    "mixed": (3, 2.5),
}


def _holder_properties() -> dict[str, Any]:
    properties: dict[str, Any] = {"name": "string"}
    for type_name in TYPES:
        element = type_name if type_name == "mixed" else f"{type_name}?"
        properties[f"l_{type_name}"] = f"{element}[]"
        properties[f"s_{type_name}"] = f"{element}<>"
        properties[f"d_{type_name}"] = f"{element}{{}}"
    properties.update({"ints": "int[]", "tags": "string<>", "words": "string{}", "extra": "mixed{}"})
    return properties


SCHEMA: list[dict[str, Any]] = [
    {"name": "Holder", "properties": _holder_properties()},
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "dogs": "Dog[]",
            "favorites": "Dog<>",
            "byName": "Dog{}",
            "tags": "Tag[]",
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
    {"name": "Tag", "properties": {"label": "string"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


@pytest.fixture
def holder(db: drumlin.Database) -> drumlin.Object:
    with db.write():
        obj = db.create("Holder", {"name": "h"})
    assert obj is not None
    return obj


def _same(left: list[Any], right: list[Any]) -> bool:
    """Equal, element types included (3 and 3.0 differ, True and 1 differ)."""
    return left == right and [type(x) for x in left] == [type(x) for x in right]


# ---- Every primitive type -----------------------------------------------------------------------


@pytest.mark.parametrize("type_name", list(TYPES))
def test_lists_of_every_type(db: drumlin.Database, type_name: str) -> None:
    a, b = TYPES[type_name]
    with db.write():
        h = db.create("Holder", {"name": "h", f"l_{type_name}": [a, None, b]})
        assert h is not None
        lst = h[f"l_{type_name}"]
        assert isinstance(lst, drumlin.List)
        assert _same(list(lst), [a, None, b])
        assert _same([lst[0], lst[1], lst[2], lst[-1]], [a, None, b, b])
        lst.append(a)
        lst.insert(0, b)
        lst[2] = a
        assert _same(list(lst), [b, a, a, b, a])
        lst.move(0, 4)
        del lst[1]
        assert _same(list(lst), [a, b, a, b])
        assert lst.index(b) == 1 and lst.count(a) == 2
        assert None not in lst
        lst.clear()
        assert len(lst) == 0
    assert h.to_dict()[f"l_{type_name}"] == []


@pytest.mark.parametrize("type_name", list(TYPES))
def test_sets_of_every_type(db: drumlin.Database, type_name: str) -> None:
    a, b = TYPES[type_name]
    with db.write():
        h = db.create("Holder", {"name": "h", f"s_{type_name}": [a, None, a]})
        assert h is not None
        s = h[f"s_{type_name}"]
        assert isinstance(s, drumlin.Set)
        assert len(s) == 2
        assert _same(list(s), [a, None])
        assert a in s and None in s and b not in s
        s.add(b)
        s.add(a)  # already there: nothing changes
        assert _same(list(s), [a, None, b])
        s.discard(None)
        s.discard(None)
        s.remove(a)
        with pytest.raises(KeyError):
            s.remove(a)
        assert _same(list(s), [b])
        s.clear()
        assert len(s) == 0


@pytest.mark.parametrize("type_name", list(TYPES))
def test_dictionaries_of_every_type(db: drumlin.Database, type_name: str) -> None:
    a, b = TYPES[type_name]
    with db.write():
        h = db.create("Holder", {"name": "h", f"d_{type_name}": {"y": b, "x": a, "n": None}})
        assert h is not None
        d = h[f"d_{type_name}"]
        assert isinstance(d, drumlin.Dictionary)
        assert list(d) == ["n", "x", "y"]  # key order
        assert _same([d["x"], d["y"], d["n"]], [a, b, None])
        assert _same(list(d.values()), [None, a, b])
        d["x"] = b
        d["z"] = a
        del d["n"]
        assert list(d.items()) == [("x", b), ("y", b), ("z", a)]
        assert _same([d["z"]], [a])
        d.clear()
        assert len(d) == 0


def test_a_mixed_list_keeps_exact_types(holder: drumlin.Object) -> None:
    values = [1, 1.0, True, "1", b"1", Decimal("1"), None]
    with holder._drumlin_db.write():
        holder.l_mixed = values
    assert _same(list(holder.l_mixed), values)
    assert _same([holder.l_mixed[i] for i in range(len(values))], values)


def test_required_elements_refuse_none(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        holder.ints = [1, 2]
        with pytest.raises(drumlin.NotNullableError) as caught:
            holder.ints.append(None)
        assert caught.value.message == "Invalid null value for non-nullable property 'Holder.ints'."
        with pytest.raises(drumlin.NotNullableError):
            holder.ints = [1, None]
        with pytest.raises(drumlin.TypeMismatchError) as mismatch:
            holder.ints.insert(0, "3")
        assert mismatch.value.message == "Type mismatch for property 'Holder.ints': expected int, got string."
        with pytest.raises(drumlin.TypeMismatchError):
            holder.ints[0] = 1.5
    assert list(holder.ints) == [1, 2]


# ---- List protocol ------------------------------------------------------------------------------


def test_list_indexing_slicing_and_errors(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        holder.ints = [0, 1, 2, 3, 4]
    ints = holder.ints
    assert ints[-1] == 4 and ints[-5] == 0
    assert ints[1:3] == [1, 2] and ints[::-2] == [4, 2, 0]
    assert list(reversed(ints)) == [4, 3, 2, 1, 0]
    with pytest.raises(IndexError) as caught:
        ints[5]
    assert str(caught.value) == "Index 5 is out of bounds for list 'Holder.ints' of size 5."
    with pytest.raises(IndexError):
        ints[-6]
    with pytest.raises(TypeError):
        ints["0"]  # type: ignore[call-overload]
    assert ints == [0, 1, 2, 3, 4] and ints != [0, 1]
    assert ints == holder.ints
    assert ints != (0, 1, 2, 3, 4)  # like a list, not equal to a tuple
    assert repr(ints) == "<drumlin.List Holder.ints [0, 1, 2, 3, 4]>"
    with pytest.raises(TypeError):
        hash(ints)


def test_list_mutations(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        ints = holder.ints
        ints.extend([3, 4])
        ints.insert(-100, 1)  # clamped, as list.insert
        ints.insert(100, 9)
        ints.insert(-1, 5)
        assert ints == [1, 3, 4, 5, 9]
        assert ints.pop() == 9 and ints.pop(0) == 1
        ints.remove(4)
        with pytest.raises(ValueError):
            ints.remove(42)
        assert ints == [3, 5]
        ints += [7, 8]
        ints.extend(ints)
        assert ints == [3, 5, 7, 8, 3, 5, 7, 8]
        ints[1:3] = [0]
        assert ints == [3, 0, 8, 3, 5, 7, 8]
        del ints[::2]
        assert ints == [0, 3, 7]
        ints[::2] = [1, 2]
        assert ints == [1, 3, 2]
        ints.reverse()
        assert ints == [2, 3, 1]
        ints.move(-1, 0)
        assert ints == [1, 2, 3]
        with pytest.raises(IndexError):
            ints.move(0, 3)
        with pytest.raises(IndexError):
            del ints[3]
        with pytest.raises(drumlin.InvalidArgumentError):
            ints[::2] = [1]
        holder.ints += [4]  # the view assigned back to its own property: nothing more happens
    assert list(holder.ints) == [1, 2, 3, 4]


def test_writes_to_a_list_do_not_read_its_elements(holder: drumlin.Object, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each write makes the kept elements stale: a write that needed them to check its position
    # would read the whole list again, and a loop of appends would take time in the list's square.
    with holder._drumlin_db.write():
        ints = holder.ints
        ints.extend([10, 20, 30])
        reads: list[int] = []
        packed = type(ints)._drumlin_packed
        monkeypatch.setattr(type(ints), "_drumlin_packed", lambda self: reads.append(1) or packed(self))
        for i in range(5):
            ints.append(i)
        ints.insert(0, -1)
        ints.insert(100, 99)
        ints.move(0, 2)
        ints[1] = 7
        del ints[-1]
        assert reads == []
        monkeypatch.undo()
        assert ints == [10, 7, -1, 30, 0, 1, 2, 3, 4]


def test_list_of_strings_with_nul_and_unicode(holder: drumlin.Object) -> None:
    words = ["", "a\0b", "ünïcode ✓", '"quoted" \\ back']
    with holder._drumlin_db.write():
        holder.l_string = words
        holder.l_string.append("\x01\n")
    assert list(holder.l_string) == [*words, "\x01\n"]
    assert holder.l_string[1] == "a\0b"


# ---- Set protocol -------------------------------------------------------------------------------


def test_set_operators_and_mutations(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        holder.tags = {"a", "b"}
        tags = holder.tags
        assert tags == {"a", "b"} and tags != {"a"}
        assert tags | {"c"} == {"a", "b", "c"} and type(tags | {"c"}) is set
        assert tags & {"b", "z"} == {"b"}
        assert tags - {"a"} == {"b"}
        assert tags ^ {"a", "z"} == {"b", "z"}
        assert tags <= {"a", "b", "c"} and not tags.isdisjoint({"a"})
        tags |= {"c"}
        tags -= {"a"}
        assert tags == {"b", "c"}
        tags.update(["d"], {"e"})
        assert list(tags) == ["b", "c", "d", "e"]  # insertion order
        assert 5 not in tags and [1] not in tags  # never an element: not an error
        popped = tags.pop()
        assert popped == "b" and len(tags) == 3
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            tags.add(5)
        assert caught.value.message == "Type mismatch for property 'Holder.tags': expected string, got int."
        holder.tags |= {"f"}  # assigned back to its own property: nothing more happens
    assert holder.tags == {"c", "d", "e", "f"}
    assert repr(holder.tags) == "<drumlin.Set Holder.tags ['c', 'd', 'e', 'f']>"


def test_sets_of_mixed_hold_scalars_only(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        holder.s_mixed.add(1)
        holder.s_mixed.add(1.0)
        holder.s_mixed.add(True)
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            holder.s_mixed.add([1])
        assert caught.value.message == (
            "Type mismatch for property 'Holder.s_mixed': sets of mixed values hold scalars only, got list."
        )
        with pytest.raises(drumlin.TypeMismatchError) as in_payload:
            holder.s_mixed = [{"a": 1}]
        assert in_payload.value.message == (
            "Type mismatch for property 'Holder.s_mixed': sets of mixed values hold scalars only, "
            "got dictionary."
        )
    assert _same(list(holder.s_mixed), [1, 1.0, True])


# ---- Dictionary protocol ------------------------------------------------------------------------


def test_dictionary_protocol(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        words = holder.words
        words.update({"b": "2", "a": "1"}, c="3")
        assert dict(words) == {"a": "1", "b": "2", "c": "3"}
        assert list(words.keys()) == ["a", "b", "c"]
        assert "a" in words and "z" not in words and 1 not in words
        assert "2" in words.values() and ("a", "1") in words.items()
        assert words.get("z") is None and words.get("z", "-") == "-"
        with pytest.raises(KeyError):
            words["z"]
        with pytest.raises(KeyError):
            del words["z"]
        assert words.pop("a") == "1"
        assert words.setdefault("d", "4") == "4"
        assert words.popitem() == ("b", "2")
        assert words == {"c": "3", "d": "4"}
        assert words != {"c": "3"}
        assert len(words) == 2
    assert repr(holder.words) == "<drumlin.Dictionary Holder.words {'c': '3', 'd': '4'}>"


def test_dictionary_key_rules(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        with pytest.raises(drumlin.InvalidArgumentError) as dotted:
            holder.words["a.b"] = "x"
        assert dotted.value.message == (
            "Invalid key 'a.b' for dictionary property 'Holder.words': keys cannot contain '.' or "
            "start with '$'."
        )
        with pytest.raises(drumlin.InvalidArgumentError, match="keys cannot contain"):
            holder.words["$a"] = "x"
        with pytest.raises(drumlin.InvalidArgumentError, match="keys cannot contain"):
            holder.words = {"$a": "x"}
        with pytest.raises(drumlin.TypeMismatchError, match="dictionary keys are strings, not int"):
            holder.words[1] = "x"  # type: ignore[index]
        with pytest.raises(drumlin.InvalidArgumentError, match="NUL"):
            holder.words["a\0b"] = "x"
        holder.words["ünï code"] = "ok"
    assert dict(holder.words) == {"ünï code": "ok"}


# ---- Collections of objects ---------------------------------------------------------------------


def test_list_of_objects(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        dogs = ann.dogs
        dogs.append(rex)  # an Object
        dogs.append({"name": "Bo"})  # a new Dog
        dogs.insert(0, "Bo")  # the primary key of an existing Dog
        dogs.append(rex)
        assert [dog.name for dog in dogs] == ["Bo", "Rex", "Bo", "Rex"]
        assert all(type(dog).__name__ == "Dog" for dog in dogs)
        dogs[1] = {"name": "Cy"}
        dogs[2] = "Cy"
        assert [dog.name for dog in dogs] == ["Bo", "Cy", "Cy", "Rex"]
        assert dogs.index(rex) == 3 and rex in dogs and dogs.count(dogs[1]) == 2
        del dogs[0]
        dogs.remove(rex)
        assert [dog.name for dog in dogs] == ["Cy", "Cy"]
        with pytest.raises(drumlin.DuplicatePrimaryKeyError):
            dogs.append({"name": "Rex"})  # a dict is always a new object
        with pytest.raises(drumlin.NotNullableError):
            dogs.append(None)
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            dogs.append(ann)
        assert caught.value.message == (
            "Type mismatch for property 'Person.dogs': expected an object of type 'Dog', got 'Person'."
        )
        with pytest.raises(drumlin.InvalidArgumentError) as missing:
            dogs[0] = "Nope"
        assert (
            missing.value.message
            == "Property 'Person.dogs': no object of type 'Dog' with primary key 'Nope'."
        )
    assert [dog.name for dog in ann.dogs] == ["Cy", "Cy"]
    assert db.count("Dog") == 3  # removing from a list does not delete the objects


def test_list_of_objects_without_a_primary_key(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "tags": [{"label": "a"}, {"label": "b"}]})
        first = ann.tags[0]
        ann.tags.append(first)
        ann.tags.append(first._drumlin_object_key())  # an object key
        bob = db.create("Person", {"id": 2, "name": "Bob", "tags": list(ann.tags)})
    assert [tag.label for tag in ann.tags] == ["a", "b", "a", "a"]
    assert list(bob.tags) == list(ann.tags)
    assert db.count("Tag") == 2


def test_set_of_objects(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        favorites = ann.favorites
        favorites.add(rex)
        favorites.add("Rex")  # the same Dog, by primary key
        favorites.add({"name": "Bo"})  # a new Dog
        assert [dog.name for dog in favorites] == ["Rex", "Bo"]
        assert rex in favorites and "Bo" in favorites
        assert "Nope" not in favorites and ann not in favorites and {"name": "Rex"} not in favorites
        with pytest.raises(drumlin.InvalidArgumentError) as missing:
            favorites.add("Nope")
        assert (
            missing.value.message
            == "Property 'Person.favorites': no object of type 'Dog' with primary key 'Nope'."
        )
        with pytest.raises(drumlin.TypeMismatchError):
            favorites.add(ann)
        favorites.discard("Bo")
        favorites.discard("Nope")
        assert favorites == {rex}
    assert db.count("Dog") == 2


def test_dictionary_of_objects(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        by_name = ann.byName
        by_name["rex"] = rex
        by_name["bo"] = {"name": "Bo"}
        by_name["again"] = "Rex"
        by_name["none"] = None
        assert by_name["rex"] == rex and by_name["again"] == rex and by_name["none"] is None
        assert by_name["bo"].name == "Bo"
        assert dict(by_name) == {"again": rex, "bo": db.get("Dog", "Bo"), "none": None, "rex": rex}
    assert ann.to_dict()["byName"] == {"again": "Rex", "bo": "Bo", "none": None, "rex": "Rex"}


def test_deleting_an_object_removes_it_from_lists_and_sets_and_nulls_dictionary_values(
    db: drumlin.Database,
) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        bo = db.create("Dog", {"name": "Bo"})
        ann = db.create(
            "Person",
            {
                "id": 1,
                "name": "Ann",
                "dogs": [rex, bo, rex],
                "favorites": [rex, bo],
                "byName": {"r": rex, "b": bo},
            },
        )
        db.delete(rex)
    assert list(ann.dogs) == [bo]
    assert ann.dogs[0] == bo
    assert ann.favorites == {bo}
    assert dict(ann.byName) == {"b": bo, "r": None}
    assert ann.byName["r"] is None
    assert ann.to_dict()["byName"] == {"b": "Bo", "r": None}


# ---- Assigning whole collections ----------------------------------------------------------------


def test_assigning_a_collection_replaces_its_contents(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dogs": [{"name": "Bo"}]})
        bob = db.create("Person", {"id": 2, "name": "Bob"})
        h = db.create("Holder", {"name": "h", "ints": [1]})
        assert h is not None
        ann.dogs = [rex, {"name": "Cy"}, "Bo"]
        ann.favorites = (dog for dog in ann.dogs)  # any iterable
        ann.byName = {"r": rex}
        h.ints = range(3)
        h.tags = frozenset({"x"})
        h.words = {"k": "v"}
        bob.dogs = ann.dogs  # a copy of another collection
        bob.favorites = ann.favorites
        bob.byName = ann.byName
        ann.dogs = ann.dogs  # its own view: nothing to do
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            h.ints = 5
        assert caught.value.message == "Type mismatch for property 'Holder.ints': expected an array, got int."
    assert [dog.name for dog in ann.dogs] == ["Rex", "Cy", "Bo"]
    assert ann.favorites == set(ann.dogs)
    assert list(bob.dogs) == list(ann.dogs) and bob.favorites == ann.favorites
    assert dict(bob.byName) == {"r": rex}
    assert list(h.ints) == [0, 1, 2] and h.tags == {"x"} and dict(h.words) == {"k": "v"}
    with db.write():
        ann.dogs = []
        ann.byName = {}
    assert len(ann.dogs) == 0 and len(ann.byName) == 0
    assert db.count("Dog") == 3


# ---- db.delete with collections -----------------------------------------------------------------


def test_delete_a_list_deletes_its_objects(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "dogs": [{"name": "Rex"}, {"name": "Bo"}, "Rex"]})
        keep = db.create("Dog", {"name": "Keep"})
        dogs = list(ann.dogs)
        db.delete(ann.dogs)
    assert len(ann.dogs) == 0
    assert not any(dog.is_valid for dog in dogs)
    assert db.count("Dog") == 1 and keep.is_valid
    assert ann.is_valid


def test_delete_a_set_results_or_python_list_of_objects(db: drumlin.Database) -> None:
    with db.write():
        a = db.create("Dog", {"name": "A"})
        b = db.create("Dog", {"name": "B"})
        c = db.create("Dog", {"name": "C"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "favorites": [a], "dogs": [b]})
        db.delete(ann.favorites)
        db.delete([c, c])
        assert db.count("Dog") == 1
        db.delete(b.owners)  # the Results of a linkingObjects property
    assert not ann.is_valid and b.is_valid


def test_delete_refuses_what_is_not_objects(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        h = db.create("Holder", {"name": "h", "ints": [1, 2]})
        with pytest.raises(drumlin.TypeMismatchError, match="delete\\(\\) takes drumlin.Objects, not int"):
            db.delete(h.ints)
        with pytest.raises(drumlin.TypeMismatchError, match="delete\\(\\) takes drumlin.Objects, not str"):
            db.delete([rex, "Rex"])
        with pytest.raises(drumlin.TypeMismatchError, match="not str"):
            db.delete("Rex")  # type: ignore[arg-type]
        with pytest.raises(drumlin.TypeMismatchError):
            db.delete(h.words)  # type: ignore[arg-type]
    assert rex.is_valid and h is not None and h.is_valid


# ---- Transactions and handles -------------------------------------------------------------------


def test_changing_a_collection_outside_a_write_transaction(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann"})
        h = db.create("Holder", {"name": "h"})
    assert h is not None
    dogs, ints, tags, words = ann.dogs, h.ints, h.tags, h.words
    for change in (
        lambda: ints.append(1),
        lambda: ints.clear(),
        lambda: tags.add("x"),
        lambda: tags.discard("x"),
        lambda: words.__setitem__("k", "v"),
        lambda: words.clear(),
        lambda: dogs.append({"name": "Rex"}),
    ):
        with pytest.raises(drumlin.TransactionError) as caught:
            change()
        assert caught.value.message == "Cannot modify managed objects outside of a write transaction."
    assert len(ints) == 0 and len(tags) == 0 and len(words) == 0 and len(dogs) == 0
    assert db.count("Dog") == 0


def test_a_collection_change_does_not_join_another_threads_transaction(db: drumlin.Database) -> None:
    with db.write():
        h = db.create("Holder", {"name": "h"})
    assert h is not None
    inside = threading.Event()
    tried = threading.Event()
    seen: list[BaseException] = []

    def holder_thread() -> None:
        with db.write():
            h.ints.append(1)
            inside.set()
            tried.wait()  # hold the transaction open until the other thread has tried

    def intruder() -> None:
        inside.wait()
        try:
            h.ints.append(2)
        except drumlin.TransactionError as error:
            seen.append(error)
        finally:
            tried.set()

    threads = [threading.Thread(target=holder_thread), threading.Thread(target=intruder)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 1 and "another thread holds this database's write transaction" in str(seen[0])
    assert list(h.ints) == [1]


def test_changes_in_a_rolled_back_transaction_disappear(db: drumlin.Database) -> None:
    with db.write():
        h = db.create("Holder", {"name": "h", "ints": [1]})
    assert h is not None
    with pytest.raises(RuntimeError), db.write():
        h.ints.append(2)
        h.words["k"] = "v"
        raise RuntimeError("roll back")
    assert list(h.ints) == [1] and len(h.words) == 0


def test_views_after_the_database_is_closed(open_db: OpenDb) -> None:
    db = open_db(SCHEMA)
    with db.write():
        ann = db.create("Person", {"id": 1, "name": "Ann", "dogs": [{"name": "Rex"}]})
        h = db.create("Holder", {"name": "h", "ints": [1], "tags": ["a"], "words": {"k": "v"}})
    assert h is not None
    ints, tags, words, dogs = h.ints, h.tags, h.words, ann.dogs
    owners = dogs[0].owners
    db.close()
    for read in (
        lambda: len(ints),
        lambda: list(tags),
        lambda: words["k"],
        lambda: dogs[0],
        lambda: len(owners),
    ):
        with pytest.raises(drumlin.MisuseError):
            read()
    assert repr(ints) == "<drumlin.List Holder.ints (unreadable)>"
    ints.close()
    ints.close()
    with pytest.raises(drumlin.MisuseError, match="This list is closed."):
        len(ints)
    assert repr(ints) == "<drumlin.List Holder.ints (closed)>"
    gc.collect()


def test_views_release_their_handles(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        holder.ints = [1, 2, 3]
    for _ in range(2000):
        assert len(holder.ints) == 3
    with holder.tags as tags:
        assert len(tags) == 0
    assert tags.is_closed
    gc.collect()



@pytest.mark.parametrize(
    ("name", "kind", "value"), [("ints", "list", 4), ("tags", "set", "x"), ("words", "dict", ("k", "v"))]
)
def test_a_view_releases_the_handle_it_opened_once(
    holder: drumlin.Object, monkeypatch: pytest.MonkeyPatch, name: str, kind: str, value: Any
) -> None:
    # Views have no finalizer: the handle a view opens (a write needs one) releases itself when the
    # view is closed or garbage, exactly once; a view that only reads never opens one.
    from drumlin import _ffi

    released: list[int] = []
    function = f"drumlin_{kind}_release"
    release = getattr(_ffi, function)
    monkeypatch.setattr(_ffi, function, lambda handle: (released.append(1), release(handle)))
    view = getattr(holder, name)
    assert not hasattr(type(view), "__del__")
    assert len(view) == 0
    del view
    gc.collect()
    assert released == []  # read through the owner's key: never opened
    db = holder._drumlin_db

    def add(view: Any) -> None:
        if kind == "list":
            view.append(value)
        elif kind == "set":
            view.add(value)
        else:
            view[value[0]] = value[1]

    with db.write():
        add(getattr(holder, name))
    gc.collect()
    assert released == [1]
    with db.write():
        view = getattr(holder, name)
        view.clear()
        add(view)
    view.close()
    view.close()
    assert released == [1, 1]
    with pytest.raises(drumlin.MisuseError):
        len(view)
    del view
    gc.collect()
    assert released == [1, 1]
    assert len(getattr(holder, name)) == 1

def test_views_cannot_be_pickled(holder: drumlin.Object) -> None:
    for view in (holder.ints, holder.tags, holder.words):
        with pytest.raises(TypeError, match="live view"):
            pickle.dumps(view)


# ---- Changes of several elements are all or nothing ---------------------------------------------


def test_multi_element_changes_of_primitive_collections_are_all_or_nothing(holder: drumlin.Object) -> None:
    with holder._drumlin_db.write():
        holder.ints = [1, 2]
        holder.tags = ["a"]
        holder.words = {"k": "v"}
        with pytest.raises(drumlin.TypeMismatchError):
            holder.ints.extend([3, "four", 5])
        with pytest.raises(drumlin.TypeMismatchError):
            holder.ints[0:1] = [7, "x", None]
        with pytest.raises(drumlin.TypeMismatchError):
            holder.tags.update(["b", 3])
        with pytest.raises(drumlin.TypeMismatchError):
            holder.tags |= {"c", 4}
        with pytest.raises(drumlin.TypeMismatchError):
            holder.words.update({"a": "1", "b": 2})
        with pytest.raises(drumlin.InvalidArgumentError):
            holder.words.update({"a": "1", "$b": "2"})
    assert list(holder.ints) == [1, 2]
    assert holder.tags == {"a"}
    assert dict(holder.words) == {"k": "v"}


def test_multi_element_changes_of_object_lists_are_all_or_nothing(db: drumlin.Database) -> None:
    with db.write():
        rex = db.create("Dog", {"name": "Rex"})
        ann = db.create("Person", {"id": 1, "name": "Ann", "dogs": [rex]})
        with pytest.raises(drumlin.InvalidArgumentError, match="no object of type 'Dog' with primary key"):
            ann.dogs.extend([{"name": "New"}, rex, "Nope"])
        with pytest.raises(drumlin.InvalidArgumentError):
            ann.dogs[0:1] = [{"name": "Other"}, "Nope"]
        with pytest.raises(drumlin.InvalidArgumentError):
            ann.favorites.update([rex, {"name": "Fav"}, "Nope"])
        assert db.count("Dog") == 1  # the objects created on the way were deleted again
        ann.dogs.extend([{"name": "Bo"}, "Rex"])
        ann.dogs[0:2] = ["Bo"]
    assert [dog.name for dog in ann.dogs] == ["Bo", "Rex"]
    assert len(ann.favorites) == 0
    assert db.count("Dog") == 2


def test_rewriting_a_list_keeps_what_python_cannot_represent(db: drumlin.Database) -> None:
    # Multi-element changes of primitive lists rewrite the list from the engine's own JSON, so a
    # date with nanoseconds (written by another interface) keeps them.
    stamp = "2024-03-18T13:50:58.402979123Z"
    with db.write():
        holder = db.create("Holder", {"name": "h", "l_date": [{"$date": stamp}]})
        assert holder is not None
        holder.l_date.extend([datetime(2000, 1, 1, tzinfo=timezone.utc)])
        holder.l_date[1:1] = [None]
    assert holder.l_date._drumlin_raw() == [{"$date": stamp}, None, {"$date": "2000-01-01T00:00:00Z"}]
    assert holder.l_date[0] == datetime(2024, 3, 18, 13, 50, 58, 402979, tzinfo=timezone.utc)


def test_a_row_carries_a_set_of_at_most_16_elements_in_insertion_order() -> None:
    # A set comes in insertion order, which its (owner, value) index does not give: the row of one
    # object finds a set longer than 16 on the index and leaves it out, rather than sorting it all.
    db = drumlin.open(":memory:", schema=[{"name": "H", "primaryKey": "id", "properties": {"id": "int", "marks": "string<>"}}])
    sixteen = [f"s{i}" for i in range(16, 0, -1)]
    seventeen = [f"s{i}" for i in range(17, 0, -1)]
    with db.write():
        db.create("H", {"id": 1, "marks": sixteen})
        db.create("H", {"id": 2, "marks": seventeen})
    short, long = db.get("H", 1), db.get("H", 2)
    assert short._drumlin_row == (1, sixteen, 1)
    assert long._drumlin_row == (2, None, 2)
    assert list(short.marks) == sixteen and list(long.marks) == seventeen
    with db.write():
        long.marks.discard("s17")
    assert db.get("H", 2)._drumlin_row == (2, seventeen[1:], 2)
    db.close()
