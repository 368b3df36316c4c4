"""Shape-keeping adaptation of a real circuit's centre line to a board.

A real centre line (a racetrack-database CSV: metres, x east, y north, in the race direction from the start line)
is put on the paper at the largest scale that fits, north up, and then changed **only where a board rule is
broken**, by as little as possible:

- every bend has a centre-line radius of at least ``track_width / 2 + min_inner_radius`` (the inner border keeps
  ``min_inner_radius`` mm: room for a car in every unit): a hairpin is widened, a chicane opened into the tightest
  playable S;
- two parts of the track that are not the same stretch are at least ``track_width + 2 × kerb + gap`` apart
  (centre lines), except where the real line crosses itself (a figure-eight's bridge), which is kept and reported;
- the loop stays on the paper (its centre line ``track_width / 2 + kerb + 1`` mm inside the content box) and closed.

**The method: a constrained least-squares fit in the turning angles.** The board is ``N`` corners ``h`` mm apart
(0.6 of the minimum radius: 12 mm on a 20 mm track), each turning by ``δ_k``; its centre line is that polygon
with every corner rounded by the circular arc tangent to both edges over half an edge (:func:`_fillet_line`), so
the radius at corner ``k`` is exactly ``(h/2) / tan(|δ_k|/2)`` and the **radius rule is a simple bound**
``|δ_k| ≤ 2 atan(h / 2R)``: convex and exact, whatever the rest of the shape does. The unknowns are the ``δ_k``,
the first heading and corner, and ``h``. Each Gauss–Newton step linearises the corners' positions (turning corner
``k`` swings the rest of the lap about it) and solves one small dense QP (a primal-dual interior-point method,
:func:`_qp`):

    minimise   Σ (distance of each corner to the real line)²  +  1.5² Σ (distance of each real-line sample to
               the board)²                     (the second term stops the board cutting off a loop of the real line)
    subject to |δ_k| ≤ bound, the lap closing (Σδ = 2π × winding, last corner = first),
               every pair of corners of different stretches ≥ clearance apart, every corner on the paper.

A rule broken at the start of a step need only be mended by a step's worth (a quarter of the clearance) in that
step, so the step's constraints can always hold together; if they still cannot, that step prices them instead
(SQP's elastic mode).

The bound shrinks from the real line's own sharpest turn to the rule over the first four steps (a homotopy, so
every linearisation holds), then Levenberg–Marquardt steps (each kept only if it lowers the fit plus a heavy
price on broken rules) until the corners move less than 0.3 mm or the fit stops improving; last steps, with ``h``
allowed to shrink by 0.1 % at most, close the lap with the bound exactly the rule. Parts of the line no rule
touches cost nothing to keep, so straights, fast corners and positions stay where they are; where a rule binds,
the least-squares fit spreads the change over the fewest, smallest moves it can (a hairpin becomes a keyhole,
close parallel stretches part symmetrically). Everything is then measured on the final 1 mm line, independently
of the solver.

Why this and not the alternatives read about:
- *Curvature smoothing* (the heading low-pass filter Paddock used; Gaussian smoothing of positions) changes the
  whole lap uniformly: the worst corner decides it everywhere, the loop swells, every chicane becomes the same S.
- *Minimum-curvature racing-line QPs* (Heilmeier et al. 2019, TUM global race-trajectory optimisation) move points
  along the reference's normals within a corridor. A 3 mm hairpin that must become a 20 mm one needs offsets
  larger than the local radius, where the normals cross; and clearance between distant parts is not in the model.
- *Elastic bands / position-based projections* (Quinlan & Khatib 1993; Shape-Up / projective dynamics, Bouaziz et
  al. 2012–14; repulsive curves, Yu et al. 2021) were tried first: the radius rule acts on three neighbouring
  points, so a too-tight hairpin is "fixed" by pulling its tip in rather than spreading its legs, and hundreds of
  iterations did not converge on Spa's La Source. In the turning angles the rule is one bound per corner and every
  step sees the whole lap.

Orientation: north stays up unless a free rotation makes the board at least :data:`ROTATE_GAIN` times larger
(linear scale; the paper may be turned first, keeping north up, when ``turn_paper``); the rotation is reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..problems import Problem
from .centerline import Line, Piece, extent, line_from_pieces
from .circuit import KERB_W
from .features import GAP
from .fidelity import Fidelity, measure

#: A free rotation is used only when it makes the board at least this much larger (linear scale) than north up.
ROTATE_GAIN = 1.25
#: The board's corners are about this many minimum radii apart while fitting (12 mm on a 20 mm track: a bend of
#: the minimum radius is then drawn from a corner every 34°); the drawn line is sampled every mm.
SOLVER_STEP = 0.6
#: Margins the fit keeps beyond the rules, so the checks on the final 1 mm line pass.
RADIUS_MARGIN = 1.005  # a radius this much larger than the minimum
CLEAR_MARGIN = (0.5, 0.1)  # mm + × h beyond the clearance: the fit keeps corners (h apart) clear, the drawn line
#                            runs between them and rounds them off inside, up to ~0.07 h at the tightest bend
#: The fitted lap closes to within this (mm); a gap left (at most CLOSE_MAX of the lap) is spread round it.
CLOSE_TOL = 0.05
CLOSE_MAX = 0.002
#: A stretch of the board further than this (mm) from the real line is reported as a change.
CHANGE_TOL = 1.0
#: Scales tried, as fractions of the largest that fits, when the rules cannot all be met.
SCALE_LADDER = (1.0, 0.92, 0.84)
THIN = 1000  # a dense source line is thinned to points 1/THIN of its extent apart before it is adapted (_thin)


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Rules:
    """A board's geometry rules, in mm on paper (the engine's: a kerb each side, a gap between two tracks)."""

    track_width: float
    min_inner_radius: float = 10.0  # radius of the inner border of the tightest bend
    kerb: float = KERB_W
    gap: float = GAP
    clearance_mm: float | None = None  # overrides track_width + 2 kerb + gap
    margin_mm: float | None = None  # overrides track_width / 2 + kerb + 1

    @property
    def min_radius(self) -> float:
        """Smallest centre-line radius."""
        return self.track_width / 2 + self.min_inner_radius

    @property
    def clearance(self) -> float:
        """Least distance between the centre lines of two parts of the track."""
        if self.clearance_mm is not None:
            return self.clearance_mm
        return self.track_width + 2 * self.kerb + self.gap

    @property
    def margin(self) -> float:
        """Paper kept clear round the centre line: half the track, the kerb, a hair."""
        if self.margin_mm is not None:
            return self.margin_mm
        return self.track_width / 2 + self.kerb + 1.0

    @property
    def chord_bound(self) -> float:
        """Arc length over which a bend of the minimum radius has a chord equal to the clearance (πR if none)."""
        R, C = self.min_radius, self.clearance
        return 2 * R * math.asin(C / (2 * R)) if C < 2 * R else math.pi * R

    @property
    def same_part(self) -> float:
        """Two points closer than this along the lap are one stretch of track (exempt from the clearance)."""
        return self.clearance * math.pi / 2


@dataclass
class Change:
    """A stretch of the board that differs from the real line by more than :data:`CHANGE_TOL`, and why."""

    s0: float  # arc length on the board, mm (s1 < s0 when it runs over the start line)
    s1: float
    units: tuple[int, int]
    max_mm: float
    causes: tuple[str, ...]  # radius | clearance | paper (empty: carried along by a neighbour)
    what: str

    def as_dict(self) -> dict:
        return {
            "s0_mm": round(self.s0, 1),
            "s1_mm": round(self.s1, 1),
            "units": list(self.units),
            "max_mm": round(self.max_mm, 1),
            "causes": list(self.causes),
            "what": self.what,
        }


@dataclass
class Crossing:
    """Where the real line passes over itself (a figure-eight): kept as a crossing, to be drawn as a bridge."""

    s_first: float  # board arc length of the first pass, mm
    s_second: float
    point: tuple[float, float]  # page mm
    angle_deg: float

    def as_dict(self) -> dict:
        return {
            "s_first_mm": round(self.s_first, 1),
            "s_second_mm": round(self.s_second, 1),
            "point_mm": [round(self.point[0], 1), round(self.point[1], 1)],
            "angle_deg": round(self.angle_deg, 1),
        }


@dataclass
class Adapted:
    """A real centre line adapted to a board. ``to_page`` carries the source points onto the page exactly as the
    board was placed (flip y, rotate by ``rotation_deg`` clockwise, scale, shift): the deviation is measured
    against that, never against a re-fitted copy."""

    line: Line  # the board's centre line: closed, page mm (y down), ~1 mm samples, s = 0 at the start line
    scale: float  # page mm per source unit (metre)
    rotation_deg: float  # clockwise on the page, applied after flipping y (north up when 0)
    shift: tuple[float, float]  # page mm
    box: tuple[float, float, float, float]  # the content box used (x, y, w, h); turned when paper_turned
    paper_turned: bool
    rules: Rules
    unit_mm: float
    fidelity: Fidelity
    changes: list[Change]
    crossings: list[Crossing]
    problems: list[Problem]
    iterations: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def units(self) -> int:
        return max(1, round(self.line.length / self.unit_mm))

    @property
    def north(self) -> tuple[float, float]:
        """Unit vector pointing north on the page (y down)."""
        a = math.radians(self.rotation_deg)
        return (math.sin(a), -math.cos(a))

    def to_page(self, points_xy) -> np.ndarray:
        """Source points (x east, y north) carried onto the page by this board's scale, rotation and shift."""
        return to_page(points_xy, self.scale, self.rotation_deg, self.shift)

    def as_dict(self, centre_line: bool = True) -> dict:
        """For ``check --json``: placement, units, deviation, changes, crossings, problems, and the centre line
        (page mm, y down, a point per mm or closer, the first point repeated at the end omitted)."""
        d = {
            "scale_mm_per_m": round(self.scale, 6),
            "rotation_deg": round(self.rotation_deg, 3),
            "shift_mm": [round(self.shift[0], 3), round(self.shift[1], 3)],
            "north": [round(self.north[0], 4), round(self.north[1], 4)],
            "paper_turned": self.paper_turned,
            "lap_mm": round(self.line.length, 1),
            "units": self.units,
            "deviation": self.fidelity.as_dict(),
            "changes": [c.as_dict() for c in self.changes],
            "crossings": [c.as_dict() for c in self.crossings],
            "problems": [p.as_dict() for p in self.problems],
        }
        if centre_line:
            d["centre_line"] = np.round(self.line.xy[:-1], 2).tolist()
        return d


