"""The integer constants of include/drumlin.h: status codes, value and property types,
collection kinds, property flags, class kinds, update modes and log levels.

Generated from include/drumlin.h by tools/gen-python-constants.py: do not edit.
"""

from __future__ import annotations

# ---- Status codes (explicit numbers, append-only)
DRUMLIN_OK = 0  # success
DRUMLIN_NOT_FOUND = 1  # no such object; not an error, sets no error
DRUMLIN_ERR_MISUSE = 2  # NULL or closed handle, call from a callback
DRUMLIN_ERR_INVALID_ARGUMENT = 3  # malformed JSON, bad option, bad index
DRUMLIN_ERR_SCHEMA = 4  # schema validation failed
DRUMLIN_ERR_MIGRATION_REQUIRED = 5  # stored schema differs and needs a migration
DRUMLIN_ERR_MIGRATION_FAILED = 6  # a migration or schema version check failed
DRUMLIN_ERR_NO_SUCH_CLASS = 7  # class name not in the schema
DRUMLIN_ERR_NO_SUCH_PROPERTY = 8  # property name not in the class
DRUMLIN_ERR_TYPE_MISMATCH = 9  # value of the wrong type for a property
DRUMLIN_ERR_NOT_NULLABLE = 10  # null for a required property
DRUMLIN_ERR_MISSING_VALUE = 11  # required property absent with no default
DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY = 12  # create with an existing primary key
DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE = 13  # attempt to change a primary key
DRUMLIN_ERR_WRONG_TRANSACTION_STATE = 14  # write outside a write transaction, and so on
DRUMLIN_ERR_INVALIDATED_OBJECT = 15  # the object was deleted
DRUMLIN_ERR_QUERY = 16  # query syntax or semantic error
DRUMLIN_ERR_NOT_SUPPORTED = 17  # operation not allowed on this kind of object
DRUMLIN_ERR_READ_ONLY = 18  # write on a read-only database
DRUMLIN_ERR_FILE = 19  # file cannot be opened, read or written
DRUMLIN_ERR_CORRUPT = 20  # not a Drumlin database, or damaged
DRUMLIN_ERR_BUSY = 21  # another connection holds the write lock
DRUMLIN_ERR_LIMIT = 22  # a size or nesting limit was exceeded
DRUMLIN_ERR_CALLBACK = 23  # a user callback failed
DRUMLIN_ERR_INTERNAL = 24  # a bug in Drumlin: please report it
DRUMLIN_ERR_DECRYPTION_FAILED = 25  # wrong encryption key, or a key for a plain file
DRUMLIN_ERR_TIMEOUT = 26  # a wait ran out of time (drumlin_sync_wait_for_upload)
DRUMLIN_ERR_SYNC = 27  # the sync session stopped on the service's error

# ---- Value types
DRUMLIN_TYPE_NULL = 0
DRUMLIN_TYPE_INT = 1
DRUMLIN_TYPE_BOOL = 2
DRUMLIN_TYPE_STRING = 3
DRUMLIN_TYPE_BINARY = 4
DRUMLIN_TYPE_TIMESTAMP = 5
DRUMLIN_TYPE_FLOAT = 6
DRUMLIN_TYPE_DOUBLE = 7
DRUMLIN_TYPE_DECIMAL128 = 8
DRUMLIN_TYPE_OBJECT_ID = 9
DRUMLIN_TYPE_LINK = 10
DRUMLIN_TYPE_UUID = 11
DRUMLIN_TYPE_LIST = 12  # a nested list inside a mixed value
DRUMLIN_TYPE_DICTIONARY = 13  # a nested dictionary inside a mixed value

# Property types reported by introspection (drumlin_property_info.type).
DRUMLIN_PROPERTY_BOOL = 0
DRUMLIN_PROPERTY_INT = 1
DRUMLIN_PROPERTY_FLOAT = 2
DRUMLIN_PROPERTY_DOUBLE = 3
DRUMLIN_PROPERTY_DECIMAL128 = 4
DRUMLIN_PROPERTY_STRING = 5
DRUMLIN_PROPERTY_DATA = 6
DRUMLIN_PROPERTY_DATE = 7
DRUMLIN_PROPERTY_OBJECT_ID = 8
DRUMLIN_PROPERTY_UUID = 9
DRUMLIN_PROPERTY_MIXED = 10
DRUMLIN_PROPERTY_OBJECT = 11
DRUMLIN_PROPERTY_LINKING_OBJECTS = 12

DRUMLIN_COLLECTION_NONE = 0
DRUMLIN_COLLECTION_LIST = 1
DRUMLIN_COLLECTION_SET = 2
DRUMLIN_COLLECTION_DICTIONARY = 3

