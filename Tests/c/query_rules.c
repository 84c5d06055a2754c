/*
 * query_rules.c — a sample of Realm's query rules through the C API: whole-list comparison,
 * quantified constant lists, null rules, numeric strings, a 50,000-term OR chain, and the
 * QUERY errors for a quantifier without a list and infinity against an int property; .length in
 * lists, arithmetic on a list, obj() in a list, and object arguments ({"$link": ...}) of the right
 * and the wrong class; LIMIT(SIZE_MAX) and an empty DISTINCT; a few of realm-core's test_parser.cpp
 * answers (integer division by zero, two lists compared whole, a typed property's @type).
 */
#include "check.h"

#include <stdint.h>

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"age\": \"int?\", \"score\": \"double?\", \"scores\": \"int[]\","
    "   \"names\": \"string[]\", \"dog\": \"Dog\", \"friend\": \"Person\"}},"
    " {\"name\": \"Dog\", \"primaryKey\": \"name\", \"properties\": {\"name\": \"string\"}}]";

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
                                      "[{\"id\": 1, \"age\": 31, \"score\": 1.5, \"scores\": [1, 2, 3], \"names\": [\"abc\"], \"dog\": {\"name\": \"Rex\"}},"
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
    /* realm-core's test_parser.cpp answers (issue 44, item 6) */
    CHECK(count(db, "age / 0 > 1000", NULL) == 2);        /* int / 0: the largest int */
    CHECK(count(db, "scores == scores", NULL) == 3);      /* two lists: compared whole */
    CHECK(count(db, "{1, 2, 3} IN scores", NULL) == 1);
    CHECK(count(db, "ALL {4, 6} / 2 >= ANY scores", NULL) == 1);

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
    expect_query_error(db, "1-0 = 1", "syntax error, unexpected number '-0'");
    expect_query_error(db, "age.@type == 'int'", "Comparison between two constants is not supported");

    CHECK(count(db, "names.length == 3", NULL) == 1);
    CHECK(count(db, "ANY scores * 2 > 10", NULL) == 1);
    CHECK(count(db, "dog IN {obj('Dog', 'Rex')}", NULL) == 1);
    CHECK(count(db, "dog == obj('Dog', $0)", "[\"Rex\"]") == 1);

    /* An object argument is its class and object key; a link to another class is a QUERY error. */
    drumlin_object *rex = NULL, *person = NULL;
    drumlin_value key = {0};
    key.type = DRUMLIN_TYPE_STRING;
    key.as.string.data = "Rex";
    key.as.string.size = 3;
    REQUIRE(drumlin_object_find(db, "Dog", &key, &rex) == DRUMLIN_OK);
    key.type = DRUMLIN_TYPE_INT;
    key.as.integer = 2;
    REQUIRE(drumlin_object_find(db, "Person", &key, &person) == DRUMLIN_OK);
    int64_t rex_key = 0, person_key = 0;
    CHECK_RC(drumlin_object_key(rex, &rex_key), DRUMLIN_OK);
    CHECK_RC(drumlin_object_key(person, &person_key), DRUMLIN_OK);
    char args[160];
    snprintf(args, sizeof args, "[{\"$link\": {\"class\": \"Dog\", \"key\": %lld}}]", (long long)rex_key);
    CHECK(count(db, "dog == $0", args) == 1);
    snprintf(args, sizeof args, "[{\"$link\": {\"class\": \"Person\", \"key\": %lld}}]", (long long)person_key);
    CHECK(count(db, "friend == $0", args) == 0);
    int64_t n = -1;
    CHECK_RC(drumlin_count(db, "Person", "dog == $0", args, &n), DRUMLIN_ERR_QUERY);
    const char *message = drumlin_last_error_message();
    CHECK(message != NULL && strstr(message, "which links to type 'Dog' cannot be compared to an argument of type 'Person'") != NULL);
    CHECK_RC(drumlin_count(db, "Person", "dog == $0", "[{\"$link\": {\"class\": \"Nope\", \"key\": 1}}]", &n),
             DRUMLIN_ERR_INVALID_ARGUMENT);
    drumlin_object_release(rex);
    drumlin_object_release(person);

    /* LIMIT takes any size_t: SIZE_MAX limits nothing (it was refused as "-1"); DISTINCT needs a
     * key path. */
    drumlin_results *all = NULL, *limited = NULL, *distinct = NULL;
    size_t rows = 0;
    REQUIRE(drumlin_query(db, "Person", "TRUEPREDICATE", NULL, &all) == DRUMLIN_OK);
    CHECK_RC(drumlin_results_limit(all, SIZE_MAX, &limited), DRUMLIN_OK);
    CHECK_RC(drumlin_results_count(limited, &rows), DRUMLIN_OK);
    CHECK(rows == 3);
    drumlin_results_release(limited);
    limited = NULL;
    CHECK_RC(drumlin_results_limit(all, 2, &limited), DRUMLIN_OK);
    CHECK_RC(drumlin_results_count(limited, &rows), DRUMLIN_OK);
    CHECK(rows == 2);
    drumlin_results_release(limited);
    CHECK_RC(drumlin_results_distinct(all, "", &distinct), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK(distinct == NULL);
    drumlin_results_release(all);

    drumlin_close(db);
    return check_report("query_rules");
}
