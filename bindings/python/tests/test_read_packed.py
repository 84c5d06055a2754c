"""to_dict()'s packed read (one crossing, Python's marshal format) must give exactly what the
value-by-value read gives, for every value a packable class can hold."""

from __future__ import annotations

import marshal
import math
from ctypes import byref, c_size_t, create_string_buffer
from typing import Any

import pytest

import drumlin
from drumlin import _ffi

SCHEMA = [
    {
        "name": "Row",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "n": "int?",
            "text": "string?",
            "blob": "data?",
            "x": "double?",
            "flag": "bool?",
        },
    },
    {"name": "WithFloat", "primaryKey": "id", "properties": {"id": "int", "f": "float"}},
]


@pytest.fixture
def db(open_db: Any) -> drumlin.Database:
    return open_db(SCHEMA)


def slow_dict(obj: drumlin.Object) -> dict[str, Any]:
    return {name: obj[name] for name in ("id", "n", "text", "blob", "x", "flag")}


@pytest.mark.parametrize(
    "n",
    [0, 1, -1, 2**31 - 1, -(2**31), 2**31, -(2**31) - 1, 2**62, 2**63 - 1, -(2**63), 12345678901234],
)
def test_integers_of_every_width_round_trip(db: drumlin.Database, n: int) -> None:
    with db.write():
        obj = db.create("Row", {"id": 1, "n": n})
    assert obj.to_dict()["n"] == n
    assert type(obj.to_dict()["n"]) is int


def test_every_value_kind_matches_the_value_by_value_read(db: drumlin.Database) -> None:
    with db.write():
        obj = db.create(
            "Row",
            {"id": 7, "n": None, "text": "Grüße, 世界 🌍", "blob": b"\x00\xff\x01", "x": -0.0, "flag": False},
        )
    packed = obj.to_dict()
    assert packed == {
        "id": 7,
        "n": None,
        "text": "Grüße, 世界 🌍",
        "blob": b"\x00\xff\x01",
        "x": -0.0,
        "flag": False,
    }
    assert math.copysign(1.0, packed["x"]) == -1.0
    assert packed == slow_dict(obj)
    assert type(packed["flag"]) is bool and type(packed["blob"]) is bytes


def test_nan_and_infinities_survive(db: drumlin.Database) -> None:
    with db.write():
        nan = db.create("Row", {"id": 1, "x": float("nan")})
        inf = db.create("Row", {"id": 2, "x": float("-inf")})
    assert math.isnan(nan.to_dict()["x"])
    assert inf.to_dict()["x"] == float("-inf")


def test_a_row_larger_than_the_scratch_buffer_is_read_whole(db: drumlin.Database) -> None:
    big = "x" * 100_000 + "end"
    with db.write():
        obj = db.create("Row", {"id": 1, "text": big, "blob": bytes(range(256)) * 100})
        small = db.create("Row", {"id": 2, "text": "small"})
    assert obj.to_dict()["text"] == big
    assert obj.to_dict()["blob"] == bytes(range(256)) * 100
    assert small.to_dict()["text"] == "small"  # the grown buffer is reused correctly


def test_to_dict_is_live(db: drumlin.Database) -> None:
    with db.write():
        obj = db.create("Row", {"id": 1, "text": "before"})
    assert obj.to_dict()["text"] == "before"
    with db.write():
        obj.text = "after"
    assert obj.to_dict()["text"] == "after"


def test_deleted_object_raises_invalidated(db: drumlin.Database) -> None:
    with db.write():
        obj = db.create("Row", {"id": 1})
        db.delete(db.get("Row", 1))  # type: ignore[arg-type]
    with pytest.raises(drumlin.InvalidatedObjectError):
        obj.to_dict()


def test_classes_with_other_types_are_not_packed_and_still_read(db: drumlin.Database) -> None:
    with db.write():
        obj = db.create("WithFloat", {"id": 1, "f": 0.1})
    assert not db._class("WithFloat").packable
    assert db._class("Row").packable
    assert obj.to_dict() == {"id": 1, "f": 0.1}


