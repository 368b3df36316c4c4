"""The set's front page, as a print-and-play set opens: the title, the credits and the licence, a checklist of the
pieces and how to print the file (which pages, double-sided or not, on card or on paper) — and under them, where
the page has room, the four dice and four pawns to cut out, so the front page is not a sheet of card half used.
Where it has no room (smaller paper, a wide edge), the dice and pawns get a page of their own.

The words are data (``templates/motox/piecepack.yaml``, ``cover``); a pack adds its own title, credits and pieces
(MotoX: its riders' cards, course diagram and rules) and the rows of its print plan.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...compose.blocks import Column, paragraph, table, wrap
from ...compose.colour import GREY, INK, WHITE
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .dice_pawns import LAYERS, block_size, dice_pawns, how_fits, how_to, pawn_word

PAPER = Paper("a4", "portrait")
GAP = 6.0  # between the three columns of text
MIN_TEXT = 62.0  # mm: the least room for the words above the dice; less, and the dice get a page of their own
SIZES_PT = (9.0, 8.6, 8.2, 7.8, 7.4, 7.0)


@dataclass(frozen=True)
class PrintRow:
    """A line of the print plan: which pages, what they hold, on what to print them."""

    pages: str
    what: str
    card: bool


@dataclass(frozen=True)
class CoverText:
    """What a front page says; a pack gives its own title and adds its credits and pieces."""

    title: str
    subtitle: str
    credits: tuple[str, ...]
    checklist: tuple[str, ...]


def numbers(look: str) -> dict[str, str]:
    """The piecepack's numbers as the cover's words quote them."""
    n = len(facts.suits())
    tiles = facts.tile_count()
    inch = facts.inches()
    names = [s.name for s in facts.suits()]
    return {
        "tiles": str(tiles),
        "coins": str(facts.coin_count()),
        "dice": str(n),
        "pawns": str(n),
        "pawn": pawn_word(look),
        "suit_names": ", ".join(names[:-1]) + " and " + names[-1],
        "tile_in": f"{inch.tile:g}",
        "coin_in": "¾" if inch.coin == 0.75 else f"{inch.coin:g}",
        "die_in": "¾" if inch.die == 0.75 else f"{inch.die:g}",
    }


def piecepack_text(look: str = "generic", tile_in: float | None = None) -> CoverText:
    """The generic set's words: no game named."""
    words = facts.piecepack().cover
    v = numbers(look)
    if tile_in is not None:
        v["tile_in"] = f"{tile_in:g}"
    return CoverText(
        words.title,
        words.subtitle.format(**v),
        tuple(c.format(**v) for c in words.credits),
        tuple(c.format(**v) for c in words.checklist),
    )


def _box(spec: PageSpec) -> tuple[float, float, float, float]:
    x, y, w, h = spec.content_box
    return x + 0.3, y + 0.3, w - 0.6, h - 0.6


def _how(duplex: str) -> str:
    words = facts.piecepack().cover
    return words.single if duplex == "off" else words.duplex.format(edge="long" if duplex == "long" else "short")


def type_size(spec: PageSpec, text: CoverText, rows: list[PrintRow], duplex: str, look: str, dice: bool):
    """The largest body type (mm) at which the front page's words fit above the dice and pawns (``dice``) or on
    the page alone; None when they do not fit even at the smallest."""
    x, y, w, h = _box(spec)
    room = h - (block_size(w)[1] + 2.0 if dice else 0.0)
    if room < MIN_TEXT:
        return None
    cut = facts.piecepack().cover.cut_heading.format(pawn=pawn_word(look)) if dice else None
    for pt in SIZES_PT:
        probe = Page(spec, "probe")
        if _words(probe, text, rows, _how(duplex), cut, look, x, y, w, pt_to_mm(pt)) <= y + room:
            return pt_to_mm(pt)
    return None


def cover_page(
    spec: PageSpec, text: CoverText, rows: list[PrintRow], duplex: str, look: str = "generic", dice: bool = True
) -> Page:
    """The front page; with ``dice``, the dice and pawns under its words (see :func:`type_size`; else they go on a
    page of their own, :func:`.dice_pawns.dice_pawns_pages`)."""
    page = Page(spec, f"{text.title}: front page")
    for name in ("shade", *LAYERS):
        page.layer(name)
    x, y, w, _ = _box(spec)
    body = type_size(spec, text, rows, duplex, look, dice) or pt_to_mm(SIZES_PT[-1])
    cut = facts.piecepack().cover.cut_heading.format(pawn=pawn_word(look)) if dice else None
    bottom = _words(page, text, rows, _how(duplex), cut, look, x, y, w, body)
    if dice:
        dice_pawns(page, x, bottom + 2.0, w, look, how=how_fits(w, look))
    return page


def _words(page: Page, text: CoverText, rows: list[PrintRow], how: str, cut: str | None, look: str,
           x: float, y: float, w: float, body: float) -> float:  # fmt: skip
    """The cover's words from the top at ``y``; returns the y under them."""
    words = facts.piecepack().cover
    layer, rules = page.layer("text"), page.layer("rules")
    size = pt_to_mm(22)
    layer.add(Text(text.title, x, y + ascent(size, "bold"), size, "bold", INK))
    y += ascent(size, "bold") + 2.0
    y = paragraph(layer, text.subtitle, x, y, w, pt_to_mm(10), "regular", GREY) + 1.2
    page.add("rules", rect(x, y, w, 0.9, Style(stroke=None, fill=INK)))
    y += 3.5
    col = (w - 2 * GAP) / 3  # credits, checklist, printing
    heading = body * 1.2

    def head(label: str, cx: float, cy: float) -> float:
        lines = wrap(label, col, heading, "bold")
        for k, line in enumerate(lines):
            layer.add(Text(line, cx, cy + ascent(heading, "bold") + k * heading * 1.15, heading, "bold", INK))
        return cy + ascent(heading, "bold") + (len(lines) - 1) * heading * 1.15 + 1.6

    ly = head(words.credits_heading, x, y)
    for c in text.credits:
        ly = paragraph(layer, c, x, ly, col, body, "condensed", INK, 1.2) + 1.2
    mx = x + col + GAP
    my = head(words.checklist_heading, mx, y)
    for item in text.checklist:
        box = body * 0.8
        rules.add(rect(mx, my + body * 0.1, box, box, Style(stroke=INK, width=0.25, fill=WHITE)))
        my = paragraph(layer, item, mx + box + 1.8, my, col - box - 1.8, body, "condensed", INK, 1.2) + 1.0
    rx = x + 2 * (col + GAP)
    ry = head(words.printing_heading, rx, y)
    ry = paragraph(layer, how, rx, ry, col, body, "condensed", INK, 1.2) + 1.6
    columns = [
        Column(words.columns[0], 0.9, "start"),
        Column(words.columns[1], 2.6, "start"),
        Column(words.columns[2], 1.0),
    ]
    cells = [[r.pages, r.what, words.card if r.card else words.paper] for r in rows]
    ry = table(rules, rx, ry, col, columns, cells, size=body, pad=0.7)
    ly = max(ly, my)
    bottom = max(ly, ry) + 2.0
    if cut is not None:
        page.add("rules", Polyline(((x, bottom), (x + w, bottom)), Style(stroke=GREY, width=0.2)))
        bottom = head(cut, x, bottom + 2.0)
        if not how_fits(w, look):  # else it goes under the pawns
            bottom = paragraph(layer, how_to(look), x, bottom, w, body * 0.9, "condensed", GREY, 1.2)
    return bottom
