/*
 * read_values.c — values read by property index without an object handle per object:
 * drumlin_object_find_values reads the row in place and lends strings from a per-handle arena;
 * drumlin_object_find_marshal and drumlin_query_marshal read packed; drumlin_results_get_values
 * reads results a page at a time.
 */
#include "typed_fixtures.h"

/*---- drumlin_object_find_values ------------------------------------------------------------------*/

enum { WIDE = 6, BIG = 10000 };

static void fill_big(char *buffer, size_t size, int seed) {
    for (size_t i = 0; i < size; i++) buffer[i] = (char)('a' + (int)((i * 7 + (size_t)seed * 13) % 26));
    /* a multi-byte character in the middle, so the bytes are not all ASCII */
    memcpy(buffer + size / 2, "\xc3\xa9", 2);
}

static void write_wide(drumlin_db *db, const int32_t *idx, int64_t id, char big[WIDE][BIG], int small, int seed) {
    drumlin_value pk = v_int(id);
    drumlin_value values[WIDE];
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
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_values(db, "Wide", &pk, WIDE, idx + 1, values));
    REQUIRE_OK(drumlin_commit(db));
}

/* The strings s0..s5 in out[1..6]: "s<p>-<seed>" when small, else big[p]. */
static void check_wide_(const drumlin_value *out, char big[WIDE][BIG], int small, int seed, int line) {
    int before_ = __atomic_load_n(&check_failures, __ATOMIC_RELAXED);
    for (int p = 0; p < WIDE; p++) {
        CHECK(out[1 + p].type == DRUMLIN_TYPE_STRING);
        if (out[1 + p].type != DRUMLIN_TYPE_STRING) continue;
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
    drumlin_db *db = fresh();
    static char big[WIDE][BIG];
    static char big2[WIDE][BIG];
    const char *names[WIDE + 1] = {"id", "s0", "s1", "s2", "s3", "s4", "s5"};
    int32_t idx[WIDE + 1];
    drumlin_value out[WIDE + 1];
    drumlin_value pk1 = v_int(1), pk2 = v_int(2);

    for (int p = 0; p <= WIDE; p++) idx[p] = prop(db, "Wide", names[p]);
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Wide", "{\"id\": 1, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Wide", "{\"id\": 2, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));

    for (int round = 0; round < 6; round++) {
        int small = round % 2;
        write_wide(db, idx, 1, big, small, round);
        write_wide(db, idx, 2, big2, !small, round + 100);
        for (int repeat = 0; repeat < 3; repeat++) {
            memset(out, 0xAB, sizeof out);
            CHECK_OK(drumlin_object_find_values(db, "Wide", &pk1, WIDE + 1, idx, out, NULL));
            CHECK(out[0].type == DRUMLIN_TYPE_INT && out[0].as.integer == 1);
            check_wide(out, big, small, round);
            memset(out, 0xAB, sizeof out);
            CHECK_OK(drumlin_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, out, NULL));
            check_wide(out, big2, !small, round + 100);
        }
        /* The same property several times in one call: each value is its own copy. */
        {
            int32_t same[4] = {idx[1], idx[1], idx[6], idx[1]};
            drumlin_value four[4];
            CHECK_OK(drumlin_object_find_values(db, "Wide", &pk1, 4, same, four, NULL));
            for (int i = 0; i < 4; i++) CHECK(four[i].type == DRUMLIN_TYPE_STRING);
            if (!small) {
                CHECK(four[0].as.string.size == BIG && memcmp(four[0].as.string.data, big[0], BIG) == 0);
                CHECK(four[1].as.string.size == BIG && memcmp(four[1].as.string.data, big[0], BIG) == 0);
                CHECK(four[2].as.string.size == BIG && memcmp(four[2].as.string.data, big[5], BIG) == 0);
                CHECK(four[3].as.string.size == BIG && memcmp(four[3].as.string.data, big[0], BIG) == 0);
            }
        }
    }
    CHECK_OK(drumlin_close(db));
}

/* Values borrowed with out_object stay valid until the next call on that object handle. */
static void test_find_values_borrowed_by_object(void) {
    drumlin_db *db = fresh();
    static char big[WIDE][BIG];
    static char big2[WIDE][BIG];
    const char *names[WIDE + 1] = {"id", "s0", "s1", "s2", "s3", "s4", "s5"};
    int32_t idx[WIDE + 1];
    drumlin_value first[WIDE + 1], second[WIDE + 1], scratch[WIDE + 1];
    drumlin_value pk1 = v_int(1), pk2 = v_int(2), pk3 = v_int(3);
    drumlin_object *o1 = NULL, *o2 = NULL, *none = (drumlin_object *)&pk3;
    int64_t key = -1;
    char *json = NULL;

    for (int p = 0; p <= WIDE; p++) idx[p] = prop(db, "Wide", names[p]);
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Wide", "{\"id\": 1, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Wide", "{\"id\": 2, \"s0\": \"\", \"s1\": \"\", \"s2\": \"\", \"s3\": \"\","
                                             " \"s4\": \"\", \"s5\": \"\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    write_wide(db, idx, 1, big, 0, 1);
    write_wide(db, idx, 2, big2, 0, 2);

    CHECK_OK(drumlin_object_find_values(db, "Wide", &pk1, WIDE + 1, idx, first, &o1));
    REQUIRE(o1 != NULL);
    check_wide(first, big, 0, 1);
    /* Calls on the database handle (including find_values lending from the database handle)
     * and on another object handle leave the first object's values alone. */
    CHECK_OK(drumlin_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, scratch, NULL));
    check_wide(scratch, big2, 0, 2);
    CHECK_OK(drumlin_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, second, &o2));
    REQUIRE(o2 != NULL);
    CHECK_OK(drumlin_get_json(db, "Wide", "2", &json));
    drumlin_free(json);
    CHECK_OK(drumlin_object_find_values(db, "Wide", &pk2, WIDE + 1, idx, scratch, NULL));
    check_wide(first, big, 0, 1);
    check_wide(second, big2, 0, 2);
    /* The next call on o2 replaces o2's values; o1's are still intact. */
    CHECK_OK(drumlin_object_get_values(o2, WIDE + 1, idx, scratch));
    check_wide(scratch, big2, 0, 2);
    check_wide(first, big, 0, 1);
    /* A write in between (through another path) does not change what was lent. */
    write_wide(db, idx, 1, big2, 1, 9);
    check_wide(first, big, 0, 1);
    CHECK_OK(drumlin_object_get_values(o1, WIDE + 1, idx, scratch));
    check_wide(scratch, big2, 1, 9);
    CHECK_OK(drumlin_object_key(o1, &key));
    CHECK(key >= 1);

    /* Not found: DRUMLIN_NOT_FOUND, *out_object = NULL, and no error set. */
    CHECK_RC(drumlin_object_find_values(db, "Wide", &pk3, WIDE + 1, idx, scratch, &none), DRUMLIN_NOT_FOUND);
    CHECK(none == NULL);
    CHECK_RC(drumlin_last_error_code(), DRUMLIN_OK);
    drumlin_object_release(o1);
    drumlin_object_release(o2);
    CHECK_OK(drumlin_close(db));
}

