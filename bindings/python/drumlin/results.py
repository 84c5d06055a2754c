"""``drumlin.Results``: a live, read-only sequence of objects over a ``drumlin_results`` handle.

Results come from queries (``db.objects``, ``db.query``, ``List.filter``...), from linkingObjects
properties (``dog.owners``) and from :meth:`Object.linking_objects`. They are live: every read
re-evaluates them, so ``len(adults)`` after a commit counts what the commit added. ``filter``,
``sort``, ``distinct``, ``limit`` and ``snapshot`` return new Results (the engine applies the steps
in the order they were chained, as SORT, DISTINCT and LIMIT in a query string).

Query arguments (``$0``, ``$1``...) are Python values sent as one Extended JSON array
(:func:`query_args`): lists, tuples and sets are list arguments (``age IN $0``), an Object stands
for its primary key (``dog == $0``), a :class:`~drumlin.GeoBox` (and the other shapes) for a
``GEOWITHIN`` shape.

Iteration, slices, ``in``, ``index``, ``==`` and ``to_list()`` go through the objects in the
results when they began; a loop reads their rows in pages as it reaches them
(``_rows.results_pages``).
"""

from __future__ import annotations

import enum
import json
import pathlib
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from ctypes import byref, c_int, c_int64, c_size_t, c_void_p
from functools import partial
from itertools import chain
from json import loads as _json_loads
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, TypeVar, Union, overload

from . import _ffi, notifications
from ._constants import DRUMLIN_NOT_FOUND
from ._convert import from_value, take_string
from ._errors import InvalidArgumentError, LimitError, TypeMismatchError
from ._handle import UNOPENED, HandleBase, OwnedPointer
from ._library import CALLS
from ._rows import PAGE_ROWS, UNMANAGED, as_is, dict_builder, results_pages, results_rows, results_values
from ._schema import encode_name
from .geo import GeoShape
from .notifications import CollectionChange, NotificationToken
from .object import Object
from .values import INT64_MAX, check_int64, ejson_dumps, ejson_loads

# json's C string encoder (the one json.dumps uses with ensure_ascii=False).
_encode_string: Callable[[str], str] = json.encoder.encode_basestring  # type: ignore[attr-defined,unused-ignore]

if TYPE_CHECKING:
    from ._schema import ClassInfo
    from .database import Database

__all__ = ["Results", "encode_query", "query_args"]

SortKeys = Union[str, Sequence[Union[str, tuple[str, bool]]]]
"""What ``sort()`` takes: a key path, or a list of key paths and ``(key path, ascending)`` pairs."""

_MISSING: Any = object()
_T_co = TypeVar("_T_co", covariant=True)
_get_ident = threading.get_ident



# ---- Query text and arguments --------------------------------------------------------------------


_ENCODED: dict[str, bytes] = {}  # query texts seen recently, encoded (a program runs a few, often)
_ENCODED_LIMIT = 256


def encode_query(query: object) -> bytes:
    """A query string as the C API takes it (UTF-8, no NUL: a NUL would cut it short in C)."""
    if type(query) is str:
        encoded = _ENCODED.get(query)
        if encoded is not None:
            return encoded
    if not isinstance(query, str):
        raise TypeMismatchError(f"a query is a string, not {type(query).__name__}")
    if "\0" in query:
        raise InvalidArgumentError(
            "a query cannot contain NUL characters; pass a string holding NUL as an argument ($0)"
        )
    try:
        encoded = query.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidArgumentError(f"the query is not valid Unicode: {query!r}") from None
    if type(query) is str and len(query) <= 1024:  # not a str subclass (its own hash); not huge
        if len(_ENCODED) >= _ENCODED_LIMIT:
            _ENCODED.clear()
        _ENCODED[query] = encoded
    return encoded


