"""`cmake --install` for C users: the library with its SONAME link, drumlin.h, drumlin.pc and the CMake
package, used by two consumer projects (find_package and pkg-config) with the toolchain hidden."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, Hidden, clean_env, run

CONSUMERS = Path(__file__).resolve().parent / "consumers"
QUICKSTART = ROOT / "examples" / "c" / "quickstart.c"
LAST_LINE = "committed; 3 people and 3 dogs in "


@pytest.fixture(scope="module")
def prefix(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    build = Path(request.config.getoption("--cmake-build"))
    assert (build / "CMakeCache.txt").is_file(), f"{build} is not a configured CMake build (make test-c)"
    where = tmp_path_factory.mktemp("install") / "prefix"
    run(["cmake", "--install", build, "--prefix", where])
    return where


def test_the_install_holds_the_library_header_pkgconfig_and_cmake_package(
    prefix: Path, versions: tuple[str, int], toolchain_dir: Path
) -> None:
    _, abi = versions
    library = prefix / "lib" / f"libdrumlin.so.{abi}"
    assert library.is_file() and not library.is_symlink()
    link = prefix / "lib" / "libdrumlin.so"
    assert link.is_symlink() and os.readlink(link) == f"libdrumlin.so.{abi}"
    assert (prefix / "include" / "drumlin.h").read_text() == (ROOT / "include" / "drumlin.h").read_text()
    assert (prefix / "lib" / "pkgconfig" / "drumlin.pc").is_file()
    assert (prefix / "lib" / "cmake" / "Drumlin" / "DrumlinConfig.cmake").is_file()
    assert (prefix / "lib" / "cmake" / "Drumlin" / "DrumlinConfigVersion.cmake").is_file()
    assert (prefix / "share" / "doc" / "drumlin" / "LICENSE").read_text() == (ROOT / "LICENSE").read_text()

    section = run(["readelf", "-d", library]).stdout
    assert f"Library soname: [libdrumlin.so.{abi}]" in section
    assert str(toolchain_dir) not in section
    assert "swift" not in " ".join(re.findall(r"Shared library: \[([^\]]+)\]", section)).lower()


def test_pkg_config_describes_the_installed_prefix(prefix: Path, versions: tuple[str, int]) -> None:
    version, _ = versions
    env = clean_env(PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    assert run(["pkg-config", "--modversion", "drumlin"], env=env).stdout.strip() == version
    flags = run(["pkg-config", "--cflags", "--libs", "drumlin"], env=env).stdout.split()
    resolved = [f[:2] + str(Path(f[2:]).resolve()) if f[:2] in ("-I", "-L") else f for f in flags]
    assert f"-I{(prefix / 'include').resolve()}" in resolved
    assert f"-L{(prefix / 'lib').resolve()}" in resolved
    assert "-ldrumlin" in resolved


def test_a_pkg_config_consumer_builds_and_runs_with_the_toolchain_hidden(
    prefix: Path, tmp_path: Path, without_toolchain: Hidden, versions: tuple[str, int]
) -> None:
    work = tmp_path / "pkgconfig"
    shutil.copytree(CONSUMERS / "pkgconfig", work)
    env = clean_env(PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    run(["make", "-s", f"QUICKSTART={QUICKSTART}"], cwd=work, env=env)
    needed = run(["readelf", "-d", work / "quickstart"]).stdout
    assert f"Shared library: [libdrumlin.so.{versions[1]}]" in needed
    output = without_toolchain([work / "quickstart", tmp_path / "pc.drumlin"], env=clean_env()).stdout
    assert output.splitlines()[-1].startswith(LAST_LINE), output


def test_a_find_package_consumer_builds_and_runs_with_the_toolchain_hidden(
    prefix: Path, tmp_path: Path, without_toolchain: Hidden
) -> None:
    build = tmp_path / "build"
    run([
        "cmake", "-S", CONSUMERS / "cmake", "-B", build, "-G", "Ninja",
        f"-DCMAKE_PREFIX_PATH={prefix}", f"-DQUICKSTART={QUICKSTART}",
    ], env=clean_env())
    run(["cmake", "--build", build], env=clean_env())
    output = without_toolchain([build / "quickstart", tmp_path / "cmake.drumlin"], env=clean_env()).stdout
    assert output.splitlines()[-1].startswith(LAST_LINE), output


def test_find_package_refuses_an_incompatible_version_request(prefix: Path, tmp_path: Path) -> None:
    project = tmp_path / "wants-9"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(wants9 LANGUAGES C)\nfind_package(Drumlin 9.0 REQUIRED)\n"
    )
    result = subprocess.run(
        ["cmake", "-S", str(project), "-B", str(tmp_path / "b"), f"-DCMAKE_PREFIX_PATH={prefix}"],
        capture_output=True, text=True, env=clean_env(),
    )
    assert result.returncode != 0
    assert "Drumlin" in result.stderr and "9.0" in result.stderr
