"""include/drumlin.h is the one source of the status codes and the other integer constants: the
package's copies are generated from it (tools/gen-python-constants.py -> drumlin/_constants.py),
and these tests fail when the header and the package, the library or the docs disagree."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import drumlin
from drumlin import _constants, _errors, _ffi

ROOT = Path(__file__).resolve().parents[3]
HEADER = ROOT / "include" / "drumlin.h"
VERSION_DEFINES = {"DRUMLIN_VERSION", "DRUMLIN_VERSION_NUMBER", "DRUMLIN_ABI_VERSION"}

needs_checkout = pytest.mark.skipif(not HEADER.is_file(), reason="not running from a source checkout")


def header_constants() -> dict[str, int]:
    """Every integer ``#define DRUMLIN_*`` of the header but the versions, read here on its own
    (not with the generator's code)."""
    found = re.findall(r"^#define (DRUMLIN_\w+)\s+(-?\d+)\b", HEADER.read_text(), re.MULTILINE)
    return {name: int(value) for name, value in found if name not in VERSION_DEFINES}


def header_status_codes() -> dict[str, int]:
    return {
        name: value
        for name, value in header_constants().items()
        if name in ("DRUMLIN_OK", "DRUMLIN_NOT_FOUND") or name.startswith("DRUMLIN_ERR_")
    }


def module_constants(module: object) -> dict[str, int]:
    return {
        name: value
        for name, value in vars(module).items()
        if name.startswith("DRUMLIN_") and type(value) is int
    }


@needs_checkout
def test_the_constants_module_is_generated_from_the_header() -> None:
    script = ROOT / "tools" / "gen-python-constants.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@needs_checkout
def test_every_header_constant_is_in_the_package_with_its_number_and_no_other() -> None:
    header = header_constants()
    assert len(header) > 60 and header["DRUMLIN_OK"] == 0
    assert module_constants(_constants) == header
    assert module_constants(_ffi) == header  # re-exported beside the functions


@needs_checkout
def test_status_names_are_the_headers_and_the_librarys() -> None:
    header = header_status_codes()
    assert {value: name for name, value in header.items()} == _constants.STATUS_NAMES
    for name, value in header.items():
        assert _ffi.drumlin_status_name(value).decode() == name


@needs_checkout
def test_each_error_code_of_the_header_raises_an_exception_of_that_code_and_name() -> None:
    codes = {name: value for name, value in header_status_codes().items() if name.startswith("DRUMLIN_ERR_")}
    classes = set()
    for name, value in codes.items():
        error = _errors.error_for(value, "m")
        assert (error.code, error.status_name) == (value, name)
        assert type(error).code == value
        classes.add(type(error))
    # One class per code; DRUMLIN_ERR_INTERNAL is the base class itself.
    assert len(classes) == len(codes)
    assert type(_errors.error_for(codes["DRUMLIN_ERR_INTERNAL"], "m")) is drumlin.DrumlinError
    # And no exception class claims a code the header does not have.
    exported = [getattr(drumlin, name) for name in drumlin.__all__]
    claimed = {c.code for c in exported if isinstance(c, type) and issubclass(c, drumlin.DrumlinError)}
    assert claimed <= set(codes.values())


@needs_checkout
def test_the_docs_tables_of_status_codes_are_the_headers() -> None:
    header = header_status_codes()
    docs = ROOT / "docs"
    c_api = re.findall(r"^\| (\d+) \| `(DRUMLIN_\w+)` \|", (docs / "c-api.md").read_text(), re.MULTILINE)
    assert {name: int(value) for value, name in c_api} == header
    python = re.findall(r"^\| `(\w+Error)` \| (\d+) \|", (docs / "python.md").read_text(), re.MULTILINE)
    assert len(python) == len(header) - 2  # every error code, DrumlinError standing for INTERNAL
    for name, value in python:
        assert getattr(drumlin, name).code == int(value), name


def _generator() -> Any:
    script = ROOT / "tools" / "gen-python-constants.py"
    spec = importlib.util.spec_from_file_location("gen_python_constants", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_checkout
def test_the_generator_refuses_a_header_it_cannot_read_whole(tmp_path: Path) -> None:
    header = tmp_path / "drumlin.h"
    header.write_text("#define DRUMLIN_TYPE_INT 1\n")
    with pytest.raises(SystemExit, match=r"drumlin\.h: no status codes \(DRUMLIN_OK, DRUMLIN_ERR_\*\) found"):
        _generator().header_constants(header)
    header.write_text("#define DRUMLIN_OK 0\n#define DRUMLIN_ERR_MISUSE 2\n#define DRUMLIN_OK 1\n")
    with pytest.raises(SystemExit, match=r"drumlin\.h: defined more than once: DRUMLIN_OK"):
        _generator().header_constants(header)
    header.write_text("#define DRUMLIN_OK 0\n#define DRUMLIN_ERR_MISUSE 2\n#define DRUMLIN_LIMIT (1 << 4)\n")
    with pytest.raises(SystemExit, match=r"drumlin\.h: not a plain integer constant: #define DRUMLIN_LIMIT"):
        _generator().header_constants(header)
