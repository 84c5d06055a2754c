"""The wheel `make wheel` builds: manylinux, self-contained, and working on every Python it claims."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, Hidden, clean_env, make_venv, python_interpreters, run, system_sqlite


@pytest.fixture(scope="module")
def wheel(request: pytest.FixtureRequest) -> Path:
    wheels = sorted(Path(request.config.getoption("--wheel-dir")).glob("drumlin-*.whl"))
    assert len(wheels) == 1, f"expected one wheel from `make wheel`, found {wheels}"
    return wheels[0]


@pytest.fixture(scope="module")
def unpacked(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(where)
    return where


def dynamic_section(library: Path) -> str:
    return run(["readelf", "-d", library]).stdout


def test_the_wheel_name_carries_a_manylinux_tag(wheel: Path, versions: tuple[str, int]) -> None:
    version, _ = versions
    tag = re.fullmatch(rf"drumlin-{re.escape(version)}-py3-none-manylinux_2_(\d+)_x86_64\.whl", wheel.name)
    assert tag, wheel.name
    # glibc 2.34 (RHEL 9, Amazon Linux 2023) is supported: docs/packaging.md, DrumlinLinkCompat.
    assert int(tag.group(1)) <= 34, wheel.name


def test_auditwheel_accepts_the_wheel(wheel: Path) -> None:
    report = " ".join(run([sys.executable, "-m", "auditwheel", "show", wheel]).stdout.split())
    tag = re.search(r'consistent with the following platform tag: "([^"]+)"', report)
    assert tag, report
    assert tag.group(1).startswith("manylinux_")
    assert tag.group(1) in wheel.name


def test_the_library_sits_in_platlib_with_its_soname_and_no_toolchain_path(
    unpacked: Path, versions: tuple[str, int], toolchain_dir: Path
) -> None:
    _, abi = versions
    wheel_info = next(unpacked.glob("drumlin-*.dist-info")) / "WHEEL"
    assert "Root-Is-Purelib: false" in wheel_info.read_text()
    library = unpacked / "drumlin" / "libdrumlin.so"
    assert library.is_file()
    section = dynamic_section(library)
    assert f"Library soname: [libdrumlin.so.{abi}]" in section
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", section)
    assert not [n for n in needed if "swift" in n.lower() or "dispatch" in n.lower()], needed
    paths = re.findall(r"\((?:RPATH|RUNPATH)\)\s+Library r(?:un)?path: \[([^\]]+)\]", section)
    assert all(str(toolchain_dir) not in p for p in paths), paths
    # auditwheel bundled SQLite: the wheel works where libsqlite3 is not installed.
    assert any(n.startswith("libsqlite3-") for n in needed), needed
    assert list((unpacked / "drumlin.libs").glob("libsqlite3-*.so*"))


def test_the_wheel_carries_the_license_and_the_header_version(unpacked: Path, versions: tuple[str, int]) -> None:
    version, _ = versions
    info = next(unpacked.glob("drumlin-*.dist-info"))
    metadata = (info / "METADATA").read_text()
    assert re.search(r"^Name: drumlin$", metadata, re.MULTILINE)
    assert re.search(rf"^Version: {re.escape(version)}$", metadata, re.MULTILINE)
    # The License field, which `pip show` displays on every pip (before 25.1 it reads no other),
    # and the classifier that says the same.
    assert re.search(r"^License: Apache-2.0$", metadata, re.MULTILINE)
    assert re.search(r"^Classifier: License :: OSI Approved :: Apache Software License$", metadata, re.MULTILINE)
    assert re.search(r"^Requires-Python: >=3\.9$", metadata, re.MULTILINE)
    assert (info / "licenses" / "LICENSE").read_text() == (ROOT / "LICENSE").read_text()
    generated = (unpacked / "drumlin" / "_version.py").read_text()
    assert f'VERSION = "{version}"' in generated


def test_the_wheel_carries_the_user_docs(unpacked: Path) -> None:
    """help(drumlin) points an installed user at these: every page of docs/, as it is."""
    pages = sorted((ROOT / "docs").glob("*.md"))
    assert len(pages) >= 10
    shipped = unpacked / "drumlin" / "docs"
    assert sorted(p.name for p in shipped.iterdir()) == [p.name for p in pages]
    for page in pages:
        assert (shipped / page.name).read_text() == page.read_text(), page.name


def test_the_wheel_carries_the_package_sources_and_nothing_stale(unpacked: Path) -> None:
    # Regression: pip builds a local directory in its build/ folder, which kept modules deleted
    # from the sources (a _fastread.py long gone shipped in wheels built in a working tree);
    # `make wheel` removes that folder first.
    sources = sorted(p.name for p in (ROOT / "bindings" / "python" / "drumlin").glob("*.py"))
    shipped = sorted(p.name for p in (unpacked / "drumlin").glob("*.py"))
    assert shipped == sources


def claimed_versions() -> list[str]:
    """The Python versions the package's classifiers claim."""
    text = (ROOT / "bindings" / "python" / "pyproject.toml").read_text()
    return re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text)


