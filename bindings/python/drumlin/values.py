"""Drumlin's value types on the Python side (docs/python.md, Values).

Public: :class:`ObjectId`. The rest converts between Python values and the forms the C API uses:
decimal128 in its BID encoding, timestamps as seconds + nanoseconds, and MongoDB Extended JSON v2
(relaxed) for the JSON calls. None of it touches ctypes.

=============  ==========================  ==========================================
schema type    Python                      notes
=============  ==========================  ==========================================
bool           bool                        never confused with int
int            int                         64-bit; larger ints raise InvalidArgumentError
float, double  float                       NaN and infinities round-trip
decimal128     decimal.Decimal             34 digits; more raise InvalidArgumentError
string         str                         any Unicode, NUL allowed
data           bytes                       bytearray and memoryview accepted
date           datetime.datetime           out: aware UTC; in: naive means UTC
objectId       drumlin.ObjectId
uuid           uuid.UUID
=============  ==========================  ==========================================
"""

from __future__ import annotations

import base64
import binascii
import builtins
import decimal
import itertools
import json
import math
import os
import re
import struct
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any, Callable
from uuid import UUID

from ._errors import InvalidArgumentError, LimitError, TypeMismatchError

__all__ = ["ObjectId"]

# ---- ObjectId ----------------------------------------------------------------------------------


