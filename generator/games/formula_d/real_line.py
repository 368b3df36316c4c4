"""The real centre line of a circuit (a racetrack-database CSV: metres, x east, y north) as Formula D reads it:
where its corners are and how slow (the tightest radius over three points ``radius_step_m`` apart, the stops that
radius asks), its longest straight, and that straight drawn longer for a 6th-gear move (:func:`stretched`,
:func:`plan_stretch`). The numbers and their reasons: ``templates/formula-d/real-circuits.yaml``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...track.centerline import arc_lengths, circumradius, cyclic_runs, resample_loop, rotation
from ...track.load import csv_path, read_points
from ...track.place import content, margin, papers
from . import facts


def settings():
    """How a real circuit becomes a board (``real-circuits.yaml``, typed: :class:`.models.RealCircuits`)."""
    return facts.real()


@dataclass(frozen=True)
class Shape:
    """The points a real circuit's board is built from (``source``, x east, y north) and the real centre line
    they stand for (``real``, metres): the same points, or, where the board lengthens the real circuit's longest
    straight for 6th gear, the same number of points with that straight ``stretch`` times its real length (point
    ``i`` of one is point ``i`` of the other)."""

    source: np.ndarray
    real: np.ndarray
    stretch: float = 1.0
    orientation: str | None = None  # the paper's orientation the (perhaps turned) source was fitted to

    @staticmethod
    def of_points(points: np.ndarray) -> Shape:
        """The real circuit as the engine read its points (page orientation, y down): x east, y north again."""
        P = points * np.array([1.0, -1.0])
        return Shape(P, P)

    @staticmethod
    def of(spec, source) -> Shape:
        P = read_points(csv_path(spec, source)) if spec.csv is not None else np.asarray(spec.points, dtype=float)
        return Shape(P, P)


def resampled(P: np.ndarray, step: float) -> np.ndarray:
    """The closed line ``P`` as points ``step`` apart (about) along it, the first point kept."""
    return resample_loop(P, max(8, int(round(float(arc_lengths(P)[-1]) / step))))


@dataclass(frozen=True)
class LineCorner:
    """A corner of the real circuit: a bend of its real line (radius under ``bend_radius_m``) not taken flat out."""

    run: np.ndarray  # indices of the evenly spaced real line's points in it, in order (wrapping past the last)
    apex: int  # index of its tightest point
    radius_m: float  # its tightest radius
    turn_deg: float  # how far it turns in all (the net turn: a chicane's halves cancel)
    stops: int  # what that radius asks (stops_by_real_radius)


def line_corners(Q: np.ndarray) -> list[LineCorner]:
    """The corners of the evenly spaced real line ``Q`` (metres), in order from its first point: the corners of
    Paddock's radius table (``stops_by_real_radius``), each with the stops its tightest radius asks."""
    cfg = settings()
    h = float(np.hypot(*(Q[1] - Q[0])))
    k = max(1, int(round(cfg.radius_step_m / h)))
    r = circumradius(np.roll(Q, k, 0), Q, np.roll(Q, -k, 0))
    d = np.roll(Q, -1, 0) - Q
    th = np.arctan2(d[:, 1], d[:, 0])
    dth = (np.roll(th, -1) - th + math.pi) % (2 * math.pi) - math.pi
    out = []
    for run in index_runs(r < cfg.bend_radius_m):
        turn = abs(math.degrees(float(dth[run].sum())))
        apex = int(run[int(np.argmin(r[run]))])
        stops = stops_for(float(r[apex]), turn)
        if stops is not None:
            out.append(LineCorner(run, apex, float(r[apex]), turn, stops))
    return out


def corner_mask(Q: np.ndarray) -> np.ndarray:
    """Which points of the evenly spaced real line ``Q`` (metres) lie in a corner of the real circuit
    (:func:`line_corners`)."""
    corner = np.zeros(len(Q), bool)
    for c in line_corners(Q):
        corner[c.run] = True
    return corner


def index_runs(mask: np.ndarray) -> list[np.ndarray]:
    """The runs of True in the closed ``mask`` (a run over the end joined to the one at the start), as indices."""
    return [np.arange(a, b) % len(mask) for a, b in cyclic_runs(mask)]


def longest_real_straight(Q: np.ndarray) -> np.ndarray:
    """Indices of the longest run of the evenly spaced real line ``Q`` between two real corners (flat-out kinks
    included): the straight a real car takes in top gear."""
    runs = index_runs(~corner_mask(Q))
    return max(runs, key=len) if runs else np.arange(0)


