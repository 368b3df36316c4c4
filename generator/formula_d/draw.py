"""Small layout helpers the Formula D sheets share: wrapped text, ruled tables, card grids, cut lines.

All sizes in mm. Each helper draws into a :class:`~generator.scene.Layer` and returns where it ended, so a
composer stacks blocks top to bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..compose.layout import wrap
from ..fonts import LEGIBLE_FLOOR, fit_size, text_width
from ..pipeline import warn
from ..scene import Layer, Page, Polyline, Style, Text, rect
from ..units import pt_to_mm

INK = "#1a1a1a"
GREY = "#6b6b6b"
RULE = "#9a9a9a"
LIGHT = "#eeeeee"
BODY = pt_to_mm(7.5)
SMALL = pt_to_mm(6.5)
LEADING = 1.22


def fitted(text: str, font: str, size: float, width: float, what: str) -> float:
    """The size at which one line fits ``width``; warns when it needs to go below the legible floor."""
    s, ok = fit_size(text, font, size, width)
    if not ok:
        warn(f"{what}: '{text}' does not fit {width:.0f} mm even at {LEGIBLE_FLOOR / 0.3528:.0f} pt")
    return s


def paragraph(
    layer: Layer,
    text: str,
    x: float,
    y: float,
    width: float,
    size: float = BODY,
    font: str = "regular",
    color: str = INK,
) -> float:
    """Wrapped text whose first line's top is at ``y``; returns the y under the last line."""
    lines = wrap(text, width, size, font)
    step = size * LEADING
    for i, line in enumerate(lines):
        s = size if text_width(line, size, font) <= width else fitted(line, font, size, width, "text")
        layer.add(Text(line, x, y + i * step, s, font, color, valign="top"))
    return y + len(lines) * step - (step - size) + size * 0.15


@dataclass
class Column:
    title: str
    share: float = 1.0  # relative width
    align: str = "middle"  # start | middle


def table(
    layer: Layer,
    x: float,
    y: float,
    width: float,
    columns: Sequence[Column],
    rows: Sequence[Sequence[object]],
    size: float = BODY,
    head_fill: str = LIGHT,
    pad: float = 1.2,
) -> float:
    """A ruled table; cells wrap. ``None`` draws an empty write-in box. A short row's last cell spans the rest.
    Returns the y under the table."""
    total = sum(c.share for c in columns)
    widths = [width * c.share / total for c in columns]
    xs = [x]
    for w in widths:
        xs.append(xs[-1] + w)
    step = size * LEADING
    thin = Style(stroke=RULE, width=0.2)

    def cells(row: Sequence[object]) -> list[tuple[int, int, object]]:
        out = []
        for i, v in enumerate(row):
            last = i == len(row) - 1
            out.append((i, len(columns) if last else i + 1, v))
        return out

    def row_lines(row: Sequence[object], font: str) -> list[list[str]]:
        return [[] if v is None else wrap(str(v), xs[j] - xs[i] - 2 * pad, size, font) for i, j, v in cells(row)]

    def draw_row(row: Sequence[object], top: float, font: str, fill: str | None) -> float:
        lines = row_lines(row, font)
        h = max(1, *(len(ls) for ls in lines)) * step + 2 * pad - (step - size) + 0.4
        if fill:
            layer.add(rect(x, top, width, h, Style(stroke=None, fill=fill)))
        for (i, j, v), ls in zip(cells(row), lines, strict=True):
            w = xs[j] - xs[i]
            align = columns[i].align if j == i + 1 else "start"
            if v is None:  # write-in box: the rulebook does not show this number
                b = min(h - 2 * pad, 5.0)
                layer.add(rect(xs[i] + w / 2 - b / 2, top + h / 2 - b / 2, b, b, Style(stroke=INK, width=0.25)))
                continue
            for k, line in enumerate(ls):
                s = size
                if text_width(line, s, font) > w - 2 * pad:
                    s = fitted(line, font, size, w - 2 * pad, "table cell")
                tx = xs[i] + pad if align == "start" else xs[i] + w / 2
                layer.add(Text(line, tx, top + pad + 0.2 + k * step, s, font, INK, anchor=align, valign="top"))
        layer.add(Polyline(((x, top + h), (x + width, top + h)), thin))
        return top + h

    top = y
    layer.add(Polyline(((x, top), (x + width, top)), Style(stroke=INK, width=0.3)))
    top = draw_row([c.title for c in columns], top, "condensed-bold", head_fill)
    for row in rows:
        top = draw_row(row, top, "condensed", None)
    layer.add(Polyline(((x, top), (x + width, top)), Style(stroke=INK, width=0.3)))
    return top


def card_grid(page: Page, cols: int, rows: int, gap: float = 4.0) -> list[tuple[float, float, float, float]]:
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


def player_header(
    layer: Layer, x: float, y: float, w: float, head: float, pad: float, player, size: float, name_width: float
) -> str:
    """A strip in the car's colour across the top of a card with the player's name; returns the legible ink."""
    from ..compose.colour import text_on

    layer.add(rect(x, y, w, head, Style(stroke=GREY, width=0.2, fill=player.colour)))
    ink = text_on(player.colour)
    s = fitted(player.name, "bold", size, name_width, "player name")
    layer.add(Text(player.name, x + pad, y + head / 2, s, "bold", ink, valign="middle"))
    return ink
