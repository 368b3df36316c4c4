"""Road pieces: a piece and its placement on a sheet, the angles at which a shape fits the paper, and cutting an
open band (a modular piece too large for the paper) into even parts.

A *band* is anything with ``outline(s0, s1)`` (the ring of the road between two positions along it, left edge
forward then right edge back) and ``cut(s)`` (the straight cut across the road at ``s``): the circuit's road
(:class:`~generator.games.monaco.road.Road`) and the modular set's straights and curves. Both pieces either side of
a cut take its two end points from ``cut(s)``, so neighbours share their cut line exactly.

Cutting an open band walks along it and makes every part as long as fits inside the paper's printable box at some
angle (the parts are turned freely), then evens the lengths out so no part is a sliver. A circuit's road is cut
while it is packed (:mod:`.packing`). Geometry only (mm); drawing the pieces is :mod:`.road_sheets`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...errors import GeometryError
from ...units import MM_PER_INCH

ANGLE_STEP = 2.0  # degrees: orientations tried when fitting a piece to the paper (and every hull edge square)
FIT_MARGIN = 1.0  # mm kept inside the printable box (half the widest line drawn on a piece, and a hair)


@dataclass
class Piece:
    """One numbered piece: from ``s0`` to ``s1`` along its band; ``ring`` in the band's coordinates. Placed on
    ``sheet`` by ``sheet point = R(angle) · band point + shift`` (angle in degrees, clockwise on the page)."""

    number: int
    s0: float
    s1: float
    ring: np.ndarray
    band: object = None
    label: str = ""
    sheet: int = -1
    angle: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)
    fit: list[float] = field(default_factory=list)  # angles at which it fits an empty sheet
    kind: str = ""  # pieces of one kind have the same shape (the modular set)

    def to_sheet(self, pts) -> np.ndarray:
        return rotate(np.asarray(pts, dtype=float), self.angle) + np.asarray(self.shift)

    def heading(self, th: float) -> float:
        """A direction on the band (radians) as it lies on the sheet."""
        return th + math.radians(self.angle)

    @property
    def area(self) -> float:
        x, y = self.ring[:, 0], self.ring[:, 1]
        return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def rotate(pts: np.ndarray, deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return pts @ np.array([[c, s], [-s, c]])


def hull(ring: np.ndarray) -> np.ndarray:
    from shapely import MultiPoint

    shape = MultiPoint(ring).convex_hull
    return np.asarray(shape.exterior.coords) if shape.geom_type == "Polygon" else ring


def fit_angles(ring: np.ndarray, W: float, H: float) -> list[float]:
    """Angles (degrees) at which ``ring`` turned fits a W × H box, the roomiest first (empty: none)."""
    h = hull(ring)
    edges = np.diff(h, axis=0)
    extra = np.degrees(np.arctan2(edges[:, 1], edges[:, 0]))
    angles = np.concatenate((np.arange(0, 180, ANGLE_STEP), np.mod(-extra, 180.0), np.mod(90 - extra, 180.0)))
    a = np.radians(angles)
    c, s = np.cos(a), np.sin(a)
    x = np.outer(c, h[:, 0]) - np.outer(s, h[:, 1])
    y = np.outer(s, h[:, 0]) + np.outer(c, h[:, 1])
    w = x.max(axis=1) - x.min(axis=1)
    h = y.max(axis=1) - y.min(axis=1)
    slack = np.minimum(W - w, H - h)
    ok = slack >= 0
    order = np.lexsort((angles, -slack))
    return [float(angles[i]) for i in order if ok[i]]


def fits(band, s0: float, s1: float, W: float, H: float) -> bool:
    return bool(fit_angles(band.outline(s0, s1), W, H))


# ------------------------------------------------------------------------------------------------- cutting


def _longest(band, s0: float, limit: float, W: float, H: float, cap: float | None = None) -> float:
    """The furthest ``s1`` (≤ ``limit``, ≤ ``s0 + cap``) such that the piece ``s0 … s1`` fits."""
    top = min(limit, s0 + cap) if cap else limit
    step = 25.0
    lo = s0
    hi = None
    s = s0
    while s < top:
        s = min(top, s + step)
        if fits(band, s0, s, W, H):
            lo = s
        else:
            hi = s
            break
    if hi is None:
        return lo
    while hi - lo > 1.0:
        mid = (lo + hi) / 2
        if fits(band, s0, mid, W, H):
            lo = mid
        else:
            hi = mid
    return lo


def _greedy(band, start: float, end: float, W, H, keepout, cap=None) -> list[float] | None:
    """Cut positions from ``start`` to ``end``: every piece as long as fits (and ``cap``), no cut in ``keepout``."""
    cuts = [start]
    while cuts[-1] < end - 1e-6:
        s1 = _longest(band, cuts[-1], end, W, H, cap)
        if s1 < end - 1e-6:
            for a, b in keepout:
                for k in (-1, 0, 1):
                    lo, hi = a + k * band.lap, b + k * band.lap
                    if lo < s1 < hi:
                        s1 = lo
        if s1 - cuts[-1] < 5.0:
            return None
        cuts.append(s1 if end - s1 > 1e-6 else end)
        if len(cuts) > 400:
            return None
    return cuts


def too_wide(band, s: float, paper_label: str, W: float, H: float) -> GeometryError:
    a, b = band.cut(s)
    w = float(np.hypot(*(b - a)))
    return GeometryError(
        f"the road is {w / MM_PER_INCH:.1f} in wide at {band.where(s)}: no piece fits the {W:.0f} × {H:.0f} mm "
        f"printable area of {paper_label}",
        file=getattr(band, "source", None),
        hint="print on larger paper (--paper a3) or narrow the road (--lane-width, --width double)",
    )


def cut_open(band, W: float, H: float, paper_label: str = "the paper") -> list[Piece]:
    """Parts of an open band (a modular piece) from 0 to its length, as even as fits."""
    cuts = _greedy(band, 0.0, band.lap, W, H, ())
    if cuts is None:
        raise too_wide(band, 0.0, paper_label, W, H)
    cuts = _even(band, 0.0, band.lap, W, H, (), len(cuts) - 1) or cuts
    return [
        Piece(i + 1, a, b, band.outline(a, b), band) for i, (a, b) in enumerate(zip(cuts[:-1], cuts[1:], strict=True))
    ]


def _even(band, start, end, W, H, keepout, n) -> list[float] | None:
    """The same number of pieces with the longest as short as possible (a cap on length, found by bisection)."""
    lo, hi = (end - start) / n, end - start
    found = None
    for _ in range(10):
        cap = (lo + hi) / 2
        cuts = _greedy(band, start, end, W, H, keepout, cap)
        if cuts is not None and len(cuts) - 1 <= n:
            found, hi = cuts, cap
        else:
            lo = cap
        if hi - lo < 4.0:
            break
    return found
