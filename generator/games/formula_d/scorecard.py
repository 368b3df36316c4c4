"""Scorecards: one card per player, four to an A4 page — name, car colour, one box per wear point to cross off.

A GT driver's card carries the driver's ability and a nitro box per lap; a zone whose WP the rulebook does not
show legibly gets a write-in count and a row of faint boxes to cross down to it.
"""

from __future__ import annotations

from ...compose.blocks import BODY, SMALL, card_grid, cut_frame, name_strip, paragraph
from ...compose.colour import GREY, INK
from ...fonts import text_width
from ...paper import PageSpec, Paper
from ...scene import Circle, Layer, Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .builds import GT_MAX, Player

BOX = 7.5  # mm: a box to cross off, as large as the card's widest zone allows
BOX_GAP = 1.0
PER_PAGE = (2, 2)
LAYER_BOXES = "wp-boxes"


def zone_box_size(inner: float, player: Player) -> float:
    """One size for every row of a card, so it looks ruled: what its widest row allows (GT_MAX for a write-in)."""
    widest = max(GT_MAX if n is None else n for n in player.build.values())
    return min(BOX, (inner + BOX_GAP) / max(widest, 1) - BOX_GAP)


def scorecard(
    layer: Layer,
    boxes: Layer,
    box: tuple[float, float, float, float],
    player: Player,
    weather: bool,
    tyres: bool,
    pits: bool = True,
    laps: int | None = None,
) -> None:
    x, y, w, h = box
    cut_frame(layer, box)
    pad = 4.0
    ix, iw = x + pad, w - 2 * pad
    # Header: the car's colour with the player's name on it.
    head = 13.0
    ink = player_header(layer, x, y, w, head, pad, player, pt_to_mm(15), iw - 28)
    layer.add(Text("FORMULA D", x + w - pad, y + 4.2, SMALL, "condensed-bold", ink, anchor="end", valign="middle"))
    kind = {"standard": "standard car", "custom": "own build", "gt": "GT road race"}[player.kind]
    layer.add(Text(kind, x + w - pad, y + 8.8, SMALL, "condensed", ink, anchor="end", valign="middle"))
    cy = y + head + 4.5
    car = f"Car {player.number} · colour" if player.number else "Car colour"
    colour_line = f"{car}: {player.colour_name}"
    if player.kind == "gt":
        who = player.driver_name or (player.driver.name if player.driver else None)
        label = f"Driver: {who}" if who else "Driver:"
        layer.add(Text(label, ix, cy, BODY, "condensed-bold", INK, valign="middle"))
        if not who:  # the rulebook's name for this driver is not legible: a line to write it on
            lx = ix + 12
            layer.add(Polyline(((lx, cy + 1.6), (ix + iw * 0.62, cy + 1.6)), Style(stroke=GREY, width=0.2)))
        layer.add(Text(colour_line, x + w - pad, cy, BODY, "condensed", INK, anchor="end", valign="middle"))
    else:
        layer.add(Text(colour_line, ix, cy, BODY, "condensed", INK, valign="middle"))
    cy += 5.0

    # The bottom of the card, built upwards: footer, black-die checks, optional-rule choices, GT ability.
    footer_y = y + h - pad - 2.0
    stack = footer_y - 4.0 - CHECKS_H
    _checks(layer, ix, stack, iw, weather)
    tyres = tyres and player.kind != "gt"  # GT cars run on hard tires only
    if weather or tyres:
        stack -= _choices_height(weather, tyres) + 1.5
        _choices(layer, ix, stack, iw, weather, tyres)
    if player.kind == "gt":
        need = _gt(Layer("probe"), ix, 0.0, iw, player, laps)
        stack -= need + 1.5
        _gt(layer, ix, stack, iw, player, laps)
    _footer(layer, ix, footer_y, iw, pit=pits and player.kind != "gt", laps=laps)

    # Wear-point zones fill the rest: one box per WP, all boxes of a card one size.
    label_h = 3.0
    pitch = (stack - 1.0 - cy) / len(facts.zones())
    s = min(zone_box_size(iw, player), pitch - label_h - 1.6)
    if s < 4.0:
        from ...notices import warn

        warn(f"scorecard of {player.name}: wear-point boxes only {s:.1f} mm wide")
    for key, label in facts.zones():
        n = player.build[key]
        layer.add(Text(label.upper(), ix, cy, SMALL, "condensed-bold", INK, valign="top"))
        by = cy + label_h
        if n is None:
            read = player.driver.uncertain.get(key) if player.driver else None
            layer.add(
                Text(
                    f"WP: ____ (the text reads {read}, uncertain: write in, cross off the rest)"
                    if read
                    else "WP: ____ (write in, cross off the rest)",
                    x + w - pad,
                    cy,
                    SMALL,
                    "condensed",
                    GREY,
                    anchor="end",
                    valign="top",
                )
            )
            for k in range(GT_MAX):
                layer.add(rect(ix + k * (s + BOX_GAP), by, s, s, Style(stroke=GREY, width=0.2, dash=(0.6, 0.6))))
        else:
            label = f"{n} WP"
            if key in player.house:  # Paddock's house rule, never the rulebook's: marked, and said so
                label = f"{facts.suggested(n)} WP (house rule, not the rulebook's)"
            layer.add(Text(label, x + w - pad, cy, SMALL, "condensed", GREY, anchor="end", valign="top"))
            for k in range(n):
                boxes.add(rect(ix + k * (s + BOX_GAP), by, s, s, Style(stroke=INK, width=0.35)))
        cy += pitch


