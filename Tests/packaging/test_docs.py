"""The docs' code runs as written. For each page: its Swift blocks, in order, are one program that
type-checks against the Drumlin module as built (`swift build`; later blocks are fragments of the
page's running example); each C block is a whole program, compiled with -Wall -Wextra -Werror
against include/drumlin.h and run against the library as built; the Python blocks of the feature
pages, in order, are one program run against the package and library of this checkout
(docs/python.md's and docs/migrations.md's Python are run by the Python suite)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

LIBRARY = ROOT / ".build" / "release" / "libdrumlin.so"
SWIFT_PAGES = ["swift.md", "notifications.md", "migrations.md"]
C_PAGES = ["notifications.md", "migrations.md"]
PYTHON_PAGES = ["notifications.md"]
# What a C example prints, where the page shows it.
C_OUTPUT = {"migrations.md": ["migrating from version 1", '{"id":1,"full_name":"Ann Lee"}']}


def blocks(page: str, language: str) -> list[str]:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    found = re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)
    assert found, f"docs/{page} has no {language} block"
    return found


@pytest.mark.parametrize("page", SWIFT_PAGES)
def test_swift_blocks_type_check(page: str, tmp_path: Path) -> None:
    program = tmp_path / "main.swift"
    program.write_text("\n".join(blocks(page, "swift")), encoding="utf-8")
    modules = ROOT / ".build" / "debug" / "Modules"
    if not (modules / "Drumlin.swiftmodule").exists():
        pytest.fail(f"no Drumlin module under {modules}: run `swift build` first (make test does)")
    flags = ["-I", str(modules)]
    for module_map in sorted((ROOT / "Sources").glob("*/module.modulemap")):
        flags += ["-Xcc", f"-fmodule-map-file={module_map}"]
    result = subprocess.run(["swiftc", "-typecheck", "-swift-version", "5", *flags, str(program)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]


@pytest.mark.parametrize("page", C_PAGES)
def test_c_blocks_compile_and_run(page: str, tmp_path: Path) -> None:
    if not LIBRARY.exists():
        pytest.fail(f"no {LIBRARY}: run `make lib` first (make test does)")
    for i, code in enumerate(blocks(page, "c")):
        source = tmp_path / f"example{i}.c"
        source.write_text(code, encoding="utf-8")
        binary = tmp_path / f"example{i}"
        compiled = subprocess.run(
            ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", str(ROOT / "include"), str(source),
             "-o", str(binary), str(LIBRARY), f"-Wl,-rpath,{LIBRARY.parent}"],
            capture_output=True, text=True)
        assert compiled.returncode == 0, compiled.stderr[-4000:]
        ran = subprocess.run([str(binary), str(tmp_path / f"example{i}.drumlin")], capture_output=True, text=True,
                             cwd=tmp_path)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        if page in C_OUTPUT:
            assert ran.stdout.splitlines() == C_OUTPUT[page]


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_python_blocks_run(page: str, tmp_path: Path) -> None:
    program = tmp_path / "example.py"
    program.write_text("\n".join(blocks(page, "python")), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), DRUMLIN_LIBRARY=str(LIBRARY))
    result = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]
