/*
 * bench.c — the C half of Cairn's benchmark harness (see bench/README.md).
 *
 * Times the same Person workload on three systems, each in its own forked process per run so that
 * peak RSS is per system and per run:
 *   raw    raw SQLite C with cached prepared statements (WAL, synchronous=NORMAL)
 *   json   Cairn's JSON layer (cairn_create_many_json, cairn_get_json, cairn_query_json, ...)
 *   typed  Cairn's typed layer (cairn_create_many_values, cairn_object_find_values, cairn_object_update_values, cairn_query)
 *
 * Output: one JSON object per line on stdout (measurements), progress on stderr. bench/run.py
 * turns the lines into tables; this program never judges a number.
 *
 *   cairn-bench --n 100000 [--runs 3] [--systems raw,json,typed]
 *               [--steps insert,get,lookup,range,update,delete] [--dir DIR]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cairn.h"

/*---- workload ----------------------------------------------------------------------------------*/

#define LOOKUPS 1000
#define RANGE_LO 30
#define RANGE_HI 40

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {"
    "\"id\": \"int\", \"name\": {\"type\": \"string\", \"indexed\": true}, \"age\": \"int\", "
    "\"email\": \"string\", \"score\": \"double\", \"active\": \"bool\"}}]";

/* One person, generated from its id (the same rule in bench.py). */
typedef struct person {
    int64_t id;
    int64_t age;
    double score;
    int active;
    int name_len;
    int email_len;
    char name[24];
    char email[40];
} person;

static void make_person(int64_t id, person *p) {
    p->id = id;
    p->age = 18 + (id * 7) % 60;
    p->score = (double)id * 0.5;
    p->active = id % 2 == 0;
    p->name_len = snprintf(p->name, sizeof p->name, "name%" PRId64, id);
    p->email_len = snprintf(p->email, sizeof p->email, "user%" PRId64 "@example.com", id);
}

enum { STEP_INSERT = 1, STEP_GET = 2, STEP_LOOKUP = 4, STEP_RANGE = 8, STEP_UPDATE = 16, STEP_DELETE = 32 };

static const char *STEP_NAMES[] = {"insert", "get", "lookup", "range", "update", "delete"};
#define STEP_COUNT 6

typedef struct config {
    int64_t n;
    int runs;
    unsigned steps;
    unsigned step_timeout; /* seconds one step may take before its process is stopped */
    char dir[4096];
} config;

/* What a step must have read, computed from the generator (checked after each step, untimed). */
typedef struct expected {
    int64_t get_sum;        /* sum over all ids of id + age + name_len + email_len + active + 2*score */
    int64_t lookup_ids[LOOKUPS];
    int64_t range_rows;     /* persons with RANGE_LO <= age <= RANGE_HI */
    int64_t range_sum;      /* sum of their ids */
} expected;

static int64_t person_sum(const person *p) {
    return p->id + p->age + p->name_len + p->email_len + p->active + (int64_t)(2 * p->score);
}

static void compute_expected(const config *cfg, expected *e) {
    memset(e, 0, sizeof *e);
    person p;
    for (int64_t id = 1; id <= cfg->n; id++) {
        make_person(id, &p);
        e->get_sum += person_sum(&p);
        if (p.age >= RANGE_LO && p.age <= RANGE_HI) {
            e->range_rows++;
            e->range_sum += id;
        }
    }
    for (int k = 0; k < LOOKUPS; k++) e->lookup_ids[k] = 1 + (int64_t)k * cfg->n / LOOKUPS;
}

/*---- process-local helpers ---------------------------------------------------------------------*/

static const char *g_system = "?";
static int g_run = 0;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long rss_kb(void) { /* current resident set */
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static long peak_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss; /* KiB on Linux */
}

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[c/%s run %d] error: ", g_system, g_run);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    fflush(stdout);
    _exit(1);
}

static void emit_step(const char *step, int64_t ops, int64_t rows, double seconds, const char *how) {
    printf("{\"harness\": \"c\", \"system\": \"%s\", \"run\": %d, \"step\": \"%s\", \"ops\": %" PRId64
           ", \"rows\": %" PRId64 ", \"seconds\": %.9f, \"how\": \"%s\"}\n",
           g_system, g_run, step, ops, rows, seconds, how);
    fflush(stdout);
}

static void emit_mem(int64_t n, long baseline_kb, long after_input_kb, int64_t input_bytes, const char *input_what, long insert_peak_kb,
                     long peak_kb) {
    printf("{\"harness\": \"c\", \"system\": \"%s\", \"run\": %d, \"kind\": \"mem\", \"n\": %" PRId64
           ", \"baseline_kb\": %ld, \"after_input_kb\": %ld, \"input_bytes\": %" PRId64 ", \"input\": \"%s\", \"insert_peak_kb\": %ld"
           ", \"peak_kb\": %ld}\n",
           g_system, g_run, n, baseline_kb, after_input_kb, input_bytes, input_what, insert_peak_kb, peak_kb);
    fflush(stdout);
}

