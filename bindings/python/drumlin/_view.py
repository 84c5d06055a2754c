"""The plumbing every live collection view shares (:class:`~drumlin.List`, :class:`~drumlin.Set`,
:class:`~drumlin.Dictionary`): the owner, the property, the handle opened only when a call needs
one, the items read packed by the owner's key (or carried in its row) and kept while the read
version holds, and :func:`view_getter`, which makes a view when a property is read.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from ctypes import byref, c_size_t, c_void_p
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from . import _ffi, notifications
from ._convert import NESTED_TYPES, take_string
from ._errors import InvalidArgumentError, TypeMismatchError
from ._handle import UNOPENED, HandleBase
from ._payload import fill_value, prepare_link, prepare_mixed
from ._rows import NO_ROW, as_is_value, collection_converter, one_index, read_values
from .notifications import NotificationToken
from .object import Object, mixed_from_json
from .values import check_mixed_keys, ejson_dumps, ejson_loads

if TYPE_CHECKING:
    from ._rows import RowAccess
    from ._schema import ClassInfo, Property

_T = TypeVar("_T")
_View = TypeVar("_View", bound="_Collection")
_get_ident = threading.get_ident


# A view's handle starts as UNOPENED: views of values read through their owner's key (one packed
# call), and open a handle only for what needs one (writes, observers, lookups, links). The handle
# owns itself (_handle.ListHandle, ...: OwnedPointer), so a view that never opens one pays no
# finalizer.


class _Collection(HandleBase):
    """What List, Set and Dictionary share: the owner, the property, the handle, the lock."""

    __slots__ = (
        "_drumlin_cached",
        "_drumlin_convert",
        "_drumlin_owner",
        "_drumlin_prop",
        "_drumlin_rows",
        "_drumlin_target",
    )

    _kind = "collection"

    # The slots, stored by view_getter's getter.
    _drumlin_owner: Object
    _drumlin_prop: Property
    _drumlin_target: ClassInfo | None
    # The owner's class's row access (whose version cell the kept items are checked against; DEAD
    # once the database closes), None for a view of links or of a class without rows.
    _drumlin_rows: RowAccess | None
    # (read version, items) of the values last read (packed, by the owner's key): one tuple, so
    # threads sharing the view never pair one read's items with another's version.
    _drumlin_cached: tuple[int, Any]
    # How the packed items become the view's.
    _drumlin_convert: Callable[[Any], Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(f"drumlin.{type(self).__name__} views come from reading a property of an object")

    @property
    def _drumlin_lock(self) -> threading.RLock:
        """The lock around calls on this view's handle: its database's, as Object's. Values read
        through a handle are borrowed until the next call on it: the lock keeps threads sharing
        the view from overwriting each other's values mid-copy. (No lock of its own: a view is
        made on every read of the property, and most never call through a handle.)"""
        return self._drumlin_owner._drumlin_db._object_lock

    def _open(self) -> Any:
        owner = self._drumlin_owner
        owner_handle = owner._ptr()
        with owner._drumlin_lock:
            return self._drumlin_open(owner_handle, self._drumlin_prop.cname)

    def _drumlin_packed(self) -> Any:
        """The collection's items (a list, or a dict for a dictionary), read in one packed call by
        the owner's object key and kept while the database's read version is unchanged; None for
        a view of links (read through its handle). Callers must not change what it returns."""
        access = self._drumlin_rows
        if access is None:
            return None
        owner = self._drumlin_owner
        version = access.version.value
        seen, items = self._drumlin_cached
        if seen == version:
            return items
        if self._drumlin_h is None or owner._drumlin_db._drumlin_h is None:
            self._ptr()  # this view or its database closed: the error
        prop = self._drumlin_prop
        convert = self._drumlin_convert
        # The row of one object (db.get, a link, a revalidated row) carries its short collections
        # of values (drumlin.h, "Whole rows"): while it is current, the items are there.
        items = owner._drumlin_row[prop.index] if owner._drumlin_seen == version else None
        if items is None:
            key = owner._drumlin_key
            if key is None:
                key = owner._drumlin_object_key()
            items = read_values(access, key, one_index(prop.index))[prop.name]  # type: ignore[arg-type]
        if convert is not as_is_value:
            items = convert(items)
        self._drumlin_cached = (version, items)
        return items

    # Each subclass names the C functions of its handle type; the plumbing below is shared.
    _ffi_handle: Any = None
    _ffi_open: Any = None
    _ffi_to_json: Any = None
    _ffi_size: Any = None
    _ffi_clear: Any = None

    def _drumlin_open(self, owner_handle: Any, cname: bytes) -> Any:
        handle = self._ffi_handle()
        self._ffi_open(owner_handle, cname, byref(handle))
        return handle

    def _drumlin_to_json(self, handle: Any, out: Any) -> None:
        self._ffi_to_json(handle, out)

    _ffi_observe: Any = None

    def observe(self, callback: Callable[[Any], None], key_paths: Iterable[str] | None = None) -> NotificationToken:
        """Call ``callback(change)`` after each commit or ``db.refresh()`` that changes this
        collection: a :class:`~drumlin.CollectionChange` of indices for lists and sets (for lists
        of objects, a change to a linked object's properties is a modification; ``key_paths``
        names which of them count), a :class:`~drumlin.DictionaryChange` of keys for
        dictionaries. Keep the returned token: delivery stops when it is cancelled or
        garbage-collected."""
        db = self._drumlin_owner._drumlin_db
        if self._ffi_observe is _ffi.drumlin_dict_observe:
            if key_paths is not None:
                raise TypeError("a dictionary observer takes no key_paths")
            return notifications.register(
                db, _ffi.drumlin_dict_observe, self._ptr(), callback, notifications.dictionary_change, None,
                takes_key_paths=False,
            )
        return notifications.register(
            db, self._ffi_observe, self._ptr(), callback, notifications.collection_change, key_paths
        )

    def __len__(self) -> int:
        seen, items = self._drumlin_cached
        rows = self._drumlin_rows
        if rows is not None and seen == rows.version.value:  # _drumlin_packed's first test, inline
            return len(items)
        items = self._drumlin_packed()
        if items is not None:
            return len(items)
        return self._drumlin_count()

    def _drumlin_size(self) -> int:
        """The size a write checks its positions against: the kept items' while they are current,
        else the engine's count, without reading the elements (which the write makes stale: a loop
        of ``append`` would otherwise read the whole collection at every step)."""
        seen, items = self._drumlin_cached
        rows = self._drumlin_rows
        if rows is not None and seen == rows.version.value:
            return len(items)
        return self._drumlin_count()

    def _drumlin_count(self) -> int:
        handle = self._ptr()
        size = c_size_t()
        self._ffi_size(handle, byref(size))
        return size.value

    def clear(self) -> None:
        """Remove every element (embedded objects in the collection are deleted)."""
        self._drumlin_write(self._drumlin_clear_now)

    def _drumlin_clear_now(self) -> None:
        handle = self._ptr()
        with self._drumlin_lock:
            self._ffi_clear(handle)

    def _drumlin_write(self, operation: Callable[..., _T], *args: Any) -> _T:
        """Run a write: directly inside this thread's ``db.write()``, else the way Database does
        (refused while another thread holds the write transaction)."""
        self._ptr()
        db = self._drumlin_owner._drumlin_db
        if db._writer != _get_ident():
            return db._outside_write(operation, *args)
        return operation(*args)

    def _drumlin_text(self) -> str:
        """The whole collection as the engine's JSON, in one read (links as references)."""
        handle = self._ptr()
        out = c_void_p()
        with self._drumlin_lock:
            self._drumlin_to_json(handle, byref(out))
        return take_string(out)

    def _drumlin_json(self) -> Any:
        """The whole collection as Python values (links as references; a mixed value's as
        ``$link`` dicts), a new list or dict."""
        items = self._drumlin_packed()
        if items is not None:
            return items.copy()
        return ejson_loads(self._drumlin_text())

    def _drumlin_raw(self) -> Any:
        """The whole collection parsed as plain JSON: Extended JSON stays as it is ({"$date": ...}
        with its nanoseconds), so writing it back is exact."""
        return json.loads(self._drumlin_text())

    def _drumlin_rewrite(self, contents: Any) -> None:
        """Replace the whole collection of primitive values in one engine call (all or nothing;
        a geo point is checked once, on the result). ``contents`` is plain JSON (see _drumlin_raw
        and _plain)."""
        owner = self._drumlin_owner
        handle = owner._ptr()
        payload = json.dumps({self._drumlin_prop.name: contents}, separators=(",", ":")).encode("utf-8")
        with owner._drumlin_lock:
            _ffi.drumlin_object_update_json(handle, payload)

    def _drumlin_needs_json(self, value: Any) -> bool:
        """Whether writing ``value`` as an element takes the JSON call rather than a typed one."""
        if self._drumlin_target is not None:
            return not (value is None or isinstance(value, Object))
        return isinstance(value, NESTED_TYPES)

    def _drumlin_element_json(self, value: Any) -> bytes:
        if self._drumlin_target is not None:
            value = prepare_link(self._drumlin_owner._drumlin_db, self._drumlin_prop, value)
        elif self._drumlin_prop.type == _ffi.DRUMLIN_PROPERTY_MIXED:
            check_mixed_keys(value, self._drumlin_prop.label)
            value = prepare_mixed(self._drumlin_owner._drumlin_db, self._drumlin_prop, value)
        return ejson_dumps(value).encode("utf-8")

    def _drumlin_many_json(self, values: list[Any] | dict[str, Any]) -> bytes:
        """Elements (a list) or entries (a dict) for a collection of objects, as one JSON payload
        for the engine's ``*_insert_many_json`` calls (each value as ``_drumlin_element_json``)."""
        db = self._drumlin_owner._drumlin_db
        prop = self._drumlin_prop
        if isinstance(values, dict):
            return ejson_dumps({key: prepare_link(db, prop, value) for key, value in values.items()}).encode("utf-8")
        return ejson_dumps([prepare_link(db, prop, value) for value in values]).encode("utf-8")

    def _drumlin_mixed_values(self, values: Any) -> Any:
        """Values read as JSON, with the links a mixed collection holds as Objects."""
        if self._drumlin_prop.type != _ffi.DRUMLIN_PROPERTY_MIXED:
            return values
        return mixed_from_json(self._drumlin_owner._drumlin_db, values)

    def _drumlin_plain(self, value: Any) -> Any:
        """``value`` as plain JSON for a rewrite (Objects in a mixed collection as ``$link``)."""
        if self._drumlin_prop.type == _ffi.DRUMLIN_PROPERTY_MIXED:
            value = prepare_mixed(self._drumlin_owner._drumlin_db, self._drumlin_prop, value)
        return _plain(value)

    def _drumlin_fill(self, value: Any, out: _ffi.drumlin_value) -> None:
        fill_value(self._drumlin_owner._drumlin_db, value, self._drumlin_prop, out)

    def _drumlin_nested(self, step: int | str) -> Any:
        """A nested list or dictionary held by a mixed element, as a plain value."""
        owner = self._drumlin_owner
        handle = owner._ptr()
        out = c_void_p()
        with owner._drumlin_lock:
            _ffi.drumlin_object_get_mixed_json(
                handle, self._drumlin_prop.cname, ejson_dumps([step]).encode("utf-8"), byref(out)
            )
        return self._drumlin_mixed_values(ejson_loads(take_string(out)))

    def _drumlin_objects(self, refs: list[Any]) -> list[Any]:
        """Objects for references as the engine's JSON prints them (primary keys, or object keys
        for classes without one; None stays None)."""
        target = self._drumlin_target
        assert target is not None
        db = self._drumlin_owner._drumlin_db
        handle = db._ptr()
        if target.primary_key is not None:
            return [None if ref is None else db._find(handle, target, ref) for ref in refs]
        return [None if ref is None else db._find_by_key(handle, target, ref) for ref in refs]

    def _drumlin_reference(self, value: Any) -> Object | None:
        """The existing object a bare primary key (object key for classes without one) names, or
        None when there is none (for lookups: a write sends the key to the engine, which checks it)."""
        target = self._drumlin_target
        assert target is not None
        db = self._drumlin_owner._drumlin_db
        handle = db._ptr()
        if target.primary_key is not None:
            try:
                return db._find(handle, target, value)
            except (TypeMismatchError, InvalidArgumentError):
                return None
        if type(value) is int:
            return db._find_by_key(handle, target, value)
        return None

    def _release(self, handle: Any) -> None:
        if handle is not UNOPENED:
            handle.release()

    def close(self) -> None:
        """Release this view's handle (the stored collection is untouched)."""
        lock = getattr(self, "_drumlin_lock", None)
        if lock is None:
            return
        with lock:
            self._drumlin_cached = (NO_ROW, None)  # a closed view reads nothing, kept or not
            super().close()

    def __reduce__(self) -> Any:
        raise TypeError(f"drumlin.{type(self).__name__} is a live view and cannot be pickled; copy it first")

    def _drumlin_snapshot(self) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        prop = self._drumlin_prop
        name = f"drumlin.{type(self).__name__} {prop.class_name}.{prop.name}"
        if self._drumlin_h is None:
            return f"<{name} (closed)>"
        try:
            return f"<{name} {self._drumlin_snapshot()!r}>"
        except Exception:
            return f"<{name} (unreadable)>"


