"""Live collection properties: :class:`List`, :class:`Set` and :class:`Dictionary`.

Reading a list, set or dictionary property of an :class:`~drumlin.Object` returns one of these: a
live view over a C handle (``drumlin_list``, ``drumlin_set``, ``drumlin_dict``) that reads the current
state on every call and writes through to the database (inside ``db.write()``). They implement
``MutableSequence``, ``MutableSet`` and ``MutableMapping``.

- Elements of object collections are :class:`~drumlin.Object` values. Writing one takes an Object
  (a typed link), a dict (a new object: embedded, or created from the payload), or, for a class
  with a primary key, that key's value (an existing object; an error if there is none).
- Nested lists and dicts inside ``mixed`` elements read as plain Python values (snapshots).
- Iteration, ``==``, ``in``, ``index()`` and ``count()`` read the whole collection once (one
  ``*_to_json`` call), so they cost one database read, not one per element.

A view keeps its Object (and so its database) alive; after ``db.close()`` it raises
:class:`~drumlin.MisuseError`; ``close()`` releases its handle early (garbage collection does too).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, MutableSequence, MutableSet
from collections.abc import Set as AbstractSet
from ctypes import byref, c_int
from typing import Any, ClassVar, Generic, TypeVar, overload

from . import _ffi
from ._convert import NESTED_TYPES, READERS, SCALAR_LIMIT, to_value
from ._errors import InvalidArgumentError, TypeMismatchError
from ._handle import ListHandle, SetHandle
from ._payload import fill_link, prepare_mixed
from ._rows import UNMANAGED
from ._view import _Collection, _plain
from .object import Object, mixed_link_object
from .results import Results, ResultsHandle, SortKeys, encode_query, query_args, sort_descriptor
from .values import check_mixed_keys, ejson_dumps

__all__ = ["List", "Set"]

_T = TypeVar("_T")
_get_ident = threading.get_ident
_drumlin_value = _ffi.drumlin_value

# ---- List ----------------------------------------------------------------------------------------


class List(_Collection, MutableSequence[_T], Generic[_T]):
    """A list property: ordered, duplicates allowed. A live ``MutableSequence``.

    Reading: ``len``, ``lst[i]`` (negative indexes too), ``lst[a:b]`` (a Python list), iteration,
    ``in``, ``index``, ``count``, ``==`` with lists. Writing (inside ``db.write()``):
    ``lst[i] = v``, ``del lst[i]`` (slices too), ``insert``, ``append``, ``extend``, ``pop``,
    ``remove``, ``clear`` and ``move(from, to)``.
    """

    _drumlin_annotation_kind: ClassVar[str] = "list"  # read by model.py

    __slots__ = ()

    _kind = "list"
    _ffi_observe = staticmethod(_ffi.drumlin_list_observe)
    _ffi_handle = ListHandle
    _ffi_open = staticmethod(_ffi.drumlin_object_get_list)
    _ffi_to_json = staticmethod(_ffi.drumlin_list_to_json)
    _ffi_size = staticmethod(_ffi.drumlin_list_size)
    _ffi_clear = staticmethod(_ffi.drumlin_list_clear)

    # ---- Reading

    def _drumlin_position(self, index: Any, size: int) -> int:
        """A Python index (negative counts from the end) as a position; IndexError if outside."""
        if type(index) is not int:
            if isinstance(index, bool) or not hasattr(index, "__index__"):
                raise TypeMismatchError(
                    f"list indices must be integers or slices, not {type(index).__name__}"
                )
            index = index.__index__()
        position: int = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError(
                f"Index {index} is out of bounds for list {self._drumlin_prop.label} of size {size}."
            )
        return position

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return self._drumlin_snapshot()[index]
        return self._drumlin_get(self._drumlin_position(index, len(self)))

    def _drumlin_get(self, position: int) -> Any:
        items = self._drumlin_packed()
        if items is not None:
            return self._drumlin_mixed_values(items[position])
        handle = self._ptr()
        target = self._drumlin_target
        if target is not None:
            out = _ffi.drumlin_object_p()
            with self._drumlin_lock:
                _ffi.drumlin_list_get_object(handle, position, byref(out))
            return target.object_type(self._drumlin_owner._drumlin_db, out)
        value = _drumlin_value()
        with self._drumlin_lock:
            _ffi.drumlin_list_get(handle, position, value)
            kind = value.type
            reader = READERS[kind] if 0 <= kind < SCALAR_LIMIT else None
            if reader is not None:
                return reader(value.as_)
        if kind == _ffi.DRUMLIN_TYPE_LINK:  # a mixed element holding an object
            db = self._drumlin_owner._drumlin_db
            return mixed_link_object(db, value.as_.link.class_index, value.as_.link.key)
        return self._drumlin_nested(position)

    def _drumlin_snapshot(self) -> list[Any]:
        values: list[Any] = self._drumlin_json()
        target = self._drumlin_target
        if target is None:
            mixed: list[Any] = self._drumlin_mixed_values(values)
            return mixed
        if target.is_embedded:  # printed as nested objects, without a key: read each
            return [self._drumlin_get(i) for i in range(len(values))]
        return self._drumlin_objects(values)

    def __iter__(self) -> Iterator[_T]:
        if self._drumlin_target is None and self._drumlin_prop.type != _ffi.DRUMLIN_PROPERTY_MIXED:
            # The packed items as they are: kept unchanged while they are current (a later read
            # makes a new list), so a loop needs no copy. (_drumlin_packed's first test inline.)
            seen, items = self._drumlin_cached
            rows = self._drumlin_rows
            if rows is not None and seen == rows.version.value:
                return iter(items)
            items = self._drumlin_packed()
            if items is not None:
                return iter(items)
        return iter(self._drumlin_snapshot())

    def __reversed__(self) -> Iterator[_T]:
        return iter(self._drumlin_snapshot()[::-1])

    def __contains__(self, value: object) -> bool:
        return value in self._drumlin_snapshot()

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The first position of ``value`` (ValueError when absent)."""
        values = self._drumlin_snapshot()
        return values.index(value, start, len(values) if stop is None else stop)

    def count(self, value: Any) -> int:
        """How many times ``value`` occurs."""
        return self._drumlin_snapshot().count(value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, List):
            return self._drumlin_snapshot() == other._drumlin_snapshot()
        if isinstance(other, list):
            return self._drumlin_snapshot() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    # ---- Queries (lists of objects)

    def _drumlin_results(self, query: str | None, args: tuple[Any, ...]) -> Results[Any]:
        """``drumlin_list_query``: the list's objects as live Results, in list order, optionally
        filtered. A list of primitive values cannot be queried (the engine's TypeMismatchError)."""
        ctext = None if query is None else encode_query(query)
        cargs = query_args(args)
        handle = self._ptr()
        out = ResultsHandle()
        with self._drumlin_lock:
            _ffi.drumlin_list_query(handle, ctext, cargs, byref(out))
        target = self._drumlin_target
        assert target is not None  # a list of values: drumlin_list_query refused it (TypeMismatchError)
        return Results(self._drumlin_owner._drumlin_db, target, out, self._drumlin_owner)

    def filter(self, query: str, *args: Any) -> Results[Any]:
        """The list's objects that match a query, in list order (or as the query's SORT says), as
        live :class:`~drumlin.Results`. Lists of objects only."""
        return self._drumlin_results(query, args)

    def sort(self, key: SortKeys, ascending: bool = True) -> Results[Any]:
        """The list's objects sorted, as live :class:`~drumlin.Results` (the list itself is not
        reordered): ``ann.dogs.sort("age")``, ``ann.dogs.sort([("age", False), "name"])``.
        Lists of objects only."""
        sort_descriptor(key, ascending)  # check the arguments before reading the list
        return self._drumlin_results(None, ()).sort(key, ascending)

    # ---- Writing

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(index, slice):
            self._drumlin_write(self._drumlin_set_slice, index, list(value))
        else:
            self._drumlin_write(self._drumlin_set_now, index, value)

    def _drumlin_set_now(self, index: Any, value: Any) -> None:
        handle = self._ptr()
        position = self._drumlin_position(index, self._drumlin_size())
        if self._drumlin_target is None and isinstance(value, NESTED_TYPES):
            # A nested list or dict in a mixed element: replaced through the owner, in one call.
            owner = self._drumlin_owner
            owner_handle = owner._ptr()
            path = ejson_dumps([position]).encode("utf-8")
            check_mixed_keys(value, self._drumlin_prop.label)
            value = prepare_mixed(owner._drumlin_db, self._drumlin_prop, value)
            with owner._drumlin_lock:
                _ffi.drumlin_object_set_mixed_json(
                    owner_handle, self._drumlin_prop.cname, path, ejson_dumps(value).encode("utf-8")
                )
            return
        if self._drumlin_needs_json(value):
            # A new object or a primary key: the engine decodes and checks it, in one call.
            payload = self._drumlin_element_json(value)
            with self._drumlin_lock:
                _ffi.drumlin_list_set_json(handle, position, payload)
            return
        cvalue = _drumlin_value()
        self._drumlin_fill(value, cvalue)
        with self._drumlin_lock:
            _ffi.drumlin_list_set(handle, position, cvalue)

    def _drumlin_set_slice(self, index: slice, values: list[Any]) -> None:
        if self._drumlin_target is None:
            raw = self._drumlin_raw()
            try:
                raw[index] = _plain(values)
            except ValueError as error:  # an extended slice of another size
                raise InvalidArgumentError(str(error)) from None
            self._drumlin_rewrite(raw)
            return
        size = self._drumlin_size()
        start, stop, step = index.indices(size)
        if step == 1:
            stop = max(start, stop)
            self._drumlin_insert_all(stop, values)  # the new elements first: undone if one fails
            for position in reversed(range(start, stop)):
                self._drumlin_erase(position)
            return
        positions = range(start, stop, step)
        if len(positions) != len(values):
            raise InvalidArgumentError(
                f"attempt to assign sequence of size {len(values)} to extended slice of size {len(positions)}"
            )
        for position, value in zip(positions, values):
            self._drumlin_set_now(position, value)

    def __delitem__(self, index: Any) -> None:
        self._drumlin_write(self._drumlin_delete_now, index)

    def _drumlin_delete_now(self, index: Any) -> None:
        if not isinstance(index, slice):
            self._drumlin_erase(self._drumlin_position(index, self._drumlin_size()))
        elif self._drumlin_target is None:
            raw = self._drumlin_raw()
            del raw[index]
            self._drumlin_rewrite(raw)
        else:
            for position in sorted(range(*index.indices(self._drumlin_size())), reverse=True):
                self._drumlin_erase(position)

    def _drumlin_erase(self, position: int) -> None:
        handle = self._ptr()
        with self._drumlin_lock:
            _ffi.drumlin_list_erase(handle, position)

    def insert(self, index: int, value: Any) -> None:
        """Insert ``value`` before ``index`` (as ``list.insert``: clamped to the list's ends)."""
        self._drumlin_write(self._drumlin_insert_clamped, index, value)

    def append(self, value: Any) -> None:
        """Add ``value`` at the end."""
        self._drumlin_write(self._drumlin_insert_clamped, None, value)

    def _drumlin_insert_clamped(self, index: int | None, value: Any) -> None:
        size = self._drumlin_size()
        if index is None:
            position = size
        else:
            if isinstance(index, bool) or not hasattr(index, "__index__"):
                raise TypeMismatchError(f"list indices must be integers, not {type(index).__name__}")
            index = index.__index__()
            position = min(max(index + size if index < 0 else index, 0), size)
        self._drumlin_insert_now(position, value)

    def _drumlin_insert_now(self, position: int, value: Any) -> None:
        handle = self._ptr()
        if self._drumlin_needs_json(value):
            payload = self._drumlin_element_json(value)
            with self._drumlin_lock:
                _ffi.drumlin_list_insert_json(handle, position, payload)
            return
        cvalue = _drumlin_value()
        self._drumlin_fill(value, cvalue)
        with self._drumlin_lock:
            _ffi.drumlin_list_insert(handle, position, cvalue)

    def _drumlin_insert_all(self, position: int, values: list[Any]) -> None:
        """Insert ``values`` at ``position`` in a list of objects: one call, all or nothing (the
        engine creates no object when one of them is refused)."""
        if not values:
            return
        payload = self._drumlin_many_json(values)
        handle = self._ptr()
        with self._drumlin_lock:
            _ffi.drumlin_list_insert_many_json(handle, position, payload)

    def reverse(self) -> None:
        """Reverse the list in place (objects by moves, so embedded objects stay where they are)."""
        self._drumlin_write(self._drumlin_reverse_now)

    def _drumlin_reverse_now(self) -> None:
        if self._drumlin_target is None:
            self._drumlin_rewrite(self._drumlin_raw()[::-1])
            return
        size = self._drumlin_size()
        handle = self._ptr()
        with self._drumlin_lock:
            for position in range(size - 1):
                _ffi.drumlin_list_move(handle, size - 1, position)

    def extend(self, values: Iterable[Any]) -> None:
        """Append every element of ``values``, all or nothing."""
        items = list(values)  # a snapshot first: `lst.extend(lst)` doubles the list
        self._drumlin_write(self._drumlin_extend_now, items)

    def _drumlin_extend_now(self, items: list[Any]) -> None:
        if not items:
            return
        if self._drumlin_target is None:
            self._drumlin_rewrite(self._drumlin_raw() + self._drumlin_plain(items))
        else:
            self._drumlin_insert_all(self._drumlin_size(), items)


    def move(self, source: int, destination: int) -> None:
        """Move the element at ``source`` so that it ends up at ``destination`` (negative indexes
        count from the end)."""
        self._drumlin_write(self._drumlin_move_now, source, destination)

    def _drumlin_move_now(self, source: int, destination: int) -> None:
        size = self._drumlin_size()
        start = self._drumlin_position(source, size)
        end = self._drumlin_position(destination, size)
        handle = self._ptr()
        with self._drumlin_lock:
            _ffi.drumlin_list_move(handle, start, end)


