"""``drumlin.Object``: a live accessor for one stored object.

Each class of a database gets a generated subclass of :class:`Object` (named after the class, or of
the model class) whose attributes are property descriptors made once from the schema (see
``_accessors``): ``person.name`` reads the object's kept row while the database's read version
holds, and one call by object key writes it. ``person["name"]`` does the same for any name,
including names that collide with :class:`Object`'s own methods.

Links read as :class:`Object` (or None), collections as live :class:`~drumlin.List`,
:class:`~drumlin.Set` and :class:`~drumlin.Dictionary` views, linkingObjects as
:class:`~drumlin.Results`. Writes take Python values (``_payload``): an :class:`Object` in a link
position travels as a typed ``DRUMLIN_TYPE_LINK`` value, and payloads holding nested values go
through the engine's JSON layer, with the Objects inside them encoded as references.
"""

from __future__ import annotations

import struct
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping
from ctypes import byref, c_char_p, c_int, c_int64, c_void_p
from json import loads as _json_loads
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Union

from . import _ffi, notifications
from ._constants import DRUMLIN_NOT_FOUND
from ._convert import READERS, SCALAR_LIMIT, take_string
from ._errors import (
    DrumlinError,
    InvalidArgumentError,
    InvalidatedObjectError,
    MisuseError,
    TypeMismatchError,
)
from ._handle import HandleBase, OwnedPointer
from ._rows import KEY_ONLY, NO_ROW, UNMANAGED, dict_builder, object_values, read_row
from ._schema import Property, encode_name
from .model import ModelInfo, ensure_resolved, linking_objects, model_fields, persisted
from .notifications import NotificationToken, ObjectChange
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
    from ._accessors import Accessors
    from ._schema import ClassInfo
    from .database import Database
    from .results import Results

PathStep = Union[int, str]
MixedPath = Union[list[PathStep], tuple[PathStep, ...], PathStep]
"""A path into a nested mixed value: list indexes and dictionary keys (one step may be bare)."""

_get_ident = threading.get_ident
_drumlin_value = _ffi.drumlin_value
_write_by_key_unchecked = _ffi.drumlin_object_write_by_key_unchecked  # the record's address: byref
_raise = _ffi._raise
_get_at = _ffi.drumlin_object_get_at

# The values Object.__setattr__ packs into a plain property's value cell, as to_value writes them:
# the drumlin_value's int type, then its 8-byte-aligned union (a float as a double, which the
# engine narrows for a float property; a bool as the int 1 or 0). Subclasses (an IntEnum) and
# ints beyond int64 take the general write.
_INT = _ffi.DRUMLIN_TYPE_INT
# The object key, then the value cell (its type, padding, the number): ScalarAccessor.cells.
_PACKED_WRITES: dict[type, tuple[Callable[..., None], int]] = {
    float: (struct.Struct("=qi4xd").pack_into, _ffi.DRUMLIN_TYPE_DOUBLE),
    int: (struct.Struct("=qi4xq").pack_into, _INT),
    bool: (struct.Struct("=qi4xi").pack_into, _ffi.DRUMLIN_TYPE_BOOL),
}


class ObjectHandle(OwnedPointer, _ffi.drumlin_object_p):  # type: ignore[misc,valid-type]
    """An object handle owned by one :class:`Object` (see :class:`OwnedPointer`). Objects read as
    rows have none, so they pay no finalizer."""

    _type_ = _ffi._drumlin_object
    _plain = _ffi.drumlin_object_p
    _free = "drumlin_object_release"

    @classmethod
    def owning(cls, handle: Any) -> ObjectHandle | None:
        """The handle ``handle`` (a ``drumlin_object_p`` from a call) as an owned one."""
        if isinstance(handle, cls) or handle is None:
            return handle
        return cls.from_buffer_copy(handle)  # type: ignore[no-any-return]


