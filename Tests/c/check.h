/*
 * check.h — the few assertion macros the C tests share.
 *
 * CHECK* macros record a failure, print where and why, and carry on, so one run reports every
 * broken behaviour. REQUIRE* macros print and end the program at once: use them where carrying
 * on would dereference something that is not there. A test's main() ends with
 * `return check_report("name");`, which prints a summary and returns non-zero on any failure.
 *
 * Failures are counted atomically, so the macros may be used from several threads.
 */
#ifndef DRUMLIN_TEST_CHECK_H
#define DRUMLIN_TEST_CHECK_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drumlin.h"

static int check_failures;
static int check_passes;

#define CHECK_FAILED_() ((void)__atomic_add_fetch(&check_failures, 1, __ATOMIC_RELAXED))
#define CHECK_PASSED_() ((void)__atomic_add_fetch(&check_passes, 1, __ATOMIC_RELAXED))

/* Copies the thread's last error message, which is valid only until the next Drumlin call. */
static inline const char *check_last_message(char *buffer, size_t size) {
    const char *message = drumlin_last_error_message();
    snprintf(buffer, size, "%s", message ? message : "(NULL)");
    return buffer;
}

/* A condition that must hold. */
#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (cond) {                                                                               \
            CHECK_PASSED_();                                                                      \
        } else {                                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            CHECK_FAILED_();                                                                      \
        }                                                                                         \
    } while (0)

/* A call must return exactly `want`; on mismatch, print both codes and the last error. */
#define CHECK_RC(call, want)                                                                      \
    do {                                                                                          \
        int check_rc_ = (call);                                                                   \
        int check_want_ = (want);                                                                 \
        if (check_rc_ == check_want_) {                                                           \
            CHECK_PASSED_();                                                                      \
        } else {                                                                                  \
            char check_msg_[1024];                                                                \
            check_last_message(check_msg_, sizeof check_msg_);                                    \
            fprintf(stderr, "%s:%d: %s\n    returned %s (%d), expected %s (%d)\n    last error: %s\n", \
                    __FILE__, __LINE__, #call, drumlin_status_name(check_rc_), check_rc_,           \
                    drumlin_status_name(check_want_), check_want_, check_msg_);                     \
            CHECK_FAILED_();                                                                      \
        }                                                                                         \
    } while (0)

#define CHECK_OK(call) CHECK_RC(call, DRUMLIN_OK)

/* An error call: the status, and drumlin_last_error_code() agreeing with it. */
#define CHECK_ERR(call, want)                                                                     \
    do {                                                                                          \
        CHECK_RC(call, want);                                                                     \
        CHECK_RC(drumlin_last_error_code(), want);                                                  \
    } while (0)

/* Two C strings must be equal (NULL is reported, not dereferenced). */
#define CHECK_STR(got, want)                                                                      \
    do {                                                                                          \
        const char *check_got_ = (got);                                                           \
        const char *check_want_s_ = (want);                                                       \
        if (check_got_ && check_want_s_ && strcmp(check_got_, check_want_s_) == 0) {              \
            CHECK_PASSED_();                                                                      \
        } else {                                                                                  \
            fprintf(stderr, "%s:%d: %s\n    got      \"%s\"\n    expected \"%s\"\n", __FILE__,     \
                    __LINE__, #got, check_got_ ? check_got_ : "(NULL)",                           \
                    check_want_s_ ? check_want_s_ : "(NULL)");                                    \
            CHECK_FAILED_();                                                                      \
        }                                                                                         \
    } while (0)

/* A drumlin_string (sized, not NUL-terminated) must hold exactly `want` (`size` bytes). */
#define CHECK_BYTES(got_data, got_size, want, want_size)                                          \
    do {                                                                                          \
        const char *check_data_ = (const char *)(got_data);                                       \
        size_t check_size_ = (got_size);                                                          \
        size_t check_want_size_ = (want_size);                                                    \
        if (check_size_ == check_want_size_ &&                                                    \
            (check_size_ == 0 || (check_data_ && memcmp(check_data_, (want), check_size_) == 0))) { \
            CHECK_PASSED_();                                                                      \
        } else {                                                                                  \
            fprintf(stderr, "%s:%d: %s: got %zu bytes \"%.*s\", expected %zu bytes \"%.*s\"\n",    \
                    __FILE__, __LINE__, #got_data, check_size_,                                   \
                    check_data_ ? (int)check_size_ : 6, check_data_ ? check_data_ : "(NULL)",     \
                    check_want_size_, (int)check_want_size_, (const char *)(want));               \
            CHECK_FAILED_();                                                                      \
        }                                                                                         \
    } while (0)

