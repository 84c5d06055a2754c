"""The engine's own sync client, from Python (docs/sync.md, "Data Ingest from each language"):
objects created in a Drumlin file reach PostgreSQL through real drumlin-sync processes, exactly
once, and leave the file. Needs the library (DRUMLIN_LIBRARY, as `make test-sync` sets it)."""

from __future__ import annotations

import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import harness
import pytest
from fixtures import READING, oid
from harness import Keys, PostgresCluster, SyncService

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))

import drumlin  # noqa: E402
from drumlin.values import ObjectId  # noqa: E402


def create_readings(db: drumlin.Database, start: int, count: int, sensor: str = "py") -> None:
    from datetime import datetime, timezone
    with db.write():
        for n in range(start, start + count):
            db.create("Reading", {"_id": ObjectId(oid(n)), "sensor": sensor, "celsius": 20 + n / 100,
                                 "at": datetime(2026, 12, 7, 13, n // 60 % 60, n % 60, 123456, tzinfo=timezone.utc)})


def local_rows(path: Path) -> tuple[int, int]:
    """Objects left in the file's Reading table, and fixed batches not yet acknowledged."""
    with sqlite3.connect(path) as connection:
        queued = connection.execute('SELECT count(*) FROM "Reading"').fetchone()[0]
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        batches = connection.execute("SELECT count(*) FROM _drumlin_sync_batches").fetchone()[0] \
            if "_drumlin_sync_batches" in tables else 0
    return queued, batches


class Recorder:
    """Collects what the session's callbacks report (from the sync thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.errors: list[drumlin.SyncErrorInfo] = []
        self.progress: list[drumlin.SyncProgress] = []
        self.error_seen = threading.Event()

    def on_error(self, info: drumlin.SyncErrorInfo) -> None:
        with self.lock:
            self.errors.append(info)
        self.error_seen.set()

    def on_progress(self, progress: drumlin.SyncProgress) -> None:
        with self.lock:
            self.progress.append(progress)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def open_synced(tmp_path: Path, recorder: Recorder) -> Iterator[Callable[..., drumlin.Database]]:
    opened: list[drumlin.Database] = []

    def open_db(url: str, token: Callable[[], str], name: str = "app.drumlin") -> drumlin.Database:
        db = drumlin.open(str(tmp_path / name), [READING],
                          sync=drumlin.SyncConfig(url=url, token=token, on_error=recorder.on_error,
                                                  on_progress=recorder.on_progress))
        opened.append(db)
        return db

    yield open_db
    for db in opened:
        db.close()


def postgres_readings(cluster: PostgresCluster, database: str) -> list[list[Any]]:
    rows = cluster.psql('SELECT encode("_id", \'hex\'), sensor, celsius, "at", at__ns, note IS NULL '
                        'FROM "Reading" ORDER BY "_id"', database)
    return [[r[0], r[1], float(r[2]), *r[3:]] for r in rows]


def expected_readings(numbers: range, sensor: str = "py") -> list[list[Any]]:
    return [[oid(n), sensor, 20 + n / 100, f"2026-12-07 13:{n // 60 % 60:02d}:{n % 60:02d}.123456+00", "0", "t"]
            for n in numbers]


def test_created_objects_reach_postgres_and_leave_the_file(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        open_synced: Callable[..., drumlin.Database], recorder: Recorder, tmp_path: Path) -> None:
    (service,) = services(1)
    db = open_synced(service.url, lambda: keys.token("ann"))
    create_readings(db, 0, 3)
    create_readings(db, 3, 2)
    db.sync.wait_for_upload(timeout=60)
    assert postgres_readings(cluster, database) == expected_readings(range(5))
    assert local_rows(tmp_path / "app.drumlin") == (0, 0)
    progress = db.sync.progress
    assert (progress.state, progress.paused, progress.uploaded, progress.pending) == ("connected", False, 5, 0)
    assert recorder.errors == []
    # One client, numbered batches with no gaps, owned by the token's user.
    assert cluster.psql("SELECT user_id, objects_inserted FROM drumlin_sync.clients", database) == [["ann", "5"]]


def test_objects_created_while_the_service_is_down_are_uploaded_once_it_runs(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        open_synced: Callable[..., drumlin.Database], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    port = harness.free_port()
    db = open_synced(f"ws://127.0.0.1:{port}/sync", lambda: keys.token("ann"))
    create_readings(db, 0, 4)
    with pytest.raises(drumlin.SyncTimeoutError) as waited:
        db.sync.wait_for_upload(timeout=1.5)
    assert "4 objects still wait" in str(waited.value)
    # Batches are fixed only once a service has said welcome: the objects wait in their table.
    assert local_rows(tmp_path / "app.drumlin") == (4, 0)
    monkeypatch.setattr(harness, "free_port", lambda: port)
    services(1)
    db.sync.wait_for_upload(timeout=120)
    assert postgres_readings(cluster, database) == expected_readings(range(4))
    assert local_rows(tmp_path / "app.drumlin") == (0, 0)


def test_pause_keeps_objects_in_the_file_and_resume_uploads_them(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        open_synced: Callable[..., drumlin.Database], tmp_path: Path) -> None:
    (service,) = services(1)
    db = open_synced(service.url, lambda: keys.token("ann"))
    create_readings(db, 0, 1)
    db.sync.wait_for_upload(timeout=60)
    db.sync.pause()
    assert db.sync.paused is True
    create_readings(db, 1, 2)
    with pytest.raises(drumlin.SyncTimeoutError):
        db.sync.wait_for_upload(timeout=1)
    assert db.sync.state == "disconnected"
    assert local_rows(tmp_path / "app.drumlin") == (2, 0)
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["1"]]
    db.sync.resume()
    assert db.sync.paused is False
    db.sync.wait_for_upload(timeout=60)
    assert postgres_readings(cluster, database) == expected_readings(range(3))


def test_a_bad_token_stops_the_session_with_bad_authentication_and_no_retry_loop(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        open_synced: Callable[..., drumlin.Database], recorder: Recorder) -> None:
    (service,) = services(1)
    asked: list[int] = []

    def token() -> str:
        asked.append(1)
        return "not.a.jwt"

    db = open_synced(service.url, token)
    create_readings(db, 0, 1)
    assert recorder.error_seen.wait(60)
    with pytest.raises(drumlin.SyncError) as stopped:
        db.sync.wait_for_upload(timeout=60)
    assert str(stopped.value).startswith(
        "The sync session stopped on an error and waits for resume(): bad_authentication (203): ")
    (error,) = recorder.errors
    assert (error.code, error.name, error.action, error.stopped) == (203, "bad_authentication", "LogOutUser", True)
    # Stopped: a second look finds the provider asked once, the object still in the file.
    recorder.error_seen.clear()
    assert not recorder.error_seen.wait(3)
    assert len(asked) == 1
    assert db.sync.state == "disconnected"
    # Refused at hello: the service made no table, and the object waits in the file.
    assert cluster.psql("SELECT to_regclass('\"Reading\"') IS NULL", database) == [["t"]]
    assert db.sync.progress.pending == 1


def test_an_expired_token_asks_the_provider_again(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        open_synced: Callable[..., drumlin.Database], recorder: Recorder) -> None:
    (service,) = services(1)
    tokens = [keys.token("ann", expires_in=-60), keys.token("ann")]
    asked: list[str] = []

    def token() -> str:
        asked.append(tokens[min(len(asked), 1)])
        return asked[-1]

    db = open_synced(service.url, token)
    create_readings(db, 0, 2)
    db.sync.wait_for_upload(timeout=60)
    assert asked == tokens
    (error,) = recorder.errors
    assert (error.code, error.name, error.action, error.stopped) == (202, "token_expired", "RefreshUser", False)
    assert postgres_readings(cluster, database) == expected_readings(range(2))


def test_one_file_carries_on_through_three_instances(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        open_synced: Callable[..., drumlin.Database], tmp_path: Path) -> None:
    instances = services(3)
    for round_number, service in enumerate(instances * 2):
        db = open_synced(service.url, lambda: keys.token("ann"))
        create_readings(db, round_number * 3, 3)
        db.sync.wait_for_upload(timeout=60)
        db.close()
    assert postgres_readings(cluster, database) == expected_readings(range(18))
    # One client id for the file, its sequence advanced by every instance in turn.
    (row,) = cluster.psql("SELECT count(*), min(last_seq), sum(objects_inserted) FROM drumlin_sync.clients", database)
    assert row == ["1", "6", "18"]


def test_sync_options_are_checked(tmp_path: Path) -> None:
    with pytest.raises(drumlin.InvalidArgumentError) as bad_url:
        drumlin.open(str(tmp_path / "a.drumlin"), [READING], sync=drumlin.SyncConfig(url="http://x/sync", token=lambda: "t"))
    assert str(bad_url.value) == "The sync URL must start with ws:// or wss://, got 'http://x/sync'."
    with pytest.raises(drumlin.InvalidArgumentError) as in_memory:
        drumlin.open(":memory:", [READING], sync=drumlin.SyncConfig(url="ws://127.0.0.1:1/sync", token=lambda: "t"))
    assert str(in_memory.value) == ("Sync needs a database file opened for writing (its upload queue lives in the file): "
                                    "it cannot be used in memory.")
    with pytest.raises(drumlin.InvalidArgumentError) as no_class:
        drumlin.open(str(tmp_path / "b.drumlin"), [{"name": "Note", "properties": {"text": "string"}}],
                     sync=drumlin.SyncConfig(url="ws://127.0.0.1:1/sync", token=lambda: "t"))
    assert str(no_class.value) == "Sync uploads asymmetric classes (Data Ingest), and the schema has none."
    with pytest.raises(drumlin.TypeMismatchError):
        drumlin.open(str(tmp_path / "c.drumlin"), [READING], sync="ws://x")  # type: ignore[arg-type, unused-ignore]
    with drumlin.open(str(tmp_path / "d.drumlin"), [READING]) as plain:
        with pytest.raises(drumlin.MisuseError) as no_session:
            plain.sync.wait_for_upload(timeout=1)
    assert str(no_session.value) == ("The database has no sync session: open it with options given "
                                     "drumlin_options_set_sync().")
