/*
 * lifecycle.c — an end-to-end pass over the C API as a C client uses it: open a file, create and
 * read objects through the JSON layer and the typed layer, update modes, transactions, errors
 * that change nothing, handles that outlive their database, close, reopen and read back.
 *
 * Usage: cairn_test_lifecycle   (database files go to a fresh directory under $TMPDIR or /tmp)
 */
#include "check.h"

#include <stdint.h>

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\","
    "   \"name\": {\"type\": \"string\", \"indexed\": true},"
    "   \"age\": \"int?\","
    "   \"score\": {\"type\": \"double\", \"default\": 1.5},"
    "   \"active\": {\"type\": \"bool\", \"default\": false},"
    "   \"email\": {\"type\": \"string\", \"optional\": true, \"mapTo\": \"email_address\"}}}]";

static int64_t count_people(cairn_db *db) {
    int64_t n = -1;
    CHECK_OK(cairn_count(db, "Person", NULL, NULL, &n));
    return n;
}

/* 1 if a Person with this primary key exists (as JSON), 0 if not; a failed check otherwise. */
static int person_exists(cairn_db *db, const char *primary_key_json) {
    char *json = NULL;
    int rc = cairn_get_json(db, "Person", primary_key_json, &json);
    CHECK(rc == CAIRN_OK || rc == CAIRN_NOT_FOUND);
    if (rc == CAIRN_NOT_FOUND) CHECK(json == NULL);
    cairn_free(json);
    return rc == CAIRN_OK;
}

static cairn_value int_value(int64_t i) {
    cairn_value v;
    memset(&v, 0, sizeof v);
    v.type = CAIRN_TYPE_INT;
    v.as.integer = i;
    return v;
}

static cairn_value string_value(const char *s, size_t size) {
    cairn_value v;
    memset(&v, 0, sizeof v);
    v.type = CAIRN_TYPE_STRING;
    v.as.string.data = s;
    v.as.string.size = size;
    return v;
}

static cairn_value null_value(void) {
    cairn_value v;
    memset(&v, 0, sizeof v);
    v.type = CAIRN_TYPE_NULL;
    return v;
}

/* Opens `path` with schema version 1, the version the test database is created with. */
static int open_version_1(const char *path, cairn_db **out_db) {
    cairn_options *options = cairn_options_new();
    int rc;
    REQUIRE(options != NULL);
    REQUIRE_OK(cairn_options_set_schema_version(options, 1));
    rc = cairn_open(path, SCHEMA, options, out_db);
    cairn_options_free(options);
    return rc;
}

static void test_library_facts(void) {
    CHECK_STR(cairn_version(), CAIRN_VERSION);
    CHECK(cairn_abi_version() == CAIRN_ABI_VERSION);
    CHECK_STR(cairn_status_name(CAIRN_ERR_DUPLICATE_PRIMARY_KEY), "CAIRN_ERR_DUPLICATE_PRIMARY_KEY");
    CHECK_STR(cairn_status_name(CAIRN_ERR_MISUSE), "CAIRN_ERR_MISUSE");
    CHECK_STR(cairn_status_name(CAIRN_OK), "CAIRN_OK");
    CHECK(cairn_status_name(9999) != NULL);
    /* NULL is a no-op for every free/release function. */
    cairn_free(NULL);
    cairn_options_free(NULL);
    cairn_object_release(NULL);
    CHECK_OK(cairn_close(NULL));
}

static void test_invalid_schema_is_refused(const char *dir) {
    char path[4096];
    cairn_db *db = (cairn_db *)&db; /* a sentinel: must be replaced by NULL */
    snprintf(path, sizeof path, "%s/invalid-schema.cairn", dir);
    CHECK_ERR(cairn_open(path,
                         "[{\"name\": \"Address\", \"embedded\": true, \"primaryKey\": \"street\","
                         "  \"properties\": {\"street\": \"string\"}}]",
                         NULL, &db),
              CAIRN_ERR_SCHEMA);
    CHECK(db == NULL);
    {
        char message[1024];
        check_last_message(message, sizeof message);
        CHECK(strstr(message, "Schema validation failed due to the following errors:") != NULL);
        CHECK(strstr(message, "Embedded object type 'Address' cannot have a primary key.") != NULL);
    }
    /* Schema text that is not JSON at all: a schema or argument error, never a database. */
    {
        int rc = cairn_open(path, "[{\"name\": ", NULL, &db);
        CHECK(rc == CAIRN_ERR_SCHEMA || rc == CAIRN_ERR_INVALID_ARGUMENT);
        CHECK(cairn_last_error_code() == rc);
        CHECK(db == NULL);
    }
}

