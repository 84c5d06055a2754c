/*
 * values.c — every scalar type through the typed layer (drumlin_value) and the JSON layer: what is
 * written as a drumlin_value reads back identically, as a drumlin_value and as Extended JSON, and
 * Extended JSON input reads back as the right drumlin_value. Also links and mixed values.
 */
#include "check.h"

#include <stdint.h>

static const char *SCHEMA =
    "[{\"name\": \"Everything\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\","
    "   \"b\": \"bool\", \"i\": \"int\", \"f\": \"float\", \"d\": \"double\","
    "   \"dec\": \"decimal128\", \"s\": \"string\", \"data\": \"data\", \"date\": \"date\","
    "   \"oid\": \"objectId\", \"u\": \"uuid\", \"m\": \"mixed\", \"link\": \"Everything\","
    "   \"maybe\": \"int?\"}}]";

enum { P_ID, P_B, P_I, P_F, P_D, P_DEC, P_S, P_DATA, P_DATE, P_OID, P_U, P_M, P_LINK, P_MAYBE, P_COUNT };
static const char *NAMES[P_COUNT] = {"_id", "b", "i", "f", "d", "dec", "s", "data", "date", "oid", "u", "m",
                                     "link", "maybe"};
static int32_t idx[P_COUNT];

static const uint8_t OID[12] = {0x65, 0xf1, 0xc0, 0xff, 0xee, 0x00, 0x00, 0x00, 0x00, 0x00, 0xab, 0xcd};
static const uint8_t UUID[16] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0x4d, 0xef,
                                 0x80, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde};
static const uint8_t DATA[4] = {1, 2, 0, 255};
static const char TEXT[] = "caf\xc3\xa9 \xf0\x9f\x8e\x89 \"q\"";

/* 1.10 as decimal128 (BID): coefficient 110, exponent -2 (biased 6174). */
static drumlin_decimal128 one_point_ten(void) {
    drumlin_decimal128 d;
    d.w[0] = 110;
    d.w[1] = (uint64_t)6174 << 49;
    return d;
}

static void fill(drumlin_value *values, int64_t id) {
    memset(values, 0, sizeof(drumlin_value) * P_COUNT);
    values[P_ID].type = DRUMLIN_TYPE_INT;
    values[P_ID].as.integer = id;
    values[P_B].type = DRUMLIN_TYPE_BOOL;
    values[P_B].as.boolean = 1;
    values[P_I].type = DRUMLIN_TYPE_INT;
    values[P_I].as.integer = INT64_MIN;
    values[P_F].type = DRUMLIN_TYPE_FLOAT;
    values[P_F].as.fnum = 1.25f;
    values[P_D].type = DRUMLIN_TYPE_DOUBLE;
    values[P_D].as.dnum = -0.1;
    values[P_DEC].type = DRUMLIN_TYPE_DECIMAL128;
    values[P_DEC].as.decimal128 = one_point_ten();
    values[P_S].type = DRUMLIN_TYPE_STRING;
    values[P_S].as.string.data = TEXT;
    values[P_S].as.string.size = sizeof TEXT - 1;
    values[P_DATA].type = DRUMLIN_TYPE_BINARY;
    values[P_DATA].as.binary.data = DATA;
    values[P_DATA].as.binary.size = sizeof DATA;
    values[P_DATE].type = DRUMLIN_TYPE_TIMESTAMP;
    values[P_DATE].as.timestamp.seconds = -1;
    values[P_DATE].as.timestamp.nanoseconds = 500000001;
    values[P_OID].type = DRUMLIN_TYPE_OBJECT_ID;
    memcpy(values[P_OID].as.object_id.bytes, OID, sizeof OID);
    values[P_U].type = DRUMLIN_TYPE_UUID;
    memcpy(values[P_U].as.uuid.bytes, UUID, sizeof UUID);
    values[P_M].type = DRUMLIN_TYPE_DOUBLE; /* mixed keeps the exact type: 3.0 stays a double */
    values[P_M].as.dnum = 3.0;
    values[P_LINK].type = DRUMLIN_TYPE_NULL;
    values[P_MAYBE].type = DRUMLIN_TYPE_NULL;
}

