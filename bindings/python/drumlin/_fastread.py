"""The fast paths of ``Database.get_dict`` and ``Database.query_dicts``, and packed reads.

A read of whole objects of a class of plain properties is one C call (``drumlin_object_find_marshal``
or ``drumlin_query_marshal``) and one ``marshal.loads``. What is left to make it fast is the Python
around the call, which costs more than the call itself when done the general way:

- a :class:`Reader` per class and database holds every argument that does not change (addresses,
  not ctypes objects), built once;
- the two functions are called without ``argtypes`` or ``errcheck``, with arguments that are
  ctypes objects already (``c_void_p``, ``c_size_t``, made once): ctypes passes them as they are,
  converting nothing; the status is checked inline;
- the primary key, the size cell and the packed bytes live in one per-thread arena (the calls
  release the GIL, so a shared one would race): writing the key is one ``pack_into``;
- rows become dicts through a function generated per class (``{'id': r[0], ...}``), faster than
  ``dict(zip(names, row))`` (docs/performance.md has the measurements).

:func:`read_packed` reads chosen properties of one object or of results the same way, into a
per-thread scratch area, for ``to_dict()``, ``to_dicts()`` and the general path of ``get_dict``.

Anything the fast path does not take (a key of another type, an int beyond int64, a result larger
than the arena) goes back to the general path, which reports errors the usual way.
"""

from __future__ import annotations

import contextlib
import struct
import threading
from ctypes import addressof, byref, c_size_t, c_void_p, cast, create_string_buffer
from marshal import loads
from typing import Any, Callable, NamedTuple

from . import _ffi
from ._constants import DRUMLIN_NOT_FOUND
from ._schema import ClassInfo

# Arena layout: the key (a drumlin_value: int type, then the 8-byte-aligned union), the size cell,
# then the packed bytes.
_KEY_OFFSET = 0
_SIZE_OFFSET = 32
DATA_OFFSET = 64
_ARENA_BYTES = 16 * 1024

DRUMLIN_TYPE_INT = _ffi.DRUMLIN_TYPE_INT
put_int_key = struct.Struct("=i4xq").pack_into
"""Writes a DRUMLIN_TYPE_INT key: ``put_int_key(arena.buffer, 0, DRUMLIN_TYPE_INT, value)``."""

# Fresh function pointers (lib[name], unlike lib.name, is not the one _ffi declared): no argtypes,
# so every argument must be a ctypes object (or bytes / None for the char * ones); int return.
find_marshal = _ffi.lib["drumlin_object_find_marshal"]
query_marshal = _ffi.lib["drumlin_query_marshal"]


class Arena(NamedTuple):
    buffer: Any  # the ctypes buffer (kept alive here)
    view: memoryview
    size: c_size_t  # the size cell, a view into the buffer
    key: c_void_p  # the arguments the calls take
    size_address: c_void_p
    data: c_void_p
    capacity: c_size_t  # bytes available at `data`
    limit: int  # the same, as an int


_local = threading.local()
_ARENA_KEPT = 1 << 20  # a larger arena, for one large result, is not kept


def _new_arena(capacity: int) -> Arena:
    buffer = create_string_buffer(DATA_OFFSET + capacity)
    base = addressof(buffer)
    size = c_size_t.from_buffer(buffer, _SIZE_OFFSET)
    arena = Arena(
        buffer,
        memoryview(buffer),
        size,
        c_void_p(base + _KEY_OFFSET),
        c_void_p(base + _SIZE_OFFSET),
        c_void_p(base + DATA_OFFSET),
        c_size_t(capacity),
        capacity,
    )
    if capacity <= _ARENA_KEPT:
        _local.arena = arena
    return arena


def arena() -> Arena:
    """This thread's arena."""
    try:
        return _local.arena  # type: ignore[no-any-return]
    except AttributeError:
        return _new_arena(_ARENA_BYTES)


