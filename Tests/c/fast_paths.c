/*
 * fast_paths.c — the typed fast paths: cairn_create_many_values (multi-row INSERT batches for
 * plain columns, the general path otherwise), cairn_object_update_values (one UPDATE by primary
 * key, the general path otherwise) and cairn_object_find_values (reads the row in place, lends
 * strings from a per-handle arena). Every test opens its own :memory: database.
 */
#include "check.h"

#include <stdint.h>

static const char *SCHEMA =
    "[{\"name\": \"Plain\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"name\": \"string\", \"age\": \"int?\","
    "   \"score\": {\"type\": \"double\", \"default\": 1.5}, \"active\": {\"type\": \"bool\", \"default\": true},"
    "   \"ratio\": \"float?\", \"blob\": \"data?\", \"note\": \"string?\"}},"
    " {\"name\": \"Special\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"dec\": \"decimal128\", \"when\": \"date\", \"oid\": \"objectId\", \"u\": \"uuid?\","
    "   \"n\": \"int\"}},"
    " {\"name\": \"Tagged\", \"primaryKey\": \"code\", \"properties\": {"
    "   \"code\": \"string\", \"n\": \"int\", \"tags\": \"string[]\", \"next\": \"Tagged\", \"extra\": \"mixed\"}},"
    " {\"name\": \"Named\", \"primaryKey\": \"key\", \"properties\": {"
    "   \"key\": \"string\", \"v\": \"int\", \"label\": \"string?\"}},"
    " {\"name\": \"Doc\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"title\": \"string\", \"body\": {\"type\": \"string\", \"indexed\": \"full-text\"}}},"
    " {\"name\": \"Wide\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"s0\": \"string\", \"s1\": \"string\", \"s2\": \"string\", \"s3\": \"string\","
    "   \"s4\": \"string\", \"s5\": \"string\"}},"
    " {\"name\": \"MaybeKey\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int?\", \"n\": \"int\"}}"
    "]";

/* Plain's properties, in schema order. */
enum { PL_ID, PL_NAME, PL_AGE, PL_SCORE, PL_ACTIVE, PL_RATIO, PL_BLOB, PL_NOTE, PL_COUNT };
static const char *PLAIN_NAMES[PL_COUNT] = {"id", "name", "age", "score", "active", "ratio", "blob", "note"};

/* The last error message must contain `sub` (checked right after the failing call). */
#define CHECK_MSG_HAS(sub)                                                                        \
    do {                                                                                          \
        char msg_[2048];                                                                          \
        check_last_message(msg_, sizeof msg_);                                                    \
        if (strstr(msg_, (sub)) != NULL) {                                                        \
            CHECK_PASSED_();                                                                      \
        } else {                                                                                  \
            fprintf(stderr, "%s:%d: last error \"%s\" does not contain \"%s\"\n", __FILE__,        \
                    __LINE__, msg_, (sub));                                                       \
            CHECK_FAILED_();                                                                      \
        }                                                                                         \
    } while (0)

/* An error call: the status, the thread's error code, and a message substring. */
#define CHECK_FAILS(call, want, sub)                                                              \
    do {                                                                                          \
        CHECK_ERR(call, want);                                                                    \
        CHECK_MSG_HAS(sub);                                                                       \
    } while (0)

/*---- Small helpers -----------------------------------------------------------------------------*/

static cairn_db *fresh(void) {
    cairn_db *db = NULL;
    REQUIRE_OK(cairn_open(":memory:", SCHEMA, NULL, &db));
    REQUIRE(db != NULL);
    return db;
}

static int32_t prop(cairn_db *db, const char *class_name, const char *name) {
    int32_t index = -1;
    REQUIRE_OK(cairn_property_index(db, class_name, name, &index));
    return index;
}

static void plain_indices(cairn_db *db, int32_t *out) {
    for (int p = 0; p < PL_COUNT; p++) out[p] = prop(db, "Plain", PLAIN_NAMES[p]);
}

static int64_t count_of(cairn_db *db, const char *class_name, const char *query, const char *args) {
    int64_t n = -1;
    REQUIRE_OK(cairn_count(db, class_name, query, args, &n));
    return n;
}

static cairn_value v_null(void) {
    cairn_value v;
    memset(&v, 0, sizeof v);
    v.type = CAIRN_TYPE_NULL;
    return v;
}

static cairn_value v_int(int64_t i) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_INT;
    v.as.integer = i;
    return v;
}

static cairn_value v_bool(int b) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_BOOL;
    v.as.boolean = b;
    return v;
}

static cairn_value v_double(double d) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_DOUBLE;
    v.as.dnum = d;
    return v;
}

static cairn_value v_float(float f) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_FLOAT;
    v.as.fnum = f;
    return v;
}

static cairn_value v_strn(const char *s, size_t n) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_STRING;
    v.as.string.data = s;
    v.as.string.size = n;
    return v;
}

static cairn_value v_str(const char *s) { return v_strn(s, strlen(s)); }

static cairn_value v_bin(const void *p, size_t n) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_BINARY;
    v.as.binary.data = (const uint8_t *)p;
    v.as.binary.size = n;
    return v;
}

static cairn_value v_link(int32_t class_index, int64_t key) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_LINK;
    v.as.link.class_index = class_index;
    v.as.link.key = key;
    return v;
}

/* A cairn_value string must equal the C string `want`. */
#define CHECK_VSTR(value, want)                                                                   \
    do {                                                                                          \
        cairn_value vs_ = (value);                                                                \
        CHECK(vs_.type == CAIRN_TYPE_STRING);                                                     \
        if (vs_.type == CAIRN_TYPE_STRING) CHECK_BYTES(vs_.as.string.data, vs_.as.string.size, (want), strlen(want)); \
    } while (0)

/* Reads every Plain property of object `id` (borrowed values: check before the next call). */
static int read_plain(cairn_db *db, const int32_t *idx, int64_t id, cairn_value *out) {
    cairn_value pk = v_int(id);
    memset(out, 0xAB, sizeof(cairn_value) * PL_COUNT);
    return cairn_object_find_values(db, "Plain", &pk, PL_COUNT, idx, out, NULL);
}

/* Creates Plain objects ids first..first+n-1 with name "p<id>", committed. */
static void seed_plain(cairn_db *db, int64_t first, int n) {
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    cairn_value *rows = calloc((size_t)n * 2, sizeof(cairn_value));
    char (*names)[32] = calloc((size_t)n, 32);
    int64_t created = -1;
    REQUIRE(rows && names);
    for (int r = 0; r < n; r++) {
        snprintf(names[r], 32, "p%lld", (long long)(first + r));
        rows[r * 2] = v_int(first + r);
        rows[r * 2 + 1] = v_str(names[r]);
    }
    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_many_values(db, "Plain", 2, idx, (size_t)n, rows, CAIRN_UPDATE_NEVER, &created));
    REQUIRE_OK(cairn_commit(db));
    REQUIRE(created == n);
    free(rows);
    free(names);
}

/*---- cairn_create_many_values ------------------------------------------------------------------*/

enum { ROWS = 130 }; /* two full 64-row batches and a remainder of 2 */

static void plain_row(int r, cairn_value *row, char *name_buf, uint8_t *blob_buf) {
    snprintf(name_buf, 48, "name-%d-caf\xc3\xa9", r);
    row[PL_ID] = v_int(r + 1);
    row[PL_NAME] = v_str(name_buf);
    row[PL_AGE] = r % 3 == 0 ? v_null() : v_int((int64_t)r * 10 - 500);
    row[PL_SCORE] = v_double(r + 0.25);
    row[PL_ACTIVE] = v_bool(r % 2);
    row[PL_RATIO] = r % 4 == 0 ? v_null() : v_float((float)r * 0.5f);
    blob_buf[0] = (uint8_t)r;
    blob_buf[1] = 0;
    blob_buf[2] = 255;
    row[PL_BLOB] = r % 5 == 0 ? v_bin(NULL, 0) : r % 5 == 1 ? v_null() : v_bin(blob_buf, 3);
    row[PL_NOTE] = r % 7 == 0 ? v_str("") : r % 7 == 1 ? v_null() : v_str("note \xf0\x9f\x8e\x89");
}

