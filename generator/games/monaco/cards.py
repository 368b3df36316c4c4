"""*Monaco!* driver/car cards.

A *Monaco!* card (88 × 63 mm, eight to an A4 page, each page followed by its backs for printing on both sides)
carries the driver, team and number, skill and tech with their points cost, a speed track from 0 to 18 inches
with the ±3″ a turn limit, and a true-size 3-inch gauge for measuring that change and the 1″ collision distance
on the table. Its back keeps the season: a place a race, the race wins and the skill they raise, and the rolls a
player looks up most. Inches become mm only here, through :func:`generator.units.inch_to_mm`.
"""

from __future__ import annotations

import math

from ...compose.blocks import fit, grid_pages
from ...compose.colour import GREY, INK, text_on
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...teams.models import Driver, Team, TeamField
from ...units import inch_to_mm, pt_to_mm
from .facts import rules as monaco_rules
from .facts import turn_bands

CARD_W, CARD_H = 88.0, 63.0
GAP = 3.0
CUT = Style(stroke=INK, width=0.2)
LAYERS = ("card-fill", "card-lines", "card-text", "card-cut")

PAPER = Paper("a4", "portrait")
BACK_RACES = 8  # race boxes on a card's back (a season of the standings' default length)


def monaco_card(page: Page, team: Team, driver: Driver, x: float, y: float) -> None:
    rules = monaco_rules()
    stats = driver.monaco
    c = team.colours
    fill, lines, text = page.layer("card-fill"), page.layer("card-lines"), page.layer("card-text")
    # Header band in the team's colour.
    band = 14.0
    fill.add(rect(x, y, CARD_W, band, Style(stroke=None, fill=c.primary)))
    fill.add(rect(x, y + band, CARD_W, 1.2, Style(stroke=None, fill=c.second)))
    ink = text_on(c.primary)
    num_w = 14.0 if driver.number is not None else 0.0
    s = fit(driver.name, "bold", pt_to_mm(12), CARD_W - 6 - num_w, "Monaco! card")
    text.add(Text(driver.name, x + 3, y + 1.8 + ascent(s, "bold"), s, "bold", ink))
    s2 = fit(team.name, "condensed", pt_to_mm(8), CARD_W - 6 - num_w, "Monaco! card")
    text.add(Text(team.name, x + 3, y + band - 2.2, s2, "condensed", ink))
    if driver.number is not None:
        text.add(
            Text(str(driver.number), x + CARD_W - 3, y + band / 2, pt_to_mm(20), "condensed-bold", ink, "end", "middle")
        )
    # Skill and tech, each with its points cost.
    sy = y + band + 3.5
    box_w = 27.0
    car = stats.car or "car"
    for k, (label, value, cost, sub) in enumerate(
        (("SKILL", stats.skill, stats.skill_cost, "driver"), ("TECH", stats.tech, stats.tech_cost, car))
    ):
        bx = x + 3 + k * (box_w + 2.5)
        lines.add(rect(bx, sy, box_w, 15, Style(stroke=INK, width=0.25)))
        text.add(Text(label, bx + 2, sy + 3.4, pt_to_mm(6.5), "condensed-bold", GREY))
        text.add(Text(str(value), bx + 2, sy + 12.8, pt_to_mm(22), "bold", INK))
        st = fit(sub, "condensed", pt_to_mm(7), box_w - 12, "Monaco! card")
        text.add(Text(sub, bx + box_w - 1.5, sy + 3.4, st, "condensed", GREY, anchor="end"))
        text.add(Text(f"cost {cost}", bx + box_w - 1.5, sy + 12.8, pt_to_mm(7.5), "condensed", INK, anchor="end"))
    tx = x + 3 + 2 * (box_w + 2.5)
    tw = x + CARD_W - 3 - tx
    lines.add(rect(tx, sy, tw, 15, Style(stroke=INK, width=0.25, fill=None)))
    text.add(Text("COST", tx + tw / 2, sy + 3.4, pt_to_mm(6.5), "condensed-bold", GREY, anchor="middle"))
    text.add(Text(str(stats.cost), tx + tw / 2, sy + 12.8, pt_to_mm(22), "bold", INK, anchor="middle"))
    # Speed track: 0–18 inches; speeds a die cannot reach for this car (above skill + tech + 6) shaded.
    sp = rules.speed
    top_speed = min(sp.max, stats.skill + stats.tech + rules.rating.max)
    ty = sy + 19.5
    n = sp.max - sp.min + 1
    cell = (CARD_W - 6) / n
    text.add(
        Text(
            f"SPEED (inches) — {rules.start_speed_in}″ at the start, ±{sp.change_per_turn}″ a turn at most; top speed "
            f"{top_speed}″",
            x + 3,
            ty - 1.0,
            pt_to_mm(6.5),
            "condensed-bold",
            INK,
        )
    )
    for i in range(n):
        v = sp.min + i
        cx = x + 3 + i * cell
        shade = "#d6d6d6" if v > top_speed else "#ffffff"
        lines.add(rect(cx, ty, cell, 5.5, Style(stroke=INK, width=0.15, fill=shade)))
        text.add(Text(str(v), cx + cell / 2, ty + 2.75, pt_to_mm(6.5), "condensed", INK, "middle", "middle"))
    # ±3 marker: a bracket under the track spanning three cells each way from the middle.
    mid = x + 3 + (n // 2 + 0.5) * cell
    span = sp.change_per_turn * cell
    by = ty + 7.0
    lines.add(Polyline(((mid - span, by - 0.8), (mid - span, by), (mid + span, by), (mid + span, by - 0.8)), CUT))
    lines.add(Polyline(((mid, by - 1.0), (mid, by + 0.6)), CUT))
    text.add(
        Text(
            f"−{sp.change_per_turn}″  ·  speed now  ·  +{sp.change_per_turn}″",
            mid,
            by + 2.6,
            pt_to_mm(6),
            "condensed",
            GREY,
            "middle",
        )
    )
    # A true 3-inch gauge along the bottom edge.
    gy = y + CARD_H - 5.0
    inches = sp.change_per_turn
    length = inch_to_mm(inches)
    gx = x + 3
    lines.add(Polyline(((gx, gy), (gx + length, gy)), Style(stroke=INK, width=0.25)))
    for q in range(inches * 4 + 1):
        px = gx + inch_to_mm(q / 4)
        long = q % 4 == 0
        lines.add(Polyline(((px, gy), (px, gy - (2.2 if long else 1.1))), Style(stroke=INK, width=0.2)))
        if long:
            text.add(Text(f"{q // 4}″", px, gy + 2.6, pt_to_mm(6), "condensed", INK, anchor="middle"))
    coll = rules.collision_distance_in
    notes = (
        f"Move: one die + skill + tech, at most {sp.max}″ (a total below speed − {sp.change_per_turn}″ moves that all "
        "the same).",
        f"Ruler: {inches} true inches. Ending closer than {coll}″ to a car risks a collision; {coll}″ apart is clear.",
    )
    for k, note in enumerate(notes):
        sz = fit(note, "condensed", pt_to_mm(6.5), CARD_W - 6, "Monaco! card")
        text.add(Text(note, x + 3, by + 7.0 + k * 3.0, sz, "condensed", INK))
    page.layer("card-cut").add(rect(x, y, CARD_W, CARD_H, CUT))


def monaco_card_back(page: Page, team: Team, driver: Driver, x: float, y: float) -> None:
    """The back of a card: whose it is, the season's record (places, race wins and the skill they raise) and the
    rolls a player looks up most."""
    rules = monaco_rules()
    stats = driver.monaco
    c = team.colours
    fill, lines, text = page.layer("card-fill"), page.layer("card-lines"), page.layer("card-text")
    band = 8.0
    fill.add(rect(x, y, CARD_W, band, Style(stroke=None, fill=c.primary)))
    ink = text_on(c.primary)
    who = f"{driver.number} · {driver.name}" if driver.number is not None else driver.name
    s = fit(who, "condensed-bold", pt_to_mm(9), CARD_W - 6, "Monaco! card back")
    text.add(Text(who, x + 3, y + band / 2, s, "condensed-bold", ink, valign="middle"))
    # the season: a box a race for the place, ticks for wins, the skill they raise
    races = BACK_RACES
    cell = (CARD_W - 6) / races
    ry = y + band + 3.0
    text.add(Text("SEASON — place in each race", x + 3, ry, pt_to_mm(6), "condensed-bold", GREY))
    for i in range(races):
        bx = x + 3 + i * cell
        lines.add(rect(bx + 0.3, ry + 1.2, cell - 0.6, 6.0, Style(stroke=INK, width=0.2)))
        text.add(Text(str(i + 1), bx + 1.0, ry + 2.8, pt_to_mm(4.5), "condensed", GREY))
    wy = ry + 10.5
    bonus, top = rules.race_win_rating_bonus, rules.rating.max
    text.add(Text(f"Race wins: +{bonus} skill each, at once (at most {top})", x + 3, wy + 2.6, pt_to_mm(6.5),
                  "condensed", INK))  # fmt: skip
    for i in range(3):
        lines.add(rect(x + 3 + i * 5.0, wy + 4.2, 4.0, 4.0, Style(stroke=INK, width=0.2)))
    text.add(Text(f"skill at start {stats.skill}   now", x + 22.0, wy + 7.2, pt_to_mm(6.5), "condensed", INK))
    lines.add(rect(x + 52.0, wy + 3.6, 10.0, 5.6, Style(stroke=INK, width=0.25)))
    # the rolls to look up
    t = rules.turn
    bands = " · ".join(f"{lo}–{hi}″ +{add}" for lo, hi, add in turn_bands())
    notes = (
        f"Turn over {t.free_angle_deg:g}°: die + ({bands}); skill or more spins off.",
        f"After moving: die of tech ({stats.tech}) or more: pit next pass, a die of turns.",
        f"Spun off: restart at {rules.spin_off.restart_speed_in}″; damage roll +{rules.spin_off.damage_roll_add}.",
    )
    ny = wy + 14.0
    for k, note in enumerate(notes):
        sz = fit(note, "condensed", pt_to_mm(6.5), CARD_W - 6, "Monaco! card back")
        text.add(Text(note, x + 3, ny + k * 3.4, sz, "condensed", INK))
    page.layer("card-cut").add(rect(x, y, CARD_W, CARD_H, CUT))


def monaco_card_pages(field: TeamField, spec: PageSpec, backs: bool = True) -> list[Page]:
    """Eight cards to an A4 page, one per driver with *Monaco!* ratings; with ``backs``, each page followed by its
    backs, placed for printing on both sides (flip on the long edge: a card's back stands mirrored left to right,
    so it lands behind its front)."""
    entries = [(t, d) for t, d in field.drivers if d.monaco]
    title = f"Monaco! cards — {field.name}"
    layers = tuple(LAYERS)
    fronts = grid_pages(spec, title, entries, CARD_W, CARD_H, GAP, 7.5, layers, "card-text",
                        lambda page, entry, x, y: monaco_card(page, *entry, x, y))  # fmt: skip
    if not backs:
        return fronts
    _, _, cw, ch = spec.content_box
    cols = max(1, int((cw + GAP) // (CARD_W + GAP)))
    rows = max(1, int((ch - 7.5 + GAP) // (CARD_H + GAP)))
    per = cols * rows
    out = []
    for k, front in enumerate(fronts):
        chunk = entries[k * per : (k + 1) * per]
        mirrored: list = [None] * min(per, math.ceil(len(chunk) / cols) * cols)
        for i, entry in enumerate(chunk):
            r, c = divmod(i, cols)
            mirrored[r * cols + (cols - 1 - c)] = entry
        back = grid_pages(spec, f"{title} — backs", mirrored, CARD_W, CARD_H, GAP, 7.5, layers, "card-text",
                          lambda page, entry, x, y: entry and monaco_card_back(page, *entry, x, y))  # fmt: skip
        out += [front, *back]
    return out
