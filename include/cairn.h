/*
 * cairn.h — the C API of Cairn, an embedded object database on SQLite.
 *
 * Naming conventions
 *   cairn_<object>_<verb>   functions (cairn_object_get, cairn_options_set_read_only)
 *   CAIRN_UPPER_SNAKE       constants (CAIRN_OK, CAIRN_TYPE_INT)
 *   cairn_<name>_fn         callback types
 *   out_<name>              out-parameters, always last
 *   _new/_free, _open/_close, _release   paired constructors and destructors
 *
 * Conventions
 *   - Every fallible function returns an int status: CAIRN_OK (0), CAIRN_NOT_FOUND (1, not an
 *     error), or a CAIRN_ERR_* code. Detail is kept per thread: cairn_last_error_code() and
 *     cairn_last_error_message(). Functions that cannot fail say so.
 *   - Inputs are copied: nothing passed in is retained after the call returns.
 *   - Handles returned through out_ parameters belong to the caller; release each with its paired
 *     function, which accepts NULL. A handle whose database was closed gives CAIRN_ERR_MISUSE.
 *   - Strings returned as `char **out_json` are allocated by Cairn: free with cairn_free().
 *   - Strings and binaries inside a cairn_value returned by Cairn are borrowed: valid until the
 *     next call on the same handle, or until it is released.
 *   - NULL where a handle or a required pointer is expected gives CAIRN_ERR_MISUSE, never a crash.
 *   - A cairn_db may be used from any thread; calls on one handle are serialized. A callback that
 *     calls back into the same handle gets CAIRN_ERR_MISUSE, never a deadlock. Object, collection
 *     and results handles lend values until their next call: use each from one thread at a time.
 *   - Text is UTF-8. JSON values use MongoDB Extended JSON v2 (relaxed) for types JSON lacks:
 *     {"$date": "..."}, {"$oid": "..."}, {"$uuid": "..."}, {"$numberDecimal": "..."},
 *     {"$binary": {"base64": "...", "subType": "00"}}, {"$numberDouble": "NaN"}.
 */
#ifndef CAIRN_H
#define CAIRN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CAIRN_VERSION        "0.1.0"
#define CAIRN_VERSION_NUMBER 1000    /* X*1000000 + Y*1000 + Z */
#define CAIRN_ABI_VERSION    1       /* bumped only when a shipped signature or layout changes */

/*---- Status codes (explicit numbers, append-only) ----------------------------------------------*/

#define CAIRN_OK                          0   /* success */
#define CAIRN_NOT_FOUND                   1   /* no such object; not an error, sets no error */
#define CAIRN_ERR_MISUSE                  2   /* NULL or closed handle, call from a callback */
#define CAIRN_ERR_INVALID_ARGUMENT        3   /* malformed JSON, bad option, bad index */
#define CAIRN_ERR_SCHEMA                  4   /* schema validation failed */
#define CAIRN_ERR_MIGRATION_REQUIRED      5   /* stored schema differs and needs a migration */
#define CAIRN_ERR_MIGRATION_FAILED        6   /* a migration or schema version check failed */
#define CAIRN_ERR_NO_SUCH_CLASS           7   /* class name not in the schema */
#define CAIRN_ERR_NO_SUCH_PROPERTY        8   /* property name not in the class */
#define CAIRN_ERR_TYPE_MISMATCH           9   /* value of the wrong type for a property */
#define CAIRN_ERR_NOT_NULLABLE           10   /* null for a required property */
#define CAIRN_ERR_MISSING_VALUE          11   /* required property absent with no default */
#define CAIRN_ERR_DUPLICATE_PRIMARY_KEY  12   /* create with an existing primary key */
#define CAIRN_ERR_PRIMARY_KEY_IMMUTABLE  13   /* attempt to change a primary key */
#define CAIRN_ERR_WRONG_TRANSACTION_STATE 14  /* write outside a write transaction, and so on */
#define CAIRN_ERR_INVALIDATED_OBJECT     15   /* the object was deleted */
#define CAIRN_ERR_QUERY                  16   /* query syntax or semantic error */
#define CAIRN_ERR_NOT_SUPPORTED          17   /* operation not allowed on this kind of object */
#define CAIRN_ERR_READ_ONLY              18   /* write on a read-only database */
#define CAIRN_ERR_FILE                   19   /* file cannot be opened, read or written */
#define CAIRN_ERR_CORRUPT                20   /* not a Cairn database, or damaged */
#define CAIRN_ERR_BUSY                   21   /* another connection holds the write lock */
#define CAIRN_ERR_LIMIT                  22   /* a size or nesting limit was exceeded */
#define CAIRN_ERR_CALLBACK               23   /* a user callback failed */
#define CAIRN_ERR_INTERNAL               24   /* a bug in Cairn: please report it */

/*---- Value types -------------------------------------------------------------------------------*/