class _ObjectIdSource:
    """BSON's recipe: 4-byte seconds, 5 random bytes per process, 3-byte counter."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.random = os.urandom(5)
        self.counter = itertools.count(int.from_bytes(os.urandom(3), "big"))
        self.lock = threading.Lock()

    def next(self) -> bytes:
        with self.lock:
            count = next(self.counter) & 0xFFFFFF
        return struct.pack(">I", int(time.time()) & 0xFFFFFFFF) + self.random + count.to_bytes(3, "big")


_source = _ObjectIdSource()
if hasattr(os, "register_at_fork"):
    # A forked child must not hand out the parent's ids.
    os.register_at_fork(after_in_child=_source.reset)


class ObjectId:
    """A 12-byte MongoDB-style object id: ``ObjectId()`` generates a new one.

    ``ObjectId("65f1c0ffee00000000000001")`` parses 24 hex digits, ``ObjectId(b"...12 bytes...")``
    takes raw bytes. Ids are immutable, hashable, and ordered by their bytes, which puts newer
    generated ids after older ones. ``str(oid)`` and ``oid.hex`` give the hex form, ``bytes(oid)``
    and ``oid.bytes`` the raw bytes.
    """

    __slots__ = ("_bytes",)
    _bytes: builtins.bytes

    def __init__(self, value: str | builtins.bytes | bytearray | memoryview | ObjectId | None = None) -> None:
        if value is None:
            raw = _source.next()
        elif isinstance(value, ObjectId):
            raw = value._bytes
        elif isinstance(value, str):
            raw = _hex_to_bytes(value)
        elif isinstance(value, (builtins.bytes, bytearray, memoryview)):
            raw = builtins.bytes(value)
            if len(raw) != 12:
                raise InvalidArgumentError(f"an ObjectId is 12 bytes, not {len(raw)}")
        else:
            raise TypeMismatchError(
                f"ObjectId() takes a hex string, 12 bytes or nothing, not {type(value).__name__}"
            )
        object.__setattr__(self, "_bytes", raw)

    @classmethod
    def from_hex(cls, text: str) -> ObjectId:
        """Parse 24 hexadecimal digits."""
        return cls._from_bytes(_hex_to_bytes(text))

    @classmethod
    def from_bytes(cls, raw: builtins.bytes | bytearray | memoryview) -> ObjectId:
        """Wrap 12 raw bytes."""
        return cls(raw)

    @classmethod
    def _from_bytes(cls, raw: builtins.bytes) -> ObjectId:
        # Trusted 12 bytes (from the library): skip validation.
        oid = object.__new__(cls)
        object.__setattr__(oid, "_bytes", raw)
        return oid

    @staticmethod
    def is_valid(value: object) -> bool:
        """True if ``value`` is 24 hex digits or 12 bytes (what ``ObjectId(value)`` accepts)."""
        if isinstance(value, ObjectId):
            return True
        if isinstance(value, str):
            return len(value) == 24 and all(c in "0123456789abcdefABCDEF" for c in value)
        if isinstance(value, (builtins.bytes, bytearray, memoryview)):
            return len(value) == 12
        return False

    @property
    def hex(self) -> str:
        """The 24 lower-case hex digits."""
        return self._bytes.hex()

    @property
    def bytes(self) -> builtins.bytes:
        """The 12 raw bytes."""
        return self._bytes

    @property
    def generation_time(self) -> datetime:
        """The creation second stored in the first four bytes, as an aware UTC datetime."""
        seconds = struct.unpack(">I", self._bytes[:4])[0]
        return _EPOCH + timedelta(seconds=seconds)

    def __bytes__(self) -> builtins.bytes:
        return self._bytes

    def __str__(self) -> str:
        return self._bytes.hex()

    def __repr__(self) -> str:
        return f"ObjectId('{self._bytes.hex()}')"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ObjectId is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("ObjectId is immutable")

    def __reduce__(self) -> tuple[type[ObjectId], tuple[builtins.bytes]]:
        return (ObjectId, (self._bytes,))

    def __hash__(self) -> int:
        return hash(self._bytes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes == other._bytes
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes != other._bytes
        return NotImplemented

    def __lt__(self, other: ObjectId) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes < other._bytes
        return NotImplemented

    def __le__(self, other: ObjectId) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes <= other._bytes
        return NotImplemented

    def __gt__(self, other: ObjectId) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes > other._bytes
        return NotImplemented

    def __ge__(self, other: ObjectId) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes >= other._bytes
        return NotImplemented


def _hex_to_bytes(text: str) -> bytes:
    if len(text) != 24:
        raise InvalidArgumentError(f"an ObjectId is 24 hex digits, not {len(text)} characters: {text!r}")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise InvalidArgumentError(f"an ObjectId is 24 hex digits: {text!r}") from None


# ---- Integers ----------------------------------------------------------------------------------

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


def check_int64(value: int) -> int:
    if INT64_MIN <= value <= INT64_MAX:
        return value
    raise InvalidArgumentError(f"the integer {value} does not fit in 64 bits (Drumlin ints are int64)")


# ---- Timestamps --------------------------------------------------------------------------------

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_EPOCH_NAIVE = datetime(1970, 1, 1)
_UTC = timezone.utc


def datetime_to_timestamp(value: datetime) -> tuple[int, int]:
    """(seconds, nanoseconds) since the epoch; a naive datetime is taken as UTC."""
    if value.tzinfo is None or value.utcoffset() is None:
        delta = value.replace(tzinfo=None) - _EPOCH_NAIVE
    else:
        delta = value - _EPOCH
    return delta.days * 86400 + delta.seconds, delta.microseconds * 1000


def timestamp_to_datetime(seconds: int, nanoseconds: int) -> datetime:
    """An aware UTC datetime; nanoseconds below a microsecond are truncated."""
    try:
        return _EPOCH + timedelta(0, seconds, nanoseconds // 1000)  # (days, seconds, microseconds)
    except OverflowError:
        raise OverflowError(
            f"the date {seconds} s after 1970 is outside Python's datetime range (years 1-9999)"
        ) from None


def format_date(value: datetime) -> str:
    """ISO 8601 in UTC with microseconds and ``Z``, as ``$date`` expects."""
    if value.tzinfo is not None and value.utcoffset() is not None:
        value = value.astimezone(_UTC)
    return (
        f"{value.year:04d}-{value.month:02d}-{value.day:02d}T{value.hour:02d}:{value.minute:02d}:"
        f"{value.second:02d}.{value.microsecond:06d}Z"
    )


_DATE = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?\s*(Z|z|[+-]\d\d:?\d\d)?\Z"
)


def parse_date(text: str) -> datetime:
    match = _DATE.match(text)
    if match is None:
        raise InvalidArgumentError(f"not an ISO 8601 date: {text!r}")
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    result = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0), micro, _UTC)
    if zone and zone not in ("Z", "z"):
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        result -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return result


# ---- Decimal128 (IEEE 754-2008 BID encoding) ---------------------------------------------------

_BIAS = 6176
_MAX_COEFFICIENT = 10**34 - 1
_LOW64 = (1 << 64) - 1
_DECIMAL128 = decimal.Context(
    prec=34,
    Emax=6144,
    Emin=-6143,
    clamp=1,
    rounding=decimal.ROUND_HALF_EVEN,
    traps=[decimal.InvalidOperation, decimal.Overflow, decimal.Inexact],
)


def decimal_to_bid(value: decimal.Decimal) -> tuple[int, int]:
    """(low, high) 64-bit words of the BID encoding. Raises InvalidArgumentError when the value
    needs more than 34 digits or is out of the decimal128 range (nothing is rounded silently)."""
    if value.is_nan():
        high = 0x7E00000000000000 if value.is_snan() else 0x7C00000000000000
        return 0, high | (1 << 63 if value.is_signed() else 0)
    if value.is_infinite():
        return 0, 0xF800000000000000 if value.is_signed() else 0x7800000000000000
    try:
        exact = _DECIMAL128.create_decimal(value)
    except (decimal.Inexact, decimal.Overflow, decimal.InvalidOperation):
        raise InvalidArgumentError(
            f"Decimal('{value}') cannot be stored exactly as decimal128 "
            "(at most 34 significant digits, exponent -6176 to 6111)"
        ) from None
    sign, digits, exponent = exact.as_tuple()
    assert isinstance(exponent, int)
    coefficient = int("".join(map(str, digits))) if digits else 0
    high = (sign << 63) | ((exponent + _BIAS) << 49) | (coefficient >> 64)
    return coefficient & _LOW64, high


def bid_to_decimal(low: int, high: int) -> decimal.Decimal:
    """Decode BID words; non-canonical coefficients read as zero, as the standard says."""
    sign = "-" if high >> 63 else ""
    combination = (high >> 58) & 0x1F
    if combination == 0x1F:
        return decimal.Decimal(sign + ("sNaN" if (high >> 57) & 1 else "NaN"))
    if combination == 0x1E:
        return decimal.Decimal(sign + "Infinity")
    if (high >> 61) & 0x3 == 0x3:
        # The "11" form implies a coefficient of at least 2**113 > 10**34 - 1: non-canonical.
        exponent = (high >> 47) & 0x3FFF
        coefficient = 0
    else:
        exponent = (high >> 49) & 0x3FFF
        coefficient = ((high & ((1 << 49) - 1)) << 64) | low
        if coefficient > _MAX_COEFFICIENT:
            coefficient = 0
    return decimal.Decimal(f"{sign}{coefficient}E{exponent - _BIAS}")


# ---- Extended JSON (v2, relaxed) ---------------------------------------------------------------


def _ejson_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return {"$date": format_date(value)}
    if isinstance(value, decimal.Decimal):
        return {"$numberDecimal": "NaN" if value.is_nan() else str(value)}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$binary": {"base64": base64.b64encode(value).decode("ascii"), "subType": "00"}}
    if isinstance(value, UUID):
        return {"$uuid": str(value)}
    if isinstance(value, ObjectId):
        return {"$oid": value.hex}
    link = getattr(type(value), "_drumlin_link_json", None)
    if link is not None:  # a drumlin.Object: the engine decides where a link may go
        return link(value)
    if isinstance(value, (set, frozenset)):
        raise TypeMismatchError("sets cannot be stored as values; use a list")
    raise TypeMismatchError(f"Drumlin cannot store a value of Python type '{type(value).__name__}'")


# One encoder for every call: json.dumps() with options builds a new JSONEncoder each time.
_EJSON_ENCODER = json.JSONEncoder(default=_ejson_default, allow_nan=False, separators=(",", ":"))


def _replace_non_finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return {"$numberDouble": "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")}
    if isinstance(value, dict):
        return {key: _replace_non_finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_replace_non_finite(item) for item in value]
    return value


def check_mixed_keys(value: Any, label: str) -> None:
    """Refuses a dict inside a mixed value with a key starting with ``$``: the JSON layer would
    read ``{"$oid": ...}`` back as an ObjectId, ``{"$date": ...}`` as a datetime, and so on, so
    such a dict could not stay a dict. Dictionary properties refuse these keys the same way. Keys
    are strings: JSON would turn ``1`` into ``"1"``, so another type is refused, not converted."""
    if not isinstance(value, (dict, list, tuple)):
        return
    seen: set[int] = set()
    pending = [value]
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue  # a container met twice (or a cycle: ejson_dumps reports it)
        seen.add(id(item))
        if isinstance(item, dict):
            for key, nested in item.items():
                if not isinstance(key, str):
                    raise TypeMismatchError(
                        f"Property {label}: the keys of a dictionary in a mixed value are strings, "
                        f"not {type(key).__name__} ({key!r})."
                    )
                if key.startswith("$"):
                    raise InvalidArgumentError(
                        f"Property {label}: invalid key '{key}' in a dictionary of a mixed value: keys cannot "
                        "start with '$' (such an object would read back as an Extended JSON value)."
                    )
                if isinstance(nested, (dict, list, tuple)):
                    pending.append(nested)
        else:
            pending.extend(nested for nested in item if isinstance(nested, (dict, list, tuple)))


def ejson_dumps(value: Any) -> str:
    """Serialize to Extended JSON. Fast path: one ``encode``; values holding NaN or
    infinities take a second pass that spells them ``{"$numberDouble": ...}``."""
    try:
        return _EJSON_ENCODER.encode(value)
    except RecursionError:
        raise LimitError("the value is nested too deeply to serialize") from None
    except ValueError as error:
        if isinstance(error, InvalidArgumentError):
            raise
        if "Circular reference" in str(error):
            raise InvalidArgumentError("the value contains a circular reference") from None
    try:
        return _EJSON_ENCODER.encode(_replace_non_finite(value))
    except RecursionError:
        raise LimitError("the value is nested too deeply to serialize") from None


def _decode_binary(body: Any) -> Any:
    data = base64.b64decode(body["base64"])
    if body.get("subType") in ("04", "4", 4):
        return UUID(bytes=data)
    return data


def _decode_number_double(text: Any) -> float:
    return float(text)  # float() reads "NaN", "Infinity" and "-Infinity"


def _decode_date(body: Any) -> datetime:
    if isinstance(body, str):
        return parse_date(body)
    if isinstance(body, int):  # {"$numberLong": "..."} was already decoded to an int
        return _EPOCH + timedelta(milliseconds=body)
    raise InvalidArgumentError(f"malformed $date: {body!r}")


_EJSON_DECODERS: dict[str, Callable[[Any], Any]] = {
    "$oid": lambda text: ObjectId(text),
    "$uuid": lambda text: UUID(text),
    "$numberDecimal": lambda text: decimal.Decimal(text),
    "$numberDouble": _decode_number_double,
    "$numberLong": int,
    "$numberInt": int,
    "$date": _decode_date,
    "$binary": _decode_binary,
}


def _ejson_object_hook(members: dict[str, Any]) -> Any:
    if len(members) == 1:
        for key, body in members.items():
            decoder = _EJSON_DECODERS.get(key)
            if decoder is not None:
                try:
                    return decoder(body)
                except (ValueError, TypeError, KeyError, binascii.Error):
                    return members
    return members


def ejson_loads(text: str | bytes) -> Any:
    """Parse Extended JSON into Python values (ObjectId, UUID, Decimal, datetime, bytes...)."""
    return json.loads(text, object_hook=_ejson_object_hook)
