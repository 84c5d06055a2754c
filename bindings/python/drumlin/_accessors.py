"""Property accessors: the descriptors that read and write an object's persisted properties.

Each class of a database gets a generated subclass of :class:`~drumlin.Object` (of the model class,
when there is one) made once from the schema by :func:`install_object_type`, with one data descriptor
per property (a ``property``: see :class:`Accessor`). The descriptor's class is the kind of access,
chosen once from the property:

- :class:`ScalarAccessor`: a value kept in the object's row (see ``_rows``): the read is a version
  compare and a tuple index while the database's read version holds; the write one typed call;
- :class:`ConvertedAccessor`: a date or a decimal, kept in the row as text (a date's ISO 8601, a
  decimal's tagged), converted on each read;
- :class:`MixedAccessor`: a mixed value, kept in the row (an object it holds as that Object; a
  nested list or dictionary is read by one packed call, a new snapshot each time);
- :class:`LinkAccessor`: a to-one link, kept in the row as ``(DRUMLIN_TYPE_LINK, class, key)``
  (the target's row, when it came with its owner's, as a fourth item);
- :class:`ListAccessor`, :class:`SetAccessor`, :class:`DictionaryAccessor`: a live view (reading
  the items its owner's row carries while that row is current, see ``_drumlin_packed``);
- :class:`BacklinksAccessor`: a linkingObjects property, a live :class:`~drumlin.Results`;
- :class:`TransformedAccessor`: a model's persisted-value transform around one of the above.

``obj.name`` and ``obj.name = value`` reach them as descriptors; ``obj["name"]``, stored (mapTo)
names and ``update()`` through the class's :class:`Accessors`. This module sits above the
collections and results, so an object reaches its live views without importing upwards.
"""

from __future__ import annotations

import threading
from datetime import datetime
from decimal import Decimal
from collections.abc import Mapping
from ctypes import byref, c_int32, c_int64, c_void_p
from typing import TYPE_CHECKING, Any, Callable, cast

from . import _ffi
from ._convert import NESTED_TYPES, READERS, SCALAR_LIMIT, take_string, to_value
from ._errors import DrumlinError
from ._rows import TAGGED, TAGGED_PROPERTY_TYPES, UNMANAGED, mixed_value, one_index, read_values
from ._payload import fill_value, prepare_value, prepare_values, typed_value
from ._makers import ClassMakers, own_code
from ._schema import DEAD, ClassInfo, Property
from ._view import view_getter
from .collection import List, Set
from .dictionary import Dictionary
from .object import (
    _NOT_DECLARED,
    _OBJECT_ATTRIBUTES,
    Object,
    _class_attribute,
    _keep_row,
    managed_init,
    mixed_from_json,
    mixed_link_object,
)
from .results import Results
from .values import ejson_dumps, ejson_loads

if TYPE_CHECKING:
    from .database import Database

_get_ident = threading.get_ident
_current_row = Object._drumlin_current_row
_drumlin_value = _ffi.drumlin_value
_get_at = _ffi.drumlin_object_get_at
_set_by_key = _ffi.drumlin_object_set_by_key
_LINK = _ffi.DRUMLIN_TYPE_LINK
_fromisoformat = datetime.fromisoformat
_Decimal = Decimal
_NESTED = (_ffi.DRUMLIN_TYPE_LIST, _ffi.DRUMLIN_TYPE_DICTIONARY)
# Python types that to_value writes as one plain drumlin_value.
_PLAIN_WRITES = frozenset({int, float, str, bool, bytes, type(None)})


_KeyWrite = _ffi.drumlin_key_write
# Where the object key begins in a drumlin_key_write: the key and the value cell after it are
# what a write fills (one pack_into, see object._PACKED_WRITES).
_KEY_OFFSET = _KeyWrite.key.offset


