"""bounds.py — the library calls a Python object-API step makes, timed alone (issue #20).

Each function here makes exactly the crossings the documented API makes for one step (the same
internal entry points of ``drumlin._rows``, every argument built beforehand, the packed rows
decoded by ``marshal.loads``) and nothing else: no ``Object``, no descriptor, no attribute read.
No Python code on top of these calls can be faster than the calls themselves, so where one of
these runs below ``sqlite3``'s whole step, that step's object API cannot reach 1.0× through
ctypes; the object API's ratio next to it shows how close it comes. The floors (below) add the
least pure-Python live-object work to the same calls. The calls are internal, for this
measurement only: nothing here is API.
"""
from __future__ import annotations

import gc
import statistics
import threading
import time
from datetime import datetime
from decimal import Decimal
from itertools import chain
from ctypes import byref
from typing import Any, Callable

from drumlin import _ffi, _rows
from drumlin import object as _object
from drumlin.results import encode_query, query_args

WAY = "bound: the library calls alone, no objects (internal)"


def get(db: Any, class_name: str, ids: range) -> Callable[[], None]:
    """``db.get(class_name, i)`` for each i: one ``drumlin_object_find_row``, whose row carries
    what reading the object's links, short collections of values and embedded objects takes."""
    access = db._class(class_name).rows
    find_row = _rows.find_row

    def run() -> None:
        for i in ids:
            find_row(access, i)

    return run


def query(db: Any, class_name: str, text: str, args_list: list[tuple]) -> Callable[[], None]:
    """Iterating ``db.query(class_name, text, *args)`` for each args: ``drumlin_query_first_rows``
    (and, for results of more than its first rows, a results handle and
    ``drumlin_results_get_rows`` page by page, as a loop reads them)."""
    info = db._class(class_name)
    access = info.rows
    ctext = encode_query(text)
    prepared = [query_args(args) for args in args_list]
    first_rows = _rows.query_first_rows

    def run() -> None:
        for cargs in prepared:
            if first_rows(access, ctext, cargs) is None:
                for _page in _pages(db, info, ctext, cargs):
                    pass

    return run


class _Handle:
    """A results handle as ``_rows.results_pages`` takes it (an object with ``_ptr()``)."""

    __slots__ = ("handle",)

    def _ptr(self) -> Any:
        return self.handle


def _pages(db: Any, info: Any, ctext: bytes, cargs: Any) -> Any:
    """The pages of rows a loop over ``db.query(...)``'s results reads, from a results handle of
    its own (released when the pages are done)."""
    results = _Handle()
    results.handle = _ffi.drumlin_results_p()
    _ffi.drumlin_query(db._ptr(), info.cname, ctext, cargs, byref(results.handle))
    try:
        yield from _rows.results_pages(db, results, info.rows, info.rows.version.value)
    finally:
        _ffi.drumlin_results_release(results.handle)


def update(db: Any, class_name: str, keys: list[int], prop: str, values: list[Any],
           get_first: bool) -> Callable[[], None]:
    """``obj.prop = value`` on objects read before (``get_first``: ``db.get(...).prop = value``)
    in one write: one ``drumlin_object_write_by_key`` each, the key and number packed into the
    property's record (and a ``drumlin_object_find_row`` before each, for ``get_first``)."""
    info = db._class(class_name)
    access = info.rows
    accessor = getattr(info.object_type, prop)
    cells, record = accessor.cells
    pack_into, value_type = _object._PACKED_WRITES[type(values[0])]
    write_by_key = _object._write_by_key_unchecked
    find_row = _rows.find_row
    object_keys = [db.get(class_name, k)._drumlin_key for k in keys]
    pairs = list(zip(keys, object_keys, values))

    def run() -> None:
        with db.write():
            for key, object_key, value in pairs:
                if get_first:
                    find_row(access, key)
                pack_into(cells, 0, object_key, value_type, value)
                if write_by_key(record):
                    raise RuntimeError("write_by_key failed")

    return run