static void check_plain_row(const cairn_value *v, int r) {
    char name[48];
    uint8_t blob[3] = {(uint8_t)r, 0, 255};
    snprintf(name, sizeof name, "name-%d-caf\xc3\xa9", r);
    CHECK(v[PL_ID].type == CAIRN_TYPE_INT && v[PL_ID].as.integer == r + 1);
    CHECK_VSTR(v[PL_NAME], name);
    if (r % 3 == 0) CHECK(v[PL_AGE].type == CAIRN_TYPE_NULL);
    else CHECK(v[PL_AGE].type == CAIRN_TYPE_INT && v[PL_AGE].as.integer == (int64_t)r * 10 - 500);
    CHECK(v[PL_SCORE].type == CAIRN_TYPE_DOUBLE && v[PL_SCORE].as.dnum == r + 0.25);
    CHECK(v[PL_ACTIVE].type == CAIRN_TYPE_BOOL && v[PL_ACTIVE].as.boolean == r % 2);
    if (r % 4 == 0) CHECK(v[PL_RATIO].type == CAIRN_TYPE_NULL);
    else CHECK(v[PL_RATIO].type == CAIRN_TYPE_FLOAT && v[PL_RATIO].as.fnum == (float)r * 0.5f);
    if (r % 5 == 0) {
        CHECK(v[PL_BLOB].type == CAIRN_TYPE_BINARY && v[PL_BLOB].as.binary.size == 0);
    } else if (r % 5 == 1) {
        CHECK(v[PL_BLOB].type == CAIRN_TYPE_NULL);
    } else {
        CHECK(v[PL_BLOB].type == CAIRN_TYPE_BINARY);
        if (v[PL_BLOB].type == CAIRN_TYPE_BINARY) CHECK_BYTES(v[PL_BLOB].as.binary.data, v[PL_BLOB].as.binary.size, blob, 3);
    }
    if (r % 7 == 0) CHECK_VSTR(v[PL_NOTE], "");
    else if (r % 7 == 1) CHECK(v[PL_NOTE].type == CAIRN_TYPE_NULL);
    else CHECK_VSTR(v[PL_NOTE], "note \xf0\x9f\x8e\x89");
}

/* 130 rows of every plain column type read back exactly (find_values and JSON). */
static void test_create_many_stores_exact_values(void) {
    cairn_db *db = fresh();
    int32_t idx[PL_COUNT];
    static cairn_value rows[ROWS * PL_COUNT];
    static char names[ROWS][48];
    static uint8_t blobs[ROWS][3];
    cairn_value out[PL_COUNT];
    char *json = NULL;
    int64_t created = -1;

    plain_indices(db, idx);
    for (int r = 0; r < ROWS; r++) plain_row(r, rows + r * PL_COUNT, names[r], blobs[r]);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "Plain", PL_COUNT, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == ROWS);

    for (int r = 0; r < ROWS; r++) {
        CHECK_OK(read_plain(db, idx, r + 1, out));
        check_plain_row(out, r);
    }
    /* JSON of a row from the first batch, the second batch and the remainder. */
    CHECK_OK(cairn_get_json(db, "Plain", "2", &json));
    CHECK_STR(json, "{\"id\":2,\"name\":\"name-1-caf\xc3\xa9\",\"age\":-490,\"score\":1.25,\"active\":true,"
                    "\"ratio\":0.5,\"blob\":null,\"note\":null}");
    cairn_free(json);
    CHECK_OK(cairn_get_json(db, "Plain", "100", &json));
    CHECK_JSON_HAS(json, "\"id\":100,\"name\":\"name-99-caf\xc3\xa9\",\"age\":null,\"score\":99.25,\"active\":true");
    cairn_free(json);
    CHECK_OK(cairn_get_json(db, "Plain", "129", &json));
    CHECK_JSON_HAS(json, "\"id\":129,\"name\":\"name-128-caf\xc3\xa9\",\"age\":780,\"score\":128.25,\"active\":false");
    cairn_free(json);
    CHECK_OK(cairn_get_json(db, "Plain", "130", &json));
    CHECK_JSON_HAS(json, "\"id\":130,\"name\":\"name-129-caf\xc3\xa9\",\"age\":null,\"score\":129.25,\"active\":true");
    cairn_free(json);
    CHECK_RC(cairn_get_json(db, "Plain", "131", &json), CAIRN_NOT_FOUND);
    /* Creation order is kept across batches. */
    CHECK_OK(cairn_query_json(db, "Plain", "id >= 63 AND id <= 66", NULL, &json));
    CHECK_JSON_HAS(json, "[{\"id\":63,");
    cairn_free(json);
    CHECK(count_of(db, "Plain", "age == nil", NULL) == 44); /* r % 3 == 0 for r in 0..129 */
    CHECK_OK(cairn_close(db));
}

/* Properties not given take their default, else null. */
static void test_create_many_defaults_and_nulls(void) {
    cairn_db *db = fresh();
    int32_t idx[PL_COUNT];
    int32_t given[2];
    static cairn_value rows[70 * 2];
    static char names[70][16];
    cairn_value out[PL_COUNT];
    char *json = NULL;
    int64_t created = -1;

    plain_indices(db, idx);
    given[0] = idx[PL_NAME]; /* the order of the given properties need not be the schema's */
    given[1] = idx[PL_ID];
    for (int r = 0; r < 70; r++) {
        snprintf(names[r], sizeof names[r], "n%d", r);
        rows[r * 2] = v_str(names[r]);
        rows[r * 2 + 1] = v_int(1000 + r);
    }
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "Plain", 2, given, 70, rows, CAIRN_UPDATE_NEVER, &created));
    REQUIRE_OK(cairn_commit(db));
    CHECK(created == 70);
    for (int r = 0; r < 70; r++) {
        CHECK_OK(read_plain(db, idx, 1000 + r, out));
        CHECK(out[PL_ID].type == CAIRN_TYPE_INT && out[PL_ID].as.integer == 1000 + r);
        CHECK_VSTR(out[PL_NAME], names[r]);
        CHECK(out[PL_AGE].type == CAIRN_TYPE_NULL);
        CHECK(out[PL_SCORE].type == CAIRN_TYPE_DOUBLE && out[PL_SCORE].as.dnum == 1.5);
        CHECK(out[PL_ACTIVE].type == CAIRN_TYPE_BOOL && out[PL_ACTIVE].as.boolean == 1);
        CHECK(out[PL_RATIO].type == CAIRN_TYPE_NULL);
        CHECK(out[PL_BLOB].type == CAIRN_TYPE_NULL);
        CHECK(out[PL_NOTE].type == CAIRN_TYPE_NULL);
    }
    CHECK_OK(cairn_get_json(db, "Plain", "1069", &json));
    CHECK_STR(json, "{\"id\":1069,\"name\":\"n69\",\"age\":null,\"score\":1.5,\"active\":true,\"ratio\":null,"
                    "\"blob\":null,\"note\":null}");
    cairn_free(json);
    CHECK_OK(cairn_close(db));
}

/* A required property without a default that is not given: MISSING_VALUE, nothing written. */
static void test_create_many_missing_required(void) {
    cairn_db *db = fresh();
    int32_t id = prop(db, "Plain", "id");
    int32_t special[2] = {prop(db, "Special", "id"), prop(db, "Special", "n")};
    cairn_value rows[3] = {v_int(1), v_int(2), v_int(3)};
    cairn_value special_rows[4] = {v_int(1), v_int(1), v_int(2), v_int(2)};
    int64_t created = 99;

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 1, &id, 3, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_MISSING_VALUE, "'Plain.name'");
    CHECK_MSG_HAS("Element 0");
    CHECK(created == 0);
    /* The general path (decimal128, date, objectId columns not given). */
    created = 99;
    CHECK_FAILS(cairn_create_many_values(db, "Special", 2, special, 2, special_rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_MISSING_VALUE, "Element 0: Missing value for property 'Special.");
    CHECK(created == 0);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);
    CHECK(count_of(db, "Special", NULL, NULL) == 0);
    CHECK_OK(cairn_close(db));
}

