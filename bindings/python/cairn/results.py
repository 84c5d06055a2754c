"""``cairn.Results``: a live, read-only sequence of objects over a ``cairn_results`` handle.

Today results come from linkingObjects properties (``dog.owners``) and from
:meth:`Object.linking_objects`; queries (``db.objects``, ``filter``, ``sort``...) will return the
same class. A Results is re-evaluated on every call: ``len(dog.owners)`` after a commit counts the
new links.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from ctypes import byref, c_size_t, c_void_p
from typing import TYPE_CHECKING, Any, overload

from . import _ffi
from ._errors import TypeMismatchError
from ._handle import Handle
from ._marshal import take_string
from .object import Object
from .values import ejson_loads

if TYPE_CHECKING:
    from ._schema import ClassInfo
    from .database import Database

__all__ = ["Results"]


class Results(Handle, Sequence[Object]):
    """A live, read-only sequence of :class:`~cairn.Object`.

    ``len(results)``, ``results[i]`` (negative indexes too), ``results[a:b]`` (a list), iteration,
    ``in``, ``to_list()`` (the objects, as a list) and ``to_dicts()`` (a snapshot of every object
    as a dict, in one read). Results cannot be assigned to or changed.
    """

    __slots__ = ("_cairn_class", "_cairn_db", "_cairn_owner")

    _kind = "results"
    _cairn_db: Database
    _cairn_class: ClassInfo
    _cairn_owner: Object | None

    def __init__(self, db: Database, info: ClassInfo, handle: Any, owner: Object | None = None) -> None:
        # Results come from the library, never from user code.
        self._cairn_h = handle
        self._cairn_db = db
        self._cairn_class = info
        self._cairn_owner = owner  # keeps the object alive whose backlinks these are

    @classmethod
    def _backlinks(cls, owner: Object, property_name: bytes, origin: ClassInfo) -> Results:
        """The objects of class ``origin`` linking to ``owner``: ``property_name`` is a
        linkingObjects property, or ``@links.<Class>.<property>``."""
        db = owner._cairn_db
        handle = owner._ptr()
        out = _ffi.cairn_results_p()
        with owner._cairn_lock:
            _ffi.cairn_object_get_backlinks(handle, property_name, byref(out))
        return cls(db, origin, out, owner)

    def _release(self, handle: Any) -> None:
        _ffi.cairn_results_release(handle)

    def __len__(self) -> int:
        count = c_size_t()
        _ffi.cairn_results_count(self._ptr(), byref(count))
        return count.value

    @overload
    def __getitem__(self, index: int) -> Object: ...

    @overload
    def __getitem__(self, index: slice) -> list[Object]: ...

    def __getitem__(self, index: int | slice) -> Object | list[Object]:
        if isinstance(index, slice):
            return [self._get(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, bool) or not hasattr(index, "__index__"):
            raise TypeMismatchError(f"results indices must be integers or slices, not {type(index).__name__}")
        index = index.__index__()
        size = len(self)
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError(f"Index {index} is out of bounds for results of size {size}.")
        return self._get(position)

    def _get(self, position: int) -> Object:
        out = _ffi.cairn_object_p()
        _ffi.cairn_results_get_object(self._ptr(), position, byref(out))
        return self._cairn_class.object_type(self._cairn_db, out)

    def __iter__(self) -> Iterator[Object]:
        for position in range(len(self)):
            yield self._get(position)

    def to_list(self) -> list[Object]:
        """The objects, as a plain list (a snapshot of which objects are in the results)."""
        return list(self)

    def to_dicts(self) -> list[dict[str, Any]]:
        """Every object as a dict (as ``Object.to_dict()``), in one read."""
        out = c_void_p()
        _ffi.cairn_results_to_json(self._ptr(), byref(out))
        result: list[dict[str, Any]] = ejson_loads(take_string(out))
        return result

    def __reduce__(self) -> Any:
        raise TypeError("cairn.Results is a live view and cannot be pickled; use to_dicts()")

    def __repr__(self) -> str:
        name = f"cairn.Results {self._cairn_class.name}"
        if self._cairn_h is None:
            return f"<{name} (closed)>"
        try:
            return f"<{name} size={len(self)}>"
        except Exception:
            return f"<{name} (unreadable)>"
