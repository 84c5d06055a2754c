"""Dicts built from packed values (to_dict, to_dicts, get_dict, query_dicts) must equal what the engine's
Extended JSON gives for the same objects (drumlin_object_to_json / drumlin_results_to_json, decoded
by ejson_loads): every property type, optional and not, empty collections, links to deleted objects
and embedded objects nested two deep, with the same Python types."""

from __future__ import annotations

import datetime
import decimal
import uuid
from typing import Any

import pytest

import drumlin
from drumlin.values import ObjectId, ejson_loads

SCHEMA: list[dict[str, Any]] = [
    {"name": "Target", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
    {"name": "Keyless", "properties": {"n": "int"}},
    {"name": "OidTarget", "primaryKey": "id", "properties": {"id": "objectId"}},
    {"name": "Inner", "embedded": True, "properties": {"depth": "int", "when": "date?", "f": "float"}},
    {"name": "Place", "embedded": True, "properties": {"city": "string", "inner": "Inner", "inners": "Inner[]"}},
    {
        "name": "Every",
        "primaryKey": "id",
        "properties": {
            "id": "int", "b": "bool", "i": "int?", "f": "float", "fo": "float?", "d": "double",
            "dec": "decimal128?", "s": "string", "so": "string?", "data": "data?", "date": "date",
            "oid": "objectId?", "uid": "uuid?", "m": "mixed",
            "link": "Target", "keyless": "Keyless", "oidlink": "OidTarget",
            "place": "Place", "places": "Place[]",
            "ints": "int[]", "dates": "date[]", "floats": "float[]", "decs": "decimal128?[]",
            "strset": "string<>", "uidset": "uuid<>",
            "decdict": "decimal128{}", "strdict": "string?{}",
            "links": "Target[]", "linkset": "Target<>", "linkdict": "Target{}",
            "mlist": "mixed[]", "mdict": "mixed{}",
        },
    },
    {
        "name": "Target2",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "pointed": {"type": "linkingObjects", "objectType": "Back", "property": "to"},
        },
    },
    {"name": "Back", "primaryKey": "id", "properties": {"id": "int", "to": "Target2"}},
]

WHEN = datetime.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=datetime.timezone.utc)


def full(i: int) -> dict[str, Any]:
    return {
        "id": i, "b": True, "i": -7, "f": 0.1, "fo": 3.3, "d": -0.0, "dec": decimal.Decimal("12.50"),
        "s": "grüße 🌍", "so": "", "data": b"\x00\xff", "date": WHEN,
        "oid": ObjectId("65f0a1b2c3d4e5f6a7b8c9d0"), "uid": uuid.UUID(int=5), "m": decimal.Decimal("-1E+3"),
        "link": 1, "keyless": {"n": 4}, "oidlink": {"id": ObjectId("65f0a1b2c3d4e5f6a7b8c9d1")},
        "place": {"city": "Oslo", "inner": {"depth": 2, "when": WHEN, "f": 1.1}, "inners": [{"depth": 3, "f": 0.2}]},
        "places": [{"city": "A", "inners": []}, {"city": "B", "inner": {"depth": 9, "f": 2.5}, "inners": []}],
        "ints": [1, -2, 3], "dates": [WHEN], "floats": [0.1, float("inf")], "decs": [None, decimal.Decimal("0.001")],
        "strset": ["b", "a"], "uidset": [uuid.UUID(int=1)],
        "decdict": {"x": decimal.Decimal("1.5")}, "strdict": {"k": None, "l": "v"},
        "links": [1, 2, 1], "linkset": [2], "linkdict": {"one": 1, "two": 2},
        "mlist": [1, "two", 3.5, None, WHEN, [True, {"deep": b"x"}]],
        "mdict": {"a": {"b": [decimal.Decimal("2")]}, "c": uuid.UUID(int=9)},
    }


def sparse(i: int) -> dict[str, Any]:
    """Optional values unset and collections empty."""
    return {"id": i, "b": False, "f": 1.0, "d": float("nan"), "s": "", "date": WHEN, "m": None}