#define CAIRN_TYPE_NULL        0
#define CAIRN_TYPE_INT         1
#define CAIRN_TYPE_BOOL        2
#define CAIRN_TYPE_STRING      3
#define CAIRN_TYPE_BINARY      4
#define CAIRN_TYPE_TIMESTAMP   5
#define CAIRN_TYPE_FLOAT       6
#define CAIRN_TYPE_DOUBLE      7
#define CAIRN_TYPE_DECIMAL128  8
#define CAIRN_TYPE_OBJECT_ID   9
#define CAIRN_TYPE_LINK       10
#define CAIRN_TYPE_UUID       11
#define CAIRN_TYPE_LIST       12   /* a nested list inside a mixed value */
#define CAIRN_TYPE_DICTIONARY 13   /* a nested dictionary inside a mixed value */

/* Property types reported by introspection (cairn_property_info.type). */
#define CAIRN_PROPERTY_BOOL             0
#define CAIRN_PROPERTY_INT              1
#define CAIRN_PROPERTY_FLOAT            2
#define CAIRN_PROPERTY_DOUBLE           3
#define CAIRN_PROPERTY_DECIMAL128       4
#define CAIRN_PROPERTY_STRING           5
#define CAIRN_PROPERTY_DATA             6
#define CAIRN_PROPERTY_DATE             7
#define CAIRN_PROPERTY_OBJECT_ID        8
#define CAIRN_PROPERTY_UUID             9
#define CAIRN_PROPERTY_MIXED           10
#define CAIRN_PROPERTY_OBJECT          11
#define CAIRN_PROPERTY_LINKING_OBJECTS 12

#define CAIRN_COLLECTION_NONE       0
#define CAIRN_COLLECTION_LIST       1
#define CAIRN_COLLECTION_SET        2
#define CAIRN_COLLECTION_DICTIONARY 3

#define CAIRN_PROPERTY_FLAG_OPTIONAL    1
#define CAIRN_PROPERTY_FLAG_PRIMARY_KEY 2
#define CAIRN_PROPERTY_FLAG_INDEXED     4
#define CAIRN_PROPERTY_FLAG_FULLTEXT    8

#define CAIRN_CLASS_TOP_LEVEL  0
#define CAIRN_CLASS_EMBEDDED   1
#define CAIRN_CLASS_ASYMMETRIC 2

/* Update modes for cairn_create_json and friends. */
#define CAIRN_UPDATE_NEVER    0   /* an existing primary key is CAIRN_ERR_DUPLICATE_PRIMARY_KEY */
#define CAIRN_UPDATE_MODIFIED 1   /* upsert; write only properties whose value changed */
#define CAIRN_UPDATE_ALL      2   /* upsert; write every given property */

/*---- Handles and plain structs -----------------------------------------------------------------*/

typedef struct cairn_db cairn_db;             /* an open database: cairn_open / cairn_close */
typedef struct cairn_object cairn_object;     /* a live object: cairn_object_find / _release */
typedef struct cairn_results cairn_results;   /* a live query result */
typedef struct cairn_list cairn_list;         /* a list property */
typedef struct cairn_set cairn_set;           /* a set property */
typedef struct cairn_dict cairn_dict;         /* a dictionary property */
typedef struct cairn_token cairn_token;       /* a notification registration */
typedef struct cairn_options cairn_options;   /* open options: cairn_options_new / _free */

/* Releases callback userdata; runs exactly once, after the last call that uses it. */
typedef void (*cairn_free_fn)(void *userdata);

typedef struct cairn_string {
    const char *data;   /* UTF-8, not NUL-terminated; may contain NUL bytes */
    size_t size;        /* in bytes */
} cairn_string;

typedef struct cairn_binary {
    const uint8_t *data;
    size_t size;
} cairn_binary;

typedef struct cairn_timestamp {
    int64_t seconds;        /* since 1970-01-01T00:00:00Z; negative before */
    int32_t nanoseconds;    /* 0 ... 999999999, added to seconds */
} cairn_timestamp;

typedef struct cairn_decimal128 {
    uint64_t w[2];          /* IEEE 754-2008 decimal128, BID encoding: w[0] low, w[1] high bits */
} cairn_decimal128;

typedef struct cairn_object_id {
    uint8_t bytes[12];
} cairn_object_id;

typedef struct cairn_uuid {
    uint8_t bytes[16];
} cairn_uuid;

typedef struct cairn_link {
    int32_t class_index;    /* see cairn_class_index() */
    int64_t key;            /* the target's object key */
} cairn_link;