def query_dicts(reader: Reader, query: bytes, args_json: bytes | None) -> list[dict[str, Any]]:
    """``drumlin_query_marshal`` into this thread's arena (grown and read again while the result does
    not fit), each row built into a dict."""
    db, cname, count, indices, build, _, _ = reader
    _, view, size, _, size_address, data, capacity, limit = arena()
    while True:
        status = query_marshal(db, cname, query, args_json, count, indices, data, capacity, size_address)
        if status:
            _ffi._raise(status)
        needed = size.value
        if needed <= limit:
            return list(map(build, loads(view[DATA_OFFSET : DATA_OFFSET + needed])))
        _, view, size, _, size_address, data, capacity, limit = _new_arena(needed)


def row_builder(names: tuple[str, ...]) -> Callable[[tuple[Any, ...]], dict[str, Any]]:
    """A function turning a row (values in property order) into a dict keyed by property name.

    Generated, as ``collections.namedtuple`` and ``dataclasses`` generate theirs: a dict display is
    one bytecode. Names enter the source only through ``repr``, so any name is safe."""
    items = ", ".join(f"{name!r}: row[{position}]" for position, name in enumerate(names))
    namespace: dict[str, Any] = {}
    exec(f"def build(row):\n    return {{{items}}}\n", namespace)
    return namespace["build"]  # type: ignore[no-any-return]


class Reader(NamedTuple):
    """What a fast read of one class through one open database needs, computed once."""

    db: c_void_p  # the drumlin_db; readers are dropped when the database closes
    cname: bytes
    width: c_size_t  # how many properties (not "count": that is tuple's method)
    indices: Any  # the class's all-properties index array (info.all_indices)
    build: Callable[[tuple[Any, ...]], dict[str, Any]]
    int_key: bool  # the primary key is an int property: get_dict takes the fast path for ints
    info: ClassInfo


def reader(handle: Any, info: ClassInfo) -> Reader:
    key = info.primary_key
    int_key = key is not None and key.type == _ffi.DRUMLIN_PROPERTY_INT
    return Reader(
        cast(handle, c_void_p),
        info.cname,
        c_size_t(len(info.names)),
        info.all_indices,
        row_builder(info.names),
        int_key,
        info,
    )


# ---- Packed reads of chosen properties ----------------------------------------------------------

# Per-thread scratch for packed reads: (buffer, its memoryview, size cell, byref(size cell)).
_scratch = threading.local()
_SCRATCH_KEPT = 1 << 20


def _packed_scratch(capacity: int) -> tuple[Any, memoryview, c_size_t, Any]:
    current = getattr(_scratch, "area", None)
    if current is not None and len(current[0]) >= capacity:
        return current  # type: ignore[no-any-return]
    buffer = create_string_buffer(max(capacity, 4096))
    size = c_size_t()
    area = (buffer, memoryview(buffer), size, byref(size))
    if capacity <= _SCRATCH_KEPT:  # a one-off large read does not stay allocated
        _scratch.area = area
    return area


# For packed reads that borrow nothing from a handle (results, and the db-level reads): no lock.
NO_LOCK = contextlib.nullcontext()


def read_packed(function: Any, lock: Any, *args: Any) -> Any:
    """One packed read: ``function(*args, buffer, capacity, size_ref)`` (``drumlin_object_get_marshal``,
    ``drumlin_results_get_marshal``, ``drumlin_object_find_marshal``, ``drumlin_query_marshal``) into
    the per-thread scratch area, grown and read again while the result does not fit; the value
    decoded from Python's marshal format, or None when the call reports DRUMLIN_NOT_FOUND."""
    buffer, view, size, size_ref = _packed_scratch(0)
    with lock:
        if function(*args, buffer, len(buffer), size_ref) == DRUMLIN_NOT_FOUND:
            return None
        needed = size.value
        while needed > len(buffer):  # a large result: grow the scratch area and read again
            buffer, view, size, size_ref = _packed_scratch(needed)
            if function(*args, buffer, len(buffer), size_ref) == DRUMLIN_NOT_FOUND:
                return None  # deleted by another handle in between
            needed = size.value
        return loads(view[:needed])
