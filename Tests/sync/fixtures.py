"""Schemas and objects the sync tests upload."""

from __future__ import annotations

import uuid
from typing import Any

READING = {"name": "Reading", "asymmetric": True, "primaryKey": "_id",
           "properties": {"_id": "objectId", "sensor": "string", "celsius": "double", "at": "date",
                          "note": "string?"}}

SCHEMA = [READING]


def oid(n: int) -> str:
    """A distinct ObjectId's 24 hex digits for each n (a test's own, recognisable ids)."""
    return f"65f1c0ffee{n:014x}"


def reading(n: int, sensor: str = "s-1") -> dict[str, Any]:
    return {"_id": {"$oid": oid(n)}, "sensor": sensor, "celsius": 20 + n / 100,
            "at": {"$date": f"2026-12-07T13:{n // 60 % 60:02d}:{n % 60:02d}.123456789Z"}}


def readings(start: int, count: int, sensor: str = "s-1") -> list[dict[str, Any]]:
    return [reading(n, sensor) for n in range(start, start + count)]


def client_id() -> str:
    return f"client-{uuid.uuid4()}"
