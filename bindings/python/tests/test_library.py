"""Finding and checking libdrumlin, and the package's public surface."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import drumlin
from drumlin import _ffi, _library

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


HEADER = PACKAGE_ROOT.parents[1] / "include" / "drumlin.h"


def header_define(name: str) -> str:
    import re

    found = re.search(rf"^#define {name}\s+(\S+)", HEADER.read_text(), re.MULTILINE)
    assert found, name
    return found.group(1).strip('"')


def test_the_version_and_abi_version_are_the_headers() -> None:
    version, abi = header_define("DRUMLIN_VERSION"), int(header_define("DRUMLIN_ABI_VERSION"))
    assert drumlin.__version__ == version
    assert drumlin.library_version() == version
    assert drumlin.ABI_VERSION == _ffi.drumlin_abi_version() == abi
    major, minor, patch = (int(part) for part in version.split("."))
    assert int(header_define("DRUMLIN_VERSION_NUMBER")) == major * 1_000_000 + minor * 1000 + patch
    assert Path(drumlin.library_path()).is_file()


def test_the_version_module_is_generated_from_the_header() -> None:
    if not HEADER.is_file():
        pytest.skip("not running from a source checkout")
    script = HEADER.parents[1] / "tools" / "gen-python-version.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_abi_mismatch_is_an_import_error_naming_both_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_library, "ABI_VERSION", 99)
    with pytest.raises(
        ImportError, match=r"has ABI version 1, but this drumlin package needs ABI version 99"
    ):
        _library._check_abi()


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "DRUMLIN_LIBRARY"}
    environment.update(env)
    if Path(drumlin.__file__).is_relative_to(PACKAGE_ROOT):  # the source tree, not an installed copy
        environment["PYTHONPATH"] = str(PACKAGE_ROOT)
    return subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=False
    )


def test_drumlin_library_variable_is_honoured_and_reported(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "libdrumlin.so"
    result = run_python("import drumlin", DRUMLIN_LIBRARY=str(missing))
    assert result.returncode != 0
    assert "ImportError: drumlin: cannot load DRUMLIN_LIBRARY=" in result.stderr
    assert str(missing) in result.stderr

    found = run_python(
        "import drumlin; print(drumlin.library_path())", DRUMLIN_LIBRARY=drumlin.library_path()
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == drumlin.library_path()


def test_public_names() -> None:
    for name in drumlin.__all__:
        assert hasattr(drumlin, name), name
    assert "Database" in drumlin.__all__ and "open" in drumlin.__all__
    assert not any(name.startswith("_") and name != "__version__" for name in drumlin.__all__)


def test_package_is_typed() -> None:
    assert (Path(drumlin.__file__).parent / "py.typed").is_file()


def test_every_header_function_is_declared_once() -> None:
    header = HEADER
    if not header.is_file():
        pytest.skip("not running from a source checkout")
    import re

    declared = set(re.findall(r"^[a-z_ ]+?\**\s*\**(drumlin_[a-z0-9_]+)\(", header.read_text(), re.M))
    # _library declares the "Library" section (it reads the last error message), _ffi the rest.
    package = Path(_ffi.__file__).parent
    source = (package / "_library.py").read_text() + (package / "_ffi.py").read_text()
    assert len(declared) > 40
    for name in declared:
        assert source.count(f'"{name}"') == 1, name
        assert hasattr(_ffi, name), name


def test_interpreter_exit_with_open_databases_and_live_objects_is_clean(tmp_path: Path) -> None:
    code = f"""
import drumlin
schema = [{{"name": "P", "primaryKey": "_id", "properties": {{"_id": "int", "name": "string"}}}}]
db = drumlin.open({str(tmp_path / "exit.drumlin")!r}, schema)
with db.write():
    objects = [db.create("P", {{"_id": i, "name": "x"}}) for i in range(100)]
closed = drumlin.open(":memory:", schema)
with closed.write():
    orphan = closed.create("P", {{"_id": 1, "name": "y"}})
closed.close()
cycle = [db, objects]
cycle.append(cycle)
db.write().__enter__()   # even a write left open at exit
import threading
other = drumlin.open(":memory:", schema)
entered = threading.Event()
def stuck():
    with other.write():
        entered.set()
        threading.Event().wait()   # a daemon thread that never leaves its write() block
threading.Thread(target=stuck, daemon=True).start()
entered.wait()
print("done")
"""
    result = run_python(code, DRUMLIN_LIBRARY=drumlin.library_path())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done"
    assert result.stderr == ""
    with drumlin.open(
        tmp_path / "exit.drumlin",
        [{"name": "P", "primaryKey": "_id", "properties": {"_id": "int", "name": "string"}}],
    ) as db:
        assert db.count("P") == 100


def test_drumlin_value_has_the_c_layout() -> None:
    import ctypes

    assert ctypes.sizeof(_ffi.drumlin_value) == 24
    assert _ffi.drumlin_value.as_.offset == 8
    assert ctypes.sizeof(_ffi.drumlin_property_info) == 48


def test_help_names_the_docs_folder_and_it_has_the_pages() -> None:
    """help(drumlin) points at documentation that exists: the docs installed with the package, or a
    checkout's docs/ folder."""
    found = re.search(r"Documentation, in (\S+) \(", drumlin.__doc__ or "")
    assert found, drumlin.__doc__
    folder = Path(found.group(1))
    assert folder.is_absolute() and folder.name == "docs"
    for page in ("python.md", "schema.md", "queries.md", "relationships.md", "migrations.md",
                 "notifications.md", "cli.md"):
        assert (folder / page).is_file(), page
