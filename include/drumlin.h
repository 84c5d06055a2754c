/*
 * drumlin.h — the C API of Drumlin, an embedded object database on SQLite.
 * SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 *
 * Naming conventions
 *   drumlin_<object>_<verb>   functions (drumlin_object_get, drumlin_options_set_read_only)
 *   DRUMLIN_UPPER_SNAKE       constants (DRUMLIN_OK, DRUMLIN_TYPE_INT)
 *   drumlin_<name>_fn         callback types
 *   out_<name>              out-parameters, always last
 *   _new/_free, _open/_close, _release   paired constructors and destructors
 *
 * Conventions
 *   - Every fallible function returns an int status: DRUMLIN_OK (0), DRUMLIN_NOT_FOUND (1, not an
 *     error), or a DRUMLIN_ERR_* code. Detail is kept per thread: drumlin_last_error_code() and
 *     drumlin_last_error_message(). Functions that cannot fail say so.
 *   - Inputs are copied: nothing passed in is retained after the call returns.
 *   - Handles returned through out_ parameters belong to the caller; release each with its paired
 *     function, which accepts NULL. A handle whose database was closed gives DRUMLIN_ERR_MISUSE.
 *   - Strings returned as `char **out_json` are allocated by Drumlin: free with drumlin_free().
 *   - Strings and binaries inside a drumlin_value returned by Drumlin are borrowed: valid until the
 *     next call on the same handle, or until it is released.
 *   - NULL where a handle or a required pointer is expected gives DRUMLIN_ERR_MISUSE, never a crash.
 *   - A drumlin_db may be used from any thread; calls on one handle are serialized. A callback that
 *     calls back into the same handle gets DRUMLIN_ERR_MISUSE, never a deadlock. Object, collection
 *     and results handles lend values until their next call: use each from one thread at a time.
 *   - Text is UTF-8. JSON values use MongoDB Extended JSON v2 (relaxed) for types JSON lacks:
 *     {"$date": "..."}, {"$oid": "..."}, {"$uuid": "..."}, {"$numberDecimal": "..."},
 *     {"$binary": {"base64": "...", "subType": "00"}}, {"$numberDouble": "NaN"}.
 */
#ifndef DRUMLIN_H
#define DRUMLIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one place the version and the ABI version are written: the library (drumlin_version(),
 * drumlin_abi_version()), the SONAME libdrumlin.so.<ABI>, the Swift package, the Python package,
 * CMake and pkg-config all take them from here (docs/packaging.md). */
#define DRUMLIN_VERSION        "0.1.0"
#define DRUMLIN_VERSION_NUMBER 1000    /* X*1000000 + Y*1000 + Z, the same version as a number */
#define DRUMLIN_ABI_VERSION    1       /* bumped only when a shipped signature or layout changes */

/*---- Status codes (explicit numbers, append-only) ----------------------------------------------*/

#define DRUMLIN_OK                          0   /* success */
#define DRUMLIN_NOT_FOUND                   1   /* no such object; not an error, sets no error */
#define DRUMLIN_ERR_MISUSE                  2   /* NULL or closed handle, call from a callback */
#define DRUMLIN_ERR_INVALID_ARGUMENT        3   /* malformed JSON, bad option, bad index */
#define DRUMLIN_ERR_SCHEMA                  4   /* schema validation failed */
#define DRUMLIN_ERR_MIGRATION_REQUIRED      5   /* stored schema differs and needs a migration */
#define DRUMLIN_ERR_MIGRATION_FAILED        6   /* a migration or schema version check failed */
#define DRUMLIN_ERR_NO_SUCH_CLASS           7   /* class name not in the schema */
#define DRUMLIN_ERR_NO_SUCH_PROPERTY        8   /* property name not in the class */
#define DRUMLIN_ERR_TYPE_MISMATCH           9   /* value of the wrong type for a property */
#define DRUMLIN_ERR_NOT_NULLABLE           10   /* null for a required property */
#define DRUMLIN_ERR_MISSING_VALUE          11   /* required property absent with no default */
#define DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY  12   /* create with an existing primary key */
#define DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE  13   /* attempt to change a primary key */
#define DRUMLIN_ERR_WRONG_TRANSACTION_STATE 14  /* write outside a write transaction, and so on */
#define DRUMLIN_ERR_INVALIDATED_OBJECT     15   /* the object was deleted */
#define DRUMLIN_ERR_QUERY                  16   /* query syntax or semantic error */
#define DRUMLIN_ERR_NOT_SUPPORTED          17   /* operation not allowed on this kind of object */
#define DRUMLIN_ERR_READ_ONLY              18   /* write on a read-only database */
#define DRUMLIN_ERR_FILE                   19   /* file cannot be opened, read or written */
#define DRUMLIN_ERR_CORRUPT                20   /* not a Drumlin database, or damaged */
#define DRUMLIN_ERR_BUSY                   21   /* another connection holds the write lock */
#define DRUMLIN_ERR_LIMIT                  22   /* a size or nesting limit was exceeded */
#define DRUMLIN_ERR_CALLBACK               23   /* a user callback failed */
#define DRUMLIN_ERR_INTERNAL               24   /* a bug in Drumlin: please report it */
#define DRUMLIN_ERR_DECRYPTION_FAILED      25   /* wrong encryption key, or a key for a plain file */
#define DRUMLIN_ERR_TIMEOUT                26   /* a wait ran out of time (drumlin_sync_wait_for_upload) */
#define DRUMLIN_ERR_SYNC                   27   /* the sync session stopped on the service's error */

/*---- Value types -------------------------------------------------------------------------------*/

#define DRUMLIN_TYPE_NULL        0
#define DRUMLIN_TYPE_INT         1
#define DRUMLIN_TYPE_BOOL        2
#define DRUMLIN_TYPE_STRING      3
#define DRUMLIN_TYPE_BINARY      4
#define DRUMLIN_TYPE_TIMESTAMP   5
#define DRUMLIN_TYPE_FLOAT       6
#define DRUMLIN_TYPE_DOUBLE      7
#define DRUMLIN_TYPE_DECIMAL128  8
#define DRUMLIN_TYPE_OBJECT_ID   9
#define DRUMLIN_TYPE_LINK       10
#define DRUMLIN_TYPE_UUID       11
#define DRUMLIN_TYPE_LIST       12   /* a nested list inside a mixed value */
#define DRUMLIN_TYPE_DICTIONARY 13   /* a nested dictionary inside a mixed value */

/* Property types reported by introspection (drumlin_property_info.type). */
#define DRUMLIN_PROPERTY_BOOL             0
#define DRUMLIN_PROPERTY_INT              1
#define DRUMLIN_PROPERTY_FLOAT            2
#define DRUMLIN_PROPERTY_DOUBLE           3
#define DRUMLIN_PROPERTY_DECIMAL128       4
#define DRUMLIN_PROPERTY_STRING           5
#define DRUMLIN_PROPERTY_DATA             6
#define DRUMLIN_PROPERTY_DATE             7
#define DRUMLIN_PROPERTY_OBJECT_ID        8
#define DRUMLIN_PROPERTY_UUID             9
#define DRUMLIN_PROPERTY_MIXED           10
#define DRUMLIN_PROPERTY_OBJECT          11
#define DRUMLIN_PROPERTY_LINKING_OBJECTS 12

#define DRUMLIN_COLLECTION_NONE       0
#define DRUMLIN_COLLECTION_LIST       1
#define DRUMLIN_COLLECTION_SET        2
#define DRUMLIN_COLLECTION_DICTIONARY 3

#define DRUMLIN_PROPERTY_FLAG_OPTIONAL    1
#define DRUMLIN_PROPERTY_FLAG_PRIMARY_KEY 2
#define DRUMLIN_PROPERTY_FLAG_INDEXED     4
#define DRUMLIN_PROPERTY_FLAG_FULLTEXT    8

#define DRUMLIN_CLASS_TOP_LEVEL  0
#define DRUMLIN_CLASS_EMBEDDED   1
#define DRUMLIN_CLASS_ASYMMETRIC 2

/* Update modes for drumlin_create_json and friends. */
#define DRUMLIN_UPDATE_NEVER    0   /* an existing primary key is DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY */
#define DRUMLIN_UPDATE_MODIFIED 1   /* upsert; write only properties whose value changed */
#define DRUMLIN_UPDATE_ALL      2   /* upsert; write every given property */

/*---- Handles and plain structs -----------------------------------------------------------------*/

typedef struct drumlin_db drumlin_db;             /* an open database: drumlin_open / drumlin_close */
typedef struct drumlin_object drumlin_object;     /* a live object: drumlin_object_find / _release */
typedef struct drumlin_results drumlin_results;   /* a live query result */
typedef struct drumlin_list drumlin_list;         /* a list property */
typedef struct drumlin_set drumlin_set;           /* a set property */
typedef struct drumlin_dict drumlin_dict;         /* a dictionary property */
typedef struct drumlin_token drumlin_token;       /* a notification registration */
typedef struct drumlin_options drumlin_options;   /* open options: drumlin_options_new / _free */

/* Releases callback userdata; runs exactly once, after the last call that uses it. */
typedef void (*drumlin_free_fn)(void *userdata);

/* Log levels passed to a drumlin_log_fn (the same numbers as Python's logging levels). */
#define DRUMLIN_LOG_DEBUG   10
#define DRUMLIN_LOG_INFO    20   /* a database was opened, its schema migrated, compacted */
#define DRUMLIN_LOG_WARNING 30   /* a query took longer than the slow-query threshold */
#define DRUMLIN_LOG_ERROR   40   /* a call failed (the message is the error's) */

/* Receives what a database reports (see drumlin_options_set_logger). `message` is UTF-8, valid
 * only during the call. Called on the thread making the Drumlin call, while the database is busy
 * with it: calling back into the same database gives DRUMLIN_ERR_MISUSE. */
typedef void (*drumlin_log_fn)(void *userdata, int level, const char *message);

/* Progress of a long call: `done` of `total` (see the call for the unit; `total` 0 when unknown).
 * Return 0 to go on; anything else cancels the call, which then fails with DRUMLIN_ERR_CALLBACK
 * and changes nothing. Called on the calling thread, only during the call. */
typedef int (*drumlin_progress_fn)(void *userdata, int64_t done, int64_t total);

