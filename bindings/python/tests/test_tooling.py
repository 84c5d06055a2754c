"""Opening a file without its schema, JSON out for programs, export and import as Extended JSON
lines, check, compact, the busy timeout, the `drumlin` logger and sort("age DESC")."""

from __future__ import annotations

import decimal
import json
import logging
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import PERSON, OpenDb

import drumlin

# Every kind of value and relationship; Note has no primary key; Ann and Bob link to each other.
SCHEMA = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "born": "date?",
            "best": "Person",
            "dogs": "Dog[]",
            "notes": "Note<>",
            "byName": "Dog{}",
            "address": "Address",
            "extra": "mixed",
            "blob": "data?",
        },
    },
    {
        "name": "Dog",
        "primaryKey": "uid",
        "properties": {
            "uid": "uuid",
            "name": "string",
            "weight": "decimal128?",
            "oid": "objectId?",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
        },
    },
    {"name": "Note", "properties": {"text": "string", "about": "Person"}},
    {"name": "Address", "embedded": True, "properties": {"street": "string", "note": "Note"}},
]

REX = uuid.UUID("8f6c6f0e-5a1b-4b5e-9c1e-2f1d6b2a9a10")


def fill(db: drumlin.Database) -> None:
    with db.write():
        gone = db.create("Note", {"text": "gone"})
        ann = db.create(
            "Person",
            {
                "id": 1,
                "name": "Ann",
                "born": datetime(1990, 1, 2, 3, 4, 5, 123456, tzinfo=timezone.utc),
                "dogs": [
                    {"uid": REX, "name": "Rex", "weight": decimal.Decimal("12.5"), "oid": drumlin.ObjectId()}
                ],
                "address": {"street": "Main", "note": {"text": "embedded"}},
                "extra": {"k": [1, 2.5, None, "x"]},
                "blob": b"\x00\x01",
            },
        )
        bob = db.create("Person", {"id": 2, "name": "Bob", "best": ann, "byName": {"rex": REX, "none": None}})
        ann.best = bob
        ann.notes.add(db.create("Note", {"text": "hi", "about": bob}))
        db.delete(gone)  # a gap in Note's object keys


def snapshot(db: drumlin.Database) -> list[object]:
    """Every object, links expanded, with Note links compared by text (object keys are the file's)."""
    people = []
    for obj in db.objects("Person"):
        person = obj.to_dict(json=True)
        person["notes"] = sorted(note.text for note in obj.notes)
        if obj.address is not None:
            person["address"]["note"] = obj.address.note.text
        people.append(person)
    notes = [(n.text, None if n.about is None else n.about.id) for n in db.objects("Note")]
    return [people, db.objects("Dog").to_dicts(json=True), notes]


