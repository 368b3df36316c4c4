"""The practice sheet (monaco.txt C): dice used per driver to complete a lap, ties diced off, the starting grid."""

from __future__ import annotations

from ...compose.blocks import title
from ...paper import PageSpec, Paper
from ...scene import Page, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import frac_in, ordinal, rules, sheet_texts
from .sheet import BOX, Col, form, inner, new_page, notes

PAPER = Paper("a4", "landscape")
DICE_BOXES = 30  # boxes to tick on the lap: a long lap at low speed takes many dice


def practice_sheet(field: TeamField, spec: PageSpec) -> Page:
    words = sheet_texts().practice
    page = new_page(spec, words.title.format(field=field.name))
    x0, y0, cw, ch = inner(spec)
    top = title(page.layer("text"), words.title.format(field=field.name), x0, y0, cw, words.subtitle)
    drivers = [(t, d) for t, d in field.drivers]
    boxes = DICE_BOXES
    while boxes > 10 and cw - (9 + 9 + 4.8 * boxes + 8 + 36) < 70:  # leave the names 70 mm
        boxes -= 5
    tick = 4.8 * boxes + 8
    rest = cw - (9 + 9 + tick + 12 + 12 + 12)
    cols = [
        Col("driver", rest * 0.58),
        Col("team", rest * 0.42),
        Col("skill", 9, align="middle"),
        Col("tech", 9, align="middle"),
        Col(words.dice_head, tick, "ticks", boxes, sub=words.dice_sub),
        Col("dice", 12, "box", sub="in all"),
        Col("dice-off", 12, "box", sub="if tied"),
        Col("grid", 12, "box", sub="place"),
    ]
    rows = []
    for t, d in drivers:
        m = d.monaco
        rows.append([d.name, t.name, m.skill if m else "", m.tech if m else ""])
    rows += [["", "", "", ""]] * 2  # a stand-in or two
    swatches = [t.colours.primary for t, _ in drivers] + [None, None]
    n = len(rows)
    grid_rows = (n + 1) // 2
    row_h = min(9.0, (y0 + ch - top - 16 - grid_rows * 8.5) / n)
    bottom = form(page, x0, top + 2, cols, rows, row_h, 10.0, swatches)
    gap = frac_in(rules().grid_spacing_in)
    half = (cw - 8) / 2
    notes(page, [n.format(gap=gap) for n in words.notes], x0, bottom + 5, half)
    # the starting grid: a box per place, two columns, pole first
    gx = x0 + half + 8
    text = page.layer("text")
    text.add(Text(words.grid_head, gx, bottom + 8, pt_to_mm(9), "bold"))
    slot = min(8.5, (y0 + ch - bottom - 12) / grid_rows)
    col_w = half / 2
    for i in range(n):
        c, r = divmod(i, grid_rows)
        x = gx + c * col_w
        y = bottom + 11 + r * slot
        text.add(Text(ordinal(i + 1), x, y + slot / 2, pt_to_mm(8), "condensed-bold", valign="middle"))
        page.add("boxes", rect(x + 9, y + 0.8, col_w - 12, slot - 1.6, BOX))
    return page
