/*
 * threads.c — Drumlin from several threads at once.
 *
 *   1. Writers: WRITERS threads, each with its OWN handle on the same file, each writing ROUNDS
 *      objects in their own write transactions (SQLite lets one writer in at a time; a busy
 *      writer waits or gets DRUMLIN_ERR_BUSY and retries). Meanwhile
 *   2. Readers: READERS threads share ONE handle and read seeded objects through the JSON layer
 *      and the typed layer; calls on a shared handle are serialized, never torn.
 *   3. Last error is per thread: each thread provokes a different outcome, waits at a barrier
 *      until all have, then checks its own drumlin_last_error_code() and message.
 */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>

#define WRITERS 4
#define ROUNDS 50
#define READERS 4
#define READS 200
#define SEEDED 20
#define ERROR_THREADS 10

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"_id\", \"properties\": {"
    "   \"_id\": \"int\", \"name\": {\"type\": \"string\", \"indexed\": true}, \"writer\": \"int\"}}]";

static char db_path[4096];
static drumlin_db *shared_db;
static int busy_retries;

static void pause_briefly(void) {
    struct timespec ts = {0, 1000000}; /* 1 ms */
    nanosleep(&ts, NULL);
}

/* One write transaction creating one object; returns the status of the first failing step. */
static int write_one(drumlin_db *db, int writer, int round) {
    char json[128];
    int rc;
    snprintf(json, sizeof json, "{\"_id\": %d, \"name\": \"w%d-r%d\", \"writer\": %d}", 1000 + writer * 1000 + round,
             writer, round, writer);
    rc = drumlin_begin_write(db);
    if (rc != DRUMLIN_OK) return rc;
    rc = drumlin_create_json(db, "Person", json, DRUMLIN_UPDATE_NEVER, NULL);
    if (rc == DRUMLIN_OK) rc = drumlin_commit(db);
    if (rc != DRUMLIN_OK) drumlin_rollback(db);
    return rc;
}

/* Opening may meet another connection's write lock: wait and retry on DRUMLIN_ERR_BUSY. */
static int open_with_retry(drumlin_db **out_db) {
    int rc, attempts = 0;
    while ((rc = drumlin_open(db_path, SCHEMA, NULL, out_db)) == DRUMLIN_ERR_BUSY && attempts++ < 1000) {
        __atomic_add_fetch(&busy_retries, 1, __ATOMIC_RELAXED);
        pause_briefly();
    }
    return rc;
}

static void *writer_main(void *arg) {
    int writer = (int)(intptr_t)arg;
    drumlin_db *db = NULL;
    REQUIRE_OK(open_with_retry(&db));
    for (int round = 0; round < ROUNDS; round++) {
        int attempts = 0, rc;
        while ((rc = write_one(db, writer, round)) == DRUMLIN_ERR_BUSY && attempts++ < 1000) {
            __atomic_add_fetch(&busy_retries, 1, __ATOMIC_RELAXED);
            pause_briefly();
        }
        CHECK_OK(rc);
        /* The writer reads its own object back through its handle. */
        {
            char pk[32], want[64], *json = NULL;
            snprintf(pk, sizeof pk, "%d", 1000 + writer * 1000 + round);
            snprintf(want, sizeof want, "\"name\":\"w%d-r%d\"", writer, round);
            CHECK_OK(drumlin_get_json(db, "Person", pk, &json));
            CHECK_JSON_HAS(json, want);
            drumlin_free(json);
        }
        if (round % 8 == 0) sched_yield();
    }
    CHECK_OK(drumlin_close(db));
    return NULL;
}

