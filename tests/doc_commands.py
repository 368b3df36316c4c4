"""The ``paddock`` commands the README and docs/*.md show, as a reader copies them (tests/test_doc_commands.py runs
every one from a fresh clone's point of view; ``python tests/doc_commands.py`` lists them).

A command is a line of a fenced block (```sh, ```text or a bare fence) that starts with ``paddock `` (or ``$
paddock `` in a transcript); its ``# comment`` is dropped. A line starting ``paddock:`` is what Paddock printed,
not a command. The README's two set-up commands (a virtual environment and pip) are tested by tests/test_readme.py
and ``.ci/run``, not here.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
SHELL_BLOCKS = ("", "sh", "bash", "shell", "console", "text")


@dataclass(frozen=True)
class Command:
    doc: str  # "README.md", "docs/circuits.md"
    line: int  # its line in the doc
    text: str  # as the doc prints it, comment dropped
    args: tuple[str, ...]  # after "paddock"
    block: int  # the line of its block's fence

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def commands(path: Path) -> list[Command]:
    text = path.read_text(encoding="utf-8")
    found = []
    for block in FENCE.finditer(text):
        if block.group(1) not in SHELL_BLOCKS:
            continue
        first = text.count("\n", 0, block.start(2)) + 1
        for i, raw in enumerate(block.group(2).splitlines()):
            line = raw.strip().removeprefix("$ ")
            if not line.startswith("paddock "):
                continue
            words = shlex.split(line, comments=True)
            doc = str(path.relative_to(ROOT))
            found.append(Command(doc, first + i, shlex.join(words), tuple(words[1:]), first - 1))
    return found


@dataclass(frozen=True)
class Block:
    """A fenced block's commands, run in order (one may write a file the next reads)."""

    doc: str
    line: int
    commands: tuple[Command, ...]

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks() -> list[Block]:
    found = []
    for path in docs():
        by_block: dict[int, list[Command]] = {}
        for c in commands(path):
            by_block.setdefault(c.block, []).append(c)
        found += [Block(cs[0].doc, line, tuple(cs)) for line, cs in by_block.items()]
    return found


SAVE = re.compile(r"[Ss]ave (?:it|this|this one) as\s+`([^`/]+)`(?:(?!\n\n).)*?:\n\n```yaml\n(.*?)^```", re.M | re.S)


def saved(path: Path) -> dict[str, str]:
    """The files a doc tells its reader to save before its commands use them: a ```yaml block right after
    "Save this one as `NAME`…:" — name → text."""
    return {m.group(1): m.group(2) for m in SAVE.finditer(path.read_text(encoding="utf-8"))}


def every() -> list[Command]:
    return [c for path in docs() for c in commands(path)]


if __name__ == "__main__":
    for c in every():
        print(f"{c.id}: {c.text}")