def settle(db: Any = None, con: Any = None) -> None:
    """The end of a write step's reset, untimed: the file compacted and its write-ahead log
    emptied (``db.compact()``; ``VACUUM`` and a truncating checkpoint for ``sqlite3``'s ``con``).
    SQLite checkpoints the log into the file when a commit finds it past 1000 pages, and a 20k-row
    update writes ~240: left alone, the checkpoint lands in one timed step in four or so, whichever
    it is, and the same step took 38 or 65 ms by that alone. Settled, every timed write starts
    from an empty log and none pays a checkpoint."""
    if db is not None:
        db.compact()
    if con is not None:
        con.execute("VACUUM")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def time_plan(plan: list[tuple], runs: int) -> dict[str, float]:
    """Medians of ``runs`` timings of each way of each step, keyed ``label|way`` (``sqlite3`` for
    the peer). A step is ``(label, ops, ways, sqlite3_fn)`` or, for a step that writes, ``(label,
    ops, ways, sqlite3_fn, (reset_drumlin, reset_sqlite3))``: the reset runs after each timing,
    untimed, and puts back the values the step found, so every timed write changes what is stored
    on both sides. (SQLite skips writing a page whose cell would not change; a step writing the
    values already stored measures that shortcut, not an update.) Each reset ends with
    :func:`settle`."""
    times: dict[str, list[float]] = {}
    for _ in range(runs):
        for label, _ops, ways, peer, *resets in plan:
            if resets:  # the first timing starts settled too
                resets[0][0]()
                resets[0][1]()
            for name, fn in [("sqlite3", peer)] + ways:
                gc.collect()
                t0 = time.perf_counter()
                fn()
                times.setdefault(label + "|" + name, []).append(time.perf_counter() - t0)
                if resets:
                    resets[0][1 if name == "sqlite3" else 0]()
    return {key: statistics.median(values) for key, values in times.items()}


# ---- Floors: the least pure-Python object layer over the same calls -------------------------------
#
# Where a bound is above 1.0× but the object API's step is below, the difference is the Python
# object layer. A floor row adds to the bound's calls the least work any pure-Python live-object
# API must do for the step: a query function and a results object, one object per row (made with
# object.__new__ and two slot stores: its row and the read version it was read at, a page of rows
# into a list at a time), and each attribute read through a property whose getter checks that
# version (a Python frame: the check is what keeps a kept row live). No handle, no projection, no re-evaluation, no error paths: nothing a
# real API could do without. Where a floor is below 1.0×, the target is out of reach in pure Python.

FLOOR = "floor: the same calls under the least pure-Python live objects (internal)"
GUARDED_FLOOR = "floor, model class: its objects of a class with a __dict__ whose __setattr__ refuses unknown names (internal)"
"""A second floor for a loop over results (:func:`query_floor` with ``guarded``): the floor's
objects made as the package must make them, for classes users declare. Such a class has a
``__dict__``, so only a Python ``__setattr__`` keeps ``obj.nmae = x`` from adding an attribute;
the objects are then made as instances of a builder subclass with object's own ``__setattr__``
(the slot stores stay the interpreter's) and given their class after (a class swap). Where both
floors are shown, the verdict takes this one."""


def verdicts(ways: list[tuple[str, float, bool]]) -> list[str]:
    """The "met?" column of one step's ways, given in their order as (name, ratio to sqlite3,
    has a target): "yes", or "NO" with the reason when the bound or floor row after a missed way
    (before the next way with a target) is below 1.0x, which shows the target out of reach."""
    out = []
    for i, (_name, ratio, targeted) in enumerate(ways):
        if not targeted:
            out.append("—")
            continue
        if ratio >= 1.0:
            out.append("yes")
            continue
        bound = floor = None
        which = "floor"
        for name, other, other_targeted in ways[i + 1:]:
            if other_targeted:
                break
            if name.startswith(GUARDED_FLOOR):
                floor, which = other, "model-class floor"  # follows the plain floor, and wins
            elif name.startswith(FLOOR):
                floor = other
            elif name.startswith(WAY):
                bound = other
        if floor is not None and floor < 1.0:
            out.append(f"NO: out of reach in pure Python ({which} {floor:.2f}×)")
        elif bound is not None and bound < 1.0:
            out.append(f"NO: out of reach with these calls (bound {bound:.2f}×)")
        else:
            out.append("NO")
    return out


