/*
 * update_by_key.c — drumlin_object_update_values: an object updated by primary key, one UPDATE for
 * plain columns, the general path otherwise; NOT_FOUND writes nothing.
 */
#include "typed_fixtures.h"

/*---- drumlin_object_update_values ----------------------------------------------------------------*/

static void test_update_values_writes_properties(void) {
    drumlin_db *db = fresh();
    int32_t all[PL_COUNT];
    int32_t name;
    int32_t several[6];
    drumlin_value one = v_str("renamed \xc3\xa9");
    drumlin_value pk = v_int(2);
    static const uint8_t blob[4] = {9, 0, 8, 7};
    drumlin_value values[6];
    drumlin_value out[PL_COUNT];

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

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_values(db, "Plain", &pk, 1, &name, &one));
    CHECK_OK(drumlin_object_update_values(db, "Plain", &pk, 6, several, values));
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(read_plain(db, all, 2, out));
    CHECK(out[PL_ID].type == DRUMLIN_TYPE_INT && out[PL_ID].as.integer == 2);
    CHECK_VSTR(out[PL_NAME], "renamed \xc3\xa9");
    CHECK(out[PL_AGE].type == DRUMLIN_TYPE_INT && out[PL_AGE].as.integer == -7);
    CHECK(out[PL_SCORE].type == DRUMLIN_TYPE_DOUBLE && out[PL_SCORE].as.dnum == 3.0);
    CHECK(out[PL_ACTIVE].type == DRUMLIN_TYPE_BOOL && out[PL_ACTIVE].as.boolean == 0);
    CHECK(out[PL_RATIO].type == DRUMLIN_TYPE_FLOAT && out[PL_RATIO].as.fnum == 0.25f);
    CHECK(out[PL_BLOB].type == DRUMLIN_TYPE_BINARY);
    if (out[PL_BLOB].type == DRUMLIN_TYPE_BINARY) CHECK_BYTES(out[PL_BLOB].as.binary.data, out[PL_BLOB].as.binary.size, blob, 4);
    CHECK_VSTR(out[PL_NOTE], "");
    /* The neighbours are untouched. */
    CHECK_OK(read_plain(db, all, 1, out));
    CHECK_VSTR(out[PL_NAME], "p1");
    CHECK(out[PL_AGE].type == DRUMLIN_TYPE_NULL && out[PL_SCORE].as.dnum == 1.5);
    CHECK_OK(read_plain(db, all, 3, out));
    CHECK_VSTR(out[PL_NAME], "p3");

    /* Back to null, and an empty binary stays a binary. */
    values[0] = v_null();
    values[4] = v_bin(NULL, 0);
    values[5] = v_null();
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_values(db, "Plain", &pk, 6, several, values));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK(out[PL_AGE].type == DRUMLIN_TYPE_NULL);
    CHECK(out[PL_BLOB].type == DRUMLIN_TYPE_BINARY && out[PL_BLOB].as.binary.size == 0);
    CHECK(out[PL_NOTE].type == DRUMLIN_TYPE_NULL);
    CHECK(count_of(db, "Plain", NULL, NULL) == 3);
    CHECK_OK(drumlin_close(db));
}

static void test_update_values_not_found(void) {
    drumlin_db *db = fresh();
    int32_t name = prop(db, "Plain", "name");
    int32_t tagged[2] = {prop(db, "Tagged", "n"), prop(db, "Tagged", "extra")};
    drumlin_value pk = v_int(999), value = v_str("ghost");
    drumlin_value tpk = v_str("missing"), tvalues[2] = {v_int(1), v_str("m")};
    char *json = NULL;

    seed_plain(db, 1, 2);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_RC(drumlin_object_update_values(db, "Plain", &pk, 1, &name, &value), DRUMLIN_NOT_FOUND);
    CHECK_RC(drumlin_last_error_code(), DRUMLIN_OK);
    CHECK_RC(drumlin_object_update_values(db, "Plain", &pk, 0, NULL, NULL), DRUMLIN_NOT_FOUND);
    CHECK_RC(drumlin_object_update_values(db, "Tagged", &tpk, 2, tagged, tvalues), DRUMLIN_NOT_FOUND);
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Plain", NULL, NULL) == 2);
    CHECK(count_of(db, "Plain", "name == 'ghost'", NULL) == 0);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 0);
    CHECK_RC(drumlin_get_json(db, "Plain", "999", &json), DRUMLIN_NOT_FOUND);
    /* An existing object with nothing to write is found. */
    pk = v_int(1);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_values(db, "Plain", &pk, 0, NULL, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_close(db));
}

