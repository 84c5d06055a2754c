"""Every value type round-trips (typed create, JSON create_many, attribute read, to_dict), and
wrong types are refused with the documented exception."""

from __future__ import annotations

import math
import pickle
import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from enum import IntEnum
from typing import Any

import pytest
from conftest import OpenDb

import drumlin
from drumlin import values as cv

ALL_TYPES = [
    {
        "name": "Box",
        "primaryKey": "k",
        "properties": {
            "k": "int",
            "b": "bool?",
            "i": "int?",
            "f": "float?",
            "d": "double?",
            "dec": "decimal128?",
            "s": "string?",
            "data": "data?",
            "date": "date?",
            "oid": "objectId?",
            "u": "uuid?",
            "m": "mixed",
        },
    }
]


@pytest.fixture
def box(open_db: OpenDb) -> drumlin.Database:
    return open_db(ALL_TYPES)


def round_trip(db: drumlin.Database, prop: str, value: Any) -> list[Any]:
    """Store `value` through the typed path and through create_many (JSON); read both back as an
    attribute and through to_dict. Returns the four values read."""
    key = db.count("Box") + 1
    with db.write():
        typed = db.create("Box", {"k": key, prop: value})
        assert db.create_many("Box", [{"k": key + 100000, prop: value}]) == 1
    via_json = db.get("Box", key + 100000)
    return [getattr(typed, prop), via_json[prop], typed.to_dict()[prop], via_json.to_dict()[prop]]


def assert_all(read: list[Any], expected: Any) -> None:
    for value in read:
        assert type(value) is type(expected), read
        assert value == expected, read


# ---- Scalars -----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, False])
def test_bool_round_trips_and_stays_bool(box: drumlin.Database, value: bool) -> None:
    assert_all(round_trip(box, "b", value), value)


@pytest.mark.parametrize("value", [0, 1, -1, 2**63 - 1, -(2**63)])
def test_int_round_trips_to_the_int64_limits(box: drumlin.Database, value: int) -> None:
    assert_all(round_trip(box, "i", value), value)


def test_int_beyond_64_bits_is_refused_before_crossing(box: drumlin.Database) -> None:
    with box.write():
        for value in (2**63, -(2**63) - 1, 10**30):
            with pytest.raises(drumlin.InvalidArgumentError, match="does not fit in 64 bits"):
                box.create("Box", {"k": 1, "i": value})
    assert box.count("Box") == 0


def test_attribute_writes_of_numbers_reach_the_int64_limits_and_no_further(box: drumlin.Database) -> None:
    # obj.i = v packs the object key and the number into one buffer; an int that does not fit
    # leaves that write to the descriptor's, which refuses it, and the object as it was.
    with box.write():
        first, second = box.create("Box", {"k": 1, "i": 5}), box.create("Box", {"k": 2, "i": 6})
        for value in (2**63 - 1, -(2**63), 0):
            first.i = value
            second.i = -1
            assert (first.i, second.i) == (value, -1)
        for value in (2**63, -(2**63) - 1, 10**30):
            with pytest.raises(drumlin.InvalidArgumentError, match="does not fit in 64 bits"):
                first.i = value
        first.f, first.b = 2.5, True
    assert (first.i, second.i, first.f, first.b) == (0, -1, 2.5, True)
    assert (box.get("Box", 1).i, box.get("Box", 2).i) == (0, -1)


def test_bool_is_not_an_int(box: drumlin.Database) -> None:
    with box.write():
        with pytest.raises(drumlin.TypeMismatchError, match="expected int, got bool"):
            box.create("Box", {"k": 1, "i": True})
        with pytest.raises(drumlin.TypeMismatchError, match="expected bool, got int"):
            box.create("Box", {"k": 1, "b": 1})
        with pytest.raises(drumlin.TypeMismatchError, match="expected int, got bool"):
            box.create_many("Box", [{"k": 1, "i": False}])


def test_int_enum_is_stored_as_its_int(box: drumlin.Database) -> None:
    class Color(IntEnum):
        RED = 7

    with box.write():
        box.create("Box", {"k": 1, "i": Color.RED})
    value = box.get("Box", 1).i
    assert value == 7 and type(value) is int


@pytest.mark.parametrize("value", [0.0, -0.0, 1.5, 1e308, 5e-324, 0.1])
def test_double_round_trips(box: drumlin.Database, value: float) -> None:
    read = round_trip(box, "d", value)
    assert_all(read, value)
    assert all(math.copysign(1, v) == math.copysign(1, value) for v in read)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_doubles_round_trip(box: drumlin.Database, value: float) -> None:
    for read in round_trip(box, "d", value):
        assert type(read) is float
        assert (math.isnan(read) and math.isnan(value)) or read == value