static void check(const char *step, int64_t got, int64_t want) {
    if (got != want) die("%s read the wrong data: checksum %" PRId64 ", expected %" PRId64, step, got, want);
}

/* A step that runs longer than cfg->step_timeout stops its process (exit status 3) after saying so;
 * the parent then leaves that step out of the later runs of the system. */
static volatile int *g_current_step; /* shared with the parent (an anonymous shared mapping) */
static unsigned g_step_timeout;

static void on_alarm(int sig) {
    (void)sig;
    char line[256];
    int step = *g_current_step;
    int len = snprintf(line, sizeof line,
                       "{\"harness\": \"c\", \"system\": \"%s\", \"run\": %d, \"kind\": \"timeout\", \"step\": "
                       "\"%s\", \"seconds\": %u}\n",
                       g_system, g_run, STEP_NAMES[step], g_step_timeout);
    if (len > 0 && write(STDOUT_FILENO, line, (size_t)len) < 0) _exit(3);
    _exit(3);
}

static int step_begins(const config *cfg, unsigned step_bit) {
    if (!(cfg->steps & step_bit)) return 0;
    int index = 0;
    while ((1u << index) != step_bit) index++;
    *g_current_step = index;
    alarm(cfg->step_timeout);
    return 1;
}

/* The size of the six fields' values (8-byte ints and doubles, 1-byte bool, string bytes). */
static int64_t field_bytes(int64_t n) {
    int64_t total = 0;
    person p;
    for (int64_t id = 1; id <= n; id++) {
        make_person(id, &p);
        total += 8 + p.name_len + 8 + p.email_len + 8 + 1;
    }
    return total;
}

/*---- raw SQLite C ------------------------------------------------------------------------------*/

static void sq_exec(sqlite3 *db, const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) die("sqlite: %s: %s", sql, err ? err : "?");
}

static sqlite3_stmt *sq_prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) die("sqlite prepare: %s: %s", sql, sqlite3_errmsg(db));
    return st;
}

static int64_t sq_read_row(sqlite3_stmt *st) { /* reads every column of a person row */
    int64_t id = sqlite3_column_int64(st, 0);
    const unsigned char *name = sqlite3_column_text(st, 1);
    int name_len = sqlite3_column_bytes(st, 1);
    int64_t age = sqlite3_column_int64(st, 2);
    const unsigned char *email = sqlite3_column_text(st, 3);
    int email_len = sqlite3_column_bytes(st, 3);
    double score = sqlite3_column_double(st, 4);
    int active = sqlite3_column_int(st, 5);
    (void)name;
    (void)email;
    return id + age + name_len + email_len + active + (int64_t)(2 * score);
}

