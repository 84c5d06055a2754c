"""The fault-injecting proxy of proxy.py, driven with the protocol client of syncclient.py: a
connection cut mid-batch or after the batch's commit loses and duplicates nothing once the client
resends on a new connection (rows counted in PostgreSQL); a black-holed connection delivers
nothing and fails nothing; the TLS proxy serves wss with its throwaway CA and only to clients that
trust it."""

from __future__ import annotations

import json
import ssl
from collections.abc import Callable

import pytest
from fixtures import SCHEMA, client_id, oid, readings
from harness import Keys, PostgresCluster, SyncService
from proxy import Proxy
from syncclient import Closed, SyncClient
from websockets.exceptions import ConnectionClosed


def rows(cluster: PostgresCluster, database: str) -> list[str]:
    return [r[0] for r in cluster.psql('SELECT encode("_id", \'hex\') FROM "Reading" ORDER BY 1', database)]


def upload_frame(seq: int, objects: list[dict[str, object]]) -> bytes:
    return json.dumps({"type": "upload", "seq": seq, "inserts": [{"class": "Reading", "objects": objects}]}).encode()


def test_the_proxy_forwards_both_ways_and_counts(cluster: PostgresCluster, database: str, keys: Keys,
                                                  services: Callable[..., list[SyncService]],
                                                  proxies: Callable[..., Proxy]) -> None:
    (service,) = services(1)
    proxy = proxies(service)
    with SyncClient(proxy.url()) as client:
        assert client.hello(keys.token(), client_id(), SCHEMA)["lastSeq"] == 0
        up_before = proxy.bytes_up
        assert client.upload(1, {"Reading": readings(0, 50)}) == {"type": "ack", "seq": 1, "inserted": 50, "existing": []}
        # The upload frame, masked and framed, went up whole: its JSON and a header of 8..14 bytes.
        assert 8 <= proxy.bytes_up - up_before - len(upload_frame(1, readings(0, 50))) <= 14
    assert proxy.connections == 1
    assert proxy.bytes_down > 0
    assert rows(cluster, database) == [oid(n) for n in range(50)]


def test_a_cut_mid_batch_then_a_resend_inserts_the_batch_once(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        proxies: Callable[..., Proxy]) -> None:
    (service,) = services(1)
    proxy = proxies(service)
    me = client_id()
    batch = readings(0, 300)
    half = len(upload_frame(1, batch)) // 2
    client = SyncClient(proxy.url())
    assert client.hello(keys.token(), me, SCHEMA)["lastSeq"] == 0
    proxy.cut_after_up(half)
    with pytest.raises((Closed, ConnectionClosed, OSError)):
        client.upload(1, {"Reading": batch})
    client.close()
    assert proxy.bytes_up >= half
    with SyncClient(proxy.url()) as again:
        assert again.hello(keys.token(), me, SCHEMA)["lastSeq"] == 0   # half a frame integrated nothing
        assert again.upload(1, {"Reading": batch}) == {"type": "ack", "seq": 1, "inserted": 300, "existing": []}
    assert proxy.connections == 2
    assert rows(cluster, database) == [oid(n) for n in range(300)]
    assert cluster.psql(f"SELECT last_seq, objects_inserted FROM drumlin_sync.clients WHERE client_id = '{me}'",
                        database) == [["1", "300"]]


def test_a_cut_that_loses_the_ack_then_a_resend_is_acknowledged_duplicate(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        proxies: Callable[..., Proxy]) -> None:
    (service,) = services(1)
    proxy = proxies(service)
    me = client_id()
    batch = readings(0, 120)
    client = SyncClient(proxy.url())
    assert client.hello(keys.token(), me, SCHEMA)["lastSeq"] == 0
    proxy.cut_on_down()
    with pytest.raises((Closed, ConnectionClosed, OSError)):
        client.upload(1, {"Reading": batch})
    client.close()
    with SyncClient(proxy.url()) as again:
        assert again.hello(keys.token(), me, SCHEMA)["lastSeq"] == 1   # committed before the ack was lost
        assert again.upload(1, {"Reading": batch}) == {"type": "ack", "seq": 1, "duplicate": True}
        assert again.upload(2, {"Reading": readings(120, 1)})["inserted"] == 1
    assert rows(cluster, database) == [oid(n) for n in range(121)]
    assert cluster.psql(f"SELECT last_seq, objects_inserted FROM drumlin_sync.clients WHERE client_id = '{me}'",
                        database) == [["2", "121"]]


def test_a_black_hole_delivers_nothing_and_closes_nothing_until_cut(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        proxies: Callable[..., Proxy]) -> None:
    (service,) = services(1)
    proxy = proxies(service)
    me = client_id()
    client = SyncClient(proxy.url())
    assert client.hello(keys.token(), me, SCHEMA)["lastSeq"] == 0
    proxy.black_hole()
    up_before = proxy.bytes_up
    client.send_upload(1, {"Reading": readings(0, 10)})
    with pytest.raises(TimeoutError):
        client.receive(timeout=1)
    assert proxy.bytes_up == up_before
    assert rows(cluster, database) == []
    proxy.cut()
    with pytest.raises((Closed, ConnectionClosed, OSError)):
        client.receive(timeout=30)
    client.close()
    with SyncClient(proxy.url()) as again:
        assert again.hello(keys.token(), me, SCHEMA)["lastSeq"] == 0
        assert again.upload(1, {"Reading": readings(0, 10)})["inserted"] == 10
    assert rows(cluster, database) == [oid(n) for n in range(10)]


def test_the_tls_proxy_serves_wss_to_clients_that_trust_its_ca(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        proxies: Callable[..., Proxy]) -> None:
    (service,) = services(1)
    proxy = proxies(service, tls=True)
    assert proxy.url().startswith("wss://127.0.0.1:")
    with SyncClient(proxy.url(), ssl=proxy.ssl_context()) as client:
        assert client.hello(keys.token(), client_id(), SCHEMA)["lastSeq"] == 0
        assert client.upload(1, {"Reading": readings(0, 5)})["inserted"] == 5
    with SyncClient(proxy.url(host="localhost"), ssl=proxy.ssl_context()) as client:
        assert client.hello(keys.token(), client_id(), SCHEMA)["lastSeq"] == 0
    with pytest.raises(ssl.SSLCertVerificationError) as refused:
        SyncClient(proxy.url(), ssl=ssl.create_default_context())
    assert "unable to get local issuer certificate" in str(refused.value)
    assert rows(cluster, database) == [oid(n) for n in range(5)]
    assert proxy.connections == 2
