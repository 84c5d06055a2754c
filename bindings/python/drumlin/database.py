"""``drumlin.open`` and ``drumlin.Database``: an open database file and its write transactions."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from ctypes import byref, c_int32, c_int64, c_uint64, c_void_p
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, TypeVar, Union, overload

from . import _ffi
from ._connection import (
    LOG_TO_PYTHON,
    NO_FREE,
    SYNCHRONOUS,
    Connection,
    encode_path,
    encode_schema,
    flag,
    key_bytes,
    milliseconds,
    open_databases,
    set_encryption_key,
)
from ._constants import DRUMLIN_NOT_FOUND
from ._convert import take_string, to_value
from ._errors import (
    DrumlinError,
    InvalidArgumentError,
    TypeMismatchError,
)
from ._payload import check_values, fill_value, pack_rows, prepare_values, typed_value
from ._handle import UNOPENED
from ._library import CALLS
from ._rows import as_is, dict_builder, find_row, find_values, query_first_rows, query_values
from ._schema import ClassInfo, encode_name
from .migration import Migration, MigrationCallback
from .model import collect_schema
from .notifications import NotificationToken
from .object import Object
from .projection import Projection
from .results import _ENCODED, Results, ResultsHandle, encode_query, query_args
from .sync import SyncConfig
from .sync import configure as configure_sync
from .values import INT64_MAX, INT64_MIN, ejson_dumps, ejson_loads

__all__ = ["Database", "open", "WriteTransaction", "UpdateMode"]

_T = TypeVar("_T")
_M = TypeVar("_M", bound=Object)
_P = TypeVar("_P", bound=Projection[Any])

UpdateMode = Optional[Literal["never", "modified", "all"]]
"""``update=`` of create, create_many and add: None (or "never") refuses an existing primary key,
"modified" and "all" update the existing object."""

SchemaEntry = Union[dict[str, Any], type[Object]]
"""One entry of ``drumlin.open(schema=[...])``: an object schema (a dict) or a model class."""

if TYPE_CHECKING:
    ClassRef = Union[str, type[Object]]
_get_ident = threading.get_ident

_UPDATE_MODES = {
    None: _ffi.DRUMLIN_UPDATE_NEVER,
    "never": _ffi.DRUMLIN_UPDATE_NEVER,
    "modified": _ffi.DRUMLIN_UPDATE_MODIFIED,
    "all": _ffi.DRUMLIN_UPDATE_ALL,
}


class _Progress:
    """A Python progress function as a C drumlin_progress_fn: returning False cancels; an exception
    cancels and is re-raised after the call."""

    def __init__(self, function: Callable[[int, int], object] | None) -> None:
        self.error: BaseException | None = None
        self.function = function
        no_callback = _ffi.drumlin_progress_fn()
        self.pointer = no_callback if function is None else _ffi.drumlin_progress_fn(self._call)

    def _call(self, userdata: Any, done: int, total: int) -> int:
        try:
            return 1 if self.function(done, total) is False else 0  # type: ignore[misc]
        except BaseException as error:
            self.error = error
            return 1

    def reraise(self) -> None:
        if self.error is not None:
            raise self.error


def _update_mode(update: object) -> int:
    try:
        return _UPDATE_MODES[update]  # type: ignore[index]
    except (KeyError, TypeError):
        raise InvalidArgumentError(f"update must be None, 'modified' or 'all', not {update!r}") from None


class WriteTransaction:
    """What ``db.write()`` returns: ``with db.write():`` begins a write transaction, commits it
    when the block ends normally, and rolls it back when an exception leaves the block (the
    exception propagates)."""

    __slots__ = ("_db", "_without_notifying")

    def __init__(self, db: Database, without_notifying: Sequence[NotificationToken] = ()) -> None:
        self._db = db
        self._without_notifying = without_notifying

    def __enter__(self) -> Database:
        self._db._begin_write()
        return self._db

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._db._end_write(commit=exc_type is None, without_notifying=self._without_notifying)


class Database(Connection):
    """An open Drumlin database. Create it with :func:`drumlin.open`.

    A database can be shared by threads. It has one write transaction at a time: ``write()`` on a
    second thread waits until the first thread's ``write()`` block ends.
    """

    __slots__ = ()

    def __init__(
        self,
        path: str | bytes | os.PathLike[str] | os.PathLike[bytes],
        schema: Sequence[SchemaEntry | object] | str | None = None,
        *,
        schema_version: int = 0,
        read_only: bool = False,
        delete_if_migration_needed: bool = False,
        in_memory: bool = False,
        busy_timeout: float = 5.0,
        synchronous: Literal["normal", "full"] = "normal",
        quick_check: bool = False,
        slow_query_threshold: float | None = None,
        migration: Callable[[Migration], object] | None = None,
        encryption_key: bytes | None = None,
        sync: SyncConfig | None = None,
    ) -> None:
        self._drumlin_h = None
        self._sync_callbacks = None
        # Model classes by schema class name: objects of those classes are their instances.
        self._models: dict[str, type[Object]] = {}
        if isinstance(schema, (list, tuple)) and any(isinstance(entry, type) for entry in schema):
            entries, classes = collect_schema(list(schema))
            for cls in classes:
                self._models[cls.__name__] = cls
            schema = entries
        raw_path = encode_path(path)
        raw_schema = None if schema is None else encode_schema(schema)
        busy_ms = milliseconds(busy_timeout, "busy_timeout")
        sync_mode = SYNCHRONOUS.get(synchronous) if isinstance(synchronous, str) else None
        if sync_mode is None:
            raise InvalidArgumentError(f"synchronous must be 'normal' or 'full', not {synchronous!r}")
        slow_ms = milliseconds(slow_query_threshold, "slow_query_threshold", allow_none=True)
        if isinstance(schema_version, bool) or not isinstance(schema_version, int):
            raise TypeMismatchError(f"schema_version must be an int, not {type(schema_version).__name__}")
        if not 0 <= schema_version <= 2 * INT64_MAX + 1:
            raise InvalidArgumentError(f"schema_version must be between 0 and 2**64-1, not {schema_version}")
        flags = (
            flag(read_only, "read_only"),
            flag(delete_if_migration_needed, "delete_if_migration_needed"),
            flag(in_memory, "in_memory"),
        )
        self._path = os.fsdecode(raw_path)
        self._write_lock = threading.RLock()
        # The lock of the objects' calls on their handles (Object._drumlin_lock; a lock each would
        # cost more than a read): their borrowed strings are guarded together, as the engine
        # serializes the calls anyway.
        self._object_lock = threading.RLock()
        self._writer: int | None = None
        self._classes: dict[str | type[Any], ClassInfo] = {}  # by name, and by model class
        self._schema: list[dict[str, Any]] | None = None
        migrate = None
        if migration is not None:
            if not callable(migration):
                raise TypeMismatchError(f"migration must be a function, not {type(migration).__name__}")
            models = self._models

            def lend(handle: Any, writable: bool) -> _LentDatabase:
                return _LentDatabase(handle, self._path, models if writable else {}, writable)

            migrate = MigrationCallback(migration, lend)
        options = _ffi.drumlin_options_new()
        try:
            _ffi.drumlin_options_set_schema_version(options, schema_version)
            _ffi.drumlin_options_set_read_only(options, flags[0])
            _ffi.drumlin_options_set_delete_if_migration_needed(options, flags[1])
            _ffi.drumlin_options_set_in_memory(options, flags[2])
            _ffi.drumlin_options_set_busy_timeout(options, busy_ms)
            _ffi.drumlin_options_set_synchronous(options, sync_mode)
            _ffi.drumlin_options_set_quick_check(options, 1 if quick_check else 0)
            _ffi.drumlin_options_set_slow_query_threshold(options, slow_ms)
            _ffi.drumlin_options_set_logger(options, LOG_TO_PYTHON, None, NO_FREE)
            set_encryption_key(options, encryption_key)
            if migrate is not None:
                _ffi.drumlin_options_set_migration(options, migrate.pointer, None, NO_FREE)
            callbacks = configure_sync(options, sync)
            handle = _ffi.drumlin_db_p()
            try:
                _ffi.drumlin_open(raw_path, raw_schema, options, byref(handle))
            except DrumlinError:
                if migrate is not None and migrate.error is not None:
                    # The migration function's own exception, as it raised it.
                    raise migrate.error from None
                raise
        finally:
            _ffi.drumlin_options_free(options)
        self._drumlin_h = handle
        self._sync_callbacks = callbacks  # alive while the session may call them
        # The engine's read version, read in place (see _rows): kept rows are current while it holds.
        address = c_void_p()
        _ffi.drumlin_db_read_version(handle, byref(address))
        self._version = c_uint64.from_address(address.value)  # type: ignore[arg-type]
        open_databases.add(self)

    # ---- Transactions --------------------------------------------------------------------------

    def write(self, *, without_notifying: Sequence[NotificationToken] = ()) -> WriteTransaction:
        """A write transaction for a ``with`` block: committed when the block ends normally,
        rolled back if an exception leaves it (the exception propagates).

        The commit delivers its changes to this database's observers (see ``observe()``),
        except to those whose tokens are in ``without_notifying``.

        Nesting ``write()`` on one thread raises :class:`TransactionError`. On another thread,
        ``write()`` waits until the current write transaction ends.
        """
        return WriteTransaction(self, without_notifying)

    def add_classes(self, schema: Sequence[SchemaEntry | object] | str) -> None:
        """Add classes to the schema open on this database: what :func:`drumlin.open` would have
        done had they been in its ``schema`` (which this takes in every form: object schemas,
        model classes, a JSON string). Give the classes and every class they link to; those open
        already must be given as they are open and stay as they are. A class the file does not
        store gets its tables; one it stores is compared with it as at open (additive changes
        are applied; one that needs a migration raises :class:`MigrationRequiredError`, as does
        a class open here given differently).

        Inside ``write()`` the tables are made in that transaction: a rollback removes them, and
        the classes from this database. Outside, they are committed at once. A failed call
        changes nothing. Other threads must not use this database during the call (a write
        transaction on another thread is waited for). The corresponding C function is
        ``drumlin_add_classes``."""
        models: list[type[Any]] = []
        if isinstance(schema, (list, tuple)) and any(isinstance(entry, type) for entry in schema):
            entries, models = collect_schema(list(schema))
            schema = entries
        raw_schema = encode_schema(schema)
        if self._writer == _get_ident():
            _ffi.drumlin_add_classes(self._ptr(), raw_schema)
        else:
            with self._write_lock:  # not into another thread's write transaction
                _ffi.drumlin_add_classes(self._ptr(), raw_schema)
        self._schema = None
        for cls in models:
            self._models.setdefault(cls.__name__, cls)

    # ---- Objects -------------------------------------------------------------------------------

    @overload
    def create(
        self, class_name: type[_M], values: Mapping[str, Any] | None = None, *, update: UpdateMode = None
    ) -> _M: ...

    @overload
    def create(
        self, class_name: str, values: Mapping[str, Any] | None = None, *, update: UpdateMode = None
    ) -> Any: ...

    def create(
        self, class_name: str | type[Object], values: Mapping[str, Any] | None = None, *, update: UpdateMode = None
    ) -> Any:
        """Create an object from a dict of property values and return it (inside ``write()``).

        ``update=None`` refuses an existing primary key (:class:`DuplicatePrimaryKeyError`);
        ``"modified"`` and ``"all"`` update the existing object instead (writing only the changed
        properties, or every given one). Asymmetric classes are insert-only: their create returns
        None.

        A link property takes an Object, a dict (a new object, or in the update modes an upserted
        one), a primary key of an existing object, or None; a collection property an iterable
        (a mapping for dictionaries) of such values. See docs/python.md, Links and collections.
        """
        mode = _update_mode(update)
        payload = check_values(values, "create()")
        info = self._class(class_name)
        if info.model is not None:
            payload = self._model_values(info, payload, fill=update is None)
        handle = self._ptr()
        if self._writer != _get_ident():
            return self._outside_write(self._create_now, handle, info, payload, mode)
        return self._create_now(handle, info, payload, mode)

    def _create_now(
        self, handle: Any, info: ClassInfo, values: Mapping[str, Any], mode: int
    ) -> Object | None:
        count = len(values)
        indices = (c_int32 * count)()
        cvalues = (_ffi.drumlin_value * count)()
        for i, (name, value) in enumerate(values.items()):
            prop = info.by_name.get(name) if type(name) is str else None
            if prop is None:
                prop = info.resolve(handle, name)
            if not typed_value(prop, value):
                return self._create_json(handle, info, values, mode)
            fill_value(self, value, prop, cvalues[i])
            indices[i] = prop.index
        if info.is_asymmetric:
            _ffi.drumlin_object_create(handle, info.cname, count, indices, cvalues, mode, None)
            return None
        out = _ffi.drumlin_object_p()
        _ffi.drumlin_object_create(handle, info.cname, count, indices, cvalues, mode, byref(out))
        return info.object_type(self, out)

    def _create_json(
        self, handle: Any, info: ClassInfo, values: Mapping[str, Any], mode: int
    ) -> Object | None:
        # Nested values (a list, a nested object, a primary-key reference...) only travel as JSON;
        # Objects inside them are encoded as references.
        payload = ejson_dumps(prepare_values(self, info, values)).encode("utf-8")
        if info.is_asymmetric:
            _ffi.drumlin_create_json(handle, info.cname, payload, mode, None)
            return None
        out = _ffi.drumlin_object_p()
        _ffi.drumlin_object_create_json(handle, info.cname, payload, mode, byref(out))
        return info.object_type(self, out)

    def create_many(
        self,
        class_name: str | type[Object],
        objects: Iterable[Mapping[str, Any]],
        *,
        update: UpdateMode = None,
    ) -> int:
        """Create many objects in one call, all or nothing (inside ``write()``); returns how many
        were created or updated. This is the fast path for bulk inserts: the whole batch is
        serialized once and crosses into the library once."""
        mode = _update_mode(update)
        info = self._class(class_name)
        rows = objects if isinstance(objects, list) else list(objects)
        if info.model is not None and info.model._drumlin_model is not None:
            model = info.model._drumlin_model
            if model.codecs or (model.factories and update is None):
                rows = [self._model_values(info, row, fill=update is None) for row in rows]
        packed = pack_rows(self, info, rows)
        if packed is not None:
            indices, data = packed
            handle = self._ptr()
            if self._writer != _get_ident():
                return self._outside_write(self._create_many_packed, handle, info.cname, indices, data, mode)
            return self._create_many_packed(handle, info.cname, indices, data, mode)
        if not info.scalar_only:
            # Links and collections: Objects become references, Python sets lists.
            rows = [prepare_values(self, info, row) if isinstance(row, Mapping) else row for row in rows]
        payload = ejson_dumps(rows).encode("utf-8")
        handle = self._ptr()
        if self._writer != _get_ident():
            return self._outside_write(self._create_many_now, handle, info.cname, payload, mode)
        return self._create_many_now(handle, info.cname, payload, mode)

    def add(self, obj: _M, *, update: UpdateMode = None) -> _M:
        """Store a model object made with ``Dog(...)`` (inside ``write()``) and return it: the same
        Python object, now live. Linked objects not stored yet are created with it (they stay
        unstored Python objects themselves; read them back through ``obj``). ``update`` is as for
        :meth:`create`. An object already in this database is returned as it is."""
        if not isinstance(obj, Object) or obj._drumlin_model is None:
            raise TypeMismatchError(
                f"add() takes an object of a model class (Dog(...)), not {type(obj).__name__}; "
                "use create() with a class name and a dict"
            )
        values = obj._drumlin_values
        if values is None:
            if obj._drumlin_db is not self:
                raise InvalidArgumentError("add(): the object belongs to another database")
            return obj
        mode = _update_mode(update)
        info = self._class(type(obj))
        payload = self._model_values(info, values, fill=False)
        handle = self._ptr()
        if self._writer != _get_ident():
            created = self._outside_write(self._create_now, handle, info, payload, mode)
        else:
            created = self._create_now(handle, info, payload, mode)
        if created is not None:  # asymmetric objects stay unstored Python objects: they cannot be read
            stored = created._drumlin_h
            object.__setattr__(created, "_drumlin_h", None)
            object.__setattr__(obj, "__class__", type(created))
            obj._drumlin_attach(self, stored)
        return obj

    @staticmethod
    def _create_many_packed(handle: Any, cname: bytes, indices: Any, data: bytes, mode: int) -> int:
        count = c_int64()
        _ffi.drumlin_create_many_marshal(
            handle, cname, len(indices), indices, data, len(data), mode, byref(count)
        )
        return count.value

    @staticmethod
    def _create_many_now(handle: Any, cname: bytes, payload: bytes, mode: int) -> int:
        count = c_int64()
        _ffi.drumlin_create_many_json(handle, cname, payload, mode, byref(count))
        return count.value

    @overload
    def get(self, class_name: type[_M], primary_key: Any) -> _M | None: ...

    @overload
    def get(self, class_name: type[_P], primary_key: Any) -> _P | None: ...

    @overload
    def get(self, class_name: str, primary_key: Any) -> Any: ...

    def get(self, class_name: str | type[Any], primary_key: Any) -> Any:
        """The object of ``class_name`` (a class name, a model class or a projection class) with
        this primary key, or None."""
        # Model classes are cached beside names (see _model_class); a cached class is the current
        # model of its name, else (another class of the same name came since) look it up again.
        info = self._classes.get(class_name)
        if info is None or (type(class_name) is not str and info.model is not class_name):
            info = self._class(class_name)
        rows = info.rows
        if self._drumlin_h is None or rows is None:
            self._ptr()  # closed: the error
        version = rows.version.value  # type: ignore[union-attr]
        if type(primary_key) is int and INT64_MIN <= primary_key <= INT64_MAX:
            row = find_row(rows, primary_key)  # type: ignore[arg-type]
        else:
            key = _ffi.drumlin_value()
            to_value(primary_key, info.primary_key, key)
            row = find_row(rows, key)  # type: ignore[arg-type]
        if row is None:
            return None
        found = info.makers.from_row(self, row, version)
        if not isinstance(class_name, str) and class_name is not info.model and issubclass(class_name, Projection):
            return class_name(found)
        return found

    def get_dict(self, class_name: str, primary_key: Any) -> dict[str, Any] | None:
        """The object of ``class_name`` with this primary key as a plain ``dict`` (what
        ``get(...).to_dict()`` returns), or None: a snapshot, not a live object. One call,
        whatever the class's properties: ``drumlin_object_find_marshal``, or for a class of plain
        values (bool, int, double, string, data) its row (``drumlin_object_find_row``)."""
        info = self._classes.get(class_name) if type(class_name) is str else None
        if info is None:
            info = self._class(class_name)
        rows = info.rows
        if self._drumlin_h is None or rows is None:
            self._ptr()  # closed: the error
        key: Any = primary_key
        if type(primary_key) is not int or not INT64_MIN <= primary_key <= INT64_MAX:
            key = _ffi.drumlin_value()
            to_value(primary_key, info.primary_key, key)
        if info.packable:
            # Every value is marshal's own type and stored in the row: the row is the dict's
            # values, in property order, and the names are made once (not in every call).
            row = find_row(rows, key)  # type: ignore[arg-type]
            return None if row is None else dict(zip(info.names, row))
        values = find_values(rows, key)  # type: ignore[arg-type]
        if values is None:
            return None
        build = info.dict_builder or dict_builder(self, info)
        return build(values)

    def _find(self, handle: Any, info: ClassInfo, primary_key: Any) -> Object | None:
        key = _ffi.drumlin_value()
        to_value(primary_key, info.primary_key, key)
        out = _ffi.drumlin_object_p()
        if _ffi.drumlin_object_find(handle, info.cname, key, byref(out)) == DRUMLIN_NOT_FOUND:
            return None
        return info.object_type(self, out)

    def _find_by_key(self, handle: Any, info: ClassInfo, key: int) -> Object | None:
        out = _ffi.drumlin_object_p()
        if _ffi.drumlin_object_find_by_key(handle, info.cname, key, byref(out)) == DRUMLIN_NOT_FOUND:
            return None
        return info.object_type(self, out)

    def delete(self, target: Object | Iterable[Object]) -> None:
        """Delete a stored object, or every object in a collection (inside ``write()``).

        ``target`` is an Object, or an iterable of Objects: a list of objects (``drumlin.List``)
        deletes the objects it holds, as in Realm, not just the list's entries; so do a
        ``drumlin.Set`` and a Python list. Each object is deleted once (the collection is read
        first). A ``drumlin.Results`` is deleted by the engine in one call (``delete_all()``).
        Deleted objects' accessors become invalid."""
        if isinstance(target, Results):
            if target._drumlin_db is not self:
                raise InvalidArgumentError("delete(): the results belong to another database")
            target.delete_all()
            return
        if isinstance(target, Object):
            objects = [target]
        elif isinstance(target, (str, bytes, bytearray, Mapping)) or not isinstance(target, Iterable):
            raise TypeMismatchError(
                f"delete() takes a drumlin.Object or a collection of them, not {type(target).__name__}"
            )
        else:
            objects = list(target)  # read the whole collection before deleting from it
        for obj in objects:
            if not isinstance(obj, Object):
                raise TypeMismatchError(f"delete() takes drumlin.Objects, not {type(obj).__name__}")
            if obj._drumlin_db is not self:
                raise InvalidArgumentError("delete(): the object belongs to another database")
            obj._ptr()
        objects = list(dict.fromkeys(objects))  # each object once, in order
        self._ptr()
        if self._writer != _get_ident():
            self._outside_write(self._delete_all_now, objects)
        else:
            self._delete_all_now(objects)

    def _delete_all_now(self, objects: list[Object]) -> None:
        for obj in objects:
            self._delete_now(obj, obj._ptr())

    @staticmethod
    def _delete_now(obj: Object, handle: Any) -> None:
        with obj._drumlin_lock:
            _ffi.drumlin_object_delete(handle)

    def count(self, class_name: str | type[Any], query: str | None = None, *args: Any) -> int:
        """The number of objects of a class, or of those matching a query:
        ``db.count("Person", "age > $0", 30)``."""
        cname = self._class(class_name).cname if isinstance(class_name, type) else encode_name(class_name, "class")
        ctext = None if query is None else encode_query(query)
        cargs = query_args(args)
        out = c_int64()
        _ffi.drumlin_count(self._ptr(), cname, ctext, cargs, byref(out))
        return out.value

    # ---- Export, import and maintenance ---------------------------------------------------------

    def export_ndjson(
        self,
        path: str | os.PathLike[str],
        class_name: str | None = None,
        *,
        progress: Callable[[int, int], object] | None = None,
    ) -> int:
        """Write objects to ``path`` as Extended JSON lines, one object per line, streamed (memory
        use does not grow with the number of objects); returns how many were written.

        ``class_name`` writes one type's objects as plain JSON objects; without it every type is
        written and each line names its type in ``"$type"``. ``progress(done, total)`` counts
        objects; returning False cancels (the file is removed). The corresponding C function is
        ``drumlin_export_ndjson``."""
        cname = None if class_name is None else encode_name(class_name, "class")
        callback = _Progress(progress)
        count = c_int64()
        try:
            _ffi.drumlin_export_ndjson(
                self._ptr(), cname, encode_path(path), callback.pointer, None, byref(count)
            )
        finally:
            callback.reraise()
        return count.value

    def import_ndjson(
        self,
        path: str | os.PathLike[str],
        class_name: str | None = None,
        *,
        update: str | None = None,
        batch: int = 0,
        progress: Callable[[int, int], object] | None = None,
    ) -> int:
        """Create objects from a file of Extended JSON lines (as :meth:`export_ndjson` writes
        them); returns how many were created or updated.

        All or nothing: the first bad line raises an error whose message starts with
        ``Line <n>:`` and nothing is imported. ``batch=N`` commits every N objects instead (a
        failure keeps the batches before it). Inside ``write()`` the import is one step of that
        transaction. ``update`` as in :meth:`create`; ``progress(done, total)`` counts bytes
        (``total`` is 0 for a pipe); returning False cancels. The corresponding C function is
        ``drumlin_import_ndjson``."""
        mode = _update_mode(update)
        if isinstance(batch, bool) or not isinstance(batch, int):
            raise TypeMismatchError(f"batch must be an int, not {type(batch).__name__}")
        if not 0 <= batch <= INT64_MAX:
            raise InvalidArgumentError(f"batch must not be negative, got {batch}")
        cname = None if class_name is None else encode_name(class_name, "class")
        raw_path = encode_path(path)
        callback = _Progress(progress)
        count = c_int64()

        def run(handle: Any) -> int:
            try:
                _ffi.drumlin_import_ndjson(
                    handle, raw_path, cname, mode, batch, callback.pointer, None, byref(count)
                )
            finally:
                callback.reraise()
            return count.value

        handle = self._ptr()
        if self._writer == _get_ident():
            return run(handle)
        with self._write_lock:  # not inside another thread's write transaction
            return run(self._ptr())

    def check(self) -> list[str]:
        """Check the file: SQLite's integrity check and the engine's invariants (links and
        collection entries point at live objects, embedded objects have exactly one owner).
        Returns the problems found, one sentence each: empty when the file is sound. The
        corresponding C function is ``drumlin_check``."""
        out = c_void_p()
        _ffi.drumlin_check(self._ptr(), byref(out))
        problems: list[str] = ejson_loads(take_string(out))
        return problems

    def compact(self) -> None:
        """Rewrite the file without its free pages (SQLite's VACUUM). Not inside ``write()``;
        other connections to the file should be closed. The corresponding C function is
        ``drumlin_compact``."""
        with self._write_lock:
            _ffi.drumlin_compact(self._ptr())

    def write_copy(self, path: str | os.PathLike[str], encryption_key: bytes | None = None) -> None:
        """Write the committed state to a new file at ``path`` (Realm's ``writeCopy``), encrypted
        with ``encryption_key`` (64 bytes) or, without one, plain, whatever this file is: the way
        to add, change or remove encryption (docs/encryption.md). ``path`` must not exist
        (:class:`FileError`, "the file already exists"); a key of another length is
        :class:`InvalidArgumentError`; nothing is left at ``path`` when the copy fails. Not inside
        ``write()``. The corresponding C function is ``drumlin_write_copy``."""
        raw_path = encode_path(path)
        key = key_bytes(encryption_key)

        def run(handle: Any) -> None:
            _ffi.drumlin_write_copy(handle, raw_path, key, 0 if key is None else len(key))

        if self._writer == _get_ident():
            run(self._ptr())
            return
        with self._write_lock:  # not inside another thread's write transaction
            run(self._ptr())

    # ---- Queries -------------------------------------------------------------------------------

    @overload
    def objects(self, class_name: type[_M]) -> Results[_M]: ...

    @overload
    def objects(self, class_name: type[_P]) -> Results[_P]: ...

    @overload
    def objects(self, class_name: str) -> Results[Any]: ...

    def objects(self, class_name: str | type[Any]) -> Results[Any]:
        """Every object of a class, in creation order, as live :class:`~drumlin.Results` (refine
        them with ``filter``, ``sort``, ``distinct`` and ``limit``). ``class_name`` is a name, a
        model class (the objects are its instances) or a projection class (each object seen
        through it)."""
        return _results_handle(self, self._class(class_name), None, None, _view(class_name))

    def query_dicts(self, class_name: str, query: str, *args: Any) -> list[dict[str, Any]]:
        """The objects matching a query as plain dicts, in result order: what
        ``db.query(class_name, query, *args).to_dicts()`` returns, as a snapshot. One call and one
        crossing (``drumlin_query_marshal``), with no :class:`~drumlin.Results` in between."""
        if query is None:
            raise TypeMismatchError("query_dicts() needs a query string (\"TRUEPREDICATE\" reads every object)")
        info = self._classes.get(class_name) if type(class_name) is str else None
        if info is None:
            info = self._class(class_name)
        text = _ENCODED.get(query) if type(query) is str else None  # the texts seen recently
        if text is None:
            text = encode_query(query)
        rows = info.rows
        if self._drumlin_h is None or rows is None:
            self._ptr()  # closed: the error
        build = info.dict_builder or dict_builder(self, info)
        found = query_values(rows, text, query_args(args))  # type: ignore[arg-type]
        return found if build is as_is else list(map(build, found))

    @overload
    def query(self, class_name: type[_M], query: str, *args: Any) -> Results[_M]: ...

    @overload
    def query(self, class_name: type[_P], query: str, *args: Any) -> Results[_P]: ...

    @overload
    def query(self, class_name: str, query: str, *args: Any) -> Results[Any]: ...

    def query(self, class_name: str | type[Any], query: str, *args: Any) -> Results[Any]:
        """The objects of a class matching a Realm Query Language query, as live
        :class:`~drumlin.Results`: ``db.query("Person", "age > $0 SORT(name ASC) LIMIT(5)", 30)``
        is ``db.objects("Person").filter(...)`` in one call. ``$0``, ``$1``... are ``args``
        (see docs/queries.md)."""
        if query is None:
            raise TypeMismatchError("query() needs a query string; db.objects() reads every object")
        if type(class_name) is str:
            info = self._classes.get(class_name) or self._class(class_name)
            view = None
        else:
            info = self._class(class_name)
            view = _view(class_name)
        # The query reads its first rows in the same call (drumlin_query_first_rows, which reports
        # a bad query as drumlin_query does): results of at most _rows.FIRST_ROWS objects keep them
        # and answer their first read (iteration, len, an index) from them if the database's read
        # version is unchanged and the process has made no other call into the library since (any
        # commit, through any database, is one). Every other read re-evaluates the results through
        # their handle, opened when first needed. All of it here, not a function deeper: this is
        # the path of every lookup.
        ctext = _ENCODED.get(query) if type(query) is str else None
        if ctext is None:
            ctext = encode_query(query)
        cargs = query_args(args)
        access = info.rows
        if access is None or self._drumlin_h is None:
            return _results_handle(self, info, ctext, cargs, view)
        version = access.version.value
        calls = CALLS[0]
        rows = query_first_rows(access, ctext, cargs)
        # Results.__init__'s stores, without its frame.
        results = _new_object(Results)
        results._drumlin_h = UNOPENED
        results._drumlin_db = self
        results._drumlin_class = info
        results._drumlin_owner = None
        results._drumlin_view = view
        results._drumlin_query = (ctext, cargs)
        results._drumlin_first = None if rows is None else (version, calls, rows)
        return results


