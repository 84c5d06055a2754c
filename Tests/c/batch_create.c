/*
 * batch_create.c — drumlin_create_many_values: many objects in one call, as multi-row INSERT
 * batches for plain columns, the general path otherwise; all or nothing, errors name the element.
 */
#include "typed_fixtures.h"

/*---- drumlin_create_many_values ------------------------------------------------------------------*/

static void plain_row(int r, drumlin_value *row, char *name_buf, uint8_t *blob_buf) {
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

static void check_plain_row(const drumlin_value *v, int r) {
    char name[48];
    uint8_t blob[3] = {(uint8_t)r, 0, 255};
    snprintf(name, sizeof name, "name-%d-caf\xc3\xa9", r);
    CHECK(v[PL_ID].type == DRUMLIN_TYPE_INT && v[PL_ID].as.integer == r + 1);
    CHECK_VSTR(v[PL_NAME], name);
    if (r % 3 == 0) CHECK(v[PL_AGE].type == DRUMLIN_TYPE_NULL);
    else CHECK(v[PL_AGE].type == DRUMLIN_TYPE_INT && v[PL_AGE].as.integer == (int64_t)r * 10 - 500);
    CHECK(v[PL_SCORE].type == DRUMLIN_TYPE_DOUBLE && v[PL_SCORE].as.dnum == r + 0.25);
    CHECK(v[PL_ACTIVE].type == DRUMLIN_TYPE_BOOL && v[PL_ACTIVE].as.boolean == r % 2);
    if (r % 4 == 0) CHECK(v[PL_RATIO].type == DRUMLIN_TYPE_NULL);
    else CHECK(v[PL_RATIO].type == DRUMLIN_TYPE_FLOAT && v[PL_RATIO].as.fnum == (float)r * 0.5f);
    if (r % 5 == 0) {
        CHECK(v[PL_BLOB].type == DRUMLIN_TYPE_BINARY && v[PL_BLOB].as.binary.size == 0);
    } else if (r % 5 == 1) {
        CHECK(v[PL_BLOB].type == DRUMLIN_TYPE_NULL);
    } else {
        CHECK(v[PL_BLOB].type == DRUMLIN_TYPE_BINARY);
        if (v[PL_BLOB].type == DRUMLIN_TYPE_BINARY) CHECK_BYTES(v[PL_BLOB].as.binary.data, v[PL_BLOB].as.binary.size, blob, 3);
    }
    if (r % 7 == 0) CHECK_VSTR(v[PL_NOTE], "");
    else if (r % 7 == 1) CHECK(v[PL_NOTE].type == DRUMLIN_TYPE_NULL);
    else CHECK_VSTR(v[PL_NOTE], "note \xf0\x9f\x8e\x89");
}

/* 130 rows of every plain column type read back exactly (find_values and JSON). */
static void test_create_many_stores_exact_values(void) {
    drumlin_db *db = fresh();
    int32_t idx[PL_COUNT];
    static drumlin_value rows[ROWS * PL_COUNT];
    static char names[ROWS][48];
    static uint8_t blobs[ROWS][3];
    drumlin_value out[PL_COUNT];
    char *json = NULL;
    int64_t created = -1;

    plain_indices(db, idx);
    for (int r = 0; r < ROWS; r++) plain_row(r, rows + r * PL_COUNT, names[r], blobs[r]);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "Plain", PL_COUNT, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == ROWS);

    for (int r = 0; r < ROWS; r++) {
        CHECK_OK(read_plain(db, idx, r + 1, out));
        check_plain_row(out, r);
    }
    /* JSON of a row from the first batch, the second batch and the remainder. */
    CHECK_OK(drumlin_get_json(db, "Plain", "2", &json));
    CHECK_STR(json, "{\"id\":2,\"name\":\"name-1-caf\xc3\xa9\",\"age\":-490,\"score\":1.25,\"active\":true,"
                    "\"ratio\":0.5,\"blob\":null,\"note\":null}");
    drumlin_free(json);
    CHECK_OK(drumlin_get_json(db, "Plain", "100", &json));
    CHECK_JSON_HAS(json, "\"id\":100,\"name\":\"name-99-caf\xc3\xa9\",\"age\":null,\"score\":99.25,\"active\":true");
    drumlin_free(json);
    CHECK_OK(drumlin_get_json(db, "Plain", "129", &json));
    CHECK_JSON_HAS(json, "\"id\":129,\"name\":\"name-128-caf\xc3\xa9\",\"age\":780,\"score\":128.25,\"active\":false");
    drumlin_free(json);
    CHECK_OK(drumlin_get_json(db, "Plain", "130", &json));
    CHECK_JSON_HAS(json, "\"id\":130,\"name\":\"name-129-caf\xc3\xa9\",\"age\":null,\"score\":129.25,\"active\":true");
    drumlin_free(json);
    CHECK_RC(drumlin_get_json(db, "Plain", "131", &json), DRUMLIN_NOT_FOUND);
    /* Creation order is kept across batches. */
    CHECK_OK(drumlin_query_json(db, "Plain", "id >= 63 AND id <= 66", NULL, &json));
    CHECK_JSON_HAS(json, "[{\"id\":63,");
    drumlin_free(json);
    CHECK(count_of(db, "Plain", "age == nil", NULL) == 44); /* r % 3 == 0 for r in 0..129 */
    CHECK_OK(drumlin_close(db));
}