/* One bad value anywhere in the batch: the error names the element, nothing is written. */
static void test_create_many_bad_row_writes_nothing(void) {
    cairn_db *db = fresh();
    int32_t idx[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "age")};
    static cairn_value rows[ROWS * 3];
    int64_t created = -1;
    const int bad_rows[] = {100, 0, 63, 64, 129};

    seed_plain(db, 5000, 5);
    for (int r = 0; r < ROWS; r++) {
        rows[r * 3] = v_int(r + 1);
        rows[r * 3 + 1] = v_str("x");
        rows[r * 3 + 2] = v_int(r);
    }
    REQUIRE_OK(cairn_begin_write(db));
    /* An earlier write in the same transaction survives the failed calls. */
    REQUIRE_OK(cairn_create_json(db, "Plain", "{\"id\": 9000, \"name\": \"kept\"}", CAIRN_UPDATE_NEVER, NULL));
    for (size_t b = 0; b < sizeof bad_rows / sizeof bad_rows[0]; b++) {
        int bad = bad_rows[b];
        char element[32];
        snprintf(element, sizeof element, "Element %d:", bad);
        rows[bad * 3 + 2] = v_str("old");
        created = 99;
        CHECK_FAILS(cairn_create_many_values(db, "Plain", 3, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created),
                    CAIRN_ERR_TYPE_MISMATCH, element);
        CHECK_MSG_HAS("Type mismatch for property 'Plain.age'");
        CHECK(created == 0);
        CHECK(count_of(db, "Plain", NULL, NULL) == 6);
        rows[bad * 3 + 2] = v_int(bad);
    }
    /* null into a required column */
    rows[64 * 3 + 1] = v_null();
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 3, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_NOT_NULLABLE, "Element 64:");
    CHECK_MSG_HAS("'Plain.name'");
    rows[64 * 3 + 1] = v_str("x");
    /* bool into int */
    rows[127 * 3 + 2] = v_bool(1);
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 3, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_TYPE_MISMATCH, "Element 127:");
    rows[127 * 3 + 2] = v_int(127);
    CHECK(count_of(db, "Plain", NULL, NULL) == 6);
    /* The transaction is still usable and the same rows now go in. */
    CHECK_OK(cairn_create_many_values(db, "Plain", 3, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 6 + ROWS);
    CHECK(count_of(db, "Plain", "name == 'kept'", NULL) == 1);
    CHECK(count_of(db, "Plain", "age == 100 AND id == 101", NULL) == 1);
    CHECK_OK(cairn_close(db));
}

/* Duplicate primary keys inside the batch and against existing objects. */
static void test_create_many_duplicate_primary_key(void) {
    cairn_db *db = fresh();
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    int32_t tagged[2] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n")};
    static cairn_value rows[ROWS * 2];
    cairn_value tagged_rows[6] = {v_str("a"), v_int(1), v_str("b"), v_int(2), v_str("a"), v_int(3)};
    int64_t created = -1;
    struct { int row, duplicate_of; } cases[] = {{70, 10}, {20, 3}, {129, 128}, {64, 63}};

    seed_plain(db, 500, 1);
    for (int r = 0; r < ROWS; r++) {
        rows[r * 2] = v_int(r + 1);
        rows[r * 2 + 1] = v_str("dup");
    }
    REQUIRE_OK(cairn_begin_write(db));
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char element[32];
        int row = cases[c].row;
        snprintf(element, sizeof element, "Element %d:", row);
        rows[row * 2] = v_int(cases[c].duplicate_of + 1);
        created = 99;
        CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created),
                    CAIRN_ERR_DUPLICATE_PRIMARY_KEY, element);
        CHECK(created == 0);
        rows[row * 2] = v_int(row + 1);
    }
    /* Against an existing object. */
    rows[7 * 2] = v_int(500);
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, idx, 10, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_DUPLICATE_PRIMARY_KEY, "Element 7:");
    CHECK_MSG_HAS("existing primary key value '500'");
    rows[7 * 2] = v_int(8);
    CHECK(count_of(db, "Plain", NULL, NULL) == 1);
    /* The general path (a class with links and lists), string keys. */
    CHECK_FAILS(cairn_create_many_values(db, "Tagged", 2, tagged, 3, tagged_rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_DUPLICATE_PRIMARY_KEY, "Element 2:");
    CHECK_MSG_HAS("'Tagged'");
    CHECK(created == 0);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 0);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 1);
    CHECK_OK(cairn_close(db));
}

/* An optional primary key: a null key and an int key through the batch path, found again. */
static void test_create_many_optional_primary_key(void) {
    cairn_db *db = fresh();
    int32_t idx[2] = {prop(db, "MaybeKey", "id"), prop(db, "MaybeKey", "n")};
    cairn_value rows[4] = {v_null(), v_int(1), v_int(7), v_int(2)};
    cairn_value out[2], null_pk = v_null();
    int64_t created = -1;

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "MaybeKey", 2, idx, 2, rows, CAIRN_UPDATE_NEVER, &created));
    CHECK(created == 2);
    rows[1] = v_int(3);
    CHECK_FAILS(cairn_create_many_values(db, "MaybeKey", 2, idx, 1, rows + 2, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_DUPLICATE_PRIMARY_KEY, "Element 0:");
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "MaybeKey", NULL, NULL) == 2);
    CHECK(count_of(db, "MaybeKey", "id == nil", NULL) == 1);
    CHECK_OK(cairn_object_find_values(db, "MaybeKey", &null_pk, 2, idx, out, NULL));
    CHECK(out[0].type == CAIRN_TYPE_NULL && out[1].type == CAIRN_TYPE_INT && out[1].as.integer == 1);
    CHECK_OK(cairn_close(db));
}

/* Strings must be UTF-8, on the batch path and the general path. */
static void test_create_many_invalid_utf8(void) {
    cairn_db *db = fresh();
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    int32_t tagged[2] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n")};
    cairn_value rows[8] = {v_int(1), v_str("ok"), v_int(2), v_str("fine"), v_int(3), v_strn("a\xff\xfe", 3),
                           v_int(4), v_str("ok")};
    cairn_value tagged_rows[4] = {v_str("a"), v_int(1), v_strn("\xc3\x28", 2), v_int(2)};
    int64_t created = -1;

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, idx, 4, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_INVALID_ARGUMENT, "Element 2:");
    CHECK_MSG_HAS("UTF-8");
    CHECK(created == 0);
    CHECK_FAILS(cairn_create_many_values(db, "Tagged", 2, tagged, 2, tagged_rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_INVALID_ARGUMENT, "Element 1:");
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 0);
    CHECK_OK(cairn_close(db));
}

/* decimal128, date, objectId and uuid go through the general path, exactly. */
static cairn_value special_dec(int r) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_DECIMAL128;
    v.as.decimal128.w[0] = 110 + (uint64_t)r;           /* coefficient */
    v.as.decimal128.w[1] = (uint64_t)6174 << 49;        /* exponent -2 */
    return v;
}

static cairn_value special_date(int r) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_TIMESTAMP;
    v.as.timestamp.seconds = 1700000000 + r;
    v.as.timestamp.nanoseconds = 123456789;
    return v;
}

static cairn_value special_oid(int r) {
    cairn_value v = v_null();
    v.type = CAIRN_TYPE_OBJECT_ID;
    for (int i = 0; i < 12; i++) v.as.object_id.bytes[i] = (uint8_t)(0x65 + i);
    v.as.object_id.bytes[11] = (uint8_t)r;
    return v;
}

static cairn_value special_uuid(int r) {
    cairn_value v = v_null();
    if (r % 2) return v;
    v.type = CAIRN_TYPE_UUID;
    for (int i = 0; i < 16; i++) v.as.uuid.bytes[i] = (uint8_t)(0x10 * (i % 16) + 1);
    v.as.uuid.bytes[15] = (uint8_t)r;
    return v;
}

