"""sync.py — Data Ingest through drumlin-sync into PostgreSQL, against COPY (docs/sync.md, "Speed").

    make bench-sync                       (BENCH_SYNC_N=1M by default)
    DRUMLIN_LIBRARY=$PWD/.build/release/libdrumlin.so DRUMLIN_SYNC_BINARY=$PWD/.build/release/drumlin-sync \\
        python3 bench/sync.py --n 50000

A throwaway PostgreSQL 15 cluster and two `drumlin-sync serve` processes (Tests/sync/harness.py's
code, not a copy), then:

1. local: 8 client processes, each inserting N/8 small objects (`Reading`: `_id` objectId, `device`
   string, `value` double, `seq` int, `ok` bool — 5 scalar properties) with `create_many` in
   transactions of 1,000 into a file opened without sync: the local insert rate;
2. sync: the same, into files opened with sync, 4 clients per service; each client then waits
   for its upload. Rows/s is N over the time from the first insert to the last acknowledgement;
   ack latency is per batch, from the moment the batch was fixed in the file to its
   acknowledgement (the engine's debug records "upload N fixed" and "acknowledged through N");
   the local insert rate is measured again, while the session uploads;
3. COPY: the same N rows, as CSV, loaded with `\\copy` from one psql session into a table made
   `LIKE` the service's.

It checks that Postgres holds N distinct ids after the sync phase, prints the table and writes it
to bench/results/sync.md. It never fails because of a number (this is not a test).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.insert(0, str(ROOT / "Tests" / "sync"))

CLIENTS = 8
SERVICES = 2
TRANSACTION = 1000
SCHEMA = [{"name": "Reading", "asymmetric": True, "primaryKey": "_id",
           "properties": {"_id": "objectId", "device": "string", "value": "double", "seq": "int", "ok": "bool"}}]


def oid(n: int) -> str:
    return f"5eed00000000{n:012x}"


def row(n: int) -> tuple[str, str, float, int, bool]:
    return oid(n), f"device-{n % 97}", n * 0.25, n, n % 2 == 0


def client(args: argparse.Namespace) -> None:
    """One client process: inserts its share, with or without sync; prints one JSON line."""
    import drumlin
    from drumlin.values import ObjectId

    fixed: dict[int, float] = {}
    latencies: list[float] = []
    lock = threading.Lock()

    class Timer(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            message = record.getMessage()
            now = time.monotonic()
            with lock:
                if message.startswith("sync: upload ") and " fixed " in message:
                    fixed[int(message.split()[2])] = now
                elif message.startswith("sync: acknowledged through "):
                    through = int(message.split()[3])
                    for seq in [s for s in fixed if s <= through]:
                        latencies.append((now - fixed.pop(seq)) * 1000)

    logger = logging.getLogger("drumlin")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(Timer())
    sync = None
    if args.url:
        sync = drumlin.SyncConfig(url=args.url, token=lambda: args.token)
    started = time.monotonic()
    with drumlin.open(args.file, SCHEMA, sync=sync) as db:
        inserted_at = time.monotonic()
        for start in range(args.first, args.first + args.count, TRANSACTION):
            end = min(start + TRANSACTION, args.first + args.count)
            objects = [{"_id": ObjectId(i), "device": d, "value": v, "seq": s, "ok": ok}
                       for i, d, v, s, ok in map(row, range(start, end))]
            with db.write():
                db.create_many("Reading", objects)
        insert_seconds = time.monotonic() - inserted_at
        if sync is not None:
            db.sync.wait_for_upload(timeout=3600)
    print(json.dumps({"insert_seconds": insert_seconds, "count": args.count, "started": started,
                      "finished": time.monotonic(), "latencies_ms": latencies}))


def run_clients(n: int, folder: Path, urls: list[str] | None, token: str | None) -> list[dict]:
    share = n // CLIENTS
    processes = []
    for number in range(CLIENTS):
        count = share if number < CLIENTS - 1 else n - share * (CLIENTS - 1)
        command = [sys.executable, __file__, "--client", "--file", str(folder / f"client-{number}.drumlin"),
                   "--first", str(number * share), "--count", str(count)]
        if urls:
            command += ["--url", urls[number % len(urls)], "--token", token or ""]
        processes.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
    results = []
    for process in processes:
        out, _ = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a client failed with {process.returncode}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", default=os.environ.get("BENCH_SYNC_N", "1M"))
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "sync.md"))
    parser.add_argument("--client", action="store_true")
    parser.add_argument("--file")
    parser.add_argument("--url")
    parser.add_argument("--token")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--count", type=int, default=0)
    args = parser.parse_args()
    if args.client:
        client(args)
        return
    n = int(str(args.n).replace("k", "000").replace("M", "000000"))
    if n < CLIENTS * TRANSACTION:
        raise SystemExit(f"--n must be at least {CLIENTS * TRANSACTION}")

    from harness import Keys, PostgresCluster, SyncService, run_service_command

    work = Path(tempfile.mkdtemp(prefix="drumlin-bench-sync-"))
    cluster = PostgresCluster()
    services: list[SyncService] = []
    try:
        database = cluster.create_database("bench")
        migrated = run_service_command(["migrate", "--postgres", cluster.url(database)])
        if migrated.returncode != 0:
            raise SystemExit(migrated.stderr)
        keys = Keys(work / "keys")
        services = [SyncService(cluster.url(database), keys, work) for _ in range(SERVICES)]

        (work / "local").mkdir()
        local = run_clients(n, work / "local", None, None)
        (work / "sync").mkdir()
        synced = run_clients(n, work / "sync", [s.url for s in services], keys.token("bench"))
        sync_seconds = max(r["finished"] for r in synced) - min(r["started"] for r in synced)
        stored = cluster.psql('SELECT count(*), count(DISTINCT "_id") FROM "Reading"', database)
        if stored != [[str(n), str(n)]]:
            raise SystemExit(f"Postgres holds {stored} rows and distinct ids, not {n}")
        rss = [peak_rss_mb(s.process.pid) for s in services]

        csv = work / "rows.csv"
        with open(csv, "w") as out:
            for number in range(n):
                i, d, v, s, ok = row(number)
                out.write(f"\\x{i},{d},{v!r},{s},{'t' if ok else 'f'}\n")
        cluster.psql('CREATE TABLE copy_anchor (LIKE "Reading" INCLUDING ALL)', database)
        started = time.monotonic()
        cluster.psql(f"\\copy copy_anchor (\"_id\", device, value, seq, ok) FROM '{csv}' WITH (FORMAT csv)", database)
        copy_seconds = time.monotonic() - started
        copied = cluster.psql("SELECT count(*) FROM copy_anchor", database)
        if copied != [[str(n)]]:
            raise SystemExit(f"COPY loaded {copied}, not {n}")
    finally:
        for service in services:
            service.stop()
        cluster.stop()

    latencies = [ms for r in synced for ms in r["latencies_ms"]]
    local_rate = sum(r["count"] / r["insert_seconds"] for r in local)
    synced_rate = sum(r["count"] / r["insert_seconds"] for r in synced)
    rows_per_second = n / sync_seconds
    copy_rate = n / copy_seconds
    lines = [
        f"# Data Ingest: {n:,} objects, {CLIENTS} client processes, {SERVICES} drumlin-sync instances, PostgreSQL 15",
        "",
        "| measure | value |",
        "|---|---|",
        f"| ingest, first insert to last ack | {sync_seconds:.2f} s, {rows_per_second:,.0f} rows/s |",
        f"| COPY from one psql session (the anchor) | {copy_seconds:.2f} s, {copy_rate:,.0f} rows/s |",
        f"| ingest / COPY (goal >= 0.5) | {rows_per_second / copy_rate:.2f} |",
        f"| ack latency, batch fixed to ack (p50 / p99, {len(latencies)} batches) | {percentile(latencies, 0.5):.1f} ms / {percentile(latencies, 0.99):.1f} ms |",
        f"| service peak RSS | {' / '.join(f'{mb:.0f} MB' for mb in rss)} |",
        f"| local inserts without sync ({CLIENTS} processes together) | {local_rate:,.0f} objects/s |",
        f"| local inserts with sync, while uploading | {synced_rate:,.0f} objects/s |",
        f"| with sync / without (goal >= 0.8) | {synced_rate / local_rate:.2f} |",
        "",
    ]
    report = "\n".join(lines)
    print(report)
    Path(args.out).write_text(report)


if __name__ == "__main__":
    main()