# ---- Set -----------------------------------------------------------------------------------------


class Set(_Collection, MutableSet[_T], Generic[_T]):
    """A set property: unique elements, in insertion order. A live ``MutableSet``.

    ``len``, ``in``, iteration, ``==`` with sets, the set operators (``&``, ``|``, ``-``, ``^``
    return builtin sets; ``|=`` and friends change this one), and inside ``db.write()``: ``add``,
    ``update``, ``discard``, ``remove``, ``pop``, ``clear``.
    """

    _drumlin_annotation_kind: ClassVar[str] = "set"  # read by model.py

    __slots__ = ()

    _kind = "set"
    _ffi_observe = staticmethod(_ffi.drumlin_set_observe)
    _ffi_handle = SetHandle
    _ffi_open = staticmethod(_ffi.drumlin_object_get_set)
    _ffi_to_json = staticmethod(_ffi.drumlin_set_to_json)
    _ffi_size = staticmethod(_ffi.drumlin_set_size)
    _ffi_clear = staticmethod(_ffi.drumlin_set_clear)

    @classmethod
    def _from_iterable(cls, values: Iterable[Any]) -> set[Any]:
        # The operators of collections.abc.Set build their result with this: a builtin set.
        return set(values)

    def _drumlin_snapshot(self) -> list[Any]:
        values: list[Any] = self._drumlin_json()
        if self._drumlin_target is None:
            mixed: list[Any] = self._drumlin_mixed_values(values)
            return mixed
        return self._drumlin_objects(values)

    def __iter__(self) -> Iterator[_T]:
        return iter(self._drumlin_snapshot())

    def _drumlin_lookup(self, value: Any) -> _ffi.drumlin_value | None:
        """The typed value to look ``value`` up by, or None when it cannot be an element."""
        cvalue = _drumlin_value()
        if self._drumlin_target is not None:
            if isinstance(value, Object):
                if value._drumlin_db is not self._drumlin_owner._drumlin_db:
                    return None
                found: Object | None = value
            elif value is None or isinstance(value, (dict, list, tuple)):
                return None
            else:
                found = self._drumlin_reference(value)
                if found is None:
                    return None
            self._drumlin_fill(found, cvalue)
            return cvalue
        if isinstance(value, NESTED_TYPES):
            return None
        if isinstance(value, Object):  # a set of mixed values may hold objects
            if value._drumlin_seen == UNMANAGED or value._drumlin_db is not self._drumlin_owner._drumlin_db:
                return None
            fill_link(self._drumlin_owner._drumlin_db, value, cvalue)
            return cvalue
        try:
            to_value(value, self._drumlin_prop, cvalue)
        except (TypeMismatchError, InvalidArgumentError):
            return None
        return cvalue

    def __contains__(self, value: object) -> bool:
        cvalue = self._drumlin_lookup(value)
        if cvalue is None:
            return False
        handle = self._ptr()
        found = c_int()
        with self._drumlin_lock:
            _ffi.drumlin_set_find(handle, cvalue, byref(found))
        return bool(found.value)

    def add(self, value: Any) -> None:
        """Add ``value`` (nothing happens when it is already there)."""
        self._drumlin_write(self._drumlin_add_now, value)

    def _drumlin_add_now(self, value: Any) -> bool:
        handle = self._ptr()
        inserted = c_int()
        if self._drumlin_needs_json(value):
            # A new object, a primary key, or a nested value (which a set of mixed values refuses):
            # the engine decodes and checks it, in one call.
            payload = self._drumlin_element_json(value)
            with self._drumlin_lock:
                _ffi.drumlin_set_insert_json(handle, payload, byref(inserted))
            return bool(inserted.value)
        cvalue = _drumlin_value()
        self._drumlin_fill(value, cvalue)
        with self._drumlin_lock:
            _ffi.drumlin_set_insert(handle, cvalue, byref(inserted))
        return bool(inserted.value)

    def update(self, *others: Iterable[Any]) -> None:
        """Add every element of each iterable, all or nothing."""
        items = [value for other in others for value in list(other)]
        self._drumlin_write(self._drumlin_update_now, items)

    def __ior__(self, other: AbstractSet[Any]) -> Set[_T]:  # type: ignore[misc]
        self.update(other)
        return self

    def _drumlin_update_now(self, items: list[Any]) -> None:
        if not items:
            return
        if self._drumlin_target is None:
            for value in items:
                if isinstance(value, NESTED_TYPES):
                    self._drumlin_add_now(value)  # raises: sets of mixed values hold scalars only
            self._drumlin_rewrite(self._drumlin_raw() + self._drumlin_plain(items))
            return
        payload = self._drumlin_many_json(items)
        handle = self._ptr()
        with self._drumlin_lock:
            _ffi.drumlin_set_insert_many_json(handle, payload, None)

    def discard(self, value: Any) -> None:
        """Remove ``value`` if it is there."""
        self._drumlin_write(self._drumlin_erase_now, value)

    def remove(self, value: Any) -> None:
        """Remove ``value``; KeyError when it is not there."""
        if not self._drumlin_write(self._drumlin_erase_now, value):
            raise KeyError(value)

    def _drumlin_erase_now(self, value: Any) -> bool:
        cvalue = self._drumlin_lookup(value)
        if cvalue is None:
            return False
        handle = self._ptr()
        erased = c_int()
        with self._drumlin_lock:
            _ffi.drumlin_set_erase(handle, cvalue, byref(erased))
        return bool(erased.value)


    def __eq__(self, other: object) -> bool:
        if isinstance(other, AbstractSet):
            return len(self) == len(other) and self.__le__(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

