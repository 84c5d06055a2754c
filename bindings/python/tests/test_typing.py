"""Type checking: ``mypy --strict`` and ``pyright`` pass on the package, the examples and every page's
Python program (README.md and docs/*.md: a page's Python blocks in order, as Tests/packaging/test_docs.py
runs them), for the lowest and highest Python the package claims (mypy checks 3.10 and up: it no longer targets 3.9), and both catch the mistakes a
type checker should in a wrong program (typing_samples/wrong.py). The docs' model-class code also
runs. Each checker's tests are skipped when it is missing (``make venv`` installs both into .venv)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
REPOSITORY = PACKAGE_ROOT.parents[1]
SAMPLES = Path(__file__).resolve().parent / "typing_samples"
EXAMPLES = [REPOSITORY / "examples" / "python" / "quickstart.py", REPOSITORY / "examples" / "python" / "models.py"]
DOCS = REPOSITORY / "docs" / "python.md"
DOCS_BLOCKS = REPOSITORY / "Tests" / "packaging" / "docs_blocks.py"


def _mypy_missing() -> bool:
    try:
        import mypy  # noqa: F401
    except ImportError:
        return True
    return False


needs_mypy = pytest.mark.skipif(
    _mypy_missing(), reason="mypy is not installed (make venv installs it into .venv)"
)


def _pyright_missing() -> bool:
    try:
        import pyright  # noqa: F401
    except ImportError:
        return True
    return False


needs_pyright = pytest.mark.skipif(
    _pyright_missing(), reason="pyright is not installed (make venv installs it into .venv)"
)
# The lowest and highest Python versions pyproject.toml claims (Requires-Python and classifiers).
OLDEST, NEWEST = "3.9", "3.13"
needs_sources = pytest.mark.skipif(
    not DOCS.exists() or bool(os.environ.get("DRUMLIN_TEST_INSTALLED")),
    reason="needs the repository's docs and examples beside the package sources",
)


def _mypy(tmp_path: Path, *files: Path | str) -> subprocess.CompletedProcess[str]:
    """mypy --strict with the package's configuration (bindings/python/pyproject.toml)."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"),
         "--config-file", str(PACKAGE_ROOT / "pyproject.toml"), *map(str, files)],
        cwd=PACKAGE_ROOT, capture_output=True, text=True,
        env={**os.environ, "MYPYPATH": str(PACKAGE_ROOT)},
    )


def _pyright(python_version: str, *files: Path | str) -> subprocess.CompletedProcess[str]:
    """pyright with the package's configuration ([tool.pyright] in bindings/python/pyproject.toml)."""
    return subprocess.run(
        # -p: the package's configuration only (never a pyrightconfig.json in a directory above).
        [sys.executable, "-m", "pyright", "-p", str(PACKAGE_ROOT), "--pythonversion", python_version, *map(str, files)],
        cwd=PACKAGE_ROOT, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
    )


def _docs_blocks() -> types.ModuleType:
    """Tests/packaging/docs_blocks.py: how test_docs.py reads the pages' code blocks."""
    spec = importlib.util.spec_from_file_location("docs_blocks", DOCS_BLOCKS)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_blocks"] = module  # its dataclass looks itself up while being made
    spec.loader.exec_module(module)
    return module


def _checked_sources(tmp_path: Path) -> list[Path]:
    """The examples and every page's Python program, written out as files to check beside the package."""
    docs_blocks = _docs_blocks()
    programs = []
    for page in docs_blocks.python_pages():
        program = tmp_path / ("docs_" + re.sub(r"\W", "_", page.removeprefix("docs/").removesuffix(".md").lower()) + ".py")
        program.write_text(docs_blocks.python_program(page), encoding="utf-8")
        programs.append(program)
    assert len(programs) >= 6, programs
    return [*EXAMPLES, *programs]


def model_class_code() -> str:
    """The Python blocks of docs/python.md's "Model classes" section, in order."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("\n## Model classes\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(re.findall(r"```python\n(.*?)```", section, flags=re.S))


@needs_mypy
@needs_sources
@pytest.mark.parametrize("python_version", ["3.10", NEWEST])
def test_package_examples_and_docs_pass_mypy_strict(tmp_path: Path, python_version: str) -> None:
    result = _mypy(tmp_path, "--python-version", python_version, "drumlin", *_checked_sources(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"Success: no issues found in \d+ source files", result.stdout), result.stdout


@needs_pyright
@needs_sources
@pytest.mark.parametrize("python_version", [OLDEST, NEWEST])
def test_package_examples_and_docs_pass_pyright(tmp_path: Path, python_version: str) -> None:
    result = _pyright(python_version, "drumlin", *_checked_sources(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors, 0 warnings, 0 informations" in result.stdout, result.stdout


@needs_pyright
def test_pyright_catches_the_mistakes_in_a_wrong_program() -> None:
    result = _pyright(OLDEST, SAMPLES / "wrong.py")
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert 'wrong.py:16:17 - information: Type of "db" is "Database"' in out
    # The wrong update mode, the wrong value type, the misspelled attribute and keyword.
    assert 'wrong.py:19:47 - error: Argument of type "Literal[\'upsert\']" cannot be assigned to parameter "update"' in out
    assert 'wrong.py:20:19 - error: Cannot assign to attribute "age" for class "Dog"' in out
    assert 'wrong.py:21:15 - error: Cannot access attribute "nmae" for class "Dog"' in out
    assert 'wrong.py:22:9 - error: No parameter named "nmae"' in out
    assert 'wrong.py:23:17 - information: Type of "db.objects(Dog)[0]" is "Dog"' in out
    assert 'wrong.py:24:17 - information: Type of "db.get(Dog, 1)" is "Dog | None"' in out
    assert "5 errors, 0 warnings, 3 informations" in out


@needs_mypy
def test_mypy_catches_the_mistakes_in_a_wrong_program(tmp_path: Path) -> None:
    result = _mypy(tmp_path, SAMPLES / "wrong.py")
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert 'wrong.py:16: note: Revealed type is "drumlin.database.Database"' in out
    assert 'wrong.py:19: error: No overload variant of "create" of "Database" matches argument types "type[Dog]", "dict[str, str]", "str"' in out
    assert "Literal['never', 'modified', 'all'] | None" in out
    assert 'wrong.py:20: error: Incompatible types in assignment (expression has type "str", variable has type "int | None")' in out
    assert 'wrong.py:21: error: "Dog" has no attribute "nmae"' in out
    assert 'wrong.py:22: error: Unexpected keyword argument "nmae" for "Dog"' in out
    assert 'wrong.py:23: note: Revealed type is "wrong.Dog"' in out
    assert 'wrong.py:24: note: Revealed type is "wrong.Dog | None"' in out
    assert "Found 4 errors in 1 file" in out


@needs_sources
def test_docs_model_class_code_runs(tmp_path: Path) -> None:
    script = tmp_path / "docs_model_classes.py"
    script.write_text(model_class_code(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)}
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Rex ['Ann (31)'] Status.DONE",
        "[('Ann', 'Bern', ['write'])]",
        "write True",
    ]


@needs_sources
def test_models_example_runs(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)}
    result = subprocess.run([sys.executable, str(EXAMPLES[1]), str(tmp_path / "models.drumlin")],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "ship: done, done=True, by ['Ann']",
        "write docs: todo, done=False, by ['Ann']",
        "Ann in Bern: write docs, ship",
        "adults: ['Ann']",
    ]
