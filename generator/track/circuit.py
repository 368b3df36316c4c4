"""A built circuit: the placed centre line and what lies along it, and the geometry every consumer asks of it.

A :class:`Circuit` is what :func:`generator.track.build` returns and what the board (and any game overlay)
draws from; it is never rebuilt by its consumers. ``s`` is arc length (mm) along the centre line from the
start/finish line in the race direction (it wraps round the lap); distances ``d`` are measured to the LEFT of
the race direction (negative: right); all coordinates are page mm (y down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from shapely import Polygon as SPoly
from shapely import union_all

from ..paper import DEFAULT_EDGE, PageSpec, Paper
from ..problems import Problem
from .centerline import Line
from .model import CircuitSpec
from .spaces import LaneGraph

# Dimensions of what is drawn beside the track, mm on paper.
KERB_W = 3.0  # kerb band outside the track edge
KERB_BLOCK = 4.0  # target length of one red or white kerb block along the track edge
KERB_MIN_BLOCK = 2.0  # shortest block; a kerb is at least three blocks (red, white, red)
KERB_MIN = 3 * KERB_MIN_BLOCK  # along the track edge: a found (auto) kerb shorter than this is left out
PIT_GAP = 4.0  # between the track edge and the pit lane
GARAGE_D = 9.0  # depth of a garage box beside the pit lane
START_BAND = 2.5  # depth of each row of the chequered start line (one behind the line, one after it)


def lap_gap(a, b, lap: float):
    """Distance along a loop of length ``lap`` between arc lengths ``a`` and ``b`` (either way round; arrays)."""
    d = np.abs(a - b) % lap
    return np.minimum(d, lap - d)


@dataclass
class Corner:
    s_start: float
    s_end: float
    apex: float
    radius: float  # tightest centre-line radius, mm
    angle: float  # turning, degrees (positive)
    direction: Literal["left", "right"]
    stops: int | None = None  # Formula D: stops the spec gives (None: not given)
    name: str | None = None
    real_radius_m: float | None = None  # a real circuit's corner: its tightest radius on the real centre line


@dataclass
class Kerb:
    s0: float
    s1: float
    side: Literal["left", "right"]


@dataclass
class PitLane:
    side: str
    s0: float  # where the entry leaves the track edge (may exceed the lap length: wraps)
    s1: float  # where the exit rejoins
    taper: float
    width: float
    garages: int
    polygon: tuple  # outline of the pit lane surface, page mm
    garage_boxes: list  # [(polygon points, centre)]
    min_roll: int | None = None  # Formula D: minimum gear-die roll to enter the pit (spec 'pit.min_roll')
    # The pit lane as a lane of units: arc lengths (of the track's centre line) of its unit lines, from the entry
    # line (first) to the exit line (last), spaced one unit apart along the pit lane's own middle.
    unit_s: tuple[float, ...] = ()

    @property
    def units(self) -> int:
        return max(0, len(self.unit_s) - 1)

    def offsets(self, s: np.ndarray, half: float) -> tuple[np.ndarray, np.ndarray]:
        """Inner and outer edge distance from the centre line (positive) at arc lengths ``s`` (s0 … s1)."""
        a = np.clip((s - self.s0) / self.taper, 0, 1)
        b = np.clip((self.s1 - s) / self.taper, 0, 1)
        f = np.minimum(a, b)
        f = f * f * (3 - 2 * f)  # smoothstep
        inner = half + PIT_GAP * f
        outer = half + (PIT_GAP + self.width) * f
        return inner, outer


@dataclass
class CrossingInfo:
    kind: Literal["bridge", "tunnel"]
    s_upper: float  # where the upper pass crosses
    s_lower: float
    point: tuple[float, float]
    angle: float  # degrees between the passes
    reach: float  # mm along each pass either side of the crossing that the other pass covers


@dataclass(frozen=True)
class GridSlot:
    """One starting position behind the line: ``number`` 1 is pole, at the front; rows of ``lanes`` slots."""

    number: int
    row: int
    lane: int
    outline: tuple[tuple[float, float], ...]  # back-left, front-left, front-right, back-right (an open box)
    centre: tuple[float, float]


@dataclass
class Circuit:
    spec: CircuitSpec
    source: Path | None
    name: str
    lanes: int
    lane_width: float
    unit: float
    paper: Paper
    line: Line  # placed centre line, page mm, s from the start line in race direction
    scale: float  # paper mm per source unit (1 for segments)
    rotation: float  # degrees the source was turned on the page
    units_count: int
    corners: list[Corner]
    kerbs: list[Kerb]
    pit: PitLane | None
    crossings: list[CrossingInfo]
    graph: LaneGraph | None  # per-lane spaces (units: per-lane), else None
    problems: list[Problem]
    changes: list[str]
    lines: object = None  # spec LineMap
    edge: float = DEFAULT_EDGE  # the printer's unprintable edge the circuit was placed clear of
    grid: tuple[GridSlot, ...] = ()
    grid_units: tuple[int, ...] = ()  # units under the grid (no action square is marked there)
    danger_spaces: frozenset[int] = frozenset()  # per-lane: ids of the spaces marked as danger
    # a real centre line adapted keeping its shape (points/CSV at 'fit: page', no smoothing): how far the board's
    # centre line is from it (a generator.track.fidelity.Fidelity), and north on the page (a unit vector, y down)
    # when the source is a map (a CSV: x east, y north); None otherwise
    fidelity: object = None
    north: tuple[float, float] | None = None
    # how the source points (x right, y up) were carried onto the page: flip y, turn clockwise by rotation_deg,
    # scale (page mm per source unit), shift (page mm) — (scale, rotation_deg, (dx, dy)); None for segments
    source_to_page: tuple | None = None
    # a Formula D board of a real circuit whose longest straight was drawn this many times its real length, so
    # that it holds a 6th-gear move (generator/games/formula_d/real.py); 1.0: drawn as it is
    stretch: float = 1.0
    # lines a game adds to the board's legend: how this board differs from its source (e.g. a real circuit's start
    # line moved to put the grid on a straight)
    notes: tuple[str, ...] = ()
    # a real circuit whose start line was moved (for its grid): where its real start line lies on the board (arc
    # length, mm) and the legend's line saying why the race starts elsewhere
    real_start: tuple[float, str] | None = None

    @property
    def page(self) -> PageSpec:
        """The page the circuit was placed on: its paper and the unprintable edge."""
        return PageSpec(self.paper, self.edge)

    @property
    def buildable(self) -> bool:
        return not self.problems

    # --- sizes ---
    @property
    def lap_length(self) -> float:
        return self.line.length

    @property
    def half_width(self) -> float:
        return self.lanes * self.lane_width / 2

    @property
    def kerb_width(self) -> float:
        """Width of the kerb band outside the track edge, mm."""
        return KERB_W

    @property
    def unit_length(self) -> float:
        """The actual length of one unit along the centre line (lap / units)."""
        return self.lap_length / self.units_count

    @property
    def unit_mode(self) -> str:
        return self.spec.units

    # --- points and directions ---
    def point_at(self, s: float) -> tuple[float, float]:
        p = self.line.point(s)
        return (float(p[0]), float(p[1]))

    def tangent_at(self, s: float) -> tuple[float, float]:
        th = float(self.line.heading(s))
        return (math.cos(th), math.sin(th))

    def normal_at(self, s: float) -> tuple[float, float]:
        """Unit normal pointing to the LEFT of the race direction (page coordinates, y down)."""
        th = float(self.line.heading(s))
        return (math.sin(th), -math.cos(th))

    def offset_point(self, s: float, d: float) -> tuple[float, float]:
        """The point ``d`` mm left of the centre line at ``s`` (negative: right)."""
        x, y = self.point_at(s)
        nx, ny = self.normal_at(s)
        return (x + d * nx, y + d * ny)

    def offset_points(self, s, d) -> np.ndarray:
        """:meth:`offset_point` for arrays (``s`` and ``d`` broadcast together): an (n, 2) array, in one numpy pass
        — for drawing many unit lines or labels at once."""
        s, d = np.broadcast_arrays(np.asarray(s, dtype=float), np.asarray(d, dtype=float))
        s, d = s.ravel(), d.ravel()
        th = self.line.heading(s)
        return self.line.point(s) + d[:, None] * np.column_stack((np.sin(th), -np.cos(th)))

    def lane_offset(self, lane: int) -> float:
        """Distance (left positive) of lane ``lane``'s centre from the centre line; lane 0 is the left lane."""
        return self.half_width - (lane + 0.5) * self.lane_width

    def lap_distance(self, a, b):
        """Distance along the lap between arc lengths ``a`` and ``b``, either way round (arrays too)."""
        return lap_gap(a, b, self.lap_length)

    # --- units ---
    def unit_at(self, s: float) -> int:
        """1-based unit number containing arc length ``s``."""
        return int((s % self.lap_length) // self.unit_length) + 1

    def unit_bounds(self, unit: int) -> tuple[float, float]:
        u = self.unit_length
        return ((unit - 1) * u, unit * u)

    def hidden_units(self) -> list[int]:
        """Units across: the 1-based units covered by a tunnel's upper pass (they cannot be used)."""
        out = []
        for cr in self.crossings:
            if cr.kind != "tunnel":
                continue
            for u in range(1, self.units_count + 1):
                a, b = self.unit_bounds(u)
                mid = (a + b) / 2
                if self.lap_distance(np.array(mid), cr.s_lower) < self.half_width + self.unit_length / 2:
                    out.append(u)
        return sorted(set(out))

    # --- outlines (page mm, numpy arrays) ---
    def border(self, i: int) -> np.ndarray:
        """Lane border ``i`` (0 = left edge … lanes = right edge) as a closed polyline, page mm."""
        return self.line.offset(self.half_width - i * self.lane_width)

    def sample_s(self, s0: float, s1: float) -> np.ndarray:
        """s0, every centre-line sample strictly between, s1 (s may run past the lap length: it wraps)."""
        L = self.lap_length
        ss = self.line.s
        parts = [np.array([s0])]
        k0 = math.floor(s0 / L)
        for k in range(k0, math.floor(s1 / L) + 1):
            seg = ss[:-1] + k * L
            parts.append(seg[(seg > s0 + 1e-9) & (seg < s1 - 1e-9)])
        parts.append(np.array([s1]))
        return np.concatenate(parts)

    def offset_line(self, s0: float, s1: float, d: float) -> np.ndarray:
        """The line ``d`` mm left of the centre line (negative: right) from ``s0`` to ``s1``."""
        s = self.sample_s(s0, s1)
        p = self.line.point(s)
        th = self.line.heading(s)
        return p + np.column_stack((np.sin(th), -np.cos(th))) * d

    def offset_length(self, s0: float, s1: float, d: float) -> float:
        """Length of :meth:`offset_line` (the track edge is longer than the centre line outside a bend)."""
        return float(np.linalg.norm(np.diff(self.offset_line(s0, s1, d), axis=0), axis=1).sum())

    def strip(self, s0: float, s1: float, d_left: float, d_right: float) -> np.ndarray:
        """Outline of the band between offsets ``d_left`` and ``d_right`` (left positive) from s0 to s1."""
        s = self.sample_s(s0, s1)
        p = self.line.point(s)
        th = self.line.heading(s)
        nrm = np.column_stack((np.sin(th), -np.cos(th)))
        left = p + nrm * d_left
        right = p + nrm * d_right
        return np.vstack((left, right[::-1]))

    def surface(self, exclude: tuple[float, float] | None = None):
        """The track surface as one shapely geometry (optionally leaving out arc lengths ``exclude``)."""
        L = self.lap_length
        n = max(8, int(L / (self.unit * 2)))
        bounds = np.linspace(0, L, n + 1)
        polys = []
        for a, b in zip(bounds[:-1], bounds[1:], strict=True):
            if exclude is not None:
                e0, e1 = exclude
                mid = (a + b) / 2
                if any(e0 - self.unit <= mid + k * L <= e1 + self.unit for k in (-1, 0, 1)):
                    continue
            polys.append(SPoly(self.strip(a, b, self.half_width, -self.half_width)))
        return union_all(polys) if polys else None

    def kerb_blocks(self, s0: float, s1: float, side: str) -> list[tuple[float, float]]:
        """The red and white blocks of a kerb from ``s0`` to ``s1`` on ``side`` as arc-length ranges (red first
        and last, so an odd count >= 3).

        Blocks are of equal length measured along the track edge the kerb lies on (about KERB_BLOCK mm each), so
        they stay even through a clothoid where the edge's radius changes."""
        sign = 1.0 if side == "left" else -1.0
        s = self.sample_s(s0, s1)
        pts = self.offset_line(s0, s1, sign * self.half_width)
        sig = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))))
        length = float(sig[-1])
        n = max(3, round(length / KERB_BLOCK))
        if n % 2 == 0:
            n = n + 1 if length / (n + 1) >= KERB_MIN_BLOCK else n - 1
        n = max(3, n)
        bounds = np.interp(np.linspace(0.0, length, n + 1), sig, s)
        bounds[0], bounds[-1] = s0, s1
        return [(float(a), float(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
