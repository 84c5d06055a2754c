/*
 * add_classes.c — drumlin_add_classes: classes added to an open handle, outside a write
 * transaction (committed at once) and inside one (a rollback removes the table and the class),
 * additive changes to a stored class the handle does not have open, and the errors (issue 45).
 */
#include <stdint.h>

#include "check.h"

static const char *PERSON =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"name\": \"string\"}}]";
static const char *DOG =
    "[{\"name\": \"Dog\", \"properties\": {\"name\": \"string\", \"owner\": \"Person?\"}},"
    " {\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"name\": \"string\"}}]";
static const char *CAT = "[{\"name\": \"Cat\", \"properties\": {\"name\": \"string\"}}]";

static int32_t class_count(drumlin_db *db) {
    int32_t count = -1;
    CHECK_OK(drumlin_class_count(db, &count));
    return count;
}

/* The classes the file stores, as an open by its stored schema sees them. */
static int32_t stored_class_count(const char *path) {
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(path, NULL, NULL, &db));
    int32_t count = class_count(db);
    CHECK_OK(drumlin_close(db));
    return count;
}

static void adds_outside_a_write(const char *dir) {
    char path[2200];
    snprintf(path, sizeof path, "%s/outside.drumlin", dir);
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(path, PERSON, NULL, &db));
    CHECK_OK(drumlin_add_classes(db, DOG));
    CHECK(class_count(db) == 2);
    int32_t index = -1;
    CHECK_OK(drumlin_class_index(db, "Dog", &index));
    CHECK(index == 1);  /* appended after the classes open already */
    CHECK_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"Ann\"}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_create_json(db, "Dog", "{\"name\": \"Rex\", \"owner\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_commit(db));
    /* The same classes again: nothing to do. */
    CHECK_OK(drumlin_add_classes(db, DOG));
    CHECK(class_count(db) == 2);
    CHECK_OK(drumlin_close(db));
    CHECK(stored_class_count(path) == 2);

    REQUIRE_OK(drumlin_open(path, NULL, NULL, &db));
    int64_t dogs = -1;
    CHECK_OK(drumlin_count(db, "Dog", "owner.name == 'Ann'", NULL, &dogs));
    CHECK(dogs == 1);
    CHECK_OK(drumlin_close(db));
}