typedef struct drumlin_string {
    const char *data;   /* UTF-8, not NUL-terminated; may contain NUL bytes */
    size_t size;        /* in bytes */
} drumlin_string;

typedef struct drumlin_binary {
    const uint8_t *data;
    size_t size;
} drumlin_binary;

typedef struct drumlin_timestamp {
    int64_t seconds;        /* since 1970-01-01T00:00:00Z; negative before */
    int32_t nanoseconds;    /* 0 ... 999999999, added to seconds */
} drumlin_timestamp;

typedef struct drumlin_decimal128 {
    uint64_t w[2];          /* IEEE 754-2008 decimal128, BID encoding: w[0] low, w[1] high bits */
} drumlin_decimal128;

typedef struct drumlin_object_id {
    uint8_t bytes[12];
} drumlin_object_id;

typedef struct drumlin_uuid {
    uint8_t bytes[16];
} drumlin_uuid;

/* A link property's target, a list/set/dictionary element of objects, or an object held by a
 * mixed value (any top-level class; in JSON {"$link": {"class": "Dog", "key": 12}}). */
typedef struct drumlin_link {
    int32_t class_index;    /* see drumlin_class_index() */
    int64_t key;            /* the target's object key */
} drumlin_link;

/* A tagged value. `type` is a DRUMLIN_TYPE_* constant and selects the member of `as`. */
typedef struct drumlin_value {
    int type;
    union {
        int64_t integer;            /* DRUMLIN_TYPE_INT */
        int boolean;                /* DRUMLIN_TYPE_BOOL: 0 or 1 */
        drumlin_string string;        /* DRUMLIN_TYPE_STRING */
        drumlin_binary binary;        /* DRUMLIN_TYPE_BINARY */
        drumlin_timestamp timestamp;  /* DRUMLIN_TYPE_TIMESTAMP */
        float fnum;                 /* DRUMLIN_TYPE_FLOAT */
        double dnum;                /* DRUMLIN_TYPE_DOUBLE */
        drumlin_decimal128 decimal128;/* DRUMLIN_TYPE_DECIMAL128 */
        drumlin_object_id object_id;  /* DRUMLIN_TYPE_OBJECT_ID */
        drumlin_uuid uuid;            /* DRUMLIN_TYPE_UUID */
        drumlin_link link;            /* DRUMLIN_TYPE_LINK */
    } as;
} drumlin_value;

/* Introspection of one property. Strings are owned by the database handle: valid until it is
 * closed. */
typedef struct drumlin_property_info {
    const char *name;            /* public name */
    const char *stored_name;     /* column name (mapTo) */
    int type;                    /* DRUMLIN_PROPERTY_* (for collections: the element type) */
    int collection;              /* DRUMLIN_COLLECTION_* */
    const char *object_type;     /* linked class for links and linkingObjects, else "" */
    const char *origin_property; /* for linkingObjects, else "" */
    int flags;                   /* DRUMLIN_PROPERTY_FLAG_* */
} drumlin_property_info;

/*---- Library -----------------------------------------------------------------------------------*/

/** The library version, e.g. "0.1.0". Static string: do not free. This function cannot fail. */
const char *drumlin_version(void);

/** DRUMLIN_ABI_VERSION of the loaded library. Bindings compare it with their own. Cannot fail. */
int drumlin_abi_version(void);

/** The status code of the last failed call on this thread (DRUMLIN_OK if it succeeded). */
int drumlin_last_error_code(void);

/**
 * The message of the last failed call on this thread, or "" if the last call succeeded.
 * Valid until the next Drumlin call on this thread. Do not free.
 */
const char *drumlin_last_error_message(void);

/** A static name for a status code, e.g. "DRUMLIN_ERR_SCHEMA". Cannot fail. */
const char *drumlin_status_name(int status);

/** Frees memory allocated by Drumlin (char **out_json results). NULL is ignored. */
void drumlin_free(void *ptr);

/*---- Options -----------------------------------------------------------------------------------*/

/**
 * New open options with the defaults: schema version 0, read-write, on disk, no automatic delete.
 * Free with drumlin_options_free(); options are never consumed by drumlin_open. Returns NULL only
 * when out of memory.
 */
drumlin_options *drumlin_options_new(void);

/** Frees options. NULL is ignored. */
void drumlin_options_free(drumlin_options *options);

/** The schema version to open with (stored in the file; a lower one than stored is an error). */
int drumlin_options_set_schema_version(drumlin_options *options, uint64_t schema_version);

/** Non-zero: open read-only; every write is DRUMLIN_ERR_READ_ONLY. The file must exist. */
int drumlin_options_set_read_only(drumlin_options *options, int read_only);

/** Non-zero: keep the database in memory (the path is ignored); it vanishes when closed. */
int drumlin_options_set_in_memory(drumlin_options *options, int in_memory);

/** Non-zero: when the stored schema needs a migration, delete the file and start afresh. */
int drumlin_options_set_delete_if_migration_needed(drumlin_options *options, int delete_if_needed);

/**
 * How long a call waits for another connection's lock (another handle's or process's write
 * transaction) before failing with DRUMLIN_ERR_BUSY, whose message says what waited and for how
 * long. Default 5000 ms; 0 fails at once. Negative: DRUMLIN_ERR_INVALID_ARGUMENT.
 */
int drumlin_options_set_busy_timeout(drumlin_options *options, int64_t milliseconds);

/* Durability of commits (drumlin_options_set_synchronous). NORMAL: a process crash loses nothing;
 * a power loss may roll back the last commits, never half of one. FULL: every commit is durable
 * against power loss too (an fsync per commit). */
#define DRUMLIN_SYNCHRONOUS_NORMAL 1   /* the default */
#define DRUMLIN_SYNCHRONOUS_FULL   2   /* durable against power loss */

/**
 * How commits reach the disk: DRUMLIN_SYNCHRONOUS_NORMAL (the default) or DRUMLIN_SYNCHRONOUS_FULL.
 * Anything else: DRUMLIN_ERR_INVALID_ARGUMENT.
 */
int drumlin_options_set_synchronous(drumlin_options *options, int mode);

/**
 * Non-zero: opening an existing file first runs SQLite's PRAGMA quick_check, and a damaged file
 * fails with DRUMLIN_ERR_CORRUPT (the message lists what SQLite found; the file is left
 * unchanged). It reads the whole file, so the open takes time in proportion to its size.
 * Default 0. drumlin_check() runs the full check (SQLite's integrity_check and Drumlin's own).
 */
int drumlin_options_set_quick_check(drumlin_options *options, int quick_check);

/**
 * Encrypts the file with a 64-byte key (Realm's encryptionKey; docs/encryption.md): every page of
 * the file, its write-ahead log and its journal is encrypted (AES-256) and authenticated
 * (HMAC-SHA-224). The key is copied; the copy is wiped from memory when the options and every
 * database opened with them are freed. `key` NULL removes the key. A length other than 64:
 * DRUMLIN_ERR_INVALID_ARGUMENT. Opening an encrypted file with another key or none, or a plain
 * file with a key: DRUMLIN_ERR_DECRYPTION_FAILED, the file untouched; a page changed outside
 * Drumlin: DRUMLIN_ERR_CORRUPT naming the page.
 */
int drumlin_options_set_encryption_key(drumlin_options *options, const uint8_t *key, size_t length);

/**
 * A logger for databases opened with these options: `fn` receives opens and schema migrations
 * (DRUMLIN_LOG_INFO), queries slower than the slow-query threshold (DRUMLIN_LOG_WARNING) and failed
 * calls (DRUMLIN_LOG_ERROR). `fn` NULL removes the logger. `free_userdata` (may be NULL) runs
 * exactly once, when neither the options nor any database opened with them use it any more
 * (also when the logger is replaced and nothing else uses it).
 */
int drumlin_options_set_logger(drumlin_options *options, drumlin_log_fn fn, void *userdata,
                               drumlin_free_fn free_userdata);

/**
 * Queries that take longer than `milliseconds` to evaluate are reported to the logger as
 * DRUMLIN_LOG_WARNING. Negative (the default): no query is reported; 0: every query.
 */
int drumlin_options_set_slow_query_threshold(drumlin_options *options, int64_t milliseconds);

/*---- Database ----------------------------------------------------------------------------------*/

/**
 * Open (or create) a database.
 *
 * @param path         UTF-8 file path; copied. ":memory:" opens a private in-memory database.
 * @param schema_json  The schema: a JSON array of object schemas in Realm JS's format; copied.
 *                     NULL opens an existing database with the schema stored in it (read-write,
 *                     or read-only with drumlin_options_set_read_only); a file that does not
 *                     exist is DRUMLIN_ERR_FILE, ":memory:" DRUMLIN_ERR_INVALID_ARGUMENT.
 * @param options      May be NULL for defaults. Not retained.
 * @param out_db       Receives a handle owned by the caller (close with drumlin_close()); NULL on error.
 * @return DRUMLIN_OK; DRUMLIN_ERR_SCHEMA (validation, all problems listed); DRUMLIN_ERR_MIGRATION_REQUIRED;
 *         DRUMLIN_ERR_MIGRATION_FAILED (schema version lower than stored; the migration callback
 *         returned nonzero or a primary key has duplicates afterwards: the file is unchanged); DRUMLIN_ERR_CORRUPT (not a
 *         Drumlin database: the file is left untouched); DRUMLIN_ERR_FILE; DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread.
 */
int drumlin_open(const char *path, const char *schema_json, const drumlin_options *options, drumlin_db **out_db);

/**
 * Close a database and free its handle. An open write transaction is rolled back. Objects and
 * other handles derived from it stay allocated (release them as usual) but every call on them
 * gives DRUMLIN_ERR_MISUSE. NULL is ignored (returns DRUMLIN_OK). Must not be called from a callback,
 * nor concurrently with other calls on the same handle.
 */
int drumlin_close(drumlin_db *db);

/** The schema in normalized long form (a JSON array). Free *out_json with drumlin_free(). */
int drumlin_schema_json(drumlin_db *db, char **out_json);

/** The schema version stored in the file. */
int drumlin_schema_version(drumlin_db *db, uint64_t *out_version);

