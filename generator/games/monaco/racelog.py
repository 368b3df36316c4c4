"""The race log (monaco.txt 5–6): a row per car — speed, laps, trouble and pit visits with their die of turns and
the roll that can put a damaged car out, spin-offs, collisions, finishing place and points."""

from __future__ import annotations

from ...compose.blocks import title
from ...paper import PageSpec, Paper
from ...scene import Page
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import frac_in, ordinal, points_scale, rules, sheet_texts, top_speed
from .sheet import Col, form, inner, new_page, notes

PAPER = Paper("a4", "landscape")
PIT_VISITS = 3


def points_line(scale: list[int]) -> str:
    return ", ".join(f"{ordinal(i + 1)} {p}" for i, p in enumerate(scale))


def race_notes(scale: list[int]) -> list[str]:
    r = rules()
    words = sheet_texts().race
    t = r.turn
    values = {
        "top": r.speed.max,
        "change": r.speed.change_per_turn,
        "free": f"{t.free_angle_deg:g}",
        "band": t.band_in,
        "free_speed": t.free_speed_in,
        "restart": r.spin_off.restart_speed_in,
        "start": r.start_speed_in,
        "grid": frac_in(r.grid_spacing_in),
        "spin_add": r.spin_off.damage_roll_add,
        "out": r.damage_out_roll,
        "coll": frac_in(r.collision_distance_in),
        "twice": r.collision.twice,
        "points": points_line(scale),
    }
    return [n.format(**values) for n in words.notes]


def race_log(field: TeamField, spec: PageSpec, laps: int = 3, points: str | None = None) -> Page:
    words = sheet_texts().race
    r = rules()
    scale = points_scale(points)
    page = new_page(spec, words.title.format(field=field.name))
    x0, y0, cw, ch = inner(spec)
    top = title(page.layer("text"), words.title.format(field=field.name), x0, y0, cw, words.subtitle)
    # as many pit visits and tally boxes as leave the car's name room (portrait paper takes fewer)
    pit_w = 19.0
    lap_w = max(5.4 * laps + 4, 14)
    for visits, tallies in ((PIT_VISITS, 5), (2, 4), (2, 3), (1, 3)):
        tally_w = 5.2 * tallies + 0.6
        fixed = 8 + 8 + 9 + 12 + lap_w + 14 + visits * pit_w + 2 * tally_w + 12 + 12
        name_w = cw - fixed
        if name_w >= 48:
            break
    cols = [
        Col("car", name_w),
        Col("skill", 8, align="middle"),
        Col("tech", 8, align="middle"),
        Col("top", 9, align="middle", sub="speed"),
        Col("speed", 12, "box", sub="now"),
        Col("laps", lap_w, "ticks", laps),
        Col("damage", 14, "ticks", 2, sub="pit next pass"),
    ]
    cols += [Col(f"pit {i + 1}", pit_w, "ticks", 2, sub=f"die · {r.damage_out_roll}: out") for i in range(visits)]
    cols += [
        Col("spin-offs", tally_w, "ticks", tallies),
        Col("collisions", tally_w, "ticks", tallies),
        Col("place", 12, "box"),
        Col("points", 12, "box"),
    ]
    rows, swatches = [], []
    for t, d in field.drivers:
        m = d.monaco
        label = f"{d.number} {d.name}" if d.number is not None else d.name
        rows.append(
            [f"{label} ({t.name})", m.skill if m else "", m.tech if m else "", top_speed(m.skill, m.tech) if m else ""]
        )
        swatches.append(t.colours.primary)
    rows += [["", "", "", ""]] * 2
    swatches += [None, None]
    lines = race_notes(scale)
    n = len(rows)
    row_h = min(10.0, (y0 + ch - top - 42) / (2 * n + 2))  # room for the speed chart below, row for row
    bottom = form(page, x0, top + 2, cols, rows, row_h, 10.0, swatches)
    half = (cw - 6) / 2
    mid = (len(lines) + 1) // 2
    a = notes(page, lines[:mid], x0, bottom + 4, half)
    b = notes(page, lines[mid:], x0 + half + 6, bottom + 4, half)
    speed_chart(page, [r[0] for r in rows], swatches, x0, max(a, b) + 3, cw, y0 + ch - max(a, b) - 3)
    return page


def speed_chart(page: Page, names: list[str], swatches, x: float, y: float, w: float, h: float) -> None:
    """A row per car of boxes to write its speed in, turn after turn: the last box says how fast it may go next
    (at most the change a turn either way), and the boxes count the turns. As many turns as fit the room left."""
    words = sheet_texts().race
    n = len(names)
    head = 10.0
    row_h = min(8.0, (h - head) / max(n, 1))
    if row_h < 5.0:
        return
    name_w = 40.0
    cell = 6.2
    turns = int((w - name_w) // cell)
    sub = words.speed_sub.format(change=rules().speed.change_per_turn, start=rules().start_speed_in)
    cols = [Col(words.speed_head, name_w, sub=sub)]
    cols += [Col(str(t + 1) if t % 5 == 4 or t == 0 else "", cell, "box") for t in range(turns)]
    short = [names[i].split(" (")[0] for i in range(n)]
    form(page, x, y, cols, [[s] for s in short], row_h, head, swatches, size=pt_to_mm(7))
