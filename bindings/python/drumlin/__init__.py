"""Drumlin: an embedded object database with Realm's object model, on SQLite.

    import drumlin

    SCHEMA = [{"name": "Person", "primaryKey": "_id",
               "properties": {"_id": "objectId", "name": "string", "age": "int?"}}]
    with drumlin.open("app.drumlin", schema=SCHEMA) as db:
        with db.write():
            ann = db.create("Person", {"_id": drumlin.ObjectId(), "name": "Ann"})
            ann.age = 31
        print(ann.name, ann.age)

Documentation, in DOCS_FOLDER (installed with the package; from a checkout, its docs/):
python.md (this package's API), schema.md, queries.md, relationships.md, migrations.md,
notifications.md and cli.md (the `drumlin` command). The package is pure ctypes over libdrumlin
(include/drumlin.h).
"""

from __future__ import annotations

import os as _os

from . import _ffi
from ._errors import (
    BusyError,
    CallbackError,
    CorruptError,
    DecryptionError,
    DrumlinError,
    DuplicatePrimaryKeyError,
    FileError,
    InvalidArgumentError,
    InvalidatedObjectError,
    LimitError,
    MigrationError,
    MigrationRequiredError,
    MissingValueError,
    MisuseError,
    NoSuchClassError,
    NoSuchPropertyError,
    NotNullableError,
    NotSupportedError,
    PrimaryKeyImmutableError,
    QueryError,
    ReadOnlyError,
    SchemaValidationError,
    SyncError,
    SyncTimeoutError,
    TransactionError,
    TypeMismatchError,
)
from ._version import ABI_VERSION
from ._version import VERSION as __version__
from .collection import List, Set
from .database import Database, SchemaEntry, UpdateMode, WriteTransaction, open
from .dictionary import Dictionary
from .geo import GeoBox, GeoCircle, GeoPolygon, GeoShape
from .migration import Migration
from .model import linking_objects, persisted
from .notifications import CollectionChange, DictionaryChange, NotificationToken, ObjectChange
from .object import AsymmetricObject, EmbeddedObject, Object
from .projection import Projection, projected
from .results import Results
from .sync import SyncConfig, SyncErrorInfo, SyncProgress
from .values import ObjectId


def library_version() -> str:
    """The version of the loaded libdrumlin, e.g. ``"0.1.0"``."""
    raw = _ffi.drumlin_version()
    return raw.decode("utf-8") if raw else ""


def library_path() -> str:
    """The file libdrumlin was loaded from."""
    return _ffi.LIBRARY_PATH


__all__ = [
    "ABI_VERSION",
    "AsymmetricObject",
    "BusyError",
    "CallbackError",
    "CollectionChange",
    "CorruptError",
    "DecryptionError",
    "Database",
    "Dictionary",
    "DictionaryChange",
    "DrumlinError",
    "DuplicatePrimaryKeyError",
    "EmbeddedObject",
    "FileError",
    "GeoBox",
    "GeoCircle",
    "GeoPolygon",
    "GeoShape",
    "InvalidArgumentError",
    "InvalidatedObjectError",
    "LimitError",
    "List",
    "Migration",
    "MigrationError",
    "MigrationRequiredError",
    "MissingValueError",
    "MisuseError",
    "NoSuchClassError",
    "NoSuchPropertyError",
    "NotNullableError",
    "NotSupportedError",
    "NotificationToken",
    "Object",
    "ObjectChange",
    "ObjectId",
    "PrimaryKeyImmutableError",
    "Projection",
    "QueryError",
    "ReadOnlyError",
    "Results",
    "SchemaEntry",
    "SchemaValidationError",
    "Set",
    "SyncConfig",
    "SyncError",
    "SyncErrorInfo",
    "SyncProgress",
    "SyncTimeoutError",
    "TransactionError",
    "TypeMismatchError",
    "UpdateMode",
    "WriteTransaction",
    "__version__",
    "library_path",
    "library_version",
    "linking_objects",
    "open",
    "persisted",
    "projected",
]


def _docs_folder() -> str:
    """The user docs: installed beside the modules (setup.py copies them), or a checkout's docs/."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    for folder in (_os.path.join(here, "docs"), _os.path.join(here, _os.pardir, _os.pardir, _os.pardir, "docs")):
        if _os.path.isfile(_os.path.join(folder, "python.md")):
            return _os.path.normpath(folder)
    return _os.path.join(here, "docs")


__doc__ = (__doc__ or "").replace("DOCS_FOLDER", _docs_folder())