static void test_create_many_general_path_special_types(void) {
    cairn_db *db = fresh();
    enum { SP_ID, SP_DEC, SP_WHEN, SP_OID, SP_U, SP_N, SP_COUNT };
    const char *names[SP_COUNT] = {"id", "dec", "when", "oid", "u", "n"};
    int32_t idx[SP_COUNT];
    static cairn_value rows[ROWS * SP_COUNT];
    cairn_value out[SP_COUNT];
    char *json = NULL;
    int64_t created = -1;

    for (int p = 0; p < SP_COUNT; p++) idx[p] = prop(db, "Special", names[p]);
    for (int r = 0; r < ROWS; r++) {
        cairn_value *row = rows + r * SP_COUNT;
        row[SP_ID] = v_int(r);
        row[SP_DEC] = special_dec(r);
        row[SP_WHEN] = special_date(r);
        row[SP_OID] = special_oid(r);
        row[SP_U] = special_uuid(r);
        row[SP_N] = v_int(-r);
    }
    REQUIRE_OK(cairn_begin_write(db));
    /* A bad value in the general path names its element and writes nothing. */
    rows[65 * SP_COUNT + SP_DEC] = v_str("1.5");
    CHECK_FAILS(cairn_create_many_values(db, "Special", SP_COUNT, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_TYPE_MISMATCH, "Element 65:");
    CHECK_MSG_HAS("'Special.dec'");
    CHECK(count_of(db, "Special", NULL, NULL) == 0);
    rows[65 * SP_COUNT + SP_DEC] = special_dec(65);
    CHECK_OK(cairn_create_many_values(db, "Special", SP_COUNT, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Special", NULL, NULL) == ROWS);

    for (int r = 0; r < ROWS; r++) {
        cairn_value pk = v_int(r), want;
        memset(out, 0xAB, sizeof out);
        CHECK_OK(cairn_object_find_values(db, "Special", &pk, SP_COUNT, idx, out, NULL));
        CHECK(out[SP_ID].type == CAIRN_TYPE_INT && out[SP_ID].as.integer == r);
        want = special_dec(r);
        CHECK(out[SP_DEC].type == CAIRN_TYPE_DECIMAL128 && out[SP_DEC].as.decimal128.w[0] == want.as.decimal128.w[0] &&
              out[SP_DEC].as.decimal128.w[1] == want.as.decimal128.w[1]);
        CHECK(out[SP_WHEN].type == CAIRN_TYPE_TIMESTAMP && out[SP_WHEN].as.timestamp.seconds == 1700000000 + r &&
              out[SP_WHEN].as.timestamp.nanoseconds == 123456789);
        want = special_oid(r);
        CHECK(out[SP_OID].type == CAIRN_TYPE_OBJECT_ID && memcmp(out[SP_OID].as.object_id.bytes, want.as.object_id.bytes, 12) == 0);
        want = special_uuid(r);
        if (r % 2) CHECK(out[SP_U].type == CAIRN_TYPE_NULL);
        else CHECK(out[SP_U].type == CAIRN_TYPE_UUID && memcmp(out[SP_U].as.uuid.bytes, want.as.uuid.bytes, 16) == 0);
        CHECK(out[SP_N].type == CAIRN_TYPE_INT && out[SP_N].as.integer == -r);
    }
    CHECK_OK(cairn_get_json(db, "Special", "0", &json));
    CHECK_JSON_HAS(json, "\"dec\":{\"$numberDecimal\":\"1.10\"}");
    CHECK_JSON_HAS(json, "\"when\":{\"$date\":\"2023-11-14T22:13:20.123456789Z\"}");
    CHECK_JSON_HAS(json, "\"oid\":{\"$oid\":\"6566676869");
    cairn_free(json);
    CHECK_OK(cairn_close(db));
}

/* Links through the general path. */
static void test_create_many_links(void) {
    cairn_db *db = fresh();
    int32_t idx[3] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n"), prop(db, "Tagged", "next")};
    int32_t tagged_class = -1;
    cairn_value rows[ROWS * 3];
    static char codes[ROWS][16];
    cairn_object *target = NULL;
    int64_t target_key = -1, created = -1;
    char *json = NULL;

    REQUIRE_OK(cairn_class_index(db, "Tagged", &tagged_class));
    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_object_create_json(db, "Tagged", "{\"code\": \"target\", \"n\": 0}", CAIRN_UPDATE_NEVER, &target));
    REQUIRE_OK(cairn_object_key(target, &target_key));
    for (int r = 0; r < ROWS; r++) {
        snprintf(codes[r], sizeof codes[r], "c%d", r);
        rows[r * 3] = v_str(codes[r]);
        rows[r * 3 + 1] = v_int(r);
        rows[r * 3 + 2] = r % 2 ? v_null() : v_link(tagged_class, target_key);
    }
    CHECK_OK(cairn_create_many_values(db, "Tagged", 3, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Tagged", NULL, NULL) == ROWS + 1);
    CHECK(count_of(db, "Tagged", "next.code == 'target'", NULL) == ROWS / 2);
    CHECK_OK(cairn_get_json(db, "Tagged", "\"c128\"", &json));
    CHECK_JSON_HAS(json, "\"code\":\"c128\",\"n\":128,\"tags\":[],\"next\":\"target\"");
    cairn_free(json);
    cairn_object_release(target);
    CHECK_OK(cairn_close(db));
}

/* MODIFIED and ALL upsert through the general path. */
static void test_create_many_upserts(void) {
    cairn_db *db = fresh();
    int32_t idx[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "age")};
    cairn_value rows[9] = {v_int(2), v_str("two!"), v_int(22), v_int(3), v_str("p3"), v_null(),
                           v_int(4), v_str("four"), v_int(44)};
    cairn_value out[PL_COUNT];
    int32_t all[PL_COUNT];
    int64_t created = -1;

    plain_indices(db, all);
    seed_plain(db, 1, 3);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "Plain", 3, idx, 3, rows, CAIRN_UPDATE_MODIFIED, &created));
    CHECK(created == 3);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 4);
    CHECK_OK(read_plain(db, all, 1, out));
    CHECK_VSTR(out[PL_NAME], "p1");
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK_VSTR(out[PL_NAME], "two!");
    CHECK(out[PL_AGE].type == CAIRN_TYPE_INT && out[PL_AGE].as.integer == 22);
    CHECK_OK(read_plain(db, all, 3, out));
    CHECK_VSTR(out[PL_NAME], "p3");
    CHECK(out[PL_AGE].type == CAIRN_TYPE_NULL);
    CHECK_OK(read_plain(db, all, 4, out));
    CHECK_VSTR(out[PL_NAME], "four");
    CHECK(out[PL_SCORE].type == CAIRN_TYPE_DOUBLE && out[PL_SCORE].as.dnum == 1.5);

    rows[1] = v_str("TWO");
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "Plain", 3, idx, 1, rows, CAIRN_UPDATE_ALL, &created));
    CHECK(created == 1);
    /* An upsert without the primary key among the values. */
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, idx + 1, 1, rows + 1, CAIRN_UPDATE_MODIFIED, &created),
                CAIRN_ERR_MISSING_VALUE, "Element 0:");
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK_VSTR(out[PL_NAME], "TWO");
    CHECK(count_of(db, "Plain", NULL, NULL) == 4);
    CHECK_OK(cairn_close(db));
}

/* Argument checks: transaction state, empty batches, indices, modes, classes. */
static void test_create_many_arguments(void) {
    cairn_db *db = fresh();
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    int32_t bad[2] = {prop(db, "Plain", "id"), 99};
    int32_t negative[2] = {-1, prop(db, "Plain", "name")};
    int32_t twice[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "id")};
    cairn_value rows[3] = {v_int(1), v_str("a"), v_int(1)};
    int64_t created = 99;

    CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, idx, 1, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_WRONG_TRANSACTION_STATE, "");
    CHECK(created == 0);
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);

    REQUIRE_OK(cairn_begin_write(db));
    created = 99;
    CHECK_OK(cairn_create_many_values(db, "Plain", 2, idx, 0, NULL, CAIRN_UPDATE_NEVER, &created));
    CHECK(created == 0);
    CHECK_OK(cairn_create_many_values(db, "Plain", 2, idx, 0, rows, CAIRN_UPDATE_NEVER, NULL));
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, bad, 1, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_INVALID_ARGUMENT, "99");
    CHECK_MSG_HAS("out of range");
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, negative, 1, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_INVALID_ARGUMENT, "out of range");
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 3, twice, 1, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_INVALID_ARGUMENT, "'Plain.id' is given more than once");
    CHECK_FAILS(cairn_create_many_values(db, "Plain", 2, idx, 1, rows, 7, &created), CAIRN_ERR_INVALID_ARGUMENT, "");
    CHECK_FAILS(cairn_create_many_values(db, "Nope", 2, idx, 1, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_NO_SUCH_CLASS, "Nope");
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);
    CHECK_OK(cairn_close(db));
}

/*---- cairn_object_update_values ----------------------------------------------------------------*/

