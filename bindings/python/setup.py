"""Build step that bundles libcairn.so into the wheel (the rest is in pyproject.toml).

The library is taken from, in order:
  1. CAIRN_LIBRARY, if set;
  2. the repository's build tree, ../../.build/release/libcairn.so, if present;
  3. a fresh `swift build -c release --product cairn` at the repository root.
The wheel is platform-specific (py3-none-<platform>): it carries a native library, no Python ABI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIBRARY = {"darwin": "libcairn.dylib"}.get(sys.platform, "libcairn.so")
BUILT = ROOT / ".build" / "release" / LIBRARY


def find_library() -> Path:
    explicit = os.environ.get("CAIRN_LIBRARY")
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            sys.exit(f"cairn: CAIRN_LIBRARY={explicit} does not exist")
        return path
    if BUILT.is_file():
        return BUILT
    if (ROOT / "Package.swift").is_file() and shutil.which("swift"):
        print(f"cairn: building {LIBRARY} with `swift build -c release --product cairn` in {ROOT}")
        subprocess.run(["swift", "build", "-c", "release", "--product", "cairn"], cwd=ROOT, check=True)
        if BUILT.is_file():
            return BUILT
    sys.exit(
        f"cairn: cannot find {LIBRARY} to bundle. Build it at the repository root with "
        "`swift build -c release --product cairn`, or set CAIRN_LIBRARY to its path."
    )


class BuildPyWithLibrary(build_py):
    """build_py, then copy libcairn next to the package's modules."""

    def run(self) -> None:
        super().run()
        library = find_library()
        target = Path(self.build_lib) / "cairn" / LIBRARY
        target.parent.mkdir(parents=True, exist_ok=True)
        print(f"cairn: bundling {library}")
        shutil.copyfile(library, target)


class PlatformWheel(bdist_wheel):
    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self) -> tuple[str, str, str]:
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": PlatformWheel})
