/*
 * rows.c — whole-row reads and the read version: drumlin_db_read_version, drumlin_object_find_row,
 * drumlin_object_read_row, drumlin_results_get_rows, drumlin_results_get_rows_keyed,
 * drumlin_query_rows, drumlin_query_first_rows, drumlin_object_set_by_key,
 * drumlin_object_write_by_key, drumlin_object_read_marshal.
 */
#include "typed_fixtures.h"

static int32_t class_index(drumlin_db *db, const char *name) {
    int32_t index = -1;
    REQUIRE_OK(drumlin_class_index(db, name, &index));
    return index;
}

static void add_plain(drumlin_db *db, int64_t id, const char *name) {
    int32_t idx[2] = {prop(db, "Plain", "id"), prop(db, "Plain", "name")};
    drumlin_value values[2] = {v_int(id), v_str(name)};
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_create(db, "Plain", 2, idx, values, DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
}

/* Whether the marshal bytes hold the string (as a 'u' item: length then bytes). */
static int has_text(const unsigned char *bytes, size_t size, const char *text) {
    size_t n = strlen(text);
    for (size_t i = 0; i + 5 + n <= size; i++) {
        if (bytes[i] == 'u' && bytes[i + 1] == n && bytes[i + 2] == 0 && memcmp(bytes + i + 5, text, n) == 0) return 1;
    }
    return 0;
}

/* Two handles on one new file (its path in `path`, a mkstemp template). */
static void open_two_handles(char *path, drumlin_db **a, drumlin_db **b) {
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    remove(path);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, a));
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, b));
}

static void test_read_version_moves_on_commit_rollback_and_writes(void) {
    drumlin_db *db = fresh();
    const volatile uint64_t *version = NULL;
    REQUIRE_OK(drumlin_db_read_version(db, &version));
    REQUIRE(version != NULL);
    uint64_t start = *version;
    CHECK(start >= 1);
    add_plain(db, 1, "Ann");
    uint64_t after_commit = *version;
    CHECK(after_commit > start);
    /* A read that changes nothing leaves it. */
    CHECK(count_of(db, "Plain", NULL, NULL) == 1);
    CHECK(*version == after_commit);
    REQUIRE_OK(drumlin_begin_write(db));
    drumlin_value name = v_str("Bob");
    CHECK_OK(drumlin_object_set_by_key(db, class_index(db, "Plain"), 1, prop(db, "Plain", "name"), &name));
    uint64_t after_write = *version;
    CHECK(after_write > after_commit);
    REQUIRE_OK(drumlin_rollback(db));
    CHECK(*version > after_write);
    CHECK_ERR(drumlin_db_read_version(db, NULL), DRUMLIN_ERR_MISUSE);
    drumlin_close(db);
}

static void test_read_version_sees_another_connections_commit_at_the_next_read(void) {
    char path[] = "/tmp/drumlin-rows-XXXXXX";
    drumlin_db *a = NULL, *b = NULL;
    open_two_handles(path, &a, &b);
    add_plain(a, 1, "Ann");
    const volatile uint64_t *version = NULL;
    REQUIRE_OK(drumlin_db_read_version(a, &version));
    CHECK(count_of(a, "Plain", NULL, NULL) == 1);
    uint64_t before = *version;
    add_plain(b, 2, "Bob");
    CHECK(*version == before); /* nothing called on a yet */
    CHECK(count_of(a, "Plain", NULL, NULL) == 2);
    CHECK(*version > before);
    drumlin_close(b);
    drumlin_close(a);
    remove(path);
}

/* A handle keeps its read transaction open between read calls while no connection commits
 * (docs/storage.md, "Concurrency"): each find_row still sees every commit made before it by another
 * handle, and a write on the reading handle itself works after its reads. */