static void *reader_main(void *arg) {
    int reader = (int)(intptr_t)arg;
    int32_t name_index = -1;
    CHECK_OK(drumlin_property_index(shared_db, "Person", "name", &name_index));
    for (int i = 0; i < READS; i++) {
        int id = (i + reader) % SEEDED;
        char pk[32], want[64], *json = NULL;
        snprintf(pk, sizeof pk, "%d", id);
        snprintf(want, sizeof want, "\"name\":\"seed-%d\"", id);
        CHECK_OK(drumlin_get_json(shared_db, "Person", pk, &json));
        CHECK_JSON_HAS(json, want);
        drumlin_free(json);

        /* Typed: this thread's own object handle, so borrowed strings stay valid here. */
        {
            drumlin_object *object = NULL;
            drumlin_value key, name;
            char expected[32];
            memset(&key, 0, sizeof key);
            memset(&name, 0, sizeof name);
            key.type = DRUMLIN_TYPE_INT;
            key.as.integer = id;
            CHECK_OK(drumlin_object_find(shared_db, "Person", &key, &object));
            CHECK_OK(drumlin_object_get_at(object, name_index, &name));
            snprintf(expected, sizeof expected, "seed-%d", id);
            if (name.type == DRUMLIN_TYPE_STRING)
                CHECK_BYTES(name.as.string.data, name.as.string.size, expected, strlen(expected));
            else
                CHECK(name.type == DRUMLIN_TYPE_STRING);
            drumlin_object_release(object);
        }
        {
            int64_t n = -1;
            CHECK_OK(drumlin_count(shared_db, "Person", NULL, NULL, &n));
            CHECK(n >= SEEDED && n <= SEEDED + WRITERS * ROUNDS);
        }
    }
    return NULL;
}

/* ---- per-thread last error ---- */

static pthread_barrier_t ready, provoked, checked;

struct outcome {
    int code;              /* expected drumlin_last_error_code() */
    const char *message;   /* expected message exactly, or NULL: any non-empty message */
};

static struct outcome provoke(int which, drumlin_db *own_db) {
    struct outcome o = {DRUMLIN_OK, ""};
    char *json = NULL;
    int32_t index = 0;
    switch (which) {
    case 0:
        drumlin_get_json(shared_db, "Nobody", "1", &json);
        o.code = DRUMLIN_ERR_NO_SUCH_CLASS;
        o.message = NULL;
        break;
    case 1:
        drumlin_get_json(shared_db, "Person", "{not json", &json);
        o.code = DRUMLIN_ERR_INVALID_ARGUMENT;
        o.message = NULL;
        break;
    case 2:
        drumlin_get_json(NULL, "Person", "1", &json);
        o.code = DRUMLIN_ERR_MISUSE;
        o.message = NULL;
        break;
    case 3:
        drumlin_commit(own_db);
        o.code = DRUMLIN_ERR_WRONG_TRANSACTION_STATE;
        o.message = NULL;
        break;
    case 4:
        drumlin_property_index(shared_db, "Person", "nickname", &index);
        o.code = DRUMLIN_ERR_NO_SUCH_PROPERTY;
        o.message = NULL;
        break;
    case 5:
        /* A duplicate key in this thread's own write transaction, rolled back after the check. */
        REQUIRE_OK(drumlin_begin_write(own_db));
        drumlin_create_json(own_db, "Person", "{\"_id\": 7, \"name\": \"dup\", \"writer\": -1}", DRUMLIN_UPDATE_NEVER,
                          NULL);
        o.code = DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY;
        o.message = "Attempting to create an object of type 'Person' with an existing primary key value '7'.";
        break;
    case 6:
        CHECK_OK(drumlin_get_json(shared_db, "Person", "1", &json));
        break; /* success: DRUMLIN_OK and "" */
    case 8: {
        /* On the shared handle, at the same time as thread 9: each thread keeps its own outcome. */
        int64_t count = 0;
        drumlin_count(shared_db, "Nobody8", NULL, NULL, &count);
        o.code = DRUMLIN_ERR_NO_SUCH_CLASS;
        o.message = "Object type 'Nobody8' is not in the schema.";
        break;
    }
    case 9:
        drumlin_commit(shared_db);
        o.code = DRUMLIN_ERR_WRONG_TRANSACTION_STATE;
        o.message = NULL;
        break;
    default:
        CHECK_RC(drumlin_get_json(shared_db, "Person", "-42", &json), DRUMLIN_NOT_FOUND);
        break; /* DRUMLIN_NOT_FOUND sets no error */
    }
    drumlin_free(json);
    return o;
}

