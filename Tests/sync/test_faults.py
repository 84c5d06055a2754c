"""Faults: several service instances, instances SIGKILLed while a batch is in flight, under the
protocol-level test client and under real engine clients (the Python package). Afterwards every
object is in PostgreSQL exactly once (its ids compared), no resend was inserted twice (no ack ever
reports `existing`), the clients' sequence records agree with the rows, and the engine clients'
queues are empty."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from fixtures import SCHEMA, client_id, oid, readings
from harness import ROOT, Keys, PostgresCluster, SyncService
from syncclient import Closed, SyncClient
from test_client_python import local_rows
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(ROOT / "bindings" / "python"))

import drumlin  # noqa: E402
from drumlin.values import ObjectId  # noqa: E402


def ids_in_postgres(cluster: PostgresCluster, database: str) -> list[str]:
    return [row[0] for row in cluster.psql('SELECT encode("_id", \'hex\') FROM "Reading" ORDER BY 1', database)]


def test_three_instances_serve_round_robin_clients(cluster: PostgresCluster, database: str, keys: Keys,
                                                   services: Callable[..., list[SyncService]]) -> None:
    instances = services(3)
    errors: list[BaseException] = []

    def client_run(number: int) -> None:
        try:
            me = client_id()
            for seq in range(1, 7):
                # Each batch on a new connection to the next instance, as behind a round-robin balancer.
                with SyncClient(instances[(number + seq) % 3].url) as client:
                    assert client.hello(keys.token(f"user-{number}"), me, SCHEMA)["lastSeq"] == seq - 1
                    start = number * 1000 + (seq - 1) * 50
                    assert client.upload(seq, {"Reading": readings(start, 50)}) == {
                        "type": "ack", "seq": seq, "inserted": 50, "existing": []}
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=client_run, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert errors == []
    expected = sorted(oid(n * 1000 + i) for n in range(3) for i in range(300))
    assert ids_in_postgres(cluster, database) == expected
    assert cluster.psql("SELECT last_seq, objects_inserted FROM drumlin_sync.clients ORDER BY 1", database) == [
        ["6", "300"]] * 3


def test_a_service_killed_inside_the_batch_transaction_commits_nothing_and_the_batch_goes_to_another(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    doomed, survivor = services(2)
    me = client_id()
    batch = readings(0, 200)
    with SyncClient(doomed.url) as client:
        client.hello(keys.token(), me, SCHEMA)
    # Another transaction holds an uncommitted row with the batch's last id: the service's INSERT
    # waits on it, inside the batch's transaction, after the sequence record was locked.
    blocker = cluster.session(database)
    blocker.run(f"BEGIN; INSERT INTO \"Reading\" (_id, sensor, celsius, at) VALUES ('\\x{oid(199)}', 'b', 0, now());")
    try:
        client = SyncClient(doomed.url)
        client.hello(keys.token(), me, SCHEMA)
        client.send_upload(1, {"Reading": batch})
        deadline = time.monotonic() + 30
        while not cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'", database) != [["0"]]:
            assert time.monotonic() < deadline, "the batch's INSERT never waited on the blocking row"
            time.sleep(0.05)
        doomed.kill()
    finally:
        blocker.run("ROLLBACK;")
        blocker.close()
    try:
        client.receive(timeout=5)
        raise AssertionError("the killed service answered")
    except (Closed, ConnectionClosed, TimeoutError):
        pass
    deadline = time.monotonic() + 30
    while cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction' "
                       "OR wait_event_type = 'Lock'", database) != [["0"]]:
        assert time.monotonic() < deadline, "the killed service's transaction never ended"
        time.sleep(0.05)
    assert ids_in_postgres(cluster, database) == []
    with SyncClient(survivor.url) as client:
        assert client.hello(keys.token(), me, SCHEMA)["lastSeq"] == 0
        assert client.upload(1, {"Reading": batch}) == {"type": "ack", "seq": 1, "inserted": 200, "existing": []}
    assert ids_in_postgres(cluster, database) == sorted(oid(n) for n in range(200))


def test_services_killed_during_uploads_lose_and_duplicate_nothing(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    instances = services(2)
    rng = random.Random(46)
    me = client_id()
    batch_size, batches, kills = 200, 20, 0
    killed: set[int] = set()
    acked_seq = 0
    seq = 1
    while seq <= batches:
        live = [s for s in instances if s.running()]
        service = rng.choice(live)
        batch = readings((seq - 1) * batch_size, batch_size)
        try:
            with SyncClient(service.url) as client:
                last = client.hello(keys.token(), me, SCHEMA)["lastSeq"]
                assert last in (acked_seq, seq), f"lastSeq {last} after ack {acked_seq}, sending {seq}"
                if last == seq:                 # integrated before its ack was lost: go on
                    acked_seq = seq
                    seq += 1
                    continue
                client.send_upload(seq, {"Reading": batch})
                if seq not in killed:           # kill the instance while the batch is in flight
                    killed.add(seq)
                    time.sleep(rng.uniform(0, 0.03))
                    service.kill()
                    kills += 1
                    instances[instances.index(service)] = services(1)[0]
                    continue                    # reconnect (elsewhere) and resend or move on
                ack = client.receive()
                assert ack == {"type": "ack", "seq": seq, "inserted": batch_size, "existing": []}
                acked_seq = seq
                seq += 1
        except (Closed, ConnectionClosed, OSError):
            continue
    assert kills == batches
    assert ids_in_postgres(cluster, database) == sorted(oid(n) for n in range(batch_size * batches))
    assert cluster.psql("SELECT last_seq, objects_inserted FROM drumlin_sync.clients", database) == [
        [str(batches), str(batch_size * batches)]]


def test_services_killed_20_times_under_engine_clients_lose_and_duplicate_nothing(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        tmp_path: Path) -> None:
    # Real engine clients (the Python package over libdrumlin.so), two per service, keep creating
    # Readings while the two services are SIGKILLed in turn, 20 times, each restarted on its port
    # after its kill (the clients reconnect to it with backoff, from 1 s again after each welcome).
    instances = services(2)
    restarted: list[SyncService] = []
    rng = random.Random(4620)
    per_client, clients = 1_000_000, 4
    stop = threading.Event()
    connected = [threading.Event() for _ in range(clients)]
    created = [0] * clients
    errors: list[BaseException] = []
    reports: list[drumlin.SyncErrorInfo] = []

    def client_run(number: int) -> None:
        def progress(value: drumlin.SyncProgress) -> None:
            if value.state == "connected":
                connected[number].set()
            else:
                connected[number].clear()

        try:
            config = drumlin.SyncConfig(url=instances[number % 2].url, token=lambda: keys.token(f"killed-{number}"),
                                        on_error=reports.append, on_progress=progress)
            with drumlin.open(str(tmp_path / f"client-{number}.drumlin"), SCHEMA, sync=config) as db:
                while not stop.is_set():
                    start = number * per_client + created[number]
                    with db.write():
                        for n in range(start, start + 10):
                            db.create("Reading", {"_id": ObjectId(oid(n)), "sensor": f"k{number}", "celsius": 1.5,
                                                 "at": datetime(2026, 12, 7, 13, tzinfo=timezone.utc)})
                    created[number] += 10
                    time.sleep(0.05)
                db.sync.wait_for_upload(timeout=60)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=client_run, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    try:
        for kill in range(20):
            victim = kill % 2
            # Kill while its clients are connected and uploading.
            for number in range(victim, clients, 2):
                assert connected[number].wait(timeout=30), f"client {number} did not reconnect after kill {kill}"
            time.sleep(rng.uniform(0.05, 0.3))
            port = instances[victim].port
            instances[victim].kill()
            instances[victim] = SyncService(cluster.url(database), keys, tmp_path, port=port)
            restarted.append(instances[victim])
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
    finally:
        stop.set()
        for service in restarted:
            service.stop()
    assert errors == []
    # Exactly once: every id created is in Postgres once, and no resent batch met its own rows
    # (227 object_already_exists would say so).
    assert [r for r in reports if r.code == 227] == []
    expected = sorted(oid(number * per_client + i) for number in range(clients) for i in range(created[number]))
    assert sum(created) > 20 * 10
    assert ids_in_postgres(cluster, database) == expected
    assert cluster.psql('SELECT count(*) = count(DISTINCT "_id") FROM "Reading"', database) == [["t"]]
    assert cluster.psql("SELECT user_id, objects_inserted FROM drumlin_sync.clients ORDER BY 1", database) == [
        [f"killed-{number}", str(created[number])] for number in range(clients)]
    # Nothing left in the clients' queues.
    for number in range(clients):
        assert local_rows(tmp_path / f"client-{number}.drumlin") == (0, 0)