/* A tagged value. `type` is a CAIRN_TYPE_* constant and selects the member of `as`. */
typedef struct cairn_value {
    int type;
    union {
        int64_t integer;            /* CAIRN_TYPE_INT */
        int boolean;                /* CAIRN_TYPE_BOOL: 0 or 1 */
        cairn_string string;        /* CAIRN_TYPE_STRING */
        cairn_binary binary;        /* CAIRN_TYPE_BINARY */
        cairn_timestamp timestamp;  /* CAIRN_TYPE_TIMESTAMP */
        float fnum;                 /* CAIRN_TYPE_FLOAT */
        double dnum;                /* CAIRN_TYPE_DOUBLE */
        cairn_decimal128 decimal128;/* CAIRN_TYPE_DECIMAL128 */
        cairn_object_id object_id;  /* CAIRN_TYPE_OBJECT_ID */
        cairn_uuid uuid;            /* CAIRN_TYPE_UUID */
        cairn_link link;            /* CAIRN_TYPE_LINK */
    } as;
} cairn_value;

/* Introspection of one property. Strings are owned by the database handle: valid until it is
 * closed. */
typedef struct cairn_property_info {
    const char *name;            /* public name */
    const char *stored_name;     /* column name (mapTo) */
    int type;                    /* CAIRN_PROPERTY_* (for collections: the element type) */
    int collection;              /* CAIRN_COLLECTION_* */
    const char *object_type;     /* linked class for links and linkingObjects, else "" */
    const char *origin_property; /* for linkingObjects, else "" */
    int flags;                   /* CAIRN_PROPERTY_FLAG_* */
} cairn_property_info;

/*---- Library -----------------------------------------------------------------------------------*/

/** The library version, e.g. "0.1.0". Static string: do not free. This function cannot fail. */
const char *cairn_version(void);

/** CAIRN_ABI_VERSION of the loaded library. Bindings compare it with their own. Cannot fail. */
int cairn_abi_version(void);

/** The status code of the last failed call on this thread (CAIRN_OK if it succeeded). */
int cairn_last_error_code(void);

/**
 * The message of the last failed call on this thread, or "" if the last call succeeded.
 * Valid until the next Cairn call on this thread. Do not free.
 */
const char *cairn_last_error_message(void);

/** A static name for a status code, e.g. "CAIRN_ERR_SCHEMA". Cannot fail. */
const char *cairn_status_name(int status);

/** Frees memory allocated by Cairn (char **out_json results). NULL is ignored. */
void cairn_free(void *ptr);

/*---- Options -----------------------------------------------------------------------------------*/

/**
 * New open options with the defaults: schema version 0, read-write, on disk, no automatic delete.
 * Free with cairn_options_free(); options are never consumed by cairn_open. Returns NULL only
 * when out of memory.
 */
cairn_options *cairn_options_new(void);

/** Frees options. NULL is ignored. */
void cairn_options_free(cairn_options *options);

/** The schema version to open with (stored in the file; a lower one than stored is an error). */
int cairn_options_set_schema_version(cairn_options *options, uint64_t schema_version);

/** Non-zero: open read-only; every write is CAIRN_ERR_READ_ONLY. The file must exist. */
int cairn_options_set_read_only(cairn_options *options, int read_only);

/** Non-zero: keep the database in memory (the path is ignored); it vanishes when closed. */
int cairn_options_set_in_memory(cairn_options *options, int in_memory);

/** Non-zero: when the stored schema needs a migration, delete the file and start afresh. */
int cairn_options_set_delete_if_migration_needed(cairn_options *options, int delete_if_needed);

/*---- Database ----------------------------------------------------------------------------------*/

/**
 * Open (or create) a database.
 *
 * @param path         UTF-8 file path; copied. ":memory:" opens a private in-memory database.
 * @param schema_json  The schema: a JSON array of object schemas in Realm JS's format; copied.
 * @param options      May be NULL for defaults. Not retained.
 * @param out_db       Receives a handle owned by the caller (close with cairn_close()); NULL on error.
 * @return CAIRN_OK; CAIRN_ERR_SCHEMA (validation, all problems listed); CAIRN_ERR_MIGRATION_REQUIRED;
 *         CAIRN_ERR_MIGRATION_FAILED (schema version lower than stored); CAIRN_ERR_CORRUPT (not a
 *         Cairn database: the file is left untouched); CAIRN_ERR_FILE; CAIRN_ERR_MISUSE.
 * Thread safety: any thread.
 */
int cairn_open(const char *path, const char *schema_json, const cairn_options *options, cairn_db **out_db);

/**
 * Close a database and free its handle. An open write transaction is rolled back. Objects and
 * other handles derived from it stay allocated (release them as usual) but every call on them
 * gives CAIRN_ERR_MISUSE. NULL is ignored (returns CAIRN_OK). Must not be called from a callback,
 * nor concurrently with other calls on the same handle.
 */
int cairn_close(cairn_db *db);

/** The schema in normalized long form (a JSON array). Free *out_json with cairn_free(). */
int cairn_schema_json(cairn_db *db, char **out_json);

/** The schema version stored in the file. */
int cairn_schema_version(cairn_db *db, uint64_t *out_version);

/*---- Transactions ------------------------------------------------------------------------------*/

