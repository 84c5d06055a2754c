"""GEOWITHIN on GeoJSON points: geoBox, geoCircle and geoPolygon (with a hole) written in the query,
with arguments inside shapes, and as Python shape arguments (drumlin.GeoBox, GeoCircle, GeoPolygon);
edges, the antimeridian, invalid shapes."""

from __future__ import annotations

import math
from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Place",
        "primaryKey": "name",
        "properties": {"name": "string", "location": "GeoPoint", "stops": "GeoPoint[]"},
    },
    {"name": "GeoPoint", "embedded": True, "properties": {"type": "string", "coordinates": "double[]"}},
]


def point(lon: float, lat: float) -> dict[str, Any]:
    return {"type": "Point", "coordinates": [lon, lat]}


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Place",
            [
                {"name": "Zurich", "location": point(8.54, 47.37), "stops": [point(2.35, 48.86)]},
                {"name": "Bern", "location": point(7.45, 46.95)},
                {"name": "Paris", "location": point(2.35, 48.86)},
                {"name": "Nowhere"},
                {"name": "Edge", "location": point(10, 45)},
                {"name": "Hole", "location": point(5, 47.5)},
                {"name": "Fiji", "location": point(179.5, -17), "stops": [point(-179.5, -17)]},
            ],
        )
    return db


def names(db: drumlin.Database, query: str, *args: Any) -> list[str]:
    return [place.name for place in db.query("Place", query, *args)]


OUTER = [(0, 45), (10, 45), (10, 50), (0, 50), (0, 45)]
HOLE = [(4, 47), (6, 47), (6, 48), (4, 48), (4, 47)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "location GEOWITHIN geoBox([0, 40], [10, 50])",
            ["Zurich", "Bern", "Paris", "Hole"],
        ),  # Edge is on it
        ("location GEOWITHIN geoBox([5, 46], [9, 48])", ["Zurich", "Bern"]),
        ("location GEOWITHIN geoBox([170, -20], [-170, -10])", ["Fiji"]),  # across the antimeridian
        ("location GEOWITHIN geoCircle([8.5, 47.4], 0.01)", ["Zurich"]),  # about 64 km
        ("location GEOWITHIN geoCircle([8.5, 47.4], 0.0157)", ["Zurich", "Bern"]),  # about 100 km
        (
            "location GEOWITHIN geoPolygon({[0, 45], [10, 45], [10, 50], [0, 50], [0, 45]})",
            ["Zurich", "Bern", "Paris", "Hole"],
        ),
        (
            "location GEOWITHIN geoPolygon({[0, 45], [10, 45], [10, 50], [0, 50], [0, 45]}, "
            "{[4, 47], [6, 47], [6, 48], [4, 48], [4, 47]})",
            ["Zurich", "Bern", "Paris"],
        ),
        ("NOT location GEOWITHIN geoBox([0, 40], [10, 50])", ["Nowhere", "Edge", "Fiji"]),
        ("stops GEOWITHIN geoBox([0, 40], [10, 50])", ["Zurich"]),  # ANY element of a list
        ("location GEOWITHIN geoBox([0, 40], [10, 50]) SORT(name ASC)", ["Bern", "Hole", "Paris", "Zurich"]),
    ],
)
def test_shapes_in_the_query(db: drumlin.Database, query: str, expected: list[str]) -> None:
    assert names(db, query) == expected


def test_arguments_inside_shapes(db: drumlin.Database) -> None:
    assert names(db, "location GEOWITHIN geoCircle([$0, $1], 0.01)", 8.5, 47.4) == ["Zurich"]
    assert names(db, "location GEOWITHIN geoCircle([8.5, 47.4], $0)", 100 / 6378.1) == ["Zurich", "Bern"]
    assert names(db, "location GEOWITHIN geoBox([$0, 40], [$1, 50])", 4, 9) == ["Zurich", "Bern", "Hole"]


def test_shape_arguments(db: drumlin.Database) -> None:
    box = drumlin.GeoBox((0, 40), (10, 50))
    assert names(db, "location GEOWITHIN $0", box) == ["Zurich", "Bern", "Paris", "Hole"]
    assert names(db, "location GEOWITHIN $0", drumlin.GeoBox([170, -20], [-170, -10])) == ["Fiji"]
    circle = drumlin.GeoCircle.from_km((8.5, 47.4), 100)
    assert circle.radius == pytest.approx(100 / 6378.1)
    assert names(db, "location GEOWITHIN $0", circle) == ["Zurich", "Bern"]
    assert names(db, "location GEOWITHIN $0", drumlin.GeoCircle((8.5, 47.4), 0.01)) == ["Zurich"]
    polygon = drumlin.GeoPolygon(OUTER, HOLE)
    assert names(db, "location GEOWITHIN $0", polygon) == ["Zurich", "Bern", "Paris"]
    assert names(db, "location GEOWITHIN $0", drumlin.GeoPolygon(OUTER)) == [
        "Zurich",
        "Bern",
        "Paris",
        "Hole",
    ]
    assert names(
        db, "location GEOWITHIN $0 OR location GEOWITHIN $1", circle, drumlin.GeoCircle((2.35, 48.86), 0.001)
    ) == [
        "Zurich",
        "Bern",
        "Paris",
    ]
    # the same text as a string argument
    assert names(db, "location GEOWITHIN $0", '{"box": [[0, 40], [10, 50]]}') == [
        "Zurich",
        "Bern",
        "Paris",
        "Hole",
    ]


