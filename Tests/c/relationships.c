/*
 * relationships.c — what relationship writes leave in the file: each check is made through the
 * C API and again by reading the SQLite file directly with sqlite3's own C API (a second,
 * read-only connection), using the storage names of docs/storage.md:
 *
 *   - deleting an owner deletes its embedded objects (recursively) and its list rows, and drops
 *     it from its dogs' backlinks; the dogs themselves stay;
 *   - asymmetric objects are insert-only: created, never read, stored in insertion order;
 *   - a 100-level nested mixed value round-trips through drumlin_create_json / drumlin_get_json, and
 *     101 levels is DRUMLIN_ERR_LIMIT with the stored object and its side tables unchanged.
 *
 * Usage: drumlin_test_relationships   (the database goes to a fresh directory under $TMPDIR or /tmp)
 */
#include "check.h"

#include <stdarg.h>
#include <stdint.h>

#include <sqlite3.h>

/*
 * Person is stored as table "Persön" (7 bytes in UTF-8, 6 characters) and `addresses` as column
 * "adressen", so the side-table names below also check that the length is counted in bytes.
 */
#define PERSON_TABLE "Pers\xc3\xb6n"

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"mapTo\": \"" PERSON_TABLE "\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\", \"name\": \"string\", \"dogs\": \"Dog[]\", \"address\": \"Address\","
    "   \"addresses\": {\"type\": \"list\", \"objectType\": \"Address\", \"mapTo\": \"adressen\"},"
    "   \"anything\": \"mixed\"}},"
    " {\"name\": \"Dog\", \"primaryKey\": \"name\", \"properties\": {\"name\": \"string\","
    "   \"owners\": {\"type\": \"linkingObjects\", \"objectType\": \"Person\", \"property\": \"dogs\"}}},"
    " {\"name\": \"Address\", \"embedded\": true, \"properties\": {"
    "   \"street\": \"string\", \"city\": \"string?\", \"location\": \"GeoPoint\"}},"
    " {\"name\": \"GeoPoint\", \"embedded\": true, \"properties\": {\"type\": \"string\", \"coordinates\": \"double[]\"}},"
    " {\"name\": \"Reading\", \"asymmetric\": true, \"properties\": {\"value\": \"double\", \"dog\": \"Dog\"}}]";

static drumlin_db *db;
static sqlite3 *raw; /* the same file, opened read-only by plain SQLite */

/*---- Helpers -----------------------------------------------------------------------------------*/

/* "_drumlin_list_<n>_<table>_<column>", n = the table name's length in bytes (docs/storage.md). */
static void list_table(char *out, size_t size, const char *table, const char *column) {
    snprintf(out, size, "_drumlin_list_%zu_%s_%s", strlen(table), table, column);
}

/* The single integer a query returns (-1, and a failed check, if it does not return one). */
static int64_t sql_int(const char *sql) {
    sqlite3_stmt *statement = NULL;
    int64_t result = -1;
    if (sqlite3_prepare_v2(raw, sql, -1, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "sqlite3: %s\n    in: %s\n", sqlite3_errmsg(raw), sql);
        CHECK(!"SQL prepares");
        return -1;
    }
    if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_type(statement, 0) == SQLITE_INTEGER)
        result = sqlite3_column_int64(statement, 0);
    else
        fprintf(stderr, "sqlite3: no integer from: %s (%s)\n", sql, sqlite3_errmsg(raw));
    sqlite3_finalize(statement);
    return result;
}

