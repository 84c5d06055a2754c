"""Python values as the engine takes them in writes.

A write of one value travels as a typed ``drumlin_value`` when it can (:func:`typed_value`,
:func:`fill_value`: an :class:`~drumlin.Object` in a link position is a ``DRUMLIN_TYPE_LINK``);
payloads holding nested values go through the engine's JSON layer, with the Objects inside them
encoded as references (:func:`prepare_values`) and the Objects held by mixed values as ``$link``
(:func:`prepare_mixed`). Used by the property accessors, the collections and the database's
create verbs alike.
"""

from __future__ import annotations

import decimal
import gc
import marshal
from collections.abc import Callable, Iterable, Mapping
from ctypes import c_int32
from itertools import chain, repeat
from operator import itemgetter, sub
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from . import _ffi
from ._convert import NESTED_TYPES, to_value
from ._rows import UNMANAGED
from ._errors import (
    InvalidArgumentError,
    MisuseError,
    TypeMismatchError,
)
from .object import Object
from .values import _EPOCH, ObjectId, check_mixed_keys, datetime_to_timestamp

if TYPE_CHECKING:
    from ._schema import ClassInfo, Property
    from .database import Database


def check_values(values: object, what: str) -> Mapping[str, Any]:
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        raise TypeMismatchError(f"{what} takes a dict of property values, not {type(values).__name__}")
    return values


def link_key(db: Database, obj: Object) -> int:
    """The object key that names ``obj`` in a link to it from ``db``. Only what the engine cannot
    know is checked here (an object not stored yet, one of another database, a closed accessor):
    the engine checks the class, that the target is not an embedded object owned elsewhere, and
    that it still exists, with the same messages for every face."""
    if obj._drumlin_seen == UNMANAGED:
        raise InvalidArgumentError(
            f"The {type(obj).__name__} object is not stored in a database yet: add it first (db.add), "
            "then link it"
        )
    if obj._drumlin_db is not db:
        raise InvalidArgumentError(
            f"The {obj._drumlin_class.name} object belongs to another database: link objects of the same "
            "database, or give a dict to copy it"
        )
    return stored_key(obj)


def stored_key(obj: Object) -> int:
    """``obj``'s object key; a closed accessor is a MisuseError."""
    key = obj._drumlin_object_key()
    if key is None:
        obj._ptr()  # the MisuseError that says why
        raise MisuseError("This object is closed.")
    return key


def fill_link(db: Database, obj: Object, out: _ffi.drumlin_value) -> None:
    """``out`` = a typed link to ``obj`` (see :func:`link_key`)."""
    key = link_key(db, obj)
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
    return prop.is_link and (value is None or (isinstance(value, Object) and value._drumlin_seen != UNMANAGED))


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
        return value  # the engine refuses it: "Cannot modify read-only property ..."
    if isinstance(value, Object) and value._drumlin_seen != UNMANAGED:
        # An existing object, wherever it is given: the engine checks it is a link of the right
        # class (a scalar property refuses it as a type mismatch).
        return mixed_link_json(db, prop.label, value) if prop.type == _ffi.DRUMLIN_PROPERTY_MIXED else link_json(db, value)
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
        if value._drumlin_seen == UNMANAGED and model is not None:  # not stored yet: a new object
            return prepare_values(db, db._class(prop.object_type), model.store_values(value._drumlin_row, fill=False))
        return link_json(db, value)
    if isinstance(value, Mapping):
        return prepare_values(db, db._class(prop.object_type), value)
    return value


def link_json(db: Database, obj: Object) -> dict[str, Any]:
    """``{"$link": {"class": ..., "key": ...}}``: how the engine's JSON names an existing object
    (see :func:`link_key` for what is checked where)."""
    return {"$link": {"class": obj._drumlin_class.name, "key": link_key(db, obj)}}


