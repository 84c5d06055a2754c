#!/usr/bin/env python3
"""Writes bindings/python/drumlin/_version.py from include/drumlin.h, the one place the version and
the ABI version are written (DRUMLIN_VERSION, DRUMLIN_ABI_VERSION).

    tools/gen-python-version.py           write the file if it differs
    tools/gen-python-version.py --check   exit 1 if the file is out of date

`make lib` and the Python package's build run it; bindings/python/tests/test_library.py checks it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "drumlin.h"
TARGET = ROOT / "bindings" / "python" / "drumlin" / "_version.py"


def header_versions(header: Path = HEADER) -> tuple[str, int]:
    """(DRUMLIN_VERSION, DRUMLIN_ABI_VERSION) as defined in the header."""
    text = header.read_text(encoding="utf-8")
    version = re.search(r'^#define DRUMLIN_VERSION\s+"([^"]+)"', text, re.MULTILINE)
    abi = re.search(r"^#define DRUMLIN_ABI_VERSION\s+(\d+)", text, re.MULTILINE)
    if not version or not abi:
        raise SystemExit(f"{header}: DRUMLIN_VERSION or DRUMLIN_ABI_VERSION not found")
    return version.group(1), int(abi.group(1))


def render(version: str, abi: int) -> str:
    return (
        '"""The version of this package and the C ABI it speaks.\n\n'
        "Generated from include/drumlin.h by tools/gen-python-version.py: do not edit.\n"
        '"""\n\n'
        f'VERSION = "{version}"\n'
        f"ABI_VERSION = {abi}\n"
    )


def main(argv: list[str]) -> int:
    expected = render(*header_versions())
    current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else None
    if current == expected:
        return 0
    if "--check" in argv:
        print(f"{TARGET} is out of date with {HEADER}: run tools/gen-python-version.py", file=sys.stderr)
        return 1
    TARGET.write_text(expected, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