DRUMLIN_PROPERTY_FLAG_OPTIONAL = 1
DRUMLIN_PROPERTY_FLAG_PRIMARY_KEY = 2
DRUMLIN_PROPERTY_FLAG_INDEXED = 4
DRUMLIN_PROPERTY_FLAG_FULLTEXT = 8

DRUMLIN_CLASS_TOP_LEVEL = 0
DRUMLIN_CLASS_EMBEDDED = 1
DRUMLIN_CLASS_ASYMMETRIC = 2

# Update modes for drumlin_create_json and friends.
DRUMLIN_UPDATE_NEVER = 0  # an existing primary key is DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY
DRUMLIN_UPDATE_MODIFIED = 1  # upsert; write only properties whose value changed
DRUMLIN_UPDATE_ALL = 2  # upsert; write every given property

# Log levels passed to a drumlin_log_fn (the same numbers as Python's logging levels).
DRUMLIN_LOG_DEBUG = 10
DRUMLIN_LOG_INFO = 20  # a database was opened, its schema migrated, compacted
DRUMLIN_LOG_WARNING = 30  # a query took longer than the slow-query threshold
DRUMLIN_LOG_ERROR = 40  # a call failed (the message is the error's)

DRUMLIN_SYNCHRONOUS_NORMAL = 1  # the default
DRUMLIN_SYNCHRONOUS_FULL = 2  # durable against power loss

DRUMLIN_CHANGE_DELETIONS = 0
DRUMLIN_CHANGE_INSERTIONS = 1
DRUMLIN_CHANGE_MODIFICATIONS = 2

# Connection states (Realm's SyncSession.ConnectionState).
DRUMLIN_SYNC_DISCONNECTED = 0
DRUMLIN_SYNC_CONNECTING = 1
DRUMLIN_SYNC_CONNECTED = 2

# The C name of each status code, as drumlin_status_name() gives it.
STATUS_NAMES: dict[int, str] = {
    DRUMLIN_OK: "DRUMLIN_OK",
    DRUMLIN_NOT_FOUND: "DRUMLIN_NOT_FOUND",
    DRUMLIN_ERR_MISUSE: "DRUMLIN_ERR_MISUSE",
    DRUMLIN_ERR_INVALID_ARGUMENT: "DRUMLIN_ERR_INVALID_ARGUMENT",
    DRUMLIN_ERR_SCHEMA: "DRUMLIN_ERR_SCHEMA",
    DRUMLIN_ERR_MIGRATION_REQUIRED: "DRUMLIN_ERR_MIGRATION_REQUIRED",
    DRUMLIN_ERR_MIGRATION_FAILED: "DRUMLIN_ERR_MIGRATION_FAILED",
    DRUMLIN_ERR_NO_SUCH_CLASS: "DRUMLIN_ERR_NO_SUCH_CLASS",
    DRUMLIN_ERR_NO_SUCH_PROPERTY: "DRUMLIN_ERR_NO_SUCH_PROPERTY",
    DRUMLIN_ERR_TYPE_MISMATCH: "DRUMLIN_ERR_TYPE_MISMATCH",
    DRUMLIN_ERR_NOT_NULLABLE: "DRUMLIN_ERR_NOT_NULLABLE",
    DRUMLIN_ERR_MISSING_VALUE: "DRUMLIN_ERR_MISSING_VALUE",
    DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY: "DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY",
    DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE: "DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE",
    DRUMLIN_ERR_WRONG_TRANSACTION_STATE: "DRUMLIN_ERR_WRONG_TRANSACTION_STATE",
    DRUMLIN_ERR_INVALIDATED_OBJECT: "DRUMLIN_ERR_INVALIDATED_OBJECT",
    DRUMLIN_ERR_QUERY: "DRUMLIN_ERR_QUERY",
    DRUMLIN_ERR_NOT_SUPPORTED: "DRUMLIN_ERR_NOT_SUPPORTED",
    DRUMLIN_ERR_READ_ONLY: "DRUMLIN_ERR_READ_ONLY",
    DRUMLIN_ERR_FILE: "DRUMLIN_ERR_FILE",
    DRUMLIN_ERR_CORRUPT: "DRUMLIN_ERR_CORRUPT",
    DRUMLIN_ERR_BUSY: "DRUMLIN_ERR_BUSY",
    DRUMLIN_ERR_LIMIT: "DRUMLIN_ERR_LIMIT",
    DRUMLIN_ERR_CALLBACK: "DRUMLIN_ERR_CALLBACK",
    DRUMLIN_ERR_INTERNAL: "DRUMLIN_ERR_INTERNAL",
    DRUMLIN_ERR_DECRYPTION_FAILED: "DRUMLIN_ERR_DECRYPTION_FAILED",
    DRUMLIN_ERR_TIMEOUT: "DRUMLIN_ERR_TIMEOUT",
    DRUMLIN_ERR_SYNC: "DRUMLIN_ERR_SYNC",
}
