"""Every code block in README.md and docs/*.md runs as written. The convention:

- **python**: a page's Python blocks, in order, are one program (the page's running example; later
  blocks continue it). It runs twice in one empty temporary directory against this checkout's
  package (bindings/python) and library (.build/release/libdrumlin.so), as a reader runs it again
  in the same folder, and must exit 0 each time; and every page's program runs, one after
  another, in one folder (no two pages may use one file name with different schemas). Where the page
  shows what the program prints, PYTHON_OUTPUT holds those lines and the output must equal them
  (normalised as console output is, below); elsewhere the blocks state their results with
  `assert`. A `from __future__` import is moved to the top of the program (Python requires it
  there). A page whose text names a file made of one of its blocks (relationships.md's schema,
  "saved as `schema.json`") gets that file beside the program (PYTHON_FILES). A block that
  reads no name an earlier block defines, only modules, is one a reader pastes on its own: it
  must import every module it uses (`import drumlin`), as read from its syntax tree.
  bindings/python/tests/test_typing.py checks the same programs with `mypy --strict` and pyright.
- **c**: a block with a `main` is a whole program: compiled with -std=c99 -Wall -Wextra -Werror
  against include/drumlin.h, run with a database path as its argument, exit status 0; C_OUTPUT
  holds what it prints where the page shows it. c-api.md's walkthrough (C_WALKTHROUGHS: the C
  blocks of its "A complete example" section) is examples/c/quickstart.c in pieces, every line:
  the blocks pasted one after another, as a reader would, are that file (its header comment
  aside), compile, and run twice print what the page's console block shows for
  `./build-c/quickstart quickstart.drumlin`. Any other C block is a fragment of its page's
  running example: C_FRAGMENT_SETUP[page] declares the example's state (an open `db` with the
  page's schema, the objects the fragments name), each fragment becomes a function that main()
  calls inside a write transaction (unless the fragment begins one itself), and the fragment's
  last Drumlin call must have succeeded (`drumlin_last_error_code()`). Definitions go to file
  scope: a leading `static` function, and a prototype (which must then agree with the header).
  A page's programs are compiled two at a time.
- **swift**: a page's Swift blocks, in order, are one program that type-checks against the
  modules as built (`swift build`). A block that starts `// swift-tools-version` is a package
  manifest: it is saved as `app/Package.swift` beside `drumlin` (this checkout), and
  `swift package show-dependencies` must resolve it (the products it names exist).
- **json** (schema.md, relationships.md, storage.md): each block is a schema and is opened with
  `drumlin.open(":memory:", schema=...)`. When the next block is a `text` block starting
  `Schema validation failed`, the page shows the block as invalid: opening must raise
  `SchemaValidationError` with exactly that text; otherwise it must open.
- **console** (README.md, cli.md, c-api.md): the commands after `$ ` run in order with bash in one
  temporary directory, where `drumlin` runs this checkout's command, `build/demo/python.drumlin`
  is the database `make demo` writes (examples/python/quickstart.py) and `build-c/quickstart` is
  examples/c/quickstart.c compiled; standard output and error together must equal the lines
  under each command. Normalised, because they vary from run to run: object ids (24 hex
  digits), timestamps and file sizes (`72.0 KiB`); trailing spaces are ignored.
  (bindings/python/tests/test_cli.py runs README.md's and cli.md's sessions too, against the
  installed command when the wheel is tested.)
- **sql** (storage.md): the statements Drumlin writes for the schema the page shows before them: a
  file is made with that schema, and its `sqlite_master` is read with Python's sqlite3 in a child process
  (not the process that has drumlin loaded: a documented hazard); the block's statements must be
  there, whitespace aside.
- **queries.md's plain blocks** are Realm Query Language, one query per line (`--` starts a remark):
  each must be accepted for `Person` in a database with the schema the page describes in words
  (QUERIES_SCHEMA).
- **js** (javascript.md): a page's JavaScript blocks, in order, are one ES module program, run with
  `node` in an empty temporary directory where `drumlin` is this checkout's bindings/node (built
  by `make node`); it must exit 0, its blocks stating their results with `assert`
  (test_docs_javascript.py).
- **sh**: run from the repository root, except those in NOT_RUN (install and build steps that
  take minutes or change the machine), each listed with its reason. **cmake** blocks are
  fragments of a reader's CMakeLists.txt: in NOT_RUN. `text` and other plain blocks are not code.

test_every_block_is_run_or_not_run_for_a_reason checks that no block escapes all of these.
"""

