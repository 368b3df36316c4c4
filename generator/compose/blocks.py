"""Layout blocks every sheet of every game uses: fitted text, wrapped paragraphs, titles, headings, bullet lists,
ruled tables, grids of cards with cut lines, and numbering of multi-page sheets.

All sizes in mm (font sizes too: use :func:`generator.units.pt_to_mm`). A block draws into a
:class:`~generator.scene.Layer` and returns the y under what it drew, so a composer stacks blocks top to bottom.
Text that cannot fit at a legible size raises a :class:`~generator.notices.LayoutWarning` naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..fonts import LEGIBLE_FLOOR, ascent, check_text, fit_size, text_width
from ..notices import warn
from ..paper import PageSpec
from ..scene import Layer, Page, Polyline, Style, Text, rect
from ..units import pt_to_mm
from .colour import GREY, INK, RULE, SHADE, text_on

BODY = pt_to_mm(7.5)
SMALL = pt_to_mm(6.5)
LEADING = 1.22  # line pitch as a multiple of the font size


# -- text ----------------------------------------------------------------------------------------------------


def fit(text: str, font: str, size: float, width: float, what: str = "text", height: float | None = None) -> float:
    """The largest size up to ``size`` at which one line of ``text`` fits ``width`` (and ``height``) mm.

    Below the legible floor it stays at the floor and warns, naming the string and ``what`` it is, so the user
    learns that it overflows its box instead of finding out on paper."""
    check_text(text, font)
    s, ok = fit_size(text, font, size, width, height)
    if not ok:
        warn(
            f"{what}: '{text}' does not fit its {width:.1f} mm box even at {LEGIBLE_FLOOR * 72 / 25.4:.0f} pt; "
            "shorten it"
        )
    return s


def fitted_text(
    text: str,
    x: float,
    y: float,
    width: float,
    *,
    max_size: float,
    height: float | None = None,
    font: str = "regular",
    color: str = INK,
    anchor: str = "start",
    valign: str = "baseline",
    rotation: float = 0.0,
    what: str = "text",
) -> Text:
    """A :class:`Text` as large as ``max_size`` but shrunk to fit ``width`` (and ``height``) mm."""
    size = fit(text, font, max_size, width, what, height)
    return Text(text, x, y, size, font, color, anchor, valign, rotation)


def wrap(text: str, width: float, size: float, font: str = "regular") -> list[str]:
    """Greedy word wrap to ``width`` mm; a word longer than the line is left whole (the caller fits it)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, size, font) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def paragraph(
    layer: Layer,
    text: str,
    x: float,
    y: float,
    width: float,
    size: float = BODY,
    font: str = "regular",
    color: str = INK,
    leading: float = LEADING,
) -> float:
    """Wrapped text whose first line's top is at ``y``; returns the y under the last line."""
    lines = wrap(text, width, size, font)
    step = size * leading
    for i, line in enumerate(lines):
        s = size if text_width(line, size, font) <= width else fit(line, font, size, width)
        layer.add(Text(line, x, y + i * step, s, font, color, valign="top"))
    return y + len(lines) * step - (step - size) + size * 0.15


def title(layer: Layer, text: str, x: float, y: float, width: float, subtitle: str | None = None) -> float:
    """A sheet title (16 pt bold) and an optional line under it at the top of a sheet; returns the y below."""
    size = pt_to_mm(16)
    layer.add(Text(text, x, y + ascent(size, "bold"), size, "bold", INK))
    y += ascent(size, "bold") + 2
    if subtitle:
        s = fit(subtitle, "regular", pt_to_mm(8.5), width, "the line under the title")
        layer.add(Text(subtitle, x, y + ascent(s), s, "regular", INK))
        y += ascent(s) + 2.5
    return y + 2


def heading(text_layer: Layer, rule_layer: Layer, text: str, x: float, y: float, width: float) -> float:
    """A section heading (10.5 pt bold) with a rule under it; returns the y below."""
    size = pt_to_mm(10.5)
    text_layer.add(Text(text, x, y + ascent(size, "bold"), size, "bold", INK))
    y += ascent(size, "bold") + 1.6
    rule_layer.add(Polyline(((x, y), (x + width, y)), Style(stroke=INK, width=0.2)))
    return y + 2.2


def bullets(layer: Layer, items: Sequence[str], x: float, y: float, width: float, size: float = BODY) -> float:
    """A bulleted list; returns the y under it."""
    for item in items:
        layer.add(Text("•", x + 0.5, y, size, "regular", INK, valign="top"))
        y = paragraph(layer, item, x + 4, y, width - 4, size, leading=1.3) + 1.2
    return y


