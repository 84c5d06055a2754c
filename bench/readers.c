/*
 * readers.c — readers beside a writer (`make bench-readers`, see bench/README.md).
 *
 *   drumlin-bench-readers [--n 100000] [--seconds 3] [--readers 1,2,4] [--modes threads,processes]
 *                         [--systems raw,drumlin] [--commit-every-us 2000] [--dir DIR]
 *
 * For each system, mode and reader count: a fresh file with N Person rows (the workload of
 * bench.c), then for --seconds one writer thread commits small transactions (10 score updates by
 * primary key each, one starting every --commit-every-us) while R readers (threads of the same
 * process, or forked processes), each with its own connection / database handle, loop over: 100
 * gets by primary key reading all 6 fields (each its own implicit read), then iterating a
 * 100-row range (`id BETWEEN a AND a+99`) reading all 6 fields. Prints one JSON line per
 * measurement: gets/s and iterated rows/s over all readers, each reader's slowest get and the
 * p99 of gets, commits done and commit latency (begin to commit returned) p50/p99/max.
 *
 * raw: SQLite C, one connection per reader and one for the writer, WAL, synchronous=NORMAL,
 * prepared statements; drumlin: Drumlin's C API, one drumlin_db per reader and one for the
 * writer (drumlin_object_find_values, drumlin_query + drumlin_results_get_values,
 * drumlin_object_update_values). Every read is checked (the 6 fields of the row against the
 * generator, the score one of the two values the writer writes); a wrong read exits 1.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>

#include "drumlin.h"

enum { GETS_PER_ROUND = 100, RANGE_ROWS = 100, UPDATES_PER_COMMIT = 10, MAX_READERS = 16, MAX_SAMPLES = 1 << 20 };

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {"
    "\"id\": \"int\", \"name\": {\"type\": \"string\", \"indexed\": true}, \"age\": \"int\", "
    "\"email\": \"string\", \"score\": \"double\", \"active\": \"bool\"}}]";
enum { P_ID, P_NAME, P_AGE, P_EMAIL, P_SCORE, P_ACTIVE, P_COUNT };
static const char *PROP_NAMES[P_COUNT] = {"id", "name", "age", "email", "score", "active"};

#define CK(call)                                                                                           \
    do {                                                                                                   \
        int ck_rc_ = (call);                                                                               \
        if (ck_rc_ != DRUMLIN_OK)                                                                          \
            die("%s failed: %s (%s)", #call, drumlin_last_error_message(), drumlin_status_name(ck_rc_)); \
    } while (0)

/* What readers and the writer share: in a MAP_SHARED mapping, so forked readers see it too. */
typedef struct shared {
    atomic_int go;   /* 1: start reading; 2: stop */
    atomic_int ready;
    struct reader_result {
        int64_t gets, rows;
        double get_max_us, get_p99_us;
    } results[MAX_READERS];
} shared;

static int64_t n_rows;
static int system_drumlin;
static char db_path[4096];
static shared *sh;

/*---- checking a row --------------------------------------------------------------------------------*/

/* The row's 6 fields against the generator: the score is the starting one or the writer's. */
static void check_row(int64_t id, int64_t got_id, const char *name, size_t name_len, int64_t age, const char *email,
                      size_t email_len, double score, int active) {
    person p;
    make_person(id, &p);
    if (got_id != id || (int)name_len != p.name_len || memcmp(name, p.name, name_len) != 0 || age != p.age ||
        (int)email_len != p.email_len || memcmp(email, p.email, email_len) != 0 || active != p.active ||
        (score != p.score && score != p.score + 1))
        die("reader read a wrong row for id %" PRId64 " (id %" PRId64 ", age %" PRId64 ", score %g)", id, got_id, age,
            score);
}

static uint64_t rng_next(uint64_t *s) { /* xorshift64 */
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *v, int64_t count, double q) {
    if (count == 0) return 0;
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    int64_t k = (int64_t)(q * (double)(count - 1) + 0.5);
    return v[k];
}

/*---- raw SQLite ------------------------------------------------------------------------------------*/

static sqlite3 *raw_open(void) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        die("sqlite3_open: %s", sqlite3_errmsg(db));
    sqlite3_busy_timeout(db, 10000);
    if (sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, NULL) != SQLITE_OK)
        die("pragmas: %s", sqlite3_errmsg(db));
    return db;
}

static sqlite3_stmt *raw_prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) die("prepare %s: %s", sql, sqlite3_errmsg(db));
    return st;
}

