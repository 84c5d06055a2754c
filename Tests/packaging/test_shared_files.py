"""One file for every language: the file the Swift example writes through its model classes
(examples/swift, `import Drumlin`) opens from Python, and through Python from the C library,
without being told its schema. The other direction (a file written through the JSON schema read by
Swift models) is Tests/DrumlinTests/SharedFileTests.swift."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, run


def test_a_file_written_by_swift_models_opens_from_python(tmp_path: Path) -> None:
    path = tmp_path / "swift.drumlin"
    scratch = ROOT / "build" / "swift-example"
    # SwiftPM keeps a nested package's build plan when this checkout gains a source folder.
    (scratch / "debug.yaml").unlink(missing_ok=True)
    run(["swift", "run", "--package-path", ROOT / "examples" / "swift", "--scratch-path", scratch, "quickstart", path])
    env = {**os.environ, "DRUMLIN_LIBRARY": str(ROOT / ".build" / "release" / "libdrumlin.so"),
           "PYTHONPATH": str(ROOT / "bindings" / "python")}
    code = f"""
import json, drumlin
with drumlin.open({str(path)!r}) as db:
    classes = sorted(entry["name"] for entry in db.schema)
    people = [p.to_dict() for p in db.objects("Person").sort("id")]
    dogs = sorted((d.name, d.age) for d in db.objects("Dog"))
    owners = [o.name for o in db.objects("Dog").filter("name == 'Rex'")[0].owners]
    print(json.dumps({{"classes": classes, "people": people, "dogs": dogs, "owners": owners}}, default=str))
"""
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["classes"] == ["Address", "Dog", "Person"]
    assert [p["name"] for p in seen["people"]] == ["Ann", "Robert"]
    assert seen["people"][0]["address"]["city"] == "Oslo"
    assert seen["dogs"] == [["Bo", 1], ["Rex", 3]]
    assert seen["owners"] == ["Ann"]
    # The drumlin command (the C library through Python) reads it too.
    info = subprocess.run([sys.executable, "-m", "drumlin", "info", str(path)], env=env, capture_output=True, text=True)
    assert info.returncode == 0, info.stderr
    assert "Person" in info.stdout and "Dog" in info.stdout
