"""What the Makefile's targets would run (`make -n`, nothing is built): `make demo` installs no
Python package, and the test tools live in the checkout's .venv, never in the system's Python."""

from __future__ import annotations

import re
import subprocess

from conftest import ROOT


def dry_run(target: str) -> str:
    ran = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_make_demo_installs_no_python_package() -> None:
    commands = dry_run("demo")
    assert "examples/python/quickstart.py" in commands  # the demo's own steps are there
    assert not re.search(r"pip\d*(\.\d+)? install|-m pip|-m venv", commands), commands


def test_the_python_suites_run_with_the_checkouts_venv() -> None:
    venv_python = f"{ROOT}/.venv/bin/python3"
    for target, suite in [("test-python", "bindings/python/tests"),
                          ("test-packaging", "Tests/packaging"), ("stress", "test_reliability_kill.py"),
                          ("sanitize", "-p no:faulthandler bindings/python/tests")]:
        commands = dry_run(target)
        pytest_lines = [line for line in commands.splitlines() if "-m pytest" in line]
        assert pytest_lines and all(f"{venv_python} -m pytest" in line for line in pytest_lines), (target, commands)
        assert suite in commands, target
        # Every pip install goes into .venv.
        assert set(re.findall(r"(\S+) -m pip install", commands)) <= {venv_python}, (target, commands)