static void test_update_values_writes_properties(void) {
    cairn_db *db = fresh();
    int32_t all[PL_COUNT];
    int32_t name;
    int32_t several[6];
    cairn_value one = v_str("renamed \xc3\xa9");
    cairn_value pk = v_int(2);
    static const uint8_t blob[4] = {9, 0, 8, 7};
    cairn_value values[6];
    cairn_value out[PL_COUNT];

    plain_indices(db, all);
    name = all[PL_NAME];
    several[0] = all[PL_AGE];
    several[1] = all[PL_SCORE];
    several[2] = all[PL_ACTIVE];
    several[3] = all[PL_RATIO];
    several[4] = all[PL_BLOB];
    several[5] = all[PL_NOTE];
    values[0] = v_int(-7);
    values[1] = v_int(3); /* an int into a double property */
    values[2] = v_bool(0);
    values[3] = v_double(0.25); /* a double into a float property */
    values[4] = v_bin(blob, sizeof blob);
    values[5] = v_str("");
    seed_plain(db, 1, 3);

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_values(db, "Plain", &pk, 1, &name, &one));
    CHECK_OK(cairn_object_update_values(db, "Plain", &pk, 6, several, values));
    REQUIRE_OK(cairn_commit(db));

    CHECK_OK(read_plain(db, all, 2, out));
    CHECK(out[PL_ID].type == CAIRN_TYPE_INT && out[PL_ID].as.integer == 2);
    CHECK_VSTR(out[PL_NAME], "renamed \xc3\xa9");
    CHECK(out[PL_AGE].type == CAIRN_TYPE_INT && out[PL_AGE].as.integer == -7);
    CHECK(out[PL_SCORE].type == CAIRN_TYPE_DOUBLE && out[PL_SCORE].as.dnum == 3.0);
    CHECK(out[PL_ACTIVE].type == CAIRN_TYPE_BOOL && out[PL_ACTIVE].as.boolean == 0);
    CHECK(out[PL_RATIO].type == CAIRN_TYPE_FLOAT && out[PL_RATIO].as.fnum == 0.25f);
    CHECK(out[PL_BLOB].type == CAIRN_TYPE_BINARY);
    if (out[PL_BLOB].type == CAIRN_TYPE_BINARY) CHECK_BYTES(out[PL_BLOB].as.binary.data, out[PL_BLOB].as.binary.size, blob, 4);
    CHECK_VSTR(out[PL_NOTE], "");
    /* The neighbours are untouched. */
    CHECK_OK(read_plain(db, all, 1, out));
    CHECK_VSTR(out[PL_NAME], "p1");
    CHECK(out[PL_AGE].type == CAIRN_TYPE_NULL && out[PL_SCORE].as.dnum == 1.5);
    CHECK_OK(read_plain(db, all, 3, out));
    CHECK_VSTR(out[PL_NAME], "p3");

    /* Back to null, and an empty binary stays a binary. */
    values[0] = v_null();
    values[4] = v_bin(NULL, 0);
    values[5] = v_null();
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_values(db, "Plain", &pk, 6, several, values));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK(out[PL_AGE].type == CAIRN_TYPE_NULL);
    CHECK(out[PL_BLOB].type == CAIRN_TYPE_BINARY && out[PL_BLOB].as.binary.size == 0);
    CHECK(out[PL_NOTE].type == CAIRN_TYPE_NULL);
    CHECK(count_of(db, "Plain", NULL, NULL) == 3);
    CHECK_OK(cairn_close(db));
}

static void test_update_values_not_found(void) {
    cairn_db *db = fresh();
    int32_t name = prop(db, "Plain", "name");
    int32_t tagged[2] = {prop(db, "Tagged", "n"), prop(db, "Tagged", "extra")};
    cairn_value pk = v_int(999), value = v_str("ghost");
    cairn_value tpk = v_str("missing"), tvalues[2] = {v_int(1), v_str("m")};
    char *json = NULL;

    seed_plain(db, 1, 2);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_RC(cairn_object_update_values(db, "Plain", &pk, 1, &name, &value), CAIRN_NOT_FOUND);
    CHECK_RC(cairn_last_error_code(), CAIRN_OK);
    CHECK_RC(cairn_object_update_values(db, "Plain", &pk, 0, NULL, NULL), CAIRN_NOT_FOUND);
    CHECK_RC(cairn_object_update_values(db, "Tagged", &tpk, 2, tagged, tvalues), CAIRN_NOT_FOUND);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 2);
    CHECK(count_of(db, "Plain", "name == 'ghost'", NULL) == 0);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 0);
    CHECK_RC(cairn_get_json(db, "Plain", "999", &json), CAIRN_NOT_FOUND);
    /* An existing object with nothing to write is found. */
    pk = v_int(1);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_values(db, "Plain", &pk, 0, NULL, NULL));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_close(db));
}

static void test_update_values_string_primary_key(void) {
    cairn_db *db = fresh();
    int32_t idx[2] = {prop(db, "Named", "v"), prop(db, "Named", "label")};
    cairn_value pk = v_str("k\xc3\xa9y-1"), other = v_str("key-2"), missing = v_str("k\xc3\xa9y");
    cairn_value values[2] = {v_int(41), v_str("forty-one")};
    char *json = NULL;

    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "Named", "{\"key\": \"k\xc3\xa9y-1\", \"v\": 1}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_create_json(db, "Named", "{\"key\": \"key-2\", \"v\": 2}", CAIRN_UPDATE_NEVER, NULL));
    CHECK_OK(cairn_object_update_values(db, "Named", &pk, 2, idx, values));
    CHECK_RC(cairn_object_update_values(db, "Named", &missing, 2, idx, values), CAIRN_NOT_FOUND);
    values[0] = v_int(2000);
    CHECK_OK(cairn_object_update_values(db, "Named", &other, 1, idx, values));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_get_json(db, "Named", "\"k\xc3\xa9y-1\"", &json));
    CHECK_STR(json, "{\"key\":\"k\xc3\xa9y-1\",\"v\":41,\"label\":\"forty-one\"}");
    cairn_free(json);
    CHECK_OK(cairn_get_json(db, "Named", "\"key-2\"", &json));
    CHECK_STR(json, "{\"key\":\"key-2\",\"v\":2000,\"label\":null}");
    cairn_free(json);
    CHECK(count_of(db, "Named", NULL, NULL) == 2);
    CHECK_OK(cairn_close(db));
}

static void test_update_values_optional_primary_key(void) {
    cairn_db *db = fresh();
    int32_t n = prop(db, "MaybeKey", "n");
    cairn_value five = v_int(5), six = v_int(6), value = v_int(77);
    char *json = NULL;

    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 1}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_create_json(db, "MaybeKey", "{\"id\": 5, \"n\": 2}", CAIRN_UPDATE_NEVER, NULL));
    CHECK_OK(cairn_object_update_values(db, "MaybeKey", &five, 1, &n, &value));
    CHECK_RC(cairn_object_update_values(db, "MaybeKey", &six, 1, &n, &value), CAIRN_NOT_FOUND);
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_get_json(db, "MaybeKey", "5", &json));
    CHECK_STR(json, "{\"id\":5,\"n\":77}");
    cairn_free(json);
    CHECK_OK(cairn_get_json(db, "MaybeKey", "null", &json));
    CHECK_STR(json, "{\"id\":null,\"n\":1}");
    cairn_free(json);
    CHECK(count_of(db, "MaybeKey", NULL, NULL) == 2);
    CHECK_OK(cairn_close(db));
}

