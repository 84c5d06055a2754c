"""The package's one read route: packed calls into this thread's arena.

Objects read rows (``drumlin_object_find_row`` / ``drumlin_object_read_row`` /
``drumlin_results_get_rows``; drumlin.h, "Whole rows"): the values stored in
the object's row, read in one statement (collections, mixed values and linkingObjects are None, read
by their accessors when asked for; a link is ``(DRUMLIN_TYPE_LINK, class, key)``). Objects keep
their row together with the database's *read version* at the time of the read. The read version is
a 64-bit word the engine keeps per database handle (``drumlin_db_read_version``): it moves on every
commit, rollback and write through the handle, and when a call that reads sees another connection's
commit. An attribute read compares the word (read in place through ctypes, no call) with the one the
object kept: equal, the kept value is current; otherwise the row is read again. So attribute reads
are Python attribute reads, and objects stay live.

Dictionaries (``to_dict()``, ``to_dicts()``, ``get_dict``, ``query_dicts``) are packed values
(``drumlin_object_find_marshal`` / ``drumlin_object_get_marshal`` / ``drumlin_results_get_marshal`` /
``drumlin_query_marshal`` with every property but linkingObjects ones): each object a dict by
property name that marshal builds itself, every value whole (collections, mixed values, embedded
objects and link targets' primary keys included), in the same one call; :func:`dict_builder`
converts the tagged values in place. The C layer packs both with one packer.

Both are Python's marshal format; values marshal has no type for arrive as tagged tuples
``(DRUMLIN_TYPE_*, payload...)`` (see drumlin.h). The scalar ones kept in a row stay tagged until an
attribute read converts them (``_accessors.TaggedAccessor``, by :data:`TAGGED`), so a row whose
dates or decimals are never read costs no conversion; links stay tagged (the descriptor turns them
into Objects).

Every call goes through an unchecked entry point of ``_ffi`` (every argument a ctypes object made
once, the status checked here) into this thread's arena: the primary key, the size cell and the
packed bytes in one buffer (the calls release the GIL, so a shared one would race). A result larger
than the arena is read again into a larger one, by one loop (:func:`_finish`).
"""

from __future__ import annotations

import gc
import struct
import threading
import weakref
from ctypes import addressof, byref, c_char_p, c_int32, c_int64, c_size_t, c_uint64, c_void_p, cast
from ctypes import create_string_buffer
from decimal import Decimal
from itertools import chain
from marshal import loads
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple
from uuid import UUID

from . import _ffi
from ._constants import DRUMLIN_NOT_FOUND
from ._convert import shortest_float32
from .values import ObjectId, timestamp_to_datetime

if TYPE_CHECKING:
    from ._schema import ClassInfo, Property
    from .database import Database

_find_row = _ffi.drumlin_object_find_row_unchecked
_read_row = _ffi.drumlin_object_read_row_unchecked
_results_rows = _ffi.drumlin_results_get_rows_unchecked
_results_rows_keyed = _ffi.drumlin_results_get_rows_keyed_unchecked
_find_values = _ffi.drumlin_object_find_marshal_unchecked
_object_values = _ffi.drumlin_object_get_marshal_unchecked
_read_values = _ffi.drumlin_object_read_marshal_unchecked
_results_values = _ffi.drumlin_results_get_marshal_unchecked
_query_values = _ffi.drumlin_query_marshal_unchecked
_query_first_rows = _ffi.drumlin_query_first_rows_unchecked
_raise = _ffi._raise

NO_ROW = -1
"""What an object without a kept row holds as its version (see _schema.DEAD)."""

UNMANAGED = -2
"""What a model object not stored yet holds as its version: its ``_drumlin_row`` is its values."""

KEY_ONLY = (None,)
"""The row of a stored object whose object key is not known yet, or of a closed accessor (see
object.Object: an object's key is its row's last item)."""

# ---- The per-thread arena ------------------------------------------------------------------------

# Layout: the key (a drumlin_value: int type, then the 8-byte-aligned union), the size cell, then
# the packed bytes.
_KEY_OFFSET = 0
_SIZE_OFFSET = 32
_DATA_OFFSET = 64
_ARENA_BYTES = 16 * 1024
_ARENA_KEPT = 1 << 20  # a larger arena, for one large result, is not kept

