/*
 * collections.c — lists, sets and dictionaries.
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 */
#include "addon.h"

/*---- Lists, sets, dictionaries -----------------------------------------------------------------*/

GETTER(js_list_size, drumlin_list, K_LIST, drumlin_list_size, size_t, make_number)
GETTER(js_set_size, drumlin_set, K_SET, drumlin_set_size, size_t, make_number)
GETTER(js_dict_size, drumlin_dict, K_DICT, drumlin_dict_size, size_t, make_number)

ACTION(js_list_clear, drumlin_list, K_LIST, drumlin_list_clear)
ACTION(js_set_clear, drumlin_set, K_SET, drumlin_set_clear)
ACTION(js_dict_clear, drumlin_dict, K_DICT, drumlin_dict_clear)

/* listGet(list, index) / setGet(set, index) -> value */
#define ELEMENT(fname, ctype, kind, call)                                                                         \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(2);                                                                                                  \
        UNWRAP(c, ctype, kind, argv[0]);                                                                          \
        drumlin_value value;                                                                                      \
        CALL(call(c, (size_t)get_int64(env, argv[1]), &value));                                                   \
        return to_js(env, &value);                                                                                \
    }
ELEMENT(js_list_get, drumlin_list, K_LIST, drumlin_list_get)
ELEMENT(js_set_get, drumlin_set, K_SET, drumlin_set_get)

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
        STRINGS(json, 1, 2, 0);                                                                                   \
        CALL_FREE(json, call(list, (size_t)get_int64(env, argv[1]), json[0]));                                    \
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

static napi_value js_list_find(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    VALUE(value, argv[1]);
    size_t index = 0;
    int found = 0;
    CALL_FREE(value_storage, drumlin_list_find(list, &value, &index, &found));
    return make_number(env, found ? (double)index : -1.0);
}

static napi_value js_list_query(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(list, drumlin_list, K_LIST, argv[0]);
    STRINGS(s, 2, 1, 3); /* query | null, argsJson | null */
    drumlin_results *out = NULL;
    CALL_FREE(s, drumlin_list_query(list, s[0], s[1], &out));
    return wrap(env, K_RESULTS, out, 1);
}

/* setFind(set, value) -> found / setErase(set, value) -> erased */
#define SET_VALUE(fname, call)                                                                                    \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(2);                                                                                                  \
        UNWRAP(set, drumlin_set, K_SET, argv[0]);                                                                 \
        VALUE(value, argv[1]);                                                                                    \
        int result = 0;                                                                                           \
        CALL_FREE(value_storage, call(set, &value, &result));                                                     \
        return make_bool(env, result);                                                                            \
    }
SET_VALUE(js_set_find, drumlin_set_find)
SET_VALUE(js_set_erase, drumlin_set_erase)

STRING_GETTER(js_set_insert_many_json, drumlin_set, K_SET, drumlin_set_insert_many_json, size_t, make_number)

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
    STRINGS(key, 1, 1, 0);
    drumlin_value value;
    int found = 0;
    CALL_FREE(key, drumlin_dict_find(dict, key[0], &value, &found));
    return found ? to_js(env, &value) : make_undefined(env);
}

STRING_SETTER(js_dict_insert_many_json, drumlin_dict, K_DICT, drumlin_dict_insert_many_json)

STRING_GETTER(js_dict_erase, drumlin_dict, K_DICT, drumlin_dict_erase, int, make_bool)

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