/**
 * Add classes to the schema open on a database: what to do when a program first uses a class
 * after opening (the file's stored schema, or a subset of it). Classes the handle has open keep
 * their indexes; the new ones are appended. A class the file does not store gets its tables; one
 * it stores is compared with it as drumlin_open() compares (additive changes are applied, others
 * need a migration). Inside a write transaction the tables are made in it: a rollback removes
 * them, and the classes from the handle; outside one they are made in a transaction of their own.
 * A failed call changes nothing.
 *
 * @param schema_json  A JSON array of object schemas, as drumlin_open() takes: the classes to add
 *                     and every class they link to (a valid schema on its own). Classes the handle
 *                     has open must be given as they are open; those are left as they are. Copied.
 * @return DRUMLIN_OK; DRUMLIN_ERR_SCHEMA (validation, all problems listed; also the classes
 *         together with those open; a new class whose table name differs only in letter case
 *         from a stored one's); DRUMLIN_ERR_MIGRATION_REQUIRED (a class open here given
 *         differently, "Cannot change classes while the database is open ..."; a stored class given
 *         with a change that needs a migration; on a read-only handle, as drumlin_open() read-only,
 *         any class the file does not store as given); DRUMLIN_ERR_WRONG_TRANSACTION_STATE (inside
 *         a migration callback); DRUMLIN_ERR_MISUSE (NULL schema_json, closed handle).
 * Thread safety: any thread, but no other thread may use the handle (or its objects and results)
 * during the call: a few lookups by class name read the class list without the handle's lock.
 */
int drumlin_add_classes(drumlin_db *db, const char *schema_json);

/*---- Migrations --------------------------------------------------------------------------------*/

/* A migration in progress, passed to a drumlin_migration_fn; valid only during that call. */
typedef struct drumlin_migration drumlin_migration;

/*
 * Migrates a file whose stored schema version is lower than the one opened with (see
 * drumlin_options_set_migration). Called once, on the thread calling drumlin_open(), inside the
 * transaction that changes the schema. Return 0 to commit everything; anything else aborts: the
 * file is left exactly as it was and drumlin_open() fails with DRUMLIN_ERR_MIGRATION_FAILED (its
 * message is the one given to drumlin_migration_set_error(), if any).
 */
typedef int (*drumlin_migration_fn)(void *userdata, drumlin_migration *migration);

/*
 * Receives each object of a class during drumlin_migration_enumerate_objects(): `old_object` as it
 * was before the migration (read-only: writes give DRUMLIN_ERR_READ_ONLY; every property of the
 * old schema can be read, those the new schema dropped included) and `new_object`, the same
 * object in the new schema (writable), or NULL when the new schema has no such class or the
 * object was deleted. Both handles belong to the callee: release each with
 * drumlin_object_release(); they stop working (DRUMLIN_ERR_MISUSE) when the migration ends.
 * Return 0 to go on; anything else stops the enumeration, which then fails with
 * DRUMLIN_ERR_CALLBACK.
 */
typedef int (*drumlin_migration_object_fn)(void *userdata, drumlin_object *old_object, drumlin_object *new_object);

/**
 * The migration callback for databases opened with these options. It runs when the file's stored
 * schema version is lower than the one set with drumlin_options_set_schema_version(), after the
 * schema change is applied (with Realm's conversions: see docs/migrations.md) and before it is
 * committed. Without a callback, a higher version still applies the changes. `fn` NULL removes
 * the callback. The options and every database opened with them share `userdata`:
 * `free_userdata` (may be NULL) runs exactly once, when neither the options nor any database
 * opened with them use it any more (also when the callback is replaced and nothing else uses it,
 * and when this call fails).
 * @return DRUMLIN_OK; DRUMLIN_ERR_MISUSE (NULL options).
 * Thread safety: as the options.
 */
int drumlin_options_set_migration(drumlin_options *options, drumlin_migration_fn fn, void *userdata,
                                  drumlin_free_fn free_userdata);

/** The schema version stored in the file before the migration. */
int drumlin_migration_old_schema_version(drumlin_migration *migration, uint64_t *out_version);

/** The schema version the file is opened with. */
int drumlin_migration_new_schema_version(drumlin_migration *migration, uint64_t *out_version);

/**
 * The schema stored in the file before the migration, in normalized long form (as
 * drumlin_schema_json()). Free `*out_json` with drumlin_free().
 */
int drumlin_migration_old_schema_json(drumlin_migration *migration, char **out_json);

/**
 * The database being migrated, with the new schema, in the migration's write transaction: every
 * drumlin_db call works on it (queries, drumlin_create_json, drumlin_delete_where...) except
 * drumlin_begin_write/commit/rollback and drumlin_close. `*out_db` is borrowed: do not close it;
 * it stops working (DRUMLIN_ERR_MISUSE) when the migration ends.
 */
int drumlin_migration_new_db(drumlin_migration *migration, drumlin_db **out_db);

/**
 * The database as it was before the migration, with the old schema, read-only (writes give
 * DRUMLIN_ERR_READ_ONLY); borrowed like drumlin_migration_new_db().
 */
int drumlin_migration_old_db(drumlin_migration *migration, drumlin_db **out_db);

/**
 * Calls `fn` for each object (in creation order) of a class that existed before the migration;
 * a class the old schema lacks has none. `class_name` is copied; `userdata` is passed to `fn`.
 * @return DRUMLIN_OK; DRUMLIN_ERR_CALLBACK (`fn` returned nonzero); DRUMLIN_ERR_MISUSE.
 */
int drumlin_migration_enumerate_objects(drumlin_migration *migration, const char *class_name,
                                        drumlin_migration_object_fn fn, void *userdata);

/**
 * Realm's renameProperty: `new_name` (in the new schema) takes the values `old_name` (in the old
 * schema) held. Strings are copied.
 * @return DRUMLIN_OK; DRUMLIN_ERR_NO_SUCH_CLASS; DRUMLIN_ERR_NO_SUCH_PROPERTY ("Renamed property
 *         'Dog.x' does not exist."); DRUMLIN_ERR_TYPE_MISMATCH or DRUMLIN_ERR_NOT_NULLABLE (the types
 *         differ, or optional would become required).
 */
int drumlin_migration_rename_property(drumlin_migration *migration, const char *class_name,
                                      const char *old_name, const char *new_name);

/**
 * Deletes every object of a class. A class the new schema no longer has is removed from the
 * file (its table and stored definition); without this call its objects stay in the file, as in
 * Realm. `*out_deleted` (may be NULL) is 1 when the class existed, else 0.
 */
int drumlin_migration_delete_data(drumlin_migration *migration, const char *class_name, int *out_deleted);

/**
 * Creates an object in the new schema from a JSON object (as drumlin_create_json() with
 * DRUMLIN_UPDATE_NEVER). `out_json` may be NULL; otherwise it receives the stored object (free
 * with drumlin_free()).
 */
int drumlin_migration_create_json(drumlin_migration *migration, const char *class_name, const char *object_json,
                                  char **out_json);

/**
 * The message drumlin_open() reports when the migration callback returns nonzero (copied; the
 * last one set wins). Without it the message says what the callback returned.
 */
int drumlin_migration_set_error(drumlin_migration *migration, const char *message);

/*---- Export, import and maintenance ------------------------------------------------------------*/

/**
 * Write objects to a file as Extended JSON lines (one object per line, as drumlin_object_to_json
 * writes it), streamed: memory use does not grow with the number of objects.
 *
 * @param class_name  One type's objects, written as plain JSON objects; NULL: every type (except
 *                    asymmetric ones, which cannot be read), each line with "$type": "<name>".
 *                    Lines of a type without a primary key also carry its object key as "$key".
 * @param path        The output file (created or truncated); copied. Removed again on failure.
 *                    "/dev/stdout" and "/dev/fd/N" write through the process's own descriptor
 *                    (a duplicate of it), so redirected output continues where it is.
 * @param progress    May be NULL. `done` and `total` count objects; called every 1000 objects
 *                    and once at the end.
 * @param out_count   May be NULL. Receives the number of objects written.
 * @return DRUMLIN_OK; DRUMLIN_ERR_FILE; DRUMLIN_ERR_NO_SUCH_CLASS; DRUMLIN_ERR_NOT_SUPPORTED (an
 *         embedded or asymmetric class_name); DRUMLIN_ERR_CALLBACK (cancelled by `progress`).
 * Reads one consistent state (inside the caller's write transaction, if one is open).
 */
int drumlin_export_ndjson(drumlin_db *db, const char *class_name, const char *path, drumlin_progress_fn progress,
                          void *userdata, int64_t *out_count);

/**
 * Create objects from a file of Extended JSON lines (as drumlin_export_ndjson writes them; blank
 * lines are skipped). Links may point at objects later in the file. All or nothing: the first
 * bad line stops the import, nothing is imported, and the error message starts with
 * "Line <n>: " and says why. Runs in its own write transaction, or as one step of the caller's.
 *
 * @param path        The input file; copied. "/dev/stdin" and "/dev/fd/N" read the process's
 *                    own descriptor (a duplicate of it).
 * @param class_name  NULL: each line names its type in "$type"; else every line is one of these.
 * @param update_mode DRUMLIN_UPDATE_NEVER, _MODIFIED or _ALL, as in drumlin_create_json.
 * @param batch_size  0: one transaction. N > 0: commit every N objects (outside a write
 *                    transaction only); a failure keeps the batches committed before it.
 * @param progress    May be NULL. `done` and `total` count bytes of the file (`total` 0 when its
 *                    size is unknown, e.g. a pipe); called every 1000 objects and once at the end.
 * @param out_count   May be NULL. Receives the number of objects created or updated.
 */
int drumlin_import_ndjson(drumlin_db *db, const char *path, const char *class_name, int update_mode,
                          int64_t batch_size, drumlin_progress_fn progress, void *userdata, int64_t *out_count);

/**
 * Check the file: SQLite's integrity check, then the engine's invariants (every link, list, set
 * and dictionary entry points at a live object, so every backlink does too; every collection
 * entry belongs to a live object; every embedded object has exactly one owner). *out_json
 * receives a JSON array of problems, one sentence each: "[]" when the file is sound (the call
 * succeeds either way). Free it with drumlin_free().
 */
int drumlin_check(drumlin_db *db, char **out_json);

