"""Loads libcairn and declares its C functions; nothing else lives here.

Every function of include/cairn.h appears once, under its C name, with its prototype as a comment.
Functions returning a status get ``errcheck=_check``: ``CAIRN_OK`` and ``CAIRN_NOT_FOUND`` pass
through as the call's result, any other status raises the matching exception from ``_errors``
with the thread's last error message.

ctypes rules followed here (reference/feasibility.md §3):

- ``char **out_json`` is ``POINTER(c_void_p)``: the caller copies with ``string_at`` and frees the
  pointer with ``cairn_free`` (a ``c_char_p`` out would convert and leak).
- Borrowed strings (``cairn_last_error_message``, ``cairn_version``, names owned by the handle)
  are ``c_char_p``: ctypes copies them into ``bytes``.
- Handles are pointers to distinct opaque structures, so passing a database where an object is
  expected fails in Python, before the call.

The library is found via ``CAIRN_LIBRARY``, then the copy bundled inside the package, then the
repository's build trees (when the package runs from a source checkout), then the system search
path. Its ``cairn_abi_version()`` must equal :data:`ABI_VERSION`, else importing fails.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (
    POINTER,
    Structure,
    Union,
    c_char_p,
    c_double,
    c_float,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import Any

from . import _errors

ABI_VERSION = 1
"""The ``CAIRN_ABI_VERSION`` this package was written against."""

_LIBRARY_FILE = {"darwin": "libcairn.dylib", "win32": "cairn.dll"}.get(sys.platform, "libcairn.so")

# ---- Finding and loading the library -------------------------------------------------------------


def _candidates() -> list[Path]:
    """Where to look, in order, when ``CAIRN_LIBRARY`` is not set."""
    here = Path(__file__).resolve().parent
    found = [here / _LIBRARY_FILE]
    # bindings/python/cairn -> the repository root, when running from a checkout.
    root = here.parent.parent.parent
    if (root / "include" / "cairn.h").is_file():
        for build in (".build/release", ".build/debug", "build"):
            found.append(root / build / _LIBRARY_FILE)
    return found


def _load() -> tuple[ctypes.CDLL, str]:
    explicit = os.environ.get("CAIRN_LIBRARY")
    if explicit:
        # An explicit choice is honoured or reported, never silently replaced by another copy.
        try:
            return ctypes.CDLL(explicit), explicit
        except OSError as error:
            raise ImportError(f"cairn: cannot load CAIRN_LIBRARY={explicit!r}: {error}") from None
    tried = []
    for path in _candidates():
        if path.is_file():
            try:
                return ctypes.CDLL(str(path)), str(path)
            except OSError as error:
                tried.append(f"{path} ({error})")
        else:
            tried.append(str(path))
    system = ctypes.util.find_library("cairn")
    if system:
        try:
            return ctypes.CDLL(system), system
        except OSError as error:
            tried.append(f"{system} ({error})")
    raise ImportError(
        "cairn: libcairn not found. Set CAIRN_LIBRARY to the path of "
        f"{_LIBRARY_FILE}, install the package with `pip install bindings/python`, or build it "
        "with `swift build -c release --product cairn`. Tried: " + ", ".join(tried or ["nothing"])
    )


lib, LIBRARY_PATH = _load()


def _check_abi() -> None:
    # Checked before anything else is declared, so an old library fails here with a clear message
    # rather than on a missing symbol.
    try:
        abi_version = lib.cairn_abi_version
    except AttributeError:
        raise ImportError(f"cairn: {LIBRARY_PATH} is not libcairn (no cairn_abi_version)") from None
    abi_version.argtypes = []
    abi_version.restype = c_int
    found = abi_version()
    if found != ABI_VERSION:
        raise ImportError(
            f"cairn: {LIBRARY_PATH} has ABI version {found}, but this cairn package needs ABI "
            f"version {ABI_VERSION}; use a matching libcairn (set CAIRN_LIBRARY) or reinstall "
            "the package"
        )


_check_abi()

# ---- Status checking ---------------------------------------------------------------------------


def _raise(status: int) -> None:
    """Raise the exception for a failed ``status``, with this thread's last error message."""
    raw = cairn_last_error_message()
    message = raw.decode("utf-8", "replace") if raw else ""
    raise _errors.error_for(status, message)


def _check(status: int, func: Any, args: Any) -> int:
    if status > _errors.NOT_FOUND:
        _raise(status)
    return status


def _check_not_null(result: Any, func: Any, args: Any) -> Any:
    if not result:
        raise MemoryError(f"{func.__name__} returned NULL")
    return result