/* find_values on the general path (links, lists) and with an optional primary key. */
static void test_find_values_other_shapes(void) {
    drumlin_db *db = fresh();
    int32_t tagged[4] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "n"), prop(db, "Tagged", "next"),
                         prop(db, "Tagged", "extra")};
    int32_t maybe[2] = {prop(db, "MaybeKey", "id"), prop(db, "MaybeKey", "n")};
    int32_t tagged_class = -1;
    drumlin_value a = v_str("a"), b_code = v_str("b"), null_pk = v_null(), out[4];
    drumlin_object *b = NULL, *obj = NULL;
    int64_t b_key = -1;

    REQUIRE_OK(drumlin_class_index(db, "Tagged", &tagged_class));
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_object_create_json(db, "Tagged", "{\"code\": \"b\", \"n\": 2}", DRUMLIN_UPDATE_NEVER, &b));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"a\", \"n\": 1, \"next\": \"b\", \"extra\": \"mixed text\"}",
                                 DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "MaybeKey", "{\"id\": null, \"n\": 9}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE_OK(drumlin_object_key(b, &b_key));

    memset(out, 0xAB, sizeof out);
    CHECK_OK(drumlin_object_find_values(db, "Tagged", &a, 4, tagged, out, &obj));
    CHECK_VSTR(out[0], "a");
    CHECK(out[1].type == DRUMLIN_TYPE_INT && out[1].as.integer == 1);
    CHECK(out[2].type == DRUMLIN_TYPE_LINK && out[2].as.link.class_index == tagged_class && out[2].as.link.key == b_key);
    CHECK_VSTR(out[3], "mixed text");
    CHECK(obj != NULL);
    drumlin_object_release(obj);
    /* Without the mixed property the row is read in place, links included. */
    memset(out, 0xAB, sizeof out);
    CHECK_OK(drumlin_object_find_values(db, "Tagged", &a, 3, tagged, out, NULL));
    CHECK_VSTR(out[0], "a");
    CHECK(out[1].type == DRUMLIN_TYPE_INT && out[1].as.integer == 1);
    CHECK(out[2].type == DRUMLIN_TYPE_LINK && out[2].as.link.class_index == tagged_class && out[2].as.link.key == b_key);
    memset(out, 0xAB, sizeof out);
    CHECK_OK(drumlin_object_find_values(db, "Tagged", &b_code, 3, tagged, out, NULL));
    CHECK_VSTR(out[0], "b");
    CHECK(out[2].type == DRUMLIN_TYPE_NULL);

    memset(out, 0xAB, sizeof out);
    CHECK_OK(drumlin_object_find_values(db, "MaybeKey", &null_pk, 2, maybe, out, NULL));
    CHECK(out[0].type == DRUMLIN_TYPE_NULL);
    CHECK(out[1].type == DRUMLIN_TYPE_INT && out[1].as.integer == 9);
    drumlin_object_release(b);
    CHECK_OK(drumlin_close(db));
}

