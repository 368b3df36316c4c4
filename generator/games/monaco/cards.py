"""*Monaco!* driver/car cards.

A *Monaco!* card (88 × 63 mm, eight to an A4 page) carries the driver, team and number, skill and tech with
their points cost, a speed track from 0 to 18 inches with the ±3″ a turn limit, and a true-size 3-inch gauge for
measuring that change and the 1″ collision distance on the table. Inches become mm only here, through
:func:`generator.units.inch_to_mm`.
"""

from __future__ import annotations

from ...compose.blocks import fit, grid_pages
from ...compose.colour import GREY, INK, text_on
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...teams.models import Driver, Team, TeamField
from ...units import inch_to_mm, pt_to_mm
from .facts import rules as monaco_rules

CARD_W, CARD_H = 88.0, 63.0
GAP = 3.0
CUT = Style(stroke=INK, width=0.2)
LAYERS = ("card-fill", "card-lines", "card-text", "card-cut")

PAPER = Paper("a4", "portrait")


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
            f"SPEED (inches) — change at most ±{sp.change_per_turn}″ a turn; top speed {top_speed}″",
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
        f"Move: one die + skill + tech, at most {sp.max}″.",
        f"Ruler: {inches} true inches. Ending within {coll}″ of a car risks a collision.",
    )
    for k, note in enumerate(notes):
        sz = fit(note, "condensed", pt_to_mm(6.5), CARD_W - 6, "Monaco! card")
        text.add(Text(note, x + 3, by + 7.0 + k * 3.0, sz, "condensed", INK))
    page.layer("card-cut").add(rect(x, y, CARD_W, CARD_H, CUT))


def monaco_card_pages(field: TeamField, spec: PageSpec) -> list[Page]:
    """Eight cards to an A4 page, one per driver with *Monaco!* ratings."""
    entries = [(t, d) for t, d in field.drivers if d.monaco]
    return grid_pages(
        spec,
        f"Monaco! cards — {field.name}",
        entries,
        CARD_W,
        CARD_H,
        GAP,
        7.5,
        tuple(LAYERS),
        "card-text",
        lambda page, entry, x, y: monaco_card(page, *entry, x, y),
    )
