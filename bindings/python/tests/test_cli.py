"""The `drumlin` command, end to end: each test runs the command in a child process on a real
file and checks its output and exit status. DRUMLIN_CLI names the installed console script to
run (Tests/packaging sets it to the wheel's); otherwise `python -m drumlin` from this checkout."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_tooling import SCHEMA, fill, snapshot

import drumlin

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    installed = os.environ.get("DRUMLIN_CLI")
    command = [installed] if installed else [sys.executable, "-m", "drumlin"]
    env = dict(os.environ)
    if not installed and not os.environ.get("DRUMLIN_TEST_INSTALLED"):
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [*command, *map(str, args)], capture_output=True, text=True, input=stdin, env=env, timeout=120
    )


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A closed database file with objects of every kind."""
    path = tmp_path / "demo.drumlin"
    with drumlin.open(path, SCHEMA) as db:
        fill(db)
    return path


def test_help_is_everywhere() -> None:
    top = run("--help")
    assert top.returncode == 0 and "info" in top.stdout and "compact" in top.stdout
    for command in ("info", "schema", "query", "export", "import", "check", "compact"):
        result = run(command, "--help")
        assert result.returncode == 0, command
        assert result.stdout.startswith(f"usage: drumlin {command}"), result.stdout
    assert run("--version").stdout.strip() == f"drumlin {drumlin.__version__}"


def test_info_lists_types_counts_indexes_and_version(demo: Path) -> None:
    result = run("info", demo)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"file            {demo}"
    assert lines[1].startswith("size            ") and "KiB" in lines[1]
    assert lines[2:4] == ["schema version  0", "types           4"]
    assert lines[5].split() == ["type", "stored", "as", "kind", "objects", "primary", "key", "indexes"]
    assert lines[6].split() == ["Person", "Person", "top-level", "2", "id"]
    assert lines[7].split() == ["Dog", "Dog", "top-level", "1", "uid"]
    assert lines[8].split() == ["Note", "Note", "top-level", "2"]
    assert lines[9].split() == ["Address", "Address", "embedded", "1"]


def test_schema_as_text_and_json(demo: Path) -> None:
    text = run("schema", demo)
    assert text.returncode == 0
    assert "  dogs      Dog[]" in text.stdout
    assert "  owners    linkingObjects<Person.dogs>" in text.stdout
    assert "Address (embedded)" in text.stdout
    as_json = run("schema", demo, "--json")
    with drumlin.open(demo, read_only=True) as db:
        assert json.loads(as_json.stdout) == db.schema


def test_query_in_each_format(demo: Path) -> None:
    table = run("query", demo, "Person", "name BEGINSWITH 'A'")
    assert table.returncode == 0, table.stderr
    header, row = table.stdout.splitlines()
    assert header.split() == [
        "id",
        "name",
        "born",
        "best",
        "dogs",
        "notes",
        "byName",
        "address",
        "extra",
        "blob",
    ]
    assert row.split()[:4] == ["1", "Ann", "1990-01-02T03:04:05.123456Z", "2"]
    assert table.stderr == "(1 object)\n"
    as_json = json.loads(run("query", demo, "Person", "--json").stdout)
    assert [p["name"] for p in as_json] == ["Ann", "Bob"]
    assert as_json[0]["born"] == {"$date": "1990-01-02T03:04:05.123456Z"}
    lines = run("query", demo, "Person", "TRUEPREDICATE SORT(id DESC)", "--ndjson").stdout.splitlines()
    assert [json.loads(line)["id"] for line in lines] == [2, 1]
    limited = run("query", demo, "Person", "--ndjson", "--limit", "1").stdout.splitlines()
    assert len(limited) == 1