from __future__ import annotations

import ast
import builtins
import itertools
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import pytest

from docs_blocks import PAGES, ROOT, Block, blocks, python_pages, python_program

LIBRARY = ROOT / ".build" / "release" / "libdrumlin.so"
PACKAGE = ROOT / "bindings" / "python"

# Blocks not run, by page and first line, with the reason.
NOT_RUN = {
    ("docs/javascript.md", "make node                          # builds libdrumlin.so (make lib), then the addon beside it"):
        "builds the library (minutes); test_docs_javascript.py runs the page against the addon make node built",
    ("README.md", "make demo    # builds libdrumlin.so, runs the C, Python, Swift and JavaScript examples on a fresh database"):
        "builds everything and runs every suite (minutes); make test is the suite",
    ("docs/c-api.md", "cmake -S . -B build-c -G Ninja          # apt-get install -y cmake ninja-build if missing"):
        "builds and runs the C tests (minutes): make test-c",
    ("docs/c-api.md", "set(DRUMLIN_BUILD_TESTS OFF CACHE BOOL \"\" FORCE)   # optional: skip Drumlin's own tests"):
        "a reader's CMakeLists.txt (test_cmake_install.py builds such a consumer)",
    ("docs/c-api.md", "tools/build-library.sh                                # -> .build/release/libdrumlin.so (+ .so.1)"):
        "rebuilds the library (minutes) and compiles the reader's app.c",
    ("docs/packaging.md", "make wheel                                  # dist/drumlin-0.1.0-py3-none-manylinux_2_34_x86_64.whl"):
        "builds and installs the wheel (minutes): test_wheel.py",
    ("docs/packaging.md", "python3 -m pip install ./bindings/python"):
        "installs the package, building the library (minutes): test_install_from_checkout.py",
    ("docs/packaging.md", "make install PREFIX=/usr/local"):
        "installs into the system: test_cmake_install.py installs into a temporary prefix",
    ("docs/packaging.md", "cc app.c $(pkg-config --cflags --libs drumlin) -o app"):
        "needs the installed library and the reader's app.c: test_cmake_install.py",
    ("docs/packaging.md", "find_package(Drumlin 0.1 REQUIRED)"):
        "a reader's CMakeLists.txt: test_cmake_install.py builds such a consumer",
    ("docs/performance.md", "make bench                 # N = 100k (BENCH_N=10k|100k|1M), median of 3 runs (BENCH_RUNS)"):
        "the benchmarks (minutes)",
    ("docs/python.md", "make wheel"): "builds and installs the wheel (minutes): test_wheel.py",
    ("docs/python.md", "pip install ./bindings/python"):
        "installs the package, building the library (minutes): test_install_from_checkout.py",
}

# What a page's Python program prints, where the page shows it.
PYTHON_OUTPUT: dict[str, list[str]] = {
    "README.md": ["{'id': 1, 'name': 'Ann', 'age': 32}"],
    "docs/python.md": [
        "Ann 31",
        "Rex ['Ann (31)'] Status.DONE", "[('Ann', 'Bern', ['write'])]", "write True",   # Model classes
        "{'type': 'int', 'optional': True, 'indexed': False, 'mapTo': 'age'}",           # Schema
        "2024-03-13 15:06:39+00:00",                                                     # Values
        "Invalid predicate: 'age >': syntax error, unexpected end of input, expecting a value at position 6",
        "'Person' has no property 'agee' (at position 1)",
        "Request for argument at index 1 but only 1 argument is provided: $1 is missing (at position 8)",
        "12 Attempting to create an object of type 'Person' with an existing primary key value '1'.",   # Errors
        "{'_id': {'$oid': '65f1c0ffee0123456789abcd'}, 'name': 'Ann', 'joined': {'$date': '2024-03-18T13:50:58.402979Z'}}",
        "688 of 688 bytes",                                                              # Export, import
    ],
    "docs/migrations.md": ["migrating from 1 to 2", "{'id': 1, 'full_name': 'Ann Lee', 'age': 31}",
                           "kept version 2: not today"],
}

# Files a page's Python program reads: the name, and the language of the page's block that holds it.
PYTHON_FILES = {"docs/relationships.md": ("schema.json", "json")}

