/*
 * objects.c — objects (create, find, read, write, delete, links) and queries with their live results.
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 */
#include "addon.h"

/*---- Objects -----------------------------------------------------------------------------------*/

/* createObject(db, className, json, updateMode, wantHandle) -> object handle | null */
static napi_value js_create_object(napi_env env, napi_callback_info info) {
    ARGS(5);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRINGS(s, 2, 1, 0); /* className, json */
    int32_t mode = get_int32(env, argv[3]);
    bool want = true;
    napi_get_value_bool(env, argv[4], &want);
    drumlin_object *object = NULL;
    CALL_FREE(s, want ? drumlin_object_create_json(db, s[0], s[1], mode, &object)
                      : drumlin_create_json(db, s[0], s[1], mode, NULL));
    return wrap(env, K_OBJECT, object, 1);
}

/* findObject(db, className, primaryKey) -> object handle | null */
static napi_value js_find_object(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRINGS(name, 1, 1, 0);
    drumlin_value key;
    char *storage = NULL;
    if (!from_js(env, argv[2], &key, &storage)) {
        free_strings(name, 1);
        return NULL;
    }
    drumlin_object *object = NULL;
    int status = drumlin_object_find(db, name[0], &key, &object);
    free(storage);
    CALL_FREE(name, status);
    return wrap(env, K_OBJECT, object, 1);
}

/* findByKey(db, className, key) -> object handle | null */
static napi_value js_find_by_key(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRINGS(name, 1, 1, 0);
    drumlin_object *object = NULL;
    CALL_FREE(name, drumlin_object_find_by_key(db, name[0], get_int64(env, argv[2]), &object));
    return wrap(env, K_OBJECT, object, 1);
}

GETTER(js_object_key, drumlin_object, K_OBJECT, drumlin_object_key, int64_t, make_number)
GETTER(js_object_class_index, drumlin_object, K_OBJECT, drumlin_object_class_index, int32_t, make_number)
GETTER(js_object_to_json, drumlin_object, K_OBJECT, drumlin_object_to_json, char *, take_json)

static napi_value js_object_is_valid(napi_env env, napi_callback_info info) {
    ARGS(1);
    handle *h = unwrap_any(env, argv[0], K_OBJECT);
    if (!h) return NULL;
    if (!h->ptr) return make_bool(env, 0);
    int valid = 0;
    if (drumlin_object_is_valid(h->ptr, &valid) != DRUMLIN_OK) return make_bool(env, 0);
    return make_bool(env, valid);
}

/* getProperty(object, propertyIndex) -> value */
static napi_value js_object_get(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    drumlin_value value;
    CALL(drumlin_object_get_at(object, get_int32(env, argv[1]), &value));
    return to_js(env, &value);
}

/* getValues(object, indices: Int32Array) -> [value, ...]: several properties in one database read
 * (drumlin_object_get_values), for the accessors' row cache (lib/object.js). */
static napi_value js_object_get_values(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    bool is_typed = false;
    napi_typedarray_type type = napi_int8_array;
    size_t count = 0;
    void *data = NULL;
    CHECK_NAPI(napi_is_typedarray(env, argv[1], &is_typed));
    if (is_typed) CHECK_NAPI(napi_get_typedarray_info(env, argv[1], &type, &count, &data, NULL, NULL));
    if (!is_typed || type != napi_int32_array || count == 0 || count > 4096) {
        napi_throw_type_error(env, NULL, "Expected an Int32Array of 1 to 4096 property indices");
        return NULL;
    }
    drumlin_value *values = malloc(count * sizeof *values);
    if (!values) {
        napi_throw_error(env, "DRUMLIN_ERR_NO_MEMORY", "Out of memory");
        return NULL;
    }
    int status = drumlin_object_get_values(object, count, data, values);
    if (FAILED(status)) {
        free(values);
        return throw_status(env, status);
    }
    napi_value array = NULL;
    if (napi_create_array_with_length(env, count, &array) == napi_ok) {
        for (size_t i = 0; i < count; i++) {
            napi_value item = to_js(env, &values[i]);
            if (!item || napi_set_element(env, array, (uint32_t)i, item) != napi_ok) {
                array = NULL;
                break;
            }
        }
    }
    free(values);
    return array;
}

/* resultsGetValues(results, start, maxRows, indices: Int32Array, withKeys) -> [[values of row 0..., row 1...],
 * [keys, when withKeys]]:
 * a page of rows of the results (drumlin_results_get_values), for iteration (lib/collections.js). */