class Accessor(property):
    """The descriptor of one property of one generated class: a ``property`` whose getter is a
    function made for the property (``_getter``), so ``obj.name`` is ``property``'s own ``__get__``
    (in C) calling that function, one Python frame; a ``__get__`` written in Python is a second
    lookup and a slower call (89 → 70 ns a read on Python 3.11). Each getter has a code object of
    its own (``_makers.own_code``), so its specialized slot reads serve one class, not every class
    whose properties share the getter's ``def``. Writes are the Python ``__set__``
    of each kind. The instances keep their fields in a dict: ``property.__init__`` stores a
    subclass's ``__doc__`` there."""

    prop: Property
    index: int

    def __init__(self, prop: Property) -> None:
        self.prop = prop
        self.index = prop.index
        property.__init__(self, own_code(self._getter()))

    def _getter(self) -> Callable[[Object], Any]:
        """The read of this property, called with the object (never None: ``property`` returns
        the accessor itself for a read on the class)."""
        return self.read

    def __set__(self, obj: Object, value: Any) -> None:
        write(obj, self.prop, value)

    def read(self, obj: Object) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        prop = self.prop
        return f"<drumlin {type(self).__name__} {prop.class_name}.{prop.name}: {prop.kind_name}>"


class RowAccessor(Accessor):
    """An accessor reading the kept row while the database's read version is the one the row was
    read at (``version``, the database's cell; ``DEAD`` once it is closed, see ``detach``)."""

    version: Any

    def __init__(self, prop: Property, info: ClassInfo) -> None:
        self.version = info.rows.version if info.rows is not None else DEAD
        super().__init__(prop)
        info.row_readers.append(self)

    def detach(self) -> None:
        """The database closed: every read takes the call, which reports it."""
        self.version = DEAD
        property.__init__(self, own_code(self._getter()))

    def read(self, obj: Object) -> Any:
        return self.fget(obj)  # type: ignore[misc]


class ScalarAccessor(RowAccessor):
    """A value kept in the object's row: a number, string, binary, date, decimal, ObjectId, UUID."""

    cells: tuple[Any, ...]
    _record: Any  # the drumlin_key_write of the packed write
    class_index: int

    def __init__(self, prop: Property, info: ClassInfo) -> None:
        self.class_index = info.index
        # Object.__setattr__'s write by object key (drumlin_object_write_by_key), made once: the
        # record with the database, class and property filled in, a view of its object key and
        # value cell (one pack_into fills both: see object._PACKED_WRITES), and its address, the
        # call's one argument (five arguments took ~140 ns more a write). One accessor belongs to
        # one class of one open database, and only the thread in that database's write() uses it.
        record = self._record = _KeyWrite()
        if info.rows is not None:
            record.db = info.rows.db.value
        record.class_index = info.index
        record.property_index = prop.index
        self.cells = (memoryview(record).cast("B")[_KEY_OFFSET:], byref(record))
        super().__init__(prop, info)

    def detach(self) -> None:
        # A write through the record of a closed database is the call's MisuseError, not a write
        # through a freed handle (Object.__setattr__ checks first; this is the second guard).
        self._record.db = None
        super().detach()

    def _getter(self) -> Callable[[Object], Any]:
        def get(obj: Object, index: int = self.index, version: Any = self.version,
                current: Callable[[Object], tuple[Any, ...]] = _current_row) -> Any:
            # The hot path of every attribute read: the kept row, while the read version is unchanged.
            if obj._drumlin_seen == version.value:
                return obj._drumlin_row[index]
            return current(obj)[index]

        return get

    def __set__(self, obj: Object, value: Any) -> None:
        # A plain value inside this thread's write() is one call by object key (``obj.x = v`` of a
        # number or bool is packed in place by Object.__setattr__ before it gets here).
        key = obj._drumlin_row[-1]  # (an accessor's object is a stored one)
        db = obj._drumlin_db
        if key is not None and type(value) in _PLAIN_WRITES and db._writer == _get_ident():
            handle = db._drumlin_h
            if handle is not None:
                cvalue = _drumlin_value()
                to_value(value, self.prop, cvalue)
                _set_by_key(handle, self.class_index, key, self.index, cvalue)
                return
        write(obj, self.prop, value)


