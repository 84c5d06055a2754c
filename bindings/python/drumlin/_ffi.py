"""Declares libdrumlin's C functions (its types are declared in ``_types`` and re-exported here);
nothing else lives here.

Every function of include/drumlin.h appears once, under its C name, with its prototype as a comment,
in the header's order and sections. The library itself is loaded and checked by ``_library``; the
"Library" section's functions are declared there (reading the last error message is part of
turning a status into an exception) and re-exported here with the loaded library, so
``_ffi.<name>`` reaches every function of the header.

ctypes rules followed here:

- ``char **out_json`` is ``POINTER(c_void_p)``: the caller copies with ``string_at`` and frees the
  pointer with ``drumlin_free`` (a ``c_char_p`` out would convert and leak).
- Borrowed strings (``drumlin_last_error_message``, ``drumlin_version``, names owned by the handle)
  are ``c_char_p``: ctypes copies them into ``bytes``.
- Handles are pointers to distinct opaque structures, so passing a database where an object is
  expected fails in Python, before the call.
"""

from __future__ import annotations

from ctypes import (
    POINTER,
    c_char_p,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint64,
    c_void_p,
)
from typing import Any

# The header's integer constants, generated from it by tools/gen-python-constants.py, re-exported
# beside the functions that take and return them: _ffi.DRUMLIN_TYPE_INT is DRUMLIN_TYPE_INT.
from ._constants import *  # noqa: F403
from ._library import ABI_VERSION as ABI_VERSION  # the ABI this package speaks (from drumlin.h)
from ._library import LIBRARY_PATH as LIBRARY_PATH
from ._library import _check as _check
from ._library import _check_abi as _check_abi
from ._library import _check_not_null as _check_not_null
from ._library import _fn as _fn
from ._library import _raise as _raise
from ._library import drumlin_abi_version as drumlin_abi_version
from ._library import drumlin_free as drumlin_free
from ._library import drumlin_last_error_code as drumlin_last_error_code
from ._library import drumlin_last_error_message as drumlin_last_error_message
from ._library import drumlin_status_name as drumlin_status_name
from ._library import drumlin_version as drumlin_version
from ._library import lib as lib

# The callback types, handle types and plain structs (the _types module), re-exported beside the
# functions that take them: _ffi.drumlin_value is drumlin_value.
from ._types import *  # noqa: F403
from ._types import _drumlin_dict as _drumlin_dict
from ._types import _drumlin_list as _drumlin_list
from ._types import _drumlin_object as _drumlin_object
from ._types import _drumlin_results as _drumlin_results
from ._types import _drumlin_set as _drumlin_set
from ._types import _drumlin_value_union as _drumlin_value_union

# ---- Options -----------------------------------------------------------------------------------

# drumlin_options *drumlin_options_new(void);   -- NULL only when out of memory
drumlin_options_new = _fn("drumlin_options_new", [], drumlin_options_p, _check_not_null)
# void drumlin_options_free(drumlin_options *options);
drumlin_options_free = _fn("drumlin_options_free", [drumlin_options_p], None, None)
# int drumlin_options_set_schema_version(drumlin_options *options, uint64_t schema_version);
drumlin_options_set_schema_version = _fn("drumlin_options_set_schema_version", [drumlin_options_p, c_uint64])
# int drumlin_options_set_read_only(drumlin_options *options, int read_only);
drumlin_options_set_read_only = _fn("drumlin_options_set_read_only", [drumlin_options_p, c_int])
# int drumlin_options_set_in_memory(drumlin_options *options, int in_memory);
drumlin_options_set_in_memory = _fn("drumlin_options_set_in_memory", [drumlin_options_p, c_int])
# int drumlin_options_set_delete_if_migration_needed(drumlin_options *options, int delete_if_needed);
drumlin_options_set_delete_if_migration_needed = _fn(
    "drumlin_options_set_delete_if_migration_needed", [drumlin_options_p, c_int]
)
# int drumlin_options_set_busy_timeout(drumlin_options *options, int64_t milliseconds);
drumlin_options_set_busy_timeout = _fn("drumlin_options_set_busy_timeout", [drumlin_options_p, c_int64])
# int drumlin_options_set_synchronous(drumlin_options *options, int mode);
drumlin_options_set_synchronous = _fn("drumlin_options_set_synchronous", [drumlin_options_p, c_int])
# int drumlin_options_set_quick_check(drumlin_options *options, int quick_check);
drumlin_options_set_quick_check = _fn("drumlin_options_set_quick_check", [drumlin_options_p, c_int])
# int drumlin_options_set_encryption_key(drumlin_options *options, const uint8_t *key, size_t length);
drumlin_options_set_encryption_key = _fn("drumlin_options_set_encryption_key", [drumlin_options_p, c_char_p, c_size_t])
# int drumlin_options_set_logger(drumlin_options *options, drumlin_log_fn fn, void *userdata,
#                                drumlin_free_fn free_userdata);
drumlin_options_set_logger = _fn(
    "drumlin_options_set_logger", [drumlin_options_p, drumlin_log_fn, c_void_p, drumlin_free_fn]
)
# int drumlin_options_set_slow_query_threshold(drumlin_options *options, int64_t milliseconds);
drumlin_options_set_slow_query_threshold = _fn(
    "drumlin_options_set_slow_query_threshold", [drumlin_options_p, c_int64]
)

# ---- Migrations --------------------------------------------------------------------------------

