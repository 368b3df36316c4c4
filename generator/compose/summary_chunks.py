"""A rule summary cut into *chunks*: the pieces :mod:`.summary_layout` pours into columns (a line, a table row, a
heading, a line of an example box), each knowing its height, the space above it, whether it keeps with the next
and how to draw itself. This module knows every kind of block (text, list, steps, table, example, reading,
write_in) and the summary's type sizes; it decides nothing about pages.

Keeps: a heading keeps with the two lines after it, a paragraph never leaves one line alone at a column's foot or
head, numbered steps, examples and reading notes stay whole where they can, a short table stays whole and a long
one repeats its header where it breaks. Text in backticks (a command) prints in bold (:func:`printed`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..fonts import ascent, cap_height, descent, text_width
from ..notices import warn
from ..scene import Page, Polyline, Style, Text, rect
from ..units import pt_to_mm
from .blocks import Column, TableGrid, auto_columns, plain, rich_line, rich_wrap
from .colour import INK, SHADE, WHITE, ZEBRA
from .summary import Section, Summary, Table

MIN_TEXT = pt_to_mm(7)  # nothing on a summary is set smaller
EXAMPLE_BAR = "#8a5a00"  # dark amber: dark grey in greyscale, kept (outlined) by the ink saver


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
BOX_PAD = 2.0
SHORT_TABLE = 6  # rows: a table this short is never split between columns
BAR_W = 1.1  # the example box's bar


# -- chunks: the pieces the flow pours into columns -------------------------------------------------------------

Draw = Callable[[Page, float, float, float], None]  # (page, column x, top y, column width)


@dataclass(eq=False)
class Frame:
    """A box drawn round the chunks of one example or reading note (per column, if it breaks)."""

    kind: Literal["example", "reading"]


@dataclass(eq=False)
class Chunk:
    height: float
    draw: Draw
    before: float = 0.0  # space above; dropped at the top of a column
    keep: bool = False  # keep with the next chunk
    kind: Literal["heading", "line", "row", "head", "box", "write_in"] = "line"
    head: Chunk | None = None  # repeated at the top of a new column (a table's header)
    frame: Frame | None = None
    block: tuple[int, int] | None = None  # (section, block) it was cut from; None for a heading


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


def printed(text: str) -> str:
    """``text`` as the page prints it: a span in backticks (a command, ``paddock pack motox``) set in bold, as
    Markdown shows it as code, the backticks dropped; inside bold text the backticks are simply dropped."""
    if "`" not in text:
        return text
    out = []
    for k, part in enumerate(text.split("**")):
        if k % 2:
            out.append(part.replace("`", ""))
        else:
            out.append("".join(f"**{p}**" if j % 2 and p else p for j, p in enumerate(part.split("`"))))
    return "**".join(out)


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
    wrapped = rich_wrap(printed(text), width - indent, size, font)
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
    lines = rich_wrap(printed(section.heading), width - (tag_w + 2 if tag_w else 0), size, "bold", "bold")
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
    if len(rows) <= SHORT_TABLE or table.whole:
        for r in rows[:-1]:
            r.keep = True  # a short table (or one its game keeps whole) stays whole
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
    lines = rich_wrap(printed(label), width - box_w - 3, size, "condensed-bold", "condensed-bold")
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
    for n, section in enumerate(summary.sections):
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
                if block.kind == "steps":
                    for c in part[:-1]:
                        c.keep = True  # numbered steps are read in one go: never split over a column or a page
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
            for c in part:
                c.block = (n, i)
            out += part
    return out
