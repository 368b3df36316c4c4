"""What the *Monaco!* race and season sheets share: their layer stack, and forms — ruled tables whose columns are
printed text, write-in boxes or rows of little boxes to tick."""

from __future__ import annotations

from dataclasses import dataclass

from ...compose.blocks import fit, paragraph
from ...compose.colour import GREY, INK, RULE, WHITE, ZEBRA
from ...paper import PageSpec
from ...scene import Page, Polyline, Style, Text, rect
from ...units import pt_to_mm

LAYERS = ("shade", "grid", "swatch", "boxes", "rules", "text")
BOX = Style(stroke=INK, width=0.25, fill=WHITE)
TICK_BOX = Style(stroke=INK, width=0.18, fill=WHITE)
THIN = Style(stroke=RULE, width=0.15)


def new_page(spec: PageSpec, title: str) -> Page:
    page = Page(spec, title)
    for name in LAYERS:
        page.layer(name)
    return page


def inner(spec: PageSpec) -> tuple[float, float, float, float]:
    """The content box less a hair, so strokes on its edge stay inside it."""
    x, y, w, h = spec.content_box
    return (x + 0.4, y + 0.4, w - 0.8, h - 0.8)


@dataclass
class Col:
    head: str
    width: float  # mm
    kind: str = "text"  # text | box (write in) | ticks (a row of boxes to tick)
    count: int = 1  # ticks: how many
    sub: str = ""  # a second, smaller header line
    align: str = "start"
    groups: int = 5  # ticks: a little gap after every this many


def form(
    page: Page,
    x: float,
    y: float,
    cols: list[Col],
    rows: list[list[object]],
    row_h: float,
    head_h: float = 10.0,
    swatches: list[str | None] | None = None,
    size: float = pt_to_mm(8),
) -> float:
    """A form: a header of column titles, then ``rows`` (one value per text column; box and tick columns take
    no value — pass anything). A ``swatches`` colour draws a strip at the start of its row. Returns the y below."""
    width = sum(c.width for c in cols)
    text = page.layer("text")
    cx = x
    for c in cols:
        anchor = "middle" if c.kind != "text" or c.align == "middle" else "start"
        tx = cx + c.width / 2 if anchor == "middle" else cx + 1.2
        s = fit(c.head, "condensed-bold", size, c.width - 1.0, "form heading")
        text.add(Text(c.head, tx, y + head_h - (4.2 if c.sub else 1.6), s, "condensed-bold", INK, anchor))
        if c.sub:
            s2 = fit(c.sub, "condensed", pt_to_mm(6), c.width - 1.0, "form heading")
            text.add(Text(c.sub, tx, y + head_h - 1.3, s2, "condensed", GREY, anchor))
        cx += c.width
    top = y + head_h
    page.add("rules", Polyline(((x, top), (x + width, top)), Style(stroke=INK, width=0.3)))
    for r, row in enumerate(rows):
        ry = top + r * row_h
        if r % 2 == 1:
            page.add("shade", rect(x, ry, width, row_h, Style(stroke=None, fill=ZEBRA)))
        if swatches and swatches[r]:
            page.add(
                "swatch",
                rect(x + 0.4, ry + row_h * 0.18, 2.6, row_h * 0.64, Style(stroke=INK, width=0.1, fill=swatches[r])),
            )
        cx = x
        values = iter(row)
        for c in cols:
            if c.kind == "text":
                v = next(values, "")
                v = "" if v is None else str(v)
                if v:
                    pad = 4.0 if (cx == x and swatches) else 1.2
                    s = fit(v, "condensed", size, c.width - pad - 0.8, "form cell")
                    if c.align == "middle":
                        text.add(Text(v, cx + c.width / 2, ry + row_h / 2, s, "condensed", INK, "middle", "middle"))
                    else:
                        text.add(Text(v, cx + pad, ry + row_h / 2, s, "condensed", INK, "start", "middle"))
            elif c.kind == "box":
                page.add("boxes", rect(cx + 0.8, ry + 0.7, c.width - 1.6, row_h - 1.4, BOX))
            else:
                b = min(row_h - 2.0, 4.2)
                gap = 0.6
                extra = 1.0
                n_groups = (c.count - 1) // c.groups
                used = c.count * b + (c.count - 1) * gap + n_groups * extra
                bx = cx + (c.width - used) / 2
                for i in range(c.count):
                    page.add("boxes", rect(bx, ry + (row_h - b) / 2, b, b, TICK_BOX))
                    bx += b + gap + (extra if (i + 1) % c.groups == 0 else 0)
            cx += c.width
        page.add("grid", Polyline(((x, ry + row_h), (x + width, ry + row_h)), THIN))
    bottom = top + len(rows) * row_h
    page.add("rules", Polyline(((x, bottom), (x + width, bottom)), Style(stroke=INK, width=0.3)))
    # column separators
    cx = x
    for c in cols[:-1]:
        cx += c.width
        page.add("grid", Polyline(((cx, top), (cx, bottom)), THIN))
    return bottom


def notes(page: Page, lines: list[str], x: float, y: float, width: float, size: float = pt_to_mm(7.5)) -> float:
    layer = page.layer("text")
    for line in lines:
        y = paragraph(layer, line, x, y, width, size) + 1.2
    return y