# ------------------------------------------------------------------------------------------------ page


def to_page(points_xy, scale: float, rotation_deg: float, shift) -> np.ndarray:
    """Source (x east, y north) → page mm (y down): flip y, rotate clockwise by ``rotation_deg``, scale, shift."""
    P = np.asarray(points_xy, dtype=float)[:, :2] * np.array([1.0, -1.0])
    return (P @ _rot(rotation_deg).T) * scale + np.asarray(shift, dtype=float)


def from_page(points_mm, scale: float, rotation_deg: float, shift) -> np.ndarray:
    """:func:`to_page` undone: page mm → source (x east, y north), to rounding. Distances shrink by ``scale``."""
    P = (np.asarray(points_mm, dtype=float)[:, :2] - np.asarray(shift, dtype=float)) / scale
    return (P @ _rot(rotation_deg)) * np.array([1.0, -1.0])


# ------------------------------------------------------------------------------------------------ adapt


def adapt(
    points_xy,
    *,
    paper_box_mm,
    track_width_mm: float,
    min_inner_radius_mm: float = 10.0,
    kerb_mm: float = KERB_W,
    gap_mm: float = GAP,
    clearance_mm: float | None = None,
    margin_mm: float | None = None,
    unit_mm: float = 20.0,
    scale: float | None = None,
    rotation_deg: float | None = None,
    turn_paper: bool = False,
) -> Adapted:
    """Adapt a real centre line to a board (see the module docstring for what is changed and how).

    ``points_xy``: (n, 2) source points, x east and y north (metres), in the race direction from the start line;
    the loop is closed implicitly. ``paper_box_mm``: the content box ``(w, h)`` or ``(x, y, w, h)`` in page mm.
    The rules: centre-line radius ≥ ``track_width_mm / 2 + min_inner_radius_mm``; centre lines of two parts of the
    track ≥ ``clearance_mm`` apart (default ``track_width_mm + 2 kerb_mm + gap_mm``); the centre line
    ``margin_mm`` inside the box (default ``track_width_mm / 2 + kerb_mm + 1``, more for a pit lane).
    ``scale`` (page mm per metre) and ``rotation_deg`` fix the placement instead of fitting it; ``turn_paper``
    also tries the box turned (portrait for landscape), keeping north up. ``unit_mm`` only locates changes and
    problems in units. Returns an :class:`Adapted`: its ``problems`` say why it cannot be played (empty when it
    can). Raises ValueError for input that is not a loop (fewer than four distinct points, not finite).
    """
    P = np.asarray(points_xy, dtype=float)
    if P.ndim != 2 or P.shape[1] < 2:
        raise ValueError("points must be an (n, 2) array of x, y")
    P = P[:, :2]
    if not np.all(np.isfinite(P)):
        raise ValueError("points must be finite numbers")
    gap = float(extent(P).max()) / THIN if len(P) else 0.0
    dense = len(P) > 8 * THIN  # a survey-grade line: thinned first (a repeat adds no length, so is never picked
    if dense:  # twice) and what is left cleaned: the same points as cleaning all 300 000 first, 10 ms sooner
        P = _thin(P, gap)
    P = _clean(P) if len(P) else P
    if not dense:
        P = _thin(P, gap)
    if len(P) < 4:
        raise ValueError("a circuit needs at least four distinct points")
    centred = P - P.mean(axis=0)
    if np.linalg.svd(centred, compute_uv=False)[-1] <= 1e-9 * float(extent(P).max()) * math.sqrt(len(P)):
        raise ValueError("all the points lie on one straight line")
    box = tuple(float(v) for v in paper_box_mm)
    if len(box) == 2:
        box = (0.0, 0.0, *box)
    rules = Rules(track_width_mm, min_inner_radius_mm, kerb_mm, gap_mm, clearance_mm, margin_mm)
    rot, fit_scale, bx, turned = _placement(P * np.array([1.0, -1.0]), box, rules.margin, turn_paper, rotation_deg)
    ladder = (scale,) if scale is not None else tuple(fit_scale * f for f in SCALE_LADDER)
    best = None
    for sc in ladder:
        res = _attempt(P, sc, rot, bx, turned, rules, unit_mm)
        if res.ok:
            return res
        if best is None or len(res.problems) < len(best.problems):
            best = res
    return best