/* A JSON text must contain `fragment` once whitespace outside strings is removed from both. */
#define CHECK_JSON_HAS(json, fragment)                                                            \
    do {                                                                                          \
        const char *check_json_ = (json);                                                         \
        if (check_json_ && json_contains(check_json_, (fragment))) {                              \
            CHECK_PASSED_();                                                                      \
        } else {                                                                                  \
            fprintf(stderr, "%s:%d: %s does not contain %s\n    JSON: %s\n", __FILE__, __LINE__,  \
                    #json, (fragment), check_json_ ? check_json_ : "(NULL)");                     \
            CHECK_FAILED_();                                                                      \
        }                                                                                         \
    } while (0)

/* Like CHECK, but stops the program: what follows depends on it. */
#define REQUIRE(cond)                                                                             \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s (stopping)\n", __FILE__, __LINE__, #cond);  \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

#define REQUIRE_OK(call)                                                                          \
    do {                                                                                          \
        int require_rc_ = (call);                                                                 \
        if (require_rc_ != DRUMLIN_OK) {                                                            \
            char require_msg_[1024];                                                              \
            check_last_message(require_msg_, sizeof require_msg_);                                \
            fprintf(stderr, "%s:%d: %s\n    returned %s (%d), expected DRUMLIN_OK (stopping)\n"      \
                    "    last error: %s\n", __FILE__, __LINE__, #call,                            \
                    drumlin_status_name(require_rc_), require_rc_, require_msg_);                   \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

/* An int value. */
static inline drumlin_value int_value(int64_t i) {
    drumlin_value v;
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_INT;
    v.as.integer = i;
    return v;
}

/* A null value. */
static inline drumlin_value null_value(void) {
    drumlin_value v;
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_NULL;
    return v;
}

/* A string value borrowing `size` bytes of `text` (NUL bytes included). */
static inline drumlin_value string_value_n(const char *text, size_t size) {
    drumlin_value v;
    memset(&v, 0, sizeof v);
    v.type = DRUMLIN_TYPE_STRING;
    v.as.string.data = text;
    v.as.string.size = size;
    return v;
}

/* A string value borrowing the NUL-terminated `text`. */
static inline drumlin_value string_value(const char *text) { return string_value_n(text, strlen(text)); }

/* Copies `text` without whitespace outside JSON strings. The caller frees the result. */
static inline char *json_squeeze(const char *text) {
    size_t n = strlen(text);
    char *out = (char *)malloc(n + 1);
    size_t j = 0;
    int in_string = 0;
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (in_string) {
            out[j++] = c;
            if (c == '\\' && i + 1 < n) out[j++] = text[++i];
            else if (c == '"') in_string = 0;
        } else if (c == '"') {
            in_string = 1;
            out[j++] = c;
        } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
            out[j++] = c;
        }
    }
    out[j] = '\0';
    return out;
}

static inline int json_contains(const char *json, const char *fragment) {
    char *a = json_squeeze(json);
    char *b = json_squeeze(fragment);
    int found = a && b && strstr(a, b) != NULL;
    free(a);
    free(b);
    return found;
}

/*
 * Makes a fresh, private directory for a test's database files: $TMPDIR (or /tmp) plus
 * "drumlin-<name>-XXXXXX". Remove it with test_dir_remove(). Stops the program on failure.
 */
static inline void test_dir_make(char *out, size_t size, const char *name) {
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(out, size, "%s/drumlin-%s-XXXXXX", base, name);
    if (!mkdtemp(out)) {
        perror("mkdtemp");
        exit(1);
    }
}

/* Removes the files directly inside `dir` (a database and its -wal/-shm files), then `dir`. */
static inline void test_dir_remove(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    char path[4096];
    if (!d) return;
    while ((entry = readdir(d)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Prints the summary line; returns the process exit status. */
static inline int check_report(const char *test_name) {
    int failures = __atomic_load_n(&check_failures, __ATOMIC_RELAXED);
    int passes = __atomic_load_n(&check_passes, __ATOMIC_RELAXED);
    if (failures) {
        fprintf(stderr, "%s: %d of %d checks FAILED\n", test_name, failures, failures + passes);
        return 1;
    }
    printf("%s: all %d checks passed\n", test_name, passes);
    return 0;
}

#endif /* DRUMLIN_TEST_CHECK_H */