def test_export_then_import_into_a_fresh_file_gives_identical_objects(demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.ndjson"
    exported = run("export", demo, "-o", out)
    assert exported.returncode == 0, exported.stderr
    assert exported.stderr == f"exported 5 objects to {out}\n"  # no progress bar: stderr is a pipe
    fresh = tmp_path / "fresh.drumlin"
    drumlin.open(fresh, SCHEMA).close()
    imported = run("import", fresh, out)
    assert imported.returncode == 0, imported.stderr
    assert imported.stderr == f"imported 5 objects into {fresh}\n"
    with drumlin.open(demo, read_only=True) as a, drumlin.open(fresh, read_only=True) as b:
        assert snapshot(b) == snapshot(a)
    assert run("check", fresh).stdout == f"{fresh}: ok\n"


def test_export_to_standard_output_and_import_from_standard_input(demo: Path, tmp_path: Path) -> None:
    exported = run("export", demo, "--type", "Dog", "-q")
    assert exported.returncode == 0 and exported.stderr == ""
    (line,) = exported.stdout.splitlines()
    assert json.loads(line)["name"] == "Rex"
    fresh = tmp_path / "fresh.drumlin"
    drumlin.open(fresh, SCHEMA).close()
    assert run("import", fresh, "-", "--type", "Dog", "-q", stdin=exported.stdout).returncode == 0
    with drumlin.open(fresh, read_only=True) as db:
        assert db.objects("Dog")[0].name == "Rex"


def test_a_malformed_line_is_reported_and_nothing_is_imported(demo: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"$type": "Note", "text": "ok"}\n{"$type": "Note", "text": }\n')
    result = run("import", demo, bad)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("drumlin: Line 2: Invalid JSON at byte 26")
    with drumlin.open(demo, read_only=True) as db:
        assert db.count("Note") == 2


def test_import_update_modes_and_batches(demo: Path, tmp_path: Path) -> None:
    lines = tmp_path / "people.ndjson"
    lines.write_text('{"id": 1, "name": "Anna"}\n{"id": 3, "name": "Cy"}\n{"id": 4}\n')
    duplicate = run("import", demo, lines, "--type", "Person")
    assert (
        duplicate.returncode == 1
        and "Line 1: Attempting to create an object of type 'Person'" in duplicate.stderr
    )
    partial = run("import", demo, lines, "--type", "Person", "--update", "modified", "--batch", "2")
    assert partial.returncode == 1
    assert "Line 3: Missing value for property 'Person.name'" in partial.stderr
    assert "2 objects from earlier batches stay imported" in partial.stderr
    with drumlin.open(demo, read_only=True) as db:
        assert [p.name for p in db.objects("Person")] == ["Anna", "Bob", "Cy"]


def test_check_finds_problems_and_compact_keeps_objects(demo: Path) -> None:
    assert run("check", demo).returncode == 0
    compacted = run("compact", demo)
    assert compacted.returncode == 0 and compacted.stdout.startswith(f"{demo}: ")
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('UPDATE Person SET best = 99 WHERE id = 2'); c.commit()",
            str(demo),
        ],
        check=True,
    )
    result = run("check", demo)
    assert result.returncode == 1
    assert result.stdout == f"{demo}: 1 link of 'Person.best' point at no live 'Person' object.\n"


def test_errors_say_what_went_wrong_with_shell_exit_codes(demo: Path, tmp_path: Path) -> None:
    missing = run("info", tmp_path / "missing.drumlin")
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == f"drumlin: {tmp_path / 'missing.drumlin'}: no such file\n"
    assert not (tmp_path / "missing.drumlin").exists()
    lines = tmp_path / "people.ndjson"
    lines.write_text('{"$type": "Person", "id": 9, "name": "Zed"}\n')
    new = run("import", tmp_path / "new.drumlin", lines)
    assert (new.returncode, new.stdout) == (1, "")
    assert new.stderr == (f"drumlin: {tmp_path / 'new.drumlin'}: no such file "
                          "(import --schema SCHEMA creates it)\n")
    assert not (tmp_path / "new.drumlin").exists()
    (tmp_path / "folder").mkdir()
    folder = run("info", tmp_path / "folder")
    assert (folder.returncode, folder.stdout) == (1, "")
    assert folder.stderr == (f"drumlin: Cannot open '{tmp_path / 'folder'}': it is a directory, "
                             "not a database file.\n")
    (tmp_path / "notes.txt").write_text("not a database")
    corrupt = run("info", tmp_path / "notes.txt")
    assert corrupt.returncode == 1 and "is not a Drumlin database" in corrupt.stderr
    bad_query = run("query", demo, "Person", "age >")
    assert bad_query.returncode == 1 and bad_query.stderr.startswith("drumlin: ")
    assert "Traceback" not in bad_query.stderr
    no_type = run("query", demo, "Cat")
    assert no_type.returncode == 1 and no_type.stderr == "drumlin: Object type 'Cat' is not in the schema.\n"
    usage = run("query", demo)
    assert usage.returncode == 2 and "usage: drumlin query" in usage.stderr
    assert run("frobnicate", demo).returncode == 2
    assert run("query", demo, "Person", "--limit", "-1").returncode == 2


