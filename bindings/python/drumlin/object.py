"""``drumlin.Object``: a live accessor for one stored object.

Each class of a database gets a generated subclass of :class:`Object` (named after the class) whose
attributes are :class:`~drumlin._schema.Property` descriptors, so ``person.name`` is one typed C call
by pre-resolved index. ``person["name"]`` does the same for any name, including names that collide
with :class:`Object`'s own methods.

Links read as :class:`Object` (or None), collections as live :class:`~drumlin.List`,
:class:`~drumlin.Set` and :class:`~drumlin.Dictionary` views, linkingObjects as
:class:`~drumlin.Results`. Writes take Python values: an :class:`Object` in a link position travels as
a typed ``DRUMLIN_TYPE_LINK`` value, and payloads holding nested values go through the engine's JSON
layer, with the Objects inside them encoded as references (:func:`prepare_values`).
"""

from __future__ import annotations

import contextlib
import marshal
import sys
import threading
from collections.abc import Iterable, Mapping
from ctypes import byref, c_char_p, c_int, c_int32, c_int64, c_size_t, c_void_p, create_string_buffer
from json import loads as _json_loads
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Union, cast

from . import _ffi, notifications
from ._constants import DRUMLIN_NOT_FOUND
from ._errors import (
    DrumlinError,
    InvalidArgumentError,
    InvalidatedObjectError,
    MisuseError,
    NotSupportedError,
    TypeMismatchError,
)
from ._handle import Handle
from ._convert import NESTED_TYPES, READERS, SCALAR_LIMIT, take_string, to_value
from ._rows import NO_ROW, read_row
from ._schema import Property, encode_name
from .notifications import NotificationToken, ObjectChange
from .model import ModelInfo, ensure_resolved, linking_objects, model_fields, persisted
from .values import check_mixed_keys, ejson_dumps, ejson_loads

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
elif sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # type checkers read typing_extensions' declaration; at run time it only marks the class

    def dataclass_transform(**kwargs: Any) -> Any:
        def mark(cls: Any) -> Any:
            cls.__dataclass_transform__ = kwargs
            return cls

        return mark


if TYPE_CHECKING:
    from ._schema import ClassInfo
    from .database import Database
    from .results import Results

PathStep = Union[int, str]
MixedPath = Union[list[PathStep], tuple[PathStep, ...], PathStep]
"""A path into a nested mixed value: list indexes and dictionary keys (one step may be bare)."""

_get_ident = threading.get_ident
_drumlin_value = _ffi.drumlin_value
_get_at = _ffi.drumlin_object_get_at
_set_by_key = _ffi.drumlin_object_set_by_key
# Python types that to_value writes as one plain drumlin_value.
_PLAIN_WRITES = frozenset({int, float, str, bool, bytes, type(None)})


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
        return marshal.loads(view[:needed])


