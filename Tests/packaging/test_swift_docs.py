"""docs/swift.md's code type-checks against the Swift module as built (`swift build`): its Swift
blocks, in order, are one program (the later blocks are fragments of the page's running example)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "swift.md"


def test_docs_swift_md_type_checks(tmp_path: Path) -> None:
    blocks = re.findall(r"```swift\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) >= 2, "docs/swift.md has no Swift blocks"
    program = tmp_path / "main.swift"
    program.write_text("\n".join(blocks), encoding="utf-8")
    modules = ROOT / ".build" / "debug" / "Modules"
    if not (modules / "Drumlin.swiftmodule").exists():
        pytest.fail(f"no Drumlin module under {modules}: run `swift build` first (make test does)")
    flags = ["-I", str(modules)]
    for module_map in sorted((ROOT / "Sources").glob("*/module.modulemap")):
        flags += ["-Xcc", f"-fmodule-map-file={module_map}"]
    result = subprocess.run(["swiftc", "-typecheck", "-swift-version", "5", *flags, str(program)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]