def _results_handle(db: Database, info: ClassInfo, ctext: bytes | None, cargs: bytes | None, view: Any) -> Results[Any]:
    """``drumlin_query``: Results over a handle of their own (every object of the class for
    ``ctext`` None)."""
    out = ResultsHandle()
    _ffi.drumlin_query(db._ptr(), info.cname, ctext, cargs, byref(out))
    return Results(db, info, out, None, view)


_new_object = object.__new__

def _view(class_name: object) -> Any:
    if isinstance(class_name, type) and issubclass(class_name, Projection):
        return class_name
    return None


class _LentDatabase(Database):
    """A database handle a migration lends out (drumlin_migration_new_db / _old_db): never closed
    from Python, the migration ends it; writable in the migration's transaction, or read-only."""

    __slots__ = ()

    def __init__(self, handle: Any, path: str, models: dict[str, type[Object]], writable: bool) -> None:
        # Not Database.__init__: the handle exists already.
        self._drumlin_h = handle
        self._models = dict(models)
        self._path = path
        self._write_lock = threading.RLock()
        self._object_lock = threading.RLock()
        # Writes happen in the migration's transaction, on the thread running it.
        self._writer = threading.get_ident() if writable else None
        self._classes = {}
        self._schema = None
        # The lent database's own read version (see Database.__init__ and _rows).
        address = c_void_p()
        _ffi.drumlin_db_read_version(handle, byref(address))
        self._version = c_uint64.from_address(address.value)  # type: ignore[arg-type]

    def _release(self, handle: Any) -> None:
        # The migration ends the handle (closing it here would end the migration's database).
        pass