/* Properties not given take their default, else null. */
static void test_create_many_defaults_and_nulls(void) {
    drumlin_db *db = fresh();
    int32_t idx[PL_COUNT];
    int32_t given[2];
    static drumlin_value rows[70 * 2];
    static char names[70][16];
    drumlin_value out[PL_COUNT];
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
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "Plain", 2, given, 70, rows, DRUMLIN_UPDATE_NEVER, &created));
    REQUIRE_OK(drumlin_commit(db));
    CHECK(created == 70);
    for (int r = 0; r < 70; r++) {
        CHECK_OK(read_plain(db, idx, 1000 + r, out));
        CHECK(out[PL_ID].type == DRUMLIN_TYPE_INT && out[PL_ID].as.integer == 1000 + r);
        CHECK_VSTR(out[PL_NAME], names[r]);
        CHECK(out[PL_AGE].type == DRUMLIN_TYPE_NULL);
        CHECK(out[PL_SCORE].type == DRUMLIN_TYPE_DOUBLE && out[PL_SCORE].as.dnum == 1.5);
        CHECK(out[PL_ACTIVE].type == DRUMLIN_TYPE_BOOL && out[PL_ACTIVE].as.boolean == 1);
        CHECK(out[PL_RATIO].type == DRUMLIN_TYPE_NULL);
        CHECK(out[PL_BLOB].type == DRUMLIN_TYPE_NULL);
        CHECK(out[PL_NOTE].type == DRUMLIN_TYPE_NULL);
    }
    CHECK_OK(drumlin_get_json(db, "Plain", "1069", &json));
    CHECK_STR(json, "{\"id\":1069,\"name\":\"n69\",\"age\":null,\"score\":1.5,\"active\":true,\"ratio\":null,"
                    "\"blob\":null,\"note\":null}");
    drumlin_free(json);
    CHECK_OK(drumlin_close(db));
}

/* A required property without a default that is not given: MISSING_VALUE, nothing written. */
static void test_create_many_missing_required(void) {
    drumlin_db *db = fresh();
    int32_t id = prop(db, "Plain", "id");
    int32_t special[2] = {prop(db, "Special", "id"), prop(db, "Special", "n")};
    drumlin_value rows[3] = {v_int(1), v_int(2), v_int(3)};
    drumlin_value special_rows[4] = {v_int(1), v_int(1), v_int(2), v_int(2)};
    int64_t created = 99;

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 1, &id, 3, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_MISSING_VALUE, "'Plain.name'");
    CHECK_MSG_HAS("Element 0");
    CHECK(created == 0);
    /* The general path (decimal128, date, objectId columns not given). */
    created = 99;
    CHECK_FAILS(drumlin_create_many_values(db, "Special", 2, special, 2, special_rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_MISSING_VALUE, "Element 0: Missing value for property 'Special.");
    CHECK(created == 0);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);
    CHECK(count_of(db, "Special", NULL, NULL) == 0);
    CHECK_OK(drumlin_close(db));
}

