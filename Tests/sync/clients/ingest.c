/* A C client of Data Ingest for Tests/sync/test_client_c.py:
 *   ingest <file> <url> <token> <first> <count> <sensor>
 * opens <file> with the Reading schema and sync to <url>, creates Readings first..first+count-1,
 * waits up to 60 s for the upload, and prints the session's state and every error reported. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drumlin.h"

static const char *SCHEMA =
    "[{\"name\": \"Reading\", \"asymmetric\": true, \"primaryKey\": \"_id\", \"properties\": {"
    "\"_id\": \"objectId\", \"sensor\": \"string\", \"celsius\": \"double\", \"at\": \"date\", \"note\": \"string?\"}}]";

static void token(void *userdata, drumlin_sync_token_request *request) {
    drumlin_sync_token_set(request, (const char *)userdata);
}

static void on_error(void *userdata, int code, const char *name, const char *message, const char *action, int stopped) {
    (void)userdata;
    printf("error %d %s %s %d: %s\n", code, name, action, stopped, message);
}

static int fail(const char *what) {
    printf("%s failed: %s: %s\n", what, drumlin_status_name(drumlin_last_error_code()), drumlin_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: ingest <file> <url> <token> <first> <count> <sensor>\n");
        return 2;
    }
    int first = atoi(argv[4]), count = atoi(argv[5]);
    drumlin_options *options = drumlin_options_new();
    if (drumlin_options_set_sync(options, argv[2], token, argv[3], NULL) != DRUMLIN_OK) return fail("set_sync");
    if (drumlin_options_set_sync_callbacks(options, NULL, on_error, NULL, NULL) != DRUMLIN_OK) return fail("set_sync_callbacks");
    drumlin_db *db = NULL;
    int status = drumlin_open(argv[1], SCHEMA, options, &db);
    drumlin_options_free(options);
    if (status != DRUMLIN_OK) return fail("open");
    if (drumlin_begin_write(db) != DRUMLIN_OK) return fail("begin_write");
    for (int n = first; n < first + count; n++) {
        char json[512];
        snprintf(json, sizeof json,
                 "{\"_id\": {\"$oid\": \"65f1c0ffee%014x\"}, \"sensor\": \"%s\", \"celsius\": %d.%02d,"
                 " \"at\": {\"$date\": \"2026-12-07T13:%02d:%02d.123456Z\"}}",
                 n, argv[6], 20 + n / 100, n % 100, n / 60 % 60, n % 60);
        if (drumlin_create_json(db, "Reading", json, DRUMLIN_UPDATE_NEVER, NULL) != DRUMLIN_OK) return fail("create_json");
    }
    if (drumlin_commit(db) != DRUMLIN_OK) return fail("commit");
    if (drumlin_sync_wait_for_upload(db, 60000) != DRUMLIN_OK) return fail("wait_for_upload");
    int state = -1, paused = -1;
    int64_t uploaded = -1, pending = -1;
    if (drumlin_sync_state(db, &state, &paused, &uploaded, &pending) != DRUMLIN_OK) return fail("state");
    printf("state %d paused %d uploaded %" PRId64 " pending %" PRId64 "\n", state, paused, uploaded, pending);
    /* Bad arguments: clear errors, nothing changed. */
    if (drumlin_sync_wait_for_upload(NULL, 0) != DRUMLIN_ERR_MISUSE) return fail("wait_for_upload(NULL)");
    printf("NULL db: %s\n", drumlin_last_error_message());
    if (drumlin_sync_token_set(NULL, "x") != DRUMLIN_ERR_MISUSE) return fail("token_set(NULL)");
    printf("NULL request: %s\n", drumlin_last_error_message());
    if (drumlin_close(db) != DRUMLIN_OK) return fail("close");
    return 0;
}
