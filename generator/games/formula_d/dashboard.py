"""Dashboards: six gears with their moves, a slot for the gear-stick marker, the marker to cut out (the car's
number on it), a track to count the stops made in a corner, and the downshift wear table beside them. Three
dashboards to an A4 page."""

from __future__ import annotations

from ...compose.blocks import BODY, SMALL, Column, card_grid, cut_frame, paragraph, table
from ...compose.colour import GREY, INK, SHADE, text_on
from ...paper import PageSpec, Paper
from ...scene import Circle, Layer, Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from ...words import ordinal
from . import facts
from .builds import Player
from .scorecard import player_header

PER_PAGE = (1, 3)
MARKER = 14.0  # mm: the gear-stick marker's diameter
SIDE = 64.0  # mm: the right-hand column (downshift table, marker)


def dashboard(layer: Layer, box: tuple[float, float, float, float], player: Player, house_rules: bool = False) -> None:
    x, y, w, h = box
    r = facts.rules()
    cut_frame(layer, box)
    pad = 5.0
    ix, iw = x + pad, w - 2 * pad
    # Title strip in the car's colour.
    head = 10.0
    ink = player_header(layer, x, y, w, head, pad, player, pt_to_mm(14), iw * 0.6)
    layer.add(
        Text(
            "FORMULA D · DASHBOARD",
            x + w - pad,
            y + head / 2,
            BODY,
            "condensed-bold",
            ink,
            anchor="end",
            valign="middle",
        )
    )

    # Gears: six cells left of the downshift table.
    gears = r.gears
    gw = iw - SIDE - 6
    cell_w = gw / len(gears)
    gy = y + head + 6.5
    cell_h = 25.0
    layer.add(Text("GEAR · SPACES MOVED", ix, gy - 1.5, SMALL, "condensed-bold", GREY))
    for i, g in enumerate(gears):
        cx = ix + i * cell_w
        shade = Style(stroke=INK, width=0.3, fill="#ffffff" if i % 2 else SHADE)
        layer.add(rect(cx, gy, cell_w, cell_h, shade))
        layer.add(
            Text(str(g.gear), cx + cell_w / 2, gy + 9, pt_to_mm(26), "bold", INK, anchor="middle", valign="middle")
        )
        layer.add(
            Text(
                facts.span(g.min, g.max),
                cx + cell_w / 2,
                gy + 19.5,
                pt_to_mm(12),
                "condensed-bold",
                INK,
                anchor="middle",
                valign="middle",
            )
        )
    # The gear-stick track: a slot under the gears with a stop at each one.
    ty = gy + cell_h + 2.5
    slot_h = MARKER + 3
    layer.add(rect(ix, ty, gw, slot_h, Style(stroke=INK, width=0.3, fill="#f4f4f4")))
    for i in range(len(gears)):
        cx = ix + (i + 0.5) * cell_w
        layer.add(Circle((cx, ty + slot_h / 2), MARKER / 2, Style(stroke=GREY, width=0.25, dash=(0.8, 0.8))))
        layer.add(
            Text(
                ordinal(gears[i].gear),
                cx,
                ty + slot_h / 2,
                BODY,
                "condensed",
                GREY,
                anchor="middle",
                valign="middle",
            )
        )
        layer.add(Polyline(((cx, gy + cell_h), (cx, ty)), Style(stroke=GREY, width=0.25)))
    first = ordinal(gears[0].gear)
    note = (
        "Gear stick: move your marker to the gear you choose, then roll its die. Shift up one gear at a time; "
        f"the race starts in {first}. Gear 1 uses the pyramid die: read the number on top."
    )
    under = paragraph(layer, note, ix, ty + slot_h + 2.0, gw, SMALL, "condensed", GREY)
    corner_stops(layer, ix, under + 2.5, gw)

    # Downshift wear, beside the gears.
    dx = x + w - pad - SIDE
    d = r.downshift
    layer.add(Text("DOWNSHIFT WEAR", dx, gy - 1.5, SMALL, "condensed-bold", GREY))
    cols = [Column(c, 1.25 if i == 0 else 1.0) for i, c in enumerate(d.columns)]
    shown = facts.downshift_rows(house_rules)
    rows = [[f"{row[0]} gear" + ("s" if row[0] > 1 else ""), *row[1:]] for row in shown]
    bottom = table(layer, dx, gy, SIDE, cols, rows, size=BODY)
    note = f"Down: skip up to {d.max_skipped} gears. Up: one at a time."
    if any(v is None for row in shown for v in row):
        note += " Empty box: not legible in the rulebook text; write it in from yours."
    if shown != [list(row) for row in d.rows] and house_rules:
        note += " " + facts.house().note.replace(": see the House rules card", "")
    paragraph(layer, note, dx, bottom + 1.5, SIDE, SMALL, "condensed", GREY)

    # The marker to cut out: the car's colour, the player's initial.
    mx, my = x + w - pad - MARKER - 2, y + h - pad - MARKER - 1
    label_w = SIDE - MARKER - 6
    paragraph(
        layer, "Gear-stick marker: cut it out along the dashed line.", dx, my + 2, label_w, SMALL, "condensed-bold", INK
    )
    layer.add(
        Circle((mx + MARKER / 2, my + MARKER / 2), MARKER / 2 + 1.2, Style(stroke=GREY, width=0.2, dash=(1.2, 0.8)))
    )
    layer.add(
        Circle((mx + MARKER / 2, my + MARKER / 2), MARKER / 2 - 0.3, Style(stroke=INK, width=0.3, fill=player.colour))
    )
    initial = str(player.number) if player.number else player.name.strip()[0].upper()
    layer.add(
        Text(
            initial,
            mx + MARKER / 2,
            my + MARKER / 2,
            pt_to_mm(15),
            "bold",
            text_on(player.colour),
            anchor="middle",
            valign="middle",
        )
    )


