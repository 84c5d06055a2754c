"""The SwiftPM targets are layers whose dependencies run one way, read from Package.swift as
SwiftPM sees it (`swift package dump-package`):

    CSQLite  <-  DrumlinCrypt (the encrypting SQLite VFS, C over libcrypto)  <-  DrumlinStorage
    DrumlinValues  <-  DrumlinSchema  <-  DrumlinStorage  <-  DrumlinEngine  <-  Drumlin   (the Swift face, `import Drumlin`)
                                                                              <-  DrumlinC  (the C exports, libdrumlin.so)
    DrumlinValues  <-  DrumlinSyncProtocol  (the sync protocol's frames, shared by service and client)
    CWebSockets  <-  DrumlinWebSocket  <-  DrumlinSyncTransport  (the sync client's WebSocket/TLS
                     transport: libwebsockets, its C owner, the Swift face; beside the protocol, below
                     the client; nothing in the engine's layers depends on it)
    DrumlinEngine, DrumlinSyncProtocol, DrumlinSyncTransport  <-  DrumlinSync  <-  DrumlinC  (the sync
                     client: the session thread over the engine's upload queue)
                                                                             <-  Drumlin  (its Swift face:
                     `Realm.Configuration.syncConfiguration`, `Realm.syncSession`)
    Drumlin  <-  SwiftIngestClient  (Tests/sync/clients/swift: the Swift client the sync tests run)
    DrumlinSchema, DrumlinSyncProtocol  <-  DrumlinSyncService  (drumlin-sync, with the server packages)

The engine's four targets are its layers: values (Value, JSON, decimals, errors), schema, storage
(SQLite connection, statements, tables, SQL functions; below it DrumlinCrypt, the VFS that
encrypts files, in C), and DrumlinEngine (Database: opening files,
objects, queries, notifications, migrations). The compiler enforces the order: a lower layer cannot
import a higher one. DrumlinC does not depend on Drumlin, nor Drumlin on DrumlinC; the engine knows
neither, nor the C ABI (CDrumlinHeader). Only the service depends on other packages (Hummingbird,
PostgresNIO, ...): nothing the engine, the C library or the Swift face builds links them. Each test target depends on the target it tests and on
layers below it; DrumlinEngineTests tests all four engine targets (one target, a folder per layer).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A target may depend only on targets of a lower layer. The header and the link shims sit beside
# the engine, not below it: the engine cannot see the C ABI.
LAYER = {
    "CSQLite": 0,
    "DrumlinValues": 0,
    "DrumlinSchema": 1,
    "DrumlinCrypt": 1,
    "DrumlinStorage": 2,
    "DrumlinEngine": 3,
    "CDrumlinHeader": 3,
    "DrumlinLinkCompat": 3,
    "Drumlin": 5,
    "DrumlinC": 5,
    "DrumlinSync": 4,
    "DrumlinSyncProtocol": 1,
    "CWebSockets": 0,
    "DrumlinWebSocket": 1,
    "DrumlinSyncTransport": 2,
    "DrumlinSyncService": 5,
    "SwiftIngestClient": 6,
}

# The targets that may use other packages' products: the service alone.
USES_PACKAGES = {"DrumlinSyncService"}

# Each test target and the target it tests (the highest of them: the engine's one test target
# tests every engine layer, DrumlinEngine and the three below it).
TESTS = {
    "DrumlinEngineTests": "DrumlinEngine",
    "DrumlinTests": "Drumlin",
    "DrumlinCTests": "DrumlinC",
    "DrumlinSyncProtocolTests": "DrumlinSyncProtocol",
    "DrumlinSyncTransportTests": "DrumlinSyncTransport",
}


def dependencies(target: dict[str, Any]) -> list[str]:
    """The names a target depends on, whatever the form (byName, target or product)."""
    names = []
    for dependency in target["dependencies"]:
        ((kind, value),) = dependency.items()
        names.append(value[0] if kind != "product" else f"product {value[0]} of {value[1]}")
    return names


def layer_violations(manifest: dict[str, Any]) -> list[str]:
    problems = []
    for target in manifest["targets"]:
        name = target["name"]
        if target["type"] == "test":
            tested = TESTS.get(name)
            if tested is None:
                problems.append(f"test target {name} is not in TESTS: say which target it tests")
                continue
            if tested not in dependencies(target):
                problems.append(f"{name} does not depend on {tested}, the target it tests")
            ceiling = LAYER[tested]
            for dependency in dependencies(target):
                if dependency != tested and LAYER.get(dependency, ceiling) >= ceiling:
                    problems.append(f"{name} depends on {dependency}, which is not below {tested}")
            continue
        if name not in LAYER:
            problems.append(f"target {name} is not in LAYER: give it a layer")
            continue
        for dependency in dependencies(target):
            if dependency.startswith("product ") and name in USES_PACKAGES:
                continue
            if dependency not in LAYER:
                problems.append(f"{name} depends on {dependency}, which is not a target of this package")
            elif LAYER[dependency] >= LAYER[name]:
                problems.append(f"{name} depends on {dependency}, which is not in a lower layer")
    return problems


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    swift = shutil.which("swift")
    if swift is None:
        pytest.skip("the Swift toolchain is not on PATH (swift package dump-package reads Package.swift)")
    result = subprocess.run([swift, "package", "dump-package"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


def test_every_target_depends_only_on_lower_layers(manifest: dict[str, Any]) -> None:
    assert {t["name"] for t in manifest["targets"] if t["type"] != "test"} == set(LAYER)
    assert layer_violations(manifest) == []


def test_the_products_are_the_swift_face_and_the_c_library(manifest: dict[str, Any]) -> None:
    products = {p["name"]: p["targets"] for p in manifest["products"]}
    assert products == {"Drumlin": ["Drumlin"], "drumlin": ["DrumlinC"], "drumlin-sync": ["DrumlinSyncService"]}


def test_the_check_reports_an_upward_or_sideways_dependency(manifest: dict[str, Any]) -> None:
    # The manifest with the dependencies this test forbids: each one is reported by name.
    broken = json.loads(json.dumps(manifest))
    targets = {t["name"]: t for t in broken["targets"]}
    targets["DrumlinSync"]["dependencies"].append({"byName": ["Drumlin", None]})  # upward: 4 to 5
    targets["DrumlinEngine"]["dependencies"].append({"byName": ["CDrumlinHeader", None]})
    targets["DrumlinEngineTests"]["dependencies"].append({"byName": ["DrumlinC", None]})
    # Inside the engine: storage reaching up into the top layer, values into schema.
    targets["DrumlinStorage"]["dependencies"].append({"byName": ["DrumlinEngine", None]})
    targets["DrumlinValues"]["dependencies"].append({"byName": ["DrumlinSchema", None]})
    # A server package reaching into the engine (it would link NIO into libdrumlin.so).
    targets["DrumlinEngine"]["dependencies"].append({"product": ["NIOCore", "swift-nio", None, None]})
    assert layer_violations(broken) == [
        "DrumlinValues depends on DrumlinSchema, which is not in a lower layer",
        "DrumlinStorage depends on DrumlinEngine, which is not in a lower layer",
        "DrumlinEngine depends on CDrumlinHeader, which is not in a lower layer",
        "DrumlinEngine depends on product NIOCore of swift-nio, which is not a target of this package",
        "DrumlinSync depends on Drumlin, which is not in a lower layer",
        "DrumlinEngineTests depends on DrumlinC, which is not below DrumlinEngine",
    ]


def test_the_engine_layers_are_a_chain(manifest: dict[str, Any]) -> None:
    # Each engine layer depends on the one below it: a layer cannot be skipped into a sibling.
    targets = {t["name"]: dependencies(t) for t in manifest["targets"]}
    chain = ["DrumlinValues", "DrumlinSchema", "DrumlinStorage", "DrumlinEngine"]
    for lower, upper in zip(chain, chain[1:]):
        assert lower in targets[upper], f"{upper} does not depend on {lower}"


def test_the_storage_layer_opens_files_through_the_encrypting_vfs(manifest: dict[str, Any]) -> None:
    # The VFS is engine code below storage: only the storage layer (and the engine's tests) use it.
    targets = {t["name"]: dependencies(t) for t in manifest["targets"]}
    users = sorted(name for name, deps in targets.items() if "DrumlinCrypt" in deps)
    assert users == ["DrumlinEngineTests", "DrumlinStorage"]
    assert targets["DrumlinCrypt"] == ["CSQLite"]