class TaggedAccessor(ScalarAccessor):
    """A value marshal has no type for (a decimal, ObjectId, UUID or float), kept in the row
    as its tagged tuple ``(DRUMLIN_TYPE_*, ...)`` and converted when first read: the converted value
    replaces it in the object's row (a list from then on), so later reads are row reads, and a row
    whose tagged values are never read costs no conversion."""

    def _getter(self) -> Callable[[Object], Any]:
        def get(obj: Object, index: int = self.index, version: Any = self.version,
                current: Callable[[Object], tuple[Any, ...]] = _current_row) -> Any:
            row: Any = obj._drumlin_row if obj._drumlin_seen == version.value else current(obj)
            value = row[index]
            if type(value) is not tuple:
                return value
            converted = TAGGED[value[0]](value)
            if type(row) is tuple:
                row = list(row)
                _keep_row(obj, row)
            row[index] = converted
            return converted

        return get


class ConvertedAccessor(ScalarAccessor):
    """A date or a decimal, made a Python value (in C) on each read: no conversion kept, nothing
    written back. A date is kept in the row as ISO 8601 text with microseconds in UTC and made an
    aware datetime by ``datetime.fromisoformat`` (stored dates, 1677–2262, are always that text; a
    row gives a tagged tuple only outside years 1–9999, converted as the other tagged values are).
    A decimal is kept as its tagged text ``(DRUMLIN_TYPE_DECIMAL128, text)`` and made a
    ``Decimal``; keeping the conversion, as :class:`TaggedAccessor` does, cost a list copy of the
    row on each object's first read (~2.5k instructions of a Task get's ~99k)."""

    def _getter(self) -> Callable[[Object], Any]:
        def get(obj: Object, index: int = self.index, version: Any = self.version,
                current: Callable[[Object], tuple[Any, ...]] = _current_row,
                is_date: bool = self.prop.type == _ffi.DRUMLIN_PROPERTY_DATE) -> Any:
            if obj._drumlin_seen == version.value:
                value = obj._drumlin_row[index]
            else:
                value = current(obj)[index]
            if value is None:
                return None
            if is_date:
                return _fromisoformat(value) if type(value) is str else TAGGED[value[0]](value)
            return _Decimal(value[1])

        return get


class MixedAccessor(RowAccessor):
    """A mixed property, kept in the row: a scalar as the other kept values (a date, decimal,
    ObjectId, UUID or float as its tagged tuple), an object it holds as
    ``(DRUMLIN_TYPE_LINK, class, key)``; a nested list or dictionary is only marked there
    (``(DRUMLIN_TYPE_LIST,)``, ``(DRUMLIN_TYPE_DICTIONARY,)``) and read by one packed call, a new
    snapshot each time. An object without a kept row reads it by one typed call."""

    def _getter(self) -> Callable[[Object], Any]:
        def get(obj: Object, index: int = self.index, version: Any = self.version,
                convert: Callable[[Object, tuple[Any, ...]], Any] = self._convert,
                read: Callable[[Object], Any] = self.read) -> Any:
            if obj._drumlin_seen == version.value:
                value = obj._drumlin_row[index]
                if type(value) is not tuple:
                    return value
                return convert(obj, value)
            return read(obj)

        return get

    def _convert(self, obj: Object, value: tuple[Any, ...]) -> Any:
        """A tagged item of the row: the object a link points at, a converted scalar, or the nested
        list or dictionary read by the object's key."""
        tag = value[0]
        if tag == _LINK:
            return mixed_link_object(obj._drumlin_db, value[1], value[2])
        if tag in _NESTED:
            key = obj._drumlin_key
            if key is None:
                key = obj._drumlin_object_key()
            nested = read_values(obj._drumlin_class.rows, key, one_index(self.index))[self.prop.name]  # type: ignore[arg-type]
            return mixed_from_json(obj._drumlin_db, mixed_value(nested))
        return TAGGED[tag](value)

    def read(self, obj: Object) -> Any:
        prop = self.prop
        if obj._drumlin_class.rows is not None and obj._drumlin_seen != UNMANAGED and obj._drumlin_db._drumlin_h is not None:
            value = obj._drumlin_current_row()[self.index]
            return self._convert(obj, value) if type(value) is tuple else value
        handle = obj._ptr()
        cvalue = _drumlin_value()
        with obj._drumlin_lock:
            _get_at(handle, self.index, cvalue)
            kind = cvalue.type
            if 0 <= kind < SCALAR_LIMIT:
                reader = READERS[kind]
                if reader is not None:
                    return reader(cvalue.as_)
        if kind == _LINK:  # an object held by the mixed value
            return mixed_link_object(obj._drumlin_db, cvalue.as_.link.class_index, cvalue.as_.link.key)
        if prop.type != _ffi.DRUMLIN_PROPERTY_MIXED:
            raise DrumlinError(f"libdrumlin returned a non-scalar value for property {prop.label}")
        # A nested list or dictionary, as a plain Python value (a snapshot).
        out = c_void_p()
        with obj._drumlin_lock:
            _ffi.drumlin_object_get_mixed_json(handle, prop.cname, b"[]", byref(out))
        return mixed_from_json(obj._drumlin_db, ejson_loads(take_string(out)))


