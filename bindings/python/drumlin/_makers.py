"""How objects read as rows are made: one set of functions per generated class (``ClassMakers``,
kept as ``ClassInfo.makers``), each making objects without going through ``Object.__setattr__``
(see below). The property accessors (``_accessors``) install them with the class."""

from __future__ import annotations

from collections.abc import Iterable
from types import FunctionType
from typing import TYPE_CHECKING, Any, Callable

from ._rows import NO_ROW

if TYPE_CHECKING:
    from .database import Database
    from .object import Object


# Building an object: an instance of the generated class's builder class (``builder_class``: a
# subclass adding nothing but object.__setattr__, so every slot is set by the interpreter's own
# slot store, not through Object.__setattr__), then made an instance of the generated class. Three
# times faster than calling each slot's setter (197 ns against 484 ns on Python 3.11).
_new_object = object.__new__


def builder_class(cls: type[Object]) -> type[Object]:
    """The builder class of the generated class ``cls`` (see above); its instances become
    instances of ``cls`` before anyone sees them."""
    # Both names: CPython fills one type slot (tp_setattro) from __setattr__ and __delattr__, and
    # stores to slots are specialized only when that slot is object's own.
    namespace = {"__slots__": (), "_drumlin_class": cls._drumlin_class, "__setattr__": object.__setattr__,
                 "__delattr__": object.__delattr__, "__module__": cls.__module__}
    return type(cls.__name__, (cls,), namespace)


# The functions making objects of one generated class are copies of the three below, one set per
# class (class_makers), each copy with a code object of its own: CPython keeps the inline caches
# of a function's attribute stores (here the slot stores and the class swap) in its code object,
# and a cache made for one class misses for every other. Shared by every class, the code making
# a Task, its owner and its location missed on each change of class (2.2k instructions of ~90k
# a Task get). The copies bind the class and its builder class as defaults.


def _object_from_row(db: Database, row: tuple[Any, ...], version: int,
                     cls: Any = None, raw: Any = None) -> Any:
    """A managed object of the class keeping ``row`` (read at read version ``version``); its
    object key is the row's last item (see object.Object). No handle until a call needs one."""
    obj = _new_object(raw)
    obj._drumlin_h = None
    obj._drumlin_db = db
    obj._drumlin_row = row
    obj._drumlin_seen = version
    obj.__class__ = cls
    return obj


def _objects_of_rows(db: Database, version: int, rows: Iterable[tuple[Any, ...]],
                     cls: Any = None, raw: Any = None) -> list[Any]:
    """The objects of ``rows`` (read at ``version``), as ``_object_from_row`` makes each (its
    stores inline: a call per object would add a frame to every object of a loop), in a list. A loop over results makes them a page of rows at a time (Results.__iter__): the loop
    then steps through lists in C, where a generator making one object per step costs a resumed
    frame each (range iteration, 18,334 objects: 7.3 → 6.3 ms), and holds one page of objects at
    a time (so Python's cyclic collector does not walk a whole result's objects again and again
    as they age)."""
    objects: list[Any] = []
    append = objects.append
    for row in rows:
        obj = _new_object(raw)
        obj._drumlin_h = None
        obj._drumlin_db = db
        obj._drumlin_row = row
        obj._drumlin_seen = version
        obj.__class__ = cls
        append(obj)
    return objects


def _keyed_object(db: Database, key: int, cls: Any = None, raw: Any = None) -> Any:
    """A managed object of the class known by its object key only (a row of the key alone, no
    read version): its row is read on first use."""
    obj = _new_object(raw)
    obj._drumlin_h = None
    obj._drumlin_db = db
    obj._drumlin_row = (key,)
    obj._drumlin_seen = NO_ROW
    obj.__class__ = cls
    return obj


def own_code(function: Any, defaults: tuple[Any, ...] | None = None) -> Any:
    """A copy of the Python function ``function`` with a code object of its own (see above), its
    defaults replaced by ``defaults`` when given; anything else (a bound method) as it is."""
    if type(function) is not FunctionType:
        return function
    copy = FunctionType(function.__code__.replace(), function.__globals__, function.__name__,
                        function.__defaults__ if defaults is None else defaults, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = function.__qualname__
    return copy


class ClassMakers:
    """The functions making objects of one generated class (``class_makers``)."""

    __slots__ = ("from_row", "keyed", "of_rows")

    def __init__(self, cls: type[Object]) -> None:
        bound = (cls, builder_class(cls))
        # from_row(db, row, version), of_rows(db, version, rows), keyed(db, key)
        self.from_row: Callable[[Database, tuple[Any, ...], int], Any] = own_code(_object_from_row, bound)
        self.of_rows: Callable[[Database, int, Iterable[tuple[Any, ...]]], list[Any]] = own_code(_objects_of_rows, bound)
        self.keyed: Callable[[Database, int], Any] = own_code(_keyed_object, bound)