/* sql_int() with the query built printf-style. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int64_t sql_intf(const char *format, ...) {
    char sql[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(sql, sizeof sql, format, args);
    va_end(args);
    return sql_int(sql);
}

static drumlin_object *find(const char *class_name, drumlin_value key) {
    drumlin_object *object = NULL;
    REQUIRE_OK(drumlin_object_find(db, class_name, &key, &object));
    return object;
}

static drumlin_object *dog(const char *name) {
    return find("Dog", string_value(name));
}

static size_t results_count(drumlin_results *results) {
    size_t n = (size_t)-1;
    CHECK_OK(drumlin_results_count(results, &n));
    return n;
}

/* The results' objects' names, comma-separated, into `out`. */
static const char *result_names(drumlin_results *results, char *out, size_t size) {
    size_t n = results_count(results), used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && n != (size_t)-1; i++) {
        drumlin_object *object = NULL;
        drumlin_value v;
        memset(&v, 0, sizeof v);
        CHECK_OK(drumlin_results_get_object(results, i, &object));
        if (object && drumlin_object_get(object, "name", &v) == DRUMLIN_OK && v.type == DRUMLIN_TYPE_STRING)
            used += (size_t)snprintf(out + used, size - used, "%s%.*s", i ? "," : "", (int)v.as.string.size,
                                     v.as.string.data);
        drumlin_object_release(object);
        if (used >= size) break;
    }
    return out;
}

/*---- Deleting an owner -------------------------------------------------------------------------*/