static void test_update_values_string_primary_key(void) {
    drumlin_db *db = fresh();
    int32_t idx[2] = {prop(db, "Named", "v"), prop(db, "Named", "label")};
    drumlin_value pk = v_str("k\xc3\xa9y-1"), other = v_str("key-2"), missing = v_str("k\xc3\xa9y");
    drumlin_value values[2] = {v_int(41), v_str("forty-one")};
    char *json = NULL;

    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"k\xc3\xa9y-1\", \"v\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"key-2\", \"v\": 2}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_object_update_values(db, "Named", &pk, 2, idx, values));
    CHECK_RC(drumlin_object_update_values(db, "Named", &missing, 2, idx, values), DRUMLIN_NOT_FOUND);
    values[0] = v_int(2000);
    CHECK_OK(drumlin_object_update_values(db, "Named", &other, 1, idx, values));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_get_json(db, "Named", "\"k\xc3\xa9y-1\"", &json));
    CHECK_STR(json, "{\"key\":\"k\xc3\xa9y-1\",\"v\":41,\"label\":\"forty-one\"}");
    drumlin_free(json);
    CHECK_OK(drumlin_get_json(db, "Named", "\"key-2\"", &json));
    CHECK_STR(json, "{\"key\":\"key-2\",\"v\":2000,\"label\":null}");
    drumlin_free(json);
    CHECK(count_of(db, "Named", NULL, NULL) == 2);
    CHECK_OK(drumlin_close(db));
}

static void test_update_values_optional_primary_key(void) {
    drumlin_db *db = fresh();
    int32_t n = prop(db, "MaybeKey", "n");
    drumlin_value five = v_int(5), six = v_int(6), value = v_int(77);
    char *json = NULL;

    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "MaybeKey", "{\"id\": 5, \"n\": 2}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_object_update_values(db, "MaybeKey", &five, 1, &n, &value));
    CHECK_RC(drumlin_object_update_values(db, "MaybeKey", &six, 1, &n, &value), DRUMLIN_NOT_FOUND);
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_get_json(db, "MaybeKey", "5", &json));
    CHECK_STR(json, "{\"id\":5,\"n\":77}");
    drumlin_free(json);
    CHECK_OK(drumlin_get_json(db, "MaybeKey", "null", &json));
    CHECK_STR(json, "{\"id\":null,\"n\":1}");
    drumlin_free(json);
    CHECK(count_of(db, "MaybeKey", NULL, NULL) == 2);
    CHECK_OK(drumlin_close(db));
}