static void raw_exec(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) die("%s: %s", sql, sqlite3_errmsg(db));
}

static void raw_check_stmt(sqlite3_stmt *st, int64_t id) {
    check_row(id, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1), (size_t)sqlite3_column_bytes(st, 1),
              sqlite3_column_int64(st, 2), (const char *)sqlite3_column_text(st, 3), (size_t)sqlite3_column_bytes(st, 3),
              sqlite3_column_double(st, 4), sqlite3_column_int(st, 5));
}

/*---- Drumlin ---------------------------------------------------------------------------------------*/

static drumlin_db *dl_open(int32_t idx[P_COUNT]) {
    drumlin_db *db = NULL;
    CK(drumlin_open(db_path, SCHEMA, NULL, &db));
    for (int i = 0; i < P_COUNT; i++) CK(drumlin_property_index(db, "Person", PROP_NAMES[i], &idx[i]));
    return db;
}

static void dl_check_values(const drumlin_value *v, int64_t id) {
    check_row(id, v[P_ID].as.integer, v[P_NAME].as.string.data, v[P_NAME].as.string.size, v[P_AGE].as.integer,
              v[P_EMAIL].as.string.data, v[P_EMAIL].as.string.size, v[P_SCORE].as.dnum, v[P_ACTIVE].as.boolean);
}

/*---- setup: the file with N rows -------------------------------------------------------------------*/

static void populate(void) {
    for (const char *suffix = ""; suffix; suffix = (!*suffix ? "-wal" : (suffix[1] == 'w' ? "-shm" : NULL))) {
        char p[4200];
        snprintf(p, sizeof p, "%s%s", db_path, suffix);
        unlink(p);
    }
    if (!system_drumlin) {
        sqlite3 *db = raw_open();
        raw_exec(db, "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, email TEXT, score REAL, active INTEGER);"
                     "CREATE INDEX person_name ON person(name);");
        sqlite3_stmt *ins = raw_prepare(db, "INSERT INTO person VALUES (?, ?, ?, ?, ?, ?)");
        raw_exec(db, "BEGIN");
        person p;
        for (int64_t id = 1; id <= n_rows; id++) {
            make_person(id, &p);
            sqlite3_bind_int64(ins, 1, p.id);
            sqlite3_bind_text(ins, 2, p.name, p.name_len, SQLITE_STATIC);
            sqlite3_bind_int64(ins, 3, p.age);
            sqlite3_bind_text(ins, 4, p.email, p.email_len, SQLITE_STATIC);
            sqlite3_bind_double(ins, 5, p.score);
            sqlite3_bind_int(ins, 6, p.active);
            if (sqlite3_step(ins) != SQLITE_DONE) die("insert: %s", sqlite3_errmsg(db));
            sqlite3_reset(ins);
        }
        raw_exec(db, "COMMIT");
        sqlite3_finalize(ins);
        sqlite3_close(db);
        return;
    }
    int32_t idx[P_COUNT];
    drumlin_db *db = dl_open(idx);
    enum { BATCH = 1000 };
    static drumlin_value batch[BATCH * P_COUNT];
    person p;
    CK(drumlin_begin_write(db));
    for (int64_t first = 1; first <= n_rows; first += BATCH) {
        int64_t rows = n_rows - first + 1 < BATCH ? n_rows - first + 1 : BATCH;
        for (int64_t r = 0; r < rows; r++) {
            make_person(first + r, &p);
            drumlin_value *v = batch + r * P_COUNT;
            v[P_ID] = (drumlin_value){.type = DRUMLIN_TYPE_INT, .as.integer = p.id};
            v[P_NAME] = (drumlin_value){.type = DRUMLIN_TYPE_STRING, .as.string = {p.name, (size_t)p.name_len}};
            v[P_AGE] = (drumlin_value){.type = DRUMLIN_TYPE_INT, .as.integer = p.age};
            v[P_EMAIL] = (drumlin_value){.type = DRUMLIN_TYPE_STRING, .as.string = {p.email, (size_t)p.email_len}};
            v[P_SCORE] = (drumlin_value){.type = DRUMLIN_TYPE_DOUBLE, .as.dnum = p.score};
            v[P_ACTIVE] = (drumlin_value){.type = DRUMLIN_TYPE_BOOL, .as.boolean = p.active};
            /* p is reused for the next row: each row of the batch gets its own copy of the strings */
            char *copy = malloc(64);
            if (!copy) die("out of memory");
            memcpy(copy, p.name, (size_t)p.name_len);
            memcpy(copy + 24, p.email, (size_t)p.email_len);
            v[P_NAME].as.string.data = copy;
            v[P_EMAIL].as.string.data = copy + 24;
        }
        CK(drumlin_create_many_values(db, "Person", P_COUNT, idx, (size_t)rows, batch, DRUMLIN_UPDATE_NEVER, NULL));
        for (int64_t r = 0; r < rows; r++) free((void *)batch[r * P_COUNT + P_NAME].as.string.data);
    }
    CK(drumlin_commit(db));
    int64_t count = -1;
    CK(drumlin_count(db, "Person", NULL, NULL, &count));
    if (count != n_rows) die("populate: %" PRId64 " rows", count);
    CK(drumlin_close(db));
}