/* A property name in packed values: marshal's short ASCII string with the reference flag. */
#define NAME ('z' | 0x80)

/* find_marshal: the packed bytes of a row, the same as get_marshal's; NOT_FOUND; the buffer
 * protocol with a buffer too small; values marshal has no type for, as tagged tuples; bad arguments. */
static void test_find_marshal(void) {
    drumlin_db *db = fresh();
    int32_t named[3] = {prop(db, "Named", "key"), prop(db, "Named", "v"), prop(db, "Named", "label")};
    int32_t special[2] = {prop(db, "Special", "id"), prop(db, "Special", "when")};
    char label[1500];
    memset(label, 'x', sizeof label - 1);
    label[sizeof label - 1] = '\0';
    char json[2048];
    snprintf(json, sizeof json, "{\"key\": \"k2\", \"v\": -70000, \"label\": \"%s\"}", label);
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"k1\", \"v\": 7}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Named", json, DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Special", "{\"id\": 1, \"dec\": {\"$numberDecimal\": \"1.5\"}, \"when\": {\"$date\": \"2024-01-02T03:04:05Z\"}, "
                                 "\"oid\": {\"$oid\": \"507f1f77bcf86cd799439011\"}, \"n\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));

    /* {"key": "k1", "v": 7, "label": None} in marshal: a dict, each name a short ASCII string
     * written with marshal's reference flag ('z' | 0x80, its length, its bytes), then '0'. */
    static const unsigned char want[] = {'{', NAME, 3, 'k', 'e', 'y', 'u', 2, 0, 0, 0, 'k', '1', NAME, 1, 'v', 'i', 7, 0, 0, 0,
                                         NAME, 5, 'l', 'a', 'b', 'e', 'l', 'N', '0'};
    unsigned char packed[64], again[64];
    size_t size = 99, again_size = 99;
    drumlin_value k1 = v_str("k1"), k2 = v_str("k2"), missing = v_str("nope");
    CHECK_OK(drumlin_object_find_marshal(db, "Named", &k1, 3, named, packed, sizeof packed, &size));
    CHECK(size == sizeof want);
    CHECK(memcmp(packed, want, sizeof want) == 0);
    drumlin_object *obj = NULL;
    REQUIRE_OK(drumlin_object_find(db, "Named", &k1, &obj));
    CHECK_OK(drumlin_object_get_marshal(obj, 3, named, again, sizeof again, &again_size));
    CHECK(again_size == size && memcmp(again, packed, size) == 0);
    drumlin_object_release(obj);

    /* No such object: NOT_FOUND, size 0, no error. */
    size = 99;
    CHECK(drumlin_object_find_marshal(db, "Named", &missing, 3, named, packed, sizeof packed, &size) == DRUMLIN_NOT_FOUND);
    CHECK(size == 0);
    CHECK(drumlin_last_error_code() == DRUMLIN_OK);

    /* Too small: the full size is reported; a buffer of that size gets all of it. */
    size_t need = 0;
    CHECK_OK(drumlin_object_find_marshal(db, "Named", &k2, 3, named, NULL, 0, &need));
    CHECK(need == 1 + 5 + 7 + 3 + 5 + 7 + 5 + (sizeof label - 1) + 1);
    unsigned char *big = malloc(need);
    REQUIRE(big != NULL);
    CHECK_OK(drumlin_object_find_marshal(db, "Named", &k2, 3, named, big, 4, &size));
    CHECK(size == need);
    CHECK_OK(drumlin_object_find_marshal(db, "Named", &k2, 3, named, big, need, &size));
    CHECK(size == need);
    /* -70000 fits an int32: marshal's 'i' and four bytes, little endian. */
    CHECK(big[16] == 'i');
    int32_t v = 0;
    memcpy(&v, big + 17, 4);
    CHECK(v == -70000);
    CHECK(big[28] == 'u' && memcmp(big + 33, label, sizeof label - 1) == 0 && big[need - 1] == '0');
    free(big);

    /* A date is (DRUMLIN_TYPE_TIMESTAMP, seconds, nanoseconds): {"id": 1, "when": (5, 1704164645, 0)}. */
    drumlin_value one = v_int(1);
    CHECK_OK(drumlin_object_find_marshal(db, "Special", &one, 2, special, packed, sizeof packed, &size));
    static const unsigned char dated[] = {'{', NAME, 2, 'i', 'd', 'i', 1, 0, 0, 0, NAME, 4, 'w', 'h', 'e', 'n',
                                          ')', 3, 'i', DRUMLIN_TYPE_TIMESTAMP, 0, 0, 0,
                                          'i', 0x25, 0x7D, 0x93, 0x65, 'i', 0, 0, 0, 0, '0'};
    CHECK(size == sizeof dated && memcmp(packed, dated, sizeof dated) == 0);
    CHECK_OK(drumlin_object_find_marshal(db, "Special", &one, 1, special, packed, sizeof packed, &size));
    CHECK(size == 11 && packed[5] == 'i' && packed[6] == 1 && packed[10] == '0');

    /* Bad arguments: unknown class, index out of range, wrong key type, negative capacity. */
    CHECK_FAILS(drumlin_object_find_marshal(db, "Nobody", &k1, 3, named, packed, sizeof packed, &size),
                DRUMLIN_ERR_NO_SUCH_CLASS, "Nobody");
    int32_t bad[1] = {42};
    CHECK_FAILS(drumlin_object_find_marshal(db, "Named", &k1, 1, bad, packed, sizeof packed, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "Property index 42 is out of range for 'Named'");
    CHECK_FAILS(drumlin_object_find_marshal(db, "Named", &one, 3, named, packed, sizeof packed, &size),
                DRUMLIN_ERR_TYPE_MISMATCH, "Named.key");
    CHECK_OK(drumlin_close(db));
}

/* Named "b" (v 2) and "a" (v 1), created in that order, then "c" (v 3) when `with_c`; one Special
 * object with values marshal cannot carry. */
static void fill_named_and_special(drumlin_db *db, int with_c) {
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"b\", \"v\": 2}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"a\", \"v\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    if (with_c) REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"c\", \"v\": 3}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Special", "{\"id\": 1, \"dec\": {\"$numberDecimal\": \"1\"}, \"when\": {\"$date\": \"2024-01-02T03:04:05Z\"}, "
                                 "\"oid\": {\"$oid\": \"507f1f77bcf86cd799439011\"}, \"n\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
}

/* query_marshal: the same bytes as drumlin_query + drumlin_results_get_marshal; an empty list;
 * the buffer protocol; errors. */
static void test_query_marshal(void) {
    drumlin_db *db = fresh();
    int32_t named[2] = {prop(db, "Named", "key"), prop(db, "Named", "v")};
    int32_t special[1] = {prop(db, "Special", "when")};
    fill_named_and_special(db, 1);

    unsigned char packed[128], again[128];
    size_t size = 0, again_size = 0;
    CHECK_OK(drumlin_query_marshal(db, "Named", "v >= $0", "[2]", 2, named, packed, sizeof packed, &size));
    /* [{"key": "b", "v": 2}, {"key": "c", "v": 3}] in creation order: list header, then two dicts,
     * the second naming its keys by reference to the first's ('r' and the name's index). */
    static const unsigned char want[] = {'[', 2, 0, 0, 0, '{', NAME, 3, 'k', 'e', 'y', 'u', 1, 0, 0, 0, 'b',
                                         NAME, 1, 'v', 'i', 2, 0, 0, 0, '0',
                                         '{', 'r', 0, 0, 0, 0, 'u', 1, 0, 0, 0, 'c', 'r', 1, 0, 0, 0, 'i', 3, 0, 0, 0, '0'};
    CHECK(size == sizeof want);
    CHECK(memcmp(packed, want, sizeof want) == 0);
    drumlin_results *results = NULL;
    REQUIRE_OK(drumlin_query(db, "Named", "v >= $0", "[2]", &results));
    CHECK_OK(drumlin_results_get_marshal(results, 2, named, again, sizeof again, &again_size));
    CHECK(again_size == size && memcmp(again, packed, size) == 0);
    drumlin_results_release(results);

    /* Every object (NULL query), an empty result, a buffer too small. */
    CHECK_OK(drumlin_query_marshal(db, "Named", NULL, NULL, 1, named, packed, sizeof packed, &size));
    CHECK(size == 5 + 3 * 13 && packed[1] == 3 && packed[16] == 'b' && packed[29] == 'a' && packed[42] == 'c');
    CHECK_OK(drumlin_query_marshal(db, "Named", "v > 9", NULL, 2, named, packed, sizeof packed, &size));
    CHECK(size == 5 && memcmp(packed, "[\0\0\0\0", 5) == 0);
    CHECK_OK(drumlin_query_marshal(db, "Named", "TRUEPREDICATE", NULL, 2, named, packed, 3, &size));
    CHECK(size == 5 + 21 + 2 * 23);

    CHECK_FAILS(drumlin_query_marshal(db, "Named", "v >", NULL, 2, named, packed, sizeof packed, &size),
                DRUMLIN_ERR_QUERY, "Invalid predicate: 'v >'");
    CHECK(size == 0);
    CHECK_FAILS(drumlin_query_marshal(db, "Named", "v == $0", "[1", 2, named, packed, sizeof packed, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "args_json: Invalid JSON");
    CHECK_FAILS(drumlin_query_marshal(db, "Nobody", "TRUEPREDICATE", NULL, 2, named, packed, sizeof packed, &size),
                DRUMLIN_ERR_NO_SUCH_CLASS, "Nobody");
    /* [{"when": (DRUMLIN_TYPE_TIMESTAMP, 1704164645, 0)}] */
    CHECK_OK(drumlin_query_marshal(db, "Special", "TRUEPREDICATE", NULL, 1, special, packed, sizeof packed, &size));
    static const unsigned char dated[] = {'[', 1, 0, 0, 0, '{', NAME, 4, 'w', 'h', 'e', 'n',
                                          ')', 3, 'i', DRUMLIN_TYPE_TIMESTAMP, 0, 0, 0,
                                          'i', 0x25, 0x7D, 0x93, 0x65, 'i', 0, 0, 0, 0, '0'};
    CHECK(size == sizeof dated && memcmp(packed, dated, sizeof dated) == 0);
    CHECK_OK(drumlin_close(db));
}

/* A query text run before with arguments of the same types reads through its shared statement
 * (no results object): the same bytes as the general path, for new arguments and after writes. */
static void test_query_marshal_repeated(void) {
    drumlin_db *db = fresh();
    int32_t named[2] = {prop(db, "Named", "key"), prop(db, "Named", "v")};
    int32_t special[1] = {prop(db, "Special", "when")};
    fill_named_and_special(db, 0);

    unsigned char packed[128];
    size_t size = 0;
    static const unsigned char only_a[] = {'[', 1, 0, 0, 0, '{', NAME, 3, 'k', 'e', 'y', 'u', 1, 0, 0, 0, 'a',
                                           NAME, 1, 'v', 'i', 1, 0, 0, 0, '0'};
    static const unsigned char only_b[] = {'[', 1, 0, 0, 0, '{', NAME, 3, 'k', 'e', 'y', 'u', 1, 0, 0, 0, 'b',
                                           NAME, 1, 'v', 'i', 2, 0, 0, 0, '0'};
    for (int round = 0; round < 3; round++) {
        CHECK_OK(drumlin_query_marshal(db, "Named", "key == $0", "[\"a\"]", 2, named, packed, sizeof packed, &size));
        CHECK(size == sizeof only_a && memcmp(packed, only_a, sizeof only_a) == 0);
        CHECK_OK(drumlin_query_marshal(db, "Named", "key == $0", "[\"b\"]", 2, named, packed, sizeof packed, &size));
        CHECK(size == sizeof only_b && memcmp(packed, only_b, sizeof only_b) == 0);
    }
    CHECK_OK(drumlin_query_marshal(db, "Named", "key == $0", "[\"zz\"]", 2, named, packed, sizeof packed, &size));
    CHECK(size == 5 && memcmp(packed, "[\0\0\0\0", 5) == 0);
    /* A buffer too small reports the size needed, as on the general path. */
    CHECK_OK(drumlin_query_marshal(db, "Named", "key == $0", "[\"a\"]", 2, named, packed, 4, &size));
    CHECK(size == sizeof only_a);
    /* Writes are seen. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"a2\", \"v\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_query_marshal(db, "Named", "v == $0", "[1]", 1, named, packed, sizeof packed, &size));
    CHECK_OK(drumlin_query_marshal(db, "Named", "v == $0", "[1]", 1, named, packed, sizeof packed, &size));
    /* [{"key": "a"}, {"key": "a2"}]: the second dict names "key" by reference. */
    CHECK(size == 5 + 13 + 14 && packed[1] == 2 && packed[16] == 'a' && packed[19] == 'r' && packed[29] == 'a' &&
          packed[30] == '2');
    /* Errors on a repeated text are the general path's. */
    int32_t bad[1] = {99};
    CHECK_FAILS(drumlin_query_marshal(db, "Named", "key == $0", "[\"a\"]", 1, bad, packed, sizeof packed, &size),
                DRUMLIN_ERR_INVALID_ARGUMENT, "Property index 99 is out of range for 'Named'");
    CHECK_FAILS(drumlin_query_marshal(db, "Named", "key == $0", "[1]", 2, named, packed, sizeof packed, &size),
                DRUMLIN_ERR_QUERY, "Unsupported comparison");
    for (int round = 0; round < 2; round++) {  /* a date: (DRUMLIN_TYPE_TIMESTAMP, seconds, nanoseconds) */
        CHECK_OK(drumlin_query_marshal(db, "Special", "n == $0", "[1]", 1, special, packed, sizeof packed, &size));
        CHECK(size == 5 + 1 + 6 + 17 + 1 && packed[12] == ')' && packed[13] == 3 && packed[15] == DRUMLIN_TYPE_TIMESTAMP);
        int32_t seconds = 0;
        memcpy(&seconds, packed + 20, 4);
        CHECK(seconds == 1704164645);
    }
    CHECK_OK(drumlin_query_marshal(db, "Named", "key == $0", "[\"b\"]", 2, named, packed, sizeof packed, &size));
    CHECK(size == sizeof only_b && memcmp(packed, only_b, sizeof only_b) == 0);
    CHECK_OK(drumlin_close(db));
}

/* The C layer remembers, per thread, the property indexes it last converted and the database
 * handle it last found live. Neither may outlive what it stands for: indexes are compared by
 * content (the same array, changed in place, reads the new properties), and a closed handle is
 * refused even by the thread that used it last. */
static void test_per_thread_memos(void) {
    drumlin_db *db = fresh();
    int32_t indices[2] = {prop(db, "Named", "key"), prop(db, "Named", "v")};
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"k1\", \"v\": 7, \"label\": \"L\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    drumlin_value k1 = v_str("k1"), out[2];
    CHECK_OK(drumlin_object_find_values(db, "Named", &k1, 2, indices, out, NULL));
    CHECK(out[0].type == DRUMLIN_TYPE_STRING && out[1].type == DRUMLIN_TYPE_INT && out[1].as.integer == 7);
    indices[0] = prop(db, "Named", "v");  /* same array, same count, new content */
    indices[1] = prop(db, "Named", "label");
    CHECK_OK(drumlin_object_find_values(db, "Named", &k1, 2, indices, out, NULL));
    CHECK(out[0].type == DRUMLIN_TYPE_INT && out[0].as.integer == 7);
    CHECK(out[1].type == DRUMLIN_TYPE_STRING && out[1].as.string.size == 1 && out[1].as.string.data[0] == 'L');
    CHECK_OK(drumlin_object_find_values(db, "Named", &k1, 1, indices, out, NULL));  /* a prefix of it */
    CHECK(out[0].type == DRUMLIN_TYPE_INT && out[0].as.integer == 7);
    drumlin_value eight = v_int(8);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_object_update_values(db, "Named", &k1, 1, indices, &eight));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_close(db));
    /* The handle this thread used last is closed: refused, never taken for live. */
    unsigned char packed[64];
    size_t size = 0;
    CHECK_FAILS(drumlin_object_find_values(db, "Named", &k1, 1, indices, out, NULL), DRUMLIN_ERR_MISUSE,
                "closed or invalid");
    CHECK_FAILS(drumlin_object_find_marshal(db, "Named", &k1, 1, indices, packed, sizeof packed, &size),
                DRUMLIN_ERR_MISUSE, "closed or invalid");
    CHECK_FAILS(drumlin_object_update_values(db, "Named", &k1, 1, indices, &eight), DRUMLIN_ERR_MISUSE,
                "closed or invalid");
    /* A new handle works, and the old one stays refused after it. */
    drumlin_db *other = fresh();
    CHECK_OK(drumlin_query_marshal(other, "Named", "v == $0", "[8]", 1, indices, packed, sizeof packed, &size));
    CHECK(size == 5);
    if (other != db) {
        CHECK_FAILS(drumlin_query_marshal(db, "Named", "v == $0", "[8]", 1, indices, packed, sizeof packed, &size),
                    DRUMLIN_ERR_MISUSE, "closed or invalid");
    }
    CHECK_OK(drumlin_close(other));
}

/*---- drumlin_results_get_values -----------------------------------------------------------------*/

static int str_is(drumlin_value v, const char *want) {
    return v.type == DRUMLIN_TYPE_STRING && v.as.string.size == strlen(want) &&
           memcmp(v.as.string.data, want, v.as.string.size) == 0;
}

/* Typed rows of query results: streamed from position 0, by key elsewhere, the same values
 * either way; borrowed strings live until the next call on the results handle. */
static void test_results_get_values(void) {
    drumlin_db *db = fresh();
    int32_t idx[2] = {prop(db, "Named", "key"), prop(db, "Named", "v")};
    static const char *keys[5] = {"e", "d", "c", "b", "a"};  /* created out of key order */
    REQUIRE_OK(drumlin_begin_write(db));
    for (int i = 0; i < 5; i++) {
        char json[64];
        snprintf(json, sizeof json, "{\"key\": \"%s\", \"v\": %d}", keys[i], i * 10);
        REQUIRE_OK(drumlin_create_json(db, "Named", json, DRUMLIN_UPDATE_NEVER, NULL));
    }
    REQUIRE_OK(drumlin_commit(db));
    drumlin_results *results = NULL;
    REQUIRE_OK(drumlin_query(db, "Named", "v >= $0", "[10]", &results));

    drumlin_value out[2 * 8];
    size_t rows = 99;
    CHECK_OK(drumlin_results_get_values(results, 0, 8, 2, idx, out, &rows));  /* all, streamed */
    CHECK(rows == 4);
    for (size_t r = 0; r < rows && r < 4; r++) {
        CHECK(str_is(out[r * 2], keys[r + 1]));
        CHECK(out[r * 2 + 1].type == DRUMLIN_TYPE_INT && out[r * 2 + 1].as.integer == (int64_t)(r + 1) * 10);
    }
    /* In chunks of 3: rows 0-2 streamed, row 3 by key; then past the end. */
    CHECK_OK(drumlin_results_get_values(results, 0, 3, 2, idx, out, &rows));
    CHECK(rows == 3 && str_is(out[0], "d") && str_is(out[4], "b"));
    CHECK_OK(drumlin_results_get_values(results, 3, 3, 2, idx, out, &rows));
    CHECK(rows == 1 && str_is(out[0], "a") && out[1].as.integer == 40);
    CHECK_OK(drumlin_results_get_values(results, 4, 3, 2, idx, out, &rows));
    CHECK(rows == 0);
    CHECK_OK(drumlin_results_get_values(results, (size_t)1 << 40, 3, 2, idx, out, &rows));
    CHECK(rows == 0);
    /* One property, from the middle; zero rows asked; zero properties (rows still counted). */
    CHECK_OK(drumlin_results_get_values(results, 1, 2, 1, idx + 1, out, &rows));
    CHECK(rows == 2 && out[0].as.integer == 20 && out[1].as.integer == 30);
    CHECK_OK(drumlin_results_get_values(results, 0, 0, 2, idx, NULL, &rows));
    CHECK(rows == 0);
    CHECK_OK(drumlin_results_get_values(results, 0, 10, 0, NULL, NULL, &rows));
    CHECK(rows == 4);
    /* Live: a write is seen by the next read. */
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Named", "{\"key\": \"z\", \"v\": 99}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_results_get_values(results, 4, 8, 2, idx, out, &rows));
    CHECK(rows == 1 && str_is(out[0], "z") && out[1].as.integer == 99);

    /* Errors change nothing and name the problem. */
    int32_t bad[1] = {42};
    CHECK_FAILS(drumlin_results_get_values(results, 0, 1, 1, bad, out, &rows), DRUMLIN_ERR_INVALID_ARGUMENT,
                "Property index 42 is out of range for 'Named'");
    CHECK(rows == 0);
    CHECK_FAILS(drumlin_results_get_values(results, 0, 1, 2, idx, NULL, &rows), DRUMLIN_ERR_MISUSE, "out_values");
    CHECK_FAILS(drumlin_results_get_values(results, 0, 1, 2, idx, out, NULL), DRUMLIN_ERR_MISUSE, "out_rows");
    CHECK_FAILS(drumlin_results_get_values(results, 0, SIZE_MAX / 2, 4, idx, out, &rows), DRUMLIN_ERR_INVALID_ARGUMENT,
                "does not fit");
    drumlin_results_release(results);

    /* A class with collections and links streams from position 0 too (the list read per row). */
    int32_t tagged[2] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "tags")};
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"t1\", \"n\": 1, \"tags\": [\"x\", \"y\"]}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"t2\", \"n\": 2, \"tags\": []}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE_OK(drumlin_query(db, "Tagged", "n > 0", NULL, &results));
    CHECK_OK(drumlin_results_get_values(results, 0, 4, 2, tagged, out, &rows));
    CHECK(rows == 2 && str_is(out[0], "t1") && out[1].type == DRUMLIN_TYPE_LIST && str_is(out[2], "t2"));
    drumlin_results_release(results);

    /* Its link column in pages of one (each continuing the statement), a link whose target is
     * deleted between pages reading as null, and a mixed value. */
    int32_t linked[3] = {prop(db, "Tagged", "code"), prop(db, "Tagged", "next"), prop(db, "Tagged", "extra")};
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"t3\", \"n\": 3, \"next\": \"t1\", \"extra\": 2.5}",
                                   DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Tagged", "{\"code\": \"t4\", \"n\": 4, \"next\": \"t2\", \"extra\": \"e\"}",
                                   DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    int32_t tagged_class = -1;
    REQUIRE_OK(drumlin_class_index(db, "Tagged", &tagged_class));
    REQUIRE_OK(drumlin_query(db, "Tagged", "n >= 2", NULL, &results));
    CHECK_OK(drumlin_results_get_values(results, 0, 1, 3, linked, out, &rows));
    CHECK(rows == 1 && str_is(out[0], "t2") && out[1].type == DRUMLIN_TYPE_NULL && out[2].type == DRUMLIN_TYPE_NULL);
    CHECK_OK(drumlin_results_get_values(results, 1, 1, 3, linked, out, &rows));
    CHECK(rows == 1 && str_is(out[0], "t3") && out[1].type == DRUMLIN_TYPE_LINK && out[1].as.link.class_index == tagged_class);
    CHECK(out[2].type == DRUMLIN_TYPE_DOUBLE && out[2].as.dnum == 2.5);
    int64_t deleted = 0;
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_delete_where(db, "Tagged", "code == 't2'", NULL, &deleted));
    REQUIRE_OK(drumlin_commit(db));
    CHECK(deleted == 1);
    /* After the write the results are [t3, t4]: position 1 is t4, whose target t2 is gone. */
    CHECK_OK(drumlin_results_get_values(results, 1, 1, 3, linked, out, &rows));
    CHECK(rows == 1 && str_is(out[0], "t4") && out[1].type == DRUMLIN_TYPE_NULL && str_is(out[2], "e"));
    CHECK_OK(drumlin_results_get_values(results, 2, 1, 3, linked, out, &rows));
    CHECK(rows == 0);
    drumlin_results_release(results);
    CHECK_OK(drumlin_close(db));
}