/* Links, lists and mixed values take the general path. */
static void test_update_values_general_path(void) {
    drumlin_db *db = fresh();
    int32_t n = prop(db, "Tagged", "n"), next = prop(db, "Tagged", "next"), tags = prop(db, "Tagged", "tags");
    int32_t extra = prop(db, "Tagged", "extra");
    int32_t idx[3] = {n, next, extra};
    int32_t with_list[2] = {n, tags};
    int32_t tagged_class = -1;
    drumlin_object *b = NULL;
    int64_t b_key = -1;
    drumlin_value a = v_str("a");
    drumlin_value values[3];
    drumlin_value list_values[2] = {v_int(500), v_str("not a list")};
    char *json = NULL;

    REQUIRE_OK(drumlin_class_index(db, "Tagged", &tagged_class));
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"a\", \"n\": 1, \"tags\": [\"x\", \"y\"]}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_object_create_json(db, "Tagged", "{\"code\": \"b\", \"n\": 2}", DRUMLIN_UPDATE_NEVER, &b));
    REQUIRE_OK(drumlin_object_key(b, &b_key));
    values[0] = v_int(10);
    values[1] = v_link(tagged_class, b_key);
    values[2] = v_double(2.5);
    CHECK_OK(drumlin_object_update_values(db, "Tagged", &a, 3, idx, values));
    /* A list property cannot take a scalar: nothing is written, not even `n`. */
    CHECK_FAILS(drumlin_object_update_values(db, "Tagged", &a, 2, with_list, list_values), DRUMLIN_ERR_TYPE_MISMATCH,
                "'Tagged.tags'");
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_get_json(db, "Tagged", "\"a\"", &json));
    CHECK_STR(json, "{\"code\":\"a\",\"n\":10,\"tags\":[\"x\",\"y\"],\"next\":\"b\",\"extra\":2.5}");
    drumlin_free(json);
    CHECK(count_of(db, "Tagged", "next.code == 'b'", NULL) == 1);

    /* Clearing the link, and a plain column of a class with relationships (the one-UPDATE path). */
    values[0] = v_int(11);
    values[1] = v_null();
    values[2] = v_str("text");
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_values(db, "Tagged", &a, 3, idx, values));
    CHECK_OK(drumlin_object_update_values(db, "Tagged", &a, 1, &n, &values[0]));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_get_json(db, "Tagged", "\"a\"", &json));
    CHECK_STR(json, "{\"code\":\"a\",\"n\":11,\"tags\":[\"x\",\"y\"],\"next\":null,\"extra\":\"text\"}");
    drumlin_free(json);
    CHECK(count_of(db, "Tagged", NULL, NULL) == 2);
    drumlin_object_release(b);
    CHECK_OK(drumlin_close(db));
}

static void test_update_values_primary_key(void) {
    drumlin_db *db = fresh();
    int32_t all[PL_COUNT];
    int32_t idx[2];
    int32_t named[2] = {prop(db, "Named", "key"), prop(db, "Named", "v")};
    drumlin_value pk = v_int(1);
    drumlin_value values[2];
    drumlin_value npk = v_str("k");
    drumlin_value nvalues[2] = {v_str("k"), v_int(5)};
    drumlin_value out[PL_COUNT];
    char *json = NULL;

    plain_indices(db, all);
    idx[0] = all[PL_ID];
    idx[1] = all[PL_NAME];
    seed_plain(db, 1, 2);
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"k\", \"v\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    /* The same key: accepted, and the other property is written. */
    values[0] = v_int(1);
    values[1] = v_str("same key");
    CHECK_OK(drumlin_object_update_values(db, "Plain", &pk, 2, idx, values));
    CHECK_OK(drumlin_object_update_values(db, "Named", &npk, 2, named, nvalues));
    /* Another key: PRIMARY_KEY_IMMUTABLE, nothing written. */
    values[0] = v_int(3);
    values[1] = v_str("moved");
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 2, idx, values), DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE,
                "'Plain.id'");
    values[0] = v_int(2); /* the key of another existing object */
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 1, idx, values), DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE,
                "'Plain.id'");
    nvalues[0] = v_str("k2");
    nvalues[1] = v_int(6);
    CHECK_FAILS(drumlin_object_update_values(db, "Named", &npk, 2, named, nvalues), DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE,
                "'Named.key'");
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(read_plain(db, all, 1, out));
    CHECK_VSTR(out[PL_NAME], "same key");
    CHECK_OK(read_plain(db, all, 2, out));
    CHECK_VSTR(out[PL_NAME], "p2");
    CHECK(count_of(db, "Plain", NULL, NULL) == 2);
    CHECK(count_of(db, "Plain", "id == 3", NULL) == 0);
    CHECK_OK(drumlin_get_json(db, "Named", "\"k\"", &json));
    CHECK_STR(json, "{\"key\":\"k\",\"v\":5,\"label\":null}");
    drumlin_free(json);
    CHECK(count_of(db, "Named", NULL, NULL) == 1);
    CHECK_OK(drumlin_close(db));
}