static void test_files_that_are_not_databases(const char *dir) {
    char path[4096];
    cairn_db *db = NULL;
    const char *text = "hello, I am not a database\n";
    char back[64] = {0};
    FILE *f;

    /* A text file is refused as CAIRN_ERR_CORRUPT and left exactly as it was. */
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    f = fopen(path, "w");
    REQUIRE(f != NULL);
    fputs(text, f);
    fclose(f);
    CHECK_ERR(cairn_open(path, SCHEMA, NULL, &db), CAIRN_ERR_CORRUPT);
    CHECK(db == NULL);
    f = fopen(path, "r");
    REQUIRE(f != NULL);
    CHECK(fread(back, 1, sizeof back - 1, f) == strlen(text));
    fclose(f);
    CHECK_STR(back, text);

    /* A directory that does not exist is a file error. */
    snprintf(path, sizeof path, "%s/no/such/dir/x.cairn", dir);
    CHECK_ERR(cairn_open(path, SCHEMA, NULL, &db), CAIRN_ERR_FILE);
    CHECK(db == NULL);
}

static void test_introspection(cairn_db *db) {
    int32_t n = -1, index = -1, email_index = -1;
    int kind = -1;
    const char *name = NULL;
    cairn_property_info info;
    char *schema = NULL;
    uint64_t version = 0;

    CHECK_OK(cairn_schema_version(db, &version));
    CHECK(version == 1);
    CHECK_OK(cairn_schema_json(db, &schema));
    CHECK(schema != NULL && schema[0] == '[');
    CHECK_JSON_HAS(schema, "\"name\":\"Person\"");
    CHECK_JSON_HAS(schema, "\"primaryKey\":\"_id\"");
    cairn_free(schema);

    CHECK_OK(cairn_class_count(db, &n));
    CHECK(n == 1);
    CHECK_OK(cairn_class_name(db, 0, &name));
    CHECK_STR(name, "Person");
    CHECK_OK(cairn_class_index(db, "Person", &index));
    CHECK(index == 0);
    CHECK_ERR(cairn_class_index(db, "Nobody", &index), CAIRN_ERR_NO_SUCH_CLASS);
    CHECK_OK(cairn_class_kind(db, "Person", &kind));
    CHECK(kind == CAIRN_CLASS_TOP_LEVEL);

    CHECK_OK(cairn_property_count(db, "Person", &n));
    CHECK(n == 6);
    CHECK_OK(cairn_property_index(db, "Person", "email", &email_index));
    CHECK_OK(cairn_property_index(db, "Person", "email_address", &index));
    CHECK(index == email_index);
    CHECK_ERR(cairn_property_index(db, "Person", "nickname", &index), CAIRN_ERR_NO_SUCH_PROPERTY);
    CHECK_ERR(cairn_property_index(db, "Nobody", "name", &index), CAIRN_ERR_NO_SUCH_CLASS);

    memset(&info, 0, sizeof info);
    CHECK_OK(cairn_property_info_get(db, "Person", email_index, &info));
    CHECK_STR(info.name, "email");
    CHECK_STR(info.stored_name, "email_address");
    CHECK(info.type == CAIRN_PROPERTY_STRING);
    CHECK(info.collection == CAIRN_COLLECTION_NONE);
    CHECK(info.flags & CAIRN_PROPERTY_FLAG_OPTIONAL);
    CHECK(!(info.flags & CAIRN_PROPERTY_FLAG_PRIMARY_KEY));

    CHECK_OK(cairn_property_index(db, "Person", "_id", &index));
    memset(&info, 0, sizeof info);
    CHECK_OK(cairn_property_info_get(db, "Person", index, &info));
    CHECK(info.type == CAIRN_PROPERTY_INT);
    CHECK(info.flags & CAIRN_PROPERTY_FLAG_PRIMARY_KEY);
    CHECK(!(info.flags & CAIRN_PROPERTY_FLAG_OPTIONAL));
    CHECK_ERR(cairn_property_info_get(db, "Person", 1000, &info), CAIRN_ERR_INVALID_ARGUMENT);
}

