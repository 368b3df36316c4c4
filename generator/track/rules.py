"""A board's geometry rules, each written once (mm on paper): what the checks of a built circuit (:mod:`.checks`)
hold it to, and what the adaptation of a real centre line (:mod:`.adapt`) fits to and then measures its line
against (:mod:`.adapt_checks`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from shapely import STRtree, points

from .centerline import Line
from .circuit import KERB_W, lap_gap

MIN_UNITS = 8  # a race needs a lap of at least this many units
GAP = 2.0  # mm of clear paper between two parts of the track (beyond their kerbs)
MIN_CROSSING_DEG = 30  # the two passes of a crossing meet at least this steeply, so both stay readable
MIN_INNER_RADIUS = 10.0  # mm: the adaptation's inner border of the tightest bend (room for a 20 mm car's half)
SAMPLE_MM = 2.0  # the clearance is measured between points of the centre line about this far apart


def clearance(track_width: float, kerb: float = KERB_W, gap: float = GAP) -> float:
    """Centre line to centre line, the least distance two parts of the track need: track, kerbs, a gap."""
    return track_width + 2 * kerb + gap


def margin(track_width: float, kerb: float = KERB_W) -> float:
    """Paper kept clear round the centre line on both sides: half the track, the kerbs, a hair."""
    return track_width / 2 + kerb + 1.0


def same_stretch(need: float) -> float:
    """Two points closer than this along the lap are one stretch of track, exempt from a clearance of ``need``."""
    return need * math.pi / 2


def crossing_reach(need: float, half_width: float, angle_deg: float, unit: float) -> float:
    """How far (mm, along each pass either side of a crossing at ``angle_deg``) the other pass covers the track,
    for a clearance of ``need`` between two parts of a track ``2 × half_width`` wide."""
    return (need / 2 + half_width) / max(math.sin(math.radians(max(angle_deg, 10))), 0.17) + unit


def close_pairs(line: Line, need: float, exempt=()):
    """Points of the closed ``line`` about :data:`SAMPLE_MM` apart and the pairs of them closer than ``need`` that
    are different parts of the track: further apart along the lap than :func:`same_stretch`, and not the two
    passes either side of a crossing (``exempt``: ``(s_p, s_q, reach)`` for each). Returns ``(xy, s, a, b, dist)``:
    the points, their arc lengths, the pairs' indices into them (``a < b``) and their distances."""
    L = line.length
    step = max(1, int(len(line.s) / max(L / SAMPLE_MM, 1)))
    idx = np.arange(0, len(line.s) - 1, step)
    xy, s = line.xy[idx], line.s[idx]
    tree = STRtree(points(xy))
    a, b = tree.query(points(xy), predicate="dwithin", distance=need - 1e-6)
    keep = a < b
    a, b = a[keep], b[keep]
    keep = lap_gap(s[a], s[b], L) > same_stretch(need)
    a, b = a[keep], b[keep]
    if len(a) and exempt:
        ok = np.zeros(len(a), bool)
        for p, q, reach in exempt:
            for u, v in ((p, q), (q, p)):
                ok |= (lap_gap(s[a], u, L) < reach) & (lap_gap(s[b], v, L) < reach)
        a, b = a[~ok], b[~ok]
    return xy, s, a, b, np.hypot(*(xy[a] - xy[b]).T)


@dataclass(frozen=True)
class Rules:
    """A board's geometry rules, in mm on paper, as the adaptation fits to them (the engine's: a kerb each side, a
    gap between two tracks)."""

    track_width: float
    min_inner_radius: float = MIN_INNER_RADIUS  # radius of the inner border of the tightest bend
    kerb: float = KERB_W
    gap: float = GAP
    clearance_mm: float | None = None  # overrides clearance(track_width, kerb, gap)
    margin_mm: float | None = None  # overrides margin(track_width, kerb)

    @property
    def min_radius(self) -> float:
        """Smallest centre-line radius."""
        return self.track_width / 2 + self.min_inner_radius

    @property
    def clearance(self) -> float:
        """Least distance between the centre lines of two parts of the track."""
        if self.clearance_mm is not None:
            return self.clearance_mm
        return clearance(self.track_width, self.kerb, self.gap)

    @property
    def margin(self) -> float:
        """Paper kept clear round the centre line: half the track, the kerb, a hair."""
        if self.margin_mm is not None:
            return self.margin_mm
        return margin(self.track_width, self.kerb)

    @property
    def chord_bound(self) -> float:
        """Arc length over which a bend of the minimum radius has a chord equal to the clearance (πR if none)."""
        R, C = self.min_radius, self.clearance
        return 2 * R * math.asin(C / (2 * R)) if C < 2 * R else math.pi * R

    @property
    def same_part(self) -> float:
        """Two points closer than this along the lap are one stretch of track (exempt from the clearance)."""
        return same_stretch(self.clearance)

    def crossing_reach(self, angle_deg: float, unit: float) -> float:
        """:func:`crossing_reach` for these rules."""
        return crossing_reach(self.clearance, self.track_width / 2, angle_deg, unit)
