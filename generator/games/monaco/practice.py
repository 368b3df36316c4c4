"""The practice sheet (monaco.txt C): dice used per driver to complete a lap, ties diced off, the starting grid.

How many dice a lap takes is worked out from the lap and the rulebook's procedure (:func:`dice_for_lap`): a lone car
starts from a standstill, changes speed by at most 3″ a turn, and moves at most one die + skill + tech; each turn
throws the move die and the trouble die after the move, and a bend sharper than 45° a skill roll for each quarter
turn it turns (a hairpin is taken over two turns at least). The sheet
gives every driver room for the field's slowest car, a quarter again, on as many lines of boxes as it takes, and
says how it counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...compose.blocks import paragraph, title
from ...compose.colour import INK
from ...paper import PageSpec, Paper
from ...scene import Page, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import frac_in, ordinal, rules, sheet_texts
from .sheet import BOX, TICK_BOX, Col, form, inner, new_page, notes

PAPER = Paper("a4", "landscape")
BOX_MM = 5.0  # a tick box and its gap, when the page has room
MIN_BOX_MM = 3.6  # … and the smallest a pencil tick still fits
SPARE = 1.25  # room for spins, damage rolls and slow dice


@dataclass(frozen=True)
class DiceCount:
    turns: int  # turns the slowest car needs for the lap
    need: int  # dice those turns throw, with the sharp bends
    boxes: int  # boxes printed: need, a quarter again, to a whole line of five
    avg: float  # the average die roll


def dice_for_lap(lap_in: float, sharp_bends: int, skill: int, tech: int) -> DiceCount:
    """The dice a lone car of ``skill`` and ``tech`` throws on a practice lap of ``lap_in`` inches with
    ``sharp_bends`` skill rolls for its sharp bends, rolling the average every time."""
    r = rules()
    avg = (r.move_die + 1) / 2
    cap = min(r.speed.max, avg + skill + tech)
    speed, covered, turns = float(r.spin_off.restart_speed_in), 0.0, 0
    while covered < lap_in and turns < 10_000:
        speed = min(speed + r.speed.change_per_turn, cap)
        covered += speed
        turns += 1
    need = 2 * turns + sharp_bends
    boxes = int(math.ceil(need * SPARE / 5) * 5)
    return DiceCount(turns, need, boxes, avg)


def practice_sheet(field: TeamField, spec: PageSpec, lap_in: float = 221.0, sharp_bends: int = 8) -> Page:
    """The practice sheet for ``field`` on a lap of ``lap_in`` inches whose sharp bends take ``sharp_bends`` skill
    rolls (the defaults: the default circuit at double width)."""
    words = sheet_texts().practice
    r = rules()
    page = new_page(spec, words.title.format(field=field.name))
    x0, y0, cw, ch = inner(spec)
    text = page.layer("text")
    top = title(text, words.title.format(field=field.name), x0, y0, cw, words.subtitle)
    drivers = [(t, d) for t, d in field.drivers]
    rated = [d.monaco for _, d in drivers if d.monaco]
    skill, tech = min(((m.skill, m.tech) for m in rated), key=sum) if rated else (r.rating.min, r.rating.min)
    count = dice_for_lap(lap_in, sharp_bends, skill, tech)
    sizing = words.sizing.format(
        boxes=count.boxes,
        start=r.spin_off.restart_speed_in,
        change=r.speed.change_per_turn,
        avg=f"{count.avg:g}",
        skill=skill,
        tech=tech,
        turns=count.turns,
        lap=f"{lap_in:.0f}",
        sharp=sharp_bends,
        free=f"{r.turn.free_angle_deg:g}",
        need=count.need,
    )
    top = paragraph(text, sizing, x0, top, cw, pt_to_mm(7.5)) + 2
    # the form: a row per driver (and two stand-ins), the tick boxes in as many lines as they take, as large as
    # the page leaves room for
    name_w = min(58.0, cw * 0.22)
    right = 3 * 14.0
    tick_w = cw - name_w - 2 * 9 - right
    rows = [[d.name, t.name, d.monaco.skill if d.monaco else "", d.monaco.tech if d.monaco else ""] for t, d in drivers]
    swatches = [t.colours.primary for t, _ in drivers]
    for spare in (2, 1, 0):
        n = len(rows) + spare
        grid_rows = (n + 1) // 2
        room = y0 + ch - top - 10.0 - max(grid_rows * 7.0 + 10, 34)
        box = BOX_MM
        while box > MIN_BOX_MM:
            per_line = max(5, int(tick_w // box) // 5 * 5)
            lines = math.ceil(count.boxes / per_line)
            if n * (lines * box + 3.0) <= room:
                break
            box -= 0.2
        if n * (lines * box + 3.0) <= room:
            break
    rows += [["", "", "", ""]] * spare
    swatches += [None] * spare
    row_h = max(lines * box + 3.0, min(lines * box + 8.0, room / n))
    cols = [
        Col("driver · team", name_w),
        Col("skill", 9, align="middle"),
        Col("tech", 9, align="middle"),
        Col(words.dice_head, tick_w, sub=words.dice_sub),
        Col("dice", 14, "box", sub="in all"),
        Col("dice-off", 14, "box", sub="if tied"),
        Col("grid", 14, "box", sub="place"),
    ]
    form_rows = [[f"{a} · {b}" if b else a, s, t_] for a, b, s, t_ in rows]
    bottom = form(page, x0, top, cols, form_rows, row_h, 10.0, swatches)
    # the tick boxes, in lines of five-box groups
    bx0 = x0 + name_w + 18 + (tick_w - per_line * box) / 2
    for i in range(n):
        ry = top + 10.0 + i * row_h + (row_h - lines * box) / 2
        for k in range(count.boxes):
            line, col = divmod(k, per_line)
            gx = bx0 + col * box
            page.add("boxes", rect(gx + 0.3, ry + line * box + 0.3, box - 1.2, box - 1.2, TICK_BOX))
    gap = frac_in(r.grid_spacing_in)
    half = (cw - 8) / 2
    notes(page, [line.format(gap=gap) for line in words.notes], x0, bottom + 4, half)
    # the starting grid: a box per place, two columns, pole first
    gx = x0 + half + 8
    text.add(Text(words.grid_head, gx, bottom + 7, pt_to_mm(9), "bold", INK))
    slot = max(5.0, min(9.0, (y0 + ch - bottom - 11) / grid_rows))
    col_w = half / 2
    for i in range(n):
        c, rr = divmod(i, grid_rows)
        x = gx + c * col_w
        y = bottom + 10 + rr * slot
        text.add(Text(ordinal(i + 1), x, y + slot / 2, pt_to_mm(8), "condensed-bold", valign="middle"))
        page.add("boxes", rect(x + 9, y + 0.8, col_w - 12, slot - 1.6, BOX))
    return page
