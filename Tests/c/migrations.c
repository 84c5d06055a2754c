/*
 * migrations.c — migrating a file to a higher schema version through the C API: Realm's
 * conversions, the callback reading old objects and writing new ones, renames, removed classes,
 * primary keys, a failed callback leaving the file as it was, userdata freed once, two processes
 * upgrading at once, and a process killed in the middle of a migration.
 *
 * Run with arguments `child-upgrade PATH MARKER` or `child-hang PATH MARKER`, it is one of the
 * processes the concurrency and kill tests start.
 */
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>

#include "check.h"

static const char *V1 =
    "[{\"name\": \"Item\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"title\": \"string\", \"n\": \"int\", \"note\": \"string?\"}},"
    " {\"name\": \"Old\", \"properties\": {\"x\": \"int\"}}]";

static drumlin_db *open_at(const char *path, const char *schema, uint64_t version, drumlin_migration_fn fn,
                           void *userdata) {
    drumlin_options *options = drumlin_options_new();
    drumlin_db *db = NULL;
    drumlin_options_set_schema_version(options, version);
    if (fn) drumlin_options_set_migration(options, fn, userdata, NULL);
    drumlin_open(path, schema, options, &db);
    drumlin_options_free(options);
    return db;
}

/* A fresh file at version 1 with two items and one Old object. */
static void make_fixture(const char *dir, const char *name, char *path, size_t size) {
    drumlin_db *db;
    snprintf(path, size, "%s/%s.drumlin", dir, name);
    db = open_at(path, V1, 1, NULL, NULL);
    REQUIRE(db != NULL);
    REQUIRE_OK(drumlin_begin_write(db));
    REQUIRE_OK(drumlin_create_json(db, "Item", "{\"id\": 1, \"title\": \"12\", \"n\": 5, \"note\": \"x\"}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Item", "{\"id\": 2, \"title\": \"b\", \"n\": 7}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Old", "{\"x\": 4}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE_OK(drumlin_close(db));
}

/* The objects of a class as JSON (checked against `want`). */
static void check_objects(drumlin_db *db, const char *class_name, const char *want) {
    char *json = NULL;
    CHECK_OK(drumlin_query_json(db, class_name, "TRUEPREDICATE", NULL, &json));
    CHECK_STR(json, want);
    drumlin_free(json);
}

/* Every row of every table and the schema objects, as text, read with SQLite itself. */
static char *dump(const char *path) {
    sqlite3 *sql = NULL;
    sqlite3_stmt *tables = NULL;
    size_t size = 0;
    char *text = NULL;
    FILE *out = open_memstream(&text, &size);
    sqlite3_open_v2(path, &sql, SQLITE_OPEN_READONLY, NULL);
    sqlite3_prepare_v2(sql, "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY name", -1, &tables, NULL);
    while (sqlite3_step(tables) == SQLITE_ROW) {
        char query[512];
        sqlite3_stmt *rows = NULL;
        fprintf(out, "%s %s %s\n", sqlite3_column_text(tables, 0), sqlite3_column_text(tables, 1), sqlite3_column_text(tables, 2));
        if (strcmp((const char *)sqlite3_column_text(tables, 0), "table") != 0) continue;
        /* A table without a rowid (a list of values) in its key's order: owner, position. */
        const char *definition = (const char *)sqlite3_column_text(tables, 2);
        size_t length = strlen(definition);
        int keyed = length >= 13 && strcmp(definition + length - 13, "WITHOUT ROWID") == 0;
        snprintf(query, sizeof query, "SELECT * FROM \"%s\" ORDER BY %s", sqlite3_column_text(tables, 1), keyed ? "1, 2" : "rowid");
        if (sqlite3_prepare_v2(sql, query, -1, &rows, NULL) != SQLITE_OK) {
            fprintf(stderr, "dump: %s: %s\n", query, sqlite3_errmsg(sql));
            abort();
        }
        while (sqlite3_step(rows) == SQLITE_ROW) {
            for (int i = 0; i < sqlite3_column_count(rows); i++) {
                const unsigned char *value = sqlite3_column_text(rows, i);
                fprintf(out, "%s|", value ? (const char *)value : "NULL");
            }
            fputc('\n', out);
        }
        sqlite3_finalize(rows);
    }
    sqlite3_finalize(tables);
    sqlite3_close(sql);
    fclose(out);
    return text;
}

/* ---- The callback converts values: title string -> int, reads the removed `n`. ---- */

typedef struct {
    int calls, objects, freed;
    uint64_t old_version, new_version;
    char old_schema_has_n;
} convert_state;

static int convert_item(void *userdata, drumlin_object *old_object, drumlin_object *new_object) {
    convert_state *state = userdata;
    drumlin_value title, n, value;
    char text[64];
    state->objects++;
    REQUIRE_OK(drumlin_object_get(old_object, "title", &title));
    snprintf(text, sizeof text, "%.*s", (int)title.as.string.size, title.as.string.data);
    REQUIRE_OK(drumlin_object_get(old_object, "n", &n));
    memset(&value, 0, sizeof value);
    value.type = DRUMLIN_TYPE_INT;
    value.as.integer = atoi(text) * 100 + n.as.integer;
    CHECK(new_object != NULL);
    if (new_object) CHECK_OK(drumlin_object_set(new_object, "title", &value));
    /* Old objects are read-only. */
    CHECK_ERR(drumlin_object_set(old_object, "n", &n), DRUMLIN_ERR_READ_ONLY);
    drumlin_object_release(old_object);
    drumlin_object_release(new_object);
    return 0;
}

static int convert(void *userdata, drumlin_migration *migration) {
    convert_state *state = userdata;
    char *schema = NULL;
    state->calls++;
    CHECK_OK(drumlin_migration_old_schema_version(migration, &state->old_version));
    CHECK_OK(drumlin_migration_new_schema_version(migration, &state->new_version));
    CHECK_OK(drumlin_migration_old_schema_json(migration, &schema));
    state->old_schema_has_n = schema && strstr(schema, "\"n\"") != NULL;
    drumlin_free(schema);
    return drumlin_migration_enumerate_objects(migration, "Item", convert_item, state);
}

static void on_free(void *userdata) { ((convert_state *)userdata)->freed++; }

static void callback_converts_values(const char *dir) {
    char path[4096];
    convert_state state = {0};
    drumlin_options *options = drumlin_options_new();
    drumlin_db *db = NULL;
    make_fixture(dir, "convert", path, sizeof path);
    drumlin_options_set_schema_version(options, 2);
    CHECK_OK(drumlin_options_set_migration(options, convert, &state, on_free));
    CHECK_OK(drumlin_open(path, "[{\"name\": \"Item\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"title\": \"int\"}}]",
                          options, &db));
    CHECK(state.calls == 1 && state.objects == 2);
    CHECK(state.old_version == 1 && state.new_version == 2 && state.old_schema_has_n);
    check_objects(db, "Item", "[{\"id\":1,\"title\":1205},{\"id\":2,\"title\":7}]");
    CHECK_OK(drumlin_close(db));
    /* The userdata is shared by the options and the database: freed once, when both are gone. */
    CHECK(state.freed == 0);
    drumlin_options_free(options);
    CHECK(state.freed == 1);
}

static void userdata_is_freed_once_when_replaced(void) {
    convert_state state = {0};
    drumlin_options *options = drumlin_options_new();
    CHECK_OK(drumlin_options_set_migration(options, convert, &state, on_free));
    CHECK_OK(drumlin_options_set_migration(options, NULL, &state, on_free));
    CHECK(state.freed == 2); /* the replaced callback's, and the NULL call's own */
    drumlin_options_free(options);
    CHECK(state.freed == 2);
    CHECK_RC(drumlin_options_set_migration(NULL, convert, &state, on_free), DRUMLIN_ERR_MISUSE);
    CHECK(state.freed == 3);
}

/* ---- Without a callback: Realm's conversions; renames, removed classes, primary keys. ---- */

static void conversions_without_a_callback(const char *dir) {
    char path[4096];
    drumlin_db *db;
    make_fixture(dir, "conversions", path, sizeof path);
    /* title string -> int: zero; n required -> optional: kept; note optional -> required: "" for null. */
    db = open_at(path, "[{\"name\": \"Item\", \"primaryKey\": \"id\", \"properties\": {"
                       "\"id\": \"int\", \"title\": \"int\", \"n\": \"int?\", \"note\": \"string\"}}]", 2, NULL, NULL);
    REQUIRE(db != NULL);
    check_objects(db, "Item", "[{\"id\":1,\"title\":0,\"n\":5,\"note\":\"x\"},{\"id\":2,\"title\":0,\"n\":7,\"note\":\"\"}]");
    CHECK_OK(drumlin_close(db));
}

static int rename_and_delete(void *userdata, drumlin_migration *migration) {
    int deleted = -1;
    char *json = NULL;
    (void)userdata;
    CHECK_OK(drumlin_migration_rename_property(migration, "Item", "title", "name"));
    CHECK_ERR(drumlin_migration_rename_property(migration, "Item", "nope", "name"), DRUMLIN_ERR_NO_SUCH_PROPERTY);
    CHECK_STR(drumlin_last_error_message(), "Renamed property 'Item.nope' does not exist.");
    CHECK_OK(drumlin_migration_delete_data(migration, "Old", &deleted));
    CHECK(deleted == 1);
    CHECK_OK(drumlin_migration_create_json(migration, "Item", "{\"id\": 3, \"name\": \"c\"}", &json));
    CHECK_STR(json, "{\"id\":3,\"name\":\"c\"}");
    drumlin_free(json);
    return 0;
}

static void rename_delete_data_and_create(const char *dir) {
    char path[4096];
    drumlin_db *db;
    make_fixture(dir, "rename", path, sizeof path);
    db = open_at(path, "[{\"name\": \"Item\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"name\": \"string\"}}]",
                 2, rename_and_delete, NULL);
    REQUIRE(db != NULL);
    check_objects(db, "Item", "[{\"id\":1,\"name\":\"12\"},{\"id\":2,\"name\":\"b\"},{\"id\":3,\"name\":\"c\"}]");
    CHECK_OK(drumlin_close(db));
    /* Old's table is gone: opening with the stored schema shows Item only. */
    db = open_at(path, NULL, 2, NULL, NULL);
    REQUIRE(db != NULL);
    {
        int32_t classes = 0;
        CHECK_OK(drumlin_class_count(db, &classes));
        CHECK(classes == 1);
    }
    CHECK_OK(drumlin_close(db));
}

static void removed_class_keeps_its_data_and_primary_key_changes(const char *dir) {
    char path[4096];
    drumlin_db *db;
    make_fixture(dir, "pk", path, sizeof path);
    /* Old removed from the schema, Item's primary key moves to n (unique values): data kept. */
    db = open_at(path, "[{\"name\": \"Item\", \"primaryKey\": \"n\", \"properties\": {\"id\": \"int\", \"n\": \"int\"}}]", 2, NULL, NULL);
    REQUIRE(db != NULL);
    check_objects(db, "Item", "[{\"id\":1,\"n\":5},{\"id\":2,\"n\":7}]");
    {
        char *json = NULL;
        CHECK_OK(drumlin_get_json(db, "Item", "7", &json));
        CHECK_STR(json, "{\"id\":2,\"n\":7}");
        drumlin_free(json);
    }
    CHECK_OK(drumlin_close(db));
    db = open_at(path, NULL, 2, NULL, NULL);
    REQUIRE(db != NULL);
    check_objects(db, "Old", "[{\"x\":4}]");
    CHECK_OK(drumlin_close(db));
}

/* ---- Failures leave the file as it was. ---- */

static int fail_after_writing(void *userdata, drumlin_migration *migration) {
    drumlin_db *db = NULL;
    (void)userdata;
    CHECK_OK(drumlin_migration_new_db(migration, &db));
    CHECK_OK(drumlin_create_json(db, "Item", "{\"id\": 9, \"title\": 9}", DRUMLIN_UPDATE_NEVER, NULL));
    CHECK_OK(drumlin_migration_set_error(migration, "cannot convert item 9"));
    return 1;
}

static void failures_leave_the_file_untouched(const char *dir) {
    char path[4096];
    char *before, *after;
    drumlin_db *db = NULL;
    drumlin_options *options;
    make_fixture(dir, "abort", path, sizeof path);
    before = dump(path);
    options = drumlin_options_new();
    drumlin_options_set_schema_version(options, 2);
    drumlin_options_set_migration(options, fail_after_writing, NULL, NULL);
    CHECK_ERR(drumlin_open(path, "[{\"name\": \"Item\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"title\": \"int\"}}]",
                           options, &db), DRUMLIN_ERR_MIGRATION_FAILED);
    CHECK(db == NULL);
    CHECK_STR(drumlin_last_error_message(), "The migration from schema version 1 to 2 failed: cannot convert item 9");
    /* Duplicate primary keys after the migration: n is not unique once every n is 0. */
    drumlin_options_set_migration(options, NULL, NULL, NULL);
    CHECK_ERR(drumlin_open(path, "[{\"name\": \"Item\", \"primaryKey\": \"n\", \"properties\": {\"n\": \"string\"}}]", options, &db),
              DRUMLIN_ERR_MIGRATION_FAILED);
    CHECK_STR(drumlin_last_error_message(), "Primary key property 'Item.n' has duplicate values after migration: ''.");
    drumlin_options_free(options);
    after = dump(path);
    CHECK_STR(after, before);
    free(before);
    free(after);
    /* A lower version than stored. */
    db = open_at(path, V1, 3, NULL, NULL);
    REQUIRE(db != NULL);
    CHECK_OK(drumlin_close(db));
    options = drumlin_options_new();
    drumlin_options_set_schema_version(options, 2);
    CHECK_ERR(drumlin_open(path, V1, options, &db), DRUMLIN_ERR_MIGRATION_FAILED);
    CHECK_STR(drumlin_last_error_message(), "Provided schema version 2 is less than last set version 3.");
    drumlin_options_free(options);
}

/* ---- Other processes: two upgrading at once; one killed in the middle. ---- */

static const char *V2 = "[{\"name\": \"Item\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"title\": \"string\"}}]";

static int append_marker(void *userdata, drumlin_migration *migration) {
    FILE *marker = fopen((const char *)userdata, "a");
    struct timespec pause = {0, 300 * 1000 * 1000};
    (void)migration;
    if (marker) {
        fputs("ran\n", marker);
        fclose(marker);
    }
    nanosleep(&pause, NULL);
    return 0;
}

static int hang(void *userdata, drumlin_migration *migration) {
    append_marker(userdata, migration);
    sleep(60);
    return 0;
}

static int child(int argc, char **argv) {
    drumlin_db *db;
    if (argc != 4) return 2;
    db = open_at(argv[2], V2, 2, strcmp(argv[1], "child-hang") == 0 ? hang : append_marker, argv[3]);
    if (!db) {
        fprintf(stderr, "child: %s\n", drumlin_last_error_message());
        return 1;
    }
    drumlin_close(db);
    return 0;
}

/* This program's path (argv[0], not /proc/self/exe, which is valgrind's under memcheck). */
static char self_path[4096];

static pid_t spawn(const char *mode, const char *path, const char *marker) {
    pid_t pid = fork();
    if (pid == 0) {
        execl(self_path, "migrations", mode, path, marker, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int count_lines(const char *path) {
    FILE *file = fopen(path, "r");
    int lines = 0, c;
    if (!file) return 0;
    while ((c = fgetc(file)) != EOF) lines += c == '\n';
    fclose(file);
    return lines;
}

static void two_processes_upgrading_at_once_run_the_callback_once(const char *dir) {
    char path[4096], marker[4200];
    int status_a = -1, status_b = -1;
    drumlin_db *db;
    make_fixture(dir, "concurrent", path, sizeof path);
    snprintf(marker, sizeof marker, "%s/concurrent.marker", dir);
    pid_t a = spawn("child-upgrade", path, marker);
    pid_t b = spawn("child-upgrade", path, marker);
    waitpid(a, &status_a, 0);
    waitpid(b, &status_b, 0);
    CHECK(WIFEXITED(status_a) && WEXITSTATUS(status_a) == 0);
    CHECK(WIFEXITED(status_b) && WEXITSTATUS(status_b) == 0);
    CHECK(count_lines(marker) == 1);
    db = open_at(path, V2, 2, NULL, NULL);
    REQUIRE(db != NULL);
    check_objects(db, "Item", "[{\"id\":1,\"title\":\"12\"},{\"id\":2,\"title\":\"b\"}]");
    CHECK_OK(drumlin_close(db));
}

static void a_process_killed_during_a_migration_leaves_the_old_file(const char *dir) {
    char path[4096], marker[4200];
    int status = 0;
    uint64_t version = 0;
    drumlin_db *db;
    make_fixture(dir, "killed", path, sizeof path);
    snprintf(marker, sizeof marker, "%s/killed.marker", dir);
    pid_t pid = spawn("child-hang", path, marker);
    for (int i = 0; i < 600 && count_lines(marker) == 0; i++) usleep(10 * 1000);
    CHECK(count_lines(marker) == 1);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));
    db = open_at(path, V1, 1, NULL, NULL);
    REQUIRE(db != NULL);
    CHECK_OK(drumlin_schema_version(db, &version));
    CHECK(version == 1);
    check_objects(db, "Item", "[{\"id\":1,\"title\":\"12\",\"n\":5,\"note\":\"x\"},{\"id\":2,\"title\":\"b\",\"n\":7,\"note\":null}]");
    CHECK_OK(drumlin_close(db));
}

int main(int argc, char **argv) {
    char dir[2048];
    if (argc > 1) return child(argc, argv);
    if (!realpath(argv[0], self_path)) snprintf(self_path, sizeof self_path, "%s", argv[0]);
    test_dir_make(dir, sizeof dir, "migrations");
    callback_converts_values(dir);
    userdata_is_freed_once_when_replaced();
    conversions_without_a_callback(dir);
    rename_delete_data_and_create(dir);
    removed_class_keeps_its_data_and_primary_key_changes(dir);
    failures_leave_the_file_untouched(dir);
    two_processes_upgrading_at_once_run_the_callback_once(dir);
    a_process_killed_during_a_migration_leaves_the_old_file(dir);
    test_dir_remove(dir);
    return check_report("migrations");
}
