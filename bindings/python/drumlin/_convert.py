"""Conversion of Python values to and from ``drumlin_value`` (the typed layer's tagged union).

(The package's other crossing, whole rows in Python's ``marshal`` format, is ``_rows``:
"marshal" names that wire format only.)

Writing picks the C type from the Python type alone and lets the engine convert or refuse it,
exactly as it does for JSON payloads (``3`` for a ``double`` property is widened, ``"3"`` for an
``int`` property is a ``TypeMismatchError`` naming the class and property): one set of rules, in
the engine. Only what C cannot carry is refused here: ints beyond 64 bits, Decimals beyond 34
digits, strings that are not Unicode, and Python types Drumlin has no mapping for.

Reading copies borrowed strings and binaries out before anything else is called on the handle.
"""

from __future__ import annotations

import ctypes
import decimal
import struct
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable
from uuid import UUID

from . import _ffi
from ._errors import DrumlinError, InvalidArgumentError, TypeMismatchError
from .values import (
    ObjectId,
    bid_to_decimal,
    check_int64,
    datetime_to_timestamp,
    decimal_to_bid,
    timestamp_to_datetime,
)

if TYPE_CHECKING:
    from ._schema import Property

_string_at = ctypes.string_at
_F32 = struct.Struct("f")
_INFINITIES = (float("inf"), float("-inf"))
_FLT_MIN = 1.1754943508222875e-38
_NORMAL_DIGITS = ("%.6g", "%.7g", "%.8g")
_SUBNORMAL_DIGITS = ("%.1g", "%.2g", "%.3g", "%.4g", "%.5g", *_NORMAL_DIGITS)

# Python values the typed layer cannot carry: they go through the JSON layer instead.
NESTED_TYPES = (list, tuple, dict)


def describe(prop: Property | None) -> str:
    return f"property '{prop.class_name}.{prop.name}'" if prop is not None else "the value"


def to_value(value: Any, prop: Property | None, out: _ffi.drumlin_value) -> None:
    """Fill ``out`` from a Python value. Strings and bytes are referenced by ``out`` (kept alive
    through ctypes' ``_objects``), not copied: ``out`` must not outlive the call it is used for."""
    if value is None:
        out.type = _ffi.DRUMLIN_TYPE_NULL
        return
    kind = type(value)
    if kind is bool:
        out.type = _ffi.DRUMLIN_TYPE_BOOL
        out.as_.boolean = 1 if value else 0
    elif kind is str:
        _set_text(value, prop, out)
    elif kind is int:
        _set_int(value, prop, out)
    elif kind is float:
        _set_float(value, prop, out)
    elif isinstance(value, datetime):
        seconds, nanoseconds = datetime_to_timestamp(value)
        out.type = _ffi.DRUMLIN_TYPE_TIMESTAMP
        stamp = out.as_.timestamp
        stamp.seconds = seconds
        stamp.nanoseconds = nanoseconds
    elif isinstance(value, ObjectId):
        out.type = _ffi.DRUMLIN_TYPE_OBJECT_ID
        ctypes.memmove(ctypes.addressof(out.as_), value.bytes, 12)
    elif isinstance(value, UUID):
        out.type = _ffi.DRUMLIN_TYPE_UUID
        ctypes.memmove(ctypes.addressof(out.as_), value.bytes, 16)
    elif isinstance(value, decimal.Decimal):
        low, high = decimal_to_bid(value)
        out.type = _ffi.DRUMLIN_TYPE_DECIMAL128
        words = out.as_.decimal128.w
        words[0] = low
        words[1] = high
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        out.type = _ffi.DRUMLIN_TYPE_BINARY
        view = out.as_.bytes_in
        view.data = data
        view.size = len(data)
    elif isinstance(value, bool):  # a bool subclass cannot exist, but keep bool before int
        out.type = _ffi.DRUMLIN_TYPE_BOOL
        out.as_.boolean = 1 if value else 0
    elif isinstance(value, int):  # IntEnum and friends
        _set_int(int(value), prop, out)
    elif isinstance(value, float):
        _set_float(float(value), prop, out)
    elif isinstance(value, str):
        _set_text(str(value), prop, out)
    else:
        raise TypeMismatchError(f"Cannot store a value of Python type '{kind.__name__}' in {describe(prop)}.")


def _set_text(value: str, prop: Property | None, out: _ffi.drumlin_value) -> None:
    try:
        data = value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidArgumentError(
            f"{describe(prop).capitalize()} got a string that is not valid Unicode: {error.reason}"
        ) from None
    out.type = _ffi.DRUMLIN_TYPE_STRING
    view = out.as_.bytes_in
    view.data = data
    view.size = len(data)


def _set_int(value: int, prop: Property | None, out: _ffi.drumlin_value) -> None:
    out.type = _ffi.DRUMLIN_TYPE_INT
    out.as_.integer = check_int64(value)


