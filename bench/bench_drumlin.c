/*
 * bench_drumlin.c — Drumlin's two C systems of the harness: the JSON layer (drumlin_create_many_json,
 * drumlin_get_json, drumlin_query_json, ...) and the typed layer (drumlin_create_many_values,
 * drumlin_object_find_values, drumlin_object_update_values, drumlin_results_get_values, ...).
 */
#define _GNU_SOURCE
#include "bench.h"

#include "drumlin.h"

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {"
    "\"id\": \"int\", \"name\": {\"type\": \"string\", \"indexed\": true}, \"age\": \"int\", "
    "\"email\": \"string\", \"score\": \"double\", \"active\": \"bool\"}}]";

/*---- Drumlin: shared -----------------------------------------------------------------------------*/

#define CK(call)                                                                                         \
    do {                                                                                                 \
        int ck_rc_ = (call);                                                                             \
        if (ck_rc_ != DRUMLIN_OK)                                                                          \
            die("%s failed: %s (%s)", #call, drumlin_last_error_message(), drumlin_status_name(ck_rc_));   \
    } while (0)

enum { P_ID, P_NAME, P_AGE, P_EMAIL, P_SCORE, P_ACTIVE, P_COUNT };
static const char *PROP_NAMES[P_COUNT] = {"id", "name", "age", "email", "score", "active"};

static drumlin_db *drumlin_open_bench(const char *path, int32_t idx[P_COUNT]) {
    drumlin_db *db = NULL;
    drumlin_options *options = NULL;
    /* DRUMLIN_BENCH_ENCRYPTED=1: the same workload on an encrypted file (bench/encryption.py). */
    const char *encrypted = getenv("DRUMLIN_BENCH_ENCRYPTED");
    if (encrypted && *encrypted && strcmp(encrypted, "0") != 0) {
        uint8_t key[64];
        for (int i = 0; i < 64; i++) key[i] = (uint8_t)(i * 37 + 11);
        options = drumlin_options_new();
        CK(drumlin_options_set_encryption_key(options, key, sizeof key));
    }
    CK(drumlin_open(path, SCHEMA, options, &db));
    drumlin_options_free(options);
    for (int i = 0; i < P_COUNT; i++) CK(drumlin_property_index(db, "Person", PROP_NAMES[i], &idx[i]));
    return db;
}

static int64_t drumlin_count_all(drumlin_db *db) {
    int64_t c = -1;
    CK(drumlin_count(db, "Person", NULL, NULL, &c));
    return c;
}

/* Reads the six values of a person (in P_* order) into a checksum. */
static int64_t value_sum(const drumlin_value v[P_COUNT]) {
    if (v[P_ID].type != DRUMLIN_TYPE_INT || v[P_NAME].type != DRUMLIN_TYPE_STRING || v[P_AGE].type != DRUMLIN_TYPE_INT ||
        v[P_EMAIL].type != DRUMLIN_TYPE_STRING || v[P_SCORE].type != DRUMLIN_TYPE_DOUBLE ||
        v[P_ACTIVE].type != DRUMLIN_TYPE_BOOL)
        die("unexpected value types");
    return v[P_ID].as.integer + v[P_AGE].as.integer + (int64_t)v[P_NAME].as.string.size +
           (int64_t)v[P_EMAIL].as.string.size + v[P_ACTIVE].as.boolean + (int64_t)(2 * v[P_SCORE].as.dnum);
}

/* A JSON array of persons as drumlin_create_many_json takes it, built from the generator. */
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

static void check_score(drumlin_db *db, int32_t score_idx, int64_t id) {
    drumlin_value pk = {.type = DRUMLIN_TYPE_INT, .as.integer = id}, v;
    drumlin_object *obj = NULL;
    CK(drumlin_object_find(db, "Person", &pk, &obj));
    CK(drumlin_object_get_at(obj, score_idx, &v));
    if (v.type != DRUMLIN_TYPE_DOUBLE || v.as.dnum != (double)id * 0.5 + 1) die("update did not write the score");
    drumlin_object_release(obj);
}

static void lookup_args(const expected *e, char args[LOOKUPS][32]) {
    for (int k = 0; k < LOOKUPS; k++) snprintf(args[k], 32, "[\"name%" PRId64 "\"]", e->lookup_ids[k]);
}

/*---- Drumlin: JSON layer -------------------------------------------------------------------------*/

/* Sums "id": values in a JSON array of persons (untimed verification of the JSON paths). */
static void json_ids(const char *json, int64_t *rows, int64_t *ids) {
    for (const char *p = strstr(json, "\"id\":"); p; p = strstr(p + 5, "\"id\":")) {
        *rows += 1;
        *ids += strtoll(p + 5, NULL, 10);
    }
}

void run_json(const config *cfg, const char *path, const expected *e) {
    int32_t idx[P_COUNT];
    drumlin_db *db = drumlin_open_bench(path, idx);
    int64_t n = cfg->n, created = 0;

    long baseline = rss_kb();
    size_t json_len = 0;
    char *json = build_json(n, &json_len);
    long after_input = rss_kb();

    step_begins(cfg, STEP_INSERT);
    double t0 = now();
    CK(drumlin_begin_write(db));
    CK(drumlin_create_many_json(db, "Person", json, DRUMLIN_UPDATE_NEVER, &created));
    CK(drumlin_commit(db));
    double t1 = now();
    long insert_peak = peak_rss_kb();
    emit_step("insert", n, n, t1 - t0, "drumlin_create_many_json(whole array) in one write transaction");
    check("insert", created, n);
    check("insert count", drumlin_count_all(db), n);
    free(json);

    if (step_begins(cfg, STEP_GET)) {
        char key[32];
        int64_t bytes = 0;
        t0 = now();
        for (int64_t id = 1; id <= n; id++) {
            char *out = NULL;
            snprintf(key, sizeof key, "%" PRId64, id);
            CK(drumlin_get_json(db, "Person", key, &out));
            bytes += (int64_t)strlen(out);
            drumlin_free(out);
        }
        t1 = now();
        emit_step("get", n, n, t1 - t0, "drumlin_get_json + drumlin_free (text not parsed), autocommit");
        if (bytes < n * 60) die("get returned too little JSON (%" PRId64 " bytes)", bytes);
        char *out = NULL;
        CK(drumlin_get_json(db, "Person", "7", &out));
        if (!strstr(out, "\"name7\"") || !strstr(out, "user7@example.com")) die("get 7: %s", out);
        drumlin_free(out);
    }

    if (step_begins(cfg, STEP_LOOKUP)) {
        char args[LOOKUPS][32];
        lookup_args(e, args);
        int64_t rows = 0, ids = 0, bytes = 0;
        t0 = now();
        for (int k = 0; k < LOOKUPS; k++) {
            char *out = NULL;
            CK(drumlin_query_json(db, "Person", "name == $0", args[k], &out));
            bytes += (int64_t)strlen(out);
            drumlin_free(out);
        }
        t1 = now();
        if (bytes < LOOKUPS * 60) die("lookups returned too little JSON (%" PRId64 " bytes)", bytes);
        emit_step("lookup", LOOKUPS, LOOKUPS, t1 - t0, "drumlin_query_json(\\\"name == $0\\\") + drumlin_free (text not parsed)");
        for (int k = 0; k < LOOKUPS; k++) { /* verify, untimed */
            char *out = NULL;
            CK(drumlin_query_json(db, "Person", "name == $0", args[k], &out));
            json_ids(out, &rows, &ids);
            drumlin_free(out);
        }
        check_lookups(e, rows, ids);
    }

    if (step_begins(cfg, STEP_RANGE)) {
        char *outs[RANGE_REPS];
        int64_t rows = 0, ids = 0;
        t0 = now();
        for (int rep = 0; rep < RANGE_REPS; rep++) CK(drumlin_query_json(db, "Person", "age BETWEEN {30, 40}", NULL, &outs[rep]));
        t1 = now();
        for (int rep = 0; rep < RANGE_REPS; rep++) {
            int64_t got = 0;
            ids = 0;
            json_ids(outs[rep], &got, &ids);
            drumlin_free(outs[rep]);
            rows += got;
        }
        emit_step("range", RANGE_REPS, rows, t1 - t0, "drumlin_query_json(\\\"age BETWEEN {30, 40}\\\") (5 times)");
        check("range rows", rows, e->range_rows * RANGE_REPS);
        check("range ids", ids, e->range_sum);
    }

    if (step_begins(cfg, STEP_UPDATE)) {
        char *upd = build_update_json(n);
        int64_t updated = 0;
        t0 = now();
        CK(drumlin_begin_write(db));
        CK(drumlin_create_many_json(db, "Person", upd, DRUMLIN_UPDATE_MODIFIED, &updated));
        CK(drumlin_commit(db));
        t1 = now();
        free(upd);
        emit_step("update", n, n, t1 - t0,
                  "drumlin_create_many_json([{id, score}...], DRUMLIN_UPDATE_MODIFIED) in one write transaction");
        check("update", updated, n);
        check_score(db, idx[P_SCORE], n / 2 + 1);
    }

    if (step_begins(cfg, STEP_DELETE)) {
        int64_t deleted = 0;
        t0 = now();
        CK(drumlin_begin_write(db));
        CK(drumlin_delete_where(db, "Person", "TRUEPREDICATE", NULL, &deleted));
        CK(drumlin_commit(db));
        t1 = now();
        emit_step("delete", n, n, t1 - t0, "drumlin_delete_where(\\\"TRUEPREDICATE\\\") in one write transaction");
        check("delete", deleted, n);
        check("delete count", drumlin_count_all(db), 0);
    }

    alarm(0);
    emit_mem(n, baseline, after_input, (int64_t)json_len, "JSON text", insert_peak, peak_rss_kb());
    CK(drumlin_close(db));
}

/*---- Drumlin: typed layer ------------------------------------------------------------------------*/

static void person_values(const person *p, drumlin_value v[P_COUNT]) {
    v[P_ID].type = DRUMLIN_TYPE_INT;
    v[P_ID].as.integer = p->id;
    v[P_NAME].type = DRUMLIN_TYPE_STRING;
    v[P_NAME].as.string.data = p->name;
    v[P_NAME].as.string.size = (size_t)p->name_len;
    v[P_AGE].type = DRUMLIN_TYPE_INT;
    v[P_AGE].as.integer = p->age;
    v[P_EMAIL].type = DRUMLIN_TYPE_STRING;
    v[P_EMAIL].as.string.data = p->email;
    v[P_EMAIL].as.string.size = (size_t)p->email_len;
    v[P_SCORE].type = DRUMLIN_TYPE_DOUBLE;
    v[P_SCORE].as.dnum = p->score;
    v[P_ACTIVE].type = DRUMLIN_TYPE_BOOL;
    v[P_ACTIVE].as.boolean = p->active;
}

/* Reads every row of `res` in pages of PAGE_ROWS into one fixed buffer, as an application
 * streams results: each page continues the statement the previous one stopped (no count first,
 * no buffer sized to the whole result). Adds the ids to *ids; returns how many rows. */
enum { PAGE_ROWS = 256 };
static int64_t read_results(drumlin_results *res, const int32_t idx[P_COUNT], int64_t *ids) {
    static drumlin_value page[PAGE_ROWS * P_COUNT];
    int64_t total = 0;
    size_t rows = PAGE_ROWS;
    while (rows == PAGE_ROWS) {
        CK(drumlin_results_get_values(res, (size_t)total, PAGE_ROWS, P_COUNT, idx, page, &rows));
        for (size_t r = 0; r < rows; r++) {
            value_sum(&page[r * P_COUNT]);
            *ids += page[r * P_COUNT + P_ID].as.integer;
        }
        total += (int64_t)rows;
    }
    return total;
}

void run_typed(const config *cfg, const char *path, const expected *e) {
    int32_t idx[P_COUNT];
    drumlin_db *db = drumlin_open_bench(path, idx);
    int64_t n = cfg->n;

    long baseline = rss_kb();
    person *people = make_people(n);
    long after_input = rss_kb();

    /* The typed bulk path takes rows of drumlin_values: filled BATCH people at a time. */
    enum { BATCH = 1000 };
    static drumlin_value batch[BATCH * P_COUNT];
    drumlin_value v[P_COUNT];
    step_begins(cfg, STEP_INSERT);
    double t0 = now();
    CK(drumlin_begin_write(db));
    for (int64_t first = 0; first < n; first += BATCH) {
        int64_t rows = n - first < BATCH ? n - first : BATCH;
        for (int64_t r = 0; r < rows; r++) person_values(&people[first + r], batch + r * P_COUNT);
        CK(drumlin_create_many_values(db, "Person", P_COUNT, idx, (size_t)rows, batch, DRUMLIN_UPDATE_NEVER, NULL));
    }
    CK(drumlin_commit(db));
    double t1 = now();
    long insert_peak = peak_rss_kb();
    emit_step("insert", n, n, t1 - t0,
              "drumlin_create_many_values, 1000 rows of drumlin_values per call, one write transaction");
    check("insert count", drumlin_count_all(db), n);
    free(people);

    if (step_begins(cfg, STEP_GET)) {
        int64_t sum = 0;
        drumlin_value pk = {.type = DRUMLIN_TYPE_INT};
        t0 = now();
        for (int64_t id = 1; id <= n; id++) {
            pk.as.integer = id;
            CK(drumlin_object_find_values(db, "Person", &pk, P_COUNT, idx, v, NULL));
            sum += value_sum(v);
        }
        t1 = now();
        emit_step("get", n, n, t1 - t0, "drumlin_object_find_values(6 properties), one statement, autocommit");
        check("get", sum, e->get_sum);
    }

    if (step_begins(cfg, STEP_LOOKUP)) {
        char args[LOOKUPS][32];
        lookup_args(e, args);
        int64_t rows = 0, ids = 0;
        t0 = now();
        for (int k = 0; k < LOOKUPS; k++) {
            drumlin_results *res = NULL;
            CK(drumlin_query(db, "Person", "name == $0", args[k], &res));
            rows += read_results(res, idx, &ids);
            drumlin_results_release(res);
        }
        t1 = now();
        emit_step("lookup", LOOKUPS, rows, t1 - t0,
                  "drumlin_query(\\\"name == $0\\\") + drumlin_results_get_values(pages of 256 rows, 6) + release");
        check_lookups(e, rows, ids);
    }

    if (step_begins(cfg, STEP_RANGE)) {
        int64_t rows = 0, ids = 0;
        t0 = now();
        for (int rep = 0; rep < RANGE_REPS; rep++) {
            drumlin_results *res = NULL;
            ids = 0;
            CK(drumlin_query(db, "Person", "age BETWEEN {30, 40}", NULL, &res));
            rows += read_results(res, idx, &ids);
            drumlin_results_release(res);
        }
        t1 = now();
        emit_step("range", RANGE_REPS, rows, t1 - t0,
                  "drumlin_query(\\\"age BETWEEN {30, 40}\\\") + drumlin_results_get_values(pages of 256 rows, 6) (5 times)");
        check("range rows", rows, e->range_rows * RANGE_REPS);
        check("range ids", ids, e->range_sum);
    }

    if (step_begins(cfg, STEP_UPDATE)) {
        drumlin_value pk = {.type = DRUMLIN_TYPE_INT}, score = {.type = DRUMLIN_TYPE_DOUBLE};
        t0 = now();
        CK(drumlin_begin_write(db));
        for (int64_t id = 1; id <= n; id++) {
            pk.as.integer = id;
            score.as.dnum = (double)id * 0.5 + 1;
            CK(drumlin_object_update_values(db, "Person", &pk, 1, &idx[P_SCORE], &score));
        }
        CK(drumlin_commit(db));
        t1 = now();
        emit_step("update", n, n, t1 - t0, "drumlin_object_update_values(score) per object, one write transaction");
        check_score(db, idx[P_SCORE], n / 2 + 1);
    }

    if (step_begins(cfg, STEP_DELETE)) {
        drumlin_value pk = {.type = DRUMLIN_TYPE_INT};
        t0 = now();
        CK(drumlin_begin_write(db));
        for (int64_t id = 1; id <= n; id++) {
            drumlin_object *obj = NULL;
            pk.as.integer = id;
            CK(drumlin_object_find(db, "Person", &pk, &obj));
            CK(drumlin_object_delete(obj));
            drumlin_object_release(obj);
        }
        CK(drumlin_commit(db));
        t1 = now();
        emit_step("delete", n, n, t1 - t0, "drumlin_object_find + drumlin_object_delete + release, one write transaction");
        check("delete count", drumlin_count_all(db), 0);
    }

    alarm(0);
    emit_mem(n, baseline, after_input, (int64_t)n * (int64_t)sizeof(person), "person structs", insert_peak, peak_rss_kb());
    CK(drumlin_close(db));
}

