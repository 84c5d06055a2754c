"""``cairn.Object``: a live accessor for one stored object.

Each class of a database gets a generated subclass of :class:`Object` (named after the class) whose
attributes are :class:`~cairn._schema.Property` descriptors, so ``person.name`` is one typed C call
by pre-resolved index. ``person["name"]`` does the same for any name, including names that collide
with :class:`Object`'s own methods.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from ctypes import byref, c_int, c_int32, c_int64, c_void_p
from typing import TYPE_CHECKING, Any, ClassVar

from . import _ffi
from ._errors import (
    CairnError,
    MisuseError,
    NotSupportedError,
    TypeMismatchError,
)
from ._handle import Handle
from ._marshal import NESTED_TYPES, READERS, SCALAR_LIMIT, take_string, to_value
from .values import ejson_dumps, ejson_loads

if TYPE_CHECKING:
    from ._schema import ClassInfo, Property
    from .database import Database

_get_ident = threading.get_ident
_cairn_value = _ffi.cairn_value
_get_at = _ffi.cairn_object_get_at


class Object(Handle):
    """A stored object. Read properties as attributes or items; write them inside ``db.write()``.

    Objects are live: they always read the current state, raise
    :class:`~cairn.InvalidatedObjectError` once the object is deleted, and
    :class:`~cairn.MisuseError` once their database is closed. Two accessors of the same stored
    object compare equal.
    """

    __slots__ = ("_cairn_db", "_cairn_key", "_cairn_lock")

    _kind = "object"
    _cairn_class: ClassVar[ClassInfo]
    _cairn_db: Database
    _cairn_lock: threading.Lock
    _cairn_key: int | None

    def __init__(self, db: Database, handle: Any) -> None:
        # Objects come from Database.create / Database.get, never from user code.
        setter = object.__setattr__
        setter(self, "_cairn_h", handle)
        setter(self, "_cairn_db", db)
        # Strings read through a handle are borrowed until the next call on that handle: the lock
        # keeps two threads sharing this accessor from overwriting each other's values mid-copy.
        setter(self, "_cairn_lock", threading.Lock())
        setter(self, "_cairn_key", None)

    def _release(self, handle: Any) -> None:
        _ffi.cairn_object_release(handle)

    def close(self) -> None:
        """Release this accessor's handle (the stored object is untouched)."""
        lock = getattr(self, "_cairn_lock", None)
        if lock is None:
            return
        with lock:
            super().close()

    # ---- Reading -------------------------------------------------------------------------------

    def _cairn_read(self, prop: Property) -> Any:
        handle = self._cairn_h
        if handle is None:
            raise MisuseError("This object is closed.")
        value = _cairn_value()
        with self._cairn_lock:
            _get_at(handle, prop.index, value)
            kind = value.type
            if 0 <= kind < SCALAR_LIMIT:
                reader = READERS[kind]
                if reader is not None:
                    return reader(value.as_)
        return self._cairn_read_nested(handle, prop)

    def _cairn_read_nested(self, handle: Any, prop: Property) -> Any:
        """A property whose value is not a scalar: a nested list or dictionary in a mixed property
        is returned as a plain Python value (a snapshot); links and collections are refused."""
        if prop.type != _ffi.CAIRN_PROPERTY_MIXED or prop.collection != _ffi.CAIRN_COLLECTION_NONE:
            raise NotSupportedError(
                f"Property '{prop.class_name}.{prop.name}' is a {prop.kind_name}: this version of "
                "the cairn package does not read links or collections yet (to_dict() gives a "
                "snapshot of the whole object)."
            )
        out = c_void_p()
        with self._cairn_lock:
            _ffi.cairn_object_get_mixed_json(handle, prop.cname, b"[]", byref(out))
        return ejson_loads(take_string(out))

    def _cairn_json(self) -> dict[str, Any]:
        handle = self._ptr()
        out = c_void_p()
        with self._cairn_lock:
            _ffi.cairn_object_to_json(handle, byref(out))
        result: dict[str, Any] = ejson_loads(take_string(out))
        return result

    def __getattr__(self, name: str) -> Any:
        # Only reached for names that are not descriptors: stored (mapTo) names and unknown ones.
        if name.startswith("__") or name.startswith("_cairn_"):
            raise AttributeError(name)
        try:
            prop = self._cairn_class.resolve(self._cairn_db._ptr(), name)
        except AttributeError as error:  # NoSuchPropertyError: let Python suggest a near name
            error.name = name
            error.obj = self
            raise
        return self._cairn_read(prop)

    def __getitem__(self, name: str) -> Any:
        prop = self._cairn_class.by_name.get(name) if type(name) is str else None
        if prop is None:
            prop = self._cairn_class.resolve(self._cairn_db._ptr(), name)
        return self._cairn_read(prop)

    # ---- Writing -------------------------------------------------------------------------------

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OBJECT_ATTRIBUTES or name.startswith("_cairn_"):
            raise AttributeError(
                f"'{name}' is an attribute of cairn.Object, not a property: assign a property of "
                f"that name with obj[{name!r}] = value"
            )
        prop = self._cairn_class.by_name.get(name)
        if prop is None:
            prop = self._cairn_class.resolve(self._cairn_db._ptr(), name)
        self._cairn_write(prop, value)

    def __setitem__(self, name: str, value: Any) -> None:
        prop = self._cairn_class.by_name.get(name) if type(name) is str else None
        if prop is None:
            prop = self._cairn_class.resolve(self._cairn_db._ptr(), name)
        self._cairn_write(prop, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError("properties cannot be deleted: assign None, or delete the object")

    def _cairn_write(self, prop: Property, value: Any) -> None:
        handle = self._ptr()
        db = self._cairn_db
        if db._writer != _get_ident():
            db._outside_write(self._cairn_write_now, handle, prop, value)
        else:
            self._cairn_write_now(handle, prop, value)

    def _cairn_write_now(self, handle: Any, prop: Property, value: Any) -> None:
        if isinstance(value, NESTED_TYPES):
            payload = ejson_dumps({prop.name: value}).encode("utf-8")
            with self._cairn_lock:
                _ffi.cairn_object_update_json(handle, payload)
            return
        cvalue = _cairn_value()
        to_value(value, prop, cvalue)
        with self._cairn_lock:
            _ffi.cairn_object_set_at(handle, prop.index, cvalue)

    def update(self, values: Mapping[str, Any]) -> None:
        """Write several properties at once, all or nothing (inside ``db.write()``)."""
        if not isinstance(values, Mapping):
            raise TypeMismatchError(f"update() takes a dict, not {type(values).__name__}")
        handle = self._ptr()
        db = self._cairn_db
        if db._writer != _get_ident():
            db._outside_write(self._update_now, handle, values)
        else:
            self._update_now(handle, values)

    def _update_now(self, handle: Any, values: Mapping[str, Any]) -> None:
        info = self._cairn_class
        count = len(values)
        indices = (c_int32 * count)()
        cvalues = (_cairn_value * count)()
        db_handle = self._cairn_db._ptr()
        for i, (name, value) in enumerate(values.items()):
            if isinstance(value, NESTED_TYPES):
                # Nested values only travel as JSON: send the whole update that way, in one call.
                payload = ejson_dumps(dict(values)).encode("utf-8")
                with self._cairn_lock:
                    _ffi.cairn_object_update_json(handle, payload)
                return
            prop = info.by_name.get(name) if type(name) is str else None
            if prop is None:
                prop = info.resolve(db_handle, name)
            indices[i] = prop.index
            to_value(value, prop, cvalues[i])
        with self._cairn_lock:
            _ffi.cairn_object_set_values(handle, count, indices, cvalues)

    # ---- Whole object --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A snapshot of every property as a plain ``dict`` (one read of the database)."""
        info = self._cairn_class
        if not info.scalar_only:
            return self._cairn_json()
        handle = self._ptr()
        count = len(info.properties)
        values = (_cairn_value * count)()
        result = {}
        with self._cairn_lock:
            _ffi.cairn_object_get_values(handle, count, info.all_indices, values)
            for prop, value in zip(info.properties, values):
                kind = value.type
                reader = READERS[kind] if 0 <= kind < SCALAR_LIMIT else None
                if reader is None:  # a nested list or dictionary in a mixed property
                    break
                result[prop.name] = reader(value.as_)
            else:
                return result
        return self._cairn_json()

    @property
    def is_valid(self) -> bool:
        """False once the object was deleted, this accessor closed, or its database closed."""
        handle = self._cairn_h
        if handle is None:
            return False
        valid = c_int()
        try:
            with self._cairn_lock:
                _ffi.cairn_object_is_valid(handle, byref(valid))
        except MisuseError:  # the database was closed
            return False
        return bool(valid.value)

    @property
    def primary_key(self) -> Any:
        """The primary key's value, or None if the class has no primary key."""
        prop = self._cairn_class.primary_key
        return None if prop is None else self._cairn_read(prop)

    def _cairn_object_key(self) -> int | None:
        key = self._cairn_key
        if key is None and self._cairn_h is not None:
            out = c_int64()
            try:
                with self._cairn_lock:
                    _ffi.cairn_object_key(self._cairn_h, byref(out))
            except CairnError:
                return None
            key = out.value
            object.__setattr__(self, "_cairn_key", key)
        return key

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Object):
            return NotImplemented
        if other._cairn_db is not self._cairn_db or other._cairn_class is not self._cairn_class:
            return False
        key = self._cairn_object_key()
        return key is not None and key == other._cairn_object_key()

    def __hash__(self) -> int:
        key = self._cairn_object_key()
        if key is None:
            return id(self)
        return hash((id(self._cairn_db), self._cairn_class.index, key))

    def __dir__(self) -> list[str]:
        names = set(super().__dir__())
        names.update(self._cairn_class.by_name)
        return sorted(n for n in names if not n.startswith("_cairn_"))

    def __reduce__(self) -> Any:
        raise TypeError("cairn.Object is a live accessor and cannot be pickled; use to_dict()")

    def __repr__(self) -> str:
        info = self._cairn_class
        try:
            if self._cairn_h is None:
                return f"<cairn.Object {info.name} (closed)>"
            if not self.is_valid:
                return f"<cairn.Object {info.name} (invalid)>"
            if info.primary_key is not None:
                return f"<cairn.Object {info.name} {info.primary_key.name}={self.primary_key!r}>"
            return f"<cairn.Object {info.name} key={self._cairn_object_key()}>"
        except CairnError:
            return f"<cairn.Object {info.name}>"


# Names that belong to Object itself: schema properties with these names are read and written
# with obj["name"].
_OBJECT_ATTRIBUTES = frozenset(name for name in dir(Object) if not name.startswith("_"))


def make_object_type(info: ClassInfo) -> type[Object]:
    """The Object subclass for one class of one database: a descriptor per property."""
    namespace: dict[str, Any] = {"__slots__": (), "_cairn_class": info, "__module__": "cairn"}
    for prop in info.properties:
        name = prop.name
        if name.isidentifier() and not name.startswith("__") and name not in _OBJECT_ATTRIBUTES:
            namespace[name] = prop
    return type(info.name, (Object,), namespace)


def check_values(values: object, what: str) -> Mapping[str, Any]:
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        raise TypeMismatchError(f"{what} takes a dict of property values, not {type(values).__name__}")
    return values


__all__ = ["Object"]