@dataclass_transform(kw_only_default=True, field_specifiers=(persisted, linking_objects))
class Object(Handle):
    """A stored object. Read properties as attributes or items; write them inside ``db.write()``.

    Objects are live: they always read the current state, raise
    :class:`~drumlin.InvalidatedObjectError` once the object is deleted, and
    :class:`~drumlin.MisuseError` once their database is closed. Two accessors of the same stored
    object compare equal.

    Subclassed, it is a model class (see docs/python.md, Model classes)::

        class Dog(drumlin.Object):
            name: str = drumlin.persisted(default="", indexed=True)
            age: Optional[int] = None

    ``Dog(name="Rex")`` is a new object outside any database until ``db.add()`` stores it;
    ``db.objects(Dog)``, ``db.get(Dog, pk)`` and ``db.create(Dog, {...})`` return ``Dog`` instances.
    """

    __slots__ = ("_drumlin_db", "_drumlin_key", "_drumlin_lock", "_drumlin_row", "_drumlin_seen", "_drumlin_values")

    _kind = "object"
    _drumlin_class: ClassVar[ClassInfo]
    # The model class's declaration (None for the classes made from a schema alone).
    _drumlin_model: ClassVar[ModelInfo | None] = None
    _drumlin_kind: ClassVar[str] = "object"
    _drumlin_db: Database
    _drumlin_lock: threading.Lock
    _drumlin_key: int | None
    # The values of a model object not stored yet; None once managed.
    _drumlin_values: dict[str, Any] | None
    # The kept row (see _rows) and the database's read version when it was read (NO_ROW: none).
    _drumlin_row: tuple[Any, ...] | None
    _drumlin_seen: int

    def __init__(self, **values: Any) -> None:
        """A new model object, not in any database yet: ``Dog(name="Rex")``. Store it with
        ``db.add(dog)``. Properties left out get their default (or None when optional)."""
        model = type(self)._drumlin_model
        if model is None:
            raise TypeError(
                "drumlin.Object is not created directly: declare a model class "
                "(class Dog(drumlin.Object): ...) or use db.create(class_name, values)"
            )
        ensure_resolved(model)
        for name in values:
            field = model.fields.get(name)
            if field is None or field.kind == "backlink":
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}")
        setter = object.__setattr__
        setter(self, "_drumlin_h", None)
        setter(self, "_drumlin_key", None)
        setter(self, "_drumlin_lock", threading.Lock())
        setter(self, "_drumlin_row", None)
        setter(self, "_drumlin_seen", NO_ROW)
        setter(self, "_drumlin_values", model.new_values(values))

    def _drumlin_attach(self, db: Database, handle: Any) -> None:
        # Managed objects come from Database.create / Database.get, never from user code.
        setter = object.__setattr__
        setter(self, "_drumlin_h", handle)
        setter(self, "_drumlin_db", db)
        # Strings read through a handle are borrowed until the next call on that handle: the lock
        # keeps two threads sharing this accessor from overwriting each other's values mid-copy.
        setter(self, "_drumlin_lock", threading.Lock())
        setter(self, "_drumlin_key", None)
        setter(self, "_drumlin_values", None)
        setter(self, "_drumlin_row", None)
        setter(self, "_drumlin_seen", NO_ROW)

    def __init_subclass__(cls, *, map_to: str | None = None, **kwargs: Any) -> None:
        """A model class: its annotations declare persisted properties. ``map_to`` is the stored
        (table) name when it differs from the class name."""
        super().__init_subclass__(**kwargs)
        if "_drumlin_class" in cls.__dict__ or "_drumlin_base" in cls.__dict__:
            return  # a class made for one database's schema, or EmbeddedObject/AsymmetricObject
        frame = sys._getframe(1)
        # Classes declared inside a function: their names, for annotations naming each other.
        local_names = dict(frame.f_locals) if frame.f_code.co_name != "<module>" else None
        fields = model_fields(cls, local_names)
        cls._drumlin_model = ModelInfo(cls, fields, kind=cls._drumlin_kind, map_to=map_to)

    @property
    def is_managed(self) -> bool:
        """True once the object is stored in a database (False for a model object made with
        ``Dog(...)`` and not added yet)."""
        return self._drumlin_values is None

    def _release(self, handle: Any) -> None:
        _ffi.drumlin_object_release(handle)

    def observe(
        self, callback: Callable[[ObjectChange], None], key_paths: Iterable[str] | None = None
    ) -> NotificationToken:
        """Call ``callback(change)`` when this object's properties change (``change.changed``
        names them; ``change.old_values`` / ``new_values`` hold the scalar ones) or when it is
        deleted (``change.deleted``; nothing follows). With ``key_paths``, only those properties
        count. Keep the returned token: delivery stops when it is cancelled or garbage-collected."""
        return notifications.register(
            self._drumlin_db, _ffi.drumlin_object_observe, self._ptr(), callback,
            notifications.object_change, key_paths,
        )

    def _ptr(self) -> Any:
        handle = self._drumlin_h
        if handle is None:
            if self._drumlin_values is not None:
                raise MisuseError(
                    f"This {type(self).__name__} object is not in a database yet: db.add() it first."
                )
            key = self._drumlin_key
            if key is None:
                raise MisuseError("This object is closed.")
            # An object read as a row has no handle until a call needs one.
            info = self._drumlin_class
            out = _ffi.drumlin_object_p()
            if _ffi.drumlin_object_find_by_key(self._drumlin_db._ptr(), info.cname, key, byref(out)) == DRUMLIN_NOT_FOUND:
                raise InvalidatedObjectError(
                    f"Accessing object of type {info.name} which has been invalidated or deleted"
                )
            with self._drumlin_lock:
                if self._drumlin_h is None:
                    object.__setattr__(self, "_drumlin_h", out)
                else:
                    _ffi.drumlin_object_release(out)
            handle = self._drumlin_h
        return handle

    def close(self) -> None:
        """Release this accessor's handle (the stored object is untouched)."""
        lock = getattr(self, "_drumlin_lock", None)
        if lock is None:
            return
        with lock:
            super().close()
            if self._drumlin_values is None:
                object.__setattr__(self, "_drumlin_key", None)
                object.__setattr__(self, "_drumlin_row", None)
                object.__setattr__(self, "_drumlin_seen", NO_ROW)

    # ---- Reading -------------------------------------------------------------------------------

    def _drumlin_current_row(self) -> tuple[Any, ...]:
        """The kept row, read again (one call) when the database's read version moved."""
        info = self._drumlin_class
        rows = info.rows
        if rows is None or self._drumlin_values is not None or self._drumlin_db._drumlin_h is None:
            handle = self._ptr()  # not stored yet, closed: the error
            _get_at(handle, 0, _drumlin_value())  # the engine's error for a closed database
            raise MisuseError("This object's database is closed.")
        version = rows.version.value
        if version == self._drumlin_seen:
            return self._drumlin_row  # type: ignore[return-value]
        key = self._drumlin_key
        if key is None:
            key = self._drumlin_object_key()
            if key is None:
                self._ptr()
                raise MisuseError("This object is closed.")
        self._drumlin_db._ptr()  # a closed database is a MisuseError
        row = read_row(rows, key)
        setter = object.__setattr__
        setter(self, "_drumlin_row", row)
        setter(self, "_drumlin_seen", version)
        return row

    def _drumlin_read(self, prop: Property) -> Any:
        if prop.in_row:
            value = self._drumlin_current_row()[prop.index]
            if prop.is_link and value is not None:
                return self._drumlin_db._class(prop.object_type).object_type._drumlin_keyed(  # type: ignore[attr-defined]
                    self._drumlin_db, value[2]
                )
            return value
        if not prop.scalar:
            return self._drumlin_read_relation(prop)
        handle = self._ptr()
        value = _drumlin_value()
        with self._drumlin_lock:
            _get_at(handle, prop.index, value)
            kind = value.type
            if 0 <= kind < SCALAR_LIMIT:
                reader = READERS[kind]
                if reader is not None:
                    return reader(value.as_)
        if kind == _ffi.DRUMLIN_TYPE_LINK:  # a mixed property holding an object
            return mixed_link_object(self._drumlin_db, value.as_.link.class_index, value.as_.link.key)
        return self._drumlin_read_nested(handle, prop)

    def _drumlin_read_nested(self, handle: Any, prop: Property) -> Any:
        """A nested list or dictionary in a mixed property, as a plain Python value (a snapshot)."""
        if prop.type != _ffi.DRUMLIN_PROPERTY_MIXED:
            raise DrumlinError(f"libdrumlin returned a non-scalar value for property {prop.label}")
        out = c_void_p()
        with self._drumlin_lock:
            _ffi.drumlin_object_get_mixed_json(handle, prop.cname, b"[]", byref(out))
        return ejson_loads(take_string(out))

    def _drumlin_read_relation(self, prop: Property) -> Any:
        """A link (Object or None), a collection (a live List, Set or Dictionary) or a
        linkingObjects property (a live Results)."""
        db = self._drumlin_db
        if prop.collection != _ffi.DRUMLIN_COLLECTION_NONE or prop.is_backlink:
            return db._relation(self, prop)  # a live collection: the types are above this module
        target = db._class(prop.object_type)
        handle = self._ptr()
        out = _ffi.drumlin_object_p()
        with self._drumlin_lock:
            status = _ffi.drumlin_object_get_linked(handle, prop.cname, byref(out))
        if status == DRUMLIN_NOT_FOUND:
            return None
        return target.object_type(db, out)

    def _drumlin_json(self, depth: int = 0) -> dict[str, Any]:
        handle = self._ptr()
        out = c_void_p()
        with self._drumlin_lock:
            if depth:
                _ffi.drumlin_object_to_json_depth(handle, depth, byref(out))
            else:
                _ffi.drumlin_object_to_json(handle, byref(out))
        result: dict[str, Any] = ejson_loads(take_string(out))
        return result

    def _drumlin_property(self, name: str) -> Property:
        prop = self._drumlin_class.by_name.get(name) if type(name) is str else None
        if prop is None:
            prop = self._drumlin_class.resolve(self._drumlin_db._ptr(), name)
        return prop

    if not TYPE_CHECKING:  # hidden from type checkers: a model class's misspelled name is an error

        def __getattr__(self, name: str) -> Any:
            # Only reached for names that are not descriptors: stored (mapTo) names and unknown ones.
            if name.startswith("__") or name.startswith("_drumlin_"):
                raise AttributeError(name)
            try:
                prop = self._drumlin_class.resolve(self._drumlin_db._ptr(), name)
            except AttributeError as error:  # NoSuchPropertyError: let Python suggest a near name
                error.name = name
                error.obj = self
                raise
            return self._drumlin_read(prop)

    def __getitem__(self, name: str) -> Any:
        prop = self._drumlin_class.by_name.get(name) if type(name) is str else None
        if prop is None:
            prop = self._drumlin_class.resolve(self._drumlin_db._ptr(), name)
        return self._drumlin_read(prop)

    # ---- Writing -------------------------------------------------------------------------------

    def __setattr__(self, name: str, value: Any) -> None:
        model = self._drumlin_model
        if model is None:
            # The common write: a plain value to a property of the row, inside this thread's write().
            prop = self._drumlin_class.by_name.get(name)
            kind = type(value)
            if (
                prop is not None
                and prop.in_row
                and not prop.is_link
                and kind in _PLAIN_WRITES
                and name not in _OBJECT_ATTRIBUTES
            ):
                key = self._drumlin_key
                db = self._drumlin_db
                if key is not None and db._writer == _get_ident() and db._drumlin_h is not None:
                    cvalue = _drumlin_value()
                    to_value(value, prop, cvalue)
                    _set_by_key(db._drumlin_h, self._drumlin_class.index, key, prop.index, cvalue)
                    return
        if model is not None:
            self._drumlin_model_setattr(model, name, value)
            return
        if name in _OBJECT_ATTRIBUTES or name.startswith("_drumlin_"):
            raise AttributeError(
                f"'{name}' is an attribute of drumlin.Object, not a property: assign a property of "
                f"that name with obj[{name!r}] = value"
            )
        prop = self._drumlin_class.by_name.get(name)
        if prop is None:
            prop = self._drumlin_class.resolve(self._drumlin_db._ptr(), name)
        self._drumlin_write(prop, value)

    def _drumlin_model_setattr(self, model: ModelInfo, name: str, value: Any) -> None:
        field = model.fields.get(name)
        values = self._drumlin_values
        if field is not None:
            if values is not None:  # not stored yet
                if field.kind == "backlink":
                    raise AttributeError(f"'{type(self).__name__}.{name}' is computed (linkingObjects)")
                values[name] = value
                return
            codec = field.codec
            if codec is not None:
                value = codec.store(value)
            self._drumlin_write(self._drumlin_property(name), value)
            return
        declared = _class_attribute(type(self), name)
        if isinstance(declared, Property):  # a property of the database's schema
            self._drumlin_write(declared, value)
        elif declared is not _NOT_DECLARED and not name.startswith("_drumlin_"):
            object.__setattr__(self, name, value)  # @property setters, ignored attributes
        elif values is None:
            self._drumlin_write(self._drumlin_property(name), value)  # stored names, or the error
        else:
            raise AttributeError(
                f"'{type(self).__name__}' object has no property {name!r} (ignored attributes "
                "are declared as class attributes)"
            )

    def __setitem__(self, name: str, value: Any) -> None:
        prop = self._drumlin_class.by_name.get(name) if type(name) is str else None
        if prop is None:
            prop = self._drumlin_class.resolve(self._drumlin_db._ptr(), name)
        self._drumlin_write(prop, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError("properties cannot be deleted: assign None, or delete the object")

    def _drumlin_write(self, prop: Property, value: Any) -> None:
        handle = self._drumlin_h if self._drumlin_key is not None else self._ptr()
        if handle is None and not prop.scalar:
            handle = self._ptr()
        db = self._drumlin_db
        if db._writer != _get_ident():
            db._outside_write(self._drumlin_write_now, handle, prop, value)
        else:
            self._drumlin_write_now(handle, prop, value)

    def _drumlin_write_now(self, handle: Any, prop: Property, value: Any) -> None:
        db = self._drumlin_db
        if prop.scalar:
            if not isinstance(value, NESTED_TYPES):
                cvalue = _drumlin_value()
                fill_value(db, value, prop, cvalue)
                key = self._drumlin_key
                if key is None:
                    key = self._drumlin_object_key()
                # One call by object key: a plain column is one cached UPDATE in the engine.
                _set_by_key(db._ptr(), self._drumlin_class.index, key, prop.index, cvalue)
                return
        elif getattr(value, "_drumlin_prop", None) is prop and value._drumlin_owner == self:
            return  # a live view assigned to its own property (`ann.dogs += [rex]`): nothing to do
        elif prop.is_link and (value is None or (isinstance(value, Object) and value._drumlin_values is None)):
            cvalue = _drumlin_value()
            fill_value(db, value, prop, cvalue)
            with self._drumlin_lock:
                _ffi.drumlin_object_set_at(handle, prop.index, cvalue)
            return
        # Nested values, collections, nested objects and primary-key references travel as JSON.
        payload = ejson_dumps({prop.name: prepare_value(db, prop, value)}).encode("utf-8")
        with self._drumlin_lock:
            _ffi.drumlin_object_update_json(handle, payload)

    def update(self, values: Mapping[str, Any]) -> None:
        """Write several properties at once, all or nothing (inside ``db.write()``)."""
        if not isinstance(values, Mapping):
            raise TypeMismatchError(f"update() takes a dict, not {type(values).__name__}")
        handle = self._ptr()
        db = self._drumlin_db
        if db._writer != _get_ident():
            db._outside_write(self._update_now, handle, values)
        else:
            self._update_now(handle, values)

    def _update_now(self, handle: Any, values: Mapping[str, Any]) -> None:
        info = self._drumlin_class
        count = len(values)
        indices = (c_int32 * count)()
        cvalues = (_drumlin_value * count)()
        db = self._drumlin_db
        db_handle = db._ptr()
        for i, (name, value) in enumerate(values.items()):
            prop = info.by_name.get(name) if type(name) is str else None
            if prop is None:
                prop = info.resolve(db_handle, name)
            if not typed_value(prop, value):
                # Nested values only travel as JSON: send the whole update that way, in one call.
                payload = ejson_dumps(prepare_values(db, info, values)).encode("utf-8")
                with self._drumlin_lock:
                    _ffi.drumlin_object_update_json(handle, payload)
                return
            indices[i] = prop.index
            fill_value(db, value, prop, cvalues[i])
        with self._drumlin_lock:
            _ffi.drumlin_object_set_values(handle, count, indices, cvalues)

    # ---- Nested mixed values -------------------------------------------------------------------

    def get_mixed(self, name: str, path: MixedPath = ()) -> Any:
        """One element of a nested mixed value, as a plain Python value.

        ``path`` is a list of steps, each a list index (int) or a dictionary key (str); a single
        step may be given bare. For a ``mixed[]`` or ``mixed{}`` property the first step picks
        the property's own element. ``()`` reads the whole value.
        """
        prop = self._drumlin_property(name)
        steps = _mixed_path(path)
        if not steps and _is_mixed_collection(prop):
            return self._drumlin_read(prop)._drumlin_snapshot()
        handle = self._ptr()
        out = c_void_p()
        with self._drumlin_lock:
            _ffi.drumlin_object_get_mixed_json(
                handle, prop.cname, ejson_dumps(steps).encode("utf-8"), byref(out)
            )
        return ejson_loads(take_string(out))

    def set_mixed(self, name: str, path: MixedPath, value: Any) -> None:
        """Replace the element at ``path`` of a nested mixed value with ``value`` (a new dictionary
        key is added), inside ``db.write()``. The rest of the value is not rewritten."""
        prop = self._drumlin_property(name)
        steps = _mixed_path(path)
        if not steps:
            raise InvalidArgumentError(
                f"set_mixed() needs a path of at least one step; assign {prop.label} to replace "
                "the whole value"
            )
        check_mixed_keys(value, prop.label)
        payload = ejson_dumps(value).encode("utf-8")
        self._drumlin_mixed_write(_ffi.drumlin_object_set_mixed_json, prop, steps, payload)

    def append_mixed(self, name: str, path: MixedPath, value: Any) -> None:
        """Append ``value`` to the nested list at ``path`` (``()``: the property's own list),
        inside ``db.write()``."""
        prop = self._drumlin_property(name)
        steps = _mixed_path(path)
        check_mixed_keys(value, prop.label)
        payload = ejson_dumps(value).encode("utf-8")
        self._drumlin_mixed_write(_ffi.drumlin_object_append_mixed_json, prop, steps, payload)

    def remove_mixed(self, name: str, path: MixedPath) -> None:
        """Remove the element at ``path`` from its nested list (later elements move up) or
        dictionary, inside ``db.write()``."""
        prop = self._drumlin_property(name)
        steps = _mixed_path(path)
        if not steps:
            raise InvalidArgumentError(
                f"remove_mixed() needs a path of at least one step; assign None to {prop.label} "
                "to clear the whole value"
            )
        self._drumlin_mixed_write(_ffi.drumlin_object_remove_mixed, prop, steps)

    def _drumlin_mixed_write(
        self, function: Any, prop: Property, steps: list[PathStep], *payload: bytes
    ) -> None:
        handle = self._ptr()
        path = ejson_dumps(steps).encode("utf-8")

        def write() -> None:
            with self._drumlin_lock:
                function(handle, prop.cname, path, *payload)

        db = self._drumlin_db
        if db._writer != _get_ident():
            db._outside_write(write)
        else:
            write()

    # ---- Relationships -------------------------------------------------------------------------

    def linking_objects(self, class_name: str, property_name: str) -> Results[Any]:
        """The objects of ``class_name`` whose link property ``property_name`` points at this
        object (Realm's ``@links.Class.property``), once per link, as a live Results. Works
        without a linkingObjects property in the schema."""
        origin = self._drumlin_db._class(class_name)
        if type(property_name) is not str:
            raise TypeMismatchError(f"property names are strings, not {type(property_name).__name__}")
        path = encode_name(f"@links.{origin.name}.{property_name}", "property")
        return self._drumlin_db._backlinks(self, path, origin)

    # ---- Whole object --------------------------------------------------------------------------

    def to_dict(self, depth: int = 0, *, json: bool = False) -> dict[str, Any]:
        """A snapshot of every property as a plain ``dict`` (one read of the database).

        Embedded objects are nested dicts; collections are lists and dicts; a link is the target's
        primary key (its object key when its class has none), or, ``depth`` levels deep, the
        target as a nested dict. An object already printed further up the same path is rendered as
        its key again, so cycles end. linkingObjects properties are left out.

        ``json=True`` gives values that ``json.dumps`` accepts: types JSON lacks (dates, decimals,
        ObjectIds, UUIDs, bytes, non-finite floats) as Extended JSON (``{"$date": ...}``), as
        :meth:`to_json` writes them."""
        _check_depth(depth)
        if self._drumlin_values is not None:  # a model object not stored yet: its own values
            return dict(self._drumlin_values)
        if json:
            plain: dict[str, Any] = _json_loads(self.to_json(depth))
            return plain
        info = self._drumlin_class
        if depth or not info.scalar_only:
            return self._drumlin_json(min(depth, 0x7FFFFFFF))
        if not info.has_mixed:  # every value is in the row
            return dict(zip(info.names, self._drumlin_current_row()))
        handle = self._ptr()
        count = len(info.properties)
        if info.packable:
            get = _ffi.drumlin_object_get_marshal
            return dict(zip(info.names, read_packed(get, self._drumlin_lock, handle, count, info.all_indices)))
        values = (_drumlin_value * count)()
        result = {}
        with self._drumlin_lock:
            _ffi.drumlin_object_get_values(handle, count, info.all_indices, values)
            for prop, value in zip(info.properties, values):
                kind = value.type
                reader = READERS[kind] if 0 <= kind < SCALAR_LIMIT else None
                if reader is None:  # a nested list or dictionary in a mixed property
                    break
                result[prop.name] = reader(value.as_)
            else:
                return result
        return self._drumlin_json()

    def to_json(self, depth: int = 0) -> str:
        """The object as Extended JSON text (what ``to_dict(json=True)`` decodes), ``depth`` as
        in :meth:`to_dict`. The corresponding C function is ``drumlin_object_to_json``."""
        _check_depth(depth)
        handle = self._ptr()
        out = c_void_p()
        with self._drumlin_lock:
            if depth:
                _ffi.drumlin_object_to_json_depth(handle, min(depth, 0x7FFFFFFF), byref(out))
            else:
                _ffi.drumlin_object_to_json(handle, byref(out))
        return take_string(out)

    @property
    def is_valid(self) -> bool:
        """False once the object was deleted, this accessor closed, or its database closed
        (and for a model object not stored yet)."""
        if self._drumlin_values is not None or (self._drumlin_h is None and self._drumlin_key is None):
            return False
        valid = c_int()
        try:
            handle = self._ptr()
            with self._drumlin_lock:
                _ffi.drumlin_object_is_valid(handle, byref(valid))
        except (MisuseError, InvalidatedObjectError):  # the database was closed; the object deleted
            return False
        return bool(valid.value)

    @property
    def primary_key(self) -> Any:
        """The primary key's value, or None if the class has no primary key."""
        prop = self._drumlin_class.primary_key
        return None if prop is None else self._drumlin_read(prop)

    def _drumlin_object_key(self) -> int | None:
        key = self._drumlin_key
        if key is None and self._drumlin_h is not None:
            out = c_int64()
            try:
                with self._drumlin_lock:
                    _ffi.drumlin_object_key(self._drumlin_h, byref(out))
            except DrumlinError:
                return None
            key = out.value
            object.__setattr__(self, "_drumlin_key", key)
        return key

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Object):
            return NotImplemented
        if self._drumlin_values is not None or other._drumlin_values is not None:
            return False  # an object not stored yet is only equal to itself
        if other._drumlin_db is not self._drumlin_db or other._drumlin_class is not self._drumlin_class:
            return False
        key = self._drumlin_object_key()
        return key is not None and key == other._drumlin_object_key()

    def __hash__(self) -> int:
        if self._drumlin_values is not None:
            return id(self)
        key = self._drumlin_object_key()
        if key is None:
            return id(self)
        return hash((id(self._drumlin_db), self._drumlin_class.index, key))

    def __dir__(self) -> list[str]:
        names = set(super().__dir__())
        names.update(self._drumlin_class.by_name)
        return sorted(n for n in names if not n.startswith("_drumlin_"))

    def __reduce__(self) -> Any:
        raise TypeError("drumlin.Object is a live accessor and cannot be pickled; use to_dict()")

    def __repr__(self) -> str:
        if self._drumlin_values is not None:
            shown = ", ".join(f"{name}={value!r}" for name, value in self._drumlin_values.items())
            return f"{type(self).__name__}({shown})"
        info = self._drumlin_class
        try:
            if self._drumlin_h is None and self._drumlin_key is None:
                return f"<drumlin.Object {info.name} (closed)>"
            if not self.is_valid:
                return f"<drumlin.Object {info.name} (invalid)>"
            if info.primary_key is not None:
                return f"<drumlin.Object {info.name} {info.primary_key.name}={self.primary_key!r}>"
            return f"<drumlin.Object {info.name} key={self._drumlin_object_key()}>"
        except DrumlinError:
            return f"<drumlin.Object {info.name}>"