/**
 * Rewrite the file without its free pages (SQLite's VACUUM) and truncate the write-ahead log.
 * Not inside a write transaction (DRUMLIN_ERR_WRONG_TRANSACTION_STATE); read-only databases give
 * DRUMLIN_ERR_READ_ONLY. Other connections should be closed: one that is reading makes it fail
 * with DRUMLIN_ERR_BUSY. (A handle keeps its read transaction open between read calls; an idle
 * one ends it within about 20 ms, which the busy timeout covers: docs/storage.md, "Concurrency".)
 */
int drumlin_compact(drumlin_db *db);

/**
 * Write the committed state to a new file at `path` (Realm's writeCopy): a database that opens
 * with the same schema and schema version, encrypted with `key` (`key_len` 64 bytes) or, with
 * key NULL and key_len 0, plain, whatever this database's own file is: the way to add, change or
 * remove encryption (docs/encryption.md). The source is not changed.
 * @return DRUMLIN_OK; DRUMLIN_ERR_INVALID_ARGUMENT (a key that is not 64 bytes, empty path or
 *         ":memory:"); DRUMLIN_ERR_FILE (`path` exists: "... the file already exists.", or is a
 *         directory, or cannot be written); DRUMLIN_ERR_WRONG_TRANSACTION_STATE (inside a write
 *         transaction); DRUMLIN_ERR_CORRUPT (a page of this file is damaged); DRUMLIN_ERR_MISUSE.
 *         On failure no file is left at `path`.
 */
int drumlin_write_copy(drumlin_db *db, const char *path, const uint8_t *key, size_t key_len);

/*---- Transactions ------------------------------------------------------------------------------*/

/** Begin a write transaction. Already in one: DRUMLIN_ERR_WRONG_TRANSACTION_STATE. */
int drumlin_begin_write(drumlin_db *db);

/** Commit the write transaction (atomic and durable). Not in one: WRONG_TRANSACTION_STATE. */
int drumlin_commit(drumlin_db *db);

/** Discard everything since drumlin_begin_write(). Not in one: WRONG_TRANSACTION_STATE. */
int drumlin_rollback(drumlin_db *db);

/** *out_in_write = 1 while a write transaction is open on this handle, else 0. */
int drumlin_is_in_write(drumlin_db *db, int *out_in_write);

/*---- JSON layer --------------------------------------------------------------------------------*/

/**
 * Create an object from a JSON object (inside a write transaction).
 *
 * @param class_name   Public class name; copied.
 * @param object_json  A JSON object: property name -> value (Extended JSON for special types).
 *                     Missing properties take their default, else null if optional, else the
 *                     call fails with DRUMLIN_ERR_MISSING_VALUE. Unknown keys are an error.
 *                     Where a link goes, a JSON object is a new object, a scalar the primary
 *                     key of an existing one, and {"$link": {"class": "Dog", "key": <object
 *                     key>}} an existing object, checked as a DRUMLIN_TYPE_LINK value is.
 * @param update_mode  DRUMLIN_UPDATE_NEVER, DRUMLIN_UPDATE_MODIFIED or DRUMLIN_UPDATE_ALL.
 * @param out_json     May be NULL. Receives the stored object as JSON; free with drumlin_free().
 * @return DRUMLIN_OK or an error; on error nothing was written.
 */
int drumlin_create_json(drumlin_db *db, const char *class_name, const char *object_json, int update_mode,
                      char **out_json);

/**
 * Create many objects from a JSON array of objects, all or nothing (inside a write transaction).
 * *out_count (may be NULL) receives the number of objects created or updated.
 */
int drumlin_create_many_json(drumlin_db *db, const char *class_name, const char *array_json, int update_mode,
                           int64_t *out_count);

/**
 * Create many objects from typed values, all or nothing (inside a write transaction): the fast
 * path for C. `values` holds `row_count` rows of `property_count` values each, row after row;
 * value j of a row is for property `property_indices[j]` (see drumlin_property_index()).
 * Properties not given take their default, else null if optional, else the call fails with
 * DRUMLIN_ERR_MISSING_VALUE. Strings and binaries are copied. Classes whose given properties are
 * plain columns are inserted in multi-row batches. *out_count (may be NULL) receives the number
 * of objects created or updated. An error names the element: "Element 12: ...".
 */
int drumlin_create_many_values(drumlin_db *db, const char *class_name, size_t property_count,
                             const int32_t *property_indices, size_t row_count, const drumlin_value *values,
                             int update_mode, int64_t *out_count);

/**
 * Create many objects from a packed batch, all or nothing (inside a write transaction): the fast
 * path for bindings. `data` is Python's `marshal` serialization (format version 2 to 4) of a list
 * of tuples; each tuple holds `property_count` values for the properties `property_indices`
 * (see drumlin_property_index()), in that order. Values may be None, bool, int (64-bit), float, str,
 * bytes, lists (a list or set property, a list in a mixed value), dicts with str keys (a
 * dictionary, a nested object's properties, a dictionary in a mixed value) and tagged tuples for
 * the other types, as the row reads write them: (DRUMLIN_TYPE_TIMESTAMP, seconds, nanoseconds),
 * (DRUMLIN_TYPE_DECIMAL128, low, high) or (DRUMLIN_TYPE_DECIMAL128, text), (DRUMLIN_TYPE_OBJECT_ID,
 * 12 bytes), (DRUMLIN_TYPE_UUID, 16 bytes), (DRUMLIN_TYPE_FLOAT, number) and (DRUMLIN_TYPE_LINK,
 * class index, object key). A row means what the same object means to drumlin_create_many_json()
 * (in a link position a dict is a nested object, another scalar a primary key), with the same
 * checks and messages; an error names the element: "Element 12: ...". `data` is copied as needed.
 * *out_count (may be NULL) receives the number of objects created or updated.
 */
int drumlin_create_many_marshal(drumlin_db *db, const char *class_name, size_t property_count,
                              const int32_t *property_indices, const void *data, size_t size, int update_mode,
                              int64_t *out_count);

/**
 * Get an object by primary key as JSON.
 *
 * @param primary_key_json  The key as JSON: 5, "abc", {"$oid": "..."}, {"$uuid": "..."}, null.
 * @param out_json          Receives the object; free with drumlin_free(). NULL when not found.
 * @return DRUMLIN_OK, DRUMLIN_NOT_FOUND, or an error.
 */
int drumlin_get_json(drumlin_db *db, const char *class_name, const char *primary_key_json, char **out_json);

/**
 * Run a Realm Query Language query and return the matching objects as a JSON array (in creation
 * order unless the query sorts).
 *
 * @param query      e.g. "age >= $0 AND name BEGINSWITH[c] $1 SORT(age DESC) LIMIT(10)"; copied.
 * @param args_json  A JSON array of the $n arguments (Extended JSON; a JSON array is a list
 *                   argument for IN), or NULL when the query has none; copied. An object is
 *                   {"$link": {"class": "Dog", "key": <drumlin_object_key()>}}: compared with a
 *                   link to another class it is DRUMLIN_ERR_QUERY, never a match by primary key.
 *                   The same form is taken by every function with an args_json parameter.
 * @param out_json   Free with drumlin_free().
 * @return DRUMLIN_OK, DRUMLIN_ERR_QUERY (syntax, unknown property, type mismatch, missing argument:
 *         the message points at the problem), or another error.
 */
int drumlin_query_json(drumlin_db *db, const char *class_name, const char *query, const char *args_json,
                     char **out_json);

/** Count the objects of a class matching `query` (NULL counts all). */
int drumlin_count(drumlin_db *db, const char *class_name, const char *query, const char *args_json,
                int64_t *out_count);

/**
 * Delete the objects matching `query` (inside a write transaction), with the same cascade as
 * deleting each one. *out_deleted (may be NULL) receives how many.
 */
int drumlin_delete_where(drumlin_db *db, const char *class_name, const char *query, const char *args_json,
                       int64_t *out_deleted);

/*---- Introspection -----------------------------------------------------------------------------*/

/** Number of classes in the schema this handle was opened with. */
int drumlin_class_count(drumlin_db *db, int32_t *out_count);

/** The public name of class `class_index`; owned by the handle (valid until it is closed). */
int drumlin_class_name(drumlin_db *db, int32_t class_index, const char **out_name);

/** Resolve a class name (public or stored) to its index. Unknown: DRUMLIN_ERR_NO_SUCH_CLASS. */
int drumlin_class_index(drumlin_db *db, const char *class_name, int32_t *out_class_index);

/** The kind of a class: DRUMLIN_CLASS_TOP_LEVEL, DRUMLIN_CLASS_EMBEDDED or DRUMLIN_CLASS_ASYMMETRIC. */
int drumlin_class_kind(drumlin_db *db, const char *class_name, int *out_kind);

/** Number of properties of a class (persisted and computed). */
int drumlin_property_count(drumlin_db *db, const char *class_name, int32_t *out_count);

/**
 * Resolve a property name (public or stored) to its index in the class, for the _at and _values
 * calls. Unknown: DRUMLIN_ERR_NO_SUCH_PROPERTY.
 */
int drumlin_property_index(drumlin_db *db, const char *class_name, const char *property_name,
                         int32_t *out_property_index);

/** Describe property `property_index` of a class. Strings are valid until the handle is closed. */
int drumlin_property_info_get(drumlin_db *db, const char *class_name, int32_t property_index,
                            drumlin_property_info *out_info);

/*---- Objects (typed layer) ---------------------------------------------------------------------*/

/**
 * Create an object from typed values (inside a write transaction).
 *
 * @param count             Number of entries in property_indices and values (0 is allowed).
 * @param property_indices  Indices from drumlin_property_index(); copied.
 * @param values            The values; strings and binaries are copied.
 * @param update_mode       DRUMLIN_UPDATE_*; upserts need the primary key among the values.
 * @param out_object        May be NULL. Receives a live handle; release with drumlin_object_release().
 */
int drumlin_object_create(drumlin_db *db, const char *class_name, size_t count, const int32_t *property_indices,
                        const drumlin_value *values, int update_mode, drumlin_object **out_object);

/**
 * Create an object from JSON (as drumlin_create_json()) and return a live handle to it (or, in the
 * update modes, to the object it updated). Release it with drumlin_object_release().
 */
int drumlin_object_create_json(drumlin_db *db, const char *class_name, const char *object_json, int update_mode,
                             drumlin_object **out_object);

/**
 * Find an object by primary key. Returns DRUMLIN_NOT_FOUND (and *out_object = NULL) when there is
 * none. Release the handle with drumlin_object_release().
 */