static void rolls_back_with_the_write(const char *dir) {
    char path[2200];
    snprintf(path, sizeof path, "%s/inside.drumlin", dir);
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(path, PERSON, NULL, &db));
    CHECK_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_add_classes(db, CAT));
    CHECK(class_count(db) == 2);
    CHECK_OK(drumlin_create_json(db, "Cat", "{\"name\": \"Tom\"}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_rollback(db));
    CHECK(class_count(db) == 1);
    int64_t count = -1;
    CHECK_ERR(drumlin_count(db, "Cat", NULL, NULL, &count), DRUMLIN_ERR_NO_SUCH_CLASS);
    CHECK_STR(drumlin_last_error_message(), "Object type 'Cat' is not in the schema.");
    CHECK(stored_class_count(path) == 1);  /* no table, no stored definition */

    /* Committed, the class and its object stay. */
    CHECK_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_add_classes(db, CAT));
    CHECK_OK(drumlin_create_json(db, "Cat", "{\"name\": \"Tom\"}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_commit(db));
    CHECK_OK(drumlin_count(db, "Cat", NULL, NULL, &count));
    CHECK(count == 1);
    CHECK_OK(drumlin_close(db));
    CHECK(stored_class_count(path) == 2);
}

/* A handle opened with none of the file's classes: a stored class given with a new property gets
 * its column in the write transaction, and loses it again with a rollback. */
static void changes_a_stored_class_it_does_not_have_open(const char *dir) {
    static const char *WIDER =
        "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"name\": \"string\", \"age\": \"int?\"}}]";
    char path[2200];
    snprintf(path, sizeof path, "%s/wider.drumlin", dir);
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(path, PERSON, NULL, &db));
    CHECK_OK(drumlin_close(db));

    REQUIRE_OK(drumlin_open(path, "[]", NULL, &db));
    CHECK(class_count(db) == 0);
    CHECK_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_add_classes(db, WIDER));
    CHECK_OK(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"Ann\", \"age\": 30}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_rollback(db));
    CHECK(class_count(db) == 0);
    CHECK_OK(drumlin_close(db));
    /* The file's definition is the old one: opening with it needs no change, read-only too. */
    drumlin_options *options = drumlin_options_new();
    drumlin_options_set_read_only(options, 1);
    REQUIRE_OK(drumlin_open(path, PERSON, options, &db));
    CHECK_OK(drumlin_close(db));

    REQUIRE_OK(drumlin_open(path, "[]", NULL, &db));
    CHECK_OK(drumlin_begin_write(db));
    CHECK_OK(drumlin_add_classes(db, WIDER));
    CHECK_OK(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"Ann\", \"age\": 30}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_commit(db));
    CHECK_OK(drumlin_close(db));
    REQUIRE_OK(drumlin_open(path, WIDER, options, &db));
    char *json = NULL;
    CHECK_OK(drumlin_get_json(db, "Person", "1", &json));
    CHECK_STR(json, "{\"id\":1,\"name\":\"Ann\",\"age\":30}");
    drumlin_free(json);
    CHECK_OK(drumlin_close(db));
    drumlin_options_free(options);
}

static void refuses_and_changes_nothing(const char *dir) {
    char path[2200];
    snprintf(path, sizeof path, "%s/errors.drumlin", dir);
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(path, PERSON, NULL, &db));

    CHECK_ERR(drumlin_add_classes(db, "[{\"name\": \"Dog\", \"properties\": {\"owner\": \"Nobody?\"}}]"), DRUMLIN_ERR_SCHEMA);
    CHECK(strstr(drumlin_last_error_message(), "Nobody") != NULL);
    CHECK_ERR(drumlin_add_classes(db, "not json"), DRUMLIN_ERR_SCHEMA);
    CHECK_ERR(drumlin_add_classes(db, NULL), DRUMLIN_ERR_MISUSE);
    CHECK_STR(drumlin_last_error_message(), "schema_json must not be NULL.");

    /* A class open here, given with another property: open the database again instead. */
    CHECK_ERR(drumlin_add_classes(db, "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\":"
                                      " {\"id\": \"int\", \"name\": \"string\", \"age\": \"int\"}}]"),
              DRUMLIN_ERR_MIGRATION_REQUIRED);
    CHECK_STR(drumlin_last_error_message(),
              "Cannot change classes while the database is open; open it again with the new definitions:\n"
              "- Property 'Person.age' has been added.");
    CHECK(class_count(db) == 1);
    CHECK_OK(drumlin_close(db));
    CHECK(stored_class_count(path) == 1);

    /* A stored class the handle does not have open, changed in a way that needs a migration. */
    REQUIRE_OK(drumlin_open(path, "[]", NULL, &db));
    CHECK_ERR(drumlin_add_classes(db, "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\":"
                                      " {\"id\": \"int\", \"name\": \"int\"}}]"),
              DRUMLIN_ERR_MIGRATION_REQUIRED);
    CHECK(strstr(drumlin_last_error_message(), "Migration is required due to the following errors:") != NULL);
    CHECK(class_count(db) == 0);
    /* A new class whose table name differs only in letter case from a stored one's: the error of
     * an open (was DRUMLIN_ERR_CORRUPT, "The table 'person' of class 'person' is missing"). */
    CHECK_ERR(drumlin_add_classes(db, "[{\"name\": \"person\", \"properties\": {\"x\": \"int\"}}]"), DRUMLIN_ERR_SCHEMA);
    CHECK(strstr(drumlin_last_error_message(), "Name clash: type 'person' would be stored as 'person', and the file "
                                               "stores type 'Person' as 'Person'") != NULL);
    CHECK(class_count(db) == 0);
    CHECK_OK(drumlin_close(db));

    /* Read-only: a class the file does not store cannot be added. */
    drumlin_options *options = drumlin_options_new();
    drumlin_options_set_read_only(options, 1);
    REQUIRE_OK(drumlin_open(path, NULL, options, &db));
    drumlin_options_free(options);
    CHECK_ERR(drumlin_add_classes(db, CAT), DRUMLIN_ERR_MIGRATION_REQUIRED);
    CHECK_STR(drumlin_last_error_message(),
              "The following changes cannot be made in read-only schema mode:\n- Class 'Cat' has been added.");
    CHECK(class_count(db) == 1);
    CHECK_OK(drumlin_close(db));
    CHECK(stored_class_count(path) == 1);

    /* Closed. */
    CHECK_ERR(drumlin_add_classes(db, CAT), DRUMLIN_ERR_MISUSE);
}

/* The database a migration callback gets: its classes are the schema opened with. */
static int add_in_migration(void *userdata, drumlin_migration *migration) {
    drumlin_db *new_db = NULL;
    CHECK_OK(drumlin_migration_new_db(migration, &new_db));
    CHECK_ERR(drumlin_add_classes(new_db, CAT), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    CHECK_STR(drumlin_last_error_message(),
              "Cannot add classes to the database of a migration: give them in the schema opened with.");
    *(int *)userdata += 1;
    return 0;
}

static void refuses_inside_a_migration(const char *dir) {
    char path[2200];
    snprintf(path, sizeof path, "%s/migration.drumlin", dir);
    drumlin_db *db = NULL;
    REQUIRE_OK(drumlin_open(path, PERSON, NULL, &db));
    CHECK_OK(drumlin_close(db));
    int calls = 0;
    drumlin_options *options = drumlin_options_new();
    drumlin_options_set_schema_version(options, 1);
    drumlin_options_set_migration(options, add_in_migration, &calls, NULL);
    REQUIRE_OK(drumlin_open(path, PERSON, options, &db));
    drumlin_options_free(options);
    CHECK(calls == 1);
    CHECK(class_count(db) == 1);
    CHECK_OK(drumlin_close(db));
    CHECK(stored_class_count(path) == 1);
}

int main(void) {
    char dir[2048];
    test_dir_make(dir, sizeof dir, "add_classes");
    adds_outside_a_write(dir);
    rolls_back_with_the_write(dir);
    changes_a_stored_class_it_does_not_have_open(dir);
    refuses_and_changes_nothing(dir);
    refuses_inside_a_migration(dir);
    test_dir_remove(dir);
    return check_report("add_classes");
}
