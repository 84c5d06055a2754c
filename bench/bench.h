/*
 * bench.h — what the parts of the C harness share (see bench.c for the whole): the workload, the
 * measurement helpers and one entry point per system.
 */
#ifndef DRUMLIN_BENCH_H
#define DRUMLIN_BENCH_H

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

/*---- workload ----------------------------------------------------------------------------------*/

#define LOOKUPS 1000
#define RANGE_LO 30
#define RANGE_HI 40
#define RANGE_REPS 5 /* the range query runs this many times in its step: one run is ~10 ms, too noisy */

/* One person, generated from its id (the same rule in bench.py): make_person(). */
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

enum { STEP_INSERT = 1, STEP_GET = 2, STEP_LOOKUP = 4, STEP_RANGE = 8, STEP_UPDATE = 16, STEP_DELETE = 32 };

extern const char *const STEP_NAMES[];
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


void make_person(int64_t id, person *p);
int64_t person_sum(const person *p);
person *make_people(int64_t n); /* ids 1...n, malloc'ed (the input of the insert step) */

/*---- measurement helpers (bench.c) -------------------------------------------------------------*/

double now(void);
long rss_kb(void);
long peak_rss_kb(void);
__attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...);
void emit_step(const char *step, int64_t ops, int64_t rows, double seconds, const char *how);
void emit_mem(int64_t n, long baseline_kb, long after_input_kb, int64_t input_bytes, const char *input_what, long insert_peak_kb,
              long peak_kb);
void check(const char *step, int64_t got, int64_t want);
void check_lookups(const expected *e, int64_t rows, int64_t ids); /* one row per lookup, their ids */
int step_begins(const config *cfg, unsigned step_bit);
int64_t field_bytes(int64_t n);

/*---- the systems -------------------------------------------------------------------------------*/

void run_raw(const config *cfg, const char *path, const expected *e);   /* bench_raw.c */
void run_json(const config *cfg, const char *path, const expected *e);  /* bench_drumlin.c */
void run_typed(const config *cfg, const char *path, const expected *e); /* bench_drumlin.c */

#endif
