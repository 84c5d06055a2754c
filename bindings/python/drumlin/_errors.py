"""The exception hierarchy: one class per ``DRUMLIN_ERR_*`` status code.

Every error Drumlin raises is a :class:`DrumlinError` carrying the C status ``code`` and the engine's
``message``. Where a builtin exception means the same thing, the class derives from it too, so
ordinary Python code catches it naturally:

========================  ======  =======================  ====================================
class                     code    also a                   raised when
========================  ======  =======================  ====================================
MisuseError               2                                closed database or object handle
InvalidArgumentError      3       ValueError               malformed input, bad option, bad index
SchemaValidationError     4                                the schema is invalid (all problems)
MigrationRequiredError    5                                stored schema needs a migration
MigrationError            6                                migration or schema version failed
NoSuchClassError          7       KeyError                 class name not in the schema
NoSuchPropertyError       8       AttributeError           property name not in the class
TypeMismatchError         9       TypeError                value of the wrong type
NotNullableError          10                               None for a required property
MissingValueError         11                               required property absent on create
DuplicatePrimaryKeyError  12                               create with an existing primary key
PrimaryKeyImmutableError  13                               attempt to change a primary key
TransactionError          14                               write outside ``write()``, nesting
InvalidatedObjectError    15                               the object was deleted
QueryError                16                               query syntax or semantics
NotSupportedError         17                               not allowed on this kind of object
ReadOnlyError             18                               write on a read-only database
FileError                 19      OSError                  file cannot be opened/read/written
CorruptError              20                               not a Drumlin database, or damaged
BusyError                 21                               another connection holds the lock
LimitError                22                               a size or nesting limit exceeded
CallbackError             23                               a user callback failed
DrumlinError                24                               ``DRUMLIN_ERR_INTERNAL``: a bug in Drumlin
========================  ======  =======================  ====================================

This module knows nothing about ctypes: ``_ffi`` reads the thread's last error and calls
:func:`error_for`.
"""

from __future__ import annotations

__all__ = [
    "DrumlinError",
    "MisuseError",
    "InvalidArgumentError",
    "SchemaValidationError",
    "MigrationRequiredError",
    "MigrationError",
    "NoSuchClassError",
    "NoSuchPropertyError",
    "TypeMismatchError",
    "NotNullableError",
    "MissingValueError",
    "DuplicatePrimaryKeyError",
    "PrimaryKeyImmutableError",
    "TransactionError",
    "InvalidatedObjectError",
    "QueryError",
    "NotSupportedError",
    "ReadOnlyError",
    "FileError",
    "CorruptError",
    "BusyError",
    "LimitError",
    "CallbackError",
    "error_for",
    "STATUS_NAMES",
]

# Status codes, as in include/drumlin.h (explicit numbers, append-only).
OK = 0
NOT_FOUND = 1
ERR_MISUSE = 2
ERR_INVALID_ARGUMENT = 3
ERR_SCHEMA = 4
ERR_MIGRATION_REQUIRED = 5
ERR_MIGRATION_FAILED = 6
ERR_NO_SUCH_CLASS = 7
ERR_NO_SUCH_PROPERTY = 8
ERR_TYPE_MISMATCH = 9
ERR_NOT_NULLABLE = 10
ERR_MISSING_VALUE = 11
ERR_DUPLICATE_PRIMARY_KEY = 12
ERR_PRIMARY_KEY_IMMUTABLE = 13
ERR_WRONG_TRANSACTION_STATE = 14
ERR_INVALIDATED_OBJECT = 15
ERR_QUERY = 16
ERR_NOT_SUPPORTED = 17
ERR_READ_ONLY = 18
ERR_FILE = 19
ERR_CORRUPT = 20
ERR_BUSY = 21
ERR_LIMIT = 22
ERR_CALLBACK = 23
ERR_INTERNAL = 24

STATUS_NAMES: dict[int, str] = {
    OK: "DRUMLIN_OK",
    NOT_FOUND: "DRUMLIN_NOT_FOUND",
    ERR_MISUSE: "DRUMLIN_ERR_MISUSE",
    ERR_INVALID_ARGUMENT: "DRUMLIN_ERR_INVALID_ARGUMENT",
    ERR_SCHEMA: "DRUMLIN_ERR_SCHEMA",
    ERR_MIGRATION_REQUIRED: "DRUMLIN_ERR_MIGRATION_REQUIRED",
    ERR_MIGRATION_FAILED: "DRUMLIN_ERR_MIGRATION_FAILED",
    ERR_NO_SUCH_CLASS: "DRUMLIN_ERR_NO_SUCH_CLASS",
    ERR_NO_SUCH_PROPERTY: "DRUMLIN_ERR_NO_SUCH_PROPERTY",
    ERR_TYPE_MISMATCH: "DRUMLIN_ERR_TYPE_MISMATCH",
    ERR_NOT_NULLABLE: "DRUMLIN_ERR_NOT_NULLABLE",
    ERR_MISSING_VALUE: "DRUMLIN_ERR_MISSING_VALUE",
    ERR_DUPLICATE_PRIMARY_KEY: "DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY",
    ERR_PRIMARY_KEY_IMMUTABLE: "DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE",
    ERR_WRONG_TRANSACTION_STATE: "DRUMLIN_ERR_WRONG_TRANSACTION_STATE",
    ERR_INVALIDATED_OBJECT: "DRUMLIN_ERR_INVALIDATED_OBJECT",
    ERR_QUERY: "DRUMLIN_ERR_QUERY",
    ERR_NOT_SUPPORTED: "DRUMLIN_ERR_NOT_SUPPORTED",
    ERR_READ_ONLY: "DRUMLIN_ERR_READ_ONLY",
    ERR_FILE: "DRUMLIN_ERR_FILE",
    ERR_CORRUPT: "DRUMLIN_ERR_CORRUPT",
    ERR_BUSY: "DRUMLIN_ERR_BUSY",
    ERR_LIMIT: "DRUMLIN_ERR_LIMIT",
    ERR_CALLBACK: "DRUMLIN_ERR_CALLBACK",
    ERR_INTERNAL: "DRUMLIN_ERR_INTERNAL",
}


