"""The open database handle under :class:`~drumlin.Database`: its lifetime, the classes of its
schema (and the Object subclass made for each), and its write transactions.

:class:`Connection` holds what every verb of the database relies on; ``database.Database`` adds the
verbs (create, get, query, delete, import and export...) and the opening itself. Also here: what
opening takes besides the verbs' own arguments (paths, schemas, durations as the C API takes them)
and the route of the engine's log to Python's ``logging``.
"""

from __future__ import annotations

import atexit
import copy
import logging
import os
import threading
import weakref
from collections.abc import Mapping, Sequence
from ctypes import byref, c_int, c_int32, c_uint64, c_void_p
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from . import _ffi, notifications
from ._accessors import install_object_type
from ._convert import take_string
from ._errors import DrumlinError, InvalidArgumentError, MisuseError, TransactionError, TypeMismatchError
from ._handle import Handle
from ._rows import RowAccess, finish_pages
from ._schema import ClassInfo, encode_name
from .model import ModelInfo, collect_schema, ensure_resolved
from .notifications import NotificationToken
from .projection import Projection
from .sync import Sync
from .values import INT64_MAX, ejson_dumps, ejson_loads

if TYPE_CHECKING:
    from .object import Object

_T = TypeVar("_T")
_get_ident = threading.get_ident

# What the engine reports (opens, migrations, slow queries, failed calls) goes to the `drumlin`
# logger. A library does not configure logging: the NullHandler keeps Python's last-resort handler
# from printing these records when the application has not set logging up.
logger = logging.getLogger("drumlin")
logger.addHandler(logging.NullHandler())


def _log(userdata: Any, level: int, message: bytes) -> None:
    try:
        if logger.isEnabledFor(level):
            logger.log(level, message.decode("utf-8", "replace"))
    except Exception:  # an exception must not cross back into C
        pass


# One C function pointer for every database, alive as long as the module.
LOG_TO_PYTHON = _ffi.drumlin_log_fn(_log)


NO_FREE = _ffi.drumlin_free_fn()


SYNCHRONOUS: dict[str, int] = {"normal": _ffi.DRUMLIN_SYNCHRONOUS_NORMAL, "full": _ffi.DRUMLIN_SYNCHRONOUS_FULL}


def milliseconds(value: object, name: str, *, allow_none: bool = False) -> int:
    """A duration in seconds (int or float) as whole milliseconds for the C API; -1 for None."""
    if value is None and allow_none:
        return -1
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        expected = "a number of seconds or None" if allow_none else "a number of seconds"
        raise TypeMismatchError(f"{name} must be {expected}, not {type(value).__name__}")
    if not value >= 0 or value > INT64_MAX / 1000:
        raise InvalidArgumentError(f"{name} must be between 0 and {INT64_MAX // 1000} seconds, not {value!r}")
    return round(value * 1000)


# Databases still open at interpreter exit are closed while the library is fully usable.
open_databases: weakref.WeakSet[Connection] = weakref.WeakSet()

@atexit.register
def _close_all_at_exit() -> None:
    for db in list(open_databases):
        try:
            db._close_at_exit()
        except Exception:
            pass


def set_encryption_key(options: Any, key: object) -> None:
    """Gives the options the 64-byte encryption key (bytes, bytearray or memoryview), or none. The
    engine copies it into memory it wipes when the database closes; the caller's bytes object is
    Python's and stays as it is."""
    raw = key_bytes(key)
    if raw is not None:
        _ffi.drumlin_options_set_encryption_key(options, raw, len(raw))


def key_bytes(key: object) -> bytes | None:
    """An encryption key as bytes (from bytes, bytearray or memoryview), or None; its length is
    the engine's to check."""
    if key is None:
        return None
    if not isinstance(key, (bytes, bytearray, memoryview)):
        raise TypeMismatchError(f"encryption_key must be bytes, not {type(key).__name__}")
    return bytes(key)


def flag(value: object, name: str) -> int:
    if not isinstance(value, bool):
        raise TypeMismatchError(f"{name} must be True or False, not {type(value).__name__}")
    return 1 if value else 0