def _read(index: int, version: Any) -> property:
    """A property reading one column of the kept row, if the read version is unchanged:
    ``property``'s own ``__get__`` calling one Python function, the cheapest read a pure-Python
    descriptor has (the object API's accessors are built the same way)."""

    def get(obj: Any, index: int = index, version: Any = version) -> Any:
        if obj.seen == version.value:
            return obj.row[index]
        raise RuntimeError("the floor's rows are read at one version")

    return property(get)


def _floor_class(info: Any, names: tuple[str, ...]) -> type:
    namespace: dict[str, Any] = {"__slots__": ("row", "seen")}
    for name in names:
        namespace[name] = _read(info.by_name[name].index, info.rows.version)
    return type("Floor" + info.name, (), namespace)


def _refuse(obj: Any, name: str, value: Any) -> None:
    raise AttributeError(f"{type(obj).__name__!r} has no property {name!r}")


def _guarded(base: type) -> tuple[type, type]:
    """A floor class ``base`` as a model class is (see ``GUARDED_FLOOR``): a class the user
    declares has a ``__dict__``, so an assignment to a misspelt name would add an attribute unless
    ``__setattr__`` refuses it. Returns the class and its builder (the same class with object's
    own ``__setattr__``, whose instances take slot stores from the interpreter and are then given
    the class)."""
    base.__setattr__ = _refuse  # type: ignore[assignment,method-assign]
    made = type("Guarded" + base.__name__, (base,), {})  # no __slots__: a __dict__, as a user's class
    builder = type(made.__name__, (made,), {"__slots__": (), "__setattr__": object.__setattr__,
                                           "__delattr__": object.__delattr__})
    return made, builder


def _guarded_class(info: Any, names: tuple[str, ...]) -> tuple[type, type]:
    """:func:`_floor_class` as a model class, and its builder (:func:`_guarded`)."""
    return _guarded(_floor_class(info, names))


def _page_maker(made: type, seen: int, builder: type | None = None) -> Callable[[list[tuple]], list[Any]]:
    """The objects of a page of rows, in a list (a loop steps through lists in C). Two loops
    rather than one testing ``builder`` per row: each floor is the least code for its objects."""
    new = object.__new__

    def make(rows: list[tuple]) -> list[Any]:
        objects = []
        append = objects.append
        for row in rows:
            obj = new(made)
            obj.row = row
            obj.seen = seen
            append(obj)
        return objects

    def make_guarded(rows: list[tuple]) -> list[Any]:
        objects = []
        append = objects.append
        for row in rows:
            obj = new(builder)
            obj.row = row
            obj.seen = seen
            obj.__class__ = made
            append(obj)
        return objects

    return make if builder is None else make_guarded


def query_floor(db: Any, class_name: str, text: str, args_list: list[tuple], names: tuple[str, ...],
                guarded: bool = False) -> Callable[[], None]:
    """``for o in db.query(class_name, text, *args): o.<names>`` for each args, over
    ``query()``'s calls (as :func:`query`), in the least pure-Python live objects."""
    info = db._class(class_name)
    version = info.rows.version
    classes = {class_name: info}
    first_rows = _rows.query_first_rows
    new = object.__new__
    made, builder = _guarded_class(info, names) if guarded else (_floor_class(info, names), None)

    class Results:
        __slots__ = ("pages", "seen")

        def __iter__(self) -> Any:
            return chain.from_iterable(map(_page_maker(made, self.seen, builder), self.pages))

    def query(name: str, text: str, *args: Any) -> Any:
        info = classes[name]
        ctext = encode_query(text)
        cargs = query_args(args)
        results = new(Results)
        results.seen = version.value
        rows = first_rows(info.rows, ctext, cargs)
        results.pages = (rows,) if rows is not None else _pages(db, info, ctext, cargs)
        return results

    # The step's own loop, its attribute reads written out as the step writes them.
    reads = ", ".join(f"obj.{name}" for name in names)
    scope = {"args_list": args_list, "query": query, "class_name": class_name, "text": text}
    exec(
        "def run():\n"
        "    for args in args_list:\n"
        "        for obj in query(class_name, text, *args):\n"
        f"            {reads}\n",
        scope,
    )
    return scope["run"]  # type: ignore[no-any-return]