/* Links, lists and mixed values take the general path. */
static void test_update_values_general_path(void) {
    cairn_db *db = fresh();
    int32_t n = prop(db, "Tagged", "n"), next = prop(db, "Tagged", "next"), tags = prop(db, "Tagged", "tags");
    int32_t extra = prop(db, "Tagged", "extra");
    int32_t idx[3] = {n, next, extra};
    int32_t with_list[2] = {n, tags};
    int32_t tagged_class = -1;
    cairn_object *b = NULL;
    int64_t b_key = -1;
    cairn_value a = v_str("a");
    cairn_value values[3];
    cairn_value list_values[2] = {v_int(500), v_str("not a list")};
    char *json = NULL;

    REQUIRE_OK(cairn_class_index(db, "Tagged", &tagged_class));
    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "Tagged", "{\"code\": \"a\", \"n\": 1, \"tags\": [\"x\", \"y\"]}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_object_create_json(db, "Tagged", "{\"code\": \"b\", \"n\": 2}", CAIRN_UPDATE_NEVER, &b));
    REQUIRE_OK(cairn_object_key(b, &b_key));
    values[0] = v_int(10);
    values[1] = v_link(tagged_class, b_key);
    values[2] = v_double(2.5);
    CHECK_OK(cairn_object_update_values(db, "Tagged", &a, 3, idx, values));
    /* A list property cannot take a scalar: nothing is written, not even `n`. */
    CHECK_FAILS(cairn_object_update_values(db, "Tagged", &a, 2, with_list, list_values), CAIRN_ERR_TYPE_MISMATCH,
                "'Tagged.tags'");
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_get_json(db, "Tagged", "\"a\"", &json));
    CHECK_STR(json, "{\"code\":\"a\",\"n\":10,\"tags\":[\"x\",\"y\"],\"next\":\"b\",\"extra\":2.5}");
    cairn_free(json);
    CHECK(count_of(db, "Tagged", "next.code == 'b'", NULL) == 1);

    /* Clearing the link, and a plain column of a class with relationships (the one-UPDATE path). */
    values[0] = v_int(11);
    values[1] = v_null();
    values[2] = v_str("text");
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_values(db, "Tagged", &a, 3, idx, values));
    CHECK_OK(cairn_object_update_values(db, "Tagged", &a, 1, &n, &values[0]));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_get_json(db, "Tagged", "\"a\"", &json));
    CHECK_STR(json, "{\"code\":\"a\",\"n\":11,\"tags\":[\"x\",\"y\"],\"next\":null,\"extra\":\"text\"}");
    cairn_free(json);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 2);
    cairn_object_release(b);
    CHECK_OK(cairn_close(db));
}

static void test_update_values_primary_key(void) {
    cairn_db *db = fresh();
    int32_t all[PL_COUNT];
    int32_t idx[2];
    int32_t named[2] = {prop(db, "Named", "key"), prop(db, "Named", "v")};
    cairn_value pk = v_int(1);
    cairn_value values[2];
    cairn_value npk = v_str("k");
    cairn_value nvalues[2] = {v_str("k"), v_int(5)};
    cairn_value out[PL_COUNT];
    char *json = NULL;

    plain_indices(db, all);
    idx[0] = all[PL_ID];
    idx[1] = all[PL_NAME];
    seed_plain(db, 1, 2);
    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "Named", "{\"key\": \"k\", \"v\": 1}", CAIRN_UPDATE_NEVER, NULL));
    /* The same key: accepted, and the other property is written. */
    values[0] = v_int(1);
    values[1] = v_str("same key");
    CHECK_OK(cairn_object_update_values(db, "Plain", &pk, 2, idx, values));
    CHECK_OK(cairn_object_update_values(db, "Named", &npk, 2, named, nvalues));
    /* Another key: PRIMARY_KEY_IMMUTABLE, nothing written. */
    values[0] = v_int(3);
    values[1] = v_str("moved");
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 2, idx, values), CAIRN_ERR_PRIMARY_KEY_IMMUTABLE,
                "'Plain.id'");
    values[0] = v_int(2); /* the key of another existing object */
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 1, idx, values), CAIRN_ERR_PRIMARY_KEY_IMMUTABLE,
                "'Plain.id'");
    nvalues[0] = v_str("k2");
    nvalues[1] = v_int(6);
    CHECK_FAILS(cairn_object_update_values(db, "Named", &npk, 2, named, nvalues), CAIRN_ERR_PRIMARY_KEY_IMMUTABLE,
                "'Named.key'");
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(read_plain(db, all, 1, out));
    CHECK_VSTR(out[PL_NAME], "same key");
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK_VSTR(out[PL_NAME], "p2");
    CHECK(count_of(db, "Plain", NULL, NULL) == 2);
    CHECK(count_of(db, "Plain", "id == 3", NULL) == 0);
    CHECK_OK(cairn_get_json(db, "Named", "\"k\"", &json));
    CHECK_STR(json, "{\"key\":\"k\",\"v\":5,\"label\":null}");
    cairn_free(json);
    CHECK(count_of(db, "Named", NULL, NULL) == 1);
    CHECK_OK(cairn_close(db));
}

static void test_update_values_errors_leave_object_unchanged(void) {
    cairn_db *db = fresh();
    int32_t all[PL_COUNT];
    int32_t idx[2];
    int32_t twice[2];
    int32_t bad[2];
    cairn_value pk = v_int(1);
    cairn_value values[2];
    char *json = NULL;
    const char *original = "{\"id\":1,\"name\":\"p1\",\"age\":null,\"score\":1.5,\"active\":true,\"ratio\":null,"
                           "\"blob\":null,\"note\":null}";

    plain_indices(db, all);
    seed_plain(db, 1, 1);
    REQUIRE_OK(cairn_begin_write(db));

    /* string into int (after a valid value for another property) */
    idx[0] = all[PL_NAME];
    idx[1] = all[PL_AGE];
    values[0] = v_str("changed");
    values[1] = v_str("old");
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 2, idx, values), CAIRN_ERR_TYPE_MISMATCH,
                "Type mismatch for property 'Plain.age'");
    CHECK_MSG_HAS("expected int, got string");
    /* null into a required property */
    idx[0] = all[PL_AGE];
    idx[1] = all[PL_NAME];
    values[0] = v_int(30);
    values[1] = v_null();
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 2, idx, values), CAIRN_ERR_NOT_NULLABLE, "'Plain.name'");
    /* the same property twice */
    twice[0] = all[PL_AGE];
    twice[1] = all[PL_AGE];
    values[0] = v_int(30);
    values[1] = v_int(31);
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 2, twice, values), CAIRN_ERR_INVALID_ARGUMENT,
                "'Plain.age' is given more than once");
    /* invalid UTF-8 */
    idx[0] = all[PL_AGE];
    idx[1] = all[PL_NOTE];
    values[0] = v_int(30);
    values[1] = v_strn("\xed\xa0\x80", 3); /* a UTF-16 surrogate */
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 2, idx, values), CAIRN_ERR_INVALID_ARGUMENT, "UTF-8");
    /* an index out of range */
    bad[0] = all[PL_AGE];
    bad[1] = 42;
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 2, bad, values), CAIRN_ERR_INVALID_ARGUMENT, "out of range");
    /* a key of the wrong type */
    values[0] = v_int(30);
    {
        cairn_value string_pk = v_str("1");
        CHECK_FAILS(cairn_object_update_values(db, "Plain", &string_pk, 1, idx, values), CAIRN_ERR_TYPE_MISMATCH,
                    "'Plain.id'");
    }
    /* an unknown class */
    CHECK_FAILS(cairn_object_update_values(db, "Nope", &pk, 1, idx, values), CAIRN_ERR_NO_SUCH_CLASS, "Nope");
    REQUIRE_OK(cairn_commit(db));

    CHECK_OK(cairn_get_json(db, "Plain", "1", &json));
    CHECK_STR(json, original);
    cairn_free(json);

    /* Outside a write transaction. */
    CHECK_FAILS(cairn_object_update_values(db, "Plain", &pk, 1, idx, values), CAIRN_ERR_WRONG_TRANSACTION_STATE, "");
    CHECK_OK(cairn_get_json(db, "Plain", "1", &json));
    CHECK_STR(json, original);
    cairn_free(json);
    CHECK_OK(cairn_close(db));
}

/* A full-text index follows values written by update_values and create_many_values. */
static void test_update_values_full_text(void) {
    cairn_db *db = fresh();
    int32_t idx[3] = {prop(db, "Doc", "id"), prop(db, "Doc", "title"), prop(db, "Doc", "body")};
    int32_t body = idx[2];
    static cairn_value rows[ROWS * 3];
    cairn_value pk = v_int(7), text = v_str("gamma delta");
    int64_t created = -1;
    char *json = NULL;

    for (int r = 0; r < ROWS; r++) {
        rows[r * 3] = v_int(r);
        rows[r * 3 + 1] = v_str("t");
        rows[r * 3 + 2] = v_str(r % 2 ? "alpha beta" : "alpha zeta");
    }
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "Doc", 3, idx, ROWS, rows, CAIRN_UPDATE_NEVER, &created));
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Doc", "body TEXT 'alpha'", NULL) == ROWS);
    CHECK(count_of(db, "Doc", "body TEXT 'beta'", NULL) == ROWS / 2);

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_values(db, "Doc", &pk, 1, &body, &text));
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "Doc", "body TEXT 'gamma'", NULL) == 1);
    CHECK(count_of(db, "Doc", "body TEXT $0", "[\"delta gamma\"]") == 1);
    CHECK(count_of(db, "Doc", "body TEXT 'alpha'", NULL) == ROWS - 1);
    CHECK(count_of(db, "Doc", "body TEXT 'beta'", NULL) == ROWS / 2 - 1);
    CHECK_OK(cairn_query_json(db, "Doc", "body TEXT 'gam*'", NULL, &json));
    CHECK_JSON_HAS(json, "[{\"id\":7,\"title\":\"t\",\"body\":\"gamma delta\"}]");
    cairn_free(json);
    CHECK_OK(cairn_close(db));
}

