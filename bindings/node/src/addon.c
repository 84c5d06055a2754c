/*
 * drumlin_node.node — the Node-API addon: a thin translation of include/drumlin.h into JavaScript.
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 *
 * Every exported function unwraps handles, converts values, makes one drumlin_* call and turns a
 * failed status into a thrown Error (message: drumlin_last_error_message(); `code`: the status
 * name, e.g. "DRUMLIN_ERR_QUERY"). The Realm JS API is built on this in lib/ (JavaScript).
 *
 * Handles are externals carrying a kind and a pointer; a finalizer releases each one when the
 * garbage collector drops it. Values going in are Extended JSON text (the engine parses and
 * coerces them); values coming out are typed (drumlin_value) and become JS values here, the BSON
 * types through constructors the JavaScript layer registers with setFactories().
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "drumlin.h"

enum { K_DB = 1, K_OBJECT, K_RESULTS, K_LIST, K_SET, K_DICT, K_TOKEN };
static const char *const KIND_NAMES[] = {"", "database", "object", "results", "list", "set", "dictionary",
                                         "token"};

typedef struct handle {
    int kind;
    int owned;   /* 0: borrowed (a migration's databases): never released here */
    void *ptr;   /* NULL once closed or released */
} handle;

/* Constructors registered by the JavaScript layer (setFactories). */
static napi_ref factory_object_id, factory_uuid, factory_decimal128, factory_link;

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

/* A failed drumlin_* call: throw an Error with the engine's message and the status name as code. */
static napi_value throw_status(napi_env env, int status) {
    const char *message = drumlin_last_error_message();
    napi_value msg, code, error, number;
    napi_create_string_utf8(env, message && *message ? message : drumlin_status_name(status), NAPI_AUTO_LENGTH,
                            &msg);
    napi_create_string_utf8(env, drumlin_status_name(status), NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, msg, &error);
    napi_create_int32(env, status, &number);
    napi_set_named_property(env, error, "status", number);
    napi_throw(env, error);
    return NULL;
}

#define CALL(expr)                                                                                                \
    do {                                                                                                          \
        int status_ = (expr);                                                                                     \
        if (status_ != DRUMLIN_OK && status_ != DRUMLIN_NOT_FOUND) return throw_status(env, status_);             \
    } while (0)

static void release_handle(handle *h) {
    if (!h->ptr || !h->owned) return;
    switch (h->kind) {
    case K_DB: drumlin_close(h->ptr); break;
    case K_OBJECT: drumlin_object_release(h->ptr); break;
    case K_RESULTS: drumlin_results_release(h->ptr); break;
    case K_LIST: drumlin_list_release(h->ptr); break;
    case K_SET: drumlin_set_release(h->ptr); break;
    case K_DICT: drumlin_dict_release(h->ptr); break;
    case K_TOKEN: drumlin_token_release(h->ptr); break;
    }
    h->ptr = NULL;
}

static void finalize_handle(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    handle *h = data;
    release_handle(h);
    free(h);
}

static napi_value wrap(napi_env env, int kind, void *ptr, int owned) {
    if (!ptr) {
        napi_value null;
        napi_get_null(env, &null);
        return null;
    }
    handle *h = malloc(sizeof *h);
    if (!h) {
        napi_throw_error(env, "DRUMLIN_NODE", "out of memory");
        return NULL;
    }
    h->kind = kind;
    h->owned = owned;
    h->ptr = ptr;
    napi_value external;
    if (napi_create_external(env, h, finalize_handle, NULL, &external) != napi_ok) {
        release_handle(h);
        free(h);
        return NULL;
    }
    return external;
}

/* The handle behind `value`, of `kind`; NULL (with a TypeError thrown) when it is not one, and
 * NULL with an Error when it was closed and `open` is required. */
static handle *unwrap_any(napi_env env, napi_value value, int kind) {
    napi_valuetype type;
    void *data = NULL;
    if (napi_typeof(env, value, &type) != napi_ok || type != napi_external ||
        napi_get_value_external(env, value, &data) != napi_ok || !data || ((handle *)data)->kind != kind) {
        char text[96];
        snprintf(text, sizeof text, "Expected a drumlin %s handle", KIND_NAMES[kind]);
        napi_throw_type_error(env, NULL, text);
        return NULL;
    }
    return data;
}

