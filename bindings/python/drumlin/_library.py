"""Finds and loads libdrumlin, checks its ABI version, and turns failed statuses into exceptions.

This is the bottom of the C layer: ``_ffi`` declares the header's types and functions on top of
it with :func:`_fn`. Functions returning a status get ``errcheck=_check``: ``DRUMLIN_OK`` and
``DRUMLIN_NOT_FOUND`` pass through as the call's result, any other status raises the matching
exception from ``_errors`` with the thread's last error message (read with the "Library" section's
functions, declared here for that reason).

The library is found via ``DRUMLIN_LIBRARY``, then the copy bundled inside the package, then the
repository's build trees (when the package runs from a source checkout), then the system search
path. Its ``drumlin_abi_version()`` must equal :data:`ABI_VERSION`, else importing fails.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import c_char_p, c_int, c_void_p
from pathlib import Path
from typing import Any

from . import _errors
from ._constants import DRUMLIN_NOT_FOUND
from ._version import ABI_VERSION as ABI_VERSION  # the ABI this package speaks (from drumlin.h)

_LIBRARY_FILE = {"darwin": "libdrumlin.dylib", "win32": "drumlin.dll"}.get(sys.platform, "libdrumlin.so")

# ---- Finding and loading the library -------------------------------------------------------------


def _candidates() -> list[Path]:
    """Where to look, in order, when ``DRUMLIN_LIBRARY`` is not set."""
    here = Path(__file__).resolve().parent
    found = [here / _LIBRARY_FILE]
    # bindings/python/drumlin -> the repository root, when running from a checkout.
    root = here.parent.parent.parent
    if (root / "include" / "drumlin.h").is_file():
        for build in (".build/release", ".build/debug", "build"):
            found.append(root / build / _LIBRARY_FILE)
    return found


def _load() -> tuple[ctypes.CDLL, str]:
    explicit = os.environ.get("DRUMLIN_LIBRARY")
    if explicit:
        # An explicit choice is honoured or reported, never silently replaced by another copy.
        try:
            return ctypes.CDLL(explicit), explicit
        except OSError as error:
            raise ImportError(f"drumlin: cannot load DRUMLIN_LIBRARY={explicit!r}: {error}") from None
    tried = []
    for path in _candidates():
        if path.is_file():
            try:
                return ctypes.CDLL(str(path)), str(path)
            except OSError as error:
                tried.append(f"{path} ({error})")
        else:
            tried.append(str(path))
    system = ctypes.util.find_library("drumlin")
    if system:
        try:
            return ctypes.CDLL(system), system
        except OSError as error:
            tried.append(f"{system} ({error})")
    raise ImportError(
        "drumlin: libdrumlin not found. Set DRUMLIN_LIBRARY to the path of "
        f"{_LIBRARY_FILE}, install the package with `pip install ./bindings/python`, or build it "
        "with `tools/build-library.sh` in the repository. Tried: " + ", ".join(tried or ["nothing"])
    )


lib, LIBRARY_PATH = _load()


def _check_abi() -> None:
    # Checked before anything else is declared, so an old library fails here with a clear message
    # rather than on a missing symbol.
    try:
        abi_version = lib.drumlin_abi_version
    except AttributeError:
        raise ImportError(f"drumlin: {LIBRARY_PATH} is not libdrumlin (no drumlin_abi_version)") from None
    abi_version.argtypes = []
    abi_version.restype = c_int
    found = abi_version()
    if found != ABI_VERSION:
        raise ImportError(
            f"drumlin: {LIBRARY_PATH} has ABI version {found}, but this drumlin package needs ABI "
            f"version {ABI_VERSION}; use a matching libdrumlin (set DRUMLIN_LIBRARY) or reinstall "
            "the package"
        )


_check_abi()

# ---- Status checking ---------------------------------------------------------------------------


def _raise(status: int) -> None:
    """Raise the exception for a failed ``status``, with this thread's last error message."""
    raw = drumlin_last_error_message()
    message = raw.decode("utf-8", "replace") if raw else ""
    raise _errors.error_for(status, message)


CALLS = [0]
"""How many checked calls this process has made into the library (one cell, bumped by every call
declared with a status: every commit, by any database, is one). Results of ``db.query`` answer
from the rows read with the query only while it is unchanged (results.py)."""


def _check(status: int, func: Any, args: Any) -> int:
    CALLS[0] += 1
    if status > DRUMLIN_NOT_FOUND:
        _raise(status)
    return status


def _check_not_null(result: Any, func: Any, args: Any) -> Any:
    if not result:
        raise MemoryError(f"{func.__name__} returned NULL")
    return result


def _fn(name: str, argtypes: list[Any], restype: Any = c_int, errcheck: Any = _check) -> Any:
    func = getattr(lib, name)
    func.argtypes = argtypes
    func.restype = restype
    if errcheck is not None:
        func.errcheck = errcheck
    return func


# ---- Library -----------------------------------------------------------------------------------

# const char *drumlin_version(void);   -- cannot fail
drumlin_version = _fn("drumlin_version", [], c_char_p, None)
# int drumlin_abi_version(void);   -- cannot fail
drumlin_abi_version = _fn("drumlin_abi_version", [], c_int, None)
# int drumlin_last_error_code(void);   -- cannot fail
drumlin_last_error_code = _fn("drumlin_last_error_code", [], c_int, None)
# const char *drumlin_last_error_message(void);   -- cannot fail; borrowed, copied by ctypes
drumlin_last_error_message = _fn("drumlin_last_error_message", [], c_char_p, None)
# const char *drumlin_status_name(int status);   -- cannot fail, static
drumlin_status_name = _fn("drumlin_status_name", [c_int], c_char_p, None)
# void drumlin_free(void *ptr);
drumlin_free = _fn("drumlin_free", [c_void_p], None, None)
