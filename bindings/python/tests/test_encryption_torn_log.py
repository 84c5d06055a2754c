"""An encrypted file whose process died inside a write larger than the page cache, with a torn
frame in the log's uncommitted tail (issue 50).

Such a transaction spills pages into the write-ahead log before its commit and writes a spilled
page changed again over its own frame, in place, in the middle of the frames it has appended. A
power loss during such a write tears a frame that valid frames of the same log generation follow,
but no commit: nothing committed is damaged, and the log must end there as it would without
encryption. A damaged frame that a valid commit frame follows is damage: CORRUPT
(docs/encryption.md, "The write-ahead log")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import drumlin

# About 170 MB written: the engine's, not the Python version's (the packaging run leaves it out).
pytestmark = pytest.mark.stress

KEY = bytes(range(64))
SCHEMA = [{"name": "Blob", "primaryKey": "id", "properties": {"id": "int", "text": "string"}}]
HEADER, FRAME_HEADER, PAGE = 32, 24, 4096
FRAME = FRAME_HEADER + PAGE
CACHE = 128 * 1024 * 1024  # an encrypted connection's page cache (Connection.swift)
BIG = 160_000  # objects of 1,000 characters in the uncommitted write: about 170 MB

# The dying writer: two small commits into the log, then one write larger than the page cache in
# a scattered key order (a leaf spilled to the log is written again, over its own frame), and the
# process ends before that write commits.
CHILD = """
import os, sys
sys.path.insert(0, sys.argv[1])
import drumlin, json
path, key, schema, big = sys.argv[2], bytes.fromhex(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
db = drumlin.open(path, schema, encryption_key=key)
with db.write():
    db.create_many("Blob", [{"id": i, "text": f"first {i}"} for i in range(10, 15)])
with db.write():
    db.create_many("Blob", [{"id": i, "text": f"second {i}"} for i in range(15, 20)])
with db.write():
    db.create_many("Blob", [{"id": 1000 + (i * 7919) % big, "text": (f"<{i:05}>" * 200)[:1000]} for i in range(big)])
    os._exit(0)
"""


def committed() -> list[dict[str, object]]:
    return (
        [{"id": i, "text": f"before {i}"} for i in range(10)]
        + [{"id": i, "text": f"first {i}"} for i in range(10, 15)]
        + [{"id": i, "text": f"second {i}"} for i in range(15, 20)]
    )


def frames(log: bytes) -> list[tuple[int, int, bytes]]:
    """Each whole frame's offset, commit size field (non-zero: a commit frame) and salts."""
    count = (len(log) - HEADER) // FRAME
    found = []
    for index in range(count):
        at = HEADER + index * FRAME
        found.append((at, int.from_bytes(log[at + 4 : at + 8], "big"), log[at + 8 : at + 16]))
    return found


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """The database file and its log as the dying writer left them."""
    path = tmp_path_factory.mktemp("crashed") / "blobs.drumlin"
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        with db.write():
            db.create_many("Blob", [{"id": i, "text": f"before {i}"} for i in range(10)])
    package = str(Path(drumlin.__file__).resolve().parents[1])
    child = subprocess.run(
        [sys.executable, "-c", CHILD, package, str(path), KEY.hex(), json.dumps(SCHEMA), str(BIG)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert (child.returncode, child.stderr) == (0, "")
    log = Path(f"{path}-wal").read_bytes()
    assert len(log) > 16 * 1024 * 1024  # the uncommitted write spilled what outgrew the cache into the log
    return path.read_bytes(), log


def tail(log: bytes) -> list[tuple[int, int, bytes]]:
    """The frames after the last commit frame of the log's generation: the uncommitted write."""
    listed = frames(log)
    salts = log[16:24]
    commits = [index for index, (_, size, frame_salts) in enumerate(listed) if size and frame_salts == salts]
    assert len(commits) == 2  # the child's two small commits
    return listed[commits[-1] + 1 :]


def place(folder: Path, database: bytes, log: bytes) -> Path:
    path = folder / "blobs.drumlin"
    path.write_bytes(database)
    Path(f"{path}-wal").write_bytes(log)
    return path


def tear(log: bytearray, at: int) -> None:
    """The second half of the frame's page replaced by the bytes the frame before it has there, as
    a write cut short leaves a page half new, half old."""
    half = slice(at + FRAME_HEADER + PAGE // 2, at + FRAME)
    other = slice(half.start - FRAME, half.stop - FRAME)
    assert log[half] != log[other]
    log[half] = log[other]


def test_a_torn_frame_in_the_uncommitted_tail_ends_the_log(tmp_path: Path, crashed: tuple[bytes, bytes]) -> None:
    database, log = crashed
    uncommitted = tail(log)
    assert len(uncommitted) > 1000
    assert all(size == 0 for _, size, _ in uncommitted)
    # Zero salts: SQLite wrote these frames after overwriting a spilled frame in place (iReCksum).
    assert any(salts == bytes(8) for _, _, salts in uncommitted)
    # SQLite's recovery reads the tail up to the first frame written over in place (its checksum
    # no longer matches) or with zero salts, and ends the log there: the first frame of the tail
    # is always read, and valid frames of the same write follow it.
    assert uncommitted[0][2] == uncommitted[1][2] == log[16:24]
    damaged = bytearray(log)
    tear(damaged, uncommitted[0][0])
    path = place(tmp_path, database, bytes(damaged))
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        assert db.objects("Blob").sort("id").to_dicts() == committed()
        assert db.check() == []
        with db.write():
            db.create("Blob", {"id": 20, "text": "after"})
    with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
        assert db.objects("Blob").sort("id").to_dicts() == committed() + [{"id": 20, "text": "after"}]
        assert db.check() == []


def test_a_torn_tail_hides_no_damage_before_a_commit(tmp_path: Path, crashed: tuple[bytes, bytes]) -> None:
    # Frame 1 belongs to the child's first commit (tail() finds two); the second one's commit
    # frame follows it.
    database, log = crashed
    pageno = int.from_bytes(log[HEADER : HEADER + 4], "big")
    damaged = bytearray(log)
    damaged[HEADER + FRAME_HEADER + 1000] ^= 0x20
    tear(damaged, tail(log)[0][0])
    path = place(tmp_path, database, bytes(damaged))
    message = f"Frame 1 of the write-ahead log '{path}-wal' (page {pageno}) failed authentication"
    with pytest.raises(drumlin.CorruptError, match=re.escape(message)):
        with drumlin.open(path, SCHEMA, encryption_key=KEY) as db:
            db.objects("Blob").to_dicts()
    assert path.read_bytes() == database
    assert Path(f"{path}-wal").read_bytes() == bytes(damaged)