class LinkAccessor(RowAccessor):
    """A to-one link, kept in the row as its class and object key ``(DRUMLIN_TYPE_LINK, class,
    key)``, made into an object with no call (its own row is read when one of its attributes is).
    The row of one object (``db.get``, an object read by key) carries each target's row as a
    fourth item, which the target object keeps: ``task.owner.name`` after ``db.get`` is no call."""

    def _getter(self) -> Callable[[Object], Any]:
        # The target class of this database, looked up on the first read (an accessor belongs to
        # one class of one open database, whose class infos, once made, stay for its lifetime; its
        # object type, and so its makers, may change when a model class is registered, so they are
        # read each time).
        targets: list[ClassInfo | None] = [None]
        name = self.prop.object_type

        def get(obj: Object, index: int = self.index, version: Any = self.version,
                current: Callable[[Object], tuple[Any, ...]] = _current_row,
                targets: list[ClassInfo | None] = targets) -> Any:
            if obj._drumlin_seen == version.value:
                value = obj._drumlin_row[index]
            else:
                value = current(obj)[index]
            if value is None:
                return None
            db = obj._drumlin_db
            target = targets[0]
            if target is None:
                target = targets[0] = db._class(name)
            makers = target.makers
            if len(value) == 4:  # the target, with its row
                return makers.from_row(db, value[3], obj._drumlin_seen)
            return makers.keyed(db, value[2])

        return get


class ViewAccessor(Accessor):
    """A collection property: a live view of ``view_type``, made on each read by the getter
    ``view_getter`` makes."""

    __slots__ = ()

    view_type: Any = None

    def _getter(self) -> Callable[[Object], Any]:
        return view_getter(self.view_type, self.prop)

    def read(self, obj: Object) -> Any:
        return self.fget(obj)  # type: ignore[misc]


class ListAccessor(ViewAccessor):
    """A list property: a live :class:`~drumlin.List`."""

    __slots__ = ()
    view_type = List


class SetAccessor(ViewAccessor):
    """A set property: a live :class:`~drumlin.Set`."""

    __slots__ = ()
    view_type = Set


class DictionaryAccessor(ViewAccessor):
    """A dictionary property: a live :class:`~drumlin.Dictionary`."""

    __slots__ = ()
    view_type = Dictionary


class BacklinksAccessor(Accessor):
    """A linkingObjects property: the objects linking here, as a live :class:`~drumlin.Results`;
    read-only (the write is the engine's message, through the JSON layer's check)."""

    __slots__ = ()

    def read(self, obj: Object) -> Any:
        prop = self.prop
        return Results._backlinks(obj, prop.cname, obj._drumlin_db._class(prop.object_type))