static napi_value js_results_get_values(napi_env env, napi_callback_info info) {
    ARGS(5);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    bool with_keys = true;
    CHECK_NAPI(napi_get_value_bool(env, argv[4], &with_keys));
    int64_t start = 0, max_rows = 0;
    CHECK_NAPI(napi_get_value_int64(env, argv[1], &start));
    CHECK_NAPI(napi_get_value_int64(env, argv[2], &max_rows));
    bool is_typed = false;
    napi_typedarray_type type = napi_int8_array;
    size_t count = 0;
    void *data = NULL;
    CHECK_NAPI(napi_is_typedarray(env, argv[3], &is_typed));
    if (is_typed) CHECK_NAPI(napi_get_typedarray_info(env, argv[3], &type, &count, &data, NULL, NULL));
    if (!is_typed || type != napi_int32_array || count == 0 || count > 4096 || start < 0 || max_rows < 1 ||
        max_rows > 4096) {
        napi_throw_type_error(env, NULL, "Expected a start >= 0, 1 to 4096 rows and an Int32Array of 1 to 4096 property indices");
        return NULL;
    }
    drumlin_value *values = malloc((size_t)max_rows * count * sizeof *values);
    if (!values) {
        napi_throw_error(env, "DRUMLIN_ERR_NO_MEMORY", "Out of memory");
        return NULL;
    }
    int64_t *keys = malloc((size_t)max_rows * sizeof *keys);
    if (!keys) {
        free(values);
        napi_throw_error(env, "DRUMLIN_ERR_NO_MEMORY", "Out of memory");
        return NULL;
    }
    /* The rows' values (their strings borrowed until the next call on the results: converted
     * first), then their object keys (drumlin_results_get_rows_keyed with no room for the packed
     * rows: only the keys are wanted). Both read the same rows: no JS runs between them. */
    size_t rows = 0, packed_size = 0;
    int status = drumlin_results_get_values(results, (size_t)start, (size_t)max_rows, count, data, values, &rows);
    napi_value page = NULL, array = NULL, key_array = NULL;
    if (!FAILED(status) && napi_create_array_with_length(env, 2, &page) == napi_ok &&
        napi_create_array_with_length(env, rows * count, &array) == napi_ok) {
        for (size_t i = 0; i < rows * count && page; i++) {
            napi_value item = to_js(env, &values[i]);
            if (!item || napi_set_element(env, array, (uint32_t)i, item) != napi_ok) page = NULL;
        }
    } else {
        page = NULL;
    }
    if (!FAILED(status) && page && with_keys) {
        status = drumlin_results_get_rows_keyed(results, (size_t)start, (size_t)max_rows, keys, NULL, 0, &packed_size);
    }
    if (FAILED(status)) {
        free(values);
        free(keys);
        return throw_status(env, status);
    }
    if (page && napi_create_array_with_length(env, with_keys ? rows : 0, &key_array) == napi_ok) {
        for (size_t i = 0; i < (with_keys ? rows : 0) && page; i++) {
            napi_value item = make_number(env, (double)keys[i]);
            if (!item || napi_set_element(env, key_array, (uint32_t)i, item) != napi_ok) page = NULL;
        }
        if (page && (napi_set_element(env, page, 0, array) != napi_ok || napi_set_element(env, page, 1, key_array) != napi_ok)) {
            page = NULL;
        }
    } else {
        page = NULL;
    }
    free(values);
    free(keys);
    return page;
}

/* readVersion(db) -> ArrayBuffer over the database's read version (drumlin_db_read_version): JS
 * reads the 64-bit word as two Uint32 without a call. Valid until the database closes: lib/realm.js
 * drops it at close and never reads it for a closed realm. */
static napi_value js_read_version(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    const volatile uint64_t *version = NULL;
    CALL(drumlin_db_read_version(db, &version));
    napi_value buffer;
    CHECK_NAPI(napi_create_external_arraybuffer(env, (void *)(uintptr_t)version, sizeof *version, NULL, NULL, &buffer));
    return buffer;
}

/* updateJson(object, json) */
STRING_SETTER(js_object_update_json, drumlin_object, K_OBJECT, drumlin_object_update_json)

ACTION(js_object_delete, drumlin_object, K_OBJECT, drumlin_object_delete)

#define OBJECT_CHILD(fname, call, kind, ctype)                                                                    \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(2);                                                                                                  \
        UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);                                                        \
        STRINGS(name, 1, 1, 0);                                                                                   \
        ctype *child = NULL;                                                                                      \
        CALL_FREE(name, call(object, name[0], &child));                                                           \
        return wrap(env, kind, child, 1);                                                                         \
    }