static void *unwrap(napi_env env, napi_value value, int kind) {
    handle *h = unwrap_any(env, value, kind);
    if (!h) return NULL;
    if (!h->ptr) {
        napi_throw_error(env, "DRUMLIN_ERR_MISUSE", "The handle was closed or released.");
        return NULL;
    }
    return h->ptr;
}

#define UNWRAP(var, type, kind, arg)                                                                              \
    type *var = unwrap(env, (arg), (kind));                                                                       \
    if (!var) return NULL

/* A JS string argument as a malloc'd UTF-8 C string (NULL for null/undefined when allowed). */
static char *get_string(napi_env env, napi_value value, int nullable, int *failed) {
    napi_valuetype type;
    *failed = 0;
    napi_typeof(env, value, &type);
    if (nullable && (type == napi_null || type == napi_undefined)) return NULL;
    if (type != napi_string) {
        napi_throw_type_error(env, NULL, "Expected a string");
        *failed = 1;
        return NULL;
    }
    size_t length = 0;
    napi_get_value_string_utf8(env, value, NULL, 0, &length);
    char *text = malloc(length + 1);
    if (!text) {
        napi_throw_error(env, "DRUMLIN_NODE", "out of memory");
        *failed = 1;
        return NULL;
    }
    napi_get_value_string_utf8(env, value, text, length + 1, &length);
    return text;
}

