/*
 * lifecycle.c — an end-to-end pass over the C API as a C client uses it: open a file, create and
 * read objects through the JSON layer and the typed layer, update modes, transactions, errors
 * that change nothing, handles that outlive their database, close, reopen and read back.
 *
 * Usage: drumlin_test_lifecycle   (database files go to a fresh directory under $TMPDIR or /tmp)
 */
#include "check.h"

#include <dirent.h>
#include <stdint.h>
#include <sys/stat.h>

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\","
    "   \"name\": {\"type\": \"string\", \"indexed\": true},"
    "   \"age\": \"int?\","
    "   \"score\": {\"type\": \"double\", \"default\": 1.5},"
    "   \"active\": {\"type\": \"bool\", \"default\": false},"
    "   \"email\": {\"type\": \"string\", \"optional\": true, \"mapTo\": \"email_address\"}}}]";

static int64_t count_people(drumlin_db *db) {
    int64_t n = -1;
    CHECK_OK(drumlin_count(db, "Person", NULL, NULL, &n));
    return n;
}

/* 1 if a Person with this primary key exists (as JSON), 0 if not; a failed check otherwise. */
static int person_exists(drumlin_db *db, const char *primary_key_json) {
    char *json = NULL;
    int rc = drumlin_get_json(db, "Person", primary_key_json, &json);
    CHECK(rc == DRUMLIN_OK || rc == DRUMLIN_NOT_FOUND);
    if (rc == DRUMLIN_NOT_FOUND) CHECK(json == NULL);
    drumlin_free(json);
    return rc == DRUMLIN_OK;
}

/* Opens `path` with schema version 1, the version the test database is created with. */
static int open_version_1(const char *path, drumlin_db **out_db) {
    drumlin_options *options = drumlin_options_new();
    int rc;
    REQUIRE(options != NULL);
    REQUIRE_OK(drumlin_options_set_schema_version(options, 1));
    rc = drumlin_open(path, SCHEMA, options, out_db);
    drumlin_options_free(options);
    return rc;
}

static void test_library_facts(void) {
    CHECK_STR(drumlin_version(), DRUMLIN_VERSION);
    CHECK(drumlin_abi_version() == DRUMLIN_ABI_VERSION);
    CHECK_STR(drumlin_status_name(DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY), "DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY");
    CHECK_STR(drumlin_status_name(DRUMLIN_ERR_MISUSE), "DRUMLIN_ERR_MISUSE");
    CHECK_STR(drumlin_status_name(DRUMLIN_OK), "DRUMLIN_OK");
    CHECK(drumlin_status_name(9999) != NULL);
    CHECK_STR(drumlin_status_name(999), "DRUMLIN_UNKNOWN");
    /* NULL is a no-op for every free/release function. */
    drumlin_free(NULL);
    drumlin_options_free(NULL);
    drumlin_object_release(NULL);
    CHECK_OK(drumlin_close(NULL));
}

static void test_invalid_schema_is_refused(const char *dir) {
    char path[4096];
    drumlin_db *db = (drumlin_db *)&db; /* a sentinel: must be replaced by NULL */
    snprintf(path, sizeof path, "%s/invalid-schema.drumlin", dir);
    CHECK_ERR(drumlin_open(path,
                         "[{\"name\": \"Address\", \"embedded\": true, \"primaryKey\": \"street\","
                         "  \"properties\": {\"street\": \"string\"}}]",
                         NULL, &db),
              DRUMLIN_ERR_SCHEMA);
    CHECK(db == NULL);
    {
        char message[1024];
        check_last_message(message, sizeof message);
        CHECK(strstr(message, "Schema validation failed due to the following errors:") != NULL);
        CHECK(strstr(message, "Embedded object type 'Address' cannot have a primary key.") != NULL);
    }
    /* Schema text that is not JSON at all: a schema or argument error, never a database. */
    {
        int rc = drumlin_open(path, "[{\"name\": ", NULL, &db);
        CHECK(rc == DRUMLIN_ERR_SCHEMA || rc == DRUMLIN_ERR_INVALID_ARGUMENT);
        CHECK(drumlin_last_error_code() == rc);
        CHECK(db == NULL);
    }
}

static void test_a_directory_is_not_a_file(const char *dir) {
    char path[4096], expected[4200];
    drumlin_db *db = NULL;
    drumlin_options *options = drumlin_options_new();
    DIR *folder;
    struct dirent *entry;
    int entries = 0;

    REQUIRE(options != NULL);
    REQUIRE_OK(drumlin_options_set_read_only(options, 1));
    snprintf(path, sizeof path, "%s/folder.drumlin", dir);
    REQUIRE(mkdir(path, 0700) == 0);
    snprintf(expected, sizeof expected, "Cannot open '%s': it is a directory, not a database file.", path);
    CHECK_ERR(drumlin_open(path, SCHEMA, NULL, &db), DRUMLIN_ERR_FILE);
    CHECK_STR(drumlin_last_error_message(), expected);
    CHECK_ERR(drumlin_open(path, NULL, NULL, &db), DRUMLIN_ERR_FILE);
    CHECK_STR(drumlin_last_error_message(), expected);
    CHECK_ERR(drumlin_open(path, NULL, options, &db), DRUMLIN_ERR_FILE);
    CHECK_STR(drumlin_last_error_message(), expected);
    CHECK(db == NULL);
    drumlin_options_free(options);
    folder = opendir(path);
    REQUIRE(folder != NULL);
    while ((entry = readdir(folder)) != NULL) entries += entry->d_name[0] != '.';
    closedir(folder);
    CHECK(entries == 0);
}

