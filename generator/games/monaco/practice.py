"""The practice sheet (monaco.txt C): dice used per driver to complete a lap, ties diced off, the starting grid.

How many boxes a driver needs is worked out by driving practice laps by the rulebook's numbers (:func:`lap_dice`),
seeded, so the sheet is the same every time: a lone car starts from the race's starting speed, changes speed by at
most 3″ a turn and moves at most one die + skill + tech (a total below its speed less 3″ moves that all the same:
Paddock's reading); each turn throws the move die and, after the move, the trouble die; at a bend sharper than 45°
it makes a skill roll for each quarter turn the bend turns (die + the speed's band), and a roll of its skill or
more spins it off, to start again from 0″ (its trouble roll is then the damage roll). The car goes as fast as the
dice allow but slows in time to take each sharp bend at 6″, as the rulebook's example brakes for a bend. The sheet
gives every driver boxes for the field's slowest kind of car in :data:`SHARE` of its laps, on as many lines as it
takes, and says how it counted. (An average lap of the slowest car, with no spins, gave 70 boxes, which ran short
in 3 of 4 laps at the table: issue 42. These laps give it 80.)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ...compose.blocks import page_title, paragraph, title
from ...compose.colour import INK
from ...paper import PageSpec, Paper
from ...scene import Page, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import frac_in, ordinal, rules, sheet_texts, turn_roll_add
from .sheet import BOX, TICK_BOX, Col, form, inner, new_page, notes

PAPER = Paper("a4", "landscape")
BOX_MM = 5.0  # a tick box and its gap, when the page has room
MIN_BOX_MM = 3.6  # … and the smallest a pencil tick still fits
LAPS = 400  # practice laps Paddock drives with each kind of car (skill, tech) to size the boxes
SHARE = 0.99  # … and the boxes hold the dice of this share of them
SEED = 42  # the laps' dice: the same sheet every time
#: Sharp bends of the default circuit at double width (its 221 in lap): ``(where, skill rolls)``, inches from the
#: line, one roll a quarter turn — what a practice sheet printed on its own (no road) is sized for.
DEFAULT_BENDS = tuple((221.0 * (k + 0.5) / 8, 1) for k in range(8))


@dataclass(frozen=True)
class DiceCount:
    skill: int  # the kind of car the boxes are sized for: the field's slowest
    tech: int
    most: int  # dice that SHARE of its practice laps took at most
    middle: int  # … and half of them
    boxes: int  # boxes printed: ``most``, to a whole line of five


def sharp_bends(corners, free_deg: float, mm_per_in: float) -> tuple[tuple[float, int], ...]:
    """``(where, skill rolls)`` of every bend of a road sharper than ``free_deg``: its apex, inches along the lap,
    and one roll for each quarter turn it turns (a hairpin: two)."""
    return tuple(
        (c.apex / mm_per_in, math.ceil(abs(c.angle) / 90)) for c in sorted(corners, key=lambda c: c.apex)
        if abs(c.angle) > free_deg
    )  # fmt: skip


def lap_dice(rng: random.Random, lap_in: float, bends, skill: int, tech: int) -> int:
    """The dice one practice lap of ``lap_in`` inches throws for a car of ``skill`` and ``tech``, its dice from
    ``rng``, driven as the rulebook's example drives: as fast as the dice allow, but slowing in time to take every
    sharp bend (``bends``: ``(where, skill rolls)``, inches from the line) at the speed that adds nothing to the
    skill roll (6″)."""
    r = rules()
    die, change, top, slow = r.move_die, r.speed.change_per_turn, r.speed.max, r.turn.free_speed_in
    speed, pos, dice, ahead = r.start_speed_in, 0.0, 0, 0
    while pos < lap_in and dice < 100_000:
        total = min(rng.randint(1, die) + skill + tech, top)
        dice += 1
        least = max(speed - change, 0)
        v = max(min(speed + change, total), least)  # a total below speed − 3″: the 3″ limit wins (a reading)
        if ahead < len(bends):  # the fastest speed from which the next sharp bend is still taken at 6″ or less
            to_bend = bends[ahead][0] - pos
            while v > least and not (v <= slow if v >= to_bend else _can_slow(v, to_bend - v, slow, change)):
                v -= 1
        speed = v
        end, spun = pos + speed, False
        while ahead < len(bends) and bends[ahead][0] <= end:
            at, rolls = bends[ahead]
            ahead += 1
            add = turn_roll_add(speed)
            for _ in range(rolls):
                dice += 1
                if rng.randint(1, die) + add >= skill:
                    spun = True
                    break
            if spun:
                pos, speed = at, r.spin_off.restart_speed_in
                break
        if not spun:
            pos = end
        dice += 1  # after the move: the trouble roll (the damage roll, after a spin)
    return dice


def _can_slow(speed: float, room: float, slow: float, change: float) -> bool:
    """Whether a car at ``speed`` with ``room`` inches left to a bend can slow by ``change`` a turn to ``slow`` or
    less before a move of more than ``slow`` would take it past the bend."""
    while speed > slow:
        speed -= change
        if speed <= slow:
            return True
        if speed >= room:
            return False
        room -= speed
    return True


def dice_for_practice(lap_in: float, bends, cars) -> DiceCount:
    """The boxes a practice sheet gives every driver: for each kind of car in ``cars`` (``(skill, tech)``),
    :data:`LAPS` seeded practice laps; the kind whose :data:`SHARE` of laps takes most dice sets the count."""
    best = None
    for skill, tech in sorted(set(cars)):
        rng = random.Random(f"{SEED}:{lap_in:.3f}:{skill}:{tech}")
        laps = sorted(lap_dice(rng, lap_in, bends, skill, tech) for _ in range(LAPS))
        most, middle = laps[math.ceil(SHARE * LAPS) - 1], laps[LAPS // 2]
        if best is None or (most, middle) > (best.most, best.middle):
            best = DiceCount(skill, tech, most, middle, int(math.ceil(most / 5) * 5))
    return best


def practice_sheet(field: TeamField, spec: PageSpec, lap_in: float = 221.0, bends=DEFAULT_BENDS) -> list[Page]:
    """The practice sheet for ``field`` on a lap of ``lap_in`` inches with sharp ``bends`` (``(where, skill
    rolls)``; the defaults: the default circuit at double width): one page, or as many as its rows take, the
    starting grid after the last row."""
    words = sheet_texts().practice
    r = rules()
    drivers = list(field.drivers)
    cars = [(d.monaco.skill, d.monaco.tech) for _, d in drivers if d.monaco] or [(r.rating.min, r.rating.min)]
    count = dice_for_practice(lap_in, bends, cars)
    sizing = words.sizing.format(
        boxes=count.boxes,
        laps=LAPS,
        share=f"{round(SHARE * 100)} in 100",
        most=count.most,
        middle=count.middle,
        start=frac_in(r.start_speed_in),
        change=frac_in(r.speed.change_per_turn),
        skill=count.skill,
        tech=count.tech,
        lap=f"{lap_in:.0f}",
        sharp=len(bends),
        rolls=sum(n for _, n in bends),
        free=f"{r.turn.free_angle_deg:g}",
        slow=frac_in(r.turn.free_speed_in),
        restart=frac_in(r.spin_off.restart_speed_in),
    )
    name = words.title.format(field=field.name)
    rows = [[d.name, t.name, d.monaco.skill if d.monaco else "", d.monaco.tech if d.monaco else ""] for t, d in drivers]
    swatches = [t.colours.primary for t, _ in drivers]
    rows += [["", "", "", ""]] * 2  # two stand-ins
    swatches += [None] * 2
    n = len(rows)
    grid_h = max((n + 1) // 2 * SLOT_MIN + 12.0, 34.0)  # the notes and the starting grid under the rows
    x0, y0, cw, ch = inner(spec)
    name_w = min(58.0, cw * 0.22)
    tick_w = cw - name_w - 2 * 9 - 3 * 14.0
    probe = new_page(spec, name)
    area = y0 + ch - _header(probe, name, sizing, x0, y0, cw) - HEAD_H

    def layout(box: float) -> tuple[int, int, float]:
        per_line = max(5, int(tick_w // box) // 5 * 5)
        lines = math.ceil(count.boxes / per_line)
        return per_line, lines, lines * box + 3.0

    box = BOX_MM  # one page when every row and the grid fit at a box of MIN_BOX_MM or more, else pages of rows
    while box > MIN_BOX_MM and n * layout(box)[2] > area - grid_h:
        box = round(box - 0.2, 6)
    per_line, lines, row_need = layout(box)
    if n * row_need <= area - grid_h:
        chunks = [list(range(n))]
    else:
        box = MULTI_BOX_MM
        per_line, lines, row_need = layout(box)
        per_page = max(1, int(area // row_need))
        chunks = [list(range(i, min(i + per_page, n))) for i in range(0, n, per_page)]
        if len(chunks[-1]) * row_need > area - grid_h:
            chunks.append([])  # the notes and the grid on a page of their own
    pages = []
    for k, chunk in enumerate(chunks):
        page = new_page(spec, page_title(k + 1, len(chunks), name))
        top = _header(page, page_title(k + 1, len(chunks), name), sizing, x0, y0, cw)
        bottom = top
        if chunk:
            room = y0 + ch - top - HEAD_H - (grid_h if k == len(chunks) - 1 else 0.0)
            row_h = max(row_need, min(lines * box + 8.0, room / len(chunk))) if len(chunks) == 1 else row_need
            cols = [
                Col("driver · team", name_w),
                Col("skill", 9, align="middle"),
                Col("tech", 9, align="middle"),
                Col(words.dice_head, tick_w, sub=words.dice_sub),
                Col("dice", 14, "box", sub="in all"),
                Col("dice-off", 14, "box", sub="if tied"),
                Col("grid", 14, "box", sub="place"),
            ]
            form_rows = [[f"{rows[i][0]} · {rows[i][1]}" if rows[i][1] else rows[i][0], *rows[i][2:]] for i in chunk]
            bottom = form(page, x0, top, cols, form_rows, row_h, HEAD_H, [swatches[i] for i in chunk])
            # the tick boxes, in lines of five-box groups
            bx0 = x0 + name_w + 18 + (tick_w - per_line * box) / 2
            for i in range(len(chunk)):
                ry = top + HEAD_H + i * row_h + (row_h - lines * box) / 2
                for b in range(count.boxes):
                    line, col = divmod(b, per_line)
                    gx = bx0 + col * box
                    page.add("boxes", rect(gx + 0.3, ry + line * box + 0.3, box - 1.2, box - 1.2, TICK_BOX))
        if k == len(chunks) - 1:
            _grid(page, n, x0, bottom, cw, y0 + ch)
        pages.append(page)
    return pages


SLOT_MIN = 5.0  # mm: the least height of a starting-grid box
HEAD_H = 10.0  # mm: the form's column heads
MULTI_BOX_MM = 4.4  # a tick box on a practice sheet of several pages


def _header(page: Page, name: str, sizing: str, x0: float, y0: float, cw: float) -> float:
    """The title, the subtitle and how the boxes were counted; returns the y below."""
    words = sheet_texts().practice
    text = page.layer("text")
    top = title(text, name, x0, y0, cw, words.subtitle)
    return paragraph(text, sizing, x0, top, cw, pt_to_mm(7.5)) + 2


def _grid(page: Page, n: int, x0: float, bottom: float, cw: float, end: float) -> None:
    """The notes and the starting grid: a box per place, in two columns (more for a field that needs them), pole
    first."""
    words = sheet_texts().practice
    text = page.layer("text")
    gap = frac_in(rules().grid_spacing_in)
    half = (cw - 8) / 2
    notes(page, [line.format(gap=gap) for line in words.notes], x0, bottom + 4, half)
    gx = x0 + half + 8
    text.add(Text(words.grid_head, gx, bottom + 7, pt_to_mm(9), "bold", INK))
    columns = max(2, math.ceil(n / max(1, int((end - bottom - 11) // SLOT_MIN))))  # more for a big field
    grid_rows = math.ceil(n / columns)
    slot = max(SLOT_MIN, min(9.0, (end - bottom - 11) / grid_rows))
    col_w = half / columns
    for i in range(n):
        c, rr = divmod(i, grid_rows)
        x = gx + c * col_w
        y = bottom + 10 + rr * slot
        text.add(Text(ordinal(i + 1), x, y + slot / 2, pt_to_mm(8), "condensed-bold", valign="middle"))
        page.add("boxes", rect(x + 9, y + 0.8, col_w - 12, slot - 1.6, BOX))