OBJECT_CHILD(js_object_get_linked, drumlin_object_get_linked, K_OBJECT, drumlin_object)
OBJECT_CHILD(js_object_get_list, drumlin_object_get_list, K_LIST, drumlin_list)
OBJECT_CHILD(js_object_get_set, drumlin_object_get_set, K_SET, drumlin_set)
OBJECT_CHILD(js_object_get_dict, drumlin_object_get_dict, K_DICT, drumlin_dict)
OBJECT_CHILD(js_object_get_backlinks, drumlin_object_get_backlinks, K_RESULTS, drumlin_results)

/* getMixedJson(object, propertyName, pathJson) -> json */
static napi_value js_object_get_mixed_json(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    STRINGS(s, 2, 1, 0); /* propertyName, pathJson */
    char *json = NULL;
    CALL_FREE(s, drumlin_object_get_mixed_json(object, s[0], s[1], &json));
    return take_json(env, json);
}

/*---- Queries and results -----------------------------------------------------------------------*/

/* query(db, className, query | null, argsJson | null) -> results */
static napi_value js_query(napi_env env, napi_callback_info info) {
    ARGS(4);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRINGS(s, 3, 1, 6); /* className, query | null, argsJson | null */
    drumlin_results *results = NULL;
    CALL_FREE(s, drumlin_query(db, s[0], s[1], s[2], &results));
    return wrap(env, K_RESULTS, results, 1);
}

static napi_value js_results_filter(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    STRINGS(s, 2, 1, 2); /* query, argsJson | null */
    drumlin_results *out = NULL;
    CALL_FREE(s, drumlin_results_filter(results, s[0], s[1], &out));
    return wrap(env, K_RESULTS, out, 1);
}

static napi_value js_results_sort(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    STRINGS(descriptor, 1, 1, 0);
    drumlin_results *out = NULL;
    CALL_FREE(descriptor, drumlin_results_sort(results, descriptor[0], &out));
    return wrap(env, K_RESULTS, out, 1);
}

static napi_value js_results_snapshot(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    drumlin_results *out = NULL;
    CALL(drumlin_results_snapshot(results, &out));
    return wrap(env, K_RESULTS, out, 1);
}

GETTER(js_results_count, drumlin_results, K_RESULTS, drumlin_results_count, size_t, make_number)
GETTER(js_results_delete_all, drumlin_results, K_RESULTS, drumlin_results_delete_all, int64_t, make_number)

static napi_value js_results_get_object(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    int64_t index = get_int64(env, argv[1]);
    drumlin_object *object = NULL;
    CALL(drumlin_results_get_object(results, (size_t)index, &object));
    return wrap(env, K_OBJECT, object, 1);
}

static napi_value js_results_index_of_key(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    int64_t index = -1;
    CALL(drumlin_results_index_of_key(results, get_int64(env, argv[1]), &index));
    return make_number(env, (double)index);
}

/* aggregate(results, op 0..3 = min/max/sum/avg, propertyName) -> value */
static napi_value js_results_aggregate(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    int32_t op = get_int32(env, argv[1]);
    STRINGS(name, 1, 2, 0);
    drumlin_value value;
    int status;
    switch (op) {
    case 0: status = drumlin_results_min(results, name[0], &value); break;
    case 1: status = drumlin_results_max(results, name[0], &value); break;
    case 2: status = drumlin_results_sum(results, name[0], &value); break;
    default: status = drumlin_results_average(results, name[0], &value); break;
    }
    CALL_FREE(name, status);
    return to_js(env, &value);
}

const addon_function addon_object_functions[] = {
    {"createObject", js_create_object},
    {"findObject", js_find_object},
    {"findByKey", js_find_by_key},
    {"objectKey", js_object_key},
    {"objectClassIndex", js_object_class_index},
    {"objectIsValid", js_object_is_valid},
    {"objectGet", js_object_get},
    {"objectGetValues", js_object_get_values},
    {"readVersion", js_read_version},
    {"resultsGetValues", js_results_get_values},
    {"objectUpdateJson", js_object_update_json},
    {"objectDelete", js_object_delete},
    {"objectToJson", js_object_to_json},
    {"objectGetLinked", js_object_get_linked},
    {"objectGetList", js_object_get_list},
    {"objectGetSet", js_object_get_set},
    {"objectGetDict", js_object_get_dict},
    {"objectGetBacklinks", js_object_get_backlinks},
    {"objectGetMixedJson", js_object_get_mixed_json},
    {"query", js_query},
    {"resultsFilter", js_results_filter},
    {"resultsSort", js_results_sort},
    {"resultsSnapshot", js_results_snapshot},
    {"resultsCount", js_results_count},
    {"resultsGetObject", js_results_get_object},
    {"resultsIndexOfKey", js_results_index_of_key},
    {"resultsAggregate", js_results_aggregate},
    {"resultsDeleteAll", js_results_delete_all},
};
const size_t addon_object_count = sizeof addon_object_functions / sizeof addon_object_functions[0];