_DRUMLIN_TYPE_INT = _ffi.DRUMLIN_TYPE_INT
_put_int_key = struct.Struct("=i4xq").pack_into


class Arena(NamedTuple):
    buffer: Any  # the ctypes buffer (kept alive here)
    view: memoryview  # the data, from its first byte (view[i] is an int)
    size: c_size_t  # the size cell, a view into the buffer
    key: c_void_p  # the arguments the calls take
    size_address: c_void_p
    data: c_void_p
    capacity: c_size_t  # bytes available at `data`
    limit: int  # the same, as an int


_local = threading.local()


def _new_arena(capacity: int) -> Arena:
    buffer = create_string_buffer(_DATA_OFFSET + capacity)
    base = addressof(buffer)
    area = Arena(
        buffer,
        # The results, from their first byte: marshal.loads reads one value and ignores the bytes
        # after it, so a call's result is decoded from here without slicing out its size (a new
        # memoryview each call, 0.09 us of 0.36).
        memoryview(buffer).cast("B")[_DATA_OFFSET:],
        c_size_t.from_buffer(buffer, _SIZE_OFFSET),
        c_void_p(base + _KEY_OFFSET),
        c_void_p(base + _SIZE_OFFSET),
        c_void_p(base + _DATA_OFFSET),
        c_size_t(capacity),
        capacity,
    )
    if capacity <= _ARENA_KEPT:
        _local.arena = area
    return area


def arena() -> Arena:
    """This thread's arena."""
    try:
        return _local.arena  # type: ignore[no-any-return]
    except AttributeError:
        return _new_arena(_ARENA_BYTES)


def _call(function: Any, args: tuple[Any, ...], area: Arena) -> Any:
    """One packed call: ``function(*args, data, capacity, size_address)`` into ``area``, the result
    decoded (here when it fits, :func:`_finish` for anything else). `args` may point into ``area``
    (the key): the caller holds it."""
    status = function(*args, area.data, area.capacity, area.size_address)
    needed = area.size.value
    if status or needed > area.limit:
        return _finish(status, function, args, area)
    return loads(area.view)


def _finish(status: int, function: Any, args: tuple[Any, ...], area: Arena) -> Any:
    """The rest of a packed call made into ``area``, and the one grow-and-retry loop: the status
    checked (None for DRUMLIN_NOT_FOUND), then, while the result does not fit (the call reports its
    size), the call again into an arena of that size (it may grow in between, written by another
    thread). The hot calls make their first call inline and come here only when it did not fit."""
    _, view, size, _, _, _, _, limit = area
    while True:
        if status:
            if status == DRUMLIN_NOT_FOUND:
                return None
            _raise(status)
        needed = size.value
        if needed <= limit:
            return loads(view)
        _, view, size, _, size_address, data, capacity, limit = _new_arena(needed)
        status = function(*args, data, capacity, size_address)


# ---- Rows ----------------------------------------------------------------------------------------

TAGGED: dict[int, Callable[[tuple[Any, ...]], Any]] = {
    _ffi.DRUMLIN_TYPE_FLOAT: lambda v: shortest_float32(v[1]),
    _ffi.DRUMLIN_TYPE_DECIMAL128: lambda v: Decimal(v[1]),
    _ffi.DRUMLIN_TYPE_TIMESTAMP: lambda v: timestamp_to_datetime(v[1], v[2]),
    _ffi.DRUMLIN_TYPE_OBJECT_ID: lambda v: ObjectId._from_bytes(v[1]),
    _ffi.DRUMLIN_TYPE_UUID: lambda v: UUID(bytes=v[1]),
}
TAGGED_PROPERTY_TYPES = frozenset(
    {
        _ffi.DRUMLIN_PROPERTY_FLOAT,
        _ffi.DRUMLIN_PROPERTY_DECIMAL128,
        _ffi.DRUMLIN_PROPERTY_DATE,
        _ffi.DRUMLIN_PROPERTY_OBJECT_ID,
        _ffi.DRUMLIN_PROPERTY_UUID,
    }
)