static void test_each_read_sees_commits_made_before_it_through_a_held_read(void) {
    char path[] = "/tmp/drumlin-rows-XXXXXX";
    drumlin_db *reader = NULL, *writer = NULL;
    open_two_handles(path, &reader, &writer);
    int32_t plain = class_index(writer, "Plain");
    int32_t name_index = prop(writer, "Plain", "name");
    add_plain(writer, 1, "v0");
    unsigned char row[256];
    size_t size = 0;
    drumlin_value key = v_int(1);
    for (int n = 1; n <= 20; n++) {
        char name[16];
        snprintf(name, sizeof name, "v%d", n);
        CHECK_OK(drumlin_object_find_row(reader, plain, &key, row, sizeof row, &size));
        REQUIRE_OK(drumlin_begin_write(writer));
        drumlin_value value = v_str(name);
        CHECK_OK(drumlin_object_set_by_key(writer, plain, 1, name_index, &value));
        REQUIRE_OK(drumlin_commit(writer));
        CHECK_OK(drumlin_object_find_row(reader, plain, &key, row, sizeof row, &size));
        CHECK(has_text(row, size, name));
        CHECK(count_of(reader, "Plain", NULL, NULL) == n);
        add_plain(writer, 100 + n, "new");
    }
    /* The reader writes after its reads, and reads its own write. */
    CHECK_OK(drumlin_object_find_row(reader, plain, &key, row, sizeof row, &size));
    REQUIRE_OK(drumlin_begin_write(reader));
    drumlin_value mine = v_str("mine");
    CHECK_OK(drumlin_object_set_by_key(reader, plain, 1, name_index, &mine));
    REQUIRE_OK(drumlin_commit(reader));
    CHECK_OK(drumlin_object_find_row(writer, plain, &key, row, sizeof row, &size));
    CHECK(has_text(row, size, "mine"));
    drumlin_close(writer);
    drumlin_close(reader);
    remove(path);
}