static void test_delete_owner(void) {
    char dogs_table[128], addresses_table[128], coordinates_table[128], names[256];
    drumlin_object *ann = NULL, *rex = NULL, *bo = NULL, *first_address = NULL;
    drumlin_results *rex_owners = NULL, *bo_owners = NULL, *bo_owners_by_path = NULL;
    drumlin_list *ann_addresses = NULL;
    int64_t ann_key = -1, n = -1;
    int valid = -1;
    char *json = NULL;

    list_table(dogs_table, sizeof dogs_table, PERSON_TABLE, "dogs");
    list_table(addresses_table, sizeof addresses_table, PERSON_TABLE, "adressen");
    list_table(coordinates_table, sizeof coordinates_table, "GeoPoint", "coordinates");

    /* Ann owns two dogs (Rex existing, Bo new), three embedded addresses in a list and one more
     * as a to-one link, which itself owns an embedded GeoPoint with a coordinates list. Bob also
     * owns Rex and one address: his rows must survive Ann's deletion. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Dog", "{\"name\": \"Rex\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_object_create_json(db, "Person",
        "{\"_id\": 1, \"name\": \"Ann\", \"dogs\": [\"Rex\", {\"name\": \"Bo\"}],"
        " \"addresses\": [{\"street\": \"1 Main St\"}, {\"street\": \"2 Main St\", \"city\": \"Oslo\"},"
        "                 {\"street\": \"3 Main St\"}],"
        " \"address\": {\"street\": \"Home\", \"location\": {\"type\": \"Point\", \"coordinates\": [10.75, 59.91]}}}",
        DRUMLIN_UPDATE_NEVER, &ann));
    REQUIRE_OK(drumlin_create_json(db, "Person",
        "{\"_id\": 2, \"name\": \"Bob\", \"dogs\": [\"Rex\"], \"addresses\": [{\"street\": \"Bob St\"}]}",
        DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_object_key(ann, &ann_key));
    CHECK(ann_key == 1); /* a required int primary key is the object key */

    rex = dog("Rex");
    bo = dog("Bo");
    REQUIRE_OK(drumlin_object_get_backlinks(rex, "owners", &rex_owners));
    REQUIRE_OK(drumlin_object_get_backlinks(bo, "owners", &bo_owners));
    REQUIRE_OK(drumlin_object_get_backlinks(bo, "@links.Person.dogs", &bo_owners_by_path));
    CHECK_STR(result_names(rex_owners, names, sizeof names), "Ann,Bob");
    CHECK_STR(result_names(bo_owners, names, sizeof names), "Ann");
    CHECK(results_count(bo_owners_by_path) == 1);
    REQUIRE_OK(drumlin_object_get_list(ann, "addresses", &ann_addresses));
    REQUIRE_OK(drumlin_list_get_object(ann_addresses, 0, &first_address));
    CHECK_OK(drumlin_object_to_json(first_address, &json));
    CHECK_STR(json, "{\"street\":\"1 Main St\",\"city\":null,\"location\":null}");
    drumlin_free(json);
    json = NULL;

    /* What the file holds before the delete. The side tables are named after the stored names,
     * with the table name's length in bytes: 7 for "Persön". */
    CHECK(sql_int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                  " ('_drumlin_list_7_" PERSON_TABLE "_dogs', '_drumlin_list_7_" PERSON_TABLE "_adressen',"
                  "  '_drumlin_list_8_GeoPoint_coordinates')") == 3);
    CHECK(sql_int("SELECT count(*) FROM Address") == 5);
    CHECK(sql_int("SELECT count(*) FROM GeoPoint") == 1);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\"", coordinates_table) == 2);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\" WHERE owner = %lld", addresses_table, (long long)ann_key) == 3);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\" WHERE owner = %lld", dogs_table, (long long)ann_key) == 2);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\" WHERE address IS NOT NULL", PERSON_TABLE) == 1);

    /* A delete that is rolled back changes nothing. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_delete(ann));
    CHECK(results_count(rex_owners) == 1); /* live: the transaction's own writes show */
    REQUIRE_OK(drumlin_rollback(db));
    CHECK_STR(result_names(rex_owners, names, sizeof names), "Ann,Bob");
    CHECK_OK(drumlin_object_is_valid(ann, &valid));
    CHECK(valid == 1);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_delete(ann));
    REQUIRE_OK(drumlin_commit(db));

    /* Through the C API: Ann and what she owned are gone; the dogs stay, without her. */
    CHECK_OK(drumlin_object_is_valid(ann, &valid));
    CHECK(valid == 0);
    CHECK_ERR(drumlin_object_to_json(ann, &json), DRUMLIN_ERR_INVALIDATED_OBJECT);
    CHECK(json == NULL);
    CHECK_RC(drumlin_get_json(db, "Person", "1", &json), DRUMLIN_NOT_FOUND);
    CHECK(json == NULL);
    valid = -1;
    CHECK_OK(drumlin_object_is_valid(first_address, &valid));
    CHECK(valid == 0);
    CHECK_ERR(drumlin_list_to_json(ann_addresses, &json), DRUMLIN_ERR_INVALIDATED_OBJECT);
    CHECK(json == NULL);
    CHECK_OK(drumlin_count(db, "Dog", NULL, NULL, &n));
    CHECK(n == 2);
    CHECK_OK(drumlin_count(db, "Person", NULL, NULL, &n));
    CHECK(n == 1);
    CHECK_STR(result_names(rex_owners, names, sizeof names), "Bob");
    CHECK(results_count(bo_owners) == 0);
    CHECK(results_count(bo_owners_by_path) == 0);
    {
        drumlin_object *none = (drumlin_object *)&none;
        CHECK_ERR(drumlin_results_get_object(bo_owners, 0, &none), DRUMLIN_ERR_INVALID_ARGUMENT);
        CHECK(none == NULL);
    }
    CHECK_OK(drumlin_results_to_json(bo_owners, &json));
    CHECK_STR(json, "[]");
    drumlin_free(json);
    json = NULL;
    CHECK_OK(drumlin_get_json(db, "Person", "2", &json));
    CHECK_JSON_HAS(json, "\"dogs\":[\"Rex\"],\"address\":null,\"addresses\":[{\"street\":\"Bob St\"");
    drumlin_free(json);
    json = NULL;

    /* Through SQLite: no orphan embedded rows, no list rows owned by Ann, Bob's rows intact. */
    CHECK(sql_int("SELECT count(*) FROM Address") == 1);
    CHECK(sql_intf("SELECT count(*) FROM Address a"
                   " WHERE NOT EXISTS (SELECT 1 FROM \"%s\" l WHERE l.value = a._drumlin_key)"
                   "   AND NOT EXISTS (SELECT 1 FROM \"%s\" p WHERE p.address = a._drumlin_key)",
                   addresses_table, PERSON_TABLE) == 0);
    CHECK(sql_int("SELECT count(*) FROM GeoPoint") == 0);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\"", coordinates_table) == 0);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\" WHERE owner = %lld", addresses_table, (long long)ann_key) == 0);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\" WHERE owner = %lld", dogs_table, (long long)ann_key) == 0);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\"", addresses_table) == 1);
    CHECK(sql_intf("SELECT count(*) FROM \"%s\"", dogs_table) == 1);
    CHECK(sql_int("SELECT count(*) FROM Dog") == 2);

    drumlin_list_release(ann_addresses);
    drumlin_object_release(first_address);
    drumlin_results_release(bo_owners_by_path);
    drumlin_results_release(bo_owners);
    drumlin_results_release(rex_owners);
    drumlin_object_release(bo);
    drumlin_object_release(rex);
    drumlin_object_release(ann);
}