/*---- a reader ----------------------------------------------------------------------------------------*/

static void reader_loop(int slot) {
    uint64_t seed = 0x9E3779B97F4A7C15ull ^ (uint64_t)(slot + 1) * 0x2545F4914F6CDD1Dull;
    double *lat = malloc(sizeof(double) * MAX_SAMPLES);
    if (!lat) die("out of memory");
    int64_t gets = 0, rows = 0, samples = 0;
    double get_max = 0;
    sqlite3 *rdb = NULL;
    sqlite3_stmt *get_st = NULL, *range_st = NULL;
    drumlin_db *ddb = NULL;
    int32_t idx[P_COUNT];
    drumlin_value v[P_COUNT];
    static __thread drumlin_value page[RANGE_ROWS * P_COUNT];
    if (system_drumlin) {
        ddb = dl_open(idx);
    } else {
        rdb = raw_open();
        get_st = raw_prepare(rdb, "SELECT id, name, age, email, score, active FROM person WHERE id = ?");
        range_st = raw_prepare(rdb, "SELECT id, name, age, email, score, active FROM person WHERE id BETWEEN ? AND ?");
    }
    atomic_fetch_add(&sh->ready, 1);
    while (atomic_load(&sh->go) == 0) usleep(100);
    while (atomic_load(&sh->go) == 1) {
        for (int k = 0; k < GETS_PER_ROUND; k++) {
            int64_t id = 1 + (int64_t)(rng_next(&seed) % (uint64_t)n_rows);
            double t0 = now();
            if (system_drumlin) {
                drumlin_value pk = {.type = DRUMLIN_TYPE_INT, .as.integer = id};
                CK(drumlin_object_find_values(ddb, "Person", &pk, P_COUNT, idx, v, NULL));
                dl_check_values(v, id);
            } else {
                sqlite3_bind_int64(get_st, 1, id);
                if (sqlite3_step(get_st) != SQLITE_ROW) die("get %" PRId64 ": %s", id, sqlite3_errmsg(rdb));
                raw_check_stmt(get_st, id);
                sqlite3_reset(get_st);
            }
            double us = (now() - t0) * 1e6;
            if (us > get_max) get_max = us;
            if (samples < MAX_SAMPLES) lat[samples++] = us;
            gets++;
        }
        int64_t first = 1 + (int64_t)(rng_next(&seed) % (uint64_t)(n_rows - RANGE_ROWS));
        int64_t got = 0;
        if (system_drumlin) {
            char args[64];
            snprintf(args, sizeof args, "[%" PRId64 ", %" PRId64 "]", first, first + RANGE_ROWS - 1);
            drumlin_results *res = NULL;
            CK(drumlin_query(ddb, "Person", "id BETWEEN {$0, $1}", args, &res));
            size_t page_rows = 0;
            CK(drumlin_results_get_values(res, 0, RANGE_ROWS, P_COUNT, idx, page, &page_rows));
            for (size_t r = 0; r < page_rows; r++) dl_check_values(&page[r * P_COUNT], page[r * P_COUNT + P_ID].as.integer);
            got = (int64_t)page_rows;
            drumlin_results_release(res);
        } else {
            sqlite3_bind_int64(range_st, 1, first);
            sqlite3_bind_int64(range_st, 2, first + RANGE_ROWS - 1);
            while (sqlite3_step(range_st) == SQLITE_ROW) {
                raw_check_stmt(range_st, sqlite3_column_int64(range_st, 0));
                got++;
            }
            sqlite3_reset(range_st);
        }
        if (got != RANGE_ROWS) die("range from %" PRId64 " read %" PRId64 " rows", first, got);
        rows += got;
    }
    sh->results[slot] = (struct reader_result){gets, rows, get_max, percentile(lat, samples, 0.99)};
    free(lat);
    if (ddb) CK(drumlin_close(ddb));
    if (rdb) {
        sqlite3_finalize(get_st);
        sqlite3_finalize(range_st);
        sqlite3_close(rdb);
    }
}

