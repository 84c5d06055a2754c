"""The drumlin-sync command: migrate, serve's settings (flags, environment, config file), its
refusals at startup, /health, /metrics and its JSON logs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from fixtures import SCHEMA, client_id, readings
from harness import Keys, PostgresCluster, SyncService, run_service_command
from syncclient import SyncClient


def test_migrate_is_idempotent(cluster: PostgresCluster, database: str) -> None:
    again = run_service_command(["migrate", "--postgres", cluster.url(database)])
    assert (again.returncode, again.stdout) == (0, "drumlin_sync tables are at version 1\n")
    assert cluster.psql("SELECT version FROM drumlin_sync.schema_version", database) == [["1"]]
    assert cluster.psql("SELECT tablename FROM pg_tables WHERE schemaname = 'drumlin_sync' ORDER BY 1", database) == [
        ["classes"], ["clients"], ["schema_version"]]


def test_serve_refuses_tables_that_were_not_migrated(cluster: PostgresCluster, keys: Keys) -> None:
    fresh = cluster.create_database("unmigrated")
    result = run_service_command(["serve", "--postgres", cluster.url(fresh), "--listen", "127.0.0.1:0",
                                  "--jwt-public-key", str(keys.public_pem)])
    assert result.returncode == 1
    assert result.stderr.endswith("drumlin-sync: the drumlin_sync tables are at version 0, this drumlin-sync needs 1: "
                                  "run `drumlin-sync migrate` first\n")


def test_serve_names_a_missing_or_unusable_setting(cluster: PostgresCluster, database: str, tmp_path: Path) -> None:
    missing = run_service_command(["serve", "--postgres", cluster.url(database)], env={"DRUMLIN_SYNC_JWT_PUBLIC_KEY": ""})
    assert (missing.returncode, missing.stderr) == (
        1, "drumlin-sync: no --jwt-public-key given (or DRUMLIN_SYNC_JWT_PUBLIC_KEY, or \"jwtPublicKey\" in the --config file)\n")
    not_a_key = tmp_path / "key.pem"
    not_a_key.write_text("hello\n")
    bad = run_service_command(["serve", "--postgres", cluster.url(database), "--jwt-public-key", str(not_a_key)])
    assert (bad.returncode, bad.stderr) == (
        1, f"drumlin-sync: '{not_a_key}' holds no PEM public key the service can use: give an RSA (RS256, 2048 bits "
           "or more) or EC P-256 (ES256) public key\n")
    config = tmp_path / "sync.json"
    config.write_text('{"listen": "127.0.0.1:1", "colour": "red"}')
    unknown = run_service_command(["serve", "--config", str(config)])
    assert unknown.returncode == 1
    assert unknown.stderr.startswith(f"drumlin-sync: unknown setting 'colour' in '{config}'; the settings are postgres, ")
    no_postgres = run_service_command(["migrate"], env={"DRUMLIN_SYNC_POSTGRES": ""})
    assert no_postgres.stderr == ("drumlin-sync: no --postgres given (or DRUMLIN_SYNC_POSTGRES, or \"postgres\" in "
                                  "the --config file)\n")


def test_settings_come_from_flags_environment_and_config_file(cluster: PostgresCluster, database: str, keys: Keys,
                                                              services: Callable[..., list[SyncService]],
                                                              tmp_path: Path) -> None:
    config = tmp_path / "sync.json"
    config.write_text(json.dumps({"maxObjectsPerBatch": 7, "maxFrameBytes": 65536}))
    (service,) = services(1, "--config", str(config), "--max-frame-bytes", "131072")
    with SyncClient(service.url) as client:
        welcome = client.hello(keys.token(), client_id(), SCHEMA)
    # The flag wins over the file; the file's other key applies.
    assert welcome["limits"] == {"maxFrameBytes": 131072, "maxObjectsPerBatch": 7}


def test_an_ec_key_verifies_es256_tokens(cluster: PostgresCluster, database: str, key_folder: Path, tmp_path: Path) -> None:
    ec_keys = Keys(key_folder, kind="ec")
    service = SyncService(cluster.url(database), ec_keys, tmp_path)
    try:
        with SyncClient(service.url) as client:
            assert client.hello(ec_keys.token("eve"), client_id(), SCHEMA)["userId"] == "eve"
    finally:
        service.stop()


def test_health_metrics_and_logs(cluster: PostgresCluster, database: str, keys: Keys,
                                 services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    assert service.http("/health") == (200, "ok\n")
    me = client_id()
    with SyncClient(service.url) as client:
        client.hello(keys.token("ann"), me, SCHEMA)
        client.upload(1, {"Reading": readings(0, 3)})
        client.upload(1, {"Reading": readings(0, 3)})
    status, text = service.http("/metrics")
    assert status == 200
    lines = set(text.splitlines())
    assert 'drumlin_sync_batches_total{result="inserted"} 1' in lines
    assert 'drumlin_sync_batches_total{result="duplicate"} 1' in lines
    assert "drumlin_sync_objects_inserted_total 3" in lines
    assert "drumlin_sync_sessions_total 1" in lines
    records = service.log_records()
    integrated = [r for r in records if r["msg"] == "batch integrated"]
    assert len(integrated) == 1
    assert (integrated[0]["client"], integrated[0]["user"], integrated[0]["seq"], integrated[0]["objects"]) == (
        me, "ann", "1", "3")
    assert integrated[0]["level"] == "info" and integrated[0]["ts"].endswith("Z")
    assert any(r["msg"] == "listening" for r in records)