#define STRING(var, arg, nullable)                                                                                \
    int var##_failed = 0;                                                                                         \
    char *var = get_string(env, (arg), (nullable), &var##_failed);                                                \
    if (var##_failed) return NULL

static int64_t get_int64(napi_env env, napi_value value) {
    int64_t result = 0;
    napi_valuetype type;
    napi_typeof(env, value, &type);
    if (type == napi_bigint) {
        bool lossless;
        napi_get_value_bigint_int64(env, value, &result, &lossless);
    } else {
        napi_get_value_int64(env, value, &result);
    }
    return result;
}

static napi_value make_undefined(napi_env env) {
    napi_value v;
    napi_get_undefined(env, &v);
    return v;
}

static napi_value make_null(napi_env env) {
    napi_value v;
    napi_get_null(env, &v);
    return v;
}

static napi_value make_bool(napi_env env, int b) {
    napi_value v;
    napi_get_boolean(env, b != 0, &v);
    return v;
}

static napi_value make_number(napi_env env, double d) {
    napi_value v;
    napi_create_double(env, d, &v);
    return v;
}

static napi_value make_string(napi_env env, const char *data, size_t size) {
    napi_value v;
    napi_create_string_utf8(env, data ? data : "", data ? size : 0, &v);
    return v;
}

/* A string the engine allocated (char **out_json): JS string, then drumlin_free. */
static napi_value take_json(napi_env env, char *json) {
    if (!json) return make_null(env);
    napi_value v = make_string(env, json, strlen(json));
    drumlin_free(json);
    return v;
}

static napi_value call_factory(napi_env env, napi_ref ref, size_t argc, napi_value *argv) {
    napi_value fn, global, result;
    if (!ref || napi_get_reference_value(env, ref, &fn) != napi_ok) {
        napi_throw_error(env, "DRUMLIN_NODE", "setFactories() was not called");
        return NULL;
    }
    napi_get_global(env, &global);
    if (napi_call_function(env, global, fn, argc, argv, &result) != napi_ok) return NULL;
    return result;
}

static napi_value make_bytes(napi_env env, const void *data, size_t size) {
    void *copy;
    napi_value buffer;
    if (napi_create_buffer_copy(env, size, data, &copy, &buffer) != napi_ok) return NULL;
    return buffer;
}

/* A drumlin_value as a JS value: numbers, strings, booleans, Date, ArrayBuffer, and the BSON
 * types and links through the registered factories. A nested list or dictionary in a mixed value
 * becomes the string "list" / "dictionary" in an array marker: [type] (read with getMixedJson). */
static napi_value to_js(napi_env env, const drumlin_value *value) {
    napi_value v, args[2];
    switch (value->type) {
    case DRUMLIN_TYPE_NULL: return make_null(env);
    case DRUMLIN_TYPE_INT: return make_number(env, (double)value->as.integer);
    case DRUMLIN_TYPE_BOOL: return make_bool(env, value->as.boolean);
    case DRUMLIN_TYPE_STRING: return make_string(env, value->as.string.data, value->as.string.size);
    case DRUMLIN_TYPE_BINARY: {
        void *data;
        if (napi_create_arraybuffer(env, value->as.binary.size, &data, &v) != napi_ok) return NULL;
        if (value->as.binary.size) memcpy(data, value->as.binary.data, value->as.binary.size);
        return v;
    }
    case DRUMLIN_TYPE_TIMESTAMP: {
        double ms = (double)value->as.timestamp.seconds * 1000.0 + (double)value->as.timestamp.nanoseconds / 1e6;
        if (napi_create_date(env, ms, &v) != napi_ok) return NULL;
        return v;
    }
    case DRUMLIN_TYPE_FLOAT: return make_number(env, (double)value->as.fnum);
    case DRUMLIN_TYPE_DOUBLE: return make_number(env, value->as.dnum);
    case DRUMLIN_TYPE_DECIMAL128: {
        uint8_t bytes[16];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (uint8_t)(value->as.decimal128.w[0] >> (8 * i));
            bytes[8 + i] = (uint8_t)(value->as.decimal128.w[1] >> (8 * i));
        }
        args[0] = make_bytes(env, bytes, 16);
        return args[0] ? call_factory(env, factory_decimal128, 1, args) : NULL;
    }
    case DRUMLIN_TYPE_OBJECT_ID:
        args[0] = make_bytes(env, value->as.object_id.bytes, 12);
        return args[0] ? call_factory(env, factory_object_id, 1, args) : NULL;
    case DRUMLIN_TYPE_UUID:
        args[0] = make_bytes(env, value->as.uuid.bytes, 16);
        return args[0] ? call_factory(env, factory_uuid, 1, args) : NULL;
    case DRUMLIN_TYPE_LINK:
        napi_create_int32(env, value->as.link.class_index, &args[0]);
        args[1] = make_number(env, (double)value->as.link.key);
        return call_factory(env, factory_link, 2, args);
    case DRUMLIN_TYPE_LIST:
    case DRUMLIN_TYPE_DICTIONARY: {
        napi_value marker, type;
        napi_create_array_with_length(env, 1, &marker);
        napi_create_int32(env, value->type, &type);
        napi_set_element(env, marker, 0, type);
        return marker;
    }
    }
    napi_throw_error(env, "DRUMLIN_NODE", "unknown value type from the engine");
    return NULL;
}

/* A JS value as a drumlin_value, for the calls that take one (primary keys, find in a list or
 * set): null, boolean, number (integral: int, else double), bigint, string, Date, ArrayBuffer or
 * view, and [type, bytes] for DRUMLIN_TYPE_OBJECT_ID / UUID / DECIMAL128 and [LINK, class, key].
 * Strings are written into *storage (freed by the caller). Returns 0 with an exception thrown. */
static int from_js(napi_env env, napi_value js, drumlin_value *out, char **storage) {
    napi_valuetype type;
    *storage = NULL;
    memset(out, 0, sizeof *out);
    napi_typeof(env, js, &type);
    switch (type) {
    case napi_null:
    case napi_undefined: out->type = DRUMLIN_TYPE_NULL; return 1;
    case napi_boolean: {
        bool b;
        napi_get_value_bool(env, js, &b);
        out->type = DRUMLIN_TYPE_BOOL;
        out->as.boolean = b;
        return 1;
    }
    case napi_number: {
        double d;
        napi_get_value_double(env, js, &d);
        if (d == (double)(int64_t)d && d >= -9.2e18 && d <= 9.2e18) {
            out->type = DRUMLIN_TYPE_INT;
            out->as.integer = (int64_t)d;
        } else {
            out->type = DRUMLIN_TYPE_DOUBLE;
            out->as.dnum = d;
        }
        return 1;
    }
    case napi_bigint:
        out->type = DRUMLIN_TYPE_INT;
        out->as.integer = get_int64(env, js);
        return 1;
    case napi_string: {
        int failed;
        size_t size = 0;
        *storage = get_string(env, js, 0, &failed);
        if (failed) return 0;
        napi_get_value_string_utf8(env, js, NULL, 0, &size);
        out->type = DRUMLIN_TYPE_STRING;
        out->as.string.data = *storage;
        out->as.string.size = size;
        return 1;
    }
    case napi_object: {
        bool is;
        napi_is_date(env, js, &is);
        if (is) {
            double ms;
            napi_get_date_value(env, js, &ms);
            double seconds = ms / 1000.0;
            int64_t whole = (int64_t)seconds;
            if ((double)whole > seconds) whole -= 1;
            out->type = DRUMLIN_TYPE_TIMESTAMP;
            out->as.timestamp.seconds = whole;
            out->as.timestamp.nanoseconds = (int32_t)((ms - (double)whole * 1000.0) * 1e6);
            return 1;
        }
        void *data = NULL;
        size_t size = 0;
        napi_is_arraybuffer(env, js, &is);
        if (is) {
            napi_get_arraybuffer_info(env, js, &data, &size);
            out->type = DRUMLIN_TYPE_BINARY;
            out->as.binary.data = data;
            out->as.binary.size = size;
            return 1;
        }
        napi_is_typedarray(env, js, &is);
        if (is) {
            napi_typedarray_type ta;
            size_t length, offset;
            napi_value ab;
            napi_get_typedarray_info(env, js, &ta, &length, &data, &ab, &offset);
            out->type = DRUMLIN_TYPE_BINARY;
            out->as.binary.data = data;
            out->as.binary.size = length; /* byte views only reach here (Uint8Array, Buffer) */
            return 1;
        }
        napi_is_array(env, js, &is);
        if (is) {
            napi_value tag_value, payload;
            int32_t tag = 0;
            napi_get_element(env, js, 0, &tag_value);
            napi_get_value_int32(env, tag_value, &tag);
            napi_get_element(env, js, 1, &payload);
            if (tag == DRUMLIN_TYPE_LINK) {
                napi_value key;
                int32_t class_index = 0;
                napi_get_value_int32(env, payload, &class_index);
                napi_get_element(env, js, 2, &key);
                out->type = DRUMLIN_TYPE_LINK;
                out->as.link.class_index = class_index;
                out->as.link.key = get_int64(env, key);
                return 1;
            }
            napi_is_typedarray(env, payload, &is);
            if (is) {
                napi_typedarray_type ta;
                size_t length, offset;
                napi_value ab;
                napi_get_typedarray_info(env, payload, &ta, &length, &data, &ab, &offset);
                if (tag == DRUMLIN_TYPE_OBJECT_ID && length == 12) {
                    out->type = tag;
                    memcpy(out->as.object_id.bytes, data, 12);
                    return 1;
                }
                if (tag == DRUMLIN_TYPE_UUID && length == 16) {
                    out->type = tag;
                    memcpy(out->as.uuid.bytes, data, 16);
                    return 1;
                }
                if (tag == DRUMLIN_TYPE_DECIMAL128 && length == 16) {
                    const uint8_t *b = data;
                    out->type = tag;
                    for (int i = 0; i < 8; i++) {
                        out->as.decimal128.w[0] |= (uint64_t)b[i] << (8 * i);
                        out->as.decimal128.w[1] |= (uint64_t)b[8 + i] << (8 * i);
                    }
                    return 1;
                }
            }
        }
        break;
    }
    default: break;
    }
    napi_throw_type_error(env, NULL, "Unsupported value for a typed drumlin value");
    return 0;
}

/*---- Library and factories ---------------------------------------------------------------------*/

static napi_value js_version(napi_env env, napi_callback_info info) {
    (void)info;
    return make_string(env, drumlin_version(), strlen(drumlin_version()));
}

static napi_value js_abi_version(napi_env env, napi_callback_info info) {
    (void)info;
    return make_number(env, drumlin_abi_version());
}

static napi_value js_set_factories(napi_env env, napi_callback_info info) {
    ARGS(4);
    napi_ref *refs[4] = {&factory_object_id, &factory_uuid, &factory_decimal128, &factory_link};
    for (int i = 0; i < 4; i++) {
        if (*refs[i]) napi_delete_reference(env, *refs[i]);
        CHECK_NAPI(napi_create_reference(env, argv[i], 1, refs[i]));
    }
    return make_undefined(env);
}

/*---- Open, close, schema, transactions ---------------------------------------------------------*/

typedef struct migration_context {
    napi_env env;
    napi_ref callback;       /* (oldDb, newDb, oldVersion, newVersion) => void */
    napi_ref error;          /* the exception the callback threw, rethrown by open() */
} migration_context;

static void free_migration_context(void *userdata) {
    migration_context *context = userdata;
    if (context->callback) napi_delete_reference(context->env, context->callback);
    if (context->error) napi_delete_reference(context->env, context->error);
    free(context);
}

static int run_migration(void *userdata, drumlin_migration *migration) {
    migration_context *context = userdata;
    napi_env env = context->env;
    drumlin_db *old_db = NULL, *new_db = NULL;
    uint64_t old_version = 0, new_version = 0;
    drumlin_migration_old_db(migration, &old_db);
    drumlin_migration_new_db(migration, &new_db);
    drumlin_migration_old_schema_version(migration, &old_version);
    drumlin_migration_new_schema_version(migration, &new_version);
    napi_value fn, global, result, args[4];
    napi_get_reference_value(env, context->callback, &fn);
    napi_get_global(env, &global);
    args[0] = wrap(env, K_DB, old_db, 0);
    args[1] = wrap(env, K_DB, new_db, 0);
    args[2] = make_number(env, (double)old_version);
    args[3] = make_number(env, (double)new_version);
    napi_status status = napi_call_function(env, global, fn, 4, args, &result);
    /* The borrowed handles stop working when the migration ends. */
    void *data;
    for (int i = 0; i < 2; i++)
        if (napi_get_value_external(env, args[i], &data) == napi_ok && data) ((handle *)data)->ptr = NULL;
    if (status == napi_ok) return 0;
    napi_value exception;
    if (napi_get_and_clear_last_exception(env, &exception) == napi_ok) {
        if (context->error) napi_delete_reference(env, context->error);
        napi_create_reference(env, exception, 1, &context->error);
        napi_value message;
        if (napi_get_named_property(env, exception, "message", &message) == napi_ok) {
            int failed;
            char *text = get_string(env, message, 0, &failed);
            if (!failed && text) {
                drumlin_migration_set_error(migration, text);
                free(text);
            } else if (failed) {
                napi_get_and_clear_last_exception(env, &message);
            }
        }
    }
    return 1;
}

static int get_flag(napi_env env, napi_value object, const char *name) {
    napi_value value;
    bool b = false;
    if (napi_get_named_property(env, object, name, &value) != napi_ok) return 0;
    napi_coerce_to_bool(env, value, &value);
    napi_get_value_bool(env, value, &b);
    return b;
}

/* open(path, schemaJson | null, {schemaVersion, readOnly, inMemory, deleteIfMigrationNeeded,
 * onMigration}) -> database handle */
static napi_value js_open(napi_env env, napi_callback_info info) {
    ARGS(3);
    STRING(path, argv[0], 0);
    STRING(schema, argv[1], 1);
    drumlin_options *options = drumlin_options_new();
    napi_value version, migrate;
    napi_valuetype type;
    double schema_version = 0;
    napi_get_named_property(env, argv[2], "schemaVersion", &version);
    napi_typeof(env, version, &type);
    if (type == napi_number) napi_get_value_double(env, version, &schema_version);
    drumlin_options_set_schema_version(options, (uint64_t)schema_version);
    drumlin_options_set_read_only(options, get_flag(env, argv[2], "readOnly"));
    drumlin_options_set_in_memory(options, get_flag(env, argv[2], "inMemory"));
    drumlin_options_set_delete_if_migration_needed(options, get_flag(env, argv[2], "deleteIfMigrationNeeded"));
    migration_context *context = NULL;
    napi_get_named_property(env, argv[2], "onMigration", &migrate);
    napi_typeof(env, migrate, &type);
    if (type == napi_function) {
        context = calloc(1, sizeof *context);
        context->env = env;
        napi_create_reference(env, migrate, 1, &context->callback);
        /* One reference for us (to read the error after the open), one the options own. */
        drumlin_options_set_migration(options, run_migration, context, NULL);
    }
    drumlin_db *db = NULL;
    int status = drumlin_open(path, schema, options, &db);
    drumlin_options_free(options);
    free(path);
    free(schema);
    napi_value thrown = NULL;
    if (context) {
        if (context->error) napi_get_reference_value(env, context->error, &thrown);
        free_migration_context(context);
    }
    if (status != DRUMLIN_OK) {
        if (thrown) {
            napi_throw(env, thrown);
            return NULL;
        }
        return throw_status(env, status);
    }
    return wrap(env, K_DB, db, 1);
}

static napi_value js_close(napi_env env, napi_callback_info info) {
    ARGS(1);
    handle *h = unwrap_any(env, argv[0], K_DB);
    if (!h) return NULL;
    if (h->ptr && h->owned) {
        drumlin_close(h->ptr);
        h->ptr = NULL;
    }
    return make_undefined(env);
}

static napi_value js_is_open(napi_env env, napi_callback_info info) {
    ARGS(1);
    handle *h = unwrap_any(env, argv[0], K_DB);
    if (!h) return NULL;
    return make_bool(env, h->ptr != NULL);
}

static napi_value js_schema_json(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    char *json = NULL;
    CALL(drumlin_schema_json(db, &json));
    return take_json(env, json);
}

static napi_value js_schema_version(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    uint64_t version = 0;
    CALL(drumlin_schema_version(db, &version));
    return make_number(env, (double)version);
}

#define DB_VOID(name, call)                                                                                       \
    static napi_value name(napi_env env, napi_callback_info info) {                                               \
        ARGS(1);                                                                                                  \
        UNWRAP(db, drumlin_db, K_DB, argv[0]);                                                                    \
        CALL(call(db));                                                                                           \
        return make_undefined(env);                                                                               \
    }
DB_VOID(js_begin_write, drumlin_begin_write)
DB_VOID(js_commit, drumlin_commit)
DB_VOID(js_rollback, drumlin_rollback)
DB_VOID(js_compact, drumlin_compact)

static napi_value js_is_in_write(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    int in_write = 0;
    CALL(drumlin_is_in_write(db, &in_write));
    return make_bool(env, in_write);
}

static napi_value js_refresh(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    int changed = 0;
    CALL(drumlin_refresh(db, &changed));
    return make_bool(env, changed);
}

static napi_value js_has_changes(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    int changed = 0;
    CALL(drumlin_has_changes(db, &changed));
    return make_bool(env, changed);
}

/*---- Classes -----------------------------------------------------------------------------------*/

static napi_value js_class_index(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRING(name, argv[1], 0);
    int32_t index = 0;
    int status = drumlin_class_index(db, name, &index);
    free(name);
    CALL(status);
    return make_number(env, index);
}

static napi_value js_class_name(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    int32_t index = 0;
    napi_get_value_int32(env, argv[1], &index);
    const char *name = NULL;
    CALL(drumlin_class_name(db, index, &name));
    return make_string(env, name, strlen(name));
}

static napi_value js_property_index(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRING(name, argv[1], 0);
    int failed;
    char *property = get_string(env, argv[2], 0, &failed);
    if (failed) {
        free(name);
        return NULL;
    }
    int32_t index = 0;
    int status = drumlin_property_index(db, name, property, &index);
    free(name);
    free(property);
    CALL(status);
    return make_number(env, index);
}

/*---- Objects -----------------------------------------------------------------------------------*/

/* createObject(db, className, json, updateMode, wantHandle) -> object handle | null */
static napi_value js_create_object(napi_env env, napi_callback_info info) {
    ARGS(5);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRING(name, argv[1], 0);
    int failed;
    char *json = get_string(env, argv[2], 0, &failed);
    if (failed) {
        free(name);
        return NULL;
    }
    int32_t mode = 0;
    napi_get_value_int32(env, argv[3], &mode);
    bool want = true;
    napi_get_value_bool(env, argv[4], &want);
    drumlin_object *object = NULL;
    int status = want ? drumlin_object_create_json(db, name, json, mode, &object)
                      : drumlin_create_json(db, name, json, mode, NULL);
    free(name);
    free(json);
    CALL(status);
    return wrap(env, K_OBJECT, object, 1);
}

/* findObject(db, className, primaryKey) -> object handle | null */
static napi_value js_find_object(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRING(name, argv[1], 0);
    drumlin_value key;
    char *storage = NULL;
    if (!from_js(env, argv[2], &key, &storage)) {
        free(name);
        return NULL;
    }
    drumlin_object *object = NULL;
    int status = drumlin_object_find(db, name, &key, &object);
    free(name);
    free(storage);
    CALL(status);
    return wrap(env, K_OBJECT, object, 1);
}

/* findByKey(db, className, key) -> object handle | null */
static napi_value js_find_by_key(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRING(name, argv[1], 0);
    drumlin_object *object = NULL;
    int status = drumlin_object_find_by_key(db, name, get_int64(env, argv[2]), &object);
    free(name);
    CALL(status);
    return wrap(env, K_OBJECT, object, 1);
}

static napi_value js_object_key(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    int64_t key = 0;
    CALL(drumlin_object_key(object, &key));
    return make_number(env, (double)key);
}

static napi_value js_object_class_index(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    int32_t index = 0;
    CALL(drumlin_object_class_index(object, &index));
    return make_number(env, index);
}

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
    int32_t index = 0;
    napi_get_value_int32(env, argv[1], &index);
    drumlin_value value;
    CALL(drumlin_object_get_at(object, index, &value));
    return to_js(env, &value);
}