int drumlin_object_find(drumlin_db *db, const char *class_name, const drumlin_value *primary_key,
                      drumlin_object **out_object);

/**
 * Find an object by primary key and read properties in one call (one database read): the fast
 * path for reading whole objects. Returns DRUMLIN_NOT_FOUND when there is none. String and binary
 * values are borrowed: valid until the next call on the same database handle (or, when
 * out_object is not NULL, until the next call on that object handle), or until it is released.
 *
 * @param out_object  May be NULL; otherwise receives a live handle (drumlin_object_release()).
 */
int drumlin_object_find_values(drumlin_db *db, const char *class_name, const drumlin_value *primary_key, size_t count,
                             const int32_t *property_indices, drumlin_value *out_values, drumlin_object **out_object);

/**
 * Find an object by primary key and read properties packed, in one call, with no object handle:
 * the object as drumlin_object_get_marshal() packs it (a dict of whole values), with the same
 * buffer protocol. Returns DRUMLIN_NOT_FOUND (and *out_size 0) when there is no such object. The
 * Python package's Database.get_dict() is this call.
 */
int drumlin_object_find_marshal(drumlin_db *db, const char *class_name, const drumlin_value *primary_key, size_t count,
                              const int32_t *property_indices, void *buffer, size_t capacity, size_t *out_size);

/**
 * Find an object by primary key and write properties in one call, all or nothing (inside a write
 * transaction): the fast path for updates. When every property is a plain column (bool, int,
 * float, double, string, data) this is a single UPDATE with no read first. Returns
 * DRUMLIN_NOT_FOUND, writing nothing, when there is no such object. The primary key itself cannot
 * be written (DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE when it would change). Values are copied.
 */
int drumlin_object_update_values(drumlin_db *db, const char *class_name, const drumlin_value *primary_key, size_t count,
                               const int32_t *property_indices, const drumlin_value *values);

/** Find an object by its object key (see drumlin_object_key()). DRUMLIN_NOT_FOUND when absent. */
int drumlin_object_find_by_key(drumlin_db *db, const char *class_name, int64_t key, drumlin_object **out_object);

/** Release an object handle (does not delete the object). NULL is ignored. */
void drumlin_object_release(drumlin_object *object);

/** The object key: stable for the object's lifetime, unique within its class. */
int drumlin_object_key(drumlin_object *object, int64_t *out_key);

/** The index of the object's class. */
int drumlin_object_class_index(drumlin_object *object, int32_t *out_class_index);

/** *out_valid = 1 if the object still exists, 0 after it was deleted. */
int drumlin_object_is_valid(drumlin_object *object, int *out_valid);

/**
 * Read one property by name. String and binary values are borrowed: valid until the next call on
 * the same object handle, or until it is released. Deleted object: DRUMLIN_ERR_INVALIDATED_OBJECT.
 */
int drumlin_object_get(drumlin_object *object, const char *property_name, drumlin_value *out_value);

/** Read one property by index (drumlin_property_index()); borrowed as in drumlin_object_get(). */
int drumlin_object_get_at(drumlin_object *object, int32_t property_index, drumlin_value *out_value);

/**
 * Read several properties at once (one database read). out_values must have room for `count`
 * values; borrowed as in drumlin_object_get().
 */
int drumlin_object_get_values(drumlin_object *object, size_t count, const int32_t *property_indices,
                            drumlin_value *out_values);

/**
 * Read several properties packed, in one call: the route of bindings that turn an object into a
 * dictionary. The packed form ("packed values") is Python's `marshal` serialization (version 3 or
 * later reads it) of the object as a dict: its keys are the properties' public names, in the order of
 * property_indices, and its values each whole:
 * - null, bool, int, double, string and data as themselves;
 * - float, decimal128, timestamp, object id and UUID as tuples whose first item is a DRUMLIN_TYPE_*
 *   constant: (DRUMLIN_TYPE_FLOAT, double), (DRUMLIN_TYPE_DECIMAL128, text) (the decimal's
 *   canonical string: "1.10", "-2.5E+40", "NaN", "Infinity"), (DRUMLIN_TYPE_TIMESTAMP, seconds, nanoseconds),
 *   (DRUMLIN_TYPE_OBJECT_ID, 12 bytes), (DRUMLIN_TYPE_UUID, 16 bytes);
 * - lists and sets as lists, dictionaries as dicts (string keys), their items packed the same way;
 *   a mixed value as its value, its nested lists and dictionaries likewise;
 * - a link property's target (alone or in a collection) as its primary key, packed the same way, or
 *   its object key when its class has none (reading the primary key is one more statement per
 *   link); a link held by a mixed value as {"$link": {"class": class name, "key": object key}}, as
 *   Extended JSON writes it;
 * - an embedded object as the packed values of all its properties but linkingObjects ones, a dict
 *   in property index order (one more statement per embedded object);
 * - a linkingObjects property as None.
 * A name is written once per call, as a string with marshal's reference flag; later dicts
 * of the same call (drumlin_results_get_marshal(), drumlin_query_marshal()) refer back to it, so
 * every dict of a result shares its key strings.
 * The bytes are written to `buffer` up to `capacity`; *out_size always receives their full size,
 * so a caller whose buffer was too small (*out_size > capacity: the buffer holds an incomplete
 * prefix) calls again with one of at least that size. After an error the buffer's contents are
 * unspecified.
 */
int drumlin_object_get_marshal(drumlin_object *object, size_t count, const int32_t *property_indices, void *buffer,
                             size_t capacity, size_t *out_size);

/**
 * Read several properties packed, as drumlin_object_get_marshal() does, of the object with an object
 * key (drumlin_object_key(), or the last item of a row; see "Whole rows"), in one call with no object
 * handle: how a binding that keeps an object's row reads its collections and mixed values.
 *
 * @param class_index  From drumlin_class_index().
 * @return DRUMLIN_OK; DRUMLIN_ERR_INVALIDATED_OBJECT (deleted); DRUMLIN_ERR_INVALID_ARGUMENT (class
 *         or property index out of range); DRUMLIN_ERR_NOT_SUPPORTED (asymmetric class);
 *         DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread; serialized with the handle's other calls.
 */
int drumlin_object_read_marshal(drumlin_db *db, int32_t class_index, int64_t key, size_t count,
                              const int32_t *property_indices, void *buffer, size_t capacity, size_t *out_size);

/** Write one property by name (inside a write transaction). The value is copied. */
int drumlin_object_set(drumlin_object *object, const char *property_name, const drumlin_value *value);

/** Write one property by index (inside a write transaction). */
int drumlin_object_set_at(drumlin_object *object, int32_t property_index, const drumlin_value *value);

/** Write several properties at once, all or nothing (inside a write transaction). */
int drumlin_object_set_values(drumlin_object *object, size_t count, const int32_t *property_indices,
                            const drumlin_value *values);

/** Write the properties given in a JSON object, all or nothing (inside a write transaction). */
int drumlin_object_update_json(drumlin_object *object, const char *object_json);

/** The object as JSON; free *out_json with drumlin_free(). */
int drumlin_object_to_json(drumlin_object *object, char **out_json);

/** Delete the object (inside a write transaction). The handle stays allocated: release it. */
int drumlin_object_delete(drumlin_object *object);

/*---- Links -------------------------------------------------------------------------------------*/

/**
 * The object a to-one link property, or a mixed property holding a link, points at. Returns
 * DRUMLIN_NOT_FOUND (and *out_object = NULL) when the link (or the mixed value) is null; a mixed
 * property holding something else is DRUMLIN_ERR_TYPE_MISMATCH. Release the handle with
 * drumlin_object_release().
 */
int drumlin_object_get_linked(drumlin_object *object, const char *property_name, drumlin_object **out_object);

/**
 * Point a to-one link property at `target` (NULL clears it), inside a write transaction. The
 * target must be of the property's class and must not be embedded (an embedded object has one
 * owner: assign a new one with drumlin_object_update_json()). A replaced embedded object is deleted.
 */
int drumlin_object_set_link(drumlin_object *object, const char *property_name, drumlin_object *target);

/**
 * The object as JSON with links expanded into nested objects `depth` levels deep (0: links print
 * as the target's primary key, or object key without one). Embedded objects always nest; an
 * object already being printed further up prints as its key. Free *out_json with drumlin_free().
 */
int drumlin_object_to_json_depth(drumlin_object *object, int depth, char **out_json);

/**
 * The objects linking to `object`. `property_name` is a linkingObjects property of its class, or
 * "@links.<Class>.<property>" for any link property pointing here. The result is live: it is
 * re-read on every call. Release it with drumlin_results_release().
 */
int drumlin_object_get_backlinks(drumlin_object *object, const char *property_name, drumlin_results **out_results);

/*---- Results -----------------------------------------------------------------------------------*/

/** Release a results handle. NULL is ignored. */
void drumlin_results_release(drumlin_results *results);

/** The number of objects (re-evaluated now). */
int drumlin_results_count(drumlin_results *results, size_t *out_count);

/**
 * *out_empty = 1 when the results hold no object now, 0 otherwise. Cheaper than a count: for a
 * class or its filters SQLite stops at the first object it finds.
 */
int drumlin_results_is_empty(drumlin_results *results, int *out_empty);

/** The object at `index`; release it with drumlin_object_release(). Out of range: INVALID_ARGUMENT. */
int drumlin_results_get_object(drumlin_results *results, size_t index, drumlin_object **out_object);

/**
 * The last object; release it with drumlin_object_release(). Empty results: DRUMLIN_NOT_FOUND and
 * *out_object NULL. Results of a class (filtered, sorted or limited) not read by position since
 * the last change read that object alone, where drumlin_results_get_object(count - 1) reads
 * every key in order.
 */
int drumlin_results_get_last(drumlin_results *results, drumlin_object **out_object);

/**
 * The position of the object of the results' class with object key `key` (drumlin_object_key()):
 * the first, when a list holds it more than once; -1 when it is not in the results. One read of
 * the results' keys, kept for reads by position until the next change.
 */
int drumlin_results_index_of_key(drumlin_results *results, int64_t key, int64_t *out_index);

/** All objects as a JSON array (links as keys, see drumlin_object_to_json()). Free with drumlin_free(). */
int drumlin_results_to_json(drumlin_results *results, char **out_json);

