"""The ```js blocks of the docs (test_docs.py states the convention): a page's blocks, in order, are
one ES module program that runs with `node` against this checkout's bindings/node as `drumlin`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from docs_blocks import PAGES, ROOT, blocks

NODE_PACKAGE = ROOT / "bindings" / "node"
JS_PAGES = [page for page in PAGES if blocks(page, "js")]


def test_the_javascript_page_has_a_program() -> None:
    assert "docs/javascript.md" in JS_PAGES


@pytest.mark.parametrize("page", JS_PAGES)
def test_javascript_program_runs(page: str, tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.fail("node is not installed (apt-get install -y nodejs)")
    if not (NODE_PACKAGE / "build" / "drumlin.node").exists():
        pytest.fail(f"no {NODE_PACKAGE}/build/drumlin.node: run `make node` first")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "drumlin").symlink_to(NODE_PACKAGE)
    (tmp_path / "package.json").write_text('{ "type": "module" }\n', encoding="utf-8")
    program = tmp_path / "program.mjs"
    program.write_text("".join(b.code for b in blocks(page, "js")), encoding="utf-8")
    ran = subprocess.run(["node", str(program)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