def test_int_is_widened_for_a_double_property(box: drumlin.Database) -> None:
    assert_all(round_trip(box, "d", 3), 3.0)


@pytest.mark.parametrize("value, expected", [(0.1, 0.1), (1 / 3, 0.33333334), (16777217.0, 16777216.0)])
def test_float_property_reads_the_shortest_float32_spelling(
    box: drumlin.Database, value: float, expected: float
) -> None:
    assert_all(round_trip(box, "f", value), expected)


@pytest.mark.parametrize(
    "value",
    [
        "0",
        "-0",
        "1.10",
        "123456789012345678901234567890.1234",
        "9999999999999999999999999999999999E6111",
        "-1E-6176",
        "0E-10",
        "NaN",
        "Infinity",
        "-Infinity",
    ],
)
def test_decimal_round_trips_exactly(box: drumlin.Database, value: str) -> None:
    for read in round_trip(box, "dec", Decimal(value)):
        assert type(read) is Decimal
        # Same sign, digits and exponent: 1.10 stays 1.10, -0 stays -0.
        assert read.as_tuple() == Decimal(value).as_tuple()


def test_decimal_beyond_34_digits_is_refused(box: drumlin.Database) -> None:
    with box.write(), pytest.raises(drumlin.InvalidArgumentError, match="cannot be stored exactly"):
        box.create("Box", {"k": 1, "dec": Decimal("1.2345678901234567890123456789012345")})


def test_int_is_converted_for_a_decimal_property(box: drumlin.Database) -> None:
    assert_all(round_trip(box, "dec", 12), Decimal("12"))


@pytest.mark.parametrize("value", ["", "text", "a\0b", "Grüße, 世界 🎉", "'; DROP TABLE Box; --"])
def test_string_round_trips_with_nul_and_unicode(box: drumlin.Database, value: str) -> None:
    assert_all(round_trip(box, "s", value), value)


def test_string_with_lone_surrogate_is_refused(box: drumlin.Database) -> None:
    with box.write(), pytest.raises(drumlin.InvalidArgumentError, match="not valid Unicode"):
        box.create("Box", {"k": 1, "s": "\ud800"})


@pytest.mark.parametrize("value", [b"", b"\x00\x01\xff", bytes(range(256)) * 40])
def test_bytes_round_trip(box: drumlin.Database, value: bytes) -> None:
    assert_all(round_trip(box, "data", value), value)


def test_bytearray_and_memoryview_are_stored_as_bytes(box: drumlin.Database) -> None:
    with box.write():
        box.create("Box", {"k": 1, "data": bytearray(b"ab")})
        box.create("Box", {"k": 2, "data": memoryview(b"cd")})
    assert box.get("Box", 1).data == b"ab"
    assert box.get("Box", 2).data == b"cd"


UTC = timezone.utc


