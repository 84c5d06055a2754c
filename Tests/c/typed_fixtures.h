/*
 * typed_fixtures.h — fixtures shared by the tests of typed values by property index
 * (batch_create.c, update_by_key.c, read_values.c, rows.c): the schema, value constructors and row
 * helpers. Every test opens its own :memory: database.
 */
#ifndef DRUMLIN_TEST_TYPED_FIXTURES_H
#define DRUMLIN_TEST_TYPED_FIXTURES_H

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

static inline drumlin_db *fresh(void) {
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(":memory:", SCHEMA, NULL, &db));
    REQUIRE(db != NULL);
    return db;
}

static inline int32_t prop(drumlin_db *db, const char *class_name, const char *name) {
    int32_t index = -1;
    REQUIRE_OK(drumlin_property_index(db, class_name, name, &index));
    return index;
}

static inline void plain_indices(drumlin_db *db, int32_t *out) {
    for (int p = 0; p < PL_COUNT; p++) out[p] = prop(db, "Plain", PLAIN_NAMES[p]);
}

static inline int64_t count_of(drumlin_db *db, const char *class_name, const char *query, const char *args) {
    int64_t n = -1;
    REQUIRE_OK(drumlin_count(db, class_name, query, args, &n));
    return n;
}

/* The short names the typed tests use (check.h makes the values). */
static inline drumlin_value v_null(void) { return null_value(); }

static inline drumlin_value v_int(int64_t i) { return int_value(i); }

static inline drumlin_value v_bool(int b) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_BOOL;
    v.as.boolean = b;
    return v;
}

static inline drumlin_value v_double(double d) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_DOUBLE;
    v.as.dnum = d;
    return v;
}

static inline drumlin_value v_float(float f) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_FLOAT;
    v.as.fnum = f;
    return v;
}

static inline drumlin_value v_strn(const char *s, size_t n) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_STRING;
    v.as.string.data = s;
    v.as.string.size = n;
    return v;
}

static inline drumlin_value v_str(const char *s) { return v_strn(s, strlen(s)); }

static inline drumlin_value v_bin(const void *p, size_t n) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_BINARY;
    v.as.binary.data = (const uint8_t *)p;
    v.as.binary.size = n;
    return v;
}

static inline drumlin_value v_link(int32_t class_index, int64_t key) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_LINK;
    v.as.link.class_index = class_index;
    v.as.link.key = key;
    return v;
}

/* A drumlin_value string must equal the C string `want`. */
#define CHECK_VSTR(value, want)                                                                   \
    do {                                                                                          \
        drumlin_value vs_ = (value);                                                                \
        CHECK(vs_.type == DRUMLIN_TYPE_STRING);                                                     \
        if (vs_.type == DRUMLIN_TYPE_STRING) CHECK_BYTES(vs_.as.string.data, vs_.as.string.size, (want), strlen(want)); \
    } while (0)

/* Reads every Plain property of object `id` (borrowed values: check before the next call). */
static inline int read_plain(drumlin_db *db, const int32_t *idx, int64_t id, drumlin_value *out) {
    drumlin_value pk = v_int(id);
    memset(out, 0xAB, sizeof(drumlin_value) * PL_COUNT);
    return drumlin_object_find_values(db, "Plain", &pk, PL_COUNT, idx, out, NULL);
}

/* Creates Plain objects ids first..first+n-1 with name "p<id>", committed. */
static inline void seed_plain(drumlin_db *db, int64_t first, int n) {
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    drumlin_value *rows = calloc((size_t)n * 2, sizeof(drumlin_value));
    char (*names)[32] = calloc((size_t)n, 32);
    int64_t created = -1;
    REQUIRE(rows && names);
    for (int r = 0; r < n; r++) {
        snprintf(names[r], 32, "p%lld", (long long)(first + r));
        rows[r * 2] = v_int(first + r);
        rows[r * 2 + 1] = v_str(names[r]);
    }
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_many_values(db, "Plain", 2, idx, (size_t)n, rows, DRUMLIN_UPDATE_NEVER, &created));
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE(created == n);
    free(rows);
    free(names);
}


enum { ROWS = 130 }; /* two full 64-row batches and a remainder of 2 */

#endif
