"""Bad input to drumlin-sync: each gets a clear protocol error (Realm's sync error names), the
connection is closed with 4000 + the code, nothing is written, and the service goes on serving
other clients (docs/sync-protocol.md, "error")."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from fixtures import READING, SCHEMA, client_id, readings
from harness import Keys, PostgresCluster, SyncService
from syncclient import Closed, SyncClient
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Subprotocol


def error_of(service: SyncService, frames: list[dict[str, object] | str | bytes]) -> Closed:
    """Sends the frames on a new connection; returns the error and close they end with."""
    with SyncClient(service.url) as client:
        for frame in frames[:-1]:
            client.send(frame)
            client.receive()
        client.send(frames[-1])
        with pytest.raises(Closed) as closed:
            client.receive()
    return closed.value


def still_serves(service: SyncService, keys: Keys) -> None:
    """Another client ingests through the same service after the failure."""
    with SyncClient(service.url) as client:
        client.hello(keys.token("zoe"), client_id(), SCHEMA)
        assert client.upload(1, {"Reading": readings(900, 1)})["inserted"] == 1


def hello(keys: Keys, token: str | None = None, schema: object = None) -> dict[str, object]:
    return {"type": "hello", "token": keys.token() if token is None else token, "clientId": client_id(),
            "schema": SCHEMA if schema is None else schema}


def assert_error(closed: Closed, code: int, name: str, message: str) -> None:
    assert closed.error is not None
    assert (closed.error["code"], closed.error["name"], closed.error["message"]) == (code, name, message)
    assert closed.code == 4000 + code


def nothing_written(cluster: PostgresCluster, database: str) -> None:
    assert cluster.psql("SELECT count(*) FROM drumlin_sync.clients", database) == [["0"]]


def test_a_token_signed_with_another_key_is_bad_authentication(cluster: PostgresCluster, database: str, keys: Keys,
                                                               services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    stranger = Keys(Path(tempfile.mkdtemp(prefix="drumlin-sync-other-")))
    closed = error_of(service, [hello(keys, stranger.token())])
    assert_error(closed, 203, "bad_authentication", "The token was refused: its signature does not verify with the service's key")
    assert closed.error is not None and closed.error["action"] == "LogOutUser" and closed.error["tryAgain"] is False
    nothing_written(cluster, database)
    still_serves(service, keys)


def test_an_expired_token_is_token_expired(cluster: PostgresCluster, database: str, keys: Keys,
                                           services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    closed = error_of(service, [hello(keys, keys.token(expires_in=-60))])
    assert closed.error is not None
    assert (closed.error["code"], closed.error["name"], closed.error["action"], closed.error["tryAgain"]) == (
        202, "token_expired", "RefreshUser", True)
    assert closed.error["message"].startswith("The token expired at ")
    assert closed.error["message"].endswith("; fetch a new one and reconnect")
    assert closed.code == 4202
    nothing_written(cluster, database)
    still_serves(service, keys)


@pytest.mark.parametrize(("token", "why"), [
    ("not-a-token", "it is not a JWT (three base64url parts)"),
    ("", "the hello frame's token is empty"),
])
def test_a_token_that_is_not_a_jwt_is_bad_authentication(cluster: PostgresCluster, database: str, keys: Keys,
                                                         services: Callable[..., list[SyncService]],
                                                         token: str, why: str) -> None:
    (service,) = services(1)
    assert_error(error_of(service, [hello(keys, token)]), 203, "bad_authentication", f"The token was refused: {why}")
    nothing_written(cluster, database)


def test_tokens_without_a_user_or_an_expiry_are_bad_authentication(cluster: PostgresCluster, database: str, keys: Keys,
                                                                   services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    assert_error(error_of(service, [hello(keys, keys.token(sub=None))]), 203, "bad_authentication",
                 "The token was refused: it has no 'sub' (user id) claim")
    assert_error(error_of(service, [hello(keys, keys.token(expires_in=None))]), 203, "bad_authentication",
                 "The token was refused: it has no 'exp' (expiry) claim")
    nothing_written(cluster, database)


def test_an_upload_of_a_class_the_session_did_not_declare_is_bad_changeset(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    upload = {"type": "upload", "seq": 1, "inserts": [{"class": "Reading", "objects": readings(0, 2)},
                                                      {"class": "Ghost", "objects": [{"_id": 1}]}]}
    closed = error_of(service, [hello(keys), upload])
    assert_error(closed, 212, "bad_changeset", "upload 1: class 'Ghost' is not in this session's schema (hello declared 'Reading')")
    assert closed.error is not None and closed.error["seq"] == 1
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["0"]]
    assert cluster.psql("SELECT last_seq FROM drumlin_sync.clients", database) == [["0"]]
    still_serves(service, keys)


def test_an_upload_of_a_class_that_is_not_asymmetric_is_bad_changeset(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    schema = [READING, {"name": "Task", "primaryKey": "_id", "properties": {"_id": "int", "title": "string"}}]
    upload = {"type": "upload", "seq": 1, "inserts": [{"class": "Task", "objects": [{"_id": 1, "title": "x"}]}]}
    assert_error(error_of(service, [hello(keys, schema=schema), upload]), 212, "bad_changeset",
                 "upload 1: class 'Task' is not asymmetric; protocol 1 uploads asymmetric objects (Data Ingest) only")
    assert cluster.psql('SELECT count(*) FROM "Task"', database) == [["0"]]


@pytest.mark.parametrize(("changed", "message"), [
    ({"celsius": "warm"}, "upload 1: Reading object 1: Type mismatch for property 'Reading.celsius': expected double, got string."),
    ({"colour": "red"}, "upload 1: Reading object 1: Object type 'Reading' has no property 'colour'."),
    ({"at": {"$date": {"$numberLong": "253402300800000"}}}, "upload 1: Reading object 1: Property 'Reading.at': the date "
     "+010000-01-01T00:00:00Z is outside the years 1-9999 that PostgreSQL's timestamptz mapping keeps."),
])
def test_an_object_that_does_not_fit_its_class_fails_its_whole_batch(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        changed: dict[str, object], message: str) -> None:
    (service,) = services(1)
    objects = readings(0, 2)
    objects[1].update(changed)
    upload = {"type": "upload", "seq": 1, "inserts": [{"class": "Reading", "objects": objects}]}
    assert_error(error_of(service, [hello(keys), upload]), 212, "bad_changeset", message)
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["0"]]


def test_a_missing_required_property_fails_the_batch(cluster: PostgresCluster, database: str, keys: Keys,
                                                     services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    objects = readings(0, 1)
    del objects[0]["sensor"]
    upload = {"type": "upload", "seq": 1, "inserts": [{"class": "Reading", "objects": objects}]}
    assert_error(error_of(service, [hello(keys), upload]), 212, "bad_changeset",
                 "upload 1: Reading object 0: Missing value for property 'Reading.sensor'.")


@pytest.mark.parametrize(("frame", "code", "name", "message"), [
    ('{"type": "upload", "seq": 1,', 103, "bad_syntax", "the frame is not JSON: Invalid JSON at byte 28: expected a string key"),
    ("[1, 2]", 103, "bad_syntax", 'a frame must be a JSON object with a "type", got an array'),
    ({"type": "upload", "seq": "1", "inserts": []}, 103, "bad_syntax", "upload frame: 'seq' must be an integer"),
    ({"type": "upload", "seq": 1, "inserts": [{"class": "Reading"}]}, 103, "bad_syntax",
     'upload 1: inserts[0] must be {"class": <name>, "objects": [...]}'),
    ({"type": "download"}, 102, "unknown_message", "unknown frame type 'download' (protocol 1 has hello and upload)"),
    (b"\x00\x01", 103, "bad_syntax", "binary frames are not part of protocol 1: send each frame as JSON text"),
])
def test_a_malformed_frame_after_hello_is_a_protocol_error(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]],
        frame: dict[str, object] | str | bytes, code: int, name: str, message: str) -> None:
    (service,) = services(1)
    assert_error(error_of(service, [hello(keys), frame]), code, name, message)
    assert cluster.psql("SELECT last_seq FROM drumlin_sync.clients", database) == [["0"]]
    still_serves(service, keys)


def test_frames_out_of_order_are_bad_message_order(cluster: PostgresCluster, database: str, keys: Keys,
                                                   services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    upload = {"type": "upload", "seq": 1, "inserts": [{"class": "Reading", "objects": readings(0, 1)}]}
    assert_error(error_of(service, [upload]), 109, "bad_message_order",
                 "upload 1 was sent before hello; a session starts with hello")
    assert_error(error_of(service, [hello(keys), hello(keys)]), 109, "bad_message_order",
                 "hello was sent twice; a session sends it once, first")
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["0"]]


def test_a_schema_without_an_id_primary_key_is_invalid_schema_change(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    schema = [{"name": "Log", "asymmetric": True, "primaryKey": "key", "properties": {"key": "int", "line": "string"}}]
    assert_error(error_of(service, [hello(keys, schema=schema)]), 225, "invalid_schema_change",
                 "class 'Log': synced classes need a primary key named '_id', as Realm's sync requires")
    assert_error(error_of(service, [hello(keys, schema=[{"name": "Log", "properties": {"x": "integer"}}])]), 225,
                 "invalid_schema_change", "the hello schema is not valid: Schema validation failed due to the following "
                 "errors:\n- Property 'Log.x' of type 'object' has unknown object type 'integer'")
    assert cluster.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'Log'", database) == [["0"]]
    nothing_written(cluster, database)


def test_too_many_objects_in_a_batch_is_limits_exceeded(cluster: PostgresCluster, database: str, keys: Keys,
                                                        services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1, "--max-objects-per-batch", "3")
    upload = {"type": "upload", "seq": 1, "inserts": [{"class": "Reading", "objects": readings(0, 4)}]}
    assert_error(error_of(service, [hello(keys), upload]), 104, "limits_exceeded",
                 "upload 1 holds 4 objects; the limit is 3 a batch")
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["0"]]


def test_a_100_mb_frame_is_refused_and_the_service_serves_others(cluster: PostgresCluster, database: str, keys: Keys,
                                                                services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    objects = readings(0, 1)
    objects[0]["note"] = "x" * (100 << 20)
    with SyncClient(service.url) as client:
        client.hello(keys.token(), client_id(), SCHEMA)
        try:
            client.send_upload(1, {"Reading": objects})
        except (ConnectionClosed, OSError):
            pass  # the service closes while the client is still writing the frame
        client.wait_closed()
    assert service.running()
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["0"]]
    assert cluster.psql("SELECT last_seq FROM drumlin_sync.clients", database) == [["0"]]
    still_serves(service, keys)
    # The refused session ended there, before any batch: only the later client's batch is logged.
    records = service.log_records()
    assert [r["msg"] for r in records if r["msg"] in ("session ended", "batch integrated")] == [
        "session ended", "batch integrated", "session ended"]


def test_a_frame_over_the_limit_is_closed_with_1009(cluster: PostgresCluster, database: str, keys: Keys,
                                                   services: Callable[..., list[SyncService]]) -> None:
    # A limit the frame exceeds by little, so that the client has written it all and reads the
    # close frame (a 100 MB frame is cut while being written: the close frame may not arrive).
    (service,) = services(1, "--max-frame-bytes", "65536")
    objects = readings(0, 1)
    objects[0]["note"] = "x" * 70000
    with SyncClient(service.url) as client:
        assert client.hello(keys.token(), client_id(), SCHEMA)["limits"]["maxFrameBytes"] == 65536
        client.send_upload(1, {"Reading": objects})
        code, _ = client.wait_closed()
    assert code == 1009   # Message Too Big
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["0"]]
    still_serves(service, keys)


def test_a_connection_without_the_subprotocol_is_refused_before_the_upgrade(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    with pytest.raises(InvalidStatus) as refused:
        SyncClient(service.url, subprotocols=[Subprotocol("drumlin-sync.9")])
    assert refused.value.response.status_code == 400
    refusals = [r for r in service.log_records() if r["msg"] == "subprotocol refused"]
    assert [r["offered"] for r in refusals] == ["drumlin-sync.9"]
    still_serves(service, keys)