def _set_float(value: float, prop: Property | None, out: _ffi.drumlin_value) -> None:
    # DRUMLIN_TYPE_DOUBLE even for a float property: the engine narrows it, as it does for JSON.
    out.type = _ffi.DRUMLIN_TYPE_DOUBLE
    out.as_.dnum = value


def take_string(pointer: ctypes.c_void_p) -> str:
    """Copy a ``char *`` that Drumlin allocated (a ``char **out_json`` result), free it, decode it."""
    address = pointer.value
    if not address:
        return ""
    try:
        return _string_at(address).decode("utf-8")
    finally:
        _ffi.drumlin_free(address)


# ---- Reading -----------------------------------------------------------------------------------


def _read_null(u: _ffi._drumlin_value_union) -> None:
    return None


def _read_int(u: _ffi._drumlin_value_union) -> int:
    return u.integer  # type: ignore[no-any-return]


def _read_bool(u: _ffi._drumlin_value_union) -> bool:
    return bool(u.boolean)


def _read_string(u: _ffi._drumlin_value_union) -> str:
    s = u.string
    size = s.size
    return _string_at(s.data, size).decode("utf-8") if size else ""


def _read_binary(u: _ffi._drumlin_value_union) -> bytes:
    b = u.binary
    size = b.size
    return _string_at(b.data, size) if size else b""


def _read_timestamp(u: _ffi._drumlin_value_union) -> datetime:
    t = u.timestamp
    return timestamp_to_datetime(t.seconds, t.nanoseconds)


def _read_float(u: _ffi._drumlin_value_union) -> float:
    # A float property holds a 32-bit float; widened as is, 0.1 would read back as
    # 0.10000000149011612. Return the shortest decimal that is the same float32 instead, as the
    # engine's JSON does: `obj.ratio = 0.1` reads back as 0.1.
    return shortest_float32(u.fnum)


def shortest_float32(value: float) -> float:
    """A float32 value (widened to a Python float) as the shortest decimal that is the same float32."""
    if value != value or value in _INFINITIES:
        return value
    # Six digits always survive a float32 round trip (FLT_DIG), so shorter spellings are found
    # by "%.6g" too; subnormals have fewer digits of precision and start from one.
    for digits in _SUBNORMAL_DIGITS if -_FLT_MIN < value < _FLT_MIN else _NORMAL_DIGITS:
        shorter = float(digits % value)
        if _float32(shorter) == value:
            return shorter
    return float("%.9g" % value)


def _float32(value: float) -> float:
    return _F32.unpack(_F32.pack(value))[0]  # type: ignore[no-any-return]


def _read_double(u: _ffi._drumlin_value_union) -> float:
    return u.dnum  # type: ignore[no-any-return]


def _read_decimal(u: _ffi._drumlin_value_union) -> decimal.Decimal:
    w = u.decimal128.w
    return bid_to_decimal(w[0], w[1])


def _read_object_id(u: _ffi._drumlin_value_union) -> ObjectId:
    return ObjectId._from_bytes(_string_at(ctypes.addressof(u), 12))


def _read_uuid(u: _ffi._drumlin_value_union) -> UUID:
    return UUID(bytes=_string_at(ctypes.addressof(u), 16))


READERS: tuple[Callable[[_ffi._drumlin_value_union], Any] | None, ...] = (
    _read_null,  # DRUMLIN_TYPE_NULL
    _read_int,  # DRUMLIN_TYPE_INT
    _read_bool,  # DRUMLIN_TYPE_BOOL
    _read_string,  # DRUMLIN_TYPE_STRING
    _read_binary,  # DRUMLIN_TYPE_BINARY
    _read_timestamp,  # DRUMLIN_TYPE_TIMESTAMP
    _read_float,  # DRUMLIN_TYPE_FLOAT
    _read_double,  # DRUMLIN_TYPE_DOUBLE
    _read_decimal,  # DRUMLIN_TYPE_DECIMAL128
    _read_object_id,  # DRUMLIN_TYPE_OBJECT_ID
    None,  # DRUMLIN_TYPE_LINK: links are read as Objects (see _accessors.LinkAccessor)
    _read_uuid,  # DRUMLIN_TYPE_UUID
)
"""Readers indexed by ``drumlin_value.type``. LINK, LIST and DICTIONARY have none: a nested list or
dictionary in a mixed property is read through JSON, links and collections are not values."""

SCALAR_LIMIT = len(READERS)


def from_value(value: _ffi.drumlin_value) -> Any:
    kind = value.type
    reader = READERS[kind] if 0 <= kind < SCALAR_LIMIT else None
    if reader is None:
        raise DrumlinError(f"libdrumlin returned a value of type {kind} where a scalar was expected")
    return reader(value.as_)
