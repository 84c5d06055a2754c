"""The exception hierarchy: one class per ``DRUMLIN_ERR_*`` status code.

Every error Drumlin raises is a :class:`DrumlinError` carrying the C status ``code`` and the engine's
``message``. Where a builtin exception means the same thing, the class derives from it too, so
ordinary Python code catches it naturally:

========================  =======================  ==============  ========================================
class                     ``DRUMLIN_ERR_*``        also a          raised when
========================  =======================  ==============  ========================================
MisuseError               MISUSE                                   closed database or object handle
InvalidArgumentError      INVALID_ARGUMENT         ValueError      malformed input, bad option, bad index
SchemaValidationError     SCHEMA                                   the schema is invalid (all problems)
MigrationRequiredError    MIGRATION_REQUIRED                       stored schema needs a migration
MigrationError            MIGRATION_FAILED                         migration or schema version failed
NoSuchClassError          NO_SUCH_CLASS            KeyError        class name not in the schema
NoSuchPropertyError       NO_SUCH_PROPERTY         AttributeError  property name not in the class
TypeMismatchError         TYPE_MISMATCH            TypeError       value of the wrong type
NotNullableError          NOT_NULLABLE                             None for a required property
MissingValueError         MISSING_VALUE                            required property absent on create
DuplicatePrimaryKeyError  DUPLICATE_PRIMARY_KEY                    create with an existing primary key
PrimaryKeyImmutableError  PRIMARY_KEY_IMMUTABLE                    attempt to change a primary key
TransactionError          WRONG_TRANSACTION_STATE                  write outside ``write()``, nesting
InvalidatedObjectError    INVALIDATED_OBJECT                       the object was deleted
QueryError                QUERY                                    query syntax or semantics
NotSupportedError         NOT_SUPPORTED                            not allowed on this kind of object
ReadOnlyError             READ_ONLY                                write on a read-only database
FileError                 FILE                     OSError         file cannot be opened/read/written
CorruptError              CORRUPT                                  not a Drumlin database, or damaged
BusyError                 BUSY                                     another connection holds the lock
LimitError                LIMIT                                    a size or nesting limit exceeded
CallbackError             CALLBACK                                 a user callback failed
DecryptionError           DECRYPTION_FAILED                        wrong key, or key and file disagree
SyncTimeoutError          TIMEOUT                  TimeoutError    a wait ran out of time
SyncError                 SYNC                                     sync session stopped on an error
DrumlinError              INTERNAL                                 a bug in Drumlin, or an unknown code
========================  =======================  ==============  ========================================

The numbers are the header's, through the generated ``_constants`` module.

This module knows nothing about ctypes: ``_ffi`` reads the thread's last error and calls
:func:`error_for`.
"""

from __future__ import annotations

# The status codes and their C names: include/drumlin.h, through the generated _constants.
from ._constants import (
    DRUMLIN_ERR_BUSY,
    DRUMLIN_ERR_CALLBACK,
    DRUMLIN_ERR_SYNC,
    DRUMLIN_ERR_TIMEOUT,
    DRUMLIN_ERR_CORRUPT,
    DRUMLIN_ERR_DECRYPTION_FAILED,
    DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY,
    DRUMLIN_ERR_FILE,
    DRUMLIN_ERR_INTERNAL,
    DRUMLIN_ERR_INVALID_ARGUMENT,
    DRUMLIN_ERR_INVALIDATED_OBJECT,
    DRUMLIN_ERR_LIMIT,
    DRUMLIN_ERR_MIGRATION_FAILED,
    DRUMLIN_ERR_MIGRATION_REQUIRED,
    DRUMLIN_ERR_MISSING_VALUE,
    DRUMLIN_ERR_MISUSE,
    DRUMLIN_ERR_NO_SUCH_CLASS,
    DRUMLIN_ERR_NO_SUCH_PROPERTY,
    DRUMLIN_ERR_NOT_NULLABLE,
    DRUMLIN_ERR_NOT_SUPPORTED,
    DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE,
    DRUMLIN_ERR_QUERY,
    DRUMLIN_ERR_READ_ONLY,
    DRUMLIN_ERR_SCHEMA,
    DRUMLIN_ERR_TYPE_MISMATCH,
    DRUMLIN_ERR_WRONG_TRANSACTION_STATE,
    STATUS_NAMES,
)

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
    "DecryptionError",
    "SyncError",
    "SyncTimeoutError",
    "error_for",
    "STATUS_NAMES",
]


class DrumlinError(Exception):
    """Base class of every Drumlin error.

    ``code`` is the C status code (``DRUMLIN_ERR_*``), ``message`` the engine's explanation, which
    names the class and property involved wherever there is one. ``str(error)`` is the message.
    """

    code: int = DRUMLIN_ERR_INTERNAL

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

    code = DRUMLIN_ERR_MISUSE