def _argument(value: Any, position: int) -> Any:
    """One query argument as a value ``ejson_dumps`` can write."""
    if value is None or isinstance(value, (bool, str, float)):
        return value
    if isinstance(value, int):
        return check_int64(int(value))
    if isinstance(value, Object):
        # The object itself (class and object key): compared with a link to another class it is
        # the engine's query error, never a match by primary key.
        key = value._drumlin_object_key()
        if key is None:
            raise InvalidArgumentError(
                f"Query argument ${position} is an object of type '{value._drumlin_class.name}' that is "
                "not stored in the database: only stored objects can be query arguments."
            )
        return {"$link": {"class": value._drumlin_class.name, "key": key}}
    if isinstance(value, GeoShape):
        return value.to_json()
    if isinstance(value, enum.Enum):  # a model's persisted-value transforms: stored as the value
        return _argument(value.value, position)
    if isinstance(value, pathlib.PurePath):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, Mapping):
        return {key: _argument(item, position) for key, item in value.items()}
    if isinstance(value, Iterable):
        # A list argument (`age IN $0`): a list, tuple, set (IN needs no order), generator, or a
        # drumlin List, Set or Results (their objects stand for themselves, as above).
        return [_argument(item, position) for item in value]
    return value  # datetime, Decimal, UUID, ObjectId: ejson_dumps writes them


def _plain_json(value: Any) -> str | None:
    """The JSON of a str, int, bool, None or finite float argument (what ``ejson_dumps`` writes),
    or None for anything else."""
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if kind is int:
        return str(check_int64(value))
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is float and value - value == 0.0:  # finite: NaN and infinities take the EJSON path
        return repr(value)
    return None


def query_args(args: Sequence[Any]) -> bytes | None:
    """The ``args_json`` of a query: a JSON array of the ``$n`` arguments, or None for none."""
    if not args:
        return None
    if len(args) == 1 and type(args[0]) is str:  # the commonest: one string (a name, a key)
        try:
            return ("[" + _encode_string(args[0]) + "]").encode("utf-8")
        except UnicodeEncodeError:
            pass  # a lone surrogate: the general path reports it
    # Fast path for the common arguments (a name, a number): no encoder, no list of values.
    parts = [_plain_json(value) for value in args]
    if None not in parts:
        try:
            return ("[" + ",".join(parts) + "]").encode("utf-8")  # type: ignore[arg-type]
        except UnicodeEncodeError:
            pass  # a lone surrogate: the general path reports it
    try:
        values = [_argument(value, position) for position, value in enumerate(args)]
    except RecursionError:
        # A list nested thousands deep, or one that contains itself.
        raise LimitError("Query arguments: a value is nested too deeply to serialize") from None
    try:
        text = ejson_dumps(values)
    except TypeMismatchError as error:
        raise TypeMismatchError(f"Query arguments: {error.message}") from None
    return text.encode("utf-8")


def _key_path(key: object, what: str) -> str:
    """One key path (``"age"``, ``"dog.name"``) for sort() or distinct()."""
    if not isinstance(key, str):
        raise TypeMismatchError(f"{what} key paths are strings, not {type(key).__name__}")
    if not key or "," in key or any(c.isspace() for c in key):
        hint = ""
        if what == "sort()":
            hint = " (give the direction with ascending=False or a (key path, False) pair)"
        raise InvalidArgumentError(f"{what} takes key paths such as 'age' or 'dog.name', not {key!r}{hint}")
    encode_name(key, "key path")  # no NUL, valid Unicode
    return key