/* One bad value anywhere in the batch: the error names the element, nothing is written. */
static void test_create_many_bad_row_writes_nothing(void) {
    drumlin_db *db = fresh();
    int32_t idx[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "age")};
    static drumlin_value rows[ROWS * 3];
    int64_t created = -1;
    const int bad_rows[] = {100, 0, 63, 64, 129};

    seed_plain(db, 5000, 5);
    for (int r = 0; r < ROWS; r++) {
        rows[r * 3] = v_int(r + 1);
        rows[r * 3 + 1] = v_str("x");
        rows[r * 3 + 2] = v_int(r);
    }
    REQUIRE_OK(drumlin_begin_write(db));
    /* An earlier write in the same transaction survives the failed calls. */
    REQUIRE_OK(drumlin_create_json(db, "Plain", "{\"id\": 9000, \"name\": \"kept\"}", DRUMLIN_UPDATE_NEVER, NULL));
    for (size_t b = 0; b < sizeof bad_rows / sizeof bad_rows[0]; b++) {
        int bad = bad_rows[b];
        char element[32];
        snprintf(element, sizeof element, "Element %d:", bad);
        rows[bad * 3 + 2] = v_str("old");
        created = 99;
        CHECK_FAILS(drumlin_create_many_values(db, "Plain", 3, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created),
                    DRUMLIN_ERR_TYPE_MISMATCH, element);
        CHECK_MSG_HAS("Type mismatch for property 'Plain.age'");
        CHECK(created == 0);
        CHECK(count_of(db, "Plain", NULL, NULL) == 6);
        rows[bad * 3 + 2] = v_int(bad);
    }
    /* null into a required column */
    rows[64 * 3 + 1] = v_null();
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 3, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_NOT_NULLABLE, "Element 64:");
    CHECK_MSG_HAS("'Plain.name'");
    rows[64 * 3 + 1] = v_str("x");
    /* bool into int */
    rows[127 * 3 + 2] = v_bool(1);
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 3, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_TYPE_MISMATCH, "Element 127:");
    rows[127 * 3 + 2] = v_int(127);
    CHECK(count_of(db, "Plain", NULL, NULL) == 6);
    /* The transaction is still usable and the same rows now go in. */
    CHECK_OK(drumlin_create_many_values(db, "Plain", 3, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 6 + ROWS);
    CHECK(count_of(db, "Plain", "name == 'kept'", NULL) == 1);
    CHECK(count_of(db, "Plain", "age == 100 AND id == 101", NULL) == 1);
    CHECK_OK(drumlin_close(db));
}

/* Duplicate primary keys inside the batch and against existing objects. */
static void test_create_many_duplicate_primary_key(void) {
    drumlin_db *db = fresh();
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    int32_t tagged[2] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n")};
    static drumlin_value rows[ROWS * 2];
    drumlin_value tagged_rows[6] = {v_str("a"), v_int(1), v_str("b"), v_int(2), v_str("a"), v_int(3)};
    int64_t created = -1;
    struct { int row, duplicate_of; } cases[] = {{70, 10}, {20, 3}, {129, 128}, {64, 63}};

    seed_plain(db, 500, 1);
    for (int r = 0; r < ROWS; r++) {
        rows[r * 2] = v_int(r + 1);
        rows[r * 2 + 1] = v_str("dup");
    }
    REQUIRE_OK(drumlin_begin_write(db));
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char element[32];
        int row = cases[c].row;
        snprintf(element, sizeof element, "Element %d:", row);
        rows[row * 2] = v_int(cases[c].duplicate_of + 1);
        created = 99;
        CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created),
                    DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY, element);
        CHECK(created == 0);
        rows[row * 2] = v_int(row + 1);
    }
    /* Against an existing object. */
    rows[7 * 2] = v_int(500);
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, idx, 10, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY, "Element 7:");
    CHECK_MSG_HAS("existing primary key value '500'");
    rows[7 * 2] = v_int(8);
    CHECK(count_of(db, "Plain", NULL, NULL) == 1);
    /* The general path (a class with links and lists), string keys. */
    CHECK_FAILS(drumlin_create_many_values(db, "Tagged", 2, tagged, 3, tagged_rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY, "Element 2:");
    CHECK_MSG_HAS("'Tagged'");
    CHECK(created == 0);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 0);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 1);
    CHECK_OK(drumlin_close(db));
}

