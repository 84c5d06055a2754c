"""Aggregates: @count/@size, @sum/@avg/@min/@max over primitive lists and over linked objects
(.@sum.prop), their empty semantics (sum 0; avg, min, max null), and Results.min/max/sum/avg with
the value types they return."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

import pytest
from conftest import OpenDb

import drumlin

UTC = timezone.utc

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "age": "int?",
            "height": "double?",
            "ratio": "float?",
            "balance": "decimal128?",
            "born": "date?",
            "dogs": "Dog[]",
            "scores": "int[]",
            "weights": "double?[]",
        },
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {"name": "string", "age": "int", "weight": "double?"},
    },
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Dog",
            [
                {"name": "Rex", "age": 3, "weight": 20.5},
                {"name": "Bo", "age": 12, "weight": None},
                {"name": "Fido", "age": 1, "weight": 4.0},
            ],
        )
        db.create_many(
            "Person",
            [
                {
                    "id": 1,
                    "name": "Ann",
                    "age": 30,
                    "height": 1.75,
                    "ratio": 0.5,
                    "balance": Decimal("0.5"),
                    "born": datetime(1990, 1, 1, tzinfo=UTC),
                    "dogs": ["Rex", "Bo"],
                    "scores": [1, 2, 3],
                    "weights": [1.5, None, 2.5],
                },
                {
                    "id": 2,
                    "name": "Bob",
                    "age": 20,
                    "height": 1.5,
                    "ratio": 1.5,
                    "balance": Decimal("10.25"),
                    "born": datetime(1960, 6, 1, 12, tzinfo=UTC),
                    "dogs": ["Bo", "Bo", "Fido"],
                    "scores": [10, 2],
                },
                {"id": 3, "name": "Cy"},
                {"id": 4, "name": "Dee", "age": 61, "dogs": ["Fido"], "scores": [5], "weights": [None]},
            ],
        )
    return db


def ids(db: drumlin.Database, query: str, *args: Any) -> list[int]:
    return [person.id for person in db.query("Person", query, *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("scores.@count == 3", [1]),
        ("scores.@size == 0", [3]),
        ("dogs.@count > 1", [1, 2]),
        ("scores.@sum == 6", [1]),
        ("scores.@sum == 0", [3]),  # the sum of nothing is 0
        ("scores.@sum > $0", [1, 2]),
        ("scores.@avg == 2", [1]),
        ("scores.@avg == 6", [2]),
        ("scores.@avg == nil", [3]),  # avg, min and max of nothing are null
        ("scores.@min == 1", [1]),
        ("scores.@min == nil", [3]),
        ("scores.@max == 10", [2]),
        ("scores.@max == nil", [3]),
        ("weights.@sum == 4", [1]),  # nulls are skipped
        ("weights.@avg == 2", [1]),
        ("weights.@max == nil", [2, 3, 4]),  # only nulls, or nothing
        ("dogs.@sum.age == 15", [1]),
        ("dogs.@sum.age == 25", [2]),
        ("dogs.@sum.age == 0", [3]),
        ("dogs.@avg.age == 7.5", [1]),
        ("dogs.@avg.age == nil", [3]),
        ("dogs.@min.age == 1", [2, 4]),
        ("dogs.@max.age > 10", [1, 2]),
        ("dogs.@max.age == nil", [3]),
        ("dogs.@sum.weight == 20.5", [1]),
        ("dogs.@avg.weight == 4", [2, 4]),
        ("dogs.@sum.age > 10 AND dogs.@count < 3", [1]),
        ("scores.@sum == dogs.@sum.age - 9", [1]),
    ],
)
def test_collection_aggregates(db: drumlin.Database, query: str, expected: list[int]) -> None:
    assert ids(db, query, 5) == expected


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("scores.@sum.age == 1", "Property 'Person.scores' has no property 'age' (at position 1)"),
        (
            "dogs.@sum == 1",
            "Operation '.@sum' cannot apply to 'dogs': name a property of the linked objects "
            "(e.g. '.@sum.price') (at position 1)",
        ),
        (
            "name.@sum == 1",
            "Operation '.@sum' cannot apply to property 'name' because it is not a list (at position 1)",
        ),
    ],
)
def test_collection_aggregate_errors(db: drumlin.Database, query: str, message: str) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", query)
    assert caught.value.message == message


def test_results_aggregates_and_their_types(db: drumlin.Database) -> None:
    people = db.objects("Person")
    assert people.sum("age") == 111 and type(people.sum("age")) is int
    assert people.min("age") == 20 and people.max("age") == 61
    assert people.avg("age") == 37.0 and type(people.avg("age")) is float  # nulls skipped
    assert people.sum("height") == 3.25 and people.min("height") == 1.5
    assert people.avg("height") == 1.625
    assert people.sum("ratio") == 2.0 and people.max("ratio") == 1.5 and type(people.max("ratio")) is float
    assert people.sum("balance") == Decimal("10.75") and isinstance(people.sum("balance"), Decimal)
    assert people.min("balance") == Decimal("0.5") and people.max("balance") == Decimal("10.25")
    assert people.min("born") == datetime(1960, 6, 1, 12, tzinfo=UTC)
    assert people.max("born") == datetime(1990, 1, 1, tzinfo=UTC)
    assert db.objects("Dog").sum("weight") == 24.5 and db.objects("Dog").avg("weight") == 12.25


def test_results_aggregates_of_nothing(db: drumlin.Database) -> None:
    nobody = db.query("Person", "age > 100")
    for prop in ("age", "height", "balance"):
        assert nobody.min(prop) is None
        assert nobody.max(prop) is None
        assert nobody.avg(prop) is None
    assert nobody.sum("age") == 0 and type(nobody.sum("age")) is int
    assert nobody.sum("height") == 0.0 and type(nobody.sum("height")) is float
    assert nobody.sum("balance") == Decimal(0)
    assert nobody.min("born") is None
    only_nulls = db.query("Person", "id == 3")
    assert only_nulls.sum("age") == 0 and only_nulls.avg("age") is None and only_nulls.max("age") is None


def test_results_aggregates_are_live_and_chain(db: drumlin.Database) -> None:
    adults = db.query("Person", "age >= 21")
    assert adults.sum("age") == 91
    with db.write():
        db.create("Person", {"id": 5, "name": "Eve", "age": 40})
    assert adults.sum("age") == 131 and adults.max("age") == 61
    assert adults.sort("age").limit(2).sum("age") == 70
    bob = db.get("Person", 2)
    assert bob is not None
    assert bob.dogs.filter("TRUEPREDICATE").sum("age") == 25
    assert bob.dogs.filter("age > 5").avg("age") == 12.0
    bo = db.get("Dog", "Bo")
    assert bo is not None
    assert bo.linking_objects("Person", "dogs").sum("age") == 70  # Ann once, Bob twice


def test_results_aggregate_errors(db: drumlin.Database) -> None:
    people = db.objects("Person")
    with pytest.raises(drumlin.QueryError) as caught:
        people.sum("name")
    assert caught.value.message == "Cannot sum property 'Person.name' of type 'string'."
    with pytest.raises(drumlin.QueryError) as caught:
        people.avg("born")
    assert caught.value.message == "Cannot avg property 'Person.born' of type 'date'."
    with pytest.raises(drumlin.QueryError) as caught:
        people.min("scores")
    assert caught.value.message == "Cannot min property 'Person.scores' of type 'array'."
    with pytest.raises(drumlin.NoSuchPropertyError) as missing:
        people.max("nope")
    assert missing.value.message == "Property 'Person.nope' does not exist."
    with pytest.raises(drumlin.TypeMismatchError):
        people.sum(1)  # type: ignore[arg-type]