/**
 * Read properties of the objects at positions start, start + 1, ... (at most max_rows of them),
 * in one call and with no object handles: the typed fast path for query results. Row r's values
 * go to out_values[r * count + i], i following property_indices; *out_rows receives the number
 * of rows read, fewer than max_rows only at the end of the results (0 when start is past it).
 * Strings and binaries are borrowed until the next call on the results handle, or until it is
 * released. The rows of a query over a class (of any class) stream from one statement: read a
 * long result in pages (start 0, then each next start) and each page continues where the
 * previous one stopped, as long as the calls on the database between them are reads that see
 * the file as the pages do (no commit since: one snapshot of the file); after any other call, or
 * for a list's results, rows are read by key, at the same result.
 *
 * @param out_values  max_rows * count values; may be NULL only when either is 0.
 */
int drumlin_results_get_values(drumlin_results *results, size_t start, size_t max_rows, size_t count,
                             const int32_t *property_indices, drumlin_value *out_values, size_t *out_rows);

/**
 * Read properties of every object, packed, in one call: Python's `marshal` serialization of a
 * list of dicts (one per object, in order; the values of property_indices by name). Packing rules and
 * the buffer protocol are those of drumlin_object_get_marshal(): *out_size always receives the
 * size, and the bytes are complete only when it is at most `capacity`.
 */
int drumlin_results_get_marshal(drumlin_results *results, size_t count, const int32_t *property_indices, void *buffer,
                              size_t capacity, size_t *out_size);

/**
 * Query and read packed in one call, with no results handle: the objects of class_name matching
 * `query` (with args_json, as drumlin_query(); NULL query for every object), read as
 * drumlin_results_get_marshal() packs them, with the same buffer protocol. The Python package's
 * Database.query_dicts() is this call.
 */
int drumlin_query_marshal(drumlin_db *db, const char *class_name, const char *query, const char *args_json, size_t count,
                        const int32_t *property_indices, void *buffer, size_t capacity, size_t *out_size);

/*---- Whole rows and the read version -------------------------------------------------------------*/
/*
 * A binding that keeps what it read (a Python object's values) needs two things: an object's stored
 * values in one crossing, and a cheap way to know when what it kept may be stale. A whole row is
 * Python's marshal format (version 2 or later reads it): a tuple with one item per property, in
 * property index order, then the object key, read in one read transaction. Items:
 *   - a scalar: packed as in packed values (a decimal, ObjectId, UUID or float as its tagged
 *     tuple); a date property's value as the text YYYY-MM-DDTHH:MM:SS.ffffff+00:00 (UTC, the
 *     microseconds truncated: what Python's datetime.fromisoformat reads) within years 1-9999,
 *     its tagged tuple outside them;
 *   - a link: (DRUMLIN_TYPE_LINK, class index, object key); in the row of one object
 *     (drumlin_object_find_row(), drumlin_object_read_row()) with the target's own whole row as a
 *     fourth item, (DRUMLIN_TYPE_LINK, class index, object key, row), as an object is read to be
 *     used. The target's row carries its embedded objects' rows the same way, not its other links'
 *     targets nor its collections. The rows of results carry no targets (a page would read every
 *     target of every row);
 *   - a mixed value: what it holds, packed as a scalar (an object it holds as
 *     (DRUMLIN_TYPE_LINK, class index, object key)); a nested list or dictionary is only marked,
 *     (DRUMLIN_TYPE_LIST,) or (DRUMLIN_TYPE_DICTIONARY,), and read with the typed calls or as
 *     packed values (drumlin_object_read_marshal());
 *   - a list, set or dictionary of values (not links, not mixed values) of at most 16 elements, in
 *     the row of one object: its elements as packed values hold them (a list; a dict for a
 *     dictionary), read in the same read transaction, so a binding reads a short collection of an
 *     object it read with no second call. A longer one costs at most 16 elements read for nothing;
 *   - any other collection, a longer one, a collection in the rows of results or of a link's
 *     target, and linkingObjects: None (read with the typed calls or drumlin_object_read_marshal()).
 * The buffer protocol is drumlin_object_get_marshal()'s: *out_size always receives the size, and
 * the bytes are complete only when it is at most `capacity`.
 */

/**
 * The address of the database's read version: a counter that changes whenever values read through
 * this handle may have changed. It moves on every commit and rollback through the handle, after
 * every call that wrote a row, and after every call that read the file and saw a commit made by
 * another handle or process (SQLite's data version). A value read through the handle is current
 * while the counter shows the number it showed when the value was read. Another handle's commit is
 * noticed at the next call on this handle that reads (a get, a query, a results read): until then
 * the counter does not move. Its first value is 1; it never goes back.
 *
 * @param db           The database.
 * @param out_version  Receives the address; read the 64-bit word there without a call (aligned, so
 *                     a read is never torn). Valid until drumlin_close().
 * @return DRUMLIN_OK; DRUMLIN_ERR_MISUSE (NULL or closed handle, NULL out_version).
 * Thread safety: any thread; the word may be read from any thread at any time while it is valid.
 */
int drumlin_db_read_version(drumlin_db *db, const volatile uint64_t **out_version);

/**
 * Find an object by primary key and read its whole row (see above) in one call, with no object
 * handle.
 *
 * @param db           The database.
 * @param class_index  From drumlin_class_index().
 * @param primary_key  The primary key; borrowed for the call.
 * @param buffer       Receives the row; may be NULL when capacity is 0.
 * @param capacity     Bytes available at buffer.
 * @param out_size     Receives the row's size in bytes (0 when not found).
 * @return DRUMLIN_OK; DRUMLIN_NOT_FOUND (no such object); DRUMLIN_ERR_INVALID_ARGUMENT (class index
 *         out of range, a class without a primary key); DRUMLIN_ERR_TYPE_MISMATCH (key of another
 *         type); DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread; serialized with the handle's other calls.
 */
int drumlin_object_find_row(drumlin_db *db, int32_t class_index, const drumlin_value *primary_key, void *buffer,
                          size_t capacity, size_t *out_size);

/**
 * Read the whole row (see above) of the object with an object key (drumlin_object_key(), or the
 * last item of a row) in one call, with no object handle.
 *
 * @return DRUMLIN_OK; DRUMLIN_ERR_INVALIDATED_OBJECT (deleted); DRUMLIN_ERR_INVALID_ARGUMENT (class
 *         index out of range); DRUMLIN_ERR_NOT_SUPPORTED (asymmetric class); DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread; serialized with the handle's other calls.
 */
int drumlin_object_read_row(drumlin_db *db, int32_t class_index, int64_t key, void *buffer, size_t capacity,
                          size_t *out_size);

/**
 * Read the whole rows (see above) of results at positions start ..< start + max_rows (fewer at the
 * end) as a list of row tuples. Pages stream from one statement as drumlin_results_get_values()
 * describes. A page whose rows did not fit in `capacity` (*out_size is larger) is read again with
 * the same start and max_rows into a buffer of *out_size bytes: the same rows, and the next page
 * still continues the same read.
 *
 * @return DRUMLIN_OK; DRUMLIN_ERR_INVALID_ARGUMENT (negative start); DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread; serialized with the database's other calls.
 */
int drumlin_results_get_rows(drumlin_results *results, size_t start, size_t max_rows, void *buffer, size_t capacity,
                           size_t *out_size);

/**
 * drumlin_results_get_rows() that also writes the object key of each row read (the rows' last
 * items) into out_keys, in order. A binding that remembers which objects a loop has visited (the
 * Python package's loops, which visit the rest once if the database moves on mid-loop) keeps the
 * keys without taking them out of every row.
 *
 * @param out_keys  Room for max_rows keys; the first as many as rows were read are written (also
 *                  when the rows did not fit in `capacity`).
 * @return as drumlin_results_get_rows(); DRUMLIN_ERR_MISUSE for a NULL out_keys.
 * Thread safety: any thread; serialized with the database's other calls.
 */
int drumlin_results_get_rows_keyed(drumlin_results *results, size_t start, size_t max_rows, int64_t *out_keys,
                                 void *buffer, size_t capacity, size_t *out_size);

/**
 * Query and read whole rows (see above) in one call, with no results handle: the objects of class
 * class_index matching `query` (with args_json, as drumlin_query()), as a list of row tuples.
 *
 * @param query  The query text; "TRUEPREDICATE" reads every object. Copied.
 * @return DRUMLIN_OK; DRUMLIN_ERR_QUERY (a bad query, with its position); DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread; serialized with the handle's other calls.
 */
int drumlin_query_rows(drumlin_db *db, int32_t class_index, const char *query, const char *args_json, void *buffer,
                     size_t capacity, size_t *out_size);

/**
 * As drumlin_query_rows(), but at most max_rows rows: the first ones in the results' order. A
 * query matching more stops reading there (and leaves no read open), so asking for one row more
 * than a caller keeps tells it whether it has them all. The Python package's Database.query() makes this call: it checks
 * the query and reads small results at once, and opens a results handle only when it needs one.
 *
 * @param max_rows  The most rows to read (SIZE_MAX: every row).
 * @return DRUMLIN_OK; DRUMLIN_ERR_QUERY (a bad query, with its position); DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread; serialized with the handle's other calls.
 */
int drumlin_query_first_rows(drumlin_db *db, int32_t class_index, const char *query, const char *args_json,
                           size_t max_rows, void *buffer, size_t capacity, size_t *out_size);

/**
 * Write one property of the object with an object key (inside a write transaction), with no object
 * handle. A plain column (bool, int, float, double, string, data; not the primary key) is one
 * cached UPDATE with no read first; other properties take the path of drumlin_object_set_at().
 *
 * @param value  The value; copied.
 * @return DRUMLIN_OK; DRUMLIN_ERR_INVALIDATED_OBJECT (deleted); DRUMLIN_ERR_WRONG_TRANSACTION_STATE
 *         (not in a write transaction); DRUMLIN_ERR_TYPE_MISMATCH and DRUMLIN_ERR_NOT_NULLABLE naming
 *         the property; DRUMLIN_ERR_INVALID_ARGUMENT (an index out of range); DRUMLIN_ERR_MISUSE.
 * Thread safety: any thread; serialized with the handle's other calls.
 */
int drumlin_object_set_by_key(drumlin_db *db, int32_t class_index, int64_t key, int32_t property_index,
                            const drumlin_value *value);