def test_results_follow_moves(db: drumlin.Database) -> None:
    near = db.query("Place", "location GEOWITHIN $0", drumlin.GeoCircle.from_km((2.35, 48.86), 10))
    assert [p.name for p in near] == ["Paris"]
    with db.write():
        db.get("Place", "Bern").location = point(2.36, 48.85)  # type: ignore[union-attr]
    assert [p.name for p in near] == ["Bern", "Paris"]


def test_shape_objects() -> None:
    box = drumlin.GeoBox((0, 40), (10.5, 50))
    assert box.to_json() == str(box) == '{"box":[[0.0,40.0],[10.5,50.0]]}'
    assert box == drumlin.GeoBox([0.0, 40.0], [10.5, 50]) and hash(box) == hash(
        drumlin.GeoBox((0, 40), (10.5, 50))
    )
    assert box != drumlin.GeoBox((0, 40), (10, 50))
    assert repr(box) == "drumlin.GeoBox((0.0, 40.0), (10.5, 50.0))"
    assert drumlin.GeoCircle((1, 2), 0.5).to_json() == '{"circle":[[1.0,2.0],0.5]}'
    assert drumlin.GeoCircle.from_km((0, 0), 6378.1).radius == 1.0
    polygon = drumlin.GeoPolygon(OUTER, HOLE)
    assert polygon.to_json().startswith('{"polygon":[[[0.0,45.0],[10.0,45.0],')
    assert len(polygon.holes) == 1 and polygon.outer[0] == (0.0, 45.0)
    assert isinstance(polygon, drumlin.GeoShape)
    with pytest.raises(AttributeError):
        box.south_west = (1, 1)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (
            lambda: drumlin.GeoBox((0, 40), (10, 91)),
            drumlin.InvalidArgumentError,
            "Invalid geo point [10.0, 91.0]",
        ),
        (
            lambda: drumlin.GeoBox((181, 0), (0, 0)),
            drumlin.InvalidArgumentError,
            "longitude must be in [-180, 180]",
        ),
        (
            lambda: drumlin.GeoBox((0, 0, 0), (1, 1)),
            drumlin.InvalidArgumentError,
            "a (longitude, latitude) pair",
        ),
        (
            lambda: drumlin.GeoBox("0,0", (1, 1)),
            drumlin.TypeMismatchError,
            "a (longitude, latitude) pair, not str",
        ),
        (lambda: drumlin.GeoBox((0, "1"), (1, 1)), drumlin.TypeMismatchError, "must be a number, not str"),
        (lambda: drumlin.GeoBox((0, math.nan), (1, 1)), drumlin.InvalidArgumentError, "must be finite"),
        (
            lambda: drumlin.GeoCircle((0, 0), -1),
            drumlin.InvalidArgumentError,
            "non-negative number of radians",
        ),
        (lambda: drumlin.GeoCircle((0, 0), True), drumlin.TypeMismatchError, "must be a number, not bool"),
        (lambda: drumlin.GeoPolygon(OUTER[:-1]), drumlin.InvalidArgumentError, "must be closed"),
        (
            lambda: drumlin.GeoPolygon([(0, 0), (1, 1), (0, 0)]),
            drumlin.InvalidArgumentError,
            "at least 4 points",
        ),
        (lambda: drumlin.GeoPolygon(OUTER, HOLE[1:]), drumlin.InvalidArgumentError, "hole 1 has 4 points"),
    ],
)
def test_invalid_shape_objects(make: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as caught:
        make()
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("query", "args", "message"),
    [
        (
            "location GEOWITHIN geoPolygon({[0, 45], [10, 45], [10, 50], [0, 50]})",
            (),
            "A geoPolygon ring needs at least 4 points and must be closed (first point == last point) "
            "(at position 20)",
        ),
        (
            "location GEOWITHIN geoBox([0, 40], [10, 91])",
            (),
            "Invalid geo point [10.0, 91.0]: longitude must be in [-180, 180] and latitude in [-90, 90] "
            "(at position 36)",
        ),
        (
            "location GEOWITHIN geoCircle([8.5, 47.4], -1)",
            (),
            "A geoCircle radius must be a non-negative number of radians (at position 43)",
        ),
        (
            "location GEOWITHIN $0",
            ("nope",),
            'A geo shape argument must be a shape such as {"box": [[lon, lat], [lon, lat]]}, {"circle": '
            '[[lon, lat], radians]} or {"polygon": [[[lon, lat], ...]]} (at position 20)',
        ),
        ("location GEOWITHIN $0", (5,), "A geo shape argument must be a shape such as"),
        (
            "location GEOWITHIN geoCircle([$0, 47], 0.1)",
            ("x",),
            "A geo coordinate argument must be a number (at position 31)",
        ),
        (
            "name GEOWITHIN geoBox([0, 40], [10, 50])",
            (),
            "GEOWITHIN needs a geo point property (an embedded type with 'type' and 'coordinates'), not "
            "'name' (at position 1)",
        ),
        ("location GEOWITHIN geoBox([0, 40])", (), "expecting ',' and the north-east corner"),
        ("location == geoBox([0, 40], [10, 50])", (), "geoBox(…) can only be used after GEOWITHIN"),
    ],
)
def test_invalid_shapes_in_queries(
    db: drumlin.Database, query: str, args: tuple[Any, ...], message: str
) -> None:
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Place", query, *args)
    assert message in caught.value.message
