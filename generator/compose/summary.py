"""Rule summaries: one composer lays out any game's summary, from its content (``templates/<game>/summary.yaml``)
and its numbers (``generator/games/<pkg>/summary.py``: ``values()`` and ``tables()``).

    summary = load("formula-d")                 # the content model: sections of blocks, placeholders filled
    layout = compose(summary, PageSpec(PAPER))  # two columns on A4 / letter, as many pages as needed
    layout = compose(summary, spec, booklet=True)   # A5 pages imposed two-up on A4 landscape, saddle-stitched
    text = markdown(summary)                    # the same content as Markdown

No game has layout code of its own: the text is data, and this module knows every kind of block (text, list,
steps, table, example, reading, write_in). Layout is a flow of *chunks* (a line, a table row, a heading) poured
into columns: a heading never ends a column (it keeps with the two lines after it), a paragraph never leaves one
line alone at a column's foot or head, examples and reading notes stay whole where they can, and a table that
breaks repeats its header.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..fonts import ascent, cap_height, descent, missing_glyphs, text_width
from ..notices import warn
from ..paper import PageSpec, Paper
from ..scene import Page, Polyline, Style, Text, rect
from ..units import pt_to_mm
from .blocks import Column, TableGrid, auto_columns, page_title, plain, rich_line, rich_wrap
from .colour import GREY, INK, SHADE, WHITE, ZEBRA

PAPER = Paper("a4", "portrait")  # the summary's own paper when the user names none
BOOKLET_PAPER = Paper("a4", "landscape")  # the booklet's sheet: two A5 pages side by side
KINDS = ("text", "list", "steps", "table", "example", "reading", "write_in")
MIN_TEXT = pt_to_mm(7)  # nothing on a summary is set smaller

LAYERS = ("tint", "shade", "boxes", "rules", "text")  # bottom to top: fills never hide text
EXAMPLE_TINT = "#fbf0d5"  # a warm cream: light grey in greyscale
EXAMPLE_BAR = "#8a5a00"  # dark amber: dark grey in greyscale, kept (outlined) by the ink saver
READING_FRAME = Style(stroke=GREY, width=0.3, dash=(1.2, 0.8))


# -- the content model ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    aligns: tuple[str | None, ...]
    rows: tuple[tuple[str | None, ...], ...]  # None: a write-in box


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


# -- loading ---------------------------------------------------------------------------------------------------


def summary_path(game_id: str) -> Path:
    from ..data import templates_dir

    return templates_dir() / game_id / "summary.yaml"


def has_summary(game_id: str) -> bool:
    return summary_path(game_id).is_file()


def games_with_summary() -> list:
    """Every registered game that has a ``templates/<id>/summary.yaml``, in listing order."""
    from .. import games

    return [g for g in games.all_games() if has_summary(g.id)]


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


def _summary_module(game_id: str):
    from .. import games

    game = games.get(game_id)
    return game.module("summary") if game.has("summary") else None


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
    return Table(name, tuple(titles), tuple(aligns), tuple(rows))


def load(game_id: str, **facts: Any) -> Summary:
    """The summary of ``game_id``: its ``summary.yaml`` validated, placeholders filled from the game's
    ``values(**facts)`` and tables taken from its ``tables(**facts)`` (the pack's field, say). Every problem names
    the file, line and field."""
    path = summary_path(game_id)
    if not path.is_file():
        from .. import games

        games.get(game_id)  # an unknown game says so first
        have = ", ".join(g.id for g in games_with_summary()) or "none"
        raise InputError(
            f"the game '{game_id}' has no rule summary yet (templates/{game_id}/summary.yaml)",
            hint=f"games with one: {have}",
        )
    module = _summary_module(game_id)
    if module is None:
        return read(path, game_id, {}, {})
    return read(path, game_id, module.values(**facts), module.tables(**facts))


def read(path: str | Path, game_id: str, values: dict[str, Any], raw_tables: dict[str, Any]) -> Summary:
    """A summary file read with the given ``values`` and ``tables`` (what :func:`load` takes from the game)."""
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


# -- typography ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Type:
    """Sizes (mm) for one form of the summary."""

    body: float
    leading: float
    table: float
    box: float  # examples and reading notes
    label: float  # the small capitals over a box
    heading: float
    title: float
    subtitle: float
    footer: float
    section_gap: float  # above a heading
    block_gap: float  # between blocks of a section


A4_TYPE = Type(
    body=pt_to_mm(8.5),
    leading=1.32,
    table=pt_to_mm(8),
    box=pt_to_mm(8),
    label=pt_to_mm(7),
    heading=pt_to_mm(11.5),
    title=pt_to_mm(22),
    subtitle=pt_to_mm(10),
    footer=pt_to_mm(7),
    section_gap=4.2,
    block_gap=1.8,
)
BOOKLET_TYPE = Type(
    body=pt_to_mm(9),
    leading=1.32,
    table=pt_to_mm(8.5),
    box=pt_to_mm(8.5),
    label=pt_to_mm(7),
    heading=pt_to_mm(12),
    title=pt_to_mm(20),
    subtitle=pt_to_mm(10),
    footer=pt_to_mm(7),
    section_gap=4.2,
    block_gap=1.8,
)
INSET = 4.0  # mm inside the content box: a rulebook's margins, not a card's
FOLD_MARGIN = 10.0  # mm each side of a booklet's fold
COLUMN_GAP = 7.0
MIN_COLUMN = 85.0  # mm: as many columns as fit at least this wide (2 on A4 / letter portrait, 1 on A5)
FOOTER_H = 6.0  # the page footer under the columns: source and page number
BOX_PAD = 2.0
SQUEEZE_BELOW = 0.25  # a last page less full than this tries tighter spacing …
SQUEEZES = (0.75, 0.5)  # … between sections and blocks, by these factors
SHORT_TABLE = 6  # rows: a table this short is never split between columns
BAR_W = 1.1


# -- chunks: the pieces the flow pours into columns -------------------------------------------------------------

Draw = Callable[[Page, float, float, float], None]  # (page, column x, top y, column width)


@dataclass(eq=False)
class Frame:
    """A box drawn round the chunks of one example or reading note (per column, if it breaks)."""

    kind: str  # example | reading


@dataclass(eq=False)
class Chunk:
    height: float
    draw: Draw
    before: float = 0.0  # space above; dropped at the top of a column
    keep: bool = False  # keep with the next chunk
    kind: str = "line"  # heading | line | row | head | box | write_in
    head: Chunk | None = None  # repeated at the top of a new column (a table's header)
    frame: Frame | None = None


def baseline(y: float, step: float, size: float, font: str = "regular") -> float:
    """The baseline of a line whose box, ``step`` tall, starts at ``y``: the font's whole height (ascent to
    descent) centred in the box, so a line never reaches out of it."""
    return y + (step - ascent(size, font) - descent(size, font)) / 2 + ascent(size, font)


def _line_draw(line, size: float, step: float, indent: float, color: str = INK, lead: list | None = None) -> Draw:
    """A chunk drawing one wrapped line (and an optional lead: a bullet or a step number) in a line box ``step``
    tall, the caps centred in it."""

    def draw(page: Page, x: float, y: float, w: float) -> None:
        base = baseline(y, step, size)
        if lead:
            text, font, dx = lead
            page.add("text", Text(text, x + dx, base, size, font, color, anchor="end"))
        rich_line(page.layer("text"), line, x + indent, base, size, color)

    return draw


def _lines(
    text: str,
    width: float,
    size: float,
    t: Type,
    indent: float = 0.0,
    color: str = INK,
    lead=None,
    frame=None,
    font="regular",
) -> list[Chunk]:
    """One chunk per wrapped line; no line is left alone at the foot or the head of a column."""
    step = size * t.leading
    wrapped = rich_wrap(text, width - indent, size, font)
    out = []
    for k, line in enumerate(wrapped):
        out.append(Chunk(step, _line_draw(line, size, step, indent, color, lead if k == 0 else None), frame=frame))
    n = len(out)
    if n > 1:
        out[0].keep = True  # no orphan
        out[n - 2].keep = True  # no widow
    return out


def _heading(section: Section, width: float, t: Type) -> Chunk:
    size = t.heading
    tag = "OPTIONAL"
    tag_size = t.label
    tag_w = text_width(tag, tag_size, "condensed-bold") + 2.4 if section.optional else 0.0
    lines = rich_wrap(section.heading, width - (tag_w + 2 if tag_w else 0), size, "bold", "bold")
    step = size * 1.2
    height = len(lines) * step + 2.4

    def draw(page: Page, x: float, y: float, w: float) -> None:
        for k, line in enumerate(lines):
            rich_line(page.layer("text"), line, x, y + k * step + ascent(size, "bold"), size, INK)
        rule_y = y + len(lines) * step + 0.6
        page.add("rules", Polyline(((x, rule_y), (x + w, rule_y)), Style(stroke=INK, width=0.35)))
        if tag_w:
            bh = tag_size * 1.45
            by = y + (len(lines) - 1) * step + ascent(size, "bold") - cap_height(size) / 2 - bh / 2
            page.add("boxes", rect(x + w - tag_w, by, tag_w, bh, Style(stroke=INK, width=0.25, fill=WHITE)))
            page.add(
                "text",
                Text(tag, x + w - tag_w / 2, by + bh / 2, tag_size, "condensed-bold", INK, "middle", "middle"),
            )

    return Chunk(height + 1.2, draw, t.section_gap, keep=True, kind="heading")


def _table_chunks(table: Table, width: float, t: Type) -> list[Chunk]:
    size = t.table
    columns = None
    while columns is None and size >= MIN_TEXT - 1e-9:
        columns = auto_columns(table.columns, table.rows, width, size, aligns=table.aligns)
        if columns is None:
            size -= pt_to_mm(0.5)
    if columns is None:
        size = MIN_TEXT
        warn(f"summary table '{table.name}': its longest words do not fit a {width:.0f} mm column at 7 pt")
        columns = [Column(c) for c in table.columns]
    # Every write-in box of a table alike, as wide as its narrowest write-in column allows (10 mm at most): room
    # for a number or a range.
    total = sum(c.share for c in columns)
    narrowest = min(
        (width * columns[i].share / total for row in table.rows for i, v in enumerate(row) if v is None),
        default=12.0,
    )
    box = (min(10.0, narrowest - 2 * 1.2), size * 1.55)
    grid = TableGrid(0.0, width, columns, size, write_in=box)

    def head_draw(page: Page, x: float, y: float, w: float) -> None:
        g = TableGrid(x, w, columns, size, write_in=box)
        layer = page.layer("text")
        g.rule(page.layer("rules"), y, heavy=True)
        page.add(
            "shade", rect(x, y, w, g.row_height(list(table.columns), "condensed-bold"), Style(stroke=None, fill=SHADE))
        )
        g.draw_row(layer, list(table.columns), y, "condensed-bold", None)

    def row_draw(row, k: int, last: bool) -> Draw:
        def draw(page: Page, x: float, y: float, w: float) -> None:
            g = TableGrid(x, w, columns, size, write_in=box)
            h = g.row_height(row)
            if k % 2:
                page.add("shade", rect(x, y, w, h, Style(stroke=None, fill=ZEBRA)))
            g.draw_row(page.layer("text"), row, y, "condensed", None)
            if last:
                g.rule(page.layer("rules"), y + h, heavy=True)

        return draw

    head = Chunk(grid.row_height(list(table.columns), "condensed-bold"), head_draw, keep=True, kind="head")
    rows = [
        Chunk(grid.row_height(r), row_draw(r, k, k == len(table.rows) - 1), kind="row", head=head)
        for k, r in enumerate(table.rows)
    ]
    if len(rows) <= SHORT_TABLE:
        for r in rows[:-1]:
            r.keep = True  # a short table stays whole
    elif len(rows) > 1:
        rows[0].keep = True
        rows[-2].keep = True
    return [head, *rows]


def _box(kind: str, label: str, text: str, width: float, t: Type) -> list[Chunk]:
    frame = Frame(kind)
    inner = BOX_PAD + (BAR_W if kind == "example" else 0.0)
    iw = width - inner - BOX_PAD
    size = t.box
    colour = EXAMPLE_BAR if kind == "example" else INK
    label_h = t.label * 1.5

    def label_draw(page: Page, x: float, y: float, w: float) -> None:
        page.add("text", Text(label, x + inner, y + BOX_PAD + t.label * 1.1, t.label, "condensed-bold", colour))

    chunks = [Chunk(BOX_PAD + label_h, label_draw, keep=True, kind="box", frame=frame)]
    for c in _lines(text, iw, size, t, frame=frame):
        c.keep = True
        chunks.append(Chunk(c.height, _shift(c.draw, inner), keep=True, kind="box", frame=frame))
    last = chunks[-1]
    last.height += BOX_PAD
    last.keep = False
    return chunks


def _shift(draw: Draw, dx: float) -> Draw:
    return lambda page, x, y, w: draw(page, x + dx, y, w - dx)


def _write_in(label: str, width: float, t: Type) -> list[Chunk]:
    box_w, box_h = 26.0, 7.5
    size = t.body
    lines = rich_wrap(label, width - box_w - 3, size, "condensed-bold", "condensed-bold")
    step = size * t.leading
    height = max(len(lines) * step, box_h) + 1.0

    def draw(page: Page, x: float, y: float, w: float) -> None:
        top = y + (height - len(lines) * step) / 2
        for k, line in enumerate(lines):
            rich_line(page.layer("text"), line, x, baseline(top + k * step, step, size, "condensed-bold"), size, INK)
        page.add(
            "boxes",
            rect(x + w - box_w, y + (height - box_h) / 2, box_w, box_h, Style(stroke=INK, width=0.35, fill=WHITE)),
        )

    return [Chunk(height, draw, kind="write_in")]


def chunks_of(summary: Summary, width: float, t: Type) -> list[Chunk]:
    """The summary cut into chunks for columns ``width`` mm wide."""
    out: list[Chunk] = []
    for section in summary.sections:
        out.append(_heading(section, width, t))
        for i, block in enumerate(section.blocks):
            if block.kind == "text":
                part = _lines(block.text, width, t.body, t)
                if plain(block.text).rstrip().endswith(":"):
                    part[-1].keep = True  # an introduction stays with what it introduces
            elif block.kind in ("list", "steps"):
                part = []
                for k, item in enumerate(block.items):
                    if block.kind == "list":
                        lead, indent = ["•", "regular", 2.6], 3.8
                    else:
                        lead, indent = [f"{k + 1}.", "bold", 3.6], 5.0
                    lines = _lines(item, width, t.body, t, indent, lead=lead)
                    if len(lines) <= 3:
                        for c in lines[:-1]:
                            c.keep = True
                    if k:
                        lines[0].before = 0.7
                    part += lines
                if plain(block.items[-1]).rstrip().endswith(":"):
                    part[-1].keep = True  # a last item that introduces what follows stays with it
            elif block.kind == "table":
                part = _table_chunks(block.table, width, t)
            elif block.kind == "example":
                label = "EXAMPLE" + (f" — {block.title.upper()}" if block.title and block.title != "Example" else "")
                part = _box("example", label, block.text, width, t)
            elif block.kind == "reading":
                part = _box("reading", "PADDOCK’S READING OF THE RULEBOOK", block.text, width, t)
            else:
                part = _write_in(block.text, width, t)
            gap = t.block_gap + (1.0 if block.kind in ("table", "example", "reading") else 0.0)
            if i and section.blocks[i - 1].kind in ("table", "example", "reading"):
                gap = max(gap, t.block_gap + 1.0)
            part[0].before = gap if i else 0.0
            out += part
    return out


# -- pages ------------------------------------------------------------------------------------------------------


@dataclass
class Placement:
    chunk: Chunk
    page: int  # logical page, 0-based
    column: int
    y: float  # top, in the logical page's frame (0 = the frame's top)


@dataclass
class Layout:
    """A composed summary: the physical pages, what lies where, and the boxes text may fill (for checks)."""

    pages: list[Page]
    placements: list[Placement]
    logical_pages: int  # pages of text (A4 pages, or A5 pages of a booklet, blanks included)
    columns: int
    boxes: list[list[tuple[float, float, float, float]]]  # per physical page: (x, y, w, h) of the title block,
    # each column and the footer: every line of text lies inside one of them
    order: list[list[int]] = field(default_factory=list)  # per physical page: logical page numbers, left to right


def _flow(
    chunks: list[Chunk], columns: int, top: Callable[[int], float], bottom: float, problems: list[str]
) -> list[Placement]:
    """Pour the chunks into columns, page after page (``top(page)`` of the first free line, ``bottom`` of all);
    a piece taller than a column is noted in ``problems``."""
    out: list[Placement] = []
    page, col, y, empty = 0, 0, top(0), True
    force_to = -1
    i, n = 0, len(chunks)
    while i < n:
        ch = chunks[i]
        before = 0.0 if empty else ch.before
        head = ch.head.height if (empty and ch.head is not None) else 0.0
        need = before + head + ch.height
        j = i
        group = need
        while chunks[j].keep and j + 1 < n and i > force_to:
            j += 1
            group += chunks[j].before + chunks[j].height
        fits = y + (need if i <= force_to else group) <= bottom + 1e-6
        if not fits and empty:
            if y + need > bottom + 1e-6:
                problems.append(f"summary: a piece {need:.0f} mm tall does not fit a column; it runs past the foot")
            elif i > force_to:
                force_to = j  # a group taller than a column: break it where it must
            fits = True
        if not fits:
            col += 1
            if col == columns:
                page, col = page + 1, 0
            y, empty = top(page), True
            continue
        if head:
            out.append(Placement(ch.head, page, col, y))
            y += head
        y += before
        out.append(Placement(ch, page, col, y))
        y += ch.height
        empty = False
        i += 1
    return out


def _title_block(summary: Summary, width: float, t: Type) -> tuple[float, Draw]:
    kicker = pt_to_mm(7.5)
    title_lines = rich_wrap(summary.title, width, t.title, "bold", "bold")
    sub_lines = rich_wrap(summary.subtitle, width, t.subtitle) if summary.subtitle else []
    tstep, sstep = t.title * 1.1, t.subtitle * 1.3
    height = kicker * 1.6 + len(title_lines) * tstep + 1.2 + len(sub_lines) * sstep + 5.5

    def draw(page: Page, x: float, y: float, w: float) -> None:
        page.add("text", Text("RULE SUMMARY", x, y + ascent(kicker, "condensed-bold"), kicker, "condensed-bold", GREY))
        yy = y + kicker * 1.6
        for line in title_lines:
            rich_line(page.layer("text"), line, x, yy + ascent(t.title, "bold"), t.title, INK)
            yy += tstep
        yy += 1.2
        for line in sub_lines:
            rich_line(page.layer("text"), line, x, yy + ascent(t.subtitle), t.subtitle, GREY)
            yy += sstep
        yy += 1.6
        page.add("rules", rect(x, yy, w, 0.9, Style(stroke=None, fill=INK)))

    return height, draw


def _footer(summary: Summary, n: int, count: int, width: float, t: Type, number_left: bool) -> Draw:
    size = t.footer
    number = f"{n} / {count}"
    nw = text_width(number, size, "condensed-bold")
    source = summary.credit
    room = width - nw - 6
    sw = text_width(source, size, "condensed")
    if sw > room:
        warn(f"summary footer: the source line is {sw - room:.0f} mm too long for the page; shorten it")

    def draw(page: Page, x: float, y: float, w: float) -> None:
        page.add("rules", Polyline(((x, y), (x + w, y)), Style(stroke=GREY, width=0.2)))
        base = y + 1.4 + cap_height(size) + 0.8
        if number_left:
            page.add("text", Text(number, x, base, size, "condensed-bold", INK))
            page.add("text", Text(source, x + w, base, size, "condensed", GREY, anchor="end"))
        else:
            page.add("text", Text(source, x, base, size, "condensed", GREY))
            page.add("text", Text(number, x + w, base, size, "condensed-bold", INK, anchor="end"))

    return draw


def imposition(count: int) -> list[tuple[int, int]]:
    """Saddle-stitch order of a booklet of ``count`` pages (a multiple of 4): (left, right) page numbers of each
    sheet side, front then back of the first sheet, and so on. 8 pages: (8, 1), (2, 7), (6, 3), (4, 5)."""
    if count % 4:
        raise ValueError("a saddle-stitched booklet has a multiple of 4 pages")
    sides = []
    for s in range(count // 4):
        sides.append((count - 2 * s, 1 + 2 * s))
        sides.append((2 + 2 * s, count - 1 - 2 * s))
    return sides


def compose(summary: Summary, spec: PageSpec, *, booklet: bool = False) -> Layout:
    """Lay out ``summary`` on ``spec``'s paper: columns of text page after page, or (``booklet``) half-size pages
    imposed two to a sheet side for folding."""
    t = BOOKLET_TYPE if booklet else A4_TYPE
    cx, cy, cw, ch = spec.content_box
    if booklet:
        half = spec.width / 2
        fw = half - FOLD_MARGIN - (cx + INSET)
        frame_x = {1: half + FOLD_MARGIN, 0: cx + INSET}  # odd pages lie right of the fold, even ones left

        def fx(n: int) -> float:
            return frame_x[n % 2]
    else:
        fw = cw - 2 * INSET

        def fx(n: int) -> float:
            return cx + INSET

    fy, fb = cy + INSET, cy + ch - 1.0
    columns = max(1, int((fw + COLUMN_GAP) // (MIN_COLUMN + COLUMN_GAP)))
    colw = (fw - COLUMN_GAP * (columns - 1)) / columns
    title_h, title_draw = _title_block(summary, fw, t)
    body_bottom = fb - FOOTER_H - fy

    def pour(squeeze: float) -> tuple[list[Placement], list[str], int]:
        tt = replace(t, section_gap=t.section_gap * squeeze, block_gap=t.block_gap * squeeze)
        problems: list[str] = []
        placed = _flow(
            chunks_of(summary, colw, tt), columns, lambda p: title_h if p == 0 else 0.0, body_bottom, problems
        )
        pages = (placed[-1].page + 1) if placed else 1
        return placed, problems, -(-pages // 4) if booklet else pages

    # Fitting: a last page (or booklet sheet) with next to nothing on it is worth tighter spacing between
    # sections and blocks, if that saves it; the text itself never shrinks.
    placements, problems, sheets = pour(1.0)
    last = placements[-1].page if placements else 0
    filled = sum(p.chunk.height for p in placements if p.page == last)
    if filled < SQUEEZE_BELOW * columns * body_bottom:
        for squeeze in SQUEEZES:
            tighter = pour(squeeze)
            if tighter[2] < sheets:
                placements, problems, sheets = tighter
                break
    for problem in problems:
        warn(problem)
    used = (placements[-1].page + 1) if placements else 1
    count = -(-used // 4) * 4 if booklet else used

    # Where each logical page (1-based) goes: (physical page, x of its frame).
    order = [list(side) for side in imposition(count)] if booklet else [[n] for n in range(1, count + 1)]
    where = {n: (k, fx(n)) for k, side in enumerate(order) for n in side}
    title = f"{summary.title} — rule summary" + (" (booklet)" if booklet else "")
    pages = []
    for k in range(len(order)):
        page = Page(spec, page_title(k + 1, len(order), title))
        for name in LAYERS:
            page.layer(name)
        pages.append(page)
    boxes: list[list[tuple[float, float, float, float]]] = [[] for _ in order]
    for n in range(1, count + 1):
        k, x = where[n]
        if n > used:
            continue  # a blank page to make the booklet up to a multiple of 4
        if n == 1:
            title_draw(pages[k], x, fy, fw)
        _footer(summary, n, count, fw, t, number_left=booklet and n % 2 == 0)(pages[k], x, fb - FOOTER_H + 1.2, fw)
        top = fy + (title_h if n == 1 else 0.0)
        if n == 1:
            boxes[k].append((x, fy, fw, title_h))  # the title block spans the columns
        boxes[k] += [(x + c * (colw + COLUMN_GAP), top, colw, fy + body_bottom - top) for c in range(columns)]
        boxes[k].append((x, fb - FOOTER_H, fw, FOOTER_H))  # the page footer
    for p in placements:
        k, x = where[p.page + 1]
        p.chunk.draw(pages[k], x + p.column * (colw + COLUMN_GAP), fy + p.y, colw)
    _frames(placements, pages, where, fy, colw)
    return Layout(pages, placements, count, columns, boxes, order)


def _frames(placements: list[Placement], pages: list[Page], where, fy: float, colw: float) -> None:
    spans: dict[tuple[int, int, int], list] = {}
    for p in placements:
        if p.chunk.frame is None:
            continue
        key = (id(p.chunk.frame), p.page, p.column)
        lo, hi = p.y, p.y + p.chunk.height
        if key in spans:
            spans[key][1] = min(spans[key][1], lo)
            spans[key][2] = max(spans[key][2], hi)
        else:
            spans[key] = [p.chunk.frame, lo, hi, p.page, p.column]
    for frame, lo, hi, page, column in spans.values():
        k, x = where[page + 1]
        x += column * (colw + COLUMN_GAP)
        y, h = fy + lo, hi - lo
        if frame.kind == "example":
            pages[k].add("tint", rect(x, y, colw, h, Style(stroke=None, fill=EXAMPLE_TINT)))
            pages[k].add("boxes", rect(x, y, BAR_W, h, Style(stroke=None, fill=EXAMPLE_BAR)))
        else:
            pages[k].add("boxes", rect(x + 0.15, y + 0.15, colw - 0.3, h - 0.3, READING_FRAME))


# -- Markdown ---------------------------------------------------------------------------------------------------


WRITE_IN_MD = "\\_\\_\\_\\_"  # a blank to write on: four underscores, escaped so Markdown shows them


def _md_cell(v: str | None) -> str:
    if v is None:
        return WRITE_IN_MD
    return v.replace("|", "\\|").replace("\n", " ")


def markdown_table(table: Table) -> list[str]:
    n = len(table.columns)
    lines = ["| " + " | ".join(_md_cell(c) for c in table.columns) + " |"]
    aligns = auto_columns(table.columns, table.rows, 1e9, aligns=table.aligns) or []
    marks = [":---:" if (aligns and aligns[i].align == "middle") else "---" for i in range(n)]
    lines.append("| " + " | ".join(marks) + " |")
    for row in table.rows:
        cells = [_md_cell(v) for v in row] + [""] * (n - len(row))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown(summary: Summary) -> str:
    """The summary as Markdown: the same sections, blocks and tables, for a club website or a forum post."""
    out = [f"# {summary.title}", ""]
    if summary.subtitle:
        out += [f"*{summary.subtitle}*", ""]
    for s in summary.sections:
        out += [f"## {s.heading}" + (" *(optional)*" if s.optional else ""), ""]
        for b in s.blocks:
            if b.kind == "text":
                out += [b.text, ""]
            elif b.kind == "list":
                out += [f"- {i}" for i in b.items] + [""]
            elif b.kind == "steps":
                out += [f"{k + 1}. {i}" for k, i in enumerate(b.items)] + [""]
            elif b.kind == "table":
                out += markdown_table(b.table) + [""]
            elif b.kind == "example":
                title = f" — {b.title}" if b.title and b.title != "Example" else ""
                out += [f"> **Example{title}.** {b.text}", ""]
            elif b.kind == "reading":
                out += [f"> **Paddock’s reading of the rulebook:** {b.text}", ""]
            else:
                out += [f"**{b.text}:** {WRITE_IN_MD}", ""]
    out += ["---", "", f"*{summary.credit}. Summary in Paddock’s own words.*", ""]
    return "\n".join(out)


# -- for packs and the command ----------------------------------------------------------------------------------


def summary_pages(summary: Summary, opts, *, booklet: bool = False) -> list[Page]:
    """The summary's pages on the paper the user asked for (``opts``: :class:`~generator.pipeline.OutputOptions`)."""
    if booklet:
        spec = opts.document_page(BOOKLET_PAPER)
        if spec.paper.orientation != "landscape":
            warn(f"a booklet is imposed on {spec.paper.size_label} landscape (two pages side by side), not portrait")
            spec = spec.rotated()
        return compose(summary, spec, booklet=True).pages
    return compose(summary, opts.document_page(PAPER)).pages


def summary_sheets(game_id: str, opts, *, booklet: bool = False, optional: bool = True, **facts: Any) -> list:
    """The rule summary of ``game_id`` as pack sheets (``rules-1``, ``rules-2`` …). ``facts`` reach the game's
    ``values()`` (e.g. the board's ``action_every``), so the summary says what the pack's other sheets say."""
    from ..pipeline import numbered

    summary = load(game_id, **facts).only(optional)
    return numbered("rules-booklet" if booklet else "rules", summary_pages(summary, opts, booklet=booklet))