def _tagged(index: int, version: Any) -> property:
    """:func:`_read` of a value kept as a tagged tuple (a float, an ObjectId, a UUID, a mixed
    value), converted when read as the object API converts it."""
    tagged = _rows.TAGGED

    def get(obj: Any, index: int = index, version: Any = version) -> Any:
        if obj.seen != version.value:
            raise RuntimeError("the floor's rows are read at one version")
        value = obj.row[index]
        return tagged[value[0]](value) if type(value) is tuple else value

    return property(get)


def _date(index: int, version: Any) -> property:
    """:func:`_read` of a date, kept as ISO 8601 text: ``datetime.fromisoformat`` on each read, as
    the object API reads it (and ``sqlite3``'s side converts its text)."""
    fromisoformat = datetime.fromisoformat

    def get(obj: Any, index: int = index, version: Any = version) -> Any:
        if obj.seen != version.value:
            raise RuntimeError("the floor's rows are read at one version")
        return fromisoformat(obj.row[index])

    return property(get)


def _decimal(index: int, version: Any) -> property:
    """:func:`_read` of a decimal, kept as its tagged text: ``Decimal`` of the text on each read,
    as the object API reads it (and ``sqlite3``'s side converts its text)."""

    def get(obj: Any, index: int = index, version: Any = version) -> Any:
        if obj.seen != version.value:
            raise RuntimeError("the floor's rows are read at one version")
        value = obj.row[index]
        return None if value is None else Decimal(value[1])

    return property(get)


class _View:
    """The least live view of a short collection: the items carried in the owner's row and the
    version they were read at, checked by ``len()`` and iteration (a Python frame each: the check
    is what keeps the view live; ``list(view)`` calls both, as it does for any sized iterable)."""

    __slots__ = ("items", "seen", "version")

    def __len__(self) -> int:
        if self.seen != self.version.value:
            raise RuntimeError("the floor's rows are read at one version")
        return len(self.items)

    def __iter__(self) -> Any:
        if self.seen != self.version.value:
            raise RuntimeError("the floor's rows are read at one version")
        return iter(self.items)


def _related(index: int, version: Any, kind: str, made: Any, builder: Any = None) -> property:
    """A link's target or an embedded object (its row carried in the owner's row): a floor
    object over that row (made as an instance of ``builder``, then of ``made``, when given); a
    collection: a :class:`_View` of the items carried in the owner's row."""

    if builder is not None:
        def get_guarded(obj: Any) -> Any:
            if obj.seen != version.value:
                raise RuntimeError("the floor's rows are read at one version")
            related = object.__new__(builder)
            related.row = obj.row[index][3]
            related.seen = obj.seen
            related.__class__ = made
            return related

        return property(get_guarded)

    def get(obj: Any) -> Any:
        if obj.seen != version.value:
            raise RuntimeError("the floor's rows are read at one version")
        value = obj.row[index]
        if kind == "list":
            view = object.__new__(_View)
            view.items = value
            view.seen = obj.seen
            view.version = version
            return view
        related = object.__new__(made)
        related.row = value[3]
        related.seen = obj.seen
        return related

    return property(get)


