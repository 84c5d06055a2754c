/*
 * addon.h — what the addon's files share: handles (an external per engine handle, released by
 * its finalizer), the argument and status macros, the macros that write the common shapes of
 * exported function (GETTER, ACTION, STRING_GETTER, STRING_SETTER), and the value conversions
 * (addon.c).
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

/* A drumlin_* status that is an error (NOT_FOUND is an answer: a null result). */
#define FAILED(status) ((status) != DRUMLIN_OK && (status) != DRUMLIN_NOT_FOUND)

#define CALL(expr)                                                                                                \
    do {                                                                                                          \
        int status_ = (expr);                                                                                     \
        if (FAILED(status_)) return throw_status(env, status_);                                                   \
    } while (0)

/* CALL for a call that reads the strings in `strings` (an array, from STRINGS): frees them all,
 * whatever the status. */
#define CALL_FREE(strings, expr)                                                                                  \
    do {                                                                                                          \
        int status_ = (expr);                                                                                     \
        free_strings((strings), sizeof(strings) / sizeof(strings)[0]);                                           \
        if (FAILED(status_)) return throw_status(env, status_);                                                   \
    } while (0)

#define UNWRAP(var, type, kind, arg)                                                                              \
    type *var = unwrap(env, (arg), (kind));                                                                       \
    if (!var) return NULL

/* char *var[n]: the string arguments argv[first] .. argv[first + n - 1] (malloc'd, freed by
 * CALL_FREE or free_strings); bit i of `nullable` lets argument first + i be null or undefined
 * (NULL). When one is not a string: a TypeError, nothing left allocated, and the function returns. */
#define STRINGS(var, n, first, nullable)                                                                          \
    char *var[n];                                                                                                 \
    if (!get_strings(env, argv + (first), (n), (nullable), var)) return NULL

/* drumlin_value var from a JS argument (from_js); its string, if any, in var##_storage[0] (an array
 * for CALL_FREE). Returns NULL from the function, with the TypeError thrown, when it is not one. */
#define VALUE(var, arg)                                                                                           \
    drumlin_value var;                                                                                            \
    char *var##_storage[1];                                                                                       \
    if (!from_js(env, (arg), &var, &var##_storage[0])) return NULL

/* fname(handle) -> make(env, out): one drumlin_* call with one out parameter of type otype. */
#define GETTER(fname, htype, kind, call, otype, make)                                                             \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(1);                                                                                                  \
        UNWRAP(h, htype, kind, argv[0]);                                                                          \
        otype out = 0;                                                                                            \
        CALL(call(h, &out));                                                                                      \
        return make(env, out);                                                                                    \
    }

/* fname(handle): a call that takes only the handle and returns nothing. */
#define ACTION(fname, htype, kind, call)                                                                          \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(1);                                                                                                  \
        UNWRAP(h, htype, kind, argv[0]);                                                                          \
        CALL(call(h));                                                                                            \
        return make_undefined(env);                                                                               \
    }

/* fname(handle, string) -> make(env, out): GETTER with a string argument before the out parameter. */
#define STRING_GETTER(fname, htype, kind, call, otype, make)                                                      \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(2);                                                                                                  \
        UNWRAP(h, htype, kind, argv[0]);                                                                          \
        STRINGS(s, 1, 1, 0);                                                                                      \
        otype out = 0;                                                                                            \
        CALL_FREE(s, call(h, s[0], &out));                                                                        \
        return make(env, out);                                                                                    \
    }

/* fname(handle, string): a call that takes the handle and one string (JSON) and returns nothing. */
#define STRING_SETTER(fname, htype, kind, call)                                                                   \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(2);                                                                                                  \
        UNWRAP(h, htype, kind, argv[0]);                                                                          \
        STRINGS(s, 1, 1, 0);                                                                                      \
        CALL_FREE(s, call(h, s[0]));                                                                              \
        return make_undefined(env);                                                                               \
    }

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
int get_strings(napi_env env, const napi_value *argv, size_t n, unsigned nullable, char **out);
void free_strings(char **strings, size_t n);
int64_t get_int64(napi_env env, napi_value value);
int32_t get_int32(napi_env env, napi_value value);
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
