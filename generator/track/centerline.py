"""Centre lines: a closed curve sampled densely, with exact heading and curvature at every sample.

Page coordinates (mm, y down). ``th`` is the heading (angle from +x towards +y, unwrapped); ``k`` the curvature
to the LEFT of the race direction (positive on a left turn). The left normal is ``(sin th, -cos th)``, so a
border at distance ``d`` to the left is exactly ``xy + d * normal`` — for arcs that is a concentric arc, for a
spline the true offset curve at every sample (no shapely offset_curve on the closed loop).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely

from ..errors import InputError
from ..inputs import read_text
from ..specs import quote

STEP = 1.0  # mm, largest distance between samples
TAU = 2 * math.pi


@dataclass
class Line:
    s: np.ndarray  # (n+1,) arc length, 0 … L; the last sample repeats the first point
    xy: np.ndarray  # (n+1, 2)
    th: np.ndarray  # (n+1,) heading, radians, unwrapped
    k: np.ndarray  # (n+1,) left curvature, 1/mm

    @property
    def length(self) -> float:
        return float(self.s[-1])

    @property
    def normal(self) -> np.ndarray:
        return np.column_stack((np.sin(self.th), -np.cos(self.th)))

    def offset(self, d: float | np.ndarray) -> np.ndarray:
        d = np.asarray(d, dtype=float)
        if d.ndim:
            d = d[:, None]
        return self.xy + d * self.normal

    @property
    def turning(self) -> float:
        """Total turning to the left, radians (+2π for an anticlockwise-on-paper loop)."""
        return float(-(self.th[-1] - self.th[0]))

    # --- evaluation at arbitrary arc length (wrapping round the loop) ---
    def _locate(self, s):
        if isinstance(s, (float, int)):  # one arc length (a Python or numpy float): the same numbers, the same
            # operations, on numpy's scalars (~a quarter of the time of 0-d arrays; boards ask thousands of times)
            s = np.float64(s) % self.s[-1]
            i = min(max(int(self.s.searchsorted(s, side="right")) - 1, 0), len(self.s) - 2)
            s0, s1 = self.s[i], self.s[i + 1]
            return i, (s - s0) / max(s1 - s0, 1e-12)
        s = np.mod(np.asarray(s, dtype=float), self.length)
        i = np.clip(np.searchsorted(self.s, s, side="right") - 1, 0, len(self.s) - 2)
        t = (s - self.s[i]) / np.maximum(self.s[i + 1] - self.s[i], 1e-12)
        return i, t

    def point(self, s):
        i, t = self._locate(s)
        if isinstance(i, int):  # one point: as below, on numpy's scalars
            th0 = self.th[i]
            half = (self.th[i + 1] - th0) * t / 2
            chord = (self.s[i + 1] - self.s[i]) * t * np.sinc(half / math.pi)
            thm = th0 + half
            return self.xy[i] + np.array((np.cos(thm) * chord, np.sin(thm) * chord))
        # Follow the circular arc through the two samples (exact on arcs, not just on the chord).
        th0, th1 = self.th[i], self.th[i + 1]
        ds = (self.s[i + 1] - self.s[i]) * t
        half = (th1 - th0) * t / 2
        chord = ds * np.sinc(half / math.pi)
        thm = th0 + half
        return self.xy[i] + np.stack((np.cos(thm) * chord, np.sin(thm) * chord), axis=-1)

    def heading(self, s):
        i, t = self._locate(s)
        return self.th[i] + (self.th[i + 1] - self.th[i]) * t

    def curvature(self, s):
        i, t = self._locate(s)
        return self.k[i] + (self.k[i + 1] - self.k[i]) * t

    def rolled(self, start: float, reverse: bool) -> Line:
        """The same loop measured from arc length ``start`` (of this line), optionally in the other direction."""
        L = self.length
        base = self
        if reverse:
            base = Line(
                L - self.s[::-1],
                self.xy[::-1].copy(),
                self.th[::-1] + math.pi,
                -self.k[::-1],
            )
            start = (L - start) % L
        start = start % L
        if start < 1e-9 or L - start < 1e-9:
            return base
        s = base.s
        j = int(np.searchsorted(s, start, side="right"))
        ps = base.point(start)
        ths = float(base.heading(start))
        ks = float(base.curvature(start))
        turn = base.th[-1] - base.th[0]
        s_new = np.concatenate(([0.0], s[j:] - start, s[1:j] + (L - start), [L]))
        xy_new = np.vstack((ps[None], base.xy[j:], base.xy[1:j], ps[None]))
        th_new = np.concatenate(([ths], base.th[j:], base.th[1:j] + turn, [ths + turn]))
        k_new = np.concatenate(([ks], base.k[j:], base.k[1:j], [ks]))
        keep = np.concatenate(([True], np.diff(s_new) > 1e-9))
        return Line(s_new[keep], xy_new[keep], th_new[keep], k_new[keep])

    def transformed(self, angle: float, scale: float = 1.0, shift=(0.0, 0.0)) -> Line:
        """Rotated by ``angle`` (radians, clockwise on the page), scaled, then shifted."""
        c, sn = math.cos(angle), math.sin(angle)
        rot = np.array([[c, -sn], [sn, c]])
        xy = (self.xy @ rot.T) * scale + np.asarray(shift)
        return Line(self.s * scale, xy, self.th + angle, self.k / scale)


# --------------------------------------------------------------------------------------------------- segments


@dataclass
class Piece:
    """One segment as laid out: length and curvature at its start and end (linear between: a clothoid)."""

    index: int  # segment index in the spec
    length: float
    k0: float
    k1: float
    straight: bool


def pieces_from_segments(segments) -> list[Piece]:
    out: list[Piece] = []
    for i, seg in enumerate(segments):
        if seg.straight is not None:
            out.append(Piece(i, float(seg.straight), 0.0, 0.0, True))
            continue
        a = seg.arc
        k = (1.0 if a.turn == "left" else -1.0) / a.radius
        ang = math.radians(a.angle)
        T = min(a.transition, a.radius * ang * 0.999)
        if T > 0:
            out.append(Piece(i, T, 0.0, k, False))
            out.append(Piece(i, a.radius * ang - T, k, k, False))
            out.append(Piece(i, T, k, 0.0, False))
        else:
            out.append(Piece(i, a.radius * ang, k, k, False))
    return [p for p in out if p.length > 1e-9]


def line_from_pieces(pieces: list[Piece], closing: bool = True) -> tuple[Line, np.ndarray, float]:
    """Lay pieces end to end from (0, 0) heading +x. Returns the line, the end point and the end heading.

    The line is closed by repeating its first sample at the end (arc length = total length); the caller checks
    how far the true end is from the start.
    """
    s_list = [np.zeros(1)]
    xy_list = [np.zeros((1, 2))]
    th_list = [np.zeros(1)]
    k_list = [np.array([pieces[0].k0 if pieces else 0.0])]
    x, y, th, s = 0.0, 0.0, 0.0, 0.0
    for p in pieces:
        if p.k0 == p.k1:
            k = p.k0
            n = max(1, math.ceil(p.length / STEP), math.ceil(abs(k) * p.length / math.radians(2)))
            sig = np.linspace(0, p.length, n + 1)[1:]
            if abs(k) < 1e-12:
                px = x + np.cos(th) * sig
                py = y + np.sin(th) * sig
                pth = np.full(n, th)
            else:
                pth = th - k * sig
                px = x + (np.sin(th) - np.sin(pth)) / k
                py = y + (np.cos(pth) - np.cos(th)) / k
            pk = np.full(n, k)
        else:
            # clothoid: curvature linear in arc length; integrate with fine exact-arc sub-steps
            n = max(4, math.ceil(p.length / STEP))
            sub = 16
            m = n * sub
            h = p.length / m
            kk = p.k0 + (p.k1 - p.k0) * (np.arange(m) + 0.5) / m
            dth = -kk * h
            th_end = th + np.cumsum(dth)
            th_start = th_end - dth
            thm = (th_start + th_end) / 2
            chord = h * np.sinc(dth / 2 / math.pi)
            cx = x + np.cumsum(np.cos(thm) * chord)
            cy = y + np.cumsum(np.sin(thm) * chord)
            idx = np.arange(1, n + 1) * sub - 1
            px, py, pth = cx[idx], cy[idx], th_end[idx]
            sig = np.linspace(0, p.length, n + 1)[1:]
            pk = p.k0 + (p.k1 - p.k0) * sig / p.length
        s_list.append(s + sig)
        xy_list.append(np.column_stack((px, py)))
        th_list.append(pth)
        k_list.append(pk)
        x, y, th, s = float(px[-1]), float(py[-1]), float(pth[-1]), s + p.length
    S = np.concatenate(s_list)
    XY = np.vstack(xy_list)
    TH = np.concatenate(th_list)
    K = np.concatenate(k_list)
    end = XY[-1].copy()
    end_th = float(TH[-1])
    if closing:
        XY[-1] = XY[0]
    return Line(S, XY, TH, K), end, end_th


def piece_starts(pieces: list[Piece]) -> list[float]:
    out, s = [], 0.0
    for p in pieces:
        out.append(s)
        s += p.length
    return out


# --------------------------------------------------------------------------------------------------- splines


def periodic_spline(points: np.ndarray, step: float = STEP) -> Line:
    """A periodic cubic spline through ``points`` (closed implicitly), chord-length parametrised, sampled
    at (about) ``step`` mm of arc length with analytic heading and curvature."""
    P = np.asarray(points, dtype=float)
    n = len(P)
    h = np.linalg.norm(np.roll(P, -1, axis=0) - P, axis=1)  # h[i]: P[i] → P[i+1]
    # Second derivatives M of the periodic spline: h[i-1] M[i-1] + 2(h[i-1]+h[i]) M[i] + h[i] M[i+1] = rhs
    hp = np.roll(h, 1)
    d = (np.roll(P, -1, axis=0) - P) / h[:, None]
    rhs = 6 * (d - np.roll(d, 1, axis=0))
    A = np.zeros((n, n))
    idx = np.arange(n)
    A[idx, idx] = 2 * (hp + h)
    A[idx, (idx - 1) % n] += hp
    A[idx, (idx + 1) % n] += h
    M = np.linalg.solve(A, rhs)
    # Evaluate densely per interval, then resample by arc length.
    fine = 24
    u = (np.arange(fine) / fine)[None, :]  # (1, fine)
    hh = h[:, None]
    t = u * hh

    def ev(t):
        a = P[:, None, :]
        b = d[:, None, :] - hh[..., None] * (2 * M[:, None, :] + np.roll(M, -1, axis=0)[:, None, :]) / 6
        c = M[:, None, :] / 2
        e = (np.roll(M, -1, axis=0) - M)[:, None, :] / (6 * hh[..., None])
        T = t[..., None]
        pos = a + b * T + c * T**2 + e * T**3
        d1 = b + 2 * c * T + 3 * e * T**2
        d2 = 2 * c + 6 * e * T
        return pos, d1, d2

    pos, _, _ = ev(t)
    pts = np.vstack((pos.reshape(-1, 2), P[:1]))
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    cum = np.concatenate(([0.0], np.cumsum(seg)))
    L = float(cum[-1])
    m = max(16, math.ceil(L / step))
    s_new = np.linspace(0, L, m + 1)
    # parameter of each resampled point: interval index + local t
    glob = np.concatenate((np.arange(n * fine) / fine, [float(n)]))
    g = np.interp(s_new, cum, glob)
    i = np.minimum(np.floor(g).astype(int), n - 1)
    tl = (g - i) * h[i]
    a = P[i]
    Mi, Mj = M[i], M[(i + 1) % n]
    b = d[i] - h[i, None] * (2 * Mi + Mj) / 6
    c = Mi / 2
    e = (Mj - Mi) / (6 * h[i, None])
    T = tl[:, None]
    pos = a + b * T + c * T**2 + e * T**3
    d1 = b + 2 * c * T + 3 * e * T**2
    d2 = 2 * c + 6 * e * T
    th = np.unwrap(np.arctan2(d1[:, 1], d1[:, 0]))
    speed = np.linalg.norm(d1, axis=1)
    # left curvature (page y down): k = -(x' y'' - y' x'') / |v|^3
    k = -(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / speed**3
    # Use the true polyline arc length of the resampled points so s matches what is drawn.
    seg = np.linalg.norm(np.diff(pos, axis=0), axis=1)
    s = np.concatenate(([0.0], np.cumsum(seg)))
    pos[-1] = pos[0]
    return Line(s, pos, th, k)


#: Coordinates beyond this (in the CSV's own unit) are refused: no real map needs them, and squaring them would
#: overflow the geometry. A CSV holds at most MAX_CSV_POINTS points (and, as every input, at most 32 MB).
MAX_CSV_COORD = 1e9
MIN_CSV_SPAN = 1e-6
#: A CSV holds at most this many points.
MAX_CSV_POINTS = 1_000_000


def read_csv(path, text: str | None = None) -> np.ndarray:
    """x, y columns (metres or anything) of a racetrack-database CSV (``# x_m,y_m,...``) or a plain x,y CSV.

    Fields are separated by commas, or by semicolons — and then a comma inside a number is a decimal comma
    (``1,5;2,3`` is the point 1.5, 2.3, as spreadsheets in many languages write it) — or by tabs or spaces. A
    UTF-8 byte-order mark is fine. The file is read through Paddock's one bounded reader (regular files only, at
    most 32 MB)."""
    rows = []
    skipped = None  # the first line read as a header: said if no point follows
    if text is None:
        text = read_text(path, what="centre-line CSV")
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if ";" in line:  # semicolon-separated: a comma is a decimal comma
            parts = [p.strip().replace(",", ".") for p in line.split(";")]
        elif "," in line:
            parts = [p.strip() for p in line.split(",")]
        else:  # separated by tabs or spaces
            parts = line.split()
        try:
            x, y = float(parts[0]), float(parts[1])
        except (ValueError, IndexError):
            if not rows:  # a header line such as "x,y"
                skipped = skipped or (no, line)
                continue
            raise InputError(
                f"cannot read a point from {quote(line, 40)}",
                file=path,
                line=no,
                hint="each line needs x,y (metres) as numbers",
            ) from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise InputError("point is not a finite number", file=path, line=no)
        if abs(x) > MAX_CSV_COORD or abs(y) > MAX_CSV_COORD:
            raise InputError(
                f"coordinate {max(abs(x), abs(y)):.3g} is beyond ±{MAX_CSV_COORD:.0e}",
                file=path,
                line=no,
                hint="give the centre line in metres (or any unit) with sane numbers",
            )
        rows.append((x, y))
        if len(rows) > MAX_CSV_POINTS:
            raise InputError(
                f"more than {MAX_CSV_POINTS:,} points", file=path, line=no, hint="thin the centre line out first"
            )
    if not rows and skipped is not None:  # not a centre line (a spec's csv: may name any file): quote none of it
        raise InputError(
            f"no line holds a point (line {skipped[0]} is the first that is not a comment); is this a centre line?",
            file=path,
            line=skipped[0],
            hint="each line needs x and y as numbers, separated by a comma (or a semicolon, a tab or spaces)",
        )
    if len(rows) < 4:
        raise InputError(f"only {len(rows)} point(s) in the CSV", file=path, hint="a circuit needs at least four")
    points = np.asarray(rows, dtype=float)
    span = float(extent(points).max())
    if span < MIN_CSV_SPAN:
        raise InputError(
            f"the points span only {span:.3g}; they are scaled to fit, but not from nothing",
            file=path,
            hint=f"give coordinates that span at least {MIN_CSV_SPAN:g} (in any unit)",
        )
    return points


def extent(P: np.ndarray) -> np.ndarray:
    """Width and height of the points ``P`` (n, 2): ``np.ptp(P, axis=0)``, column by column — a reduction along
    axis 0 of an (n, 2) array runs ~30 times slower than one over a column (15 ms vs 0.5 ms on 300 000 points)."""
    return np.array([np.ptp(P[:, 0]), np.ptp(P[:, 1])])


def clean_points(P: np.ndarray, min_gap: float) -> np.ndarray:
    """Drop points closer than ``min_gap`` to the previous kept one (and a repeated closing point)."""
    P = np.asarray(P, dtype=float)
    if len(P) < 2:
        return P
    # vectorised for the common case (no two neighbours closer than min_gap); a run of near-repeats falls back
    # to the exact walk, which measures each point against the last one kept
    close = np.hypot(*np.diff(P, axis=0).T) <= min_gap
    if not close.any():
        keep = P
    else:
        out = [P[0]]
        for p in P[1:]:
            if np.hypot(*(p - out[-1])) > min_gap:
                out.append(p)
        keep = np.asarray(out)
    n = len(keep)
    while n > 1 and np.hypot(*(keep[n - 1] - keep[0])) <= min_gap:
        n -= 1
    return keep[:n]


def resample_closed(P: np.ndarray, spacing: float) -> np.ndarray:
    """Points every ``spacing`` along the closed polyline ``P`` (used as spline control points: smoothing)."""
    Q = np.vstack((P, P[:1]))
    seg = np.linalg.norm(np.diff(Q, axis=0), axis=1)
    cum = np.concatenate(([0.0], np.cumsum(seg)))
    L = cum[-1]
    n = max(6, round(L / spacing))
    s = np.arange(n) * L / n
    return np.column_stack((np.interp(s, cum, Q[:, 0]), np.interp(s, cum, Q[:, 1])))


def smooth_closed(P: np.ndarray, sigma: float) -> np.ndarray:
    """The closed polyline ``P`` with its heading low-pass filtered: the direction along the loop is convolved
    with a Gaussian of standard deviation ``sigma`` (same units as P) along the arc length, exactly round the
    loop (in the frequency domain), and the loop rebuilt from it.

    Smoothing the heading smooths the curvature directly: a corner's turn is spread over more length, so its
    radius grows with ``sigma`` (never shrinks) and straights stay straight; the lap length is kept. The small gap
    the smoothed headings leave is spread evenly round the loop. Huge ``sigma`` gives a circle."""
    Q = np.vstack((P, P[:1]))
    L = float(np.linalg.norm(np.diff(Q, axis=0), axis=1).sum())
    if sigma <= 0 or L <= 0:
        return P
    n = int(min(4096, max(256, math.ceil(4 * L / sigma))))
    R = resample_closed(P, L / n)
    n = len(R)
    h = L / n
    seg = np.roll(R, -1, axis=0) - R
    th = np.arctan2(seg[:, 1], seg[:, 0])
    dth = np.angle(np.exp(1j * (np.roll(th, -1) - th)))  # turn from each piece to the next, wrapped
    total = float(dth.sum())  # ±2π for a loop, 0 for a figure-eight
    th_u = th[0] + np.concatenate(([0.0], np.cumsum(dth[:-1])))
    trend = total * np.arange(n) / n
    f = np.fft.rfftfreq(n, d=h)  # cycles per unit length
    gain = np.exp(-0.5 * (TAU * f * sigma) ** 2)
    th_s = np.fft.irfft(np.fft.rfft(th_u - trend) * gain, n=n) + trend
    v = np.column_stack((np.cos(th_s), np.sin(th_s))) * h
    v -= v.sum(axis=0) / n  # close the loop
    return R[0] + np.vstack((np.zeros((1, 2)), np.cumsum(v[:-1], axis=0)))


# ---------------------------------------------------------------------------------- helpers on closed polylines


def arc_lengths(Q: np.ndarray) -> np.ndarray:
    """Cumulative arc length of the closed polyline ``Q`` (n, 2): ``len(Q) + 1`` values, 0 first, the lap last."""
    seg = np.hypot(*np.diff(np.vstack((Q, Q[:1])), axis=0).T)
    return np.concatenate(([0.0], np.cumsum(seg)))


def resample_loop(Q: np.ndarray, n: int) -> np.ndarray:
    """``n`` points evenly spaced along the closed polyline ``Q``, the first at ``Q[0]``."""
    u = arc_lengths(Q)
    C = np.vstack((Q, Q[:1]))
    s = np.arange(n) * u[-1] / n
    return np.column_stack((np.interp(s, u, C[:, 0]), np.interp(s, u, C[:, 1])))


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) index runs where ``mask`` is True."""
    if not mask.any():
        return []
    d = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1), strict=True))


