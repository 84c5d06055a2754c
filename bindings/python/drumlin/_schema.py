"""What the package caches about each class: read once per database handle through the
introspection calls (the schema of a handle never changes while it is open).

A :class:`Property` describes one property (its index, types, flags); the descriptors that read
and write it as ``obj.name`` are made from it in ``_accessors``.
"""

from __future__ import annotations

from ctypes import byref, c_char_p, c_int, c_int32, c_uint64
from typing import TYPE_CHECKING, Any, Callable

from . import _ffi
from ._errors import InvalidArgumentError, TypeMismatchError

if TYPE_CHECKING:
    from ._rows import RowAccess
    from .database import Database
    from ._makers import ClassMakers
    from .object import Object

DEAD = c_uint64(0)
"""The version cell of the row accessors of a class once its database is closed: 0, which no object
keeps (the engine's read version starts at 1; an object without a row keeps -1), so their reads
always take the call, which reports the closed database (see _rows)."""

_TYPE_NAMES = {
    _ffi.DRUMLIN_PROPERTY_BOOL: "bool",
    _ffi.DRUMLIN_PROPERTY_INT: "int",
    _ffi.DRUMLIN_PROPERTY_FLOAT: "float",
    _ffi.DRUMLIN_PROPERTY_DOUBLE: "double",
    _ffi.DRUMLIN_PROPERTY_DECIMAL128: "decimal128",
    _ffi.DRUMLIN_PROPERTY_STRING: "string",
    _ffi.DRUMLIN_PROPERTY_DATA: "data",
    _ffi.DRUMLIN_PROPERTY_DATE: "date",
    _ffi.DRUMLIN_PROPERTY_OBJECT_ID: "objectId",
    _ffi.DRUMLIN_PROPERTY_UUID: "uuid",
    _ffi.DRUMLIN_PROPERTY_MIXED: "mixed",
    _ffi.DRUMLIN_PROPERTY_OBJECT: "object",
    _ffi.DRUMLIN_PROPERTY_LINKING_OBJECTS: "linkingObjects",
}

_COLLECTION_NAMES = {
    _ffi.DRUMLIN_COLLECTION_LIST: "list",
    _ffi.DRUMLIN_COLLECTION_SET: "set",
    _ffi.DRUMLIN_COLLECTION_DICTIONARY: "dictionary",
}


def encode_name(name: object, what: str) -> bytes:
    """A class or property name as the C API takes it: UTF-8 without NUL (a NUL would silently
    cut the name short inside C)."""
    if not isinstance(name, str):
        raise TypeMismatchError(f"{what} names are strings, not {type(name).__name__}")
    if "\0" in name:
        raise InvalidArgumentError(f"{what} names cannot contain NUL characters: {name!r}")
    try:
        return name.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidArgumentError(f"{what} name is not valid Unicode: {name!r}") from None


class Property:
    """One property of a class as one database handle reports it."""

    __slots__ = (
        "class_name",
        "cname",
        "collection",
        "flags",
        "in_row",
        "index",
        "is_link",
        "name",
        "object_type",
        "scalar",
        "stored_name",
        "type",
    )

    def __init__(self, class_name: str, index: int, info: _ffi.drumlin_property_info) -> None:
        self.class_name = class_name
        self.index = index
        self.name: str = (info.name or b"").decode("utf-8")
        self.cname = self.name.encode("utf-8")
        self.stored_name: str = (info.stored_name or b"").decode("utf-8")
        self.type: int = info.type
        self.collection: int = info.collection
        self.object_type: str = (info.object_type or b"").decode("utf-8")
        self.flags: int = info.flags
        # Stored in one drumlin_value (a mixed property included): not a link, collection or backlink.
        self.scalar: bool = self.collection == _ffi.DRUMLIN_COLLECTION_NONE and self.type not in (
            _ffi.DRUMLIN_PROPERTY_OBJECT,
            _ffi.DRUMLIN_PROPERTY_LINKING_OBJECTS,
        )
        # A to-one link (to a top-level or embedded object).
        self.is_link: bool = (
            self.collection == _ffi.DRUMLIN_COLLECTION_NONE and self.type == _ffi.DRUMLIN_PROPERTY_OBJECT
        )
        # Stored in the object's row (drumlin.h, "Whole rows") as a value of its type (not a mixed
        # value, whose accessor converts what the row holds): kept by the objects read.
        self.in_row: bool = (self.scalar and self.type != _ffi.DRUMLIN_PROPERTY_MIXED) or self.is_link

    @property
    def is_optional(self) -> bool:
        return bool(self.flags & _ffi.DRUMLIN_PROPERTY_FLAG_OPTIONAL)

    @property
    def is_primary_key(self) -> bool:
        return bool(self.flags & _ffi.DRUMLIN_PROPERTY_FLAG_PRIMARY_KEY)

    @property
    def is_scalar(self) -> bool:
        """Stored in one drumlin_value: not a collection, link or backlink."""
        return self.scalar

    @property
    def is_backlink(self) -> bool:
        """A linkingObjects property (computed, read-only)."""
        return self.type == _ffi.DRUMLIN_PROPERTY_LINKING_OBJECTS

    @property
    def label(self) -> str:
        """``'Class.property'``, quoted, as the engine's messages name a property."""
        return f"'{self.class_name}.{self.name}'"

    @property
    def type_name(self) -> str:
        return _TYPE_NAMES.get(self.type, str(self.type))

    @property
    def kind_name(self) -> str:
        """What the property holds, in words: "int", "list", "link", "linkingObjects"..."""
        if self.collection != _ffi.DRUMLIN_COLLECTION_NONE:
            return _COLLECTION_NAMES.get(self.collection, "collection")
        if self.type == _ffi.DRUMLIN_PROPERTY_OBJECT:
            return "link"
        return self.type_name

    def __repr__(self) -> str:
        return f"<drumlin property {self.class_name}.{self.name}: {self.type_name}>"