/*---- Asymmetric objects ------------------------------------------------------------------------*/

static void test_asymmetric(void) {
    static const double inserted[] = {3.0, 1.0, 4.0, 1.5, 9.0, 2.5};
    const size_t n_inserted = sizeof inserted / sizeof inserted[0];
    drumlin_object *rex = dog("Rex"), *reading = NULL;
    int64_t rex_key = -1, n = 12345;
    int32_t value_index = -1;
    char *json = NULL;
    sqlite3_stmt *statement = NULL;
    size_t row = 0;

    CHECK_OK(drumlin_object_key(rex, &rex_key));
    CHECK_OK(drumlin_property_index(db, "Reading", "value", &value_index));

    /* Every way to create works: JSON, JSON arrays, typed values. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Reading", "{\"value\": 3.0, \"dog\": \"Rex\"}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_create_many_json(db, "Reading", "[{\"value\": 1.0}, {\"value\": 4.0, \"dog\": \"Rex\"}]",
                                    DRUMLIN_UPDATE_NEVER, &n));
    CHECK(n == 2);
    REQUIRE_OK(drumlin_commit(db));

    /* A rolled-back create and a failed one leave no row. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Reading", "{\"value\": 100.0}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_rollback(db));
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_ERR(drumlin_create_json(db, "Reading", "{\"dog\": \"Rex\"}", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_MISSING_VALUE);
    CHECK_ERR(drumlin_create_many_json(db, "Reading", "[{\"value\": 200.0}, {\"value\": \"x\"}]", DRUMLIN_UPDATE_NEVER,
                                     NULL),
              DRUMLIN_ERR_TYPE_MISMATCH);
    {
        drumlin_value value;
        memset(&value, 0, sizeof value);
        value.type = DRUMLIN_TYPE_DOUBLE;
        value.as.dnum = 1.5;
        CHECK_OK(drumlin_object_create(db, "Reading", 1, &value_index, &value, DRUMLIN_UPDATE_NEVER, NULL));
    }
    CHECK_OK(drumlin_create_json(db, "Reading", "{\"value\": 9.0}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_create_json(db, "Reading", "{\"value\": 2.5, \"dog\": \"Rex\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));

    /* Reading them back through Drumlin is not supported, and hands out nothing. */
    CHECK_ERR(drumlin_count(db, "Reading", NULL, NULL, &n), DRUMLIN_ERR_NOT_SUPPORTED);
    CHECK_ERR(drumlin_get_json(db, "Reading", "1", &json), DRUMLIN_ERR_NOT_SUPPORTED);
    CHECK(json == NULL);
    CHECK_ERR(drumlin_object_find_by_key(db, "Reading", 1, &reading), DRUMLIN_ERR_NOT_SUPPORTED);
    CHECK(reading == NULL);

    /* The rows are in the table, in insertion order (_drumlin_key is the order). */
    CHECK(sql_int("SELECT count(*) FROM Reading") == (int64_t)n_inserted);
    REQUIRE(sqlite3_prepare_v2(raw, "SELECT _drumlin_key, value, dog FROM Reading ORDER BY _drumlin_key", -1,
                               &statement, NULL) == SQLITE_OK);
    while (sqlite3_step(statement) == SQLITE_ROW) {
        if (row < n_inserted) {
            CHECK(sqlite3_column_int64(statement, 0) == (int64_t)row + 1);
            CHECK(sqlite3_column_double(statement, 1) == inserted[row]);
            if (inserted[row] == 3.0 || inserted[row] == 4.0 || inserted[row] == 2.5)
                CHECK(sqlite3_column_int64(statement, 2) == rex_key);
            else
                CHECK(sqlite3_column_type(statement, 2) == SQLITE_NULL);
        }
        row++;
    }
    sqlite3_finalize(statement);
    CHECK(row == n_inserted);

    drumlin_object_release(rex);
}