def test_the_engine_packs_a_float_as_a_tagged_tuple(db: drumlin.Database) -> None:
    with db.write():
        obj = db.create("WithFloat", {"id": 1, "f": 2.5})
    info = db._class("WithFloat")
    size = c_size_t()
    buffer = create_string_buffer(64)
    _ffi.drumlin_object_get_marshal(obj._ptr(), 2, info.all_indices, buffer, 64, byref(size))
    assert marshal.loads(buffer.raw[: size.value]) == {"id": 1, "f": (_ffi.DRUMLIN_TYPE_FLOAT, 2.5)}


def test_a_too_small_buffer_reports_the_size_needed(db: drumlin.Database) -> None:
    with db.write():
        obj = db.create("Row", {"id": 1, "text": "hello"})
    info = db._class("Row")
    size = c_size_t()
    buffer = create_string_buffer(4)
    _ffi.drumlin_object_get_marshal(obj._ptr(), 6, info.all_indices, buffer, 4, byref(size))
    assert size.value > 4
    large = create_string_buffer(size.value)
    _ffi.drumlin_object_get_marshal(obj._ptr(), 6, info.all_indices, large, size.value, byref(size))
    assert marshal.loads(large.raw[: size.value]) == {
        "id": 1, "n": None, "text": "hello", "blob": None, "x": None, "flag": None,
    }
    # The small buffer holds the items that fit whole (dict header, the first name's tag and length); the
    # name's two bytes did not fit, so they were not written.
    assert buffer.raw == large.raw[:3] + b"\x00"


def test_packed_dicts_of_many_objects_write_each_name_once(db: drumlin.Database) -> None:
    with db.write():
        db.create_many("Row", [{"id": i, "text": f"t{i}"} for i in range(50)])
    info = db._class("Row")
    results = db.objects("Row")
    size = c_size_t()
    buffer = create_string_buffer(1 << 16)
    _ffi.drumlin_results_get_marshal(results._ptr(), 6, info.all_indices, buffer, 1 << 16, byref(size))
    packed = buffer.raw[: size.value]
    dicts = marshal.loads(packed)
    assert dicts[7] == {"id": 7, "n": None, "text": "t7", "blob": None, "x": None, "flag": None}
    assert [d["id"] for d in dicts] == list(range(50))
    # Each name is written once (the later objects refer back to it), and the keys are one
    # string shared by all the dicts.
    assert packed.count(b"blob") == 1
    assert dicts[0].keys() == dicts[49].keys()
    assert all(a is b for a, b in zip(dicts[0], dicts[49]))


def test_results_to_dicts_packed_matches_the_json_read(db: drumlin.Database) -> None:
    with db.write():
        db.create_many(
            "Row",
            [
                {
                    "id": i,
                    "n": i * 2**40 if i % 2 else None,
                    "text": f"t{i}é",
                    "blob": bytes([i]),
                    "x": i / 3,
                    "flag": i % 3 == 0,
                }
                for i in range(50)
            ],
        )
    results = db.query("Row", "id >= $0 SORT(id DESC)", 10)
    packed = results.to_dicts()
    assert len(packed) == 40
    assert packed[0] == {
        "id": 49,
        "n": 49 * 2**40,
        "text": "t49é",
        "blob": bytes([49]),
        "x": 49 / 3,
        "flag": False,
    }
    assert [d["id"] for d in packed] == list(range(49, 9, -1))
    assert packed == [obj.to_dict() for obj in results]


def test_results_to_dicts_empty_and_live(db: drumlin.Database) -> None:
    results = db.query("Row", "n == $0", 5)
    assert results.to_dicts() == []
    with db.write():
        db.create("Row", {"id": 1, "n": 5})
    assert results.to_dicts() == [{"id": 1, "n": 5, "text": None, "blob": None, "x": None, "flag": None}]


def test_results_larger_than_the_kept_scratch_area(db: drumlin.Database) -> None:
    big = "y" * 300_000
    with db.write():
        db.create_many("Row", [{"id": i, "text": big} for i in range(5)])  # ~1.5 MB packed
    dicts = db.objects("Row").to_dicts()
    assert [d["text"] == big for d in dicts] == [True] * 5
    assert db.get("Row", 0).to_dict()["text"] == big  # type: ignore[union-attr]


def test_results_of_unpackable_classes_use_the_json_read(db: drumlin.Database) -> None:
    with db.write():
        db.create("WithFloat", {"id": 1, "f": 0.1})
    assert db.objects("WithFloat").to_dicts() == [{"id": 1, "f": 0.1}]