static void *reader_thread(void *arg) {
    reader_loop((int)(intptr_t)arg);
    return NULL;
}

/*---- the writer --------------------------------------------------------------------------------------*/

typedef struct writer_out {
    int64_t commits;
    double p50_us, p99_us, max_us;
} writer_out;

static writer_out write_until_stopped(double seconds, long every_us) {
    double *lat = malloc(sizeof(double) * MAX_SAMPLES);
    if (!lat) die("out of memory");
    int64_t commits = 0;
    uint64_t seed = 0xD1B54A32D192ED03ull;
    sqlite3 *rdb = NULL;
    sqlite3_stmt *upd = NULL;
    drumlin_db *ddb = NULL;
    int32_t idx[P_COUNT];
    if (system_drumlin) {
        ddb = dl_open(idx);
    } else {
        rdb = raw_open();
        upd = raw_prepare(rdb, "UPDATE person SET score = ? WHERE id = ?");
    }
    double start = now(), next = start;
    while (now() - start < seconds) {
        double t0 = now();
        if (system_drumlin) {
            CK(drumlin_begin_write(ddb));
            for (int k = 0; k < UPDATES_PER_COMMIT; k++) {
                int64_t id = 1 + (int64_t)(rng_next(&seed) % (uint64_t)n_rows);
                drumlin_value pk = {.type = DRUMLIN_TYPE_INT, .as.integer = id};
                drumlin_value score = {.type = DRUMLIN_TYPE_DOUBLE, .as.dnum = (double)id * 0.5 + (double)((commits + k) % 2)};
                CK(drumlin_object_update_values(ddb, "Person", &pk, 1, &idx[P_SCORE], &score));
            }
            CK(drumlin_commit(ddb));
        } else {
            raw_exec(rdb, "BEGIN IMMEDIATE");
            for (int k = 0; k < UPDATES_PER_COMMIT; k++) {
                int64_t id = 1 + (int64_t)(rng_next(&seed) % (uint64_t)n_rows);
                sqlite3_bind_double(upd, 1, (double)id * 0.5 + (double)((commits + k) % 2));
                sqlite3_bind_int64(upd, 2, id);
                if (sqlite3_step(upd) != SQLITE_DONE) die("update: %s", sqlite3_errmsg(rdb));
                sqlite3_reset(upd);
            }
            raw_exec(rdb, "COMMIT");
        }
        double us = (now() - t0) * 1e6;
        if (commits < MAX_SAMPLES) lat[commits] = us;
        commits++;
        next += (double)every_us * 1e-6;
        double wait = next - now();
        if (wait > 0) usleep((useconds_t)(wait * 1e6));
        else next = now(); /* behind: do not burst to catch up */
    }
    int64_t kept = commits < MAX_SAMPLES ? commits : MAX_SAMPLES;
    writer_out out = {.commits = commits};
    out.p50_us = percentile(lat, kept, 0.5); /* sorts lat */
    out.p99_us = percentile(lat, kept, 0.99);
    out.max_us = kept ? lat[kept - 1] : 0;
    free(lat);
    if (ddb) CK(drumlin_close(ddb));
    if (rdb) {
        sqlite3_finalize(upd);
        sqlite3_close(rdb);
    }
    return out;
}

/*---- one measurement ---------------------------------------------------------------------------------*/

