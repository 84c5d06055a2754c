"""Writers killed with SIGKILL at random moments (issue #19, item 8): after every kill the file
opens, every transaction a writer reported committed is there (none lost) and no transaction is
there in part (none partial).

Each writer commits transactions of one ``Txn`` object and ``PARTS`` ``Part`` objects naming it,
and prints the transaction's id once ``commit`` has returned. ``make test`` runs 50 kills of two
writers at once; ``make stress`` sets ``DRUMLIN_KILLS`` and ``DRUMLIN_KILL_WRITERS`` higher."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import drumlin

pytestmark = pytest.mark.stress

KILLS = int(os.environ.get("DRUMLIN_KILLS", "50"))
WRITERS = int(os.environ.get("DRUMLIN_KILL_WRITERS", "2"))
PARTS = 5

SCHEMA: list[dict[str, Any]] = [
    {"name": "Txn", "primaryKey": "id", "properties": {"id": "int", "note": "string", "tags": "string[]"}},
    {"name": "Part", "properties": {"txn": "int", "n": "int", "payload": "data"}},
]

# Writes transactions numbered from argv[3] on, forever, printing each id after its commit
# returned; "ready" once the file is open.
WRITER = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
import drumlin
schema = %r
key = bytes.fromhex(sys.argv[4]) if sys.argv[4] else None
db = drumlin.open(sys.argv[2], schema, busy_timeout=60, encryption_key=key)
print("ready", flush=True)
i = int(sys.argv[3])
while True:
    with db.write():
        db.create("Txn", {"id": i, "note": "x" * (i %% 300), "tags": ["a"] * (i %% 5)})
        for n in range(%d):
            db.create("Part", {"txn": i, "n": n, "payload": os.urandom(i %% 2000)})
    print(i, flush=True)
    i += 1
""" % (SCHEMA, PARTS)


def read_lines(process: subprocess.Popen[str], until: float) -> list[str]:
    """The lines the writer printed before `until` (a time.monotonic() moment)."""
    lines: list[str] = []
    assert process.stdout is not None
    fd = process.stdout.fileno()
    buffer = b""
    while True:
        timeout = until - time.monotonic()
        if timeout <= 0:
            break
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buffer += chunk
        *complete, buffer = buffer.split(b"\n")
        lines += [line.decode() for line in complete]
    return lines


def start_writer(path: Path, first_id: int, key: bytes | None) -> subprocess.Popen[str]:
    package = str(Path(drumlin.__file__).resolve().parents[1])
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, package, str(path), str(first_id), key.hex() if key else ""],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_ready(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line == "ready\n", process.stderr.read() if process.stderr else line


def verify(path: Path, committed: set[int], key: bytes | None) -> tuple[int, int]:
    """(lost, partial): reported commits missing from the file; transactions present in part."""
    db = drumlin.open(path, SCHEMA, quick_check=True, encryption_key=key)
    txns = {row["id"] for row in db.query_dicts("Txn", "TRUEPREDICATE")}
    parts: dict[int, set[int]] = {}
    for row in db.query_dicts("Part", "TRUEPREDICATE"):
        parts.setdefault(row["txn"], set()).add(row["n"])
    problems = db.check()
    db.close()
    assert problems == []
    lost = len(committed - txns)
    whole = set(range(PARTS))
    partial = sum(1 for t in txns if parts.get(t) != whole) + sum(1 for t in parts if t not in txns)
    return lost, partial


# Rounds per file: every round checks everything its file holds, so a long run (make stress)
# starts a new file now and then to stay linear in the number of rounds.
ROUNDS_PER_FILE = 25


# The same on an encrypted file (docs/encryption.md): the log's pages are encrypted and
# authenticated, and a frame torn by the kill must read as the log's end, not as damage.
@pytest.mark.parametrize("key", [None, bytes(range(100, 164))], ids=["plain", "encrypted"])
def test_writers_killed_at_random_moments_lose_nothing_and_leave_nothing_partial(tmp_path: Path, key: bytes | None) -> None:
    rng = random.Random(19)
    committed: set[int] = set()
    kills = lost = partial = total = 0
    for round_ in range(KILLS):
        if round_ % ROUNDS_PER_FILE == 0:
            total += len(committed)
            committed = set()
            path = tmp_path / f"killed-{round_ // ROUNDS_PER_FILE}.drumlin"
            drumlin.open(path, SCHEMA, encryption_key=key).close()
        writers = [start_writer(path, (round_ * WRITERS + w) * 1_000_000, key) for w in range(WRITERS)]
        for writer in writers:
            wait_ready(writer)
        # Kill after 0-40 ms of writing: before the first commit, between commits, inside one.
        until = time.monotonic() + rng.uniform(0, 0.04)
        reported: list[list[str]] = [read_lines(writer, until) for writer in writers]
        for writer in writers:
            writer.send_signal(signal.SIGKILL)
        for writer, lines in zip(writers, reported):
            writer.wait()
            assert writer.returncode == -signal.SIGKILL, writer.stderr.read() if writer.stderr else ""
            kills += 1
            # Commits reported after the kill signal was sent still count: the pipe holds them.
            assert writer.stdout is not None
            lines += writer.stdout.read().splitlines()
            committed |= {int(line) for line in lines if line}
            writer.stdout.close()
            if writer.stderr is not None:
                writer.stderr.close()
        round_lost, round_partial = verify(path, committed, key)
        lost += round_lost
        partial += round_partial
    total += len(committed)
    print(f"\n{kills} kills, {total} reported commits, {lost} lost, {partial} partial")
    assert kills >= 50
    assert (lost, partial) == (0, 0)
    assert total > 0