_PACKABLE_TYPES = (
    _ffi.DRUMLIN_PROPERTY_BOOL,
    _ffi.DRUMLIN_PROPERTY_INT,
    _ffi.DRUMLIN_PROPERTY_DOUBLE,
    _ffi.DRUMLIN_PROPERTY_STRING,
    _ffi.DRUMLIN_PROPERTY_DATA,
)


class ClassInfo:
    """A class of the schema as seen through one database handle."""

    __slots__ = (
        "__weakref__",
        "all_indices",
        "by_name",
        "cname",
        "dict_builder",
        "has_mixed",
        "index",
        "kind",
        "makers",
        "model",
        "name",
        "names",
        "object_type",
        "packable",
        "primary_key",
        "properties",
        "row_readers",
        "rows",
        "scalar_only",
    )

    object_type: Callable[[Database, Any], Object]
    makers: ClassMakers  # the functions making its objects, set with object_type
    model: type[Object] | None

    def __init__(self, handle: Any, requested: bytes) -> None:
        index = c_int32()
        _ffi.drumlin_class_index(handle, requested, byref(index))
        name = c_char_p()
        _ffi.drumlin_class_name(handle, index, byref(name))
        self.name: str = (name.value or b"").decode("utf-8")
        self.cname = self.name.encode("utf-8")
        self.index = index.value
        kind = c_int()
        _ffi.drumlin_class_kind(handle, self.cname, byref(kind))
        self.kind = kind.value
        count = c_int32()
        _ffi.drumlin_property_count(handle, self.cname, byref(count))
        properties = []
        info = _ffi.drumlin_property_info()
        for i in range(count.value):
            _ffi.drumlin_property_info_get(handle, self.cname, i, byref(info))
            properties.append(Property(self.name, i, info))
        self.properties: tuple[Property, ...] = tuple(properties)
        self.by_name: dict[str, Property] = {p.name: p for p in properties}
        self.primary_key: Property | None = next((p for p in properties if p.is_primary_key), None)
        self.scalar_only = all(p.is_scalar for p in properties)
        self.names: tuple[str, ...] = tuple(p.name for p in properties)
        self.has_mixed = any(p.type == _ffi.DRUMLIN_PROPERTY_MIXED for p in properties)
        # Every value fits Python's marshal format: rows can be read packed, in one crossing.
        self.packable = all(
            p.collection == _ffi.DRUMLIN_COLLECTION_NONE and p.type in _PACKABLE_TYPES for p in properties
        )
        self.all_indices = (c_int32 * len(properties))(*range(len(properties)))
        self.model = None
        self.rows: RowAccess | None = None  # set by the database (attach_rows)
        # Turns a row into the object's dict (_rows.dict_builder), made on first use.
        self.dict_builder: Callable[[dict[str, Any]], dict[str, Any]] | None = None
        # The accessors reading the kept row (_accessors.RowAccessor), of every Object subclass
        # made for this class: detached (their version cell DEAD) once the database closes.
        self.row_readers: list[Any] = []

    def attach_rows(self, rows: RowAccess) -> None:
        """Let objects of this class keep their rows, revalidated against ``rows.version`` (the
        database's read version cell), which the row accessors made from now on read."""
        self.rows = rows

    def detach_rows(self) -> None:
        """The database closed: every read takes the call (which reports the closed database)."""
        if self.rows is not None:
            self.rows.version = DEAD
        for reader in self.row_readers:
            reader.detach()

    @property
    def is_asymmetric(self) -> bool:
        return self.kind == _ffi.DRUMLIN_CLASS_ASYMMETRIC

    @property
    def is_embedded(self) -> bool:
        return self.kind == _ffi.DRUMLIN_CLASS_EMBEDDED

    def resolve(self, handle: Any, name: str) -> Property:
        """The property called ``name`` (public or stored name). Unknown names raise the engine's
        NoSuchPropertyError."""
        prop = self.by_name.get(name)
        if prop is not None:
            return prop
        index = c_int32()
        _ffi.drumlin_property_index(handle, self.cname, encode_name(name, "property"), byref(index))
        return self.properties[index.value]