def _attempt(P, sc: float, rot: float, box, turned: bool, rules: Rules, unit_mm: float) -> Adapted:
    """One adaptation at a fixed scale and rotation, centred in the box."""
    x0, y0, W, H = box
    page0 = to_page(P, sc, rot, (0.0, 0.0))
    lo, hi = page0.min(axis=0), page0.max(axis=0)
    shift = np.array([x0 + W / 2, y0 + H / 2]) - (lo + hi) / 2
    real = page0 + shift
    L = float(_arc(real)[-1])
    R = _resample(real, max(64, math.ceil(L / 1.0)))  # the real line every ~1 mm, for nearest points
    real_crossings = _crossings_of(R)
    exempt = [(ua, ub, _reach(rules, ang, unit_mm)) for ua, ub, _, ang in real_crossings]
    seg = np.diff(np.vstack((R, R[:1])), axis=0)
    th = np.unwrap(np.arctan2(seg[:, 1], seg[:, 0]))
    winding = round((th[-1] - th[0] + float(np.angle(np.exp(1j * (th[0] - th[-1]))))) / (2 * math.pi))
    fit = _Fit(R, rules, box, SOLVER_STEP * rules.min_radius, exempt, winding)
    st = fit.run()
    line, s_mid = _fillet_line(st.X)
    # s = 0 at the start line: from the corner nearest the real line's first point, back by what is left
    su = fit.real_u()
    Lr = fit.uR[-1]
    back = np.where(su < Lr / 2, su, su - Lr)
    i0 = int(np.argmin(np.abs(back)))
    s_start = (s_mid[i0] - back[i0] * line.length / Lr) % line.length
    line = line.rolled(s_start, False)
    s_corner = (s_mid - s_start) % line.length  # where each corner's arc is on the final line
    crossings = [Crossing(sa, sb, pt, ang) for sa, sb, pt, ang in _crossings_of(line.xy[:-1])]
    problems = []
    if st.gap > CLOSE_MAX * line.length:
        problems.append(
            Problem(
                "closure",
                f"the adapted lap did not close (a gap of {st.gap:.1f} mm was spread round it)",
                "give the circuit more room: a larger paper",
                where="lap",
                numbers={"gap_mm": st.gap},
            )
        )
    problems += _check(line, rules, box, unit_mm, crossings, len(real_crossings))
    fid, dev = measure(line.xy[:-1], real)
    changes = _changes(line, np.append(dev, dev[0]), st, s_corner, unit_mm)
    return Adapted(
        line=line,
        scale=float(sc),
        rotation_deg=float(rot),
        shift=(float(shift[0]), float(shift[1])),
        box=box,
        paper_turned=turned,
        rules=rules,
        unit_mm=unit_mm,
        fidelity=fid,
        changes=changes,
        crossings=crossings,
        problems=problems,
        iterations=st.iterations,
    )


# ------------------------------------------------------------------------------------------------ helpers


