"""The rule summary's content: sections of blocks (text, list, steps, table, example, reading, write_in), read from a
summary file with its placeholders filled and its tables given (what a game's ``values()`` and ``tables()`` say).

    summary = read(path, "formula-d", values, tables)   # validated; every problem names the file, line and field

The model knows no game and no page: :mod:`generator.games.summaries` finds a game's file and numbers,
:mod:`.summary_layout` lays the model out on pages, :mod:`generator.writers.markdown` writes it as Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..fonts import missing_glyphs
from .blocks import column_aligns, plain

KINDS = ("text", "list", "steps", "table", "example", "reading", "write_in")


# -- the content model ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    aligns: tuple[str | None, ...]
    rows: tuple[tuple[str | None, ...], ...]  # None: a write-in box
    whole: bool = False  # never split between columns or pages, however long (tables() says ``"whole": True``)

    def align(self) -> tuple[str, ...]:
        """Each column's alignment, as the PDF sets it: ``middle`` for short cells (numbers, ranges), else
        ``start``, unless ``tables()`` named one."""
        return tuple(column_aligns(self.columns, self.rows, aligns=self.aligns))

@dataclass(frozen=True)
class Block:
    kind: str  # one of KINDS
    text: str = ""  # text, reading, write_in, example text
    items: tuple[str, ...] = ()  # list, steps
    title: str = ""  # example title
    table: Table | None = None


@dataclass(frozen=True)
class Section:
    heading: str
    optional: bool
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Summary:
    game: str
    title: str
    subtitle: str | None
    source: str
    sections: tuple[Section, ...]
    tables: dict[str, Table] = field(default_factory=dict)  # every table the game gives, used or not

    @property
    def credit(self) -> str:
        """The footer line: ``Source: …``."""
        return self.source if self.source.lower().startswith("source") else f"Source: {self.source}"

    def only(self, optional: bool) -> Summary:
        """The summary with (``True``) or without (``False``) its optional sections."""
        if optional:
            return self
        return Summary(
            self.game,
            self.title,
            self.subtitle,
            self.source,
            tuple(s for s in self.sections if not s.optional),
            self.tables,
        )

    def strings(self) -> list[str]:
        """Every piece of text the summary prints, markers removed (for checks such as the 8-gram test)."""
        out = [self.title, self.source] + ([self.subtitle] if self.subtitle else [])
        for s in self.sections:
            out.append(s.heading)
            for b in s.blocks:
                out += [t for t in (b.text, b.title) if t] + list(b.items)
                if b.table:
                    out += list(b.table.columns) + [c for row in b.table.rows for c in row if c]
        return [plain(t) for t in out]


# -- reading ---------------------------------------------------------------------------------------------------


@cache
def _models():
    """The summary file's schema: made on first use (pydantic builds it in ~4 ms), once per process."""
    from pydantic import BaseModel, ConfigDict, Field, model_validator

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", populate_by_name=True)

    class Example(Strict):
        title: str = "Example"
        text: str = Field(min_length=1)

    class BlockModel(Strict):
        text: str | None = None
        list_: list[str] | None = Field(None, alias="list", min_length=1)
        steps: list[str] | None = Field(None, min_length=1)
        table: str | None = None
        example: Example | None = None
        reading: str | None = None
        write_in: str | None = None

        @model_validator(mode="after")
        def _one(self):
            given = [
                k
                for k in ("text", "list_", "steps", "table", "example", "reading", "write_in")
                if getattr(self, k) is not None
            ]
            if len(given) != 1:
                raise ValueError("a block is exactly one of: " + ", ".join(KINDS))
            return self

    class SectionModel(Strict):
        heading: str = Field(min_length=1)
        optional: bool = False
        blocks: list[BlockModel] = Field(min_length=1)

    class SummaryModel(Strict):
        title: str = Field(min_length=1)
        subtitle: str | None = None
        source: str = Field(min_length=1)
        sections: list[SectionModel] = Field(min_length=1)

    return SummaryModel


PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}|[{}]")


def fill(text: str, values: dict[str, str], where: Callable[[str, str], InputError]) -> str:
    """``text`` with every ``{name}`` replaced from ``values`` (``{{``/``}}`` are literal braces)."""

    def one(m: re.Match) -> str:
        token = m.group(0)
        if token in ("{{", "}}"):
            return token[0]
        if m.group(1) is None:
            raise where(f"a lone '{token}' in \"{text[:60]}\"", "write {{ or }} for a literal brace")
        name = m.group(1)
        if name not in values:
            known = ", ".join(sorted(values)) or "none"
            raise where(f"unknown placeholder {{{name}}}", f"the game's summary values() give: {known}")
        return values[name]

    return PLACEHOLDER.sub(one, text)