static void run_raw(const config *cfg, const char *path, const expected *e) {
    sqlite3 *db = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK) die("sqlite open %s", path);
    sq_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    sq_exec(db, "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, email TEXT, score REAL, "
                "active INTEGER); CREATE INDEX person_name ON person(name);");
    const char *cols = "id, name, age, email, score, active";
    char sql[256];
    sqlite3_stmt *ins = sq_prepare(db, "INSERT INTO person(id, name, age, email, score, active) VALUES (?,?,?,?,?,?)");
    snprintf(sql, sizeof sql, "SELECT %s FROM person WHERE id = ?", cols);
    sqlite3_stmt *get = sq_prepare(db, sql);
    snprintf(sql, sizeof sql, "SELECT %s FROM person WHERE name = ?", cols);
    sqlite3_stmt *by_name = sq_prepare(db, sql);
    snprintf(sql, sizeof sql, "SELECT %s FROM person WHERE age BETWEEN ? AND ?", cols);
    sqlite3_stmt *range = sq_prepare(db, sql);
    sqlite3_stmt *upd = sq_prepare(db, "UPDATE person SET score = ? WHERE id = ?");
    sqlite3_stmt *del = sq_prepare(db, "DELETE FROM person WHERE id = ?");
    sqlite3_stmt *count = sq_prepare(db, "SELECT count(*) FROM person");
    int64_t n = cfg->n;

    long baseline = rss_kb();
    person *people = malloc((size_t)n * sizeof *people);
    if (!people) die("out of memory");
    for (int64_t i = 0; i < n; i++) make_person(i + 1, &people[i]);
    long after_input = rss_kb();

    /* insert: one transaction, one prepared INSERT per row */
    step_begins(cfg, STEP_INSERT);
    double t0 = now();
    sq_exec(db, "BEGIN");
    for (int64_t i = 0; i < n; i++) {
        const person *p = &people[i];
        sqlite3_bind_int64(ins, 1, p->id);
        sqlite3_bind_text(ins, 2, p->name, p->name_len, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 3, p->age);
        sqlite3_bind_text(ins, 4, p->email, p->email_len, SQLITE_STATIC);
        sqlite3_bind_double(ins, 5, p->score);
        sqlite3_bind_int(ins, 6, p->active);
        if (sqlite3_step(ins) != SQLITE_DONE) die("insert: %s", sqlite3_errmsg(db));
        sqlite3_reset(ins);
    }
    sq_exec(db, "COMMIT");
    double t1 = now();
    long insert_peak = peak_rss_kb();
    emit_step("insert", n, n, t1 - t0, "BEGIN; prepared INSERT per row; COMMIT");
    if (sqlite3_step(count) != SQLITE_ROW) die("count");
    check("insert", sqlite3_column_int64(count, 0), n);
    sqlite3_reset(count);
    free(people);

    if (step_begins(cfg, STEP_GET)) { /* get: each row in its own implicit (autocommit) read */
        int64_t sum = 0;
        t0 = now();
        for (int64_t id = 1; id <= n; id++) {
            sqlite3_bind_int64(get, 1, id);
            if (sqlite3_step(get) != SQLITE_ROW) die("get %" PRId64 ": not found", id);
            sum += sq_read_row(get);
            sqlite3_reset(get);
        }
        t1 = now();
        emit_step("get", n, n, t1 - t0, "prepared SELECT by id + 6 column reads, autocommit");
        check("get", sum, e->get_sum);
    }

    if (step_begins(cfg, STEP_LOOKUP)) { /* 1000 equality lookups on the indexed name */
        char names[LOOKUPS][24];
        int lens[LOOKUPS];
        for (int k = 0; k < LOOKUPS; k++) lens[k] = snprintf(names[k], 24, "name%" PRId64, e->lookup_ids[k]);
        int64_t rows = 0, ids = 0, want = 0;
        t0 = now();
        for (int k = 0; k < LOOKUPS; k++) {
            sqlite3_bind_text(by_name, 1, names[k], lens[k], SQLITE_STATIC);
            while (sqlite3_step(by_name) == SQLITE_ROW) {
                sq_read_row(by_name);
                ids += sqlite3_column_int64(by_name, 0);
                rows++;
            }
            sqlite3_reset(by_name);
        }
        t1 = now();
        emit_step("lookup", LOOKUPS, rows, t1 - t0, "prepared SELECT by name (indexed), read every column");
        for (int k = 0; k < LOOKUPS; k++) want += e->lookup_ids[k];
        check("lookup rows", rows, LOOKUPS);
        check("lookup ids", ids, want);
    }

    if (step_begins(cfg, STEP_RANGE)) {
        int64_t rows = 0, ids = 0;
        t0 = now();
        sqlite3_bind_int(range, 1, RANGE_LO);
        sqlite3_bind_int(range, 2, RANGE_HI);
        while (sqlite3_step(range) == SQLITE_ROW) {
            sq_read_row(range);
            ids += sqlite3_column_int64(range, 0);
            rows++;
        }
        sqlite3_reset(range);
        t1 = now();
        emit_step("range", 1, rows, t1 - t0, "prepared SELECT ... WHERE age BETWEEN 30 AND 40, read every column");
        check("range rows", rows, e->range_rows);
        check("range ids", ids, e->range_sum);
    }

    if (step_begins(cfg, STEP_UPDATE)) {
        t0 = now();
        sq_exec(db, "BEGIN");
        for (int64_t id = 1; id <= n; id++) {
            sqlite3_bind_double(upd, 1, (double)id * 0.5 + 1);
            sqlite3_bind_int64(upd, 2, id);
            if (sqlite3_step(upd) != SQLITE_DONE) die("update: %s", sqlite3_errmsg(db));
            sqlite3_reset(upd);
        }
        sq_exec(db, "COMMIT");
        t1 = now();
        emit_step("update", n, n, t1 - t0, "BEGIN; prepared UPDATE score by id per row; COMMIT");
        sqlite3_bind_int64(get, 1, n / 2 + 1);
        if (sqlite3_step(get) != SQLITE_ROW || sqlite3_column_double(get, 4) != (double)(n / 2 + 1) * 0.5 + 1)
            die("update did not write the score");
        sqlite3_reset(get);
    }

    if (step_begins(cfg, STEP_DELETE)) {
        t0 = now();
        sq_exec(db, "BEGIN");
        for (int64_t id = 1; id <= n; id++) {
            sqlite3_bind_int64(del, 1, id);
            if (sqlite3_step(del) != SQLITE_DONE) die("delete: %s", sqlite3_errmsg(db));
            sqlite3_reset(del);
        }
        sq_exec(db, "COMMIT");
        t1 = now();
        emit_step("delete", n, n, t1 - t0, "BEGIN; prepared DELETE by id per row; COMMIT");
        if (sqlite3_step(count) != SQLITE_ROW) die("count");
        check("delete", sqlite3_column_int64(count, 0), 0);
        sqlite3_reset(count);
    }

    alarm(0);
    emit_mem(n, baseline, after_input, (int64_t)n * (int64_t)sizeof(person), "person structs", insert_peak, peak_rss_kb());
    sqlite3_finalize(ins);
    sqlite3_finalize(get);
    sqlite3_finalize(by_name);
    sqlite3_finalize(range);
    sqlite3_finalize(upd);
    sqlite3_finalize(del);
    sqlite3_finalize(count);
    sqlite3_close(db);
}

