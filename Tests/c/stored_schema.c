/*
 * stored_schema.c — drumlin_open(path, NULL, ...) opens a file by its stored schema at its stored
 * schema version: files at version 0, 1, 2^63 and 2^64-1, read-write and read-only (issue 44).
 * The version is a uint64_t everywhere; the file stores it as SQLite's signed integer with the
 * same bits, so 2^63 reads back as 2^63.
 */
#include <stdint.h>

#include "check.h"

static const char *SCHEMA =
    "[{\"name\": \"Item\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"title\": \"string\"}}]";

static drumlin_db *open_with(const char *path, const char *schema, uint64_t version, int read_only) {
    drumlin_options *options = drumlin_options_new();
    drumlin_db *db = NULL;
    drumlin_options_set_schema_version(options, version);
    drumlin_options_set_read_only(options, read_only);
    int rc = drumlin_open(path, schema, options, &db);
    drumlin_options_free(options);
    return rc == DRUMLIN_OK ? db : NULL;
}

static void opens_at_its_stored_version(const char *dir, uint64_t version, const char *name) {
    char path[2200];
    snprintf(path, sizeof path, "%s/%s.drumlin", dir, name);
    drumlin_db *db = open_with(path, SCHEMA, version, 0);
    REQUIRE(db != NULL);
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Item", "{\"id\": 1, \"title\": \"one\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE_OK(drumlin_close(db));

    for (int read_only = 0; read_only <= 1; read_only++) {
        uint64_t stored = 12345;
        db = NULL;
        /* No options at all, and options left at version 0. */
        if (read_only) {
            db = open_with(path, NULL, 0, 1);
        } else {
            CHECK_OK(drumlin_open(path, NULL, NULL, &db));
        }
        REQUIRE(db != NULL);
        CHECK_OK(drumlin_schema_version(db, &stored));
        CHECK(stored == version);
        char *json = NULL;
        CHECK_OK(drumlin_get_json(db, "Item", "1", &json));
        CHECK_STR(json, "{\"id\":1,\"title\":\"one\"}");
        drumlin_free(json);
        if (read_only) {
            CHECK_ERR(drumlin_begin_write(db), DRUMLIN_ERR_READ_ONLY);
        } else {
            CHECK_OK(drumlin_begin_write(db));
            CHECK_OK(drumlin_create_json(db, "Item", "{\"id\": 2, \"title\": \"two\"}", DRUMLIN_UPDATE_NEVER, NULL));
            CHECK_OK(drumlin_commit(db));
        }
        CHECK_OK(drumlin_close(db));
    }
    /* With the schema, a lower version than stored is still refused, naming both. */
    if (version > 0) {
        drumlin_db *lower = NULL;
        drumlin_options *options = drumlin_options_new();
        drumlin_options_set_schema_version(options, version - 1);
        CHECK_ERR(drumlin_open(path, SCHEMA, options, &lower), DRUMLIN_ERR_MIGRATION_FAILED);
        CHECK(strstr(drumlin_last_error_message(), "is less than last set version") != NULL);
        CHECK(lower == NULL);
        drumlin_options_free(options);
    }
}

int main(void) {
    char dir[2048];
    test_dir_make(dir, sizeof dir, "stored_schema");
    opens_at_its_stored_version(dir, 0, "v0");
    opens_at_its_stored_version(dir, 1, "v1");
    opens_at_its_stored_version(dir, (uint64_t)1 << 63, "v2_63");
    opens_at_its_stored_version(dir, UINT64_MAX, "vmax");
    test_dir_remove(dir);
    return check_report("stored_schema");
}