def _rot(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


def _clean(P: np.ndarray) -> np.ndarray:
    """Drop repeated points (and a closing point equal to the first)."""
    span = float(extent(P).max())
    d = np.hypot(*np.diff(P, axis=0).T)
    P = P[np.concatenate(([True], d > span * 1e-9))]
    while len(P) > 1 and np.hypot(*(P[-1] - P[0])) <= span * 1e-9:
        P = P[:-1]
    return P


def thinned(P: np.ndarray) -> np.ndarray:
    """A survey-grade line (more than 8 × :data:`THIN` points) thinned as :func:`adapt` thins it, to points 1/THIN
    of its extent apart; any other line as it is. What a board is measured against: the distance from a point to
    a line of 300,000 points a hair apart means looking at every one of them within that distance (seconds for a
    smoothed board a few mm off), and thinning moves the line by thousandths of a millimetre (see :func:`_thin`)."""
    if len(P) <= 8 * THIN:
        return P
    return _thin(P, float(extent(P).max()) / THIN)


def _thin(P: np.ndarray, gap: float) -> np.ndarray:
    """A very dense line (a 300 000-point CSV) thinned to points about ``gap`` apart along it, keeping the first.
    At 1/:data:`THIN` of the circuit's size (0.3–0.5 mm on paper) a chord strays from a bend of the tightest radius
    a board allows by about (0.5 mm)² / (8 × 20 mm) = 0.002 mm. Measured: the eight shared circuits (a point every
    ~5 m) are not thinned at all; Spa resampled to 300,000 points reports a deviation 0.04 mm off what it reports
    thinned at 1/2000 (which is 10 % slower; 1/500 moves it 0.12 mm)."""
    seg = np.hypot(*np.diff(P, axis=0).T)
    if len(P) < 4 or seg.mean() >= gap:
        return P
    cum = np.concatenate(([0.0], np.cumsum(seg)))
    keep = np.searchsorted(cum, np.arange(0.0, cum[-1], gap))  # sorted: drop repeats without np.unique, which
    return P[keep[np.concatenate(([True], keep[1:] != keep[:-1]))]]  # imports numpy.ma (~35 ms)


def _arc(Q: np.ndarray) -> np.ndarray:
    """Cumulative arc length of the closed polyline Q (len(Q) + 1 values)."""
    seg = np.hypot(*np.diff(np.vstack((Q, Q[:1])), axis=0).T)
    return np.concatenate(([0.0], np.cumsum(seg)))


def _resample(Q: np.ndarray, n: int) -> np.ndarray:
    """n points evenly spaced along the closed polyline Q."""
    u = _arc(Q)
    C = np.vstack((Q, Q[:1]))
    s = np.arange(n) * u[-1] / n
    return np.column_stack((np.interp(s, u, C[:, 0]), np.interp(s, u, C[:, 1])))


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) runs of True in a cyclic mask (a run over the end has end > len(mask))."""
    n = len(mask)
    if mask.all():
        return [(0, n)]
    if not mask.any():
        return []
    k = int(np.argmin(mask))  # a False: rotate so that no run wraps
    d = np.diff(np.concatenate(([0], np.roll(mask, -k).astype(np.int8), [0])))
    return [(int(a) + k, int(b) + k) for a, b in zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1), strict=True)]


def _placement(Q: np.ndarray, box, margin: float, turn_paper: bool, rotation_deg: float | None):
    """(rotation_deg, scale, box, turned) giving the largest board: north up (on the paper as given, or turned
    when that is clearly larger) unless a free rotation is ROTATE_GAIN times larger still."""
    import shapely

    x0, y0, W, H = box
    boxes = [(box, False)] + ([((x0, y0, H, W), True)] if turn_paper and abs(W - H) > 1e-9 else [])
    hull = shapely.get_coordinates(shapely.convex_hull(shapely.multipoints(Q)))  # the extent, turned any way
    if len(hull) >= 3:
        Q = hull

    def scale_at(deg, b):
        w, h = np.ptp(Q @ _rot(deg).T, axis=0)
        return min((b[2] - 2 * margin) / max(w, 1e-12), (b[3] - 2 * margin) / max(h, 1e-12))

    if rotation_deg is not None:
        b, t = max(boxes, key=lambda bt: scale_at(rotation_deg, bt[0]))
        return float(rotation_deg), scale_at(rotation_deg, b), b, t
    best = (0.0, scale_at(0.0, boxes[0][0]), *boxes[0])
    if len(boxes) == 2 and scale_at(0.0, boxes[1][0]) > 1.02 * best[1]:  # turn the paper only for a clear gain
        best = (0.0, scale_at(0.0, boxes[1][0]), *boxes[1])
    free = max(((float(a), scale_at(a, b), b, t) for b, t in boxes for a in range(5, 180, 5)), key=lambda c: c[1])
    return free if free[1] >= ROTATE_GAIN * best[1] else best


# ------------------------------------------------------------------------------------------------ the fit


@dataclass
class _State:
    X: np.ndarray  # (N, 2) board corners
    sigma: np.ndarray  # (N,) each corner's nearest point on the dense real line (sample index, fractional)
    curv: np.ndarray  # (N,) bool: the radius rule binds at the corner
    push: np.ndarray  # (N,) bool: the clearance rule (nearly) binds
    paper: np.ndarray  # (N,) bool: the paper rule (nearly) binds
    partner: np.ndarray  # (N,) int: the corner it is kept apart from (-1: none)
    iterations: int
    gap: float = 0.0  # mm the lap failed to close by (spread over the corners)


def _qp(P, q, E, e, G, g, lb, ub, tol=1e-6, iters=50) -> tuple[np.ndarray, bool]:
    """min ½ xᵀPx + qᵀx subject to Ex = e, Gx ≤ g and lb ≤ x ≤ ub (±inf: unbounded), by a dense primal-dual
    interior-point method with Mehrotra's predictor-corrector (Nocedal & Wright, Numerical Optimization, §16.6).
    Bounds are kept apart from G: they cost only a diagonal. Returns x and whether it converged (it does not
    when the constraints contradict each other)."""
    n, k, mg = len(q), len(e), len(g)
    iu = np.flatnonzero(np.isfinite(ub))
    il = np.flatnonzero(np.isfinite(lb))
    # every inequality as a row a·x + s = b with slack s ≥ 0 and dual λ ≥ 0: G's rows, upper bounds, lower bounds
    m = mg + len(iu) + len(il)
    b = np.concatenate((g, ub[iu], -lb[il]))

    def rows(v):
        return np.concatenate((G @ v, v[iu], -v[il]))

    nu_, mu_ = mg + len(iu), m  # w's slices: G's rows [:mg], upper bounds [mg:nu_], lower bounds [nu_:]

    def rows_t(w):  # iu and il name each unknown once: plain indexed adds (np.add.at is ~10x slower)
        out = G.T @ w[:mg]
        out[iu] += w[mg:nu_]
        out[il] -= w[nu_:mu_]
        return out

    KKT = np.empty((n + k, n + k))  # [[H, Eᵀ], [E, −εI]]: only H changes from one iteration to the next
    KKT[:n, n:] = E.T
    KKT[n:, :n] = E
    KKT[n:, n:] = -1e-12 * np.eye(k)
    x, nu = np.zeros(n), np.zeros(k)
    sl = np.maximum(b - rows(x), 1.0)
    lam = np.ones(m)
    scale_q = 1 + np.abs(q).max()
    scale_b = 1 + (np.abs(b).max() if m else 0.0)
    scale_e = 1 + (np.abs(e).max() if k else 0.0)
    done = False
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # rows that contradict each other
        for _ in range(iters):
            rd = P @ x + q + E.T @ nu + rows_t(lam)
            re = E @ x - e
            ri = rows(x) + sl - b
            mu = float(sl @ lam) / max(m, 1)
            if (
                np.abs(rd).max() < tol * scale_q
                and (k == 0 or np.abs(re).max() < tol * scale_e)
                and (m == 0 or (np.abs(ri).max() < tol * scale_b and mu < tol))
            ):
                done = True
                break
            w = lam / sl
            d = np.zeros(n)
            d[iu] += w[mg:nu_]
            d[il] += w[nu_:mu_]
            KKT[:n, :n] = P + (G.T * w[:mg]) @ G
            KKT.flat[: n * (n + k) : n + k + 1] += d  # H's diagonal
            if not np.all(np.isfinite(KKT)):
                break
            steps = []
            rc = -sl * lam  # predictor (affine) first, then Mehrotra's corrector
            for _pass in range(2):
                rhs = np.concatenate((-rd - rows_t((rc + lam * ri) / sl), -re))
                try:
                    sol = np.linalg.solve(KKT, rhs)
                except np.linalg.LinAlgError:  # a rule's rows repeat another's: any solution will do
                    sol = np.linalg.lstsq(KKT, rhs, rcond=None)[0]
                dx, dnu = sol[:n], sol[n:]
                ds = -ri - rows(dx)
                dl = (rc - lam * ds) / sl
                a = min(_longest(sl, ds), _longest(lam, dl))
                steps = (dx, dnu, ds, dl, a)
                mu_aff = float((sl + a * ds) @ (lam + a * dl)) / max(m, 1)
                rc = -sl * lam + min(1.0, mu_aff / max(mu, 1e-300)) ** 3 * mu - ds * dl
            dx, dnu, ds, dl, a = steps
            if not (np.all(np.isfinite(dx)) and np.all(np.isfinite(dl))):
                break
            a *= 0.99
            x += a * dx
            nu += a * dnu
            sl = np.maximum(sl + a * ds, 1e-14)
            lam = np.maximum(lam + a * dl, 1e-14)
    return x, done


def _longest(v: np.ndarray, dv: np.ndarray) -> float:
    """Largest step in [0, 1] keeping v + step·dv ≥ 0."""
    neg = dv < 0
    return min(1.0, float(np.min(-v[neg] / dv[neg]))) if neg.any() else 1.0


class _Fit:
    """The board as N corners h apart turning by δ_k, fitted to the real line (see the module docstring).

    Unknowns z = (δ_0 … δ_{N−1}, θ_0, x_0, y_0, h): corner i+1 is corner i plus h along heading θ_i, and
    θ_{i+1} = θ_i + δ_i; δ_{N−1} is the turn at corner 0 that closes the headings."""

    W_NORMAL = 1.0  # a corner's distance across the real line
    W_ALONG = 0.2  # and along it (keeps the corners where they belong on the lap)
    W_COVER = 1.5  # a real-line sample's distance to the board (no loop of the real line cut off)
    W_RULE = 30.0  # price per mm of a clearance or paper rule broken at the start of a step
    WINDOW = 2.0  # × h: how far along the real line a corner's nearest point is looked for
    MAX_TURN_STEP = 0.5  # rad: the most one step may change a corner's turn (a trust region)
    MAX_H_STEP = 0.02  # and the spacing, as a fraction
    H_RANGE = (0.8, 1.1)  # the spacing stays within these fractions of the real line's: the board is not rescaled

    def __init__(self, R: np.ndarray, rules: Rules, box, h: float, exempt, winding: int):
        self.R = R
        self.M = len(R)
        self.uR = _arc(R)
        seg = np.roll(R, -1, axis=0) - R
        self.Rt = seg / np.maximum(np.hypot(seg[:, 0], seg[:, 1]), 1e-12)[:, None]
        self.rules = rules
        x0, y0, W, H = box
        self.lo = np.array([x0, y0]) + rules.margin
        self.hi = np.array([x0 + W, y0 + H]) - rules.margin
        L = self.uR[-1]
        self.N = N = max(24, round(L / h))
        self.exempt = exempt  # (u_a, u_b, reach) of each crossing of the real line, in its arc length
        self.winding = winding
        X = _resample(R, N)
        E = np.roll(X, -1, axis=0) - X
        th = np.unwrap(np.arctan2(E[:, 1], E[:, 0]))
        close = th[0] + 2 * math.pi * winding - th[-1]
        self.z = np.concatenate((np.diff(th), [close, th[0], X[0, 0], X[0, 1], L / N]))
        self.h0 = L / N
        self.clearance = rules.clearance + CLEAR_MARGIN[0] + CLEAR_MARGIN[1] * self.h0
        self.sigma = np.arange(N) * self.M / N
        self.K = max(2, math.ceil(self.WINDOW * (L / N) / (L / self.M)))
        self.cover = np.arange(0, self.M, max(1, round(self.M / (2 * N))))  # real-line samples ~h/2 apart
        self.iterations = 0

    # --- the corners and how they move
    def corners(self, z=None) -> np.ndarray:
        """Corners X_0 … X_N (X_N = X_0 when the lap closes)."""
        z = self.z if z is None else z
        N = self.N
        th = z[N] + np.concatenate(([0.0], np.cumsum(z[: N - 1])))
        steps = z[N + 3] * np.column_stack((np.cos(th), np.sin(th)))
        return np.vstack((z[N + 1 : N + 3], z[N + 1 : N + 3] + np.cumsum(steps, axis=0)))

    def jacobian(self, X: np.ndarray) -> np.ndarray:
        """dX_i/dz, shape (N+1, 2, N+4): turning corner k+1 by dδ_k swings the rest of the lap about it."""
        N = self.N
        D = (X[:, None, :] - X[None, 1:, :]) * (np.arange(N + 1)[:, None] >= np.arange(1, N + 1)[None, :])[..., None]
        J = np.zeros((N + 1, 2, N + 4))
        J[:, 0, :N] = -D[..., 1]
        J[:, 1, :N] = D[..., 0]
        J[:, 0, N] = -(X[:, 1] - X[0, 1])
        J[:, 1, N] = X[:, 0] - X[0, 0]
        J[:, 0, N + 1] = 1.0
        J[:, 1, N + 2] = 1.0
        J[:, :, N + 3] = (X - X[0]) / self.z[N + 3]
        return J

    # --- the real line
    def nearest(self, X: np.ndarray, K: int, sigma=None):
        """Each corner's nearest point on the real line, looked for within K samples of ``sigma`` (its last), the
        real line's direction there, and the new positions (sample index, fractional)."""
        R, M = self.R, self.M
        base = np.round(self.sigma if sigma is None else sigma).astype(int)
        idx = (base[:, None] + np.arange(-K, K + 1)[None, :]) % M
        A = R[idx]
        AB = R[(idx + 1) % M] - A
        AX = X[:, None, :] - A
        t = np.einsum("nkd,nkd->nk", AX, AB) / np.maximum(np.einsum("nkd,nkd->nk", AB, AB), 1e-18)
        t = np.clip(t, 0.0, 1.0)
        D = AX - AB * t[..., None]
        j = np.argmin(np.einsum("nkd,nkd->nk", D, D), axis=1)
        r = np.arange(len(X))
        return A[r, j] + AB[r, j] * t[r, j, None], self.Rt[idx[r, j]], np.mod(base - K + j + t[r, j], M)

    def covering(self, X: np.ndarray, sigma: np.ndarray):
        """Real-line samples ~h/2 apart and the corner nearest each (looked for among the corners whose own
        nearest points are round it)."""
        N = len(X)
        order = np.roll(np.arange(N), -int(np.argmin(sigma)))
        pos = np.searchsorted(np.maximum.accumulate(sigma[order]), self.cover)
        cand = order[(pos[:, None] + np.arange(-3, 4)[None, :]) % N]
        Rk = self.R[self.cover]
        d = ((X[cand] - Rk[:, None, :]) ** 2).sum(-1)
        return Rk, cand[np.arange(len(Rk)), np.argmin(d, axis=1)]

    def real_u(self) -> np.ndarray:
        """Arc length along the real line of each corner's nearest point."""
        return np.interp(self.sigma, np.arange(self.M + 1), self.uR)

    def pairs(self, X: np.ndarray, reach: float):
        """Corner pairs (i < j) closer than ``reach`` that are different parts of the track. Closer than
        ``chord_bound`` along the lap, two points of a line whose radius is never under R_min are at least the
        chord 2R sin(s/2R) apart (Schur's comparison theorem): nothing to ask of them. Pairs either side of a
        crossing of the real line are exempt."""
        N = len(X)
        D2 = (X[:, None, 0] - X[None, :, 0]) ** 2 + (X[:, None, 1] - X[None, :, 1]) ** 2
        i, j = np.nonzero(np.triu(reach * reach > D2, 1))
        di = np.minimum(j - i, N - (j - i)) * self.z[N + 3]
        far = di > max(self.rules.chord_bound, self.rules.same_part)
        i, j = i[far], j[far]
        if self.exempt and len(i):
            L = self.uR[-1]
            su = self.real_u()

            def near(s, u, r):
                d = np.abs(s - u)
                return np.minimum(d, L - d) < r

            for ua, ub, r in self.exempt:
                cross = (near(su[i], ua, r) & near(su[j], ub, r)) | (near(su[i], ub, r) & near(su[j], ua, r))
                i, j = i[~cross], j[~cross]
        return i, j

    @staticmethod
    def _nearest_pairs(Xc: np.ndarray, pairs):
        """Of the close pairs, each corner's nearest partner on its left and on its right (one constraint row
        each: the others are implied to first order), without repeats."""
        i, j = pairs
        if not len(i):
            return i, j
        a = np.concatenate((i, j))
        b = np.concatenate((j, i))
        t = np.roll(Xc, -1, axis=0)[a] - np.roll(Xc, 1, axis=0)[a]
        v = Xc[b] - Xc[a]
        side = (t[:, 0] * v[:, 1] - t[:, 1] * v[:, 0]) > 0
        d = np.hypot(v[:, 0], v[:, 1])
        order = np.lexsort((d, side, a))
        a, b, side = a[order], b[order], side[order]
        first = np.concatenate(([True], (a[1:] != a[:-1]) | (side[1:] != side[:-1])))
        a, b = a[first], b[first]
        key = np.sort(np.minimum(a, b) * len(Xc) + np.maximum(a, b))
        key = key[np.concatenate(([True], key[1:] != key[:-1]))]  # np.unique, without importing numpy.ma
        return key // len(Xc), key % len(Xc)

    # --- Gauss–Newton
    def residuals(self, z: np.ndarray, Xc: np.ndarray, sigma: np.ndarray, K: int):
        """The fit's residuals at corners Xc (of z): across and along the real line, and the real line's samples
        to the board. Also what the Jacobian rows need, and the corners' new nearest points."""
        F, T, sig = self.nearest(Xc, K, sigma)
        Nn = np.column_stack((-T[:, 1], T[:, 0]))
        diff = Xc - F
        Rk, near = self.covering(Xc, sig)
        tb = np.roll(Xc, -1, axis=0)[near] - np.roll(Xc, 1, axis=0)[near]
        nb = np.column_stack((-tb[:, 1], tb[:, 0])) / np.maximum(np.hypot(*tb.T), 1e-12)[:, None]
        r = np.concatenate(
            (
                self.W_NORMAL * (Nn * diff).sum(1),
                self.W_ALONG * (T * diff).sum(1),
                self.W_COVER * (nb * (Xc[near] - Rk)).sum(1),
            )
        )
        return r, (Nn, T, near, nb), sig

    def merit(self, z: np.ndarray) -> float:
        """The fit plus a heavy price on each rule broken (the radius rule always holds: it bounds δ)."""
        N = self.N
        X = self.corners(z)
        Xc = X[:N]
        r, _, _ = self.residuals(z, Xc, self.sigma, self.K)
        C = self.clearance
        pi, pj = self.pairs(Xc, C)
        short = C - np.hypot(*(Xc[pi] - Xc[pj]).T)
        over = np.maximum(0, np.maximum(self.lo - Xc, Xc - self.hi))
        return (
            float(r @ r)
            + 100.0 * float(np.sum((X[N] - X[0]) ** 2))
            + self.W_RULE**2 * float(np.sum(short**2) + np.sum(over**2))
        )

    def linearise(self, K: int, ramp_c: float = np.inf):
        """The least-squares rows, the closure equalities and the clearance and paper inequalities, all to first
        order at the current z; and which corners the clearance and paper rules (nearly) bind."""
        N = self.N
        z = self.z
        h = z[N + 3]
        X = self.corners()
        Xc = X[:N]
        J = self.jacobian(X)
        r, (Nn, T, near, nb), self.sigma = self.residuals(z, Xc, self.sigma, K)
        Jr = np.vstack(
            (
                self.W_NORMAL * np.einsum("nd,ndk->nk", Nn, J[:N]),
                self.W_ALONG * np.einsum("nd,ndk->nk", T, J[:N]),
                self.W_COVER * np.einsum("nd,ndk->nk", nb, J[near]),
            )
        )
        E = np.vstack((np.concatenate((np.ones(N), np.zeros(4)))[None, :], J[N] - J[0]))
        e = np.concatenate(([2 * math.pi * self.winding - z[:N].sum()], X[0] - X[N]))
        # The clearance and paper rules are constraints of the step. One broken now need only be mended by a
        # step's worth (ramp_c mm) this time, so that the step's constraints can all hold together.
        G_rows, g_rows = [np.zeros((0, N + 4))], [np.zeros(0)]
        C = self.clearance
        pi, pj = self._nearest_pairs(Xc, self.pairs(Xc, C + 2 * h))
        push = np.zeros(N, bool)
        partner = np.full(N, -1)
        if len(pi):
            u = Xc[pi] - Xc[pj]
            dist = np.hypot(u[:, 0], u[:, 1])
            u = u / np.maximum(dist, 1e-9)[:, None]
            G_rows.append(-np.einsum("nd,ndk->nk", u, J[pi] - J[pj]))  # new distance ≈ dist − row·dz
            g_rows.append(dist - np.minimum(C, dist + ramp_c))
            tight = dist < C + 0.25
            push[pi[tight]] = push[pj[tight]] = True
            partner[pi[tight]] = pj[tight]
            partner[pj[tight]] = pi[tight]
        for c in (0, 1):
            for sign, edge in ((1.0, self.hi[c]), (-1.0, self.lo[c])):
                room = sign * (edge - Xc[:, c])  # ≥ 0 on the paper
                near = room < 2 * h
                G_rows.append(sign * J[:N][near, c, :])
                g_rows.append(np.maximum(room[near], -ramp_c))
        paper = np.any((Xc < self.lo + 0.25) | (Xc > self.hi - 0.25), axis=1)
        return Jr, r, E, e, np.vstack(G_rows), np.concatenate(g_rows), (Xc, push, paper, partner)

    def solve(self, lin, dmax: float, mu: float, shrink: float | None = None) -> np.ndarray:
        """The step dz minimising |Jr dz + r|² + μ|dz|² (in unit-column scaling) with the rules to first order,
        |δ + dδ| ≤ dmax and |dδ| ≤ MAX_TURN_STEP; with ``shrink`` the spacing may shrink by at most that fraction."""
        N = self.N
        Jr, r, E, e, G, g, _ = lin
        n = N + 4
        D = 1.0 / np.sqrt(np.einsum("ij,ij->j", Jr, Jr) + 1e-9)
        lb = np.full(n, -np.inf)
        ub = np.full(n, np.inf)
        d = self.z[:N]
        # the trust region gives way where the bound itself asks for more (a real hairpin turning near 180°)
        down = np.maximum(self.MAX_TURN_STEP, d - dmax + 0.05)
        up = np.maximum(self.MAX_TURN_STEP, -dmax - d + 0.05)
        lb[:N] = np.maximum(-dmax - d, -down) / D[:N]
        ub[:N] = np.minimum(dmax - d, up) / D[:N]
        h = self.z[N + 3]
        lo_h = max(-(shrink if shrink is not None else self.MAX_H_STEP) * h, self.H_RANGE[0] * self.h0 - h)
        lb[N + 3] = min(lo_h, 0.0) / D[N + 3]
        ub[N + 3] = max(min(self.MAX_H_STEP * h, self.H_RANGE[1] * self.h0 - h), 0.0) / D[N + 3]
        Gs = G * D[None, :]
        nr = np.maximum(np.sqrt((Gs * Gs).sum(1)), 1e-12)
        Js = Jr * D[None, :]
        Ps = Js.T @ Js + mu * np.eye(n)
        qs = Js.T @ r
        Gs, g = Gs / nr[:, None], g / nr
        x, ok = _qp(Ps, qs, E * D[None, :], e, Gs, g, lb, ub)
        if not ok and len(g):
            # the rules that hold now cannot all keep holding (to first order): price them too for this step
            Gp, gp = self.W_RULE * Gs, self.W_RULE * np.minimum(g, 0.0)
            x, _ = _qp(Ps + Gp.T @ Gp, qs - Gp.T @ gp, E * D[None, :], e, Gs[:0], g[:0], lb, ub)
        return x * D

    def bound(self, f: float = 1.0) -> float:
        """The turning bound that is the radius rule at the current spacing (times f)."""
        return 2 * math.atan(f * self.z[self.N + 3] / (2 * self.rules.min_radius * RADIUS_MARGIN))

    def run(self, steps: int = 25, ramp: int = 4, tol: float = 0.3) -> _State:
        """Gauss–Newton steps. The turning bound closes in from the real line's sharpest turn to the radius rule
        over the first ``ramp`` steps (a homotopy: each step changes the line a little, so its linearisation
        holds); then Levenberg–Marquardt steps, each kept only if it lowers the merit, until the corners move
        less than ``tol`` mm; then steps with the spacing held until the lap closes."""
        N = self.N
        start = max(float(np.abs(self.z[:N]).max()), self.bound())
        mu = 1e-3
        ramp_c = max(2 * self.h0, self.clearance / ramp)  # mm a broken rule mends per step
        for n in range(steps):
            f = min(1.0, (n + 1) / ramp)
            dmax = math.exp(math.log(start) * (1 - f) + math.log(self.bound()) * f)
            lin = self.linearise(self.K, ramp_c)
            X0 = lin[-1][0]
            # the merit of where we stand, under this step's bound (clipped: the lap may then not close)
            before = self.merit(np.concatenate((np.clip(self.z[:N], -dmax, dmax), self.z[N:])))
            for _try in range(5):
                z = self.z + self.solve(lin, dmax, mu)
                z[:N] = np.clip(z[:N], -dmax, dmax)
                if self.merit(z) < before * (1 - 1e-9):  # a real gain, not floating-point noise
                    mu = max(mu / 3, 1e-6)
                    break
                mu *= 5
            else:
                if n >= ramp:
                    break  # no step lowers the merit: as good as it gets
                z = np.concatenate((np.clip(self.z[:N], -dmax, dmax), self.z[N:]))
            moved = float(np.abs(self.corners(z)[:N] - X0).max())
            self.z = z
            self.iterations += 1
            if n >= ramp:
                gain = (before - self.merit(z)) / max(before, 1e-9)
                if moved < tol or gain < 0.005:  # the lap is closed off below (polish)
                    break
        # polish until the lap closes, the spacing allowed to shrink by 0.1 % at most, the turns bounded for that:
        # the bound then stays exactly the radius rule whatever the step does
        shrink = 1e-3
        for _polish in range(6):
            lin = self.linearise(self.K, ramp_c)
            if float(np.hypot(*lin[3][1:])) < CLOSE_TOL / 5 and abs(lin[3][0]) < 1e-6:
                break
            target = self.bound(1 - shrink)
            self.z = self.z + self.solve(lin, target, mu, shrink)
            self.z[:N] = np.clip(self.z[:N], -target, target)
            self.iterations += 1
        X = self.corners()
        gap = float(np.hypot(*(X[0] - X[N])))
        Xc = X[:N] + (X[0] - X[N]) * (np.arange(N) / N)[:, None]  # spread the last hair of a gap
        _, _, self.sigma = self.nearest(Xc, self.K)
        _, push, paper, partner = self.linearise(2)[-1]
        curv = np.roll(np.abs(self.z[:N]) >= 0.98 * self.bound(), 1)  # δ_k turns corner k+1
        return _State(Xc, self.sigma.copy(), curv, push, paper, partner, self.iterations, gap)


