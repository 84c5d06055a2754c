"""The feature pages' code runs as written: for each page, its Python blocks in order are one
program (run against the library as built), each C block is a whole program (compiled against
include/drumlin.h and run), and its Swift blocks in order type-check against the Drumlin module."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PAGES = ["notifications.md"]
LIBRARY_DIR = ROOT / ".build" / "release"


def blocks(page: str, language: str) -> list[str]:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("page", PAGES)
def test_python_blocks_run(page: str, tmp_path: Path) -> None:
    program = tmp_path / "example.py"
    program.write_text("\n".join(blocks(page, "python")), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"),
               DRUMLIN_LIBRARY=str(LIBRARY_DIR / "libdrumlin.so"))
    result = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]


@pytest.mark.parametrize("page", PAGES)
def test_c_blocks_compile_and_run(page: str, tmp_path: Path) -> None:
    found = blocks(page, "c")
    assert found, f"docs/{page} has no C block"
    for i, code in enumerate(found):
        source = tmp_path / f"example{i}.c"
        source.write_text(code, encoding="utf-8")
        binary = tmp_path / f"example{i}"
        compiled = subprocess.run(
            ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", str(ROOT / "include"), str(source),
             "-L", str(LIBRARY_DIR), "-ldrumlin", f"-Wl,-rpath,{LIBRARY_DIR}", "-o", str(binary)],
            capture_output=True, text=True)
        assert compiled.returncode == 0, compiled.stderr[-4000:]
        ran = subprocess.run([str(binary)], capture_output=True, text=True, cwd=tmp_path)
        assert ran.returncode == 0, ran.stdout + ran.stderr


@pytest.mark.parametrize("page", PAGES)
def test_swift_blocks_type_check(page: str, tmp_path: Path) -> None:
    found = blocks(page, "swift")
    assert found, f"docs/{page} has no Swift block"
    program = tmp_path / "main.swift"
    program.write_text("\n".join(found), encoding="utf-8")
    modules = ROOT / ".build" / "debug" / "Modules"
    if not (modules / "Drumlin.swiftmodule").exists():
        pytest.fail(f"no Drumlin module under {modules}: run `swift build` first (make test does)")
    flags = ["-I", str(modules)]
    for module_map in sorted((ROOT / "Sources").glob("*/module.modulemap")):
        flags += ["-Xcc", f"-fmodule-map-file={module_map}"]
    result = subprocess.run(["swiftc", "-typecheck", "-swift-version", "5", *flags, str(program)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]