/** Begin a write transaction. Already in one: CAIRN_ERR_WRONG_TRANSACTION_STATE. */
int cairn_begin_write(cairn_db *db);

/** Commit the write transaction (atomic and durable). Not in one: WRONG_TRANSACTION_STATE. */
int cairn_commit(cairn_db *db);

/** Discard everything since cairn_begin_write(). Not in one: WRONG_TRANSACTION_STATE. */
int cairn_rollback(cairn_db *db);

/** *out_in_write = 1 while a write transaction is open on this handle, else 0. */
int cairn_is_in_write(cairn_db *db, int *out_in_write);

/*---- JSON layer --------------------------------------------------------------------------------*/

/**
 * Create an object from a JSON object (inside a write transaction).
 *
 * @param class_name   Public class name; copied.
 * @param object_json  A JSON object: property name -> value (Extended JSON for special types).
 *                     Missing properties take their default, else null if optional, else the
 *                     call fails with CAIRN_ERR_MISSING_VALUE. Unknown keys are an error.
 * @param update_mode  CAIRN_UPDATE_NEVER, CAIRN_UPDATE_MODIFIED or CAIRN_UPDATE_ALL.
 * @param out_json     May be NULL. Receives the stored object as JSON; free with cairn_free().
 * @return CAIRN_OK or an error; on error nothing was written.
 */
int cairn_create_json(cairn_db *db, const char *class_name, const char *object_json, int update_mode,
                      char **out_json);

/**
 * Create many objects from a JSON array of objects, all or nothing (inside a write transaction).
 * *out_count (may be NULL) receives the number of objects created or updated.
 */
int cairn_create_many_json(cairn_db *db, const char *class_name, const char *array_json, int update_mode,
                           int64_t *out_count);

/**
 * Create many objects from typed values, all or nothing (inside a write transaction): the fast
 * path for C. `values` holds `row_count` rows of `property_count` values each, row after row;
 * value j of a row is for property `property_indices[j]` (see cairn_property_index()).
 * Properties not given take their default, else null if optional, else the call fails with
 * CAIRN_ERR_MISSING_VALUE. Strings and binaries are copied. Classes whose given properties are
 * plain columns are inserted in multi-row batches. *out_count (may be NULL) receives the number
 * of objects created or updated. An error names the element: "Element 12: ...".
 */
int cairn_create_many_values(cairn_db *db, const char *class_name, size_t property_count,
                             const int32_t *property_indices, size_t row_count, const cairn_value *values,
                             int update_mode, int64_t *out_count);

/**
 * Create many objects from a packed batch, all or nothing (inside a write transaction): the fast
 * path for bindings. `data` is Python's `marshal` serialization (format version 2 to 4) of a list
 * of tuples; each tuple holds `property_count` values for the properties `property_indices`
 * (see cairn_property_index()), in that order. Values may be None, bool, int (64-bit), float, str
 * and bytes; use cairn_create_many_json() for other types. `data` is copied as needed.
 * *out_count (may be NULL) receives the number of objects created or updated.
 */
int cairn_create_many_marshal(cairn_db *db, const char *class_name, size_t property_count,
                              const int32_t *property_indices, const void *data, size_t size, int update_mode,
                              int64_t *out_count);

/**
 * Get an object by primary key as JSON.
 *
 * @param primary_key_json  The key as JSON: 5, "abc", {"$oid": "..."}, {"$uuid": "..."}, null.
 * @param out_json          Receives the object; free with cairn_free(). NULL when not found.
 * @return CAIRN_OK, CAIRN_NOT_FOUND, or an error.
 */
int cairn_get_json(cairn_db *db, const char *class_name, const char *primary_key_json, char **out_json);

/**
 * Run a Realm Query Language query and return the matching objects as a JSON array (in creation
 * order unless the query sorts).
 *
 * @param query      e.g. "age >= $0 AND name BEGINSWITH[c] $1 SORT(age DESC) LIMIT(10)"; copied.
 * @param args_json  A JSON array of the $n arguments (Extended JSON; a JSON array is a list
 *                   argument for IN), or NULL when the query has none.
 * @param out_json   Free with cairn_free().
 * @return CAIRN_OK, CAIRN_ERR_QUERY (syntax, unknown property, type mismatch, missing argument:
 *         the message points at the problem), or another error.
 */
int cairn_query_json(cairn_db *db, const char *class_name, const char *query, const char *args_json,
                     char **out_json);

/** Count the objects of a class matching `query` (NULL counts all). */
int cairn_count(cairn_db *db, const char *class_name, const char *query, const char *args_json,
                int64_t *out_count);

/**
 * Delete the objects matching `query` (inside a write transaction), with the same cascade as
 * deleting each one. *out_deleted (may be NULL) receives how many.
 */
int cairn_delete_where(cairn_db *db, const char *class_name, const char *query, const char *args_json,
                       int64_t *out_deleted);