# What a C program prints, where the page shows it.
C_OUTPUT = {"docs/migrations.md": ["migrating from version 1", '{"id":1,"full_name":"Ann Lee"}'],
            "docs/notifications.md": ["inserted: 1"]}

# Pages whose C blocks in a section show one example file in pieces, every line: the page, the
# section's heading, the file, and the console command whose output the page shows for it.
C_WALKTHROUGHS = {"docs/c-api.md": ("## A complete example", ROOT / "examples" / "c" / "quickstart.c",
                                    "./build-c/quickstart quickstart.drumlin")}

NOT_CODE = {"text", ""}


def env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(PACKAGE), DRUMLIN_LIBRARY=str(LIBRARY), PYTHONUNBUFFERED="1")


@pytest.fixture(scope="module")
def library() -> Path:
    if not LIBRARY.exists():
        pytest.fail(f"no {LIBRARY}: run `make lib` first (make test does)")
    return LIBRARY


def handled(block: Block) -> bool:
    if block.language in NOT_CODE or (block.page, block.first_line) in NOT_RUN:
        return True
    return block.language in {"python", "c", "swift", "json", "console", "sql", "sh", "js"}


def test_every_block_is_run_or_not_run_for_a_reason() -> None:
    unhandled = [f"{b.page}:{b.line} ```{b.language}" for page in PAGES for b in blocks(page) if not handled(b)]
    assert not unhandled
    listed = {(b.page, b.first_line) for page in PAGES for b in blocks(page)}
    assert not set(NOT_RUN) - listed, "NOT_RUN names blocks the pages no longer have"


# ---- Python ---------------------------------------------------------------------------------

