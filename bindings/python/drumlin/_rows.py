"""Objects that keep their row.

An object read through the package keeps every value stored in its row (one crossing: a whole row,
``drumlin_object_find_row`` / ``drumlin_object_read_row`` / ``drumlin_results_get_rows`` /
``drumlin_query_rows``) together with the database's *read version* at the time of the read. The
read version is a 64-bit word the engine keeps per database handle (``drumlin_db_read_version``):
it moves on every commit, rollback and write through the handle, and when a call that reads sees
another connection's commit. An attribute read compares the word (read in place through ctypes,
no call) with the one the object kept: equal, the kept value is current; otherwise the row is read
again. So attribute reads are Python attribute reads, and objects stay live.

Rows are Python's marshal format; values marshal has no type for arrive as tagged tuples
``(DRUMLIN_TYPE_*, payload...)`` (see drumlin.h) and are converted once per row here. Links stay
tagged in the row: the descriptor turns ``(DRUMLIN_TYPE_LINK, class, key)`` into an Object.

Like ``_fastread``, the calls go through function pointers without ``argtypes`` (every argument a
ctypes object made once), into the per-thread arena.
"""

from __future__ import annotations

from ctypes import byref, c_int32, c_int64, c_size_t, c_uint64, c_void_p, cast
from marshal import loads
from typing import TYPE_CHECKING, Any, Callable
from uuid import UUID

from . import _ffi
from ._constants import DRUMLIN_NOT_FOUND
from ._convert import shortest_float32
from ._fastread import DATA_OFFSET, DRUMLIN_TYPE_INT, _new_arena, arena, put_int_key
from .values import ObjectId, bid_to_decimal, timestamp_to_datetime

if TYPE_CHECKING:
    from ._schema import ClassInfo

_find_row = _ffi.lib["drumlin_object_find_row"]
_read_row = _ffi.lib["drumlin_object_read_row"]
_results_rows = _ffi.lib["drumlin_results_get_rows"]
_query_rows = _ffi.lib["drumlin_query_rows"]

NO_ROW = -1
"""What an object without a kept row holds as its version (see _schema.DEAD)."""

_MASK = (1 << 64) - 1
_TAGGED: dict[int, Callable[[tuple[Any, ...]], Any]] = {
    _ffi.DRUMLIN_TYPE_FLOAT: lambda v: shortest_float32(v[1]),
    _ffi.DRUMLIN_TYPE_DECIMAL128: lambda v: bid_to_decimal(v[1] & _MASK, v[2] & _MASK),
    _ffi.DRUMLIN_TYPE_TIMESTAMP: lambda v: timestamp_to_datetime(v[1], v[2]),
    _ffi.DRUMLIN_TYPE_OBJECT_ID: lambda v: ObjectId._from_bytes(v[1]),
    _ffi.DRUMLIN_TYPE_UUID: lambda v: UUID(bytes=v[1]),
}
_TAGGED_PROPERTY_TYPES = frozenset(
    {
        _ffi.DRUMLIN_PROPERTY_FLOAT,
        _ffi.DRUMLIN_PROPERTY_DECIMAL128,
        _ffi.DRUMLIN_PROPERTY_DATE,
        _ffi.DRUMLIN_PROPERTY_OBJECT_ID,
        _ffi.DRUMLIN_PROPERTY_UUID,
    }
)


def row_converter(info: ClassInfo) -> Callable[[tuple[Any, ...]], tuple[Any, ...]] | None:
    """The function turning a row's tagged values into Python values, or None when the class
    has none (its rows are used as marshal made them)."""
    positions = tuple(p.index for p in info.properties if p.in_row and p.type in _TAGGED_PROPERTY_TYPES)
    if not positions:
        return None
    tagged = _TAGGED

    def convert(row: tuple[Any, ...]) -> tuple[Any, ...]:
        values = list(row)
        for i in positions:
            value = values[i]
            if value is not None:
                values[i] = tagged[value[0]](value)
        return tuple(values)

    return convert


class RowAccess:
    """What the row calls of one class through one open database take, made once."""

    __slots__ = ("class_index", "convert", "db", "version")

    def __init__(self, handle: Any, info: ClassInfo, version: c_uint64) -> None:
        self.db = cast(handle, c_void_p)
        self.class_index = c_int32(info.index)
        self.convert = row_converter(info)
        self.version = version


def _status(status: int) -> None:
    _ffi._raise(status)


def find_row(access: RowAccess, key_value: int | _ffi.drumlin_value) -> tuple[Any, ...] | None:
    """The row of the object with this primary key (an int, or a filled ``drumlin_value``), or
    None when there is none."""
    buffer, view, size, key, size_address, data, capacity, limit = arena()
    while True:
        if isinstance(key_value, int):
            put_int_key(buffer, 0, DRUMLIN_TYPE_INT, key_value)
            key_pointer: Any = key
        else:
            key_pointer = byref(key_value)
        status = _find_row(access.db, access.class_index, key_pointer, data, capacity, size_address)
        if status:
            if status == DRUMLIN_NOT_FOUND:
                return None
            _status(status)
        needed = size.value
        if needed <= limit:
            break
        buffer, view, size, key, size_address, data, capacity, limit = _new_arena(needed)
    row: tuple[Any, ...] = loads(view[DATA_OFFSET : DATA_OFFSET + needed])
    convert = access.convert
    return row if convert is None else convert(row)


def read_row(access: RowAccess, key: int) -> tuple[Any, ...]:
    """The row of the object with this object key (InvalidatedObjectError once deleted)."""
    _, view, size, _, size_address, data, capacity, limit = arena()
    ckey = c_int64(key)
    while True:
        status = _read_row(access.db, access.class_index, ckey, data, capacity, size_address)
        if status:
            _status(status)
        needed = size.value
        if needed <= limit:
            break
        _, view, size, _, size_address, data, capacity, limit = _new_arena(needed)
    row: tuple[Any, ...] = loads(view[DATA_OFFSET : DATA_OFFSET + needed])
    convert = access.convert
    return row if convert is None else convert(row)


_ALL = c_size_t(0)
_EVERY_ROW = c_size_t((1 << 63) - 1)


def results_rows(access: RowAccess, results: Any) -> list[tuple[Any, ...]]:
    """Every row of a results handle, in order (one call; again with a larger arena when they
    do not fit)."""
    handle = cast(results, c_void_p)
    return _packed_rows(access, lambda data, capacity, size_address: _results_rows(
        handle, _ALL, _EVERY_ROW, data, capacity, size_address))


def query_rows(access: RowAccess, query: bytes, args_json: bytes | None) -> list[tuple[Any, ...]]:
    """The rows of the objects matching a query, in order, with no results handle."""
    return _packed_rows(access, lambda data, capacity, size_address: _query_rows(
        access.db, access.class_index, query, args_json, data, capacity, size_address))


def _packed_rows(access: RowAccess, call: Callable[[Any, Any, Any], int]) -> list[tuple[Any, ...]]:
    """Rows packed by `call(data, capacity, size_address)` into the arena, grown and called
    again when they do not fit."""
    _, view, size, _, size_address, data, capacity, limit = arena()
    while True:
        status = call(data, capacity, size_address)
        if status:
            _status(status)
        needed = size.value
        if needed <= limit:
            break
        _, view, size, _, size_address, data, capacity, limit = _new_arena(needed)
    rows: list[tuple[Any, ...]] = loads(view[DATA_OFFSET : DATA_OFFSET + needed])
    convert = access.convert
    return rows if convert is None else list(map(convert, rows))
