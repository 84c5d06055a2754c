"""Fixtures of the sync suite: one throwaway PostgreSQL cluster for the session, a fresh database
(migrated by `drumlin-sync migrate`) per test, and `services(n)` to start n service processes on
it. Everything is stopped at the end. `make test-sync` runs the suite."""

from __future__ import annotations

import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Keys, PostgresCluster, SyncService, run_service_command, service_binary  # noqa: E402
from proxy import Proxy  # noqa: E402


@pytest.fixture(scope="session")
def cluster() -> Iterator[PostgresCluster]:
    if not service_binary().exists():
        pytest.fail(f"no {service_binary()}: build it with `swift build --product drumlin-sync` (make test-sync does)")
    started = PostgresCluster()
    yield started
    started.stop()


@pytest.fixture(scope="session")
def key_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="drumlin-sync-keys-"))


@pytest.fixture(scope="session")
def keys(key_folder: Path) -> Keys:
    return Keys(key_folder)


@pytest.fixture
def database(cluster: PostgresCluster) -> str:
    name = cluster.create_database(f"t_{uuid.uuid4().hex[:12]}")
    migrated = run_service_command(["migrate", "--postgres", cluster.url(name)])
    assert migrated.returncode == 0, migrated.stderr
    assert migrated.stdout == "drumlin_sync tables migrated from version 0 to 1\n"
    return name


@pytest.fixture
def services(cluster: PostgresCluster, database: str, keys: Keys,
             tmp_path: Path) -> Iterator[Callable[..., list[SyncService]]]:
    started: list[SyncService] = []

    def start(count: int = 1, *extra: str) -> list[SyncService]:
        new = [SyncService(cluster.url(database), keys, tmp_path, *extra) for _ in range(count)]
        started.extend(new)
        return new

    yield start
    for service in started:
        service.stop()


@pytest.fixture
def proxies(tmp_path: Path) -> Iterator[Callable[..., Proxy]]:
    """`proxies(service)`: a fault-injecting TCP proxy in front of a service (proxy.py);
    `proxies(service, tls=True)`: one that also terminates TLS with a throwaway CA."""
    started: list[Proxy] = []

    def start(service: SyncService, tls: bool = False) -> Proxy:
        proxy = Proxy(service.port, tmp_path / f"tls-{len(started)}" if tls else None)
        started.append(proxy)
        return proxy

    yield start
    for proxy in started:
        proxy.stop()