static void test_files_that_are_not_databases(const char *dir) {
    char path[4096];
    drumlin_db *db = NULL;
    const char *text = "hello, I am not a database\n";
    char back[64] = {0};
    FILE *f;

    /* A text file is refused as DRUMLIN_ERR_CORRUPT and left exactly as it was. */
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    f = fopen(path, "w");
    REQUIRE(f != NULL);
    fputs(text, f);
    fclose(f);
    CHECK_ERR(drumlin_open(path, SCHEMA, NULL, &db), DRUMLIN_ERR_CORRUPT);
    CHECK(db == NULL);
    f = fopen(path, "r");
    REQUIRE(f != NULL);
    CHECK(fread(back, 1, sizeof back - 1, f) == strlen(text));
    fclose(f);
    CHECK_STR(back, text);

    /* A directory that does not exist is a file error. */
    snprintf(path, sizeof path, "%s/no/such/dir/x.drumlin", dir);
    CHECK_ERR(drumlin_open(path, SCHEMA, NULL, &db), DRUMLIN_ERR_FILE);
    CHECK(db == NULL);

    /* A directory given as the file is a file error that says so (not SQLite's "disk I/O error"),
     * with a schema, with the stored one and read-only; nothing is made inside it. */
    test_a_directory_is_not_a_file(dir);
}

static void test_introspection(drumlin_db *db) {
    int32_t n = -1, index = -1, email_index = -1;
    int kind = -1;
    const char *name = NULL;
    drumlin_property_info info;
    char *schema = NULL;
    uint64_t version = 0;

    CHECK_OK(drumlin_schema_version(db, &version));
    CHECK(version == 1);
    CHECK_OK(drumlin_schema_json(db, &schema));
    CHECK(schema != NULL && schema[0] == '[');
    CHECK_JSON_HAS(schema, "\"name\":\"Person\"");
    CHECK_JSON_HAS(schema, "\"primaryKey\":\"_id\"");
    drumlin_free(schema);

    CHECK_OK(drumlin_class_count(db, &n));
    CHECK(n == 1);
    CHECK_OK(drumlin_class_name(db, 0, &name));
    CHECK_STR(name, "Person");
    CHECK_OK(drumlin_class_index(db, "Person", &index));
    CHECK(index == 0);
    CHECK_ERR(drumlin_class_index(db, "Nobody", &index), DRUMLIN_ERR_NO_SUCH_CLASS);
    CHECK_OK(drumlin_class_kind(db, "Person", &kind));
    CHECK(kind == DRUMLIN_CLASS_TOP_LEVEL);

    CHECK_OK(drumlin_property_count(db, "Person", &n));
    CHECK(n == 6);
    CHECK_OK(drumlin_property_index(db, "Person", "email", &email_index));
    CHECK_OK(drumlin_property_index(db, "Person", "email_address", &index));
    CHECK(index == email_index);
    CHECK_ERR(drumlin_property_index(db, "Person", "nickname", &index), DRUMLIN_ERR_NO_SUCH_PROPERTY);
    CHECK_ERR(drumlin_property_index(db, "Nobody", "name", &index), DRUMLIN_ERR_NO_SUCH_CLASS);

    memset(&info, 0, sizeof info);
    CHECK_OK(drumlin_property_info_get(db, "Person", email_index, &info));
    CHECK_STR(info.name, "email");
    CHECK_STR(info.stored_name, "email_address");
    CHECK(info.type == DRUMLIN_PROPERTY_STRING);
    CHECK(info.collection == DRUMLIN_COLLECTION_NONE);
    CHECK(info.flags & DRUMLIN_PROPERTY_FLAG_OPTIONAL);
    CHECK(!(info.flags & DRUMLIN_PROPERTY_FLAG_PRIMARY_KEY));

    CHECK_OK(drumlin_property_index(db, "Person", "_id", &index));
    memset(&info, 0, sizeof info);
    CHECK_OK(drumlin_property_info_get(db, "Person", index, &info));
    CHECK(info.type == DRUMLIN_PROPERTY_INT);
    CHECK(info.flags & DRUMLIN_PROPERTY_FLAG_PRIMARY_KEY);
    CHECK(!(info.flags & DRUMLIN_PROPERTY_FLAG_OPTIONAL));
    CHECK_ERR(drumlin_property_info_get(db, "Person", 1000, &info), DRUMLIN_ERR_INVALID_ARGUMENT);
}