/* An optional primary key: a null key and an int key through the batch path, found again. */
static void test_create_many_optional_primary_key(void) {
    drumlin_db *db = fresh();
    int32_t idx[2] = {prop(db, "MaybeKey", "id"), prop(db, "MaybeKey", "n")};
    drumlin_value rows[4] = {v_null(), v_int(1), v_int(7), v_int(2)};
    drumlin_value out[2], null_pk = v_null();
    int64_t created = -1;

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "MaybeKey", 2, idx, 2, rows, DRUMLIN_UPDATE_NEVER, &created));
    CHECK(created == 2);
    rows[1] = v_int(3);
    CHECK_FAILS(drumlin_create_many_values(db, "MaybeKey", 2, idx, 1, rows + 2, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY, "Element 0:");
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "MaybeKey", NULL, NULL) == 2);
    CHECK(count_of(db, "MaybeKey", "id == nil", NULL) == 1);
    CHECK_OK(drumlin_object_find_values(db, "MaybeKey", &null_pk, 2, idx, out, NULL));
    CHECK(out[0].type == DRUMLIN_TYPE_NULL && out[1].type == DRUMLIN_TYPE_INT && out[1].as.integer == 1);
    CHECK_OK(drumlin_close(db));
}

/* Strings must be UTF-8, on the batch path and the general path. */
static void test_create_many_invalid_utf8(void) {
    drumlin_db *db = fresh();
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    int32_t tagged[2] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n")};
    drumlin_value rows[8] = {v_int(1), v_str("ok"), v_int(2), v_str("fine"), v_int(3), v_strn("a\xff\xfe", 3),
                           v_int(4), v_str("ok")};
    drumlin_value tagged_rows[4] = {v_str("a"), v_int(1), v_strn("\xc3\x28", 2), v_int(2)};
    int64_t created = -1;

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, idx, 4, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_INVALID_ARGUMENT, "Element 2:");
    CHECK_MSG_HAS("UTF-8");
    CHECK(created == 0);
    CHECK_FAILS(drumlin_create_many_values(db, "Tagged", 2, tagged, 2, tagged_rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_INVALID_ARGUMENT, "Element 1:");
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 0);
    CHECK_OK(drumlin_close(db));
}

/* decimal128, date, objectId and uuid go through the general path, exactly. */
static drumlin_value special_dec(int r) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_DECIMAL128;
    v.as.decimal128.w[0] = 110 + (uint64_t)r;           /* coefficient */
    v.as.decimal128.w[1] = (uint64_t)6174 << 49;        /* exponent -2 */
    return v;
}

static drumlin_value special_date(int r) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_TIMESTAMP;
    v.as.timestamp.seconds = 1700000000 + r;
    v.as.timestamp.nanoseconds = 123456789;
    return v;
}

static drumlin_value special_oid(int r) {
    drumlin_value v = v_null();
    v.type = DRUMLIN_TYPE_OBJECT_ID;
    for (int i = 0; i < 12; i++) v.as.object_id.bytes[i] = (uint8_t)(0x65 + i);
    v.as.object_id.bytes[11] = (uint8_t)r;
    return v;
}

static drumlin_value special_uuid(int r) {
    drumlin_value v = v_null();
    if (r % 2) return v;
    v.type = DRUMLIN_TYPE_UUID;
    for (int i = 0; i < 16; i++) v.as.uuid.bytes[i] = (uint8_t)(0x10 * (i % 16) + 1);
    v.as.uuid.bytes[15] = (uint8_t)r;
    return v;
}

