"""Data Ingest through real drumlin-sync processes into a real PostgreSQL: batches land in the
class's table, exactly once, with the documented mapping (docs/sync.md, docs/sync-protocol.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fixtures import SCHEMA, client_id, oid, readings
from harness import Keys, PostgresCluster, SyncService
from syncclient import Closed, SyncClient


def test_batches_are_inserted_into_the_class_table(cluster: PostgresCluster, database: str, keys: Keys,
                                                   services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    me = client_id()
    with SyncClient(service.url) as client:
        welcome = client.hello(keys.token("ann"), me, SCHEMA)
        assert welcome["type"] == "welcome" and welcome["protocol"] == 1
        assert welcome["userId"] == "ann" and welcome["lastSeq"] == 0
        assert welcome["limits"] == {"maxFrameBytes": 16 << 20, "maxObjectsPerBatch": 10000}
        assert client.upload(1, {"Reading": readings(0, 3)}) == {"type": "ack", "seq": 1, "inserted": 3, "existing": []}
        assert client.upload(2, {"Reading": readings(3, 2)}) == {"type": "ack", "seq": 2, "inserted": 2, "existing": []}
    rows = cluster.psql('SELECT encode("_id", \'hex\'), sensor, celsius, "at", at__ns, note IS NULL '
                        'FROM "Reading" ORDER BY "_id"', database)
    assert [[r[0], r[1], float(r[2]), *r[3:]] for r in rows] == [
        [oid(n), "s-1", 20 + n / 100, f"2026-12-07 13:00:0{n}.123456+00", "789", "t"] for n in range(5)]
    assert cluster.psql(f"SELECT user_id, last_seq, objects_inserted FROM drumlin_sync.clients WHERE client_id = '{me}'",
                        database) == [["ann", "2", "5"]]


def test_a_resent_batch_is_acknowledged_and_not_inserted_again(cluster: PostgresCluster, database: str, keys: Keys,
                                                               services: Callable[..., list[SyncService]]) -> None:
    first, second = services(2)
    me = client_id()
    with SyncClient(first.url) as client:
        client.hello(keys.token(), me, SCHEMA)
        assert client.upload(1, {"Reading": readings(0, 4)})["inserted"] == 4
    # The ack was "lost": the client reconnects (to another instance) and learns the batch is in.
    with SyncClient(second.url) as client:
        assert client.hello(keys.token(), me, SCHEMA)["lastSeq"] == 1
        assert client.upload(1, {"Reading": readings(0, 4)}) == {"type": "ack", "seq": 1, "duplicate": True}
        assert client.upload(2, {"Reading": readings(4, 1)})["inserted"] == 1
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["5"]]
    assert cluster.psql("SELECT last_seq, objects_inserted FROM drumlin_sync.clients", database) == [["2", "5"]]


def test_a_skipped_sequence_number_is_refused_and_writes_nothing(cluster: PostgresCluster, database: str, keys: Keys,
                                                                 services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    with SyncClient(service.url) as client:
        client.hello(keys.token(), client_id(), SCHEMA)
        client.upload(1, {"Reading": readings(0, 1)})
        with pytest.raises(Closed) as closed:
            client.upload(3, {"Reading": readings(1, 1)})
    assert closed.value.error == {
        "type": "error", "code": 210, "name": "bad_client_version", "action": "ClientReset", "tryAgain": False,
        "message": "upload 3 arrived after 1: batch 2 was never integrated; a client sends its batches in order "
                   "and resends each until acknowledged", "seq": 3}
    assert closed.value.code == 4210
    assert cluster.psql('SELECT count(*) FROM "Reading"', database) == [["1"]]


def test_objects_whose_id_is_already_in_the_table_are_reported_not_replaced(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    with SyncClient(service.url) as client:
        client.hello(keys.token("ann"), client_id(), SCHEMA)
        client.upload(1, {"Reading": readings(0, 3, sensor="first")})
    batch = readings(2, 3, sensor="second") + readings(4, 1, sensor="second")   # oid(2) is in; oid(4) twice
    with SyncClient(service.url) as client:
        client.hello(keys.token("bob"), client_id(), SCHEMA)
        ack = client.upload(1, {"Reading": batch})
    assert ack == {"type": "ack", "seq": 1, "inserted": 2, "existing": [{"$oid": oid(2)}, {"$oid": oid(4)}]}
    assert cluster.psql('SELECT encode("_id", \'hex\'), sensor FROM "Reading" ORDER BY 1', database) == [
        [oid(0), "first"], [oid(1), "first"], [oid(2), "first"], [oid(3), "second"], [oid(4), "second"]]


def test_every_type_maps_to_its_documented_column(cluster: PostgresCluster, database: str, keys: Keys,
                                                  services: Callable[..., list[SyncService]]) -> None:
    schema = [
        {"name": "Device", "primaryKey": "_id", "properties": {"_id": "string", "model": "string"}},
        {"name": "Place", "embedded": True, "properties": {"city": "string", "tags": "string[]"}},
        {"name": "Sample", "asymmetric": True, "primaryKey": "_id", "mapTo": "samples", "properties": {
            "_id": "uuid", "count": "int", "ok": "bool", "ratio": "float", "value": "double", "label": "string",
            "blob": "data", "at": "date", "amount": "decimal128", "ref": "objectId", "tag": "uuid?", "any": "mixed",
            "device": "Device", "place": "Place", "history": "double[]", "names": "string<>", "extra": "mixed{}",
            "stops": "Place[]", "renamed": {"type": "int", "optional": True, "mapTo": "renamed_col"}}},
    ]
    (service,) = services(1)
    sample = {
        "_id": {"$uuid": "3b241101-e2bb-4255-8caf-4136c566a962"}, "count": {"$numberLong": "9007199254740993"},
        "ok": True, "ratio": 0.5, "value": {"$numberDouble": "NaN"}, "label": "héllo \"q\"",
        "blob": {"$binary": {"base64": "AAEC/w==", "subType": "00"}}, "at": {"$date": "1969-12-31T23:59:59.999999001Z"},
        "amount": {"$numberDecimal": "12345678901234567890.123"}, "ref": {"$oid": "65f1c0ffee0123456789abcd"},
        "tag": None, "any": {"$date": "2024-01-02T03:04:05Z"}, "device": "dev-1",
        "place": {"city": "Bern", "tags": ["old"]}, "history": [1, 2.5], "names": ["a", "b"],
        "extra": {"k": [1, {"$oid": "65f1c0ffee0123456789abcd"}]}, "stops": [{"city": "Thun", "tags": []}],
        "renamed": 7,
    }
    with SyncClient(service.url) as client:
        client.hello(keys.token(), client_id(), schema)
        assert client.upload(1, {"Sample": [sample]})["inserted"] == 1
    columns = cluster.psql("SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute "
                           "WHERE attrelid = 'samples'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
                           database)
    assert columns == [
        ["_id", "uuid", "t"], ["count", "bigint", "t"], ["ok", "boolean", "t"], ["ratio", "real", "t"],
        ["value", "double precision", "t"], ["label", "text", "t"], ["blob", "bytea", "t"],
        ["at", "timestamp with time zone", "t"], ["at__ns", "integer", "t"], ["amount", "numeric", "t"],
        ["ref", "bytea", "t"], ["tag", "uuid", "f"], ["any", "jsonb", "f"], ["device", "text", "f"],
        ["place", "jsonb", "f"], ["history", "jsonb", "t"], ["names", "jsonb", "t"], ["extra", "jsonb", "t"],
        ["stops", "jsonb", "t"], ["renamed_col", "bigint", "f"]]
    values = cluster.psql(
        "SELECT _id, count, ok, ratio, value, label, encode(blob, 'hex'), at, at__ns, amount, encode(ref, 'hex'), "
        "tag IS NULL, \"any\", device, place, history, names, extra, stops, renamed_col FROM samples", database)
    assert values == [[
        "3b241101-e2bb-4255-8caf-4136c566a962", "9007199254740993", "t", "0.5", "NaN", 'héllo "q"', "000102ff",
        "1969-12-31 23:59:59.999999+00", "1", "12345678901234567890.123", "65f1c0ffee0123456789abcd", "t",
        '{"$date": "2024-01-02T03:04:05Z"}', "dev-1", '{"city": "Bern", "tags": ["old"]}', "[1.0, 2.5]",
        '["a", "b"]', '{"k": [1, {"$oid": "65f1c0ffee0123456789abcd"}]}', '[{"city": "Thun", "tags": []}]', "7"]]
    # The top-level class a link points to has its table too; the mapping is recorded.
    assert cluster.psql("SELECT class_name, table_name, kind FROM drumlin_sync.classes ORDER BY 1", database) == [
        ["Device", "Device", "topLevel"], ["Sample", "samples", "asymmetric"]]


def test_a_later_schema_adds_columns_and_a_changed_type_is_refused(
        cluster: PostgresCluster, database: str, keys: Keys, services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    with SyncClient(service.url) as client:
        client.hello(keys.token(), client_id(), SCHEMA)
        client.upload(1, {"Reading": readings(0, 1)})
    newer = [dict(SCHEMA[0], properties=dict(SCHEMA[0]["properties"], humidity="double", taken="date?"))]
    with SyncClient(service.url) as client:
        client.hello(keys.token(), client_id(), newer)
        client.upload(1, {"Reading": [dict(readings(1, 1)[0], humidity=40.5)]})
    assert cluster.psql("SELECT encode(_id, 'hex'), humidity, taken__ns FROM \"Reading\" ORDER BY 1", database) == [
        [oid(0), "", "0"], [oid(1), "40.5", "0"]]
    changed = [dict(SCHEMA[0], properties=dict(SCHEMA[0]["properties"], celsius="string"))]
    with SyncClient(service.url) as client, pytest.raises(Closed) as closed:
        client.hello(keys.token(), client_id(), changed)
    assert closed.value.error is not None and closed.value.error["name"] == "invalid_schema_change"
    assert closed.value.error["message"] == ("class 'Reading': column \"celsius\" is double precision on the server "
                                             "but text in this schema; changing a property's type is not an additive change")
    assert closed.value.code == 4225
    assert cluster.psql("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                        "WHERE attrelid = '\"Reading\"'::regclass AND attname = 'celsius'", database) == [["double precision"]]


def test_a_client_id_stays_with_the_user_who_first_used_it(cluster: PostgresCluster, database: str, keys: Keys,
                                                           services: Callable[..., list[SyncService]]) -> None:
    (service,) = services(1)
    shared = client_id()
    with SyncClient(service.url) as client:
        client.hello(keys.token("ann"), shared, SCHEMA)
    with SyncClient(service.url) as client, pytest.raises(Closed) as closed:
        client.hello(keys.token("bob"), shared, SCHEMA)
    assert closed.value.error is not None and closed.value.error["code"] == 206
    assert closed.value.error["message"] == (f"client id '{shared}' belongs to another user; a client file is bound "
                                             "to the user who first synced it")
    assert cluster.psql("SELECT user_id FROM drumlin_sync.clients", database) == [["ann"]]
