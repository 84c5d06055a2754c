/*
 * in_memory.c — one Person with a nullable string, binary and mixed property, in an in-memory
 * database: the JSON layer round trip and its errors, typed values that keep NUL bytes and
 * binaries, and the handles of a closed database (misuse). The rest of the C client's pass over
 * the API is lifecycle.c.
 *
 * Usage: drumlin_test_in_memory
 */
#include "check.h"

#include <stdint.h>

static const char *MIXED_SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"name\": \"string\","
    " \"nick\": \"string?\", \"blob\": \"data?\", \"m\": \"mixed\"}}]";

static drumlin_db *open_mixed(void) {
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(":memory:", MIXED_SCHEMA, NULL, &db));
    return db;
}

/* The JSON layer: what is created reads back; errors give the status and the thread's last error. */
static void test_json_layer_round_trip_and_errors(void) {
    drumlin_db *db = open_mixed();
    char *out = NULL;
    int64_t count = -1;
    CHECK_ERR(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"A\"}", DRUMLIN_UPDATE_NEVER, NULL),
              DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK(drumlin_last_error_code() == DRUMLIN_OK);
    CHECK_STR(drumlin_last_error_message(), "");
    CHECK_OK(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"A\", \"m\": 3.0}", DRUMLIN_UPDATE_NEVER, &out));
    CHECK_STR(out, "{\"id\":1,\"name\":\"A\",\"nick\":null,\"blob\":null,\"m\":3.0}");
    drumlin_free(out);
    out = NULL;
    CHECK_RC(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"B\"}", DRUMLIN_UPDATE_NEVER, NULL),
             DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY);
    CHECK_STR(drumlin_last_error_message(),
              "Attempting to create an object of type 'Person' with an existing primary key value '1'.");
    CHECK_RC(drumlin_create_json(db, "Person", "{\"id\": 2, \"name\": \"B\"", DRUMLIN_UPDATE_NEVER, NULL),
             DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_RC(drumlin_create_json(db, "Person", "{\"id\": 2}", 7, NULL), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_OK(drumlin_create_many_json(db, "Person", "[{\"id\": 2, \"name\": \"B\"}, {\"id\": 3, \"name\": \"C\"}]",
                                      DRUMLIN_UPDATE_NEVER, &count));
    CHECK(count == 2);
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_count(db, "Person", NULL, NULL, &count));
    CHECK(count == 3);
    CHECK_RC(drumlin_get_json(db, "Person", "4", &out), DRUMLIN_NOT_FOUND);
    CHECK(out == NULL);
    CHECK(drumlin_last_error_code() == DRUMLIN_OK);
    CHECK_OK(drumlin_get_json(db, "Person", "2", &out));
    CHECK_STR(out, "{\"id\":2,\"name\":\"B\",\"nick\":null,\"blob\":null,\"m\":null}");
    drumlin_free(out);
    CHECK_OK(drumlin_close(db));
}

/* Typed values by property index: a string with a NUL byte, bytes with 0 and 255, a bool in a
 * mixed property read back exactly; strings are borrowed from the object handle. */
static void test_typed_values_keep_nul_bytes_and_binaries(void) {
    static const char name[] = "Zo\xc3\xab\0!"; /* "Zoë", NUL, "!" */
    static const uint8_t bytes[] = {0, 1, 255};
    drumlin_db *db = open_mixed();
    int32_t id = -1, name_index = -1, blob = -1, m = -1, indices[4];
    drumlin_value values[4], out[4], pk;
    drumlin_object *object = NULL, *found = NULL, *missing = NULL;
    int64_t key = 0;

    CHECK_OK(drumlin_property_index(db, "Person", "id", &id));
    CHECK_OK(drumlin_property_index(db, "Person", "name", &name_index));
    CHECK_OK(drumlin_property_index(db, "Person", "blob", &blob));
    CHECK_OK(drumlin_property_index(db, "Person", "m", &m));
    CHECK_RC(drumlin_property_index(db, "Person", "nope", &m), DRUMLIN_ERR_NO_SUCH_PROPERTY);
    CHECK_STR(drumlin_last_error_message(), "Property 'Person.nope' does not exist.");
    CHECK(m == -1);
    CHECK_OK(drumlin_property_index(db, "Person", "m", &m));

    indices[0] = id, indices[1] = name_index, indices[2] = blob, indices[3] = m;
    values[0] = int_value(7);
    values[1] = string_value_n(name, sizeof name - 1);
    memset(&values[2], 0, sizeof values[2]);
    values[2].type = DRUMLIN_TYPE_BINARY;
    values[2].as.binary.data = bytes;
    values[2].as.binary.size = sizeof bytes;
    memset(&values[3], 0, sizeof values[3]);
    values[3].type = DRUMLIN_TYPE_BOOL;
    values[3].as.boolean = 1;
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_create(db, "Person", 4, indices, values, DRUMLIN_UPDATE_NEVER, &object));
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE(object != NULL);

    CHECK_OK(drumlin_object_get_values(object, 4, indices, out));
    CHECK(out[0].type == DRUMLIN_TYPE_INT && out[0].as.integer == 7);
    CHECK(out[1].type == DRUMLIN_TYPE_STRING);
    CHECK_BYTES(out[1].as.string.data, out[1].as.string.size, name, sizeof name - 1);
    CHECK_BYTES(out[2].as.binary.data, out[2].as.binary.size, bytes, sizeof bytes);
    CHECK(out[3].type == DRUMLIN_TYPE_BOOL && out[3].as.boolean == 1);

    CHECK_OK(drumlin_object_key(object, &key));
    CHECK(key == 7);
    pk = int_value(7);
    CHECK_OK(drumlin_object_find(db, "Person", &pk, &found));
    pk = int_value(8);
    CHECK_RC(drumlin_object_find(db, "Person", &pk, &missing), DRUMLIN_NOT_FOUND);
    CHECK(missing == NULL);
    drumlin_object_release(found);
    drumlin_object_release(object);
    CHECK_OK(drumlin_close(db));
}

/* After drumlin_close, its objects and the closed handle itself answer MISUSE. */
static void test_handles_of_a_closed_database_are_misuse(void) {
    drumlin_db *db = open_mixed();
    drumlin_object *object = NULL;
    drumlin_value pk = int_value(1), value;
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_RC(drumlin_object_create(db, "Person", 0, NULL, NULL, DRUMLIN_UPDATE_NEVER, &object),
             DRUMLIN_ERR_MISSING_VALUE);
    CHECK_OK(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"A\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_object_find(db, "Person", &pk, &object));
    CHECK_OK(drumlin_close(db));
    memset(&value, 0, sizeof value);
    CHECK_RC(drumlin_object_get(object, "name", &value), DRUMLIN_ERR_MISUSE);
    CHECK_RC(drumlin_begin_write(db), DRUMLIN_ERR_MISUSE); /* the closed handle itself */
    CHECK_RC(drumlin_close(db), DRUMLIN_ERR_MISUSE);
    drumlin_object_release(object);
}

int main(void) {
    test_json_layer_round_trip_and_errors();
    test_typed_values_keep_nul_bytes_and_binaries();
    test_handles_of_a_closed_database_are_misuse();
    return check_report("in_memory");
}
