"""Realm's own parser tests (realm-core test/test_parser.cpp), ported where Drumlin answered
differently, about values: NULL with string operators, mixed values against binaries, the
`@type` of a typed property (a constant), binary arguments, geo shapes given as strings, set
equality and a number written right after another. Each fixture mirrors the Realm test's."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin


# Parser_StringOperations: six names, a father link to the next, and one object without a name.
@pytest.fixture
def people(open_db: OpenDb) -> drumlin.Database:
    db = open_db([{"name": "person", "properties": {"name": "string?", "father": "person"}}])
    with db.write():
        rows = [db.create("person", {"name": n}) for n in ["Billy", "Bob", "Joe", "Jake", "Joel", "Unicorn"]]
        for i, row in enumerate(rows):
            row.father = rows[(i + 1) % len(rows)] if i != 4 else None
        db.create("person", {})
    return db


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("NULL LIKE name", [None]),
        ("NULL LIKE[c] name", [None]),
        ("name LIKE NULL", [None]),
        ("NULL CONTAINS name", []),
        ("NULL BEGINSWITH[c] name", []),
        ("name CONTAINS[c] NULL", ["Billy", "Bob", "Joe", "Jake", "Joel", "Unicorn", None]),
    ],
)
def test_null_with_string_operators(people: drumlin.Database, query: str, expected: list[Any]) -> None:
    assert [p.name for p in people.query("person", query)] == expected


# Parser_Timestamps (binary part): knife, plate, fork, and two defaults (empty; null when nullable).
@pytest.fixture
def items(open_db: OpenDb) -> drumlin.Database:
    properties = {"id": "int", "data": "data", "nullable_data": "data?"}
    db = open_db([{"name": "item", "primaryKey": "id", "properties": properties}])
    with db.write():
        for i, data in enumerate([b"knife", b"plate", b"fork"]):
            db.create("item", {"id": i, "data": data, "nullable_data": data})
        for i in (3, 4):
            db.create("item", {"id": i, "data": b""})
    return db


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("nullable_data CONTAINS NULL", [0, 1, 2, 3, 4]),
        ("nullable_data CONTAINS[c] NULL", [0, 1, 2]),  # Realm: a null binary does not
        ("nullable_data BEGINSWITH[c] NULL", [0, 1, 2, 3, 4]),
        ("nullable_data LIKE NULL", [3, 4]),
        ("NULL LIKE nullable_data", [3, 4]),
        ("NULL LIKE[c] nullable_data", [3, 4]),
        ("NULL CONTAINS[c] nullable_data", []),
    ],
)
def test_null_with_binary_operators(items: drumlin.Database, query: str, expected: list[int]) -> None:
    assert [i.id for i in items.query("item", query)] == expected


def test_a_binary_argument_is_no_string(people: drumlin.Database) -> None:
    # Parser_Arguments: `name == $6` with a BinaryData argument is refused.
    message = r"^Unsupported comparison between type 'string' and type 'data'"
    with pytest.raises(drumlin.QueryError, match=message):
        people.query("person", "name == $0", b"Bob")
    assert [p.name for p in people.query("person", "name == bin('Bob')")] == ["Bob"]  # a literal converts


# Parser_Mixed: strings, ints, one binary 'String2Binary'.
@pytest.fixture
def mixed(open_db: OpenDb) -> drumlin.Database:
    properties = {"id": "int", "mixed": "mixed", "int": "int"}
    db = open_db([{"name": "Foo", "primaryKey": "id", "properties": properties}])
    with db.write():
        values: list[Any] = ["String20", "String24", b"String2Binary", 3, "string4", None]
        for i, value in enumerate(values):
            db.create("Foo", {"id": i, "mixed": value, "int": i})
    return db


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('mixed BEGINSWITH B64"U3RyaW5nMg=="', [0, 1]),  # 'String2': a string, as Realm reads B64"…" here
        ('mixed BEGINSWITH bin(B64"U3RyaW5nMg==")', [2]),
        ('mixed == B64"U3RyaW5nMjA="', [0]),
        ('mixed ==[c] binary("string2binary")', [2]),
        ('mixed !=[c] bin("string2binary")', [0, 1, 3, 4, 5]),
        ('mixed ==[c] "string2binary"', []),
        ('mixed == bin("String2Binary")', [2]),
    ],
)
def test_mixed_against_binary(mixed: drumlin.Database, query: str, expected: list[int]) -> None:
    assert [f.id for f in mixed.query("Foo", query)] == expected


# Parser_TypeOfValue: a typed property's @type is a constant.
@pytest.fixture
def typed(open_db: OpenDb) -> drumlin.Database:
    db = open_db(
        [
            {"name": "Foo", "primaryKey": "id", "properties": {"id": "int", "mixed": "mixed", "int": "int"}},
            {
                "name": "Origin",
                "primaryKey": "id",
                "properties": {"id": "int", "link": "Foo", "links": "Foo[]"},
            },
        ]
    )
    with db.write():
        values: list[Any] = [1, "two", 3.5, None]
        foos = [db.create("Foo", {"id": i, "mixed": v, "int": i}) for i, v in enumerate(values)]
        foos[3].mixed = foos[0]
        db.create("Origin", {"id": 0, "link": foos[0], "links": foos[:3]})
        db.create("Origin", {"id": 1, "link": foos[3], "links": foos})
    return db


def test_type_of_a_typed_property_is_a_constant(typed: drumlin.Database) -> None:
    assert [f.id for f in typed.query("Foo", "mixed.@type == int.@type")] == [0]
    assert [o.id for o in typed.query("Origin", "links.@type == links.mixed.@type")] == [1]
    assert [o.id for o in typed.query("Origin", "link.@type == link.mixed.@type")] == [1]


@pytest.mark.parametrize(
    ("class_name", "query", "message"),
    [
        (
            "Foo",
            "int.@type == 'int'",
            "Comparison between two constants is not supported ('\"int\"' and '\"int\"')",
        ),
        (
            "Origin",
            "link.@type == 'objectlink'",
            "Comparison between two constants is not supported ('\"objectlink\"' and '\"objectlink\"')",
        ),
        (
            "Foo",
            "mixed.@type =[c] 'string'",
            "Unsupported comparison operator '=[c]' against type '@type', "
            "right side must be a string or binary type",
        ),
    ],
)
def test_type_of_errors(typed: drumlin.Database, class_name: str, query: str, message: str) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        typed.query(class_name, query)
    assert caught.value.message.startswith(message)


# Parser_Geospatial: restaurants, each with every other as a partner; one without a location.
@pytest.fixture
def places(open_db: OpenDb) -> drumlin.Database:
    db = open_db(
        [
            {
                "name": "Place",
                "primaryKey": "name",
                "properties": {"name": "string", "location": "GeoPoint", "partners": "Place[]"},
            },
            {
                "name": "GeoPoint",
                "embedded": True,
                "properties": {"type": "string", "coordinates": "double[]"},
            },
        ]
    )
    spots = {"one": (0.5, 0.5), "two": (0.9, 0.1), "three": (5, 5)}
    with db.write():
        rows = [
            db.create("Place", {"name": n, "location": {"type": "Point", "coordinates": list(c)}})
            for n, c in spots.items()
        ]
        for row in rows:
            for other in rows:
                if other is not row:
                    row.partners.append(other)
        db.create("Place", {"name": "empty"})
    return db


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ("geoBox([0.2, 0.2], [0.7, 0.7])", ["one"]),
        ("geoCircle([0.3, 0.3], 1)", ["one", "two", "three"]),  # 1 radian
        ("geoPolygon({[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]})", ["one", "two"]),
    ],
)
def test_a_shape_written_as_a_string_argument(
    places: drumlin.Database, shape: str, expected: list[str]
) -> None:
    assert [p.name for p in places.query("Place", "location GEOWITHIN $0", shape)] == expected
    assert [p.name for p in places.query("Place", f"location GEOWITHIN {shape}")] == expected


def test_a_string_that_is_no_shape_is_refused(places: drumlin.Database) -> None:
    with pytest.raises(drumlin.QueryError, match="A geo shape argument must be a shape"):
        places.query("Place", "location GEOWITHIN $0", "string value")


def test_all_needs_a_point(places: drumlin.Database) -> None:
    box = "geoBox([0, 0], [1, 1])"
    assert [p.name for p in places.query("Place", f"ALL partners.location GEOWITHIN {box}")] == ["three"]
    assert [p.name for p in places.query("Place", f"NONE partners.location GEOWITHIN {box}")] == ["empty"]


# Parser_SetMixed: a set is compared with a constant list in its own order (Realm's sort order).
def test_set_equality_follows_the_sets_order(open_db: OpenDb) -> None:
    db = open_db([{"name": "foo", "primaryKey": "id", "properties": {"id": "int", "set": "mixed<>"}}])
    with db.write():
        db.create("foo", {"id": 0, "set": [3, "hello", 300]})
        db.create("foo", {"id": 1, "set": [300]})
        db.create("foo", {"id": 2, "set": []})

    def ids(query: str) -> list[int]:
        return [f.id for f in db.query("foo", query)]

    assert ids("set == {300, 3, 'hello'}") == []
    assert ids("set == {3, 300, 'hello'}") == [0]
    assert ids("set == {300}") == [1]
    assert ids("set == {}") == [2]
    assert ids("set != {3, 300, 'hello'}") == [1, 2]


@pytest.mark.parametrize("query", ["1-0 = 1", "1+0 = 1", "(1)-2 == 3"])
def test_a_signed_number_right_after_a_value_is_a_syntax_error(people: drumlin.Database, query: str) -> None:
    # Realm reads `-0` in `1-0` as the number -0: two values in a row.
    with pytest.raises(drumlin.QueryError, match="syntax error"):
        people.query("person", query)


def test_subtraction_with_spaces_still_works(people: drumlin.Database) -> None:
    assert len(people.query("person", "1 - 0 == 1")) == 7
    assert len(people.query("person", "1 - -1 == 2")) == 7