/*---- Cairn: shared -----------------------------------------------------------------------------*/

#define CK(call)                                                                                         \
    do {                                                                                                 \
        int ck_rc_ = (call);                                                                             \
        if (ck_rc_ != CAIRN_OK)                                                                          \
            die("%s failed: %s (%s)", #call, cairn_last_error_message(), cairn_status_name(ck_rc_));   \
    } while (0)

enum { P_ID, P_NAME, P_AGE, P_EMAIL, P_SCORE, P_ACTIVE, P_COUNT };
static const char *PROP_NAMES[P_COUNT] = {"id", "name", "age", "email", "score", "active"};

static cairn_db *cairn_open_bench(const char *path, int32_t idx[P_COUNT]) {
    cairn_db *db = NULL;
    CK(cairn_open(path, SCHEMA, NULL, &db));
    for (int i = 0; i < P_COUNT; i++) CK(cairn_property_index(db, "Person", PROP_NAMES[i], &idx[i]));
    return db;
}

static int64_t cairn_count_all(cairn_db *db) {
    int64_t c = -1;
    CK(cairn_count(db, "Person", NULL, NULL, &c));
    return c;
}

/* Reads the six values of a person (in P_* order) into a checksum. */
static int64_t value_sum(const cairn_value v[P_COUNT]) {
    if (v[P_ID].type != CAIRN_TYPE_INT || v[P_NAME].type != CAIRN_TYPE_STRING || v[P_AGE].type != CAIRN_TYPE_INT ||
        v[P_EMAIL].type != CAIRN_TYPE_STRING || v[P_SCORE].type != CAIRN_TYPE_DOUBLE ||
        v[P_ACTIVE].type != CAIRN_TYPE_BOOL)
        die("unexpected value types");
    return v[P_ID].as.integer + v[P_AGE].as.integer + (int64_t)v[P_NAME].as.string.size +
           (int64_t)v[P_EMAIL].as.string.size + v[P_ACTIVE].as.boolean + (int64_t)(2 * v[P_SCORE].as.dnum);
}

/* A JSON array of persons as cairn_create_many_json takes it, built from the generator. */
static char *build_json(int64_t n, size_t *out_len) {
    size_t cap = (size_t)n * 128 + 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) die("out of memory");
    buf[len++] = '[';
    person p;
    for (int64_t id = 1; id <= n; id++) {
        make_person(id, &p);
        len += (size_t)snprintf(buf + len, cap - len,
                                "%s{\"id\":%" PRId64 ",\"name\":\"%s\",\"age\":%" PRId64
                                ",\"email\":\"%s\",\"score\":%.1f,\"active\":%s}",
                                id > 1 ? "," : "", p.id, p.name, p.age, p.email, p.score, p.active ? "true" : "false");
    }
    buf[len++] = ']';
    buf[len] = 0;
    *out_len = len;
    return buf;
}

/* The JSON of every person's new score, for the JSON path's bulk update. */
static char *build_update_json(int64_t n) {
    size_t cap = (size_t)n * 48 + 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) die("out of memory");
    buf[len++] = '[';
    for (int64_t id = 1; id <= n; id++)
        len += (size_t)snprintf(buf + len, cap - len, "%s{\"id\":%" PRId64 ",\"score\":%.1f}", id > 1 ? "," : "", id,
                                (double)id * 0.5 + 1);
    buf[len++] = ']';
    buf[len] = 0;
    return buf;
}

static void check_score(cairn_db *db, int32_t score_idx, int64_t id) {
    cairn_value pk = {.type = CAIRN_TYPE_INT, .as.integer = id}, v;
    cairn_object *obj = NULL;
    CK(cairn_object_find(db, "Person", &pk, &obj));
    CK(cairn_object_get_at(obj, score_idx, &v));
    if (v.type != CAIRN_TYPE_DOUBLE || v.as.dnum != (double)id * 0.5 + 1) die("update did not write the score");
    cairn_object_release(obj);
}

static void lookup_args(const expected *e, char args[LOOKUPS][32]) {
    for (int k = 0; k < LOOKUPS; k++) snprintf(args[k], 32, "[\"name%" PRId64 "\"]", e->lookup_ids[k]);
}

/*---- Cairn: JSON layer -------------------------------------------------------------------------*/