static void test_writes_need_a_transaction(drumlin_db *db) {
    int in_write = -1;
    char *json = NULL;
    CHECK_OK(drumlin_is_in_write(db, &in_write));
    CHECK(in_write == 0);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Outside\"}", DRUMLIN_UPDATE_NEVER, &json),
              DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK(json == NULL);
    drumlin_free(json);
    CHECK_ERR(drumlin_create_many_json(db, "Person", "[{\"_id\": 1, \"name\": \"Outside\"}]", DRUMLIN_UPDATE_NEVER,
                                     NULL),
              DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(drumlin_commit(db), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(drumlin_rollback(db), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK(count_people(db) == 0);
    CHECK(!person_exists(db, "1"));
}

static void test_create_and_errors(drumlin_db *db) {
    char *json = NULL;
    int in_write = -1;
    int64_t n = -1;

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_is_in_write(db, &in_write));
    CHECK(in_write == 1);
    CHECK_ERR(drumlin_begin_write(db), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);

    /* Create: the stored object comes back, with defaults applied. */
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Ann\", \"age\": 30}", DRUMLIN_UPDATE_NEVER,
                               &json));
    CHECK_JSON_HAS(json, "\"_id\":5");
    CHECK_JSON_HAS(json, "\"name\":\"Ann\"");
    CHECK_JSON_HAS(json, "\"age\":30");
    CHECK_JSON_HAS(json, "\"score\":1.5");
    CHECK_JSON_HAS(json, "\"active\":false");
    drumlin_free(json);
    json = NULL;
    CHECK(drumlin_last_error_code() == DRUMLIN_OK);
    CHECK_STR(drumlin_last_error_message(), "");

    /* A successful create may pass NULL for out_json. */
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 6, \"name\": \"Ben\"}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK(count_people(db) == 2);

    /* Duplicate primary key: exact code and message; nothing written. */
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Eve\"}", DRUMLIN_UPDATE_NEVER, &json),
              DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY);
    CHECK_STR(drumlin_last_error_message(),
              "Attempting to create an object of type 'Person' with an existing primary key value '5'.");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Ann\"");
    drumlin_free(json);
    json = NULL;

    /* Every failed call leaves the data as it was, and the transaction usable. */
    CHECK_ERR(drumlin_create_json(db, "Nobody", "{\"_id\": 7}", DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_NO_SUCH_CLASS);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 7, \"name\": ", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_create_json(db, "Person", "[1, 2]", DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 7, \"name\": \"G\", \"nickname\": \"g\"}",
                                DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_NO_SUCH_PROPERTY);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 7}", DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_MISSING_VALUE);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 7, \"name\": null}", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_NOT_NULLABLE);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 7, \"name\": 12}", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_TYPE_MISMATCH);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 7, \"name\": \"G\"}", 3, NULL), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK(count_people(db) == 2);
    CHECK(!person_exists(db, "7"));
    CHECK_ERR(drumlin_get_json(db, "Nobody", "5", &json), DRUMLIN_ERR_NO_SUCH_CLASS);
    CHECK(json == NULL);
    CHECK_ERR(drumlin_get_json(db, "Person", "{bad", &json), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK(json == NULL);
    CHECK_ERR(drumlin_count(db, "Nobody", NULL, NULL, &n), DRUMLIN_ERR_NO_SUCH_CLASS);

    /* Update modes: MODIFIED writes only what it is given; ALL writes every given property. */
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Anna\"}", DRUMLIN_UPDATE_MODIFIED, &json));
    CHECK_JSON_HAS(json, "\"name\":\"Anna\"");
    CHECK_JSON_HAS(json, "\"age\":30");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Anna\", \"age\": 31}", DRUMLIN_UPDATE_ALL,
                               NULL));
    CHECK_OK(drumlin_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Anna\"");
    CHECK_JSON_HAS(json, "\"age\":31");
    drumlin_free(json);
    json = NULL;
    /* An upsert of a new key creates. */
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 8, \"name\": \"Hal\"}", DRUMLIN_UPDATE_MODIFIED, NULL));
    CHECK(count_people(db) == 3);

    /* create_many is all or nothing. */
    n = -1;
    CHECK_OK(drumlin_create_many_json(db, "Person",
                                    "[{\"_id\": 10, \"name\": \"Ten\"}, {\"_id\": 11, \"name\": \"Eleven\"}]",
                                    DRUMLIN_UPDATE_NEVER, &n));
    CHECK(n == 2);
    CHECK(count_people(db) == 5);
    CHECK_ERR(drumlin_create_many_json(db, "Person",
                                     "[{\"_id\": 12, \"name\": \"Twelve\"}, {\"_id\": 10, \"name\": \"Again\"}]",
                                     DRUMLIN_UPDATE_NEVER, &n),
              DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY);
    CHECK(count_people(db) == 5);
    CHECK(!person_exists(db, "12"));
    n = -1;
    CHECK_OK(drumlin_create_many_json(db, "Person", "[]", DRUMLIN_UPDATE_NEVER, &n));
    CHECK(n == 0);

    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_is_in_write(db, &in_write));
    CHECK(in_write == 0);
}

