"""The package is a strict stack of modules: each imports only modules below it, never one above
it, and never inside a function (an import there would only hide a cycle).

Imports under ``if TYPE_CHECKING:`` are for annotations only and never run; they may name any
module. Everything else is checked twice: by reading each module's imports (``ast``), and by
importing each module alone, in stack order, in a fresh interpreter and looking at what it loaded.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import drumlin

PACKAGE = Path(drumlin.__file__).resolve().parent

# Bottom first: the generated modules, errors, the library and its C functions, values, the schema as
# the library reports it, rows, notifications, model declarations, objects, their makers, values for writes,
# results, the views' shared plumbing, collections, the property accessors (which hand out results and collections), the
# sync session's face, the open handle (lifetime, classes, transactions), the database's verbs, then the
# front ends.
STACK = [
    "_version",
    "_constants",
    "_errors",
    "_library",
    "_types",
    "_ffi",
    "_handle",
    "values",
    "geo",
    "_schema",
    "_convert",
    "_rows",
    "notifications",
    "model",
    "object",
    "_makers",
    "_payload",
    "projection",
    "results",
    "_view",
    "collection",
    "dictionary",
    "_accessors",
    "migration",
    "sync",
    "_connection",
    "database",
    "cli",
    "__init__",
    "__main__",
]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def package_imports(module: str, package: Path = PACKAGE) -> list[tuple[str, int, str]]:
    """(imported package module, line, where) for each import of a module of this package in
    ``module``; where is "module", "function" or "type-checking"."""
    tree = ast.parse((package / f"{module}.py").read_text(encoding="utf-8"))
    found: list[tuple[str, int, str]] = []

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            names = [a.name.split(".") for a in node.names if a.name.split(".")[0] == "drumlin"]
            return [parts[1] if len(parts) > 1 else "__init__" for parts in names]
        if node.level == 0:
            if not (node.module or "").startswith("drumlin"):
                return []
            rest = (node.module or "").split(".")[1:]
        else:
            rest = (node.module or "").split(".") if node.module else []
        if rest:
            return [rest[0]]
        return [a.name for a in node.names]  # from . import _ffi

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((target, child.lineno, where) for target in targets(child))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for part in child.body:
                    visit(ast.Module(body=[part], type_ignores=[]), "type-checking")
                for part in child.orelse:
                    visit(ast.Module(body=[part], type_ignores=[]), where)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, "function")
            else:
                visit(child, where)

    visit(tree, "module")
    return found


def test_the_stack_lists_every_module_of_the_package_once() -> None:
    modules = sorted(path.stem for path in PACKAGE.glob("*.py"))
    assert sorted(STACK) == modules
    assert len(set(STACK)) == len(STACK)


def test_no_module_imports_a_module_above_it_or_inside_a_function() -> None:
    problems = []
    for position, module in enumerate(STACK):
        for target, line, where in package_imports(module):
            if target not in STACK:
                problems.append(f"{module}.py:{line} imports {target}, which is not in the stack")
            elif where == "function":
                problems.append(f"{module}.py:{line} imports {target} inside a function")
            elif where == "module" and STACK.index(target) >= position:
                problems.append(f"{module}.py:{line} imports {target}, which is above it in the stack")
    assert problems == []


def test_no_module_imports_anything_inside_a_function() -> None:
    # Not the standard library's modules either: every import of the package is at its top, where
    # the stack above can see it.
    problems = []
    for module in STACK:
        tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                problems.extend(
                    f"{module}.py:{node.lineno} imports inside {getattr(function, 'name', 'a lambda')}"
                    for node in ast.walk(function)
                    if isinstance(node, (ast.Import, ast.ImportFrom))
                )
    assert problems == []


_IMPORT_ALONE = """
import importlib, json, sys, types
package = types.ModuleType("drumlin")  # the package without its __init__, which imports everything
package.__path__ = [sys.argv[1]]
sys.modules["drumlin"] = package
importlib.import_module("drumlin." + sys.argv[2])
print(json.dumps(sorted(name[len("drumlin."):] for name in sys.modules if name.startswith("drumlin."))))
"""


@pytest.mark.parametrize("module", [m for m in STACK if m not in ("__init__", "__main__")])
def test_each_module_imports_alone_loading_only_modules_below_it(module: str) -> None:
    # __init__ loads the whole package by design; __main__ runs the command line.
    result = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALONE, str(PACKAGE), module],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout))
    assert module in loaded
    above = loaded - set(STACK[: STACK.index(module) + 1])
    assert above == set(), f"importing {module} loaded {sorted(above)}, which are above it"


def test_the_checker_sees_module_level_function_level_and_type_only_imports(tmp_path: Path) -> None:
    # The parser of the checks above, on a module with each kind of import.
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import _ffi, values\n"
        "from .object import Object\n"
        "import drumlin.results\n"
        "if TYPE_CHECKING:\n"
        "    from .database import Database\n"
        "def f():\n"
        "    from .collection import List\n"
    )
    assert package_imports("sample", tmp_path) == [
        ("_ffi", 2, "module"),
        ("values", 2, "module"),
        ("object", 3, "module"),
        ("results", 4, "module"),
        ("database", 6, "type-checking"),
        ("collection", 8, "function"),
    ]