/*
 * One write by object key as a record, for callers that write the same property of many objects:
 * `db`, `class_index` and `property_index` are filled once, `key` and `value` before each call.
 */
typedef struct drumlin_key_write {
    drumlin_db *db;
    int32_t class_index;
    int32_t property_index;
    int64_t key;
    drumlin_value value;
} drumlin_key_write;

/**
 * drumlin_object_set_by_key() with its arguments in one record: the same checks, errors and
 * write. A binding whose every call argument costs a conversion (Python's ctypes: ~140 ns for the
 * four beyond the first) passes one pointer to a record it keeps per property.
 *
 * @param write  The record (its `db` must be open); read during the call only.
 * @return as drumlin_object_set_by_key(); DRUMLIN_ERR_MISUSE for a NULL `write` or `db`.
 * Thread safety: any thread; serialized with the handle's other calls.
 */
int drumlin_object_write_by_key(const drumlin_key_write *write);

/*---- Queries -----------------------------------------------------------------------------------*/

/**
 * Live results of a query over a class (`query` NULL: every object, in creation order). Results
 * re-evaluate after every change; release with drumlin_results_release().
 */
int drumlin_query(drumlin_db *db, const char *class_name, const char *query, const char *args_json,
                drumlin_results **out_results);

/** The results narrowed by another query (which may end in SORT, DISTINCT and LIMIT). */
int drumlin_results_filter(drumlin_results *results, const char *query, const char *args_json,
                         drumlin_results **out_results);

/** The results sorted by a descriptor such as "age DESC, name" (ASC is the default). */
int drumlin_results_sort(drumlin_results *results, const char *sort_descriptor, drumlin_results **out_results);

/** The first object of each distinct combination of comma-separated key paths, e.g. "age, city". */
int drumlin_results_distinct(drumlin_results *results, const char *key_paths, drumlin_results **out_results);

/** At most the first `limit` objects. */
int drumlin_results_limit(drumlin_results *results, size_t limit, drumlin_results **out_results);

/** The current objects, frozen: later changes neither add nor reorder them. */
int drumlin_results_snapshot(drumlin_results *results, drumlin_results **out_results);

/**
 * Aggregates over a numeric (or, for min and max, date) property of the objects. With no objects,
 * sum is 0 and min, max and average are DRUMLIN_TYPE_NULL (Realm's semantics). Strings in
 * *out_value do not occur.
 */
int drumlin_results_min(drumlin_results *results, const char *property_name, drumlin_value *out_value);
int drumlin_results_max(drumlin_results *results, const char *property_name, drumlin_value *out_value);
int drumlin_results_sum(drumlin_results *results, const char *property_name, drumlin_value *out_value);
int drumlin_results_average(drumlin_results *results, const char *property_name, drumlin_value *out_value);

/** Delete every object in the results (inside a write transaction); *out_deleted may be NULL. */
int drumlin_results_delete_all(drumlin_results *results, int64_t *out_deleted);

/** The objects of a list of objects as results, optionally filtered (`query` NULL: all, in list order). */
int drumlin_list_query(drumlin_list *list, const char *query, const char *args_json, drumlin_results **out_results);

/*---- Lists -------------------------------------------------------------------------------------*/

/**
 * A live handle on a list property. It stays valid while the object exists; release it with
 * drumlin_list_release(). Values read from it are borrowed until the next call on the same handle.
 * Every change needs a write transaction. For lists of objects the values are DRUMLIN_TYPE_LINK.
 */
int drumlin_object_get_list(drumlin_object *object, const char *property_name, drumlin_list **out_list);

/** Release a list handle. NULL is ignored. */
void drumlin_list_release(drumlin_list *list);

int drumlin_list_size(drumlin_list *list, size_t *out_size);

/** The element at `index`; out of range: DRUMLIN_ERR_INVALID_ARGUMENT. */
int drumlin_list_get(drumlin_list *list, size_t index, drumlin_value *out_value);

/** For lists of objects: the object at `index`; release it with drumlin_object_release(). */
int drumlin_list_get_object(drumlin_list *list, size_t index, drumlin_object **out_object);

/** Insert at `index` (0 ... size). For lists of objects pass a DRUMLIN_TYPE_LINK value. */
int drumlin_list_insert(drumlin_list *list, size_t index, const drumlin_value *value);

/**
 * Insert a value given as JSON at `index`: for lists of objects, a JSON object creates a new
 * (embedded, or linked) object; a bare scalar is the primary key of an existing one, and
 * {"$link": {"class": ..., "key": ...}} an existing one by object key.
 */
int drumlin_list_insert_json(drumlin_list *list, size_t index, const char *value_json);

/**
 * Insert the elements of a JSON array at `index` (0 ... size), each as drumlin_list_insert_json()
 * takes it, all or nothing: on error the list is unchanged and no object was created. array_json
 * is copied.
 */
int drumlin_list_insert_many_json(drumlin_list *list, size_t index, const char *array_json);

/** Replace the element at `index` (a replaced embedded object is deleted). */
int drumlin_list_set(drumlin_list *list, size_t index, const drumlin_value *value);

/**
 * Replace the element at `index` with a value given as JSON (as drumlin_list_insert_json() takes
 * it); on error the list is unchanged. value_json is copied.
 */
int drumlin_list_set_json(drumlin_list *list, size_t index, const char *value_json);

/** Move the element at `from` so that it ends up at `to`. */
int drumlin_list_move(drumlin_list *list, size_t from, size_t to);

/** Remove the element at `index` (an embedded object is deleted with it). */
int drumlin_list_erase(drumlin_list *list, size_t index);

/** Remove every element. */
int drumlin_list_clear(drumlin_list *list);

/** The first index of `value`; *out_found = 0 (and *out_index unchanged) when absent. */
int drumlin_list_find(drumlin_list *list, const drumlin_value *value, size_t *out_index, int *out_found);

/** The list as a JSON array. Free *out_json with drumlin_free(). */
int drumlin_list_to_json(drumlin_list *list, char **out_json);

/*---- Sets --------------------------------------------------------------------------------------*/

/** A live handle on a set property (elements in insertion order); release with drumlin_set_release(). */
int drumlin_object_get_set(drumlin_object *object, const char *property_name, drumlin_set **out_set);

/** Release a set handle. NULL is ignored. */
void drumlin_set_release(drumlin_set *set);

int drumlin_set_size(drumlin_set *set, size_t *out_size);

/** The element at `index` in insertion order; borrowed until the next call on the handle. */
int drumlin_set_get(drumlin_set *set, size_t index, drumlin_value *out_value);

/** *out_found = 1 when the set contains `value`. */
int drumlin_set_find(drumlin_set *set, const drumlin_value *value, int *out_found);

/** Insert `value`; *out_inserted (may be NULL) = 0 when it was already there. */
int drumlin_set_insert(drumlin_set *set, const drumlin_value *value, int *out_inserted);

/**
 * Insert a value given as JSON: for sets of objects, a JSON object creates a new object, a bare
 * scalar is the primary key of an existing one and {"$link": {"class": ..., "key": ...}} an
 * existing one by object key. *out_inserted (may be NULL) = 0 when it was already there.
 * value_json is copied.
 */
int drumlin_set_insert_json(drumlin_set *set, const char *value_json, int *out_inserted);

/**
 * Insert the elements of a JSON array, each as drumlin_set_insert_json() takes it, all or nothing.
 * *out_inserted (may be NULL) = how many were not there before. array_json is copied.
 */
int drumlin_set_insert_many_json(drumlin_set *set, const char *array_json, size_t *out_inserted);

/** Remove `value`; *out_erased (may be NULL) = 0 when it was not there. */
int drumlin_set_erase(drumlin_set *set, const drumlin_value *value, int *out_erased);

int drumlin_set_clear(drumlin_set *set);

/** The set as a JSON array. Free *out_json with drumlin_free(). */
int drumlin_set_to_json(drumlin_set *set, char **out_json);

/*---- Dictionaries ------------------------------------------------------------------------------*/

/** A live handle on a dictionary property (entries ordered by key); release with drumlin_dict_release(). */
int drumlin_object_get_dict(drumlin_object *object, const char *property_name, drumlin_dict **out_dict);

/** Release a dictionary handle. NULL is ignored. */
void drumlin_dict_release(drumlin_dict *dict);

int drumlin_dict_size(drumlin_dict *dict, size_t *out_size);

/**
 * The entry at `index` in key order: the key (DRUMLIN_TYPE_STRING) and value, borrowed until the
 * next call on the handle.
 */
int drumlin_dict_get(drumlin_dict *dict, size_t index, drumlin_value *out_key, drumlin_value *out_value);

/** The value for `key`; *out_found = 0 when there is no such key (a key may hold null). */
int drumlin_dict_find(drumlin_dict *dict, const char *key, drumlin_value *out_value, int *out_found);

/** Set `key` to `value`. Keys cannot contain '.' or start with '$'. */
int drumlin_dict_insert(drumlin_dict *dict, const char *key, const drumlin_value *value);

/** Set `key` to a value given as JSON (a JSON object creates a new embedded or linked object). */
int drumlin_dict_insert_json(drumlin_dict *dict, const char *key, const char *value_json);

/**
 * Set every key of a JSON object to its value, each as drumlin_dict_insert_json() takes it, all
 * or nothing. object_json is copied.
 */
int drumlin_dict_insert_many_json(drumlin_dict *dict, const char *object_json);

/** Remove `key`; *out_erased (may be NULL) = 0 when it was not there. */
int drumlin_dict_erase(drumlin_dict *dict, const char *key, int *out_erased);

int drumlin_dict_clear(drumlin_dict *dict);

/** The dictionary as a JSON object. Free *out_json with drumlin_free(). */
int drumlin_dict_to_json(drumlin_dict *dict, char **out_json);

/*---- Nested mixed values -----------------------------------------------------------------------*/

/*
 * A mixed property may hold nested lists and dictionaries, up to 100 levels. These functions
 * address one element by a path: a JSON array of steps, each an integer (list index) or a string
 * (dictionary key), e.g. "[\"a\", 0]". For a mixed[] or mixed{} property, the first step picks the
 * property's own element. Values are JSON.
 */

/** The element at `path_json` as JSON. Free *out_json with drumlin_free(). */
int drumlin_object_get_mixed_json(drumlin_object *object, const char *property_name, const char *path_json,
                                char **out_json);