/* Hostile names and values are data, never SQL; bad input is an error, never a crash. */
static void test_hostile_input(drumlin_db *db) {
    static const char hostile_name[] = "Robert'); DROP TABLE Person; --\"\\";
    char *json = NULL, *deep = NULL;
    int rc;
    drumlin_object *object = NULL;
    drumlin_value v, pk = int_value(50);
    int64_t before = count_people(db);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_ERR(drumlin_create_json(db, "Person\"; DROP TABLE Person; --", "{\"_id\": 50, \"name\": \"x\"}",
                                DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_NO_SUCH_CLASS);
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 50, \"name\\\"; --\": \"x\"}", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_NO_SUCH_PROPERTY);
    /* Not UTF-8 in a name. */
    CHECK_ERR(drumlin_create_json(db, "Pers\xff\xfe", "{\"_id\": 50, \"name\": \"x\"}", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_INVALID_ARGUMENT);
    /* Not UTF-8 inside JSON text. */
    rc = drumlin_create_json(db, "Person", "{\"_id\": 50, \"name\": \"\xc3\x28\"}", DRUMLIN_UPDATE_NEVER, NULL);
    CHECK(rc == DRUMLIN_ERR_INVALID_ARGUMENT);
    /* Not UTF-8 in a typed string value. */
    {
        int32_t indices[2];
        drumlin_value values[2];
        REQUIRE_OK(drumlin_property_index(db, "Person", "_id", &indices[0]));
        REQUIRE_OK(drumlin_property_index(db, "Person", "name", &indices[1]));
        values[0] = int_value(50);
        values[1] = string_value_n("\xc3\x28", 2);
        rc = drumlin_object_create(db, "Person", 2, indices, values, DRUMLIN_UPDATE_NEVER, NULL);
        CHECK(rc == DRUMLIN_ERR_INVALID_ARGUMENT || rc == DRUMLIN_ERR_TYPE_MISMATCH);
        CHECK(rc != DRUMLIN_OK);
    }
    /* Absurdly deep JSON nesting: an error, not a stack overflow. */
    {
        const size_t depth = 100000;
        deep = (char *)malloc(2 * depth + 64);
        REQUIRE(deep != NULL);
        strcpy(deep, "{\"_id\": 50, \"name\": ");
        {
            size_t n = strlen(deep);
            for (size_t i = 0; i < depth; i++) deep[n++] = '[';
            for (size_t i = 0; i < depth; i++) deep[n++] = ']';
            deep[n++] = '}';
            deep[n] = '\0';
        }
        rc = drumlin_create_json(db, "Person", deep, DRUMLIN_UPDATE_NEVER, NULL);
        CHECK(rc == DRUMLIN_ERR_INVALID_ARGUMENT || rc == DRUMLIN_ERR_LIMIT);
        free(deep);
    }
    CHECK(count_people(db) == before);
    CHECK(!person_exists(db, "50"));

    /* A value full of SQL and JSON metacharacters round-trips exactly. */
    {
        char payload[256];
        snprintf(payload, sizeof payload, "{\"_id\": 50, \"name\": \"Robert'); DROP TABLE Person; --\\\"\\\\\"}");
        CHECK_OK(drumlin_create_json(db, "Person", payload, DRUMLIN_UPDATE_NEVER, NULL));
    }
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &object));
    CHECK_OK(drumlin_object_get(object, "name", &v));
    if (v.type == DRUMLIN_TYPE_STRING)
        CHECK_BYTES(v.as.string.data, v.as.string.size, hostile_name, sizeof hostile_name - 1);
    else
        CHECK(v.type == DRUMLIN_TYPE_STRING);
    CHECK_OK(drumlin_object_to_json(object, &json));
    CHECK_JSON_HAS(json, "\"name\":\"Robert'); DROP TABLE Person; --\\\"\\\\\"");
    drumlin_free(json);
    drumlin_object_release(object);
    REQUIRE_OK(drumlin_rollback(db));
    CHECK(count_people(db) == before);
}

static void test_rollback_discards(drumlin_db *db) {
    char *json = NULL;
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 20, \"name\": \"Temp\"}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Changed\"}", DRUMLIN_UPDATE_MODIFIED, NULL));
    /* The transaction sees its own writes. */
    CHECK(person_exists(db, "20"));
    CHECK(count_people(db) == 6);
    REQUIRE_OK(drumlin_rollback(db));

    CHECK(count_people(db) == 5);
    json = (char *)&json; /* a sentinel: DRUMLIN_NOT_FOUND must set NULL */
    CHECK_RC(drumlin_get_json(db, "Person", "20", &json), DRUMLIN_NOT_FOUND);
    CHECK(json == NULL);
    /* DRUMLIN_NOT_FOUND is not an error: it sets no error. */
    CHECK(drumlin_last_error_code() == DRUMLIN_OK);
    CHECK_OK(drumlin_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Anna\"");
    drumlin_free(json);
}

