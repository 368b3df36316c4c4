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


def _tables(house_rules: bool = False) -> dict[str, tuple[list[Column], list[list[Any]]]]:
    """Every table the cards (and the rule summary) print; ``house_rules``: the numbers the rulebook's text does
    not show filled with Paddock's suggestions, marked (else ``None``: a write-in box)."""
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
            facts.downshift_rows(house_rules),
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
            [
                [die, row.weather, row.effect]
                for die, row in zip(facts.weather_dice(house_rules), r.weather.chart, strict=True)
            ],
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
        "ordinary_dice": (
            [Column("Gear", 0.5), Column("Moves", 0.7), Column("Ordinary die", 2.6, "start")],
            [[g.gear, span(g.min, g.max), facts.ordinary_dice(facts.dice().faces(g.gear))] for g in r.gears],
        ),
    }


def card(
    layer: Layer,
    box: tuple[float, float, float, float],
    spec: Card,
    values: dict[str, str] | None = None,
    tables: dict | None = None,
    house_rules: bool = False,
) -> float:
    """Draw one card at the top of ``box`` (its height is what the content needs); returns its bottom. ``values``
    and ``tables``: what its text and tables are filled from (default: the rulebook's); ``house_rules``: its
    write-ins hold Paddock's suggestions."""
    x, y, w, h = box
    pad = 4.0
    ix, iw = x + pad, w - 2 * pad
    head = 9.0
    layer.add(rect(x, y, w, head, Style(stroke=None, fill=TITLE_FILL)))
    size = fit(spec.title, "bold", pt_to_mm(12), iw, "card title")
    layer.add(Text(spec.title, ix, y + head / 2, size, "bold", "#ffffff", valign="middle"))
    values = facts.fill_values() if values is None else values
    tables = _tables(house_rules) if tables is None else tables
    mark = facts.house().mark
    cy = y + head + 3.5
    for block in spec.blocks:
        if block.table is not None:
            cols, rows = tables[block.table]
            cy = table(layer, ix, cy, iw, cols, rows) + 1.2
            if any(v is None for row in rows for v in row) and block.table != "weather":
                cy = paragraph(layer, ILLEGIBLE, ix, cy, iw, SMALL, "condensed", GREY) + 1.0
            if any(isinstance(v, str) and v.endswith(mark) for row in rows for v in row):
                cy = paragraph(layer, facts.house().note, ix, cy, iw, SMALL, "condensed", GREY) + 1.0
            cy += 1.3
        elif block.write_in is not None:
            box = 7.0
            cy += 0.5
            layer.add(rect(ix + iw - box * 2.2, cy, box * 2.2, box, Style(stroke=INK, width=0.35)))
            paragraph(layer, block.write_in, ix, cy + 1.3, iw - box * 2.2 - 2, BODY, "condensed-bold")
            suggest = house_rules and block.house is not None
            if suggest:  # Paddock's suggestion in the box, in grey and marked as one
                value = facts.suggested(getattr(facts.house(), block.house).value)
                layer.add(Text(value, ix + iw - box * 1.1, cy + box / 2, BODY, "bold", GREY, "middle", "middle"))
            cy += box + 2.5
            if suggest:
                cy = paragraph(layer, facts.house().note, ix, cy - 1.0, iw, SMALL, "condensed", GREY) + 1.0
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


def house_card(pits: bool = True, road_race: bool = False) -> Card:
    """The card of Paddock's suggested house rules (``--house-rules``): each number and why (the pit's roll only
    where the board has a pit lane, the GT drivers' WP in a road race)."""
    h = facts.house()
    blocks = [{"text": h.intro}]
    for rule in (h.brake_wp_per_space, h.engine_wp_skip_3, *((h.pit_min_roll,) if pits else ()), h.weather):
        value = rule.value if isinstance(rule.value, int) else " · ".join(rule.value)
        blocks += [{"heading": f"{rule.label}: {value}"}, {"text": rule.reason}]
    if road_race:
        wp = " · ".join(f"{label.lower()} {facts.standard_build()[k]}" for k, label in facts.zones())
        blocks += [{"heading": h.gt_wp.label}, {"text": f"{wp}. {h.gt_wp.reason}"}]
    return Card.model_validate({"title": h.title, "blocks": blocks})


def reference_pages(
    page_spec: PageSpec,
    road_race: bool = False,
    pits: bool = True,
    laps: int | None = None,
    house_rules: bool = False,
) -> list[Page]:
    """The cards at their natural heights, in two columns, top to bottom, as many pages as they need; ``pits``:
    the board has a pit lane (else the pit-stop card is left out, as for a road race); a road race (``road_race``,
    GT cars on hard tires only) also leaves out the soft and rain tires' card. ``laps``: the race's length;
    ``house_rules``: the write-ins filled with Paddock's suggestions, and a card saying why."""
    s = facts.sheets()
    has = {"pits": pits and not road_race, "soft_tyres": not road_race}
    specs = (
        list(s.reference)
        + ([s.road_race] if road_race else [])
        + ([house_card(has["pits"], road_race)] if house_rules else [])
    )
    specs = [c for c in specs if all(has[need] for need in c.needs)]
    values, tables = facts.fill_values(laps, has["pits"]), _tables(house_rules)
    gap = 4.0
    x0, y0, w, h = page_spec.content_box
    m = 0.3
    x0, y0, w, h = x0 + m, y0 + m, w - 2 * m, h - 2 * m
    cw = (w - gap) / 2
    heights = [card(Layer("probe"), (0, 0, cw, h), spec, values, tables, house_rules) for spec in specs]
    pages: list[Page] = []
    col, cy = 2, 0.0
    for spec, ch in zip(specs, heights, strict=True):
        if col == 2 or cy + ch > y0 + h + 1e-6:
            col += 1
            cy = y0
            if col >= 2:
                pages.append(Page(page_spec, "Formula D reference cards"))
                col = 0
        card(pages[-1].layer("cards"), (x0 + col * (cw + gap), cy, cw, y0 + h - cy), spec, values, tables, house_rules)
        cy += ch + gap
    return pages