/* updateJson(object, json) */
static napi_value js_object_update_json(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    STRING(json, argv[1], 0);
    int status = drumlin_object_update_json(object, json);
    free(json);
    CALL(status);
    return make_undefined(env);
}

static napi_value js_object_delete(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    CALL(drumlin_object_delete(object));
    return make_undefined(env);
}

static napi_value js_object_to_json(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);
    char *json = NULL;
    CALL(drumlin_object_to_json(object, &json));
    return take_json(env, json);
}

#define OBJECT_CHILD(fname, call, kind, ctype)                                                                    \
    static napi_value fname(napi_env env, napi_callback_info info) {                                              \
        ARGS(2);                                                                                                  \
        UNWRAP(object, drumlin_object, K_OBJECT, argv[0]);                                                        \
        STRING(name, argv[1], 0);                                                                                 \
        ctype *child = NULL;                                                                                      \
        int status = call(object, name, &child);                                                                  \
        free(name);                                                                                               \
        CALL(status);                                                                                             \
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
    STRING(name, argv[1], 0);
    int failed;
    char *path = get_string(env, argv[2], 0, &failed);
    if (failed) {
        free(name);
        return NULL;
    }
    char *json = NULL;
    int status = drumlin_object_get_mixed_json(object, name, path, &json);
    free(name);
    free(path);
    CALL(status);
    return take_json(env, json);
}

