"""Change notifications: what ``observe()`` on results, objects and collections returns and
delivers.

A commit through a database delivers its changes to that database's observers when the commit
returns (at the end of the ``with db.write():`` block), on the committing thread. Commits by other
``Database`` objects, threads or processes are delivered when this database calls
:meth:`Database.refresh`, on the thread calling it. A rolled-back write delivers nothing.
Callbacks may read the database, at the version the change set describes (whatever other
connections commit meanwhile); ``db.write()`` inside a callback raises
:class:`~drumlin.TransactionError`. An exception raised by a callback does not stop the
delivery to other observers: Python reports it through :func:`sys.unraisablehook` (printed to
stderr by default), as for any exception in a callback from C.

The C library owns each registration; this module keeps the Python callback alive until the
library frees it (token cancelled or garbage-collected, or the database closed), exactly once.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterable
from ctypes import POINTER, byref, c_char_p, c_int, c_size_t
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import _ffi
from ._convert import SCALAR_LIMIT, from_value

if TYPE_CHECKING:
    from ._connection import Connection
    from .database import Database


@dataclass(frozen=True)
class CollectionChange:
    """What changed in observed results, a list or a set. ``deletions`` are indices in the old
    state; ``insertions`` and ``modifications`` indices in the new state, each ascending. An
    object that moved is a deletion at its old index and an insertion at its new one. Exact:
    removing the deleted elements and putting the inserted ones at their indices turns the old
    contents into the new, the kept elements differing only at modified indices."""

    deletions: list[int] = field(default_factory=list)
    insertions: list[int] = field(default_factory=list)
    modifications: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class DictionaryChange:
    """What changed in an observed dictionary, by key."""

    deletions: list[str] = field(default_factory=list)
    insertions: list[str] = field(default_factory=list)
    modifications: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ObjectChange:
    """What happened to an observed object: ``deleted``, or the names of the properties that
    changed (schema order) with their old and new values. ``old_values`` and ``new_values`` hold
    the scalar properties among them (not links, lists, sets, dictionaries or nested mixed
    collections: read those from the object)."""

    deleted: bool = False
    changed: list[str] = field(default_factory=list)
    old_values: dict[str, Any] = field(default_factory=dict)
    new_values: dict[str, Any] = field(default_factory=dict)


class NotificationToken:
    """A registration: delivery stops when :meth:`cancel` is called or the token is garbage
    collected. Also a context manager that cancels on exit."""

    __slots__ = ("__weakref__", "_handle")

    def __init__(self, handle: Any) -> None:
        self._handle: Any = handle

    def cancel(self) -> None:
        """Stop delivery. Calling it again does nothing; safe inside a callback."""
        handle = self._handle
        if handle is not None:
            self._handle = None
            _ffi.drumlin_token_release(handle)

    @property
    def is_cancelled(self) -> bool:
        return self._handle is None

    def __enter__(self) -> NotificationToken:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cancel()

    def __del__(self) -> None:
        try:
            self.cancel()
        except Exception:  # the library may already be unloaded at interpreter exit
            pass


# ---- Registrations -----------------------------------------------------------------------------

_registrations: dict[int, tuple[Callable[[Any], None], Callable[[Any], Any], Database]] = {}
_registrations_lock = threading.Lock()
_next_id = itertools.count(1)
_delivering = threading.local()


def _deliver(userdata: int | None, changes: Any) -> None:
    with _registrations_lock:
        entry = _registrations.get(userdata or 0)
    if entry is None:
        return
    callback, convert, db = entry
    change = convert(changes)
    outer = getattr(_delivering, "db", None)
    _delivering.db = db
    try:
        callback(change)
    finally:
        _delivering.db = outer


def _free(userdata: int | None) -> None:
    with _registrations_lock:
        _registrations.pop(userdata or 0, None)


_DELIVER = _ffi.drumlin_changes_fn(_deliver)
_FREE = _ffi.drumlin_free_fn(_free)


def is_delivering(db: Connection) -> bool:
    """Whether this thread is inside a callback of ``db``'s observers."""
    return getattr(_delivering, "db", None) is db


def _key_paths(key_paths: Iterable[str] | None) -> bytes | None:
    if key_paths is None:
        return None
    if isinstance(key_paths, (str, bytes)):
        raise TypeError("key_paths must be a list of property names, not a single string")
    paths = list(key_paths)
    for path in paths:
        if not isinstance(path, str):
            raise TypeError(f"key_paths must be property names (str), got {type(path).__name__}")
    return json.dumps(paths).encode("utf-8")


