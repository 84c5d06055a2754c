/*
 * write_copy.c — drumlin_write_copy: adding, changing and removing encryption (Realm's
 * writeCopy), and its refusals, through the C API.
 */
#include <sys/stat.h>

#include "check.h"

static const char *SCHEMA =
    "[{\"name\": \"Note\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"text\": \"string\"}}]";

static int exists(const char *path) {
    struct stat status;
    return stat(path, &status) == 0;
}

/* Opens `path` with `key` (NULL: none); the status drumlin_open returned. */
static int open_with(const char *path, const uint8_t *key, drumlin_db **out) {
    drumlin_options *options = drumlin_options_new();
    if (key) REQUIRE_OK(drumlin_options_set_encryption_key(options, key, 64));
    int rc = drumlin_open(path, SCHEMA, options, out);
    drumlin_options_free(options);
    return rc;
}

/* The number of notes in `path` opened with `key`, and note 2's text checked. */
static int64_t notes(const char *path, const uint8_t *key) {
    drumlin_db *db = NULL;
    int64_t count = -1;
    char *json = NULL;
    REQUIRE_OK(open_with(path, key, &db));
    CHECK_OK(drumlin_count(db, "Note", NULL, NULL, &count));
    CHECK_OK(drumlin_get_json(db, "Note", "2", &json));
    CHECK_JSON_HAS(json, "\"text\": \"secret 2\"");
    drumlin_free(json);
    REQUIRE_OK(drumlin_close(db));
    return count;
}

static int starts_with(const char *path, const char *magic) {
    char head[16] = {0};
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    size_t n = fread(head, 1, sizeof head, file);
    fclose(file);
    return n == sizeof head && memcmp(head, magic, sizeof head) == 0;
}

static void copies(const char *dir) {
    char plain[4096], encrypted[4096], rekeyed[4096], decrypted[4096];
    uint8_t key[64], other[64];
    for (int i = 0; i < 64; i++) { key[i] = (uint8_t)i; other[i] = (uint8_t)(255 - i); }
    snprintf(plain, sizeof plain, "%s/plain.drumlin", dir);
    snprintf(encrypted, sizeof encrypted, "%s/encrypted.drumlin", dir);
    snprintf(rekeyed, sizeof rekeyed, "%s/rekeyed.drumlin", dir);
    snprintf(decrypted, sizeof decrypted, "%s/decrypted.drumlin", dir);

    drumlin_db *db = NULL;
    REQUIRE_OK(open_with(plain, NULL, &db));
    REQUIRE_OK(drumlin_begin_write(db));
    for (int i = 1; i <= 50; i++) {
        char object[128];
        snprintf(object, sizeof object, "{\"id\": %d, \"text\": \"secret %d\"}", i, i);
        REQUIRE_OK(drumlin_create_json(db, "Note", object, DRUMLIN_UPDATE_NEVER, NULL));
    }
    REQUIRE_OK(drumlin_commit(db));

    /* Adding encryption: the copy opens with the key, not without it nor with another. */
    CHECK_OK(drumlin_write_copy(db, encrypted, key, sizeof key));
    REQUIRE_OK(drumlin_close(db));
    CHECK(starts_with(encrypted, "DrumlinEncrypted"));
    CHECK(notes(encrypted, key) == 50);
    CHECK_ERR(open_with(encrypted, NULL, &db), DRUMLIN_ERR_DECRYPTION_FAILED);
    CHECK(strstr(drumlin_last_error_message(), "is encrypted; open it with its encryption key") != NULL);
    CHECK_ERR(open_with(encrypted, other, &db), DRUMLIN_ERR_DECRYPTION_FAILED);
    CHECK(db == NULL);
    CHECK(notes(plain, NULL) == 50); /* the source is as it was */
    CHECK(starts_with(plain, "SQLite format 3"));

    /* Changing the key. */
    REQUIRE_OK(open_with(encrypted, key, &db));
    CHECK_OK(drumlin_write_copy(db, rekeyed, other, sizeof other));
    REQUIRE_OK(drumlin_close(db));
    CHECK(notes(rekeyed, other) == 50);
    CHECK_ERR(open_with(rekeyed, key, &db), DRUMLIN_ERR_DECRYPTION_FAILED);
    CHECK(strstr(drumlin_last_error_message(), "Realm file decryption failed: the encryption key is not the key of") != NULL);

    /* Removing it. */
    REQUIRE_OK(open_with(rekeyed, other, &db));
    CHECK_OK(drumlin_write_copy(db, decrypted, NULL, 0));
    CHECK(starts_with(decrypted, "SQLite format 3"));
    CHECK(notes(decrypted, NULL) == 50);
    CHECK_ERR(open_with(decrypted, other, &db), DRUMLIN_ERR_DECRYPTION_FAILED);
    CHECK(strstr(drumlin_last_error_message(), "is not encrypted; open it without an encryption key") != NULL);

    /* Refusals: nothing written, the error said. */
    REQUIRE_OK(open_with(rekeyed, other, &db));
    char fresh[4096];
    snprintf(fresh, sizeof fresh, "%s/fresh.drumlin", dir);
    CHECK_ERR(drumlin_write_copy(db, fresh, key, 63), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK_STR(drumlin_last_error_message(), "An encryption key must be 64 bytes long, got 63.");
    CHECK_ERR(drumlin_write_copy(db, fresh, NULL, 64), DRUMLIN_ERR_INVALID_ARGUMENT);
    CHECK(!exists(fresh));
    CHECK_ERR(drumlin_write_copy(db, decrypted, key, sizeof key), DRUMLIN_ERR_FILE);
    CHECK(strstr(drumlin_last_error_message(), "the file already exists.") != NULL);
    CHECK(notes(decrypted, NULL) == 50); /* the existing file untouched */
    CHECK_ERR(drumlin_write_copy(db, dir, key, sizeof key), DRUMLIN_ERR_FILE);
    CHECK(strstr(drumlin_last_error_message(), "it is a directory") != NULL);
    CHECK_ERR(drumlin_write_copy(db, "", NULL, 0), DRUMLIN_ERR_INVALID_ARGUMENT);
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/no/such/dir.drumlin", dir);
    CHECK_ERR(drumlin_write_copy(db, missing, NULL, 0), DRUMLIN_ERR_FILE);
    CHECK(strstr(drumlin_last_error_message(), "its directory does not exist") != NULL);
    REQUIRE_OK(drumlin_begin_write(db));
    CHECK_ERR(drumlin_write_copy(db, fresh, NULL, 0), DRUMLIN_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(drumlin_rollback(db));
    CHECK(!exists(fresh));
    CHECK_OK(drumlin_close(db));
}

int main(void) {
    char dir[2048];
    test_dir_make(dir, sizeof dir, "write-copy");
    copies(dir);
    test_dir_remove(dir);
    return check_report("write_copy");
}