def cyclic_runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) runs of True in a cyclic ``mask`` (a run over the end has end > len(mask))."""
    n = len(mask)
    if mask.all():
        return [(0, n)]
    if not mask.any():
        return []
    k = int(np.argmin(mask))  # a False: rotate so that no run wraps
    d = np.diff(np.concatenate(([0], np.roll(mask, -k).astype(np.int8), [0])))
    return [(int(a) + k, int(b) + k) for a, b in zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1), strict=True)]


def rotation(deg: float) -> np.ndarray:
    """The 2 × 2 matrix turning a vector by ``deg`` (anticlockwise with y up; clockwise on a page, y down)."""
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


def circumradius(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The radius of the circle through each triple of points ``a``, ``b``, ``c`` (infinite for points in a
    line): how tight a line of points turns there."""
    ab = np.linalg.norm(b - a, axis=-1)
    bc = np.linalg.norm(c - b, axis=-1)
    ca = np.linalg.norm(a - c, axis=-1)
    cross = np.abs((b - a)[:, 0] * (c - a)[:, 1] - (b - a)[:, 1] * (c - a)[:, 0])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(cross > 1e-12, ab * bc * ca / (2 * np.maximum(cross, 1e-12)), np.inf)


#: Above this many point pairs, the nearest points of a line are found through a tree (see nearest_points).
NEAREST_BY_TREE = 2_000_000


