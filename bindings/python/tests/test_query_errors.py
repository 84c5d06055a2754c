"""Query errors: QueryError (code 16) with the engine's message, which points at the problem (syntax
with its position, unknown property, type mismatch, missing argument...), from every entry point;
a failed query changes nothing and leaves a write transaction usable."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "name": "string", "age": "int?", "dogs": "Dog[]", "scores": "int[]"},
    },
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string"}},
    {"name": "Reading", "asymmetric": True, "primaryKey": "id", "properties": {"id": "int"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create("Person", {"id": 1, "name": "Ann", "age": 31, "dogs": [{"name": "Rex"}]})
    return db


@pytest.mark.parametrize(
    ("query", "args", "message"),
    [
        # the table of docs/queries.md
        (
            "age >",
            (),
            "Invalid predicate: 'age >': syntax error, unexpected end of input, expecting a value "
            "at position 6",
        ),
        ("agee > 1", (), "'Person' has no property 'agee' (at position 1)"),
        ("age == 'x'", (), "Unsupported comparison between type 'int' and type 'string' (at position 1)"),
        (
            "age > $0 AND name == $1",
            (1,),
            "Request for argument at index 1 but only 1 argument is provided: $1 is missing (at position 22)",
        ),
        (
            "age == $1",
            (1,),
            "Request for argument at index 1 but only 1 argument is provided: $1 is missing (at position 8)",
        ),
        (
            "age BEGINSWITH 'x'",
            (),
            "Unsupported comparison operator 'beginswith' against type 'int', right side must be a string "
            "or binary type (at position 1)",
        ),
        (
            "SUBQUERY(scores, $s, $s > 1).@count > 0",
            (),
            "A subquery can not operate on a list of primitive values (property 'scores') (at position 10)",
        ),
        # more syntax errors, each with its position
        (
            "(age > 1",
            (),
            "Invalid predicate: '(age > 1': syntax error, unexpected end of input, expecting '&&', '||' "
            "or ')' at position 9",
        ),
        (
            "name == 'abc",
            (),
            "Invalid predicate: 'name == 'abc': syntax error, unterminated string at position 9",
        ),
        (
            "age == 1 extra",
            (),
            "Invalid predicate: 'age == 1 extra': syntax error, unexpected identifier 'extra', "
            "expecting '&&', '||', SORT, DISTINCT, LIMIT or end of input at position 10",
        ),
        (
            "",
            (),
            "Invalid predicate: '': syntax error, unexpected end of input, expecting a predicate "
            "at position 1",
        ),
        (
            "SORT(age ASC)",
            (),
            "Invalid predicate: 'SORT(age ASC)': syntax error, unexpected identifier 'SORT', a "
            "predicate must come before SORT, DISTINCT and LIMIT (e.g. 'TRUEPREDICATE SORT(…)') "
            "at position 1",
        ),
        (
            "dogs.@foo == 1",
            (),
            "Invalid predicate: 'dogs.@foo == 1': syntax error, unknown operator '@foo', expecting @count, "
            "@size, @sum, @avg, @min, @max, @type, @keys, @values or @links at position 6",
        ),
        ("dogs.nmae == 'Rex'", (), "'Dog' has no property 'nmae' (at position 6)"),
        (
            "age.@count == 1",
            (),
            "Operation '.@count' cannot apply to property 'age' because it is not a list (at position 1)",
        ),
    ],
)
def test_messages(db: drumlin.Database, query: str, args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", query, *args)
    error = caught.value
    assert error.code == 16 and error.status_name == "DRUMLIN_ERR_QUERY"
    assert isinstance(error, drumlin.DrumlinError)
    assert error.message == message and str(error) == message


def test_every_entry_point_reports_query_errors(db: drumlin.Database) -> None:
    ann = db.get("Person", 1)
    assert ann is not None
    people = db.objects("Person")
    dogs = db.objects("Dog")
    calls = [
        lambda: db.query("Person", "agee > 1"),
        lambda: db.count("Person", "agee > 1"),
        lambda: people.filter("agee > 1"),
        lambda: people.sort("agee"),
        lambda: people.distinct("agee"),
        lambda: ann.dogs.filter("agee > 1"),
        lambda: db.get("Dog", "Rex").linking_objects("Person", "dogs").filter("agee > 1"),  # type: ignore[union-attr]
    ]
    for call in calls:
        with pytest.raises(
            drumlin.QueryError, match=r"^'(Person|Dog)' has no property 'agee' \(at position 1\)$"
        ):
            call()
    with pytest.raises(drumlin.QueryError, match="has no property 'agee'"):
        dogs.filter("agee > 1")


def test_failed_query_inside_a_write(db: drumlin.Database) -> None:
    with db.write():
        db.create("Person", {"id": 2, "name": "Bob"})
        with pytest.raises(drumlin.QueryError):
            db.query("Person", "age >")
        with pytest.raises(drumlin.QueryError):
            db.objects("Person").filter("nope == 1").delete_all()
        db.create("Person", {"id": 3, "name": "Cy"})
    assert [p.id for p in db.objects("Person")] == [1, 2, 3]


def test_other_errors(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.NoSuchClassError):
        db.query("Cat", "TRUEPREDICATE")
    with pytest.raises(drumlin.NotSupportedError, match="asymmetric type 'Reading'"):
        db.objects("Reading")
    with pytest.raises(drumlin.NotSupportedError, match="asymmetric type 'Reading'"):
        db.count("Reading", "id > 1")
    with pytest.raises(drumlin.InvalidArgumentError):
        db.query("Person", "age > $0", 2**64)