/* Live results follow writes made through the fast paths, before and after commit. */
static void test_live_results_follow_fast_paths(void) {
    cairn_db *db = fresh();
    int32_t idx[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "age")};
    int32_t age = idx[2];
    cairn_value rows[6] = {v_int(1), v_str("a"), v_int(5), v_int(2), v_str("b"), v_int(6)};
    cairn_value pk = v_int(2), five = v_int(5);
    cairn_results *results = NULL;
    size_t n = 99;

    REQUIRE_OK(cairn_query(db, "Plain", "age == 5", NULL, &results));
    CHECK_OK(cairn_results_count(results, &n));
    CHECK(n == 0);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "Plain", 3, idx, 2, rows, CAIRN_UPDATE_NEVER, NULL));
    CHECK_OK(cairn_results_count(results, &n));
    CHECK(n == 1);
    CHECK_OK(cairn_object_update_values(db, "Plain", &pk, 1, &age, &five));
    CHECK_OK(cairn_results_count(results, &n));
    CHECK(n == 2);
    REQUIRE_OK(cairn_rollback(db));
    CHECK_OK(cairn_results_count(results, &n));
    CHECK(n == 0);
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_create_many_values(db, "Plain", 3, idx, 2, rows, CAIRN_UPDATE_NEVER, NULL));
    CHECK_OK(cairn_object_update_values(db, "Plain", &pk, 1, &age, &five));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_results_count(results, &n));
    CHECK(n == 2);
    cairn_results_release(results);
    CHECK_OK(cairn_close(db));
}

/*---- cairn_object_find_values ------------------------------------------------------------------*/

enum { WIDE = 6, BIG = 10000 };

static void fill_big(char *buffer, size_t size, int seed) {
    for (size_t i = 0; i < size; i++) buffer[i] = (char)('a' + (int)((i * 7 + (size_t)seed * 13) % 26));
    /* a multi-byte character in the middle, so the bytes are not all ASCII */
    memcpy(buffer + size / 2, "\xc3\xa9", 2);
}

static void write_wide(cairn_db *db, const int32_t *idx, int64_t id, char big[WIDE][BIG], int small, int seed) {
    cairn_value pk = v_int(id);
    cairn_value values[WIDE];
    char smalls[WIDE][32];
    for (int p = 0; p < WIDE; p++) {
        if (small) {
            snprintf(smalls[p], sizeof smalls[p], "s%d-%d", p, seed);
            values[p] = v_str(smalls[p]);
        } else {
            fill_big(big[p], BIG, seed * WIDE + p);
            values[p] = v_strn(big[p], BIG);
        }
    }
    REQUIRE_OK(cairn_begin_write(db));
    CHECK_OK(cairn_object_update_values(db, "Wide", &pk, WIDE, idx + 1, values));
    REQUIRE_OK(cairn_commit(db));
}

/* The strings s0..s5 in out[1..6]: "s<p>-<seed>" when small, else big[p]. */
static void check_wide_(const cairn_value *out, char big[WIDE][BIG], int small, int seed, int line) {
    int before_ = __atomic_load_n(&check_failures, __ATOMIC_RELAXED);
    for (int p = 0; p < WIDE; p++) {
        CHECK(out[1 + p].type == CAIRN_TYPE_STRING);
        if (out[1 + p].type != CAIRN_TYPE_STRING) continue;
        if (small) {
            char want[32];
            snprintf(want, sizeof want, "s%d-%d", p, seed);
            CHECK_BYTES(out[1 + p].as.string.data, out[1 + p].as.string.size, want, strlen(want));
        } else {
            CHECK(out[1 + p].as.string.size == BIG && memcmp(out[1 + p].as.string.data, big[p], BIG) == 0);
        }
    }
    if (__atomic_load_n(&check_failures, __ATOMIC_RELAXED) != before_) fprintf(stderr, "    (in check_wide called from line %d)\n", line);
}
#define check_wide(out, big, small, seed) check_wide_((out), (big), (small), (seed), __LINE__)

/* Many long strings, then short ones, again and again: every value of one call is intact. */
static void test_find_values_long_strings(void) {
    cairn_db *db = fresh();
    static char big[WIDE][BIG];
    static char big2[WIDE][BIG];
    const char *names[WIDE + 1] = {"id", "s0", "s1", "s2", "s3", "s4", "s5"};
    int32_t idx[WIDE + 1];
    cairn_value out[WIDE + 1];
    cairn_value pk1 = v_int(1), pk2 = v_int(2);

    for (int p = 0; p <= WIDE; p++) idx[p] = prop(db, "Wide", names[p]);
    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "Wide", "{\"id\": 1, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_create_json(db, "Wide", "{\"id\": 2, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_commit(db));

    for (int round = 0; round < 6; round++) {
        int small = round % 2;
        write_wide(db, idx, 1, big, small, round);
        write_wide(db, idx, 2, big2, !small, round + 100);
        for (int repeat = 0; repeat < 3; repeat++) {
            memset(out, 0xAB, sizeof out);
            CHECK_OK(cairn_object_find_values(db, "Wide", &pk1, WIDE + 1, idx, out, NULL));
            CHECK(out[0].type == CAIRN_TYPE_INT && out[0].as.integer == 1);
            check_wide(out, big, small, round);
            memset(out, 0xAB, sizeof out);
            CHECK_OK(cairn_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, out, NULL));
            check_wide(out, big2, !small, round + 100);
        }
        /* The same property several times in one call: each value is its own copy. */
        {
            int32_t same[4] = {idx[1], idx[1], idx[6], idx[1]};
            cairn_value four[4];
            CHECK_OK(cairn_object_find_values(db, "Wide", &pk1, 4, same, four, NULL));
            for (int i = 0; i < 4; i++) CHECK(four[i].type == CAIRN_TYPE_STRING);
            if (!small) {
                CHECK(four[0].as.string.size == BIG && memcmp(four[0].as.string.data, big[0], BIG) == 0);
                CHECK(four[1].as.string.size == BIG && memcmp(four[1].as.string.data, big[0], BIG) == 0);
                CHECK(four[2].as.string.size == BIG && memcmp(four[2].as.string.data, big[5], BIG) == 0);
                CHECK(four[3].as.string.size == BIG && memcmp(four[3].as.string.data, big[0], BIG) == 0);
            }
        }
    }
    CHECK_OK(cairn_close(db));
}