def _table(name: str, spec: Any, where: Callable[[str, str], InputError]) -> Table:
    if not isinstance(spec, dict) or not spec.get("columns") or "rows" not in spec:
        raise where(f"table '{name}' from tables() needs 'columns' and 'rows'", "see DEVELOPERS.md, Rule summaries")
    titles, aligns = [], []
    for c in spec["columns"]:
        if isinstance(c, dict):
            titles.append(str(c["title"]))
            aligns.append(c.get("align"))
        else:
            titles.append(str(c))
            aligns.append(None)
    rows = []
    for r in spec["rows"]:
        if len(r) > len(titles) or not r:
            raise where(f"table '{name}': a row has {len(r)} cells for {len(titles)} columns", "fix tables()")
        rows.append(tuple(None if v is None else str(v) for v in r))
    return Table(name, tuple(titles), tuple(aligns), tuple(rows), bool(spec.get("whole", False)))


def read(path: str | Path, game_id: str, values: dict[str, Any], raw_tables: dict[str, Any]) -> Summary:
    """The summary file ``path`` read with ``values`` (every ``{placeholder}``) and ``raw_tables`` (``{name:
    {"columns": [...], "rows": [[...], ...]}}``), as a game's ``values()`` and ``tables()`` give them (see
    :func:`generator.games.summaries.load`). Every problem names the file, line and field."""
    from ..data import is_shipped
    from ..specs import field_name, load_yaml, validate

    path = Path(path)
    data, lines = load_yaml(path, trusted=is_shipped(path))
    model = validate(_models(), data, path, lines)
    values = {k: str(v) for k, v in values.items()}

    def at(loc: tuple) -> Callable[[str, str], InputError]:
        return lambda msg, hint=None: InputError(
            msg, file=path, line=lines.line(loc), field=field_name(loc) or None, hint=hint
        )

    def text(s: str, loc: tuple) -> str:
        out = fill(s, values, at(loc))
        for key in ("regular", "bold", "condensed", "condensed-bold"):
            bad = missing_glyphs(plain(out), key)
            if bad:
                names = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in bad)
                raise at(loc)(f"characters the bundled font cannot print: {names}", "replace them")
        return out

    tables = {name: _table(name, spec, at(())) for name, spec in raw_tables.items()}
    for t in tables.values():
        for s in (*t.columns, *(c for r in t.rows for c in r if c)):
            text(s, ())  # a glyph the font lacks, reported before anything is drawn
    sections = []
    for i, s in enumerate(model.sections):
        loc = ("sections", i)
        blocks = []
        for j, b in enumerate(s.blocks):
            bl = (*loc, "blocks", j)
            if b.text is not None:
                blocks.append(Block("text", text(b.text, (*bl, "text"))))
            elif b.list_ is not None:
                blocks.append(Block("list", items=tuple(text(t, (*bl, "list", k)) for k, t in enumerate(b.list_))))
            elif b.steps is not None:
                blocks.append(Block("steps", items=tuple(text(t, (*bl, "steps", k)) for k, t in enumerate(b.steps))))
            elif b.table is not None:
                if b.table not in tables:
                    known = ", ".join(sorted(tables)) or "none"
                    raise at((*bl, "table"))(f"no table '{b.table}'", f"the game's summary tables() give: {known}")
                blocks.append(Block("table", table=tables[b.table]))
            elif b.example is not None:
                el = (*bl, "example")
                blocks.append(
                    Block("example", text(b.example.text, (*el, "text")), title=text(b.example.title, (*el, "title")))
                )
            elif b.reading is not None:
                blocks.append(Block("reading", text(b.reading, (*bl, "reading"))))
            else:
                blocks.append(Block("write_in", text(b.write_in, (*bl, "write_in"))))
        sections.append(Section(text(s.heading, (*loc, "heading")), s.optional, tuple(blocks)))
    subtitle = text(model.subtitle, ("subtitle",)) if model.subtitle else None
    return Summary(
        game_id, text(model.title, ("title",)), subtitle, text(model.source, ("source",)), tuple(sections), tables
    )
