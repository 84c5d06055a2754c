"""The ``drumlin`` command: look inside a database file, query it, export and import it, check
and compact it, encrypt it or change its key. Every command opens the file with the schema stored in it.

Installed with the package as the ``drumlin`` console script; ``python -m drumlin`` is the same.
Exit status: 0 on success, 1 when the command failed (or ``check`` found problems), 2 for a
command line that cannot be understood, 130 when interrupted. Errors go to standard error as
``drumlin: <message>``; results go to standard output. docs/cli.md is the manual.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import IO, Any, Callable

from . import _version
from ._connection import encode_path
from ._errors import DrumlinError
from .database import Database

__all__ = ["main"]

_STDIO = "-"


class _Failure(Exception):
    """A failure the command reports as ``drumlin: <message>`` with exit status 1."""


# ---- Output helpers ------------------------------------------------------------------------------


def _size(n: int) -> str:
    value = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{n} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} bytes"  # pragma: no cover


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], out: IO[str]) -> None:
    """Plain-text columns, left-aligned, separated by two spaces."""
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row)]
    for row in [list(headers), *rows]:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() + "\n")


_CELL_WIDTH = 40


def _cell(value: Any) -> str:
    """A value from ``to_dict(json=True)`` as short text for a table cell."""
    if value is None:
        text = ""
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = value
    elif isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if key in ("$date", "$oid", "$uuid", "$numberDecimal", "$numberDouble") and isinstance(inner, str):
            text = inner
        elif key == "$binary" and isinstance(inner, dict):
            text = "base64:" + str(inner.get("base64", ""))
        else:
            text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    else:
        text = str(value)
    text = text.replace("\n", "\\n").replace("\t", "\\t")
    return text if len(text) <= _CELL_WIDTH else text[: _CELL_WIDTH - 1] + "…"


class _ProgressBar:
    """One self-overwriting line on standard error, only when it is a terminal. ``unit`` names
    what ``done`` counts; with ``bytes`` the object count is shown beside it."""

    def __init__(self, label: str, unit: str, enabled: bool) -> None:
        self.label = label
        self.unit = unit
        self.enabled = enabled
        self.started = time.monotonic()
        self.shown = 0.0
        self.drawn = False

    def __call__(self, done: int, total: int) -> bool:
        now = time.monotonic()
        if self.enabled and (now - self.shown >= 0.1 or (total and done >= total)):
            self.shown = now
            elapsed = now - self.started
            if total > 0:
                fraction = min(done / total, 1.0)
                filled = int(fraction * 30)
                amount = (
                    _size(done) + " of " + _size(total)
                    if self.unit == "bytes"
                    else f"{done} of {total} {self.unit}"
                )
                bar = "#" * filled + "." * (30 - filled)
                text = f"{self.label} [{bar}] {fraction:4.0%}  {amount}  {elapsed:.1f}s"
            else:
                amount = _size(done) if self.unit == "bytes" else f"{done} {self.unit}"
                text = f"{self.label} {amount}  {elapsed:.1f}s"
            sys.stderr.write("\r" + text + "\x1b[K")
            sys.stderr.flush()
            self.drawn = True
        return True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _open(path: str, *, write: bool = False, key: bytes | None = None) -> Database:
    encode_path(path)  # a path no file can have (a lone surrogate) is that error, not "no such file"
    if not os.path.exists(path):
        raise _Failure(f"{path}: no such file")
    return Database(path, read_only=not write, encryption_key=key)


def _read_key(path: str | None) -> bytes | None:
    """The encryption key in the file given with --key-file: its 64 bytes, or 128 hexadecimal
    digits (as `openssl rand -hex 64` writes them, a final newline allowed). Never on the command
    line, where other users see it (ps) and shells keep it (history)."""
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            raw = f.read(4097)
    except OSError as error:
        raise _Failure(f"{path}: cannot read the key file ({error.strerror})") from None
    text = raw.strip()
    if len(text) == 128 and all(c in b"0123456789abcdefABCDEF" for c in text):
        return bytes.fromhex(text.decode("ascii"))
    if len(raw) == 64:
        return raw
    raise _Failure(f"{path}: a key file holds 64 bytes or 128 hexadecimal digits, not {len(raw)} bytes")


# ---- Commands ------------------------------------------------------------------------------------


def _info(args: argparse.Namespace, out: IO[str]) -> int:
    with _open(args.file, key=args.key) as db:
        schema = db.schema
        out.write(f"file            {args.file}\n")
        out.write(f"size            {_size(os.path.getsize(args.file))}\n")
        out.write(f"schema version  {db.schema_version}\n")
        out.write(f"types           {len(schema)}\n\n")
        rows = []
        for object_schema in schema:
            name = object_schema["name"]
            kind = (
                "embedded"
                if object_schema.get("embedded")
                else "asymmetric"
                if object_schema.get("asymmetric")
                else "top-level"
            )
            count = "-" if kind == "asymmetric" else str(db.count(name))
            properties = object_schema["properties"]
            indexed = [
                p + (" (full-text)" if spec.get("indexed") == "full-text" else "")
                for p, spec in properties.items()
                if spec.get("indexed") and p != object_schema.get("primaryKey")
            ]
            rows.append(
                [
                    name,
                    object_schema.get("mapTo", name),
                    kind,
                    count,
                    object_schema.get("primaryKey") or "",
                    ", ".join(indexed),
                ]
            )
        _table(["type", "stored as", "kind", "objects", "primary key", "indexes"], rows, out)
    return 0


def _schema_type(spec: dict[str, Any]) -> str:
    """``string?``, ``Dog[]``, ``linkingObjects<Person.dogs>`` for one normalized property."""
    kind = spec["type"]
    if kind == "linkingObjects":
        return f"linkingObjects<{spec.get('objectType')}.{spec.get('property')}>"
    element = spec.get("objectType") if kind in ("object", "list", "set", "dictionary") else kind
    element = element or kind
    optional = "?" if spec.get("optional") and kind != "object" and element not in ("mixed",) else ""
    if kind == "list":
        return f"{element}{optional}[]"
    if kind == "set":
        return f"{element}{optional}<>"
    if kind == "dictionary":
        return f"{element}{optional}{{}}"
    return f"{element}{optional}"


def _schema(args: argparse.Namespace, out: IO[str]) -> int:
    with _open(args.file, key=args.key) as db:
        schema = db.schema
    if args.json:
        out.write(json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
        return 0
    for i, object_schema in enumerate(schema):
        if i:
            out.write("\n")
        notes = []
        if object_schema.get("embedded"):
            notes.append("embedded")
        if object_schema.get("asymmetric"):
            notes.append("asymmetric")
        if object_schema.get("mapTo", object_schema["name"]) != object_schema["name"]:
            notes.append(f"stored as {object_schema['mapTo']}")
        out.write(object_schema["name"] + (f" ({', '.join(notes)})" if notes else "") + "\n")
        rows = []
        for name, spec in object_schema["properties"].items():
            flags = []
            if name == object_schema.get("primaryKey"):
                flags.append("primary key")
            elif spec.get("indexed") == "full-text":
                flags.append("full-text index")
            elif spec.get("indexed"):
                flags.append("indexed")
            if spec.get("mapTo", name) != name:
                flags.append(f"stored as {spec['mapTo']}")
            if "default" in spec:
                flags.append("default " + json.dumps(spec["default"]))
            rows.append(["  " + name, _schema_type(spec), ", ".join(flags)])
        _table(["  property", "type", ""], rows, out)
    return 0


def _query(args: argparse.Namespace, out: IO[str]) -> int:
    with _open(args.file, key=args.key) as db:
        results = db.query(args.type, args.query)
        if args.limit is not None:
            results = results.limit(args.limit)
        if args.format == "json":
            out.write(results.to_json() + "\n")
        elif args.format == "ndjson":
            for obj in results:
                out.write(obj.to_json() + "\n")
        else:
            rows = results.to_dicts(json=True)
            names = [
                name
                for name, spec in next(s for s in db.schema if s["name"] == results._drumlin_class.name)[
                    "properties"
                ].items()
                if spec["type"] != "linkingObjects"
            ]
            _table(names, [[_cell(row.get(name)) for name in names] for row in rows], out)
            out.flush()  # the count comes after the table, also when both streams go to one file
            if not args.quiet:
                sys.stderr.write(f"({len(rows)} object{'s' if len(rows) != 1 else ''})\n")
    return 0


def _export(args: argparse.Namespace, out: IO[str]) -> int:
    target = args.output
    to_stdout = target in (None, _STDIO)
    bar = _ProgressBar("exporting", "objects", enabled=not args.quiet and sys.stderr.isatty())
    with _open(args.file, key=args.key) as db:
        out.flush()
        try:
            count = db.export_ndjson("/dev/stdout" if to_stdout else target, args.type, progress=bar)
        finally:
            bar.close()
    if not args.quiet:
        where = "standard output" if to_stdout else target
        sys.stderr.write(f"exported {count} object{'s' if count != 1 else ''} to {where}\n")
    return 0


def _import(args: argparse.Namespace, out: IO[str]) -> int:
    source = "/dev/stdin" if args.input == _STDIO else args.input
    encode_path(args.file)
    encode_path(source)
    if source != "/dev/stdin" and not os.path.exists(source):
        raise _Failure(f"{args.input}: no such file")
    bar = _ProgressBar("importing", "bytes", enabled=not args.quiet and sys.stderr.isatty())
    schema: str | None = None
    if args.schema is not None:
        try:
            with open(args.schema, encoding="utf-8") as f:
                schema = f.read()
        except OSError as error:
            raise _Failure(f"{args.schema}: {error.strerror}") from None
        except ValueError as error:  # a path no file can have, or a schema file that is not UTF-8
            raise _Failure(f"{args.schema!r}: {error}") from None
    elif not os.path.exists(args.file):
        raise _Failure(f"{args.file}: no such file (import --schema SCHEMA creates it)")
    # A file this import creates (absent or empty before) is all or nothing with its schema: a
    # refused import leaves it as it was. Into an existing database the schema's additions are
    # made in the import's transaction (_open_to_add). (docs/cli.md, "import".)
    # (With --batch the batches before a bad line are kept, as asked: so is the file.)
    existed = os.path.exists(args.file)
    creates = schema is not None and not (existed and os.path.getsize(args.file) > 0)
    fresh = creates and args.batch == 0
    try:
        added = None
        if schema is None:
            database = _open(args.file, write=True, key=args.key)
        elif creates:
            database = Database(args.file, schema, encryption_key=args.key)
        else:
            database, added = _open_to_add(args.file, schema, args.key)
        with database as db:
            try:
                if added is not None and args.batch == 0:
                    with db.write():  # the schema's classes and the objects: all or nothing
                        db.add_classes(added)
                        count = db.import_ndjson(source, args.type, update=args.update, progress=bar)
                else:
                    if added is not None:
                        db.add_classes(added)  # committed first, as the batches are
                    count = db.import_ndjson(
                        source, args.type, update=args.update, batch=args.batch, progress=bar
                    )
            finally:
                bar.close()
    except BaseException:
        if fresh:
            _undo_create(args.file, existed)
        raise
    if not args.quiet:
        sys.stderr.write(f"imported {count} object{'s' if count != 1 else ''} into {args.file}\n")
    return 0


def _open_to_add(path: str, schema: str, key: bytes | None) -> tuple[Database, str]:
    """An existing database for an import with --schema: opened with none of its classes (at its
    stored schema version), and the classes to add to it in the import's transaction: the
    schema's, and the stored ones it does not name. Added to a handle that has none of them open,
    stored classes are compared with the file as an open compares them: the additive changes the
    schema makes to them are made in that transaction too, and roll back with it."""
    with Database(path, read_only=True, encryption_key=key) as db:  # the whole file checked as any open checks it
        stored = db.schema
        version = db.schema_version
    try:
        given = json.loads(schema)
    except ValueError:
        given = None
    if isinstance(given, list) and all(isinstance(entry, dict) for entry in given):
        named = {n for entry in given for n in (entry.get("name"), entry.get("mapTo")) if isinstance(n, str)}
        kept = [entry for entry in stored if not {entry["name"], entry.get("mapTo", entry["name"])} & named]
        schema = json.dumps(given + kept)
    # Otherwise the schema is not a list of object schemas: add_classes reports what is wrong.
    return Database(path, "[]", schema_version=version, encryption_key=key), schema


def _undo_create(path: str, existed: bool) -> None:
    """Puts back the file a refused import created: absent, or empty if it was an empty file."""
    for suffix in ("-wal", "-shm", "-journal"):
        try:
            os.remove(path + suffix)
        except (OSError, ValueError):
            pass
    if existed:
        with open(path, "wb"):
            pass
    else:
        try:
            os.remove(path)
        except (OSError, ValueError):
            pass


def _check(args: argparse.Namespace, out: IO[str]) -> int:
    with _open(args.file, key=args.key) as db:
        problems = db.check()
    if not problems:
        out.write(f"{args.file}: ok\n")
        return 0
    for problem in problems:
        out.write(f"{args.file}: {problem}\n")
    return 1


def _compact(args: argparse.Namespace, out: IO[str]) -> int:
    before = _total_size(args.file)
    with _open(args.file, write=True, key=args.key) as db:
        db.compact()
    after = _total_size(args.file)
    out.write(f"{args.file}: {_size(before)} -> {_size(after)}\n")
    return 0


def _rekey(args: argparse.Namespace, out: IO[str]) -> int:
    """Replaces FILE by a copy of it encrypted with the new key, or plain with --decrypt: the copy
    is written beside it (same folder, so the rename is atomic) and renamed over it only when
    complete. Refused while another process has FILE open (see _in_use)."""
    if args.decrypt and args.new_key_file is not None:
        raise _Failure("give either --new-key-file or --decrypt, not both")
    if not args.decrypt and args.new_key_file is None:
        raise _Failure("give --new-key-file PATH (encrypt, or change the key) or --decrypt (remove encryption)")
    new_key = None if args.decrypt else _read_key(args.new_key_file)
    if args.decrypt and args.key is None:
        raise _Failure(f"{args.file}: --decrypt needs the file's key (--key-file)")
    _refuse_in_use(args.file)
    folder = os.path.dirname(os.path.abspath(args.file))
    temporary = os.path.join(folder, f".{os.path.basename(args.file)}.rekey-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        with _open(args.file, write=True, key=args.key) as db:
            db.write_copy(temporary, encryption_key=new_key)
        _refuse_in_use(args.file)
        os.chmod(temporary, os.stat(args.file).st_mode & 0o7777)
        os.replace(temporary, args.file)
    except BaseException:
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.remove(temporary + suffix)
            except OSError:
                pass
        raise
    if new_key is None:
        done = "decrypted (no key now)"
    elif args.key is None:
        done = "encrypted with the new key"
    else:
        done = "the key is changed to the new one"
    out.write(f"{args.file}: {done}\n")
    return 0


def _refuse_in_use(path: str) -> None:
    """Fails when another process has the database open. Every SQLite connection to a file in
    write-ahead-log mode holds a shared lock on one byte of its -shm file (offset 128, SQLite's
    "DMS" lock) for as long as it is open: a write lock there that cannot be had means another
    process holds it. (Locks of this process do not count: the check runs while it has the file
    closed.)"""
    try:
        descriptor = os.open(path + "-shm", os.O_RDWR)
    except OSError:
        return  # no shared-memory file: no connection has it open in WAL mode
    try:
        try:
            fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128, 0)
        except OSError:
            raise _Failure(
                f"{path}: another process has the database open; close it there first "
                "(the file was left unchanged)"
            ) from None
        fcntl.lockf(descriptor, fcntl.LOCK_UN, 1, 128, 0)
    finally:
        os.close(descriptor)


def _total_size(path: str) -> int:
    """The file and its write-ahead log."""
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


# ---- Command line --------------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of 0 or more, got {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="drumlin",
        description="Look inside, query, export, import, check and compact Drumlin database files. "
        "Every command opens the file with the schema stored in it.",
        epilog="Run 'drumlin COMMAND --help' for a command's options. Manual: docs/cli.md.",
    )
    parser.add_argument("--version", action="version", version=f"drumlin {_version.VERSION}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(
        name: str, summary: str, run: Callable[[argparse.Namespace, IO[str]], int]
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.add_argument("file", metavar="FILE", help="the database file")
        sub.add_argument(
            "--key-file",
            metavar="PATH",
            help="the file's encryption key: a file of 64 bytes or 128 hex digits (docs/encryption.md)",
        )
        sub.set_defaults(run=run)
        return sub

    command("info", "Types, object counts, stored names, indexes, schema version and file size.", _info)

    sub = command("schema", "The stored schema, as a table or as JSON.", _schema)
    sub.add_argument(
        "--json", action="store_true", help="the normalized schema as JSON (Realm JS's long form)"
    )

    sub = command("query", "Objects of a type matching a Realm Query Language query.", _query)
    sub.add_argument("type", metavar="TYPE", help="the object type")
    sub.add_argument(
        "query",
        metavar="RQL",
        nargs="?",
        default="TRUEPREDICATE",
        help='the query, e.g. "age > 30 SORT(name ASC)" (default: every object)',
    )
    formats = sub.add_mutually_exclusive_group()
    formats.add_argument(
        "--table", dest="format", action="store_const", const="table", help="aligned columns (the default)"
    )
    formats.add_argument(
        "--json",
        dest="format",
        action="store_const",
        const="json",
        help="one JSON array (Extended JSON for dates, decimals, ids...)",
    )
    formats.add_argument(
        "--ndjson", dest="format", action="store_const", const="ndjson", help="one JSON object per line"
    )
    sub.add_argument("--limit", type=_positive, metavar="N", help="at most N objects")
    sub.add_argument("-q", "--quiet", action="store_true", help="no object count on standard error")
    sub.set_defaults(format="table")

    sub = command("export", "Write objects as Extended JSON lines.", _export)
    sub.add_argument(
        "--type",
        metavar="T",
        help='only this type, as plain objects (default: every type, each line with "$type")',
    )
    sub.add_argument("-o", "--output", metavar="OUT", help="the output file (default: standard output)")
    sub.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")

    sub = command("import", "Create objects from Extended JSON lines, all or nothing.", _import)
    sub.add_argument("input", metavar="IN", help="the input file ('-': standard input)")
    sub.add_argument(
        "--type",
        metavar="T",
        help='every line is an object of this type (default: each line names its type in "$type")',
    )
    sub.add_argument(
        "--update",
        choices=["modified", "all"],
        help="update objects whose primary key exists (default: that is an error)",
    )
    sub.add_argument(
        "--schema",
        metavar="SCHEMA",
        help="a JSON schema file (as 'drumlin schema --json' writes); FILE is created with it if needed",
    )
    sub.add_argument(
        "--batch",
        type=_positive,
        default=0,
        metavar="N",
        help="commit every N objects; a failure keeps the batches before it",
    )
    sub.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")

    command("check", "Check the file: SQLite's integrity and the links and embedded objects.", _check)
    command("compact", "Rewrite the file without its free space.", _compact)
    sub = command(
        "rekey",
        "Encrypt the file, change its key or decrypt it: a copy replaces it when complete.",
        _rekey,
    )
    sub.add_argument(
        "--new-key-file",
        metavar="PATH",
        help="the new key (64 bytes or 128 hex digits); with --key-file the key changes, without it a plain file is encrypted",
    )
    sub.add_argument("--decrypt", action="store_true", help="write the file without encryption")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        args.key = _read_key(args.key_file)
        status: int = args.run(args, sys.stdout)
        sys.stdout.flush()
        return status
    except (DrumlinError, _Failure) as error:
        message = error.message if isinstance(error, DrumlinError) else str(error)
        sys.stderr.write(f"drumlin: {message}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("drumlin: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (`drumlin query ... | head`): stop quietly, as shell tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