static void test_typed_layer(drumlin_db *db) {
    drumlin_object *ann = NULL, *again = NULL, *typed = NULL, *missing = (drumlin_object *)&missing;
    drumlin_value pk = int_value(5), v, values[3];
    int32_t name_i = -1, age_i = -1, score_i = -1, active_i = -1, email_i = -1, id_i = -1, class_index = -1;
    int32_t indices[3];
    int64_t key = -1;
    int valid = -1;
    char *json = NULL;

    REQUIRE_OK(drumlin_property_index(db, "Person", "_id", &id_i));
    REQUIRE_OK(drumlin_property_index(db, "Person", "name", &name_i));
    REQUIRE_OK(drumlin_property_index(db, "Person", "age", &age_i));
    REQUIRE_OK(drumlin_property_index(db, "Person", "score", &score_i));
    REQUIRE_OK(drumlin_property_index(db, "Person", "active", &active_i));
    REQUIRE_OK(drumlin_property_index(db, "Person", "email", &email_i));

    /* Find by primary key, read one, by index, and several at once. */
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &ann));
    REQUIRE(ann != NULL);
    memset(&v, 0, sizeof v);
    CHECK_OK(drumlin_object_get(ann, "name", &v));
    CHECK(v.type == DRUMLIN_TYPE_STRING);
    if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Anna", 4);
    CHECK_OK(drumlin_object_get_at(ann, age_i, &v));
    CHECK(v.type == DRUMLIN_TYPE_INT && v.as.integer == 31);
    CHECK_OK(drumlin_object_get(ann, "email", &v));
    CHECK(v.type == DRUMLIN_TYPE_NULL);
    CHECK_OK(drumlin_object_get(ann, "email_address", &v)); /* the stored name works too */
    CHECK(v.type == DRUMLIN_TYPE_NULL);
    indices[0] = score_i;
    indices[1] = active_i;
    indices[2] = id_i;
    memset(values, 0, sizeof values);
    CHECK_OK(drumlin_object_get_values(ann, 3, indices, values));
    CHECK(values[0].type == DRUMLIN_TYPE_DOUBLE && values[0].as.dnum == 1.5);
    CHECK(values[1].type == DRUMLIN_TYPE_BOOL && values[1].as.boolean == 0);
    CHECK(values[2].type == DRUMLIN_TYPE_INT && values[2].as.integer == 5);
    CHECK_ERR(drumlin_object_get(ann, "nickname", &v), DRUMLIN_ERR_NO_SUCH_PROPERTY);
    CHECK_ERR(drumlin_object_get_at(ann, 1000, &v), DRUMLIN_ERR_INVALID_ARGUMENT);

    /* Object keys and class index; find by key gives the same object. */
    CHECK_OK(drumlin_object_key(ann, &key));
    CHECK_OK(drumlin_object_class_index(ann, &class_index));
    CHECK(class_index == 0);
    REQUIRE_OK(drumlin_object_find_by_key(db, "Person", key, &again));
    CHECK_OK(drumlin_object_get(again, "name", &v));
    if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Anna", 4);
    else CHECK(v.type == DRUMLIN_TYPE_STRING);
    drumlin_object_release(again);
    again = NULL;

    /* Not found: status 1, NULL handle, no error. */
    pk = int_value(999);
    CHECK_RC(drumlin_object_find(db, "Person", &pk, &missing), DRUMLIN_NOT_FOUND);
    CHECK(missing == NULL);
    CHECK(drumlin_last_error_code() == DRUMLIN_OK);
    missing = (drumlin_object *)&missing;
    CHECK_RC(drumlin_object_find_by_key(db, "Person", INT64_C(0x7fffffffffff), &missing), DRUMLIN_NOT_FOUND);
    CHECK(missing == NULL);

    /* Writes outside a transaction fail and change nothing. */
    v = string_value_n("Outside", 7);
    CHECK_ERR(drumlin_object_set(ann, "name", &v), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(drumlin_object_update_json(ann, "{\"age\": 99}"), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(drumlin_object_delete(ann), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);

    REQUIRE_OK(drumlin_begin_write(db));
    v = string_value_n("Bea", 3);
    CHECK_OK(drumlin_object_set(ann, "name", &v));
    v = int_value(40);
    CHECK_OK(drumlin_object_set_at(ann, age_i, &v));
    /* Strings may hold NUL bytes: size, not strlen, is what counts. */
    v = string_value_n("a\0b", 3);
    CHECK_OK(drumlin_object_set(ann, "email", &v));
    memset(values, 0, sizeof values);
    values[0].type = DRUMLIN_TYPE_DOUBLE;
    values[0].as.dnum = 2.5;
    values[1].type = DRUMLIN_TYPE_BOOL;
    values[1].as.boolean = 1;
    indices[0] = score_i;
    indices[1] = active_i;
    CHECK_OK(drumlin_object_set_values(ann, 2, indices, values));

    /* Bad writes are refused and change nothing. */
    v = int_value(6);
    CHECK_ERR(drumlin_object_set(ann, "_id", &v), DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE);
    v = int_value(12);
    CHECK_ERR(drumlin_object_set(ann, "name", &v), DRUMLIN_ERR_TYPE_MISMATCH);
    v = null_value();
    CHECK_ERR(drumlin_object_set(ann, "name", &v), DRUMLIN_ERR_NOT_NULLABLE);
    v = string_value_n("x", 1);
    CHECK_ERR(drumlin_object_set(ann, "nickname", &v), DRUMLIN_ERR_NO_SUCH_PROPERTY);
    /* set_values is all or nothing: a bad second value leaves the first unwritten. */
    values[0] = int_value(77);
    values[1] = string_value_n("not a bool", 10);
    indices[0] = age_i;
    indices[1] = active_i;
    CHECK_ERR(drumlin_object_set_values(ann, 2, indices, values), DRUMLIN_ERR_TYPE_MISMATCH);
    CHECK_ERR(drumlin_object_update_json(ann, "{\"age\": 78, \"name\": null}"), DRUMLIN_ERR_NOT_NULLABLE);
    CHECK_ERR(drumlin_object_update_json(ann, "{\"age\": "), DRUMLIN_ERR_INVALID_ARGUMENT);

    CHECK_OK(drumlin_object_get(ann, "name", &v));
    if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Bea", 3);
    else CHECK(v.type == DRUMLIN_TYPE_STRING);
    CHECK_OK(drumlin_object_get(ann, "age", &v));
    CHECK(v.type == DRUMLIN_TYPE_INT && v.as.integer == 40);
    CHECK_OK(drumlin_object_get(ann, "email", &v));
    if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "a\0b", 3);
    else CHECK(v.type == DRUMLIN_TYPE_STRING);
    CHECK_OK(drumlin_object_get(ann, "active", &v));
    CHECK(v.type == DRUMLIN_TYPE_BOOL && v.as.boolean == 1);

    CHECK_OK(drumlin_object_update_json(ann, "{\"age\": 41}"));
    CHECK_OK(drumlin_object_to_json(ann, &json));
    CHECK_JSON_HAS(json, "\"_id\":5");
    CHECK_JSON_HAS(json, "\"name\":\"Bea\"");
    CHECK_JSON_HAS(json, "\"age\":41");
    CHECK_JSON_HAS(json, "\"score\":2.5");
    CHECK_JSON_HAS(json, "\"email\":\"a\\u0000b\"");
    drumlin_free(json);
    json = NULL;

    /* Typed create, then a typed upsert of the same key. */
    {
        int32_t create_indices[2];
        drumlin_value create_values[2];
        create_indices[0] = id_i;
        create_indices[1] = name_i;
        create_values[0] = int_value(9);
        create_values[1] = string_value_n("Typed", 5);
        CHECK_OK(drumlin_object_create(db, "Person", 2, create_indices, create_values, DRUMLIN_UPDATE_NEVER, &typed));
        CHECK(typed != NULL);
        CHECK_OK(drumlin_object_get(typed, "score", &v)); /* the default applies */
        CHECK(v.type == DRUMLIN_TYPE_DOUBLE && v.as.dnum == 1.5);
        CHECK_ERR(drumlin_object_create(db, "Person", 2, create_indices, create_values, DRUMLIN_UPDATE_NEVER, NULL),
                  DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY);
        CHECK_STR(drumlin_last_error_message(),
                  "Attempting to create an object of type 'Person' with an existing primary key value '9'.");
        create_values[1] = string_value_n("Retyped", 7);
        CHECK_OK(drumlin_object_create(db, "Person", 2, create_indices, create_values, DRUMLIN_UPDATE_MODIFIED, NULL));
        /* The live handle sees the upsert. */
        CHECK_OK(drumlin_object_get(typed, "name", &v));
        if (v.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Retyped", 7);
        else CHECK(v.type == DRUMLIN_TYPE_STRING);
        create_values[0] = int_value(13);
        CHECK_ERR(drumlin_object_create(db, "Person", 1, create_indices, create_values, DRUMLIN_UPDATE_NEVER, NULL),
                  DRUMLIN_ERR_MISSING_VALUE);
        CHECK(!person_exists(db, "13"));
    }
    drumlin_object_release(typed);
    typed = NULL;

    /* Delete: the handle stays allocated but reports the object as gone. */
    pk = int_value(6);
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &typed));
    CHECK_OK(drumlin_object_is_valid(typed, &valid));
    CHECK(valid == 1);
    CHECK_OK(drumlin_object_delete(typed));
    CHECK_OK(drumlin_object_is_valid(typed, &valid));
    CHECK(valid == 0);
    CHECK_ERR(drumlin_object_get(typed, "name", &v), DRUMLIN_ERR_INVALIDATED_OBJECT);
    v = string_value_n("Ghost", 5);
    CHECK_ERR(drumlin_object_set(typed, "name", &v), DRUMLIN_ERR_INVALIDATED_OBJECT);
    CHECK_ERR(drumlin_object_to_json(typed, &json), DRUMLIN_ERR_INVALIDATED_OBJECT);
    CHECK(json == NULL);
    drumlin_object_release(typed);
    typed = NULL;

    REQUIRE_OK(drumlin_commit(db));
    CHECK(!person_exists(db, "6"));
    /* Persons now: 5 (Bea), 8, 9, 10, 11. */
    CHECK(count_people(db) == 5);
    drumlin_object_release(ann);
}