class EmbeddedObject(Object):
    """The base of model classes for embedded objects: owned by exactly one parent object,
    deleted with it, without a primary key."""

    __slots__ = ()
    _drumlin_base = True
    _drumlin_kind = "embedded"


class AsymmetricObject(Object):
    """The base of model classes for asymmetric (insert-only) objects: ``db.add()`` and
    ``db.create()`` store them; they cannot be read, queried, updated or deleted."""

    __slots__ = ()
    _drumlin_base = True
    _drumlin_kind = "asymmetric"


# Names that belong to Object itself: schema properties with these names are read and written
# with obj["name"].
_OBJECT_ATTRIBUTES = frozenset(name for name in dir(Object) if not name.startswith("_"))

_NOT_DECLARED: Any = object()


def _check_depth(depth: object) -> None:
    if type(depth) is not int:
        raise TypeMismatchError(f"depth must be an int, not {type(depth).__name__}")
    if depth < 0:
        raise InvalidArgumentError(f"depth must not be negative, got {depth}")


def _class_attribute(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return _NOT_DECLARED


class TransformedProperty:
    """The descriptor of a model property with a persisted-value transform (an Enum stored as
    its value, a path as a string, a dataclass as an embedded object)."""

    __slots__ = ("load", "prop", "store")

    def __init__(self, prop: Property, load: Callable[[Any], Any], store: Callable[[Any], Any]) -> None:
        self.prop = prop
        self.load = load
        self.store = store

    def __get__(self, obj: Object | None, owner: Any = None) -> Any:
        if obj is None:
            return self
        return self.load(obj._drumlin_read(self.prop))

    def __set__(self, obj: Object, value: Any) -> None:
        obj._drumlin_write(self.prop, self.store(value))


def _managed_init(self: Object, db: Database, handle: Any) -> None:
    self._drumlin_attach(db, handle)


# Slot setters (C member descriptors): building an object from a row sets every slot directly.
def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    setter: Callable[[Any, Any], None] = cls.__dict__[name].__set__
    return setter


_set_handle = _slot_setter(Handle, "_drumlin_h")
_set_db = _slot_setter(Object, "_drumlin_db")
_set_key = _slot_setter(Object, "_drumlin_key")
_set_lock = _slot_setter(Object, "_drumlin_lock")
_set_row = _slot_setter(Object, "_drumlin_row")
_set_seen = _slot_setter(Object, "_drumlin_seen")
_set_values = _slot_setter(Object, "_drumlin_values")
_new_object = object.__new__


def object_from_row(cls: type[Object], db: Database, row: tuple[Any, ...], version: int) -> Any:
    """A managed object of the generated class ``cls`` keeping ``row`` (read at read version
    ``version``); its object key is the row's last item. No handle until a call needs one."""
    obj = _new_object(cls)
    _set_handle(obj, None)
    _set_db(obj, db)
    _set_key(obj, row[-1])
    _set_lock(obj, db._object_lock)
    _set_values(obj, None)
    _set_row(obj, row)
    _set_seen(obj, version)
    return obj


def _keyed(cls: type[Object], db: Database, key: int) -> Any:
    """A managed object of ``cls`` known by its object key only: its row is read on first use."""
    obj = _new_object(cls)
    _set_handle(obj, None)
    _set_db(obj, db)
    _set_key(obj, key)
    _set_lock(obj, db._object_lock)
    _set_values(obj, None)
    _set_row(obj, None)
    _set_seen(obj, NO_ROW)
    return obj


def make_object_type(info: ClassInfo, model: type[Object] | None = None) -> Callable[[Database, Any], Object]:
    """The Object subclass for one class of one database: a descriptor per property. With a model
    class, a subclass of it (so objects are instances of the model class) whose descriptors read
    the database; properties the model declares otherwise (methods, ``@property``) stay its own."""
    namespace: dict[str, Any] = {
        "__slots__": (),
        "_drumlin_class": info,
        "__module__": "drumlin",
        "__init__": _managed_init,
        "_drumlin_keyed": classmethod(_keyed),
    }
    fields = model._drumlin_model.fields if model is not None and model._drumlin_model else {}
    for prop in info.properties:
        name = prop.name
        if not name.isidentifier() or name.startswith("__") or name in _OBJECT_ATTRIBUTES:
            continue
        field = fields.get(name)
        if field is not None and field.codec is not None:
            namespace[name] = TransformedProperty(prop, field.codec.load, field.codec.store)
        elif field is not None or model is None or _class_attribute(model, name) is _NOT_DECLARED:
            namespace[name] = prop
    if model is None:
        made: type[Object] = type(info.name, (Object,), namespace)
    else:
        namespace["__module__"] = model.__module__
        namespace["__qualname__"] = model.__qualname__
        made = type(model.__name__, (model,), namespace)
    return cast("Callable[[Database, Any], Object]", made)


def check_values(values: object, what: str) -> Mapping[str, Any]:
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        raise TypeMismatchError(f"{what} takes a dict of property values, not {type(values).__name__}")
    return values


# ---- Values for writes --------------------------------------------------------------------------


def fill_link(db: Database, obj: Object, out: _ffi.drumlin_value) -> None:
    """``out`` = a typed link to ``obj``. The engine checks the class, that the target is not an
    embedded object owned elsewhere, and that it still exists."""
    if obj._drumlin_values is not None:
        raise InvalidArgumentError(
            f"The {type(obj).__name__} object is not stored in a database yet: add it first (db.add), "
            "then link it"
        )
    if obj._drumlin_db is not db:
        raise InvalidArgumentError(
            f"The {obj._drumlin_class.name} object belongs to another database: link objects of the same "
            "database, or give a dict to copy it"
        )
    obj._ptr()
    key = obj._drumlin_object_key()
    if key is None:
        raise MisuseError("This object is closed.")
    out.type = _ffi.DRUMLIN_TYPE_LINK
    link = out.as_.link
    link.class_index = obj._drumlin_class.index
    link.key = key


def fill_value(db: Database, value: Any, prop: Property | None, out: _ffi.drumlin_value) -> None:
    """``out`` = ``value`` for a typed call: an Object as a link, anything else via to_value."""
    if isinstance(value, Object):
        fill_link(db, value, out)
    else:
        to_value(value, prop, out)


def typed_value(prop: Property, value: Any) -> bool:
    """Whether ``value`` can be written to ``prop`` with one typed ``drumlin_value``, rather than
    through the JSON layer."""
    if prop.scalar:
        return not isinstance(value, NESTED_TYPES)
    return prop.is_link and (value is None or (isinstance(value, Object) and value._drumlin_values is None))


def prepare_values(db: Database, info: ClassInfo, values: Mapping[str, Any]) -> dict[str, Any]:
    """A payload for the JSON layer: the same keys, with every value in a link position turned
    into what the engine's JSON expects (see :func:`prepare_value`)."""
    result: dict[str, Any] = {}
    by_name = info.by_name
    for name, value in values.items():
        prop = by_name.get(name) if type(name) is str else None
        # Unknown names go through unchanged: the engine refuses them with its own message.
        result[name] = value if prop is None else prepare_value(db, prop, value)
    return result


def prepare_value(db: Database, prop: Property, value: Any) -> Any:
    """One property's value for the JSON layer.

    - a link, or an element of a collection of objects: an :class:`Object` becomes a reference
      (its primary key, or its object key when its class has none), a dict a nested payload
      (created, or upserted in the update modes), None stays None, and anything else is taken as
      the primary key of an existing object;
    - a list or set property takes any iterable (a Python ``set``, a drumlin collection...), a
      dictionary property any mapping: both are copied into a list or dict first.
    """
    if prop.is_backlink:
        raise InvalidArgumentError(f"Cannot modify read-only property {prop.label}.")
    if prop.type == _ffi.DRUMLIN_PROPERTY_MIXED:
        check_mixed_keys(value, prop.label)
        if prop.collection == _ffi.DRUMLIN_COLLECTION_DICTIONARY and isinstance(value, Mapping):
            return {key: prepare_mixed(db, prop, item) for key, item in value.items()}
        if prop.collection != _ffi.DRUMLIN_COLLECTION_NONE and not isinstance(
            value, (str, bytes, bytearray, memoryview, Mapping)
        ) and isinstance(value, Iterable):
            return [prepare_mixed(db, prop, item) for item in value]
        return prepare_mixed(db, prop, value)
    collection = prop.collection
    if collection == _ffi.DRUMLIN_COLLECTION_NONE:
        if prop.is_link:
            return prepare_link(db, prop, value)
        if isinstance(value, Object):
            raise TypeMismatchError(
                f"Type mismatch for property {prop.label}: expected {prop.type_name}, got link."
            )
        return value
    if collection == _ffi.DRUMLIN_COLLECTION_DICTIONARY:
        if not isinstance(value, Mapping):
            return value
        for key in value:
            if not isinstance(key, str):
                what = type(key).__name__
                raise TypeMismatchError(f"Property {prop.label}: dictionary keys are strings, not {what}.")
        if prop.type == _ffi.DRUMLIN_PROPERTY_OBJECT:
            return {key: prepare_link(db, prop, item) for key, item in value.items()}
        return dict(value.items())
    if isinstance(value, (str, bytes, bytearray, memoryview, Mapping)) or not isinstance(value, Iterable):
        return value  # not a collection: the engine reports the mismatch
    items = list(value)
    if prop.type == _ffi.DRUMLIN_PROPERTY_OBJECT:
        return [prepare_link(db, prop, item) for item in items]
    return items


def prepare_link(db: Database, prop: Property, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, Object):
        model = value._drumlin_model
        if value._drumlin_values is not None and model is not None:  # not stored yet: a new object
            return prepare_values(db, db._class(prop.object_type), model.store_values(value._drumlin_values, fill=False))
        return link_reference(db, prop, value)
    if isinstance(value, Mapping):
        return prepare_values(db, db._class(prop.object_type), value)
    return value


def link_reference(db: Database, prop: Property, obj: Object) -> Any:
    """How the engine's JSON names an existing object in a link position."""
    info = obj._drumlin_class
    if obj._drumlin_db is not db:
        raise InvalidArgumentError(
            f"The {info.name} object belongs to another database: link objects of the same "
            "database, or give a dict to copy it"
        )
    if info.name != prop.object_type:
        raise TypeMismatchError(
            f"Type mismatch for property {prop.label}: expected an object of type "
            f"'{prop.object_type}', got '{info.name}'."
        )
    if info.is_embedded:
        raise InvalidArgumentError(
            f"Cannot link {prop.label} to an existing embedded object of type '{info.name}': "
            "embedded objects have exactly one owner. Assign a new object (a dict) instead."
        )
    if not obj.is_valid:
        obj._ptr()  # a closed accessor is a MisuseError
        raise InvalidatedObjectError(
            f"The object of type '{info.name}' assigned to {prop.label} has been deleted."
        )
    if info.primary_key is not None:
        return obj.primary_key
    return obj._drumlin_object_key()


# ---- Links held by mixed values -------------------------------------------------------------------


def class_at(db: Database, class_index: int) -> ClassInfo:
    """The class with index ``class_index`` in the database's schema."""
    name = c_char_p()
    _ffi.drumlin_class_name(db._ptr(), class_index, byref(name))
    return db._class((name.value or b"").decode("utf-8"))


def mixed_link_object(db: Database, class_index: int, key: int) -> Object:
    """The object a mixed value's link (class index, object key) points at."""
    obj: Object = class_at(db, class_index).object_type._drumlin_keyed(db, key)  # type: ignore[attr-defined]
    return obj


def mixed_link_json(db: Database, label: str, obj: Object) -> dict[str, Any]:
    """``{"$link": {"class": ..., "key": ...}}`` for an object a mixed value is to hold. The
    engine refuses embedded and asymmetric classes and deleted objects."""
    if obj._drumlin_values is not None:
        raise InvalidArgumentError(
            f"Property {label}: the {type(obj).__name__} object is not stored in a database yet: add it "
            "first (db.add), then store it in a mixed value"
        )
    info = obj._drumlin_class
    if obj._drumlin_db is not db:
        raise InvalidArgumentError(
            f"Property {label}: the {info.name} object belongs to another database: a mixed value can "
            "only hold objects of its own database"
        )
    obj._ptr()  # a closed accessor is a MisuseError
    key = obj._drumlin_object_key()
    if key is None:
        raise MisuseError("This object is closed.")
    return {"$link": {"class": info.name, "key": key}}


def prepare_mixed(db: Database, prop: Property, value: Any) -> Any:
    """A mixed value for the JSON layer: an Object as a ``$link`` reference. An Object inside a
    nested list or dict is refused as the engine refuses it; anything else passes unchanged (the
    JSON layer reports values nested too deeply or holding themselves)."""
    if isinstance(value, Object):
        return mixed_link_json(db, prop.label, value)
    if not isinstance(value, (Mapping, list, tuple)):
        return value
    seen: set[int] = set()
    pending: list[Any] = [value]
    while pending:  # iterative: a deep or looped value is the JSON layer's error, not a RecursionError
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        for nested in item.values() if isinstance(item, Mapping) else item:
            if isinstance(nested, Object):
                raise NotSupportedError(
                    f"Property {prop.label}: A link cannot be stored inside a nested list or dictionary of a "
                    "mixed value."
                )
            if isinstance(nested, (Mapping, list, tuple)):
                pending.append(nested)
    return value


def mixed_from_json(db: Database, value: Any) -> Any:
    """A mixed value read as JSON, with ``{"$link": {"class": ..., "key": ...}}`` as the Object."""
    if isinstance(value, dict):
        if len(value) == 1 and "$link" in value:
            body = value["$link"]
            key = body.get("key") if isinstance(body, dict) else None
            if isinstance(body, dict) and isinstance(body.get("class"), str) and isinstance(key, int):
                object_type: Any = db._class(body["class"]).object_type
                obj: Object = object_type._drumlin_keyed(db, body["key"])
                return obj
        return {key: mixed_from_json(db, item) for key, item in value.items()}
    if isinstance(value, list):
        return [mixed_from_json(db, item) for item in value]
    return value


def _is_mixed_collection(prop: Property) -> bool:
    """A ``mixed[]`` or ``mixed{}`` property (sets of mixed values hold scalars only)."""
    return prop.type == _ffi.DRUMLIN_PROPERTY_MIXED and prop.collection in (
        _ffi.DRUMLIN_COLLECTION_LIST,
        _ffi.DRUMLIN_COLLECTION_DICTIONARY,
    )


def _mixed_path(path: Any) -> list[PathStep]:
    if isinstance(path, (list, tuple)):
        steps = list(path)
    elif isinstance(path, (int, str)):
        steps = [path]
    else:
        raise TypeMismatchError(
            f"a path is a list of list indexes and dictionary keys, not {type(path).__name__}"
        )
    for step in steps:
        if type(step) is bool or not isinstance(step, (int, str)):
            raise TypeMismatchError(
                f"path steps are list indexes (int) and dictionary keys (str), not {type(step).__name__}"
            )
    return steps


__all__ = ["AsymmetricObject", "EmbeddedObject", "Object"]