STOP_BOX = 6.0  # mm: a box of the corner-stops track


def corner_stops(layer: Layer, x: float, y: float, w: float) -> float:
    """A place to count the stops made in the corner a car is in (issue 42: players lost count): a box for each
    stop up to the most a corner asks (rules.yaml: its overshoot table's largest), to tick — or to cover with a WP
    marker — as a move ends inside the corner, cleared when the car leaves it. Returns the y under it."""
    most = max(facts.rules().overshoot.eliminated)
    layer.add(Text("STOPS IN THIS CORNER", x, y + STOP_BOX / 2, SMALL, "condensed-bold", INK, valign="middle"))
    bx = x + 27.0
    for k in range(most):
        cx = bx + k * (STOP_BOX + 2.0)
        layer.add(rect(cx, y, STOP_BOX, STOP_BOX, Style(stroke=INK, width=0.35, fill="#ffffff")))
        layer.add(Text(str(k + 1), cx + STOP_BOX / 2, y + STOP_BOX / 2, SMALL, "condensed", GREY, "middle", "middle"))
    tx = bx + most * (STOP_BOX + 2.0) + 1.0
    words = (
        "Tick a box (or lay a WP marker on it) each time your move ends inside a corner; clear them as you leave "
        "it. Fewer stops than its flag asks when you leave: you overshoot."
    )
    return max(y + STOP_BOX, paragraph(layer, words, tx, y - 0.4, x + w - tx, SMALL, "condensed", GREY))


PAPER = Paper("a4", "portrait")


def dashboard_pages(players: list[Player], spec: PageSpec, house_rules: bool = False) -> list[Page]:
    per = PER_PAGE[0] * PER_PAGE[1]
    pages = []
    for start in range(0, len(players), per):
        page = Page(spec, "Formula D dashboards")
        for box, player in zip(card_grid(page, *PER_PAGE, gap=5.0), players[start : start + per], strict=False):
            dashboard(page.layer("dashboards"), box, player, house_rules)
        pages.append(page)
    return pages
