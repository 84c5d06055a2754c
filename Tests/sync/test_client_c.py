"""The engine's sync client from C (include/drumlin.h, section "Sync"): a small C program
(Tests/sync/clients/ingest.c, compiled by the test against libdrumlin.so) and the Python client
ingest into the same table through one service; and with them the Swift face's client
(Tests/sync/clients/swift, the SwiftIngestClient executable that `make test-sync` builds)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import ROOT, Keys, PostgresCluster, SyncService
from test_client_python import create_readings, expected_readings, local_rows, postgres_readings

sys.path.insert(0, str(ROOT / "bindings" / "python"))

import drumlin  # noqa: E402
from fixtures import READING, oid  # noqa: E402


def library() -> Path:
    given = os.environ.get("DRUMLIN_LIBRARY")
    if not given:
        pytest.fail("DRUMLIN_LIBRARY is not set: build the library (tools/build-library.sh) and set it, as make test-sync does")
    return Path(given)


@pytest.fixture(scope="module")
def ingest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lib = library()
    out = tmp_path_factory.mktemp("c") / "ingest"
    subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", str(ROOT / "include"),
                    str(ROOT / "Tests" / "sync" / "clients" / "ingest.c"), "-o", str(out), str(lib),
                    f"-Wl,-rpath,{lib.parent}"], check=True)
    return out


@pytest.fixture(scope="module")
def swift_ingest() -> Path:
    given = os.environ.get("DRUMLIN_SWIFT_INGEST")
    if given:
        path = Path(given)
    else:
        bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                                  check=True).stdout.strip()
        path = Path(bin_path) / "SwiftIngestClient"
    if not path.exists():
        pytest.fail(f"no {path}: build it with `swift build --product SwiftIngestClient` (make test-sync does)")
    return path


def test_c_python_and_swift_clients_ingest_into_one_table(cluster: PostgresCluster, database: str, keys: Keys,
                                                          services: Callable[..., list[SyncService]], ingest: Path,
                                                          swift_ingest: Path, tmp_path: Path) -> None:
    (service,) = services(1)
    c = subprocess.run([str(ingest), str(tmp_path / "c.drumlin"), service.url, keys.token("cee"), "0", "4", "c"],
                       capture_output=True, text=True, timeout=120)
    assert (c.returncode, c.stderr, c.stdout.splitlines()[0]) == (0, "", "state 2 paused 0 uploaded 4 pending 0")
    swift = subprocess.run([str(swift_ingest), str(tmp_path / "swift.realm"), service.url, keys.token("swa"), "4", "5", "swift"],
                           capture_output=True, text=True, timeout=120)
    assert (swift.returncode, swift.stderr) == (0, "")
    assert swift.stdout.splitlines() == [
        "state active connection connected outstanding 5 of 5 complete true",
        "uploaded 5 of 5 estimate 1.0",
        "connection states include connected: true",
        "suspended: inactive",
        "resumed: active",
        "download: INVALID_ARGUMENT: A Data Ingest session only uploads: there is no download to wait for.",
        "download progress token: nil",
        "completion: nil",
        "negative timeout: INVALID_ARGUMENT: The timeout must be a finite number of seconds >= 0, got -1.0.",
    ]
    with drumlin.open(str(tmp_path / "py.drumlin"), [READING],
                      sync=drumlin.SyncConfig(url=service.url, token=lambda: keys.token("pia"))) as db:
        create_readings(db, 9, 3)
        db.sync.wait_for_upload(timeout=60)
    # Every id exactly once, each from the client that made it; the Swift client's dates are whole
    # seconds from 13:00:00 (Date is a Double in Swift).
    rows = postgres_readings(cluster, database)
    assert [r[0] for r in rows] == [oid(n) for n in range(12)]
    assert cluster.psql('SELECT count(*), count(DISTINCT "_id") FROM "Reading"', database) == [["12", "12"]]
    assert rows == ([r[:1] + ["c"] + r[2:] for r in expected_readings(range(4))]
                    + [[oid(n), "swift", 20 + n / 100, f"2026-12-07 13:00:{n:02d}+00", "0", "t"] for n in range(4, 9)]
                    + expected_readings(range(9, 12)))
    assert cluster.psql("SELECT user_id, last_seq, objects_inserted FROM drumlin_sync.clients ORDER BY user_id",
                        database) == [["cee", "1", "4"], ["pia", "1", "3"], ["swa", "1", "5"]]
    # The Swift client's file kept nothing queued.
    assert local_rows(tmp_path / "swift.realm") == (0, 0)


def test_c_and_python_clients_ingest_into_one_table(cluster: PostgresCluster, database: str, keys: Keys,
                                                    services: Callable[..., list[SyncService]], ingest: Path,
                                                    tmp_path: Path) -> None:
    (service,) = services(1)
    result = subprocess.run([str(ingest), str(tmp_path / "c.drumlin"), service.url, keys.token("cee"), "0", "4", "c"],
                            capture_output=True, text=True, timeout=120)
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        "state 2 paused 0 uploaded 4 pending 0",
        "NULL db: The database handle is NULL.",
        "NULL request: The token request is NULL.",
    ]
    with drumlin.open(str(tmp_path / "py.drumlin"), [READING],
                      sync=drumlin.SyncConfig(url=service.url, token=lambda: keys.token("pia"))) as db:
        create_readings(db, 4, 3)
        db.sync.wait_for_upload(timeout=60)
    rows = postgres_readings(cluster, database)
    assert rows == [r[:1] + ["c"] + r[2:] for r in expected_readings(range(4))] + expected_readings(range(4, 7))
    assert cluster.psql("SELECT user_id, last_seq, objects_inserted FROM drumlin_sync.clients ORDER BY user_id",
                        database) == [["cee", "1", "4"], ["pia", "1", "3"]]
    # Objects already in the table (inserted by the C and the Python client) are reported as 227,
    # each, and left as they were.
    again = subprocess.run([str(ingest), str(tmp_path / "c2.drumlin"), service.url, keys.token("cee"), "3", "2", "c2"],
                           capture_output=True, text=True, timeout=120)
    lines = again.stdout.splitlines()
    assert lines[:2] == [
        "error 227 object_already_exists Warning 0: upload 1: an object with the primary key "
        f'{{"$oid":"{oid(n)}"}} was already in the service\'s table; it was left as it was and this one dropped.'
        for n in (3, 4)]
    assert lines[2] == "state 2 paused 0 uploaded 2 pending 0"
    assert cluster.psql("SELECT sensor FROM \"Reading\" WHERE _id IN (decode('65f1c0ffee00000000000003', 'hex'), "
                        "decode('65f1c0ffee00000000000004', 'hex')) ORDER BY _id", database) == [["c"], ["py"]]