static void test_update_values_errors_leave_object_unchanged(void) {
    drumlin_db *db = fresh();
    int32_t all[PL_COUNT];
    int32_t idx[2];
    int32_t twice[2];
    int32_t bad[2];
    drumlin_value pk = v_int(1);
    drumlin_value values[2];
    char *json = NULL;
    const char *original = "{\"id\":1,\"name\":\"p1\",\"age\":null,\"score\":1.5,\"active\":true,\"ratio\":null,"
                           "\"blob\":null,\"note\":null}";

    plain_indices(db, all);
    seed_plain(db, 1, 1);
    REQUIRE_OK(drumlin_begin_write(db));

    /* string into int (after a valid value for another property) */
    idx[0] = all[PL_NAME];
    idx[1] = all[PL_AGE];
    values[0] = v_str("changed");
    values[1] = v_str("old");
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 2, idx, values), DRUMLIN_ERR_TYPE_MISMATCH,
                "Type mismatch for property 'Plain.age'");
    CHECK_MSG_HAS("expected int, got string");
    /* null into a required property */
    idx[0] = all[PL_AGE];
    idx[1] = all[PL_NAME];
    values[0] = v_int(30);
    values[1] = v_null();
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 2, idx, values), DRUMLIN_ERR_NOT_NULLABLE, "'Plain.name'");
    /* the same property twice */
    twice[0] = all[PL_AGE];
    twice[1] = all[PL_AGE];
    values[0] = v_int(30);
    values[1] = v_int(31);
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 2, twice, values), DRUMLIN_ERR_INVALID_ARGUMENT,
                "'Plain.age' is given more than once");
    /* invalid UTF-8 */
    idx[0] = all[PL_AGE];
    idx[1] = all[PL_NOTE];
    values[0] = v_int(30);
    values[1] = v_strn("\xed\xa0\x80", 3); /* a UTF-16 surrogate */
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 2, idx, values), DRUMLIN_ERR_INVALID_ARGUMENT, "UTF-8");
    /* an index out of range */
    bad[0] = all[PL_AGE];
    bad[1] = 42;
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 2, bad, values), DRUMLIN_ERR_INVALID_ARGUMENT, "out of range");
    /* a key of the wrong type */
    values[0] = v_int(30);
    {
        drumlin_value string_pk = v_str("1");
        CHECK_FAILS(drumlin_object_update_values(db, "Plain", &string_pk, 1, idx, values), DRUMLIN_ERR_TYPE_MISMATCH,
                    "'Plain.id'");
    }
    /* an unknown class */
    CHECK_FAILS(drumlin_object_update_values(db, "Nope", &pk, 1, idx, values), DRUMLIN_ERR_NO_SUCH_CLASS, "Nope");
    REQUIRE_OK(drumlin_commit(db));

    CHECK_OK(drumlin_get_json(db, "Plain", "1", &json));
    CHECK_STR(json, original);
    drumlin_free(json);

    /* Outside a write transaction. */
    CHECK_FAILS(drumlin_object_update_values(db, "Plain", &pk, 1, idx, values), DRUMLIN_ERR_WRONG_TRANSACTION_STATE, "");
    CHECK_OK(drumlin_get_json(db, "Plain", "1", &json));
    CHECK_STR(json, original);
    drumlin_free(json);
    CHECK_OK(drumlin_close(db));
}