static void check_values(const drumlin_value *v, int64_t id) {
    CHECK(v[P_ID].type == DRUMLIN_TYPE_INT && v[P_ID].as.integer == id);
    CHECK(v[P_B].type == DRUMLIN_TYPE_BOOL && v[P_B].as.boolean == 1);
    CHECK(v[P_I].type == DRUMLIN_TYPE_INT && v[P_I].as.integer == INT64_MIN);
    CHECK(v[P_F].type == DRUMLIN_TYPE_FLOAT && v[P_F].as.fnum == 1.25f);
    CHECK(v[P_D].type == DRUMLIN_TYPE_DOUBLE && v[P_D].as.dnum == -0.1);
    CHECK(v[P_DEC].type == DRUMLIN_TYPE_DECIMAL128 && v[P_DEC].as.decimal128.w[0] == 110 &&
          v[P_DEC].as.decimal128.w[1] == ((uint64_t)6174 << 49));
    CHECK(v[P_S].type == DRUMLIN_TYPE_STRING);
    if (v[P_S].type == DRUMLIN_TYPE_STRING) CHECK_BYTES(v[P_S].as.string.data, v[P_S].as.string.size, TEXT, sizeof TEXT - 1);
    CHECK(v[P_DATA].type == DRUMLIN_TYPE_BINARY);
    if (v[P_DATA].type == DRUMLIN_TYPE_BINARY)
        CHECK_BYTES(v[P_DATA].as.binary.data, v[P_DATA].as.binary.size, DATA, sizeof DATA);
    CHECK(v[P_DATE].type == DRUMLIN_TYPE_TIMESTAMP && v[P_DATE].as.timestamp.seconds == -1 &&
          v[P_DATE].as.timestamp.nanoseconds == 500000001);
    CHECK(v[P_OID].type == DRUMLIN_TYPE_OBJECT_ID && memcmp(v[P_OID].as.object_id.bytes, OID, sizeof OID) == 0);
    CHECK(v[P_U].type == DRUMLIN_TYPE_UUID && memcmp(v[P_U].as.uuid.bytes, UUID, sizeof UUID) == 0);
    CHECK(v[P_M].type == DRUMLIN_TYPE_DOUBLE && v[P_M].as.dnum == 3.0);
    CHECK(v[P_MAYBE].type == DRUMLIN_TYPE_NULL);
}

