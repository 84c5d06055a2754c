#ifndef DRUMLIN_CSQLITE_SHIM_H
#define DRUMLIN_CSQLITE_SHIM_H
/* The pre-update hook (change capture for notifications) is declared only with this macro;
   Debian's libsqlite3 is built with it. */
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#include <string.h>

/* SQLITE_TRANSIENT and SQLITE_STATIC are macros Swift cannot import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/* sqlite3_config is variadic, which Swift cannot call. Turns SQLite's memory statistics off (one
   global mutex taken per allocation and free), as SQLite recommends for speed; only effective
   before SQLite is initialized in the process (SQLITE_MISUSE otherwise, changing nothing). */
static inline int csqlite_memstatus_off(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
/* sqlite3_db_config is variadic too. Turns off SQLite's double-quoted string fallback for this
   connection, in statements (DQS_DML) and schema (DQS_DDL): a double-quoted name that names no
   column is then an error ("no such column"), never read as the string of its own name. */
static inline void csqlite_dqs_off(sqlite3 *db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}
/* The write-ahead log's index header (https://www.sqlite.org/walformat.html, "The WAL-Index
   Header"): 48 bytes that every commit rewrites, kept twice at the start of the "-shm" file, which
   SQLite maps into memory. A writer stores the second copy, then the first; this reads the first,
   then the second (the order SQLite's own readers use, without a lock), into `out`. Returns 1 when
   both copies agree and the header is initialized, 0 otherwise (no shared memory mapped, a write
   half done): only a file in WAL mode whose shared memory this connection has mapped may ask.
   `frames` receives the log's frame count (mxFrame) and `copied` how many of them a checkpoint
   has copied into the database (nBackfill, the first word after the two copies). */
static inline int csqlite_wal_index_header(sqlite3 *db, unsigned char out[48], unsigned *frames, unsigned *copied) {
    sqlite3_file *file = 0;
    if (sqlite3_file_control(db, 0, SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || file == 0) return 0;
    const sqlite3_io_methods *methods = file->pMethods;
    if (methods == 0 || methods->iVersion < 2 || methods->xShmMap == 0) return 0;
    volatile void *region = 0;
    if (methods->xShmMap(file, 0, 32768, 0, &region) != SQLITE_OK || region == 0) return 0;
    /* The region is page-aligned and each copy 8-byte aligned: six words each. */
    const volatile unsigned long long *words = (const volatile unsigned long long *)region;
    unsigned long long first[6], second[6];
    for (int i = 0; i < 6; i++) first[i] = words[i];
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int i = 0; i < 6; i++) second[i] = words[6 + i];
    for (int i = 0; i < 6; i++) if (first[i] != second[i]) return 0;
    memcpy(out, first, 48);
    if (out[12] == 0) return 0; /* isInit */
    memcpy(frames, out + 16, 4);
    *copied = *(const volatile unsigned *)((const volatile unsigned char *)region + 96);
    return 1;
}
#endif
