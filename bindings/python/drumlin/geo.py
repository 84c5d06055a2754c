"""Shapes for ``GEOWITHIN`` query arguments: :class:`GeoBox`, :class:`GeoCircle`, :class:`GeoPolygon`.

A shape passed as a query argument (``place.location GEOWITHIN $0``) travels as the JSON text the
engine reads for shape arguments: ``{"box": [[lon, lat], [lon, lat]]}``,
``{"circle": [[lon, lat], radians]}`` or ``{"polygon": [[[lon, lat], ...], ...]}``. Points are
``(longitude, latitude)`` pairs in degrees, as in GeoJSON. The shapes check their values when they
are made, as the engine checks shapes written in the query itself (``geoBox(...)``...): a bad value
is an :class:`~drumlin.InvalidArgumentError` (a ``ValueError``), a wrong type a
:class:`~drumlin.TypeMismatchError` (a ``TypeError``).

Shapes are immutable, hashable and compare by value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from typing import Any

from ._errors import InvalidArgumentError, TypeMismatchError

__all__ = ["EARTH_RADIUS_KM", "GeoBox", "GeoCircle", "GeoPolygon", "GeoShape"]

EARTH_RADIUS_KM = 6378.1
"""The radius :meth:`GeoCircle.from_km` divides by (Realm's value): radians = km / 6378.1."""

Point = tuple[float, float]


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeMismatchError(f"{what} must be a number, not {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise InvalidArgumentError(f"{what} must be finite, got {number}")
    return number


def _point(value: object, what: str) -> Point:
    """A ``(longitude, latitude)`` pair in degrees."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeMismatchError(f"{what} must be a (longitude, latitude) pair, not {type(value).__name__}")
    if len(value) != 2:
        raise InvalidArgumentError(f"{what} must be a (longitude, latitude) pair, got {len(value)} numbers")
    longitude = _number(value[0], f"the longitude of {what}")
    latitude = _number(value[1], f"the latitude of {what}")
    if not -180.0 <= longitude <= 180.0 or not -90.0 <= latitude <= 90.0:
        raise InvalidArgumentError(
            f"Invalid geo point [{longitude}, {latitude}] ({what}): longitude must be in "
            "[-180, 180] and latitude in [-90, 90]"
        )
    return (longitude, latitude)


class GeoShape:
    """The base of the shapes: ``shape.to_json()`` is the text sent as the query argument."""

    __slots__ = ()

    def _body(self) -> tuple[str, Any]:
        raise NotImplementedError

    def to_json(self) -> str:
        """The shape as the engine reads a shape argument, e.g. ``{"box":[[0.0,40.0],[10.0,50.0]]}``."""
        key, body = self._body()
        return json.dumps({key: body}, separators=(",", ":"))

    def __str__(self) -> str:
        return self.to_json()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(self._body() == other._body())

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


class GeoBox(GeoShape):
    """A box from its south-west to its north-east corner: ``GeoBox((0, 40), (10, 50))``.

    Tested on the longitude/latitude plane; points on an edge are outside. A box whose west edge
    lies east of its east edge crosses the antimeridian."""

    __slots__ = ("north_east", "south_west")

    south_west: Point
    north_east: Point

    def __init__(self, south_west: Sequence[float], north_east: Sequence[float]) -> None:
        object.__setattr__(self, "south_west", _point(south_west, "the south-west corner"))
        object.__setattr__(self, "north_east", _point(north_east, "the north-east corner"))

    def _body(self) -> tuple[str, Any]:
        return "box", [list(self.south_west), list(self.north_east)]

    def __repr__(self) -> str:
        return f"drumlin.GeoBox({self.south_west}, {self.north_east})"


class GeoCircle(GeoShape):
    """A circle around ``center`` (``(longitude, latitude)``) with a radius in radians (a distance
    on the sphere divided by its radius: ``GeoCircle.from_km(center, km)`` does it for the Earth).
    Tested by great-circle distance; points on the circle are inside."""

    __slots__ = ("center", "radius")

    center: Point
    radius: float

    def __init__(self, center: Sequence[float], radius: float) -> None:
        object.__setattr__(self, "center", _point(center, "the center"))
        radians = _number(radius, "the radius")
        if radians < 0:
            raise InvalidArgumentError(
                f"A geoCircle radius must be a non-negative number of radians, got {radians}"
            )
        object.__setattr__(self, "radius", radians)

    @classmethod
    def from_km(cls, center: Sequence[float], km: float) -> GeoCircle:
        """A circle with a radius in kilometres on the Earth (``km / 6378.1`` radians)."""
        return cls(center, _number(km, "the radius") / EARTH_RADIUS_KM)

    def _body(self) -> tuple[str, Any]:
        return "circle", [list(self.center), self.radius]

    def __repr__(self) -> str:
        return f"drumlin.GeoCircle({self.center}, {self.radius!r})"


class GeoPolygon(GeoShape):
    """A polygon: an outer ring and any number of holes, each a closed ring of ``(longitude,
    latitude)`` points (at least 4, the first equal to the last):
    ``GeoPolygon([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)], hole, ...)``.

    Tested on the longitude/latitude plane; points on an edge are outside (and a point on the edge
    of a hole is outside the polygon)."""

    __slots__ = ("holes", "outer")

    outer: tuple[Point, ...]
    holes: tuple[tuple[Point, ...], ...]

    def __init__(self, outer: Iterable[Sequence[float]], *holes: Iterable[Sequence[float]]) -> None:
        object.__setattr__(self, "outer", self._ring(outer, "the outer ring"))
        object.__setattr__(
            self, "holes", tuple(self._ring(hole, f"hole {i + 1}") for i, hole in enumerate(holes))
        )

    @staticmethod
    def _ring(ring: Iterable[Sequence[float]], what: str) -> tuple[Point, ...]:
        if isinstance(ring, (str, bytes)) or not isinstance(ring, Iterable):
            raise TypeMismatchError(f"{what} must be a sequence of (longitude, latitude) points")
        points = tuple(_point(p, f"point {i + 1} of {what}") for i, p in enumerate(ring))
        if len(points) < 4 or points[0] != points[-1]:
            raise InvalidArgumentError(
                f"A geoPolygon ring needs at least 4 points and must be closed (first point == last "
                f"point): {what} has {len(points)} points"
                + ("" if len(points) < 4 else f", from {list(points[0])} to {list(points[-1])}")
            )
        return points

    def _body(self) -> tuple[str, Any]:
        return "polygon", [[list(p) for p in ring] for ring in (self.outer, *self.holes)]

    def __repr__(self) -> str:
        rings = ", ".join(repr([*ring]) for ring in (self.outer, *self.holes))
        return f"drumlin.GeoPolygon({rings})"