/* A full-text index follows values written by update_values and create_many_values. */
static void test_update_values_full_text(void) {
    drumlin_db *db = fresh();
    int32_t idx[3] = {prop(db, "Doc", "id"), prop(db, "Doc", "title"), prop(db, "Doc", "body")};
    int32_t body = idx[2];
    static drumlin_value rows[ROWS * 3];
    drumlin_value pk = v_int(7), text = v_str("gamma delta");
    int64_t created = -1;
    char *json = NULL;

    for (int r = 0; r < ROWS; r++) {
        rows[r * 3] = v_int(r);
        rows[r * 3 + 1] = v_str("t");
        rows[r * 3 + 2] = v_str(r % 2 ? "alpha beta" : "alpha zeta");
    }
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "Doc", 3, idx, ROWS, rows, DRUMLIN_UPDATE_NEVER, &created));
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Doc", "body TEXT 'alpha'", NULL) == ROWS);
    CHECK(count_of(db, "Doc", "body TEXT 'beta'", NULL) == ROWS / 2);

    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_values(db, "Doc", &pk, 1, &body, &text));
    REQUIRE_OK(drumlin_commit(db));
    CHECK(count_of(db, "Doc", "body TEXT 'gamma'", NULL) == 1);
    CHECK(count_of(db, "Doc", "body TEXT $0", "[\"delta gamma\"]") == 1);
    CHECK(count_of(db, "Doc", "body TEXT 'alpha'", NULL) == ROWS - 1);
    CHECK(count_of(db, "Doc", "body TEXT 'beta'", NULL) == ROWS / 2 - 1);
    CHECK_OK(drumlin_query_json(db, "Doc", "body TEXT 'gam*'", NULL, &json));
    CHECK_JSON_HAS(json, "[{\"id\":7,\"title\":\"t\",\"body\":\"gamma delta\"}]");
    drumlin_free(json);
    CHECK_OK(drumlin_close(db));
}

/* Live results follow batch creates and updates by key, before and after commit. */
static void test_live_results_follow_batch_creates_and_updates_by_key(void) {
    drumlin_db *db = fresh();
    int32_t idx[3] = {prop(db, "Plain", "id"), prop(db, "Plain", "name"), prop(db, "Plain", "age")};
    int32_t age = idx[2];
    drumlin_value rows[6] = {v_int(1), v_str("a"), v_int(5), v_int(2), v_str("b"), v_int(6)};
    drumlin_value pk = v_int(2), five = v_int(5);
    drumlin_results *results = NULL;
    size_t n = 99;

    REQUIRE_OK(drumlin_query(db, "Plain", "age == 5", NULL, &results));
    CHECK_OK(drumlin_results_count(results, &n));
    CHECK(n == 0);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "Plain", 3, idx, 2, rows, DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_results_count(results, &n));
    CHECK(n == 1);
    CHECK_OK(drumlin_object_update_values(db, "Plain", &pk, 1, &age, &five));
    CHECK_OK(drumlin_results_count(results, &n));
    CHECK(n == 2);
    REQUIRE_OK(drumlin_rollback(db));
    CHECK_OK(drumlin_results_count(results, &n));
    CHECK(n == 0);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_many_values(db, "Plain", 3, idx, 2, rows, DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_object_update_values(db, "Plain", &pk, 1, &age, &five));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_results_count(results, &n));
    CHECK(n == 2);
    drumlin_results_release(results);
    CHECK_OK(drumlin_close(db));
}


/* Regression: update_values by a null primary key. The one-UPDATE path compared `pk = NULL`,
 * which never matches, and returned DRUMLIN_NOT_FOUND for an object that exists; it uses `IS`. */
static void test_update_values_null_primary_key(void) {
    drumlin_db *db = fresh();
    int32_t n = prop(db, "MaybeKey", "n");
    drumlin_value null_pk = v_null(), value = v_int(88);
    char *json = NULL;

    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_object_update_values(db, "MaybeKey", &null_pk, 1, &n, &value));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_get_json(db, "MaybeKey", "null", &json));
    CHECK_STR(json, "{\"id\":null,\"n\":88}");
    drumlin_free(json);
    CHECK_OK(drumlin_close(db));
}

int main(void) {
    test_update_values_writes_properties();
    test_update_values_not_found();
    test_update_values_string_primary_key();
    test_update_values_optional_primary_key();
    test_update_values_general_path();
    test_update_values_primary_key();
    test_update_values_errors_leave_object_unchanged();
    test_update_values_full_text();
    test_live_results_follow_batch_creates_and_updates_by_key();
    test_update_values_null_primary_key();
    return check_report("update_by_key");
}
