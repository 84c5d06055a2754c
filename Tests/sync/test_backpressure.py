"""Back-pressure (docs/sync.md, "Offline"): a file that queued many objects while offline uploads
them in bounded memory on both sides. A client process fills a file without sync, then another
process opens it with sync and waits for the upload; each of them and the service that received
the objects report their peak resident memory (VmHWM). The peaks for a queue of 120 MB are compared
with those for a queue of 20 MB, which already fills whole batches (16 MiB frames): holding the
queue (or a growing part of it) in memory would add at least the 100 MB between them. Against a
queue smaller than one batch the service grew by 54 MB in CI, which is one full batch's working
set (its frame, its decoded rows, the query parameter), not the queue: measured on the debug
service, 500 objects peaked at 62 MB, 5,000 at 103 MB and 30,000 at 116 MB."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from harness import Keys, PostgresCluster, SyncService

ROOT = Path(__file__).resolve().parents[2]
NOTE_BYTES = 4000
SMALL, LARGE = 5_000, 30_000
# Bounded: the large queue may cost the page cache and allocator slack, never the queue itself
# (measured: client +18 MB, service +13 MB).
GROWTH_LIMIT = 32 * 1024 * 1024

CLIENT = r"""
import sys
sys.path.insert(0, sys.argv[1])
import drumlin
from drumlin.values import ObjectId

mode, path, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
first = count * 10  # each file's ids its own: 50,000.. and 300,000..
schema = [{"name": "Reading", "asymmetric": True, "primaryKey": "_id",
           "properties": {"_id": "objectId", "sensor": "string", "celsius": "double", "note": "string?"}}]
if mode == "fill":
    db = drumlin.open(path, schema)
    note = "n" * NOTE_BYTES
    for start in range(0, count, 10_000):
        with db.write():
            db.create_many("Reading", [{"_id": ObjectId(f"65f1c0ffee{first + n:014x}"), "sensor": "bp",
                                        "celsius": n / 100, "note": note}
                                       for n in range(start, min(count, start + 10_000))])
    db.close()
else:
    url, token = sys.argv[5], sys.argv[6]
    db = drumlin.open(path, schema, sync=drumlin.SyncConfig(url=url, token=lambda: token))
    db.sync.wait_for_upload(timeout=600)
    db.close()
    print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")))
""".replace("NOTE_BYTES", str(NOTE_BYTES))


def peak_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def upload(count: int, cluster: PostgresCluster, database: str, keys: Keys,
           services: Callable[..., list[SyncService]], tmp_path: Path) -> tuple[int, int]:
    """Fills a file with `count` queued objects, uploads it; (client peak, service peak) in bytes."""
    path = tmp_path / f"queue-{count}.drumlin"
    python = [sys.executable, "-c", CLIENT, str(ROOT / "bindings" / "python")]
    env = dict(os.environ)
    subprocess.run([*python, "fill", str(path), str(count)], check=True, env=env, timeout=600)
    (service,) = services(1)
    uploaded = subprocess.run([*python, "upload", str(path), str(count), service.url, keys.token(f"bp-{count}")],
                              check=True, env=env, capture_output=True, text=True, timeout=900)
    service_peak = peak_kib(service.process.pid)
    service.stop()
    return int(uploaded.stdout.strip()) * 1024, service_peak * 1024


def test_a_large_offline_queue_uploads_in_bounded_memory_on_both_sides(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        tmp_path: Path) -> None:
    small_client, small_service = upload(SMALL, cluster, database, keys, services, tmp_path)
    large_client, large_service = upload(LARGE, cluster, database, keys, services, tmp_path)

    # Every object of both files arrived once, whole.
    rows = cluster.psql('SELECT count(*), count(DISTINCT "_id"), sum(length(note)) FROM "Reading"', database)
    assert rows == [[str(SMALL + LARGE), str(SMALL + LARGE), str((SMALL + LARGE) * NOTE_BYTES)]]

    queued_bytes = (LARGE - SMALL) * NOTE_BYTES
    assert queued_bytes > 2 * GROWTH_LIMIT
    assert large_client - small_client < GROWTH_LIMIT, (small_client, large_client)
    assert large_service - small_service < GROWTH_LIMIT, (small_service, large_service)
