"""Team liveries drawn into a rectangle: the body of a car slip, a Formula D token, a card's colour band.

Everything here returns scene primitives in mm for a car seen from above with its nose at the bottom
(``nose="bottom"``) or at the right (``nose="right"``, for tokens lying along a track).
"""

from __future__ import annotations

from ..compose.colour import DARK
from ..scene import Polygon, Primitive, Style, rect
from .models import Team


def _box(x: float, y: float, w: float, h: float, colour: str) -> Polygon:
    return rect(x, y, w, h, Style(stroke=None, fill=colour))  # type: ignore[return-value]


def livery_items(team: Team, x: float, y: float, w: float, h: float, nose: str = "bottom") -> list[Primitive]:
    """The livery of ``team`` filling the rectangle ``(x, y, w, h)``; tyres and cockpit drawn on top."""
    if nose == "right":
        # Draw as if the nose were at the bottom of a (h × w) box, then turn it: swap the axes.
        items = livery_items(team, 0, 0, h, w, "bottom")
        return [_turn(item, x, y, h) for item in items]
    c = team.colours
    out: list[Primitive] = [_box(x, y, w, h, c.primary)]
    pattern = team.livery
    if pattern == "stripe":
        sw = w * 0.28
        out.append(_box(x + (w - sw) / 2, y, sw, h, c.second))
        if c.accent:
            out.append(_box(x + (w - sw) / 2 - w * 0.06, y, w * 0.06, h, c.accent))
            out.append(_box(x + (w + sw) / 2, y, w * 0.06, h, c.accent))
    elif pattern == "twin-stripe":
        sw = w * 0.14
        out.append(_box(x + w * 0.5 - sw * 1.5, y, sw, h, c.second))
        out.append(_box(x + w * 0.5 + sw * 0.5, y, sw, h, c.second))
    elif pattern == "two-tone":
        split = y + h * 0.52
        out.append(_box(x, split, w, y + h - split, c.second))
        if c.accent:
            out.append(_box(x, split - h * 0.03, w, h * 0.06, c.accent))
    elif pattern == "nose":
        out.append(_box(x, y + h * 0.68, w, h * 0.32, c.second))
    # Tyres at the four corners: the rear pair (top) a little wider than the front pair.
    tyre = DARK
    tw, th = w * 0.2, h * 0.17
    for tx in (x, x + w - tw):
        out.append(_box(tx, y + h * 0.05, tw, th, tyre))
        out.append(_box(tx + (0.02 * w if tx == x else -0.02 * w), y + h * 0.76, tw * 0.9, th * 0.9, tyre))
    return out


def _turn(item: Primitive, x: float, y: float, h_before: float) -> Primitive:
    """Rotate a primitive drawn nose-down in a box at (0, 0) so its nose points right, placed at (x, y)."""

    def pt(p):
        px, py = p
        return (x + py, y + (h_before - px))

    if isinstance(item, Polygon):
        return Polygon(
            tuple(pt(p) for p in item.exterior), tuple(tuple(pt(p) for p in r) for r in item.holes), item.style
        )
    raise TypeError(type(item).__name__)
