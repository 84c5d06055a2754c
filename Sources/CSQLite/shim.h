#ifndef DRUMLIN_CSQLITE_SHIM_H
#define DRUMLIN_CSQLITE_SHIM_H
/* The pre-update hook (change capture for notifications) is declared only with this macro;
   Debian's libsqlite3 is built with it. */
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

/* SQLITE_TRANSIENT and SQLITE_STATIC are macros Swift cannot import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/* sqlite3_config is variadic, which Swift cannot call. Turns SQLite's memory statistics off (one
   global mutex taken per allocation and free), as SQLite recommends for speed; only effective
   before SQLite is initialized in the process (SQLITE_MISUSE otherwise, changing nothing). */
static inline int csqlite_memstatus_off(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
#endif