class DrumlinError(Exception):
    """Base class of every Drumlin error.

    ``code`` is the C status code (``DRUMLIN_ERR_*``), ``message`` the engine's explanation, which
    names the class and property involved wherever there is one. ``str(error)`` is the message.
    """

    code: int = ERR_INTERNAL

    def __init__(self, message: str = "", code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    @property
    def status_name(self) -> str:
        """The C name of :attr:`code`, e.g. ``"DRUMLIN_ERR_SCHEMA"``."""
        return STATUS_NAMES.get(self.code, f"DRUMLIN_ERR_UNKNOWN({self.code})")

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __reduce__(self) -> tuple[type[DrumlinError], tuple[str, int]]:
        return (type(self), (self.message, self.code))


class MisuseError(DrumlinError):
    """A closed database or object handle was used, or the API was called the wrong way."""

    code = ERR_MISUSE


class InvalidArgumentError(DrumlinError, ValueError):
    """Malformed input: bad JSON, an option out of range, a value that cannot be represented."""

    code = ERR_INVALID_ARGUMENT


class SchemaValidationError(DrumlinError):
    """The schema given to :func:`drumlin.open` is invalid; the message lists every problem."""

    code = ERR_SCHEMA


class MigrationRequiredError(DrumlinError):
    """The stored schema differs from the given one in a way that needs a migration."""

    code = ERR_MIGRATION_REQUIRED


class MigrationError(DrumlinError):
    """A migration failed, or the schema version is lower than the stored one."""

    code = ERR_MIGRATION_FAILED


class NoSuchClassError(DrumlinError, KeyError):
    """The class name is not in the schema (a :class:`KeyError`: a failed lookup by name)."""

    code = ERR_NO_SUCH_CLASS


class NoSuchPropertyError(DrumlinError, AttributeError):
    """The property name is not in the class (an :class:`AttributeError`, so ``hasattr`` works)."""

    code = ERR_NO_SUCH_PROPERTY


class TypeMismatchError(DrumlinError, TypeError):
    """A value of the wrong type for a property, or a Python type Drumlin cannot store."""

    code = ERR_TYPE_MISMATCH


class NotNullableError(DrumlinError):
    """``None`` was given for a required property."""

    code = ERR_NOT_NULLABLE


class MissingValueError(DrumlinError):
    """A create left out a required property that has no default."""

    code = ERR_MISSING_VALUE


class DuplicatePrimaryKeyError(DrumlinError):
    """A create (without ``update=``) used a primary key that already exists."""

    code = ERR_DUPLICATE_PRIMARY_KEY


class PrimaryKeyImmutableError(DrumlinError):
    """An update tried to change an object's primary key."""

    code = ERR_PRIMARY_KEY_IMMUTABLE


class TransactionError(DrumlinError):
    """A write outside ``with db.write()``, or a ``write()`` nested in another on one thread."""

    code = ERR_WRONG_TRANSACTION_STATE


class InvalidatedObjectError(DrumlinError):
    """The object was deleted; its accessor can no longer read or write."""

    code = ERR_INVALIDATED_OBJECT


class QueryError(DrumlinError):
    """A query has a syntax or semantic error."""

    code = ERR_QUERY


class NotSupportedError(DrumlinError):
    """The operation is not allowed on this kind of object (e.g. reading an asymmetric one)."""

    code = ERR_NOT_SUPPORTED


class ReadOnlyError(DrumlinError):
    """A write on a database opened with ``read_only=True``."""

    code = ERR_READ_ONLY


class FileError(DrumlinError, OSError):
    """The database file cannot be opened, read or written (an :class:`OSError`)."""

    code = ERR_FILE


class CorruptError(DrumlinError):
    """The file is not a Drumlin database, or it is damaged. It was left untouched."""

    code = ERR_CORRUPT


class BusyError(DrumlinError):
    """Another connection holds the write lock."""

    code = ERR_BUSY


class LimitError(DrumlinError):
    """A size or nesting limit was exceeded."""

    code = ERR_LIMIT


class CallbackError(DrumlinError):
    """A user callback failed."""

    code = ERR_CALLBACK


_BY_CODE: dict[int, type[DrumlinError]] = {
    cls.code: cls
    for cls in (
        MisuseError,
        InvalidArgumentError,
        SchemaValidationError,
        MigrationRequiredError,
        MigrationError,
        NoSuchClassError,
        NoSuchPropertyError,
        TypeMismatchError,
        NotNullableError,
        MissingValueError,
        DuplicatePrimaryKeyError,
        PrimaryKeyImmutableError,
        TransactionError,
        InvalidatedObjectError,
        QueryError,
        NotSupportedError,
        ReadOnlyError,
        FileError,
        CorruptError,
        BusyError,
        LimitError,
        CallbackError,
    )
}


def error_for(code: int, message: str) -> DrumlinError:
    """The exception for a C status code: its class, or plain :class:`DrumlinError` for
    ``DRUMLIN_ERR_INTERNAL`` and codes this version does not know."""
    cls = _BY_CODE.get(code)
    if cls is None:
        return DrumlinError(message or STATUS_NAMES.get(code, f"unknown Drumlin status {code}"), code)
    return cls(message, code)