/*---- Queries and results -----------------------------------------------------------------------*/

/* query(db, className, query | null, argsJson | null) -> results */
static napi_value js_query(napi_env env, napi_callback_info info) {
    ARGS(4);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRING(name, argv[1], 0);
    int failed;
    char *query = get_string(env, argv[2], 1, &failed);
    if (failed) {
        free(name);
        return NULL;
    }
    char *args = get_string(env, argv[3], 1, &failed);
    if (failed) {
        free(name);
        free(query);
        return NULL;
    }
    drumlin_results *results = NULL;
    int status = drumlin_query(db, name, query, args, &results);
    free(name);
    free(query);
    free(args);
    CALL(status);
    return wrap(env, K_RESULTS, results, 1);
}

static napi_value js_results_filter(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    STRING(query, argv[1], 0);
    int failed;
    char *args = get_string(env, argv[2], 1, &failed);
    if (failed) {
        free(query);
        return NULL;
    }
    drumlin_results *out = NULL;
    int status = drumlin_results_filter(results, query, args, &out);
    free(query);
    free(args);
    CALL(status);
    return wrap(env, K_RESULTS, out, 1);
}

static napi_value js_results_sort(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    STRING(descriptor, argv[1], 0);
    drumlin_results *out = NULL;
    int status = drumlin_results_sort(results, descriptor, &out);
    free(descriptor);
    CALL(status);
    return wrap(env, K_RESULTS, out, 1);
}

