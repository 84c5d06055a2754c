"""docs/migrations.md's C example compiles (-Wall -Wextra -Werror) and runs against the library as
built, and its Swift example type-checks against the Swift module (`swift build`)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "migrations.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_c_example_compiles_and_migrates(tmp_path: Path) -> None:
    [code] = blocks("c")
    library = ROOT / ".build" / "release" / "libdrumlin.so"
    if not library.exists():
        pytest.fail(f"no {library}: run `make lib` first (make test does)")
    source = tmp_path / "migrations.c"
    source.write_text(code, encoding="utf-8")
    program = tmp_path / "migrations"
    subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", str(ROOT / "include"), str(source),
                    "-o", str(program), str(library), f"-Wl,-rpath,{library.parent}"], check=True)
    result = subprocess.run([str(program), str(tmp_path / "people.drumlin")], capture_output=True, text=True,
                            env={**os.environ})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["migrating from version 1", '{"id":1,"full_name":"Ann Lee"}']


def test_the_swift_example_type_checks(tmp_path: Path) -> None:
    [code] = blocks("swift")
    program = tmp_path / "main.swift"
    program.write_text(code, encoding="utf-8")
    modules = ROOT / ".build" / "debug" / "Modules"
    if not (modules / "Drumlin.swiftmodule").exists():
        pytest.fail(f"no Drumlin module under {modules}: run `swift build` first (make test does)")
    flags = ["-I", str(modules)]
    for module_map in sorted((ROOT / "Sources").glob("*/module.modulemap")):
        flags += ["-Xcc", f"-fmodule-map-file={module_map}"]
    result = subprocess.run(["swiftc", "-typecheck", "-swift-version", "5", *flags, str(program)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]
