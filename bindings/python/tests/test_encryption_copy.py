"""Adding, changing and removing encryption (docs/encryption.md, "Changing the key"):
`Database.write_copy` and `drumlin rekey`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli import run

import drumlin

KEY = bytes(range(64))
OTHER = bytes(range(64, 128))
SCHEMA = [{"name": "Note", "primaryKey": "id", "properties": {"id": "int", "text": "string"}}]


def make(path: Path, key: bytes | None, count: int = 120) -> None:
    with drumlin.open(path, SCHEMA, encryption_key=key) as db:
        with db.write():
            for index in range(count):
                db.create("Note", {"id": index, "text": f"marker-{index:04}-private"})


def texts(path: Path, key: bytes | None) -> list[str]:
    with drumlin.open(path, SCHEMA, encryption_key=key) as db:
        return [n["text"] for n in db.objects("Note").sort("id").to_dicts()]


EXPECTED = [f"marker-{index:04}-private" for index in range(120)]


@pytest.mark.parametrize(
    ("source_key", "copy_key"),
    [(None, KEY), (KEY, OTHER), (KEY, None), (KEY, KEY), (None, None)],
    ids=["encrypt", "change-key", "decrypt", "same-key", "plain"],
)
def test_write_copy_writes_every_object_under_the_new_key_and_leaves_the_source(
    tmp_path: Path, source_key: bytes | None, copy_key: bytes | None
) -> None:
    source = tmp_path / "source.drumlin"
    copy = tmp_path / "copy.drumlin"
    make(source, source_key)
    with drumlin.open(source, SCHEMA, encryption_key=source_key, schema_version=0) as db:
        db.write_copy(copy, encryption_key=copy_key)
        assert db.objects("Note").count() == 120  # the source still open and whole
    assert texts(copy, copy_key) == EXPECTED
    assert texts(source, source_key) == EXPECTED
    head = copy.read_bytes()[:16]
    assert head == (b"DrumlinEncrypted" if copy_key else b"SQLite format 3\0")
    if copy_key:
        assert b"marker-" not in copy.read_bytes()  # no plaintext in the copy
        with pytest.raises(drumlin.DecryptionError, match="is encrypted; open it with its encryption key"):
            drumlin.open(copy, SCHEMA)
    if copy_key and copy_key != source_key and source_key:
        with pytest.raises(drumlin.DecryptionError, match="the encryption key is not the key of"):
            drumlin.open(copy, SCHEMA, encryption_key=source_key)
    if not copy_key:
        with pytest.raises(drumlin.DecryptionError, match="is not encrypted; open it without an encryption key"):
            drumlin.open(copy, SCHEMA, encryption_key=KEY)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.drumlin", "source.drumlin"]


def test_a_copy_keeps_the_schema_version_and_can_be_written_and_compacted(tmp_path: Path) -> None:
    source = tmp_path / "source.drumlin"
    with drumlin.open(source, SCHEMA, schema_version=3) as db:
        with db.write():
            db.create("Note", {"id": 1, "text": "one"})
        db.write_copy(tmp_path / "copy.drumlin", encryption_key=KEY)
    with drumlin.open(tmp_path / "copy.drumlin", SCHEMA, schema_version=3, encryption_key=KEY) as copy:
        assert copy.schema_version == 3
        with copy.write():
            copy.create("Note", {"id": 2, "text": "two"})
        copy.compact()
        assert copy.check() == []
        assert copy.objects("Note").count() == 2


def test_bad_arguments_change_nothing_and_leave_no_file(tmp_path: Path) -> None:
    source = tmp_path / "source.drumlin"
    make(source, KEY, count=3)
    target = tmp_path / "copy.drumlin"
    existing = tmp_path / "existing.drumlin"
    existing.write_bytes(b"keep me")
    with drumlin.open(source, SCHEMA, encryption_key=KEY) as db:
        with pytest.raises(drumlin.InvalidArgumentError, match=r"^An encryption key must be 64 bytes long, got 63\.$"):
            db.write_copy(target, encryption_key=KEY[:63])
        with pytest.raises(drumlin.TypeMismatchError, match="encryption_key must be bytes, not str"):
            db.write_copy(target, encryption_key="k" * 64)  # type: ignore[arg-type]
        with pytest.raises(drumlin.FileError, match=r"the file already exists\.$"):
            db.write_copy(existing, encryption_key=OTHER)
        with pytest.raises(drumlin.FileError, match=f"^Cannot write a copy to '{tmp_path}': it is a directory"):
            db.write_copy(tmp_path, encryption_key=OTHER)
        with pytest.raises(drumlin.FileError, match="its directory does not exist"):
            db.write_copy(tmp_path / "nope" / "copy.drumlin")
        with db.write():
            with pytest.raises(drumlin.TransactionError, match="inside a write transaction"):
                db.write_copy(target)
    assert existing.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing.drumlin", "source.drumlin"]
    assert texts(source, KEY)[:1] == ["marker-0000-private"]


def key_file(folder: Path, name: str, key: bytes) -> Path:
    path = folder / name
    path.write_text(key.hex() + "\n")
    return path


def test_rekey_encrypts_changes_the_key_and_decrypts_in_place(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    make(path, None)
    os.chmod(path, 0o600)
    old, new = key_file(tmp_path, "old.key", KEY), key_file(tmp_path, "new.key", OTHER)

    encrypted = run("rekey", path, "--new-key-file", old)
    assert encrypted.returncode == 0, encrypted.stderr
    assert encrypted.stdout == f"{path}: encrypted with the new key\n"
    assert texts(path, KEY) == EXPECTED
    assert os.stat(path).st_mode & 0o777 == 0o600

    changed = run("rekey", path, "--key-file", old, "--new-key-file", new)
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout == f"{path}: the key is changed to the new one\n"
    assert texts(path, OTHER) == EXPECTED
    with pytest.raises(drumlin.DecryptionError):
        drumlin.open(path, SCHEMA, encryption_key=KEY)

    decrypted = run("rekey", path, "--key-file", new, "--decrypt")
    assert decrypted.returncode == 0, decrypted.stderr
    assert decrypted.stdout == f"{path}: decrypted (no key now)\n"
    assert texts(path, None) == EXPECTED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.key", "notes.drumlin", "old.key"]


def test_rekey_refusals_leave_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    make(path, KEY, count=4)
    before = path.read_bytes()
    old, new = key_file(tmp_path, "old.key", KEY), key_file(tmp_path, "new.key", OTHER)
    wrong = key_file(tmp_path, "wrong.key", bytes(64))

    neither = run("rekey", path, "--key-file", old)
    assert neither.returncode == 1
    assert "give --new-key-file PATH" in neither.stderr
    both = run("rekey", path, "--key-file", old, "--new-key-file", new, "--decrypt")
    assert both.returncode == 1 and both.stderr == "drumlin: give either --new-key-file or --decrypt, not both\n"
    bad_key = run("rekey", path, "--key-file", wrong, "--new-key-file", new)
    assert bad_key.returncode == 1
    assert bad_key.stderr == f"drumlin: Realm file decryption failed: the encryption key is not the key of '{path}'; it was left unchanged.\n"
    no_old = run("rekey", path, "--decrypt")
    assert no_old.returncode == 1 and "--decrypt needs the file's key (--key-file)" in no_old.stderr

    # Open in another process: refused, the file untouched.
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import drumlin, sys\ndb = drumlin.open({str(path)!r}, encryption_key={KEY!r})\n"
         "db.objects('Note').count()\nprint('open', flush=True)\nsys.stdin.read()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},  # this suite's drumlin
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        busy = run("rekey", path, "--key-file", old, "--new-key-file", new)
        assert busy.returncode == 1
        assert busy.stderr == f"drumlin: {path}: another process has the database open; close it there first (the file was left unchanged)\n"
    finally:
        holder.communicate("", timeout=60)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.key", "notes.drumlin", "old.key", "wrong.key"]