static napi_value js_results_snapshot(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    drumlin_results *out = NULL;
    CALL(drumlin_results_snapshot(results, &out));
    return wrap(env, K_RESULTS, out, 1);
}

static napi_value js_results_count(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    size_t count = 0;
    CALL(drumlin_results_count(results, &count));
    return make_number(env, (double)count);
}

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
    int32_t op = 0;
    napi_get_value_int32(env, argv[1], &op);
    STRING(name, argv[2], 0);
    drumlin_value value;
    int status;
    switch (op) {
    case 0: status = drumlin_results_min(results, name, &value); break;
    case 1: status = drumlin_results_max(results, name, &value); break;
    case 2: status = drumlin_results_sum(results, name, &value); break;
    default: status = drumlin_results_average(results, name, &value); break;
    }
    free(name);
    CALL(status);
    return to_js(env, &value);
}

static napi_value js_results_delete_all(napi_env env, napi_callback_info info) {
    ARGS(1);
    UNWRAP(results, drumlin_results, K_RESULTS, argv[0]);
    int64_t deleted = 0;
    CALL(drumlin_results_delete_all(results, &deleted));
    return make_number(env, (double)deleted);
}

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
    STRING(paths, argv[1], 1);
    observer *o = malloc(sizeof *o);
    o->env = env;
    o->kind = h->kind;
    napi_create_reference(env, argv[2], 1, &o->callback);
    drumlin_token *token = NULL;
    int status;
    switch (h->kind) {
    case K_RESULTS: status = drumlin_results_observe(h->ptr, paths, deliver, o, free_observer, &token); break;
    case K_OBJECT: status = drumlin_object_observe(h->ptr, paths, deliver, o, free_observer, &token); break;
    case K_LIST: status = drumlin_list_observe(h->ptr, paths, deliver, o, free_observer, &token); break;
    case K_SET: status = drumlin_set_observe(h->ptr, paths, deliver, o, free_observer, &token); break;
    case K_DICT: status = drumlin_dict_observe(h->ptr, deliver, o, free_observer, &token); break;
    default:
        free(paths);
        free_observer(o);
        napi_throw_type_error(env, NULL, "This handle cannot be observed");
        return NULL;
    }
    free(paths);
    CALL(status);
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