@dataclass_transform(kw_only_default=True, field_specifiers=(persisted, linking_objects))
class Object(HandleBase):
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

    # Three slots besides the handle: each is one store for every object a read makes. A stored
    # object's object key is the last item of its row (the engine's rows end with it; KEY_ONLY and
    # ``(key,)`` are the rows of objects not read yet), and a model object not stored yet keeps its
    # values where the row goes, with UNMANAGED as its read version (no version equals it, so
    # every accessor's check sends it down the slow path).
    __slots__ = ("_drumlin_db", "_drumlin_row", "_drumlin_seen")

    _kind = "object"
    _drumlin_class: ClassVar[ClassInfo]
    # The model class's declaration (None for the classes made from a schema alone).
    _drumlin_model: ClassVar[ModelInfo | None] = None
    _drumlin_kind: ClassVar[str] = "object"
    # The accessors of the class made for one database's schema (see _accessors): the descriptor
    # of every property by name, and the writes and reads that need modules above this one.
    _drumlin_accessors: ClassVar[Accessors]
    # Attribute assignments that are persisted properties: their descriptors' __set__, by name.
    _drumlin_setters: ClassVar[dict[str, Callable[[Any, Any], None]]] = {}
    # The plain properties by name, written in __setattr__ itself: their ScalarAccessor's write
    # cells (key-and-value view, key cell, class index, property index, value pointer).
    _drumlin_packed: ClassVar[dict[str, tuple[Any, ...]]] = {}
    _drumlin_db: Database
    # The kept row (see _rows) and the database's read version when it was read (NO_ROW: none;
    # UNMANAGED: the row is a model object's values).
    _drumlin_row: Any
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
        setter(self, "_drumlin_row", model.new_values(values))
        setter(self, "_drumlin_seen", UNMANAGED)

    def _drumlin_attach(self, db: Database, handle: Any) -> None:
        # Managed objects come from Database.create / Database.get, never from user code.
        setter = object.__setattr__
        setter(self, "_drumlin_h", ObjectHandle.owning(handle))
        setter(self, "_drumlin_db", db)
        setter(self, "_drumlin_row", KEY_ONLY)
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
        # A new object's values are written through the model's own descriptors (model._Unmanaged).
        cls._drumlin_setters = {
            name: descriptor.__set__
            for name in fields
            if hasattr(descriptor := _class_attribute(cls, name), "__set__")
        }

    @property
    def _drumlin_lock(self) -> threading.RLock:
        """The lock around calls on this object's handle: its database's. Strings read through a
        handle are borrowed until the next call on it, so two threads sharing the object must not
        overwrite each other's values mid-copy. (One lock per database, not a slot per object: a
        store fewer for every object a read makes.)"""
        return self._drumlin_db._object_lock

    @property
    def is_managed(self) -> bool:
        """True once the object is stored in a database (False for a model object made with
        ``Dog(...)`` and not added yet)."""
        return self._drumlin_seen != UNMANAGED

    @property
    def _drumlin_values(self) -> dict[str, Any] | None:
        """The values of a model object not stored yet; None once managed."""
        return self._drumlin_row if self._drumlin_seen == UNMANAGED else None

    @property
    def _drumlin_key(self) -> int | None:
        """The object key when known (the kept row's last item); None for a model object not
        stored yet, a closed accessor, or an object made from a handle whose key was not asked
        yet (``_drumlin_object_key`` asks)."""
        return None if self._drumlin_seen == UNMANAGED else self._drumlin_row[-1]

    def _release(self, handle: Any) -> None:
        handle.release()

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
            if self._drumlin_seen == UNMANAGED:
                raise MisuseError(
                    f"This {type(self).__name__} object is not in a database yet: db.add() it first."
                )
            key = self._drumlin_key
            if key is None:
                raise MisuseError("This object is closed.")
            # An object read as a row has no handle until a call needs one.
            info = self._drumlin_class
            out = ObjectHandle()
            if _ffi.drumlin_object_find_by_key(self._drumlin_db._ptr(), info.cname, key, byref(out)) == DRUMLIN_NOT_FOUND:
                raise InvalidatedObjectError(
                    f"Accessing object of type {info.name} which has been invalidated or deleted"
                )
            with self._drumlin_lock:
                if self._drumlin_h is None:
                    object.__setattr__(self, "_drumlin_h", out)
                else:
                    out.release()
            handle = self._drumlin_h
        return handle

    def close(self) -> None:
        """Release this accessor's handle (the stored object is untouched)."""
        lock = getattr(self, "_drumlin_lock", None)
        if lock is None:
            return
        with lock:
            super().close()
            if self._drumlin_seen != UNMANAGED:
                object.__setattr__(self, "_drumlin_row", KEY_ONLY)
                object.__setattr__(self, "_drumlin_seen", NO_ROW)

    # ---- Reading -------------------------------------------------------------------------------

    def _drumlin_current_row(self) -> tuple[Any, ...]:
        """The kept row, read again (one call) when the database's read version moved."""
        info = self._drumlin_class
        rows = info.rows
        if rows is None or self._drumlin_seen == UNMANAGED or self._drumlin_db._drumlin_h is None:
            handle = self._ptr()  # not stored yet, closed: the error
            _get_at(handle, 0, _drumlin_value())  # the engine's error for a closed database
            raise MisuseError("This object's database is closed.")
        version = rows.version.value
        if version == self._drumlin_seen:
            return self._drumlin_row  # type: ignore[no-any-return]
        key = self._drumlin_row[-1]
        if key is None:
            key = self._drumlin_object_key()
            if key is None:
                self._ptr()
                raise MisuseError("This object is closed.")
        row = read_row(rows, key)
        _keep_row(self, row)
        _keep_seen(self, version)
        return row

    def _drumlin_read(self, prop: Property) -> Any:
        """The value of ``prop`` through its accessor: ``obj["name"]``, stored (mapTo) names, and the
        primary key read the property as ``obj.name`` does, without a model's transform."""
        return self._drumlin_accessors.by_name[prop.name].__get__(self, None)

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

    # No __getattr__: a class defining one has every attribute read go through CPython's
    # __getattr__ hook and never specialized, 0.16 against 0.09 us per property read. Stored
    # (mapTo) names have descriptors of their own (_accessors); an unknown name is Python's
    # AttributeError, obj["name"] the engine's NoSuchPropertyError.

    def __getitem__(self, name: str) -> Any:
        return self._drumlin_read(self._drumlin_property(name))

    # ---- Writing -------------------------------------------------------------------------------

    # Hidden from type checkers: a __setattr__ typed for any name would make every misspelled
    # property (`dog.agee = 3`) valid to mypy and pyright. Model classes declare their properties;
    # objects by class name are typed Any (db.get("Person", 1)), so their writes still check.
    if not TYPE_CHECKING:

        def __setattr__(self, name: str, value: Any) -> None:
            # The commonest write first, here rather than one frame deeper: a number or bool to a plain
            # property, inside this thread's write(), packed into the accessor's value cell (as
            # to_value writes it) and written by object key in one call. The cells belong to one class
            # of one open database, and only the thread in that database's write() passes the check.
            cells = self._drumlin_packed.get(name)
            if cells is not None:
                packed = _PACKED_WRITES.get(type(value))
                key = self._drumlin_row[-1]  # a class with packed writes is a stored object's
                db = self._drumlin_db
                handle = db._drumlin_h
                if (packed is not None and key is not None and handle is not None
                        and db._writer == _get_ident()):
                    pack_into, value_type = packed
                    view, record = cells
                    try:
                        pack_into(view, 0, key, value_type, value)  # the key and the value, one call
                    except struct.error:
                        pass  # an int beyond 64 bits: the descriptor's write reports it
                    else:
                        status = _write_by_key_unchecked(record)
                        if status:
                            _raise(status)
                        return
            # Any other persisted property: its descriptor's __set__ (an attribute assignment only
            # reaches a data descriptor by itself when the class has no __setattr__, and this one must
            # see the other names: they are the engine's NoSuchPropertyError, not new instance
            # attributes).
            setter = self._drumlin_setters.get(name)
            if setter is not None:
                setter(self, value)
            else:
                self._drumlin_set_other(name, value)

    def _drumlin_set_other(self, name: str, value: Any) -> None:
        """An assignment to a name that is not a persisted property's attribute: a stored (mapTo)
        name, a name shadowed by Object's own attributes, a model's plain Python attribute, or an
        unknown name."""
        model = self._drumlin_model
        if model is None:
            if name in _OBJECT_ATTRIBUTES or name.startswith("_drumlin_"):
                raise AttributeError(
                    f"'{name}' is an attribute of drumlin.Object, not a property: assign a property of "
                    f"that name with obj[{name!r}] = value"
                )
            self[name] = value
            return
        field = model.fields.get(name)
        values = self._drumlin_values
        if field is not None:  # a declared property the database's schema does not have
            if values is not None:
                model_setter = _class_attribute(type(self), name)
                model_setter.__set__(self, value)
                return
            self[name] = value  # NoSuchPropertyError
            return
        declared = _class_attribute(type(self), name)
        if declared is not _NOT_DECLARED and not name.startswith("_drumlin_"):
            object.__setattr__(self, name, value)  # @property setters, ignored attributes
        elif values is None:
            self[name] = value  # stored names, or the error
        else:
            raise AttributeError(
                f"'{type(self).__name__}' object has no property {name!r} (ignored attributes "
                "are declared as class attributes)"
            )

    def __setitem__(self, name: str, value: Any) -> None:
        prop = self._drumlin_property(name)
        if prop.name in self._drumlin_packed:
            Object.__setattr__(self, prop.name, value)  # the plain properties' packed write
        else:
            self._drumlin_accessors.by_name[prop.name].__set__(self, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError("properties cannot be deleted: assign None, or delete the object")

    def update(self, values: Mapping[str, Any]) -> None:
        """Write several properties at once, all or nothing (inside ``db.write()``)."""
        if not isinstance(values, Mapping):
            raise TypeMismatchError(f"update() takes a dict, not {type(values).__name__}")
        handle = self._ptr()
        db = self._drumlin_db
        update = self._drumlin_accessors.update
        if db._writer != _get_ident():
            db._outside_write(update, self, handle, values)
        else:
            update(self, handle, values)

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
        return mixed_from_json(self._drumlin_db, ejson_loads(take_string(out)))

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
        return self._drumlin_accessors.backlinks(self, path, origin)

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
        if self._drumlin_seen == UNMANAGED:  # a model object not stored yet: its own values
            return dict(self._drumlin_row)
        if json:
            plain: dict[str, Any] = _json_loads(self.to_json(depth))
            return plain
        if depth:  # linked objects as nested dicts: the engine's JSON, which follows them
            return self._drumlin_json(min(depth, 0x7FFFFFFF))
        # One call: the packed values of the object's handle (made once, by one call, for an
        # object read as a row).
        handle = self._ptr()
        info = self._drumlin_class
        db = self._drumlin_db
        access = info.rows
        if db._drumlin_h is None or access is None:
            db._ptr()  # closed: the error
        build = info.dict_builder or dict_builder(db, info)
        return build(object_values(access, handle))  # type: ignore[arg-type]

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
        if self._drumlin_seen == UNMANAGED or (self._drumlin_h is None and self._drumlin_key is None):
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
        if key is None and self._drumlin_h is not None and self._drumlin_seen != UNMANAGED:
            out = c_int64()
            try:
                with self._drumlin_lock:
                    _ffi.drumlin_object_key(self._drumlin_h, byref(out))
            except DrumlinError:
                return None
            key = out.value
            object.__setattr__(self, "_drumlin_row", (key,))  # no row was kept: none is lost
        return key

    def _drumlin_link_json(self) -> dict[str, Any]:
        """``{"$link": ...}``: this object inside a JSON value (``ejson_dumps``)."""
        key = self._drumlin_object_key()
        if key is None:
            self._ptr()  # the MisuseError that says why
            raise MisuseError("This object is closed.")
        return {"$link": {"class": self._drumlin_class.name, "key": key}}

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Object):
            return NotImplemented
        if self._drumlin_seen == UNMANAGED or other._drumlin_seen == UNMANAGED:
            return False  # an object not stored yet is only equal to itself
        if other._drumlin_db is not self._drumlin_db or other._drumlin_class is not self._drumlin_class:
            return False
        key = self._drumlin_object_key()
        return key is not None and key == other._drumlin_object_key()

    def __hash__(self) -> int:
        if self._drumlin_seen == UNMANAGED:
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
        if self._drumlin_seen == UNMANAGED:
            shown = ", ".join(f"{name}={value!r}" for name, value in self._drumlin_row.items())
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


