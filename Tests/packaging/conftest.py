"""Fixtures for the packaging tests: the artifacts users install, used as users would use them.

    python -m pytest Tests/packaging --wheel-dir dist --cmake-build build     (make test-packaging)

Every program under test runs with the Swift toolchain out of reach: in a private mount namespace
(`unshare -m`) where an empty tmpfs covers the toolchain's directory, so a library that still
needed libswiftCore.so (or anything else from the toolchain) fails to load.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
import venv
from collections.abc import Sequence
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "include" / "drumlin.h"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--wheel-dir", default=str(ROOT / "dist"), help="where `make wheel` put the wheel")
    parser.addoption("--cmake-build", default=str(ROOT / "build"), help="a configured and built CMake tree")


def _generator() -> types.ModuleType:
    """tools/gen-python-version.py, which reads the versions from include/drumlin.h."""
    spec = importlib.util.spec_from_file_location("gen_python_version", ROOT / "tools" / "gen-python-version.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def versions() -> tuple[str, int]:
    """(DRUMLIN_VERSION, DRUMLIN_ABI_VERSION) from include/drumlin.h."""
    found: tuple[str, int] = _generator().header_versions(HEADER)
    return found


def run(args: Sequence[str | Path], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a command; fail the test with its output if it fails."""
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, args))} exited {result.returncode}\n"
            f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
        )
    return result  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def toolchain_dir() -> Path:
    """The Swift toolchain's root: two levels above the `swift` binary (…/usr/bin/swift)."""
    swift = shutil.which("swift")
    assert swift, "the packaging tests run where the toolchain is, to prove it is not needed"
    root = Path(swift).resolve().parents[2]
    assert (root / "usr" / "lib" / "swift").is_dir(), f"{root} does not look like a Swift toolchain"
    return root


Hidden = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def without_toolchain(toolchain_dir: Path) -> Hidden:
    """without_toolchain(args, cwd=..., env=...) runs a command with the toolchain's directory hidden.

    As root, in a new mount namespace; otherwise in a new user namespace too (`unshare -r`), where
    the kernel allows unprivileged ones."""
    probe_script = f"mount -t tmpfs none '{toolchain_dir}' && ls -A '{toolchain_dir}'"
    failures = []
    for unshare in (["unshare", "-m"], ["unshare", "-r", "-m"]):
        probe = subprocess.run([*unshare, "sh", "-c", probe_script], capture_output=True, text=True)
        if probe.returncode == 0:
            assert probe.stdout.strip() == "", "the tmpfs hides the toolchain"
            break
        failures.append(f"{' '.join(unshare)}: {probe.stderr.strip()}")
    else:
        pytest.fail(
            "hiding the toolchain needs a mount namespace: run as root, or enable unprivileged user "
            "namespaces (sysctl kernel.unprivileged_userns_clone=1). " + "; ".join(failures)
        )

    def hidden(
        args: Sequence[str | Path], hide_sqlite: bool = False, **kwargs: object
    ) -> subprocess.CompletedProcess[str]:
        """hide_sqlite: also cover the system's libsqlite3 with an empty file (the wheel brings its own)."""
        script = f'mount -t tmpfs none "{toolchain_dir}"'
        if hide_sqlite:
            for library in system_sqlite():
                script += f' && mount --bind /dev/null "{library}"'
        return run([*unshare, "sh", "-c", script + ' && exec "$@"', "sh", *args], **kwargs)

    return hidden


def system_sqlite() -> list[Path]:
    """The files of the system's libsqlite3.so.0 (the link's target, which the loader opens)."""
    found = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    paths = {Path(p).resolve() for p in re.findall(r"libsqlite3\.so\.0 \(libc6,x86-64\) => (\S+)", found)}
    return sorted(paths)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment less anything that points at this checkout's library or toolchain."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DRUMLIN_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH", "VIRTUAL_ENV")
    }
    env.update(extra)
    return env


def python_interpreters() -> list[Path]:
    """This Python and every other CPython 3.9+ on the machine (pyenv's, the system's), one per version."""
    found: dict[str, Path] = {}
    candidates = [Path(sys.executable)]
    candidates += sorted(Path.home().glob(".pyenv/versions/3.*/bin/python3"))
    candidates += sorted(Path("/usr/bin").glob("python3.[0-9]*"))
    for path in candidates:
        if not path.is_file() or not re.fullmatch(r"python3(\.\d+)?", path.name):
            continue
        result = subprocess.run(
            [str(path), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
        )
        version = result.stdout.strip()
        if result.returncode == 0 and tuple(map(int, version.split("."))) >= (3, 9):
            found.setdefault(version, path)
    return [found[v] for v in sorted(found, key=lambda v: tuple(map(int, v.split("."))))]


def make_venv(where: Path, python: Path) -> Path:
    """A fresh virtual environment made by `python`; returns its interpreter."""
    if Path(python) == Path(sys.executable):
        venv.create(where, with_pip=True, clear=True)
    else:
        run([python, "-m", "venv", "--clear", where])
    return where / "bin" / "python"
