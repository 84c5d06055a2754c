/*
 * bench_raw.c — the raw SQLite C system of the C harness: cached prepared statements, WAL,
 * synchronous=NORMAL; the ceiling for a SQLite-backed store.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <sqlite3.h>

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

/* Steps a bound statement through every row, reading each whole; adds their ids to *ids, resets
 * the statement and returns how many rows there were. */
static int64_t sq_read_rows(sqlite3_stmt *st, int64_t *ids) {
    int64_t rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        sq_read_row(st);
        *ids += sqlite3_column_int64(st, 0);
        rows++;
    }
    sqlite3_reset(st);
    return rows;
}

void run_raw(const config *cfg, const char *path, const expected *e) {
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
    person *people = make_people(n);
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
        int64_t rows = 0, ids = 0;
        t0 = now();
        for (int k = 0; k < LOOKUPS; k++) {
            sqlite3_bind_text(by_name, 1, names[k], lens[k], SQLITE_STATIC);
            rows += sq_read_rows(by_name, &ids);
        }
        t1 = now();
        emit_step("lookup", LOOKUPS, rows, t1 - t0, "prepared SELECT by name (indexed), read every column");
        check_lookups(e, rows, ids);
    }

    if (step_begins(cfg, STEP_RANGE)) {
        int64_t rows = 0, ids = 0;
        t0 = now();
        for (int rep = 0; rep < RANGE_REPS; rep++) {
            ids = 0;
            sqlite3_bind_int(range, 1, RANGE_LO);
            sqlite3_bind_int(range, 2, RANGE_HI);
            rows += sq_read_rows(range, &ids);
        }
        t1 = now();
        emit_step("range", RANGE_REPS, rows, t1 - t0,
                  "prepared SELECT ... WHERE age BETWEEN 30 AND 40, read every column (5 times)");
        check("range rows", rows, e->range_rows * RANGE_REPS);
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

