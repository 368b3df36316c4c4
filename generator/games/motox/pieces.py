"""One piecepack piece at a time: a tile's face and back, a coin's two sides, a die face.

Each function draws into a layer at a given position (mm, page coordinates); sizes scale with the piece, so a
larger ``--tile-size`` gives the same design, larger. The sheets decide where pieces go and draw the cut lines.

- Tile face: the rank at the centre (null blank, ace the suit symbol, 2–5 numerals) and a small suit symbol at
  the top left, in the suit's colour.
- Tile back, in one of two looks (``LOOKS``), the same on every tile so a face-down tile gives nothing away:
  ``generic``, a pale ground divided into its four 1-inch quarters by a dark grid; ``motox``, the MotoX track —
  four squares of dirt with darker ruts between them, small black crosses marking the quarters, a tread mark and
  pebbles — the squares stay clear to stand a bike on.
- Coin: the value in black (ace a spiral) on one side, the suit in its colour on the other, each with a small
  direction mark at the top.
"""

from __future__ import annotations

import math
import random

from ...compose.colour import INK
from ...scene import Circle, Layer, Polygon, Polyline, Style, Text
from .facts import Rank, Suit
from .symbols import spiral, suit_symbol

DIRT = "#ead9bb"  # the squares: pale, so ink saver hatches them sparsely and a bike stands out on them
RUT = "#b08a5e"  # between the squares
TREAD = "#cdb089"
PEBBLE = "#9c7a52"
CROSS = "#111111"
RING = "#b5b5b5"
INSET = 0.025  # each square's inset from its quarter, as a share of the tile: the ruts are twice this wide
PLAIN = "#efebe3"  # the generic back's ground: pale, so the grid reads and ink saver hatches it sparsely
GRID = "#55504a"
LOOKS = ("generic", "motox")  # the tile backs and pawns: a plain piecepack, or the MotoX track and bikes
BACK_SEED = 2001  # every MotoX back draws the same tread and pebbles: identical backs


def tile_face(layer: Layer, x: float, y: float, s: float, suit: Suit, rank: Rank) -> None:
    """The face of the tile of ``suit`` and ``rank``, its top-left corner at (x, y), ``s`` mm square."""
    m = s * 0.055
    layer.add(
        Polyline(
            ((x + m, y + m), (x + s - m, y + m), (x + s - m, y + s - m), (x + m, y + s - m)),
            Style(stroke=suit.colour, width=max(0.25, s * 0.006)),
            closed=True,
        )
    )
    layer.extend(suit_symbol(suit.id, x + s * 0.19, y + s * 0.19, s * 0.17, suit.colour))
    cx, cy = x + s / 2, y + s / 2
    if rank.is_ace:
        layer.extend(suit_symbol(suit.id, cx, cy, s * 0.5, suit.colour))
    elif rank.numeral:
        layer.add(Text(rank.numeral, cx, cy, s * 0.56, "bold", suit.colour, anchor="middle", valign="middle"))


def back_squares(x: float, y: float, s: float) -> list[tuple[float, float, float, float]]:
    """The squares (MotoX spaces, 2 × 2) of a tile back as drawn: each quarter less its inset."""
    from .facts import spaces_per_edge

    n = spaces_per_edge()
    q = s / n
    i = s * INSET
    return [(x + c * q + i, y + r * q + i, q - 2 * i, q - 2 * i) for r in range(n) for c in range(n)]


def _square(box: tuple[float, float, float, float], colour: str) -> Polygon:
    x, y, w, h = box
    return Polygon(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), (), Style(stroke=None, fill=colour))


def ground_colour(look: str) -> str:
    """The colour under a tile back's squares (the MotoX ruts) or its whole ground (generic)."""
    return RUT if look == "motox" else PLAIN


def tile_back(layer: Layer, x: float, y: float, s: float, look: str = "generic", ground: bool = True) -> None:
    """The back of a tile, the same on every tile. ``ground`` draws the tile's ground (a sheet that prints several
    backs edge to edge draws one ground under them all instead, with a bleed)."""
    if look == "motox":
        _motox_back(layer, x, y, s, ground)
        return
    if ground:
        layer.add(Polygon(((x, y), (x + s, y), (x + s, y + s), (x, y + s)), (), Style(stroke=None, fill=PLAIN)))
    grid = Style(stroke=GRID, width=max(0.3, s * 0.008), cap="butt")
    m = s * 0.055  # a frame as the face's, inside the cut: a back shifted a little in printing keeps it whole
    frame = ((x + m, y + m), (x + s - m, y + m), (x + s - m, y + s - m), (x + m, y + s - m))
    layer.add(Polyline(frame, Style(stroke=GRID, width=max(0.25, s * 0.006)), closed=True))
    from .facts import spaces_per_edge

    n = spaces_per_edge()
    for k in range(1, n):
        t = s * k / n
        layer.add(Polyline(((x + t, y), (x + t, y + s)), grid))
        layer.add(Polyline(((x, y + t), (x + s, y + t)), grid))