static void test_writes_need_a_transaction(cairn_db *db) {
    int in_write = -1;
    char *json = NULL;
    CHECK_OK(cairn_is_in_write(db, &in_write));
    CHECK(in_write == 0);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Outside\"}", CAIRN_UPDATE_NEVER, &json),
              CAIRN_ERR_WRONG_TRANSACTION_STATE);
    CHECK(json == NULL);
    cairn_free(json);
    CHECK_ERR(cairn_create_many_json(db, "Person", "[{\"_id\": 1, \"name\": \"Outside\"}]", CAIRN_UPDATE_NEVER,
                                     NULL),
              CAIRN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(cairn_commit(db), CAIRN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(cairn_rollback(db), CAIRN_ERR_WRONG_TRANSACTION_STATE);
    CHECK(count_people(db) == 0);
    CHECK(!person_exists(db, "1"));
}

static void test_create_and_errors(cairn_db *db) {
    char *json = NULL;
    int in_write = -1;
    int64_t n = -1;

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_is_in_write(db, &in_write));
    CHECK(in_write == 1);
    CHECK_ERR(cairn_begin_write(db), CAIRN_ERR_WRONG_TRANSACTION_STATE);

    /* Create: the stored object comes back, with defaults applied. */
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Ann\", \"age\": 30}", CAIRN_UPDATE_NEVER,
                               &json));
    CHECK_JSON_HAS(json, "\"_id\":5");
    CHECK_JSON_HAS(json, "\"name\":\"Ann\"");
    CHECK_JSON_HAS(json, "\"age\":30");
    CHECK_JSON_HAS(json, "\"score\":1.5");
    CHECK_JSON_HAS(json, "\"active\":false");
    cairn_free(json);
    json = NULL;
    CHECK(cairn_last_error_code() == CAIRN_OK);
    CHECK_STR(cairn_last_error_message(), "");

    /* A successful create may pass NULL for out_json. */
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 6, \"name\": \"Ben\"}", CAIRN_UPDATE_NEVER, NULL));
    CHECK(count_people(db) == 2);

    /* Duplicate primary key: exact code and message; nothing written. */
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Eve\"}", CAIRN_UPDATE_NEVER, &json),
              CAIRN_ERR_DUPLICATE_PRIMARY_KEY);
    CHECK_STR(cairn_last_error_message(),
              "Attempting to create an object of type 'Person' with an existing primary key value '5'.");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Ann\"");
    cairn_free(json);
    json = NULL;

    /* Every failed call leaves the data as it was, and the transaction usable. */
    CHECK_ERR(cairn_create_json(db, "Nobody", "{\"_id\": 7}", CAIRN_UPDATE_NEVER, NULL), CAIRN_ERR_NO_SUCH_CLASS);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 7, \"name\": ", CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(cairn_create_json(db, "Person", "[1, 2]", CAIRN_UPDATE_NEVER, NULL), CAIRN_ERR_INVALID_ARGUMENT);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 7, \"name\": \"G\", \"nickname\": \"g\"}",
                                CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_NO_SUCH_PROPERTY);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 7}", CAIRN_UPDATE_NEVER, NULL), CAIRN_ERR_MISSING_VALUE);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 7, \"name\": null}", CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_NOT_NULLABLE);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 7, \"name\": 12}", CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_TYPE_MISMATCH);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 7, \"name\": \"G\"}", 3, NULL), CAIRN_ERR_INVALID_ARGUMENT);
    CHECK(count_people(db) == 2);
    CHECK(!person_exists(db, "7"));
    CHECK_ERR(cairn_get_json(db, "Nobody", "5", &json), CAIRN_ERR_NO_SUCH_CLASS);
    CHECK(json == NULL);
    CHECK_ERR(cairn_get_json(db, "Person", "{bad", &json), CAIRN_ERR_INVALID_ARGUMENT);
    CHECK(json == NULL);
    CHECK_ERR(cairn_count(db, "Nobody", NULL, NULL, &n), CAIRN_ERR_NO_SUCH_CLASS);

    /* Update modes: MODIFIED writes only what it is given; ALL writes every given property. */
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Anna\"}", CAIRN_UPDATE_MODIFIED, &json));
    CHECK_JSON_HAS(json, "\"name\":\"Anna\"");
    CHECK_JSON_HAS(json, "\"age\":30");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Anna\", \"age\": 31}", CAIRN_UPDATE_ALL,
                               NULL));
    CHECK_OK(cairn_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Anna\"");
    CHECK_JSON_HAS(json, "\"age\":31");
    cairn_free(json);
    json = NULL;
    /* An upsert of a new key creates. */
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 8, \"name\": \"Hal\"}", CAIRN_UPDATE_MODIFIED, NULL));
    CHECK(count_people(db) == 3);

    /* create_many is all or nothing. */
    n = -1;
    CHECK_OK(cairn_create_many_json(db, "Person",
                                    "[{\"_id\": 10, \"name\": \"Ten\"}, {\"_id\": 11, \"name\": \"Eleven\"}]",
                                    CAIRN_UPDATE_NEVER, &n));
    CHECK(n == 2);
    CHECK(count_people(db) == 5);
    CHECK_ERR(cairn_create_many_json(db, "Person",
                                     "[{\"_id\": 12, \"name\": \"Twelve\"}, {\"_id\": 10, \"name\": \"Again\"}]",
                                     CAIRN_UPDATE_NEVER, &n),
              CAIRN_ERR_DUPLICATE_PRIMARY_KEY);
    CHECK(count_people(db) == 5);
    CHECK(!person_exists(db, "12"));
    n = -1;
    CHECK_OK(cairn_create_many_json(db, "Person", "[]", CAIRN_UPDATE_NEVER, &n));
    CHECK(n == 0);

    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_is_in_write(db, &in_write));
    CHECK(in_write == 0);
}