def _fillet_line(X: np.ndarray):
    """The closed polygon X with every corner rounded by a circular arc tangent to both edges, over half the
    shorter edge: straights and arcs, exact heading and curvature, sampled every mm (at most). Returns the line
    (starting where the arc of corner 0 begins) and the arc length at the middle of each corner's arc."""
    N = len(X)
    E = np.roll(X, -1, axis=0) - X
    ln = np.hypot(E[:, 0], E[:, 1])
    th = np.arctan2(E[:, 1], E[:, 0])  # direction of edge i (X_i → X_i+1)
    phi = np.angle(np.exp(1j * (th - np.roll(th, 1))))  # turn at corner i (edge i−1 → edge i), + clockwise
    tl = np.minimum(ln, np.roll(ln, 1)) / 2
    turn = np.abs(phi) > 1e-12
    r = np.where(turn, tl / np.tan(np.where(turn, np.abs(phi), 1.0) / 2), np.inf)
    arc = np.where(turn, r * np.abs(phi), 0.0)
    k = np.where(turn, -np.sign(phi) / r, 0.0)  # left curvature (page y down: a clockwise turn is a right turn)
    straight = ln - tl - np.roll(tl, -1)
    pieces = []
    s_mid = np.zeros(N)
    s = 0.0
    for i in range(N):
        s_mid[i] = s + arc[i] / 2
        if arc[i] > 1e-12:
            pieces.append(Piece(i, float(arc[i]), float(k[i]), float(k[i]), False))
        if straight[i] > 1e-12:
            pieces.append(Piece(i, float(straight[i]), 0.0, 0.0, True))
        s += arc[i] + max(straight[i], 0.0)
    line, _, _ = line_from_pieces(pieces)
    start = X[0] - tl[0] * np.array([math.cos(th[-1]), math.sin(th[-1])])
    return line.transformed(float(th[-1]), 1.0, start), s_mid


