"""Finding and checking libcairn, and the package's public surface."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import cairn
from cairn import _ffi

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def test_versions() -> None:
    assert cairn.__version__ == "0.1.0"
    assert cairn.ABI_VERSION == 1
    assert cairn.library_version() == "0.1.0"
    assert _ffi.cairn_abi_version() == cairn.ABI_VERSION
    assert Path(cairn.library_path()).is_file()


def test_abi_mismatch_is_an_import_error_naming_both_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ffi, "ABI_VERSION", 99)
    with pytest.raises(ImportError, match=r"has ABI version 1, but this cairn package needs ABI version 99"):
        _ffi._check_abi()


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "CAIRN_LIBRARY"}
    environment.update(env)
    environment["PYTHONPATH"] = str(PACKAGE_ROOT)
    return subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=False
    )


def test_cairn_library_variable_is_honoured_and_reported(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "libcairn.so"
    result = run_python("import cairn", CAIRN_LIBRARY=str(missing))
    assert result.returncode != 0
    assert "ImportError: cairn: cannot load CAIRN_LIBRARY=" in result.stderr
    assert str(missing) in result.stderr

    found = run_python("import cairn; print(cairn.library_path())", CAIRN_LIBRARY=cairn.library_path())
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == cairn.library_path()


def test_public_names() -> None:
    for name in cairn.__all__:
        assert hasattr(cairn, name), name
    assert "Database" in cairn.__all__ and "open" in cairn.__all__
    assert not any(name.startswith("_") and name != "__version__" for name in cairn.__all__)


def test_package_is_typed() -> None:
    assert (Path(cairn.__file__).parent / "py.typed").is_file()


def test_every_header_function_is_declared_once() -> None:
    header = PACKAGE_ROOT.parents[1] / "include" / "cairn.h"
    if not header.is_file():
        pytest.skip("not running from a source checkout")
    import re

    declared = set(re.findall(r"^[a-z_ ]+?\**\s*\**(cairn_[a-z0-9_]+)\(", header.read_text(), re.M))
    source = (Path(_ffi.__file__)).read_text()
    assert len(declared) > 40
    for name in declared:
        assert source.count(f'"{name}"') == 1, name
        assert hasattr(_ffi, name), name