def _plain(value: Any) -> Any:
    """A Python value as plain JSON structures (Extended JSON as dicts), for _drumlin_rewrite."""
    return json.loads(ejson_dumps(value))


_new_view = object.__new__
_NOT_READ = (NO_ROW, None)
_PROPERTY_OBJECT = _ffi.DRUMLIN_PROPERTY_OBJECT


def view_getter(view_type: type[_View], prop: Property) -> Callable[[Object], _View]:
    """The getter of ``prop`` (a list, set or dictionary property; its accessor's ``fget``): reading
    the property makes the view ``view_type`` (List, Set or Dictionary) of it. Made here, not by
    calling the class (views come from reading a property, never from user code), its slots stored
    directly: a type call, an ``__init__`` frame or a helper's frame costs ~170 ns more a read. The
    converter of the packed items (``collection_converter``) is made on the first read."""
    convert: Callable[[Any], Any] | None = None
    of_links = prop.type == _PROPERTY_OBJECT
    index = prop.index

    def get(owner: Object) -> _View:
        nonlocal convert
        if convert is None:
            convert = collection_converter(owner._drumlin_db, prop)
        view: Any = _new_view(view_type)
        view._drumlin_h = UNOPENED
        view._drumlin_owner = owner
        view._drumlin_prop = prop
        view._drumlin_convert = convert
        view._drumlin_cached = _NOT_READ
        if of_links:  # read through its handle, opened now
            view._drumlin_rows = None
            view._drumlin_target = owner._drumlin_db._class(prop.object_type)
            view._ptr()
            return view  # type: ignore[no-any-return]
        view._drumlin_target = None
        rows = view._drumlin_rows = owner._drumlin_class.rows
        if rows is None:
            view._ptr()
            return view  # type: ignore[no-any-return]
        version = rows.version.value
        if owner._drumlin_seen != version or owner._drumlin_db._drumlin_h is None:  # (UNMANAGED: not stored)
            # A deleted owner fails here, as opening the view did (no call while nothing changed:
            # then the owner's kept row is current, checked here rather than a frame deeper).
            owner._drumlin_current_row()
        if convert is as_is_value and owner._drumlin_seen == version:
            # The items the owner's row carries (drumlin.h, "Whole rows"), kept now: the view's
            # first read (_drumlin_packed's first test, inline in __len__ and __iter__) is then
            # no frame deeper.
            items = owner._drumlin_row[index]
            if items is not None:
                view._drumlin_cached = (version, items)
        return view  # type: ignore[no-any-return]

    return get
