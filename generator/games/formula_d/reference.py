"""Reference cards: the rules at hand, in Paddock's words, with the rulebook's numbers. Four cards to an A4 page.

Card texts and their order are data (``templates/formula-d/sheets.yaml``); every number in them and every table
comes from ``rules.yaml``.
"""

from __future__ import annotations

from typing import Any

from ...compose.blocks import BODY, SMALL, Column, cut_frame, fit, paragraph, table
from ...compose.colour import GREY, INK
from ...paper import PageSpec, Paper
from ...scene import Layer, Page, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .models import Card

TITLE_FILL = "#1f2a44"
ILLEGIBLE = "Empty box: this number is not legible in the rulebook text Paddock works from; write it in from yours."


def _tables() -> dict[str, tuple[list[Column], list[list[Any]]]]:
    r = facts.rules()
    span = facts.span
    b = r.blocked
    d = r.downshift
    rolls = r.rolls
    pit = r.pit_stop
    return {
        "gears": (
            [Column("Gear"), Column("Spaces moved", 2)],
            [[g.gear, span(g.min, g.max)] for g in r.gears],
        ),
        "start_roll": (
            [Column("Roll", 0.6), Column("Start", 1.1, "start"), Column("What happens", 3, "start")],
            [[span(s.from_, s.to), s.result, s.effect] for s in r.start_roll],
        ),
        "blocked": (
            [Column(c) for c in b.columns],
            [list(row) for row in b.rows] + [[b.eliminated_from, "The car is out of the race."]],
        ),
        "downshift": (
            [Column(c) for c in d.columns],
            [list(row) for row in d.rows],
        ),
        "rolls": (
            [Column("Check", 1.3, "start"), Column("Loses 1 WP of", 1.4, "start"), Column("Good"), Column("Rain")],
            [
                [name, facts.zone_label(v.zone).lower(), span(*v.good), span(*v.rain)]
                for name, v in (
                    ("Collision", rolls.collision),
                    ("Engine", rolls.engine),
                    ("Damage marker", rolls.road_handling),
                )
            ],
        ),
        "pit_stop": (
            [Column("Black die", 0.8), Column("Pit stop", 3, "start")],
            [
                [
                    span(*pit.quick),
                    f"Quick: halve the roll, rounding up, and leave in gear {pit.exit_gear} with that many spaces.",
                ],
                [
                    span(*pit.slow),
                    f"Slow: stay in the pit this round; next round leave in gear {pit.exit_gear} or lower.",
                ],
            ],
        ),
        "weather": (
            [Column("Black die", 0.8), Column("Weather", 1.4, "start"), Column("Effect on race", 1.5, "start")],
            [[None, row.weather, row.effect] for row in r.weather.chart],
        ),
        "tyres": (
            [Column("Tires", 0.55, "start"), Column("Good or changeable", 1.6, "start"), Column("Rain", 1.4, "start")],
            [[k.capitalize(), r.tyres.kind(k).dry, r.tyres.kind(k).rain] for k in ("hard", "soft", "rain")],
        ),
        "team_points": (
            [Column("Place", 1.3, "start")] + [Column(str(i + 1)) for i in range(len(r.team_points))],
            [["Points", *r.team_points]],
        ),
        "standard_build": (
            [Column("Zone", 1.6, "start"), Column("Standard WP"), Column("Own build")],
            [[label, r.wear.standard[k], span(*facts.wp_ranges()[k])] for k, label in facts.zones()],
        ),
        "shots": (
            [Column("Black die", 0.8), Column("Result", 3, "start")],
            [[span(s.from_, s.to), s.result] for s in r.road_race.shots],
        ),
    }


def card(layer: Layer, box: tuple[float, float, float, float], spec: Card) -> float:
    """Draw one card at the top of ``box`` (its height is what the content needs); returns its bottom."""
    x, y, w, h = box
    pad = 4.0
    ix, iw = x + pad, w - 2 * pad
    head = 9.0
    layer.add(rect(x, y, w, head, Style(stroke=None, fill=TITLE_FILL)))
    size = fit(spec.title, "bold", pt_to_mm(12), iw, "card title")
    layer.add(Text(spec.title, ix, y + head / 2, size, "bold", "#ffffff", valign="middle"))
    values = facts.fill_values()
    tables = _tables()
    cy = y + head + 3.5
    for block in spec.blocks:
        if block.table is not None:
            cols, rows = tables[block.table]
            cy = table(layer, ix, cy, iw, cols, rows) + 1.2
            if any(v is None for row in rows for v in row) and block.table != "weather":
                cy = paragraph(layer, ILLEGIBLE, ix, cy, iw, SMALL, "condensed", GREY) + 1.0
            cy += 1.3
        elif block.write_in is not None:
            box = 7.0
            cy += 0.5
            layer.add(rect(ix + iw - box * 2.2, cy, box * 2.2, box, Style(stroke=INK, width=0.35)))
            paragraph(layer, block.write_in, ix, cy + 1.3, iw - box * 2.2 - 2, BODY, "condensed-bold")
            cy += box + 2.5
        elif block.heading is not None:
            cy += 1.0
            layer.add(Text(block.heading, ix, cy, BODY, "bold", INK, valign="top"))
            cy += BODY * 1.5
        else:
            cy = paragraph(layer, block.text.format(**values), ix, cy, iw) + 1.6
    bottom = cy + 1.5
    if bottom > y + h:
        from ...notices import warn

        warn(f"reference card '{spec.title}' runs {bottom - (y + h):.1f} mm past the page's content box")
    cut_frame(layer, (x, y, w, bottom - y))
    return bottom


PAPER = Paper("a4", "portrait")


def reference_pages(page_spec: PageSpec, road_race: bool = False, pits: bool = True) -> list[Page]:
    """The cards at their natural heights, in two columns, top to bottom, as many pages as they need; ``pits``:
    the board has a pit lane (else the pit-stop card is left out, as for a road race)."""
    s = facts.sheets()
    specs = list(s.reference) + ([s.road_race] if road_race else [])
    if road_race or not pits:  # cards a race without pits has no use for
        specs = [c for c in specs if c.road_race]
    gap = 4.0
    x0, y0, w, h = page_spec.content_box
    m = 0.3
    x0, y0, w, h = x0 + m, y0 + m, w - 2 * m, h - 2 * m
    cw = (w - gap) / 2
    heights = [card(Layer("probe"), (0, 0, cw, h), spec) for spec in specs]
    pages: list[Page] = []
    col, cy = 2, 0.0
    for spec, ch in zip(specs, heights, strict=True):
        if col == 2 or cy + ch > y0 + h + 1e-6:
            col += 1
            cy = y0
            if col >= 2:
                pages.append(Page(page_spec, "Formula D reference cards"))
                col = 0
        card(pages[-1].layer("cards"), (x0 + col * (cw + gap), cy, cw, y0 + h - cy), spec)
        cy += ch + gap
    return pages
