"""The quick card: kept beside the chip card, the same size, it says how to pick the form of a TROUBLE result when
the players have agreed on none — Paddock's reading, marked as such: a chip drawn blind from those left on the card,
with this race's chances for the first TROUBLE (:func:`facts.draw_text`) — and what each form does, in a line each,
with where the groups come from.
"""

from __future__ import annotations

from ...compose.blocks import fit, paragraph
from ...compose.colour import GREY, INK, WHITE
from ...fonts import LEGIBLE_FLOOR
from ...notices import warn
from ...scene import Layer, Page, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .sheet import NAVY, RED, card_scale, fill

SIZES_PT = (8.5, 8.0, 7.5, 7.0, 6.5, 6.0, 5.5)


def draw_quick_card(page: Page, card: facts.CardSize, x: float, y: float, plan: facts.ChipPlan) -> None:
    """The quick card for ``plan``'s race at true size with its top-left corner at (x, y)."""
    words = facts.sheets().quick_card
    reading = facts.sheets().readings
    v = facts.values(plan)
    text, shade = page.layer("text"), page.layer("shade")
    w, h = card.width, card.height
    k = card_scale(card)
    pad = 3.2 * k
    ix, iw = x + pad, w - 2 * pad
    page.layer("boxes").add(rect(x, y, w, h, Style(stroke="#bdbdbd", width=0.15)))
    band = 7.6 * k
    shade.add(rect(x, y, w, band, Style(stroke=None, fill=NAVY)))
    shade.add(rect(x, y + band, w, 0.9 * k, Style(stroke=None, fill=RED)))
    ts = fit(words.title, "bold", pt_to_mm(11) * k, iw * 0.6, "quick card title")
    text.add(Text(words.title, ix, y + band / 2, ts, "bold", WHITE, valign="middle"))
    label = reading.label.upper()
    ls = fit(label, "condensed-bold", pt_to_mm(7.5) * k, iw * 0.35, "quick card label")
    text.add(Text(label, ix + iw, y + band / 2, ls, "condensed-bold", WHITE, anchor="end", valign="middle"))
    top = y + band + 0.9 * k + 1.6 * k
    bottom = y + h - pad
    gap = 3.0 * k
    left_w = iw * 0.56
    right_x, right_w = ix + left_w + gap, iw - left_w - gap
    pick = reading.pick

    def draw(layer: Layer, rules: Layer, size: float) -> float:
        """Both columns at ``size``; the lower of their bottoms."""
        ly = paragraph(layer, fill(words.subtitle, v), ix, top, iw, size, "condensed", GREY, 1.15) + 0.8 * k
        head = ly
        ly = paragraph(layer, pick.question, ix, ly, left_w, size * 1.08, "bold", INK, 1.15) + 0.3 * k
        for i, step in enumerate(pick.steps, 1):
            layer.add(Text(f"{i}.", ix, ly, size, "condensed-bold", INK, valign="top"))
            ly = paragraph(layer, step, ix + size * 1.1, ly, left_w - size * 1.1, size, "condensed", INK, 1.15)
            ly += 0.3 * k
        ly = paragraph(layer, fill(pick.chances, v), ix, ly + 0.3 * k, left_w, size, "condensed-bold", INK, 1.15)
        ly = paragraph(layer, f"{reading.why} {pick.why}", ix, ly + 0.6 * k, left_w, size, "condensed", GREY, 1.15)
        ry = paragraph(layer, words.forms_heading, right_x, head, right_w, size * 1.08, "bold", INK, 1.15) + 0.3 * k
        for line in (words.accident, words.crash, words.wreck):
            ry = paragraph(layer, fill(line, v), right_x, ry, right_w, size, "condensed", INK, 1.15) + 0.6 * k
        ry = paragraph(layer, reading.groups, right_x, ry, right_w, size, "condensed", GREY, 1.15)
        return max(ly, ry)

    size = max(LEGIBLE_FLOOR, pt_to_mm(SIZES_PT[-1]) * k)
    for pt in SIZES_PT:
        s = max(LEGIBLE_FLOOR, pt_to_mm(pt) * k)
        if draw(Layer("probe"), Layer("probe"), s) <= bottom:
            size = s
            break
    if draw(text, page.layer("rules"), size) > bottom + 0.3:
        warn(f"quick card: the text runs past the foot of the {card.label}; use a larger --card")