/** Replace the element at `path_json` (a new dictionary key is added). */
int drumlin_object_set_mixed_json(drumlin_object *object, const char *property_name, const char *path_json,
                                const char *value_json);

/** Append to the list at `path_json` ("[]" for the property's own nested list). */
int drumlin_object_append_mixed_json(drumlin_object *object, const char *property_name, const char *path_json,
                                   const char *value_json);

/** Remove the element at `path_json` from its list or dictionary. */
int drumlin_object_remove_mixed(drumlin_object *object, const char *property_name, const char *path_json);

/*---- Notifications -----------------------------------------------------------------------------*/

/*
 * Objects, results, lists, sets and dictionaries can be observed. A commit through a handle
 * delivers its changes to that handle's observers right after drumlin_commit() succeeds, on the
 * committing thread; commits by other handles, threads or processes are delivered when the
 * observing handle calls drumlin_refresh(), on the thread calling it. A rolled-back write
 * delivers nothing. Inside a callback the database can be read, at the version the change set
 * describes (whatever other connections commit meanwhile); applying a change set to the previous
 * contents gives exactly the new ones (docs/notifications.md). Beginning a write transaction
 * there fails with DRUMLIN_ERR_WRONG_TRANSACTION_STATE. Observers cannot be registered inside a
 * write transaction (DRUMLIN_ERR_WRONG_TRANSACTION_STATE).
 *
 * Every observe function takes (fn, userdata, free_userdata): `free_userdata` (may be NULL) runs
 * exactly once, when the registration ends (drumlin_token_release(), the database closed, or the
 * observe call failing).
 */

/* What changed, passed to a drumlin_changes_fn; valid only during the callback. */
typedef struct drumlin_changes drumlin_changes;

/* Called with the changes of one delivery. Never called with nothing to report. */
typedef void (*drumlin_changes_fn)(void *userdata, const drumlin_changes *changes);

/* Which index (or key) list of a drumlin_changes to read. Deletions are indices in the old state;
 * insertions and modifications indices in the new state. A moved element is a deletion and an
 * insertion. */
#define DRUMLIN_CHANGE_DELETIONS     0
#define DRUMLIN_CHANGE_INSERTIONS    1
#define DRUMLIN_CHANGE_MODIFICATIONS 2

/**
 * Observe results: `fn` receives index changes whenever a delivery changes which objects the
 * results hold, their order, or their properties. `key_paths_json` (NULL: every property) is a
 * JSON array of property names, e.g. "[\"age\"]": only changes to those count as modifications.
 * On success *out_token holds the registration; release it with drumlin_token_release().
 */
int drumlin_results_observe(drumlin_results *results, const char *key_paths_json, drumlin_changes_fn fn,
                            void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);

/**
 * Observe one object: `fn` receives the changed property names (with old and new values for
 * properties stored in the row), or deleted (after which nothing more is delivered).
 */
int drumlin_object_observe(drumlin_object *object, const char *key_paths_json, drumlin_changes_fn fn,
                           void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);

/** Observe a list: index changes; for links also modifications of the linked objects' properties. */
int drumlin_list_observe(drumlin_list *list, const char *key_paths_json, drumlin_changes_fn fn,
                         void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);

/** Observe a set: index changes in the set's order. */
int drumlin_set_observe(drumlin_set *set, const char *key_paths_json, drumlin_changes_fn fn,
                        void *userdata, drumlin_free_fn free_userdata, drumlin_token **out_token);

/** Observe a dictionary: the keys deleted, inserted and modified (read with drumlin_changes_keys). */
int drumlin_dict_observe(drumlin_dict *dict, drumlin_changes_fn fn, void *userdata, drumlin_free_fn free_userdata,
                         drumlin_token **out_token);

/** Stop delivery and release the token. NULL is ignored. Safe inside a callback. */
void drumlin_token_release(drumlin_token *token);

/**
 * The indices of one kind (DRUMLIN_CHANGE_*), ascending: *out_indices is borrowed for the
 * callback's duration. For an object or dictionary change: *out_count = 0.
 */
int drumlin_changes_indices(const drumlin_changes *changes, int kind, const size_t **out_indices, size_t *out_count);

/** Dictionary changes: the keys of one kind, borrowed for the callback's duration. */
int drumlin_changes_keys(const drumlin_changes *changes, int kind, const char *const **out_keys, size_t *out_count);

/** Object changes: *out_deleted = 1 when the object was deleted, else 0. */
int drumlin_changes_deleted(const drumlin_changes *changes, int *out_deleted);

/** Object changes: the changed properties' names in schema order, borrowed for the callback's duration. */
int drumlin_changes_properties(const drumlin_changes *changes, const char *const **out_names, size_t *out_count);

/**
 * Object changes: the old and new value of changed property `index` (as drumlin_changes_properties
 * orders them), borrowed for the callback's duration. Lists, sets, dictionaries and backlinks have
 * no values here: both are DRUMLIN_TYPE_NULL and *out_has_values (may be NULL) = 0.
 */
int drumlin_changes_property_values(const drumlin_changes *changes, size_t index, drumlin_value *out_old,
                                    drumlin_value *out_new, int *out_has_values);

/**
 * Deliver what other handles, threads and processes committed since this handle's last delivery
 * to its observers, on the calling thread. *out_changed (may be NULL) = 1 when the file changed.
 * Inside a write transaction or a callback it does nothing (*out_changed = 0).
 */
int drumlin_refresh(drumlin_db *db, int *out_changed);

/**
 * *out_changed = 1 when another connection committed since this handle last refreshed or
 * delivered: a cheap check for an event loop that polls before calling drumlin_refresh().
 */
int drumlin_has_changes(drumlin_db *db, int *out_changed);

/**
 * Commit like drumlin_commit(), without delivering this commit's changes to the `count` tokens
 * in `tokens` (their observers still move past it), as Realm's write(withoutNotifying:).
 */
int drumlin_commit_without_notifying(drumlin_db *db, drumlin_token *const *tokens, size_t count);

/*---- Sync --------------------------------------------------------------------------------------*/

/* Data Ingest (docs/sync.md): a database opened with drumlin_options_set_sync() uploads its
 * asymmetric objects to a drumlin-sync service from a thread of its own, and deletes each batch
 * once the service has acknowledged it. Creating an asymmetric object queues it in the same
 * transaction. Callbacks run on that thread; they must not block for long, and may call
 * drumlin_sync_* functions of the same database except drumlin_sync_wait_for_upload. */

typedef struct drumlin_sync_token_request drumlin_sync_token_request;  /* valid during a token call */

/* Connection states (Realm's SyncSession.ConnectionState). */
#define DRUMLIN_SYNC_DISCONNECTED 0
#define DRUMLIN_SYNC_CONNECTING   1
#define DRUMLIN_SYNC_CONNECTED    2

/* Asked for a token before each connection, on the sync thread: answer with
 * drumlin_sync_token_set(request, token) during the call (the library copies the token). Not
 * answering means no token: the session reports it and tries again with backoff. */
typedef void (*drumlin_sync_token_fn)(void *userdata, drumlin_sync_token_request *request);

/* After each change of state and each acknowledged batch: the connection state, whether paused,
 * objects acknowledged since the database was opened, objects still waiting in the file. */
typedef void (*drumlin_sync_progress_fn)(void *userdata, int state, int paused, int64_t uploaded, int64_t pending);

/* An error: Realm's code and name (203 "bad_authentication"; 227 "object_already_exists" for an
 * object the service already had; 0 and a client-side name such as "no_token" for the client's
 * own), a message, Realm's action ("LogOutUser", "Transient", "Warning", ...), and `stopped` 1 when
 * the session stopped on it until drumlin_sync_resume(). Strings are valid during the call. */
typedef void (*drumlin_sync_error_fn)(void *userdata, int code, const char *name, const char *message,
                                      const char *action, int stopped);

/**
 * Sync databases opened with these options to the service at `url` (ws:// or wss://, e.g.
 * "wss://sync.example.com/sync"), asking `token_fn` for a token (a JWT from the app's backend)
 * before each connection. `free_userdata` (may be NULL) runs once nothing uses `userdata` any more.
 * `url` NULL removes the sync configuration. Every asymmetric class of the schema is uploaded;
 * an in-memory or read-only database with sync fails to open with DRUMLIN_ERR_INVALID_ARGUMENT.
 */
int drumlin_options_set_sync(drumlin_options *options, const char *url, drumlin_sync_token_fn token_fn,
                             void *userdata, drumlin_free_fn free_userdata);

/** A PEM file of CA certificates to verify a wss:// service with (NULL: the system's). */
int drumlin_options_set_sync_ca_file(drumlin_options *options, const char *path);

/**
 * The progress and error callbacks (either may be NULL) of the sync session, with their userdata.
 * Set after drumlin_options_set_sync(); without it: DRUMLIN_ERR_MISUSE.
 */
int drumlin_options_set_sync_callbacks(drumlin_options *options, drumlin_sync_progress_fn progress_fn,
                                       drumlin_sync_error_fn error_fn, void *userdata,
                                       drumlin_free_fn free_userdata);

/** Answers a token request (only during the drumlin_sync_token_fn call that received it). */
int drumlin_sync_token_set(drumlin_sync_token_request *request, const char *token);

/**
 * Waits until every object queued in the file has been acknowledged by the service.
 * `timeout_ms` negative: no limit. DRUMLIN_ERR_TIMEOUT when the time ran out first (the message
 * says how many objects still wait); DRUMLIN_ERR_SYNC when the session stopped on an error;
 * DRUMLIN_ERR_MISUSE when the database has no sync session.
 */
int drumlin_sync_wait_for_upload(drumlin_db *db, int64_t timeout_ms);

/** Pauses the session (its connection closes; objects keep queueing), as Realm's suspend(). */
int drumlin_sync_pause(drumlin_db *db);

/** Resumes a paused session, or one stopped on an error: it connects at once. */
int drumlin_sync_resume(drumlin_db *db);

/** The session's state: any out pointer may be NULL (see drumlin_sync_progress_fn). */
int drumlin_sync_state(drumlin_db *db, int *out_state, int *out_paused, int64_t *out_uploaded, int64_t *out_pending);

#ifdef __cplusplus
}
#endif
#endif /* DRUMLIN_H */