/* Hostile names and values are data, never SQL; bad input is an error, never a crash. */
static void test_hostile_input(cairn_db *db) {
    static const char hostile_name[] = "Robert'); DROP TABLE Person; --\"\\";
    char *json = NULL, *deep = NULL;
    int rc;
    cairn_object *object = NULL;
    cairn_value v, pk = int_value(50);
    int64_t before = count_people(db);

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_ERR(cairn_create_json(db, "Person\"; DROP TABLE Person; --", "{\"_id\": 50, \"name\": \"x\"}",
                                CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_NO_SUCH_CLASS);
    CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 50, \"name\\\"; --\": \"x\"}", CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_NO_SUCH_PROPERTY);
    /* Not UTF-8 in a name. */
    CHECK_ERR(cairn_create_json(db, "Pers\xff\xfe", "{\"_id\": 50, \"name\": \"x\"}", CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_INVALID_ARGUMENT);
    /* Not UTF-8 inside JSON text. */
    rc = cairn_create_json(db, "Person", "{\"_id\": 50, \"name\": \"\xc3\x28\"}", CAIRN_UPDATE_NEVER, NULL);
    CHECK(rc == CAIRN_ERR_INVALID_ARGUMENT);
    /* Not UTF-8 in a typed string value. */
    {
        int32_t indices[2];
        cairn_value values[2];
        REQUIRE_OK(cairn_property_index(db, "Person", "_id", &indices[0]));
        REQUIRE_OK(cairn_property_index(db, "Person", "name", &indices[1]));
        values[0] = int_value(50);
        values[1] = string_value("\xc3\x28", 2);
        rc = cairn_object_create(db, "Person", 2, indices, values, CAIRN_UPDATE_NEVER, NULL);
        CHECK(rc == CAIRN_ERR_INVALID_ARGUMENT || rc == CAIRN_ERR_TYPE_MISMATCH);
        CHECK(rc != CAIRN_OK);
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
        rc = cairn_create_json(db, "Person", deep, CAIRN_UPDATE_NEVER, NULL);
        CHECK(rc == CAIRN_ERR_INVALID_ARGUMENT || rc == CAIRN_ERR_LIMIT);
        free(deep);
    }
    CHECK(count_people(db) == before);
    CHECK(!person_exists(db, "50"));

    /* A value full of SQL and JSON metacharacters round-trips exactly. */
    {
        char payload[256];
        snprintf(payload, sizeof payload, "{\"_id\": 50, \"name\": \"Robert'); DROP TABLE Person; --\\\"\\\\\"}");
        CHECK_OK(cairn_create_json(db, "Person", payload, CAIRN_UPDATE_NEVER, NULL));
    }
    REQUIRE_OK(cairn_object_find(db, "Person", &pk, &object));
    CHECK_OK(cairn_object_get(object, "name", &v));
    if (v.type == CAIRN_TYPE_STRING)
        CHECK_BYTES(v.as.string.data, v.as.string.size, hostile_name, sizeof hostile_name - 1);
    else
        CHECK(v.type == CAIRN_TYPE_STRING);
    CHECK_OK(cairn_object_to_json(object, &json));
    CHECK_JSON_HAS(json, "\"name\":\"Robert'); DROP TABLE Person; --\\\"\\\\\"");
    cairn_free(json);
    cairn_object_release(object);
    REQUIRE_OK(cairn_rollback(db));
    CHECK(count_people(db) == before);
}

static void test_rollback_discards(cairn_db *db) {
    char *json = NULL;
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 20, \"name\": \"Temp\"}", CAIRN_UPDATE_NEVER, NULL));
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 5, \"name\": \"Changed\"}", CAIRN_UPDATE_MODIFIED, NULL));
    /* The transaction sees its own writes. */
    CHECK(person_exists(db, "20"));
    CHECK(count_people(db) == 6);
    REQUIRE_OK(cairn_rollback(db));

    CHECK(count_people(db) == 5);
    json = (char *)&json; /* a sentinel: CAIRN_NOT_FOUND must set NULL */
    CHECK_RC(cairn_get_json(db, "Person", "20", &json), CAIRN_NOT_FOUND);
    CHECK(json == NULL);
    /* CAIRN_NOT_FOUND is not an error: it sets no error. */
    CHECK(cairn_last_error_code() == CAIRN_OK);
    CHECK_OK(cairn_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Anna\"");
    cairn_free(json);
}