def mixed_link_json(db: Database, label: str, obj: Object) -> dict[str, Any]:
    """``{"$link": {"class": ..., "key": ...}}`` for an object a mixed value is to hold. The
    engine refuses embedded and asymmetric classes and deleted objects."""
    if obj._drumlin_seen == UNMANAGED:
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
    return {"$link": {"class": info.name, "key": stored_key(obj)}}


def prepare_mixed(db: Database, prop: Property, value: Any) -> Any:
    """A mixed value for the JSON layer: an Object as a ``$link`` reference, at any depth of a
    nested list or dict (each checked as :func:`mixed_link_json` checks it); anything else passes
    unchanged."""
    if isinstance(value, Object):
        return mixed_link_json(db, prop.label, value)
    if isinstance(value, (Mapping, list, tuple)):
        return _nested_links(db, prop.label, value, 0)
    return value


def _nested_links(db: Database, label: str, value: Any, depth: int) -> Any:
    if depth > 100:
        return value  # the engine reports the nesting limit (json.dumps a value holding itself)
    if isinstance(value, Mapping):
        return {key: _nested_links(db, label, item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nested_links(db, label, item, depth + 1) for item in value]
    if isinstance(value, Object):
        return mixed_link_json(db, label, value)
    return value


# ---- Rows for create_many --------------------------------------------------------------------------

# Types the packed bulk path carries as they are (Python's marshal format). Dates, decimals,
# ObjectIds, UUIDs and links travel as tagged tuples ``(DRUMLIN_TYPE_*, payload...)`` (the read
# path's format, drumlin.h), collections as lists and dicts, nested objects as dicts: the engine
# walks them (``drumlin_create_many_marshal``) with the checks and messages of its JSON path.
_PACKABLE = frozenset({type(None), bool, int, float, str, bytes})
_PLAIN_ELEMENT_TYPES = frozenset(
    {
        _ffi.DRUMLIN_PROPERTY_BOOL,
        _ffi.DRUMLIN_PROPERTY_INT,
        _ffi.DRUMLIN_PROPERTY_FLOAT,
        _ffi.DRUMLIN_PROPERTY_DOUBLE,
        _ffi.DRUMLIN_PROPERTY_STRING,
        _ffi.DRUMLIN_PROPERTY_DATA,
    }
)


_LINK = _ffi.DRUMLIN_TYPE_LINK


class _Unpackable(Exception):
    """A value the packed path does not carry: the batch takes the JSON path, which reports it."""


def _tag(value: Any) -> Any:
    """A scalar as the packed path carries it: marshal's own types as they are, the others tagged."""
    kind = type(value)
    if kind in _PACKABLE:
        return value
    if kind is datetime:
        seconds, nanoseconds = datetime_to_timestamp(value)
        return (_ffi.DRUMLIN_TYPE_TIMESTAMP, seconds, nanoseconds)
    if kind is decimal.Decimal:
        return (_ffi.DRUMLIN_TYPE_DECIMAL128, "NaN" if value.is_nan() else str(value))
    if kind is ObjectId:
        return (_ffi.DRUMLIN_TYPE_OBJECT_ID, value.bytes)
    if kind is UUID:
        return (_ffi.DRUMLIN_TYPE_UUID, value.bytes)
    raise _Unpackable


def _tag_date(value: Any) -> Any:
    """``_tag`` for a date property: an aware datetime without the call to datetime_to_timestamp."""
    if type(value) is datetime:
        try:
            delta = value - _EPOCH
        except TypeError:  # naive (or its tzinfo gives no offset): taken as UTC there
            return _tag(value)
        return (_ffi.DRUMLIN_TYPE_TIMESTAMP, delta.days * 86400 + delta.seconds, delta.microseconds * 1000)
    return _tag(value)


def _tag_decimal(value: Any) -> Any:
    """``_tag`` for a decimal property."""
    if type(value) is decimal.Decimal:
        text = str(value)
        # 'NaN', '-NaN', 'sNaN' (and their payloads) are the only texts of a Decimal with an N.
        return (_ffi.DRUMLIN_TYPE_DECIMAL128, "NaN" if "N" in text else text)
    return _tag(value)


def _link_tag(db: Database, obj: Object) -> tuple[int, int, int]:
    return (_ffi.DRUMLIN_TYPE_LINK, obj._drumlin_class.index, link_key(db, obj))


def _encode_link(db: Database, prop: Property, value: Any) -> Any:
    """A link position: an Object as a tagged link, a dict (or a model object not stored yet) as
    the nested object's packed properties, anything else as a primary key."""
    if isinstance(value, Object):
        model = value._drumlin_model
        if value._drumlin_seen == UNMANAGED and model is not None:
            value = model.store_values(value._drumlin_row, fill=False)
        else:
            return _link_tag(db, value)
    if isinstance(value, Mapping):
        return _PayloadEncoder(db, db._class(prop.object_type))(value)
    return _tag(value)


class _PayloadEncoder:
    """Encodes nested objects' dicts of one class, with each property's encoder made once."""

    __slots__ = ("db", "encoders", "info", "names")

    def __init__(self, db: Database, info: ClassInfo) -> None:
        self.db = db
        self.info = info
        # Every encoder returns a value of a type marshal carries as it is (_PACKABLE) unchanged:
        # a dict of such values under names of writable properties is already its encoding.
        self.names = frozenset(p.name for p in info.properties if not p.is_backlink)
        self.encoders: dict[str, Callable[[Any], Any]] = {}

    def __call__(self, values: Mapping[str, Any]) -> dict[str, Any]:
        if type(values) is dict and values.keys() <= self.names and all(map(_PACKABLE.__contains__, map(type, values.values()))):
            return values
        result: dict[str, Any] = {}
        by_name = self.info.by_name
        encoders = self.encoders
        for name, value in values.items():
            encode = encoders.get(name) if type(name) is str else None
            if encode is None:
                prop = by_name.get(name) if type(name) is str else None
                if prop is None:
                    raise _Unpackable  # the engine's message for an unknown name comes from the JSON path
                encode = encoders[name] = _encoder(self.db, prop)
            result[name] = encode(value)
        return result


def _encode_payload(db: Database, info: ClassInfo, values: Mapping[str, Any]) -> dict[str, Any]:
    return _PayloadEncoder(db, info)(values)


def _encode_mixed(db: Database, prop: Property, value: Any) -> Any:
    kind = type(value)
    if kind in _PACKABLE:
        return value
    if isinstance(value, Object):
        link = mixed_link_json(db, prop.label, value)["$link"]
        return (_ffi.DRUMLIN_TYPE_LINK, value._drumlin_class.index, link["key"])
    if isinstance(value, (Mapping, list, tuple)):
        return _encode_nested(db, prop, value, 0)
    return _tag(value)


def _encode_nested(db: Database, prop: Property, value: Any, depth: int) -> Any:
    if depth > 100:
        raise _Unpackable  # the JSON layer reports the nesting limit (or a value holding itself)
    if isinstance(value, Mapping):
        return {key: _encode_nested(db, prop, item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode_nested(db, prop, item, depth + 1) for item in value]
    if isinstance(value, Object):
        link = mixed_link_json(db, prop.label, value)["$link"]
        return (_ffi.DRUMLIN_TYPE_LINK, value._drumlin_class.index, link["key"])
    return _tag(value)


def _encoder(db: Database, prop: Property) -> Callable[[Any], Any]:
    """The function turning a value of ``prop`` into what the packed path carries."""
    if prop.is_backlink:
        raise _Unpackable
    kind = prop.type
    collection = prop.collection
    if kind == _ffi.DRUMLIN_PROPERTY_MIXED:
        def mixed(value: Any) -> Any:
            if type(value) in _PACKABLE:
                return value
            check_mixed_keys(value, prop.label)
            if collection == _ffi.DRUMLIN_COLLECTION_DICTIONARY and isinstance(value, Mapping):
                return {key: _encode_mixed(db, prop, item) for key, item in value.items()}
            if collection != _ffi.DRUMLIN_COLLECTION_NONE and not isinstance(
                value, (str, bytes, bytearray, memoryview, Mapping)
            ) and isinstance(value, Iterable):
                return [_encode_mixed(db, prop, item) for item in value]
            return _encode_mixed(db, prop, value)

        return mixed
    nested: list[_PayloadEncoder] = []  # made on the first nested object

    def link(value: Any) -> Any:
        kind = type(value)
        if kind in _PACKABLE:  # None, or a primary key
            return value
        if kind is dict:  # a nested object
            if not nested:
                nested.append(_PayloadEncoder(db, db._class(prop.object_type)))
            return nested[0](value)
        if isinstance(value, Object) and value._drumlin_seen != UNMANAGED and value._drumlin_db is db:
            key = value._drumlin_row[-1]  # link_key's checks, inline: a stored object of this database
            if key is not None:
                return (_LINK, value._drumlin_class.index, key)
        return _encode_link(db, prop, value)

    element: Callable[[Any], Any] | None
    if kind == _ffi.DRUMLIN_PROPERTY_OBJECT:
        element = link
    elif kind in _PLAIN_ELEMENT_TYPES:
        element = None
    elif kind == _ffi.DRUMLIN_PROPERTY_DATE:
        element = _tag_date
    elif kind == _ffi.DRUMLIN_PROPERTY_DECIMAL128:
        element = _tag_decimal
    else:
        element = _tag
    if collection == _ffi.DRUMLIN_COLLECTION_NONE:
        return element or _tag
    if collection == _ffi.DRUMLIN_COLLECTION_DICTIONARY:
        def dictionary(value: Any) -> Any:
            if not isinstance(value, Mapping):
                return _tag(value)
            for key in value:
                if not isinstance(key, str):
                    what = type(key).__name__
                    raise TypeMismatchError(f"Property {prop.label}: dictionary keys are strings, not {what}.")
            if element is None:
                return dict(value.items())
            return {key: element(item) for key, item in value.items()}

        return dictionary

    def elements(value: Any) -> Any:
        if type(value) is list and element is None:
            return value
        if isinstance(value, (str, bytes, bytearray, memoryview, Mapping)) or not isinstance(value, Iterable):
            return _tag(value)  # not a collection: the engine reports the mismatch
        return list(value) if element is None else [element(item) for item in value]

    return elements


_NONE = type(None)
_NOT_STORED = object()  # a link column's value that is not a stored object of the database


def _encode_column(db: Database, p: Property, kinds: set[type], column: tuple[Any, ...]) -> Any:
    """A whole column of a common form encoded with no function call per value (what the
    property's encoder gives for each, value by value), or None for the per-value encoder: aware
    dates, decimals, nested objects' dicts of plain values (their own encoding), and stored objects
    of this database as links."""
    if p.collection != _ffi.DRUMLIN_COLLECTION_NONE:
        return None
    kind = p.type
    if kind == _ffi.DRUMLIN_PROPERTY_DATE and kinds == {datetime}:
        try:
            deltas = list(map(sub, column, repeat(_EPOCH)))
        except TypeError:  # a naive datetime: _tag_date's rule, value by value
            return None
        tag = _ffi.DRUMLIN_TYPE_TIMESTAMP
        return [(tag, d.days * 86400 + d.seconds, d.microseconds * 1000) for d in deltas]
    if kind == _ffi.DRUMLIN_PROPERTY_DECIMAL128 and kinds <= {decimal.Decimal, _NONE}:
        tag = _ffi.DRUMLIN_TYPE_DECIMAL128
        # As _tag_decimal: 'NaN', '-NaN', 'sNaN' (and payloads) are the only texts with an N.
        return [None if v is None else (tag, t if "N" not in (t := str(v)) else "NaN") for v in column]
    if kind == _ffi.DRUMLIN_PROPERTY_OBJECT and all(issubclass(k, Object) for k in kinds - {_NONE}):
        # Stored objects of this database (what the link encoder gives each, inline): anything
        # else (an unmanaged or deleted object, another database's) takes the per-value path.
        links = [
            v if v is None
            else (_LINK, v._drumlin_class.index, key)
            if v._drumlin_seen != UNMANAGED and v._drumlin_db is db and (key := v._drumlin_row[-1]) is not None
            else _NOT_STORED
            for v in column
        ]
        return None if _NOT_STORED in links else links
    if kind == _ffi.DRUMLIN_PROPERTY_OBJECT and kinds <= {dict, _NONE}:
        # Nested objects' dicts: one of plain values under property names is its own encoding.
        dicts = [v for v in column if v is not None] if _NONE in kinds else column
        names = _PayloadEncoder(db, db._class(p.object_type)).names
        if set(chain.from_iterable(dicts)) <= names and set(
            map(type, chain.from_iterable(map(dict.values, dicts)))
        ) <= _PACKABLE:
            return column
    return None


def pack_rows(db: Database, info: ClassInfo, rows: list[Any]) -> tuple[Any, bytes] | None:
    """Rows as one ``marshal`` blob of tuples plus the property indexes, or None when the batch
    needs the general JSON path (mixed key sets, unknown names, or values the packed path does
    not carry)."""
    if not rows or not isinstance(rows[0], dict):
        return None
    keys = tuple(rows[0])
    width = len(keys)
    if width == 0 or any(name not in info.by_name for name in keys):
        return None
    if set(map(type, rows)) != {dict} or set(map(len, rows)) != {width}:
        return None
    # One short-lived tuple per row: with the cyclic collector on, a large batch triggers
    # collections that walk every live object (the caller's dicts included), ~10% of the packing
    # time and most of its variance. The tuples hold no cycles and are freed before it is back on.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return pack_tuples(db, info, rows, keys)
    except _Unpackable:
        return None
    finally:
        if collecting:
            gc.enable()


def pack_tuples(db: Database, info: ClassInfo, rows: list[Any], keys: tuple[str, ...]) -> tuple[Any, bytes] | None:
    width = len(keys)
    try:
        tuples = list(map(itemgetter(*keys), rows)) if width > 1 else [(row[keys[0]],) for row in rows]
    except KeyError:
        return None
    props = [info.by_name[name] for name in keys]
    if not info.scalar_only or any(p.type not in _PLAIN_ELEMENT_TYPES for p in props):
        # Encode the columns that need it (column by column: one map per property).
        encoders = [(position, p, _encoder(db, p)) for position, p in enumerate(props)
                    if not (p.scalar and p.type in _PLAIN_ELEMENT_TYPES)]
        columns = list(zip(*tuples))
        for position, p, encode in encoders:
            column = columns[position]
            kinds = set(map(type, column))
            # Every encoder passes marshal's own types through unchanged (a primary key, None, a
            # mixed value's scalar), and a list or set property of plain elements its lists (the
            # engine checks the elements): such a column needs no call per value.
            if kinds <= _PACKABLE or (
                kinds == {list}
                and p.collection in (_ffi.DRUMLIN_COLLECTION_LIST, _ffi.DRUMLIN_COLLECTION_SET)
                and p.type in _PLAIN_ELEMENT_TYPES
            ):
                continue
            encoded = _encode_column(db, p, kinds, column)
            columns[position] = encoded if encoded is not None else tuple(map(encode, column))
        tuples = list(zip(*columns))
    indices = (c_int32 * width)(*(p.index for p in props))
    try:
        # Version 2: no reference table, so cheaper to write than 4; the engine reads 2 to 4.
        return indices, marshal.dumps(tuples, 2)
    except ValueError:
        return None
