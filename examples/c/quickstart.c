/*
 * quickstart.c — Cairn from C in one page: open a database with a schema, create objects from
 * JSON, read them back as JSON and as typed values, update one, count, handle a duplicate-key
 * error, commit and close.
 *
 *   ./quickstart [path]      (default: quickstart.cairn in the current directory)
 *   sqlite3 quickstart.cairn .schema
 *
 * The Person class is stored as table "people" and its `email` property as column
 * "email_address" (mapTo), which is what `sqlite3 .schema` shows.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cairn.h"

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"mapTo\": \"people\", \"primaryKey\": \"_id\", \"properties\": {"
    "    \"_id\": \"int\","
    "    \"name\": {\"type\": \"string\", \"indexed\": true},"
    "    \"age\": \"int?\","
    "    \"email\": {\"type\": \"string\", \"optional\": true, \"mapTo\": \"email_address\"}}}]";

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
    cairn_object *ann = NULL;
    char *json = NULL;
    int64_t count = 0;

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
    printf("committed; %lld people in %s\n", (long long)count, path);
    status = EXIT_SUCCESS;

cleanup:
    cairn_free(json);
    cairn_object_release(ann);
    cairn_close(db); /* rolls back an open write transaction */
    return status;
}