static void *error_main(void *arg) {
    int which = (int)(intptr_t)arg;
    drumlin_db *own_db = NULL;
    struct outcome o;
    char before[1024];
    const char *after;

    REQUIRE_OK(open_with_retry(&own_db));
    /* All handles are open before any thread takes the write lock (thread 5 does). */
    pthread_barrier_wait(&ready);
    o = provoke(which, own_db);
    check_last_message(before, sizeof before);

    /* Every thread has provoked its outcome before any thread looks at its own. */
    pthread_barrier_wait(&provoked);

    if (drumlin_last_error_code() != o.code) {
        fprintf(stderr, "thread %d: drumlin_last_error_code() = %d, expected %d\n", which, drumlin_last_error_code(),
                o.code);
        CHECK_FAILED_();
    } else {
        CHECK_PASSED_();
    }
    after = drumlin_last_error_message();
    CHECK(after != NULL);
    if (after) {
        if (strcmp(after, before) != 0) {
            fprintf(stderr, "thread %d: message changed under it: \"%s\" -> \"%s\"\n", which, before, after);
            CHECK_FAILED_();
        } else if (o.message ? strcmp(after, o.message) != 0 : (o.code != DRUMLIN_OK) != (after[0] != '\0')) {
            fprintf(stderr, "thread %d: unexpected message \"%s\" (expected %s)\n", which, after,
                    o.message ? o.message : (o.code ? "a message" : "\"\""));
            CHECK_FAILED_();
        } else {
            CHECK_PASSED_();
        }
    }
    pthread_barrier_wait(&checked);
    if (which == 5) CHECK_OK(drumlin_rollback(own_db));
    CHECK_OK(drumlin_close(own_db));
    return NULL;
}

int main(void) {
    char dir[2048];
    pthread_t writers[WRITERS], readers[READERS], errors[ERROR_THREADS];
    int64_t n = -1;

    test_dir_make(dir, sizeof dir, "threads");
    snprintf(db_path, sizeof db_path, "%s/threads.drumlin", dir);

    REQUIRE_OK(drumlin_open(db_path, SCHEMA, NULL, &shared_db));
    REQUIRE_OK(drumlin_begin_write(shared_db));
    for (int i = 0; i < SEEDED; i++) {
        char json[96];
        snprintf(json, sizeof json, "{\"_id\": %d, \"name\": \"seed-%d\", \"writer\": -1}", i, i);
        REQUIRE_OK(drumlin_create_json(shared_db, "Person", json, DRUMLIN_UPDATE_NEVER, NULL));
    }
    REQUIRE_OK(drumlin_commit(shared_db));

    /* 1 + 2: writers on their own handles, readers on the shared one, all at once. */
    for (int i = 0; i < WRITERS; i++) REQUIRE(pthread_create(&writers[i], NULL, writer_main, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < READERS; i++) REQUIRE(pthread_create(&readers[i], NULL, reader_main, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < WRITERS; i++) pthread_join(writers[i], NULL);
    for (int i = 0; i < READERS; i++) pthread_join(readers[i], NULL);

    CHECK_OK(drumlin_count(shared_db, "Person", NULL, NULL, &n));
    CHECK(n == SEEDED + WRITERS * ROUNDS);
    printf("threads: %d writers x %d rounds, %d readers x %d reads, %lld objects, %d busy retries\n", WRITERS,
           ROUNDS, READERS, READS, (long long)n, busy_retries);

    /* 3: per-thread last error. */
    pthread_barrier_init(&ready, NULL, ERROR_THREADS);
    pthread_barrier_init(&provoked, NULL, ERROR_THREADS);
    pthread_barrier_init(&checked, NULL, ERROR_THREADS);
    for (int i = 0; i < ERROR_THREADS; i++)
        REQUIRE(pthread_create(&errors[i], NULL, error_main, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < ERROR_THREADS; i++) pthread_join(errors[i], NULL);
    pthread_barrier_destroy(&ready);
    pthread_barrier_destroy(&provoked);
    pthread_barrier_destroy(&checked);

    /* The duplicate-key thread's failed create and rollback left nothing behind. */
    CHECK_OK(drumlin_count(shared_db, "Person", NULL, NULL, &n));
    CHECK(n == SEEDED + WRITERS * ROUNDS);

    CHECK_OK(drumlin_close(shared_db));
    test_dir_remove(dir);
    return check_report("threads");
}