def _fn(name: str, argtypes: list[Any], restype: Any = c_int, errcheck: Any = _check) -> Any:
    func = getattr(lib, name)
    func.argtypes = argtypes
    func.restype = restype
    if errcheck is not None:
        func.errcheck = errcheck
    return func


# ---- Constants (include/cairn.h) ---------------------------------------------------------------

CAIRN_TYPE_NULL = 0
CAIRN_TYPE_INT = 1
CAIRN_TYPE_BOOL = 2
CAIRN_TYPE_STRING = 3
CAIRN_TYPE_BINARY = 4
CAIRN_TYPE_TIMESTAMP = 5
CAIRN_TYPE_FLOAT = 6
CAIRN_TYPE_DOUBLE = 7
CAIRN_TYPE_DECIMAL128 = 8
CAIRN_TYPE_OBJECT_ID = 9
CAIRN_TYPE_LINK = 10
CAIRN_TYPE_UUID = 11
CAIRN_TYPE_LIST = 12
CAIRN_TYPE_DICTIONARY = 13

CAIRN_PROPERTY_BOOL = 0
CAIRN_PROPERTY_INT = 1
CAIRN_PROPERTY_FLOAT = 2
CAIRN_PROPERTY_DOUBLE = 3
CAIRN_PROPERTY_DECIMAL128 = 4
CAIRN_PROPERTY_STRING = 5
CAIRN_PROPERTY_DATA = 6
CAIRN_PROPERTY_DATE = 7
CAIRN_PROPERTY_OBJECT_ID = 8
CAIRN_PROPERTY_UUID = 9
CAIRN_PROPERTY_MIXED = 10
CAIRN_PROPERTY_OBJECT = 11
CAIRN_PROPERTY_LINKING_OBJECTS = 12

CAIRN_COLLECTION_NONE = 0
CAIRN_COLLECTION_LIST = 1
CAIRN_COLLECTION_SET = 2
CAIRN_COLLECTION_DICTIONARY = 3

CAIRN_PROPERTY_FLAG_OPTIONAL = 1
CAIRN_PROPERTY_FLAG_PRIMARY_KEY = 2
CAIRN_PROPERTY_FLAG_INDEXED = 4
CAIRN_PROPERTY_FLAG_FULLTEXT = 8

CAIRN_CLASS_TOP_LEVEL = 0
CAIRN_CLASS_EMBEDDED = 1
CAIRN_CLASS_ASYMMETRIC = 2

CAIRN_UPDATE_NEVER = 0
CAIRN_UPDATE_MODIFIED = 1
CAIRN_UPDATE_ALL = 2

# ---- Handles and plain structs -----------------------------------------------------------------


class _cairn_db(Structure):
    pass


class _cairn_object(Structure):
    pass


class _cairn_options(Structure):
    pass


class _cairn_results(Structure):
    pass


class _cairn_list(Structure):
    pass


class _cairn_set(Structure):
    pass


class _cairn_dict(Structure):
    pass


cairn_db_p = POINTER(_cairn_db)
cairn_object_p = POINTER(_cairn_object)
cairn_options_p = POINTER(_cairn_options)
cairn_results_p = POINTER(_cairn_results)
cairn_list_p = POINTER(_cairn_list)
cairn_set_p = POINTER(_cairn_set)
cairn_dict_p = POINTER(_cairn_dict)


class cairn_string(Structure):
    # data is c_void_p, not c_char_p: the string is not NUL-terminated and may contain NUL.
    _fields_ = [("data", c_void_p), ("size", c_size_t)]


class cairn_binary(Structure):
    _fields_ = [("data", c_void_p), ("size", c_size_t)]


class _cairn_bytes_in(Structure):
    # Same layout as cairn_string and cairn_binary, for input only: assigning a bytes object to a
    # c_char_p field stores its address and keeps the bytes alive as long as the value.
    _fields_ = [("data", c_char_p), ("size", c_size_t)]


class cairn_timestamp(Structure):
    _fields_ = [("seconds", c_int64), ("nanoseconds", c_int32)]


class cairn_decimal128(Structure):
    _fields_ = [("w", c_uint64 * 2)]


class cairn_object_id(Structure):
    _fields_ = [("bytes", c_uint8 * 12)]


class cairn_uuid(Structure):
    _fields_ = [("bytes", c_uint8 * 16)]


class cairn_link(Structure):
    _fields_ = [("class_index", c_int32), ("key", c_int64)]


