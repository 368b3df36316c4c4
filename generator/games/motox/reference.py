"""The riders' reference cards: one per player, two-sided. The front holds the race rules a rider looks up; the back,
Paddock's readings of the points the rulebook leaves open (passing, bikes in the way, ramps, flights, coins; the
building rules; a course laid from a diagram).

Printed double-sided (``--duplex long`` or ``short``) two cards go on a sheet: a front page, then a back page whose
cards lie behind their fronts (:mod:`.sides`); cut them apart on the dashed lines. Single-sided (``--duplex off``)
each rider has a page of their own: the back and the front side by side, to fold in the middle.

The wording is data (``templates/motox/sheets.yaml``); its numbers and its table come from :mod:`.summary`
(``values()``, ``tables()``), the same source as the rule summary, so card and summary agree.
"""

from __future__ import annotations

from collections.abc import Callable

from ...compose.blocks import Column, cut_frame, fit, paragraph, table
from ...compose.colour import GREY, INK, WHITE
from ...fonts import ascent
from ...notices import warn
from ...paper import PageSpec, Paper
from ...scene import Layer, Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .models import CardSection
from .sides import FOLD, duplex_region, mirror_axis, mirror_box
from .summary import tables, values

PAPER = Paper("a4", "portrait")
HEAD_FILL = "#3b2a1a"  # dark dirt brown
HEAD = 10.0
PAD = 4.0
SIZES_PT = (8.6, 8.4, 8.2, 8.0, 7.8, 7.6, 7.4, 7.2, 7.0, 6.8, 6.6)  # body text: the largest that fits the card
GAP = 5.0  # between the columns
LAYERS = ("shade", "rules", "cut", "text")

Box = tuple[float, float, float, float]
# Draws one column's sections from the top at ``y``; returns the y under them.
Section = Callable[[Layer, Layer, float, float, float, float], float]


def _section(
    layer: Layer, rules: Layer, sec: CardSection, x: float, y: float, w: float, vals: dict, body: float
) -> float:
    BODY, HEADING = body, body * 1.13
    layer.add(Text(sec.heading.format(**vals), x, y + ascent(HEADING, "bold"), HEADING, "bold", INK))
    y += ascent(HEADING, "bold") + 1.3
    if sec.table is not None:
        t = tables()[sec.table]
        cols = [Column(c, 1.8 if i == 0 else 1.0, "start" if i == 0 else "middle") for i, c in enumerate(t["columns"])]
        y = table(rules, x, y, w, cols, t["rows"], size=BODY, pad=0.8) + 1.2
    for i, item in enumerate(sec.steps):
        layer.add(Text(f"{i + 1}.", x, y, BODY, "condensed-bold", INK, valign="top"))
        y = paragraph(layer, item.format(**vals), x + 3.2, y, w - 3.2, BODY, "condensed", leading=1.18) + 0.5
    for item in sec.items:
        layer.add(Text("•", x + 0.3, y, BODY, "condensed", INK, valign="top"))
        y = paragraph(layer, item.format(**vals), x + 3.2, y, w - 3.2, BODY, "condensed", leading=1.18) + 0.5
    if sec.text is not None:
        y = paragraph(layer, sec.text.format(**vals), x, y, w, BODY, "condensed", leading=1.18) + 0.5
    return y + 1.6


def _reading(layer: Layer, question: str, reading: str, why: str, x: float, y: float, w: float, body: float) -> float:
    """One of Paddock's readings: the question in bold, the reading, and its reason in grey."""
    label = facts.sheets().readings.why
    y = paragraph(layer, question, x, y, w, body * 1.06, "bold", INK, leading=1.15) + 0.4
    y = paragraph(layer, reading, x, y, w, body, "condensed", INK, leading=1.18) + 0.3
    y = paragraph(layer, f"{label} {why}", x, y, w, body, "condensed", GREY, leading=1.18)
    return y + 2.2


def _frame(page: Page, box: Box, title: str, rider: str, subtitle: str, footer: str, head_fill: str = HEAD_FILL):
    """The card's title band (with the rider's name or a line to write it on), subtitle and footer; returns the
    top of its body, the bottom limit of its body and the footer's size."""
    vals = values()
    x, y, w, h = box
    text = page.layer("text")
    page.add("shade", rect(x, y, w, HEAD, Style(stroke=None, fill=head_fill)))
    size = fit(title, "bold", pt_to_mm(12), w * 0.6, "card title")
    text.add(Text(title, x + PAD, y + HEAD / 2, size, "bold", WHITE, valign="middle"))
    if rider:
        s = fit(rider, "bold", pt_to_mm(11), w * 0.3, "rider name")
        text.add(Text(rider, x + w - PAD, y + HEAD / 2, s, "bold", WHITE, anchor="end", valign="middle"))
    elif rider is not None:
        lx = x + w - PAD - w * 0.25
        text.add(Text("Rider", lx - 1.5, y + HEAD / 2, pt_to_mm(8), "condensed", WHITE, anchor="end", valign="middle"))
        page.add("rules", rect(lx, y + HEAD * 0.78, w * 0.25, 0.01, Style(stroke=WHITE, width=0.25)))
    sub = subtitle.format(**vals)
    under = paragraph(text, sub, x + PAD, y + HEAD + 1.6, w - 2 * PAD, pt_to_mm(7.5), "condensed", GREY, 1.15)
    foot = footer.format(**vals)
    fs = fit(foot, "condensed", pt_to_mm(6), w - 2 * PAD, "card footer")
    text.add(Text(foot, x + PAD, y + h - 2.0, fs, "condensed", GREY))
    return under + 2.2, y + h - 2.0 - fs * 1.2


