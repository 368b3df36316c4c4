"""How far a board's centre line is from the real circuit: the deviation reported as a circuit's *fidelity*.

Both lines are closed polylines in page millimetres (the real one already carried onto the page by the board's
own scale, rotation and shift, never re-fitted). They are sampled every ``step`` mm of arc length and each sample
is measured to the *other polyline's segments* (exact point-to-segment distance, through an STRtree), so

- ``max_mm`` is the symmetric Hausdorff distance between the two curves (to within ``step / 2``): no part of the
  board is further than this from the real line, and no part of the real line is further than this from the board;
- ``mean_mm`` is the mean of the two directed mean distances (board → real and real → board, each averaged
  uniformly along its arc length), so a corner cut off the board counts as much as a bulge added to it.

Percentages are of the diagonal of the board centre line's bounding box (the size of the drawing a player sees).
Anyone can measure the same thing independently, e.g. ``shapely.hausdorff_distance(a, b, densify=…)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely


@dataclass(frozen=True)
class Fidelity:
    max_mm: float  # symmetric Hausdorff distance, mm on paper
    mean_mm: float  # symmetric mean distance, mm on paper
    diagonal_mm: float  # diagonal of the board centre line's bounding box, mm

    @property
    def max_pct(self) -> float:
        return 100.0 * self.max_mm / self.diagonal_mm

    @property
    def mean_pct(self) -> float:
        return 100.0 * self.mean_mm / self.diagonal_mm

    def as_dict(self) -> dict:
        return {
            "max_mm": round(self.max_mm, 2),
            "mean_mm": round(self.mean_mm, 2),
            "max_pct": round(self.max_pct, 2),
            "mean_pct": round(self.mean_pct, 2),
            "diagonal_mm": round(self.diagonal_mm, 1),
        }


def closed(xy: np.ndarray) -> np.ndarray:
    """The polyline with its first point repeated at the end (unless it already is)."""
    xy = np.asarray(xy, dtype=float)
    if len(xy) and np.hypot(*(xy[-1] - xy[0])) > 1e-9:
        xy = np.vstack((xy, xy[:1]))
    return xy


def resample(xy: np.ndarray, step: float) -> np.ndarray:
    """Points at most ``step`` apart along the closed polyline ``xy`` (every vertex kept, none repeated)."""
    return _resample(xy, step)[0]


def _resample(xy: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`resample`, and where each vertex of ``xy`` is among the points."""
    Q = closed(xy)
    seg = np.diff(Q, axis=0)
    lens = np.hypot(seg[:, 0], seg[:, 1])
    n = np.maximum(1, np.ceil(lens / step).astype(int))
    idx = np.repeat(np.arange(len(seg)), n)
    first = np.concatenate(([0], np.cumsum(n)[:-1]))
    t = (np.arange(n.sum()) - np.repeat(first, n)) / np.repeat(n, n)
    return Q[idx] + seg[idx] * t[:, None], first


def distances_to(points: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Distance from every point of ``points`` to the closed polyline ``xy`` (exact, to its segments)."""
    Q = closed(xy)
    segs = shapely.linestrings(np.stack((Q[:-1], Q[1:]), axis=1))
    tree = shapely.STRtree(segs, node_capacity=4)  # short segments: small nodes halve the search (default 10)
    _, dist = tree.query_nearest(shapely.points(points), return_distance=True, all_matches=False)
    return np.asarray(dist, dtype=float)


def measure(board_xy: np.ndarray, real_xy: np.ndarray, step: float = 0.5) -> tuple[Fidelity, np.ndarray]:
    """The fidelity of ``board_xy`` to ``real_xy`` (both closed, page mm), and for every vertex of ``board_xy``
    how far the two lines are apart there: its own distance to the real line, or a real-line point's distance to
    the board where that point's nearest board vertex is this one (a stretch of the real line the board cuts
    off). The largest of these is the Hausdorff distance, so every part of it is located on the board."""
    board_xy = np.asarray(board_xy, dtype=float)
    a, vertex = _resample(board_xy, step)
    b = resample(real_xy, step)
    da = distances_to(a, real_xy)
    db = distances_to(b, board_xy)
    lo, hi = board_xy.min(axis=0), board_xy.max(axis=0)
    diag = float(math.hypot(*(hi - lo)))
    fid = Fidelity(float(max(da.max(), db.max())), float((da.mean() + db.mean()) / 2), max(diag, 1e-9))
    if len(vertex) < len(board_xy):  # given closed: its last vertex is its first
        vertex = np.append(vertex, 0)
    per_vertex = da[vertex]  # every vertex of the board is one of its samples
    far = db > 0.5
    if far.any():
        tree = shapely.STRtree(shapely.points(board_xy))
        idx = tree.query_nearest(shapely.points(b[far]), all_matches=False)[1]
        np.maximum.at(per_vertex, idx, db[far])
    return fid, per_vertex