/* Sums "id": values in a JSON array of persons (untimed verification of the JSON paths). */
static void json_ids(const char *json, int64_t *rows, int64_t *ids) {
    for (const char *p = strstr(json, "\"id\":"); p; p = strstr(p + 5, "\"id\":")) {
        *rows += 1;
        *ids += strtoll(p + 5, NULL, 10);
    }
}

static void run_json(const config *cfg, const char *path, const expected *e) {
    int32_t idx[P_COUNT];
    cairn_db *db = cairn_open_bench(path, idx);
    int64_t n = cfg->n, created = 0;

    long baseline = rss_kb();
    size_t json_len = 0;
    char *json = build_json(n, &json_len);
    long after_input = rss_kb();

    step_begins(cfg, STEP_INSERT);
    double t0 = now();
    CK(cairn_begin_write(db));
    CK(cairn_create_many_json(db, "Person", json, CAIRN_UPDATE_NEVER, &created));
    CK(cairn_commit(db));
    double t1 = now();
    long insert_peak = peak_rss_kb();
    emit_step("insert", n, n, t1 - t0, "cairn_create_many_json(whole array) in one write transaction");
    check("insert", created, n);
    check("insert count", cairn_count_all(db), n);
    free(json);

    if (step_begins(cfg, STEP_GET)) {
        char key[32];
        int64_t bytes = 0;
        t0 = now();
        for (int64_t id = 1; id <= n; id++) {
            char *out = NULL;
            snprintf(key, sizeof key, "%" PRId64, id);
            CK(cairn_get_json(db, "Person", key, &out));
            bytes += (int64_t)strlen(out);
            cairn_free(out);
        }
        t1 = now();
        emit_step("get", n, n, t1 - t0, "cairn_get_json + cairn_free (text not parsed), autocommit");
        if (bytes < n * 60) die("get returned too little JSON (%" PRId64 " bytes)", bytes);
        char *out = NULL;
        CK(cairn_get_json(db, "Person", "7", &out));
        if (!strstr(out, "\"name7\"") || !strstr(out, "user7@example.com")) die("get 7: %s", out);
        cairn_free(out);
    }

    if (step_begins(cfg, STEP_LOOKUP)) {
        char args[LOOKUPS][32];
        lookup_args(e, args);
        int64_t rows = 0, ids = 0, want = 0, bytes = 0;
        t0 = now();
        for (int k = 0; k < LOOKUPS; k++) {
            char *out = NULL;
            CK(cairn_query_json(db, "Person", "name == $0", args[k], &out));
            bytes += (int64_t)strlen(out);
            cairn_free(out);
        }
        t1 = now();
        if (bytes < LOOKUPS * 60) die("lookups returned too little JSON (%" PRId64 " bytes)", bytes);
        emit_step("lookup", LOOKUPS, LOOKUPS, t1 - t0, "cairn_query_json(\\\"name == $0\\\") + cairn_free (text not parsed)");
        for (int k = 0; k < LOOKUPS; k++) { /* verify, untimed */
            char *out = NULL;
            CK(cairn_query_json(db, "Person", "name == $0", args[k], &out));
            json_ids(out, &rows, &ids);
            cairn_free(out);
            want += e->lookup_ids[k];
        }
        check("lookup rows", rows, LOOKUPS);
        check("lookup ids", ids, want);
    }

    if (step_begins(cfg, STEP_RANGE)) {
        char *out = NULL;
        int64_t rows = 0, ids = 0;
        t0 = now();
        CK(cairn_query_json(db, "Person", "age BETWEEN {30, 40}", NULL, &out));
        t1 = now();
        json_ids(out, &rows, &ids);
        cairn_free(out);
        emit_step("range", 1, rows, t1 - t0, "cairn_query_json(\\\"age BETWEEN {30, 40}\\\")");
        check("range rows", rows, e->range_rows);
        check("range ids", ids, e->range_sum);
    }

    if (step_begins(cfg, STEP_UPDATE)) {
        char *upd = build_update_json(n);
        int64_t updated = 0;
        t0 = now();
        CK(cairn_begin_write(db));
        CK(cairn_create_many_json(db, "Person", upd, CAIRN_UPDATE_MODIFIED, &updated));
        CK(cairn_commit(db));
        t1 = now();
        free(upd);
        emit_step("update", n, n, t1 - t0,
                  "cairn_create_many_json([{id, score}...], CAIRN_UPDATE_MODIFIED) in one write transaction");
        check("update", updated, n);
        check_score(db, idx[P_SCORE], n / 2 + 1);
    }

    if (step_begins(cfg, STEP_DELETE)) {
        int64_t deleted = 0;
        t0 = now();
        CK(cairn_begin_write(db));
        CK(cairn_delete_where(db, "Person", "TRUEPREDICATE", NULL, &deleted));
        CK(cairn_commit(db));
        t1 = now();
        emit_step("delete", n, n, t1 - t0, "cairn_delete_where(\\\"TRUEPREDICATE\\\") in one write transaction");
        check("delete", deleted, n);
        check("delete count", cairn_count_all(db), 0);
    }

    alarm(0);
    emit_mem(n, baseline, after_input, (int64_t)json_len, "JSON text", insert_peak, peak_rss_kb());
    CK(cairn_close(db));
}