static void test_typed_layer(cairn_db *db) {
    cairn_object *ann = NULL, *again = NULL, *typed = NULL, *missing = (cairn_object *)&missing;
    cairn_value pk = int_value(5), v, values[3];
    int32_t name_i = -1, age_i = -1, score_i = -1, active_i = -1, email_i = -1, id_i = -1, class_index = -1;
    int32_t indices[3];
    int64_t key = -1;
    int valid = -1;
    char *json = NULL;

    REQUIRE_OK(cairn_property_index(db, "Person", "_id", &id_i));
    REQUIRE_OK(cairn_property_index(db, "Person", "name", &name_i));
    REQUIRE_OK(cairn_property_index(db, "Person", "age", &age_i));
    REQUIRE_OK(cairn_property_index(db, "Person", "score", &score_i));
    REQUIRE_OK(cairn_property_index(db, "Person", "active", &active_i));
    REQUIRE_OK(cairn_property_index(db, "Person", "email", &email_i));

    /* Find by primary key, read one, by index, and several at once. */
    REQUIRE_OK(cairn_object_find(db, "Person", &pk, &ann));
    REQUIRE(ann != NULL);
    memset(&v, 0, sizeof v);
    CHECK_OK(cairn_object_get(ann, "name", &v));
    CHECK(v.type == CAIRN_TYPE_STRING);
    if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Anna", 4);
    CHECK_OK(cairn_object_get_at(ann, age_i, &v));
    CHECK(v.type == CAIRN_TYPE_INT && v.as.integer == 31);
    CHECK_OK(cairn_object_get(ann, "email", &v));
    CHECK(v.type == CAIRN_TYPE_NULL);
    CHECK_OK(cairn_object_get(ann, "email_address", &v)); /* the stored name works too */
    CHECK(v.type == CAIRN_TYPE_NULL);
    indices[0] = score_i;
    indices[1] = active_i;
    indices[2] = id_i;
    memset(values, 0, sizeof values);
    CHECK_OK(cairn_object_get_values(ann, 3, indices, values));
    CHECK(values[0].type == CAIRN_TYPE_DOUBLE && values[0].as.dnum == 1.5);
    CHECK(values[1].type == CAIRN_TYPE_BOOL && values[1].as.boolean == 0);
    CHECK(values[2].type == CAIRN_TYPE_INT && values[2].as.integer == 5);
    CHECK_ERR(cairn_object_get(ann, "nickname", &v), CAIRN_ERR_NO_SUCH_PROPERTY);
    CHECK_ERR(cairn_object_get_at(ann, 1000, &v), CAIRN_ERR_INVALID_ARGUMENT);

    /* Object keys and class index; find by key gives the same object. */
    CHECK_OK(cairn_object_key(ann, &key));
    CHECK_OK(cairn_object_class_index(ann, &class_index));
    CHECK(class_index == 0);
    REQUIRE_OK(cairn_object_find_by_key(db, "Person", key, &again));
    CHECK_OK(cairn_object_get(again, "name", &v));
    if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Anna", 4);
    else CHECK(v.type == CAIRN_TYPE_STRING);
    cairn_object_release(again);
    again = NULL;

    /* Not found: status 1, NULL handle, no error. */
    pk = int_value(999);
    CHECK_RC(cairn_object_find(db, "Person", &pk, &missing), CAIRN_NOT_FOUND);
    CHECK(missing == NULL);
    CHECK(cairn_last_error_code() == CAIRN_OK);
    missing = (cairn_object *)&missing;
    CHECK_RC(cairn_object_find_by_key(db, "Person", INT64_C(0x7fffffffffff), &missing), CAIRN_NOT_FOUND);
    CHECK(missing == NULL);

    /* Writes outside a transaction fail and change nothing. */
    v = string_value("Outside", 7);
    CHECK_ERR(cairn_object_set(ann, "name", &v), CAIRN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(cairn_object_update_json(ann, "{\"age\": 99}"), CAIRN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_ERR(cairn_object_delete(ann), CAIRN_ERR_WRONG_TRANSACTION_STATE);

    REQUIRE_OK(cairn_begin_write(db));
    v = string_value("Bea", 3);
    CHECK_OK(cairn_object_set(ann, "name", &v));
    v = int_value(40);
    CHECK_OK(cairn_object_set_at(ann, age_i, &v));
    /* Strings may hold NUL bytes: size, not strlen, is what counts. */
    v = string_value("a\0b", 3);
    CHECK_OK(cairn_object_set(ann, "email", &v));
    memset(values, 0, sizeof values);
    values[0].type = CAIRN_TYPE_DOUBLE;
    values[0].as.dnum = 2.5;
    values[1].type = CAIRN_TYPE_BOOL;
    values[1].as.boolean = 1;
    indices[0] = score_i;
    indices[1] = active_i;
    CHECK_OK(cairn_object_set_values(ann, 2, indices, values));

    /* Bad writes are refused and change nothing. */
    v = int_value(6);
    CHECK_ERR(cairn_object_set(ann, "_id", &v), CAIRN_ERR_PRIMARY_KEY_IMMUTABLE);
    v = int_value(12);
    CHECK_ERR(cairn_object_set(ann, "name", &v), CAIRN_ERR_TYPE_MISMATCH);
    v = null_value();
    CHECK_ERR(cairn_object_set(ann, "name", &v), CAIRN_ERR_NOT_NULLABLE);
    v = string_value("x", 1);
    CHECK_ERR(cairn_object_set(ann, "nickname", &v), CAIRN_ERR_NO_SUCH_PROPERTY);
    /* set_values is all or nothing: a bad second value leaves the first unwritten. */
    values[0] = int_value(77);
    values[1] = string_value("not a bool", 10);
    indices[0] = age_i;
    indices[1] = active_i;
    CHECK_ERR(cairn_object_set_values(ann, 2, indices, values), CAIRN_ERR_TYPE_MISMATCH);
    CHECK_ERR(cairn_object_update_json(ann, "{\"age\": 78, \"name\": null}"), CAIRN_ERR_NOT_NULLABLE);
    CHECK_ERR(cairn_object_update_json(ann, "{\"age\": "), CAIRN_ERR_INVALID_ARGUMENT);

    CHECK_OK(cairn_object_get(ann, "name", &v));
    if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Bea", 3);
    else CHECK(v.type == CAIRN_TYPE_STRING);
    CHECK_OK(cairn_object_get(ann, "age", &v));
    CHECK(v.type == CAIRN_TYPE_INT && v.as.integer == 40);
    CHECK_OK(cairn_object_get(ann, "email", &v));
    if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "a\0b", 3);
    else CHECK(v.type == CAIRN_TYPE_STRING);
    CHECK_OK(cairn_object_get(ann, "active", &v));
    CHECK(v.type == CAIRN_TYPE_BOOL && v.as.boolean == 1);

    CHECK_OK(cairn_object_update_json(ann, "{\"age\": 41}"));
    CHECK_OK(cairn_object_to_json(ann, &json));
    CHECK_JSON_HAS(json, "\"_id\":5");
    CHECK_JSON_HAS(json, "\"name\":\"Bea\"");
    CHECK_JSON_HAS(json, "\"age\":41");
    CHECK_JSON_HAS(json, "\"score\":2.5");
    CHECK_JSON_HAS(json, "\"email\":\"a\\u0000b\"");
    cairn_free(json);
    json = NULL;

    /* Typed create, then a typed upsert of the same key. */
    {
        int32_t create_indices[2];
        cairn_value create_values[2];
        create_indices[0] = id_i;
        create_indices[1] = name_i;
        create_values[0] = int_value(9);
        create_values[1] = string_value("Typed", 5);
        CHECK_OK(cairn_object_create(db, "Person", 2, create_indices, create_values, CAIRN_UPDATE_NEVER, &typed));
        CHECK(typed != NULL);
        CHECK_OK(cairn_object_get(typed, "score", &v)); /* the default applies */
        CHECK(v.type == CAIRN_TYPE_DOUBLE && v.as.dnum == 1.5);
        CHECK_ERR(cairn_object_create(db, "Person", 2, create_indices, create_values, CAIRN_UPDATE_NEVER, NULL),
                  CAIRN_ERR_DUPLICATE_PRIMARY_KEY);
        CHECK_STR(cairn_last_error_message(),
                  "Attempting to create an object of type 'Person' with an existing primary key value '9'.");
        create_values[1] = string_value("Retyped", 7);
        CHECK_OK(cairn_object_create(db, "Person", 2, create_indices, create_values, CAIRN_UPDATE_MODIFIED, NULL));
        /* The live handle sees the upsert. */
        CHECK_OK(cairn_object_get(typed, "name", &v));
        if (v.type == CAIRN_TYPE_STRING) CHECK_BYTES(v.as.string.data, v.as.string.size, "Retyped", 7);
        else CHECK(v.type == CAIRN_TYPE_STRING);
        create_values[0] = int_value(13);
        CHECK_ERR(cairn_object_create(db, "Person", 1, create_indices, create_values, CAIRN_UPDATE_NEVER, NULL),
                  CAIRN_ERR_MISSING_VALUE);
        CHECK(!person_exists(db, "13"));
    }
    cairn_object_release(typed);
    typed = NULL;

    /* Delete: the handle stays allocated but reports the object as gone. */
    pk = int_value(6);
    REQUIRE_OK(cairn_object_find(db, "Person", &pk, &typed));
    CHECK_OK(cairn_object_is_valid(typed, &valid));
    CHECK(valid == 1);
    CHECK_OK(cairn_object_delete(typed));
    CHECK_OK(cairn_object_is_valid(typed, &valid));
    CHECK(valid == 0);
    CHECK_ERR(cairn_object_get(typed, "name", &v), CAIRN_ERR_INVALIDATED_OBJECT);
    v = string_value("Ghost", 5);
    CHECK_ERR(cairn_object_set(typed, "name", &v), CAIRN_ERR_INVALIDATED_OBJECT);
    CHECK_ERR(cairn_object_to_json(typed, &json), CAIRN_ERR_INVALIDATED_OBJECT);
    CHECK(json == NULL);
    cairn_object_release(typed);
    typed = NULL;

    REQUIRE_OK(cairn_commit(db));
    CHECK(!person_exists(db, "6"));
    /* Persons now: 5 (Bea), 8, 9, 10, 11. */
    CHECK(count_people(db) == 5);
    cairn_object_release(ann);
}

/* Handles derived from a database outlive it safely: every call gives CAIRN_ERR_MISUSE. */
static void test_objects_outlive_their_database(const char *path) {
    cairn_db *db = NULL;
    cairn_object *bea = NULL;
    cairn_value pk = int_value(5), v;
    int64_t key = 0;
    int32_t class_index = 0;
    int valid = -1;
    char *json = NULL;

    REQUIRE_OK(open_version_1(path, &db));
    REQUIRE_OK(cairn_object_find(db, "Person", &pk, &bea));
    /* Close with a write transaction open: it is rolled back. */
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 30, \"name\": \"Uncommitted\"}", CAIRN_UPDATE_NEVER, NULL));
    CHECK_OK(cairn_close(db));

    CHECK_ERR(cairn_object_get(bea, "name", &v), CAIRN_ERR_MISUSE);
    CHECK_ERR(cairn_object_get_at(bea, 0, &v), CAIRN_ERR_MISUSE);
    CHECK_ERR(cairn_object_key(bea, &key), CAIRN_ERR_MISUSE);
    CHECK_ERR(cairn_object_class_index(bea, &class_index), CAIRN_ERR_MISUSE);
    CHECK_ERR(cairn_object_is_valid(bea, &valid), CAIRN_ERR_MISUSE);
    CHECK_ERR(cairn_object_to_json(bea, &json), CAIRN_ERR_MISUSE);
    CHECK(json == NULL);
    v = string_value("After close", 11);
    CHECK_ERR(cairn_object_set(bea, "name", &v), CAIRN_ERR_MISUSE);
    CHECK_ERR(cairn_object_update_json(bea, "{\"age\": 1}"), CAIRN_ERR_MISUSE);
    CHECK_ERR(cairn_object_delete(bea), CAIRN_ERR_MISUSE);
    cairn_object_release(bea);
}