def run_python_page(page: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The page's program, run in `folder` (with the files it reads beside it)."""
    program = folder / ("example_" + re.sub(r"\W", "_", page) + ".py")
    program.write_text(python_program(page), encoding="utf-8")
    if page in PYTHON_FILES:
        name, language = PYTHON_FILES[page]
        (folder / name).write_text(blocks(page, language)[0].code, encoding="utf-8")
    return subprocess.run([sys.executable, str(program)], capture_output=True, text=True, env=env(), cwd=folder)


@pytest.mark.parametrize("page", python_pages())
def test_python_program_runs_twice_in_one_folder(page: str, tmp_path: Path, library: Path) -> None:
    for run in ("first", "second"):
        result = run_python_page(page, tmp_path)
        assert result.returncode == 0, f"{page}, {run} run:\n{result.stderr[-4000:]}"
        if page in PYTHON_OUTPUT:
            assert normalised(result.stdout) == normalised("\n".join(PYTHON_OUTPUT[page])), f"{page}, {run} run"


def test_every_python_page_runs_in_one_folder(tmp_path: Path, library: Path) -> None:
    """A reader trying the pages one after another in one folder: README.md's quickstart, then
    python.md, ... Two pages opening one file name with different schemas would fail here."""
    for page in python_pages():
        result = run_python_page(page, tmp_path)
        assert result.returncode == 0, f"{page} after the pages before it:\n{result.stderr[-4000:]}"


def imported_modules(code: str) -> set[str]:
    """The names a program binds by `import` (the first part of a dotted import, or its alias)."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def free_names(code: str) -> set[str]:
    """The names a block reads but binds nowhere in itself (nor are builtins)."""
    read, bound = set(), set(imported_modules(code))
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return read - bound - set(dir(builtins))


@pytest.mark.parametrize("page", python_pages())
def test_python_blocks_import_what_they_use(page: str) -> None:
    """A block that continues nothing (it reads no name an earlier block defines, only modules) is
    pasted on its own by a reader, so it imports every module it uses: python.md's ObjectId block
    once used `drumlin` without `import drumlin`. Blocks that continue the running example (they
    read `db`, `SCHEMA`...) run after the blocks that import."""
    modules = imported_modules(python_program(page))
    missing = []
    for block in blocks(page, "python"):
        free = free_names(block.code)
        if free and free <= modules:
            missing.append((block.line, sorted(free)))
    assert missing == [], f"{page}: blocks (line, modules) that use a module without importing it"


# ---- C --------------------------------------------------------------------------------------

def compile_c(source: Path, binary: Path) -> None:
    compiled = subprocess.run(
        ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", str(ROOT / "include"), str(source),
         "-o", str(binary), str(LIBRARY), f"-Wl,-rpath,{LIBRARY.parent}"],
        capture_output=True, text=True)
    assert compiled.returncode == 0, f"{source.name}:\n{compiled.stderr[-4000:]}"


def compile_and_run(source: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    binary = tmp_path / source.stem
    compile_c(source, binary)
    return subprocess.run([str(binary), str(tmp_path / f"{binary.name}.drumlin")], capture_output=True,
                          text=True, cwd=tmp_path)


def is_program(block: Block) -> bool:
    return re.search(r"^int main\(", block.code, flags=re.M) is not None


def walkthrough(page: str) -> list[Block]:
    """The C blocks of the page's walkthrough section (C_WALKTHROUGHS), in order."""
    heading = C_WALKTHROUGHS[page][0]
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    start = lines.index(heading) + 1
    end = next((i + 1 for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines) + 1)
    return [b for b in blocks(page, "c") if start < b.line < end]


def console_output(page: str, command: str) -> list[str]:
    """The lines a page's console block shows under `$ command`."""
    for block in blocks(page, "console"):
        lines = block.code.splitlines()
        if f"$ {command}" in lines:
            after = lines[lines.index(f"$ {command}") + 1:]
            return list(itertools.takewhile(lambda line: not line.startswith("$ "), after))
    raise AssertionError(f"{page} shows no `$ {command}`")


def test_c_walkthrough_pasted_together_is_the_example_and_prints_what_the_page_shows(tmp_path: Path,
                                                                                    library: Path) -> None:
    for page, (_, example, command) in C_WALKTHROUGHS.items():
        pasted = "\n".join(b.code for b in walkthrough(page))
        source = example.read_text(encoding="utf-8")
        body = source[source.index("*/\n") + 3:]  # the file without its header comment
        assert [line for line in pasted.splitlines() if line.strip()] == \
            [line for line in body.splitlines() if line.strip()], f"{page}: the walkthrough is not {example.name}"
        program = tmp_path / "app.c"
        program.write_text(pasted, encoding="utf-8")
        compile_c(program, tmp_path / "app")
        expected = normalised("\n".join(console_output(page, command)))
        for run in ("first", "second"):
            ran = subprocess.run(["./app", command.split()[-1]], capture_output=True, text=True, cwd=tmp_path)
            assert ran.returncode == 0, f"{page}, {run} run: {ran.stdout}{ran.stderr}"
            assert normalised(ran.stdout) == expected, f"{page}, {run} run"


def is_prototype(code: str) -> bool:
    return re.match(r"^[\w ]+\**\s*drumlin_\w+\(", code) is not None and code.count(";") == 1 and code.rstrip().endswith(");")


def fragment_program(page: str, fragments: list[Block]) -> str:
    """The page's fragments after its setup: definitions at file scope, statements each in a function
    that main() calls inside a write transaction (unless the fragment begins one itself), checking
    that the fragment's last Drumlin call succeeded."""
    declarations, prepare = C_FRAGMENT_SETUP[page]()
    top, bodies, calls = [], [], []
    for block in fragments:
        code = block.code
        if is_prototype(code):
            top.append(code)
            continue
        if code.startswith("static ") and "\n}\n" in code:
            definition, code = code.split("\n}\n", 1)
            top.append(definition + "\n}\n")
        name = f"line{block.line}"
        bodies.append(f"static void {name}(void) {{\n{code}}}\n")
        own_write = "drumlin_begin_write" in code
        calls.append(("" if own_write else "    drumlin_begin_write(db);\n") + f"    {name}();\n"
                     f"    if (drumlin_last_error_code() != DRUMLIN_OK) {{\n"
                     f"        fprintf(stderr, \"{page}:{block.line}: %s\\n\", drumlin_last_error_message());\n"
                     f"        return 1;\n    }}\n" + ("" if own_write else "    if (drumlin_commit(db)) return 1;\n"))
    return (declarations + "".join(top) + "".join(bodies) + "\nint main(void) {\n" + prepare + "".join(calls)
            + "    return 0;\n}\n")


def c_string(text: str) -> str:
    return json.dumps(text)  # JSON's string escapes are C's


def c_api_setup() -> tuple[str, str]:
    """c-api.md: the walkthrough's SCHEMA and database, `person` (Ann, with a payload), `other` (a
    second database), `people_json`, and a logger `on_log` with its `state`."""
    code = next(b.code for b in walkthrough("docs/c-api.md") if "static const char *SCHEMA" in b.code)
    schema = code[code.index("static const char *SCHEMA"):]
    declarations = r"""#include <drumlin.h>
#include <stdio.h>
#include <stdlib.h>

@SCHEMA@
static drumlin_db *db, *other;
static drumlin_object *person;
static void *state;
static const char *people_json = "[{\"_id\": 1, \"name\": \"Ann\"}]";

static void on_log(void *userdata, int level, const char *message) {
    (void)userdata; (void)level; (void)message;
}

""".replace("@SCHEMA@", schema)
    prepare = r"""    drumlin_value key = {DRUMLIN_TYPE_INT, {0}};
    key.as.integer = 1;
    state = malloc(1);
    if (drumlin_open("app.drumlin", SCHEMA, NULL, &db) || drumlin_open(":memory:", SCHEMA, NULL, &other)
        || drumlin_begin_write(db) || drumlin_create_json(db, "Person", @ANN@, DRUMLIN_UPDATE_NEVER, NULL)
        || drumlin_commit(db) || drumlin_object_find(db, "Person", &key, &person)) return 1;
""".replace("@ANN@", c_string('{"_id": 1, "name": "Ann", "age": 31, '
                               '"payload": {"sizes": [1, 2, 3], "meta": {"source": "import"}}}'))
    return declarations, prepare


def relationships_setup() -> tuple[str, str]:
    """relationships.md: the page's schema, `person` (Ann, who has Rex) and `dog` (Rex)."""
    declarations = r"""#include <drumlin.h>
#include <stdio.h>

static drumlin_db *db;
static drumlin_object *person, *dog;

"""
    prepare = r"""    drumlin_value key = {DRUMLIN_TYPE_INT, {0}}, name = {DRUMLIN_TYPE_STRING, {0}};
    key.as.integer = 1;
    name.as.string.data = "Rex";
    name.as.string.size = 3;
    if (drumlin_open(":memory:", @SCHEMA@, NULL, &db) || drumlin_begin_write(db)
        || drumlin_create_json(db, "Dog", "{\"name\": \"Rex\"}", DRUMLIN_UPDATE_NEVER, NULL)
        || drumlin_create_json(db, "Person", @ANN@, DRUMLIN_UPDATE_NEVER, NULL) || drumlin_commit(db)
        || drumlin_object_find(db, "Person", &key, &person) || drumlin_object_find(db, "Dog", &name, &dog)) return 1;
""".replace("@SCHEMA@", c_string(blocks("docs/relationships.md", "json")[0].code)).replace(
        "@ANN@", c_string('{"id": 1, "name": "Ann", "dogs": ["Rex"], "extra": {"k": [1, {"n": null}]}, "anything": []}'))
    return declarations, prepare


# The running example's state that a page's C fragments continue: declarations, and main's first lines.
C_FRAGMENT_SETUP: dict[str, Callable[[], tuple[str, str]]] = {
    "docs/c-api.md": c_api_setup, "docs/relationships.md": relationships_setup}


def c_pages() -> list[str]:
    return [page for page in PAGES if blocks(page, "c")]


@pytest.mark.parametrize("page", c_pages())
def test_c_blocks_compile_and_run(page: str, tmp_path: Path, library: Path) -> None:
    c_blocks = blocks(page, "c")
    jobs: list[tuple[Path, list[str] | None]] = []
    fragments = []
    walked = walkthrough(page) if page in C_WALKTHROUGHS else []  # their own test, above
    for block in c_blocks:
        if block in walked:
            continue
        if is_program(block):
            source = tmp_path / f"line{block.line}.c"
            source.write_text(block.code, encoding="utf-8")
            jobs.append((source, C_OUTPUT.get(page)))
        else:
            fragments.append(block)
    if fragments:
        source = tmp_path / "fragments.c"
        source.write_text(fragment_program(page, fragments), encoding="utf-8")
        jobs.append((source, None))
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda job: compile_and_run(job[0], tmp_path), jobs))
    for (source, expected), ran in zip(jobs, runs):
        assert ran.returncode == 0, f"{source.name}: {ran.stdout}{ran.stderr}"
        if expected is not None:
            assert normalised(ran.stdout.replace(str(tmp_path), "")) == normalised("\n".join(expected))