# -- tables --------------------------------------------------------------------------------------------------


@dataclass
class Column:
    title: str
    share: float = 1.0  # relative width
    align: Literal["start", "middle"] = "middle"


class TableGrid:
    """A ruled table laid out row by row: column edges, row heights, and drawing one row at a time, so a
    composer can break a long table between columns or pages (repeating its header). :func:`table` draws a whole
    table with it. Cells wrap; ``None`` draws an empty write-in box; a short row's last cell spans the rest."""

    def __init__(
        self,
        x: float,
        width: float,
        columns: Sequence[Column],
        size: float = BODY,
        pad: float = 1.2,
        write_in: tuple[float, float] | None = None,
    ) -> None:
        """``write_in``: the (width, height) of every write-in box, the same in every row; by default a square as
        tall as its row allows, up to 5 mm."""
        total = sum(c.share for c in columns)
        widths = [width * c.share / total for c in columns]
        self.xs = [x]
        for w in widths:
            self.xs.append(self.xs[-1] + w)
        self.x, self.width, self.columns, self.size, self.pad = x, width, list(columns), size, pad
        self.step = size * LEADING
        self.write_in = write_in

    def cells(self, row: Sequence[object]) -> list[tuple[int, int, object]]:
        """``(first column, column after the last, value)`` of each cell of ``row``."""
        return [(i, len(self.columns) if i == len(row) - 1 else i + 1, v) for i, v in enumerate(row)]

    def lines(self, row: Sequence[object], font: str) -> list[list[str]]:
        xs, pad = self.xs, self.pad
        return [
            [] if v is None else wrap(str(v), xs[j] - xs[i] - 2 * pad, self.size, font) for i, j, v in self.cells(row)
        ]

    def row_height(self, row: Sequence[object], font: str = "condensed") -> float:
        lines = self.lines(row, font)
        h = max(1, *(len(ls) for ls in lines)) * self.step + 2 * self.pad - (self.step - self.size) + 0.4
        if self.write_in and any(v is None for v in row):
            h = max(h, self.write_in[1] + 2 * self.pad)
        return h

    def rule(self, layer: Layer, y: float, heavy: bool = False) -> None:
        style = Style(stroke=INK, width=0.3) if heavy else Style(stroke=RULE, width=0.2)
        layer.add(Polyline(((self.x, y), (self.x + self.width, y)), style))

    def draw_row(self, layer: Layer, row: Sequence[object], top: float, font: str, fill: str | None) -> float:
        """One row with its top at ``top`` and a thin rule under it; returns its bottom."""
        xs, pad, size, step = self.xs, self.pad, self.size, self.step
        lines = self.lines(row, font)
        h = self.row_height(row, font)
        if fill:
            layer.add(rect(self.x, top, self.width, h, Style(stroke=None, fill=fill)))
        for (i, j, v), ls in zip(self.cells(row), lines, strict=True):
            w = xs[j] - xs[i]
            align = self.columns[i].align if j == i + 1 else "start"
            if v is None:  # write-in box: the rulebook does not show this number
                bw = bh = min(h - 2 * pad, 5.0)
                if self.write_in:
                    bw, bh = min(self.write_in[0], w - 2 * pad), self.write_in[1]
                layer.add(rect(xs[i] + w / 2 - bw / 2, top + h / 2 - bh / 2, bw, bh, Style(stroke=INK, width=0.25)))
                continue
            for k, line in enumerate(ls):
                s = size
                if text_width(line, s, font) > w - 2 * pad:
                    s = fit(line, font, size, w - 2 * pad, "table cell")
                tx = xs[i] + pad if align == "start" else xs[i] + w / 2
                layer.add(Text(line, tx, top + pad + 0.2 + k * step, s, font, INK, anchor=align, valign="top"))
        self.rule(layer, top + h)
        return top + h


def table(
    layer: Layer,
    x: float,
    y: float,
    width: float,
    columns: Sequence[Column],
    rows: Sequence[Sequence[object]],
    size: float = BODY,
    head_fill: str = SHADE,
    pad: float = 1.2,
    zebra: str | None = None,
) -> float:
    """A ruled table; cells wrap. ``None`` draws an empty write-in box. A short row's last cell spans the rest.
    Returns the y under the table."""
    grid = TableGrid(x, width, columns, size, pad)
    top = y
    grid.rule(layer, top, heavy=True)
    top = grid.draw_row(layer, [c.title for c in columns], top, "condensed-bold", head_fill)
    for k, row in enumerate(rows):
        top = grid.draw_row(layer, row, top, "condensed", zebra if zebra and k % 2 else None)
    grid.rule(layer, top, heavy=True)
    return top