def register(
    db: Database,
    function: Callable[..., int],
    handle: Any,
    callback: Callable[[Any], None],
    convert: Callable[[Any], Any],
    key_paths: Iterable[str] | None,
    takes_key_paths: bool = True,
) -> NotificationToken:
    """Registers ``callback`` through ``function`` (a ``drumlin_*_observe``)."""
    if not callable(callback):
        raise TypeError(f"observe() needs a callable, got {type(callback).__name__}")
    paths = _key_paths(key_paths)
    ident = next(_next_id)
    with _registrations_lock:
        _registrations[ident] = (callback, convert, db)
    out = _ffi.drumlin_token_p()
    # On failure the library has already called _FREE (free_userdata runs exactly once).
    if takes_key_paths:
        function(handle, paths, _DELIVER, ident, _FREE, byref(out))
    else:
        function(handle, _DELIVER, ident, _FREE, byref(out))
    return NotificationToken(out)


# ---- Reading a drumlin_changes -------------------------------------------------------------------


def _indices(changes: Any, kind: int) -> list[int]:
    pointer = POINTER(c_size_t)()
    count = c_size_t()
    _ffi.drumlin_changes_indices(changes, kind, byref(pointer), byref(count))
    return pointer[: count.value] if count.value else []


def _keys(changes: Any, kind: int) -> list[str]:
    pointer = POINTER(c_char_p)()
    count = c_size_t()
    _ffi.drumlin_changes_keys(changes, kind, byref(pointer), byref(count))
    return [pointer[i].decode("utf-8") for i in range(count.value)]


def collection_change(changes: Any) -> CollectionChange:
    return CollectionChange(
        _indices(changes, _ffi.DRUMLIN_CHANGE_DELETIONS),
        _indices(changes, _ffi.DRUMLIN_CHANGE_INSERTIONS),
        _indices(changes, _ffi.DRUMLIN_CHANGE_MODIFICATIONS),
    )


def dictionary_change(changes: Any) -> DictionaryChange:
    return DictionaryChange(
        _keys(changes, _ffi.DRUMLIN_CHANGE_DELETIONS),
        _keys(changes, _ffi.DRUMLIN_CHANGE_INSERTIONS),
        _keys(changes, _ffi.DRUMLIN_CHANGE_MODIFICATIONS),
    )


def object_change(changes: Any) -> ObjectChange:
    deleted = c_int()
    _ffi.drumlin_changes_deleted(changes, byref(deleted))
    if deleted.value:
        return ObjectChange(deleted=True)
    names_pointer = POINTER(c_char_p)()
    count = c_size_t()
    _ffi.drumlin_changes_properties(changes, byref(names_pointer), byref(count))
    names = [names_pointer[i].decode("utf-8") for i in range(count.value)]
    old_values: dict[str, Any] = {}
    new_values: dict[str, Any] = {}
    old, new, has_values = _ffi.drumlin_value(), _ffi.drumlin_value(), c_int()
    for i, name in enumerate(names):
        _ffi.drumlin_changes_property_values(changes, i, byref(old), byref(new), byref(has_values))
        if has_values.value and old.type < SCALAR_LIMIT and new.type < SCALAR_LIMIT:
            if old.type != _ffi.DRUMLIN_TYPE_LINK and new.type != _ffi.DRUMLIN_TYPE_LINK:
                old_values[name] = from_value(old)
                new_values[name] = from_value(new)
    return ObjectChange(False, names, old_values, new_values)


def refresh(db: Connection) -> bool:
    changed = c_int()
    _ffi.drumlin_refresh(db._ptr(), byref(changed))
    return bool(changed.value)


def has_changes(db: Connection) -> bool:
    changed = c_int()
    _ffi.drumlin_has_changes(db._ptr(), byref(changed))
    return bool(changed.value)


def commit_without_notifying(handle: Any, tokens: Iterable[NotificationToken]) -> None:
    live = []
    for token in tokens:
        if not isinstance(token, NotificationToken):
            raise TypeError(f"without_notifying takes notification tokens, got {type(token).__name__}")
        if token._handle is not None:
            live.append(token._handle)
    array = (_ffi.drumlin_token_p * max(len(live), 1))(*live)
    _ffi.drumlin_commit_without_notifying(handle, array, len(live))
