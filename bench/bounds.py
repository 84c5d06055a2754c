"""bounds.py — the library calls a Python object-API step makes, timed alone (issue #20).

Each function here makes exactly the crossings the documented API makes for one step (the same
internal entry points of ``drumlin._rows``, every argument built beforehand, the packed rows
decoded by ``marshal.loads``) and nothing else: no ``Object``, no descriptor, no attribute read.
No Python code on top of these calls can be faster than the calls themselves, so where one of
these runs below ``sqlite3``'s whole step, that step's object API cannot reach 1.0× through
ctypes; the object API's ratio next to it shows how close it comes. The calls are internal, for
this measurement only: nothing here is API.
"""
from __future__ import annotations

from ctypes import byref, c_int64
from typing import Any, Callable

from drumlin import _ffi, _rows
from drumlin import object as _object
from drumlin.results import encode_query, query_args

WAY = "bound: the library calls alone, no objects (internal)"


def get(db: Any, class_name: str, ids: range) -> Callable[[], None]:
    """``db.get(class_name, i)`` for each i: one ``drumlin_object_find_row``."""
    access = db._class(class_name).rows
    find_row = _rows.find_row

    def run() -> None:
        for i in ids:
            find_row(access, i)

    return run


def query(db: Any, class_name: str, text: str, args_list: list[tuple]) -> Callable[[], None]:
    """Iterating ``db.query(class_name, text, *args)`` for each args: ``drumlin_query_first_rows``
    (and, for results of more than its first rows, a results handle and
    ``drumlin_results_get_rows``)."""
    info = db._class(class_name)
    access = info.rows
    ctext = encode_query(text)
    prepared = [query_args(args) for args in args_list]
    first_rows = _rows.query_first_rows
    results_rows = _rows.results_rows

    def run() -> None:
        for cargs in prepared:
            if first_rows(access, ctext, cargs) is None:
                handle = _ffi.drumlin_results_p()
                _ffi.drumlin_query(db._ptr(), info.cname, ctext, cargs, byref(handle))
                results_rows(access, handle)
                _ffi.drumlin_results_release(handle)

    return run


def get_related(db: Any, class_name: str, ids: range, link: str, collection: str) -> Callable[[], None]:
    """``db.get(class_name, i)`` then the link's target's attributes and ``list()`` of a collection:
    ``drumlin_object_find_row``, then ``drumlin_object_read_row`` of the target (by the key in the
    row) and ``drumlin_object_read_marshal`` of the collection."""
    info = db._class(class_name)
    access = info.rows
    link_index = info.by_name[link].index
    target = db._class(info.by_name[link].object_type).rows
    indices = _rows.one_index(info.by_name[collection].index)
    find_row, read_row, read_values = _rows.find_row, _rows.read_row, _rows.read_values
    key_at = len(info.properties)  # a row's last item is the object key

    def run() -> None:
        for i in ids:
            row = find_row(access, i)
            read_row(target, row[link_index][2])
            read_values(access, row[key_at], indices)

    return run


def update(db: Any, class_name: str, keys: list[int], prop: str, values: list[Any],
           get_first: bool) -> Callable[[], None]:
    """``obj.prop = value`` on objects read before (``get_first``: ``db.get(...).prop = value``)
    in one write: one ``drumlin_object_set_by_key`` each, the number packed into a value cell
    (and a ``drumlin_object_find_row`` before each, for ``get_first``)."""
    info = db._class(class_name)
    access = info.rows
    accessor = getattr(info.object_type, prop)
    cell, _, class_index, index, pcell = accessor.cells
    pack_into, value_type = _object._PACKED_WRITES[type(values[0])]
    set_by_key = _object._set_by_key_unchecked
    find_row = _rows.find_row
    handle = access.db
    object_keys = [c_int64(db.get(class_name, k)._drumlin_key) for k in keys]
    pairs = list(zip(keys, object_keys, values))

    def run() -> None:
        with db.write():
            for key, object_key, value in pairs:
                if get_first:
                    find_row(access, key)
                pack_into(cell, 0, value_type, value)
                if set_by_key(handle, class_index, object_key, index, pcell):
                    raise RuntimeError("set_by_key failed")

    return run