class _cairn_value_union(Union):
    _fields_ = [
        ("integer", c_int64),
        ("boolean", c_int),
        ("string", cairn_string),
        ("binary", cairn_binary),
        ("timestamp", cairn_timestamp),
        ("fnum", c_float),
        ("dnum", c_double),
        ("decimal128", cairn_decimal128),
        ("object_id", cairn_object_id),
        ("uuid", cairn_uuid),
        ("link", cairn_link),
        ("bytes_in", _cairn_bytes_in),  # not in the header: the input view of string/binary
    ]


class cairn_value(Structure):
    # `as` is a Python keyword; the member is called `as_` here (the layout is what matters).
    _fields_ = [("type", c_int), ("as_", _cairn_value_union)]


class cairn_property_info(Structure):
    _fields_ = [
        ("name", c_char_p),
        ("stored_name", c_char_p),
        ("type", c_int),
        ("collection", c_int),
        ("object_type", c_char_p),
        ("origin_property", c_char_p),
        ("flags", c_int),
    ]


cairn_value_p = POINTER(cairn_value)

# ---- Library -----------------------------------------------------------------------------------

# const char *cairn_version(void);   -- cannot fail
cairn_version = _fn("cairn_version", [], c_char_p, None)
# int cairn_abi_version(void);   -- cannot fail
cairn_abi_version = _fn("cairn_abi_version", [], c_int, None)
# int cairn_last_error_code(void);   -- cannot fail
cairn_last_error_code = _fn("cairn_last_error_code", [], c_int, None)
# const char *cairn_last_error_message(void);   -- cannot fail; borrowed, copied by ctypes
cairn_last_error_message = _fn("cairn_last_error_message", [], c_char_p, None)
# const char *cairn_status_name(int status);   -- cannot fail, static
cairn_status_name = _fn("cairn_status_name", [c_int], c_char_p, None)
# void cairn_free(void *ptr);
cairn_free = _fn("cairn_free", [c_void_p], None, None)

# ---- Options -----------------------------------------------------------------------------------

# cairn_options *cairn_options_new(void);   -- NULL only when out of memory
cairn_options_new = _fn("cairn_options_new", [], cairn_options_p, _check_not_null)
# void cairn_options_free(cairn_options *options);
cairn_options_free = _fn("cairn_options_free", [cairn_options_p], None, None)
# int cairn_options_set_schema_version(cairn_options *options, uint64_t schema_version);
cairn_options_set_schema_version = _fn("cairn_options_set_schema_version", [cairn_options_p, c_uint64])
# int cairn_options_set_read_only(cairn_options *options, int read_only);
cairn_options_set_read_only = _fn("cairn_options_set_read_only", [cairn_options_p, c_int])
# int cairn_options_set_in_memory(cairn_options *options, int in_memory);
cairn_options_set_in_memory = _fn("cairn_options_set_in_memory", [cairn_options_p, c_int])
# int cairn_options_set_delete_if_migration_needed(cairn_options *options, int delete_if_needed);
cairn_options_set_delete_if_migration_needed = _fn(
    "cairn_options_set_delete_if_migration_needed", [cairn_options_p, c_int]
)

# ---- Database ----------------------------------------------------------------------------------

# int cairn_open(const char *path, const char *schema_json, const cairn_options *options,
#                cairn_db **out_db);
cairn_open = _fn("cairn_open", [c_char_p, c_char_p, cairn_options_p, POINTER(cairn_db_p)])
# int cairn_close(cairn_db *db);
cairn_close = _fn("cairn_close", [cairn_db_p])
# int cairn_schema_json(cairn_db *db, char **out_json);
cairn_schema_json = _fn("cairn_schema_json", [cairn_db_p, POINTER(c_void_p)])
# int cairn_schema_version(cairn_db *db, uint64_t *out_version);
cairn_schema_version = _fn("cairn_schema_version", [cairn_db_p, POINTER(c_uint64)])

# ---- Transactions ------------------------------------------------------------------------------

# int cairn_begin_write(cairn_db *db);
cairn_begin_write = _fn("cairn_begin_write", [cairn_db_p])
# int cairn_commit(cairn_db *db);
cairn_commit = _fn("cairn_commit", [cairn_db_p])
# int cairn_rollback(cairn_db *db);
cairn_rollback = _fn("cairn_rollback", [cairn_db_p])
# int cairn_is_in_write(cairn_db *db, int *out_in_write);
cairn_is_in_write = _fn("cairn_is_in_write", [cairn_db_p, POINTER(c_int)])

# ---- JSON layer --------------------------------------------------------------------------------

