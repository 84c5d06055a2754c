"""docs/migrations.md's Python example runs as written, against this source tree or the installed
package (test_typing.py type-checks it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
DOC = PACKAGE_ROOT.parents[1] / "docs" / "migrations.md"


def example(tmp_path: Path) -> Path:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1, "docs/migrations.md should have one Python example"
    program = tmp_path / "migrations_example.py"
    program.write_text(blocks[0], encoding="utf-8")
    return program


def test_the_python_example_runs(tmp_path: Path) -> None:
    env = {**os.environ}
    if not env.get("DRUMLIN_TEST_INSTALLED"):
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT), env.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, str(example(tmp_path))], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "migrating from 1 to 2",
        "{'id': 1, 'full_name': 'Ann Lee', 'age': 31}",
        "kept version 2: not today",
    ]
