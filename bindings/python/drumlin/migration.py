"""Migrations: the ``migration=`` function of :func:`drumlin.open`.

When a file's stored schema version is lower than ``schema_version``, ``open()`` changes the
schema (with Realm's conversions: see docs/migrations.md) and calls ``migration(m)`` inside the
same transaction, before committing::

    def migrate(m: drumlin.Migration) -> None:
        def person(old, new):
            new.full_name = f"{old.first_name} {old.last_name}"   # old: as it was; read-only
        m.enumerate_objects("Person", person)

    db = drumlin.open("app.drumlin", SCHEMA, schema_version=2, migration=migrate)

If the function raises, nothing is written (the file stays exactly as it was) and ``open()``
re-raises that same exception. The corresponding C function is ``drumlin_options_set_migration``.
"""

from __future__ import annotations

from ctypes import byref, c_int, c_uint64, c_void_p
from typing import TYPE_CHECKING, Any, Callable

from . import _ffi
from ._convert import take_string
from ._errors import DrumlinError
from ._schema import encode_name
from .values import ejson_loads

if TYPE_CHECKING:
    from .database import Database
    from .object import Object

    # (handle, writable) -> a Database over a handle the migration lends (database.py's
    # _LentDatabase, whose close() only lets go of the handle).
    LendDatabase = Callable[[Any, bool], Database]


def _class_name(class_name: str | type[Any]) -> str:
    if isinstance(class_name, type):
        return class_name.__name__
    return class_name


class Migration:
    """What a migration function receives: the old objects (read-only, with every property of the
    old schema, including the ones the new schema dropped) and the database in the new schema.

    Valid only while the migration function runs.
    """

    __slots__ = ("_new", "_old", "_pointer", "new_schema_version", "old_schema_version")

    old_schema_version: int
    """The version stored in the file before the migration."""
    new_schema_version: int
    """The version the file is opened with."""

    def __init__(self, pointer: int, lend: LendDatabase) -> None:
        self._pointer = c_void_p(pointer)
        version = c_uint64()
        _ffi.drumlin_migration_old_schema_version(self._pointer, byref(version))
        self.old_schema_version = version.value
        _ffi.drumlin_migration_new_schema_version(self._pointer, byref(version))
        self.new_schema_version = version.value
        new_handle = _ffi.drumlin_db_p()
        _ffi.drumlin_migration_new_db(self._pointer, byref(new_handle))
        old_handle = _ffi.drumlin_db_p()
        _ffi.drumlin_migration_old_db(self._pointer, byref(old_handle))
        self._new = lend(new_handle, True)
        # Old objects are plain objects of the old schema, not model instances: the model classes
        # describe the new schema.
        self._old = lend(old_handle, False)

    def _end(self) -> None:
        self._new.close()
        self._old.close()

    @property
    def old_schema(self) -> list[dict[str, Any]]:
        """The schema stored in the file before the migration (normalized long form)."""
        out = c_void_p()
        _ffi.drumlin_migration_old_schema_json(self._pointer, byref(out))
        result: list[dict[str, Any]] = ejson_loads(take_string(out))
        return result

    @property
    def new_schema(self) -> list[dict[str, Any]]:
        """The schema the file is opened with (normalized long form)."""
        return self._new.schema

    @property
    def new_db(self) -> Database:
        """The database being migrated, in the migration's write transaction: query and write it
        directly (no ``write()`` block)."""
        return self._new

    @property
    def old_db(self) -> Database:
        """The database as it was before the migration, read-only, with the old schema."""
        return self._old

    def enumerate_objects(
        self, class_name: str | type[Any], function: Callable[[Any, Any], object]
    ) -> None:
        """Call ``function(old, new)`` for each object of a class that existed before the
        migration (in creation order). ``old`` is the object as it was (read-only: writing raises
        :class:`~drumlin.ReadOnlyError`); ``new`` the same object in the new schema, or None when
        the new schema has no such class or the object was deleted. Both are typed ``Any``, as objects
        of a schema given as dicts are (their attributes come from the schema). An exception raised by
        ``function`` stops the enumeration and propagates."""
        name = _class_name(class_name)
        old_db, new_db = self._old, self._new
        failure: list[BaseException] = []

        def call(_userdata: Any, old_pointer: Any, new_pointer: Any) -> int:
            try:
                old = old_db._class(name).object_type(old_db, old_pointer)
                new = new_db._class(name).object_type(new_db, new_pointer) if new_pointer else None
                function(old, new)
                return 0
            except BaseException as error:  # an exception must not cross back into C
                failure.append(error)
                return 1

        callback = _ffi.drumlin_migration_object_fn(call)
        try:
            _ffi.drumlin_migration_enumerate_objects(self._pointer, encode_name(name, "class"), callback, None)
        except DrumlinError:
            if failure:
                raise failure[0] from None
            raise

    def rename_property(self, class_name: str | type[Any], old_name: str, new_name: str) -> None:
        """Realm's ``renameProperty``: ``new_name`` (a property of the new schema) takes the values
        ``old_name`` (of the old schema) held. Call it before writing ``new_name`` yourself."""
        _ffi.drumlin_migration_rename_property(
            self._pointer,
            encode_name(_class_name(class_name), "class"),
            encode_name(old_name, "property"),
            encode_name(new_name, "property"),
        )

    def delete_data(self, class_name: str | type[Any]) -> bool:
        """Delete every object of a class; a class the new schema no longer has is removed from
        the file (without this, its objects stay in the file, as in Realm). Returns whether the
        class existed."""
        deleted = c_int()
        _ffi.drumlin_migration_delete_data(self._pointer, encode_name(_class_name(class_name), "class"), byref(deleted))
        return bool(deleted.value)

    def create(self, class_name: str | type[Any], values: dict[str, Any]) -> Object:
        """Create an object in the new schema (as :meth:`Database.create`)."""
        created: Object = self._new.create(class_name, values)
        return created

    def delete(self, obj: Object) -> None:
        """Delete an object of the new schema (a ``new`` object of :meth:`enumerate_objects`)."""
        self._new.delete(obj)


class MigrationCallback:
    """A Python migration function as a C ``drumlin_migration_fn``: an exception aborts the
    migration and is kept, for ``open()`` to re-raise."""

    def __init__(self, function: Callable[[Migration], object], lend: LendDatabase) -> None:
        self.function = function
        self.lend = lend
        self.error: BaseException | None = None
        self.pointer = _ffi.drumlin_migration_fn(self._call)

    def _call(self, _userdata: Any, pointer: int) -> int:
        migration: Migration | None = None
        try:
            migration = Migration(pointer, self.lend)
            self.function(migration)
            return 0
        except BaseException as error:  # an exception must not cross back into C
            self.error = error
            return 1
        finally:
            if migration is not None:
                migration._end()