@pytest.mark.parametrize(
    "value",
    [
        datetime(2024, 3, 18, 13, 50, 58, 402979, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(1900, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
        datetime(1970, 1, 1, tzinfo=UTC),
    ],
)
def test_aware_utc_datetime_round_trips_with_microseconds(box: drumlin.Database, value: datetime) -> None:
    assert_all(round_trip(box, "date", value), value)


def test_naive_datetime_is_taken_as_utc(box: drumlin.Database) -> None:
    read = round_trip(box, "date", datetime(2020, 5, 17, 8, 30, 0, 250))
    assert_all(read, datetime(2020, 5, 17, 8, 30, 0, 250, tzinfo=UTC))
    assert all(value.tzinfo is UTC for value in read)


def test_other_time_zones_are_converted_to_utc(box: drumlin.Database) -> None:
    plus_two = timezone(timedelta(hours=2))
    read = round_trip(box, "date", datetime(2024, 3, 18, 13, 0, tzinfo=plus_two))
    assert_all(read, datetime(2024, 3, 18, 11, 0, tzinfo=UTC))


def test_nanoseconds_are_truncated_to_microseconds(box: drumlin.Database) -> None:
    with box.write():
        box.create_many("Box", [{"k": 1, "date": {"$date": "2024-03-18T13:50:58.402979999Z"}}])
    obj = box.get("Box", 1)
    expected = datetime(2024, 3, 18, 13, 50, 58, 402979, tzinfo=UTC)
    assert obj.date == expected
    assert obj.to_dict()["date"] == expected


def test_object_id_round_trips(box: drumlin.Database) -> None:
    oid = drumlin.ObjectId()
    assert_all(round_trip(box, "oid", oid), oid)


def test_uuid_round_trips(box: drumlin.Database) -> None:
    value = uuid.uuid4()
    assert_all(round_trip(box, "u", value), value)


def test_none_round_trips_for_every_optional_type(box: drumlin.Database) -> None:
    with box.write():
        box.create("Box", {"k": 1})
    expected = {name: None for name in ALL_TYPES[0]["properties"]} | {"k": 1}
    assert box.get("Box", 1).to_dict() == expected


@pytest.mark.parametrize(
    "value",
    [
        True,
        7,
        2.5,
        "text",
        Decimal("1.5"),
        b"raw",
        drumlin.ObjectId("65f1c0ffee00000000000001"),
        uuid.UUID("12345678-1234-5678-1234-567812345678"),
        datetime(2001, 2, 3, 4, 5, 6, 7, tzinfo=UTC),
        None,
    ],
)
def test_mixed_keeps_the_exact_type(box: drumlin.Database, value: Any) -> None:
    assert_all(round_trip(box, "m", value), value)


def test_mixed_keeps_int_and_double_apart(box: drumlin.Database) -> None:
    assert_all(round_trip(box, "m", 3), 3)
    assert_all(round_trip(box, "m", 3.0), 3.0)


NESTED = [1, "two", {"three": [3.0, None, {"deep": [True]}]}, []]


def test_mixed_nested_lists_and_dictionaries_round_trip_as_plain_values(box: drumlin.Database) -> None:
    for value in (NESTED, {"a": NESTED, "b": {}}):
        assert_all(round_trip(box, "m", value), value)


def test_mixed_nested_values_can_be_assigned_and_updated(open_db: OpenDb) -> None:
    db = open_db([*ALL_TYPES, {"name": "Note", "properties": {"text": "string", "extra": "mixed"}}])
    with db.write():
        note = db.create("Note", {"text": "x", "extra": {"tags": ["a", "b"]}})  # no primary key
        box = db.create("Box", {"k": 1, "m": [1]})
        box.m = {"replaced": (1, 2)}
        note.update({"text": "y", "extra": [{"n": None}]})
    assert box.m == {"replaced": [1, 2]}
    assert note.to_dict() == {"text": "y", "extra": [{"n": None}]}


def test_mixed_nesting_beyond_100_levels_writes_nothing(open_db: OpenDb) -> None:
    db = open_db([*ALL_TYPES, {"name": "Note", "properties": {"extra": "mixed"}}])

    def nested(levels: int) -> Any:
        value: Any = "leaf"
        for _ in range(levels):
            value = [value]
        return value

    with db.write():
        db.create("Box", {"k": 1, "m": nested(100)})
        for attempt in (
            lambda: db.create("Box", {"k": 2, "m": nested(101)}),
            lambda: db.create("Note", {"extra": nested(101)}),
            lambda: db.create_many("Note", [{"extra": nested(101)}]),
        ):
            with pytest.raises(drumlin.LimitError, match="at most 100 levels deep"):
                attempt()
    assert db.count("Box") == 1
    assert db.count("Note") == 0
    assert db.get("Box", 1).m == nested(100)


# ---- Wrong Python types -------------------------------------------------------------------------


@pytest.mark.parametrize("value", [object(), {1, 2}, 1j, datetime.now().date()])
def test_unsupported_python_types_raise_type_mismatch(box: drumlin.Database, value: Any) -> None:
    with box.write():
        with pytest.raises(drumlin.TypeMismatchError, match="Cannot store a value of Python type"):
            box.create("Box", {"k": 1, "m": value})
        with pytest.raises(drumlin.TypeMismatchError):
            box.create_many("Box", [{"k": 1, "m": value}])
    assert box.count("Box") == 0


def test_wrong_type_for_a_property_names_class_and_property(box: drumlin.Database) -> None:
    with box.write():
        box.create("Box", {"k": 1})
        obj = box.get("Box", 1)
        with pytest.raises(drumlin.TypeMismatchError) as caught:
            obj.u = "not a uuid"
    assert caught.value.message == "Type mismatch for property 'Box.u': expected uuid, got string."


# ---- ObjectId ------------------------------------------------------------------------------------


def test_object_id_generation_is_unique_and_ordered() -> None:
    ids = [drumlin.ObjectId() for _ in range(1000)]
    assert len(set(ids)) == 1000
    assert ids == sorted(ids)


def test_object_id_hex_and_bytes_forms() -> None:
    oid = drumlin.ObjectId("65F1C0FFEE00000000000001")
    assert oid.hex == str(oid) == "65f1c0ffee00000000000001"
    assert oid.bytes == bytes(oid) == bytes.fromhex("65f1c0ffee00000000000001")
    assert drumlin.ObjectId(oid.bytes) == oid
    assert drumlin.ObjectId.from_hex(oid.hex) == oid
    assert drumlin.ObjectId.from_bytes(bytearray(oid.bytes)) == oid
    assert drumlin.ObjectId(oid) == oid
    assert repr(oid) == "ObjectId('65f1c0ffee00000000000001')"


def test_object_id_equality_hashing_and_ordering() -> None:
    low = drumlin.ObjectId("000000000000000000000001")
    high = drumlin.ObjectId("000000000000000000000002")
    assert low == drumlin.ObjectId("000000000000000000000001")
    assert low != high and low < high <= high and high > low >= low
    assert len({low, drumlin.ObjectId(low.hex), high}) == 2
    assert low != "000000000000000000000001"
    with pytest.raises(TypeError):
        low < "x"  # noqa: B015


def test_object_id_generation_time_and_immutability() -> None:
    oid = drumlin.ObjectId("65f1c0ff0000000000000000")
    assert oid.generation_time == datetime(2024, 3, 13, 15, 6, 39, tzinfo=UTC)
    with pytest.raises(AttributeError):
        oid._bytes = b"x" * 12  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(oid)) == oid


@pytest.mark.parametrize(
    "bad", ["", "xyz", "65f1c0ffee0000000000000g", "65f1c0ffee000000000000011", b"short"]
)
def test_invalid_object_ids_raise_invalid_argument(bad: Any) -> None:
    with pytest.raises(drumlin.InvalidArgumentError):
        drumlin.ObjectId(bad)
    assert not drumlin.ObjectId.is_valid(bad)


def test_object_id_from_the_wrong_type_raises_type_mismatch() -> None:
    with pytest.raises(drumlin.TypeMismatchError):
        drumlin.ObjectId(12)  # type: ignore[arg-type]


# ---- Codecs, without the library ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, low, high",
    [
        ("1", 1, 0x3040000000000000),
        ("-1", 1, 0xB040000000000000),
        ("0.1", 1, 0x303E000000000000),
        ("0", 0, 0x3040000000000000),
        ("NaN", 0, 0x7C00000000000000),
        ("Infinity", 0, 0x7800000000000000),
        ("-Infinity", 0, 0xF800000000000000),
        ("9999999999999999999999999999999999", 0x378D8E63FFFFFFFF, 0x3041ED09BEAD87C0),
    ],
)
def test_decimal128_bid_encoding_matches_the_standard(text: str, low: int, high: int) -> None:
    assert cv.decimal_to_bid(Decimal(text)) == (low, high)
    assert cv.bid_to_decimal(low, high).as_tuple() == Decimal(text).as_tuple()


