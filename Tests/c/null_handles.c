/*
 * null_handles.c — every exported function survives NULL where a handle or a required pointer is
 * expected, and answers DRUMLIN_ERR_MISUSE (release, free and close functions: NULL is a no-op).
 * (Handles of a closed database: closed_handles.c.)
 *
 * Every function declared in drumlin.h must appear in this file: the ctest `c.null_handles.coverage`
 * checks that, so a new export cannot skip this test.
 *
 * Write calls are made inside a write transaction on a valid database, so that the only thing
 * wrong with each call is the NULL under test. Out-parameters start as NULL and must still be
 * NULL afterwards: a failed call hands out nothing.
 */
#include "misuse.h"


static void library_functions(void) {
    /* No pointer arguments: these cannot fail, but must not crash either. */
    CHECK(drumlin_version() != NULL);
    CHECK(drumlin_abi_version() == DRUMLIN_ABI_VERSION);
    CHECK(drumlin_status_name(-1) != NULL);
    CHECK(drumlin_status_name(DRUMLIN_ERR_MISUSE) != NULL);
    CHECK_MISUSE(drumlin_schema_json(NULL, NULL));
    CHECK(drumlin_last_error_code() == DRUMLIN_ERR_MISUSE);
    CHECK(drumlin_last_error_message() != NULL);

    /* Release functions: NULL is a no-op. */
    drumlin_free(NULL);
    drumlin_options_free(NULL);
    drumlin_object_release(NULL);
    CHECK_OK(drumlin_close(NULL));
}

static void option_functions(void) {
    drumlin_options *options = drumlin_options_new();
    CHECK(options != NULL);
    CHECK_OK(drumlin_options_set_schema_version(options, 1));
    drumlin_options_free(options);

    CHECK_MISUSE(drumlin_options_set_schema_version(NULL, 1));
    CHECK_MISUSE(drumlin_options_set_read_only(NULL, 1));
    CHECK_MISUSE(drumlin_options_set_in_memory(NULL, 1));
    CHECK_MISUSE(drumlin_options_set_delete_if_migration_needed(NULL, 1));
    CHECK_MISUSE(drumlin_options_set_busy_timeout(NULL, 1));
    CHECK_MISUSE(drumlin_options_set_synchronous(NULL, DRUMLIN_SYNCHRONOUS_FULL));
    CHECK_MISUSE(drumlin_options_set_quick_check(NULL, 1));
    CHECK_MISUSE(drumlin_options_set_slow_query_threshold(NULL, 1));
    CHECK_MISUSE(drumlin_options_set_logger(NULL, NULL, NULL, NULL));
    CHECK_MISUSE(drumlin_options_set_migration(NULL, NULL, NULL, NULL));
    static const uint8_t key[64] = {0};
    CHECK_MISUSE(drumlin_options_set_encryption_key(NULL, key, sizeof key));
    CHECK_MISUSE(drumlin_options_set_sync(NULL, "ws://localhost:1/sync", NULL, NULL, NULL));
    CHECK_MISUSE(drumlin_options_set_sync_ca_file(NULL, "ca.pem"));
    CHECK_MISUSE(drumlin_options_set_sync_callbacks(NULL, NULL, NULL, NULL, NULL));
    CHECK_MISUSE(drumlin_sync_token_set(NULL, "token"));
}

/* The migration functions with a NULL migration handle (a real one exists only in a callback). */
static void migration_functions(void) {
    uint64_t version = 0;
    char *json = NULL;
    drumlin_db *db = NULL;
    int deleted = 0;
    CHECK_MISUSE(drumlin_migration_old_schema_version(NULL, &version));
    CHECK_MISUSE(drumlin_migration_new_schema_version(NULL, &version));
    CHECK_MISUSE(drumlin_migration_old_schema_json(NULL, &json));
    CHECK(json == NULL);
    CHECK_MISUSE(drumlin_migration_new_db(NULL, &db));
    CHECK_MISUSE(drumlin_migration_old_db(NULL, &db));
    CHECK_MISUSE(drumlin_migration_enumerate_objects(NULL, "Item", NULL, NULL));
    CHECK_MISUSE(drumlin_migration_rename_property(NULL, "Item", "a", "b"));
    CHECK_MISUSE(drumlin_migration_delete_data(NULL, "Item", &deleted));
    CHECK_MISUSE(drumlin_migration_create_json(NULL, "Item", "{}", &json));
    CHECK_MISUSE(drumlin_migration_set_error(NULL, "message"));
}

static void open_function(const char *path) {
    drumlin_db *db = (drumlin_db *)&db;
    CHECK_MISUSE(drumlin_open(NULL, SCHEMA, NULL, &db));
    CHECK(db == NULL);
    db = (drumlin_db *)&db;
    /* A NULL schema opens an existing file with its stored schema: this one does not exist yet. */
    CHECK_ERR(drumlin_open(path, NULL, NULL, &db), DRUMLIN_ERR_FILE);
    CHECK(db == NULL);
    CHECK_MISUSE(drumlin_open(path, SCHEMA, NULL, NULL));
}