def stretched(Q: np.ndarray, run: np.ndarray, k: float) -> np.ndarray | None:
    """The evenly spaced real line ``Q`` with the straight ``run`` ``k`` times as long, every heading kept.

    The loop is closed again by lengthening or shortening the rest a little, point by point: the least change
    (least squares) that closes it, ten times stiffer in the real corners than on the other straights, so the
    corners keep their shape and the other straights (those parallel to the stretched one above all) take up the
    difference. None if that would shorten some stretch below ``min_weight`` of its length."""
    cfg = settings().sixth_gear_stretch
    n = len(Q)
    d = np.roll(Q, -1, 0) - Q
    step = np.hypot(d[:, 0], d[:, 1])
    e = d / step[:, None]
    w = np.ones(n)
    S = np.zeros(n, bool)
    S[run] = True
    w[S] = k
    free = ~S
    stiff = np.where(corner_mask(Q), cfg.corner_stiffness, 1.0)
    for _ in range(n):
        base = np.where(free, 1.0, w)
        M = (e[free] * (step[free] / stiff[free])[:, None]).T @ e[free]
        a = np.linalg.solve(M, -((base * step) @ e))
        w[free] = 1 + (e[free] @ a) / stiff[free]
        low = free & (w < cfg.min_weight)
        if not low.any():
            break
        w[low] = cfg.min_weight
        free &= ~low
        if free.sum() < 2:
            return None
    if not np.all(np.isfinite(w)) or w.min() < cfg.min_weight - 1e-9:
        return None
    steps = (w * step)[:, None] * e
    return np.vstack((Q[:1], Q[0] + np.cumsum(steps, axis=0)[:-1]))


def stops_for(radius_m: float, angle_deg: float = 180.0) -> int | None:
    """Stops for a corner of tightest real radius ``radius_m`` turning ``angle_deg`` (None: taken flat out, no
    corner)."""
    cfg = settings()
    if angle_deg < cfg.kink_deg and radius_m > cfg.kink_flat_out_m:
        return None
    for row in cfg.stops_by_real_radius:
        if row.max_radius_m is None or radius_m <= row.max_radius_m:
            return row.stops
    return 1


def stretched_shape(Q: np.ndarray, run: np.ndarray, k: float, deg: float, orientation: str):
    """The real line ``Q`` with its straight ``run`` ``k`` times as long, turned ``deg`` anticlockwise."""
    P = Q if k == 1.0 else stretched(Q, run, k)
    c = P.mean(axis=0)
    return Shape((P - c) @ rotation(deg).T + c, Q, k, orientation)


def plan_stretch(Q: np.ndarray, run: np.ndarray, spec, paper, edge: float, need_mm: float):
    """The least stretch of the straight ``run`` of the real line ``Q`` (and the least turn of the board with it)
    at which that straight, fitted as large as the paper allows, is at least ``need_mm`` long on the page:
    ``(stretch, turn degrees anticlockwise, orientation)``, or None if no stretch up to ``max_stretch`` does.

    A prediction from the points alone (the adaptation moves them a little); the board built from it is counted
    again. North stays up where that reaches ``need_mm``; else the board turns, the least that does (a straight
    laid across the sheet is longer than one along its side)."""
    how = settings().sixth_gear_stretch
    m = margin(spec)
    boxes = [(pap.orientation, content(pap, edge)) for pap in papers(spec, paper)]
    turns = np.radians(np.arange(-90, 90, how.turn_step_deg))
    turns = turns[np.argsort(np.abs(turns), kind="stable")]  # least turn first
    L = len(run) * float(np.hypot(*(Q[1] - Q[0])))
    k = 1.0
    while k <= how.max_stretch + 1e-9:
        P = Q if k == 1.0 else stretched(Q, run, k)
        if P is not None:
            P = P - P.mean(axis=0)
            x = np.outer(P[:, 0], np.cos(turns)) - np.outer(P[:, 1], np.sin(turns))
            y = np.outer(P[:, 0], np.sin(turns)) + np.outer(P[:, 1], np.cos(turns))
            w, h = np.ptp(x, axis=0), np.ptp(y, axis=0)
            for orient, box in boxes:
                scale = np.minimum((box[2] - 2 * m) / w, (box[3] - 2 * m) / h)
                ok = np.flatnonzero(k * L * scale >= need_mm)
                if len(ok):
                    return k, float(np.degrees(turns[ok[0]])), orient
        k = round(k + how.stretch_step, 6)
    return None