/*---- Introspection -----------------------------------------------------------------------------*/

/** Number of classes in the schema this handle was opened with. */
int cairn_class_count(cairn_db *db, int32_t *out_count);

/** The public name of class `class_index`; owned by the handle (valid until it is closed). */
int cairn_class_name(cairn_db *db, int32_t class_index, const char **out_name);

/** Resolve a class name (public or stored) to its index. Unknown: CAIRN_ERR_NO_SUCH_CLASS. */
int cairn_class_index(cairn_db *db, const char *class_name, int32_t *out_class_index);

/** The kind of a class: CAIRN_CLASS_TOP_LEVEL, CAIRN_CLASS_EMBEDDED or CAIRN_CLASS_ASYMMETRIC. */
int cairn_class_kind(cairn_db *db, const char *class_name, int *out_kind);

/** Number of properties of a class (persisted and computed). */
int cairn_property_count(cairn_db *db, const char *class_name, int32_t *out_count);

/**
 * Resolve a property name (public or stored) to its index in the class, for the _at and _values
 * calls. Unknown: CAIRN_ERR_NO_SUCH_PROPERTY.
 */
int cairn_property_index(cairn_db *db, const char *class_name, const char *property_name,
                         int32_t *out_property_index);

/** Describe property `property_index` of a class. Strings are valid until the handle is closed. */
int cairn_property_info_get(cairn_db *db, const char *class_name, int32_t property_index,
                            cairn_property_info *out_info);

/*---- Objects (typed layer) ---------------------------------------------------------------------*/

/**
 * Create an object from typed values (inside a write transaction).
 *
 * @param count             Number of entries in property_indices and values (0 is allowed).
 * @param property_indices  Indices from cairn_property_index(); copied.
 * @param values            The values; strings and binaries are copied.
 * @param update_mode       CAIRN_UPDATE_*; upserts need the primary key among the values.
 * @param out_object        May be NULL. Receives a live handle; release with cairn_object_release().
 */
int cairn_object_create(cairn_db *db, const char *class_name, size_t count, const int32_t *property_indices,
                        const cairn_value *values, int update_mode, cairn_object **out_object);

/**
 * Create an object from JSON (as cairn_create_json()) and return a live handle to it (or, in the
 * update modes, to the object it updated). Release it with cairn_object_release().
 */
int cairn_object_create_json(cairn_db *db, const char *class_name, const char *object_json, int update_mode,
                             cairn_object **out_object);

/**
 * Find an object by primary key. Returns CAIRN_NOT_FOUND (and *out_object = NULL) when there is
 * none. Release the handle with cairn_object_release().
 */
int cairn_object_find(cairn_db *db, const char *class_name, const cairn_value *primary_key,
                      cairn_object **out_object);

/**
 * Find an object by primary key and read properties in one call (one database read): the fast
 * path for reading whole objects. Returns CAIRN_NOT_FOUND when there is none. String and binary
 * values are borrowed: valid until the next call on the same database handle (or, when
 * out_object is not NULL, until the next call on that object handle), or until it is released.
 *
 * @param out_object  May be NULL; otherwise receives a live handle (cairn_object_release()).
 */
int cairn_object_find_values(cairn_db *db, const char *class_name, const cairn_value *primary_key, size_t count,
                             const int32_t *property_indices, cairn_value *out_values, cairn_object **out_object);

/**
 * Find an object by primary key and read properties packed, in one call and one database read,
 * with no object handle: the values as cairn_object_get_marshal() packs them, with the same
 * buffer protocol. Returns CAIRN_NOT_FOUND (and *out_size 0) when there is no such object. The
 * Python package's Database.get_dict() is this call.
 */
int cairn_object_find_marshal(cairn_db *db, const char *class_name, const cairn_value *primary_key, size_t count,
                              const int32_t *property_indices, void *buffer, size_t capacity, size_t *out_size);

/**
 * Find an object by primary key and write properties in one call, all or nothing (inside a write
 * transaction): the fast path for updates. When every property is a plain column (bool, int,
 * float, double, string, data) this is a single UPDATE with no read first. Returns
 * CAIRN_NOT_FOUND, writing nothing, when there is no such object. The primary key itself cannot
 * be written (CAIRN_ERR_PRIMARY_KEY_IMMUTABLE when it would change). Values are copied.
 */
int cairn_object_update_values(cairn_db *db, const char *class_name, const cairn_value *primary_key, size_t count,
                               const int32_t *property_indices, const cairn_value *values);

/** Find an object by its object key (see cairn_object_key()). CAIRN_NOT_FOUND when absent. */
int cairn_object_find_by_key(cairn_db *db, const char *class_name, int64_t key, cairn_object **out_object);

/** Release an object handle (does not delete the object). NULL is ignored. */
void cairn_object_release(cairn_object *object);

