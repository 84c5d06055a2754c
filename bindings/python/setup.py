"""Build step that bundles libdrumlin.so into the wheel (the rest is in pyproject.toml).

The library is always built from the sources this package sits beside, with the repository's
tools/build-library.sh (the one recipe for libdrumlin.so: Swift runtime linked statically, SONAME
libdrumlin.so.<ABI>). SwiftPM's build is incremental, so an unchanged tree costs a second or two and a
changed engine source is recompiled: a wheel never carries a library older than its sources.

pip hides a build backend's output; the build's progress is written to the terminal (/dev/tty)
when there is one, else to standard error (shown by `pip install -v`).

The wheel is platform-specific (py3-none-<platform>): it carries a native library, no Python ABI.
`make wheel` then lets auditwheel give it its manylinux tag.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BUILD_SCRIPT = ROOT / "tools" / "build-library.sh"
VERSION_SCRIPT = ROOT / "tools" / "gen-python-version.py"
CONSTANTS_SCRIPT = ROOT / "tools" / "gen-python-constants.py"
LIBRARY = "libdrumlin.so"
DOCS = ROOT / "docs"


@contextlib.contextmanager
def progress_stream() -> Iterator[TextIO]:
    """The user's terminal if there is one (pip captures stdout and stderr), else stderr."""
    try:
        tty = open("/dev/tty", "w")  # noqa: SIM115 - closed below
    except OSError:
        yield sys.stderr
        return
    try:
        yield tty
    finally:
        tty.close()


def build_library() -> Path:
    if not BUILD_SCRIPT.is_file():
        sys.exit(
            f"drumlin: {BUILD_SCRIPT} not found. The package builds libdrumlin.so from the Drumlin "
            "repository it sits in: install it from a checkout (`pip install ./bindings/python`) "
            "or install a built wheel (`make wheel`)."
        )
    if shutil.which("swift") is None:
        sys.exit("drumlin: building libdrumlin.so needs the Swift toolchain (`swift` on PATH)")
    with progress_stream() as out:
        print(f"drumlin: building {LIBRARY} from {ROOT} (tools/build-library.sh)", file=out, flush=True)
        process = subprocess.Popen(
            [str(BUILD_SCRIPT)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert process.stderr is not None and process.stdout is not None
        for line in process.stderr:  # swift build's progress
            print(f"drumlin:   {line.rstrip()}", file=out, flush=True)
        path = process.stdout.read().strip().splitlines()
        if process.wait() != 0 or not path:
            sys.exit(f"drumlin: tools/build-library.sh failed (exit {process.returncode}); see above")
    return Path(path[-1])


class BuildPyWithLibrary(build_py):
    """build_py, then build libdrumlin and copy it next to the package's modules."""

    def run(self) -> None:
        super().run()
        library = build_library()
        target = Path(self.build_lib) / "drumlin" / LIBRARY
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library, target)
        target.chmod(0o755)
        # The wheel's copy drops the symbol table and debug info (17 MB -> 9 MB); the exported
        # drumlin_* functions stay. The build tree keeps them, for debuggers and profilers.
        if shutil.which("strip"):
            subprocess.run(["strip", "--strip-unneeded", str(target)], check=True)
        # The user docs, for an installed user (help(drumlin) names the folder): the pages as they
        # are in the repository, so their links to each other keep working.
        docs = Path(self.build_lib) / "drumlin" / "docs"
        shutil.rmtree(docs, ignore_errors=True)
        docs.mkdir()
        for page in sorted(DOCS.glob("*.md")):
            shutil.copyfile(page, docs / page.name)


class NativeDistribution(Distribution):
    """The package carries a native library: its files install into platlib, not purelib."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    """Tagged py3-none-<platform>: the library is native, but no Python ABI is involved (ctypes)."""

    def get_tag(self) -> tuple[str, str, str]:
        _, _, platform = super().get_tag()
        return "py3", "none", platform


# drumlin/_version.py and drumlin/_constants.py are generated from include/drumlin.h; refresh them
# before setuptools reads the version (pyproject.toml: version = { attr = "drumlin._version.VERSION" })
# and copies the modules.
for script in (VERSION_SCRIPT, CONSTANTS_SCRIPT):
    if script.is_file():
        subprocess.run([sys.executable, str(script)], check=True, stdout=subprocess.DEVNULL)

setup(distclass=NativeDistribution, cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": PlatformWheel})