/* Handles derived from a database outlive it safely: every call gives DRUMLIN_ERR_MISUSE. */
static void test_objects_outlive_their_database(const char *path) {
    drumlin_db *db = NULL;
    drumlin_object *bea = NULL;
    drumlin_value pk = int_value(5), v;
    int64_t key = 0;
    int32_t class_index = 0;
    int valid = -1;
    char *json = NULL;

    REQUIRE_OK(open_version_1(path, &db));
    REQUIRE_OK(drumlin_object_find(db, "Person", &pk, &bea));
    /* Close with a write transaction open: it is rolled back. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 30, \"name\": \"Uncommitted\"}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_close(db));

    CHECK_ERR(drumlin_object_get(bea, "name", &v), DRUMLIN_ERR_MISUSE);
    CHECK_ERR(drumlin_object_get_at(bea, 0, &v), DRUMLIN_ERR_MISUSE);
    CHECK_ERR(drumlin_object_key(bea, &key), DRUMLIN_ERR_MISUSE);
    CHECK_ERR(drumlin_object_class_index(bea, &class_index), DRUMLIN_ERR_MISUSE);
    CHECK_ERR(drumlin_object_is_valid(bea, &valid), DRUMLIN_ERR_MISUSE);
    CHECK_ERR(drumlin_object_to_json(bea, &json), DRUMLIN_ERR_MISUSE);
    CHECK(json == NULL);
    v = string_value_n("After close", 11);
    CHECK_ERR(drumlin_object_set(bea, "name", &v), DRUMLIN_ERR_MISUSE);
    CHECK_ERR(drumlin_object_update_json(bea, "{\"age\": 1}"), DRUMLIN_ERR_MISUSE);
    CHECK_ERR(drumlin_object_delete(bea), DRUMLIN_ERR_MISUSE);
    drumlin_object_release(bea);
}

static void test_reopen_reads_back(const char *path) {
    drumlin_db *db = NULL;
    drumlin_options *options = drumlin_options_new();
    char *json = NULL;
    REQUIRE(options != NULL);

    REQUIRE_OK(drumlin_options_set_schema_version(options, 1));
    REQUIRE_OK(drumlin_open(path, SCHEMA, options, &db));
    CHECK(count_people(db) == 5);
    CHECK_OK(drumlin_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Bea\"");
    CHECK_JSON_HAS(json, "\"age\":41");
    CHECK_JSON_HAS(json, "\"active\":true");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_get_json(db, "Person", "9", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Retyped\"");
    drumlin_free(json);
    CHECK(!person_exists(db, "30")); /* rolled back by close */
    CHECK(!person_exists(db, "6"));  /* deleted */
    CHECK_OK(drumlin_close(db));

    /* A lower schema version than the stored one is refused. */
    db = NULL;
    REQUIRE_OK(drumlin_options_set_schema_version(options, 0));
    CHECK_ERR(drumlin_open(path, SCHEMA, options, &db), DRUMLIN_ERR_MIGRATION_FAILED);
    CHECK(db == NULL);
    if (db) drumlin_close(db);

    /* Read-only: reads work, writes are DRUMLIN_ERR_READ_ONLY. */
    db = NULL;
    REQUIRE_OK(drumlin_options_set_schema_version(options, 1));
    REQUIRE_OK(drumlin_options_set_read_only(options, 1));
    CHECK_OK(drumlin_open(path, SCHEMA, options, &db));
    if (db) {
        int rc;
        CHECK(count_people(db) == 5);
        rc = drumlin_begin_write(db);
        if (rc == DRUMLIN_OK) {
            CHECK_ERR(drumlin_create_json(db, "Person", "{\"_id\": 40, \"name\": \"RO\"}", DRUMLIN_UPDATE_NEVER, NULL),
                      DRUMLIN_ERR_READ_ONLY);
            drumlin_rollback(db);
        } else {
            CHECK_RC(rc, DRUMLIN_ERR_READ_ONLY);
        }
        CHECK(!person_exists(db, "40"));
        CHECK_OK(drumlin_close(db));
    }
    drumlin_options_free(options);
}