@pytest.fixture
def db(open_db: Any) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create("Target", {"id": 1, "name": "one"})
        db.create("Target", {"id": 2, "name": "two"})
        db.create("Target", {"id": 3, "name": "three"})
        db.create("Every", full(10))
        db.create("Every", sparse(11))
        mixed_links = full(12)
        mixed_links["m"] = db.get("Target", 3)
        mixed_links["mlist"] = [db.get("Target", 2), db.get("Target", 1)]
        mixed_links["mdict"] = {"t": db.get("Target", 2)}
        mixed_links["links"] = [3, 2]
        mixed_links["link"] = 3
        mixed_links["oidlink"] = {"id": ObjectId("65f0a1b2c3d4e5f6a7b8c9d2")}
        mixed_links["linkdict"] = {"three": 3}
        db.create("Every", mixed_links)
        db.create("Target2", {"id": 1})
        db.create("Back", {"id": 1, "to": 1})
    return db


def by_json(obj: Any) -> dict[str, Any]:
    result: dict[str, Any] = ejson_loads(obj.to_json())
    return result


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types (NaN equal to NaN, -0.0 not equal to 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return repr(a) == repr(b)
    if isinstance(a, decimal.Decimal):
        return str(a) == str(b)
    return bool(a == b)


def assert_same(rows: Any, json: Any) -> None:
    assert same(rows, json), f"\nrows: {rows!r}\njson: {json!r}"


@pytest.mark.parametrize("key", [10, 11, 12])
def test_to_dict_and_get_dict_match_the_json_route(db: drumlin.Database, key: int) -> None:
    obj = db.get("Every", key)
    expected = by_json(obj)
    assert_same(obj.to_dict(), expected)
    assert_same(db.get_dict("Every", key), expected)


def test_values_have_the_python_types_of_the_json_route(db: drumlin.Database) -> None:
    found = db.get_dict("Every", 10)
    assert found is not None
    assert found["f"] == 0.1 and found["date"] == WHEN and found["dec"] == decimal.Decimal("12.50")
    assert found["link"] == 1 and found["keyless"] == 1 and found["oidlink"] == ObjectId("65f0a1b2c3d4e5f6a7b8c9d1")
    assert found["place"] == {"city": "Oslo", "inner": {"depth": 2, "when": WHEN, "f": 1.1},
                              "inners": [{"depth": 3, "when": None, "f": 0.2}]}
    assert found["links"] == [1, 2, 1] and found["linkdict"] == {"one": 1, "two": 2}
    assert found["mlist"] == [1, "two", 3.5, None, WHEN, [True, {"deep": b"x"}]]
    with_links = db.get_dict("Every", 12)
    assert with_links is not None
    assert with_links["m"] == {"$link": {"class": "Target", "key": db.get("Target", 3)._drumlin_object_key()}}


def test_to_dicts_and_query_dicts_match_the_json_route(db: drumlin.Database) -> None:
    results = db.objects("Every")
    expected = ejson_loads(results.to_json())
    assert len(expected) == 3
    assert_same(results.to_dicts(), expected)
    assert_same(db.query_dicts("Every", "id >= $0", 10), expected)
    assert_same(db.query_dicts("Every", "id == 11"), [expected[1]])


def test_links_to_deleted_objects_read_as_the_json_route_reads_them(db: drumlin.Database) -> None:
    with db.write():
        db.delete(db.get("Target", 2))
        db.delete(db.get("Target", 3))
    for key in (10, 12):
        obj = db.get("Every", key)
        assert_same(obj.to_dict(), by_json(obj))
    assert_same(db.objects("Every").to_dicts(), ejson_loads(db.objects("Every").to_json()))
    assert db.get_dict("Every", 12)["link"] is None  # type: ignore[index]


def test_linking_objects_are_left_out(db: drumlin.Database) -> None:
    assert db.get_dict("Target2", 1) == {"id": 1}
    assert db.get_dict("Back", 1) == {"id": 1, "to": 1}
    assert list(db.get("Target2", 1).pointed) == [db.get("Back", 1)]


def test_embedded_and_collection_attributes_stay_live(db: drumlin.Database) -> None:
    obj = db.get("Every", 10)
    place = obj.place
    assert isinstance(place, drumlin.Object) and type(place).__name__ == "Place"
    assert place.city == "Oslo" and place.inner.depth == 2
    tags = obj.ints
    assert isinstance(tags, drumlin.List)
    with db.write():
        tags.append(4)
        place.city = "Bergen"
    assert list(obj.ints) == [1, -2, 3, 4]
    assert obj.place.city == "Bergen"
    assert obj.to_dict()["place"]["city"] == "Bergen"
    assert obj.to_dict()["ints"] == [1, -2, 3, 4]


def test_a_row_larger_than_the_arena_is_read_whole(db: drumlin.Database) -> None:
    big = ["x" * 1000] * 40  # 40 kB of strings: more than the 16 kB arena
    with db.write():
        db.get("Every", 11).mlist = big
    assert db.get_dict("Every", 11)["mlist"] == big  # type: ignore[index]
    assert db.get("Every", 11).to_dict()["mlist"] == big
    assert db.objects("Every").to_dicts()[1]["mlist"] == big
    big_text = "y" * 40000
    with db.write():
        db.get("Every", 11).s = big_text
    assert db.get("Every", 11).s == big_text  # an object's row, grown the same way


def test_object_rows_hold_the_row_an_embedded_row_and_mixed_values(db: drumlin.Database) -> None:
    # An object read keeps its row: in-row values; a link as (DRUMLIN_TYPE_LINK, class, key) with
    # its target's row as a fourth item (an embedded object's nested: its embedded object too); a
    # mixed value as what it holds; a short collection of values as its items; collections of
    # links or mixed values None (read when asked for).
    LINK, LIST, DICTIONARY = (drumlin._ffi.DRUMLIN_TYPE_LINK, drumlin._ffi.DRUMLIN_TYPE_LIST,
                              drumlin._ffi.DRUMLIN_TYPE_DICTIONARY)
    obj = db.get("Every", 10)
    row = obj._drumlin_row
    info = db._class("Every")
    at = {p.name: p.index for p in info.properties}
    assert len(row) == len(info.properties) + 1 and row[-1] == obj._drumlin_object_key()
    assert row[at["s"]] == "grüße 🌍" and row[at["i"]] == -7
    assert row[at["ints"]] == [1, -2, 3]
    for name in ("links", "linkdict", "mlist", "mdict", "places"):
        assert row[at[name]] is None, name
    assert row[at["m"]][0] == drumlin._ffi.DRUMLIN_TYPE_DECIMAL128 and obj.m == decimal.Decimal("-1E+3")
    target = db.get("Target", 1)
    target_key = target._drumlin_object_key()
    assert row[at["link"]] == (LINK, target._drumlin_class.index, target_key, target._drumlin_row)
    assert obj.link._drumlin_row == target._drumlin_row and obj.link._drumlin_row[-1] == target_key
    place_info = db._class("Place")
    link, place_class, place_key, place = row[at["place"]]
    assert (link, place_class) == (LINK, place_info.index)
    assert len(place) == len(place_info.properties) + 1 and place[0] == "Oslo" and place[-1] == place_key
    _, _, _, inner = place[[p.name for p in place_info.properties].index("inner")]
    assert inner[0] == 2 and inner[1] == "2024-05-06T07:08:09.123456+00:00"  # a date: fromisoformat's text
    assert obj.place._drumlin_row == place and obj.place.inner.when == WHEN
    # Objects of results keep the link only: the embedded row is read when first used; and no
    # collection.
    from_results = next(iter(db.query("Every", "id == 10")))
    assert from_results._drumlin_row[at["place"]] == (LINK, place_info.index, place_key)
    assert from_results._drumlin_row[at["link"]] == (LINK, target._drumlin_class.index, target_key)
    assert from_results._drumlin_row[at["ints"]] is None
    assert from_results.place.city == "Oslo" and from_results.place.inner.when == WHEN
    assert obj.place.city == "Oslo" and list(obj.ints) == [1, -2, 3]
    # A mixed value holding a link, a nested list, a nested dictionary, nothing.
    with db.write():
        obj.m = target
    assert obj._drumlin_current_row()[at["m"]] == (LINK, target._drumlin_class.index, target._drumlin_object_key())
    assert obj.m == target
    with db.write():
        obj.m = [1, {"a": WHEN}]
    assert obj._drumlin_current_row()[at["m"]] == (LIST,) and obj.m == [1, {"a": WHEN}]
    with db.write():
        obj.m = {"k": [2.5]}
    assert obj._drumlin_current_row()[at["m"]] == (DICTIONARY,) and obj.m == {"k": [2.5]}
    with db.write():
        obj.m = None
    assert obj._drumlin_current_row()[at["m"]] is None and obj.m is None
