"""The shape of a circuit before it is placed: the closed centre line in the spec's own coordinates.

- ``segments``: straights, arcs and clothoids laid end to end; a loop must turn ±360° (0° for a figure-eight)
  and close — within :data:`CLOSE_TOL` silently, else by lengthening straights with ``close: auto`` (reported
  as changes) or as a problem.
- ``points``/``csv``: smoothed (a Gaussian on the heading, ``smoothing`` mm on paper), resampled and splined.
"""

from __future__ import annotations

import math

import numpy as np

from .centerline import (
    Line,
    line_from_pieces,
    periodic_spline,
    piece_starts,
    pieces_from_segments,
    resample_closed,
    smooth_closed,
)
from .changed import SegmentLengthened
from .model import CircuitSpec
from .problems import Report

CLOSE_TOL = 0.5  # mm: a loop closer than this is closed silently (spread over the straights)
TURN_TOL = math.radians(0.1)


def _mm(v: float) -> str:
    """A signed length to one decimal, never "-0.0"."""
    v = round(float(v), 1)
    return f"{v + 0.0:+.1f}" if v else "0.0"


def segments_line(spec: CircuitSpec, report: Report) -> Line | None:
    """The centre line of a spec given as segments, closed; None (and a problem) if it cannot be."""
    pieces = pieces_from_segments(spec.segments)
    line, end, end_th = line_from_pieces(pieces)
    turn = -end_th
    full = round(turn / (2 * math.pi))
    allowed = (-1, 0, 1) if spec.crossings else (-1, 1)  # a figure-eight turns 0°
    if full not in allowed or abs(turn - full * 2 * math.pi) > TURN_TOL:
        target = 360.0 if turn >= 0 else -360.0
        report.problem(
            "turning",
            f"the segments turn {math.degrees(turn):+.1f}° in all (left positive); a loop turns +360° or -360°"
            + (" (0° for a figure-eight)" if spec.crossings else ""),
            f"change the arc angles by {target - math.degrees(turn):+.1f}° in total",
            ("segments",),
            where="segments",
            numbers={"turning_deg": math.degrees(turn)},
        )
        return None
    gap = np.asarray(end) - line.xy[0]
    dist = float(np.hypot(*gap))
    if dist > 1e-6:
        if dist > CLOSE_TOL and spec.close == "strict":
            last = len(spec.segments) - 1
            report.problem(
                "closure",
                f"the loop does not close: segment {last + 1} (the last) ends {dist:.1f} mm from the start "
                f"({_mm(gap[0])} mm across, {_mm(gap[1])} mm down the page with segment 1 heading right)",
                "lengthen or shorten straights to close it, or set 'close: auto' to spread the correction",
                ("segments", last),
                where=f"segment {last + 1}",
                numbers={"gap_mm": dist, "dx_mm": float(gap[0]), "dy_mm": float(gap[1])},
            )
            return None
        starts = piece_starts(pieces)
        idx = [i for i, p in enumerate(pieces) if p.straight]
        U = np.array([[math.cos(line.heading(starts[i])), math.sin(line.heading(starts[i]))] for i in idx]).T
        U = U.reshape(2, len(idx))
        delta = np.zeros(len(idx))
        if idx:
            delta = np.linalg.lstsq(U, -gap, rcond=None)[0]  # the least change that closes the loop
        if not idx or np.hypot(*(U @ delta + gap)) > 0.05:
            report.problem(
                "closure",
                f"the loop misses its start by {dist:.1f} mm ({_mm(gap[0])} across, {_mm(gap[1])} down) and "
                "its straights cannot close it",
                "add or lengthen straights that run in the direction of the gap, or fix the lengths by hand",
                ("segments",),
                where="segments",
                numbers={"gap_mm": dist},
            )
            return None
        for j, i in enumerate(idx):
            p = pieces[i]
            new = p.length + float(delta[j])
            if new < 1.0:
                report.problem(
                    "closure",
                    f"closing the loop would shorten the straight of segment {p.index + 1} to {new:.1f} mm",
                    "the segments are too far from a loop for 'close: auto'; fix the lengths by hand",
                    ("segments", p.index),
                    where=f"segment {p.index + 1}",
                    numbers={"gap_mm": dist},
                )
                return None
            if dist > CLOSE_TOL and abs(delta[j]) >= 0.05:
                report.changes.append(SegmentLengthened(p.index, p.length, new))
            p.length = new
        line, end, _ = line_from_pieces(pieces)
    return line


def points_line(spec: CircuitSpec, P: np.ndarray, est: float) -> Line:
    """The centre line through the points ``P`` (source units, y down), smoothed by ``spec.smoothing`` mm on a
    paper where one source unit is about ``est`` mm."""
    poly = np.vstack((P, P[:1]))
    L_raw = float(np.linalg.norm(np.diff(poly, axis=0), axis=1).sum())
    src = P
    if spec.smoothing:
        # a Gaussian of 'smoothing' mm on paper; beyond half the lap the loop is a circle already
        src = smooth_closed(P, min(spec.smoothing / est, L_raw / 2))
    spacing = max(spec.unit / 2, L_raw * est / 400) / est
    ctrl = resample_closed(src, spacing) if (spec.smoothing or len(P) > 400) else P
    if len(ctrl) < 4:
        ctrl = resample_closed(P, L_raw / 8)
    return periodic_spline(ctrl, step=L_raw / max(400, L_raw * est / 1.0))


def polyline_length(P: np.ndarray) -> float:
    """Length of the closed polyline through ``P``."""
    poly = np.vstack((P, P[:1]))
    return float(np.linalg.norm(np.diff(poly, axis=0), axis=1).sum())
