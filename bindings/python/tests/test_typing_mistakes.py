"""The mistakes a new user makes with model classes are type errors (issue 44, item 4):
``for p in db.objects(Person)`` gives a ``Person``, and assigning a property the class does not
declare (``d.agee = 3``) is reported by ``mypy --strict`` and pyright alike, while objects read by
class name (``db.get("Person", 1)``) stay dynamic. typing_samples/mistakes.py holds the mistakes,
typing_samples/right.py the same program without them (which also runs). test_typing.py has how the
checkers are run; each checker's tests are skipped when it is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_typing import OLDEST, PACKAGE_ROOT, SAMPLES, _mypy, _pyright, needs_mypy, needs_pyright

MISTAKES = SAMPLES / "mistakes.py"
RIGHT = SAMPLES / "right.py"


@needs_mypy
def test_mypy_reports_each_mistake(tmp_path: Path) -> None:
    result = _mypy(tmp_path, MISTAKES)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert 'mistakes.py:24: error: "Person" has no attribute "agee"; maybe "age"?  [attr-defined]' in out
    assert 'mistakes.py:26: note: Revealed type is "mistakes.Person"' in out
    assert 'mistakes.py:27: error: "Person" has no attribute "nmae"  [attr-defined]' in out
    assert ('mistakes.py:29: error: Incompatible types in assignment (expression has type "str", variable has '
            'type "int | None")  [assignment]') in out
    assert 'mistakes.py:31: error: "Task" has no attribute "titel"; maybe "title"?  [attr-defined]' in out
    assert "Found 4 errors in 1 file" in out


@needs_pyright
def test_pyright_reports_each_mistake() -> None:
    result = _pyright(OLDEST, MISTAKES)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert 'mistakes.py:24:11 - error: Cannot assign to attribute "agee" for class "Person"' in out
    assert 'mistakes.py:26:25 - information: Type of "p" is "Person"' in out
    assert 'mistakes.py:27:15 - error: Cannot assign to attribute "nmae" for class "Person"' in out
    assert 'mistakes.py:29:21 - error: Cannot assign to attribute "age" for class "Person"' in out
    assert 'mistakes.py:31:15 - error: Cannot assign to attribute "titel" for class "Task"' in out
    assert out.count('Attribute "') == 3  # "agee", "nmae", "titel": each "is unknown"
    assert "4 errors, 0 warnings, 1 information" in out


@needs_mypy
def test_mypy_passes_the_right_program(tmp_path: Path) -> None:
    result = _mypy(tmp_path, RIGHT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found in 1 source file" in result.stdout


@needs_pyright
def test_pyright_passes_the_right_program() -> None:
    result = _pyright(OLDEST, RIGHT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors, 0 warnings, 0 informations" in result.stdout


def test_the_right_program_runs(tmp_path: Path) -> None:
    env = dict(os.environ)
    if not os.environ.get("DRUMLIN_TEST_INSTALLED"):  # else the installed package
        env["PYTHONPATH"] = str(PACKAGE_ROOT)
    result = subprocess.run([sys.executable, str(RIGHT)], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["['Bo'] ['ship'] ship 4"]


def test_a_misspelled_property_still_raises_at_run_time(tmp_path: Path) -> None:
    """Object.__setattr__, hidden from the checkers, still runs: a name the class does not declare
    raises (unstored and stored objects) and changes nothing; a declared one is written."""
    import drumlin

    class Dog(drumlin.Object):
        name: str = ""

    unstored = Dog(name="Rex")
    with pytest.raises(AttributeError) as raised:
        unstored.nmae = "Bo"  # type: ignore[attr-defined]
    assert str(raised.value) == ("'Dog' object has no property 'nmae' (ignored attributes are declared as "
                                 "class attributes)")
    with drumlin.open(str(tmp_path / "dogs.drumlin"), schema=[Dog]) as db, db.write():
        rex = db.add(unstored)
        with pytest.raises(drumlin.NoSuchPropertyError) as stored:
            rex.nmae = "Bo"  # type: ignore[attr-defined]
        assert str(stored.value) == "Property 'Dog.nmae' does not exist."
        assert [d.to_dict() for d in db.objects(Dog)] == [{"name": "Rex"}]
        rex.name = "Bo"
        assert [d.name for d in db.objects(Dog)] == ["Bo"]