/* Values borrowed with out_object stay valid until the next call on that object handle. */
static void test_find_values_borrowed_by_object(void) {
    cairn_db *db = fresh();
    static char big[WIDE][BIG];
    static char big2[WIDE][BIG];
    const char *names[WIDE + 1] = {"id", "s0", "s1", "s2", "s3", "s4", "s5"};
    int32_t idx[WIDE + 1];
    cairn_value first[WIDE + 1], second[WIDE + 1], scratch[WIDE + 1];
    cairn_value pk1 = v_int(1), pk2 = v_int(2), pk3 = v_int(3);
    cairn_object *o1 = NULL, *o2 = NULL, *none = (cairn_object *)&pk3;
    int64_t key = -1;
    char *json = NULL;

    for (int p = 0; p <= WIDE; p++) idx[p] = prop(db, "Wide", names[p]);
    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "Wide", "{\"id\": 1, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_create_json(db, "Wide", "{\"id\": 2, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_commit(db));
    write_wide(db, idx, 1, big, 0, 1);
    write_wide(db, idx, 2, big2, 0, 2);

    CHECK_OK(cairn_object_find_values(db, "Wide", &pk1, WIDE + 1, idx, first, &o1));
    REQUIRE(o1 != NULL);
    check_wide(first, big, 0, 1);
    /* Calls on the database handle (including find_values lending from the database handle)
     * and on another object handle leave the first object's values alone. */
    CHECK_OK(cairn_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, scratch, NULL));
    check_wide(scratch, big2, 0, 2);
    CHECK_OK(cairn_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, second, &o2));
    REQUIRE(o2 != NULL);
    CHECK_OK(cairn_get_json(db, "Wide", "2", &json));
    cairn_free(json);
    CHECK_OK(cairn_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, scratch, NULL));
    check_wide(first, big, 0, 1);
    check_wide(second, big2, 0, 2);
    /* The next call on o2 replaces o2's values; o1's are still intact. */
    CHECK_OK(cairn_object_get_values(o2, WIDE + 1, idx, scratch));
    check_wide(scratch, big2, 0, 2);
    check_wide(first, big, 0, 1);
    /* A write in between (through another path) does not change what was lent. */
    write_wide(db, idx, 1, big2, 1, 9);
    check_wide(first, big, 0, 1);
    CHECK_OK(cairn_object_get_values(o1, WIDE + 1, idx, scratch));
    check_wide(scratch, big2, 1, 9);
    CHECK_OK(cairn_object_key(o1, &key));
    CHECK(key >= 1);

    /* Not found: CAIRN_NOT_FOUND, *out_object = NULL, and no error set. */
    CHECK_RC(cairn_object_find_values(db, "Wide", &pk3, WIDE + 1, idx, scratch, &none), CAIRN_NOT_FOUND);
    CHECK(none == NULL);
    CHECK_RC(cairn_last_error_code(), CAIRN_OK);
    cairn_object_release(o1);
    cairn_object_release(o2);
    CHECK_OK(cairn_close(db));
}

/* find_values on the general path (links, lists) and with an optional primary key. */
static void test_find_values_other_shapes(void) {
    cairn_db *db = fresh();
    int32_t tagged[4] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n"), prop(db, "Tagged", "next"),
                         prop(db, "Tagged", "extra")};
    int32_t maybe[2] = {prop(db, "MaybeKey", "id"), prop(db, "MaybeKey", "n")};
    int32_t tagged_class = -1;
    cairn_value a = v_str("a"), b_code = v_str("b"), null_pk = v_null(), out[4];
    cairn_object *b = NULL, *obj = NULL;
    int64_t b_key = -1;

    REQUIRE_OK(cairn_class_index(db, "Tagged", &tagged_class));
    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_object_create_json(db, "Tagged", "{\"code\": \"b\", \"n\": 2}", CAIRN_UPDATE_NEVER, &b));
    REQUIRE_OK(cairn_create_json(db, "Tagged", "{\"code\": \"a\", \"n\": 1, \"next\": \"b\", \"extra\": \"mixed text\"}",
                                 CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 9}", CAIRN_UPDATE_NEVER, NULL));
    REQUIRE_OK(cairn_commit(db));
    REQUIRE_OK(cairn_object_key(b, &b_key));

    memset(out, 0xAB, sizeof out);
    CHECK_OK(cairn_object_find_values(db, "Tagged", &a, 4, tagged, out, &obj));
    CHECK_VSTR(out[0], "a");
    CHECK(out[1].type == CAIRN_TYPE_INT && out[1].as.integer == 1);
    CHECK(out[2].type == CAIRN_TYPE_LINK && out[2].as.link.class_index == tagged_class && out[2].as.link.key == b_key);
    CHECK_VSTR(out[3], "mixed text");
    CHECK(obj != NULL);
    cairn_object_release(obj);
    /* Without the mixed property the row is read in place, links included. */
    memset(out, 0xAB, sizeof out);
    CHECK_OK(cairn_object_find_values(db, "Tagged", &a, 3, tagged, out, NULL));
    CHECK_VSTR(out[0], "a");
    CHECK(out[1].type == CAIRN_TYPE_INT && out[1].as.integer == 1);
    CHECK(out[2].type == CAIRN_TYPE_LINK && out[2].as.link.class_index == tagged_class && out[2].as.link.key == b_key);
    memset(out, 0xAB, sizeof out);
    CHECK_OK(cairn_object_find_values(db, "Tagged", &b_code, 3, tagged, out, NULL));
    CHECK_VSTR(out[0], "b");
    CHECK(out[2].type == CAIRN_TYPE_NULL);

    memset(out, 0xAB, sizeof out);
    CHECK_OK(cairn_object_find_values(db, "MaybeKey", &null_pk, 2, maybe, out, NULL));
    CHECK(out[0].type == CAIRN_TYPE_NULL);
    CHECK(out[1].type == CAIRN_TYPE_INT && out[1].as.integer == 9);
    cairn_object_release(b);
    CHECK_OK(cairn_close(db));
}

/* Regression: update_values by a null primary key. The one-UPDATE path compared `pk = NULL`,
 * which never matches, and returned CAIRN_NOT_FOUND for an object that exists; it uses `IS`. */
static void test_update_values_null_primary_key(void) {
    cairn_db *db = fresh();
    int32_t n = prop(db, "MaybeKey", "n");
    cairn_value null_pk = v_null(), value = v_int(88);
    char *json = NULL;

    REQUIRE_OK(cairn_begin_write(db));
    REQUIRE_OK(cairn_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 1}", CAIRN_UPDATE_NEVER, NULL));
    CHECK_OK(cairn_object_update_values(db, "MaybeKey", &null_pk, 1, &n, &value));
    REQUIRE_OK(cairn_commit(db));
    CHECK_OK(cairn_get_json(db, "MaybeKey", "null", &json));
    CHECK_STR(json, "{\"id\":null,\"n\":88}");
    cairn_free(json);
    CHECK_OK(cairn_close(db));
}

/*---- Known engine bug (run with CAIRN_TEST_KNOWN_BUGS=1) -----------------------------------------
 * This check fails with the library as it is; it is kept here so that a fix can be verified.
 */

/* An optional primary key may be null for one object only (docs/schema.md), but the key's
 * UNIQUE index lets SQLite store any number of NULLs: two null keys are accepted, by
 * cairn_create_many_values and by cairn_create_json alike. */
static void known_bug_second_null_primary_key(void) {
    cairn_db *db = fresh();
    int32_t idx[2] = {prop(db, "MaybeKey", "id"), prop(db, "MaybeKey", "n")};
    cairn_value rows[6] = {v_null(), v_int(1), v_int(7), v_int(2), v_null(), v_int(3)};
    int64_t created = -1;

    REQUIRE_OK(cairn_begin_write(db));
    CHECK_FAILS(cairn_create_many_values(db, "MaybeKey", 2, idx, 3, rows, CAIRN_UPDATE_NEVER, &created),
                CAIRN_ERR_DUPLICATE_PRIMARY_KEY, "Element 2:");
    CHECK(count_of(db, "MaybeKey", NULL, NULL) == 0);
    CHECK_OK(cairn_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 1}", CAIRN_UPDATE_NEVER, NULL));
    CHECK_ERR(cairn_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 2}", CAIRN_UPDATE_NEVER, NULL),
              CAIRN_ERR_DUPLICATE_PRIMARY_KEY);
    REQUIRE_OK(cairn_commit(db));
    CHECK(count_of(db, "MaybeKey", "id == nil", NULL) == 1);
    CHECK_OK(cairn_close(db));
}

int main(void) {
    test_create_many_stores_exact_values();
    test_create_many_defaults_and_nulls();
    test_create_many_missing_required();
    test_create_many_bad_row_writes_nothing();
    test_create_many_duplicate_primary_key();
    test_create_many_optional_primary_key();
    test_create_many_invalid_utf8();
    test_create_many_general_path_special_types();
    test_create_many_links();
    test_create_many_upserts();
    test_create_many_arguments();

    test_update_values_writes_properties();
    test_update_values_not_found();
    test_update_values_string_primary_key();
    test_update_values_optional_primary_key();
    test_update_values_general_path();
    test_update_values_primary_key();
    test_update_values_errors_leave_object_unchanged();
    test_update_values_full_text();
    test_live_results_follow_fast_paths();

    test_find_values_long_strings();
    test_find_values_borrowed_by_object();
    test_find_values_other_shapes();

    test_update_values_null_primary_key();
    if (getenv("CAIRN_TEST_KNOWN_BUGS")) known_bug_second_null_primary_key();
    return check_report("fast_paths");
}