def _crossings_of(R: np.ndarray) -> list[tuple[float, float, tuple[float, float], float]]:
    """Self-crossings of the closed polyline R: (u_first, u_second, point, angle_deg) in its arc length."""
    import shapely

    n = len(R)
    C = np.vstack((R, R[:1]))
    u = _arc(R)
    segs = shapely.linestrings(np.stack((C[:-1], C[1:]), axis=1))
    tree = shapely.STRtree(segs)
    a, b = tree.query(segs, predicate="intersects")
    keep = (b > a + 1) & ~((a == 0) & (b == n - 1))
    out = []
    for i, j in zip(a[keep], b[keep], strict=True):
        p, r = C[i], C[i + 1] - C[i]
        q, s = C[j], C[j + 1] - C[j]
        den = r[0] * s[1] - r[1] * s[0]
        if abs(den) < 1e-15:
            continue
        t = ((q - p)[0] * s[1] - (q - p)[1] * s[0]) / den
        w = ((q - p)[0] * r[1] - (q - p)[1] * r[0]) / den
        if not (0 <= t <= 1 and 0 <= w <= 1):
            continue
        ua = u[i] + t * (u[i + 1] - u[i])
        ub = u[j] + w * (u[j + 1] - u[j])
        if any(abs(ua - fa) < 1.0 and abs(ub - fb) < 1.0 for fa, fb, _, _ in out):
            continue
        cosang = abs(float(np.dot(r, s))) / (np.hypot(*r) * np.hypot(*s))
        ang = math.degrees(math.acos(min(1.0, cosang)))
        out.append((float(ua), float(ub), (float(p[0] + t * r[0]), float(p[1] + t * r[1])), ang))
    out.sort()
    return out