static void test_rows_by_primary_key_key_results_and_query(void) {
    drumlin_db *db = fresh();
    add_plain(db, 7, "Ann");
    add_plain(db, 8, "Bob");
    int32_t plain = class_index(db, "Plain");
    unsigned char buffer[512];
    size_t size = 0;
    drumlin_value pk = v_int(7);
    CHECK_OK(drumlin_object_find_row(db, plain, &pk, buffer, sizeof buffer, &size));
    CHECK(size > 2 && buffer[0] == ')' && buffer[1] == PL_COUNT + 1); /* a tuple: every property, then the key */
    CHECK(has_text(buffer, size, "Ann"));
    pk = v_int(99);
    CHECK_RC(drumlin_object_find_row(db, plain, &pk, buffer, sizeof buffer, &size), DRUMLIN_NOT_FOUND);
    CHECK(size == 0);
    /* Too small a buffer: the size needed, for a second call. */
    pk = v_int(8);
    CHECK_OK(drumlin_object_find_row(db, plain, &pk, buffer, 4, &size));
    CHECK(size > 4);
    CHECK_OK(drumlin_object_read_row(db, plain, 8, buffer, sizeof buffer, &size));
    CHECK(has_text(buffer, size, "Bob"));
    drumlin_results *results = NULL;
    REQUIRE_OK(drumlin_query(db, "Plain", "id > 0", NULL, &results));
    CHECK_OK(drumlin_results_get_rows(results, 0, 10, buffer, sizeof buffer, &size));
    CHECK(buffer[0] == '[' && buffer[1] == 2);
    CHECK(has_text(buffer, size, "Ann") && has_text(buffer, size, "Bob"));
    CHECK_OK(drumlin_results_get_rows(results, 1, 10, buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 1 && has_text(buffer, size, "Bob") && !has_text(buffer, size, "Ann"));
    drumlin_results_release(results);
    CHECK_OK(drumlin_query_rows(db, plain, "name == $0", "[\"Bob\"]", buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 1 && has_text(buffer, size, "Bob"));
    CHECK_ERR(drumlin_query_rows(db, plain, "name ==", NULL, buffer, sizeof buffer, &size), DRUMLIN_ERR_QUERY);
    /* The first rows only: one of two, both, none; twice, so the second read takes the query's
       cached statement; SIZE_MAX reads every row; a bad query is the query's error. */
    for (int round = 0; round < 2; round++) {
        CHECK_OK(drumlin_query_first_rows(db, plain, "id > $0", "[0]", 1, buffer, sizeof buffer, &size));
        CHECK(buffer[1] == 1 && has_text(buffer, size, "Ann") && !has_text(buffer, size, "Bob"));
        CHECK_OK(drumlin_query_first_rows(db, plain, "id > $0", "[0]", 3, buffer, sizeof buffer, &size));
        CHECK(buffer[1] == 2 && has_text(buffer, size, "Ann") && has_text(buffer, size, "Bob"));
        CHECK_OK(drumlin_query_first_rows(db, plain, "id > $0", "[0]", 0, buffer, sizeof buffer, &size));
        CHECK(buffer[0] == '[' && buffer[1] == 0);
    }
    CHECK_OK(drumlin_query_first_rows(db, plain, "TRUEPREDICATE", NULL, SIZE_MAX, buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 2);
    CHECK_FAILS(drumlin_query_first_rows(db, plain, "name ==", NULL, 1, buffer, sizeof buffer, &size), DRUMLIN_ERR_QUERY,
                "name ==");
    /* Bad input: each a clear error, nothing read. */
    CHECK_FAILS(drumlin_query_first_rows(db, 99, "TRUEPREDICATE", NULL, 1, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "out of range");
    CHECK_FAILS(drumlin_query_first_rows(db, -1, "TRUEPREDICATE", NULL, 1, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "out of range");
    CHECK_FAILS(drumlin_query_first_rows(db, plain, "id == $0", "[1,", 1, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "args_json");
    CHECK_FAILS(drumlin_query_first_rows(db, plain, "id == $1", "[1]", 1, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_QUERY, "$1 is missing");
    CHECK_FAILS(drumlin_query_first_rows(db, plain, "name == '\xff'", NULL, 1, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "UTF-8");
    CHECK_FAILS(drumlin_query_first_rows(db, plain, "nope == 1", NULL, 1, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_QUERY, "no property 'nope'");
    /* A date property: the text Python's fromisoformat reads, to the microsecond. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Special", "{\"id\": 1, \"dec\": {\"$numberDecimal\": \"1.5\"}, \"n\": 1,"
                                   " \"when\": {\"$date\": \"1969-12-31T23:59:59.999999999Z\"},"
                                   " \"oid\": {\"$oid\": \"65f0a1b2c3d4e5f6a7b8c9d0\"}}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    pk = v_int(1);
    CHECK_OK(drumlin_object_find_row(db, class_index(db, "Special"), &pk, buffer, sizeof buffer, &size));
    CHECK(has_text(buffer, size, "1969-12-31T23:59:59.999999+00:00"));
    /* A class with a list and a mixed value (read through the general path): the first row only. */
    int32_t tagged = class_index(db, "Tagged");
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"a\", \"n\": 1, \"tags\": [\"x\"]}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"b\", \"n\": 2}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_query_first_rows(db, tagged, "n > 0", NULL, 1, buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 1 && has_text(buffer, size, "a") && !has_text(buffer, size, "b"));
    drumlin_close(db);
}

/* A page whose buffer was too small, read again with the size reported: the same rows, and the
   pages after it still continue the one read (a commit by another handle meanwhile is not in them). */
static void test_a_page_read_again_into_a_larger_buffer_is_the_same_page(void) {
    char path[] = "/tmp/drumlin-rows-XXXXXX";
    drumlin_db *reader = NULL, *writer = NULL;
    open_two_handles(path, &reader, &writer);
    const char *names[] = {"p1", "p2", "p3", "p4", "p5", "p6"};
    for (int64_t id = 1; id <= 6; id++) add_plain(writer, id, names[id - 1]);
    drumlin_results *results = NULL;
    REQUIRE_OK(drumlin_query(reader, "Plain", "id > 0", NULL, &results));
    unsigned char buffer[512];
    size_t size = 0;
    CHECK_OK(drumlin_results_get_rows(results, 0, 2, buffer, 8, &size));
    CHECK(size > 8 && size <= sizeof buffer);
    add_plain(writer, 7, "p7");
    CHECK_OK(drumlin_results_get_rows(results, 0, 2, buffer, size, &size));
    CHECK(buffer[1] == 2 && has_text(buffer, size, "p1") && has_text(buffer, size, "p2") && !has_text(buffer, size, "p3"));
    CHECK_OK(drumlin_results_get_rows(results, 2, 2, buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 2 && has_text(buffer, size, "p3") && has_text(buffer, size, "p4"));
    CHECK_OK(drumlin_results_get_rows(results, 4, 10, buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 2 && has_text(buffer, size, "p5") && has_text(buffer, size, "p6") && !has_text(buffer, size, "p7"));
    /* The next read is of the results as they are now. */
    CHECK_OK(drumlin_results_get_rows(results, 4, 10, buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 3 && has_text(buffer, size, "p7"));
    drumlin_results_release(results);
    drumlin_close(writer);
    drumlin_close(reader);
    remove(path);
}

/* The keyed form writes each row's object key, in the results' order, also for a page that did
   not fit, and reads the same rows as drumlin_results_get_rows. */
static void test_a_keyed_page_holds_the_object_keys_of_its_rows(void) {
    drumlin_db *db = fresh();
    const char *names[] = {"p1", "p2", "p3", "p4", "p5"};
    for (int64_t id = 1; id <= 5; id++) add_plain(db, id, names[id - 1]);
    drumlin_results *results = NULL;
    REQUIRE_OK(drumlin_query(db, "Plain", "id > 1 SORT(id DESC)", NULL, &results));
    unsigned char buffer[512], plain_rows[512];
    size_t size = 0, plain_size = 0;
    int64_t keys[4] = {-1, -1, -1, -1};
    CHECK_OK(drumlin_results_get_rows_keyed(results, 0, 3, keys, buffer, 8, &size));
    CHECK(size > 8 && keys[3] == -1);
    for (int i = 0; i < 3; i++) {
        int64_t position = -2;
        CHECK_OK(drumlin_results_index_of_key(results, keys[i], &position));
        CHECK(position == i);
    }
    int64_t again[4] = {-1, -1, -1, -1};
    CHECK_OK(drumlin_results_get_rows_keyed(results, 0, 3, again, buffer, sizeof buffer, &size));
    CHECK(memcmp(again, keys, sizeof keys) == 0);
    CHECK(buffer[1] == 3 && has_text(buffer, size, "p5") && has_text(buffer, size, "p3") && !has_text(buffer, size, "p2"));
    CHECK_OK(drumlin_results_get_rows(results, 0, 3, plain_rows, sizeof plain_rows, &plain_size));
    CHECK(plain_size == size && memcmp(plain_rows, buffer, size) == 0);
    /* The last page: as many keys as rows. */
    int64_t last[4] = {-1, -1, -1, -1};
    CHECK_OK(drumlin_results_get_rows_keyed(results, 3, 4, last, buffer, sizeof buffer, &size));
    CHECK(buffer[1] == 1 && has_text(buffer, size, "p2") && last[1] == -1);
    int64_t position = -2;
    CHECK_OK(drumlin_results_index_of_key(results, last[0], &position));
    CHECK(position == 3);
    CHECK_ERR(drumlin_results_get_rows_keyed(results, 0, 3, NULL, buffer, sizeof buffer, &size), DRUMLIN_ERR_MISUSE);
    drumlin_results_release(results);
    drumlin_close(db);
}

static void test_set_by_key_writes_and_reports_errors(void) {
    drumlin_db *db = fresh();
    add_plain(db, 1, "Ann");
    int32_t plain = class_index(db, "Plain");
    drumlin_value value = v_int(40);
    CHECK_ERR(drumlin_object_set_by_key(db, plain, 1, prop(db, "Plain", "age"), &value), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_set_by_key(db, plain, 1, prop(db, "Plain", "age"), &value));
    CHECK(count_of(db, "Plain", "age == 40", NULL) == 1);
    CHECK_FAILS(drumlin_object_set_by_key(db, plain, 2, prop(db, "Plain", "age"), &value), DRUMLIN_ERR_INVALIDATED_OBJECT,
                "invalidated or deleted");
    drumlin_value text = v_str("x");
    CHECK_FAILS(drumlin_object_set_by_key(db, plain, 1, prop(db, "Plain", "age"), &text), DRUMLIN_ERR_TYPE_MISMATCH,
                "Plain.age");
    drumlin_value id = v_int(5);
    CHECK_ERR(drumlin_object_set_by_key(db, plain, 1, prop(db, "Plain", "id"), &id), DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE);
    REQUIRE_OK(drumlin_commit(db));
    drumlin_close(db);
}

/* The record form: filled once, reused with another key and value, the same errors. */
static void test_write_by_key_takes_one_record_reused_per_write(void) {
    drumlin_db *db = fresh();
    add_plain(db, 1, "Ann");
    add_plain(db, 2, "Bob");
    drumlin_key_write write = {db, class_index(db, "Plain"), prop(db, "Plain", "age"), 1, v_int(40)};
    CHECK_ERR(drumlin_object_write_by_key(&write), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_write_by_key(&write));
    write.key = 2;
    write.value = v_int(41);
    CHECK_OK(drumlin_object_write_by_key(&write));
    CHECK(count_of(db, "Plain", "age == 40 AND name == 'Ann'", NULL) == 1);
    CHECK(count_of(db, "Plain", "age == 41 AND name == 'Bob'", NULL) == 1);
    write.key = 3;
    CHECK_FAILS(drumlin_object_write_by_key(&write), DRUMLIN_ERR_INVALIDATED_OBJECT, "invalidated or deleted");
    write.key = 1;
    write.value = v_str("x");
    CHECK_FAILS(drumlin_object_write_by_key(&write), DRUMLIN_ERR_TYPE_MISMATCH, "Plain.age");
    write.value = v_int(42);
    write.property_index = 99;
    CHECK_ERR(drumlin_object_write_by_key(&write), DRUMLIN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(drumlin_commit(db));
    /* A failed write changed nothing. */
    CHECK(count_of(db, "Plain", "age == 40", NULL) == 1);
    drumlin_close(db);
}

static void test_read_marshal_reads_collections_and_mixed_values_by_object_key(void) {
    drumlin_db *db = fresh();
    drumlin_object *object = NULL;
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_create_json(db, "Tagged", "{\"code\": \"t1\", \"n\": 1, \"tags\": [\"red\", \"blue\"], "
                                          "\"extra\": \"mixed-text\"}", DRUMLIN_UPDATE_NEVER, &object));
    REQUIRE_OK(drumlin_commit(db));
    int64_t key = 0;
    REQUIRE_OK(drumlin_object_key(object, &key));
    int32_t tagged = class_index(db, "Tagged");
    int32_t idx[2] = {prop(db, "Tagged", "tags"), prop(db, "Tagged", "extra")};
    unsigned char buffer[512];
    size_t size = 0;
    CHECK_OK(drumlin_object_read_marshal(db, tagged, key, 2, idx, buffer, sizeof buffer, &size));
    /* A dict ('{') of the two values: the list's strings and the mixed value's. */
    CHECK(size > 1 && buffer[0] == '{' && buffer[size - 1] == '0');
    CHECK(has_text(buffer, size, "red") && has_text(buffer, size, "blue") && has_text(buffer, size, "mixed-text"));
    /* Too small a buffer: the size needed. */
    size_t needed = size;
    CHECK_OK(drumlin_object_read_marshal(db, tagged, key, 2, idx, buffer, 3, &size));
    CHECK(size == needed);
    int32_t bad = 99;
    CHECK_FAILS(drumlin_object_read_marshal(db, tagged, key, 1, &bad, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "99");
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_delete(object));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_ERR(drumlin_object_read_marshal(db, tagged, key, 2, idx, buffer, sizeof buffer, &size), DRUMLIN_ERR_INVALIDATED_OBJECT);
    CHECK_ERR(drumlin_object_read_marshal(db, 99, key, 2, idx, buffer, sizeof buffer, &size), DRUMLIN_ERR_INVALID_ARGUMENT);
    drumlin_object_release(object);
    drumlin_close(db);
}

/* Whether the marshal bytes hold `pattern` (n bytes) anywhere. */
static int has_bytes(const unsigned char *bytes, size_t size, const char *pattern, size_t n) {
    for (size_t i = 0; i + n <= size; i++) {
        if (memcmp(bytes + i, pattern, n) == 0) return 1;
    }
    return 0;
}

static void test_rows_hold_mixed_values_and_embedded_objects(void) {
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(":memory:",
                            "[{\"name\": \"Task\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\","
                            " \"extra\": \"mixed\", \"tags\": \"string[]\", \"place\": \"Place\"}},"
                            " {\"name\": \"Place\", \"embedded\": true, \"properties\": {\"city\": \"string\","
                            " \"note\": \"mixed\"}}]",
                            NULL, &db));
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Task", "{\"id\": 1, \"extra\": \"mixed-text\", \"tags\": [\"red\"],"
                                   " \"place\": {\"city\": \"Oslo\", \"note\": \"inner-note\"}}",
                                   DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Task", "{\"id\": 2, \"extra\": [1, 2]}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Task", "{\"id\": 3, \"extra\": {\"k\": 1}}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    int32_t task = class_index(db, "Task");
    unsigned char buffer[512];
    size_t size = 0;
    drumlin_value pk = v_int(1);
    /* (id, extra, tags, place, key): the mixed scalar in place, the short list as its items, the
       embedded object as (DRUMLIN_TYPE_LINK, class, key, its row (city, note, key)). */
    CHECK_OK(drumlin_object_find_row(db, task, &pk, buffer, sizeof buffer, &size));
    CHECK(buffer[0] == ')' && buffer[1] == 5);
    CHECK(has_text(buffer, size, "mixed-text") && has_text(buffer, size, "Oslo") && has_text(buffer, size, "inner-note"));
    CHECK(has_bytes(buffer, size, ")\x04i\x0a\0\0\0", 7)); /* the link, with a fourth item */
    CHECK(has_bytes(buffer, size, ")\x03", 2));                /* the embedded row: three items */
    CHECK(has_text(buffer, size, "red"));
    /* A nested list or dictionary is marked, not read: (DRUMLIN_TYPE_LIST,), (DRUMLIN_TYPE_DICTIONARY,). */
    pk = v_int(2);
    CHECK_OK(drumlin_object_find_row(db, task, &pk, buffer, sizeof buffer, &size));
    CHECK(has_bytes(buffer, size, ")\x01i\x0c\0\0\0", 7));
    pk = v_int(3);
    CHECK_OK(drumlin_object_find_row(db, task, &pk, buffer, sizeof buffer, &size));
    CHECK(has_bytes(buffer, size, ")\x01i\x0d\0\0\0", 7));
    /* Rows of results: the mixed values the same, the embedded object as a link only. */
    drumlin_results *results = NULL;
    REQUIRE_OK(drumlin_query(db, "Task", "TRUEPREDICATE", NULL, &results));
    CHECK_OK(drumlin_results_get_rows(results, 0, 10, buffer, sizeof buffer, &size));
    CHECK(buffer[0] == '[' && buffer[1] == 3 && has_text(buffer, size, "mixed-text"));
    CHECK(!has_text(buffer, size, "Oslo") && has_bytes(buffer, size, ")\x03i\x0a\0\0\0", 7));
    CHECK(!has_text(buffer, size, "red"));
    CHECK(has_bytes(buffer, size, ")\x01i\x0c\0\0\0", 7) && has_bytes(buffer, size, ")\x01i\x0d\0\0\0", 7));
    drumlin_results_release(results);
    /* One list read by key: its items; an empty list; a deleted object is invalidated. */
    int32_t tags = prop(db, "Task", "tags");
    int64_t key1 = 0, key2 = 0;
    drumlin_object *object = NULL;
    pk = v_int(1);
    REQUIRE_OK(drumlin_object_find(db, "Task", &pk, &object));
    REQUIRE_OK(drumlin_object_key(object, &key1));
    drumlin_object_release(object);
    pk = v_int(2);
    REQUIRE_OK(drumlin_object_find(db, "Task", &pk, &object));
    REQUIRE_OK(drumlin_object_key(object, &key2));
    CHECK_OK(drumlin_object_read_marshal(db, task, key1, 1, &tags, buffer, sizeof buffer, &size));
    CHECK(has_text(buffer, size, "red"));
    CHECK_OK(drumlin_object_read_marshal(db, task, key2, 1, &tags, buffer, sizeof buffer, &size));
    CHECK(has_bytes(buffer, size, "[\0\0\0\0", 5) || has_bytes(buffer, size, "\xdb\0\0\0\0", 5));
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_delete(object));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_FAILS(drumlin_object_read_marshal(db, task, key2, 1, &tags, buffer, sizeof buffer, &size),
                DRUMLIN_ERR_INVALIDATED_OBJECT, "deleted");
    drumlin_object_release(object);
    drumlin_close(db);
}

/* The row of one object carries its linked object's row and its short collections of values: at
   most 16 elements; a longer one is None (read by drumlin_object_read_marshal). Rows of results
   carry neither. */
static void test_a_row_of_one_object_carries_linked_rows_and_short_collections(void) {
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(":memory:",
                            "[{\"name\": \"Task\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\","
                            " \"owner\": \"User\", \"tags\": \"string[]\", \"scores\": \"int{}\"}},"
                            " {\"name\": \"User\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\","
                            " \"name\": \"string\", \"boss\": \"User\"}}]",
                            NULL, &db));
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "User", "{\"id\": 1, \"name\": \"boss-name\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "User", "{\"id\": 2, \"name\": \"ann-name\", \"boss\": 1}",
                                   DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Task", "{\"id\": 1, \"owner\": 2, \"tags\": [\"t0\", \"t1\", \"t2\", \"t3\", "
                                   "\"t4\", \"t5\", \"t6\", \"t7\", \"t8\", \"t9\", \"t10\", \"t11\", \"t12\", \"t13\", "
                                   "\"t14\", \"t15\"], \"scores\": {\"math-key\": 3}}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Task", "{\"id\": 2, \"tags\": [\"u0\", \"u1\", \"u2\", \"u3\", \"u4\", "
                                   "\"u5\", \"u6\", \"u7\", \"u8\", \"u9\", \"u10\", \"u11\", \"u12\", \"u13\", \"u14\", "
                                   "\"u15\", \"u16\"]}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    int32_t task = class_index(db, "Task"), user = class_index(db, "User");
    unsigned char buffer[1024];
    size_t size = 0;
    drumlin_value pk = v_int(1);
    /* (id, owner, tags, scores, key): the owner as (LINK, class, key, its row), whose own link to
       its boss is (LINK, class, key) alone; 16 tags as a list; the dictionary as a dict. */
    CHECK_OK(drumlin_object_find_row(db, task, &pk, buffer, sizeof buffer, &size));
    CHECK(buffer[0] == ')' && buffer[1] == 5);
    CHECK(has_bytes(buffer, size, ")\x04i\x0a\0\0\0", 7) && has_text(buffer, size, "ann-name"));
    CHECK(has_bytes(buffer, size, ")\x03i\x0a\0\0\0", 7) && !has_text(buffer, size, "boss-name"));
    CHECK(has_bytes(buffer, size, "[\x10\0\0\0", 5) && has_text(buffer, size, "t0") && has_text(buffer, size, "t15"));
    CHECK(has_text(buffer, size, "math-key"));
    /* 17 tags: None, and none of them read into the row. */
    pk = v_int(2);
    CHECK_OK(drumlin_object_find_row(db, task, &pk, buffer, sizeof buffer, &size));
    CHECK(!has_text(buffer, size, "u0") && !has_text(buffer, size, "u16"));
    /* A row read by object key carries the same: the user's row carries its boss's. */
    drumlin_object *ann = NULL;
    drumlin_value pk_user = v_int(2);
    REQUIRE_OK(drumlin_object_find(db, "User", &pk_user, &ann));
    int64_t ann_key = 0;
    REQUIRE_OK(drumlin_object_key(ann, &ann_key));
    drumlin_object_release(ann);
    CHECK_OK(drumlin_object_read_row(db, user, ann_key, buffer, sizeof buffer, &size));
    CHECK(has_text(buffer, size, "ann-name") && has_text(buffer, size, "boss-name"));
    CHECK(has_bytes(buffer, size, ")\x04i\x0a\0\0\0", 7));
    /* Rows of results: links alone, no collections. */
    drumlin_results *results = NULL;
    REQUIRE_OK(drumlin_query(db, "Task", "TRUEPREDICATE", NULL, &results));
    CHECK_OK(drumlin_results_get_rows(results, 0, 10, buffer, sizeof buffer, &size));
    CHECK(buffer[0] == '[' && buffer[1] == 2);
    CHECK(!has_text(buffer, size, "ann-name") && !has_text(buffer, size, "t0") && !has_text(buffer, size, "math-key"));
    drumlin_results_release(results);
    REQUIRE_OK(drumlin_close(db));
}

int main(void) {
    test_read_version_moves_on_commit_rollback_and_writes();
    test_read_version_sees_another_connections_commit_at_the_next_read();
    test_each_read_sees_commits_made_before_it_through_a_held_read();
    test_rows_by_primary_key_key_results_and_query();
    test_a_page_read_again_into_a_larger_buffer_is_the_same_page();
    test_a_keyed_page_holds_the_object_keys_of_its_rows();
    test_set_by_key_writes_and_reports_errors();
    test_write_by_key_takes_one_record_reused_per_write();
    test_read_marshal_reads_collections_and_mixed_values_by_object_key();
    test_rows_hold_mixed_values_and_embedded_objects();
    test_a_row_of_one_object_carries_linked_rows_and_short_collections();
    return check_report("rows");
}