static void test_typed_round_trip(drumlin_db *db) {
    drumlin_value in[P_COUNT], out[P_COUNT];
    drumlin_object *object = NULL;
    char *json = NULL;

    fill(in, 1);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_create(db, "Everything", P_COUNT, idx, in, DRUMLIN_UPDATE_NEVER, &object));
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE(object != NULL);

    /* Several at once, and one by one by name: the same values. */
    memset(out, 0xAB, sizeof out);
    CHECK_OK(drumlin_object_get_values(object, P_COUNT, idx, out));
    check_values(out, 1);
    for (int p = 0; p < P_COUNT; p++) {
        drumlin_value one;
        CHECK_OK(drumlin_object_get(object, NAMES[p], &one));
        out[p] = one;
        /* Borrowed strings are only valid until the next call: check now. */
        if (p == P_S && one.type == DRUMLIN_TYPE_STRING)
            CHECK_BYTES(one.as.string.data, one.as.string.size, TEXT, sizeof TEXT - 1);
        if (p == P_DATA && one.type == DRUMLIN_TYPE_BINARY)
            CHECK_BYTES(one.as.binary.data, one.as.binary.size, DATA, sizeof DATA);
    }
    out[P_S].type = DRUMLIN_TYPE_NULL; /* already checked; pointers may be stale now */
    out[P_DATA].type = DRUMLIN_TYPE_NULL;
    CHECK(out[P_DEC].type == DRUMLIN_TYPE_DECIMAL128 && out[P_DEC].as.decimal128.w[0] == 110);
    CHECK(out[P_DATE].type == DRUMLIN_TYPE_TIMESTAMP && out[P_DATE].as.timestamp.nanoseconds == 500000001);

    /* The same object as Extended JSON. */
    CHECK_OK(drumlin_object_to_json(object, &json));
    CHECK_JSON_HAS(json, "\"b\":true");
    CHECK_JSON_HAS(json, "\"i\":-9223372036854775808");
    CHECK_JSON_HAS(json, "\"f\":1.25");
    CHECK_JSON_HAS(json, "\"d\":-0.1");
    CHECK_JSON_HAS(json, "\"dec\":{\"$numberDecimal\":\"1.10\"}");
    CHECK_JSON_HAS(json, "\"s\":\"caf\xc3\xa9 \xf0\x9f\x8e\x89 \\\"q\\\"\"");
    CHECK_JSON_HAS(json, "\"data\":{\"$binary\":{\"base64\":\"AQIA/w==\",\"subType\":\"00\"}}");
    CHECK_JSON_HAS(json, "\"date\":{\"$date\":\"1969-12-31T23:59:59.500000001Z\"}");
    CHECK_JSON_HAS(json, "\"oid\":{\"$oid\":\"65f1c0ffee0000000000abcd\"}");
    CHECK_JSON_HAS(json, "\"u\":{\"$uuid\":\"12345678-9abc-4def-8012-3456789abcde\"}");
    CHECK_JSON_HAS(json, "\"m\":3.0");
    CHECK_JSON_HAS(json, "\"link\":null");
    CHECK_JSON_HAS(json, "\"maybe\":null");
    drumlin_free(json);
    drumlin_object_release(object);
}

static void test_json_round_trip(drumlin_db *db) {
    drumlin_value pk, out[P_COUNT];
    drumlin_object *object = NULL;
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Everything",
                               "{\"_id\": 2, \"b\": true, \"i\": -9223372036854775808, \"f\": 1.25, \"d\": -0.1,"
                               " \"dec\": {\"$numberDecimal\": \"1.10\"},"
                               " \"s\": \"caf\xc3\xa9 \\ud83c\\udf89 \\\"q\\\"\","
                               " \"data\": {\"$binary\": {\"base64\": \"AQIA/w==\", \"subType\": \"00\"}},"
                               " \"date\": {\"$date\": \"1969-12-31T23:59:59.500000001Z\"},"
                               " \"oid\": {\"$oid\": \"65f1c0ffee0000000000abcd\"},"
                               " \"u\": {\"$uuid\": \"12345678-9abc-4def-8012-3456789abcde\"},"
                               " \"m\": 3.0, \"link\": null}",
                               DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = 2;
    REQUIRE_OK(drumlin_object_find(db, "Everything", &pk, &object));
    CHECK_OK(drumlin_object_get_values(object, P_COUNT, idx, out));
    check_values(out, 2);
    drumlin_object_release(object);
}