def encode_path(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> bytes:
    try:
        raw = os.fsencode(path)
    except TypeError:
        raise TypeMismatchError(f"path must be a str or os.PathLike, not {type(path).__name__}") from None
    except UnicodeEncodeError as error:
        # A lone surrogate (other than the U+DC80-U+DCFF that stand for undecodable bytes): no
        # file system name is made of it.
        raise InvalidArgumentError(
            f"path {os.fspath(path)!r} cannot be a file name: {error.reason} at position {error.start} "
            "(a lone surrogate is not a character)"
        ) from None
    if b"\0" in raw:
        raise InvalidArgumentError(f"path cannot contain NUL characters: {path!r}")
    return raw


def encode_schema(schema: object) -> bytes:
    if isinstance(schema, (list, tuple)) and any(isinstance(entry, type) for entry in schema):
        schema = collect_schema(list(schema))[0]
    if isinstance(schema, str):
        text = schema
    elif isinstance(schema, bytes):
        return schema
    elif isinstance(schema, (list, tuple)):
        text = ejson_dumps(list(schema))
    else:
        raise TypeMismatchError(
            "schema must be a list of object schemas and model classes, or a JSON string, not "
            f"{type(schema).__name__}"
        )
    if "\0" in text:
        raise InvalidArgumentError("schema cannot contain NUL characters")
    return text.encode("utf-8")


class Connection(Handle):
    """One open database handle: lifetime, schema classes and write transactions. The base of
    :class:`~drumlin.Database`, never made on its own."""

    __slots__ = (
        "_classes",
        "_models",
        "_object_lock",
        "_path",
        "_schema",
        "_sync_callbacks",
        "_version",
        "_write_lock",
        "_writer",
    )

    _kind = "database"
    # Set by Database.__init__ (and by a migration's lent database).
    _models: dict[str, type[Object]]
    _classes: dict[str | type[Any], ClassInfo]
    _schema: list[dict[str, Any]] | None
    _path: str
    _write_lock: threading.RLock
    _object_lock: threading.RLock
    _writer: int | None
    _version: c_uint64
    _sync_callbacks: object

    # ---- Lifetime ------------------------------------------------------------------------------

    def _release(self, handle: Any) -> None:
        for info in self._classes.values():
            info.detach_rows()  # the version word is freed with the handle
        _ffi.drumlin_close(handle)

    def close(self) -> None:
        """Close the database. An open write transaction is rolled back; objects read from it
        raise :class:`MisuseError` from now on. Calling it again does nothing.

        If another thread is inside ``write()``, this waits for its block to end."""
        if self._drumlin_h is None:
            return
        with self._write_lock:
            super().close()

    def _close_at_exit(self) -> None:
        # Never wait at exit: a daemon thread may be stuck inside write() forever.
        if self._write_lock.acquire(blocking=False):
            try:
                super().close()
            finally:
                self._write_lock.release()

    @property
    def path(self) -> str:
        """The path the database was opened with."""
        return self._path

    @property
    def sync(self) -> Sync:
        """The sync session of a database opened with ``sync=`` (docs/sync.md); its calls raise
        :class:`MisuseError` on a database without one."""
        return Sync(self)

    def __repr__(self) -> str:
        state = "closed" if self._drumlin_h is None else "open"
        return f"<drumlin.Database {self._path!r} ({state})>"

    # ---- Schema --------------------------------------------------------------------------------

    @property
    def schema(self) -> list[dict[str, Any]]:
        """The schema in normalized long form: a list of object schemas (a fresh copy)."""
        handle = self._ptr()
        if self._schema is None:
            out = c_void_p()
            _ffi.drumlin_schema_json(handle, byref(out))
            schema: list[dict[str, Any]] = ejson_loads(take_string(out))
            self._schema = schema
            return copy.deepcopy(schema)
        return copy.deepcopy(self._schema)

    @property
    def schema_version(self) -> int:
        """The schema version stored in the file."""
        version = c_uint64()
        _ffi.drumlin_schema_version(self._ptr(), byref(version))
        return version.value

    def _class(self, class_name: str | type[Any]) -> ClassInfo:
        info = self._classes.get(class_name) if type(class_name) is str else None
        if info is None:
            if isinstance(class_name, type):
                return self._model_class(class_name)
            handle = self._ptr()
            info = ClassInfo(handle, encode_name(class_name, "class"))
            info.attach_rows(RowAccess(handle, info, self._version))
            model = self._models.get(info.name)
            info.model = model
            install_object_type(info, model)
            existing = self._classes.setdefault(info.name, info)
            self._classes[class_name] = existing
            info = existing
        return info

    def _model_class(self, cls: type[Any]) -> ClassInfo:
        """The class of a model class (registered with this database on first use: its objects
        become its instances) or of a projection class's model."""
        if issubclass(cls, Projection):
            cls = cls._drumlin_projected_class()
        model: ModelInfo | None = getattr(cls, "_drumlin_model", None)
        if model is None:
            raise TypeMismatchError(
                f"class names are strings or model classes (drumlin.Object subclasses), not {cls.__name__}"
            )
        ensure_resolved(model)
        info = self._class(model.name)
        if info.model is not cls:
            self._models[model.name] = cls
            info.model = cls
            install_object_type(info, cls)
        self._classes[cls] = info
        return info

    @staticmethod
    def _model_values(info: ClassInfo, values: Mapping[str, Any], *, fill: bool) -> Mapping[str, Any]:
        model = info.model._drumlin_model if info.model is not None else None
        if model is None or not isinstance(values, Mapping):
            return values
        return model.store_values(values, fill=fill)

    # ---- Transactions ----------------------------------------------------------------------------

    @property
    def is_in_write(self) -> bool:
        """True while a write transaction is open on this database (on any thread)."""
        out = c_int()
        _ffi.drumlin_is_in_write(self._ptr(), byref(out))
        return bool(out.value)

    def _begin_write(self) -> None:
        self._ptr()
        if notifications.is_delivering(self):
            raise TransactionError(
                "Cannot begin a write transaction from inside a notification callback: "
                "write after the callback returns."
            )
        if self._writer == _get_ident():
            raise TransactionError(
                "Cannot begin a write transaction: this thread is already inside db.write() on "
                "this database (write() does not nest)."
            )
        finish_pages(self)  # this thread's loops over results read their rest first
        self._write_lock.acquire()
        try:
            _ffi.drumlin_begin_write(self._ptr())  # the database may have closed while we waited
        except BaseException:
            self._write_lock.release()
            raise
        self._writer = _get_ident()

    def refresh(self) -> bool:
        """Deliver to this database's observers what other ``Database`` objects, threads and
        processes committed since the last delivery (on this thread). Returns whether the file
        changed. Inside ``write()`` or a notification callback it does nothing and returns False."""
        return notifications.refresh(self)

    def has_changes(self) -> bool:
        """Whether another connection committed since this database last refreshed or delivered
        notifications: one cheap check, for an event loop that polls before ``refresh()``."""
        return notifications.has_changes(self)

    def _end_write(self, commit: bool, without_notifying: Sequence[NotificationToken] = ()) -> None:
        try:
            handle = self._drumlin_h
            if handle is None:
                if commit:
                    raise MisuseError(
                        "The database was closed inside write(): the transaction was rolled back."
                    )
                return
            if commit:
                try:
                    if without_notifying:
                        notifications.commit_without_notifying(handle, without_notifying)
                    else:
                        _ffi.drumlin_commit(handle)
                except BaseException:
                    try:
                        _ffi.drumlin_rollback(handle)
                    except DrumlinError:
                        pass
                    self._forget_removed_classes(handle)
                    raise
            else:
                try:
                    _ffi.drumlin_rollback(handle)
                except DrumlinError:
                    pass  # the exception leaving the block is the one to report
                self._forget_removed_classes(handle)
        finally:
            self._writer = None
            self._write_lock.release()

    def _forget_removed_classes(self, handle: Any) -> None:
        """After a rollback: classes the transaction added (``add_classes``) are gone from the
        handle, their indexes free for others; drop what this database knew of them."""
        count = c_int32()
        _ffi.drumlin_class_count(handle, byref(count))
        if self._schema is not None and len(self._schema) > count.value:
            self._schema = None
        for key in [key for key, info in self._classes.items() if info.index >= count.value]:
            del self._classes[key]

    def _outside_write(self, operation: Callable[..., _T], *args: Any) -> _T:
        """Run a write that was called outside this thread's ``write()`` block.

        If another thread holds the write transaction, the write must not slip into it: refuse.
        Otherwise no transaction can start while we hold the lock, and the engine itself refuses
        the write with DRUMLIN_ERR_WRONG_TRANSACTION_STATE (or DRUMLIN_ERR_READ_ONLY)."""
        if not self._write_lock.acquire(blocking=False):
            raise TransactionError(
                "Cannot modify managed objects outside of a write transaction (another thread "
                "holds this database's write transaction; use `with db.write():` on this thread)."
            )
        try:
            return operation(*args)
        finally:
            self._write_lock.release()
