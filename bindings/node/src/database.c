/*
 * database.c — opening (options, the migration callback), closing, the schema, transactions and classes.
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 */
#include "addon.h"

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

/* An encryption key argument: a Uint8Array (lib/realm.js makes one of every key it accepts), or
 * null/undefined for none (NULL, 0). Returns 0 with a TypeError thrown for anything else. */
static int get_key(napi_env env, napi_value value, const uint8_t **key, size_t *length) {
    napi_valuetype type;
    bool is = false;
    napi_typedarray_type kind;
    napi_value buffer;
    size_t offset;
    void *data = NULL;
    *key = NULL;
    *length = 0;
    napi_typeof(env, value, &type);
    if (type == napi_undefined || type == napi_null) return 1;
    napi_is_typedarray(env, value, &is);
    if (is) napi_get_typedarray_info(env, value, &kind, length, &data, &buffer, &offset);
    if (!is || kind != napi_uint8_array) {
        napi_throw_type_error(env, NULL, "an encryption key must be a Uint8Array");
        return 0;
    }
    *key = data;
    return 1;
}

/* open(path, schemaJson | null, {schemaVersion, readOnly, inMemory, deleteIfMigrationNeeded,
 * onMigration, encryptionKey}) -> database handle */
static napi_value js_open(napi_env env, napi_callback_info info) {
    ARGS(3);
    STRINGS(s, 2, 0, 2); /* path, schemaJson | null */
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
    napi_value key_value;
    const uint8_t *key = NULL;
    size_t key_length = 0;
    napi_get_named_property(env, argv[2], "encryptionKey", &key_value);
    if (!get_key(env, key_value, &key, &key_length)) {
        drumlin_options_free(options);
        free_strings(s, 2);
        return NULL;
    }
    if (key && drumlin_options_set_encryption_key(options, key, key_length) != DRUMLIN_OK) {
        drumlin_options_free(options);
        free_strings(s, 2);
        return throw_status(env, drumlin_last_error_code());
    }
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
    int status = drumlin_open(s[0], s[1], options, &db);
    drumlin_options_free(options);
    free_strings(s, 2);
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

GETTER(js_schema_json, drumlin_db, K_DB, drumlin_schema_json, char *, take_json)
GETTER(js_schema_version, drumlin_db, K_DB, drumlin_schema_version, uint64_t, make_number)
GETTER(js_is_in_write, drumlin_db, K_DB, drumlin_is_in_write, int, make_bool)
GETTER(js_refresh, drumlin_db, K_DB, drumlin_refresh, int, make_bool)
GETTER(js_has_changes, drumlin_db, K_DB, drumlin_has_changes, int, make_bool)

ACTION(js_begin_write, drumlin_db, K_DB, drumlin_begin_write)
ACTION(js_commit, drumlin_db, K_DB, drumlin_commit)
ACTION(js_rollback, drumlin_db, K_DB, drumlin_rollback)
ACTION(js_compact, drumlin_db, K_DB, drumlin_compact)

/* writeCopy(db, path, key | null): drumlin_write_copy. */
static napi_value js_write_copy(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    const uint8_t *key = NULL;
    size_t key_length = 0;
    if (!get_key(env, argv[2], &key, &key_length)) return NULL;
    STRINGS(s, 1, 1, 0);
    CALL_FREE(s, drumlin_write_copy(db, s[0], key, key_length));
    return make_undefined(env);
}

/*---- Classes -----------------------------------------------------------------------------------*/

STRING_GETTER(js_class_index, drumlin_db, K_DB, drumlin_class_index, int32_t, make_number)

static napi_value js_class_name(napi_env env, napi_callback_info info) {
    ARGS(2);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    const char *name = NULL;
    CALL(drumlin_class_name(db, get_int32(env, argv[1]), &name));
    return make_string(env, name, strlen(name));
}

static napi_value js_property_index(napi_env env, napi_callback_info info) {
    ARGS(3);
    UNWRAP(db, drumlin_db, K_DB, argv[0]);
    STRINGS(s, 2, 1, 0); /* className, propertyName */
    int32_t index = 0;
    CALL_FREE(s, drumlin_property_index(db, s[0], s[1], &index));
    return make_number(env, index);
}

const addon_function addon_database_functions[] = {
    {"open", js_open},
    {"close", js_close},
    {"isOpen", js_is_open},
    {"schemaJson", js_schema_json},
    {"schemaVersion", js_schema_version},
    {"beginWrite", js_begin_write},
    {"commit", js_commit},
    {"rollback", js_rollback},
    {"compact", js_compact},
    {"writeCopy", js_write_copy},
    {"isInWrite", js_is_in_write},
    {"refresh", js_refresh},
    {"hasChanges", js_has_changes},
    {"classIndex", js_class_index},
    {"className", js_class_name},
    {"propertyIndex", js_property_index},
};
const size_t addon_database_count = sizeof addon_database_functions / sizeof addon_database_functions[0];