@dataclass(frozen=True)
class PointIndex:
    """A tree over the points of ``P`` as they were in other coordinates, for :func:`nearest_points`: ``to_tree``
    maps points of ``P``'s coordinates into the tree's, where distances are ``scale`` times shorter; leaf ``j`` of
    the tree is point ``order[j]`` of ``P`` (None: point ``j``)."""

    tree: object
    to_tree: Callable[[np.ndarray], np.ndarray]
    scale: float = 1.0
    order: np.ndarray | None = None


def point_tree(P: np.ndarray):
    """An STRtree over the points of ``P``."""
    return shapely.STRtree(shapely.points(P))


def nearest_points(P: np.ndarray, Q: np.ndarray, index: PointIndex | None = None) -> list[int]:
    """For each point of ``Q``, ``np.argmin(np.hypot(*(P - q).T))``: the index of its nearest point of ``P``, the
    lowest of equally near ones. Through an STRtree for a survey-grade ``P`` (a 300,000-point line measured point
    by point took seconds): its nearest distance bounds the candidates, which are then measured as above. ``index``:
    that tree already made, in other coordinates (see :class:`PointIndex`)."""
    if len(P) * len(Q) <= NEAREST_BY_TREE:
        return [int(np.argmin(np.hypot(*(P - q).T))) for q in Q]
    if index is None:
        index = PointIndex(point_tree(P), lambda X: X)
    points = shapely.points(index.to_tree(Q))
    (_, _), dist = index.tree.query_nearest(points, return_distance=True, all_matches=False)
    # every point as near as the nearest, with a margin: GEOS's distance and np.hypot may differ in the last digit,
    # and so may distances measured in the tree's coordinates (1e-9 mm, in the tree's units)
    qi, ti = index.tree.query(points, predicate="dwithin", distance=dist * (1 + 1e-9) + 1e-9 / index.scale)
    pi = ti if index.order is None else index.order[ti]
    d = np.hypot(*(P[pi] - Q[qi]).T)
    order = np.lexsort((pi, d, qi))  # by query, then distance, then index: the first of each query is argmin's
    first = np.concatenate(([True], qi[order][1:] != qi[order][:-1]))
    return [int(v) for v in pi[order][first]]