# ---- Database.get_dict: find and packed read in one call -------------------------------------


def test_get_dict_matches_to_dict_for_every_value_kind(db: drumlin.Database) -> None:
    with db.write():
        db.create("Row", {"id": 1, "n": -(2**63), "text": "Grüße 🌍", "blob": b"\x00\xff", "x": 1.25, "flag": True})
        db.create("Row", {"id": 2})
    for key in (1, 2):
        got = db.get_dict("Row", key)
        assert got == db.get("Row", key).to_dict()
        assert list(got) == ["id", "n", "text", "blob", "x", "flag"]
    assert db.get_dict("Row", 1) == {
        "id": 1,
        "n": -(2**63),
        "text": "Grüße 🌍",
        "blob": b"\x00\xff",
        "x": 1.25,
        "flag": True,
    }
    assert db.get_dict("Row", 2) == {"id": 2, "n": None, "text": None, "blob": None, "x": None, "flag": None}


def test_get_dict_of_a_missing_key_is_none(db: drumlin.Database) -> None:
    with db.write():
        db.create("Row", {"id": 1})
    assert db.get_dict("Row", 99) is None
    assert db.get_dict("WithFloat", 1) is None  # the general path agrees


def test_get_dict_is_a_snapshot_that_reads_the_latest_state(db: drumlin.Database) -> None:
    with db.write():
        db.create("Row", {"id": 1, "text": "old"})
    before = db.get_dict("Row", 1)
    with db.write():
        db.get("Row", 1).text = "new"
    assert before["text"] == "old"  # a plain dict: not live
    assert db.get_dict("Row", 1)["text"] == "new"
    with db.write():
        db.delete(db.get("Row", 1))
    assert db.get_dict("Row", 1) is None


def test_get_dict_reads_a_row_larger_than_the_scratch_buffer(db: drumlin.Database) -> None:
    big = "y" * 1_500_000 + "end"  # above the 1 MB kept scratch area too
    with db.write():
        db.create("Row", {"id": 1, "text": big})
        db.create("Row", {"id": 2, "text": "small"})
    assert db.get_dict("Row", 1)["text"] == big
    assert db.get_dict("Row", 2)["text"] == "small"


def test_get_dict_of_an_unpackable_class_takes_the_general_path(db: drumlin.Database) -> None:
    with db.write():
        db.create("WithFloat", {"id": 1, "f": 0.5})
    assert db.get_dict("WithFloat", 1) == {"id": 1, "f": 0.5}


def test_get_dict_errors_name_the_class_and_change_nothing(db: drumlin.Database) -> None:
    with db.write():
        db.create("Row", {"id": 1})
    with pytest.raises(drumlin.NoSuchClassError, match="Nobody"):
        db.get_dict("Nobody", 1)
    with pytest.raises(drumlin.TypeMismatchError, match="Row.id"):
        db.get_dict("Row", "one")
    assert db.get_dict("Row", 1) == {"id": 1, "n": None, "text": None, "blob": None, "x": None, "flag": None}
    db.close()
    with pytest.raises(drumlin.MisuseError):
        db.get_dict("Row", 1)


# ---- Database.query_dicts: query and packed read in one call ---------------------------------


def test_query_dicts_matches_query_to_dicts(db: drumlin.Database) -> None:
    with db.write():
        for i in (5, 3, 9, 1):  # created out of key order: results come in creation order
            db.create("Row", {"id": i, "n": i * 10, "text": f"t{i % 2}", "x": i / 4})
    for query, args in [
        ("text == $0", ("t1",)),
        ("n > $0", (20,)),
        ("x < $0", (1.0,)),
        ("TRUEPREDICATE", ()),
    ]:
        assert db.query_dicts("Row", query, *args) == db.query("Row", query, *args).to_dicts()
    assert [d["id"] for d in db.query_dicts("Row", "text == $0", "t1")] == [5, 3, 9, 1]
    assert [d["id"] for d in db.query_dicts("Row", "n > $0 SORT(n DESC) LIMIT(2)", 20)] == [9, 5]
    assert db.query_dicts("Row", "text == $0", "nothing") == []