/** The object key: stable for the object's lifetime, unique within its class. */
int cairn_object_key(cairn_object *object, int64_t *out_key);

/** The index of the object's class. */
int cairn_object_class_index(cairn_object *object, int32_t *out_class_index);

/** *out_valid = 1 if the object still exists, 0 after it was deleted. */
int cairn_object_is_valid(cairn_object *object, int *out_valid);

/**
 * Read one property by name. String and binary values are borrowed: valid until the next call on
 * the same object handle, or until it is released. Deleted object: CAIRN_ERR_INVALIDATED_OBJECT.
 */
int cairn_object_get(cairn_object *object, const char *property_name, cairn_value *out_value);

/** Read one property by index (cairn_property_index()); borrowed as in cairn_object_get(). */
int cairn_object_get_at(cairn_object *object, int32_t property_index, cairn_value *out_value);

/**
 * Read several properties at once (one database read). out_values must have room for `count`
 * values; borrowed as in cairn_object_get().
 */
int cairn_object_get_values(cairn_object *object, size_t count, const int32_t *property_indices,
                            cairn_value *out_values);

/**
 * Read several properties packed, in one database read: the fast path for bindings. The packed
 * form is Python's `marshal` serialization of a tuple of the values, in the order of
 * property_indices. Only null, bool, int, double, string and data values can be packed; any
 * other gives CAIRN_ERR_NOT_SUPPORTED (use cairn_object_get_values()). The bytes are written to
 * `buffer` up to `capacity`; *out_size always receives their full size, so a caller whose buffer
 * was too small (*out_size > capacity: the buffer holds an incomplete prefix) calls again with one
 * of at least that size. After an error the buffer's contents are unspecified.
 */
int cairn_object_get_marshal(cairn_object *object, size_t count, const int32_t *property_indices, void *buffer,
                             size_t capacity, size_t *out_size);

/** Write one property by name (inside a write transaction). The value is copied. */
int cairn_object_set(cairn_object *object, const char *property_name, const cairn_value *value);

/** Write one property by index (inside a write transaction). */
int cairn_object_set_at(cairn_object *object, int32_t property_index, const cairn_value *value);

/** Write several properties at once, all or nothing (inside a write transaction). */
int cairn_object_set_values(cairn_object *object, size_t count, const int32_t *property_indices,
                            const cairn_value *values);

/** Write the properties given in a JSON object, all or nothing (inside a write transaction). */
int cairn_object_update_json(cairn_object *object, const char *object_json);

/** The object as JSON; free *out_json with cairn_free(). */
int cairn_object_to_json(cairn_object *object, char **out_json);

/** Delete the object (inside a write transaction). The handle stays allocated: release it. */
int cairn_object_delete(cairn_object *object);

/*---- Links -------------------------------------------------------------------------------------*/

/**
 * The object a to-one link property points at. Returns CAIRN_NOT_FOUND (and *out_object = NULL)
 * when the link is null. Release the handle with cairn_object_release().
 */
int cairn_object_get_linked(cairn_object *object, const char *property_name, cairn_object **out_object);

/**
 * Point a to-one link property at `target` (NULL clears it), inside a write transaction. The
 * target must be of the property's class and must not be embedded (an embedded object has one
 * owner: assign a new one with cairn_object_update_json()). A replaced embedded object is deleted.
 */
int cairn_object_set_link(cairn_object *object, const char *property_name, cairn_object *target);

/**
 * The object as JSON with links expanded into nested objects `depth` levels deep (0: links print
 * as the target's primary key, or object key without one). Embedded objects always nest; an
 * object already being printed further up prints as its key. Free *out_json with cairn_free().
 */
int cairn_object_to_json_depth(cairn_object *object, int depth, char **out_json);

/**
 * The objects linking to `object`. `property_name` is a linkingObjects property of its class, or
 * "@links.<Class>.<property>" for any link property pointing here. The result is live: it is
 * re-read on every call. Release it with cairn_results_release().
 */
int cairn_object_get_backlinks(cairn_object *object, const char *property_name, cairn_results **out_results);

/*---- Results -----------------------------------------------------------------------------------*/

/** Release a results handle. NULL is ignored. */
void cairn_results_release(cairn_results *results);

/** The number of objects (re-evaluated now). */
int cairn_results_count(cairn_results *results, size_t *out_count);

/** The object at `index`; release it with cairn_object_release(). Out of range: INVALID_ARGUMENT. */
int cairn_results_get_object(cairn_results *results, size_t index, cairn_object **out_object);

/** All objects as a JSON array (links as keys, see cairn_object_to_json()). Free with cairn_free(). */
int cairn_results_to_json(cairn_results *results, char **out_json);

