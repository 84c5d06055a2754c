/*
 * misuse.h — what the two misuse tests share: null_handles.c (NULL where a handle or a required
 * pointer is expected) and closed_handles.c (handles of a closed database). Both answer
 * DRUMLIN_ERR_MISUSE, with a message.
 */
#ifndef DRUMLIN_TEST_MISUSE_H
#define DRUMLIN_TEST_MISUSE_H

#include "check.h"

static const char *const SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\", \"name\": \"string\", \"age\": \"int?\","
    "   \"friend\": \"Person\", \"friends\": \"Person[]\", \"tags\": \"string[]\","
    "   \"labels\": \"string<>\", \"extra\": \"mixed{}\", \"anything\": \"mixed\","
    "   \"followers\": {\"type\": \"linkingObjects\", \"objectType\": \"Person\", \"property\": \"friend\"}}}]";

/* The object every test uses: Person 1, linked to itself, one element in each collection. */
static const char *const PERSON_1 = "{\"_id\": 1, \"name\": \"A\", \"tags\": [\"a\"], \"labels\": [\"x\"],"
                              " \"extra\": {\"k\": 1}, \"anything\": [1]}";
static const char *const PERSON_1_LINKS = "{\"friend\": 1, \"friends\": [1]}";

/* A MISUSE call must also set a thread-local error with a message. */
#define CHECK_MISUSE(call)                                                                        \
    do {                                                                                          \
        CHECK_ERR(call, DRUMLIN_ERR_MISUSE);                                                        \
        CHECK(drumlin_last_error_message() != NULL && drumlin_last_error_message()[0] != '\0');       \
    } while (0)

/* Opens the file at `path` with SCHEMA and stores Person 1 with its links, in one transaction;
 * the open database and Person 1's handle come back. */
static inline void make_person_1(const char *path, drumlin_db **out_db, drumlin_object **out_object) {
    drumlin_value pk;
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, out_db));
    REQUIRE_OK(drumlin_begin_write(*out_db));
    REQUIRE_OK(drumlin_create_json(*out_db, "Person", PERSON_1, DRUMLIN_UPDATE_NEVER, NULL));
    memset(&pk, 0, sizeof pk);
    pk.type = DRUMLIN_TYPE_INT;
    pk.as.integer = 1;
    REQUIRE_OK(drumlin_object_find(*out_db, "Person", &pk, out_object));
    REQUIRE_OK(drumlin_object_update_json(*out_object, PERSON_1_LINKS));
    REQUIRE_OK(drumlin_commit(*out_db));
}

#endif
