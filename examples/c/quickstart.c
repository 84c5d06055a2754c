/*
 * quickstart.c — Cairn from C in one page.
 *
 * Part 1: open a database with a schema, create objects from JSON, read them back as JSON and as
 * typed values, update one, count, handle a duplicate-key error, commit.
 * Part 2, relationships: a Person with a list of Dogs (one existing, found by its primary key,
 * one created from a nested JSON object) and an embedded Address; the Dogs' `owners` backlinks;
 * a live list handle; and a mixed value whose nested element is changed by path.
 *
 *   ./quickstart [path]      (default: quickstart.cairn in the current directory)
 *   sqlite3 quickstart.cairn .schema
 *
 * The Person class is stored as table "people" and its `email` property as column
 * "email_address" (mapTo), which is what `sqlite3 .schema` shows; the `dogs` list lives in the
 * side table "_cairn_list_6_people_dogs" (6 = the length of "people").
 */
#include <stdio.h>
#include <stdlib.h>

#include "cairn.h"

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

/* Any status other than CAIRN_OK: say which call failed and why, then clean up. */
#define CHECK(call)                                                                        \
    do {                                                                                   \
        int check_rc_ = (call);                                                            \
        if (check_rc_ != CAIRN_OK) {                                                       \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,           \
                    cairn_last_error_message());                                           \
            fprintf(stderr, "  status %d (%s)\n", check_rc_, cairn_status_name(check_rc_)); \
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
    const char *path = argc > 1 ? argv[1] : "quickstart.cairn";
    int status = EXIT_FAILURE;
    cairn_db *db = NULL;
    cairn_object *ann = NULL, *cleo = NULL, *rex = NULL, *owner = NULL;
    cairn_results *owners = NULL;
    cairn_list *dogs = NULL;
    char *json = NULL;
    int64_t count = 0, dog_count = 0;
    size_t n = 0;

    printf("Cairn %s\n", cairn_version());
    remove_database(path);
    CHECK(cairn_open(path, SCHEMA, NULL, &db));
    printf("opened %s\n", path);

    /* Every write happens inside a write transaction. */
    CHECK(cairn_begin_write(db));
    CHECK(cairn_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Ann\", \"age\": 31}", CAIRN_UPDATE_NEVER,
                            &json));
    printf("created  %s\n", json);
    cairn_free(json);
    json = NULL;
    CHECK(cairn_create_json(db, "Person", "{\"_id\": 2, \"name\": \"Bob\", \"email\": \"bob@example.com\"}",
                            CAIRN_UPDATE_NEVER, NULL));

    /* Read back as JSON ... */
    CHECK(cairn_get_json(db, "Person", "2", &json));
    printf("get 2    %s\n", json);
    cairn_free(json);
    json = NULL;

    /* ... and as typed values. Strings are sized and borrowed: valid until the next call on `ann`. */
    {
        cairn_value key = {CAIRN_TYPE_INT, {0}};
        cairn_value name, age;
        key.as.integer = 1;
        CHECK(cairn_object_find(db, "Person", &key, &ann));
        CHECK(cairn_object_get(ann, "name", &name));
        printf("typed    name = %.*s", (int)name.as.string.size, name.as.string.data);
        CHECK(cairn_object_get(ann, "age", &age));
        printf(", age = %lld\n", (long long)age.as.integer);

        /* Update: a typed set, then a JSON upsert that writes only what changed. */
        age.as.integer = 32;
        CHECK(cairn_object_set(ann, "age", &age));
    }
    CHECK(cairn_create_json(db, "Person", "{\"_id\": 2, \"age\": 45}", CAIRN_UPDATE_MODIFIED, NULL));
    CHECK(cairn_object_to_json(ann, &json));
    printf("updated  %s\n", json);
    cairn_free(json);
    json = NULL;

    CHECK(cairn_count(db, "Person", NULL, NULL, &count));
    printf("count    %lld\n", (long long)count);

    /* A failed call changes nothing, and the transaction carries on. */
    {
        int rc = cairn_create_json(db, "Person", "{\"_id\": 1, \"name\": \"Another Ann\"}", CAIRN_UPDATE_NEVER,
                                   NULL);
        if (rc == CAIRN_ERR_DUPLICATE_PRIMARY_KEY) {
            /* The message is valid until the next Cairn call on this thread: use it first. */
            printf("expected error: %s\n", cairn_last_error_message());
            printf("  status %d (%s)\n", rc, cairn_status_name(rc));
        } else {
            fprintf(stderr, "expected CAIRN_ERR_DUPLICATE_PRIMARY_KEY, got %d\n", rc);
            goto cleanup;
        }
    }

    CHECK(cairn_commit(db));
    CHECK(cairn_count(db, "Person", NULL, NULL, &count));
    printf("committed; %lld people\n", (long long)count);

    /*---- Part 2: relationships ----*/
    printf("\n-- relationships --\n");
    CHECK(cairn_begin_write(db));
    CHECK(cairn_create_json(db, "Dog", "{\"name\": \"Rex\"}", CAIRN_UPDATE_NEVER, NULL));
    /* In a payload, a bare scalar in a link position is the primary key of an existing object. */
    CHECK(cairn_create_json(db, "Person", "{\"_id\": 2, \"dogs\": [\"Rex\"]}", CAIRN_UPDATE_MODIFIED, NULL));
    printf("Bob adopts Rex (upsert with \"dogs\": [\"Rex\"])\n");

    /* A JSON object creates a new object: Fido, and the embedded Address. The handle comes back. */
    CHECK(cairn_object_create_json(db, "Person",
                                   "{\"_id\": 3, \"name\": \"Cleo\","
                                   " \"dogs\": [\"Rex\", {\"name\": \"Fido\"}],"
                                   " \"address\": {\"street\": \"1 Quay St\", \"city\": \"Cork\"},"
                                   " \"payload\": {\"sizes\": [1, 2, 3], \"meta\": {\"source\": \"import\"}}}",
                                   CAIRN_UPDATE_NEVER, &cleo));
    CHECK(cairn_object_to_json(cleo, &json));
    printf("created  %s\n", json); /* links print as primary keys; embedded objects nest */
    cairn_free(json);
    json = NULL;
    CHECK(cairn_object_to_json_depth(cleo, 1, &json));
    printf("depth 1  %s\n", json); /* links expanded one level */
    cairn_free(json);
    json = NULL;

    /* Backlinks: who links to Rex through Person.dogs. The results handle is live. */
    {
        cairn_value key = {CAIRN_TYPE_STRING, {0}};
        key.as.string.data = "Rex";
        key.as.string.size = 3;
        CHECK(cairn_object_find(db, "Dog", &key, &rex));
    }
    CHECK(cairn_object_get_backlinks(rex, "owners", &owners)); /* or "@links.Person.dogs" */
    CHECK(cairn_results_count(owners, &n));
    printf("Rex's owners (%zu):", n);
    for (size_t i = 0; i < n; i++) {
        cairn_value name;
        CHECK(cairn_results_get_object(owners, i, &owner));
        CHECK(cairn_object_get(owner, "name", &name));
        printf("%s%.*s", i ? ", " : " ", (int)name.as.string.size, name.as.string.data); /* borrowed */
        cairn_object_release(owner);
        owner = NULL;
    }
    printf("\n");

    /* A live list handle: each call changes one element. */
    CHECK(cairn_object_get_list(cleo, "dogs", &dogs));
    CHECK(cairn_list_insert_json(dogs, 2, "{\"name\": \"Luna\"}")); /* a new Dog, appended */
    CHECK(cairn_list_to_json(dogs, &json));
    printf("list     %-24s after insert_json(2, {\"name\": \"Luna\"})\n", json);
    cairn_free(json);
    json = NULL;
    CHECK(cairn_list_move(dogs, 2, 0));
    CHECK(cairn_list_to_json(dogs, &json));
    printf("list     %-24s after move(2, 0)\n", json);
    cairn_free(json);
    json = NULL;
    CHECK(cairn_list_erase(dogs, 1)); /* removes the link; Rex himself stays */
    CHECK(cairn_list_to_json(dogs, &json));
    printf("list     %-24s after erase(1)\n", json);
    cairn_free(json);
    json = NULL;
    CHECK(cairn_count(db, "Dog", NULL, NULL, &dog_count));
    CHECK(cairn_results_count(owners, &n));
    printf("still %lld dogs; Rex's owners now %zu\n", (long long)dog_count, n);

    /* Nested mixed: replace one element by its path, without rewriting the rest. */
    CHECK(cairn_object_set_mixed_json(cleo, "payload", "[\"sizes\", 1]", "20"));
    CHECK(cairn_object_get_mixed_json(cleo, "payload", "[]", &json));
    printf("payload  %s after set [\"sizes\", 1] = 20\n", json);
    cairn_free(json);
    json = NULL;

    CHECK(cairn_commit(db));
    CHECK(cairn_count(db, "Person", NULL, NULL, &count));
    CHECK(cairn_count(db, "Dog", NULL, NULL, &dog_count));
    printf("committed; %lld people and %lld dogs in %s\n", (long long)count, (long long)dog_count, path);
    status = EXIT_SUCCESS;

cleanup:
    cairn_free(json);
    cairn_list_release(dogs);
    cairn_results_release(owners);
    cairn_object_release(owner);
    cairn_object_release(rex);
    cairn_object_release(cleo);
    cairn_object_release(ann);
    cairn_close(db); /* rolls back an open write transaction */
    return status;
}