/*---- Module ------------------------------------------------------------------------------------*/

static napi_value init(napi_env env, napi_value exports) {
    if (drumlin_abi_version() != DRUMLIN_ABI_VERSION) {
        char text[160];
        snprintf(text, sizeof text, "drumlin: libdrumlin's ABI version is %d, this addon needs %d",
                 drumlin_abi_version(), DRUMLIN_ABI_VERSION);
        napi_throw_error(env, NULL, text);
        return NULL;
    }
    static const struct {
        const char *name;
        napi_callback fn;
    } functions[] = {
        {"version", js_version},
        {"abiVersion", js_abi_version},
        {"setFactories", js_set_factories},
        {"open", js_open},
        {"close", js_close},
        {"isOpen", js_is_open},
        {"schemaJson", js_schema_json},
        {"schemaVersion", js_schema_version},
        {"beginWrite", js_begin_write},
        {"commit", js_commit},
        {"rollback", js_rollback},
        {"compact", js_compact},
        {"isInWrite", js_is_in_write},
        {"refresh", js_refresh},
        {"hasChanges", js_has_changes},
        {"classIndex", js_class_index},
        {"className", js_class_name},
        {"propertyIndex", js_property_index},
        {"createObject", js_create_object},
        {"findObject", js_find_object},
        {"findByKey", js_find_by_key},
        {"objectKey", js_object_key},
        {"objectClassIndex", js_object_class_index},
        {"objectIsValid", js_object_is_valid},
        {"objectGet", js_object_get},
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
        {"observe", js_observe},
        {"tokenRelease", js_token_release},
        {"release", js_release},
    };
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        napi_value fn;
        CHECK_NAPI(napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].fn, NULL, &fn));
        CHECK_NAPI(napi_set_named_property(env, exports, functions[i].name, fn));
    }
    return exports;
}

NAPI_MODULE(drumlin, init)