class TransformedAccessor:
    """A model property with a persisted-value transform (an Enum stored as its value, a path as
    a string, a dataclass as an embedded object) around the property's own accessor."""

    __slots__ = ("accessor", "load", "store")

    def __init__(self, accessor: Accessor, load: Callable[[Any], Any], store: Callable[[Any], Any]) -> None:
        self.accessor = accessor
        self.load = load
        self.store = store

    def __get__(self, obj: Object | None, owner: Any = None) -> Any:
        if obj is None:
            return self
        return self.load(self.accessor.__get__(obj, owner))

    def __set__(self, obj: Object, value: Any) -> None:
        self.accessor.__set__(obj, self.store(value))

    def __repr__(self) -> str:
        return f"<drumlin {type(self).__name__} of {self.accessor!r}>"


def accessor_for(prop: Property, info: ClassInfo) -> Accessor:
    """The accessor of one property, by the kind of access it needs."""
    collection = prop.collection
    if collection == _ffi.DRUMLIN_COLLECTION_LIST:
        return ListAccessor(prop)
    if collection == _ffi.DRUMLIN_COLLECTION_SET:
        return SetAccessor(prop)
    if collection == _ffi.DRUMLIN_COLLECTION_DICTIONARY:
        return DictionaryAccessor(prop)
    if prop.is_backlink:
        return BacklinksAccessor(prop)
    if prop.is_link:
        return LinkAccessor(prop, info)
    if prop.in_row and prop.type in (_ffi.DRUMLIN_PROPERTY_DATE, _ffi.DRUMLIN_PROPERTY_DECIMAL128):
        return ConvertedAccessor(prop, info)
    if prop.in_row:
        return (TaggedAccessor if prop.type in TAGGED_PROPERTY_TYPES else ScalarAccessor)(prop, info)
    return MixedAccessor(prop, info)


# ---- Writes -------------------------------------------------------------------------------------


def write(obj: Object, prop: Property, value: Any) -> None:
    """Write ``value`` to ``prop`` of ``obj``: inside this thread's ``write()``, or refused as the
    engine refuses a write outside one."""
    handle = obj._drumlin_h
    # An object read as a row has no handle: a plain value is written by object key, anything
    # else through the handle (a nested list or dict in a mixed property included).
    if handle is None and (obj._drumlin_key is None or not prop.scalar or isinstance(value, NESTED_TYPES)):
        handle = obj._ptr()
    db = obj._drumlin_db
    if db._writer != _get_ident():
        db._outside_write(_write_now, obj, handle, prop, value)
    else:
        _write_now(obj, handle, prop, value)


def _write_now(obj: Object, handle: Any, prop: Property, value: Any) -> None:
    db = obj._drumlin_db
    if prop.scalar:
        if not isinstance(value, NESTED_TYPES):
            cvalue = _drumlin_value()
            fill_value(db, value, prop, cvalue)
            key = obj._drumlin_key
            if key is None:
                key = obj._drumlin_object_key()
            # One call by object key: a plain column is one cached UPDATE in the engine.
            _set_by_key(db._ptr(), obj._drumlin_class.index, key, prop.index, cvalue)
            return
    elif getattr(value, "_drumlin_prop", None) is prop and value._drumlin_owner == obj:
        return  # a live view assigned to its own property (`ann.dogs += [rex]`): nothing to do
    elif prop.is_link and (value is None or (isinstance(value, Object) and value._drumlin_seen != UNMANAGED)):
        cvalue = _drumlin_value()
        fill_value(db, value, prop, cvalue)
        with obj._drumlin_lock:
            _ffi.drumlin_object_set_at(handle, prop.index, cvalue)
        return
    # Nested values, collections, nested objects and primary-key references travel as JSON.
    payload = ejson_dumps({prop.name: prepare_value(db, prop, value)}).encode("utf-8")
    with obj._drumlin_lock:
        _ffi.drumlin_object_update_json(handle, payload)


