"""Mixed values: exact scalar types, nested lists and dictionaries up to 100 levels (101 fails
and changes nothing), element-level get/set/append/remove, and mixed[], mixed{}, mixed<>."""

from __future__ import annotations

import math
import uuid
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Note",
        "properties": {
            "title": "string",
            "anything": "mixed",
            "extra": "mixed{}",
            "items": "mixed[]",
            "bag": "mixed<>",
        },
    }
]

LIMIT = "Nested collections in a mixed value may be at most 100 levels deep."


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


@pytest.fixture
def note(db: drumlin.Database) -> drumlin.Object:
    with db.write():
        obj = db.create("Note", {"title": "t"})
    assert obj is not None
    return obj


def nested(levels: int) -> list[Any]:
    """A list nested ``levels`` deep: nested(1) == [0], nested(2) == [[0]]."""
    value: list[Any] = [0]
    for _ in range(levels - 1):
        value = [value]
    return value


def nested_dicts(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": True}
    for _ in range(levels - 1):
        value = {"k": value}
    return value


SCALARS = [
    3,
    3.0,
    True,
    0,
    "3",
    b"3",
    Decimal("3.00"),
    datetime(2024, 3, 18, 13, 50, 58, 402979, tzinfo=timezone.utc),
    drumlin.ObjectId("65f1c0ffee00000000000001"),
    uuid.UUID("8a1f3e4c-1b2d-4c5e-9f60-718293a4b5c6"),
    float("inf"),
    None,
]


@pytest.mark.parametrize("value", SCALARS, ids=[type(v).__name__ + repr(v)[:12] for v in SCALARS])
def test_mixed_keeps_the_exact_scalar_type(note: drumlin.Object, value: Any) -> None:
    with note._drumlin_db.write():
        note.anything = value
        note.items = [value]
        note.extra = {"v": value}
        note.bag = [value]
    (listed,) = list(note.items)
    (in_set,) = list(note.bag)
    for read in (note.anything, note.items[0], listed, note.extra["v"], in_set):
        assert read == value and type(read) is type(value)
    assert note.to_dict()["anything"] == value


def test_every_kind_of_mixed_value_reads_back_through_a_loop_and_a_get(db: drumlin.Database) -> None:
    # A loop over results reads rows a page at a time, and plain scalars (null, int, bool,
    # string, binary, a double stored as a number) straight from the statement's row
    # (ValueCodec.readMixedInPlace); the rest (NaN and -0.0 kept as bits, decimals, dates, ...,
    # links, nested collections) through the general read. Both must give the stored value.
    values = SCALARS + [float("nan"), -0.0, -5, 2**63 - 1, "", "a\x00b", "é✓", b"", b"\x00\xff",
                        [1, "x"], {"k": [None]}]
    with db.write():
        for i, value in enumerate(values):
            db.create("Note", {"title": str(i), "anything": value})
        target = db.create("Note", {"title": "target"})
        linking = db.create("Note", {"title": "link", "anything": target})
    assert linking is not None

    def same(read: Any, value: Any) -> bool:
        if isinstance(value, float) and value != value:
            return isinstance(read, float) and read != read
        if isinstance(value, float) and value == 0:
            return type(read) is float and math.copysign(1, read) == math.copysign(1, value)
        return bool(read == value) and type(read) is type(value)

    looped = {note.title: note.anything for note in db.objects("Note")}
    for i, value in enumerate(values):
        assert same(looped[str(i)], value), (value, looped[str(i)])
        got = db.query("Note", "title == $0", str(i))[0].anything
        assert same(got, value), (value, got)
    assert looped["link"] == target and looped["target"] is None


def test_nested_values_read_as_plain_python_values(note: drumlin.Object) -> None:
    value = {"a": [1, 2.5, {"b": None, "c": [True, "x"]}], "d": {}}
    with note._drumlin_db.write():
        note.anything = value
    snapshot = note.anything
    assert snapshot == value and type(snapshot["a"][1]) is float
    snapshot["a"].append("not stored")  # a snapshot: changing it writes nothing
    assert note.anything == value


def test_a_nested_value_is_written_to_an_object_read_as_a_row(db: drumlin.Database) -> None:
    # Objects from db.objects()/db.get() have no handle until a call needs one: a nested value
    # assigned to one was a MisuseError ("The object handle is NULL.").
    with db.write():
        db.create("Note", {"title": "t"})
    (note,) = list(db.objects("Note"))
    with db.write():
        note.anything = {"floors": [1, 2]}
        note.anything = [{"a": 1}]
    assert note.anything == [{"a": 1}]


@pytest.mark.parametrize("make", [nested, nested_dicts], ids=["lists", "dicts"])
def test_one_hundred_levels_round_trip(db: drumlin.Database, make: Any) -> None:
    deep = make(100)
    with db.write():
        note = db.create("Note", {"title": "t", "anything": deep, "extra": {"k": deep}, "items": [deep]})
        assert note is not None
        note.items.append(deep)
    assert note.anything == deep
    assert note.extra["k"] == deep
    assert note.items[0] == deep and list(note.items) == [deep, deep]
    assert note.to_dict()["anything"] == deep


def test_one_hundred_and_one_levels_fail_and_change_nothing(db: drumlin.Database) -> None:
    deep = nested(100)
    too_deep = nested(101)
    with db.write():
        note = db.create("Note", {"title": "t", "anything": deep, "extra": {"k": 1}, "items": [1]})
        assert note is not None
        before = note.to_dict()
        with pytest.raises(drumlin.LimitError) as on_create:
            db.create("Note", {"title": "u", "anything": too_deep})
        assert on_create.value.code == 22
        assert on_create.value.message == f"Property 'Note.anything': {LIMIT}"
        with pytest.raises(drumlin.LimitError) as on_assign:
            note.anything = too_deep
        assert on_assign.value.message == f"Property 'Note.anything': {LIMIT}"
        with pytest.raises(drumlin.LimitError):
            note.update({"title": "changed", "extra": {"k": too_deep}})
        with pytest.raises(drumlin.LimitError):
            note.extra["k"] = too_deep
        with pytest.raises(drumlin.LimitError):
            note.items.append(too_deep)
        with pytest.raises(drumlin.LimitError):
            note.items[0] = too_deep
        with pytest.raises(drumlin.LimitError):
            db.create_many("Note", [{"title": "ok"}, {"title": "u", "items": [too_deep]}])
        # One level deeper inside the stored 100 levels.
        with pytest.raises(drumlin.LimitError) as on_append:
            note.append_mixed("anything", [0] * 99, [])
        assert on_append.value.message == LIMIT
        with pytest.raises(drumlin.LimitError):
            note.set_mixed("anything", [0] * 100, [1])  # the innermost scalar, made a list
        assert note.to_dict() == before
        note.title = "still writable"  # the transaction goes on
        note.set_mixed("anything", [0] * 99, ["new"])  # the innermost list replaced: still 100 levels
    assert db.count("Note") == 1
    assert note.title == "still writable"
    expected: list[Any] = ["new"]
    for _ in range(99):
        expected = [expected]
    assert note.anything == expected


def test_element_level_access_in_a_mixed_property(note: drumlin.Object) -> None:
    with note._drumlin_db.write():
        note.anything = {"a": [1, {"b": 2}], "c": "x"}
        note.set_mixed("anything", ["a", 0], 42)
        note.set_mixed("anything", ["a", 1, "e"], [3])  # a new key
        note.set_mixed("anything", "d", {"f": None})  # one step may be given bare
        note.append_mixed("anything", ["a"], "last")
        note.append_mixed("anything", ["a", 1, "e"], 4.5)
        note.remove_mixed("anything", ["c"])
        note.remove_mixed("anything", ("a", 1, "b"))
    assert note.anything == {"a": [42, {"e": [3, 4.5]}, "last"], "d": {"f": None}}
    assert note.get_mixed("anything", ["a", 1, "e", 1]) == 4.5
    assert note.get_mixed("anything", ["a", 1]) == {"e": [3, 4.5]}
    assert note.get_mixed("anything") == note.anything
    with note._drumlin_db.write():
        note.anything = [1]
        note.append_mixed("anything", [], [2])  # () is the property's own list
        note.remove_mixed("anything", 0)
    assert note.anything == [[2]]


def test_element_level_access_in_mixed_collections(note: drumlin.Object) -> None:
    with note._drumlin_db.write():
        note.items = [[1], "x"]
        note.extra = {"k": {"a": 1}}
        note.set_mixed("items", [0, 0], 5)
        note.append_mixed("items", [0], 6)
        note.set_mixed("items", [1], {"now": "a dict"})  # the list's own element
        note.append_mixed("items", [], "appended")
        note.set_mixed("extra", ["k", "b"], 2)
        note.set_mixed("extra", ["new"], [1, 2])  # the dictionary's own entry
        note.remove_mixed("extra", ["new", 0])
        note.remove_mixed("items", [2])
    assert list(note.items) == [[5, 6], {"now": "a dict"}]
    assert dict(note.extra) == {"k": {"a": 1, "b": 2}, "new": [2]}
    assert note.get_mixed("items", [0, 1]) == 6
    assert note.get_mixed("extra", ["k"]) == {"a": 1, "b": 2}
    assert note.get_mixed("items") == [[5, 6], {"now": "a dict"}]
    assert note.get_mixed("extra") == {"k": {"a": 1, "b": 2}, "new": [2]}
    with note._drumlin_db.write():
        note.remove_mixed("extra", ["k"])
        note.items[0] = "plain"
    assert dict(note.extra) == {"new": [2]}
    assert list(note.items) == ["plain", {"now": "a dict"}]


def test_element_level_errors(note: drumlin.Object) -> None:
    with note._drumlin_db.write():
        note.anything = {"a": [1]}
        note.items = [1]
        note.extra = {"k": 1}
        cases: list[tuple[Any, type[drumlin.DrumlinError], str]] = [
            (lambda: note.get_mixed("anything", ["zz"]), drumlin.InvalidArgumentError,
             'No element at path step key("zz").'),
            (lambda: note.set_mixed("anything", ["a", 5], 1), drumlin.InvalidArgumentError,
             "Index 5 is out of bounds for a nested list of size 1."),
            (lambda: note.remove_mixed("anything", ["zz"]), drumlin.InvalidArgumentError,
             "No key 'zz' in the nested dictionary."),
            (lambda: note.append_mixed("anything", [], 1), drumlin.InvalidArgumentError,
             "The path does not fit the nested collection."),
            (lambda: note.set_mixed("items", [5], 1), drumlin.InvalidArgumentError,
             "Index 5 is out of bounds for list 'Note.items' of size 1."),
            (lambda: note.set_mixed("items", ["x"], 1), drumlin.InvalidArgumentError,
             "Path step key(\"x\") does not fit 'Note.items'."),
            (lambda: note.remove_mixed("extra", ["zz"]), drumlin.InvalidArgumentError,
             "No key 'zz' in dictionary 'Note.extra'."),
            (lambda: note.set_mixed("title", [0], 1), drumlin.TypeMismatchError,
             "Property 'Note.title' is not a mixed value or a list or dictionary of them."),
            (lambda: note.get_mixed("bag", [0]), drumlin.TypeMismatchError,
             "Property 'Note.bag' is not a mixed value or a list or dictionary of them."),
        ]  # fmt: skip
        for call, error, message in cases:
            with pytest.raises(error) as caught:
                call()
            assert caught.value.message == message
        with pytest.raises(drumlin.InvalidArgumentError, match="needs a path of at least one step"):
            note.set_mixed("anything", [], 1)
        with pytest.raises(drumlin.InvalidArgumentError, match="needs a path of at least one step"):
            note.remove_mixed("anything", ())
        with pytest.raises(drumlin.TypeMismatchError, match="path steps are list indexes"):
            note.get_mixed("anything", [True])
        with pytest.raises(drumlin.TypeMismatchError, match="a path is a list"):
            note.get_mixed("anything", 1.5)  # type: ignore[arg-type]
        with pytest.raises(drumlin.NoSuchPropertyError):
            note.get_mixed("nope", [0])
    assert note.anything == {"a": [1]} and list(note.items) == [1] and dict(note.extra) == {"k": 1}
    with pytest.raises(drumlin.TransactionError):
        note.set_mixed("anything", ["a", 0], 2)
    with pytest.raises(drumlin.TransactionError):
        note.set_mixed("items", [0], 2)


def test_sets_of_mixed_hold_scalars_only(note: drumlin.Object) -> None:
    with note._drumlin_db.write():
        note.bag = [1, 1.0, True, "1", 1]
        with pytest.raises(drumlin.TypeMismatchError, match="sets of mixed values hold scalars only"):
            note.bag.add({"a": 1})
        with pytest.raises(drumlin.TypeMismatchError, match="sets of mixed values hold scalars only"):
            note.bag = [[1]]
    assert len(note.bag) == 4
    assert [type(v) for v in note.bag] == [int, float, bool, str]
    assert 1.0 in note.bag and "1" in note.bag and [1] not in note.bag


def test_mixed_values_hold_links_also_inside_nested_collections(db: drumlin.Database, note: drumlin.Object) -> None:
    # Links in mixed values are covered in test_mixed_links.py and test_mixed_nested_links.py.
    with db.write():
        other = db.create("Note", {"title": "u"})
        note.anything = other
        assert note.anything == other
        note.anything = [other]
    assert note.anything == [other] and len(note.extra) == 0 and len(note.items) == 0


MIXED_KEYS = [{"name": "K", "primaryKey": "id", "properties": {
    "id": "int", "x": "mixed", "l": "mixed[]", "d": "mixed{}", "f": "float?", "n": "double?"}}]


@pytest.mark.parametrize("key", ["$oid", "$date", "$numberLong", "$binary", "$uuid", "$numberDecimal", "$numberDouble"])
def test_a_dict_in_a_mixed_value_never_turns_into_another_type(open_db: OpenDb, key: str) -> None:
    db = open_db(MIXED_KEYS)
    with db.write():
        k = db.create("K", {"id": 1, "x": {"plain": {"a": 1}}})
    for write in (lambda: setattr(k, "x", {key: "1"}), lambda: k.l.append([{key: "1"}]),
                  lambda: k.d.__setitem__("k", {key: "1"}), lambda: db.create("K", {"id": 2, "x": {key: "1"}})):
        with pytest.raises(drumlin.InvalidArgumentError, match=r"keys cannot start with '\$'"):
            with db.write():
                write()
    assert k.x == {"plain": {"a": 1}} and list(k.l) == [] and dict(k.d) == {}
    assert db.get("K", 2) is None


def test_number_conversions_that_would_change_the_value_are_refused(open_db: OpenDb) -> None:
    db = open_db(MIXED_KEYS)
    with db.write():
        k = db.create("K", {"id": 1, "f": 16777216, "n": 2**53})
    with pytest.raises(drumlin.TypeMismatchError, match="outside the float range"):
        with db.write():
            k.f = 1e300
    with pytest.raises(drumlin.TypeMismatchError, match="16777217 cannot be stored as a float"):
        with db.write():
            k.f = 16777217
    with pytest.raises(drumlin.TypeMismatchError, match="cannot be stored as a double"):
        with db.write():
            db.create("K", {"id": 2, "n": 2**53 + 1})
    assert (k.f, k.n) == (16777216.0, float(2**53))
    assert db.get("K", 2) is None


def test_dictionary_keys_that_are_not_strings_are_refused_not_converted() -> None:
    # JSON would store {1: 2} as {"1": 2}, and the value would read back changed (issue #19).
    db = drumlin.open(":memory:", [{"name": "P", "primaryKey": "id",
                                    "properties": {"id": "int", "m": "mixed", "d": "int{}", "md": "mixed{}"}}])
    payloads: list[tuple[dict[str, Any], str]] = [
        ({"id": 1, "m": {"a": {1: 2}}}, "Property 'P.m': the keys of a dictionary in a mixed value are strings, not int (1)."),
        ({"id": 2, "m": [{True: 1}]}, "Property 'P.m': the keys of a dictionary in a mixed value are strings, not bool (True)."),
        ({"id": 3, "md": {"k": {2.5: 3}}}, "Property 'P.md': the keys of a dictionary in a mixed value are strings, not float (2.5)."),
        ({"id": 4, "d": {1: 2}}, "Property 'P.d': dictionary keys are strings, not int."),
    ]
    for payload, message in payloads:
        with pytest.raises(drumlin.TypeMismatchError) as raised, db.write():
            db.create("P", payload)
        assert str(raised.value) == message
        with pytest.raises(drumlin.TypeMismatchError), db.write():
            db.create_many("P", [payload])
    assert db.count("P") == 0
    with db.write():
        p = db.create("P", {"id": 5, "m": {"a": {"1": 2}}})
        with pytest.raises(drumlin.TypeMismatchError, match="not int"):
            p.m = {"a": {1: 2}}
    assert p.m == {"a": {"1": 2}}
    db.close()