def test_a_progress_bar_is_drawn_only_on_a_terminal(demo: Path, tmp_path: Path) -> None:
    import pty

    installed = os.environ.get("DRUMLIN_CLI")
    command = [installed] if installed else [sys.executable, "-m", "drumlin"]
    env = dict(os.environ)
    if not installed and not os.environ.get("DRUMLIN_TEST_INSTALLED"):
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT), env.get("PYTHONPATH", "")])
    leader, follower = pty.openpty()
    try:
        process = subprocess.run(
            [*command, "export", str(demo), "-o", str(tmp_path / "out.ndjson")],
            stdout=subprocess.DEVNULL,
            stderr=follower,
            env=env,
            timeout=120,
        )
        os.close(follower)
        follower = -1
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    assert process.returncode == 0
    assert b"\rexporting [" in drawn and b"100%  5 of 5 objects" in drawn
    assert drawn.endswith(f"exported 5 objects to {tmp_path / 'out.ndjson'}\r\n".encode())


# ---- The console examples of docs/cli.md and README.md -------------------------------------------

REPOSITORY = PACKAGE_ROOT.parents[1]
VOLATILE = [
    (re.compile(r"\b[0-9a-f]{24}\b"), "<objectid>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), "<date>"),
    (re.compile(r"\d+(\.\d)? (bytes|KiB|MiB)"), "<size>"),
]


def normalized(text: str) -> list[str]:
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    # A table's columns are as wide as their widest value, and a volatile value's width varies (a
    # date's fraction drops its trailing zeros): compare the cells, not the padding between them.
    return [re.sub(r" {2,}", "  ", line) for line in text.splitlines()]


def console_sessions(markdown: str) -> list[list[tuple[str, list[str]]]]:
    """The ```console blocks: each a list of (command, expected output lines)."""
    sessions = []
    for block in re.findall(r"^```console\n(.*?)^```$", markdown, re.M | re.S):
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        sessions.append(steps)
    return sessions


@pytest.mark.parametrize("document", ["docs/cli.md", "README.md"])
def test_the_console_examples_give_the_output_shown(document: str, tmp_path: Path) -> None:
    # The demo database of `make demo`: the Python quickstart's file.
    demo = tmp_path / "build" / "demo" / "python.drumlin"
    demo.parent.mkdir(parents=True)
    env = dict(os.environ)
    if not os.environ.get("DRUMLIN_TEST_INSTALLED"):
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT), env.get("PYTHONPATH", "")])
    quickstart = REPOSITORY / "examples" / "python" / "quickstart.py"
    subprocess.run([sys.executable, quickstart, demo], check=True, capture_output=True, env=env)
    # `drumlin` on the PATH: the installed console script, or this checkout's package.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "drumlin"
    target = os.environ.get("DRUMLIN_CLI")
    shim.write_text(
        f'#!/bin/sh\nexec {target} "$@"\n'
        if target
        else f'#!/bin/sh\nexec {sys.executable} -m drumlin "$@"\n'
    )
    shim.chmod(0o755)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    sessions = console_sessions((REPOSITORY / document).read_text())
    assert sessions, f"{document} has no console examples"
    for steps in sessions:
        for command, expected in steps:
            result = subprocess.run(
                ["bash", "-c", command],
                cwd=tmp_path,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=120,
            )
            assert normalized(result.stdout) == normalized("\n".join(expected)), (document, command)