def _tick_row(layer: Layer, x: float, y: float, width: float, title: str, options: list[str]) -> float:
    """A title and tick boxes, each option as wide as its text needs, spread over the row."""
    layer.add(Text(title, x, y, SMALL, "condensed-bold", INK, valign="middle"))
    cx = x + 13
    needs = [3.8 + text_width(o, SMALL, "condensed") for o in options]
    spare = max(0.0, (x + width - cx) - sum(needs)) / len(options)
    for opt, need in zip(options, needs, strict=True):
        layer.add(rect(cx, y - 1.4, 2.8, 2.8, Style(stroke=INK, width=0.25)))
        layer.add(Text(opt, cx + 3.8, y, SMALL, "condensed", INK, valign="middle"))
        cx += need + spare
    return y + 5.0


def _choices_height(weather: bool, tyres: bool) -> float:
    return 3.6 + 5.0 * (int(weather) + int(tyres)) - 1.2


def _choices(layer: Layer, x: float, y: float, w: float, weather: bool, tyres: bool) -> float:
    r = facts.rules()
    top = y
    y += 3.6
    if weather:
        y = _tick_row(layer, x + 1.5, y, w - 3, "Weather", [row.weather for row in r.weather.chart])
    if tyres:
        y = _tick_row(layer, x + 1.5, y, w - 3, "Tires", [t.capitalize() for t in ("hard", "soft", "rain")])
    layer.add(rect(x, top, w, y - top - 1.2, Style(stroke=GREY, width=0.2)))
    return y + 1.5


def _gt(layer: Layer, x: float, y: float, w: float, player: Player, laps: int | None = None) -> float:
    drv = player.driver
    layer.add(Text(drv.ability if drv else "", x, y, BODY, "bold", INK, valign="top"))
    y = paragraph(layer, drv.text if drv else "", x, y + BODY * 1.3, w, SMALL, "condensed") + 1.5
    layer.add(Text("Nitro used", x, y + 1.4, SMALL, "condensed-bold", INK, valign="middle"))
    n = laps or LAP_BOXES
    pitch = min(16.0, (w - 16) / n)
    for lap in range(n):
        bx = x + 16 + lap * pitch
        layer.add(Circle((bx + 1.4, y + 1.4), 1.6, Style(stroke=INK, width=0.25)))
        layer.add(Text(f"lap {lap + 1}", bx + 4, y + 1.4, SMALL, "condensed", INK, valign="middle"))
    return y + 5


CHECKS_H = 12.0


def _checks(layer: Layer, x: float, y: float, w: float, weather: bool) -> float:
    """The black-die checks that cost WP, at hand: what to roll and what it costs (rain too when in play)."""
    rolls = facts.rules().rolls
    y += 1.0
    layer.add(Text("BLACK-DIE CHECKS: LOSE 1 WP ON", x, y, SMALL, "condensed-bold", GREY, valign="top"))
    y += 3.6
    names = (("Collision", "collision"), ("Engine", "engine"), ("Damage marker", "road_handling"))
    col = w / 3
    for i, (title, key) in enumerate(names):
        v = getattr(rolls, key)
        cx = x + i * col
        rain = f"  (rain {facts.span(*v.rain)})" if weather else ""
        layer.add(Text(title, cx, y, SMALL, "condensed", INK, valign="top"))
        text = facts.span(*v.good) + rain
        layer.add(Text(text, cx, y + SMALL * 1.35, BODY, "condensed-bold", INK, valign="top"))
    return y + SMALL * 1.35 + BODY + 1.5


#: Lap boxes on a card when the pack sets no race length: the rulebook's two laps, and the three-lap variant's third.
LAP_BOXES = 3


def _footer(layer: Layer, x: float, bottom: float, w: float, pit: bool = True, laps: int | None = None) -> None:
    r = facts.rules()
    n = r.pit_stop.reservoir_wp
    y = bottom - 2.0
    layer.add(Text("Lap", x, y, SMALL, "condensed-bold", INK, valign="middle"))
    for i in range(laps or LAP_BOXES):
        layer.add(rect(x + 7 + i * 5, y - 1.6, 3.2, 3.2, Style(stroke=INK, width=0.25)))
    if not pit:
        return
    label = f"Pit WP (optional rule, {n})"
    tx = x + w - n * 5
    layer.add(Text(label, tx - 1.5, y, SMALL, "condensed", GREY, anchor="end", valign="middle"))
    for i in range(n):
        layer.add(rect(tx + i * 5, y - 1.6, 3.2, 3.2, Style(stroke=GREY, width=0.25)))


PAPER = Paper("a4", "portrait")


def player_header(layer: Layer, x: float, y: float, w: float, head: float, pad: float, player, size, width) -> str:
    """A strip in the car's colour across the top of a card with the player's name; returns the legible ink."""
    return name_strip(layer, x, y, w, head, pad, player.colour, player.name, size, width)


def scorecard_pages(
    players: list[Player],
    spec: PageSpec,
    weather: bool = False,
    tyres: bool = False,
    pits: bool = True,
    laps: int | None = None,
) -> list[Page]:
    """Scorecards for ``players``; ``pits``: the board has a pit lane (else no pit WP box); ``laps``: the race's
    length (a box per lap; default three: the rulebook's two laps and the three-lap variant)."""
    per = PER_PAGE[0] * PER_PAGE[1]
    pages = []
    for start in range(0, len(players), per):
        page = Page(spec, "Formula D scorecards")
        for box, player in zip(card_grid(page, *PER_PAGE), players[start : start + per], strict=False):
            scorecard(page.layer("cards"), page.layer(LAYER_BOXES), box, player, weather, tyres, pits, laps)
        pages.append(page)
    return pages
