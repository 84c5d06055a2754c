"""`pip install ./bindings/python` builds libdrumlin from the sources beside it: a changed engine
source is in the installed library, and the build's progress reaches the user's terminal."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, clean_env, make_venv, run

ENGINE_FILE = Path("Sources/DrumlinEngine/Database.swift")
MESSAGE = "is not in the schema."
CHANGED = "is not in the schema (changed by the packaging test)."

PROBE = """
import drumlin
db = drumlin.open(":memory:", [{"name": "P", "properties": {"n": "int"}}])
try:
    with db.write():
        db.create("Nope", {})
except drumlin.NoSuchClassError as error:
    print(error.message)
print(drumlin.library_path())
"""


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of this working tree's files (tracked, and new ones git does not ignore); no build."""
    where = tmp_path_factory.mktemp("checkout") / "drumlin"
    listing = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout
    for name in filter(None, listing.split("\0")):
        source = ROOT / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree
        target = where / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)
    return where


def probe(interpreter: Path, cwd: Path) -> tuple[str, Path]:
    lines = run([interpreter, "-c", PROBE], env=clean_env(), cwd=cwd).stdout.splitlines()
    return lines[0], Path(lines[1])


def test_pip_install_from_a_checkout_ships_the_library_built_from_its_sources(
    checkout: Path, tmp_path: Path
) -> None:
    # The copy's engine differs from this checkout's in one message: the installed library can only
    # say it if pip built it from the copy's sources. One build (a release build of the whole
    # library takes minutes): it runs on a terminal (script(1) gives it one), where pip shows only
    # a spinner, so the library's build writes its progress to the terminal itself.
    source = checkout / ENGINE_FILE
    text = source.read_text()
    assert text.count(MESSAGE) == 1
    source.write_text(text.replace(MESSAGE, CHANGED))

    interpreter = make_venv(tmp_path / "venv", Path(sys.executable))
    pip = [str(interpreter), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(checkout / "bindings" / "python")]
    terminal = subprocess.run(
        ["script", "-q", "-e", "-c", shlex.join(pip), "/dev/null"],
        capture_output=True, text=True, env=clean_env(TERM="dumb"), cwd=tmp_path,
    )
    assert terminal.returncode == 0, terminal.stdout + terminal.stderr
    assert "drumlin: building libdrumlin.so" in terminal.stdout
    assert "Compiling Drumlin" in terminal.stdout, terminal.stdout

    message, library = probe(interpreter, tmp_path)
    assert message == f"Object type 'Nope' {CHANGED}"
    assert library.is_relative_to(tmp_path / "venv")