def test_non_canonical_bid_reads_as_zero() -> None:
    # A coefficient above 10**34 - 1 is non-canonical; the standard reads it as 0.
    assert cv.bid_to_decimal((1 << 64) - 1, 0x3041FFFFFFFFFFFF) == 0
    assert cv.bid_to_decimal(0, 0x6000000000000000 | (6176 << 47)) == 0


def test_extended_json_round_trip() -> None:
    value = {
        "date": datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
        "dec": Decimal("1.10"),
        "bin": b"\x00\x01",
        "u": uuid.UUID(int=1),
        "oid": drumlin.ObjectId("65f1c0ffee00000000000001"),
        "nan": math.inf,
        "list": [1, 2.5, None, True],
    }
    text = cv.ejson_dumps(value)
    assert '"$numberDouble":"Infinity"' in text
    assert '"$date":"2024-01-02T03:04:05.000006Z"' in text
    assert cv.ejson_loads(text) == value


def test_extended_json_date_forms() -> None:
    assert cv.ejson_loads('{"$date": {"$numberLong": "-1000"}}') == datetime(
        1969, 12, 31, 23, 59, 59, tzinfo=UTC
    )
    assert cv.ejson_loads('{"$date": "2024-03-18T15:50:58.4+02:00"}') == datetime(
        2024, 3, 18, 13, 50, 58, 400000, tzinfo=UTC
    )


def test_deeply_nested_values_raise_limit_error() -> None:
    value: Any = []
    for _ in range(100000):
        value = [value]
    with pytest.raises(drumlin.LimitError):
        cv.ejson_dumps(value)


def test_circular_values_raise_invalid_argument() -> None:
    value: list[Any] = []
    value.append(value)
    with pytest.raises(drumlin.InvalidArgumentError, match="circular"):
        cv.ejson_dumps(value)