/*---- Deeply nested mixed values ----------------------------------------------------------------*/

/*
 * A mixed value `depth` collections deep, lists and dictionaries alternating from a list outward:
 * [{"k":[{"k": ... "leaf" ...}]}], as compact JSON. The caller frees it.
 */
static char *nested_mixed(int depth) {
    char *text = (char *)malloc((size_t)depth * 6 + 16);
    size_t n = 0;
    REQUIRE(text != NULL);
    for (int level = 1; level <= depth; level++) {
        if (level % 2) text[n++] = '[';
        else n += (size_t)sprintf(text + n, "{\"k\":");
    }
    n += (size_t)sprintf(text + n, "\"leaf\"");
    for (int level = depth; level >= 1; level--) text[n++] = level % 2 ? ']' : '}';
    text[n] = '\0';
    return text;
}

/* The path to the innermost element of nested_mixed(depth): [0,"k",0,"k",...]. Caller frees. */
static char *nested_path(int depth) {
    char *text = (char *)malloc((size_t)depth * 4 + 4);
    size_t n = 0;
    REQUIRE(text != NULL);
    text[n++] = '[';
    for (int level = 1; level <= depth; level++)
        n += (size_t)sprintf(text + n, "%s%s", level > 1 ? "," : "", level % 2 ? "0" : "\"k\"");
    text[n++] = ']';
    text[n] = '\0';
    return text;
}

/* {"_id":<id>,"name":"Deep","anything":<mixed>} followed, when `stored`, by the other properties
 * as drumlin_get_json prints them. The caller frees it. */
static char *deep_person(int id, const char *mixed, int stored) {
    size_t size = strlen(mixed) + 128;
    char *text = (char *)malloc(size);
    REQUIRE(text != NULL);
    if (stored)
        snprintf(text, size, "{\"_id\":%d,\"name\":\"Deep\",\"dogs\":[],\"address\":null,\"addresses\":[],\"anything\":%s}",
                 id, mixed);
    else
        snprintf(text, size, "{\"_id\": %d, \"name\": \"Deep\", \"anything\": %s}", id, mixed);
    return text;
}