/**
 * Read properties of the objects at positions start, start + 1, ... (at most max_rows of them),
 * in one call and with no object handles: the typed fast path for query results. Row r's values
 * go to out_values[r * count + i], i following property_indices; *out_rows receives the number
 * of rows read, fewer than max_rows only at the end of the results (0 when start is past it).
 * Strings and binaries are borrowed until the next call on the results handle, or until it is
 * released. Reading from position 0 streams the rows in one statement; later positions read
 * each row by key, so a long result can be read in chunks at the same cost per row.
 *
 * @param out_values  max_rows * count values; may be NULL only when either is 0.
 */
int cairn_results_get_values(cairn_results *results, size_t start, size_t max_rows, size_t count,
                             const int32_t *property_indices, cairn_value *out_values, size_t *out_rows);

/**
 * Read properties of every object, packed, in one call: Python's `marshal` serialization of a
 * list of tuples (one per object, in order; the values of property_indices). Packing rules and
 * the buffer protocol are those of cairn_object_get_marshal(): *out_size always receives the
 * size, and the bytes are complete only when it is at most `capacity`.
 */
int cairn_results_get_marshal(cairn_results *results, size_t count, const int32_t *property_indices, void *buffer,
                              size_t capacity, size_t *out_size);

/**
 * Query and read packed in one call, with no results handle: the objects of class_name matching
 * `query` (with args_json, as cairn_query(); NULL query for every object), read as
 * cairn_results_get_marshal() packs them, with the same buffer protocol. The Python package's
 * Database.query_dicts() is this call.
 */
int cairn_query_marshal(cairn_db *db, const char *class_name, const char *query, const char *args_json, size_t count,
                        const int32_t *property_indices, void *buffer, size_t capacity, size_t *out_size);

/**
 * Live results of a query over a class (`query` NULL: every object, in creation order). Results
 * re-evaluate after every change; release with cairn_results_release().
 */
int cairn_query(cairn_db *db, const char *class_name, const char *query, const char *args_json,
                cairn_results **out_results);

/** The results narrowed by another query (which may end in SORT, DISTINCT and LIMIT). */
int cairn_results_filter(cairn_results *results, const char *query, const char *args_json,
                         cairn_results **out_results);

/** The results sorted by a descriptor such as "age DESC, name" (ASC is the default). */
int cairn_results_sort(cairn_results *results, const char *sort_descriptor, cairn_results **out_results);

/** The first object of each distinct combination of comma-separated key paths, e.g. "age, city". */
int cairn_results_distinct(cairn_results *results, const char *key_paths, cairn_results **out_results);

/** At most the first `limit` objects. */
int cairn_results_limit(cairn_results *results, size_t limit, cairn_results **out_results);

/** The current objects, frozen: later changes neither add nor reorder them. */
int cairn_results_snapshot(cairn_results *results, cairn_results **out_results);

/**
 * Aggregates over a numeric (or, for min and max, date) property of the objects. With no objects,
 * sum is 0 and min, max and average are CAIRN_TYPE_NULL (Realm's semantics). Strings in
 * *out_value do not occur.
 */
int cairn_results_min(cairn_results *results, const char *property_name, cairn_value *out_value);
int cairn_results_max(cairn_results *results, const char *property_name, cairn_value *out_value);
int cairn_results_sum(cairn_results *results, const char *property_name, cairn_value *out_value);
int cairn_results_average(cairn_results *results, const char *property_name, cairn_value *out_value);

/** Delete every object in the results (inside a write transaction); *out_deleted may be NULL. */
int cairn_results_delete_all(cairn_results *results, int64_t *out_deleted);

/** The objects of a list of objects as results, optionally filtered (`query` NULL: all, in list order). */
int cairn_list_query(cairn_list *list, const char *query, const char *args_json, cairn_results **out_results);

/*---- Lists -------------------------------------------------------------------------------------*/

/**
 * A live handle on a list property. It stays valid while the object exists; release it with
 * cairn_list_release(). Values read from it are borrowed until the next call on the same handle.
 * Every change needs a write transaction. For lists of objects the values are CAIRN_TYPE_LINK.
 */
int cairn_object_get_list(cairn_object *object, const char *property_name, cairn_list **out_list);

/** Release a list handle. NULL is ignored. */
void cairn_list_release(cairn_list *list);

int cairn_list_size(cairn_list *list, size_t *out_size);

/** The element at `index`; out of range: CAIRN_ERR_INVALID_ARGUMENT. */
int cairn_list_get(cairn_list *list, size_t index, cairn_value *out_value);

/** For lists of objects: the object at `index`; release it with cairn_object_release(). */
int cairn_list_get_object(cairn_list *list, size_t index, cairn_object **out_object);

/** Insert at `index` (0 ... size). For lists of objects pass a CAIRN_TYPE_LINK value. */
int cairn_list_insert(cairn_list *list, size_t index, const cairn_value *value);

/**
 * Insert a value given as JSON at `index`: for lists of objects, a JSON object creates a new
 * (embedded, or linked) object; a bare scalar is the primary key of an existing one.
 */