def _columns(page: Page, box: Box, top: float, bottom: float, columns: list[list[Section]], what: str) -> None:
    """Two columns of sections at the largest type size that fits between ``top`` and ``bottom``."""
    x, _, w, _ = box
    col_w = (w - 2 * PAD - GAP) / 2

    def draw(text: Layer, rules: Layer, body: float) -> float:
        over = float("-inf")
        for c, sections in enumerate(columns):
            cx = x + PAD + c * (col_w + GAP)
            cy = top
            for sec in sections:
                cy = sec(text, rules, cx, cy, col_w, body)
            over = max(over, cy - 1.6 - bottom)
        return over

    body = pt_to_mm(SIZES_PT[-1])
    for pt in SIZES_PT:
        if draw(Layer("probe"), Layer("probe"), pt_to_mm(pt)) <= 0:
            body = pt_to_mm(pt)
            break
    over = draw(page.layer("text"), page.layer("rules"), body)
    if over > 0:
        warn(f"reference card, {what}: the text runs {over:.1f} mm past the card's foot; use larger paper")


def card(page: Page, box: Box, rider: str, cut: bool = True) -> None:
    """The front of one rider's card filling ``box``; ``rider`` is printed in the header ('' leaves a line to write
    on)."""
    words = facts.sheets().reference
    vals = values()
    if cut:
        cut_frame(page.layer("cut"), box)
    top, bottom = _frame(page, box, words.title.format(**vals), rider, words.subtitle, words.footer)

    def section(sec: CardSection) -> Section:
        return lambda text, rules, x, y, w, body: _section(text, rules, sec, x, y, w, vals, body)

    _columns(page, box, top, bottom, [[section(s) for s in col] for col in words.columns], "front")


def card_back(page: Page, box: Box, rider: str, cut: bool = True) -> None:
    """The back of one rider's card: Paddock's readings, each with its reason."""
    words = facts.sheets().readings
    vals = values()
    if cut:
        cut_frame(page.layer("cut"), box)
    top, bottom = _frame(page, box, words.title, rider, words.intro, words.footer)
    sections = [_reading_section(r.question, r.reading.format(**vals), r.why) for r in words.race]
    sections += [_reading_section(n.heading, n.text.format(**vals), n.why) for n in (words.building, words.dealt)]
    half = (len(sections) + 1) // 2
    _columns(page, box, top, bottom, [sections[:half], sections[half:]], "back")


def _reading_section(question: str, reading: str, why: str) -> Section:
    return lambda text, rules, x, y, w, body: _reading(text, question, reading, why, x, y, w, body)


def _new_page(spec: PageSpec, title: str) -> Page:
    page = Page(spec, title)
    for layer in LAYERS:
        page.layer(layer)
    return page


def _riders(players: int, names: list[str] | None) -> list[str]:
    return list(names or []) + [""] * max(0, players - len(names or []))


def spares(players: int, duplex: str) -> int:
    """Blank cards added to fill the last sheet: two cards go on a duplex sheet, one on a fold-over page."""
    return players % 2 if duplex != "off" else 0


def reference_pages(spec: PageSpec, players: int, names: list[str] | None = None, duplex: str = "long") -> list[Page]:
    """Every rider's card (named when ``names`` are given). ``duplex`` long or short: two cards to a sheet, a front
    page then its back page, the backs behind their fronts; one above the other on upright paper, side by side on
    paper lying down, and a spare card (a line to write a name on) where the riders are odd. ``off``: a page per
    rider, back and front side by side to fold."""
    riders = _riders(players, names)
    if duplex == "off":
        return [_fold_page(spec, rider, k, len(riders)) for k, rider in enumerate(riders)]
    riders += [""] * spares(players, duplex)  # a sheet holds two cards: an odd field gets a spare, not half a sheet
    axis = mirror_axis(spec, duplex)
    x0, y0, w, h = duplex_region(spec, axis)
    m = 0.3
    x0, y0, w, h = x0 + m, y0 + m, w - 2 * m, h - 2 * m
    gap = 4.0
    across = spec.width > spec.height  # lying down: the two cards side by side, else one above the other
    cw, ch = ((w - gap) / 2, h) if across else (w, (h - gap) / 2)
    sheets = -(-len(riders) // 2)
    pages = []
    for k in range(0, len(riders), 2):
        n = f" (sheet {k // 2 + 1} of {sheets})" if sheets > 1 else ""
        front = _new_page(spec, f"MotoX rider's cards{n}, front")
        back = _new_page(spec, f"MotoX rider's cards{n}, back")
        for i, rider in enumerate(riders[k : k + 2]):
            box = (x0 + i * (cw + gap), y0, cw, ch) if across else (x0, y0 + i * (ch + gap), cw, ch)
            card(front, box, rider)
            card_back(back, mirror_box(spec, axis, box), rider)
        pages += [front, back]
    return pages


def _fold_page(spec: PageSpec, rider: str, k: int, count: int) -> Page:
    """One rider's card, single-sided: the back on the left, the front on the right, a fold line between."""
    if spec.width < spec.height:
        spec = spec.rotated()
    page = _new_page(spec, f"MotoX rider's card ({k + 1}/{count}), fold-over")
    x0, y0, w, h = spec.content_box
    m = 0.3
    x0, y0, w, h = x0 + m, y0 + m, w - 2 * m, h - 2 * m
    half = w / 2
    cut_frame(page.layer("cut"), (x0, y0, w, h))
    page.add("cut", Polyline(((x0 + half, y0), (x0 + half, y0 + h)), FOLD))
    card_back(page, (x0, y0, half, h), rider, cut=False)
    card(page, (x0 + half, y0, half, h), rider, cut=False)
    return page