static void database_functions(drumlin_db *db) {
    char *json = (char *)&json;
    uint64_t version = 0;
    int in_write = 0;

    CHECK_MISUSE(drumlin_schema_json(NULL, &json));
    CHECK(json == NULL || json == (char *)&json);
    CHECK_MISUSE(drumlin_schema_json(db, NULL));
    CHECK_MISUSE(drumlin_schema_version(NULL, &version));
    CHECK_MISUSE(drumlin_schema_version(db, NULL));
    CHECK_MISUSE(drumlin_add_classes(NULL, "[]"));
    CHECK_MISUSE(drumlin_add_classes(db, NULL));

    CHECK_MISUSE(drumlin_begin_write(NULL));
    CHECK_MISUSE(drumlin_commit(NULL));
    CHECK_MISUSE(drumlin_rollback(NULL));
    CHECK_MISUSE(drumlin_is_in_write(NULL, &in_write));
    CHECK_MISUSE(drumlin_is_in_write(db, NULL));

    int64_t n = 0;
    CHECK_MISUSE(drumlin_export_ndjson(NULL, NULL, "/dev/null", NULL, NULL, &n));
    CHECK_MISUSE(drumlin_export_ndjson(db, NULL, NULL, NULL, NULL, &n));
    CHECK_MISUSE(drumlin_import_ndjson(NULL, "/dev/null", NULL, DRUMLIN_UPDATE_NEVER, 0, NULL, NULL, &n));
    CHECK_MISUSE(drumlin_import_ndjson(db, NULL, NULL, DRUMLIN_UPDATE_NEVER, 0, NULL, NULL, &n));
    CHECK(n == 0);
    CHECK_MISUSE(drumlin_check(NULL, &json));
    CHECK_MISUSE(drumlin_check(db, NULL));
    CHECK_MISUSE(drumlin_compact(NULL));
    CHECK_MISUSE(drumlin_write_copy(NULL, "/tmp/x.drumlin", NULL, 0));
    CHECK_MISUSE(drumlin_write_copy(db, NULL, NULL, 0));
}

static void json_functions(drumlin_db *db) {
    char *json = NULL;
    int64_t n = 0;
    drumlin_value pk = {.type = DRUMLIN_TYPE_INT, .as.integer = 1};

    /* Inside a transaction, so the NULL is the only problem. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_create_json(NULL, "Person", "{\"_id\": 2, \"name\": \"B\"}", DRUMLIN_UPDATE_NEVER, &json));
    CHECK_MISUSE(drumlin_create_json(db, NULL, "{\"_id\": 2, \"name\": \"B\"}", DRUMLIN_UPDATE_NEVER, &json));
    CHECK_MISUSE(drumlin_create_json(db, "Person", NULL, DRUMLIN_UPDATE_NEVER, &json));
    CHECK(json == NULL);
    CHECK_MISUSE(drumlin_create_many_marshal(NULL, "Person", 0, NULL, "[", 1, DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_create_many_marshal(db, NULL, 0, NULL, "[", 1, DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_create_many_marshal(db, "Person", 0, NULL, NULL, 1, DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_create_many_values(NULL, "Person", 0, NULL, 0, NULL, DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_create_many_values(db, NULL, 0, NULL, 0, NULL, DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_create_many_values(db, "Person", 1, NULL, 1, NULL, DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_object_update_values(NULL, "Person", &pk, 0, NULL, NULL));
    CHECK_MISUSE(drumlin_object_update_values(db, NULL, &pk, 0, NULL, NULL));
    CHECK_MISUSE(drumlin_object_update_values(db, "Person", NULL, 0, NULL, NULL));
    CHECK_MISUSE(drumlin_object_update_values(db, "Person", &pk, 1, NULL, NULL));
    CHECK_MISUSE(drumlin_create_many_json(NULL, "Person", "[]", DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_create_many_json(db, NULL, "[]", DRUMLIN_UPDATE_NEVER, &n));
    CHECK_MISUSE(drumlin_create_many_json(db, "Person", NULL, DRUMLIN_UPDATE_NEVER, &n));
    REQUIRE_OK(drumlin_rollback(db));

    CHECK_MISUSE(drumlin_get_json(NULL, "Person", "1", &json));
    CHECK_MISUSE(drumlin_get_json(db, NULL, "1", &json));
    CHECK_MISUSE(drumlin_get_json(db, "Person", NULL, &json));
    CHECK_MISUSE(drumlin_get_json(db, "Person", "1", NULL));
    CHECK(json == NULL);

    CHECK_MISUSE(drumlin_count(NULL, "Person", NULL, NULL, &n));
    CHECK_MISUSE(drumlin_count(db, NULL, NULL, NULL, &n));
    CHECK_MISUSE(drumlin_count(db, "Person", NULL, NULL, NULL));

    /* Nothing was written by any of them. */
    n = -1;
    CHECK_OK(drumlin_count(db, "Person", NULL, NULL, &n));
    CHECK(n == 1);
}

static void introspection_functions(drumlin_db *db) {
    int32_t n = 0;
    const char *name = NULL;
    int kind = 0;
    drumlin_property_info info;

    CHECK_MISUSE(drumlin_class_count(NULL, &n));
    CHECK_MISUSE(drumlin_class_count(db, NULL));
    CHECK_MISUSE(drumlin_class_name(NULL, 0, &name));
    CHECK_MISUSE(drumlin_class_name(db, 0, NULL));
    CHECK_MISUSE(drumlin_class_index(NULL, "Person", &n));
    CHECK_MISUSE(drumlin_class_index(db, NULL, &n));
    CHECK_MISUSE(drumlin_class_index(db, "Person", NULL));
    CHECK_MISUSE(drumlin_class_kind(NULL, "Person", &kind));
    CHECK_MISUSE(drumlin_class_kind(db, NULL, &kind));
    CHECK_MISUSE(drumlin_class_kind(db, "Person", NULL));
    CHECK_MISUSE(drumlin_property_count(NULL, "Person", &n));
    CHECK_MISUSE(drumlin_property_count(db, NULL, &n));
    CHECK_MISUSE(drumlin_property_count(db, "Person", NULL));
    CHECK_MISUSE(drumlin_property_index(NULL, "Person", "name", &n));
    CHECK_MISUSE(drumlin_property_index(db, NULL, "name", &n));
    CHECK_MISUSE(drumlin_property_index(db, "Person", NULL, &n));
    CHECK_MISUSE(drumlin_property_index(db, "Person", "name", NULL));
    CHECK_MISUSE(drumlin_property_info_get(NULL, "Person", 0, &info));
    CHECK_MISUSE(drumlin_property_info_get(db, NULL, 0, &info));
    CHECK_MISUSE(drumlin_property_info_get(db, "Person", 0, NULL));
}