# ---- Swift ----------------------------------------------------------------------------------

def is_manifest(block: Block) -> bool:
    return block.code.startswith("// swift-tools-version")


def swift_pages() -> list[str]:
    return [page for page in PAGES if any(not is_manifest(b) for b in blocks(page, "swift"))]


def swift_manifests() -> list[Block]:
    return [b for page in PAGES for b in blocks(page, "swift") if is_manifest(b)]


@pytest.mark.parametrize("block", swift_manifests(), ids=lambda b: f"{b.page}:{b.line}")
def test_swift_manifests_resolve(block: Block, tmp_path: Path) -> None:
    (tmp_path / "drumlin").symlink_to(ROOT)
    (tmp_path / "app" / "Sources" / "app").mkdir(parents=True)
    (tmp_path / "app" / "Sources" / "app" / "main.swift").write_text("import Drumlin\n", encoding="utf-8")
    (tmp_path / "app" / "Package.swift").write_text(block.code, encoding="utf-8")
    result = subprocess.run(["swift", "package", "--package-path", str(tmp_path / "app"), "show-dependencies"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("page", swift_pages())
def test_swift_blocks_type_check(page: str, tmp_path: Path) -> None:
    program = tmp_path / "main.swift"
    program.write_text("\n".join(b.code for b in blocks(page, "swift") if not is_manifest(b)), encoding="utf-8")
    modules = ROOT / ".build" / "debug" / "Modules"
    if not (modules / "Drumlin.swiftmodule").exists():
        pytest.fail(f"no Drumlin module under {modules}: run `swift build` first (make test does)")
    flags = ["-I", str(modules)]
    for module_map in sorted((ROOT / "Sources").glob("*/module.modulemap")):
        flags += ["-Xcc", f"-fmodule-map-file={module_map}"]
    # The C targets of this package (DrumlinCrypt, ...): SwiftPM writes their module maps.
    for target in sorted((ROOT / "Sources").iterdir()):
        module_map = modules.parent / f"{target.name}.build" / "module.modulemap"
        if (target / "include").is_dir() and module_map.exists():
            flags += ["-Xcc", f"-fmodule-map-file={module_map}"]
    result = subprocess.run(["swiftc", "-typecheck", "-swift-version", "5", *flags, str(program)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]


# ---- JSON schemas ---------------------------------------------------------------------------

OPEN_SCHEMAS = """
import json, sys, drumlin
for schema, error in json.load(sys.stdin):
    try:
        drumlin.open(":memory:", schema=schema).close()
        print(json.dumps(None))
    except drumlin.SchemaValidationError as e:
        print(json.dumps(str(e)))
"""


def json_pages() -> list[str]:
    return [page for page in PAGES if blocks(page, "json")]


@pytest.mark.parametrize("page", json_pages())
def test_json_schemas_open_or_fail_as_shown(page: str, library: Path) -> None:
    every = blocks(page)
    cases = []
    for i, block in enumerate(every):
        if block.language != "json":
            continue
        after = every[i + 1] if i + 1 < len(every) else None
        shown_error = (after.code.rstrip("\n") if after and after.language == "text"
                       and after.code.startswith("Schema validation failed") else None)
        cases.append((block, shown_error))
    result = subprocess.run([sys.executable, "-c", OPEN_SCHEMAS], capture_output=True, text=True, env=env(),
                            input=json.dumps([[b.code, e] for b, e in cases]))
    assert result.returncode == 0, result.stderr[-4000:]
    assert len(result.stdout.splitlines()) == len(cases), result.stdout
    for (block, shown_error), line in zip(cases, result.stdout.splitlines()):
        assert json.loads(line) == shown_error, f"{page}:{block.line}"


# ---- console --------------------------------------------------------------------------------

def console_pages() -> list[str]:
    return [page for page in PAGES if blocks(page, "console")]


def normalised(text: str) -> str:
    text = re.sub(r"\b[0-9a-f]{24}\b", "<id>", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "<time>", text)
    text = re.sub(r"\d+(\.\d+)? (KiB|MiB|bytes)", "<size>", text)
    # A table's columns are as wide as their widest value, and a time's width varies (its
    # fraction drops trailing zeros): compare the cells, not the padding between them.
    return "\n".join(re.sub(r" {2,}", "  ", line.rstrip()) for line in text.splitlines()).strip("\n")


@pytest.mark.parametrize("page", console_pages())
def test_console_blocks_print_what_they_show(page: str, tmp_path: Path, library: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "drumlin"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m drumlin "$@"\n', encoding="utf-8")
    command.chmod(0o755)
    work = tmp_path / "work"
    (work / "build" / "demo").mkdir(parents=True)
    if any("build-c/quickstart" in b.code for b in blocks(page, "console")):
        (work / "build-c").mkdir()
        compile_c(ROOT / "examples" / "c" / "quickstart.c", work / "build-c" / "quickstart")
    made = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "quickstart.py"),
                           "build/demo/python.drumlin"], cwd=work, env=env(), capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    run_env = dict(env(), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    for block in blocks(page, "console"):
        steps: list[tuple[str, list[str]]] = []
        for line in block.code.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        for cmd, expected in steps:
            ran = subprocess.run(["bash", "-c", cmd], cwd=work, env=run_env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            assert normalised(ran.stdout) == normalised("\n".join(expected)), f"{page}:{block.line}: $ {cmd}"


# ---- SQL ------------------------------------------------------------------------------------

def test_sql_block_is_what_drumlin_writes(tmp_path: Path, library: Path) -> None:
    path = tmp_path / "storage.drumlin"
    made = subprocess.run([sys.executable, "-c", "import drumlin, sys; drumlin.open(sys.argv[1], sys.stdin.read()).close()",
                           str(path)], input=blocks("docs/storage.md", "json")[0].code, env=env(), capture_output=True,
                          text=True)
    assert made.returncode == 0, made.stderr
    read = subprocess.run([sys.executable, "-c", "import sqlite3, sys; print('\\n'.join(sql for (sql,) in "
                           "sqlite3.connect(sys.argv[1]).execute('SELECT sql FROM sqlite_master WHERE sql IS NOT NULL')))",
                           str(path)], capture_output=True, text=True)
    assert read.returncode == 0, read.stderr
    stored = {squeeze(statement) for statement in read.stdout.splitlines()}
    for block in blocks("docs/storage.md", "sql"):
        for statement in block.code.split(";"):
            if statement.strip():
                assert squeeze(statement) in stored, f"not in the file: {statement.strip()}\nthe file has: {stored}"


def squeeze(sql: str) -> str:
    return re.sub(r"\s+", " ", sql.replace("IF NOT EXISTS ", "")).strip()


# ---- queries ---------------------------------------------------------------------------------

# queries.md: "The examples below use this schema: Person {id int pk, name string, ...}".
QUERIES_SCHEMA = [
    {"name": "Person", "primaryKey": "id", "properties": {
        "id": "int", "name": "string", "age": "int?", "score": "double?", "balance": "decimal128?",
        "active": "bool", "born": "date?", "bio": {"type": "string", "optional": True, "indexed": "full-text"},
        "city": {"type": "string", "optional": True, "indexed": True}, "dog": "Dog", "dogs": "Dog[]",
        "tags": "string<>", "scores": "int[]", "extra": "mixed{}", "anything": "mixed", "home": "Place"}},
    {"name": "Dog", "primaryKey": "name", "properties": {
        "name": "string", "age": "int", "toys": "Toy[]",
        "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
    {"name": "Toy", "properties": {"label": "string", "price": "double"}},
    {"name": "Place", "embedded": True, "properties": {"name": "string", "location": "Point"}},
    {"name": "Point", "embedded": True, "properties": {"type": "string", "coordinates": "double[]"}},
]

RUN_QUERIES = """
import json, sys, drumlin
schema, queries = json.load(sys.stdin)
db = drumlin.open(":memory:", schema=schema)
for query in queries:
    try:
        db.query("Person", query)
    except drumlin.QueryError as error:
        print(f"{query}: {error}")
"""


def test_query_blocks_are_accepted(library: Path) -> None:
    queries = [line.split(" -- ")[0].strip() for block in blocks("docs/queries.md", "")
               for line in block.code.splitlines() if line.strip()]
    assert len(queries) >= 6
    result = subprocess.run([sys.executable, "-c", RUN_QUERIES], input=json.dumps([QUERIES_SCHEMA, queries]),
                            capture_output=True, text=True, env=env())
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout == ""


# ---- sh -------------------------------------------------------------------------------------

def sh_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page, "sh") if (b.page, b.first_line) not in NOT_RUN]


@pytest.mark.parametrize("block", sh_blocks(), ids=lambda b: f"{b.page}:{b.line}")
def test_sh_blocks_run(block: Block, library: Path) -> None:
    ran = subprocess.run(["bash", "-e", "-c", block.code], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert ran.returncode == 0, ran.stdout + ran.stderr
