"""Encryption at rest through Python and the CLI (docs/encryption.md): the key at open, its errors,
no plaintext on disk, and `--key-file`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_cli import run

import drumlin

KEY = bytes(range(64))
SCHEMA = [{"name": "Note", "primaryKey": "id", "properties": {"id": "int", "text": "string"}}]


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def make(path: Path, key: bytes | None = KEY, texts: tuple[str, ...] = ("alpha-secret", "beta-secret")) -> None:
    with drumlin.open(path, SCHEMA, encryption_key=key) as db:
        with db.write():
            for index, text in enumerate(texts):
                db.create("Note", {"id": index, "text": text})


def test_an_encrypted_file_reopens_with_its_key(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    make(path)
    with drumlin.open(path, SCHEMA, encryption_key=bytearray(KEY)) as db:
        assert [n["text"] for n in db.objects("Note").sort("id").to_dicts()] == ["alpha-secret", "beta-secret"]
    with drumlin.open(path, encryption_key=memoryview(KEY)) as db:  # by the stored schema
        assert db.objects("Note").count() == 2
    assert path.read_bytes()[:16] == b"DrumlinEncrypted"


def test_no_text_of_an_object_is_on_disk_while_open_or_after(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        with db.write():
            for index in range(200):
                db.create("Note", {"id": index, "text": f"needle-{index:03}-private"})
        assert {"notes.drumlin-wal", "notes.drumlin-shm"} <= set(files(tmp_path))
        assert not [name for name, data in files(tmp_path).items() if b"private" in data or b"needle" in data]
    assert not [name for name, data in files(tmp_path).items() if b"private" in data or b"needle" in data]


def test_the_wrong_key_no_key_or_a_key_for_a_plain_file_is_decryption_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    make(path)
    before = files(tmp_path)
    with pytest.raises(drumlin.DecryptionError) as wrong:
        drumlin.open(path, SCHEMA, encryption_key=bytes(64))
    assert wrong.value.code == drumlin.DecryptionError.code == 25
    assert wrong.value.message == f"Realm file decryption failed: the encryption key is not the key of '{path}'; it was left unchanged."
    with pytest.raises(drumlin.DecryptionError, match="is encrypted; open it with its encryption key"):
        drumlin.open(path, SCHEMA)
    assert files(tmp_path) == before

    plain = tmp_path / "plain" / "notes.drumlin"
    plain.parent.mkdir()
    make(plain, key=None)
    plain_before = files(plain.parent)
    with pytest.raises(drumlin.DecryptionError, match="is not encrypted; open it without an encryption key"):
        drumlin.open(plain, SCHEMA, encryption_key=KEY)
    assert files(plain.parent) == plain_before


def test_a_key_of_another_length_or_type_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    with pytest.raises(drumlin.InvalidArgumentError, match=r"^An encryption key must be 64 bytes long, got 32\.$"):
        drumlin.open(path, SCHEMA, encryption_key=bytes(32))
    with pytest.raises(drumlin.TypeMismatchError, match="encryption_key must be bytes, not str"):
        drumlin.open(path, SCHEMA, encryption_key="x" * 64)  # type: ignore[arg-type]
    assert not path.exists()


def test_a_changed_page_is_corrupt_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    make(path, texts=tuple(f"text {i} " * 20 for i in range(300)))
    data = bytearray(path.read_bytes())
    last = len(data) // 4096
    data[(last - 1) * 4096 + 200] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(drumlin.CorruptError, match=f"Page {last} of '{path}' failed authentication"):
        with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
            for note in db.objects("Note").to_dicts():
                assert note["text"].startswith("text ")


def test_a_changed_first_page_fails_the_open_with_corrupt_naming_page_1(tmp_path: Path) -> None:
    # SQLite reads the header as it opens the file: this was FileError "disk I/O error".
    path = tmp_path / "notes.drumlin"
    make(path)
    data = bytearray(path.read_bytes())
    data[1000] ^= 0x04
    path.write_bytes(bytes(data))
    with pytest.raises(drumlin.CorruptError, match=f"^The encrypted file is damaged: Page 1 of '{path}' failed authentication"):
        drumlin.open(path, SCHEMA, encryption_key=KEY)
    assert path.read_bytes() == bytes(data)


def test_the_cli_reads_the_key_from_a_key_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.drumlin"
    make(path)
    raw = tmp_path / "raw.key"
    raw.write_bytes(KEY)
    hexed = tmp_path / "hex.key"
    hexed.write_text(KEY.hex() + "\n")
    for key_file in (raw, hexed):
        result = run("info", path, "--key-file", key_file)
        assert result.returncode == 0, result.stderr
        assert "Note" in result.stdout
    result = run("query", path, "Note", "TRUEPREDICATE", "--key-file", raw)
    assert result.returncode == 0, result.stderr
    assert "alpha-secret" in result.stdout

    missing = run("info", path)
    assert missing.returncode == 1
    assert missing.stderr == f"drumlin: Realm file decryption failed: '{path}' is encrypted; open it with its encryption key. It was left unchanged.\n"
    short = tmp_path / "short.key"
    short.write_bytes(b"abc")
    bad = run("info", path, "--key-file", short)
    assert bad.returncode == 1
    assert bad.stderr == f"drumlin: {short}: a key file holds 64 bytes or 128 hexadecimal digits, not 3 bytes\n"
    absent = run("info", path, "--key-file", tmp_path / "nope.key")
    assert absent.returncode == 1 and "cannot read the key file" in absent.stderr
    assert os.path.getsize(path) > 0


def test_the_c_function_takes_exactly_64_bytes() -> None:
    from drumlin import _ffi

    options = _ffi.drumlin_options_new()
    try:
        with pytest.raises(drumlin.InvalidArgumentError, match=r"^An encryption key must be 64 bytes long, got 63\.$"):
            _ffi.drumlin_options_set_encryption_key(options, bytes(63), 63)
        with pytest.raises(drumlin.InvalidArgumentError, match=r"got 18446744073709551615\.$"):
            _ffi.drumlin_options_set_encryption_key(options, KEY, 2**64 - 1)
        assert _ffi.drumlin_options_set_encryption_key(options, KEY, 64) == 0
        assert _ffi.drumlin_options_set_encryption_key(options, None, 0) == 0  # no key again
    finally:
        _ffi.drumlin_options_free(options)
    with pytest.raises(drumlin.MisuseError):
        _ffi.drumlin_options_set_encryption_key(None, KEY, 64)