int cairn_list_insert_json(cairn_list *list, size_t index, const char *value_json);

/** Replace the element at `index` (a replaced embedded object is deleted). */
int cairn_list_set(cairn_list *list, size_t index, const cairn_value *value);

/** Move the element at `from` so that it ends up at `to`. */
int cairn_list_move(cairn_list *list, size_t from, size_t to);

/** Remove the element at `index` (an embedded object is deleted with it). */
int cairn_list_erase(cairn_list *list, size_t index);

/** Remove every element. */
int cairn_list_clear(cairn_list *list);

/** The first index of `value`; *out_found = 0 (and *out_index unchanged) when absent. */
int cairn_list_find(cairn_list *list, const cairn_value *value, size_t *out_index, int *out_found);

/** The list as a JSON array. Free *out_json with cairn_free(). */
int cairn_list_to_json(cairn_list *list, char **out_json);

/*---- Sets --------------------------------------------------------------------------------------*/

/** A live handle on a set property (elements in insertion order); release with cairn_set_release(). */
int cairn_object_get_set(cairn_object *object, const char *property_name, cairn_set **out_set);

/** Release a set handle. NULL is ignored. */
void cairn_set_release(cairn_set *set);

int cairn_set_size(cairn_set *set, size_t *out_size);

/** The element at `index` in insertion order; borrowed until the next call on the handle. */
int cairn_set_get(cairn_set *set, size_t index, cairn_value *out_value);

/** *out_found = 1 when the set contains `value`. */
int cairn_set_find(cairn_set *set, const cairn_value *value, int *out_found);

/** Insert `value`; *out_inserted (may be NULL) = 0 when it was already there. */
int cairn_set_insert(cairn_set *set, const cairn_value *value, int *out_inserted);

/** Remove `value`; *out_erased (may be NULL) = 0 when it was not there. */
int cairn_set_erase(cairn_set *set, const cairn_value *value, int *out_erased);

int cairn_set_clear(cairn_set *set);

/** The set as a JSON array. Free *out_json with cairn_free(). */
int cairn_set_to_json(cairn_set *set, char **out_json);

/*---- Dictionaries ------------------------------------------------------------------------------*/

/** A live handle on a dictionary property (entries ordered by key); release with cairn_dict_release(). */
int cairn_object_get_dict(cairn_object *object, const char *property_name, cairn_dict **out_dict);

/** Release a dictionary handle. NULL is ignored. */
void cairn_dict_release(cairn_dict *dict);

int cairn_dict_size(cairn_dict *dict, size_t *out_size);

/**
 * The entry at `index` in key order: the key (CAIRN_TYPE_STRING) and value, borrowed until the
 * next call on the handle.
 */
int cairn_dict_get(cairn_dict *dict, size_t index, cairn_value *out_key, cairn_value *out_value);

/** The value for `key`; *out_found = 0 when there is no such key (a key may hold null). */
int cairn_dict_find(cairn_dict *dict, const char *key, cairn_value *out_value, int *out_found);

/** Set `key` to `value`. Keys cannot contain '.' or start with '$'. */
int cairn_dict_insert(cairn_dict *dict, const char *key, const cairn_value *value);

/** Set `key` to a value given as JSON (a JSON object creates a new embedded or linked object). */
int cairn_dict_insert_json(cairn_dict *dict, const char *key, const char *value_json);

/** Remove `key`; *out_erased (may be NULL) = 0 when it was not there. */
int cairn_dict_erase(cairn_dict *dict, const char *key, int *out_erased);

int cairn_dict_clear(cairn_dict *dict);

/** The dictionary as a JSON object. Free *out_json with cairn_free(). */
int cairn_dict_to_json(cairn_dict *dict, char **out_json);

/*---- Nested mixed values -----------------------------------------------------------------------*/

/*
 * A mixed property may hold nested lists and dictionaries, up to 100 levels. These functions
 * address one element by a path: a JSON array of steps, each an integer (list index) or a string
 * (dictionary key), e.g. "[\"a\", 0]". For a mixed[] or mixed{} property, the first step picks the
 * property's own element. Values are JSON.
 */

/** The element at `path_json` as JSON. Free *out_json with cairn_free(). */
int cairn_object_get_mixed_json(cairn_object *object, const char *property_name, const char *path_json,
                                char **out_json);

/** Replace the element at `path_json` (a new dictionary key is added). */
int cairn_object_set_mixed_json(cairn_object *object, const char *property_name, const char *path_json,
                                const char *value_json);

/** Append to the list at `path_json` ("[]" for the property's own nested list). */
int cairn_object_append_mixed_json(cairn_object *object, const char *property_name, const char *path_json,
                                   const char *value_json);

/** Remove the element at `path_json` from its list or dictionary. */
int cairn_object_remove_mixed(cairn_object *object, const char *property_name, const char *path_json);

#ifdef __cplusplus
}
#endif
#endif /* CAIRN_H */