class RowAccess:
    """What the packed calls of one class through one open database take, made once."""

    __slots__ = ("class_index", "cname", "count", "db", "indices", "last_size", "version")

    def __init__(self, handle: Any, info: ClassInfo, version: c_uint64) -> None:
        self.db = cast(handle, c_void_p)
        # A plain int: ctypes passes it as a C int (the int32_t parameter) faster than a c_int32.
        self.class_index = info.index
        self.cname = info.cname
        self.version = version
        # The properties a dict shows (all but linkingObjects ones), for the packed-values calls.
        shown = [p.index for p in info.properties if not p.is_backlink]
        self.count = c_size_t(len(shown))
        self.indices = (c_int32 * len(shown))(*shown)
        # The size of the last read of many objects of this class, by kind of read (every row of
        # a results handle, dicts of a results handle, dicts of a query, a loop's page of rows):
        # the next read of that kind, expected to be as large, starts in an arena that size
        # instead of running twice (once to learn the size). By kind, so that small reads of one
        # kind (db.query_dicts lookups) do not make every large read of another (iterating a
        # scan) run twice, nor a large read make every page start in an arena of its size.
        self.last_size = [0, 0, 0, 0]  # by _ROWS, _RESULTS_VALUES, _QUERY_VALUES, _PAGES


def _key_pointer(area: Arena, key_value: int | _ffi.drumlin_value) -> Any:
    """The primary key as the find calls take it: an int written into the arena, or a filled
    ``drumlin_value``."""
    if isinstance(key_value, int):
        _put_int_key(area.buffer, 0, _DRUMLIN_TYPE_INT, key_value)
        return area.key
    return byref(key_value)


def find_row(access: RowAccess, key_value: int | _ffi.drumlin_value) -> tuple[Any, ...] | None:
    """The row of the object with this primary key (an int within int64, or a filled
    ``drumlin_value``), or None when there is none."""
    # The hot path of db.get: arena() and _key_pointer() inlined (two frames fewer).
    try:
        area = _local.arena
    except AttributeError:
        area = _new_arena(_ARENA_BYTES)
    buffer, view, size, key, size_address, data, capacity, limit = area
    if isinstance(key_value, int):
        _put_int_key(buffer, 0, _DRUMLIN_TYPE_INT, key_value)
    else:
        key = byref(key_value)
    status = _find_row(access.db, access.class_index, key, data, capacity, size_address)
    needed = size.value
    if status or needed > limit:
        row: tuple[Any, ...] | None = _finish(status, _find_row, (access.db, access.class_index, key), area)
    else:
        row = loads(view)
    return row


def read_row(access: RowAccess, key: int) -> tuple[Any, ...]:
    """The row of the object with this object key (InvalidatedObjectError once deleted)."""
    try:
        area = _local.arena
    except AttributeError:
        area = _new_arena(_ARENA_BYTES)
    _, view, size, _, size_address, data, capacity, limit = area
    ckey = c_int64(key)
    status = _read_row(access.db, access.class_index, ckey, data, capacity, size_address)
    needed = size.value
    if status or needed > limit:
        row: tuple[Any, ...] = _finish(status, _read_row, (access.db, access.class_index, ckey), area)
    else:
        row = loads(view)
    return row


_ALL = c_size_t(0)
_EVERY_ROW = c_size_t((1 << 63) - 1)


def results_rows(access: RowAccess, results: Any) -> list[tuple[Any, ...]]:
    """Every row of a results handle, in order, in one call."""
    # Handles are passed as they are (pointer instances): ctypes.cast would tie the handle into a
    # reference cycle, releasing it only at the next garbage collection.
    return _many(access, _ROWS, _results_rows, (results, _ALL, _EVERY_ROW))  # type: ignore[no-any-return]


FIRST_ROWS = 64
"""How many rows ``db.query`` reads with the query (``query_first_rows``)."""
_FIRST_ROWS_AND_ONE = c_size_t(FIRST_ROWS + 1)


