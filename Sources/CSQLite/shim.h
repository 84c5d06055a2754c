#ifndef DRUMLIN_CSQLITE_SHIM_H
#define DRUMLIN_CSQLITE_SHIM_H
/* The pre-update hook (change capture for notifications) is declared only with this macro;
   Debian's libsqlite3 is built with it. */
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

/* SQLITE_TRANSIENT and SQLITE_STATIC are macros Swift cannot import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
#endif