def get_related_floor(db: Any, class_name: str, ids: range, names: tuple[str, ...], link: tuple[str, tuple[str, ...]],
                      collection: str, embedded: tuple[str, tuple[str, ...]], guarded: bool = False) -> Callable[[], None]:
    """``db.get(class_name, i)``, its ``names``, the link's target's attributes, ``list()`` of a
    short collection and an embedded object's attributes, over :func:`get`'s one call, in the
    least pure-Python live objects (one per object read, dates and decimals converted when read);
    with ``guarded``, each of model classes (``GUARDED_FLOOR``)."""
    made_as = _guarded if guarded else (lambda made: (made, None))
    info = db._class(class_name)
    access = info.rows
    version = access.version
    namespace: dict[str, Any] = {"__slots__": ("row", "seen")}
    readers = {_ffi.DRUMLIN_PROPERTY_DATE: _date, _ffi.DRUMLIN_PROPERTY_DECIMAL128: _decimal}
    for name in names:
        prop = info.by_name[name]
        tagged = prop.type in _rows.TAGGED_PROPERTY_TYPES or prop.type == _ffi.DRUMLIN_PROPERTY_MIXED
        reader = readers.get(prop.type, _tagged if tagged else _read)
        namespace[name] = reader(prop.index, version)
    link_name, link_names = link
    target_info = db._class(info.by_name[link_name].object_type)
    namespace[link_name] = _related(info.by_name[link_name].index, version, "link",
                                    *made_as(_floor_class(target_info, link_names)))
    embedded_name, embedded_names = embedded
    embedded_info = db._class(info.by_name[embedded_name].object_type)
    namespace[embedded_name] = _related(info.by_name[embedded_name].index, version, "embedded",
                                        *made_as(_floor_class(embedded_info, embedded_names)))
    namespace[collection] = _related(info.by_name[collection].index, version, "list", None)
    made, builder = made_as(type("Floor" + info.name, (), namespace))
    find_row = _rows.find_row
    new = object.__new__

    def get(i: int) -> Any:
        obj = new(made)
        obj.row = find_row(access, i)
        obj.seen = version.value
        return obj

    def get_guarded(i: int) -> Any:
        obj = new(builder)
        obj.row = find_row(access, i)
        obj.seen = version.value
        obj.__class__ = made
        return obj

    # The step's own loop, its reads written out as the step writes them.
    reads = ", ".join([f"obj.{name}" for name in names] + [f"obj.{link_name}.{n}" for n in link_names])
    embedded_reads = ", ".join(f"inner.{n}" for n in embedded_names)
    scope = {"ids": ids, "get": get if builder is None else get_guarded}
    exec(
        "def run():\n"
        "    for i in ids:\n"
        "        obj = get(i)\n"
        f"        {reads}\n"
        f"        list(obj.{collection})\n"
        f"        inner = obj.{embedded_name}\n"
        f"        {embedded_reads}\n",
        scope,
    )
    return scope["run"]  # type: ignore[no-any-return]


def update_floor(db: Any, class_name: str, keys: list[int], prop: str, expression: str) -> Callable[[], None]:
    """``obj.prop = <expression>`` for ``i, obj in enumerate(objects)`` (the step's own loop) on
    objects read before, in one write, over :func:`update`'s calls: objects holding their object
    key, whose ``__setattr__`` (a Python frame: an attribute write must check it is inside this
    thread's write) packs the value and makes the call."""
    info = db._class(class_name)
    accessor = getattr(info.object_type, prop)
    packed = {prop: accessor.cells}
    write_by_key = _object._write_by_key_unchecked
    writes = _object._PACKED_WRITES
    get_ident = threading.get_ident

    class Floor:
        __slots__ = ("key",)

        def __setattr__(self, name: str, value: Any) -> None:
            cells = packed.get(name)
            if cells is not None and db._writer == get_ident():
                pack_into, value_type = writes[type(value)]
                view, record = cells
                pack_into(view, 0, self.key, value_type, value)
                if write_by_key(record):
                    raise RuntimeError("write_by_key failed")
                return
            object.__setattr__(self, name, value)

    objects = []
    for k in keys:
        obj = object.__new__(Floor)
        object.__setattr__(obj, "key", db.get(class_name, k)._drumlin_key)
        objects.append(obj)
    # The step's own loop, its value computed as the step computes it.
    scope = {"db": db, "objects": objects}
    exec(
        "def run():\n"
        "    with db.write():\n"
        "        for i, obj in enumerate(objects):\n"
        f"            obj.{prop} = {expression}\n",
        scope,
    )
    return scope["run"]  # type: ignore[no-any-return]