# int cairn_create_json(cairn_db *db, const char *class_name, const char *object_json,
#                       int update_mode, char **out_json);
cairn_create_json = _fn("cairn_create_json", [cairn_db_p, c_char_p, c_char_p, c_int, POINTER(c_void_p)])
# int cairn_create_many_json(cairn_db *db, const char *class_name, const char *array_json,
#                            int update_mode, int64_t *out_count);
cairn_create_many_json = _fn(
    "cairn_create_many_json", [cairn_db_p, c_char_p, c_char_p, c_int, POINTER(c_int64)]
)
# int cairn_create_many_marshal(cairn_db *db, const char *class_name, size_t property_count,
#                               const int32_t *property_indices, const void *data, size_t size,
#                               int update_mode, int64_t *out_count);
cairn_create_many_marshal = _fn(
    "cairn_create_many_marshal",
    [cairn_db_p, c_char_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, c_int, POINTER(c_int64)],
)
# int cairn_create_many_values(cairn_db *db, const char *class_name, size_t property_count,
#                              const int32_t *property_indices, size_t row_count, const cairn_value *values,
#                              int update_mode, int64_t *out_count);
cairn_create_many_values = _fn(
    "cairn_create_many_values",
    [cairn_db_p, c_char_p, c_size_t, POINTER(c_int32), c_size_t, cairn_value_p, c_int, POINTER(c_int64)],
)
# int cairn_get_json(cairn_db *db, const char *class_name, const char *primary_key_json,
#                    char **out_json);
cairn_get_json = _fn("cairn_get_json", [cairn_db_p, c_char_p, c_char_p, POINTER(c_void_p)])
# int cairn_query_json(cairn_db *db, const char *class_name, const char *query,
#                      const char *args_json, char **out_json);
cairn_query_json = _fn("cairn_query_json", [cairn_db_p, c_char_p, c_char_p, c_char_p, POINTER(c_void_p)])
# int cairn_count(cairn_db *db, const char *class_name, const char *query, const char *args_json,
#                 int64_t *out_count);
cairn_count = _fn("cairn_count", [cairn_db_p, c_char_p, c_char_p, c_char_p, POINTER(c_int64)])
# int cairn_delete_where(cairn_db *db, const char *class_name, const char *query,
#                        const char *args_json, int64_t *out_deleted);
cairn_delete_where = _fn("cairn_delete_where", [cairn_db_p, c_char_p, c_char_p, c_char_p, POINTER(c_int64)])

# ---- Introspection -----------------------------------------------------------------------------

# int cairn_class_count(cairn_db *db, int32_t *out_count);
cairn_class_count = _fn("cairn_class_count", [cairn_db_p, POINTER(c_int32)])
# int cairn_class_name(cairn_db *db, int32_t class_index, const char **out_name);
cairn_class_name = _fn("cairn_class_name", [cairn_db_p, c_int32, POINTER(c_char_p)])
# int cairn_class_index(cairn_db *db, const char *class_name, int32_t *out_class_index);
cairn_class_index = _fn("cairn_class_index", [cairn_db_p, c_char_p, POINTER(c_int32)])
# int cairn_class_kind(cairn_db *db, const char *class_name, int *out_kind);
cairn_class_kind = _fn("cairn_class_kind", [cairn_db_p, c_char_p, POINTER(c_int)])
# int cairn_property_count(cairn_db *db, const char *class_name, int32_t *out_count);
cairn_property_count = _fn("cairn_property_count", [cairn_db_p, c_char_p, POINTER(c_int32)])
# int cairn_property_index(cairn_db *db, const char *class_name, const char *property_name,
#                          int32_t *out_property_index);
cairn_property_index = _fn("cairn_property_index", [cairn_db_p, c_char_p, c_char_p, POINTER(c_int32)])
# int cairn_property_info_get(cairn_db *db, const char *class_name, int32_t property_index,
#                             cairn_property_info *out_info);
cairn_property_info_get = _fn(
    "cairn_property_info_get", [cairn_db_p, c_char_p, c_int32, POINTER(cairn_property_info)]
)

# ---- Objects (typed layer) ---------------------------------------------------------------------