/* Schema changes at open: additive ones migrate by themselves; others need a migration, or
 * delete_if_migration_needed. */
static void test_schema_changes_at_open(const char *dir) {
    static const char *V0 = "[{\"name\": \"Note\", \"primaryKey\": \"_id\", \"properties\": {"
                            "  \"_id\": \"int\", \"text\": \"string\"}}]";
    static const char *ADDITIVE = "[{\"name\": \"Note\", \"primaryKey\": \"_id\", \"properties\": {"
                                  "  \"_id\": \"int\", \"text\": \"string\", \"stars\": \"int?\"}}]";
    static const char *INCOMPATIBLE = "[{\"name\": \"Note\", \"primaryKey\": \"_id\", \"properties\": {"
                                      "  \"_id\": \"int\", \"text\": \"int\", \"stars\": \"int?\"}}]";
    char path[4096], *json = NULL;
    drumlin_db *db = NULL;
    drumlin_options *options = drumlin_options_new();
    int64_t n = -1;
    uint64_t version = 99;
    REQUIRE(options != NULL);
    snprintf(path, sizeof path, "%s/notes.drumlin", dir);

    REQUIRE_OK(drumlin_open(path, V0, NULL, &db));
    CHECK_OK(drumlin_schema_version(db, &version));
    CHECK(version == 0);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Note", "{\"_id\": 1, \"text\": \"keep me\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_close(db));

    /* A new optional property, same version: migrates automatically, data kept. */
    db = NULL;
    REQUIRE_OK(drumlin_open(path, ADDITIVE, NULL, &db));
    CHECK_OK(drumlin_get_json(db, "Note", "1", &json));
    CHECK_JSON_HAS(json, "\"text\":\"keep me\"");
    CHECK_JSON_HAS(json, "\"stars\":null");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_close(db));

    /* A changed property type at the same version: refused, file untouched. */
    db = (drumlin_db *)&db;
    CHECK_ERR(drumlin_open(path, INCOMPATIBLE, NULL, &db), DRUMLIN_ERR_MIGRATION_REQUIRED);
    CHECK(db == NULL);
    {
        char message[1024];
        check_last_message(message, sizeof message);
        CHECK(strstr(message, "Migration is required due to the following errors:") != NULL);
    }
    db = NULL;
    REQUIRE_OK(drumlin_open(path, ADDITIVE, NULL, &db));
    CHECK_OK(drumlin_count(db, "Note", NULL, NULL, &n));
    CHECK(n == 1);
    CHECK_OK(drumlin_close(db));

    /* delete_if_migration_needed: the file starts afresh with the new schema. */
    db = NULL;
    CHECK_OK(drumlin_options_set_delete_if_migration_needed(options, 1));
    REQUIRE_OK(drumlin_open(path, INCOMPATIBLE, options, &db));
    n = -1;
    CHECK_OK(drumlin_count(db, "Note", NULL, NULL, &n));
    CHECK(n == 0);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Note", "{\"_id\": 1, \"text\": 5}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_close(db));
    drumlin_options_free(options);
}

static void test_in_memory(void) {
    drumlin_db *db = NULL;
    drumlin_options *options = drumlin_options_new();
    REQUIRE(options != NULL);
    REQUIRE_OK(drumlin_open(":memory:", SCHEMA, NULL, &db));
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Mem\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_people(db) == 1);
    CHECK_OK(drumlin_close(db));

    /* in_memory ignores the path: nothing is created there. */
    db = NULL;
    CHECK_OK(drumlin_options_set_in_memory(options, 1));
    CHECK_OK(drumlin_open("/nonexistent-dir/in-memory.drumlin", SCHEMA, options, &db));
    if (db) {
        CHECK(count_people(db) == 0);
        CHECK_OK(drumlin_close(db));
    }
    drumlin_options_free(options);
}

int main(void) {
    char dir[2048], path[4096];
    drumlin_db *db = NULL;

    test_dir_make(dir, sizeof dir, "lifecycle");
    snprintf(path, sizeof path, "%s/lifecycle.drumlin", dir);

    test_library_facts();
    test_invalid_schema_is_refused(dir);
    test_files_that_are_not_databases(dir);

    REQUIRE_OK(open_version_1(path, &db));

    test_introspection(db);
    test_writes_need_a_transaction(db);
    test_create_and_errors(db);
    test_hostile_input(db);
    test_rollback_discards(db);
    test_typed_layer(db);
    CHECK_OK(drumlin_close(db));

    test_objects_outlive_their_database(path);
    test_reopen_reads_back(path);
    test_schema_changes_at_open(dir);
    test_in_memory();

    test_dir_remove(dir);
    return check_report("lifecycle");
}