/* A whole object in one call by property index: columns read in place, a list through the object
 * (which is then handed back), NOT_FOUND handing back nothing, an unknown index refused. */
static void test_find_values_reads_a_whole_object_in_one_call(void) {
    static const char *schema =
        "[{\"name\": \"P\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"name\": \"string\","
        " \"tags\": \"string[]\"}}]";
    drumlin_db *db = NULL;
    drumlin_value pk = v_int(7), out[2];
    drumlin_object *object = NULL;
    const int32_t name_then_id[2] = {1, 0}, tags[1] = {2}, unknown[1] = {9};
    REQUIRE_OK(drumlin_open(":memory:", schema, NULL, &db));
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "P", "{\"id\": 7, \"name\": \"Zo\xc3\xab\", \"tags\": [\"a\"]}",
                                 DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    CHECK_OK(drumlin_object_find_values(db, "P", &pk, 2, name_then_id, out, NULL));
    CHECK_VSTR(out[0], "Zo\xc3\xab");
    CHECK(out[1].as.integer == 7);
    CHECK_OK(drumlin_object_find_values(db, "P", &pk, 1, tags, out, &object)); /* a list: through the object */
    CHECK(object != NULL);
    drumlin_object_release(object);
    pk = v_int(8);
    CHECK_RC(drumlin_object_find_values(db, "P", &pk, 2, name_then_id, out, &object), DRUMLIN_NOT_FOUND);
    CHECK(object == NULL);
    CHECK_RC(drumlin_object_find_values(db, "P", &pk, 1, unknown, out, NULL), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_OK(drumlin_close(db));
}

int main(void) {
    test_find_values_long_strings();
    test_find_values_borrowed_by_object();
    test_find_values_other_shapes();
    test_find_marshal();
    test_query_marshal();
    test_query_marshal_repeated();
    test_per_thread_memos();
    test_results_get_values();
    test_find_values_reads_a_whole_object_in_one_call();
    return check_report("read_values");
}