# ------------------------------------------------------------------------------------------------ checks


def _unit_of(s: float, line: Line, unit_mm: float) -> int:
    n = max(1, round(line.length / unit_mm))
    return int((s % line.length) // (line.length / n)) + 1


def _span(a: int, b: int) -> str:
    return f"unit {a}" if a == b else f"units {a}–{b}"


def _check(line: Line, rules: Rules, box, unit_mm: float, crossings, real_crossings) -> list[Problem]:
    """The rules measured on the final line itself (independent of the solver)."""
    import shapely

    out: list[Problem] = []
    L = line.length
    unit = lambda s: _unit_of(s, line, unit_mm)  # noqa: E731
    n_units = max(1, round(L / unit_mm))
    if n_units < 8:
        out.append(
            Problem(
                "fit", f"the lap is only {L:.0f} mm ({n_units} units)", "a race needs at least 8 units", where="lap"
            )
        )
    # radius
    k = np.abs(line.k[:-1])
    bad = k * rules.min_radius > 1.0 + 1e-9
    for i0, i1 in _runs(bad):
        idx = np.arange(i0, i1) % len(k)
        j = idx[np.argmax(k[idx])]
        s = float(line.s[j])
        r = 1.0 / k[j]
        out.append(
            Problem(
                "fold",
                f"centre-line radius {math.floor(r * 10) / 10:.1f} mm is under the {rules.min_radius:g} mm minimum",
                "a bend could not be widened here: give the circuit more room (a larger paper)",
                where=_span(unit(float(line.s[i0 % len(k)])), unit(float(line.s[(i1 - 1) % len(k)]))),
                s=s,
                unit=unit(s),
                numbers={"radius_mm": r, "min_radius_mm": rules.min_radius},
            )
        )
    # clearance (2 mm samples, like the engine)
    stride = max(1, round(2.0 / (L / (len(line.s) - 1))))
    idx = np.arange(0, len(line.s) - 1, stride)
    xy, s = line.xy[idx], line.s[idx]
    C = rules.clearance
    tree = shapely.STRtree(shapely.points(xy))
    a, b = tree.query(shapely.points(xy), predicate="dwithin", distance=C - 1e-6)
    keep = a < b
    a, b = a[keep], b[keep]
    ds = np.abs(s[a] - s[b])
    ds = np.minimum(ds, L - ds)
    keep = ds > rules.same_part
    a, b = a[keep], b[keep]
    if len(a):
        ok = np.zeros(len(a), bool)
        for cr in crossings:
            reach = _reach(rules, cr.angle_deg, unit_mm)
            for p, q in ((cr.s_first, cr.s_second), (cr.s_second, cr.s_first)):
                da = np.abs(s[a] - p)
                db = np.abs(s[b] - q)
                ok |= (np.minimum(da, L - da) < reach) & (np.minimum(db, L - db) < reach)
        a, b = a[~ok], b[~ok]
    if len(a):
        dist = np.hypot(*(xy[a] - xy[b]).T)
        seen: list[tuple[int, int]] = []
        for k_ in np.argsort(dist):
            ua, ub = unit(float(s[a[k_]])), unit(float(s[b[k_]]))
            if any(abs(ua - x) <= 3 and abs(ub - y) <= 3 for x, y in seen):
                continue
            seen.append((ua, ub))
            out.append(
                Problem(
                    "proximity",
                    f"unit {ua} comes within {dist[k_]:.1f} mm of unit {ub} (centre lines); they need {C:g} mm",
                    "these parts could not be pushed apart: give the circuit more room (a larger paper)",
                    where=f"unit {ua} ↔ unit {ub}",
                    s=float(s[a[k_]]),
                    unit=ua,
                    numbers={"distance_mm": float(dist[k_]), "needed_mm": C},
                )
            )
    # paper
    x0, y0, W, H = box
    m = rules.margin
    lo, hi = line.xy.min(axis=0), line.xy.max(axis=0)
    over = max(x0 + m - lo[0], y0 + m - lo[1], hi[0] - (x0 + W - m), hi[1] - (y0 + H - m))
    if over > 0.05:
        out.append(
            Problem(
                "fit",
                f"the circuit runs {over:.1f} mm past the paper's edge",
                "use a larger paper",
                where="paper",
                numbers={"over_mm": float(over)},
            )
        )
    # crossings: only where the real line crosses, at a readable angle
    if len(crossings) != real_crossings:
        out.append(
            Problem(
                "crossing",
                f"the board crosses itself {len(crossings)} time(s), the real circuit {real_crossings}",
                "give the circuit more room (a larger paper)",
                where="lap",
            )
        )
    for n, cr in enumerate(crossings):
        if cr.angle_deg < 30:
            out.append(
                Problem(
                    "crossing",
                    f"crossing {n} meets at only {cr.angle_deg:.0f}°",
                    "a bridge needs the two passes to cross at 30° or more",
                    where=f"unit {unit(cr.s_first)} × unit {unit(cr.s_second)}",
                    s=cr.s_first,
                    unit=unit(cr.s_first),
                    numbers={"angle_deg": cr.angle_deg},
                )
            )
    return out


def _reach(rules: Rules, angle_deg: float, unit_mm: float) -> float:
    """Arc length either side of a crossing where the two passes are exempt from the clearance (the engine's)."""
    return (rules.clearance / 2 + rules.track_width / 2) / max(math.sin(math.radians(max(angle_deg, 10))), 0.17) + (
        unit_mm
    )


def _changes(line: Line, dev: np.ndarray, st: _State, s_corner: np.ndarray, unit_mm: float) -> list[Change]:
    """Stretches of the board further than CHANGE_TOL from the real line (closer than a unit apart: one
    stretch), with the rules binding in or next to them."""
    n = len(dev) - 1
    L = line.length
    runs = _runs(dev[:n] > CHANGE_TOL)
    merged: list[list[int]] = []
    for i0, i1 in runs:
        if merged and line.s[i0 % n] - line.s[(merged[-1][1] - 1) % n] < unit_mm:
            merged[-1][1] = i1
        else:
            merged.append([i0, i1])
    if len(merged) > 1 and (line.s[merged[0][0] % n] + L - line.s[(merged[-1][1] - 1) % n]) % L < unit_mm:
        merged[0][0] = merged[-1][0] - n  # the last stretch runs over the start line into the first
        merged.pop()
    out = []
    for i0, i1 in merged:
        idx = np.arange(i0, i1) % n
        s0, s1 = float(line.s[idx[0]]), float(line.s[idx[-1]])
        pad = 1.5 * L / len(s_corner)  # a rule binding at a corner just outside the stretch moved it too
        inside = ((s_corner - s0) % L <= (s1 - s0) % L + pad) | ((s0 - s_corner) % L <= pad)
        causes = tuple(
            c for c, m in (("radius", st.curv), ("clearance", st.push), ("paper", st.paper)) if m[inside].any()
        )
        what = _describe(causes, st, inside, s_corner, line, unit_mm)
        units = (_unit_of(s0, line, unit_mm), _unit_of(s1, line, unit_mm))
        out.append(Change(s0, s1, units, float(dev[idx].max()), causes, what))
    return out


def _describe(causes, st: _State, inside: np.ndarray, s_corner: np.ndarray, line: Line, unit_mm: float) -> str:
    parts = []
    if "radius" in causes:
        # which way the corners held at the bound turn: both ways is a chicane (or esses)
        X = st.X
        a, c = np.roll(X, 1, axis=0), np.roll(X, -1, axis=0)
        cross = (X - a)[:, 0] * (c - X)[:, 1] - (X - a)[:, 1] * (c - X)[:, 0]
        side = np.sign(cross[inside & st.curv])
        both = (side > 0).any() and (side < 0).any()
        parts.append("chicane opened to the minimum radius" if both else "bend widened to the minimum radius")
    if "clearance" in causes:
        others = st.partner[inside & st.push]
        us = sorted({_unit_of(float(s_corner[o]), line, unit_mm) for o in others[others >= 0]})
        parts.append(f"kept clear of {_span(us[0], us[-1])}" if us else "kept clear of another part")
    if "paper" in causes:
        parts.append("kept on the paper")
    return "; ".join(parts) if parts else "carried along by the change next to it"