def query_first_rows(access: RowAccess, query: bytes, args: bytes | None) -> list[tuple[Any, ...]] | None:
    """The rows of the objects matching ``query`` (its ``args_json``), in the results' order, when
    there are at most ``FIRST_ROWS``; None when there are more. One call, no results handle
    (``drumlin_query_first_rows`` reading one row more than it keeps): a bad query raises its
    error here. Larger results are not decoded."""
    # The hot path of every db.query: arena() inlined, as in find_row.
    try:
        area = _local.arena
    except AttributeError:
        area = _new_arena(_ARENA_BYTES)
    _, view, size, _, size_address, data, capacity, limit = area
    db = access.db
    class_index = access.class_index
    status = _query_first_rows(db, class_index, query, args, _FIRST_ROWS_AND_ONE, data, capacity, size_address)
    needed = size.value
    if status or needed > limit:
        rows: list[tuple[Any, ...]] = _finish(
            status, _query_first_rows, (db, class_index, query, args, _FIRST_ROWS_AND_ONE), area
        )
        return rows if len(rows) <= FIRST_ROWS else None
    # A marshal list: '[', then its length as an int32, of which one byte holds at most 65.
    if view[1] > FIRST_ROWS:
        return None
    return loads(view)  # type: ignore[no-any-return]


# The reads of many objects, each with its own last size (RowAccess.last_size).
_ROWS, _RESULTS_VALUES, _QUERY_VALUES, _PAGES = 0, 1, 2, 3


def _many(access: RowAccess, kind: int, function: Any, args: tuple[Any, ...]) -> Any:
    """A packed call returning many objects, into an arena as large as the last result of the same
    call for the class. The cyclic collector is paused while ``marshal`` builds the result: every
    container it makes lives at least as long as the result, so collections in between would
    only walk them (and everything older, as they are promoted) for nothing."""
    area = arena()
    last_size = access.last_size[kind]
    if last_size > area.limit:
        area = _new_arena(last_size + (last_size >> 3))
    if last_size <= _PAUSE_ABOVE:
        # A result as small as the last one (a lookup's few objects) makes too few containers for
        # a collection to start while marshal builds it: no pause (three calls of a ~7 µs lookup).
        result = _call(function, args, area)
    else:
        collecting = gc.isenabled()
        gc.disable()
        try:
            result = _call(function, args, area)
        finally:
            if collecting:
                gc.enable()
    access.last_size[kind] = area.size.value
    return result


_PAUSE_ABOVE = 4096
"""The last result size (bytes) above which :func:`_many` pauses the cyclic collector."""


PAGE_ROWS = 256
"""How many rows a loop over results reads per call (:func:`results_pages`)."""
_PAGE_ROWS = c_size_t(PAGE_ROWS)
_PageKeys = c_int64 * PAGE_ROWS
"""The object keys of a page of rows, as ``drumlin_results_get_rows_keyed`` writes them."""


def results_pages(db: Any, results: Any, access: RowAccess, version: int) -> Iterable[list[tuple[Any, ...]]]:
    """The rows of ``results`` (a ``Results``, kept alive while its handle is read) as a loop
    reads them: the first page of ``PAGE_ROWS`` now, each next page by one
    ``drumlin_results_get_rows`` when the loop reaches it. The engine streams the pages from one
    statement, so a page costs what the same rows read at once do, and each page's rows (and the
    objects made from them) are freed before the next is read: Python reuses their memory instead
    of taking new pages from the system for the whole result (a third of the time of a loop over
    thousands of objects).

    The pages are the objects in the results when the loop began, as a read at once would be:
    they come from one state of the database while its read version stays ``version`` (read
    before the first page), and this thread's ``db.write()`` reads the rest of its loops' pages
    before its transaction begins (:func:`finish_pages`). When the version moves otherwise (another
    thread wrote, a call saw another connection's commit), the rest is the results as they are
    then, without the objects already visited."""
    keys = _PageKeys()
    rows = _many(access, _PAGES, _results_rows_keyed, (results._ptr(), _ALL, _PAGE_ROWS, keys))
    if len(rows) < PAGE_ROWS:
        return (rows,)
    paging = _Paging(db, results, access, version, keys)
    try:
        loops = _local.paging
    except AttributeError:
        loops = _local.paging = weakref.WeakSet()
    loops.add(paging)
    return _next_pages(paging, rows, loops)


