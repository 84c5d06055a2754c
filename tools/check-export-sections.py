#!/usr/bin/env python3
"""Checks that each C export lives in the file of its header section, as realm-core's c_api/ does:
every function include/drumlin.h declares under `/*---- Name ----*/` is defined (`@_cdecl`) in
Sources/DrumlinC/<SECTION_FILES[Name]>, and nowhere else.

    tools/check-export-sections.py                 check this checkout (run by tools/check-header.sh)
    tools/check-export-sections.py --root DIR      check another tree (Tests/packaging uses a copy)

Fails, naming the function and both files, when an export sits in another file; also when a
section has no file in SECTION_FILES (a new section: give it one), when a declared function has no
export or is exported twice, and when an export is not declared in any section.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each header section and the Swift file of its exports. Sections before "Library" (status codes,
# value types, handles and plain structs) declare no functions.
SECTION_FILES = {
    "Library": "Exports+Library.swift",
    "Options": "Exports+Options.swift",
    "Database": "Exports+Database.swift",
    "Migrations": "Exports+Migrations.swift",
    "Export, import and maintenance": "Exports+Maintenance.swift",
    "Transactions": "Exports+Transactions.swift",
    "JSON layer": "Exports+JSON.swift",
    "Introspection": "Exports+Introspection.swift",
    "Objects (typed layer)": "Exports+Objects.swift",
    "Links": "Exports+Links.swift",
    "Results": "Exports+Results.swift",
    "Whole rows and the read version": "Exports+Rows.swift",
    "Queries": "Exports+Queries.swift",
    "Lists": "Exports+Lists.swift",
    "Sets": "Exports+Sets.swift",
    "Dictionaries": "Exports+Dictionaries.swift",
    "Nested mixed values": "Exports+NestedMixed.swift",
    "Notifications": "Exports+Notifications.swift",
    "Sync": "Exports+Sync.swift",
}

_SECTION = re.compile(r"^/\*-+ (.+?) -+\*/$", re.MULTILINE)
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_DECLARATION = re.compile(r"\b(drumlin_[a-z0-9_]+)\s*\(")
_CDECL = re.compile(r'@_cdecl\("(drumlin_[a-z0-9_]+)"\)')


def header_sections(header: Path) -> dict[str, str]:
    """Each function the header declares -> the title of its section, in the header's order.
    Comments are dropped first, so prose naming a function is not a declaration."""
    parts = _SECTION.split(header.read_text(encoding="utf-8"))
    sections: dict[str, str] = {}
    for title, body in zip(parts[1::2], parts[2::2]):
        for name in _DECLARATION.findall(_COMMENT.sub("", body)):
            if not name.endswith("_fn"):  # callback typedefs: typedef void (*drumlin_x_fn)(...)
                sections.setdefault(name, title)
    return sections


def exports(sources: Path) -> dict[str, list[str]]:
    """Each `@_cdecl` name -> the files (relative to `sources`) that define it."""
    found: dict[str, list[str]] = {}
    for path in sorted(sources.rglob("*.swift")):
        for name in _CDECL.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, []).append(path.relative_to(sources).as_posix())
    return found


def problems(root: Path) -> list[str]:
    sections = header_sections(root / "include" / "drumlin.h")
    defined = exports(root / "Sources" / "DrumlinC")
    found = []
    for title in dict.fromkeys(sections.values()):
        if title not in SECTION_FILES:
            here = Path(__file__).name
            found.append(f'section "{title}" of drumlin.h has no file: add it to SECTION_FILES in {here}')
    for name, title in sections.items():
        expected = SECTION_FILES.get(title)
        files = defined.get(name, [])
        if not files:
            found.append(f'{name} (section "{title}") is declared in drumlin.h but exported nowhere')
        elif len(files) > 1:
            found.append(f"{name} is exported more than once: {', '.join(files)}")
        elif expected and files[0] != expected:
            found.append(f'{name} is defined in {files[0]}; its header section "{title}" is {expected}')
    for name, files in defined.items():
        if name not in sections:
            found.append(f"{name} is exported in {', '.join(files)} but declared in no section of drumlin.h")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to check")
    root = parser.parse_args().root
    found = problems(root)
    for problem in found:
        print(f"export sections: {problem}", file=sys.stderr)
    if found:
        return 1
    count = len(header_sections(root / "include" / "drumlin.h"))
    print(f"export sections: {count} exports, each in its header section's file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
