"""The pieces to play with, at true size, to cut out: a car token for each player (and a spare) in the car's
colour with its number and the player's name, sized to sit in one space of the board, and the damage markers the
rulebook's box holds (``game.yaml`` ``markers.damage``), each small enough to lie on a space beside a car."""

from __future__ import annotations

from ...compose.blocks import SMALL, fit, paragraph
from ...compose.colour import GREY, INK, text_on
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Circle, Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .builds import Player

PAPER = Paper("a4", "portrait")
CUT = Style(stroke=INK, width=0.2)
GAP = 3.0  # mm between pieces
MARKER = 12.0  # mm: a damage marker's diameter (a space is 16 mm wide)
MARKER_FILL = "#3a3a3a"
SPARES = 2  # tokens per player: the car and a spare
LAYERS = ("pieces-fill", "pieces-text", "pieces-cut")


def piece_pages(players: list[Player], spec: PageSpec) -> list[Page]:
    """One page (more for a large field on small paper): the players' car tokens, then the damage markers."""
    length, width = facts.sheets().token.length, facts.sheets().token.width
    x0, y0, cw, ch = spec.content_box
    x0, cw = x0 + CUT.width, cw - 2 * CUT.width  # the cut lines' own width inside the content box too
    pages: list[Page] = []

    def new_page() -> None:
        pages.append(Page(spec, "Formula D pieces"))
        for layer in LAYERS:  # drawn in this order: fills, then words and marks on them, then the cut lines
            pages[-1].layer(layer)

    new_page()
    size = pt_to_mm(13)
    pages[0].layer("pieces-text").add(Text("Formula D pieces", x0, y0 + ascent(size, "bold"), size, "bold", INK))
    y = y0 + ascent(size, "bold") + 3.0

    def section(y: float, text: str) -> float:
        return paragraph(pages[-1].layer("pieces-text"), text, x0, y, cw, SMALL, "condensed", GREY) + 2.0

    def grid(y: float, items: list, w: float, h: float, draw) -> float:
        cols = max(1, int((cw + GAP) // (w + GAP)))
        for k, item in enumerate(items):
            r, c = divmod(k, cols)
            top = y + r * (h + GAP)
            if top + h > y0 + ch:  # on to a new page
                new_page()
                y, top = y0 - r * (h + GAP), y0
            draw(pages[-1], item, x0 + c * (w + GAP), top)
        rows = -(-len(items) // cols)
        return y + rows * (h + GAP) + 4.0

    y = section(y, "CARS — one for each player and a spare, in the car's colour: cut along the lines.")
    tokens = [p for p in players for _ in range(SPARES)]
    y = grid(y, tokens, length, width, lambda page, p, x, t: _token(page, p, x, t, length, width))
    n = facts.game().markers.damage
    y = section(
        y,
        f"DAMAGE MARKERS — {n}, as in the game box. Put one on the space where a car loses a car body or engine WP, "
        "or leaves the race: a car that passes over it or stops on it rolls for road handling.",
    )
    grid(y, list(range(n)), MARKER, MARKER, lambda page, _, x, t: _marker(page, x, t))
    return pages


DISC = 6.4  # mm: the white disc with the car's number on a token, so tokens tell apart in any ink (issue 42)


def _token(page: Page, player: Player, x: float, y: float, length: float, width: float) -> None:
    """A car token: the car's colour, its number on a white disc (red and blue print alike in grey; the numbers
    do not), a nose mark (the car faces right), the player's name."""
    page.layer("pieces-fill").add(rect(x, y, length, width, Style(stroke=None, fill=player.colour)))
    ink = text_on(player.colour)
    nose = (
        (x + length - 2.6, y + width / 2 - 1.6),
        (x + length - 0.8, y + width / 2),
        (x + length - 2.6, y + width / 2 + 1.6),
    )
    page.layer("pieces-text").add(Polyline(nose, Style(stroke=ink, width=0.35)))
    left = x + 1.0
    if player.number:
        cx, cy = x + 0.8 + DISC / 2, y + width / 2
        page.layer("pieces-fill").add(Circle((cx, cy), DISC / 2, Style(stroke=INK, width=0.25, fill="#ffffff")))
        num = str(player.number)
        size = fit(num, "bold", pt_to_mm(12), DISC * 0.78, "car number")
        page.layer("pieces-text").add(Text(num, cx, cy, size, "bold", INK, anchor="middle", valign="middle"))
        left = x + 0.8 + DISC + 0.8
    s = fit(player.name, "condensed-bold", pt_to_mm(7), x + length - 3.0 - left, "car token")
    page.layer("pieces-text").add(Text(player.name, left, y + width / 2, s, "condensed-bold", ink, valign="middle"))
    page.layer("pieces-cut").add(rect(x, y, length, width, CUT))


def _marker(page: Page, x: float, y: float) -> None:
    """A damage marker: a dark disc with a white cross."""
    r = MARKER / 2
    cx, cy = x + r, y + r
    page.layer("pieces-fill").add(Circle((cx, cy), r, Style(stroke=None, fill=MARKER_FILL)))
    k = r * 0.45
    white = Style(stroke="#ffffff", width=1.1, cap="round")
    page.layer("pieces-text").add(Polyline(((cx - k, cy - k), (cx + k, cy + k)), white))
    page.layer("pieces-text").add(Polyline(((cx - k, cy + k), (cx + k, cy - k)), white))
    page.layer("pieces-cut").add(Circle((cx, cy), r, CUT))