static void test_create_many_general_path_special_types(void) {
    drumlin_db *db = fresh();
    enum { SP_ID, SP_DEC, SP_WHEN, SP_OID, SP_U, SP_N, SP_COUNT };
    const char *names[SP_COUNT] = {"id", "dec", "when", "oid", "u", "n"};
    int32_t idx[SP_COUNT];
    static drumlin_value rows[ROWS * SP_COUNT];
    drumlin_value out[SP_COUNT];
    char *json = NULL;
    int64_t created = -1;

    for (int p = 0; p < SP_COUNT; p++) idx[p] = prop(db, "Special", names[p]);
    for (int r = 0; r < ROWS; r++) {
        drumlin_value *row = rows + r * SP_COUNT;
        row[SP_ID] = v_int(r);
        row[SP_DEC] = special_dec(r);
        row[SP_WHEN] = special_date(r);
        row[SP_OID] = special_oid(r);
        row[SP_U] = special_uuid(r);
        row[SP_N] = v_int(-r);
    }
    REQUIRE_OK(drumlin_begin_write(db));
    /* A bad value in the general path names its element and writes nothing. */
    rows[65 * SP_COUNT + SP_DEC] = v_str("1.5");
    CHECK_FAILS(drumlin_create_many_values(db, "Special", SP_COUNT, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_TYPE_MISMATCH, "Element 65:");
    CHECK_MSG_HAS("'Special.dec'");
    CHECK(count_of(db, "Special", NULL, NULL) == 0);
    rows[65 * SP_COUNT + SP_DEC] = special_dec(65);
    CHECK_OK(drumlin_create_many_values(db, "Special", SP_COUNT, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Special", NULL, NULL) == ROWS);

    for (int r = 0; r < ROWS; r++) {
        drumlin_value pk = v_int(r), want;
        memset(out, 0xAB, sizeof out);
        CHECK_OK(drumlin_object_find_values(db, "Special", &pk, SP_COUNT, idx, out, NULL));
        CHECK(out[SP_ID].type == DRUMLIN_TYPE_INT && out[SP_ID].as.integer == r);
        want = special_dec(r);
        CHECK(out[SP_DEC].type == DRUMLIN_TYPE_DECIMAL128 && out[SP_DEC].as.decimal128.w[0] == want.as.decimal128.w[0] &&
              out[SP_DEC].as.decimal128.w[1] == want.as.decimal128.w[1]);
        CHECK(out[SP_WHEN].type == DRUMLIN_TYPE_TIMESTAMP && out[SP_WHEN].as.timestamp.seconds == 1700000000 + r &&
              out[SP_WHEN].as.timestamp.nanoseconds == 123456789);
        want = special_oid(r);
        CHECK(out[SP_OID].type == DRUMLIN_TYPE_OBJECT_ID && memcmp(out[SP_OID].as.object_id.bytes, want.as.object_id.bytes, 12) == 0);
        want = special_uuid(r);
        if (r % 2) CHECK(out[SP_U].type == DRUMLIN_TYPE_NULL);
        else CHECK(out[SP_U].type == DRUMLIN_TYPE_UUID && memcmp(out[SP_U].as.uuid.bytes, want.as.uuid.bytes, 16) == 0);
        CHECK(out[SP_N].type == DRUMLIN_TYPE_INT && out[SP_N].as.integer == -r);
    }
    CHECK_OK(drumlin_get_json(db, "Special", "0", &json));
    CHECK_JSON_HAS(json, "\"dec\":{\"$numberDecimal\":\"1.10\"}");
    CHECK_JSON_HAS(json, "\"when\":{\"$date\":\"2023-11-14T22:13:20.123456789Z\"}");
    CHECK_JSON_HAS(json, "\"oid\":{\"$oid\":\"6566676869");
    drumlin_free(json);
    CHECK_OK(drumlin_close(db));
}

/* Links through the general path. */
static void test_create_many_links(void) {
    drumlin_db *db = fresh();
    int32_t idx[3] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n"), prop(db, "Tagged", "next")};
    int32_t tagged_class = -1;
    drumlin_value rows[ROWS * 3];
    static char codes[ROWS][16];
    drumlin_object *target = NULL;
    int64_t target_key = -1, created = -1;
    char *json = NULL;

    REQUIRE_OK(drumlin_class_index(db, "Tagged", &tagged_class));
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_create_json(db, "Tagged", "{\"code\": \"target\", \"n\": 0}", DRUMLIN_UPDATE_NEVER, &target));
    REQUIRE_OK(drumlin_object_key(target, &target_key));
    for (int r = 0; r < ROWS; r++) {
        snprintf(codes[r], sizeof codes[r], "c%d", r);
        rows[r * 3] = v_str(codes[r]);
        rows[r * 3 + 1] = v_int(r);
        rows[r * 3 + 2] = r % 2 ? v_null() : v_link(tagged_class, target_key);
    }
    CHECK_OK(drumlin_create_many_values(db, "Tagged", 3, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created));
    CHECK(created == ROWS);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Tagged", NULL, NULL) == ROWS + 1);
    CHECK(count_of(db, "Tagged", "next.code == 'target'", NULL) == ROWS / 2);
    CHECK_OK(drumlin_get_json(db, "Tagged", "\"c128\"", &json));
    CHECK_JSON_HAS(json, "\"code\":\"c128\",\"n\":128,\"tags\":[],\"next\":\"target\"");
    drumlin_free(json);
    drumlin_object_release(target);
    CHECK_OK(drumlin_close(db));
}

/* MODIFIED and ALL upsert through the general path. */
static void test_create_many_upserts(void) {
    drumlin_db *db = fresh();
    int32_t idx[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "age")};
    drumlin_value rows[9] = {v_int(2), v_str("two!"), v_int(22), v_int(3), v_str("p3"), v_null(),
                           v_int(4), v_str("four"), v_int(44)};
    drumlin_value out[PL_COUNT];
    int32_t all[PL_COUNT];
    int64_t created = -1;

    plain_indices(db, all);
    seed_plain(db, 1, 3);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "Plain", 3, idx, 3, rows, DRUMLIN_UPDATE_MODIFIED, &created));
    CHECK(created == 3);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 4);
    CHECK_OK(read_plain(db, all, 1, out));
    CHECK_VSTR(out[PL_NAME], "p1");
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK_VSTR(out[PL_NAME], "two!");
    CHECK(out[PL_AGE].type == DRUMLIN_TYPE_INT && out[PL_AGE].as.integer == 22);
    CHECK_OK(read_plain(db, all, 3, out));
    CHECK_VSTR(out[PL_NAME], "p3");
    CHECK(out[PL_AGE].type == DRUMLIN_TYPE_NULL);
    CHECK_OK(read_plain(db, all, 4, out));
    CHECK_VSTR(out[PL_NAME], "four");
    CHECK(out[PL_SCORE].type == DRUMLIN_TYPE_DOUBLE && out[PL_SCORE].as.dnum == 1.5);

    rows[1] = v_str("TWO");
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "Plain", 3, idx, 1, rows, DRUMLIN_UPDATE_ALL, &created));
    CHECK(created == 1);
    /* An upsert without the primary key among the values. */
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, idx + 1, 1, rows + 1, DRUMLIN_UPDATE_MODIFIED, &created),
                DRUMLIN_ERR_MISSING_VALUE, "Element 0:");
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK_VSTR(out[PL_NAME], "TWO");
    CHECK(count_of(db, "Plain", NULL, NULL) == 4);
    CHECK_OK(drumlin_close(db));
}