static void object_lookup_functions(drumlin_db *db) {
    drumlin_object *object = NULL;
    drumlin_value pk;
    int32_t indices[2] = {0, 1};
    drumlin_value values[2];

    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = 1;
    memset(values, 0, sizeof values);
    values[0] = pk;
    values[0].as.integer = 3;
    values[1].type = DRUMLIN_TYPE_STRING;
    values[1].as.string.data = "C";
    values[1].as.string.size = 1;

    CHECK_MISUSE(drumlin_object_create_json(NULL, "Person", "{}", DRUMLIN_UPDATE_NEVER, &object));
    CHECK(object == NULL);
    CHECK_MISUSE(drumlin_object_create_json(db, NULL, "{}", DRUMLIN_UPDATE_NEVER, &object));
    CHECK_MISUSE(drumlin_object_create_json(db, "Person", NULL, DRUMLIN_UPDATE_NEVER, &object));
    CHECK_MISUSE(drumlin_object_create_json(db, "Person", "{}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_MISUSE(drumlin_object_find_values(NULL, "Person", &pk, 0, NULL, NULL, &object));
    CHECK(object == NULL);
    CHECK_MISUSE(drumlin_object_find_values(db, NULL, &pk, 0, NULL, NULL, &object));
    CHECK_MISUSE(drumlin_object_find_values(db, "Person", NULL, 0, NULL, NULL, &object));
    CHECK_MISUSE(drumlin_object_find_values(db, "Person", &pk, 1, NULL, values, &object));
    {
        char packed[64];
        size_t size = 99;
        int32_t indices[1] = {0};
        CHECK_MISUSE(drumlin_object_find_marshal(NULL, "Person", &pk, 1, indices, packed, sizeof packed, &size));
        CHECK(size == 0);
        CHECK_MISUSE(drumlin_object_find_marshal(db, NULL, &pk, 1, indices, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_find_marshal(db, "Person", NULL, 1, indices, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_find_marshal(db, "Person", &pk, 1, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_find_marshal(db, "Person", &pk, 1, indices, NULL, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_find_marshal(db, "Person", &pk, 1, indices, packed, sizeof packed, NULL));
        size = 99;
        CHECK_MISUSE(drumlin_query_marshal(NULL, "Person", "TRUEPREDICATE", NULL, 1, indices, packed, sizeof packed, &size));
        CHECK(size == 0);
        CHECK_MISUSE(drumlin_query_marshal(db, NULL, "TRUEPREDICATE", NULL, 1, indices, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_marshal(db, "Person", "TRUEPREDICATE", NULL, 1, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_marshal(db, "Person", "TRUEPREDICATE", NULL, 1, indices, NULL, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_marshal(db, "Person", "TRUEPREDICATE", NULL, 1, indices, packed, sizeof packed, NULL));
        /* Whole rows and the read version (rows.c has their behaviour). */
        const volatile uint64_t *version = NULL;
        CHECK_MISUSE(drumlin_db_read_version(NULL, &version));
        CHECK(version == NULL);
        CHECK_MISUSE(drumlin_db_read_version(db, NULL));
        size = 99;
        CHECK_MISUSE(drumlin_object_find_row(NULL, 0, &pk, packed, sizeof packed, &size));
        CHECK(size == 0);
        CHECK_MISUSE(drumlin_object_find_row(db, 0, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_find_row(db, 0, &pk, NULL, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_find_row(db, 0, &pk, packed, sizeof packed, NULL));
        CHECK_MISUSE(drumlin_object_read_row(NULL, 0, 1, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_read_marshal(NULL, 0, 1, 0, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_read_marshal(db, 0, 1, 0, NULL, packed, sizeof packed, NULL));
        CHECK_MISUSE(drumlin_object_read_marshal(db, 0, 1, 1, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_read_row(db, 0, 1, packed, sizeof packed, NULL));
        CHECK_MISUSE(drumlin_results_get_rows(NULL, 0, 1, packed, sizeof packed, &size));
        int64_t keys[1];
        CHECK_MISUSE(drumlin_results_get_rows_keyed(NULL, 0, 1, keys, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_rows(NULL, 0, "TRUEPREDICATE", NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_rows(db, 0, NULL, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_rows(db, 0, "TRUEPREDICATE", NULL, packed, sizeof packed, NULL));
        CHECK_MISUSE(drumlin_query_first_rows(NULL, 0, "TRUEPREDICATE", NULL, 1, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_first_rows(db, 0, NULL, NULL, 1, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_query_first_rows(db, 0, "TRUEPREDICATE", NULL, 1, packed, sizeof packed, NULL));
        CHECK_MISUSE(drumlin_object_set_by_key(NULL, 0, 1, 0, &pk));
        CHECK_MISUSE(drumlin_object_set_by_key(db, 0, 1, 0, NULL));
        CHECK_MISUSE(drumlin_object_write_by_key(NULL));
        drumlin_key_write write = {NULL, 0, 0, 1, pk};
        CHECK_MISUSE(drumlin_object_write_by_key(&write));
    }
    CHECK_MISUSE(drumlin_object_find(NULL, "Person", &pk, &object));
    CHECK(object == NULL);
    CHECK_MISUSE(drumlin_object_find(db, NULL, &pk, &object));
    CHECK_MISUSE(drumlin_object_find(db, "Person", NULL, &object));
    CHECK_MISUSE(drumlin_object_find(db, "Person", &pk, NULL));
    CHECK_MISUSE(drumlin_object_find_by_key(NULL, "Person", 0, &object));
    CHECK_MISUSE(drumlin_object_find_by_key(db, NULL, 0, &object));
    CHECK_MISUSE(drumlin_object_find_by_key(db, "Person", 0, NULL));

    REQUIRE_OK(drumlin_begin_write(db));
    object = NULL;
    CHECK_MISUSE(drumlin_object_create(NULL, "Person", 2, indices, values, DRUMLIN_UPDATE_NEVER, &object));
    CHECK(object == NULL);
    CHECK_MISUSE(drumlin_object_create(db, NULL, 2, indices, values, DRUMLIN_UPDATE_NEVER, &object));
    CHECK_MISUSE(drumlin_object_create(db, "Person", 2, NULL, values, DRUMLIN_UPDATE_NEVER, &object));
    CHECK_MISUSE(drumlin_object_create(db, "Person", 2, indices, NULL, DRUMLIN_UPDATE_NEVER, &object));
    CHECK(object == NULL);
    REQUIRE_OK(drumlin_rollback(db));
}

static void object_functions(drumlin_db *db, drumlin_object *object) {
    drumlin_value v;
    drumlin_value values[2];
    int32_t indices[2] = {1, 2};
    int64_t key = 0;
    int32_t class_index = 0;
    int valid = 0;
    char *json = NULL;

    memset(&v, 0, sizeof v);
    memset(values, 0, sizeof values);
    v.type = DRUMLIN_TYPE_STRING;
    v.as.string.data = "Z";
    v.as.string.size = 1;
    values[0] = v;
    values[1].type = DRUMLIN_TYPE_NULL;

    CHECK_MISUSE(drumlin_object_key(NULL, &key));
    CHECK_MISUSE(drumlin_object_key(object, NULL));
    CHECK_MISUSE(drumlin_object_class_index(NULL, &class_index));
    CHECK_MISUSE(drumlin_object_class_index(object, NULL));
    CHECK_MISUSE(drumlin_object_is_valid(NULL, &valid));
    CHECK_MISUSE(drumlin_object_is_valid(object, NULL));
    CHECK_MISUSE(drumlin_object_get(NULL, "name", &v));
    CHECK_MISUSE(drumlin_object_get(object, NULL, &v));
    CHECK_MISUSE(drumlin_object_get(object, "name", NULL));
    CHECK_MISUSE(drumlin_object_get_at(NULL, 1, &v));
    CHECK_MISUSE(drumlin_object_get_at(object, 1, NULL));
    CHECK_MISUSE(drumlin_object_get_values(NULL, 2, indices, values));
    CHECK_MISUSE(drumlin_object_get_values(object, 2, NULL, values));
    CHECK_MISUSE(drumlin_object_get_values(object, 2, indices, NULL));
    {
        char packed[64];
        size_t size = 0;
        CHECK_MISUSE(drumlin_object_get_marshal(NULL, 2, indices, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_get_marshal(object, 2, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_get_marshal(object, 2, indices, NULL, sizeof packed, &size));
        CHECK_MISUSE(drumlin_object_get_marshal(object, 2, indices, packed, sizeof packed, NULL));
    }
    CHECK_MISUSE(drumlin_object_to_json(NULL, &json));
    CHECK_MISUSE(drumlin_object_to_json(object, NULL));
    CHECK(json == NULL);

    REQUIRE_OK(drumlin_begin_write(db));
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_STRING;
    v.as.string.data = "Z";
    v.as.string.size = 1;
    CHECK_MISUSE(drumlin_object_set(NULL, "name", &v));
    CHECK_MISUSE(drumlin_object_set(object, NULL, &v));
    CHECK_MISUSE(drumlin_object_set(object, "name", NULL));
    CHECK_MISUSE(drumlin_object_set_at(NULL, 1, &v));
    CHECK_MISUSE(drumlin_object_set_at(object, 1, NULL));
    CHECK_MISUSE(drumlin_object_set_values(NULL, 2, indices, values));
    CHECK_MISUSE(drumlin_object_set_values(object, 2, NULL, values));
    CHECK_MISUSE(drumlin_object_set_values(object, 2, indices, NULL));
    CHECK_MISUSE(drumlin_object_update_json(NULL, "{\"name\": \"Z\"}"));
    CHECK_MISUSE(drumlin_object_update_json(object, NULL));
    CHECK_MISUSE(drumlin_object_delete(NULL));
    REQUIRE_OK(drumlin_commit(db));

    /* The object is untouched. */
    memset(&v, 0, sizeof v);
    CHECK_OK(drumlin_object_get(object, "name", &v));
    CHECK(v.type == DRUMLIN_TYPE_STRING && v.as.string.size == 1 && v.as.string.data && v.as.string.data[0] == 'A');
}

static void link_functions(drumlin_db *db, drumlin_object *object) {
    drumlin_object *linked = NULL;
    drumlin_results *results = NULL;
    char *json = NULL;

    CHECK_MISUSE(drumlin_object_get_linked(NULL, "friend", &linked));
    CHECK(linked == NULL);
    CHECK_MISUSE(drumlin_object_get_linked(object, NULL, &linked));
    CHECK_MISUSE(drumlin_object_get_linked(object, "friend", NULL));
    CHECK_MISUSE(drumlin_object_to_json_depth(NULL, 1, &json));
    CHECK_MISUSE(drumlin_object_to_json_depth(object, 1, NULL));
    CHECK(json == NULL);
    CHECK_MISUSE(drumlin_object_get_backlinks(NULL, "followers", &results));
    CHECK(results == NULL);
    CHECK_MISUSE(drumlin_object_get_backlinks(object, NULL, &results));
    CHECK_MISUSE(drumlin_object_get_backlinks(object, "followers", NULL));

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_object_set_link(NULL, "friend", object));
    CHECK_MISUSE(drumlin_object_set_link(object, NULL, object));
    REQUIRE_OK(drumlin_commit(db));
}

static void results_functions(drumlin_results *results) {
    size_t n = 0;
    drumlin_object *object = NULL;
    char *json = NULL;

    drumlin_results_release(NULL);
    CHECK_MISUSE(drumlin_results_count(NULL, &n));
    CHECK_MISUSE(drumlin_results_count(results, NULL));
    CHECK_MISUSE(drumlin_results_get_object(NULL, 0, &object));
    CHECK(object == NULL);
    CHECK_MISUSE(drumlin_results_get_object(results, 0, NULL));
    {
        int64_t position = 7;
        int empty = 0;
        CHECK_MISUSE(drumlin_results_index_of_key(NULL, 1, &position));
        CHECK(position == -1);
        CHECK_MISUSE(drumlin_results_is_empty(NULL, &empty));
        object = (drumlin_object *)&object;
        CHECK_MISUSE(drumlin_results_get_last(NULL, &object));
        CHECK(object == NULL);
    }
    {
        int32_t props[1] = {0};
        char packed[64];
        size_t size = 0;
        CHECK_MISUSE(drumlin_results_get_marshal(NULL, 1, props, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_results_get_marshal(results, 1, NULL, packed, sizeof packed, &size));
        CHECK_MISUSE(drumlin_results_get_marshal(results, 1, props, NULL, sizeof packed, &size));
        CHECK_MISUSE(drumlin_results_get_marshal(results, 1, props, packed, sizeof packed, NULL));
        drumlin_value values[1];
        size_t rows = 7;
        CHECK_MISUSE(drumlin_results_get_values(NULL, 0, 1, 1, props, values, &rows));
        CHECK(rows == 0);
        CHECK_MISUSE(drumlin_results_get_values(results, 0, 1, 1, NULL, values, &rows));
        CHECK_MISUSE(drumlin_results_get_values(results, 0, 1, 1, props, NULL, &rows));
        CHECK_MISUSE(drumlin_results_get_values(results, 0, 1, 1, props, values, NULL));
    }
    CHECK_MISUSE(drumlin_results_to_json(NULL, &json));
    CHECK_MISUSE(drumlin_results_to_json(results, NULL));
    CHECK(json == NULL);
}

static void query_functions(drumlin_db *db, drumlin_object *object) {
    drumlin_results *results = NULL, *derived = NULL;
    drumlin_list *friends = NULL;
    drumlin_value v;
    int64_t n = 0;
    char *json = NULL;

    CHECK_MISUSE(drumlin_query_json(NULL, "Person", "age > 1", NULL, &json));
    CHECK(json == NULL);
    CHECK_MISUSE(drumlin_query_json(db, NULL, "age > 1", NULL, &json));
    CHECK_MISUSE(drumlin_query_json(db, "Person", NULL, NULL, &json));
    CHECK_MISUSE(drumlin_query_json(db, "Person", "age > 1", NULL, NULL));
    CHECK_MISUSE(drumlin_query(NULL, "Person", NULL, NULL, &results));
    CHECK(results == NULL);
    CHECK_MISUSE(drumlin_query(db, NULL, NULL, NULL, &results));
    CHECK_MISUSE(drumlin_query(db, "Person", NULL, NULL, NULL));
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_delete_where(NULL, "Person", "age > 100", NULL, &n));
    CHECK_MISUSE(drumlin_delete_where(db, NULL, "age > 100", NULL, &n));
    CHECK_MISUSE(drumlin_delete_where(db, "Person", NULL, NULL, &n));
    REQUIRE_OK(drumlin_commit(db));

    REQUIRE_OK(drumlin_query(db, "Person", "TRUEPREDICATE", NULL, &results));
    CHECK_MISUSE(drumlin_results_filter(NULL, "age > 1", NULL, &derived));
    CHECK(derived == NULL);
    CHECK_MISUSE(drumlin_results_filter(results, NULL, NULL, &derived));
    CHECK_MISUSE(drumlin_results_filter(results, "age > 1", NULL, NULL));
    CHECK_MISUSE(drumlin_results_sort(NULL, "age", &derived));
    CHECK_MISUSE(drumlin_results_sort(results, NULL, &derived));
    CHECK_MISUSE(drumlin_results_sort(results, "age", NULL));
    CHECK_MISUSE(drumlin_results_distinct(NULL, "age", &derived));
    CHECK_MISUSE(drumlin_results_distinct(results, NULL, &derived));
    CHECK_MISUSE(drumlin_results_distinct(results, "age", NULL));
    CHECK_MISUSE(drumlin_results_limit(NULL, 1, &derived));
    CHECK_MISUSE(drumlin_results_limit(results, 1, NULL));
    CHECK_MISUSE(drumlin_results_snapshot(NULL, &derived));
    CHECK_MISUSE(drumlin_results_snapshot(results, NULL));
    CHECK(derived == NULL);
    CHECK_MISUSE(drumlin_results_min(NULL, "age", &v));
    CHECK_MISUSE(drumlin_results_min(results, NULL, &v));
    CHECK_MISUSE(drumlin_results_min(results, "age", NULL));
    CHECK_MISUSE(drumlin_results_max(NULL, "age", &v));
    CHECK_MISUSE(drumlin_results_max(results, "age", NULL));
    CHECK_MISUSE(drumlin_results_sum(NULL, "age", &v));
    CHECK_MISUSE(drumlin_results_sum(results, NULL, &v));
    CHECK_MISUSE(drumlin_results_average(NULL, "age", &v));
    CHECK_MISUSE(drumlin_results_average(results, "age", NULL));
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_results_delete_all(NULL, &n));
    REQUIRE_OK(drumlin_commit(db));
    drumlin_results_release(results);

    REQUIRE_OK(drumlin_object_get_list(object, "friends", &friends));
    CHECK_MISUSE(drumlin_list_query(NULL, NULL, NULL, &results));
    CHECK_MISUSE(drumlin_list_query(friends, NULL, NULL, NULL));
    drumlin_list_release(friends);
}

static void list_functions(drumlin_db *db, drumlin_object *object) {
    drumlin_list *tags = NULL, *friends = NULL;
    drumlin_object *element = NULL;
    drumlin_value v = string_value("a");
    size_t n = 0, index = 0;
    int found = 0;
    char *json = NULL;

    CHECK_MISUSE(drumlin_object_get_list(NULL, "tags", &tags));
    CHECK(tags == NULL);
    CHECK_MISUSE(drumlin_object_get_list(object, NULL, &tags));
    CHECK_MISUSE(drumlin_object_get_list(object, "tags", NULL));
    REQUIRE_OK(drumlin_object_get_list(object, "tags", &tags));
    REQUIRE_OK(drumlin_object_get_list(object, "friends", &friends));

    drumlin_list_release(NULL);
    CHECK_MISUSE(drumlin_list_size(NULL, &n));
    CHECK_MISUSE(drumlin_list_size(tags, NULL));
    CHECK_MISUSE(drumlin_list_get(NULL, 0, &v));
    CHECK_MISUSE(drumlin_list_get(tags, 0, NULL));
    CHECK_MISUSE(drumlin_list_get_object(NULL, 0, &element));
    CHECK(element == NULL);
    CHECK_MISUSE(drumlin_list_get_object(friends, 0, NULL));
    v = string_value("a");
    CHECK_MISUSE(drumlin_list_find(NULL, &v, &index, &found));
    CHECK_MISUSE(drumlin_list_find(tags, NULL, &index, &found));
    CHECK_MISUSE(drumlin_list_find(tags, &v, NULL, &found));
    CHECK_MISUSE(drumlin_list_find(tags, &v, &index, NULL));
    CHECK_MISUSE(drumlin_list_to_json(NULL, &json));
    CHECK_MISUSE(drumlin_list_to_json(tags, NULL));
    CHECK(json == NULL);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_list_insert(NULL, 0, &v));
    CHECK_MISUSE(drumlin_list_insert(tags, 0, NULL));
    CHECK_MISUSE(drumlin_list_insert_json(NULL, 0, "\"b\""));
    CHECK_MISUSE(drumlin_list_insert_json(tags, 0, NULL));
    CHECK_MISUSE(drumlin_list_set(NULL, 0, &v));
    CHECK_MISUSE(drumlin_list_set(tags, 0, NULL));
    CHECK_MISUSE(drumlin_list_set_json(NULL, 0, "\"b\""));
    CHECK_MISUSE(drumlin_list_set_json(tags, 0, NULL));
    CHECK_MISUSE(drumlin_list_insert_many_json(NULL, 0, "[]"));
    CHECK_MISUSE(drumlin_list_insert_many_json(tags, 0, NULL));
    CHECK_MISUSE(drumlin_list_move(NULL, 0, 0));
    CHECK_MISUSE(drumlin_list_erase(NULL, 0));
    CHECK_MISUSE(drumlin_list_clear(NULL));
    REQUIRE_OK(drumlin_commit(db));

    /* Nothing changed. */
    n = 0;
    CHECK_OK(drumlin_list_size(tags, &n));
    CHECK(n == 1);
    drumlin_list_release(friends);
    drumlin_list_release(tags);
}

static void set_functions(drumlin_db *db, drumlin_object *object) {
    drumlin_set *labels = NULL;
    drumlin_value v = string_value("x");
    size_t n = 0;
    int found = 0, changed = 0;
    char *json = NULL;

    CHECK_MISUSE(drumlin_object_get_set(NULL, "labels", &labels));
    CHECK(labels == NULL);
    CHECK_MISUSE(drumlin_object_get_set(object, NULL, &labels));
    CHECK_MISUSE(drumlin_object_get_set(object, "labels", NULL));
    REQUIRE_OK(drumlin_object_get_set(object, "labels", &labels));

    drumlin_set_release(NULL);
    CHECK_MISUSE(drumlin_set_size(NULL, &n));
    CHECK_MISUSE(drumlin_set_size(labels, NULL));
    CHECK_MISUSE(drumlin_set_get(NULL, 0, &v));
    CHECK_MISUSE(drumlin_set_get(labels, 0, NULL));
    v = string_value("x");
    CHECK_MISUSE(drumlin_set_find(NULL, &v, &found));
    CHECK_MISUSE(drumlin_set_find(labels, NULL, &found));
    CHECK_MISUSE(drumlin_set_find(labels, &v, NULL));
    CHECK_MISUSE(drumlin_set_to_json(NULL, &json));
    CHECK_MISUSE(drumlin_set_to_json(labels, NULL));
    CHECK(json == NULL);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_set_insert(NULL, &v, &changed));
    CHECK_MISUSE(drumlin_set_insert(labels, NULL, &changed));
    CHECK_MISUSE(drumlin_set_insert_json(NULL, "\"x\"", &changed));
    CHECK_MISUSE(drumlin_set_insert_json(labels, NULL, &changed));
    CHECK_MISUSE(drumlin_set_insert_many_json(NULL, "[]", NULL));
    CHECK_MISUSE(drumlin_set_insert_many_json(labels, NULL, NULL));
    CHECK_MISUSE(drumlin_set_erase(NULL, &v, &changed));
    CHECK_MISUSE(drumlin_set_erase(labels, NULL, &changed));
    CHECK_MISUSE(drumlin_set_clear(NULL));
    REQUIRE_OK(drumlin_commit(db));

    n = 0;
    CHECK_OK(drumlin_set_size(labels, &n));
    CHECK(n == 1);
    drumlin_set_release(labels);
}

static void dict_functions(drumlin_db *db, drumlin_object *object) {
    drumlin_dict *extra = NULL;
    drumlin_value key, v;
    size_t n = 0;
    int found = 0, erased = 0;
    char *json = NULL;

    memset(&key, 0, sizeof key);
    memset(&v, 0, sizeof v);
    CHECK_MISUSE(drumlin_object_get_dict(NULL, "extra", &extra));
    CHECK(extra == NULL);
    CHECK_MISUSE(drumlin_object_get_dict(object, NULL, &extra));
    CHECK_MISUSE(drumlin_object_get_dict(object, "extra", NULL));
    REQUIRE_OK(drumlin_object_get_dict(object, "extra", &extra));

    drumlin_dict_release(NULL);
    CHECK_MISUSE(drumlin_dict_size(NULL, &n));
    CHECK_MISUSE(drumlin_dict_size(extra, NULL));
    CHECK_MISUSE(drumlin_dict_get(NULL, 0, &key, &v));
    CHECK_MISUSE(drumlin_dict_get(extra, 0, NULL, &v));
    CHECK_MISUSE(drumlin_dict_get(extra, 0, &key, NULL));
    CHECK_MISUSE(drumlin_dict_find(NULL, "k", &v, &found));
    CHECK_MISUSE(drumlin_dict_find(extra, NULL, &v, &found));
    CHECK_MISUSE(drumlin_dict_find(extra, "k", NULL, &found));
    CHECK_MISUSE(drumlin_dict_find(extra, "k", &v, NULL));
    CHECK_MISUSE(drumlin_dict_to_json(NULL, &json));
    CHECK_MISUSE(drumlin_dict_to_json(extra, NULL));
    CHECK(json == NULL);

    v.type = DRUMLIN_TYPE_INT;
    v.as.integer = 2;
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_dict_insert(NULL, "k", &v));
    CHECK_MISUSE(drumlin_dict_insert(extra, NULL, &v));
    CHECK_MISUSE(drumlin_dict_insert(extra, "k", NULL));
    CHECK_MISUSE(drumlin_dict_insert_json(NULL, "k", "2"));
    CHECK_MISUSE(drumlin_dict_insert_json(extra, NULL, "2"));
    CHECK_MISUSE(drumlin_dict_insert_json(extra, "k", NULL));
    CHECK_MISUSE(drumlin_dict_insert_many_json(NULL, "{}"));
    CHECK_MISUSE(drumlin_dict_insert_many_json(extra, NULL));
    CHECK_MISUSE(drumlin_dict_erase(NULL, "k", &erased));
    CHECK_MISUSE(drumlin_dict_erase(extra, NULL, &erased));
    CHECK_MISUSE(drumlin_dict_clear(NULL));
    REQUIRE_OK(drumlin_commit(db));

    n = 0;
    CHECK_OK(drumlin_dict_size(extra, &n));
    CHECK(n == 1);
    drumlin_dict_release(extra);
}

static void mixed_functions(drumlin_db *db, drumlin_object *object) {
    char *json = NULL;

    CHECK_MISUSE(drumlin_object_get_mixed_json(NULL, "anything", "[0]", &json));
    CHECK_MISUSE(drumlin_object_get_mixed_json(object, NULL, "[0]", &json));
    CHECK_MISUSE(drumlin_object_get_mixed_json(object, "anything", NULL, &json));
    CHECK_MISUSE(drumlin_object_get_mixed_json(object, "anything", "[0]", NULL));
    CHECK(json == NULL);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_object_set_mixed_json(NULL, "anything", "[0]", "2"));
    CHECK_MISUSE(drumlin_object_set_mixed_json(object, NULL, "[0]", "2"));
    CHECK_MISUSE(drumlin_object_set_mixed_json(object, "anything", NULL, "2"));
    CHECK_MISUSE(drumlin_object_set_mixed_json(object, "anything", "[0]", NULL));
    CHECK_MISUSE(drumlin_object_append_mixed_json(NULL, "anything", "[]", "2"));
    CHECK_MISUSE(drumlin_object_append_mixed_json(object, NULL, "[]", "2"));
    CHECK_MISUSE(drumlin_object_append_mixed_json(object, "anything", NULL, "2"));
    CHECK_MISUSE(drumlin_object_append_mixed_json(object, "anything", "[]", NULL));
    CHECK_MISUSE(drumlin_object_remove_mixed(NULL, "anything", "[0]"));
    CHECK_MISUSE(drumlin_object_remove_mixed(object, NULL, "[0]"));
    CHECK_MISUSE(drumlin_object_remove_mixed(object, "anything", NULL));
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(drumlin_object_get_mixed_json(object, "anything", "[0]", &json));
    CHECK_STR(json, "1");
    drumlin_free(json);
}

static void noop_changes(void *userdata, const drumlin_changes *changes) {
    (void)userdata;
    (void)changes;
}

static int freed_userdata;
static void count_free(void *userdata) {
    (void)userdata;
    freed_userdata++;
}

/* NULL handles and out-pointers for the notification functions: each free_userdata still runs once. */
static void notification_functions(drumlin_db *db, drumlin_object *object) {
    drumlin_token *token = NULL;
    drumlin_results *results = NULL;
    drumlin_list *list = NULL;
    drumlin_set *set = NULL;
    drumlin_dict *dict = NULL;
    const size_t *indices = NULL;
    const char *const *names = NULL;
    size_t count = 0;
    int flag = 0;
    drumlin_value old_value, new_value;

    freed_userdata = 0;
    CHECK_MISUSE(drumlin_results_observe(NULL, NULL, noop_changes, NULL, count_free, &token));
    CHECK_MISUSE(drumlin_object_observe(NULL, NULL, noop_changes, NULL, count_free, &token));
    CHECK_MISUSE(drumlin_list_observe(NULL, NULL, noop_changes, NULL, count_free, &token));
    CHECK_MISUSE(drumlin_set_observe(NULL, NULL, noop_changes, NULL, count_free, &token));
    CHECK_MISUSE(drumlin_dict_observe(NULL, noop_changes, NULL, count_free, &token));
    CHECK_MISUSE(drumlin_object_observe(object, NULL, NULL, NULL, count_free, &token));
    CHECK_MISUSE(drumlin_object_observe(object, NULL, noop_changes, NULL, count_free, NULL));
    CHECK(token == NULL);
    CHECK(freed_userdata == 7);

    REQUIRE_OK(drumlin_query(db, "Person", NULL, NULL, &results));
    CHECK_MISUSE(drumlin_results_observe(results, NULL, noop_changes, NULL, NULL, NULL));
    drumlin_results_release(results);
    REQUIRE_OK(drumlin_object_get_list(object, "tags", &list));
    CHECK_MISUSE(drumlin_list_observe(list, NULL, NULL, NULL, NULL, &token));
    drumlin_list_release(list);
    REQUIRE_OK(drumlin_object_get_set(object, "labels", &set));
    CHECK_MISUSE(drumlin_set_observe(set, NULL, NULL, NULL, NULL, &token));
    drumlin_set_release(set);
    REQUIRE_OK(drumlin_object_get_dict(object, "extra", &dict));
    CHECK_MISUSE(drumlin_dict_observe(dict, NULL, NULL, NULL, &token));
    drumlin_dict_release(dict);
    CHECK(token == NULL);

    drumlin_token_release(NULL);
    CHECK_MISUSE(drumlin_changes_indices(NULL, DRUMLIN_CHANGE_DELETIONS, &indices, &count));
    CHECK_MISUSE(drumlin_changes_keys(NULL, DRUMLIN_CHANGE_DELETIONS, &names, &count));
    CHECK_MISUSE(drumlin_changes_deleted(NULL, &flag));
    CHECK_MISUSE(drumlin_changes_properties(NULL, &names, &count));
    CHECK_MISUSE(drumlin_changes_property_values(NULL, 0, &old_value, &new_value, &flag));
    CHECK(indices == NULL && names == NULL);
    CHECK_MISUSE(drumlin_refresh(NULL, &flag));
    CHECK_MISUSE(drumlin_has_changes(NULL, &flag));
    CHECK_MISUSE(drumlin_has_changes(db, NULL));
    CHECK_MISUSE(drumlin_commit_without_notifying(NULL, NULL, 0));
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_MISUSE(drumlin_commit_without_notifying(db, NULL, 1));
    CHECK_OK(drumlin_commit_without_notifying(db, NULL, 0));
}

int main(void) {
    char dir[2048], path[4096];
    drumlin_db *db = NULL;
    drumlin_object *object = NULL;
    drumlin_results *results = NULL;

    test_dir_make(dir, sizeof dir, "null-handles");
    snprintf(path, sizeof path, "%s/null-handles.drumlin", dir);

    library_functions();
    option_functions();
    migration_functions();
    open_function(path);

    make_person_1(path, &db, &object);

    database_functions(db);
    json_functions(db);
    introspection_functions(db);
    object_lookup_functions(db);
    object_functions(db, object);
    link_functions(db, object);
    REQUIRE_OK(drumlin_object_get_backlinks(object, "followers", &results));
    results_functions(results);
    drumlin_results_release(results);
    query_functions(db, object);
    list_functions(db, object);
    set_functions(db, object);
    dict_functions(db, object);
    mixed_functions(db, object);
    notification_functions(db, object);

    /* The sync session's functions: a NULL database, and one opened without sync. */
    int state = -1;
    CHECK_MISUSE(drumlin_sync_wait_for_upload(NULL, 0));
    CHECK_MISUSE(drumlin_sync_pause(NULL));
    CHECK_MISUSE(drumlin_sync_resume(NULL));
    CHECK_MISUSE(drumlin_sync_state(NULL, &state, NULL, NULL, NULL));
    CHECK(state == -1);
    CHECK_MISUSE(drumlin_sync_wait_for_upload(db, 0));
    CHECK_MISUSE(drumlin_sync_pause(db));
    CHECK_MISUSE(drumlin_sync_resume(db));
    CHECK_MISUSE(drumlin_sync_state(db, &state, NULL, NULL, NULL));
    CHECK(state == -1);

    drumlin_object_release(object);
    CHECK_OK(drumlin_close(db));

    test_dir_remove(dir);
    return check_report("null_handles");
}