class Accessors:
    """The accessors of one generated class: each property's by name (``obj["name"]``, stored
    names, the primary key), and what ``Object`` does through them that needs the modules above it
    (several writes at once, backlinks by name)."""

    __slots__ = ("by_name",)

    def __init__(self, by_name: dict[str, Accessor]) -> None:
        self.by_name = by_name

    @staticmethod
    def update(obj: Object, handle: Any, values: Mapping[str, Any]) -> None:
        """Several properties in one call, all or nothing (``Object.update``)."""
        info = obj._drumlin_class
        count = len(values)
        indices = (c_int32 * count)()
        cvalues = (_drumlin_value * count)()
        db = obj._drumlin_db
        db_handle = db._ptr()
        for i, (name, value) in enumerate(values.items()):
            prop = info.by_name.get(name) if type(name) is str else None
            if prop is None:
                prop = info.resolve(db_handle, name)
            if not typed_value(prop, value):
                # Nested values only travel as JSON: send the whole update that way, in one call.
                payload = ejson_dumps(prepare_values(db, info, values)).encode("utf-8")
                with obj._drumlin_lock:
                    _ffi.drumlin_object_update_json(handle, payload)
                return
            indices[i] = prop.index
            fill_value(db, value, prop, cvalues[i])
        with obj._drumlin_lock:
            _ffi.drumlin_object_set_values(handle, count, indices, cvalues)

    @staticmethod
    def backlinks(obj: Object, path: bytes, origin: ClassInfo) -> Results[Any]:
        """The objects of ``origin`` that link to ``obj`` through ``path`` (``@links.Class.prop``)."""
        return Results._backlinks(obj, path, origin)


def install_object_type(info: ClassInfo, model: type[Object] | None = None) -> None:
    """Makes the Object subclass for one class of one database, ``info.object_type``, and the
    functions making its objects, ``info.makers`` (_makers.ClassMakers): a descriptor per property.
    With a model class, a subclass of it (so objects are instances of the model class) whose
    descriptors read the database; properties the model declares otherwise (methods,
    ``@property``) stay its own. Names that are not identifiers, or that belong to Object itself,
    are read and written as ``obj["name"]`` only."""
    fields = model._drumlin_model.fields if model is not None and model._drumlin_model else {}
    by_name: dict[str, Accessor] = {}
    setters: dict[str, Callable[[Any, Any], None]] = {}
    packed: dict[str, tuple[Any, ...]] = {}
    namespace: dict[str, Any] = {
        "__slots__": (),
        "_drumlin_class": info,
        "_drumlin_accessors": Accessors(by_name),
        "_drumlin_setters": setters,
        "_drumlin_packed": packed,
        "__module__": "drumlin",
        "__init__": managed_init,
    }
    for prop in info.properties:
        name = prop.name
        accessor = by_name[name] = accessor_for(prop, info)
        if not name.isidentifier() or name.startswith("__") or name in _OBJECT_ATTRIBUTES:
            continue
        field = fields.get(name)
        descriptor: Accessor | TransformedAccessor
        if field is not None and field.codec is not None:
            descriptor = TransformedAccessor(accessor, field.codec.load, field.codec.store)
        elif field is not None or model is None or _class_attribute(model, name) is _NOT_DECLARED:
            descriptor = accessor
        else:
            continue
        namespace[name] = descriptor
        setters[name] = descriptor.__set__
        if isinstance(descriptor, ScalarAccessor):
            packed[name] = descriptor.cells
    # Stored (mapTo) names read and write as the public ones, through the same descriptors: Object
    # has no __getattr__ to resolve them (it would slow every attribute read, see Object).
    for prop in info.properties:
        stored = prop.stored_name
        if (
            stored
            and stored.isidentifier()
            and not stored.startswith("__")
            and stored not in _OBJECT_ATTRIBUTES
            and stored not in namespace
            and prop.name in setters
            and (model is None or _class_attribute(model, stored) is _NOT_DECLARED)
        ):
            namespace[stored] = namespace[prop.name]
            setters[stored] = setters[prop.name]
    if model is None:
        made: type[Object] = type(info.name, (Object,), namespace)
    else:
        namespace["__module__"] = model.__module__
        namespace["__qualname__"] = model.__qualname__
        made = type(model.__name__, (model,), namespace)
    info.object_type = cast("Callable[[Database, Any], Object]", made)
    info.makers = ClassMakers(made)