# int drumlin_options_set_migration(drumlin_options *options, drumlin_migration_fn fn, void *userdata,
#                                   drumlin_free_fn free_userdata);
drumlin_options_set_migration = _fn(
    "drumlin_options_set_migration", [drumlin_options_p, drumlin_migration_fn, c_void_p, drumlin_free_fn]
)
# int drumlin_migration_old_schema_version(drumlin_migration *migration, uint64_t *out_version);
drumlin_migration_old_schema_version = _fn("drumlin_migration_old_schema_version", [c_void_p, POINTER(c_uint64)])
# int drumlin_migration_new_schema_version(drumlin_migration *migration, uint64_t *out_version);
drumlin_migration_new_schema_version = _fn("drumlin_migration_new_schema_version", [c_void_p, POINTER(c_uint64)])
# int drumlin_migration_old_schema_json(drumlin_migration *migration, char **out_json);
drumlin_migration_old_schema_json = _fn("drumlin_migration_old_schema_json", [c_void_p, POINTER(c_void_p)])
# int drumlin_migration_new_db(drumlin_migration *migration, drumlin_db **out_db);
drumlin_migration_new_db = _fn("drumlin_migration_new_db", [c_void_p, POINTER(drumlin_db_p)])
# int drumlin_migration_old_db(drumlin_migration *migration, drumlin_db **out_db);
drumlin_migration_old_db = _fn("drumlin_migration_old_db", [c_void_p, POINTER(drumlin_db_p)])
# int drumlin_migration_enumerate_objects(drumlin_migration *migration, const char *class_name,
#                                         drumlin_migration_object_fn fn, void *userdata);
drumlin_migration_enumerate_objects = _fn(
    "drumlin_migration_enumerate_objects", [c_void_p, c_char_p, drumlin_migration_object_fn, c_void_p]
)
# int drumlin_migration_rename_property(drumlin_migration *migration, const char *class_name,
#                                       const char *old_name, const char *new_name);
drumlin_migration_rename_property = _fn("drumlin_migration_rename_property", [c_void_p, c_char_p, c_char_p, c_char_p])
# int drumlin_migration_delete_data(drumlin_migration *migration, const char *class_name, int *out_deleted);
drumlin_migration_delete_data = _fn("drumlin_migration_delete_data", [c_void_p, c_char_p, POINTER(c_int)])
# int drumlin_migration_create_json(drumlin_migration *migration, const char *class_name, const char *object_json,
#                                   char **out_json);
drumlin_migration_create_json = _fn(
    "drumlin_migration_create_json", [c_void_p, c_char_p, c_char_p, POINTER(c_void_p)]
)
# int drumlin_migration_set_error(drumlin_migration *migration, const char *message);
drumlin_migration_set_error = _fn("drumlin_migration_set_error", [c_void_p, c_char_p])

# ---- Database ----------------------------------------------------------------------------------

# int drumlin_open(const char *path, const char *schema_json, const drumlin_options *options,
#                drumlin_db **out_db);
drumlin_open = _fn("drumlin_open", [c_char_p, c_char_p, drumlin_options_p, POINTER(drumlin_db_p)])
# int drumlin_close(drumlin_db *db);
drumlin_close = _fn("drumlin_close", [drumlin_db_p])
# int drumlin_schema_json(drumlin_db *db, char **out_json);
drumlin_schema_json = _fn("drumlin_schema_json", [drumlin_db_p, POINTER(c_void_p)])
# int drumlin_schema_version(drumlin_db *db, uint64_t *out_version);
drumlin_schema_version = _fn("drumlin_schema_version", [drumlin_db_p, POINTER(c_uint64)])
# int drumlin_add_classes(drumlin_db *db, const char *schema_json);
drumlin_add_classes = _fn("drumlin_add_classes", [drumlin_db_p, c_char_p])

# ---- Export, import and maintenance --------------------------------------------------------------

# int drumlin_export_ndjson(drumlin_db *db, const char *class_name, const char *path,
#                           drumlin_progress_fn progress, void *userdata, int64_t *out_count);
drumlin_export_ndjson = _fn(
    "drumlin_export_ndjson",
    [drumlin_db_p, c_char_p, c_char_p, drumlin_progress_fn, c_void_p, POINTER(c_int64)],
)
# int drumlin_import_ndjson(drumlin_db *db, const char *path, const char *class_name, int update_mode,
#                           int64_t batch_size, drumlin_progress_fn progress, void *userdata,
#                           int64_t *out_count);
drumlin_import_ndjson = _fn(
    "drumlin_import_ndjson",
    [drumlin_db_p, c_char_p, c_char_p, c_int, c_int64, drumlin_progress_fn, c_void_p, POINTER(c_int64)],
)
# int drumlin_check(drumlin_db *db, char **out_json);
drumlin_check = _fn("drumlin_check", [drumlin_db_p, POINTER(c_void_p)])
# int drumlin_compact(drumlin_db *db);
drumlin_compact = _fn("drumlin_compact", [drumlin_db_p])
# int drumlin_write_copy(drumlin_db *db, const char *path, const uint8_t *key, size_t key_len);
drumlin_write_copy = _fn("drumlin_write_copy", [drumlin_db_p, c_char_p, c_char_p, c_size_t])

# ---- Transactions ------------------------------------------------------------------------------

# int drumlin_begin_write(drumlin_db *db);
drumlin_begin_write = _fn("drumlin_begin_write", [drumlin_db_p])
# int drumlin_commit(drumlin_db *db);
drumlin_commit = _fn("drumlin_commit", [drumlin_db_p])
# int drumlin_rollback(drumlin_db *db);
drumlin_rollback = _fn("drumlin_rollback", [drumlin_db_p])
# int drumlin_is_in_write(drumlin_db *db, int *out_in_write);
drumlin_is_in_write = _fn("drumlin_is_in_write", [drumlin_db_p, POINTER(c_int)])

# ---- JSON layer --------------------------------------------------------------------------------