def _motox_back(layer: Layer, x: float, y: float, s: float, ground: bool) -> None:
    """The MotoX track: dirt squares, ruts, a tread mark, pebbles and the quarters' crosses."""
    rng = random.Random(BACK_SEED)
    if ground:
        ring = ((x, y), (x + s, y), (x + s, y + s), (x, y + s))
        holes = tuple(((a, b), (a + w, b), (a + w, b + h), (a, b + h)) for a, b, w, h in back_squares(x, y, s))
        layer.add(Polygon(ring, holes, Style(stroke=None, fill=RUT)))
    squares = back_squares(x, y, s)
    for box in squares:
        layer.add(_square(box, DIRT))
    k = s / 50.8
    # Tread marks: one knobby tyre track wandering across the tile, along or across the race.
    along = rng.random() < 0.5
    base = s * rng.uniform(0.3, 0.7)
    amp, phase = s * rng.uniform(0.03, 0.08), rng.uniform(0, 6.28)
    pts = []
    for j in range(25):
        t = s * (0.06 + 0.88 * j / 24)
        off = base + amp * math.sin(phase + 5.0 * t / s)
        pts.append((x + t, y + off) if along else (x + off, y + t))
    layer.add(Polyline(tuple(pts), Style(stroke=TREAD, width=1.3 * k, dash=(0.7 * k, 0.55 * k))))
    # Pebbles, clear of the crosses.
    for bx, by, w, h in squares:
        for _ in range(5):
            px, py = bx + rng.uniform(0.15, 0.85) * w, by + rng.uniform(0.15, 0.85) * h
            layer.add(Circle((px, py), rng.uniform(0.2, 0.45) * k, Style(stroke=None, fill=PEBBLE)))
    # Small black crosses on the quarter lines: one at the centre, half a cross at each edge's middle.
    arm = s * 0.07
    cross = Style(stroke=CROSS, width=max(0.35, 0.5 * k), cap="butt")
    cx, cy = x + s / 2, y + s / 2
    layer.add(Polyline(((cx - arm, cy), (cx + arm, cy)), cross))
    layer.add(Polyline(((cx, cy - arm), (cx, cy + arm)), cross))
    tick = arm * 0.8
    for (ax, ay), (dx, dy) in (((cx, y), (0, 1)), ((cx, y + s), (0, -1)), ((x, cy), (1, 0)), ((x + s, cy), (-1, 0))):
        layer.add(Polyline(((ax, ay), (ax + dx * tick, ay + dy * tick)), cross))


def direction_mark(layer: Layer, cx: float, cy: float, r: float, colour: str = INK) -> None:
    """The coin's small direction mark: a short wedge just inside the rim, at the top."""
    w = r * 0.13
    top = cy - r + r * 0.07
    layer.add(Polygon(((cx - w, top), (cx + w, top), (cx, top + r * 0.2)), (), Style(stroke=None, fill=colour)))


def coin_ring(layer: Layer, cx: float, cy: float, r: float) -> None:
    layer.add(Circle((cx, cy), r * 0.86, Style(stroke=RING, width=0.2)))


def coin_value(layer: Layer, cx: float, cy: float, d: float, rank: Rank) -> None:
    """The value side of a coin centred on (cx, cy), ``d`` mm across: the value in black, an ace a spiral."""
    r = d / 2
    coin_ring(layer, cx, cy, r)
    direction_mark(layer, cx, cy, r)
    if rank.is_ace:
        layer.add(spiral(cx, cy + r * 0.05, r * 0.5, INK))
    elif rank.numeral:
        layer.add(Text(rank.numeral, cx, cy + r * 0.06, d * 0.5, "bold", INK, anchor="middle", valign="middle"))


def coin_suit(layer: Layer, cx: float, cy: float, d: float, suit: Suit, turned: bool = False) -> None:
    """The suit side of a coin: the suit symbol in its colour. ``turned``: drawn upside down (half a turn about its
    centre), for a back page whose sheet turns over its top and bottom edge: there the back's top lies behind the
    face's bottom, and only a turned back puts its direction mark behind the face's."""
    r = d / 2
    side = Layer("coin")
    coin_ring(side, cx, cy, r)
    direction_mark(side, cx, cy, r)
    side.extend(suit_symbol(suit.id, cx, cy + r * 0.06, d * 0.5, suit.colour))
    layer.extend([_half_turn(item, cx, cy) for item in side.items] if turned else side.items)


def _half_turn(item: Circle | Polygon, cx: float, cy: float) -> Circle | Polygon:
    """``item`` turned 180° about (cx, cy)."""

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return (round(2 * cx - p[0], 4), round(2 * cy - p[1], 4))

    if isinstance(item, Circle):
        return Circle(pt(item.center), item.r, item.style)
    return Polygon(tuple(pt(p) for p in item.exterior), tuple(tuple(pt(p) for p in h) for h in item.holes), item.style)


def die_face(layer: Layer, x: float, y: float, s: float, suit: Suit, rank: Rank) -> None:
    """One face of the die of ``suit``: null blank, ace the suit symbol, 2–5 numerals, in the suit's colour."""
    cx, cy = x + s / 2, y + s / 2
    if rank.is_ace:
        layer.extend(suit_symbol(suit.id, cx, cy, s * 0.62, suit.colour))
    elif rank.numeral:
        layer.add(Text(rank.numeral, cx, cy, s * 0.66, "bold", suit.colour, anchor="middle", valign="middle"))