def sort_descriptor(keys: SortKeys, ascending: bool = True) -> bytes:
    """``"age DESC, name ASC"`` for ``sort([("age", False), "name"])``."""
    if not isinstance(ascending, bool):
        raise TypeMismatchError(f"ascending must be True or False, not {type(ascending).__name__}")
    entries: list[tuple[object, object]]
    if isinstance(keys, str) and (" " in keys.strip() or "," in keys):
        return _sort_text(keys, ascending)
    if isinstance(keys, str):
        entries = [(keys, ascending)]
    elif isinstance(keys, Sequence):
        entries = []
        for entry in keys:
            if isinstance(entry, tuple):
                if len(entry) != 2:
                    raise InvalidArgumentError(f"sort() takes (key path, ascending) pairs, got {entry!r}")
                entries.append(entry)
            else:
                entries.append((entry, ascending))
        if not entries:
            raise InvalidArgumentError("sort() needs at least one key path")
    else:
        raise TypeMismatchError(
            f"sort() takes a key path or a list of key paths and (key path, ascending) pairs, not "
            f"{type(keys).__name__}"
        )
    terms = []
    for key, up in entries:
        if not isinstance(up, bool):
            raise TypeMismatchError(f"ascending must be True or False, not {type(up).__name__}")
        terms.append(f"{_key_path(key, 'sort()')} {'ASC' if up else 'DESC'}")
    return ", ".join(terms).encode("utf-8")


def _sort_text(text: str, ascending: bool) -> bytes:
    """``sort("age DESC, name")``: key paths each with an optional ASC or DESC, as in C and Swift."""
    if not ascending:
        raise InvalidArgumentError(
            f"sort({text!r}) gives its directions in the text: leave out ascending=False"
        )
    terms = []
    for part in text.split(","):
        words = part.split()
        if not words or len(words) > 2 or (len(words) == 2 and words[1].upper() not in ("ASC", "DESC")):
            raise InvalidArgumentError(
                f"sort() takes key paths each with an optional ASC or DESC, such as 'age DESC, name', "
                f"not {text!r}"
            )
        direction = words[1].upper() if len(words) == 2 else "ASC"
        terms.append(f"{_key_path(words[0], 'sort()')} {direction}")
    return ", ".join(terms).encode("utf-8")


# ---- Results -------------------------------------------------------------------------------------