# int drumlin_create_json(drumlin_db *db, const char *class_name, const char *object_json,
#                       int update_mode, char **out_json);
drumlin_create_json = _fn("drumlin_create_json", [drumlin_db_p, c_char_p, c_char_p, c_int, POINTER(c_void_p)])
# int drumlin_create_many_json(drumlin_db *db, const char *class_name, const char *array_json,
#                            int update_mode, int64_t *out_count);
drumlin_create_many_json = _fn(
    "drumlin_create_many_json", [drumlin_db_p, c_char_p, c_char_p, c_int, POINTER(c_int64)]
)
# int drumlin_create_many_marshal(drumlin_db *db, const char *class_name, size_t property_count,
#                               const int32_t *property_indices, const void *data, size_t size,
#                               int update_mode, int64_t *out_count);
drumlin_create_many_marshal = _fn(
    "drumlin_create_many_marshal",
    [drumlin_db_p, c_char_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, c_int, POINTER(c_int64)],
)
# int drumlin_create_many_values(drumlin_db *db, const char *class_name, size_t property_count,
#                              const int32_t *property_indices, size_t row_count, const drumlin_value *values,
#                              int update_mode, int64_t *out_count);
drumlin_create_many_values = _fn(
    "drumlin_create_many_values",
    [drumlin_db_p, c_char_p, c_size_t, POINTER(c_int32), c_size_t, drumlin_value_p, c_int, POINTER(c_int64)],
)
# int drumlin_get_json(drumlin_db *db, const char *class_name, const char *primary_key_json,
#                    char **out_json);
drumlin_get_json = _fn("drumlin_get_json", [drumlin_db_p, c_char_p, c_char_p, POINTER(c_void_p)])
# int drumlin_query_json(drumlin_db *db, const char *class_name, const char *query,
#                      const char *args_json, char **out_json);
drumlin_query_json = _fn("drumlin_query_json", [drumlin_db_p, c_char_p, c_char_p, c_char_p, POINTER(c_void_p)])
# int drumlin_count(drumlin_db *db, const char *class_name, const char *query, const char *args_json,
#                 int64_t *out_count);
drumlin_count = _fn("drumlin_count", [drumlin_db_p, c_char_p, c_char_p, c_char_p, POINTER(c_int64)])
# int drumlin_delete_where(drumlin_db *db, const char *class_name, const char *query,
#                        const char *args_json, int64_t *out_deleted);
drumlin_delete_where = _fn(
    "drumlin_delete_where", [drumlin_db_p, c_char_p, c_char_p, c_char_p, POINTER(c_int64)]
)

# ---- Introspection -----------------------------------------------------------------------------

# int drumlin_class_count(drumlin_db *db, int32_t *out_count);
drumlin_class_count = _fn("drumlin_class_count", [drumlin_db_p, POINTER(c_int32)])
# int drumlin_class_name(drumlin_db *db, int32_t class_index, const char **out_name);
drumlin_class_name = _fn("drumlin_class_name", [drumlin_db_p, c_int32, POINTER(c_char_p)])
# int drumlin_class_index(drumlin_db *db, const char *class_name, int32_t *out_class_index);
drumlin_class_index = _fn("drumlin_class_index", [drumlin_db_p, c_char_p, POINTER(c_int32)])
# int drumlin_class_kind(drumlin_db *db, const char *class_name, int *out_kind);
drumlin_class_kind = _fn("drumlin_class_kind", [drumlin_db_p, c_char_p, POINTER(c_int)])
# int drumlin_property_count(drumlin_db *db, const char *class_name, int32_t *out_count);
drumlin_property_count = _fn("drumlin_property_count", [drumlin_db_p, c_char_p, POINTER(c_int32)])
# int drumlin_property_index(drumlin_db *db, const char *class_name, const char *property_name,
#                          int32_t *out_property_index);
drumlin_property_index = _fn("drumlin_property_index", [drumlin_db_p, c_char_p, c_char_p, POINTER(c_int32)])
# int drumlin_property_info_get(drumlin_db *db, const char *class_name, int32_t property_index,
#                             drumlin_property_info *out_info);
drumlin_property_info_get = _fn(
    "drumlin_property_info_get", [drumlin_db_p, c_char_p, c_int32, POINTER(drumlin_property_info)]
)

# ---- Objects (typed layer) ---------------------------------------------------------------------

