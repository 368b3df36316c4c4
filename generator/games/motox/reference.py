"""The riders' reference cards: one per player, two to an A4 (or letter) page, cut apart on the dashed line.

The wording is data (``templates/motox/sheets.yaml``); its numbers and its table come from
:mod:`.summary` (``values()``, ``tables()``), the same source as the rule summary, so card and summary agree.
"""

from __future__ import annotations

from ...compose.blocks import Column, cut_frame, fit, paragraph, table
from ...compose.colour import GREY, INK, WHITE
from ...fonts import ascent
from ...notices import warn
from ...paper import PageSpec, Paper
from ...scene import Layer, Page, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .models import CardSection
from .summary import tables, values

PAPER = Paper("a4", "portrait")
HEAD_FILL = "#3b2a1a"  # dark dirt brown
HEAD = 10.0
PAD = 4.0
SIZES_PT = (8.2, 8.0, 7.8, 7.6, 7.4, 7.2, 7.0, 6.8, 6.6)  # body text: the largest that fits the card
GAP = 5.0  # between the columns


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


def card(page: Page, box: tuple[float, float, float, float], rider: str) -> None:
    """One rider's card filling ``box``; ``rider`` is printed in the header ('' leaves a line to write on)."""
    words = facts.sheets().reference
    vals = values()
    x, y, w, h = box
    text, rules = page.layer("text"), page.layer("rules")
    cut_frame(page.layer("cut"), box)
    page.add("shade", rect(x, y, w, HEAD, Style(stroke=None, fill=HEAD_FILL)))
    title = words.title.format(**vals)
    size = fit(title, "bold", pt_to_mm(12), w * 0.55, "card title")
    text.add(Text(title, x + PAD, y + HEAD / 2, size, "bold", WHITE, valign="middle"))
    if rider:
        s = fit(rider, "bold", pt_to_mm(11), w * 0.35, "rider name")
        text.add(Text(rider, x + w - PAD, y + HEAD / 2, s, "bold", WHITE, anchor="end", valign="middle"))
    else:
        lx = x + w - PAD - w * 0.3
        text.add(Text("Rider", lx - 1.5, y + HEAD / 2, pt_to_mm(8), "condensed", WHITE, anchor="end", valign="middle"))
        page.add("rules", rect(lx, y + HEAD * 0.78, w * 0.3, 0.01, Style(stroke=WHITE, width=0.25)))
    sub = words.subtitle.format(**vals)
    ss = fit(sub, "condensed", pt_to_mm(7.5), w - 2 * PAD, "card subtitle")
    text.add(Text(sub, x + PAD, y + HEAD + 1.6 + ascent(ss, "condensed"), ss, "condensed", GREY))
    top = y + HEAD + 6.0
    col_w = (w - 2 * PAD - GAP) / 2
    foot = words.footer.format(**vals)
    fs = fit(foot, "condensed", pt_to_mm(6), w - 2 * PAD, "card footer")
    bottom_limit = y + h - 2.0 - fs * 1.2

    def columns(text: Layer, rules: Layer, body: float) -> float:
        """Draw both columns; returns how far the longer one runs past the foot (<= 0: it fits)."""
        over = float("-inf")
        for c, sections in enumerate(words.columns):
            cx = x + PAD + c * (col_w + GAP)
            cy = top
            for sec in sections:
                cy = _section(text, rules, sec, cx, cy, col_w, vals, body)
            over = max(over, cy - 1.6 - bottom_limit)
        return over

    body = pt_to_mm(SIZES_PT[-1])
    for pt in SIZES_PT:
        if columns(Layer("probe"), Layer("probe"), pt_to_mm(pt)) <= 0:
            body = pt_to_mm(pt)
            break
    over = columns(text, rules, body)
    if over > 0:
        warn(f"reference card: the text runs {over:.1f} mm past the card's foot; use larger paper")
    text.add(Text(foot, x + PAD, y + h - 2.0, fs, "condensed", GREY))


def reference_pages(spec: PageSpec, players: int, names: list[str] | None = None) -> list[Page]:
    """A card per player (named when ``names`` are given), two to a page: one above the other on upright paper,
    side by side on paper lying down."""
    riders = list(names or []) + [""] * max(0, players - len(names or []))
    x0, y0, w, h = spec.content_box
    m = 0.3
    x0, y0, w, h = x0 + m, y0 + m, w - 2 * m, h - 2 * m
    gap = 4.0
    across = spec.width > spec.height  # lying down: the two cards side by side, else one above the other
    cw, ch = ((w - gap) / 2, h) if across else (w, (h - gap) / 2)
    pages = []
    for k in range(0, len(riders), 2):
        n = len(riders) // 2 + len(riders) % 2
        title = "MotoX rider's cards" + (f" ({k // 2 + 1}/{n})" if n > 1 else "")
        page = Page(spec, title)
        for layer in ("shade", "rules", "cut", "text"):
            page.layer(layer)
        for i, rider in enumerate(riders[k : k + 2]):
            box = (x0 + i * (cw + gap), y0, cw, ch) if across else (x0, y0 + i * (ch + gap), cw, ch)
            card(page, box, rider)
        pages.append(page)
    return pages
