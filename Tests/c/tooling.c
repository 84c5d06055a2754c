/*
 * tooling.c — opening a file without its schema, export and import as Extended JSON lines with
 * progress, check, compact, the busy timeout and the logger, through the C API.
 */
#include "check.h"

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {"
    "   \"id\": \"int\", \"name\": \"string\", \"best\": \"Person\", \"dogs\": \"Dog[]\"}},"
    " {\"name\": \"Dog\", \"properties\": {\"name\": \"string\"}}]";

/* Progress: remember the last report; cancel when asked to. */
typedef struct {
    int calls;
    int64_t done, total;
    int cancel;
} progress_state;

static int on_progress(void *userdata, int64_t done, int64_t total) {
    progress_state *state = userdata;
    state->calls++;
    state->done = done;
    state->total = total;
    return state->cancel;
}

/* Logger: count messages by level, remember the first info message; count frees. */
typedef struct {
    int infos, warnings, errors, freed;
    char first_info[512];
} log_state;

static void on_log(void *userdata, int level, const char *message) {
    log_state *state = userdata;
    if (level == DRUMLIN_LOG_INFO && state->infos++ == 0) snprintf(state->first_info, sizeof state->first_info, "%s", message);
    if (level == DRUMLIN_LOG_WARNING) state->warnings++;
    if (level == DRUMLIN_LOG_ERROR) state->errors++;
}

static void on_free(void *userdata) { ((log_state *)userdata)->freed++; }

static void fill(drumlin_db *db) {
    REQUIRE_OK(drumlin_begin_write(db));
    /* Ann's best friend Bob comes after her; the Dog type has no primary key. */
    REQUIRE_OK(drumlin_create_json(db, "Person", "{\"id\": 1, \"name\": \"Ann\", \"dogs\": [{\"name\": \"Rex\"}]}",
                                   DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Person", "{\"id\": 2, \"name\": \"Bob\", \"best\": 1}", DRUMLIN_UPDATE_NEVER, NULL));
    REQUIRE_OK(drumlin_create_json(db, "Person", "{\"id\": 1, \"best\": 2}", DRUMLIN_UPDATE_MODIFIED, NULL));
    REQUIRE_OK(drumlin_commit(db));
}

static void open_without_schema(const char *dir) {
    char path[4096];
    char *json = NULL;
    drumlin_db *db = NULL;
    drumlin_options *options = drumlin_options_new();
    int64_t count = 0;
    snprintf(path, sizeof path, "%s/stored.drumlin", dir);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    fill(db);
    REQUIRE_OK(drumlin_close(db));

    REQUIRE_OK(drumlin_options_set_read_only(options, 1));
    REQUIRE_OK(drumlin_open(path, NULL, options, &db));
    CHECK_OK(drumlin_schema_json(db, &json));
    CHECK_JSON_HAS(json, "\"name\":\"Dog\"");
    drumlin_free(json);
    CHECK_OK(drumlin_count(db, "Person", NULL, NULL, &count));
    CHECK(count == 2);
    CHECK_ERR(drumlin_begin_write(db), DRUMLIN_ERR_READ_ONLY);
    REQUIRE_OK(drumlin_close(db));
    drumlin_options_free(options);

    snprintf(path, sizeof path, "%s/missing.drumlin", dir);
    CHECK_ERR(drumlin_open(path, NULL, NULL, &db), DRUMLIN_ERR_FILE);
    CHECK(db == NULL);
    CHECK(access(path, F_OK) != 0);
}

static void export_then_import(const char *dir) {
    char source[4096], target[4096], lines[4096];
    char *a = NULL, *b = NULL;
    drumlin_db *db = NULL, *copy = NULL;
    progress_state progress = {0};
    int64_t count = 0;
    snprintf(source, sizeof source, "%s/source.drumlin", dir);
    snprintf(target, sizeof target, "%s/target.drumlin", dir);
    snprintf(lines, sizeof lines, "%s/out.ndjson", dir);
    REQUIRE_OK(drumlin_open(source, SCHEMA, NULL, &db));
    fill(db);
    CHECK_OK(drumlin_export_ndjson(db, NULL, lines, on_progress, &progress, &count));
    CHECK(count == 3);
    CHECK(progress.calls >= 1 && progress.done == 3 && progress.total == 3);

    REQUIRE_OK(drumlin_open(target, SCHEMA, NULL, &copy));
    memset(&progress, 0, sizeof progress);
    CHECK_OK(drumlin_import_ndjson(copy, lines, NULL, DRUMLIN_UPDATE_NEVER, 0, on_progress, &progress, &count));
    CHECK(count == 3);
    CHECK(progress.total > 0 && progress.done == progress.total);
    CHECK_OK(drumlin_query_json(db, "Person", "TRUEPREDICATE", NULL, &a));
    CHECK_OK(drumlin_query_json(copy, "Person", "TRUEPREDICATE", NULL, &b));
    CHECK_STR(b, a);
    drumlin_free(a);
    drumlin_free(b);

    /* A bad line: nothing imported, the line named. */
    FILE *file = fopen(lines, "w");
    fputs("{\"$type\": \"Dog\", \"name\": \"Bo\"}\n{\"$type\": \"Dog\", \"name\": 7}\n", file);
    fclose(file);
    CHECK_ERR(drumlin_import_ndjson(copy, lines, NULL, DRUMLIN_UPDATE_NEVER, 0, NULL, NULL, &count), DRUMLIN_ERR_TYPE_MISMATCH);
    CHECK(strncmp(drumlin_last_error_message(), "Line 2: ", 8) == 0);
    CHECK(count == 0);
    CHECK_OK(drumlin_count(copy, "Dog", NULL, NULL, &count));
    CHECK(count == 1);

    /* Cancelled by the progress callback: nothing written. */
    memset(&progress, 0, sizeof progress);
    progress.cancel = 1;
    CHECK_ERR(drumlin_export_ndjson(db, "Person", lines, on_progress, &progress, &count), DRUMLIN_ERR_CALLBACK);
    CHECK(access(lines, F_OK) != 0);
    CHECK_ERR(drumlin_import_ndjson(copy, lines, NULL, 7, 0, NULL, NULL, &count), DRUMLIN_ERR_INVALID_ARGUMENT);

    CHECK_OK(drumlin_check(copy, &a));
    CHECK_STR(a, "[]");
    drumlin_free(a);
    CHECK_OK(drumlin_compact(copy));
    REQUIRE_OK(drumlin_close(copy));
    REQUIRE_OK(drumlin_close(db));
}

static void busy_timeout_and_logger(const char *dir) {
    char path[4096];
    drumlin_db *first = NULL, *second = NULL;
    drumlin_options *options = drumlin_options_new();
    log_state log = {0};
    int64_t count = 0;
    snprintf(path, sizeof path, "%s/busy.drumlin", dir);
    CHECK_ERR(drumlin_options_set_busy_timeout(options, -1), DRUMLIN_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(drumlin_options_set_busy_timeout(options, 20));
    CHECK_ERR(drumlin_options_set_synchronous(options, 3), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK(strstr(drumlin_last_error_message(), "DRUMLIN_SYNCHRONOUS_NORMAL or DRUMLIN_SYNCHRONOUS_FULL, got 3") != NULL);
    REQUIRE_OK(drumlin_options_set_synchronous(options, DRUMLIN_SYNCHRONOUS_FULL));   /* the second handle commits durably */
    REQUIRE_OK(drumlin_options_set_slow_query_threshold(options, 0));
    REQUIRE_OK(drumlin_options_set_logger(options, on_log, &log, on_free));
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &first));
    REQUIRE_OK(drumlin_open(path, SCHEMA, options, &second));
    drumlin_options_free(options);
    CHECK(log.freed == 0); /* the database still uses the logger */
    CHECK(strstr(log.first_info, "Opened '") == log.first_info);

    REQUIRE_OK(drumlin_begin_write(first));
    CHECK_ERR(drumlin_begin_write(second), DRUMLIN_ERR_BUSY);
    CHECK(strstr(drumlin_last_error_message(), "busy timeout (20 ms)") != NULL);
    CHECK(log.errors == 1);
    REQUIRE_OK(drumlin_rollback(first));
    CHECK_OK(drumlin_count(second, "Person", "name == 'x'", NULL, &count));
    CHECK(log.warnings >= 1);
    REQUIRE_OK(drumlin_close(second));
    CHECK(log.freed == 1);
    REQUIRE_OK(drumlin_close(first));
}

/* drumlin_options_set_quick_check: a page overwritten in the middle of the file is CORRUPT on
 * open with it (the file left as it was), and drumlin_check lists the damage. */
static void quick_check_refuses_a_damaged_file(const char *dir) {
    char path[4096];
    drumlin_db *db = NULL;
    drumlin_options *options = drumlin_options_new();
    char *problems = NULL;
    snprintf(path, sizeof path, "%s/damaged.drumlin", dir);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db));
    REQUIRE_OK(drumlin_begin_write(db));
    for (int i = 0; i < 400; i++) {
        char json[256];
        snprintf(json, sizeof json, "{\"id\": %d, \"name\": \"a fairly long name to fill pages %d\"}", 1000 + i, i);
        REQUIRE_OK(drumlin_create_json(db, "Person", json, DRUMLIN_UPDATE_NEVER, NULL));
    }
    REQUIRE_OK(drumlin_commit(db));
    REQUIRE_OK(drumlin_close(db));
    REQUIRE_OK(drumlin_options_set_quick_check(options, 1));
    REQUIRE_OK(drumlin_open(path, SCHEMA, options, &db)); /* sound: opens */
    REQUIRE_OK(drumlin_close(db));
    FILE *file = fopen(path, "r+b");
    REQUIRE(file != NULL);
    REQUIRE(fseek(file, 0, SEEK_END) == 0);
    long pages = ftell(file) / 4096;
    REQUIRE(pages > 4);
    char garbage[4096];
    memset(garbage, 0xA5, sizeof garbage);
    REQUIRE(fseek(file, (pages / 2) * 4096, SEEK_SET) == 0);
    REQUIRE(fwrite(garbage, 1, sizeof garbage, file) == sizeof garbage);
    fclose(file);
    db = NULL;
    CHECK_ERR(drumlin_open(path, SCHEMA, options, &db), DRUMLIN_ERR_CORRUPT);
    CHECK(db == NULL);
    CHECK(strstr(drumlin_last_error_message(), "is damaged (SQLite's quick check found") != NULL);
    drumlin_options_free(options);
    REQUIRE_OK(drumlin_open(path, SCHEMA, NULL, &db)); /* without the option the open reads one page */
    CHECK_OK(drumlin_check(db, &problems));
    CHECK(problems != NULL && strstr(problems, "SQLite integrity check") != NULL);
    drumlin_free(problems);
    REQUIRE_OK(drumlin_close(db));
}

int main(void) {
    char dir[2048];
    test_dir_make(dir, sizeof dir, "tooling");
    open_without_schema(dir);
    export_then_import(dir);
    busy_timeout_and_logger(dir);
    quick_check_refuses_a_damaged_file(dir);
    test_dir_remove(dir);
    return check_report("tooling");
}
