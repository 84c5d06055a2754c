/*
 * collections.c — lists, sets and dictionaries.
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 */
#include "addon.h"

/*---- Lists, sets, dictionaries -----------------------------------------------------------------*/

#define SIZE_FN(fname, ctype, kind, call)                                                                         \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(1);                                                                                                  \
        UNWRAP(c, ctype, kind, argv[0]);                                                                          \
        size_t size = 0;                                                                                          \
        CALL(call(c, &size));                                                                                     \
        return make_number(env, (double)size);                                                                    \
    }
SIZE_FN(js_list_size, drumlin_list, K_LIST, drumlin_list_size)
SIZE_FN(js_set_size, drumlin_set, K_SET, drumlin_set_size)
SIZE_FN(js_dict_size, drumlin_dict, K_DICT, drumlin_dict_size)

static napi_value js_list_get(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    drumlin_value value;
    CALL(drumlin_list_get(list, (size_t)get_int64(env, argv[1]), &value));
    return to_js(env, &value);
}

static napi_value js_list_get_object(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    drumlin_object *object = NULL;
    CALL(drumlin_list_get_object(list, (size_t)get_int64(env, argv[1]), &object));
    return wrap(env, K_OBJECT, object, 1);
}

/* listInsertJson(list, index, json) / listSetJson(list, index, json) / listInsertManyJson */
#define LIST_JSON(fname, call)                                                                                    \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(3);                                                                                                  \
        UNWRAP(list, drumlin_list, K_LIST, argv[0]);                                                              \
        STRING(json, argv[2], 0);                                                                                 \
        int status = call(list, (size_t)get_int64(env, argv[1]), json);                                           \
        free(json);                                                                                               \
        CALL(status);                                                                                             \
        return make_undefined(env);                                                                               \
    }
LIST_JSON(js_list_insert_json, drumlin_list_insert_json)
LIST_JSON(js_list_insert_many_json, drumlin_list_insert_many_json)
LIST_JSON(js_list_set_json, drumlin_list_set_json)

static napi_value js_list_move(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    CALL(drumlin_list_move(list, (size_t)get_int64(env, argv[1]), (size_t)get_int64(env, argv[2])));
    return make_undefined(env);
}

static napi_value js_list_erase(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    CALL(drumlin_list_erase(list, (size_t)get_int64(env, argv[1])));
    return make_undefined(env);
}

static napi_value js_list_clear(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    CALL(drumlin_list_clear(list));
    return make_undefined(env);
}

static napi_value js_list_find(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    drumlin_value value;
    char *storage;
    if (!from_js(env, argv[1], &value, &storage)) return NULL;
    size_t index = 0;
    int found = 0;
    int status = drumlin_list_find(list, &value, &index, &found);
    free(storage);
    CALL(status);
    return make_number(env, found ? (double)index : -1.0);
}

static napi_value js_list_query(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    STRING(query, argv[1], 1);
    int failed;
    char *args = get_string(env, argv[2], 1, &failed);
    if (failed) {
        free(query);
        return NULL;
    }
    drumlin_results *out = NULL;
    int status = drumlin_list_query(list, query, args, &out);
    free(query);
    free(args);
    CALL(status);
    return wrap(env, K_RESULTS, out, 1);
}

static napi_value js_set_get(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(set, drumlin_set, K_SET, argv[0]);
    drumlin_value value;
    CALL(drumlin_set_get(set, (size_t)get_int64(env, argv[1]), &value));
    return to_js(env, &value);
}

static napi_value js_set_find(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(set, drumlin_set, K_SET, argv[0]);
    drumlin_value value;
    char *storage;
    if (!from_js(env, argv[1], &value, &storage)) return NULL;
    int found = 0;
    int status = drumlin_set_find(set, &value, &found);
    free(storage);
    CALL(status);
    return make_bool(env, found);
}

static napi_value js_set_erase(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(set, drumlin_set, K_SET, argv[0]);
    drumlin_value value;
    char *storage;
    if (!from_js(env, argv[1], &value, &storage)) return NULL;
    int erased = 0;
    int status = drumlin_set_erase(set, &value, &erased);
    free(storage);
    CALL(status);
    return make_bool(env, erased);
}

static napi_value js_set_insert_many_json(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(set, drumlin_set, K_SET, argv[0]);
    STRING(json, argv[1], 0);
    size_t inserted = 0;
    int status = drumlin_set_insert_many_json(set, json, &inserted);
    free(json);
    CALL(status);
    return make_number(env, (double)inserted);
}

static napi_value js_set_clear(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(set, drumlin_set, K_SET, argv[0]);
    CALL(drumlin_set_clear(set));
    return make_undefined(env);
}

/* dictGet(dict, index) -> [key, value] */
static napi_value js_dict_get(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(dict, drumlin_dict, K_DICT, argv[0]);
    drumlin_value key, value;
    CALL(drumlin_dict_get(dict, (size_t)get_int64(env, argv[1]), &key, &value));
    napi_value pair, k = to_js(env, &key), v;
    if (!k) return NULL;
    v = to_js(env, &value);
    if (!v) return NULL;
    napi_create_array_with_length(env, 2, &pair);
    napi_set_element(env, pair, 0, k);
    napi_set_element(env, pair, 1, v);
    return pair;
}

/* dictFind(dict, key) -> value | undefined */
static napi_value js_dict_find(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(dict, drumlin_dict, K_DICT, argv[0]);
    STRING(key, argv[1], 0);
    drumlin_value value;
    int found = 0;
    int status = drumlin_dict_find(dict, key, &value, &found);
    free(key);
    CALL(status);
    return found ? to_js(env, &value) : make_undefined(env);
}

static napi_value js_dict_insert_many_json(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(dict, drumlin_dict, K_DICT, argv[0]);
    STRING(json, argv[1], 0);
    int status = drumlin_dict_insert_many_json(dict, json);
    free(json);
    CALL(status);
    return make_undefined(env);
}

static napi_value js_dict_erase(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(dict, drumlin_dict, K_DICT, argv[0]);
    STRING(key, argv[1], 0);
    int erased = 0;
    int status = drumlin_dict_erase(dict, key, &erased);
    free(key);
    CALL(status);
    return make_bool(env, erased);
}

static napi_value js_dict_clear(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(dict, drumlin_dict, K_DICT, argv[0]);
    CALL(drumlin_dict_clear(dict));
    return make_undefined(env);
}

const addon_function addon_collection_functions[] = {
    {"listSize", js_list_size},
    {"listGet", js_list_get},
    {"listGetObject", js_list_get_object},
    {"listInsertJson", js_list_insert_json},
    {"listInsertManyJson", js_list_insert_many_json},
    {"listSetJson", js_list_set_json},
    {"listMove", js_list_move},
    {"listErase", js_list_erase},
    {"listClear", js_list_clear},
    {"listFind", js_list_find},
    {"listQuery", js_list_query},
    {"setSize", js_set_size},
    {"setGet", js_set_get},
    {"setFind", js_set_find},
    {"setErase", js_set_erase},
    {"setInsertManyJson", js_set_insert_many_json},
    {"setClear", js_set_clear},
    {"dictSize", js_dict_size},
    {"dictGet", js_dict_get},
    {"dictFind", js_dict_find},
    {"dictInsertManyJson", js_dict_insert_many_json},
    {"dictErase", js_dict_erase},
    {"dictClear", js_dict_clear},
};
const size_t addon_collection_count = sizeof addon_collection_functions / sizeof addon_collection_functions[0];
