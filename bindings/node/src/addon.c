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
#include "addon.h"

static const char *const KIND_NAMES[] = {"", "database", "object", "results", "list", "set", "dictionary",
                                         "token"};


/* Constructors registered by the JavaScript layer (setFactories). */
static napi_ref factory_object_id, factory_uuid, factory_decimal128, factory_link;



/* A failed drumlin_* call: throw an Error with the engine's message and the status name as code. */
napi_value throw_status(napi_env env, int status) {
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


void release_handle(handle *h) {
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

void finalize_handle(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    handle *h = data;
    release_handle(h);
    free(h);
}

napi_value wrap(napi_env env, int kind, void *ptr, int owned) {
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
handle *unwrap_any(napi_env env, napi_value value, int kind) {
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

void *unwrap(napi_env env, napi_value value, int kind) {
    handle *h = unwrap_any(env, value, kind);
    if (!h) return NULL;
    if (!h->ptr) {
        napi_throw_error(env, "DRUMLIN_ERR_MISUSE", "The handle was closed or released.");
        return NULL;
    }
    return h->ptr;
}


/* A JS string argument as a malloc'd UTF-8 C string (NULL for null/undefined when allowed). */
char *get_string(napi_env env, napi_value value, int nullable, int *failed) {
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

/* n string arguments into out[0..n) (see STRINGS in addon.h); 0, with nothing left allocated and
 * the exception thrown, when one is not a string. */
int get_strings(napi_env env, const napi_value *argv, size_t n, unsigned nullable, char **out) {
    for (size_t i = 0; i < n; i++) {
        int failed;
        out[i] = get_string(env, argv[i], (nullable >> i) & 1u, &failed);
        if (failed) {
            free_strings(out, i);
            return 0;
        }
    }
    return 1;
}

void free_strings(char **strings, size_t n) {
    for (size_t i = 0; i < n; i++) free(strings[i]);
}


int64_t get_int64(napi_env env, napi_value value) {
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

/* A number argument as an int32 (0 when it is not a number). */
int32_t get_int32(napi_env env, napi_value value) {
    int32_t result = 0;
    napi_get_value_int32(env, value, &result);
    return result;
}

napi_value make_undefined(napi_env env) {
    napi_value v;
    napi_get_undefined(env, &v);
    return v;
}

napi_value make_null(napi_env env) {
    napi_value v;
    napi_get_null(env, &v);
    return v;
}

napi_value make_bool(napi_env env, int b) {
    napi_value v;
    napi_get_boolean(env, b != 0, &v);
    return v;
}

napi_value make_number(napi_env env, double d) {
    napi_value v;
    napi_create_double(env, d, &v);
    return v;
}

napi_value make_string(napi_env env, const char *data, size_t size) {
    napi_value v;
    napi_create_string_utf8(env, data ? data : "", data ? size : 0, &v);
    return v;
}

/* A string the engine allocated (char **out_json): JS string, then drumlin_free. */
napi_value take_json(napi_env env, char *json) {
    if (!json) return make_null(env);
    napi_value v = make_string(env, json, strlen(json));
    drumlin_free(json);
    return v;
}

napi_value call_factory(napi_env env, napi_ref ref, size_t argc, napi_value *argv) {
    napi_value fn, global, result;
    if (!ref || napi_get_reference_value(env, ref, &fn) != napi_ok) {
        napi_throw_error(env, "DRUMLIN_NODE", "setFactories() was not called");
        return NULL;
    }
    napi_get_global(env, &global);
    if (napi_call_function(env, global, fn, argc, argv, &result) != napi_ok) return NULL;
    return result;
}

napi_value make_bytes(napi_env env, const void *data, size_t size) {
    void *copy;
    napi_value buffer;
    if (napi_create_buffer_copy(env, size, data, &copy, &buffer) != napi_ok) return NULL;
    return buffer;
}

/* A drumlin_value as a JS value: numbers, strings, booleans, Date, ArrayBuffer, and the BSON
 * types and links through the registered factories. A nested list or dictionary in a mixed value
 * becomes the string "list" / "dictionary" in an array marker: [type] (read with getMixedJson). */
napi_value to_js(napi_env env, const drumlin_value *value) {
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

/* The elements of a typed array (byte views: Uint8Array, Buffer) and their count; 0 when `value`
 * is not a typed array. */
static int typed_array_bytes(napi_env env, napi_value value, void **data, size_t *length) {
    bool is = false;
    napi_typedarray_type type;
    size_t offset;
    napi_value buffer;
    napi_is_typedarray(env, value, &is);
    if (!is) return 0;
    napi_get_typedarray_info(env, value, &type, length, data, &buffer, &offset);
    return 1;
}

/* A JS value as a drumlin_value, for the calls that take one (primary keys, find in a list or
 * set): null, boolean, number (integral: int, else double), bigint, string, Date, ArrayBuffer or
 * view, and [type, bytes] for DRUMLIN_TYPE_OBJECT_ID / UUID / DECIMAL128 and [LINK, class, key].
 * Strings are written into *storage (freed by the caller). Returns 0 with an exception thrown. */
int from_js(napi_env env, napi_value js, drumlin_value *out, char **storage) {
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
        if (typed_array_bytes(env, js, &data, &size)) {
            out->type = DRUMLIN_TYPE_BINARY;
            out->as.binary.data = data;
            out->as.binary.size = size; /* byte views only reach here (Uint8Array, Buffer) */
            return 1;
        }
        napi_is_array(env, js, &is);
        if (is) {
            napi_value tag_value, payload;
            napi_get_element(env, js, 0, &tag_value);
            int32_t tag = get_int32(env, tag_value);
            napi_get_element(env, js, 1, &payload);
            if (tag == DRUMLIN_TYPE_LINK) {
                napi_value key;
                napi_get_element(env, js, 2, &key);
                out->type = DRUMLIN_TYPE_LINK;
                out->as.link.class_index = get_int32(env, payload);
                out->as.link.key = get_int64(env, key);
                return 1;
            }
            size_t length;
            if (typed_array_bytes(env, payload, &data, &length)) {
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

/*---- Module ------------------------------------------------------------------------------------*/

static napi_value init(napi_env env, napi_value exports) {
    if (drumlin_abi_version() != DRUMLIN_ABI_VERSION) {
        char text[160];
        snprintf(text, sizeof text, "drumlin: libdrumlin's ABI version is %d, this addon needs %d",
                 drumlin_abi_version(), DRUMLIN_ABI_VERSION);
        napi_throw_error(env, NULL, text);
        return NULL;
    }
    static const addon_function library_functions[] = {
        {"version", js_version},
        {"abiVersion", js_abi_version},
        {"setFactories", js_set_factories},
    };
    const struct {
        const addon_function *functions;
        size_t count;
    } tables[] = {
        {library_functions, sizeof library_functions / sizeof library_functions[0]},
        {addon_database_functions, addon_database_count},
        {addon_object_functions, addon_object_count},
        {addon_collection_functions, addon_collection_count},
        {addon_notification_functions, addon_notification_count},
    };
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        for (size_t i = 0; i < tables[t].count; i++) {
            napi_value fn;
            const addon_function *f = &tables[t].functions[i];
            CHECK_NAPI(napi_create_function(env, f->name, NAPI_AUTO_LENGTH, f->fn, NULL, &fn));
            CHECK_NAPI(napi_set_named_property(env, exports, f->name, fn));
        }
    }
    return exports;
}

NAPI_MODULE(drumlin, init)