class _Paging:
    """A loop over results with pages left to read (see :func:`results_pages`), known to its
    thread while it has them."""

    __slots__ = ("__weakref__", "access", "db", "rest", "results", "start", "version", "visited")

    def __init__(self, db: Any, results: Any, access: RowAccess, version: int, first: Any) -> None:
        self.db = db
        self.results = results
        self.access = access
        self.version = version
        self.start = PAGE_ROWS
        # The object keys of the pages read (each a _PageKeys: the engine wrote them with the
        # page), needed only if the version moves mid-loop. Taking them out of the rows
        # (map(itemgetter(-1), rows) per page) cost the range loop of 18,334 objects ~0.7 ms of 19.
        self.visited = [first]
        self.rest: list[tuple[Any, ...]] | None = None

    def read_rest(self) -> list[tuple[Any, ...]]:
        """Every row not read yet, at once: the rest of the same result while the read version is
        unchanged, else the results now without the objects visited."""
        access = self.access
        if access.version.value == self.version:
            rest: list[tuple[Any, ...]] = _many(
                access, _ROWS, _results_rows, (self.results._ptr(), c_size_t(self.start), _EVERY_ROW)
            )
            if access.version.value == self.version:
                return rest
        seen = set(chain.from_iterable(self.visited))
        return [row for row in results_rows(access, self.results._ptr()) if row[-1] not in seen]


def _next_pages(paging: _Paging, rows: list[tuple[Any, ...]], loops: Any) -> Iterator[list[tuple[Any, ...]]]:
    try:
        yield rows
        access = paging.access
        current = access.version
        version = paging.version
        while paging.rest is None and current.value == version:
            keys = _PageKeys()
            rows = _many(access, _PAGES, _results_rows_keyed,
                         (paging.results._ptr(), c_size_t(paging.start), _PAGE_ROWS, keys))
            if current.value != version:
                break
            yield rows
            if len(rows) < PAGE_ROWS:
                return
            paging.visited.append(keys)
            paging.start += PAGE_ROWS
        rest = paging.rest
        yield paging.read_rest() if rest is None else rest
    finally:
        loops.discard(paging)


def finish_pages(db: Any) -> None:
    """Reads the rest of this thread's loops over results of ``db`` at once (``db.write()`` calls
    it before its transaction begins): a loop that writes visits the objects that were in the
    results when it began."""
    loops = getattr(_local, "paging", None)
    if loops:
        for paging in list(loops):
            if paging.db is db and paging.rest is None:
                paging.rest = paging.read_rest()


# ---- Packed values: what dicts are built from ----------------------------------------------------
#
# Each returns the shown properties' whole values as a dict by name (drumlin.h,
# "drumlin_object_get_marshal"): collections, mixed values, embedded objects and link targets'
# primary keys included, read by the engine in the same call.


def find_values(access: RowAccess, key_value: int | _ffi.drumlin_value) -> dict[str, Any] | None:
    """The values of the object with this primary key (as :func:`find_row` takes it), or None."""
    area = arena()
    _, view, size, _, size_address, data, capacity, limit = area
    args = (access.db, access.cname, _key_pointer(area, key_value), access.count, access.indices)
    status = _find_values(*args, data, capacity, size_address)
    needed = size.value
    if status or needed > limit:
        return _finish(status, _find_values, args, area)  # type: ignore[no-any-return]
    return loads(view)  # type: ignore[no-any-return]


def object_values(access: RowAccess, handle: Any) -> dict[str, Any]:
    """The values of the object of an object handle."""
    args = (handle, access.count, access.indices)  # a pointer instance: passed as it is
    return _call(_object_values, args, arena())  # type: ignore[no-any-return]


_ONE_INDEX: dict[int, Any] = {}


def one_index(index: int) -> Any:
    """The property-index array (ctypes int32) of one property, made once per index."""
    indices = _ONE_INDEX.get(index)
    if indices is None:
        indices = _ONE_INDEX[index] = (c_int32 * 1)(index)
    return indices


def read_values(access: RowAccess, key: int, indices: Any) -> dict[str, Any]:
    """The values of ``indices`` (a ctypes int32 array) of the object with this object key, with no
    object handle (InvalidatedObjectError once it is deleted)."""
    args = (access.db, access.class_index, c_int64(key), len(indices), indices)
    return _call(_read_values, args, arena())  # type: ignore[no-any-return]


