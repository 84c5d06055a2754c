"""The base of every Python object that owns a C handle.

- ``_ptr()`` returns the handle, or raises :class:`MisuseError` once it is closed;
- ``close()`` is idempotent; ``with`` closes on exit;
- ``__del__`` (:class:`Handle`, not :class:`HandleBase`) is a safety net that releases a handle
  nobody closed, except while the interpreter shuts down (module globals, and the library's own
  runtime, may already be gone by then). Objects (``object.py``) and Results derive from
  :class:`HandleBase`: most objects never hold a handle (they keep their row), and the results of
  a lookup seldom open one, so the safety net is on the handle itself (:class:`OwnedPointer`),
  paid only by the owners that have one.

Children keep a Python reference to their parent (an Object to its Database), mirroring the C
rule, so the garbage collector can never close a database under a live object.
"""

from __future__ import annotations

import sys
import threading
from ctypes import addressof, c_void_p
from typing import Any, ClassVar, TypeVar

from . import _ffi
from ._errors import MisuseError

_is_finalizing = sys.is_finalizing
_H = TypeVar("_H", bound="HandleBase")

UNOPENED: Any = object()
"""A handle not opened yet: objects that can answer reads without one (collection views of values,
Results of ``db.query`` whose rows were read with the query) open theirs on first need, under
:data:`OPENING`."""
OPENING = threading.Lock()


class HandleBase:
    """An owner of one C handle (``_drumlin_h``), without a finalizer."""

    __slots__ = ("__weakref__", "_drumlin_h")

    _drumlin_h: Any
    _kind = "handle"

    def _ptr(self) -> Any:
        handle = self._drumlin_h
        if handle is UNOPENED:
            with OPENING:
                handle = self._drumlin_h
                if handle is UNOPENED:
                    handle = self._drumlin_h = self._open()
        if handle is None:
            raise MisuseError(self._closed_message())
        return handle

    def _closed_message(self) -> str:
        return f"This {self._kind} is closed."

    def _open(self) -> Any:
        """The handle of an owner made UNOPENED, opened when :meth:`_ptr` first needs it."""
        raise NotImplementedError

    def _release(self, handle: Any) -> None:
        raise NotImplementedError

    @property
    def is_closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._drumlin_h is None

    def close(self) -> None:
        """Release the C handle. Calling it again does nothing."""
        handle = self._drumlin_h
        if handle is not None:
            object.__setattr__(self, "_drumlin_h", None)
            self._release(handle)

    def __enter__(self: _H) -> _H:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Handle(HandleBase):
    """A :class:`HandleBase` whose garbage collection releases a handle nobody closed."""

    __slots__ = ()

    def __del__(self, _is_finalizing: Any = _is_finalizing) -> None:
        try:
            handle = self._drumlin_h
        except AttributeError:  # __init__ failed before the handle was set
            return
        if handle is None or handle is UNOPENED or _is_finalizing():
            return
        object.__setattr__(self, "_drumlin_h", None)
        try:
            self._release(handle)
        except Exception:  # nothing can be reported from __del__
            pass


_pointer_word = c_void_p  # writes a handle cell in place (release sets it to NULL)


class OwnedPointer:
    """A C handle owned by one Python object, mixed into a ctypes pointer type
    (``class ObjectHandle(OwnedPointer, drumlin_object_p)``): released once, by :meth:`release`
    (its owner's ``close()``) or, as a safety net, when it is garbage, except while the interpreter
    shuts down. Its owner then needs no finalizer: a finalizer costs every owner, 0.08 us each, and
    most objects and lookups' results never open a handle."""

    __slots__ = ()

    # The plain pointer type, and the name of the C function releasing one (set by each subclass;
    # the function is looked up when called, so tests can wrap it).
    _plain: ClassVar[Any]
    _free: ClassVar[str]

    def release(self) -> None:
        """Release the handle (once; the pointer is NULL afterwards)."""
        if self:
            handle = self._plain.from_buffer_copy(self)
            _pointer_word.from_address(addressof(self)).value = None  # type: ignore[arg-type]
            getattr(_ffi, self._free)(handle)

    def __del__(self, _is_finalizing: Any = _is_finalizing) -> None:
        if self and not _is_finalizing():
            try:
                self.release()
            except Exception:  # nothing can be reported from __del__
                pass


# The handles of collection views (collection.py), each owned by one view.


class ListHandle(OwnedPointer, _ffi.drumlin_list_p):  # type: ignore[misc,valid-type]
    """A list handle owned by one :class:`~drumlin.List` (see ``OwnedPointer``)."""

    _type_ = _ffi._drumlin_list
    _plain = _ffi.drumlin_list_p
    _free = "drumlin_list_release"


class SetHandle(OwnedPointer, _ffi.drumlin_set_p):  # type: ignore[misc,valid-type]
    """A set handle owned by one :class:`~drumlin.Set` (see ``OwnedPointer``)."""

    _type_ = _ffi._drumlin_set
    _plain = _ffi.drumlin_set_p
    _free = "drumlin_set_release"


class DictionaryHandle(OwnedPointer, _ffi.drumlin_dict_p):  # type: ignore[misc,valid-type]
    """A dictionary handle owned by one :class:`~drumlin.Dictionary` (see ``OwnedPointer``)."""

    _type_ = _ffi._drumlin_dict
    _plain = _ffi.drumlin_dict_p
    _free = "drumlin_dict_release"
