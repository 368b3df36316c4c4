"""The straights of a real circuit, and how straight they stay on its board.

A *straight in the data* is a stretch of the real centre line, at least :data:`MIN_UNITS` units long at the board's
scale, along which the line's heading — measured over chords :data:`CHORD_UNITS` of a unit long, so a survey's
noise or a traced line's wobble does not count — stays within :data:`TOL_DEG`. The adaptation (:mod:`.fit`) keeps
such a stretch straight on the board; :func:`heading_range` measures what it became.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from .centerline import arc_lengths

#: A straight in the data: heading within this range (degrees) ...
TOL_DEG = 3.0
#: ... over at least this many units at the board's scale.
MIN_UNITS = 3.0
#: Headings are measured over chords this long (units): a traced line's wobble of a metre or two, or a survey's
#: noise, is then a fraction of a degree.
CHORD_UNITS = 0.75
#: Samples per unit along the line.
PER_UNIT = 8
#: A straight on the board may turn at most this much along its length (degrees) before it is said to be bent.
BOARD_TOL_DEG = 10.0


@dataclass(frozen=True)
class Straight:
    """A straight of the real line: from ``u0`` to ``u1`` (arc length along it, page mm; ``u1`` may pass the lap
    when it runs over the start line) and the range of its heading there (degrees)."""

    u0: float
    u1: float
    range_deg: float

    @property
    def length(self) -> float:
        return self.u1 - self.u0


def chord_headings(R: np.ndarray, step: float, chord: float) -> tuple[np.ndarray, np.ndarray]:
    """The closed line ``R`` sampled every ``step`` (arc lengths) and the heading (radians, unwrapped round the
    lap) of the chord centred on each sample."""
    u = arc_lengths(R)
    L = float(u[-1])
    n = max(8, int(L / step))
    s = np.arange(n) * L / n
    Q = np.vstack((R, R[:1]))

    def at(t):
        t = np.mod(t, L)
        return np.column_stack((np.interp(t, u, Q[:, 0]), np.interp(t, u, Q[:, 1])))

    d = at(s + chord / 2) - at(s - chord / 2)
    return s, np.unwrap(np.arctan2(d[:, 1], d[:, 0]))


def data_straights(real_xy: np.ndarray, unit_mm: float, tol_deg: float = TOL_DEG, min_units: float = MIN_UNITS):
    """The straights of the real line ``real_xy`` (a closed polyline on the page, mm), longest first, none
    overlapping: maximal stretches at least ``min_units`` units long whose chord headings stay within ``tol_deg``.
    """
    R = np.asarray(real_xy, dtype=float)
    step = unit_mm / PER_UNIT
    s, th = chord_headings(R, step, CHORD_UNITS * unit_mm)
    n = len(s)
    L = float(arc_lengths(R)[-1])
    turns = (th[-1] - th[0]) + (th[1] - th[0])  # the heading's gain once round the lap (2π·winding, near enough)
    gain = round(turns / (2 * math.pi)) * 2 * math.pi
    th2 = np.concatenate((th, th + gain))  # round the lap twice: a straight may run over the start line
    tol = math.radians(tol_deg)
    need = int(math.ceil(min_units * PER_UNIT))
    # the longest run from each sample with the heading's range within tol (two pointers, monotonic deques)
    ends = np.zeros(n, dtype=int)
    hi: deque = deque()
    lo: deque = deque()
    j = 0
    for i in range(n):
        j = max(j, i)
        while j < i + n and j < 2 * n:
            v = th2[j]
            mx = max(v, th2[hi[0]]) if hi else v
            mn = min(v, th2[lo[0]]) if lo else v
            if mx - mn > tol:
                break
            while hi and th2[hi[-1]] <= v:
                hi.pop()
            hi.append(j)
            while lo and th2[lo[-1]] >= v:
                lo.pop()
            lo.append(j)
            j += 1
        ends[i] = j  # samples i … j-1 lie within tol
        if hi and hi[0] == i:
            hi.popleft()
        if lo and lo[0] == i:
            lo.popleft()
    length = ends - np.arange(n)
    order = np.argsort(-length, kind="stable")
    taken = np.zeros(n, bool)
    out: list[Straight] = []
    for i in order:
        k = int(length[i])
        if k < need:
            break
        idx = np.arange(i, i + k) % n
        if taken[idx].any():
            # the longest part of it still free, if long enough
            free = ~taken[idx]
            best, run, start, best_start = 0, 0, 0, 0
            for q, f in enumerate(free):
                run = run + 1 if f else 0
                if run == 1:
                    start = q
                if run > best:
                    best, best_start = run, start
            if best < need:
                continue
            idx = idx[best_start : best_start + best]
            i, k = int(i + best_start), best
        taken[idx] = True
        seg = th2[i : i + k]
        u0 = float(s[i % n] if i < n else s[i - n] + L)
        out.append(Straight(u0, u0 + (k - 1) * L / n, math.degrees(float(np.ptp(seg)))))
    return out


def heading_range(line, s0: float, s1: float, trim: float = 0.0) -> float:
    """Degrees the heading of ``line`` (a :class:`~generator.track.centerline.Line`, closed) ranges over from arc
    length ``s0`` to ``s1`` (``s1 < s0``: over the start line), ``trim`` mm left off each end."""
    L = line.length
    if s1 < s0:
        s1 += L
    a, b = s0 + trim, s1 - trim
    if b <= a:
        return 0.0
    t = np.linspace(a, b, max(8, int((b - a) / 0.5)))
    th = np.unwrap(line.heading(np.mod(t, L)))
    return math.degrees(float(np.ptp(th)))


#: The most a straight's ends give to the corners either side of it, in least radii.
MAX_TRIM_RADII = 1.5


def _turn_after(s: np.ndarray, th: np.ndarray, at: float, reach: float, L: float, sign: int) -> float:
    """How far (radians) the chord heading turns from ``at`` over ``reach`` mm onwards (``sign`` +1) or back
    (−1): the most it strays from its heading at ``at``."""
    n = len(s)
    step = L / n
    k = max(1, int(reach / step))
    i = int(round(at / step))
    idx = (i + sign * np.arange(k + 1)) % n
    base = th[i % n]
    # th is unwrapped round one lap: steps across the seam are taken back by the lap's gain
    seg = np.unwrap(th[idx])
    return float(np.abs(seg - base).max()) if len(seg) else 0.0


def held_parts(real_xy: np.ndarray, straights, unit_mm: float, min_radius: float) -> list[tuple[float, float]]:
    """The part of each straight of the real line a board keeps straight: less, at each end, the room the bend
    there needs at the board's least radius — ``min_radius × tan(turn / 2)`` for a bend turning by ``turn`` within
    two least radii of the end (the tangent length of an arc of that radius), at most MAX_TRIM_RADII radii. Returns
    ``(u0, u1)`` along the real line; a straight with nothing left is left out."""
    R = np.asarray(real_xy, dtype=float)
    s, th = chord_headings(R, unit_mm / PER_UNIT, CHORD_UNITS * unit_mm)
    L = float(arc_lengths(R)[-1])
    out = []
    cap = math.atan(MAX_TRIM_RADII) * 2
    for st in straights:
        trims = []
        for at, sign in ((st.u0, -1), (st.u1, 1)):
            turn = min(_turn_after(s, th, at % L, 2 * min_radius, L, sign), cap)
            trims.append(max(min_radius * math.tan(turn / 2), unit_mm / 4))
        a, b = st.u0 + trims[0], st.u1 - trims[1]
        if b - a >= unit_mm / 2:
            out.append((a, b))
    return out
