#!/usr/bin/env python3
"""Writes bindings/python/drumlin/_constants.py from include/drumlin.h, the one place the status
codes, value types, property types and the other integer constants are written.

    tools/gen-python-constants.py           write the file if it differs
    tools/gen-python-constants.py --check   exit 1 if the file is out of date

Every integer `#define DRUMLIN_*` of the header becomes a Python constant of the same name, in the
header's order, with the header's comments; the versions are tools/gen-python-version.py's. The
status codes (DRUMLIN_OK, DRUMLIN_NOT_FOUND, DRUMLIN_ERR_*) also give STATUS_NAMES, code -> C name.

`make lib` and the Python package's build run it; bindings/python/tests/test_header_constants.py
checks it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "drumlin.h"
TARGET = ROOT / "bindings" / "python" / "drumlin" / "_constants.py"

# Written by tools/gen-python-version.py into _version.py.
VERSION_DEFINES = {"DRUMLIN_VERSION", "DRUMLIN_VERSION_NUMBER", "DRUMLIN_ABI_VERSION"}
# The include guard and the version string.
NOT_INTEGERS = {"DRUMLIN_H", "DRUMLIN_VERSION"}

_DEFINE = re.compile(r"^#define (DRUMLIN_[A-Z0-9_]+)\s+(-?\d+)\s*(?:/\*\s*(.*?)\s*\*/)?\s*$")
_SECTION = re.compile(r"^/\*-+ (.+?) -+\*/$")
_COMMENT = re.compile(r"^/\* (.+?) \*/$")


def header_constants(header: Path = HEADER) -> list[tuple[str, int, str]]:
    """The header's integer constants in order, as (name, value, comment); an entry without a name
    is a line between groups: blank, or a heading ("# ...", from a section title or a one-line
    comment above the group). A `#define DRUMLIN_*` that is not a plain integer is refused, so no
    constant is left out unnoticed."""
    items: list[tuple[str, int, str]] = []
    pending: list[str] = []  # headings seen since the last define
    in_group = False  # the previous line was one of the constants
    for line in header.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        define = _DEFINE.match(line)
        if line.startswith("#define DRUMLIN_") and not define and line.split()[1] not in NOT_INTEGERS:
            raise SystemExit(f"{header}: not a plain integer constant: {line}")
        if define and define.group(1) not in VERSION_DEFINES:
            if not in_group:
                if items:
                    items.append(("", 0, ""))
                items.extend(("", 0, "# " + text) for text in pending)
            items.append((define.group(1), int(define.group(2)), define.group(3) or ""))
            pending, in_group = [], True
            continue
        in_group = False
        section, comment = _SECTION.match(line), _COMMENT.match(line)
        if section:
            pending = [f"---- {section.group(1)}"]
        elif comment:
            pending.append(comment.group(1))
        elif line and not line.startswith("#"):
            pending = []  # prose or code: a heading only counts right above its constants
    names = [name for name, _, _ in items if name]
    if "DRUMLIN_OK" not in names or not any(name.startswith("DRUMLIN_ERR_") for name in names):
        raise SystemExit(f"{header}: no status codes (DRUMLIN_OK, DRUMLIN_ERR_*) found")
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise SystemExit(f"{header}: defined more than once: {', '.join(duplicates)}")
    return items


def is_status(name: str) -> bool:
    return name in ("DRUMLIN_OK", "DRUMLIN_NOT_FOUND") or name.startswith("DRUMLIN_ERR_")


def render(items: list[tuple[str, int, str]]) -> str:
    lines = [
        '"""The integer constants of include/drumlin.h: status codes, value and property types,',
        "collection kinds, property flags, class kinds, update modes and log levels.",
        "",
        "Generated from include/drumlin.h by tools/gen-python-constants.py: do not edit.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
    ]
    for name, value, comment in items:
        if not name:
            lines.append(comment)
        else:
            lines.append(f"{name} = {value}" + (f"  # {comment}" if comment else ""))
    statuses = [(name, value) for name, value, _ in items if name and is_status(name)]
    lines += ["", "# The C name of each status code, as drumlin_status_name() gives it."]
    lines += ["STATUS_NAMES: dict[int, str] = {"]
    lines += [f'    {name}: "{name}",' for name, _ in statuses]
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    expected = render(header_constants())
    current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else None
    if current == expected:
        return 0
    if "--check" in argv:
        print(f"{TARGET} is out of date with {HEADER}: run tools/gen-python-constants.py", file=sys.stderr)
        return 1
    TARGET.write_text(expected, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