def auto_columns(
    titles: Sequence[str],
    rows: Sequence[Sequence[object]],
    width: float,
    size: float = BODY,
    pad: float = 1.2,
    aligns: Sequence[str | None] | None = None,
) -> list[Column] | None:
    """Columns for a table whose widths follow its content (like a browser's automatic table layout): each column
    at least as wide as its longest word, the rest of ``width`` shared out by how much text each column holds.
    Short cells (numbers, ranges) are centred, prose starts at the left unless ``aligns`` says otherwise.
    None when even the longest words do not fit ``width`` at ``size``."""
    n = len(titles)
    lo = [0.0] * n
    hi = [0.0] * n
    for r, row in enumerate([list(titles), *rows]):
        font = "condensed-bold" if r == 0 else "condensed"
        for i, v in enumerate(row):
            if v is None:
                lo[i] = max(lo[i], 6.0)
                hi[i] = max(hi[i], 6.0)
                continue
            text = str(v)
            if _spans(row, i, n):
                continue
            lo[i] = max(lo[i], *(text_width(w, size, font) for w in text.split() or [""]))
            hi[i] = max(hi[i], text_width(text, size, font))
    lo = [v + 2 * pad + 0.2 for v in lo]
    hi = [max(a, v + 2 * pad + 0.2) for a, v in zip(lo, hi, strict=True)]
    if sum(lo) > width + 1e-6:
        return None
    if sum(hi) <= width:
        widths = [h * width / sum(hi) for h in hi]
    else:
        spare = width - sum(lo)
        want = [h - a for a, h in zip(lo, hi, strict=True)]
        widths = [a + spare * w / sum(want) for a, w in zip(lo, want, strict=True)]
    align = column_aligns(titles, rows, aligns)
    return [Column(str(title_), w, a) for title_, w, a in zip(titles, widths, align, strict=True)]


def _spans(row: Sequence[object], i: int, n: int) -> bool:
    """A short row's last cell spans the rest of the row: it claims no width and sets no alignment."""
    return i == len(row) - 1 and i < n - 1


def column_aligns(
    titles: Sequence[str], rows: Sequence[Sequence[object]], aligns: Sequence[str | None] | None = None
) -> list[str]:
    """Each column's alignment: ``aligns`` where it names one, else ``middle`` for short cells (numbers, ranges:
    7 characters at most, the title not counted) and ``start`` for prose."""
    n = len(titles)
    longest = [0] * n
    for row in rows:
        for i, v in enumerate(row):
            if v is not None and not _spans(row, i, n):
                longest[i] = max(longest[i], len(str(v)))
    return [
        (aligns[i] if aligns and i < len(aligns) else None) or ("middle" if longest[i] <= 7 else "start")
        for i in range(n)
    ]


# -- rich text -----------------------------------------------------------------------------------------------

Run = tuple[str, str]  # (text, font key)


def runs(text: str, font: str = "regular", bold: str = "bold") -> list[Run]:
    """``text`` cut into runs of one font: ``**…**`` marks bold (the markers are dropped)."""
    out: list[Run] = []
    for k, part in enumerate(text.split("**")):
        if part:
            out.append((part, bold if k % 2 else font))
    return out


def plain(text: str) -> str:
    """``text`` without its ``**`` bold markers."""
    return text.replace("**", "")


def rich_wrap(text: str, width: float, size: float, font: str = "regular", bold: str = "bold") -> list[list[Run]]:
    """Greedy word wrap of text with ``**bold**`` runs; each line is a list of runs. A run keeps the space that
    follows its last word, so text read back from the PDF has its spaces."""
    words: list[tuple[str, str, bool]] = []  # (word, font, space after)
    for part, f in runs(text, font, bold):
        pieces = part.split(" ")
        for i, w in enumerate(pieces):
            if w:
                words.append((w, f, i < len(pieces) - 1))
            elif i == 0 and words:  # a space at a run's start: the previous word has one after it
                words[-1] = (words[-1][0], words[-1][1], True)
    lines: list[list[Run]] = []
    line: list[tuple[str, str, bool]] = []
    x = 0.0
    for word in words:
        w, f, _ = word
        space = text_width(" ", size, line[-1][1]) if line and line[-1][2] else 0.0
        wide = text_width(w, size, f)
        if line and x + space + wide > width:
            lines.append(_merge(line))
            line, x = [], 0.0
            space = 0.0
        line.append(word)
        x += space + wide
    if line or not lines:
        lines.append(_merge(line))
    return lines


