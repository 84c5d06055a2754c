/*
 * quickstart.c — Drumlin from C in one page.
 *
 * Part 1: open a database with a schema, create objects from JSON, read them back as JSON and as
 * typed values, update one, count, handle a duplicate-key error, commit.
 * Part 2, relationships: a Person with a list of Dogs (one existing, found by its primary key,
 * one created from a nested JSON object) and an embedded Address; the Dogs' `owners` backlinks;
 * a live list handle; and a mixed value whose nested element is changed by path.
 *
 *   ./quickstart [path]      (default: quickstart.drumlin in the current directory)
 *   sqlite3 quickstart.drumlin .schema
 *
 * The Person class is stored as table "people" and its `email` property as column
 * "email_address" (mapTo), which is what `sqlite3 .schema` shows; the `dogs` list lives in the
 * side table "_drumlin_list_6_people_dogs" (6 = the length of "people").
 */
#include <stdio.h>
#include <stdlib.h>

#include "drumlin.h"

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"mapTo\": \"people\", \"primaryKey\": \"_id\", \"properties\": {"
    "    \"_id\": \"int\","
    "    \"name\": {\"type\": \"string\", \"indexed\": true},"
    "    \"age\": \"int?\","
    "    \"email\": {\"type\": \"string\", \"optional\": true, \"mapTo\": \"email_address\"},"
    "    \"dogs\": \"Dog[]\","          /* a list of links */
    "    \"address\": \"Address\","     /* a to-one link to an embedded object */
    "    \"payload\": \"mixed\"}},"     /* any value, including nested lists and dictionaries */
    " {\"name\": \"Dog\", \"primaryKey\": \"name\", \"properties\": {"
    "    \"name\": \"string\","
    "    \"owners\": {\"type\": \"linkingObjects\", \"objectType\": \"Person\", \"property\": \"dogs\"}}},"
    " {\"name\": \"Address\", \"embedded\": true, \"properties\": {"
    "    \"street\": \"string\", \"city\": \"string?\"}}]";

/* Any status other than DRUMLIN_OK: say which call failed and why, then clean up. */
#define CHECK(call)                                                                        \
    do {                                                                                   \
        int check_rc_ = (call);                                                            \
        if (check_rc_ != DRUMLIN_OK) {                                                       \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,           \
                    drumlin_last_error_message());                                           \
            fprintf(stderr, "  status %d (%s)\n", check_rc_, drumlin_status_name(check_rc_)); \
            goto cleanup;                                                                  \
        }                                                                                  \
    } while (0)