PYTHONS = python_interpreters()


def test_every_claimed_python_version_starts_at_requires_python() -> None:
    claimed = claimed_versions()
    assert claimed and claimed[0] == "3.9"  # requires-python = ">=3.9"
    found = [subprocess.run([p, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                            capture_output=True, text=True).stdout.strip() for p in PYTHONS]
    assert f"{sys.version_info[0]}.{sys.version_info[1]}" in found
    # Every interpreter found here is one the package claims, so the run below covers only claims.
    assert set(found) <= set(claimed), (found, claimed)


@pytest.mark.parametrize("python", PYTHONS, ids=lambda p: p.parent.parent.name if "pyenv" in str(p) else p.name)
def test_installed_in_a_fresh_venv_the_quickstart_runs_with_the_toolchain_hidden(
    python: Path, wheel: Path, tmp_path: Path, without_toolchain: Hidden, toolchain_dir: Path, versions: tuple[str, int]
) -> None:
    version, _ = versions
    interpreter = make_venv(tmp_path / "venv", python)
    run([interpreter, "-m", "pip", "install", "-q", "--no-index", "--disable-pip-version-check", wheel],
        env=clean_env())
    where = run([interpreter, "-c", "import drumlin; print(drumlin.library_path())"], env=clean_env(), cwd=tmp_path)
    library = Path(where.stdout.strip())
    assert library.is_relative_to(tmp_path / "venv"), library

    # Nothing the loader resolves comes from the toolchain, and nothing is missing.
    ldd = run(["ldd", library]).stdout
    assert str(toolchain_dir) not in ldd and "not found" not in ldd, ldd

    # The wheel brings its own SQLite: the quickstart runs with the system's hidden too.
    assert system_sqlite(), "this machine has a system libsqlite3 to hide"
    quickstart = without_toolchain(
        [interpreter, ROOT / "examples" / "python" / "quickstart.py", tmp_path / "quickstart.drumlin"],
        hide_sqlite=True, env=clean_env(), cwd=tmp_path,
    ).stdout
    assert f"with drumlin {version}" in quickstart
    assert "count: 3 people" in quickstart
    assert quickstart.rstrip().endswith("Rex's owners now: 0, dogs left: 2"), quickstart

    # `pip show` (this Python's own pip: 23.x on the older ones) displays the license, and
    # help(drumlin) names the docs installed with the package.
    shown = run([interpreter, "-m", "pip", "show", "--disable-pip-version-check", "drumlin"], env=clean_env()).stdout
    assert "\nLicense: Apache-2.0\n" in shown, shown
    docstring = run([interpreter, "-c", "import drumlin; print(drumlin.__doc__)"], env=clean_env(), cwd=tmp_path).stdout
    folder = re.search(r"Documentation, in (\S+/site-packages/drumlin/docs) \(", docstring)
    assert folder, docstring
    assert Path(folder.group(1)).is_relative_to(tmp_path / "venv") and (Path(folder.group(1)) / "python.md").is_file()

    # The `drumlin` console script is installed beside the interpreter and opens the file by itself.
    command = interpreter.parent / "drumlin"
    info = without_toolchain([command, "info", tmp_path / "quickstart.drumlin"], env=clean_env(), cwd=tmp_path).stdout
    assert "schema version  0" in info and "Person" in info, info

    # The whole Python suite, against the installed package (DRUMLIN_TEST_INSTALLED) and its
    # console script (DRUMLIN_CLI, for test_cli.py), on the oldest version found: the package is
    # pure ctypes, so what can differ between versions is the language and the standard library,
    # and 3.9 is where newer syntax would fail; make test-python runs the suite on the default
    # python3. Each run takes two minutes of make test's thirty (it ran on 3.13 too until
    # make test outgrew them); the other versions get the checks above. The engine's stress runs
    # (marked `stress`: kills, fuzzing, size sweeps) test the library, not the Python version.
    if python != PYTHONS[0]:
        return
    run([interpreter, "-m", "pip", "install", "-q", "--disable-pip-version-check", "pytest"], env=clean_env())
    suite = without_toolchain(
        [interpreter, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-m", "not stress",
         ROOT / "bindings" / "python" / "tests"],
        env=clean_env(DRUMLIN_TEST_INSTALLED="1", DRUMLIN_CLI=str(command)), cwd=tmp_path,
    ).stdout
    assert re.search(r"^\d+ passed", suite.splitlines()[-1]), suite[-2000:]
    assert "failed" not in suite.splitlines()[-1], suite[-2000:]
    # Only the type-checking tests may skip: they check the repository's sources and docs with mypy,
    # which an installed package does not have beside it.
    skipped = [line for line in suite.splitlines() if line.startswith("SKIPPED")]
    assert all("test_typing.py" in line or "test_typing_mistakes.py" in line for line in skipped), skipped