def test_query_dicts_sees_writes_and_new_arguments(db: drumlin.Database) -> None:
    with db.write():
        db.create("Row", {"id": 1, "text": "a"})
    assert [d["id"] for d in db.query_dicts("Row", "text == $0", "a")] == [1]
    with db.write():
        db.create("Row", {"id": 2, "text": "a"})
        db.create("Row", {"id": 3, "text": "b"})
    assert [d["id"] for d in db.query_dicts("Row", "text == $0", "a")] == [1, 2]
    assert [d["id"] for d in db.query_dicts("Row", "text == $0", "b")] == [3]
    assert db.query_dicts("Row", "text == $0", None) == []


def test_query_dicts_larger_than_the_kept_scratch_area(db: drumlin.Database) -> None:
    with db.write():
        db.create_many("Row", [{"id": i, "text": "z" * 5000} for i in range(400)])  # ~2 MB packed
    rows = db.query_dicts("Row", "text BEGINSWITH $0", "z")
    assert len(rows) == 400 and rows[-1] == {
        "id": 399,
        "n": None,
        "text": "z" * 5000,
        "blob": None,
        "x": None,
        "flag": None,
    }


def test_query_dicts_of_an_unpackable_class_takes_the_general_path(db: drumlin.Database) -> None:
    with db.write():
        db.create("WithFloat", {"id": 1, "f": 0.5})
        db.create("WithFloat", {"id": 2, "f": 1.5})
    assert db.query_dicts("WithFloat", "f > $0", 1.0) == [{"id": 2, "f": 1.5}]


def test_query_dicts_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError, match="age"):
        db.query_dicts("Row", "age > 3")
    with pytest.raises(drumlin.NoSuchClassError, match="Nobody"):
        db.query_dicts("Nobody", "TRUEPREDICATE")
    with pytest.raises(drumlin.QueryError, match=r"\$1"):
        db.query_dicts("Row", "n == $1", 1)
    with pytest.raises(drumlin.TypeMismatchError, match="query string"):
        db.query_dicts("Row", None)  # type: ignore[arg-type]
    with pytest.raises(drumlin.TypeMismatchError, match="Query arguments: .*'object'"):
        db.query_dicts("Row", "n == $0", object())
    with pytest.raises(drumlin.QueryError, match="Unsupported comparison"):
        db.query_dicts("Row", "n == $0", "five")  # wrong type for the property
    db.close()
    with pytest.raises(drumlin.MisuseError):
        db.query_dicts("Row", "TRUEPREDICATE")


def test_plain_query_arguments_round_trip_exactly(db: drumlin.Database) -> None:
    # Strings, ints, floats, bools and None take a JSON fast path: each must mean what it says.
    texts = ['quote " backslash \\ newline \n', "NUL \0 inside", "Grüße 🌍", "", "ends with \\"]
    with db.write():
        for i, text in enumerate(texts):
            db.create(
                "Row",
                {
                    "id": i,
                    "text": text,
                    "n": -(2**63) + i,
                    "x": [0.1, -0.0, 1e300, 5e-324, 2.5][i],
                    "flag": i % 2 == 0,
                },
            )
    for i, text in enumerate(texts):
        assert [d["id"] for d in db.query_dicts("Row", "text == $0", text)] == [i]
        assert [
            d["id"] for d in db.query_dicts("Row", "n == $0 AND flag == $1", -(2**63) + i, i % 2 == 0)
        ] == [i]
    assert [d["id"] for d in db.query_dicts("Row", "x == $0", 5e-324)] == [3]
    assert [d["id"] for d in db.query_dicts("Row", "blob == $0 AND x > $1", None, 1e299)] == [2]
    assert db.query_dicts("Row", "x == $0", float("nan")) == []  # NaN takes the EJSON path
    with pytest.raises(drumlin.InvalidArgumentError, match="surrogate"):
        db.query_dicts("Row", "text == $0", "\ud800")
    with pytest.raises(drumlin.InvalidArgumentError, match="64 bits"):
        db.query_dicts("Row", "n == $0", 2**64)


def test_get_dict_of_a_class_without_primary_key_is_refused(open_db: Any) -> None:
    db = open_db([{"name": "Note", "properties": {"text": "string"}}], name="nopk.drumlin")
    with db.write():
        db.create("Note", {"text": "a"})
    with pytest.raises(drumlin.InvalidArgumentError, match="'Note' does not have a primary key"):
        db.get_dict("Note", 1)
    assert db.query_dicts("Note", "text == $0", "a") == [{"text": "a"}]
