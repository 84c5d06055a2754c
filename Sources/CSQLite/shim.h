#ifndef DRUMLIN_CSQLITE_SHIM_H
#define DRUMLIN_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT and SQLITE_STATIC are macros Swift cannot import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
#endif
