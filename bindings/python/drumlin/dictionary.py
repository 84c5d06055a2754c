"""``drumlin.Dictionary``: a live view of a dictionary property (a ``MutableMapping`` with string
keys, in key order)."""

from __future__ import annotations

from collections.abc import (
    ItemsView,
    Iterator,
    Mapping,
    MutableMapping,
    ValuesView,
)
from ctypes import byref, c_int
from typing import Any, ClassVar, Generic, TypeVar, cast

from . import _ffi
from ._convert import READERS, SCALAR_LIMIT
from ._errors import (
    TypeMismatchError,
)
from ._handle import DictionaryHandle
from ._schema import encode_name
from ._view import _Collection
from .object import mixed_link_object

__all__ = ["Dictionary"]

_V = TypeVar("_V")

_drumlin_value = _ffi.drumlin_value


def _encode_key(key: object) -> bytes:
    if type(key) is not str:
        raise TypeMismatchError(f"dictionary keys are strings, not {type(key).__name__}")
    return encode_name(key, "dictionary key")


def _lookup_key(key: object) -> bytes | None:
    """A key to look up, or None when no stored key can be equal to it."""
    if type(key) is not str or "\0" in key:
        return None
    try:
        return key.encode("utf-8")
    except UnicodeEncodeError:
        return None


class _ItemsView(ItemsView[str, Any]):
    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(cast(Any, self)._mapping._drumlin_snapshot().items())


class _ValuesView(ValuesView[Any]):
    def __iter__(self) -> Iterator[Any]:
        return iter(cast(Any, self)._mapping._drumlin_snapshot().values())

    def __contains__(self, value: object) -> bool:
        return any(item is value or item == value for item in self)


class Dictionary(_Collection, MutableMapping[str, _V], Generic[_V]):
    """A dictionary property: string keys, iterated in key order. A live ``MutableMapping``.

    ``len``, ``d[key]``, ``in``, ``get``, ``keys()``, ``values()``, ``items()``, iteration,
    ``==`` with dicts, and inside ``db.write()``: ``d[key] = v``, ``del d[key]``, ``pop``,
    ``popitem``, ``setdefault``, ``update``, ``clear``. Keys cannot contain ``.`` or start with
    ``$``; a value may be None (a link whose target was deleted reads as None).
    """

    _drumlin_annotation_kind: ClassVar[str] = "dictionary"  # read by model.py

    __slots__ = ()

    _kind = "dictionary"
    _ffi_observe = staticmethod(_ffi.drumlin_dict_observe)
    _ffi_handle = DictionaryHandle
    _ffi_open = staticmethod(_ffi.drumlin_object_get_dict)
    _ffi_to_json = staticmethod(_ffi.drumlin_dict_to_json)
    _ffi_size = staticmethod(_ffi.drumlin_dict_size)
    _ffi_clear = staticmethod(_ffi.drumlin_dict_clear)

    def _drumlin_find(self, key: object) -> tuple[bool, Any]:
        """(found, value) for ``key``."""
        ckey = _lookup_key(key)
        if ckey is None:
            return False, None
        handle = self._ptr()
        value = _drumlin_value()
        found = c_int()
        target = self._drumlin_target
        with self._drumlin_lock:
            _ffi.drumlin_dict_find(handle, ckey, value, byref(found))
            if not found.value:
                return False, None
            kind = value.type
            mixed_link: tuple[int, int] | None = None
            if kind == _ffi.DRUMLIN_TYPE_LINK and target is None:  # a mixed value holding an object
                mixed_link = (value.as_.link.class_index, value.as_.link.key)
                link_key = None
            elif kind == _ffi.DRUMLIN_TYPE_LINK and target is not None:
                link_key = value.as_.link.key
            else:
                reader = READERS[kind] if 0 <= kind < SCALAR_LIMIT else None
                if reader is not None:
                    return True, reader(value.as_)
                link_key = None
        if mixed_link is not None:
            return True, mixed_link_object(self._drumlin_owner._drumlin_db, *mixed_link)
        if link_key is not None:
            assert target is not None
            db = self._drumlin_owner._drumlin_db
            return True, db._find_by_key(db._ptr(), target, link_key)
        return True, self._drumlin_nested(cast(str, key))

    def __getitem__(self, key: str) -> _V:
        found, value = self._drumlin_find(key)
        if not found:
            raise KeyError(key)
        result: _V = value
        return result

    def __contains__(self, key: object) -> bool:
        return self._drumlin_find(key)[0]

    def _drumlin_snapshot(self) -> dict[str, Any]:
        entries: dict[str, Any] = self._drumlin_json()
        target = self._drumlin_target
        if target is None:
            mixed: dict[str, Any] = self._drumlin_mixed_values(entries)
            return mixed
        pk = target.primary_key
        if target.is_embedded or (pk is not None and pk.is_optional):
            # Embedded objects print without a key; a null primary key prints like a null link.
            return {key: self[key] for key in entries}
        return dict(zip(entries, self._drumlin_objects(list(entries.values()))))

    def __iter__(self) -> Iterator[str]:
        items = self._drumlin_packed()
        return iter(list(items if items is not None else self._drumlin_raw()))

    def items(self) -> ItemsView[str, Any]:
        """The entries, in key order (iterating reads the dictionary once)."""
        return _ItemsView(self)

    def values(self) -> ValuesView[Any]:
        """The values, in key order (iterating reads the dictionary once)."""
        return _ValuesView(self)

    def __setitem__(self, key: str, value: Any) -> None:
        ckey = _encode_key(key)
        self._drumlin_write(self._drumlin_set_now, ckey, value)

    def _drumlin_set_now(self, ckey: bytes, value: Any) -> None:
        handle = self._ptr()
        if self._drumlin_needs_json(value):
            payload = self._drumlin_element_json(value)
            with self._drumlin_lock:
                _ffi.drumlin_dict_insert_json(handle, ckey, payload)
            return
        cvalue = _drumlin_value()
        self._drumlin_fill(value, cvalue)
        with self._drumlin_lock:
            _ffi.drumlin_dict_insert(handle, ckey, cvalue)

    def __delitem__(self, key: str) -> None:
        if not self._drumlin_write(self._drumlin_erase_now, key):
            raise KeyError(key)

    def update(self, other: Any = (), /, **values: Any) -> None:
        """Set every entry of ``other`` (a mapping or pairs) and ``values``: one write, all or
        nothing."""
        pairs = list(other.items() if isinstance(other, Mapping) else other) + list(values.items())
        for key, _ in pairs:
            _encode_key(key)
        self._drumlin_write(self._drumlin_update_now, pairs)

    def _drumlin_update_now(self, pairs: list[tuple[str, Any]]) -> None:
        if not pairs:
            return
        if self._drumlin_target is not None:
            payload = self._drumlin_many_json(dict(pairs))
            handle = self._ptr()
            with self._drumlin_lock:
                _ffi.drumlin_dict_insert_many_json(handle, payload)
            return
        raw = self._drumlin_raw()
        for key, value in pairs:
            raw[key] = self._drumlin_plain(value)
        self._drumlin_rewrite(raw)

    def _drumlin_erase_now(self, key: object) -> bool:
        ckey = _lookup_key(key)
        if ckey is None:
            return False
        handle = self._ptr()
        erased = c_int()
        with self._drumlin_lock:
            _ffi.drumlin_dict_erase(handle, ckey, byref(erased))
        return bool(erased.value)

    __hash__ = None  # type: ignore[assignment]
