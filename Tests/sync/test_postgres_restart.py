"""PostgreSQL stopped and started again under running services: /health says so, a batch sent
meanwhile is refused as a transient error with nothing written, and the same service carries on
once PostgreSQL is back (its own cluster: the suite's shared one stays up)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures import SCHEMA, client_id, oid, readings
from harness import Keys, PostgresCluster, SyncService, run_service_command
from syncclient import Closed, SyncClient


@pytest.fixture
def own_cluster() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


def test_a_restarted_postgres_is_reported_then_served_again(own_cluster: PostgresCluster, keys: Keys,
                                                            tmp_path: Path) -> None:
    database = own_cluster.create_database("restart")
    assert run_service_command(["migrate", "--postgres", own_cluster.url(database)]).returncode == 0
    service = SyncService(own_cluster.url(database), keys, tmp_path)
    try:
        me = client_id()
        with SyncClient(service.url) as client:
            client.hello(keys.token(), me, SCHEMA)
            assert client.upload(1, {"Reading": readings(0, 5)})["inserted"] == 5
            own_cluster.halt()
            status, text = service.http("/health")
            assert status == 503 and text.startswith("postgres: "), text
            with pytest.raises(Closed) as closed:
                client.upload(2, {"Reading": readings(5, 5)})
        assert closed.value.error is not None
        assert (closed.value.error["name"], closed.value.error["action"], closed.value.error["tryAgain"]) == (
            "other_session_error", "Transient", True)
        assert closed.value.error["message"] == "PostgreSQL did not answer within 15 s; the batch was not integrated"
        assert closed.value.code == 4201
        own_cluster.start()
        service.wait_until_healthy()
        with SyncClient(service.url) as client:
            assert client.hello(keys.token(), me, SCHEMA)["lastSeq"] == 1
            assert client.upload(2, {"Reading": readings(5, 5)})["inserted"] == 5
        assert [r[0] for r in own_cluster.psql('SELECT encode("_id", \'hex\') FROM "Reading" ORDER BY 1', database)] == [
            oid(n) for n in range(10)]
    finally:
        service.stop()
