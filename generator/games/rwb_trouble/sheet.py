"""What every RWB TROUBLE sheet shares: its layer stack, its colours, the box it fills, cut marks, filled wording."""

from __future__ import annotations

from ...compose.blocks import paragraph
from ...compose.colour import INK, SHADE
from ...fonts import ascent
from ...paper import PageSpec
from ...scene import Layer, Page, Polyline, Style, Text, rect

# Bottom to top: fills never hide lines or text.
LAYERS = ("shade", "chips", "boxes", "rules", "text", "marks")

NAVY = "#1f2a44"  # the chip card's title band: white text on it reads in colour and in grey
HEAD = "#d5deec"  # table headers and the chart's first step: pale, so dark text on it reads on any printer and
# the ink saver's hatching stays sparse
RED = "#b3202a"  # the thin stripe under a band: red, white and blue
BLUE = "#1f5bbf"  # the add-on's chips are blue; mid-grey in black and white, so white print on it stays legible

REF_SIZE = (127.0, 76.2)  # mm: the 5 × 3 in index card, at which the cards' type sizes are designed
MARK = 4.0  # mm: length of a cut mark
MARK_GAP = 1.5  # mm: between a cut mark and the edge it marks
CUT = Style(stroke=INK, width=0.15)


def new_page(spec: PageSpec, title: str) -> Page:
    page = Page(spec, title)
    for name in LAYERS:
        page.layer(name)
    return page


def inner(page: Page) -> tuple[float, float, float, float]:
    """The content box less a hair, so strokes on its edge stay inside it."""
    x, y, w, h = page.content_box
    return (x + 0.3, y + 0.3, w - 0.6, h - 0.6)


def corner_marks(layer: Layer, box: tuple[float, float, float, float]) -> None:
    """Cut marks at the four corners of ``box``, outside it: each extends one edge, so a ruler laid across two of
    them cuts exactly along that edge."""
    x, y, w, h = box
    reach = MARK_GAP + MARK
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            layer.add(Polyline(((cx, cy + sy * MARK_GAP), (cx, cy + sy * reach)), CUT))
            layer.add(Polyline(((cx + sx * MARK_GAP, cy), (cx + sx * reach, cy)), CUT))


def grid_marks(layer: Layer, x: float, y: float, cols: int, rows: int, cell: float) -> None:
    """Cut marks outside a grid of ``cols`` × ``rows`` square cells: one on each cut line, at both of its ends."""
    right, bottom = x + cols * cell, y + rows * cell
    reach = MARK_GAP + MARK
    for c in range(cols + 1):
        cx = x + c * cell
        layer.add(Polyline(((cx, y - MARK_GAP), (cx, y - reach)), CUT))
        layer.add(Polyline(((cx, bottom + MARK_GAP), (cx, bottom + reach)), CUT))
    for r in range(rows + 1):
        cy = y + r * cell
        layer.add(Polyline(((x - MARK_GAP, cy), (x - reach, cy)), CUT))
        layer.add(Polyline(((right + MARK_GAP, cy), (right + reach, cy)), CUT))


def fill(text: str, values: dict[str, str], **more: object) -> str:
    """Paddock's wording with its ``{braces}`` filled from the facts."""
    return text.format(**values, **{k: str(v) for k, v in more.items()})


def steps(layer: Layer, items: list[str], x: float, y: float, width: float, size: float) -> float:
    """A numbered list (1., 2., …); returns the y under it."""
    for i, item in enumerate(items, 1):
        layer.add(Text(f"{i}.", x + 2.6, y, size, "bold", INK, anchor="end", valign="top"))
        y = paragraph(layer, item, x + 4.2, y, width - 4.2, size, leading=1.3) + 1.3
    return y


def example_box(page: Page, title: str, body: str, x: float, y: float, width: float, size: float) -> float:
    """A worked example: a bold title and its text in a box with a shaded left rule; returns the y under it."""
    text = page.layer("text")
    pad = 2.2
    top = y
    y += pad
    text.add(Text(title, x + pad + 1.5, y + ascent(size, "bold"), size, "bold", INK))
    y += ascent(size, "bold") + 1.4
    y = paragraph(text, body, x + pad + 1.5, y, width - 2 * pad - 1.5, size, leading=1.3) + pad
    page.layer("shade").add(rect(x, top, 1.5, y - top, Style(stroke=None, fill=NAVY)))
    page.layer("shade").add(rect(x + 1.5, top, width - 1.5, y - top, Style(stroke=None, fill=SHADE)))
    return y


def card_scale(card) -> float:
    """How much a card (``facts.CardSize``) is smaller or larger than the 5 × 3 in card its type is designed for."""
    return min(card.height / REF_SIZE[1], card.width / REF_SIZE[0])