static void test_nested_mixed_limit(void) {
    char *deep100 = nested_mixed(100), *deep101 = nested_mixed(101), *path = nested_path(100);
    char *create100 = deep_person(10, deep100, 0), *want100 = deep_person(10, deep100, 1);
    char *update101 = deep_person(10, deep101, 0), *create101 = deep_person(11, deep101, 0);
    char *json = NULL;
    drumlin_object *deep = NULL;
    int64_t collections_before, mixed_rows, people = -1;

    /* 100 levels: stored, and read back exactly. */
    collections_before = sql_int("SELECT count(*) FROM _drumlin_mixed_collections");
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Person", create100, DRUMLIN_UPDATE_NEVER, &json));
    CHECK_STR(json, want100);
    drumlin_free(json);
    json = NULL;
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_get_json(db, "Person", "10", &json));
    CHECK_STR(json, want100);
    drumlin_free(json);
    json = NULL;
    CHECK(sql_int("SELECT count(*) FROM _drumlin_mixed_collections") == collections_before + 100);
    mixed_rows = sql_int("SELECT count(*) FROM _drumlin_mixed");
    CHECK_OK(drumlin_count(db, "Person", NULL, NULL, &people));

    /* 101 levels: DRUMLIN_ERR_LIMIT from every write path, and nothing changes. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_ERR(drumlin_create_json(db, "Person", update101, DRUMLIN_UPDATE_MODIFIED, &json), DRUMLIN_ERR_LIMIT);
    CHECK(json == NULL);
    CHECK_ERR(drumlin_create_json(db, "Person", update101, DRUMLIN_UPDATE_ALL, NULL), DRUMLIN_ERR_LIMIT);
    CHECK_ERR(drumlin_create_json(db, "Person", create101, DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_LIMIT);
    CHECK_ERR(drumlin_object_create_json(db, "Person", create101, DRUMLIN_UPDATE_NEVER, &deep), DRUMLIN_ERR_LIMIT);
    CHECK(deep == NULL);
    {
        char *batch = (char *)malloc(strlen(create101) + 64);
        REQUIRE(batch != NULL);
        sprintf(batch, "[{\"_id\": 12, \"name\": \"Shallow\"}, %s]", create101);
        CHECK_ERR(drumlin_create_many_json(db, "Person", batch, DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_LIMIT);
        free(batch);
    }
    {
        drumlin_value key;
        memset(&key, 0, sizeof key);
        key.type = DRUMLIN_TYPE_INT;
        key.as.integer = 10;
        deep = find("Person", key);
    }
    /* The innermost element is at level 100: a collection there would be level 101. */
    CHECK_OK(drumlin_object_get_mixed_json(deep, "anything", path, &json));
    CHECK_STR(json, "\"leaf\"");
    drumlin_free(json);
    json = NULL;
    CHECK_ERR(drumlin_object_set_mixed_json(deep, "anything", path, "[1]"), DRUMLIN_ERR_LIMIT);
    CHECK_ERR(drumlin_object_set_mixed_json(deep, "anything", path, "{}"), DRUMLIN_ERR_LIMIT);
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(drumlin_get_json(db, "Person", "10", &json));
    CHECK_STR(json, want100);
    drumlin_free(json);
    json = NULL;
    CHECK_RC(drumlin_get_json(db, "Person", "11", &json), DRUMLIN_NOT_FOUND);
    CHECK_RC(drumlin_get_json(db, "Person", "12", &json), DRUMLIN_NOT_FOUND);
    {
        int64_t now = -1;
        CHECK_OK(drumlin_count(db, "Person", NULL, NULL, &now));
        CHECK(now == people);
    }
    CHECK(sql_int("SELECT count(*) FROM _drumlin_mixed_collections") == collections_before + 100);
    CHECK(sql_int("SELECT count(*) FROM _drumlin_mixed") == mixed_rows);

    /* A scalar at level 100 is fine. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_set_mixed_json(deep, "anything", path, "7"));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_object_get_mixed_json(deep, "anything", path, &json));
    CHECK_STR(json, "7");
    drumlin_free(json);

    drumlin_object_release(deep);
    free(create101);
    free(update101);
    free(want100);
    free(create100);
    free(path);
    free(deep101);
    free(deep100);
}

int main(void) {
    char dir[2048], path[4096];
    test_dir_make(dir, sizeof dir, "relationships");
    snprintf(path, sizeof path, "%s/relationships.drumlin", dir);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    /* Drumlin made the file (WAL mode); a plain read-only connection sees each committed state. */
    if (sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "sqlite3_open_v2(%s): %s\n", path, raw ? sqlite3_errmsg(raw) : "out of memory");
        return 1;
    }

    test_delete_owner();
    test_asymmetric();
    test_nested_mixed_limit();

    CHECK(sqlite3_close(raw) == SQLITE_OK);
    CHECK_OK(drumlin_close(db));
    test_dir_remove(dir);
    return check_report("relationships");
}