# int cairn_object_create(cairn_db *db, const char *class_name, size_t count,
#                         const int32_t *property_indices, const cairn_value *values,
#                         int update_mode, cairn_object **out_object);
cairn_object_create = _fn(
    "cairn_object_create",
    [cairn_db_p, c_char_p, c_size_t, POINTER(c_int32), cairn_value_p, c_int, POINTER(cairn_object_p)],
)
# int cairn_object_create_json(cairn_db *db, const char *class_name, const char *object_json,
#                              int update_mode, cairn_object **out_object);
cairn_object_create_json = _fn(
    "cairn_object_create_json", [cairn_db_p, c_char_p, c_char_p, c_int, POINTER(cairn_object_p)]
)
# int cairn_object_find_values(cairn_db *db, const char *class_name, const cairn_value *primary_key,
#                              size_t count, const int32_t *property_indices, cairn_value *out_values,
#                              cairn_object **out_object);
cairn_object_find_values = _fn(
    "cairn_object_find_values",
    [cairn_db_p, c_char_p, cairn_value_p, c_size_t, POINTER(c_int32), cairn_value_p, POINTER(cairn_object_p)],
)
# int cairn_object_find_marshal(cairn_db *db, const char *class_name, const cairn_value *primary_key,
#                               size_t count, const int32_t *property_indices, void *buffer,
#                               size_t capacity, size_t *out_size);
cairn_object_find_marshal = _fn(
    "cairn_object_find_marshal",
    [cairn_db_p, c_char_p, cairn_value_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int cairn_object_update_values(cairn_db *db, const char *class_name, const cairn_value *primary_key,
#                                size_t count, const int32_t *property_indices, const cairn_value *values);
cairn_object_update_values = _fn(
    "cairn_object_update_values",
    [cairn_db_p, c_char_p, cairn_value_p, c_size_t, POINTER(c_int32), cairn_value_p],
)
# int cairn_object_find(cairn_db *db, const char *class_name, const cairn_value *primary_key,
#                       cairn_object **out_object);
cairn_object_find = _fn("cairn_object_find", [cairn_db_p, c_char_p, cairn_value_p, POINTER(cairn_object_p)])
# int cairn_object_find_by_key(cairn_db *db, const char *class_name, int64_t key,
#                              cairn_object **out_object);
cairn_object_find_by_key = _fn(
    "cairn_object_find_by_key", [cairn_db_p, c_char_p, c_int64, POINTER(cairn_object_p)]
)
# void cairn_object_release(cairn_object *object);
cairn_object_release = _fn("cairn_object_release", [cairn_object_p], None, None)
# int cairn_object_key(cairn_object *object, int64_t *out_key);
cairn_object_key = _fn("cairn_object_key", [cairn_object_p, POINTER(c_int64)])
# int cairn_object_class_index(cairn_object *object, int32_t *out_class_index);
cairn_object_class_index = _fn("cairn_object_class_index", [cairn_object_p, POINTER(c_int32)])
# int cairn_object_is_valid(cairn_object *object, int *out_valid);
cairn_object_is_valid = _fn("cairn_object_is_valid", [cairn_object_p, POINTER(c_int)])
# int cairn_object_get(cairn_object *object, const char *property_name, cairn_value *out_value);
cairn_object_get = _fn("cairn_object_get", [cairn_object_p, c_char_p, cairn_value_p])
# int cairn_object_get_at(cairn_object *object, int32_t property_index, cairn_value *out_value);
cairn_object_get_at = _fn("cairn_object_get_at", [cairn_object_p, c_int32, cairn_value_p])
# int cairn_object_get_values(cairn_object *object, size_t count, const int32_t *property_indices,
#                             cairn_value *out_values);
cairn_object_get_values = _fn(
    "cairn_object_get_values", [cairn_object_p, c_size_t, POINTER(c_int32), cairn_value_p]
)
# int cairn_object_get_marshal(cairn_object *object, size_t count, const int32_t *property_indices,
#                              void *buffer, size_t capacity, size_t *out_size);
cairn_object_get_marshal = _fn(
    "cairn_object_get_marshal",
    [cairn_object_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int cairn_object_set(cairn_object *object, const char *property_name, const cairn_value *value);
cairn_object_set = _fn("cairn_object_set", [cairn_object_p, c_char_p, cairn_value_p])
# int cairn_object_set_at(cairn_object *object, int32_t property_index, const cairn_value *value);
cairn_object_set_at = _fn("cairn_object_set_at", [cairn_object_p, c_int32, cairn_value_p])
# int cairn_object_set_values(cairn_object *object, size_t count, const int32_t *property_indices,
#                             const cairn_value *values);
cairn_object_set_values = _fn(
    "cairn_object_set_values", [cairn_object_p, c_size_t, POINTER(c_int32), cairn_value_p]
)
# int cairn_object_update_json(cairn_object *object, const char *object_json);
cairn_object_update_json = _fn("cairn_object_update_json", [cairn_object_p, c_char_p])
# int cairn_object_to_json(cairn_object *object, char **out_json);
cairn_object_to_json = _fn("cairn_object_to_json", [cairn_object_p, POINTER(c_void_p)])
# int cairn_object_delete(cairn_object *object);
cairn_object_delete = _fn("cairn_object_delete", [cairn_object_p])

# ---- Links -------------------------------------------------------------------------------------

# int cairn_object_get_linked(cairn_object *object, const char *property_name, cairn_object **out_object);
cairn_object_get_linked = _fn("cairn_object_get_linked", [cairn_object_p, c_char_p, POINTER(cairn_object_p)])
# int cairn_object_set_link(cairn_object *object, const char *property_name, cairn_object *target);
cairn_object_set_link = _fn("cairn_object_set_link", [cairn_object_p, c_char_p, cairn_object_p])
# int cairn_object_to_json_depth(cairn_object *object, int depth, char **out_json);
cairn_object_to_json_depth = _fn("cairn_object_to_json_depth", [cairn_object_p, c_int, POINTER(c_void_p)])
# int cairn_object_get_backlinks(cairn_object *object, const char *property_name,
#                                cairn_results **out_results);
cairn_object_get_backlinks = _fn(
    "cairn_object_get_backlinks", [cairn_object_p, c_char_p, POINTER(cairn_results_p)]
)

# ---- Results -----------------------------------------------------------------------------------

# void cairn_results_release(cairn_results *results);
cairn_results_release = _fn("cairn_results_release", [cairn_results_p], None, None)
# int cairn_results_count(cairn_results *results, size_t *out_count);
cairn_results_count = _fn("cairn_results_count", [cairn_results_p, POINTER(c_size_t)])
# int cairn_results_get_object(cairn_results *results, size_t index, cairn_object **out_object);
cairn_results_get_object = _fn(
    "cairn_results_get_object", [cairn_results_p, c_size_t, POINTER(cairn_object_p)]
)
# int cairn_results_get_values(cairn_results *results, size_t start, size_t max_rows, size_t count,
#                              const int32_t *property_indices, cairn_value *out_values, size_t *out_rows);
cairn_results_get_values = _fn(
    "cairn_results_get_values",
    [cairn_results_p, c_size_t, c_size_t, c_size_t, POINTER(c_int32), cairn_value_p, POINTER(c_size_t)],
)
# int cairn_results_to_json(cairn_results *results, char **out_json);
cairn_results_to_json = _fn("cairn_results_to_json", [cairn_results_p, POINTER(c_void_p)])
# int cairn_results_get_marshal(cairn_results *results, size_t count, const int32_t *property_indices,
#                               void *buffer, size_t capacity, size_t *out_size);
cairn_results_get_marshal = _fn(
    "cairn_results_get_marshal",
    [cairn_results_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int cairn_query_marshal(cairn_db *db, const char *class_name, const char *query, const char *args_json,
#                         size_t count, const int32_t *property_indices, void *buffer, size_t capacity,
#                         size_t *out_size);
cairn_query_marshal = _fn(
    "cairn_query_marshal",
    [cairn_db_p, c_char_p, c_char_p, c_char_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int cairn_query(cairn_db *db, const char *class_name, const char *query, const char *args_json,
#                 cairn_results **out_results);
cairn_query = _fn("cairn_query", [cairn_db_p, c_char_p, c_char_p, c_char_p, POINTER(cairn_results_p)])
# int cairn_results_filter(cairn_results *results, const char *query, const char *args_json,
#                          cairn_results **out_results);
cairn_results_filter = _fn(
    "cairn_results_filter", [cairn_results_p, c_char_p, c_char_p, POINTER(cairn_results_p)]
)
# int cairn_results_sort(cairn_results *results, const char *sort_descriptor,
#                        cairn_results **out_results);
cairn_results_sort = _fn("cairn_results_sort", [cairn_results_p, c_char_p, POINTER(cairn_results_p)])
# int cairn_results_distinct(cairn_results *results, const char *key_paths,
#                            cairn_results **out_results);
cairn_results_distinct = _fn("cairn_results_distinct", [cairn_results_p, c_char_p, POINTER(cairn_results_p)])
# int cairn_results_limit(cairn_results *results, size_t limit, cairn_results **out_results);
cairn_results_limit = _fn("cairn_results_limit", [cairn_results_p, c_size_t, POINTER(cairn_results_p)])
# int cairn_results_snapshot(cairn_results *results, cairn_results **out_results);
cairn_results_snapshot = _fn("cairn_results_snapshot", [cairn_results_p, POINTER(cairn_results_p)])
# int cairn_results_min(cairn_results *results, const char *property_name, cairn_value *out_value);
cairn_results_min = _fn("cairn_results_min", [cairn_results_p, c_char_p, cairn_value_p])
# int cairn_results_max(cairn_results *results, const char *property_name, cairn_value *out_value);
cairn_results_max = _fn("cairn_results_max", [cairn_results_p, c_char_p, cairn_value_p])
# int cairn_results_sum(cairn_results *results, const char *property_name, cairn_value *out_value);
cairn_results_sum = _fn("cairn_results_sum", [cairn_results_p, c_char_p, cairn_value_p])
# int cairn_results_average(cairn_results *results, const char *property_name,
#                           cairn_value *out_value);
cairn_results_average = _fn("cairn_results_average", [cairn_results_p, c_char_p, cairn_value_p])
# int cairn_results_delete_all(cairn_results *results, int64_t *out_deleted);
cairn_results_delete_all = _fn("cairn_results_delete_all", [cairn_results_p, POINTER(c_int64)])
# int cairn_list_query(cairn_list *list, const char *query, const char *args_json,
#                      cairn_results **out_results);
cairn_list_query = _fn("cairn_list_query", [cairn_list_p, c_char_p, c_char_p, POINTER(cairn_results_p)])

# ---- Lists -------------------------------------------------------------------------------------

# int cairn_object_get_list(cairn_object *object, const char *property_name, cairn_list **out_list);
cairn_object_get_list = _fn("cairn_object_get_list", [cairn_object_p, c_char_p, POINTER(cairn_list_p)])
# void cairn_list_release(cairn_list *list);
cairn_list_release = _fn("cairn_list_release", [cairn_list_p], None, None)
# int cairn_list_size(cairn_list *list, size_t *out_size);
cairn_list_size = _fn("cairn_list_size", [cairn_list_p, POINTER(c_size_t)])
# int cairn_list_get(cairn_list *list, size_t index, cairn_value *out_value);
cairn_list_get = _fn("cairn_list_get", [cairn_list_p, c_size_t, cairn_value_p])
# int cairn_list_get_object(cairn_list *list, size_t index, cairn_object **out_object);
cairn_list_get_object = _fn("cairn_list_get_object", [cairn_list_p, c_size_t, POINTER(cairn_object_p)])
# int cairn_list_insert(cairn_list *list, size_t index, const cairn_value *value);
cairn_list_insert = _fn("cairn_list_insert", [cairn_list_p, c_size_t, cairn_value_p])
# int cairn_list_insert_json(cairn_list *list, size_t index, const char *value_json);
cairn_list_insert_json = _fn("cairn_list_insert_json", [cairn_list_p, c_size_t, c_char_p])
# int cairn_list_set(cairn_list *list, size_t index, const cairn_value *value);
cairn_list_set = _fn("cairn_list_set", [cairn_list_p, c_size_t, cairn_value_p])
# int cairn_list_move(cairn_list *list, size_t from, size_t to);
cairn_list_move = _fn("cairn_list_move", [cairn_list_p, c_size_t, c_size_t])
# int cairn_list_erase(cairn_list *list, size_t index);
cairn_list_erase = _fn("cairn_list_erase", [cairn_list_p, c_size_t])
# int cairn_list_clear(cairn_list *list);
cairn_list_clear = _fn("cairn_list_clear", [cairn_list_p])
# int cairn_list_find(cairn_list *list, const cairn_value *value, size_t *out_index, int *out_found);
cairn_list_find = _fn("cairn_list_find", [cairn_list_p, cairn_value_p, POINTER(c_size_t), POINTER(c_int)])
# int cairn_list_to_json(cairn_list *list, char **out_json);
cairn_list_to_json = _fn("cairn_list_to_json", [cairn_list_p, POINTER(c_void_p)])

# ---- Sets --------------------------------------------------------------------------------------

# int cairn_object_get_set(cairn_object *object, const char *property_name, cairn_set **out_set);
cairn_object_get_set = _fn("cairn_object_get_set", [cairn_object_p, c_char_p, POINTER(cairn_set_p)])
# void cairn_set_release(cairn_set *set);
cairn_set_release = _fn("cairn_set_release", [cairn_set_p], None, None)
# int cairn_set_size(cairn_set *set, size_t *out_size);
cairn_set_size = _fn("cairn_set_size", [cairn_set_p, POINTER(c_size_t)])
# int cairn_set_get(cairn_set *set, size_t index, cairn_value *out_value);
cairn_set_get = _fn("cairn_set_get", [cairn_set_p, c_size_t, cairn_value_p])
# int cairn_set_find(cairn_set *set, const cairn_value *value, int *out_found);
cairn_set_find = _fn("cairn_set_find", [cairn_set_p, cairn_value_p, POINTER(c_int)])
# int cairn_set_insert(cairn_set *set, const cairn_value *value, int *out_inserted);
cairn_set_insert = _fn("cairn_set_insert", [cairn_set_p, cairn_value_p, POINTER(c_int)])
# int cairn_set_erase(cairn_set *set, const cairn_value *value, int *out_erased);
cairn_set_erase = _fn("cairn_set_erase", [cairn_set_p, cairn_value_p, POINTER(c_int)])
# int cairn_set_clear(cairn_set *set);
cairn_set_clear = _fn("cairn_set_clear", [cairn_set_p])
# int cairn_set_to_json(cairn_set *set, char **out_json);
cairn_set_to_json = _fn("cairn_set_to_json", [cairn_set_p, POINTER(c_void_p)])

# ---- Dictionaries ------------------------------------------------------------------------------

# int cairn_object_get_dict(cairn_object *object, const char *property_name, cairn_dict **out_dict);
cairn_object_get_dict = _fn("cairn_object_get_dict", [cairn_object_p, c_char_p, POINTER(cairn_dict_p)])
# void cairn_dict_release(cairn_dict *dict);
cairn_dict_release = _fn("cairn_dict_release", [cairn_dict_p], None, None)
# int cairn_dict_size(cairn_dict *dict, size_t *out_size);
cairn_dict_size = _fn("cairn_dict_size", [cairn_dict_p, POINTER(c_size_t)])
# int cairn_dict_get(cairn_dict *dict, size_t index, cairn_value *out_key, cairn_value *out_value);
cairn_dict_get = _fn("cairn_dict_get", [cairn_dict_p, c_size_t, cairn_value_p, cairn_value_p])
# int cairn_dict_find(cairn_dict *dict, const char *key, cairn_value *out_value, int *out_found);
cairn_dict_find = _fn("cairn_dict_find", [cairn_dict_p, c_char_p, cairn_value_p, POINTER(c_int)])
# int cairn_dict_insert(cairn_dict *dict, const char *key, const cairn_value *value);
cairn_dict_insert = _fn("cairn_dict_insert", [cairn_dict_p, c_char_p, cairn_value_p])
# int cairn_dict_insert_json(cairn_dict *dict, const char *key, const char *value_json);
cairn_dict_insert_json = _fn("cairn_dict_insert_json", [cairn_dict_p, c_char_p, c_char_p])
# int cairn_dict_erase(cairn_dict *dict, const char *key, int *out_erased);
cairn_dict_erase = _fn("cairn_dict_erase", [cairn_dict_p, c_char_p, POINTER(c_int)])
# int cairn_dict_clear(cairn_dict *dict);
cairn_dict_clear = _fn("cairn_dict_clear", [cairn_dict_p])
# int cairn_dict_to_json(cairn_dict *dict, char **out_json);
cairn_dict_to_json = _fn("cairn_dict_to_json", [cairn_dict_p, POINTER(c_void_p)])

# ---- Nested mixed values -----------------------------------------------------------------------

# int cairn_object_get_mixed_json(cairn_object *object, const char *property_name,
#                                 const char *path_json, char **out_json);
cairn_object_get_mixed_json = _fn(
    "cairn_object_get_mixed_json", [cairn_object_p, c_char_p, c_char_p, POINTER(c_void_p)]
)
# int cairn_object_set_mixed_json(cairn_object *object, const char *property_name,
#                                 const char *path_json, const char *value_json);
cairn_object_set_mixed_json = _fn(
    "cairn_object_set_mixed_json", [cairn_object_p, c_char_p, c_char_p, c_char_p]
)
# int cairn_object_append_mixed_json(cairn_object *object, const char *property_name,
#                                    const char *path_json, const char *value_json);
cairn_object_append_mixed_json = _fn(
    "cairn_object_append_mixed_json", [cairn_object_p, c_char_p, c_char_p, c_char_p]
)
# int cairn_object_remove_mixed(cairn_object *object, const char *property_name,
#                               const char *path_json);
cairn_object_remove_mixed = _fn("cairn_object_remove_mixed", [cairn_object_p, c_char_p, c_char_p])