def _merge(words: list[tuple[str, str, bool]]) -> list[Run]:
    out: list[Run] = []
    for i, (w, f, space) in enumerate(words):
        text = w + (" " if space and i < len(words) - 1 else "")
        if out and out[-1][1] == f:
            out[-1] = (out[-1][0] + text, f)
        else:
            out.append((text, f))
    return out


def rich_line(layer: Layer, line: Sequence[Run], x: float, y: float, size: float, color: str = INK) -> float:
    """One wrapped line of runs with its baseline at ``y``; returns the x after it."""
    for text, f in line:
        if text.strip():
            layer.add(Text(text, x, y, size, f, color))
        x += text_width(text, size, f)
    return x


# -- cards and cut lines -------------------------------------------------------------------------------------


def card_grid(page: Page | PageSpec, cols: int, rows: int, gap: float = 4.0) -> list[tuple[float, float, float, float]]:
    """Equal cards filling the page's content box, left to right then down."""
    x0, y0, w, h = page.content_box
    m = 0.3  # the cut line's half width stays inside the box
    x0, y0, w, h = x0 + m, y0 + m, w - 2 * m, h - 2 * m
    cw = (w - gap * (cols - 1)) / cols
    ch = (h - gap * (rows - 1)) / rows
    return [(x0 + c * (cw + gap), y0 + r * (ch + gap), cw, ch) for r in range(rows) for c in range(cols)]


def cut_frame(layer: Layer, box: tuple[float, float, float, float]) -> None:
    """A thin dashed line to cut along, exactly on the card's edge."""
    x, y, w, h = box
    layer.add(rect(x, y, w, h, Style(stroke=GREY, width=0.2, dash=(1.5, 1.0))))


def name_strip(
    layer: Layer, x: float, y: float, w: float, h: float, pad: float, colour: str, name: str, size: float, width: float
) -> str:
    """A strip in ``colour`` across the top of a card with ``name`` on it; returns the ink that reads on it."""
    layer.add(rect(x, y, w, h, Style(stroke=GREY, width=0.2, fill=colour)))
    ink = text_on(colour)
    s = fit(name, "bold", size, width, "name")
    layer.add(Text(name, x + pad, y + h / 2, s, "bold", ink, valign="middle"))
    return ink


def page_title(number: int, count: int, title: str) -> str:
    """A multi-page sheet's page title: ``Title (2/3)``; the title alone when there is one page."""
    return title + (f" ({number}/{count})" if count > 1 else "")


def grid_pages(
    spec: PageSpec,
    title_text: str,
    entries: Sequence,
    item_w: float,
    item_h: float,
    gap: float,
    head: float,
    layers: Sequence[str],
    title_layer: str,
    draw: Callable[[Page, object, float, float], None],
) -> list[Page]:
    """Pages titled ``title_text`` holding ``entries`` in a centred grid of ``item_w`` × ``item_h`` items under a
    heading ``head`` mm tall; ``draw(page, entry, x, y)`` draws one item with its top-left corner at (x, y)."""
    x0, y0, cw, ch = spec.content_box
    cols = max(1, int((cw + gap) // (item_w + gap)))
    rows = max(1, int((ch - head + gap) // (item_h + gap)))
    if item_w > cw or item_h > ch - head:
        from ..errors import InputError

        raise InputError(
            f"{title_text}: an item of {item_w:g} × {item_h:g} mm does not fit on {spec.paper.label}",
            hint="use larger paper",
        )
    per = cols * rows
    chunks = [entries[i : i + per] for i in range(0, len(entries), per)] or [[]]
    pages = []
    for k, chunk in enumerate(chunks):
        name = page_title(k + 1, len(chunks), title_text)
        page = Page(spec, name)
        for layer in layers:
            page.layer(layer)
        size = pt_to_mm(13)
        page.add(title_layer, Text(name, x0, y0 + ascent(size, "bold"), size, "bold", INK))
        gx = x0 + (cw - (cols * (item_w + gap) - gap)) / 2
        for i, entry in enumerate(chunk):
            r, c = divmod(i, cols)
            draw(page, entry, gx + c * (item_w + gap), y0 + head + r * (item_h + gap))
        pages.append(page)
    return pages
