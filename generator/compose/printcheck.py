"""The print check of a sheet whose sizes matter (a board, slips, pieces, tools, the calibration sheet): a 10 cm
and a 4 in scale bar, and a footer that says how to print. A text sheet (rules, tables, cards) carries a one-line
footer instead: its title and paper.

A player holds a ruler to the bars: if either is off, the printer scaled the page ("fit to page") and the board
is not at true scale.
"""

from __future__ import annotations

from ..scene import FOOTER_BAND, Page, Polygon, Style, Text
from ..units import inch_to_mm, pt_to_mm

LAYER = "print-check"
BAR_H = 1.3  # mm, height of each bar
BAR_TOP = 3.0  # mm from the top of the footer band to the first bar: clear of tables and cut lines above
BAR_GAP = 2.2  # mm between the two bars
FRAME = 0.2  # mm, the black frame of the bars, inside their exact length
INK = "#1a1a1a"
LABEL = pt_to_mm(6.5)


def bar(page: Page, x: float, y: float, length: float, divisions: int, label: str) -> None:
    """A framed bar of exactly ``length`` mm, alternating black/white ``divisions``, ticks at each division."""
    layer = page.layer(LAYER)
    black = Style(stroke=None, fill=INK)
    white = Style(stroke=None, fill="#ffffff")
    layer.add(Polygon(((x, y), (x + length, y), (x + length, y + BAR_H), (x, y + BAR_H)), (), black))
    step = length / divisions
    for i in range(divisions):
        if i % 2 == 1:
            x0 = x + i * step + (0 if i else FRAME)
            x1 = x + (i + 1) * step - (FRAME if i == divisions - 1 else 0)
            layer.add(
                Polygon(((x0, y + FRAME), (x1, y + FRAME), (x1, y + BAR_H - FRAME), (x0, y + BAR_H - FRAME)), (), white)
            )
    layer.add(Text(label, x + length + 1.5, y + BAR_H / 2, LABEL, "condensed-bold", INK, valign="middle"))


def footer_text(page: Page) -> str:
    parts = [page.title] if page.title else []
    parts.append(page.paper.label)
    if page.spec.to_scale:
        parts.append("print at 100 % / actual size")
    return "  ·  ".join(parts)


def add_print_check(page: Page) -> None:
    """Put the scale bars and the footer in the band reserved at the bottom of the page (once); a text sheet gets
    its one-line footer there."""
    if LAYER in page.layers:
        return
    x, y, w, h = page.printable
    top = y + h - FOOTER_BAND
    if not page.spec.to_scale:
        _text_footer(page, x, top, w)
        return
    bar(page, x, top + BAR_TOP, 100.0, 10, "10 cm")
    bar(page, x, top + BAR_TOP + BAR_H + BAR_GAP, inch_to_mm(4), 4, "4 in")
    layer = page.layer(LAYER)
    text = footer_text(page)
    right = x + w
    left_limit = x + 120.0
    from ..fonts import fit_size

    size, _ = fit_size(text, "condensed", pt_to_mm(7.5), right - left_limit)
    layer.add(Text(text, right, top + BAR_TOP + 2.6, size, "condensed", INK, anchor="end", valign="middle"))
    layer.add(
        Text(
            "If a bar does not measure true, turn off \u201cfit to page\u201d and print again.",
            right,
            top + BAR_TOP + 5.8,
            pt_to_mm(5.5),
            "condensed",
            "#666666",
            anchor="end",
            valign="middle",
        )
    )


def _text_footer(page: Page, x: float, top: float, w: float) -> None:
    """One line at the foot of a text sheet, where the scale bars would stand: its title and paper."""
    from ..fonts import fit_size

    text = footer_text(page)
    size, _ = fit_size(text, "condensed", pt_to_mm(7), w)
    page.layer(LAYER).add(Text(text, x + w, top + BAR_TOP + 2.6, size, "condensed", "#666666", anchor="end"))
