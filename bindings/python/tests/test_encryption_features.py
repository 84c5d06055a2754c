"""Every feature on an encrypted file (issue 50, docs/encryption.md): notifications of another
process's commits, migrations, export and import, check and compact (the CLI with --key-file),
processes writing at once and processes adding a class at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_cli import run
from test_reliability_processes import BASE, EXTRA, OPENS, PROCESSES, run_racing_children

import drumlin
from drumlin import CollectionChange

KEY = bytes(range(30, 94))
PEOPLE = [{"name": "Person", "primaryKey": "_id", "properties": {"_id": "int", "name": "string"}}]
PACKAGE = str(Path(drumlin.__file__).resolve().parents[1])


def child(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {PACKAGE!r})\n" + code, *args],
        capture_output=True, text=True, timeout=300,
    )


def no_plaintext(folder: Path, *needles: bytes) -> list[str]:
    """The files in `folder` holding any of `needles`."""
    return [p.name for p in folder.iterdir() if p.is_file() and any(n in p.read_bytes() for n in needles)]


def test_another_process_commits_reach_an_observer_of_an_encrypted_file(tmp_path: Path) -> None:
    path = tmp_path / "people.drumlin"
    observer = drumlin.open(path, PEOPLE, encryption_key=KEY)
    with observer.write():
        observer.create("Person", {"_id": 1, "name": "A"})
    got: list[CollectionChange] = []
    token = observer.objects("Person").observe(got.append)
    result = child(
        "import drumlin\n"
        f"db = drumlin.open(sys.argv[1], {PEOPLE!r}, encryption_key={KEY!r})\n"
        "with db.write():\n"
        "    db.create('Person', {'_id': 2, 'name': 'secret-B'})\n"
        "    db.get('Person', 1).name = 'secret-changed'\n"
        "db.close()\n",
        str(path),
    )
    assert result.returncode == 0, result.stderr
    assert got == []
    assert observer.refresh() is True
    assert got == [CollectionChange(insertions=[1], modifications=[0])]
    assert [p["name"] for p in observer.objects("Person").sort("_id").to_dicts()] == ["secret-changed", "secret-B"]
    assert no_plaintext(tmp_path, b"secret-") == []
    token.cancel()
    observer.close()


def test_a_migration_of_an_encrypted_file(tmp_path: Path) -> None:
    path = tmp_path / "people.drumlin"
    with drumlin.open(path, PEOPLE, encryption_key=KEY) as db:
        with db.write():
            for i in range(1, 4):
                db.create("Person", {"_id": i, "name": f"name-{i}"})
    v2 = [{"name": "Person", "primaryKey": "_id", "properties": {"_id": "int", "name": "string", "shout": "string"}}]

    def migrate(m: drumlin.Migration) -> None:
        def person(old: object, new: object) -> None:
            new.shout = old.name.upper() + "-private"  # type: ignore[attr-defined]

        m.enumerate_objects("Person", person)

    with drumlin.open(path, v2, schema_version=2, migration=migrate, encryption_key=KEY) as db:
        assert db.schema_version == 2
        assert [p["shout"] for p in db.objects("Person").sort("_id").to_dicts()] == [
            "NAME-1-private", "NAME-2-private", "NAME-3-private"]
    assert no_plaintext(tmp_path, b"-private", b"shout") == []
    with drumlin.open(path, v2, schema_version=2, encryption_key=KEY) as db:
        assert db.check() == []
        assert db.objects("Person").count() == 3


def test_export_import_check_and_compact_with_a_key_file(tmp_path: Path) -> None:
    path = tmp_path / "people.drumlin"
    with drumlin.open(path, PEOPLE, encryption_key=KEY) as db:
        with db.write():
            for i in range(1, 201):
                db.create("Person", {"_id": i, "name": f"person-{i}-private"})
        with db.write():
            for i in range(1, 151):
                db.delete(db.get("Person", i))
    key_file = tmp_path / "people.key"
    key_file.write_bytes(KEY)
    out = tmp_path / "people.ndjson"

    exported = run("export", path, "--key-file", key_file, "-o", out, "-q")
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["name"] for line in lines] == [f"person-{i}-private" for i in range(151, 201)]

    copy = tmp_path / "copy" / "people.drumlin"
    copy.parent.mkdir()
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(PEOPLE))
    imported = run("import", copy, out, "--schema", schema, "--key-file", key_file, "-q")
    assert imported.returncode == 0, imported.stderr
    assert copy.read_bytes()[:16] == b"DrumlinEncrypted"
    assert no_plaintext(copy.parent, b"-private") == []
    with drumlin.open(copy, encryption_key=KEY) as db:
        assert db.objects("Person").count() == 50

    checked = run("check", path, "--key-file", key_file)
    assert (checked.returncode, checked.stdout) == (0, f"{path}: ok\n")
    before = path.stat().st_size + (Path(str(path) + "-wal").stat().st_size if Path(str(path) + "-wal").exists() else 0)
    compacted = run("compact", path, "--key-file", key_file)
    assert compacted.returncode == 0, compacted.stderr
    assert path.stat().st_size < before
    assert path.read_bytes()[:16] == b"DrumlinEncrypted"
    with drumlin.open(path, encryption_key=KEY) as db:
        assert db.objects("Person").count() == 50
        assert db.check() == []
    unkeyed = run("check", path)
    assert unkeyed.returncode == 1
    assert "is encrypted; open it with its encryption key" in unkeyed.stderr


# Each writer commits N transactions of one object each, with the key, and prints N.
WRITER = r"""
import sys
sys.path.insert(0, sys.argv[1])
import drumlin
db = drumlin.open(sys.argv[2], %r, busy_timeout=60, encryption_key=bytes.fromhex(sys.argv[4]))
who = int(sys.argv[3])
for n in range(100):
    with db.write():
        db.create("Person", {"_id": who * 1000 + n, "name": f"writer-{who}-{n}"})
db.close()
print(100)
""" % (PEOPLE,)


def test_processes_writing_one_encrypted_file_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "shared.drumlin"
    drumlin.open(path, PEOPLE, encryption_key=KEY).close()
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, PACKAGE, str(path), str(who), KEY.hex()],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
        for who in range(1, 5)
    ]
    for writer in writers:
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err
        assert out == "100\n"
    with drumlin.open(path, PEOPLE, encryption_key=KEY) as db:
        assert db.objects("Person").count() == 400
        assert {p["_id"] for p in db.objects("Person").to_dicts()} == {w * 1000 + n for w in range(1, 5) for n in range(100)}
        assert db.check() == []


def test_processes_adding_a_class_to_encrypted_files_at_once_all_succeed(tmp_path: Path) -> None:
    paths = []
    for i in range(OPENS):
        path = str(tmp_path / f"grow{i}.drumlin")
        drumlin.open(path, BASE, encryption_key=KEY).close()
        paths.append(path)
    failures = run_racing_children(tmp_path, paths, [BASE + [EXTRA]], KEY)
    assert failures == []
    for path in paths:
        with drumlin.open(path, encryption_key=KEY) as db:
            assert db.objects("Item").count() == PROCESSES
            assert [entry["name"] for entry in db.schema] == ["Item", "Extra"]
            assert db.check() == []