/*---- Cairn: typed layer ------------------------------------------------------------------------*/

static void person_values(const person *p, cairn_value v[P_COUNT]) {
    v[P_ID].type = CAIRN_TYPE_INT;
    v[P_ID].as.integer = p->id;
    v[P_NAME].type = CAIRN_TYPE_STRING;
    v[P_NAME].as.string.data = p->name;
    v[P_NAME].as.string.size = (size_t)p->name_len;
    v[P_AGE].type = CAIRN_TYPE_INT;
    v[P_AGE].as.integer = p->age;
    v[P_EMAIL].type = CAIRN_TYPE_STRING;
    v[P_EMAIL].as.string.data = p->email;
    v[P_EMAIL].as.string.size = (size_t)p->email_len;
    v[P_SCORE].type = CAIRN_TYPE_DOUBLE;
    v[P_SCORE].as.dnum = p->score;
    v[P_ACTIVE].type = CAIRN_TYPE_BOOL;
    v[P_ACTIVE].as.boolean = p->active;
}

/* Reads every object of a results handle; returns rows, adds the ids. */
/* Every match, typed, with no object handles (strings borrowed until the next call on the
 * results). Expecting few rows (`few`): one cairn_results_get_values into a 64-row buffer, and only
 * when that comes back full, the rest as below. Otherwise: count, then all rows in one call into a
 * buffer of that size (kept between calls). */
enum { FEW_ROWS = 64 };

static int64_t read_results(cairn_results *res, const int32_t idx[P_COUNT], int few, int64_t *ids) {
    static cairn_value first[FEW_ROWS * P_COUNT];
    static cairn_value *all = NULL;
    static size_t all_cap = 0;
    cairn_value *rows_buf = first;
    size_t rows = 0;
    if (few) CK(cairn_results_get_values(res, 0, FEW_ROWS, P_COUNT, idx, first, &rows));
    if (!few || rows == FEW_ROWS) {
        size_t count = 0;
        CK(cairn_results_count(res, &count));
        if (count > all_cap) {
            cairn_value *grown = realloc(all, count * P_COUNT * sizeof *grown);
            if (!grown) die("out of memory");
            all = grown;
            all_cap = count;
        }
        CK(cairn_results_get_values(res, 0, count, P_COUNT, idx, all, &rows));
        rows_buf = all;
    }
    for (size_t r = 0; r < rows; r++) {
        value_sum(&rows_buf[r * P_COUNT]);
        *ids += rows_buf[r * P_COUNT + P_ID].as.integer;
    }
    return (int64_t)rows;
}