/* Removes a database file and SQLite's -wal and -shm companions, so the demo starts fresh. */
static void remove_database(const char *path) {
    const char *suffixes[] = {"", "-wal", "-shm"};
    char name[4096];
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(name, sizeof name, "%s%s", path, suffixes[i]);
        remove(name);
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "quickstart.drumlin";
    int status = EXIT_FAILURE;
    drumlin_db *db = NULL;
    drumlin_object *ann = NULL, *cleo = NULL, *rex = NULL, *owner = NULL;
    drumlin_results *owners = NULL;
    drumlin_list *dogs = NULL;
    drumlin_value key = {DRUMLIN_TYPE_INT, {0}}, name, age;
    char *json = NULL;
    int64_t count = 0, dog_count = 0;
    size_t n = 0;

    printf("Drumlin %s\n", drumlin_version());
    remove_database(path);
    CHECK(drumlin_open(path, SCHEMA, NULL, &db));
    printf("opened %s\n", path);

    /* Every write happens inside a write transaction. */
    CHECK(drumlin_begin_write(db));
    CHECK(drumlin_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Ann\", \"age\": 31}", DRUMLIN_UPDATE_NEVER,
                            &json));
    printf("created  %s\n", json);
    drumlin_free(json);
    json = NULL;
    CHECK(drumlin_create_json(db, "Person", "{\"_id\": 2, \"name\": \"Bob\", \"email\": \"bob@example.com\"}",
                            DRUMLIN_UPDATE_NEVER, NULL));

    /* Read back as JSON ... */
    CHECK(drumlin_get_json(db, "Person", "2", &json));
    printf("get 2    %s\n", json);
    drumlin_free(json);
    json = NULL;

    /* ... and as typed values. Strings are sized and borrowed: valid until the next call on `ann`. */
    key.as.integer = 1;
    CHECK(drumlin_object_find(db, "Person", &key, &ann)); /* DRUMLIN_NOT_FOUND (1) if absent */
    CHECK(drumlin_object_get(ann, "name", &name));
    printf("typed    name = %.*s", (int)name.as.string.size, name.as.string.data);
    CHECK(drumlin_object_get(ann, "age", &age));
    printf(", age = %lld\n", (long long)age.as.integer);

    /* Update: a typed set (a value is its type and its field), then a JSON upsert that writes
     * only what changed. */
    age.type = DRUMLIN_TYPE_INT;
    age.as.integer = 32;
    CHECK(drumlin_object_set(ann, "age", &age));
    CHECK(drumlin_create_json(db, "Person", "{\"_id\": 2, \"age\": 45}", DRUMLIN_UPDATE_MODIFIED, NULL));
    CHECK(drumlin_object_to_json(ann, &json));
    printf("updated  %s\n", json);
    drumlin_free(json);
    json = NULL;

    CHECK(drumlin_count(db, "Person", NULL, NULL, &count));
    printf("count    %lld\n", (long long)count);

    /* A failed call changes nothing, and the transaction carries on. */
    {
        int rc = drumlin_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Another Ann\"}", DRUMLIN_UPDATE_NEVER,
                                   NULL);
        if (rc == DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY) {
            /* The message is valid until the next Drumlin call on this thread: use it first. */
            printf("expected error: %s\n", drumlin_last_error_message());
            printf("  status %d (%s)\n", rc, drumlin_status_name(rc));
        } else {
            fprintf(stderr, "expected DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY, got %d\n", rc);
            goto cleanup;
        }
    }

    CHECK(drumlin_commit(db));
    CHECK(drumlin_count(db, "Person", NULL, NULL, &count));
    printf("committed; %lld people\n", (long long)count);

    /*---- Part 2: relationships ----*/
    printf("\n-- relationships --\n");
    CHECK(drumlin_begin_write(db));
    CHECK(drumlin_create_json(db, "Dog", "{\"name\": \"Rex\"}", DRUMLIN_UPDATE_NEVER, NULL));
    /* In a payload, a bare scalar in a link position is the primary key of an existing object. */
    CHECK(drumlin_create_json(db, "Person", "{\"_id\": 2, \"dogs\": [\"Rex\"]}", DRUMLIN_UPDATE_MODIFIED, NULL));
    printf("Bob adopts Rex (upsert with \"dogs\": [\"Rex\"])\n");

    /* A JSON object creates a new object: Fido, and the embedded Address. The handle comes back. */
    CHECK(drumlin_object_create_json(db, "Person",
                                   "{\"_id\": 3, \"name\": \"Cleo\","
                                   " \"dogs\": [\"Rex\", {\"name\": \"Fido\"}],"
                                   " \"address\": {\"street\": \"1 Quay St\", \"city\": \"Cork\"},"
                                   " \"payload\": {\"sizes\": [1, 2, 3], \"meta\": {\"source\": \"import\"}}}",
                                   DRUMLIN_UPDATE_NEVER, &cleo));
    CHECK(drumlin_object_to_json(cleo, &json));
    printf("created  %s\n", json); /* links print as primary keys; embedded objects nest */
    drumlin_free(json);
    json = NULL;
    CHECK(drumlin_object_to_json_depth(cleo, 1, &json));
    printf("depth 1  %s\n", json); /* links expanded one level */
    drumlin_free(json);
    json = NULL;

    /* Backlinks: who links to Rex through Person.dogs. The results handle is live. */
    key.type = DRUMLIN_TYPE_STRING;
    key.as.string.data = "Rex";
    key.as.string.size = 3;
    CHECK(drumlin_object_find(db, "Dog", &key, &rex));
    CHECK(drumlin_object_get_backlinks(rex, "owners", &owners)); /* or "@links.Person.dogs" */
    CHECK(drumlin_results_count(owners, &n));
    printf("Rex's owners (%zu):", n);
    for (size_t i = 0; i < n; i++) {
        CHECK(drumlin_results_get_object(owners, i, &owner));
        CHECK(drumlin_object_get(owner, "name", &name));
        printf("%s%.*s", i ? ", " : " ", (int)name.as.string.size, name.as.string.data); /* borrowed */
        drumlin_object_release(owner);
        owner = NULL; /* cleanup: releases it if a CHECK fails */
    }
    printf("\n");

    /* A live list handle: each call changes one element. */
    CHECK(drumlin_object_get_list(cleo, "dogs", &dogs));
    CHECK(drumlin_list_insert_json(dogs, 2, "{\"name\": \"Luna\"}")); /* a new Dog, appended */
    CHECK(drumlin_list_to_json(dogs, &json));
    printf("list     %-24s after insert_json(2, {\"name\": \"Luna\"})\n", json);
    drumlin_free(json);
    json = NULL;
    CHECK(drumlin_list_move(dogs, 2, 0));
    CHECK(drumlin_list_to_json(dogs, &json));
    printf("list     %-24s after move(2, 0)\n", json);
    drumlin_free(json);
    json = NULL;
    CHECK(drumlin_list_erase(dogs, 1)); /* removes the link; Rex himself stays */
    CHECK(drumlin_list_to_json(dogs, &json));
    printf("list     %-24s after erase(1)\n", json);
    drumlin_free(json);
    json = NULL;
    CHECK(drumlin_count(db, "Dog", NULL, NULL, &dog_count));
    CHECK(drumlin_results_count(owners, &n));
    printf("still %lld dogs; Rex's owners now %zu\n", (long long)dog_count, n);

    /* Nested mixed: replace one element by its path, without rewriting the rest. */
    CHECK(drumlin_object_set_mixed_json(cleo, "payload", "[\"sizes\", 1]", "20"));
    CHECK(drumlin_object_get_mixed_json(cleo, "payload", "[]", &json));
    printf("payload  %s after set [\"sizes\", 1] = 20\n", json);
    drumlin_free(json);
    json = NULL;

    CHECK(drumlin_commit(db));
    CHECK(drumlin_count(db, "Person", NULL, NULL, &count));
    CHECK(drumlin_count(db, "Dog", NULL, NULL, &dog_count));
    printf("committed; %lld people and %lld dogs in %s\n", (long long)count, (long long)dog_count, path);
    status = EXIT_SUCCESS;

cleanup:
    drumlin_free(json);
    drumlin_list_release(dogs);
    drumlin_results_release(owners);
    drumlin_object_release(owner);
    drumlin_object_release(rex);
    drumlin_object_release(cleo);
    drumlin_object_release(ann);
    drumlin_close(db); /* rolls back an open write transaction */
    return status;
}