# int drumlin_object_create(drumlin_db *db, const char *class_name, size_t count,
#                         const int32_t *property_indices, const drumlin_value *values,
#                         int update_mode, drumlin_object **out_object);
drumlin_object_create = _fn(
    "drumlin_object_create",
    [drumlin_db_p, c_char_p, c_size_t, POINTER(c_int32), drumlin_value_p, c_int, POINTER(drumlin_object_p)],
)
# int drumlin_object_create_json(drumlin_db *db, const char *class_name, const char *object_json,
#                              int update_mode, drumlin_object **out_object);
drumlin_object_create_json = _fn(
    "drumlin_object_create_json", [drumlin_db_p, c_char_p, c_char_p, c_int, POINTER(drumlin_object_p)]
)
# int drumlin_object_find_values(drumlin_db *db, const char *class_name, const drumlin_value *primary_key,
#                              size_t count, const int32_t *property_indices, drumlin_value *out_values,
#                              drumlin_object **out_object);
drumlin_object_find_values = _fn(
    "drumlin_object_find_values",
    [
        drumlin_db_p,
        c_char_p,
        drumlin_value_p,
        c_size_t,
        POINTER(c_int32),
        drumlin_value_p,
        POINTER(drumlin_object_p),
    ],
)
# int drumlin_object_find_marshal(drumlin_db *db, const char *class_name, const drumlin_value *primary_key,
#                               size_t count, const int32_t *property_indices, void *buffer,
#                               size_t capacity, size_t *out_size);
drumlin_object_find_marshal = _fn(
    "drumlin_object_find_marshal",
    [
        drumlin_db_p,
        c_char_p,
        drumlin_value_p,
        c_size_t,
        POINTER(c_int32),
        c_void_p,
        c_size_t,
        POINTER(c_size_t),
    ],
)
# int drumlin_db_read_version(drumlin_db *db, const volatile uint64_t **out_version);
drumlin_db_read_version = _fn("drumlin_db_read_version", [drumlin_db_p, POINTER(c_void_p)])
# int drumlin_object_find_row(drumlin_db *db, int32_t class_index, const drumlin_value *primary_key, void *buffer,
#                           size_t capacity, size_t *out_size);
drumlin_object_find_row = _fn(
    "drumlin_object_find_row", [drumlin_db_p, c_int32, drumlin_value_p, c_void_p, c_size_t, POINTER(c_size_t)]
)
# int drumlin_object_read_row(drumlin_db *db, int32_t class_index, int64_t key, void *buffer, size_t capacity,
#                           size_t *out_size);
drumlin_object_read_row = _fn(
    "drumlin_object_read_row", [drumlin_db_p, c_int32, c_int64, c_void_p, c_size_t, POINTER(c_size_t)]
)
# int drumlin_results_get_rows(drumlin_results *results, size_t start, size_t max_rows, void *buffer,
#                            size_t capacity, size_t *out_size);
drumlin_results_get_rows = _fn(
    "drumlin_results_get_rows", [drumlin_results_p, c_size_t, c_size_t, c_void_p, c_size_t, POINTER(c_size_t)]
)
# int drumlin_results_get_rows_keyed(drumlin_results *results, size_t start, size_t max_rows, int64_t *out_keys,
#                                  void *buffer, size_t capacity, size_t *out_size);
drumlin_results_get_rows_keyed = _fn(
    "drumlin_results_get_rows_keyed",
    [drumlin_results_p, c_size_t, c_size_t, POINTER(c_int64), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int drumlin_query_rows(drumlin_db *db, int32_t class_index, const char *query, const char *args_json,
#                      void *buffer, size_t capacity, size_t *out_size);
drumlin_query_rows = _fn(
    "drumlin_query_rows", [drumlin_db_p, c_int32, c_char_p, c_char_p, c_void_p, c_size_t, POINTER(c_size_t)]
)
# int drumlin_query_first_rows(drumlin_db *db, int32_t class_index, const char *query, const char *args_json,
#                            size_t max_rows, void *buffer, size_t capacity, size_t *out_size);
drumlin_query_first_rows = _fn(
    "drumlin_query_first_rows",
    [drumlin_db_p, c_int32, c_char_p, c_char_p, c_size_t, c_void_p, c_size_t, POINTER(c_size_t)],
)
# int drumlin_object_set_by_key(drumlin_db *db, int32_t class_index, int64_t key, int32_t property_index,
#                             const drumlin_value *value);
drumlin_object_set_by_key = _fn(
    "drumlin_object_set_by_key", [drumlin_db_p, c_int32, c_int64, c_int32, drumlin_value_p]
)
# int drumlin_object_write_by_key(const drumlin_key_write *write);
drumlin_object_write_by_key = _fn("drumlin_object_write_by_key", [POINTER(drumlin_key_write)])
# int drumlin_object_update_values(drumlin_db *db, const char *class_name, const drumlin_value *primary_key,
#                                size_t count, const int32_t *property_indices, const drumlin_value *values);
drumlin_object_update_values = _fn(
    "drumlin_object_update_values",
    [drumlin_db_p, c_char_p, drumlin_value_p, c_size_t, POINTER(c_int32), drumlin_value_p],
)
# int drumlin_object_find(drumlin_db *db, const char *class_name, const drumlin_value *primary_key,
#                       drumlin_object **out_object);
drumlin_object_find = _fn(
    "drumlin_object_find", [drumlin_db_p, c_char_p, drumlin_value_p, POINTER(drumlin_object_p)]
)
# int drumlin_object_find_by_key(drumlin_db *db, const char *class_name, int64_t key,
#                              drumlin_object **out_object);
drumlin_object_find_by_key = _fn(
    "drumlin_object_find_by_key", [drumlin_db_p, c_char_p, c_int64, POINTER(drumlin_object_p)]
)
# void drumlin_object_release(drumlin_object *object);
drumlin_object_release = _fn("drumlin_object_release", [drumlin_object_p], None, None)
# int drumlin_object_key(drumlin_object *object, int64_t *out_key);
drumlin_object_key = _fn("drumlin_object_key", [drumlin_object_p, POINTER(c_int64)])
# int drumlin_object_class_index(drumlin_object *object, int32_t *out_class_index);
drumlin_object_class_index = _fn("drumlin_object_class_index", [drumlin_object_p, POINTER(c_int32)])
# int drumlin_object_is_valid(drumlin_object *object, int *out_valid);
drumlin_object_is_valid = _fn("drumlin_object_is_valid", [drumlin_object_p, POINTER(c_int)])
# int drumlin_object_get(drumlin_object *object, const char *property_name, drumlin_value *out_value);
drumlin_object_get = _fn("drumlin_object_get", [drumlin_object_p, c_char_p, drumlin_value_p])
# int drumlin_object_get_at(drumlin_object *object, int32_t property_index, drumlin_value *out_value);
drumlin_object_get_at = _fn("drumlin_object_get_at", [drumlin_object_p, c_int32, drumlin_value_p])
# int drumlin_object_get_values(drumlin_object *object, size_t count, const int32_t *property_indices,
#                             drumlin_value *out_values);
drumlin_object_get_values = _fn(
    "drumlin_object_get_values", [drumlin_object_p, c_size_t, POINTER(c_int32), drumlin_value_p]
)
# int drumlin_object_get_marshal(drumlin_object *object, size_t count, const int32_t *property_indices,
#                              void *buffer, size_t capacity, size_t *out_size);
drumlin_object_get_marshal = _fn(
    "drumlin_object_get_marshal",
    [drumlin_object_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int drumlin_object_read_marshal(drumlin_db *db, int32_t class_index, int64_t key, size_t count,
#                               const int32_t *property_indices, void *buffer, size_t capacity, size_t *out_size);
drumlin_object_read_marshal = _fn(
    "drumlin_object_read_marshal",
    [drumlin_db_p, c_int32, c_int64, c_size_t, POINTER(c_int32), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int drumlin_object_set(drumlin_object *object, const char *property_name, const drumlin_value *value);
drumlin_object_set = _fn("drumlin_object_set", [drumlin_object_p, c_char_p, drumlin_value_p])
# int drumlin_object_set_at(drumlin_object *object, int32_t property_index, const drumlin_value *value);
drumlin_object_set_at = _fn("drumlin_object_set_at", [drumlin_object_p, c_int32, drumlin_value_p])
# int drumlin_object_set_values(drumlin_object *object, size_t count, const int32_t *property_indices,
#                             const drumlin_value *values);
drumlin_object_set_values = _fn(
    "drumlin_object_set_values", [drumlin_object_p, c_size_t, POINTER(c_int32), drumlin_value_p]
)
# int drumlin_object_update_json(drumlin_object *object, const char *object_json);
drumlin_object_update_json = _fn("drumlin_object_update_json", [drumlin_object_p, c_char_p])
# int drumlin_object_to_json(drumlin_object *object, char **out_json);
drumlin_object_to_json = _fn("drumlin_object_to_json", [drumlin_object_p, POINTER(c_void_p)])
# int drumlin_object_delete(drumlin_object *object);
drumlin_object_delete = _fn("drumlin_object_delete", [drumlin_object_p])

# ---- Links -------------------------------------------------------------------------------------

# int drumlin_object_get_linked(drumlin_object *object, const char *property_name, drumlin_object **out_object);
drumlin_object_get_linked = _fn(
    "drumlin_object_get_linked", [drumlin_object_p, c_char_p, POINTER(drumlin_object_p)]
)
# int drumlin_object_set_link(drumlin_object *object, const char *property_name, drumlin_object *target);
drumlin_object_set_link = _fn("drumlin_object_set_link", [drumlin_object_p, c_char_p, drumlin_object_p])
# int drumlin_object_to_json_depth(drumlin_object *object, int depth, char **out_json);
drumlin_object_to_json_depth = _fn(
    "drumlin_object_to_json_depth", [drumlin_object_p, c_int, POINTER(c_void_p)]
)
# int drumlin_object_get_backlinks(drumlin_object *object, const char *property_name,
#                                drumlin_results **out_results);
drumlin_object_get_backlinks = _fn(
    "drumlin_object_get_backlinks", [drumlin_object_p, c_char_p, POINTER(drumlin_results_p)]
)

# ---- Results -----------------------------------------------------------------------------------

# void drumlin_results_release(drumlin_results *results);
drumlin_results_release = _fn("drumlin_results_release", [drumlin_results_p], None, None)
# int drumlin_results_count(drumlin_results *results, size_t *out_count);
drumlin_results_count = _fn("drumlin_results_count", [drumlin_results_p, POINTER(c_size_t)])
# int drumlin_results_is_empty(drumlin_results *results, int *out_empty);
drumlin_results_is_empty = _fn("drumlin_results_is_empty", [drumlin_results_p, POINTER(c_int)])
# int drumlin_results_index_of_key(drumlin_results *results, int64_t key, int64_t *out_index);
drumlin_results_index_of_key = _fn("drumlin_results_index_of_key", [drumlin_results_p, c_int64, POINTER(c_int64)])
# int drumlin_results_get_object(drumlin_results *results, size_t index, drumlin_object **out_object);
drumlin_results_get_object = _fn(
    "drumlin_results_get_object", [drumlin_results_p, c_size_t, POINTER(drumlin_object_p)]
)
# int drumlin_results_get_last(drumlin_results *results, drumlin_object **out_object);   -- NOT_FOUND: empty
drumlin_results_get_last = _fn("drumlin_results_get_last", [drumlin_results_p, POINTER(drumlin_object_p)])
# int drumlin_results_get_values(drumlin_results *results, size_t start, size_t max_rows, size_t count,
#                              const int32_t *property_indices, drumlin_value *out_values, size_t *out_rows);
drumlin_results_get_values = _fn(
    "drumlin_results_get_values",
    [drumlin_results_p, c_size_t, c_size_t, c_size_t, POINTER(c_int32), drumlin_value_p, POINTER(c_size_t)],
)
# int drumlin_results_to_json(drumlin_results *results, char **out_json);
drumlin_results_to_json = _fn("drumlin_results_to_json", [drumlin_results_p, POINTER(c_void_p)])
# int drumlin_results_get_marshal(drumlin_results *results, size_t count, const int32_t *property_indices,
#                               void *buffer, size_t capacity, size_t *out_size);
drumlin_results_get_marshal = _fn(
    "drumlin_results_get_marshal",
    [drumlin_results_p, c_size_t, POINTER(c_int32), c_void_p, c_size_t, POINTER(c_size_t)],
)
# int drumlin_query_marshal(drumlin_db *db, const char *class_name, const char *query, const char *args_json,
#                         size_t count, const int32_t *property_indices, void *buffer, size_t capacity,
#                         size_t *out_size);
drumlin_query_marshal = _fn(
    "drumlin_query_marshal",
    [
        drumlin_db_p,
        c_char_p,
        c_char_p,
        c_char_p,
        c_size_t,
        POINTER(c_int32),
        c_void_p,
        c_size_t,
        POINTER(c_size_t),
    ],
)
# int drumlin_query(drumlin_db *db, const char *class_name, const char *query, const char *args_json,
#                 drumlin_results **out_results);
drumlin_query = _fn("drumlin_query", [drumlin_db_p, c_char_p, c_char_p, c_char_p, POINTER(drumlin_results_p)])
# int drumlin_results_filter(drumlin_results *results, const char *query, const char *args_json,
#                          drumlin_results **out_results);
drumlin_results_filter = _fn(
    "drumlin_results_filter", [drumlin_results_p, c_char_p, c_char_p, POINTER(drumlin_results_p)]
)
# int drumlin_results_sort(drumlin_results *results, const char *sort_descriptor,
#                        drumlin_results **out_results);
drumlin_results_sort = _fn("drumlin_results_sort", [drumlin_results_p, c_char_p, POINTER(drumlin_results_p)])
# int drumlin_results_distinct(drumlin_results *results, const char *key_paths,
#                            drumlin_results **out_results);
drumlin_results_distinct = _fn(
    "drumlin_results_distinct", [drumlin_results_p, c_char_p, POINTER(drumlin_results_p)]
)
# int drumlin_results_limit(drumlin_results *results, size_t limit, drumlin_results **out_results);
drumlin_results_limit = _fn(
    "drumlin_results_limit", [drumlin_results_p, c_size_t, POINTER(drumlin_results_p)]
)
# int drumlin_results_snapshot(drumlin_results *results, drumlin_results **out_results);
drumlin_results_snapshot = _fn("drumlin_results_snapshot", [drumlin_results_p, POINTER(drumlin_results_p)])
# int drumlin_results_min(drumlin_results *results, const char *property_name, drumlin_value *out_value);
drumlin_results_min = _fn("drumlin_results_min", [drumlin_results_p, c_char_p, drumlin_value_p])
# int drumlin_results_max(drumlin_results *results, const char *property_name, drumlin_value *out_value);
drumlin_results_max = _fn("drumlin_results_max", [drumlin_results_p, c_char_p, drumlin_value_p])
# int drumlin_results_sum(drumlin_results *results, const char *property_name, drumlin_value *out_value);
drumlin_results_sum = _fn("drumlin_results_sum", [drumlin_results_p, c_char_p, drumlin_value_p])
# int drumlin_results_average(drumlin_results *results, const char *property_name,
#                           drumlin_value *out_value);
drumlin_results_average = _fn("drumlin_results_average", [drumlin_results_p, c_char_p, drumlin_value_p])
# int drumlin_results_delete_all(drumlin_results *results, int64_t *out_deleted);
drumlin_results_delete_all = _fn("drumlin_results_delete_all", [drumlin_results_p, POINTER(c_int64)])
# int drumlin_list_query(drumlin_list *list, const char *query, const char *args_json,
#                      drumlin_results **out_results);
drumlin_list_query = _fn(
    "drumlin_list_query", [drumlin_list_p, c_char_p, c_char_p, POINTER(drumlin_results_p)]
)

# ---- Lists -------------------------------------------------------------------------------------

# int drumlin_object_get_list(drumlin_object *object, const char *property_name, drumlin_list **out_list);
drumlin_object_get_list = _fn(
    "drumlin_object_get_list", [drumlin_object_p, c_char_p, POINTER(drumlin_list_p)]
)
# void drumlin_list_release(drumlin_list *list);
drumlin_list_release = _fn("drumlin_list_release", [drumlin_list_p], None, None)
# int drumlin_list_size(drumlin_list *list, size_t *out_size);
drumlin_list_size = _fn("drumlin_list_size", [drumlin_list_p, POINTER(c_size_t)])
# int drumlin_list_get(drumlin_list *list, size_t index, drumlin_value *out_value);
drumlin_list_get = _fn("drumlin_list_get", [drumlin_list_p, c_size_t, drumlin_value_p])
# int drumlin_list_get_object(drumlin_list *list, size_t index, drumlin_object **out_object);
drumlin_list_get_object = _fn(
    "drumlin_list_get_object", [drumlin_list_p, c_size_t, POINTER(drumlin_object_p)]
)
# int drumlin_list_insert(drumlin_list *list, size_t index, const drumlin_value *value);
drumlin_list_insert = _fn("drumlin_list_insert", [drumlin_list_p, c_size_t, drumlin_value_p])
# int drumlin_list_insert_json(drumlin_list *list, size_t index, const char *value_json);
drumlin_list_insert_json = _fn("drumlin_list_insert_json", [drumlin_list_p, c_size_t, c_char_p])
# int drumlin_list_set(drumlin_list *list, size_t index, const drumlin_value *value);
drumlin_list_set = _fn("drumlin_list_set", [drumlin_list_p, c_size_t, drumlin_value_p])
# int drumlin_list_insert_many_json(drumlin_list *list, size_t index, const char *array_json);
drumlin_list_insert_many_json = _fn("drumlin_list_insert_many_json", [drumlin_list_p, c_size_t, c_char_p])
# int drumlin_list_set_json(drumlin_list *list, size_t index, const char *value_json);
drumlin_list_set_json = _fn("drumlin_list_set_json", [drumlin_list_p, c_size_t, c_char_p])
# int drumlin_list_move(drumlin_list *list, size_t from, size_t to);
drumlin_list_move = _fn("drumlin_list_move", [drumlin_list_p, c_size_t, c_size_t])
# int drumlin_list_erase(drumlin_list *list, size_t index);
drumlin_list_erase = _fn("drumlin_list_erase", [drumlin_list_p, c_size_t])
# int drumlin_list_clear(drumlin_list *list);
drumlin_list_clear = _fn("drumlin_list_clear", [drumlin_list_p])
# int drumlin_list_find(drumlin_list *list, const drumlin_value *value, size_t *out_index, int *out_found);
drumlin_list_find = _fn(
    "drumlin_list_find", [drumlin_list_p, drumlin_value_p, POINTER(c_size_t), POINTER(c_int)]
)
# int drumlin_list_to_json(drumlin_list *list, char **out_json);
drumlin_list_to_json = _fn("drumlin_list_to_json", [drumlin_list_p, POINTER(c_void_p)])

# ---- Sets --------------------------------------------------------------------------------------

# int drumlin_object_get_set(drumlin_object *object, const char *property_name, drumlin_set **out_set);
drumlin_object_get_set = _fn("drumlin_object_get_set", [drumlin_object_p, c_char_p, POINTER(drumlin_set_p)])
# void drumlin_set_release(drumlin_set *set);
drumlin_set_release = _fn("drumlin_set_release", [drumlin_set_p], None, None)
# int drumlin_set_size(drumlin_set *set, size_t *out_size);
drumlin_set_size = _fn("drumlin_set_size", [drumlin_set_p, POINTER(c_size_t)])
# int drumlin_set_get(drumlin_set *set, size_t index, drumlin_value *out_value);
drumlin_set_get = _fn("drumlin_set_get", [drumlin_set_p, c_size_t, drumlin_value_p])
# int drumlin_set_find(drumlin_set *set, const drumlin_value *value, int *out_found);
drumlin_set_find = _fn("drumlin_set_find", [drumlin_set_p, drumlin_value_p, POINTER(c_int)])
# int drumlin_set_insert(drumlin_set *set, const drumlin_value *value, int *out_inserted);
drumlin_set_insert = _fn("drumlin_set_insert", [drumlin_set_p, drumlin_value_p, POINTER(c_int)])
# int drumlin_set_insert_json(drumlin_set *set, const char *value_json, int *out_inserted);
drumlin_set_insert_json = _fn("drumlin_set_insert_json", [drumlin_set_p, c_char_p, POINTER(c_int)])
# int drumlin_set_insert_many_json(drumlin_set *set, const char *array_json, size_t *out_inserted);
drumlin_set_insert_many_json = _fn("drumlin_set_insert_many_json", [drumlin_set_p, c_char_p, POINTER(c_size_t)])
# int drumlin_set_erase(drumlin_set *set, const drumlin_value *value, int *out_erased);
drumlin_set_erase = _fn("drumlin_set_erase", [drumlin_set_p, drumlin_value_p, POINTER(c_int)])
# int drumlin_set_clear(drumlin_set *set);
drumlin_set_clear = _fn("drumlin_set_clear", [drumlin_set_p])
# int drumlin_set_to_json(drumlin_set *set, char **out_json);
drumlin_set_to_json = _fn("drumlin_set_to_json", [drumlin_set_p, POINTER(c_void_p)])

# ---- Dictionaries ------------------------------------------------------------------------------

# int drumlin_object_get_dict(drumlin_object *object, const char *property_name, drumlin_dict **out_dict);
drumlin_object_get_dict = _fn(
    "drumlin_object_get_dict", [drumlin_object_p, c_char_p, POINTER(drumlin_dict_p)]
)
# void drumlin_dict_release(drumlin_dict *dict);
drumlin_dict_release = _fn("drumlin_dict_release", [drumlin_dict_p], None, None)
# int drumlin_dict_size(drumlin_dict *dict, size_t *out_size);
drumlin_dict_size = _fn("drumlin_dict_size", [drumlin_dict_p, POINTER(c_size_t)])
# int drumlin_dict_get(drumlin_dict *dict, size_t index, drumlin_value *out_key, drumlin_value *out_value);
drumlin_dict_get = _fn("drumlin_dict_get", [drumlin_dict_p, c_size_t, drumlin_value_p, drumlin_value_p])
# int drumlin_dict_find(drumlin_dict *dict, const char *key, drumlin_value *out_value, int *out_found);
drumlin_dict_find = _fn("drumlin_dict_find", [drumlin_dict_p, c_char_p, drumlin_value_p, POINTER(c_int)])
# int drumlin_dict_insert(drumlin_dict *dict, const char *key, const drumlin_value *value);
drumlin_dict_insert = _fn("drumlin_dict_insert", [drumlin_dict_p, c_char_p, drumlin_value_p])
# int drumlin_dict_insert_json(drumlin_dict *dict, const char *key, const char *value_json);
drumlin_dict_insert_json = _fn("drumlin_dict_insert_json", [drumlin_dict_p, c_char_p, c_char_p])
# int drumlin_dict_insert_many_json(drumlin_dict *dict, const char *object_json);
drumlin_dict_insert_many_json = _fn("drumlin_dict_insert_many_json", [drumlin_dict_p, c_char_p])
# int drumlin_dict_erase(drumlin_dict *dict, const char *key, int *out_erased);
drumlin_dict_erase = _fn("drumlin_dict_erase", [drumlin_dict_p, c_char_p, POINTER(c_int)])
# int drumlin_dict_clear(drumlin_dict *dict);
drumlin_dict_clear = _fn("drumlin_dict_clear", [drumlin_dict_p])
# int drumlin_dict_to_json(drumlin_dict *dict, char **out_json);
drumlin_dict_to_json = _fn("drumlin_dict_to_json", [drumlin_dict_p, POINTER(c_void_p)])

# ---- Nested mixed values -----------------------------------------------------------------------

# int drumlin_object_get_mixed_json(drumlin_object *object, const char *property_name,
#                                 const char *path_json, char **out_json);
drumlin_object_get_mixed_json = _fn(
    "drumlin_object_get_mixed_json", [drumlin_object_p, c_char_p, c_char_p, POINTER(c_void_p)]
)
# int drumlin_object_set_mixed_json(drumlin_object *object, const char *property_name,
#                                 const char *path_json, const char *value_json);
drumlin_object_set_mixed_json = _fn(
    "drumlin_object_set_mixed_json", [drumlin_object_p, c_char_p, c_char_p, c_char_p]
)
# int drumlin_object_append_mixed_json(drumlin_object *object, const char *property_name,
#                                    const char *path_json, const char *value_json);
drumlin_object_append_mixed_json = _fn(
    "drumlin_object_append_mixed_json", [drumlin_object_p, c_char_p, c_char_p, c_char_p]
)
# int drumlin_object_remove_mixed(drumlin_object *object, const char *property_name,
#                               const char *path_json);
drumlin_object_remove_mixed = _fn("drumlin_object_remove_mixed", [drumlin_object_p, c_char_p, c_char_p])

# ---- Notifications -------------------------------------------------------------------------------


# int drumlin_results_observe(drumlin_results *results, const char *key_paths_json, drumlin_changes_fn fn,
#                             void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);
drumlin_results_observe = _fn(
    "drumlin_results_observe",
    [drumlin_results_p, c_char_p, drumlin_changes_fn, c_void_p, drumlin_free_fn, POINTER(drumlin_token_p)],
)
# int drumlin_object_observe(drumlin_object *object, const char *key_paths_json, drumlin_changes_fn fn,
#                            void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);
drumlin_object_observe = _fn(
    "drumlin_object_observe",
    [drumlin_object_p, c_char_p, drumlin_changes_fn, c_void_p, drumlin_free_fn, POINTER(drumlin_token_p)],
)
# int drumlin_list_observe(drumlin_list *list, const char *key_paths_json, drumlin_changes_fn fn,
#                          void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);
drumlin_list_observe = _fn(
    "drumlin_list_observe",
    [drumlin_list_p, c_char_p, drumlin_changes_fn, c_void_p, drumlin_free_fn, POINTER(drumlin_token_p)],
)
# int drumlin_set_observe(drumlin_set *set, const char *key_paths_json, drumlin_changes_fn fn,
#                         void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);
drumlin_set_observe = _fn(
    "drumlin_set_observe",
    [drumlin_set_p, c_char_p, drumlin_changes_fn, c_void_p, drumlin_free_fn, POINTER(drumlin_token_p)],
)
# int drumlin_dict_observe(drumlin_dict *dict, drumlin_changes_fn fn, void *userdata,
#                          drumlin_free_fn free_userdata, drumlin_token **out_token);
drumlin_dict_observe = _fn(
    "drumlin_dict_observe",
    [drumlin_dict_p, drumlin_changes_fn, c_void_p, drumlin_free_fn, POINTER(drumlin_token_p)],
)
# void drumlin_token_release(drumlin_token *token);
drumlin_token_release = _fn("drumlin_token_release", [drumlin_token_p], None, None)
# int drumlin_changes_indices(const drumlin_changes *changes, int kind, const size_t **out_indices,
#                             size_t *out_count);
drumlin_changes_indices = _fn(
    "drumlin_changes_indices", [drumlin_changes_p, c_int, POINTER(POINTER(c_size_t)), POINTER(c_size_t)]
)
# int drumlin_changes_keys(const drumlin_changes *changes, int kind, const char *const **out_keys,
#                          size_t *out_count);
drumlin_changes_keys = _fn(
    "drumlin_changes_keys", [drumlin_changes_p, c_int, POINTER(POINTER(c_char_p)), POINTER(c_size_t)]
)
# int drumlin_changes_deleted(const drumlin_changes *changes, int *out_deleted);
drumlin_changes_deleted = _fn("drumlin_changes_deleted", [drumlin_changes_p, POINTER(c_int)])
# int drumlin_changes_properties(const drumlin_changes *changes, const char *const **out_names,
#                                size_t *out_count);
drumlin_changes_properties = _fn(
    "drumlin_changes_properties", [drumlin_changes_p, POINTER(POINTER(c_char_p)), POINTER(c_size_t)]
)
# int drumlin_changes_property_values(const drumlin_changes *changes, size_t index, drumlin_value *out_old,
#                                     drumlin_value *out_new, int *out_has_values);
drumlin_changes_property_values = _fn(
    "drumlin_changes_property_values",
    [drumlin_changes_p, c_size_t, drumlin_value_p, drumlin_value_p, POINTER(c_int)],
)
# int drumlin_refresh(drumlin_db *db, int *out_changed);
drumlin_refresh = _fn("drumlin_refresh", [drumlin_db_p, POINTER(c_int)])
# int drumlin_has_changes(drumlin_db *db, int *out_changed);
drumlin_has_changes = _fn("drumlin_has_changes", [drumlin_db_p, POINTER(c_int)])
# int drumlin_commit_without_notifying(drumlin_db *db, drumlin_token *const *tokens, size_t count);
drumlin_commit_without_notifying = _fn(
    "drumlin_commit_without_notifying", [drumlin_db_p, POINTER(drumlin_token_p), c_size_t]
)

# ---- Unchecked entry points of the hot row calls -----------------------------------------------
#
# The calls an object read or a dict read makes once per object or per read, and the attribute
# write of a number or bool (obj.score = x): ctypes' argtypes
# conversion and errcheck cost more than the call's own Python around it (docs/performance.md,
# "The documented object API", has the callgrind counts). These are second function pointers to the
# functions declared above, with the same restype and no argtypes or errcheck: every argument must
# already be a ctypes object of the declared type (or bytes / None for a char *; or a Python int
# for an int32_t, which ctypes passes as a C int ~0.02 us faster than a c_int32), and the caller
# checks the status (_raise). UNCHECKED pairs each with its declaration (tests/test_ffi_unchecked.py
# checks that they are the same C function).


def _unchecked(declared: Any) -> Any:
    raw = lib[declared.__name__]
    raw.restype = declared.restype
    return raw


drumlin_object_find_row_unchecked = _unchecked(drumlin_object_find_row)
drumlin_object_read_row_unchecked = _unchecked(drumlin_object_read_row)
drumlin_results_get_rows_unchecked = _unchecked(drumlin_results_get_rows)
drumlin_results_get_rows_keyed_unchecked = _unchecked(drumlin_results_get_rows_keyed)
drumlin_object_find_marshal_unchecked = _unchecked(drumlin_object_find_marshal)
drumlin_object_get_marshal_unchecked = _unchecked(drumlin_object_get_marshal)
drumlin_object_read_marshal_unchecked = _unchecked(drumlin_object_read_marshal)
drumlin_results_get_marshal_unchecked = _unchecked(drumlin_results_get_marshal)
drumlin_query_marshal_unchecked = _unchecked(drumlin_query_marshal)
drumlin_query_first_rows_unchecked = _unchecked(drumlin_query_first_rows)
drumlin_object_write_by_key_unchecked = _unchecked(drumlin_object_write_by_key)
UNCHECKED = (
    (drumlin_object_find_row_unchecked, drumlin_object_find_row),
    (drumlin_object_read_row_unchecked, drumlin_object_read_row),
    (drumlin_results_get_rows_unchecked, drumlin_results_get_rows),
    (drumlin_results_get_rows_keyed_unchecked, drumlin_results_get_rows_keyed),
    (drumlin_object_find_marshal_unchecked, drumlin_object_find_marshal),
    (drumlin_object_get_marshal_unchecked, drumlin_object_get_marshal),
    (drumlin_object_read_marshal_unchecked, drumlin_object_read_marshal),
    (drumlin_results_get_marshal_unchecked, drumlin_results_get_marshal),
    (drumlin_query_marshal_unchecked, drumlin_query_marshal),
    (drumlin_query_first_rows_unchecked, drumlin_query_first_rows),
    (drumlin_object_write_by_key_unchecked, drumlin_object_write_by_key),
)

# ---- Sync --------------------------------------------------------------------------------------

# int drumlin_options_set_sync(drumlin_options *options, const char *url, drumlin_sync_token_fn token_fn,
#                              void *userdata, drumlin_free_fn free_userdata);
drumlin_options_set_sync = _fn(
    "drumlin_options_set_sync", [drumlin_options_p, c_char_p, drumlin_sync_token_fn, c_void_p, drumlin_free_fn]
)
# int drumlin_options_set_sync_ca_file(drumlin_options *options, const char *path);
drumlin_options_set_sync_ca_file = _fn("drumlin_options_set_sync_ca_file", [drumlin_options_p, c_char_p])
# int drumlin_options_set_sync_callbacks(drumlin_options *options, drumlin_sync_progress_fn progress_fn,
#                                        drumlin_sync_error_fn error_fn, void *userdata, drumlin_free_fn free_userdata);
drumlin_options_set_sync_callbacks = _fn(
    "drumlin_options_set_sync_callbacks",
    [drumlin_options_p, drumlin_sync_progress_fn, drumlin_sync_error_fn, c_void_p, drumlin_free_fn],
)
# int drumlin_sync_token_set(drumlin_sync_token_request *request, const char *token);
drumlin_sync_token_set = _fn("drumlin_sync_token_set", [drumlin_sync_token_request_p, c_char_p])
# int drumlin_sync_wait_for_upload(drumlin_db *db, int64_t timeout_ms);
drumlin_sync_wait_for_upload = _fn("drumlin_sync_wait_for_upload", [drumlin_db_p, c_int64])
# int drumlin_sync_pause(drumlin_db *db);
drumlin_sync_pause = _fn("drumlin_sync_pause", [drumlin_db_p])
# int drumlin_sync_resume(drumlin_db *db);
drumlin_sync_resume = _fn("drumlin_sync_resume", [drumlin_db_p])
# int drumlin_sync_state(drumlin_db *db, int *out_state, int *out_paused, int64_t *out_uploaded, int64_t *out_pending);
drumlin_sync_state = _fn(
    "drumlin_sync_state", [drumlin_db_p, POINTER(c_int), POINTER(c_int), POINTER(c_int64), POINTER(c_int64)]
)
