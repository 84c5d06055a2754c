"""libdrumlin's C types as ctypes declares them: the callback types, the opaque handle types and the
plain structs of include/drumlin.h, in the header's order. ``_ffi`` re-exports them beside the
functions that take them (``_ffi.drumlin_value`` is ``drumlin_value``).
"""

from __future__ import annotations

from ctypes import (
    CFUNCTYPE,
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

# ---- Callback types ------------------------------------------------------------------------------

# typedef void (*drumlin_log_fn)(void *userdata, int level, const char *message);
drumlin_log_fn = CFUNCTYPE(None, c_void_p, c_int, c_char_p)
# typedef int (*drumlin_progress_fn)(void *userdata, int64_t done, int64_t total);
drumlin_progress_fn = CFUNCTYPE(c_int, c_void_p, c_int64, c_int64)
# typedef void (*drumlin_free_fn)(void *userdata);
drumlin_free_fn = CFUNCTYPE(None, c_void_p)

# ---- Handles and plain structs -----------------------------------------------------------------


class _drumlin_db(Structure):
    pass


class _drumlin_object(Structure):
    pass


class _drumlin_options(Structure):
    pass


class _drumlin_results(Structure):
    pass


class _drumlin_list(Structure):
    pass


class _drumlin_set(Structure):
    pass


class _drumlin_dict(Structure):
    pass


drumlin_db_p = POINTER(_drumlin_db)
drumlin_object_p = POINTER(_drumlin_object)
drumlin_options_p = POINTER(_drumlin_options)
drumlin_results_p = POINTER(_drumlin_results)
drumlin_list_p = POINTER(_drumlin_list)
drumlin_set_p = POINTER(_drumlin_set)
drumlin_dict_p = POINTER(_drumlin_dict)


class drumlin_string(Structure):
    # data is c_void_p, not c_char_p: the string is not NUL-terminated and may contain NUL.
    _fields_ = [("data", c_void_p), ("size", c_size_t)]


class drumlin_binary(Structure):
    _fields_ = [("data", c_void_p), ("size", c_size_t)]


class _drumlin_bytes_in(Structure):
    # Same layout as drumlin_string and drumlin_binary, for input only: assigning a bytes object to a
    # c_char_p field stores its address and keeps the bytes alive as long as the value.
    _fields_ = [("data", c_char_p), ("size", c_size_t)]


class drumlin_timestamp(Structure):
    _fields_ = [("seconds", c_int64), ("nanoseconds", c_int32)]


class drumlin_decimal128(Structure):
    _fields_ = [("w", c_uint64 * 2)]


class drumlin_object_id(Structure):
    _fields_ = [("bytes", c_uint8 * 12)]


class drumlin_uuid(Structure):
    _fields_ = [("bytes", c_uint8 * 16)]


class drumlin_link(Structure):
    _fields_ = [("class_index", c_int32), ("key", c_int64)]


class _drumlin_value_union(Union):
    _fields_ = [
        ("integer", c_int64),
        ("boolean", c_int),
        ("string", drumlin_string),
        ("binary", drumlin_binary),
        ("timestamp", drumlin_timestamp),
        ("fnum", c_float),
        ("dnum", c_double),
        ("decimal128", drumlin_decimal128),
        ("object_id", drumlin_object_id),
        ("uuid", drumlin_uuid),
        ("link", drumlin_link),
        ("bytes_in", _drumlin_bytes_in),  # not in the header: the input view of string/binary
    ]


class drumlin_value(Structure):
    # `as` is a Python keyword; the member is called `as_` here (the layout is what matters).
    _fields_ = [("type", c_int), ("as_", _drumlin_value_union)]


class drumlin_key_write(Structure):
    # `db` as an address (the drumlin_db *): the bindings keep the handle as a c_void_p (RowAccess).
    _fields_ = [("db", c_void_p), ("class_index", c_int32), ("property_index", c_int32), ("key", c_int64),
                ("value", drumlin_value)]


class drumlin_property_info(Structure):
    _fields_ = [
        ("name", c_char_p),
        ("stored_name", c_char_p),
        ("type", c_int),
        ("collection", c_int),
        ("object_type", c_char_p),
        ("origin_property", c_char_p),
        ("flags", c_int),
    ]


drumlin_value_p = POINTER(drumlin_value)

# ---- Migrations --------------------------------------------------------------------------------

# typedef int (*drumlin_migration_fn)(void *userdata, drumlin_migration *migration);
drumlin_migration_fn = CFUNCTYPE(c_int, c_void_p, c_void_p)
# typedef int (*drumlin_migration_object_fn)(void *userdata, drumlin_object *old_object, drumlin_object *new_object);
drumlin_migration_object_fn = CFUNCTYPE(c_int, c_void_p, drumlin_object_p, drumlin_object_p)

# ---- Notifications -------------------------------------------------------------------------------


class _drumlin_token(Structure):
    pass


class _drumlin_changes(Structure):
    pass


drumlin_token_p = POINTER(_drumlin_token)
drumlin_changes_p = POINTER(_drumlin_changes)
# typedef void (*drumlin_changes_fn)(void *userdata, const drumlin_changes *changes);
drumlin_changes_fn = CFUNCTYPE(None, c_void_p, drumlin_changes_p)

# ---- Sync --------------------------------------------------------------------------------------


class _drumlin_sync_token_request(Structure):
    pass


drumlin_sync_token_request_p = POINTER(_drumlin_sync_token_request)
# typedef void (*drumlin_sync_token_fn)(void *userdata, drumlin_sync_token_request *request);
drumlin_sync_token_fn = CFUNCTYPE(None, c_void_p, drumlin_sync_token_request_p)
# typedef void (*drumlin_sync_progress_fn)(void *userdata, int state, int paused, int64_t uploaded, int64_t pending);
drumlin_sync_progress_fn = CFUNCTYPE(None, c_void_p, c_int, c_int, c_int64, c_int64)
# typedef void (*drumlin_sync_error_fn)(void *userdata, int code, const char *name, const char *message,
#                                       const char *action, int stopped);
drumlin_sync_error_fn = CFUNCTYPE(None, c_void_p, c_int, c_char_p, c_char_p, c_char_p, c_int)
