/*
 * addon.h — what the addon's files share: handles (an external per engine handle, released by
 * its finalizer), the argument and status macros, and the value conversions (addon.c).
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 */
#ifndef DRUMLIN_NODE_ADDON_H
#define DRUMLIN_NODE_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drumlin.h"

enum { K_DB = 1, K_OBJECT, K_RESULTS, K_LIST, K_SET, K_DICT, K_TOKEN };

typedef struct handle {
    int kind;
    int owned;   /* 0: borrowed (a migration's databases): never released here */
    void *ptr;   /* NULL once closed or released */
} handle;

#define CHECK_NAPI(call)                                                                                          \
    do {                                                                                                          \
        if ((call) != napi_ok) {                                                                                  \
            bool pending_ = false;                                                                                \
            napi_is_exception_pending(env, &pending_);                                                            \
            if (!pending_) napi_throw_error(env, "DRUMLIN_NODE", "Node-API call failed: " #call);                  \
            return NULL;                                                                                          \
        }                                                                                                         \
    } while (0)

#define ARGS(n)                                                                                                   \
    size_t argc = (n);                                                                                            \
    napi_value argv[(n) > 0 ? (n) : 1];                                                                           \
    CHECK_NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL))

#define CALL(expr)                                                                                                \
    do {                                                                                                          \
        int status_ = (expr);                                                                                     \
        if (status_ != DRUMLIN_OK && status_ != DRUMLIN_NOT_FOUND) return throw_status(env, status_);             \
    } while (0)

#define UNWRAP(var, type, kind, arg)                                                                              \
    type *var = unwrap(env, (arg), (kind));                                                                       \
    if (!var) return NULL

#define STRING(var, arg, nullable)                                                                                \
    int var##_failed = 0;                                                                                         \
    char *var = get_string(env, (arg), (nullable), &var##_failed);                                                \
    if (var##_failed) return NULL

/* One exported function: its JavaScript name and its body. Each file lists its own. */
typedef struct addon_function {
    const char *name;
    napi_callback fn;
} addon_function;

napi_value throw_status(napi_env env, int status);
void release_handle(handle *h);
void finalize_handle(napi_env env, void *data, void *hint);
napi_value wrap(napi_env env, int kind, void *ptr, int owned);
handle *unwrap_any(napi_env env, napi_value value, int kind);
void *unwrap(napi_env env, napi_value value, int kind);
char *get_string(napi_env env, napi_value value, int nullable, int *failed);
int64_t get_int64(napi_env env, napi_value value);
napi_value make_undefined(napi_env env);
napi_value make_null(napi_env env);
napi_value make_bool(napi_env env, int b);
napi_value make_number(napi_env env, double d);
napi_value make_string(napi_env env, const char *data, size_t size);
napi_value take_json(napi_env env, char *json);
napi_value call_factory(napi_env env, napi_ref ref, size_t argc, napi_value *argv);
napi_value make_bytes(napi_env env, const void *data, size_t size);
napi_value to_js(napi_env env, const drumlin_value *value);
int from_js(napi_env env, napi_value js, drumlin_value *out, char **storage);

extern const addon_function addon_database_functions[];
extern const size_t addon_database_count;
extern const addon_function addon_object_functions[];
extern const size_t addon_object_count;
extern const addon_function addon_collection_functions[];
extern const size_t addon_collection_count;
extern const addon_function addon_notification_functions[];
extern const size_t addon_notification_count;

#endif
