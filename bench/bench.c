/*
 * bench.c — the C half of Drumlin's benchmark harness (see bench/README.md).
 *
 * Times the same Person workload on three systems, each in its own forked process per run so that
 * peak RSS is per system and per run:
 *   raw    raw SQLite C with cached prepared statements (WAL, synchronous=NORMAL)
 *   json   Drumlin's JSON layer (drumlin_create_many_json, drumlin_get_json, drumlin_query_json, ...)
 *   typed  Drumlin's typed layer (drumlin_create_many_values, drumlin_object_find_values, drumlin_object_update_values, drumlin_query)
 *
 * This file holds the workload, the measurement helpers and the driver; bench_raw.c and
 * bench_drumlin.c hold the systems (bench.h is what they share).
 *
 * Output: one JSON object per line on stdout (measurements), progress on stderr. bench/run.py
 * turns the lines into tables; this program never judges a number.
 *
 *   drumlin-bench --n 100000 [--runs 3] [--systems raw,json,typed]
 *               [--steps insert,get,lookup,range,update,delete] [--dir DIR]
 */
#define _GNU_SOURCE
#include "bench.h"

#include <sqlite3.h>

#include "drumlin.h"

/*---- workload ----------------------------------------------------------------------------------*/

void make_person(int64_t id, person *p) {
    p->id = id;
    p->age = 18 + (id * 7) % 60;
    p->score = (double)id * 0.5;
    p->active = id % 2 == 0;
    p->name_len = snprintf(p->name, sizeof p->name, "name%" PRId64, id);
    p->email_len = snprintf(p->email, sizeof p->email, "user%" PRId64 "@example.com", id);
}

person *make_people(int64_t n) {
    person *people = malloc((size_t)n * sizeof *people);
    if (!people) die("out of memory");
    for (int64_t i = 0; i < n; i++) make_person(i + 1, &people[i]);
    return people;
}

const char *const STEP_NAMES[] = {"insert", "get", "lookup", "range", "update", "delete"};

int64_t person_sum(const person *p) {
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

double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long rss_kb(void) { /* current resident set */
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

long peak_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss; /* KiB on Linux */
}

void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[c/%s run %d] error: ", g_system, g_run);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    fflush(stdout);
    _exit(1);
}

void emit_step(const char *step, int64_t ops, int64_t rows, double seconds, const char *how) {
    printf("{\"harness\": \"c\", \"system\": \"%s\", \"run\": %d, \"step\": \"%s\", \"ops\": %" PRId64
           ", \"rows\": %" PRId64 ", \"seconds\": %.9f, \"how\": \"%s\"}\n",
           g_system, g_run, step, ops, rows, seconds, how);
    fflush(stdout);
}

void emit_mem(int64_t n, long baseline_kb, long after_input_kb, int64_t input_bytes, const char *input_what, long insert_peak_kb,
                     long peak_kb) {
    printf("{\"harness\": \"c\", \"system\": \"%s\", \"run\": %d, \"kind\": \"mem\", \"n\": %" PRId64
           ", \"baseline_kb\": %ld, \"after_input_kb\": %ld, \"input_bytes\": %" PRId64 ", \"input\": \"%s\", \"insert_peak_kb\": %ld"
           ", \"peak_kb\": %ld}\n",
           g_system, g_run, n, baseline_kb, after_input_kb, input_bytes, input_what, insert_peak_kb, peak_kb);
    fflush(stdout);
}

void check(const char *step, int64_t got, int64_t want) {
    if (got != want) die("%s read the wrong data: checksum %" PRId64 ", expected %" PRId64, step, got, want);
}

void check_lookups(const expected *e, int64_t rows, int64_t ids) {
    int64_t want = 0;
    for (int k = 0; k < LOOKUPS; k++) want += e->lookup_ids[k];
    check("lookup rows", rows, LOOKUPS);
    check("lookup ids", ids, want);
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

int step_begins(const config *cfg, unsigned step_bit) {
    if (!(cfg->steps & step_bit)) return 0;
    int index = 0;
    while ((1u << index) != step_bit) index++;
    *g_current_step = index;
    alarm(cfg->step_timeout);
    return 1;
}

/* The size of the six fields' values (8-byte ints and doubles, 1-byte bool, string bytes). */
int64_t field_bytes(int64_t n) {
    int64_t total = 0;
    person p;
    for (int64_t id = 1; id <= n; id++) {
        make_person(id, &p);
        total += 8 + p.name_len + 8 + p.email_len + 8 + 1;
    }
    return total;
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

/* The database's size on disk after the system closed it (its write-ahead log checkpointed into
 * the file by the close), for bench-scale's file size against raw SQLite's. */
static void emit_file_size(const char *system, int run, const char *path) {
    struct stat main_st, wal_st;
    char wal[4300];
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(path, &main_st) != 0) return;
    long long wal_bytes = stat(wal, &wal_st) == 0 ? (long long)wal_st.st_size : 0;
    printf("{\"harness\": \"c\", \"system\": \"%s\", \"run\": %d, \"kind\": \"file\", \"bytes\": %lld, "
           "\"wal_bytes\": %lld}\n",
           system, run, (long long)main_st.st_size, wal_bytes);
    fflush(stdout);
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
        snprintf(cfg.dir, sizeof cfg.dir, "%s/drumlin-bench-c-XXXXXX", tmp && *tmp ? tmp : "/tmp");
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
           "\"drumlin\": \"%s\", \"field_bytes\": %" PRId64 ", \"range_rows\": %" PRId64 "}\n",
           cfg.n, cfg.runs, sqlite3_libversion(), drumlin_version(), field_bytes(cfg.n), e.range_rows);
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
            emit_file_size(sys->key, run, path);
            remove_db(path);
        }
    }
    if (!dir) rmdir(cfg.dir);
    return failed;
}