static void run_typed(const config *cfg, const char *path, const expected *e) {
    int32_t idx[P_COUNT];
    cairn_db *db = cairn_open_bench(path, idx);
    int64_t n = cfg->n;

    long baseline = rss_kb();
    person *people = malloc((size_t)n * sizeof *people);
    if (!people) die("out of memory");
    for (int64_t i = 0; i < n; i++) make_person(i + 1, &people[i]);
    long after_input = rss_kb();

    /* The typed bulk path takes rows of cairn_values: filled BATCH people at a time. */
    enum { BATCH = 1000 };
    static cairn_value batch[BATCH * P_COUNT];
    cairn_value v[P_COUNT];
    step_begins(cfg, STEP_INSERT);
    double t0 = now();
    CK(cairn_begin_write(db));
    for (int64_t first = 0; first < n; first += BATCH) {
        int64_t rows = n - first < BATCH ? n - first : BATCH;
        for (int64_t r = 0; r < rows; r++) person_values(&people[first + r], batch + r * P_COUNT);
        CK(cairn_create_many_values(db, "Person", P_COUNT, idx, (size_t)rows, batch, CAIRN_UPDATE_NEVER, NULL));
    }
    CK(cairn_commit(db));
    double t1 = now();
    long insert_peak = peak_rss_kb();
    emit_step("insert", n, n, t1 - t0,
              "cairn_create_many_values, 1000 rows of cairn_values per call, one write transaction");
    check("insert count", cairn_count_all(db), n);
    free(people);

    if (step_begins(cfg, STEP_GET)) {
        int64_t sum = 0;
        cairn_value pk = {.type = CAIRN_TYPE_INT};
        t0 = now();
        for (int64_t id = 1; id <= n; id++) {
            pk.as.integer = id;
            CK(cairn_object_find_values(db, "Person", &pk, P_COUNT, idx, v, NULL));
            sum += value_sum(v);
        }
        t1 = now();
        emit_step("get", n, n, t1 - t0, "cairn_object_find_values(6 properties), one statement, autocommit");
        check("get", sum, e->get_sum);
    }

    if (step_begins(cfg, STEP_LOOKUP)) {
        char args[LOOKUPS][32];
        lookup_args(e, args);
        int64_t rows = 0, ids = 0, want = 0;
        t0 = now();
        for (int k = 0; k < LOOKUPS; k++) {
            cairn_results *res = NULL;
            CK(cairn_query(db, "Person", "name == $0", args[k], &res));
            rows += read_results(res, idx, 1, &ids);
            cairn_results_release(res);
        }
        t1 = now();
        emit_step("lookup", LOOKUPS, rows, t1 - t0,
                  "cairn_query(\\\"name == $0\\\") + cairn_results_get_values(64-row buffer, 6) + release");
        for (int k = 0; k < LOOKUPS; k++) want += e->lookup_ids[k];
        check("lookup rows", rows, LOOKUPS);
        check("lookup ids", ids, want);
    }

    if (step_begins(cfg, STEP_RANGE)) {
        int64_t rows = 0, ids = 0;
        t0 = now();
        cairn_results *res = NULL;
        CK(cairn_query(db, "Person", "age BETWEEN {30, 40}", NULL, &res));
        rows = read_results(res, idx, 0, &ids);
        cairn_results_release(res);
        t1 = now();
        emit_step("range", 1, rows, t1 - t0,
                  "cairn_query(\\\"age BETWEEN {30, 40}\\\") + count + cairn_results_get_values(all rows, 6)");
        check("range rows", rows, e->range_rows);
        check("range ids", ids, e->range_sum);
    }

    if (step_begins(cfg, STEP_UPDATE)) {
        cairn_value pk = {.type = CAIRN_TYPE_INT}, score = {.type = CAIRN_TYPE_DOUBLE};
        t0 = now();
        CK(cairn_begin_write(db));
        for (int64_t id = 1; id <= n; id++) {
            pk.as.integer = id;
            score.as.dnum = (double)id * 0.5 + 1;
            CK(cairn_object_update_values(db, "Person", &pk, 1, &idx[P_SCORE], &score));
        }
        CK(cairn_commit(db));
        t1 = now();
        emit_step("update", n, n, t1 - t0, "cairn_object_update_values(score) per object, one write transaction");
        check_score(db, idx[P_SCORE], n / 2 + 1);
    }

    if (step_begins(cfg, STEP_DELETE)) {
        cairn_value pk = {.type = CAIRN_TYPE_INT};
        t0 = now();
        CK(cairn_begin_write(db));
        for (int64_t id = 1; id <= n; id++) {
            cairn_object *obj = NULL;
            pk.as.integer = id;
            CK(cairn_object_find(db, "Person", &pk, &obj));
            CK(cairn_object_delete(obj));
            cairn_object_release(obj);
        }
        CK(cairn_commit(db));
        t1 = now();
        emit_step("delete", n, n, t1 - t0, "cairn_object_find + cairn_object_delete + release, one write transaction");
        check("delete count", cairn_count_all(db), 0);
    }

    alarm(0);
    emit_mem(n, baseline, after_input, (int64_t)n * (int64_t)sizeof(person), "person structs", insert_peak, peak_rss_kb());
    CK(cairn_close(db));
}

/*---- driver ------------------------------------------------------------------------------------*/

typedef struct system_def {
    const char *key;
    void (*run)(const config *, const char *, const expected *);
} system_def;

static const system_def SYSTEMS[] = {{"raw", run_raw}, {"json", run_json}, {"typed", run_typed}};
#define SYSTEM_COUNT (sizeof SYSTEMS / sizeof SYSTEMS[0])

static void remove_db(const char *path) {
    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    char p[4200];
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffixes[i]);
        unlink(p);
    }
}

static unsigned parse_steps(const char *s) {
    unsigned m = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int i;
        for (i = 0; i < STEP_COUNT; i++)
            if (strcmp(tok, STEP_NAMES[i]) == 0) break;
        if (i == STEP_COUNT) {
            fprintf(stderr, "unknown step '%s'\n", tok);
            exit(2);
        }
        m |= 1u << i;
    }
    return m | STEP_INSERT;
}

