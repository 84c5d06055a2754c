/*
 * query_rules.c — a sample of Realm's query rules through the C API: whole-list comparison,
 * quantified constant lists, null rules, numeric strings, a 50,000-term OR chain, and the
 * QUERY errors for a quantifier without a list and infinity against an int property.
 */
#include "check.h"

#include <stdint.h>

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"age\": \"int?\", \"score\": \"double?\", \"scores\": \"int[]\"}}]";

static int64_t count(drumlin_db *db, const char *query, const char *args) {
    int64_t n = -1;
    CHECK_RC(drumlin_count(db, "Person", query, args, &n), DRUMLIN_OK);
    return n;
}

static void expect_query_error(drumlin_db *db, const char *query, const char *needle) {
    int64_t n = -1;
    CHECK_RC(drumlin_count(db, "Person", query, NULL, &n), DRUMLIN_ERR_QUERY);
    const char *message = drumlin_last_error_message();
    CHECK(message != NULL && strstr(message, needle) != NULL);
}

int main(void) {
    drumlin_db *db = NULL;
    REQUIRE(drumlin_open(":memory:", SCHEMA, NULL, &db) == DRUMLIN_OK);
    REQUIRE(drumlin_begin_write(db) == DRUMLIN_OK);
    int64_t created = 0;
    CHECK_RC(drumlin_create_many_json(db, "Person",
                                      "[{\"id\": 1, \"age\": 31, \"score\": 1.5, \"scores\": [1, 2, 3]},"
                                      " {\"id\": 2, \"age\": 17, \"score\": 9.0, \"scores\": [10]},"
                                      " {\"id\": 3}]",
                                      0, &created),
             DRUMLIN_OK);
    REQUIRE(drumlin_commit(db) == DRUMLIN_OK);

    CHECK(count(db, "scores == {1, 2, 3}", NULL) == 1);
    CHECK(count(db, "scores == {3, 2, 1}", NULL) == 0);
    CHECK(count(db, "scores == $0", "[[1, 2, 3]]") == 1);
    CHECK(count(db, "ALL {1, 2} IN scores", NULL) == 1);
    CHECK(count(db, "NONE {1, 10} IN scores", NULL) == 1);
    CHECK(count(db, "age == score", NULL) == 1);          /* both null */
    CHECK(count(db, "age >= $0", "[null]") == 1);
    CHECK(count(db, "age == '31'", NULL) == 1);
    CHECK(count(db, "score / 0 == inf", NULL) == 2);

    /* 50,000 OR'ed terms */
    size_t size = 50000 * 24 + 64;
    char *query = malloc(size);
    REQUIRE(query != NULL);
    size_t used = 0;
    for (int i = 0; i < 50000; i++) used += (size_t)snprintf(query + used, size - used, "age == %d OR ", i + 100);
    snprintf(query + used, size - used, "age == 17");
    CHECK(count(db, query, NULL) == 1);
    free(query);

    expect_query_error(db, "ANY age > 3", "The keypath following 'ANY' must contain a list");
    expect_query_error(db, "age == inf", "Infinity not supported for int (property 'age')");

    drumlin_close(db);
    return check_report("query_rules");
}