def open(
    path: str | bytes | os.PathLike[str] | os.PathLike[bytes],
    schema: Sequence[SchemaEntry | object] | str | None = None,
    *,
    schema_version: int = 0,
    read_only: bool = False,
    delete_if_migration_needed: bool = False,
    in_memory: bool = False,
    busy_timeout: float = 5.0,
    synchronous: Literal["normal", "full"] = "normal",
    quick_check: bool = False,
    slow_query_threshold: float | None = None,
    migration: Callable[[Migration], object] | None = None,
    encryption_key: bytes | None = None,
    sync: SyncConfig | None = None,
) -> Database:
    """Open (or create) a database.

    :param path: the file; ``":memory:"`` opens a private in-memory database.
    :param schema: a list of object schemas (dicts, Realm JS's format) and model classes (mixed
        freely), or the schemas as a JSON string; None (omitted) opens an existing file with the
        schema stored in it (``db.schema`` shows it).
    :param schema_version: stored in the file; opening with a lower one than stored fails.
    :param read_only: every write raises :class:`ReadOnlyError`; the file must exist.
    :param delete_if_migration_needed: recreate the file when the schema needs a migration.
    :param in_memory: keep the data in memory only (the path is ignored); it vanishes on close.
    :param busy_timeout: seconds to wait for another connection's write lock before
        :class:`BusyError` (whose message says what waited and for how long).
    :param synchronous: ``"normal"`` (a process crash loses nothing; a power loss may roll back
        the last commits, never half of one) or ``"full"`` (every commit durable against power
        loss too, at the cost of an fsync per commit).
    :param quick_check: run SQLite's ``PRAGMA quick_check`` when opening an existing file and
        refuse a damaged one with :class:`CorruptError`; reads the whole file. ``db.check()``
        runs the full check.
    :param slow_query_threshold: seconds; queries that take longer are logged as warnings on the
        ``drumlin`` logger (which also hears opens, migrations and failed calls).
    :param migration: ``fn(m)`` runs once when the file's stored schema version is lower than
        ``schema_version``, inside the transaction that changes the schema (see
        :class:`drumlin.Migration` and docs/migrations.md). If it raises, the file is left as it
        was and ``open()`` re-raises that exception.
    :param encryption_key: 64 bytes (Realm's ``encryptionKey``): the file, its log and journal are
        encrypted and authenticated (docs/encryption.md). Another length: :class:`InvalidArgumentError`;
        the wrong key, none for an encrypted file or one for a plain file: :class:`DecryptionError`.
    :param sync: upload the asymmetric objects to a sync service (:class:`drumlin.SyncConfig`,
        docs/sync.md); ``db.sync`` is the session.

    The corresponding C function is ``drumlin_open``.
    """
    return Database(
        path,
        schema,
        schema_version=schema_version,
        read_only=read_only,
        delete_if_migration_needed=delete_if_migration_needed,
        in_memory=in_memory,
        busy_timeout=busy_timeout,
        synchronous=synchronous,
        quick_check=quick_check,
        slow_query_threshold=slow_query_threshold,
        migration=migration,
        encryption_key=encryption_key,
        sync=sync,
    )