def collection_converter(db: Database, prop: Property) -> Callable[[Any], Any]:
    """How the packed values of a collection property of values (not links) become the items its
    view reads: tagged values converted (a mixed value's links stay ``$link`` dicts)."""
    convert = _item_converter(db, prop)
    if convert is None:
        return as_is_value
    if prop.collection == _ffi.DRUMLIN_COLLECTION_DICTIONARY:
        return _each_entry(convert)
    return _each_item(convert)


def as_is_value(value: Any) -> Any:
    return value


def results_values(access: RowAccess, results: Any) -> list[dict[str, Any]]:
    """The values of every object of a results handle, in order."""
    args = (results, access.count, access.indices)
    return _many(access, _RESULTS_VALUES, _results_values, args)  # type: ignore[no-any-return]


def query_values(access: RowAccess, query: bytes, args_json: bytes | None) -> list[dict[str, Any]]:
    """The values of the objects matching a query, in order, with no results handle."""
    args = (access.db, access.cname, query, args_json, access.count, access.indices)
    return _many(access, _QUERY_VALUES, _query_values, args)  # type: ignore[no-any-return]


# ---- Dicts from packed values --------------------------------------------------------------------
#
# The packed values are the object's dict already (drumlin.h, "Packed values"): marshal builds it,
# names shared across the objects of one call; links are the target's primary key (its object key
# when its class has none), embedded objects nested dicts, collections lists and dicts, a mixed
# value's links {"$link": {"class": ..., "key": ...}} (what Extended JSON writes); linkingObjects
# properties left out. What is left for Python is turning the tagged values (dates, decimals,
# ObjectIds, UUIDs, floats) into Python's types, for the properties that can hold them.


def _value(value: Any) -> Any:
    """A value or collection item: a tagged tuple converted."""
    return TAGGED[value[0]](value) if type(value) is tuple else value


def mixed_value(value: Any) -> Any:
    """A mixed value, its nested lists and dictionaries included."""
    kind = type(value)
    if kind is tuple:
        return TAGGED[value[0]](value)
    if kind is list:
        return [mixed_value(item) for item in value]
    if kind is dict:
        return {key: mixed_value(item) for key, item in value.items()}
    return value


def as_is(values: dict[str, Any]) -> dict[str, Any]:
    """The builder of a class whose packed values need no conversion (callers of lists skip it)."""
    return values


def _item_converter(db: Database, prop: Property) -> Callable[[Any], Any] | None:
    """How one value (or one collection item) of ``prop`` becomes what a dict shows; None when it
    is shown as packed."""
    kind = prop.type
    if kind == _ffi.DRUMLIN_PROPERTY_OBJECT:
        target = db._class(prop.object_type)
        if target.is_embedded:
            inner = dict_builder(db, target)
            return None if inner is as_is else inner
        key = target.primary_key
        return _value if key is not None and key.type in TAGGED_PROPERTY_TYPES else None
    if kind == _ffi.DRUMLIN_PROPERTY_MIXED:
        return mixed_value
    if kind in TAGGED_PROPERTY_TYPES:
        return _value
    return None


def _each_item(read: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]]:
    return lambda items: [read(item) for item in items]


def _each_entry(read: Callable[[Any], Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda entries: {key: read(item) for key, item in entries.items()}


def dict_builder(db: Database, info: ClassInfo) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The function finishing the packed values of ``info`` (:func:`find_values` and the others)
    as the object's dict, in place: :func:`as_is` when nothing needs converting. Made once per
    class and database, kept on the ClassInfo."""
    kept = info.dict_builder
    if kept is not None:
        return kept
    converters: list[tuple[str, Callable[[Any], Any]]] = []
    for prop in info.properties:
        if prop.is_backlink:
            continue
        convert = _item_converter(db, prop)
        if convert is None:
            continue
        if prop.collection == _ffi.DRUMLIN_COLLECTION_DICTIONARY:
            converters.append((prop.name, _each_entry(convert)))
        elif prop.collection != _ffi.DRUMLIN_COLLECTION_NONE:
            converters.append((prop.name, _each_item(convert)))
        else:
            converters.append((prop.name, convert))
    pairs = tuple(converters)
    if not pairs:
        build = as_is
    else:

        def build(values: dict[str, Any]) -> dict[str, Any]:
            for name, convert in pairs:
                value = values[name]
                if value is not None:
                    values[name] = convert(value)
            return values

    info.dict_builder = build
    return build