class InvalidArgumentError(DrumlinError, ValueError):
    """Malformed input: bad JSON, an option out of range, a value that cannot be represented."""

    code = DRUMLIN_ERR_INVALID_ARGUMENT


class SchemaValidationError(DrumlinError):
    """The schema given to :func:`drumlin.open` is invalid; the message lists every problem."""

    code = DRUMLIN_ERR_SCHEMA


class MigrationRequiredError(DrumlinError):
    """The stored schema differs from the given one in a way that needs a migration."""

    code = DRUMLIN_ERR_MIGRATION_REQUIRED


class MigrationError(DrumlinError):
    """A migration failed, or the schema version is lower than the stored one."""

    code = DRUMLIN_ERR_MIGRATION_FAILED


class NoSuchClassError(DrumlinError, KeyError):
    """The class name is not in the schema (a :class:`KeyError`: a failed lookup by name)."""

    code = DRUMLIN_ERR_NO_SUCH_CLASS


class NoSuchPropertyError(DrumlinError, AttributeError):
    """The property name is not in the class (an :class:`AttributeError`, so ``hasattr`` works)."""

    code = DRUMLIN_ERR_NO_SUCH_PROPERTY


class TypeMismatchError(DrumlinError, TypeError):
    """A value of the wrong type for a property, or a Python type Drumlin cannot store."""

    code = DRUMLIN_ERR_TYPE_MISMATCH


class NotNullableError(DrumlinError):
    """``None`` was given for a required property."""

    code = DRUMLIN_ERR_NOT_NULLABLE


class MissingValueError(DrumlinError):
    """A create left out a required property that has no default."""

    code = DRUMLIN_ERR_MISSING_VALUE


class DuplicatePrimaryKeyError(DrumlinError):
    """A create (without ``update=``) used a primary key that already exists."""

    code = DRUMLIN_ERR_DUPLICATE_PRIMARY_KEY


class PrimaryKeyImmutableError(DrumlinError):
    """An update tried to change an object's primary key."""

    code = DRUMLIN_ERR_PRIMARY_KEY_IMMUTABLE


class TransactionError(DrumlinError):
    """A write outside ``with db.write()``, or a ``write()`` nested in another on one thread."""

    code = DRUMLIN_ERR_WRONG_TRANSACTION_STATE


class InvalidatedObjectError(DrumlinError):
    """The object was deleted; its accessor can no longer read or write."""

    code = DRUMLIN_ERR_INVALIDATED_OBJECT


class QueryError(DrumlinError):
    """A query has a syntax or semantic error."""

    code = DRUMLIN_ERR_QUERY


class NotSupportedError(DrumlinError):
    """The operation is not allowed on this kind of object (e.g. reading an asymmetric one)."""

    code = DRUMLIN_ERR_NOT_SUPPORTED


class ReadOnlyError(DrumlinError):
    """A write on a database opened with ``read_only=True``."""

    code = DRUMLIN_ERR_READ_ONLY


class FileError(DrumlinError, OSError):
    """The database file cannot be opened, read or written (an :class:`OSError`)."""

    code = DRUMLIN_ERR_FILE


class CorruptError(DrumlinError):
    """The file is not a Drumlin database, or it is damaged. It was left untouched."""

    code = DRUMLIN_ERR_CORRUPT


class BusyError(DrumlinError):
    """Another connection holds the write lock."""

    code = DRUMLIN_ERR_BUSY


class LimitError(DrumlinError):
    """A size or nesting limit was exceeded."""

    code = DRUMLIN_ERR_LIMIT


class CallbackError(DrumlinError):
    """A user callback failed."""

    code = DRUMLIN_ERR_CALLBACK


class DecryptionError(DrumlinError):
    """Realm's "decryption failed": the encryption key is not the file's, or an encrypted file was
    opened without a key, or a plain file with one."""

    code = DRUMLIN_ERR_DECRYPTION_FAILED


class SyncTimeoutError(DrumlinError, TimeoutError):
    """A wait ran out of time (``db.sync.wait_for_upload``)."""

    code = DRUMLIN_ERR_TIMEOUT


class SyncError(DrumlinError):
    """The sync session stopped on an error from the service (it waits for ``resume()``)."""

    code = DRUMLIN_ERR_SYNC


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
        DecryptionError,
        SyncTimeoutError,
        SyncError,
    )
}


def error_for(code: int, message: str) -> DrumlinError:
    """The exception for a C status code: its class, or plain :class:`DrumlinError` for
    ``DRUMLIN_ERR_INTERNAL`` and codes this version does not know."""
    cls = _BY_CODE.get(code)
    if cls is None:
        return DrumlinError(message or STATUS_NAMES.get(code, f"unknown Drumlin status {code}"), code)
    return cls(message, code)
