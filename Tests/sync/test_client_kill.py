"""A client process SIGKILLed 20 times while it creates and uploads objects: afterwards every
object committed in the file is in PostgreSQL exactly once (ids compared), and nothing else.

The child (this file run as a program) creates Readings in write transactions of 50 and, in the
same transactions, records each id in a plain class `Made`: the file itself says exactly which
Readings were committed, whatever the moment of the kill."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import drumlin  # noqa: E402
from fixtures import READING, oid  # noqa: E402

MADE = {"name": "Made", "primaryKey": "id", "properties": {"id": "int"}}


def child(path: str, url: str, token: str) -> None:
    from datetime import datetime, timezone

    from drumlin.values import ObjectId
    db = drumlin.open(path, [READING, MADE], sync=drumlin.SyncConfig(url=url, token=lambda: token))
    made = db.objects("Made")
    start = (made.max("id") + 1) if len(made) else 0
    print("started", flush=True)
    while True:
        with db.write():
            for n in range(start, start + 50):
                db.create("Reading", {"_id": ObjectId(oid(n)), "sensor": "k", "celsius": 1.5,
                                      "at": datetime(2026, 12, 7, tzinfo=timezone.utc)})
                db.create("Made", {"id": n})
        start += 50


if __name__ == "__main__":
    child(*sys.argv[1:4])


def test_a_client_killed_20_times_uploads_every_object_exactly_once(cluster, database, keys, services,  # type: ignore[no-untyped-def]
                                                                      tmp_path: Path) -> None:
    (service,) = services(1)
    path = str(tmp_path / "kill.drumlin")
    token = keys.token("ann")
    rng = random.Random(46)
    for _ in range(20):
        process = subprocess.Popen([sys.executable, __file__, path, service.url, token], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=dict(os.environ))
        assert process.stdout is not None
        assert process.stdout.readline() == "started\n", process.stderr.read() if process.stderr else ""
        time.sleep(rng.uniform(0.2, 1.2))
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert process.returncode == -signal.SIGKILL
    # A last, orderly session uploads what is left.
    errors: list[drumlin.SyncErrorInfo] = []
    with drumlin.open(path, [READING, MADE], sync=drumlin.SyncConfig(url=service.url, token=lambda: token,
                                                                     on_error=errors.append)) as db:
        db.sync.wait_for_upload(timeout=120)
        committed = sorted(made["id"] for made in db.objects("Made"))
    assert len(committed) >= 50
    uploaded = [row[0] for row in cluster.psql('SELECT encode("_id", \'hex\') FROM "Reading" ORDER BY 1', database)]
    assert uploaded == [oid(n) for n in committed]
    # Exactly once: no batch's objects met themselves in the table (no 227), and the service
    # counted each object once.
    assert errors == []
    assert cluster.psql("SELECT objects_inserted FROM drumlin_sync.clients", database) == [[str(len(committed))]]


_: Callable[..., None] = child
