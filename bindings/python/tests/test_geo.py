"""GeoJSON points (an embedded type with `type` and `coordinates`): every write is validated and
an invalid point is an InvalidArgumentError with the engine's message; nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Place",
        "primaryKey": "id",
        "properties": {"id": "int", "location": "GeoPoint", "stops": "GeoPoint[]"},
    },
    {"name": "GeoPoint", "embedded": True, "properties": {"type": "string", "coordinates": "double[]"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


def point(*coordinates: float, kind: str = "Point") -> dict[str, Any]:
    return {"type": kind, "coordinates": list(coordinates)}


def test_valid_points(db: drumlin.Database) -> None:
    with db.write():
        place = db.create(
            "Place", {"id": 1, "location": point(-180, 90), "stops": [point(2.35, 48.85, 35.0)]}
        )
        place.stops.append(point(0, -90))
    assert place.location.to_dict() == {"type": "Point", "coordinates": [-180.0, 90.0]}
    assert [stop.to_dict()["coordinates"] for stop in place.stops] == [[2.35, 48.85, 35.0], [0.0, -90.0]]


@pytest.mark.parametrize(
    ("location", "message"),
    [
        (point(1, 91), "Invalid geo point 'GeoPoint': latitude 91.0 is outside [-90, 90]."),
        (point(-180.5, 0), "Invalid geo point 'GeoPoint': longitude -180.5 is outside [-180, 180]."),
        (
            point(1, 2, kind="Polygon"),
            "Invalid geo point 'GeoPoint': 'type' must be \"Point\", got \"Polygon\".",
        ),
        (
            point(1),
            "Invalid geo point 'GeoPoint': 'coordinates' must be [longitude, latitude] or "
            "[longitude, latitude, altitude].",
        ),
    ],
)
def test_invalid_points_are_refused_on_create(
    db: drumlin.Database, location: dict[str, Any], message: str
) -> None:
    with db.write():
        with pytest.raises(drumlin.InvalidArgumentError) as caught:
            db.create("Place", {"id": 1, "location": location})
        assert caught.value.code == 3
        assert caught.value.message == message
        with pytest.raises(drumlin.InvalidArgumentError) as in_list:
            db.create("Place", {"id": 1, "stops": [point(0, 0), location]})
        assert in_list.value.message == message
    assert db.count("Place") == 0


def test_every_write_to_a_point_is_checked(db: drumlin.Database) -> None:
    with db.write():
        place = db.create("Place", {"id": 1, "location": point(1, 2)})
        location = place.location
        with pytest.raises(drumlin.InvalidArgumentError) as on_element:
            location.coordinates[1] = 95.0
        assert on_element.value.message == "Invalid geo point 'GeoPoint': latitude 95.0 is outside [-90, 90]."
        with pytest.raises(drumlin.InvalidArgumentError, match="'coordinates' must be"):
            location.coordinates.extend([3.0, 4.0])
        with pytest.raises(drumlin.InvalidArgumentError, match="'coordinates' must be"):
            location.coordinates.clear()
        with pytest.raises(drumlin.InvalidArgumentError, match="'type' must be \"Point\""):
            location.type = "Line"
        with pytest.raises(drumlin.InvalidArgumentError, match="latitude -91.0"):
            place.location = point(0, -91)
        with pytest.raises(drumlin.InvalidArgumentError, match="longitude 200.0"):
            location.update({"coordinates": [200.0, 0.0]})
        location.coordinates.append(12.5)  # an altitude: still a valid point
    assert location.to_dict() == {"type": "Point", "coordinates": [1.0, 2.0, 12.5]}
    assert place.location == location


def test_changing_several_coordinates_at_once_is_checked_on_the_result(db: drumlin.Database) -> None:
    with db.write():
        place = db.create("Place", {"id": 1, "location": point(1, 2)})
        coordinates = place.location.coordinates
        coordinates[:] = [5.0, 6.0, 7.0]  # one write: never a four-element point on the way
        with pytest.raises(drumlin.InvalidArgumentError, match="'coordinates' must be"):
            coordinates.extend([8.0])
        coordinates.reverse()
        del coordinates[0]
    assert list(place.location.coordinates) == [6.0, 5.0]
