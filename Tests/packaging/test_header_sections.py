"""tools/check-export-sections.py: each C export is defined in the Swift file of its drumlin.h
section (Sources/DrumlinC/Exports+<Section>.swift), and the check fails, naming the function and
both files, when one is not. `make lib` runs it through tools/check-header.sh."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "tools" / "check-export-sections.py"


def check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(CHECK), "--root", str(root)], capture_output=True, text=True)


def copy_of_the_checkout(tmp_path: Path) -> Path:
    """The two things the check reads: the header and the C exports."""
    (tmp_path / "include").mkdir()
    shutil.copy(ROOT / "include" / "drumlin.h", tmp_path / "include" / "drumlin.h")
    shutil.copytree(ROOT / "Sources" / "DrumlinC", tmp_path / "Sources" / "DrumlinC")
    return tmp_path


def move_export(sources: Path, name: str, source: str, target: str) -> None:
    """Cut the `@_cdecl(name)` function out of `source` and append it to `target`."""
    text = (sources / source).read_text()
    start = text.index(f'@_cdecl("{name}")')
    end = text.index("\n}\n", start) + 3
    (sources / source).write_text(text[:start] + text[end:])
    with (sources / target).open("a") as file:
        file.write("\n" + text[start:end])


def test_every_export_of_this_checkout_is_in_its_sections_file() -> None:
    result = check(ROOT)
    assert result.returncode == 0, result.stderr
    assert "each in its header section's file" in result.stdout


def test_an_export_in_another_sections_file_is_named_with_both_files(tmp_path: Path) -> None:
    root = copy_of_the_checkout(tmp_path)
    move_export(
        root / "Sources" / "DrumlinC", "drumlin_list_size", "Exports+Lists.swift", "Exports+Sets.swift"
    )
    result = check(root)
    assert result.returncode == 1
    expected = 'its header section "Lists" is Exports+Lists.swift'
    assert f"drumlin_list_size is defined in Exports+Sets.swift; {expected}" in result.stderr
    assert result.stderr.count("export sections:") == 1  # the other exports still pass


def test_an_export_in_a_helper_file_is_refused(tmp_path: Path) -> None:
    root = copy_of_the_checkout(tmp_path)
    move_export(
        root / "Sources" / "DrumlinC", "drumlin_commit", "Exports+Transactions.swift", "Barrier.swift"
    )
    result = check(root)
    assert result.returncode == 1
    expected = 'its header section "Transactions" is Exports+Transactions.swift'
    assert f"drumlin_commit is defined in Barrier.swift; {expected}" in result.stderr


def test_a_new_header_section_needs_a_file(tmp_path: Path) -> None:
    root = copy_of_the_checkout(tmp_path)
    header = root / "include" / "drumlin.h"
    text = header.read_text()
    marker = "int drumlin_begin_write("
    header.write_text(text.replace(marker, "/*---- Writes ----*/\n\n" + marker, 1))
    result = check(root)
    assert result.returncode == 1
    assert 'section "Writes" of drumlin.h has no file' in result.stderr


def test_prose_naming_a_function_is_not_a_declaration(tmp_path: Path) -> None:
    root = copy_of_the_checkout(tmp_path)
    header = root / "include" / "drumlin.h"
    text = header.read_text()
    marker = "/*---- Lists "
    header.write_text(text.replace(marker, "/** See drumlin_commit() and drumlin_open(). */\n\n" + marker, 1))
    assert check(root).returncode == 0


def test_an_export_the_header_does_not_declare_is_refused(tmp_path: Path) -> None:
    root = copy_of_the_checkout(tmp_path)
    with (root / "Sources" / "DrumlinC" / "Exports+Lists.swift").open("a") as file:
        file.write('\n@_cdecl("drumlin_list_reverse")\npublic func drumlin_list_reverse() -> Int32 { 0 }\n')
    result = check(root)
    assert result.returncode == 1
    assert (
        "drumlin_list_reverse is exported in Exports+Lists.swift but declared in no section" in result.stderr
    )