static void test_reopen_reads_back(const char *path) {
    cairn_db *db = NULL;
    cairn_options *options = cairn_options_new();
    char *json = NULL;
    REQUIRE(options != NULL);

    REQUIRE_OK(cairn_options_set_schema_version(options, 1));
    REQUIRE_OK(cairn_open(path, SCHEMA, options, &db));
    CHECK(count_people(db) == 5);
    CHECK_OK(cairn_get_json(db, "Person", "5", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Bea\"");
    CHECK_JSON_HAS(json, "\"age\":41");
    CHECK_JSON_HAS(json, "\"active\":true");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_get_json(db, "Person", "9", &json));
    CHECK_JSON_HAS(json, "\"name\":\"Retyped\"");
    cairn_free(json);
    CHECK(!person_exists(db, "30")); /* rolled back by close */
    CHECK(!person_exists(db, "6"));  /* deleted */
    CHECK_OK(cairn_close(db));

    /* A lower schema version than the stored one is refused. */
    db = NULL;
    REQUIRE_OK(cairn_options_set_schema_version(options, 0));
    CHECK_ERR(cairn_open(path, SCHEMA, options, &db), CAIRN_ERR_MIGRATION_FAILED);
    CHECK(db == NULL);
    if (db) cairn_close(db);

    /* Read-only: reads work, writes are CAIRN_ERR_READ_ONLY. */
    db = NULL;
    REQUIRE_OK(cairn_options_set_schema_version(options, 1));
    REQUIRE_OK(cairn_options_set_read_only(options, 1));
    CHECK_OK(cairn_open(path, SCHEMA, options, &db));
    if (db) {
        int rc;
        CHECK(count_people(db) == 5);
        rc = cairn_begin_write(db);
        if (rc == CAIRN_OK) {
            CHECK_ERR(cairn_create_json(db, "Person", "{\"_id\": 40, \"name\": \"RO\"}", CAIRN_UPDATE_NEVER, NULL),
                      CAIRN_ERR_READ_ONLY);
            cairn_rollback(db);
        } else {
            CHECK_RC(rc, CAIRN_ERR_READ_ONLY);
        }
        CHECK(!person_exists(db, "40"));
        CHECK_OK(cairn_close(db));
    }
    cairn_options_free(options);
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
    cairn_db *db = NULL;
    cairn_options *options = cairn_options_new();
    int64_t n = -1;
    uint64_t version = 99;
    REQUIRE(options != NULL);
    snprintf(path, sizeof path, "%s/notes.cairn", dir);

    REQUIRE_OK(cairn_open(path, V0, NULL, &db));
    CHECK_OK(cairn_schema_version(db, &version));
    CHECK(version == 0);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_json(db, "Note", "{\"_id\": 1, \"text\": \"keep me\"}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_close(db));

    /* A new optional property, same version: migrates automatically, data kept. */
    db = NULL;
    REQUIRE_OK(cairn_open(path, ADDITIVE, NULL, &db));
    CHECK_OK(cairn_get_json(db, "Note", "1", &json));
    CHECK_JSON_HAS(json, "\"text\":\"keep me\"");
    CHECK_JSON_HAS(json, "\"stars\":null");
    cairn_free(json);
    json = NULL;
    CHECK_OK(cairn_close(db));

    /* A changed property type at the same version: refused, file untouched. */
    db = (cairn_db *)&db;
    CHECK_ERR(cairn_open(path, INCOMPATIBLE, NULL, &db), CAIRN_ERR_MIGRATION_REQUIRED);
    CHECK(db == NULL);
    {
        char message[1024];
        check_last_message(message, sizeof message);
        CHECK(strstr(message, "Migration is required due to the following errors:") != NULL);
    }
    db = NULL;
    REQUIRE_OK(cairn_open(path, ADDITIVE, NULL, &db));
    CHECK_OK(cairn_count(db, "Note", NULL, NULL, &n));
    CHECK(n == 1);
    CHECK_OK(cairn_close(db));

    /* delete_if_migration_needed: the file starts afresh with the new schema. */
    db = NULL;
    CHECK_OK(cairn_options_set_delete_if_migration_needed(options, 1));
    REQUIRE_OK(cairn_open(path, INCOMPATIBLE, options, &db));
    n = -1;
    CHECK_OK(cairn_count(db, "Note", NULL, NULL, &n));
    CHECK(n == 0);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_json(db, "Note", "{\"_id\": 1, \"text\": 5}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_close(db));
    cairn_options_free(options);
}

static void test_in_memory(void) {
    cairn_db *db = NULL;
    cairn_options *options = cairn_options_new();
    REQUIRE(options != NULL);
    REQUIRE_OK(cairn_open(":memory:", SCHEMA, NULL, &db));
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Mem\"}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_people(db) == 1);
    CHECK_OK(cairn_close(db));

    /* in_memory ignores the path: nothing is created there. */
    db = NULL;
    CHECK_OK(cairn_options_set_in_memory(options, 1));
    CHECK_OK(cairn_open("/nonexistent-dir/in-memory.cairn", SCHEMA, options, &db));
    if (db) {
        CHECK(count_people(db) == 0);
        CHECK_OK(cairn_close(db));
    }
    cairn_options_free(options);
}

int main(void) {
    char dir[2048], path[4096];
    cairn_db *db = NULL;

    test_dir_make(dir, sizeof dir, "lifecycle");
    snprintf(path, sizeof path, "%s/lifecycle.cairn", dir);

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
    CHECK_OK(cairn_close(db));

    test_objects_outlive_their_database(path);
    test_reopen_reads_back(path);
    test_schema_changes_at_open(dir);
    test_in_memory();

    test_dir_remove(dir);
    return check_report("lifecycle");
}