def managed_init(self: Object, db: Database, handle: Any) -> None:
    self._drumlin_attach(db, handle)


# A kept row read again: stored past Object.__setattr__ through the slots' own setters.
_keep_row = Object.__dict__["_drumlin_row"].__set__
_keep_seen = Object.__dict__["_drumlin_seen"].__set__


# ---- Links held by mixed values -------------------------------------------------------------------


def class_at(db: Database, class_index: int) -> ClassInfo:
    """The class with index ``class_index`` in the database's schema."""
    name = c_char_p()
    _ffi.drumlin_class_name(db._ptr(), class_index, byref(name))
    return db._class((name.value or b"").decode("utf-8"))


def mixed_link_object(db: Database, class_index: int, key: int) -> Object:
    """The object a mixed value's link (class index, object key) points at."""
    obj: Object = class_at(db, class_index).makers.keyed(db, key)
    return obj


def mixed_from_json(db: Database, value: Any) -> Any:
    """A mixed value read as JSON, with ``{"$link": {"class": ..., "key": ...}}`` as the Object."""
    if isinstance(value, dict):
        if len(value) == 1 and "$link" in value:
            body = value["$link"]
            key = body.get("key") if isinstance(body, dict) else None
            if isinstance(body, dict) and isinstance(body.get("class"), str) and isinstance(key, int):
                obj: Object = db._class(body["class"]).makers.keyed(db, body["key"])
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
