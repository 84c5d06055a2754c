/*
 * notify.c — what notifications cost (`make bench` runs it after the main workload and appends its
 * table to bench/results/latest.md). On N persons (default 100k):
 *
 *   1. a commit that changes one object's `score`, with no observer, then with one observer on the
 *      results of all N objects (and on all N sorted by age): the median extra time is what
 *      computing and delivering the change set costs (target: < 1 ms);
 *   2. a bulk insert of N objects into an empty class, with no observer and with one results
 *      observer on that class (target: at most 10 % more; medians of 7 interleaved runs).
 *
 * Every timed delivery is checked: the observer must have received exactly one modification.
 */
#define _POSIX_C_SOURCE 200809L
#include <drumlin.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *SCHEMA =
    "[{\"name\": \"Person\", \"primaryKey\": \"id\", \"properties\": {\"id\": \"int\", \"name\": \"string\","
    " \"age\": \"int\", \"score\": \"double\"}}]";

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void must(int rc, const char *what) {
    if (rc != DRUMLIN_OK) {
        fprintf(stderr, "notify bench: %s failed: %s\n", what, drumlin_last_error_message());
        exit(1);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

static char *people_json(int64_t first, int64_t n) {
    size_t capacity = (size_t)n * 80 + 16, used = 0;
    char *json = malloc(capacity);
    int64_t i;
    json[used++] = '[';
    for (i = 0; i < n; i++) {
        int64_t id = first + i;
        used += (size_t)snprintf(json + used, capacity - used, "%s{\"id\":%" PRId64 ",\"name\":\"p%" PRId64 "\",\"age\":%" PRId64 ",\"score\":%" PRId64 ".5}",
                                 i ? "," : "", id, id, id % 90, id % 1000);
    }
    json[used++] = ']';
    json[used] = 0;
    return json;
}

typedef struct {
    int calls;
    size_t modifications;
} tally;

static void count_changes(void *userdata, const drumlin_changes *changes) {
    tally *t = userdata;
    const size_t *indices = NULL;
    size_t count = 0;
    drumlin_changes_indices(changes, DRUMLIN_CHANGE_MODIFICATIONS, &indices, &count);
    t->calls++;
    t->modifications += count;
}

/* Median seconds of `rounds` commits that each change one object's score. */
static double one_object_commits(drumlin_db *db, int64_t n, int rounds, double base, tally *check) {
    double *times = malloc(sizeof(double) * (size_t)rounds);
    int32_t score = -1;
    int r;
    double result;
    must(drumlin_property_index(db, "Person", "score", &score), "property index");
    for (r = 0; r < rounds; r++) {
        drumlin_object *object = NULL;
        drumlin_value pk, value;
        double t0;
        memset(&pk, 0, sizeof pk);
        pk.type = DRUMLIN_TYPE_INT;
        pk.as.integer = (r * 7919) % n;
        must(drumlin_object_find(db, "Person", &pk, &object), "find");
        memset(&value, 0, sizeof value);
        value.type = DRUMLIN_TYPE_DOUBLE;
        value.as.dnum = base + r;   /* a new value each time: setting the same value is no change */
        t0 = now();
        must(drumlin_begin_write(db), "begin");
        must(drumlin_object_set_at(object, score, &value), "set");
        must(drumlin_commit(db), "commit");
        times[r] = now() - t0;
        drumlin_object_release(object);
        if (check && (check->calls != r + 1 || check->modifications != (size_t)(r + 1))) {
            fprintf(stderr, "notify bench: the observer received %d calls, %zu modifications after %d commits\n",
                    check->calls, check->modifications, r + 1);
            exit(1);
        }
    }
    result = median(times, rounds);
    free(times);
    return result;
}

/* Removes a database file and its WAL and shared-memory files: the next run's writes then do not
 * share the disk's write-back with this one's dirty pages. */
static void remove_database(const char *path) {
    char side[4300];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* Seconds to bulk insert n persons into a fresh file (removed after), with or without one results
 * observer. */
static double bulk_insert(const char *dir, int run, int64_t n, const char *json, int observed) {
    char path[4200];
    drumlin_db *db = NULL;
    drumlin_results *all = NULL;
    drumlin_token *token = NULL;
    tally t = {0, 0};
    int64_t count = 0;
    double t0, elapsed;
    snprintf(path, sizeof path, "%s/bulk-%d-%d.drumlin", dir, run, observed);
    must(drumlin_open(path, SCHEMA, NULL, &db), "open");
    if (observed) {
        must(drumlin_query(db, "Person", NULL, NULL, &all), "query");
        must(drumlin_results_observe(all, NULL, count_changes, &t, NULL, &token), "observe");
    }
    t0 = now();
    must(drumlin_begin_write(db), "begin");
    must(drumlin_create_many_json(db, "Person", json, DRUMLIN_UPDATE_NEVER, &count), "create_many");
    must(drumlin_commit(db), "commit");
    elapsed = now() - t0;
    if (count != n || (observed && t.calls != 1)) {
        fprintf(stderr, "notify bench: inserted %" PRId64 ", observer called %d times\n", count, t.calls);
        exit(1);
    }
    drumlin_token_release(token);
    drumlin_results_release(all);
    drumlin_close(db);
    remove_database(path);
    return elapsed;
}

/* Bulk inserts with and without an observer, interleaved, each order first in every other run: one
 * insert of 100k takes ~0.15 s, and this machine moves a single one by up to ±40 %. */
enum { BULK_RUNS = 7 };

int main(int argc, char **argv) {
    char *unit = NULL;
    int64_t n = argc > 1 ? strtoll(argv[1], &unit, 10) : 100000;   /* 100000, 100k or 1M */
    int rounds = 200, runs = BULK_RUNS, run;
    char dir[] = "/tmp/drumlin-notify-bench-XXXXXX";
    char path[4200], command[4300];
    char *json = NULL;
    drumlin_db *db = NULL;
    drumlin_results *all = NULL, *sorted = NULL;
    drumlin_token *token = NULL;
    tally t = {0, 0};
    int64_t count = 0;
    double plain, observed, observed_sorted, bulk_plain[BULK_RUNS], bulk_observed[BULK_RUNS], bp, bo;

    if (unit && (*unit == 'k' || *unit == 'K')) n *= 1000;
    if (unit && *unit == 'M') n *= 1000000;
    if (n < 1) {
        fprintf(stderr, "usage: %s [N, e.g. 100k]\n", argv[0]);
        return 2;
    }
    json = people_json(0, n);
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/commits.drumlin", dir);
    must(drumlin_open(path, SCHEMA, NULL, &db), "open");
    must(drumlin_begin_write(db), "begin");
    must(drumlin_create_many_json(db, "Person", json, DRUMLIN_UPDATE_NEVER, &count), "create_many");
    must(drumlin_commit(db), "commit");

    plain = one_object_commits(db, n, rounds, 1e6, NULL);
    must(drumlin_query(db, "Person", NULL, NULL, &all), "query");
    must(drumlin_results_observe(all, NULL, count_changes, &t, NULL, &token), "observe");
    observed = one_object_commits(db, n, rounds, 2e6, &t);
    drumlin_token_release(token);
    t.calls = 0;
    t.modifications = 0;
    must(drumlin_query(db, "Person", "TRUEPREDICATE SORT(age ASC)", NULL, &sorted), "sorted query");
    must(drumlin_results_observe(sorted, NULL, count_changes, &t, NULL, &token), "observe sorted");
    observed_sorted = one_object_commits(db, n, rounds, 3e6, &t);
    drumlin_token_release(token);
    drumlin_results_release(sorted);
    drumlin_results_release(all);
    drumlin_close(db);

    for (run = 0; run < runs; run++) {
        if (run % 2) bulk_observed[run] = bulk_insert(dir, run, n, json, 1);
        bulk_plain[run] = bulk_insert(dir, run, n, json, 0);
        if (!(run % 2)) bulk_observed[run] = bulk_insert(dir, run, n, json, 1);
    }
    bp = median(bulk_plain, runs);
    bo = median(bulk_observed, runs);

    printf("## Notifications (bench/notify.c, %" PRId64 " objects)\n\n", n);
    printf("| step | without observer | with observer | extra | target |\n|---|---|---|---|---|\n");
    printf("| commit changing one object, observer on all %" PRId64 " (median of %d) | %.3f ms | %.3f ms | %+.3f ms | < 1 ms: %s |\n",
           n, rounds, plain * 1e3, observed * 1e3, (observed - plain) * 1e3, observed - plain < 1e-3 ? "met" : "MISSED");
    printf("| the same, observer on all %" PRId64 " sorted by age | %.3f ms | %.3f ms | %+.3f ms | < 1 ms: %s |\n",
           n, plain * 1e3, observed_sorted * 1e3, (observed_sorted - plain) * 1e3,
           observed_sorted - plain < 1e-3 ? "met" : "MISSED");
    printf("| bulk insert of %" PRId64 " (create_many_json, one commit; median of %d) | %.1f ms | %.1f ms | %+.1f %% | <= 10 %%: %s |\n\n",
           n, runs, bp * 1e3, bo * 1e3, (bo / bp - 1) * 100, bo / bp <= 1.10 ? "met" : "MISSED");
    free(json);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    return system(command) == 0 ? 0 : 1;
}