def test_open_without_a_schema_uses_the_stored_one(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(SCHEMA, name="a.drumlin")
    fill(db)
    stored = db.schema
    db.close()
    with drumlin.open(tmp_path / "a.drumlin") as reopened:
        assert reopened.schema == stored
        assert reopened.count("Person") == 2
        with reopened.write():
            reopened.create("Note", {"text": "new"})
    with drumlin.open(tmp_path / "a.drumlin", read_only=True) as read_only:
        assert read_only.count("Note") == 3
        with pytest.raises(drumlin.ReadOnlyError), read_only.write():
            pass
    wider = json.loads(json.dumps(SCHEMA))
    wider[2]["properties"]["tag"] = "string?"
    with drumlin.open(tmp_path / "a.drumlin", wider) as later:  # a schema given later: additive change
        assert "tag" in later.schema[2]["properties"]


def test_open_without_a_schema_needs_an_existing_drumlin_file(tmp_path: Path) -> None:
    with pytest.raises(drumlin.FileError, match="does not exist"):
        drumlin.open(tmp_path / "missing.drumlin")
    assert not (tmp_path / "missing.drumlin").exists()
    (tmp_path / "text.drumlin").write_text("hello, this is not a database")
    with pytest.raises(drumlin.CorruptError):
        drumlin.open(tmp_path / "text.drumlin")
    with pytest.raises(drumlin.InvalidArgumentError):
        drumlin.open(":memory:")


def test_json_output_is_accepted_by_json_dumps(open_db: OpenDb) -> None:
    db = open_db(SCHEMA)
    fill(db)
    ann = db.get("Person", 1)
    as_json = ann.to_dict(json=True)
    assert as_json["born"] == {"$date": "1990-01-02T03:04:05.123456Z"}
    assert as_json["blob"] == {"$binary": {"base64": "AAE=", "subType": "00"}}
    assert json.loads(json.dumps(as_json)) == as_json
    assert json.loads(ann.to_json()) == as_json
    dogs = db.objects("Dog").to_dicts(json=True)
    assert dogs[0]["uid"] == {"$uuid": str(REX)} and dogs[0]["weight"] == {"$numberDecimal": "12.5"}
    assert json.loads(db.objects("Dog").to_json()) == dogs
    with pytest.raises(TypeError):
        json.dumps(ann.to_dict())  # the plain form keeps Python types


def test_export_then_import_into_a_fresh_file_gives_identical_objects(
    open_db: OpenDb, tmp_path: Path
) -> None:
    source = open_db(SCHEMA, name="source.drumlin")
    fill(source)
    reports: list[tuple[int, int]] = []
    assert (
        source.export_ndjson(
            tmp_path / "all.ndjson", progress=lambda done, total: reports.append((done, total))
        )
        == 5
    )
    assert reports[-1] == (5, 5)
    lines = (tmp_path / "all.ndjson").read_text().splitlines()
    types = [json.loads(line)["$type"] for line in lines]
    assert sorted(types) == ["Dog", "Note", "Note", "Person", "Person"]
    assert types.index("Dog") < types.index("Person")  # link targets first, where there is no cycle
    target = open_db(SCHEMA, name="target.drumlin")
    assert target.import_ndjson(tmp_path / "all.ndjson") == 5
    assert snapshot(target) == snapshot(source)
    assert target.check() == []


def test_a_malformed_line_imports_nothing_and_names_the_line(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(PERSON)
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"_id": 1, "name": "Ann"}\n\n{"_id": 2, "name": "Bob"\n')
    with pytest.raises(drumlin.InvalidArgumentError, match=r"^Line 3: Invalid JSON"):
        db.import_ndjson(bad, "Person")
    assert db.count("Person") == 0
    bad.write_text('{"_id": 1, "name": "Ann"}\n{"_id": 2, "name": "Bob", "age": "old"}\n')
    with pytest.raises(drumlin.TypeMismatchError, match=r"^Line 2: Type mismatch for property 'Person.age'"):
        db.import_ndjson(bad, "Person")
    assert db.count("Person") == 0


def test_import_in_batches_keeps_the_batches_before_a_bad_line(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(PERSON)
    lines = tmp_path / "in.ndjson"
    lines.write_text("".join(f'{{"_id": {i}, "name": "P{i}"}}\n' for i in range(1, 6)) + '{"_id": 6}\n')
    with pytest.raises(
        drumlin.MissingValueError, match="Line 6:.*5 objects from earlier batches stay imported"
    ):
        db.import_ndjson(lines, "Person", batch=5)
    assert db.count("Person") == 5


def test_import_inside_write_is_one_step_of_the_transaction(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(PERSON)
    lines = tmp_path / "in.ndjson"
    lines.write_text('{"_id": 1, "name": "Ann"}\n')
    with pytest.raises(RuntimeError), db.write():
        db.import_ndjson(lines, "Person")
        assert db.count("Person") == 1
        raise RuntimeError("roll back")
    assert db.count("Person") == 0
    with db.write(), pytest.raises(drumlin.TransactionError):
        db.import_ndjson(lines, "Person", batch=1)


def test_a_progress_function_can_cancel_and_its_exception_propagates(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(PERSON)
    with db.write():
        db.create_many("Person", [{"_id": i, "name": "x"} for i in range(3)])
    out = tmp_path / "out.ndjson"
    with pytest.raises(drumlin.CallbackError):
        db.export_ndjson(out, "Person", progress=lambda done, total: False)
    assert not out.exists()

    def fail(done: int, total: int) -> None:
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        db.export_ndjson(out, "Person", progress=fail)
    db.export_ndjson(out, "Person")
    target = drumlin.open(out.with_suffix(".drumlin"), PERSON)
    with pytest.raises(KeyError):
        target.import_ndjson(out, "Person", progress=fail)
    assert target.count("Person") == 0
    target.close()


def test_check_reports_dangling_links_and_compact_keeps_objects(open_db: OpenDb, tmp_path: Path) -> None:
    db = open_db(SCHEMA, name="c.drumlin")
    fill(db)
    assert db.check() == []
    db.compact()
    assert db.count("Person") == 2
    db.close()
    import subprocess
    import sys

    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('UPDATE Person SET best = 99 WHERE id = 2'); c.commit()",
            str(tmp_path / "c.drumlin"),
        ],
        check=True,
    )
    with drumlin.open(tmp_path / "c.drumlin") as reopened:
        assert reopened.check() == ["1 link of 'Person.best' point at no live 'Person' object."]


def test_busy_timeout_and_its_message(open_db: OpenDb) -> None:
    first = open_db(PERSON, name="busy.drumlin")
    second = open_db(PERSON, name="busy.drumlin", busy_timeout=0.05)
    with first.write(), pytest.raises(
        drumlin.BusyError,
        match=r"another connection held the write lock for the whole busy timeout \(50 ms\)",
    ), second.write():
        pass
    with pytest.raises(drumlin.InvalidArgumentError):
        open_db(PERSON, name="other.drumlin", busy_timeout=-1)
    with pytest.raises(drumlin.TypeMismatchError):
        open_db(PERSON, name="other.drumlin", busy_timeout="5")


def test_the_drumlin_logger_hears_opens_slow_queries_and_errors(
    open_db: OpenDb, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="drumlin"):
        db = open_db(PERSON, name="log.drumlin", slow_query_threshold=0)
        len(db.query("Person", "age > 3"))
        with pytest.raises(drumlin.QueryError):
            len(db.query("Person", "age >"))
    records = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    assert any(level == logging.INFO and message.startswith("Opened ") for _, level, message in records)
    assert any(
        level == logging.WARNING and message.endswith("on 'Person': age > 3") for _, level, message in records
    )
    assert any(level == logging.ERROR for _, level, _ in records)
    assert {name for name, _, _ in records} == {"drumlin"}


def test_sort_takes_text_as_in_c_and_swift(db: drumlin.Database) -> None:
    with db.write():
        db.create_many(
            "Person",
            [
                {"_id": 1, "name": "b", "age": 3},
                {"_id": 2, "name": "a", "age": 3},
                {"_id": 3, "name": "c", "age": 9},
            ],
        )
    people = db.objects("Person")
    assert [p._id for p in people.sort("age DESC, name")] == [3, 2, 1]
    assert [p._id for p in people.sort("age desc, name DESC")] == [3, 1, 2]
    for bad in ("age DOWN", "age DESC name", "age,,name"):
        with pytest.raises(drumlin.InvalidArgumentError):
            people.sort(bad)
    with pytest.raises(drumlin.InvalidArgumentError, match="leave out ascending=False"):
        people.sort("age DESC", ascending=False)


def test_synchronous_is_an_open_option(open_db: OpenDb) -> None:
    db = open_db(name="durable.drumlin", synchronous="full")
    with db.write():
        db.create("Person", {"_id": 1, "name": "kept"})
    assert db.get("Person", 1).name == "kept"
    with pytest.raises(drumlin.InvalidArgumentError, match="synchronous must be 'normal' or 'full', not 'FULL!'"):
        open_db(name="other.drumlin", synchronous="FULL!")