def _in_pages(rows: list[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    """``rows`` read at once, in pages of ``PAGE_ROWS`` (as objects are made: Results.__iter__)."""
    for start in range(0, len(rows), PAGE_ROWS):
        yield rows[start:start + PAGE_ROWS]


class ResultsHandle(OwnedPointer, _ffi.drumlin_results_p):  # type: ignore[misc,valid-type]
    """A results handle owned by one :class:`Results` (see ``OwnedPointer``): the results of a
    lookup (``db.query``) that answer from their first rows never open one, and pay no finalizer."""

    _type_ = _ffi._drumlin_results
    _plain = _ffi.drumlin_results_p
    _free = "drumlin_results_release"


class Results(HandleBase, Sequence[_T_co], Generic[_T_co]):
    """A live, read-only sequence of :class:`~drumlin.Object`.

    Reading: ``len(results)``, ``results[i]`` (negative indexes too), ``results[a:b]`` (a list),
    iteration, ``in``, ``index``, ``==`` (with other Results and Python lists of Objects),
    ``to_list()`` and ``to_dicts()``. Refining (each returns new live Results): ``filter``,
    ``sort``, ``distinct``, ``limit``; ``snapshot()`` freezes the current objects. Aggregates:
    ``min``, ``max``, ``sum``, ``avg``. Writing: ``delete_all()`` (inside ``db.write()``).
    """

    _drumlin_annotation_kind: ClassVar[str] = "results"  # read by model.py

    __slots__ = ("_drumlin_class", "_drumlin_db", "_drumlin_first", "_drumlin_owner", "_drumlin_query", "_drumlin_view")

    _kind = "results"

    def _closed_message(self) -> str:
        return "These results are closed."
    _drumlin_db: Database
    _drumlin_class: ClassInfo
    _drumlin_owner: Object | None
    _drumlin_view: Any
    _drumlin_first: tuple[int, int, list[tuple[Any, ...]]] | None
    _drumlin_query: tuple[bytes, bytes | None] | None

    def __init__(
        self, db: Database, info: ClassInfo, handle: Any, owner: Object | None = None, view: Any = None
    ) -> None:
        # Results come from the library, never from user code.
        self._drumlin_h = handle
        self._drumlin_db = db
        self._drumlin_class = info
        self._drumlin_owner = owner  # keeps the object alive whose backlinks or list these are
        self._drumlin_view = view  # a Projection class each object is seen through, or None
        # Results of db.query: the query (to open the handle when one is needed) and the rows
        # read with it, with the read version and the process's call count then (see _query).
        self._drumlin_query = None
        self._drumlin_first = None

    @classmethod
    def _backlinks(cls, owner: Object, property_name: bytes, origin: ClassInfo) -> Results[Any]:
        """The objects of class ``origin`` linking to ``owner``: ``property_name`` is a
        linkingObjects property, or ``@links.<Class>.<property>``."""
        db = owner._drumlin_db
        handle = owner._ptr()
        out = ResultsHandle()
        with owner._drumlin_lock:
            _ffi.drumlin_object_get_backlinks(handle, property_name, byref(out))
        return cls(db, origin, out, owner)

    def _open(self) -> Any:
        # Results of db.query answered from their first rows: the handle of their query.
        ctext, cargs = self._drumlin_query  # type: ignore[misc]
        out = ResultsHandle()
        _ffi.drumlin_query(self._drumlin_db._ptr(), self._drumlin_class.cname, ctext, cargs, byref(out))
        return out

    def _drumlin_take(self) -> tuple[int, list[tuple[Any, ...]]] | None:
        """The read version and the rows read with the query, for the first read of these results
        if nothing may have changed since (see _query) and the results and the database are open;
        else None. Later reads re-evaluate the results through their handle."""
        first = self._drumlin_first
        if first is None:
            return None
        self._drumlin_first = None
        # Kept rows exist only for a class with row access (db.query); closing the results drops
        # them (_release), closing the database makes its version cell DEAD and is a call.
        if first[0] != self._drumlin_class.rows.version.value or first[1] != CALLS[0]:  # type: ignore[union-attr]
            return None
        return first[0], first[2]

    def _release(self, handle: Any) -> None:
        self._drumlin_first = None  # closed results answer nothing from the rows read with them
        if handle is not UNOPENED:
            handle.release()

    def observe(
        self, callback: Callable[[CollectionChange], None], key_paths: Iterable[str] | None = None
    ) -> NotificationToken:
        """Call ``callback(change)`` after each commit (and each ``db.refresh()`` bringing other
        connections' commits) that changes these results: ``change.deletions`` (indices before),
        ``change.insertions`` and ``change.modifications`` (indices after). With ``key_paths``,
        only changes to those properties count as modifications. Keep the returned token:
        delivery stops when it is cancelled or garbage-collected."""
        return notifications.register(
            self._drumlin_db, _ffi.drumlin_results_observe, self._ptr(), callback,
            notifications.collection_change, key_paths,
        )

    def _derive(self, function: Callable[..., int], *args: Any) -> Results[_T_co]:
        out = ResultsHandle()
        function(self._ptr(), *args, byref(out))
        return Results(self._drumlin_db, self._drumlin_class, out, self._drumlin_owner, self._drumlin_view)

    # ---- Refining ------------------------------------------------------------------------------

    def filter(self, query: str, *args: Any) -> Results[_T_co]:
        """The objects that match a Realm Query Language predicate, which may end in ``SORT``,
        ``DISTINCT`` and ``LIMIT`` (see docs/queries.md). ``$0``, ``$1``... are ``args``."""
        ctext = encode_query(query)
        return self._derive(_ffi.drumlin_results_filter, ctext, query_args(args))

    def sort(self, key: SortKeys, ascending: bool = True) -> Results[_T_co]:
        """Sorted by a key path (``sort("age", ascending=False)``, to-one links allowed:
        ``"dog.name"``) or several (``sort([("age", False), ("name", True)])``; a bare key path
        in the list takes ``ascending``), or by text as in C and Swift: ``sort("age DESC, name")``.
        Nulls sort first; ties keep the previous order."""
        return self._derive(_ffi.drumlin_results_sort, sort_descriptor(key, ascending))

    def distinct(self, *keys: str | Sequence[str]) -> Results[_T_co]:
        """The first object of each distinct combination of the key paths:
        ``distinct("age")``, ``distinct("age", "city")`` or ``distinct(["age", "city"])``."""
        paths: list[object] = []
        for key in keys:
            if isinstance(key, (list, tuple)):
                paths.extend(key)
            else:
                paths.append(key)
        if not paths:
            raise InvalidArgumentError("distinct() needs at least one key path")
        text = ", ".join(_key_path(path, "distinct()") for path in paths)
        return self._derive(_ffi.drumlin_results_distinct, text.encode("utf-8"))

    def limit(self, count: int) -> Results[_T_co]:
        """At most the first ``count`` objects."""
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeMismatchError(f"limit() takes an int, not {type(count).__name__}")
        if count < 0:
            raise InvalidArgumentError(f"limit() needs a count of 0 or more, got {count}")
        return self._derive(_ffi.drumlin_results_limit, min(count, (1 << 63) - 1))

    def snapshot(self) -> Results[_T_co]:
        """The current objects, frozen: later changes neither add nor reorder them (objects
        deleted since are left out when read)."""
        return self._derive(_ffi.drumlin_results_snapshot)

    # ---- Aggregates ----------------------------------------------------------------------------

    def _aggregate(self, function: Callable[..., int], prop: str) -> Any:
        name = encode_name(prop, "property")
        value = _ffi.drumlin_value()
        function(self._ptr(), name, value)
        return from_value(value)

    def min(self, prop: str) -> Any:
        """The smallest value of a numeric or date property; None when there are no objects."""
        return self._aggregate(_ffi.drumlin_results_min, prop)

    def max(self, prop: str) -> Any:
        """The largest value of a numeric or date property; None when there are no objects."""
        return self._aggregate(_ffi.drumlin_results_max, prop)

    def sum(self, prop: str) -> Any:
        """The sum of a numeric property (nulls are skipped); 0 when there are no objects."""
        return self._aggregate(_ffi.drumlin_results_sum, prop)

    def avg(self, prop: str) -> Any:
        """The average of a numeric property (nulls are skipped), a float; None when there are
        no objects."""
        return self._aggregate(_ffi.drumlin_results_average, prop)

    # ---- Reading -------------------------------------------------------------------------------

    def __len__(self) -> int:
        kept = self._drumlin_take()
        if kept is not None:
            return len(kept[1])
        count = c_size_t()
        _ffi.drumlin_results_count(self._ptr(), byref(count))
        return count.value

    def count(self, value: Any = _MISSING) -> int:
        """``count()``: the number of objects (as ``len``). ``count(obj)``: how many times
        ``obj`` occurs (the ``Sequence`` method: backlinks list an object once per link)."""
        if value is _MISSING:
            return len(self)
        return self._drumlin_objects().count(value)

    def __bool__(self) -> bool:
        kept = self._drumlin_take()
        if kept is not None:
            return len(kept[1]) > 0
        # `if results:` asks whether there is one object, not how many (drumlin_results_is_empty).
        empty = c_int()
        _ffi.drumlin_results_is_empty(self._ptr(), byref(empty))
        return not empty.value

    @overload
    def __getitem__(self, index: int) -> _T_co: ...

    @overload
    def __getitem__(self, index: slice) -> list[_T_co]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.start, index.stop, index.step
            if (
                self._drumlin_first is None
                and step in (None, 1)
                and (start is None or (type(start) is int and start >= 0))
                and type(stop) is int
                and stop >= 0
            ):
                # The first objects, through LIMIT (a sort before it keeps only them as it sorts):
                # results[:10] reads ten rows, not every key.
                return self.limit(stop)._drumlin_objects()[start:]
            if self._drumlin_db._writer is not None or self._drumlin_first is not None:
                return self._drumlin_objects()[index]
            return [self._get(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, bool) or not hasattr(index, "__index__"):
            raise TypeMismatchError(f"results indices must be integers or slices, not {type(index).__name__}")
        index = index.__index__()
        kept = self._drumlin_take()
        if kept is not None:
            version, rows = kept
            position = index + len(rows) if index < 0 else index
            if not 0 <= position < len(rows):
                raise IndexError(f"Index {index} is out of bounds for results of size {len(rows)}.")
            info = self._drumlin_class
            found = info.makers.from_row(self._drumlin_db, rows[position], version)
            view = self._drumlin_view
            return found if view is None else view(found)
        if index > INT64_MAX:
            # Never passed on: the C size_t would wrap (2**64 + 2 would read the third object).
            raise IndexError(f"Index {index} is out of bounds for results of size {len(self)}.")
        if index >= 0:
            # No count first: the read by position reports an index past the end (a count and
            # then the read would run the query twice when the results were not read before).
            try:
                return self._get(index)
            except InvalidArgumentError as error:
                raise IndexError(error.message) from None
        if index == -1:
            # The last object: read alone (drumlin_results_get_last), not after every key.
            out = _ffi.drumlin_object_p()
            if _ffi.drumlin_results_get_last(self._ptr(), byref(out)) == DRUMLIN_NOT_FOUND:
                raise IndexError("Index -1 is out of bounds for results of size 0.")
            return self._wrap(out)
        # From the end: the keys in order first (a position lookup reads and keeps them until the
        # next change), so that the count and the read by position both use them instead of
        # counting separately.
        _ffi.drumlin_results_index_of_key(self._ptr(), 0, byref(c_int64()))
        size = len(self)
        position = index + size
        if position < 0:
            raise IndexError(f"Index {index} is out of bounds for results of size {size}.")
        return self._get(position)

    def _get(self, position: int) -> Any:
        out = _ffi.drumlin_object_p()
        _ffi.drumlin_results_get_object(self._ptr(), position, byref(out))
        return self._wrap(out)

    def _wrap(self, out: Any) -> Any:
        """The object of an object handle these results' C call returned (seen through the view)."""
        found = self._drumlin_class.object_type(self._drumlin_db, out)
        view = self._drumlin_view
        return found if view is None else view(found)

    def _drumlin_objects(self) -> list[Any]:
        """The objects now in the results, read in one call (``drumlin_results_get_rows``): each
        keeps its row (see _rows), and has no handle until a call needs one. (A list keeps every
        object, so pages would free nothing early: in interleaved runs both ways took 119-122 ms
        for 50k tasks.)"""
        return list(self._drumlin_each(True))

    def _drumlin_each(self, whole: bool = False) -> Iterator[Any]:
        """The objects now in the results, made a page of rows at a time as the loop reaches them
        (``makers.of_rows``). The rows are read in pages as the loop reaches them
        (``results_pages``); at once when ``whole``, or inside this thread's write transaction,
        where the loop's own writes would otherwise change the results under it."""
        db = self._drumlin_db
        info = self._drumlin_class
        access = info.rows
        first = self._drumlin_first
        if first is not None:
            # _drumlin_take, inline: this is the path of every loop over db.query(...).
            self._drumlin_first = None
            if first[0] != access.version.value or first[1] != CALLS[0]:  # type: ignore[union-attr]
                first = None
        pages: Iterable[list[tuple[Any, ...]]]
        if first is not None:
            version, rows = first[0], first[2]
            if len(rows) == 1:
                # One object (a lookup by a unique value): made now, one call, no generator.
                found = info.makers.from_row(db, rows[0], version)
                view = self._drumlin_view
                return iter((found if view is None else view(found),))
            pages = (rows,)  # at most FIRST_ROWS
        else:
            handle = self._ptr()
            if db._drumlin_h is None or access is None:
                db._ptr()  # closed: the error
            version = access.version.value  # type: ignore[union-attr]
            if whole or db._writer == _get_ident():
                pages = _in_pages(results_rows(access, handle))  # type: ignore[arg-type]
            else:
                pages = results_pages(db, self, access, version)  # type: ignore[arg-type]
        make = partial(info.makers.of_rows, db, version)
        objects = chain.from_iterable(map(make, pages))
        view = self._drumlin_view
        return objects if view is None else map(view, objects)

    # Iterating is _drumlin_each itself (one frame fewer on every loop over results); type checkers
    # see what it yields: the results' own type (`for p in db.objects(Person)`: a Person).
    if TYPE_CHECKING:

        def __iter__(self) -> Iterator[_T_co]: ...

    else:
        __iter__ = _drumlin_each

    def __reversed__(self) -> Iterator[_T_co]:
        objects: list[_T_co] = self._drumlin_objects()
        return reversed(objects)

    def __contains__(self, value: object) -> bool:
        if self._drumlin_view is not None:
            return value in self._drumlin_objects()
        return self._drumlin_position(value) >= 0

    def _drumlin_position(self, value: object) -> int:
        """The first position of the stored object ``value`` in these results, or -1 (for
        anything else too): ``drumlin_results_index_of_key``, no object made per element."""
        if not isinstance(value, Object) or value._drumlin_seen == UNMANAGED:
            return -1
        if value._drumlin_class is not self._drumlin_class or value._drumlin_db is not self._drumlin_db:
            return -1
        key = value._drumlin_object_key()
        if key is None:
            return -1
        out = c_int64()
        _ffi.drumlin_results_index_of_key(self._ptr(), key, byref(out))
        return out.value

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The first position of ``value`` (ValueError when it is not there)."""
        if self._drumlin_view is None and start == 0 and stop is None:
            position = self._drumlin_position(value)
            if position < 0:
                raise ValueError(f"{value!r} is not in the results")
            return position
        objects = self._drumlin_objects()
        return objects.index(value, start, len(objects) if stop is None else stop)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Results):
            return self._drumlin_objects() == other._drumlin_objects()
        if isinstance(other, list):
            return self._drumlin_objects() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def to_list(self) -> list[_T_co]:
        """The objects, as a plain list (a snapshot of which objects are in the results)."""
        return self._drumlin_objects()

    def to_dicts(self, *, json: bool = False) -> list[dict[str, Any]]:
        """Every object as a dict (as ``Object.to_dict()``), in one read. ``json=True`` gives
        values that ``json.dumps`` accepts (Extended JSON for types JSON lacks), as
        :meth:`to_json` writes them."""
        if json:
            result: list[dict[str, Any]] = _json_loads(self.to_json())
            return result
        db = self._drumlin_db
        info = self._drumlin_class
        access = info.rows
        handle = self._ptr()
        if db._drumlin_h is None or access is None:
            db._ptr()  # closed: the error
        build = info.dict_builder or dict_builder(db, info)
        found = results_values(access, handle)  # type: ignore[arg-type]
        return found if build is as_is else list(map(build, found))

    def to_json(self) -> str:
        """Every object as one Extended JSON array (text), links as keys as in
        ``Object.to_dict()``. The corresponding C function is ``drumlin_results_to_json``."""
        out = c_void_p()
        _ffi.drumlin_results_to_json(self._ptr(), byref(out))
        return take_string(out)

    # ---- Deleting ------------------------------------------------------------------------------

    def delete_all(self) -> int:
        """Delete every object in the results (inside ``db.write()``), with the same cascade as
        deleting each one; returns how many were deleted. ``db.delete(results)`` does the same."""
        handle = self._ptr()
        db = self._drumlin_db
        if db._writer != _get_ident():
            return db._outside_write(self._delete_all_now, handle)
        return self._delete_all_now(handle)

    @staticmethod
    def _delete_all_now(handle: Any) -> int:
        deleted = c_int64()
        _ffi.drumlin_results_delete_all(handle, byref(deleted))
        return deleted.value

    def __reduce__(self) -> Any:
        raise TypeError("drumlin.Results is a live view and cannot be pickled; use to_dicts()")

    def __repr__(self) -> str:
        name = f"drumlin.Results {self._drumlin_class.name}"
        if self._drumlin_h is None:
            return f"<{name} (closed)>"
        try:
            return f"<{name} size={len(self)}>"
        except Exception:
            return f"<{name} (unreadable)>"