static void measure(const char *system, int processes, int readers, double seconds, long every_us) {
    populate();
    memset(sh, 0, sizeof *sh);
    pthread_t threads[MAX_READERS];
    pid_t pids[MAX_READERS];
    for (int r = 0; r < readers; r++) {
        if (processes) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid < 0) die("fork: %s", strerror(errno));
            if (pid == 0) {
                reader_loop(r);
                _exit(0);
            }
            pids[r] = pid;
        } else if (pthread_create(&threads[r], NULL, reader_thread, (void *)(intptr_t)r) != 0) {
            die("pthread_create failed");
        }
    }
    while (atomic_load(&sh->ready) < readers) usleep(1000);
    atomic_store(&sh->go, 1);
    double t0 = now();
    writer_out w = write_until_stopped(seconds, every_us);
    atomic_store(&sh->go, 2);
    int failed = 0;
    for (int r = 0; r < readers; r++) {
        if (processes) {
            int status = 0;
            waitpid(pids[r], &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
        } else {
            pthread_join(threads[r], NULL);
        }
    }
    double elapsed = now() - t0;
    if (failed) die("a reader process failed");
    int64_t gets = 0, rows = 0;
    double get_max = 0, get_p99 = 0;
    for (int r = 0; r < readers; r++) {
        gets += sh->results[r].gets;
        rows += sh->results[r].rows;
        if (sh->results[r].get_max_us > get_max) get_max = sh->results[r].get_max_us;
        if (sh->results[r].get_p99_us > get_p99) get_p99 = sh->results[r].get_p99_us;
    }
    printf("{\"harness\": \"readers\", \"system\": \"%s\", \"mode\": \"%s\", \"readers\": %d, \"n\": %" PRId64
           ", \"seconds\": %.3f, \"gets\": %" PRId64 ", \"rows\": %" PRId64 ", \"gets_per_s\": %.1f, \"rows_per_s\": %.1f"
           ", \"get_p99_us\": %.2f, \"get_max_us\": %.1f, \"commits\": %" PRId64 ", \"commits_per_s\": %.1f"
           ", \"commit_p50_us\": %.1f, \"commit_p99_us\": %.1f, \"commit_max_us\": %.1f}\n",
           system, processes ? "processes" : "threads", readers, n_rows, elapsed, gets, rows, (double)gets / elapsed,
           (double)rows / elapsed, get_p99, get_max, w.commits, (double)w.commits / elapsed, w.p50_us, w.p99_us, w.max_us);
    fflush(stdout);
}

int main(int argc, char **argv) {
    n_rows = 100000;
    double seconds = 3;
    long every_us = 2000;
    char readers_arg[64] = "1,2,4", modes_arg[64] = "threads,processes", systems_arg[64] = "raw,drumlin";
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) die("%s needs a value", a);
        if (!strcmp(a, "--n")) n_rows = atoll(v);
        else if (!strcmp(a, "--seconds")) seconds = atof(v);
        else if (!strcmp(a, "--commit-every-us")) every_us = atol(v);
        else if (!strcmp(a, "--readers")) snprintf(readers_arg, sizeof readers_arg, "%s", v);
        else if (!strcmp(a, "--modes")) snprintf(modes_arg, sizeof modes_arg, "%s", v);
        else if (!strcmp(a, "--systems")) snprintf(systems_arg, sizeof systems_arg, "%s", v);
        else if (!strcmp(a, "--dir")) dir = v;
        else die("unknown argument %s", a);
        i++;
    }
    if (n_rows < 1000) die("--n must be at least 1000");
    if (seconds <= 0) die("--seconds must be positive");
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) die("mmap: %s", strerror(errno));
    snprintf(db_path, sizeof db_path, "%s/drumlin-bench-readers-%d.db", dir, (int)getpid());
    printf("{\"harness\": \"readers\", \"kind\": \"info\", \"n\": %" PRId64 ", \"seconds\": %g, \"commit_every_us\": %ld, "
           "\"updates_per_commit\": %d, \"gets_per_round\": %d, \"range_rows\": %d, \"sqlite\": \"%s\", \"drumlin\": \"%s\"}\n",
           n_rows, seconds, every_us, UPDATES_PER_COMMIT, GETS_PER_ROUND, RANGE_ROWS, sqlite3_libversion(), drumlin_version());
    fflush(stdout);
    char counts[64];
    snprintf(counts, sizeof counts, "%s", readers_arg);
    for (char *rs = strtok(counts, ","); rs; rs = strtok(NULL, ",")) {
        int readers = atoi(rs);
        if (readers < 1 || readers > MAX_READERS) die("--readers: each count must be 1..%d", MAX_READERS);
        for (int processes = 0; processes <= 1; processes++) {
            if (!strstr(modes_arg, processes ? "processes" : "threads")) continue;
            for (int d = 0; d <= 1; d++) {
                const char *system = d ? "drumlin" : "raw";
                if (!strstr(systems_arg, system)) continue;
                system_drumlin = d;
                fprintf(stderr, "  readers: %s, %d reader %s, N=%" PRId64 ", %g s\n", system, readers,
                        processes ? "processes" : "threads", n_rows, seconds);
                measure(system, processes, readers, seconds, every_us);
            }
        }
    }
    for (const char *suffix = ""; suffix; suffix = (!*suffix ? "-wal" : (suffix[1] == 'w' ? "-shm" : NULL))) {
        char p[4200];
        snprintf(p, sizeof p, "%s%s", db_path, suffix);
        unlink(p);
    }
    return 0;
}