/* Argument checks: transaction state, empty batches, indices, modes, classes. */
static void test_create_many_arguments(void) {
    drumlin_db *db = fresh();
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    int32_t bad[2] = {prop(db, "Plain", "id"), 99};
    int32_t negative[2] = {-1, prop(db, "Plain", "name")};
    int32_t twice[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "id")};
    drumlin_value rows[3] = {v_int(1), v_str("a"), v_int(1)};
    int64_t created = 99;

    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, idx, 1, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_WRONG_TRANSACTION_STATE, "");
    CHECK(created == 0);
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);

    REQUIRE_OK(drumlin_begin_write(db));
    created = 99;
    CHECK_OK(drumlin_create_many_values(db, "Plain", 2, idx, 0, NULL, DRUMLIN_UPDATE_NEVER, &created));
    CHECK(created == 0);
    CHECK_OK(drumlin_create_many_values(db, "Plain", 2, idx, 0, rows, DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, bad, 1, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_INVALID_ARGUMENT, "99");
    CHECK_MSG_HAS("out of range");
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, negative, 1, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_INVALID_ARGUMENT, "out of range");
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 3, twice, 1, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_INVALID_ARGUMENT, "'Plain.id' is given more than once");
    CHECK_FAILS(drumlin_create_many_values(db, "Plain", 2, idx, 1, rows, 7, &created), DRUMLIN_ERR_INVALID_ARGUMENT, "");
    CHECK_FAILS(drumlin_create_many_values(db, "Nope", 2, idx, 1, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_NO_SUCH_CLASS, "Nope");
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 0);
    CHECK_OK(drumlin_close(db));
}

/* Regression: an optional primary key may be null for one object only (docs/schema.md), but the
 * key's UNIQUE index lets SQLite store any number of NULLs; the engine now checks, on the batch
 * path and on single creates alike. */
static void test_second_null_primary_key(void) {
    drumlin_db *db = fresh();
    int32_t idx[2] = {prop(db, "MaybeKey", "id"), prop(db, "MaybeKey", "n")};
    drumlin_value rows[6] = {v_null(), v_int(1), v_int(7), v_int(2), v_null(), v_int(3)};
    int64_t created = -1;

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_FAILS(drumlin_create_many_values(db, "MaybeKey", 2, idx, 3, rows, DRUMLIN_UPDATE_NEVER, &created),
                DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY, "Element 2:");
    CHECK(count_of(db, "MaybeKey", NULL, NULL) == 0);
    CHECK_OK(drumlin_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_ERR(drumlin_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 2}", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "MaybeKey", "id == nil", NULL) == 1);
    CHECK_OK(drumlin_close(db));
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
    test_second_null_primary_key();
    return check_report("batch_create");
}
