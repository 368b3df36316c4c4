"""The piecepack's suit symbols — sun, moon, crown, fleur-de-lis (Arms) — and the coins' ace spiral, drawn as
vector shapes (polygons), never font glyphs, so they print the same everywhere.

Each symbol is designed once in a unit box (centred on the origin, about 1 wide and 1 tall, y down) with
shapely, then scaled and placed: :func:`suit_symbol` returns :class:`~generator.scene.Polygon` primitives.
"""

from __future__ import annotations

import math
from functools import cache

from ...scene import Polygon, Polyline, Style

SEGMENTS = 24  # quarter-circle resolution of round parts


def _circle(cx: float, cy: float, r: float):
    from shapely.geometry import Point

    return Point(cx, cy).buffer(r, SEGMENTS)


def _bezier(p0, p1, p2, p3, n: int = 20) -> list[tuple[float, float]]:
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _sun():
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    parts = [_circle(0, 0, 0.27)]
    rays = 12
    for k in range(rays):
        a = 2 * math.pi * k / rays - math.pi / 2
        half = math.radians(10)
        r0, r1 = 0.33, 0.5
        parts.append(
            SPolygon(
                [
                    (r0 * math.cos(a - half), r0 * math.sin(a - half)),
                    (r1 * math.cos(a), r1 * math.sin(a)),
                    (r0 * math.cos(a + half), r0 * math.sin(a + half)),
                ]
            )
        )
    return unary_union(parts)


def _moon():
    # A crescent opening to the upper right.
    return _circle(0, 0, 0.46).difference(_circle(0.19, -0.1, 0.38))


def _crown():
    from shapely.geometry import Polygon as SPolygon
    from shapely.geometry import box
    from shapely.ops import unary_union

    body = SPolygon([(-0.4, 0.2), (-0.46, -0.22), (-0.2, 0.02), (0, -0.3), (0.2, 0.02), (0.46, -0.22), (0.4, 0.2)])
    band = box(-0.42, 0.24, 0.42, 0.36)
    balls = [_circle(-0.46, -0.27, 0.075), _circle(0, -0.37, 0.085), _circle(0.46, -0.27, 0.075)]
    return unary_union([body, band, *balls])


def _fleur():
    from shapely.affinity import scale
    from shapely.geometry import Polygon as SPolygon
    from shapely.geometry import box
    from shapely.ops import unary_union

    # Central petal: a pointed leaf from the tip down to the band.
    left = _bezier((0, -0.52), (-0.2, -0.32), (-0.16, -0.02), (-0.07, 0.08))
    right = [(-x, y) for x, y in reversed(left)]
    centre = SPolygon(left + right)
    # Side petal (right): up beside the centre petal from the band, over, and down to a point outside.
    outer = _bezier((0.09, 0.08), (0.02, -0.36), (0.58, -0.46), (0.48, -0.02))
    inner = _bezier((0.48, -0.02), (0.44, -0.26), (0.22, -0.27), (0.2, 0.08))
    side = SPolygon(outer + inner[1:]).buffer(0)
    sides = [side, scale(side, xfact=-1, origin=(0, 0))]
    band = box(-0.29, 0.07, 0.29, 0.17)
    # The foot under the band: a short point in the middle flanked by two flaring ends.
    foot = SPolygon(
        [(-0.13, 0.17), (0.13, 0.17), (0.09, 0.28), (0.3, 0.44), (0.1, 0.39), (0, 0.48), (-0.1, 0.39), (-0.3, 0.44),
         (-0.09, 0.28)]
    )  # fmt: skip
    return unary_union([centre, *sides, band, foot])


SHAPES = {"suns": _sun, "moons": _moon, "crowns": _crown, "arms": _fleur}


@cache
def unit_shape(suit_id: str):
    """The symbol of ``suit_id`` in its unit box, as a shapely (Multi)Polygon."""
    return SHAPES[suit_id]()


def suit_symbol(suit_id: str, cx: float, cy: float, size: float, colour: str) -> list[Polygon]:
    """The suit's symbol centred on (``cx``, ``cy``), ``size`` mm across, filled in ``colour``."""
    geom = unit_shape(suit_id)
    style = Style(stroke=None, fill=colour)
    out = []
    for part in getattr(geom, "geoms", [geom]):

        def place(ring):
            return tuple((round(cx + x * size, 4), round(cy + y * size, 4)) for x, y in ring.coords[:-1])

        out.append(Polygon(place(part.exterior), tuple(place(h) for h in part.interiors), style))
    return out


def spiral(cx: float, cy: float, radius: float, colour: str, turns: float = 2.6) -> Polyline:
    """The coins' ace: an Archimedean spiral out to ``radius`` mm, stroked."""
    n = int(turns * 48)
    r0 = radius * 0.08
    pts = []
    for i in range(n + 1):
        t = i / n
        a = 2 * math.pi * turns * t - math.pi / 2
        r = r0 + (radius - r0) * t
        pts.append((round(cx + r * math.cos(a), 4), round(cy + r * math.sin(a), 4)))
    return Polyline(tuple(pts), Style(stroke=colour, width=radius * 0.14, cap="round", join="round"))
