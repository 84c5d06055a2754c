/*
 * notifications.c — observing objects, results and collections: each delivery becomes a plain object handed to a JavaScript function; releasing handles early.
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 */
#include "addon.h"

/*---- Notifications -----------------------------------------------------------------------------*/

typedef struct observer {
    napi_env env;
    napi_ref callback;   /* receives one plain object per delivery */
    int kind;            /* K_RESULTS / K_LIST / K_SET: indices; K_OBJECT: properties; K_DICT: keys */
} observer;

static void free_observer(void *userdata) {
    observer *o = userdata;
    napi_delete_reference(o->env, o->callback);
    free(o);
}

static napi_value index_array(napi_env env, const drumlin_changes *changes, int kind) {
    const size_t *indices = NULL;
    size_t count = 0;
    napi_value array;
    drumlin_changes_indices(changes, kind, &indices, &count);
    napi_create_array_with_length(env, count, &array);
    for (size_t i = 0; i < count; i++) napi_set_element(env, array, (uint32_t)i, make_number(env, (double)indices[i]));
    return array;
}

static napi_value key_array(napi_env env, const drumlin_changes *changes, int kind) {
    const char *const *keys = NULL;
    size_t count = 0;
    napi_value array;
    drumlin_changes_keys(changes, kind, &keys, &count);
    napi_create_array_with_length(env, count, &array);
    for (size_t i = 0; i < count; i++)
        napi_set_element(env, array, (uint32_t)i, make_string(env, keys[i], strlen(keys[i])));
    return array;
}

/* Runs inside the drumlin call that delivers (a commit or refresh made from JavaScript): builds
 * the change set and hands it to the JavaScript queue, which calls listeners later. */
static void deliver(void *userdata, const drumlin_changes *changes) {
    observer *o = userdata;
    napi_env env = o->env;
    napi_handle_scope scope;
    napi_open_handle_scope(env, &scope);
    napi_value set, fn, global, result;
    napi_create_object(env, &set);
    if (o->kind == K_OBJECT) {
        int deleted = 0;
        const char *const *names = NULL;
        size_t count = 0;
        drumlin_changes_deleted(changes, &deleted);
        drumlin_changes_properties(changes, &names, &count);
        napi_value array;
        napi_create_array_with_length(env, count, &array);
        for (size_t i = 0; i < count; i++)
            napi_set_element(env, array, (uint32_t)i, make_string(env, names[i], strlen(names[i])));
        napi_set_named_property(env, set, "deleted", make_bool(env, deleted));
        napi_set_named_property(env, set, "changedProperties", array);
    } else if (o->kind == K_DICT) {
        napi_set_named_property(env, set, "deletions", key_array(env, changes, DRUMLIN_CHANGE_DELETIONS));
        napi_set_named_property(env, set, "insertions", key_array(env, changes, DRUMLIN_CHANGE_INSERTIONS));
        napi_set_named_property(env, set, "modifications", key_array(env, changes, DRUMLIN_CHANGE_MODIFICATIONS));
    } else {
        napi_set_named_property(env, set, "deletions", index_array(env, changes, DRUMLIN_CHANGE_DELETIONS));
        napi_set_named_property(env, set, "insertions", index_array(env, changes, DRUMLIN_CHANGE_INSERTIONS));
        napi_set_named_property(env, set, "modifications", index_array(env, changes, DRUMLIN_CHANGE_MODIFICATIONS));
    }
    napi_get_reference_value(env, o->callback, &fn);
    napi_get_global(env, &global);
    if (napi_call_function(env, global, fn, 1, &set, &result) != napi_ok) {
        napi_value ignored;
        napi_get_and_clear_last_exception(env, &ignored);
    }
    napi_close_handle_scope(env, scope);
}

/* observe(kind handle, keyPathsJson | null, callback) -> token */
static napi_value js_observe(napi_env env, napi_callback_info info) {
    ARGS(3);
    napi_valuetype type;
    void *data = NULL;
    napi_typeof(env, argv[0], &type);
    if (type != napi_external || napi_get_value_external(env, argv[0], &data) != napi_ok || !data) {
        napi_throw_type_error(env, NULL, "Expected a drumlin handle");
        return NULL;
    }
    handle *h = data;
    if (!h->ptr) {
        napi_throw_error(env, "DRUMLIN_ERR_MISUSE", "The handle was closed or released.");
        return NULL;
    }
    STRINGS(paths, 1, 1, 1); /* keyPathsJson | null */
    observer *o = malloc(sizeof *o);
    o->env = env;
    o->kind = h->kind;
    napi_create_reference(env, argv[2], 1, &o->callback);
    drumlin_token *token = NULL;
    int status;
    switch (h->kind) {
    case K_RESULTS: status = drumlin_results_observe(h->ptr, paths[0], deliver, o, free_observer, &token); break;
    case K_OBJECT: status = drumlin_object_observe(h->ptr, paths[0], deliver, o, free_observer, &token); break;
    case K_LIST: status = drumlin_list_observe(h->ptr, paths[0], deliver, o, free_observer, &token); break;
    case K_SET: status = drumlin_set_observe(h->ptr, paths[0], deliver, o, free_observer, &token); break;
    case K_DICT: status = drumlin_dict_observe(h->ptr, deliver, o, free_observer, &token); break;
    default:
        free_strings(paths, 1);
        free_observer(o);
        napi_throw_type_error(env, NULL, "This handle cannot be observed");
        return NULL;
    }
    CALL_FREE(paths, status);
    return wrap(env, K_TOKEN, token, 1);
}

static napi_value js_token_release(napi_env env, napi_callback_info info) {
    ARGS(1);
    handle *h = unwrap_any(env, argv[0], K_TOKEN);
    if (!h) return NULL;
    release_handle(h);
    return make_undefined(env);
}

/* release(handle): free a handle now rather than at garbage collection. */
static napi_value js_release(napi_env env, napi_callback_info info) {
    ARGS(1);
    void *data = NULL;
    if (napi_get_value_external(env, argv[0], &data) == napi_ok && data && ((handle *)data)->kind != K_DB)
        release_handle(data);
    return make_undefined(env);
}

const addon_function addon_notification_functions[] = {
    {"observe", js_observe},
    {"tokenRelease", js_token_release},
    {"release", js_release},
};
const size_t addon_notification_count = sizeof addon_notification_functions / sizeof addon_notification_functions[0];