static void test_links_and_mixed(drumlin_db *db) {
    drumlin_value pk, v;
    drumlin_object *one = NULL, *two = NULL;
    int64_t key_two = -1;
    int32_t class_index = -1;
    char *json = NULL;

    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = 1;
    REQUIRE_OK(drumlin_object_find(db, "Everything", &pk, &one));
    pk.as.integer = 2;
    REQUIRE_OK(drumlin_object_find(db, "Everything", &pk, &two));
    CHECK_OK(drumlin_object_key(two, &key_two));
    CHECK_OK(drumlin_class_index(db, "Everything", &class_index));

    REQUIRE_OK(drumlin_begin_write(db));
    /* A typed link: class index + object key. */
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_LINK;
    v.as.link.class_index = class_index;
    v.as.link.key = key_two;
    CHECK_OK(drumlin_object_set(one, "link", &v));
    /* Mixed keeps the exact type: int 3 stays int. */
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_INT;
    v.as.integer = 3;
    CHECK_OK(drumlin_object_set(one, "m", &v));
    /* A link to a missing object is refused. */
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_LINK;
    v.as.link.class_index = class_index;
    v.as.link.key = INT64_C(0x7fffffffff);
    CHECK(drumlin_object_set(one, "link", &v) != DRUMLIN_OK);
    REQUIRE_OK(drumlin_commit(db));

    memset(&v, 0, sizeof v);
    CHECK_OK(drumlin_object_get(one, "link", &v));
    CHECK(v.type == DRUMLIN_TYPE_LINK && v.as.link.key == key_two && v.as.link.class_index == class_index);
    CHECK_OK(drumlin_object_get(one, "m", &v));
    CHECK(v.type == DRUMLIN_TYPE_INT && v.as.integer == 3);
    CHECK_OK(drumlin_object_to_json(one, &json));
    CHECK_JSON_HAS(json, "\"m\":3,");
    drumlin_free(json);

    /* Deleting the target nulls the link. */
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_delete(two));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_object_get(one, "link", &v));
    CHECK(v.type == DRUMLIN_TYPE_NULL);

    drumlin_object_release(two);
    drumlin_object_release(one);
}

/* Deeply nested payloads are a limit, not a crash or a syntax error: 1001 levels of JSON and 101
 * levels of nested mixed lists are DRUMLIN_ERR_LIMIT, and nothing is written (issue #19). */
static void test_deep_payloads_are_limits(drumlin_db *db) {
    enum { JSON_DEPTH = 1001, MIXED_DEPTH = 101 };
    static char deep[64 + 2 * JSON_DEPTH];
    size_t n = 0;
    int64_t count = -1;
    n += (size_t)snprintf(deep, sizeof deep, "{\"_id\": 90, \"m\": ");
    for (int i = 0; i < JSON_DEPTH; i++) deep[n++] = '[';
    for (int i = 0; i < JSON_DEPTH; i++) deep[n++] = ']';
    deep[n++] = '}';
    deep[n] = 0;
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_ERR(drumlin_create_json(db, "Everything", deep, DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_LIMIT);
    CHECK(strstr(drumlin_last_error_message(), "nesting deeper than 1000 levels") != NULL);
    n = (size_t)snprintf(deep, sizeof deep, "{\"_id\": 90, \"m\": ");
    for (int i = 0; i < MIXED_DEPTH; i++) deep[n++] = '[';
    for (int i = 0; i < MIXED_DEPTH; i++) deep[n++] = ']';
    deep[n++] = '}';
    deep[n] = 0;
    CHECK_ERR(drumlin_create_json(db, "Everything", deep, DRUMLIN_UPDATE_NEVER, NULL), DRUMLIN_ERR_LIMIT);
    CHECK(strstr(drumlin_last_error_message(), "at most 100 levels deep") != NULL);
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_count(db, "Everything", "_id == 90", NULL, &count));
    CHECK(count == 0);
}

int main(void) {
    char dir[2048], path[4096];
    drumlin_db *db = NULL;

    test_dir_make(dir, sizeof dir, "values");
    snprintf(path, sizeof path, "%s/values.drumlin", dir);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    for (int p = 0; p < P_COUNT; p++) REQUIRE_OK(drumlin_property_index(db, "Everything", NAMES[p], &idx[p]));

    test_typed_round_trip(db);
    test_json_round_trip(db);
    test_links_and_mixed(db);
    test_deep_payloads_are_limits(db);

    CHECK_OK(drumlin_close(db));
    test_dir_remove(dir);
    return check_report("values");
}