int main(int argc, char **argv) {
    config cfg = {.n = 100000, .runs = 3, .steps = 63, .step_timeout = 0};
    const char *systems = "raw,json,typed";
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--n") && v) cfg.n = strtoll(v, NULL, 10), i++;
        else if (!strcmp(a, "--runs") && v) cfg.runs = atoi(v), i++;
        else if (!strcmp(a, "--systems") && v) systems = v, i++;
        else if (!strcmp(a, "--steps") && v) cfg.steps = parse_steps(v), i++;
        else if (!strcmp(a, "--dir") && v) dir = v, i++;
        else if (!strcmp(a, "--step-timeout") && v) cfg.step_timeout = (unsigned)atoi(v), i++;
        else {
            fprintf(stderr,
                    "usage: %s --n N [--runs R] [--systems raw,json,typed] "
                    "[--steps insert,get,lookup,range,update,delete] [--dir DIR] [--step-timeout SECONDS]\n",
                    argv[0]);
            return 2;
        }
    }
    if (cfg.step_timeout == 0) /* default: 60 s per step per 100k objects, at least 60 s */
        cfg.step_timeout = (unsigned)(60 * (cfg.n > 100000 ? (cfg.n + 99999) / 100000 : 1));
    g_step_timeout = cfg.step_timeout;
    g_current_step = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (g_current_step == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    if (cfg.n < LOOKUPS || cfg.runs < 1) {
        fprintf(stderr, "need --n >= %d and --runs >= 1\n", LOOKUPS);
        return 2;
    }
    if (dir) {
        snprintf(cfg.dir, sizeof cfg.dir, "%s", dir);
        mkdir(cfg.dir, 0755);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(cfg.dir, sizeof cfg.dir, "%s/cairn-bench-c-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(cfg.dir)) {
            perror("mkdtemp");
            return 1;
        }
    }

    const system_def *chosen[SYSTEM_COUNT];
    size_t nchosen = 0;
    for (size_t i = 0; i < SYSTEM_COUNT; i++) {
        const char *s = strstr(systems, SYSTEMS[i].key);
        size_t len = strlen(SYSTEMS[i].key);
        if (s && (s == systems || s[-1] == ',') && (s[len] == 0 || s[len] == ',')) chosen[nchosen++] = &SYSTEMS[i];
    }
    if (!nchosen) {
        fprintf(stderr, "no known system in '%s' (raw, json, typed)\n", systems);
        return 2;
    }

    static expected e;
    compute_expected(&cfg, &e);
    printf("{\"harness\": \"c\", \"kind\": \"info\", \"n\": %" PRId64 ", \"runs\": %d, \"sqlite\": \"%s\", "
           "\"cairn\": \"%s\", \"field_bytes\": %" PRId64 ", \"range_rows\": %" PRId64 "}\n",
           cfg.n, cfg.runs, sqlite3_libversion(), cairn_version(), field_bytes(cfg.n), e.range_rows);
    fflush(stdout);

    int failed = 0;
    unsigned skip[SYSTEM_COUNT] = {0};  /* steps that timed out, per system: left out of later runs */
    int skip_run[SYSTEM_COUNT][STEP_COUNT];
    for (int run = 0; run < cfg.runs; run++) {
        for (size_t k = 0; k < nchosen; k++) {
            const system_def *sys = chosen[(k + (size_t)run) % nchosen]; /* rotate the order per run */
            size_t si = (size_t)(sys - SYSTEMS);
            if (skip[si] & STEP_INSERT) continue;
            for (int st = 0; st < STEP_COUNT; st++)
                if ((skip[si] & (1u << st)) && (cfg.steps & (1u << st)))
                    printf("{\"harness\": \"c\", \"system\": \"%s\", \"run\": %d, \"step\": \"%s\", "
                           "\"skipped\": \"timed out (> %u s) in run %d\"}\n",
                           sys->key, run, STEP_NAMES[st], cfg.step_timeout, skip_run[si][st] + 1);
            config sys_cfg = cfg;
            sys_cfg.steps &= ~skip[si];
            char path[4200];
            snprintf(path, sizeof path, "%s/%s-%d.db", cfg.dir, sys->key, run);
            remove_db(path);
            fprintf(stderr, "  c: %-5s run %d/%d (N=%" PRId64 ")\n", sys->key, run + 1, cfg.runs, cfg.n);
            fflush(stdout);
            fflush(stderr);
            *g_current_step = 0;
            pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                return 1;
            }
            if (pid == 0) {
                g_system = sys->key;
                g_run = run;
                signal(SIGALRM, on_alarm);
                sys->run(&sys_cfg, path, &e);
                fflush(stdout);
                _exit(0);
            }
            int status = 0;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
                int st = *g_current_step;
                fprintf(stderr, "  c: %s run %d: step %s timed out (> %u s); left out of later runs\n", sys->key,
                        run + 1, STEP_NAMES[st], cfg.step_timeout);
                skip[si] |= 1u << st;
                skip_run[si][st] = run;
            } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fprintf(stderr, "  c: %s run %d failed (status %d)\n", sys->key, run + 1, status);
                printf("{\"harness\": \"c\", \"kind\": \"failed\", \"system\": \"%s\", \"run\": %d}\n", sys->key, run);
                fflush(stdout);
                failed = 1;
            }
            remove_db(path);
        }
    }
    if (!dir) rmdir(cfg.dir);
    return failed;
}
