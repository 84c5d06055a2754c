"""The code blocks of README.md and docs/*.md, and the programs test_docs.py (and the Python suite's
test_typing.py) make of them. test_docs.py states the convention."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Block:
    page: str       # "README.md", "docs/python.md"
    line: int       # the line of the opening fence
    language: str   # the info string's first word ("" for a plain block)
    code: str

    @property
    def first_line(self) -> str:
        return self.code.splitlines()[0] if self.code else ""


def blocks(page: str, language: str | None = None) -> list[Block]:
    """The fenced blocks of a page, in order (of one language if given)."""
    found: list[Block] = []
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^```(\w*)", lines[i])
        if opening:
            end = lines.index("```", i + 1)
            found.append(Block(page, i + 1, opening.group(1), "".join(f"{x}\n" for x in lines[i + 1:end])))
            i = end
        i += 1
    return [b for b in found if language is None or b.language == language]


def python_program(page: str) -> str:
    """A page's Python blocks in order, as one program; `from __future__` imports go first, where
    Python requires them."""
    code = "".join(b.code for b in blocks(page, "python"))
    future = re.findall(r"^from __future__ import .*\n", code, flags=re.M)
    rest = re.sub(r"^from __future__ import .*\n", "", code, flags=re.M)
    return "".join(dict.fromkeys(future)) + rest


def python_pages() -> list[str]:
    return [page for page in PAGES if blocks(page, "python")]
