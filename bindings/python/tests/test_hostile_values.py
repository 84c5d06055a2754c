"""Stored values a property's type cannot hold (issue #45, item 6): written behind Drumlin's back
with Python's sqlite3, each read is CORRUPT naming the class, property and object, and check()
lists every one of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "T", "primaryKey": "id", "properties": {"id": "int"}},
    {
        "name": "C",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "s": "string",
            "n": "int",
            "link": "T",
            "m": "mixed",
            "oid": "objectId?",
            "tags": "string[]",
        },
    },
]


def run_sql(path: Path, script: str) -> None:
    code = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()\n"
    subprocess.run([sys.executable, "-c", code, str(path), script], check=True, capture_output=True)


def planted(tmp_path: Path, script: str) -> Path:
    path = tmp_path / "values.drumlin"
    with drumlin.open(path, SCHEMA) as db:
        with db.write():
            t = db.create("T", {"id": 7})
            for key in (1, 2):
                db.create("C", {"id": key, "s": "fine", "n": 5, "link": t, "m": 1.5, "tags": ["x"]})
    run_sql(path, script)
    return path


@pytest.mark.parametrize(
    ("script", "match"),
    [
        ('UPDATE "C" SET "s" = x\'3132\' WHERE id = 1', r"'C.s' of the 'C' object 1 holds a blob, which a required string property cannot hold"),
        ('UPDATE "C" SET "s" = NULL WHERE id = 1', r"'C.s' of the 'C' object 1 holds null, which a required string property"),
        ('UPDATE "C" SET "s" = CAST(x\'fffe\' AS TEXT) WHERE id = 1', r"'C.s' of the 'C' object 1 holds text that is not valid UTF-8"),
        ('UPDATE "C" SET "n" = \'abc\' WHERE id = 1', r"'C.n' of the 'C' object 1 holds text, which a required int property"),
        ('UPDATE "C" SET "link" = \'abc\' WHERE id = 1', r"'C.link' of the 'C' object 1 holds text, which a link property cannot hold"),
        ('UPDATE "C" SET "_drumlin_type_m" = 999 WHERE id = 1', r"'C.m' of the 'C' object 1 holds the type tag 999 \(no type has it\), which a mixed value cannot hold"),
        ('UPDATE "C" SET "oid" = x\'0102\' WHERE id = 1', r"'C.oid' of the 'C' object 1 holds a blob of 2 bytes"),
    ],
)
def test_a_value_the_type_cannot_hold_is_corrupt_on_every_read(tmp_path: Path, script: str, match: str) -> None:
    path = planted(tmp_path, script)
    with drumlin.open(path, SCHEMA) as db:
        with pytest.raises(drumlin.CorruptError, match=match):
            db.get_dict("C", 1)
        with pytest.raises(drumlin.CorruptError, match=match):
            db.query("C", "id == 1").to_dicts()
        with pytest.raises(drumlin.CorruptError, match=match):
            db.export_ndjson(tmp_path / "out.ndjson", "C")
        # The other object reads as stored.
        assert db.get_dict("C", 2)["s"] == "fine"  # type: ignore[index]
        problems = db.check()
    assert any("'C." in p and "of 1 'C' object holds values the property's type cannot hold: 1 (" in p for p in problems), problems


def test_an_element_the_type_cannot_hold_is_corrupt(tmp_path: Path) -> None:
    path = planted(tmp_path, "UPDATE \"_drumlin_list_1_C_tags\" SET value = x'2a' WHERE owner = 1")
    with drumlin.open(path, SCHEMA) as db:
        with pytest.raises(drumlin.CorruptError, match=r"an element of 'C.tags' of the 'C' object 1 holds a blob"):
            list(db.get("C", 1).tags)
        assert "Elements of 'C.tags' of 1 'C' object hold values the property's type cannot hold: 1 (a blob)." in db.check()


def test_check_lists_every_bad_value(tmp_path: Path) -> None:
    path = planted(
        tmp_path,
        """
        UPDATE "C" SET "s" = x'3132';
        UPDATE "C" SET "link" = 'abc' WHERE id = 2;
        UPDATE "C" SET "_drumlin_type_m" = 999 WHERE id = 1;
        """,
    )
    with drumlin.open(path, SCHEMA) as db:
        problems = db.check()
    assert "'C.s' of 2 'C' objects hold values the property's type cannot hold: 1 (a blob), 2 (a blob)." in problems
    assert "'C.link' of 1 'C' object holds values the property's type cannot hold: 2 (text)." in problems
    assert "'C.m' of 1 'C' object holds values the property's type cannot hold: 1 (the type tag 999 (no type has it))." in problems


def test_sound_values_read_and_check_clean(tmp_path: Path) -> None:
    path = planted(tmp_path, "SELECT 1")
    with drumlin.open(path, SCHEMA) as db:
        assert db.get_dict("C", 1)["s"] == "fine"  # type: ignore[index]
        assert db.check() == []
