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
:func:`.qp.solve_qp`; the fit itself is :class:`.fit.Fit`):

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
of the solver (:mod:`.adapt_checks`, by the rules of :mod:`.rules`), and the changes are said in words
(:mod:`.changes`).

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
from dataclasses import dataclass, field

import numpy as np
import shapely

from ..problems import Problem
from .adapt_checks import check_adapted
from .centerline import Line, Piece, arc_lengths, extent, line_from_pieces, resample_loop, rotation
from .changes import Change
from .changes import changes as changes_of
from .circuit import KERB_W
from .fidelity import Fidelity, measure
from .fit import Fit, Work, run_work
from .rules import GAP, MIN_INNER_RADIUS, Rules
from .straights import BOARD_TOL_DEG, data_straights, heading_range, held_parts

#: A free rotation is used only when it makes the board at least this much larger (linear scale) than north up.
ROTATE_GAIN = 1.25
#: The board's corners are about this many minimum radii apart while fitting (12 mm on a 20 mm track: a bend of
#: the minimum radius is then drawn from a corner every 34°); the drawn line is sampled every mm.
SOLVER_STEP = 0.6
#: The gap a fitted lap leaves (spread round it) is a problem when larger than this fraction of the lap.
CLOSE_MAX = 0.002
#: The weights the fit holds the real line's straights straight with (:attr:`.fit.Fit.W_STRAIGHT`), tried in this
#: order while a straight still bends more than BOARD_TOL_DEG on the board: held firmly, not at all (a hairpin at
#: the end of a straight can be a local best the holding keeps it from), held very firmly.
STRAIGHT_WEIGHTS = (400.0, 0.0, 1500.0)
#: Choosing among those fits, each degree a straight bends beyond BOARD_TOL_DEG weighs as much as this much more
#: deviation (% of the board's diagonal).
BEND_PCT = 0.25
#: Scales tried, as fractions of the largest that fits, when the rules cannot all be met.
SCALE_LADDER = (1.0, 0.92, 0.84)
THIN = 1000  # a dense source line is thinned to points 1/THIN of its extent apart before it is adapted (_thin)
#: The fit has at most this many corners: a longer lap gets them further apart than SOLVER_STEP (its work grows as
#: the cube of their number; real circuits have 50–90 on A3, up to ~250 on A1).
MAX_CORNERS = 200
#: What one adaptation may spend fitting (see :class:`~generator.track.fit.Work`, counted per interior-point
#: iteration): ~1.5–3 s. The eight real circuits spend 20–1,420 million, the generated realistic ones up to 3,400
#: million; a 20-point random walk spent 20,900 million (7 s), and a 100-point one ran for minutes.
MAX_WORK = 6e9
#: What all the adaptations of one analysis may spend together: a Formula D board of a real circuit tries two
#: papers and its start lines, ``--fit N`` searches for the scale and tries the fixes it advises (real and
#: generated circuits spend up to 15,000 million in six). An adaptation that meets its own limit (a line no real
#: circuit is like) spends the analysis's too: the builds after it try nothing more.
RUN_WORK = 30e9


class Unbuilt(ValueError):
    """The work ran out before any board was made: the problem says so."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(problem.message)


class TooMuchTrack(ValueError):
    """A centre line longer, at the scale that fits the paper, than the sheet can hold at all (it zig-zags or
    spirals): refused before any fitting, with the limit and the value."""

    def __init__(self, lap_mm: float, most_mm: float, clearance_mm: float, track_mm: float) -> None:
        self.lap_mm, self.most_mm, self.clearance_mm, self.track_mm = lap_mm, most_mm, clearance_mm, track_mm
        super().__init__(self.said("the paper"))

    def said(self, paper: str) -> str:
        """The refusal, naming the paper."""
        return (
            f"the centre line is {self.lap_mm / 1000:.1f} m long on {paper} (at the largest scale that fits), more "
            f"than the sheet can hold: at most {self.most_mm / 1000:.1f} m of a {self.track_mm:g} mm track "
            f"{self.clearance_mm:g} mm apart"
        )


def capacity(box, rules: Rules) -> float:
    """The most track (mm of centre line) the content ``box`` can hold at all: every part of the track owns a strip
    a clearance wide, so no lap is longer than the area its centre line may cover divided by the clearance."""
    _, _, W, H = box
    C = rules.clearance
    return max(W - 2 * rules.margin + C, 0.0) * max(H - 2 * rules.margin + C, 0.0) / C


# ------------------------------------------------------------------------------------------------ results


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


@dataclass(frozen=True)
class Kept:
    """A straight of the real line (the part of it the board holds straight) and what became of it: ``u0``–``u1``
    along the real line on the page, ``s0``–``s1`` along the board (``s1 < s0``: over the start line), the range
    of the board's heading there (degrees)."""

    u0: float
    u1: float
    s0: float
    s1: float
    board_deg: float

    def as_dict(self) -> dict:
        return {"s0_mm": round(self.s0, 1), "s1_mm": round(self.s1, 1), "bend_deg": round(self.board_deg, 1)}


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
    straights: list[Kept] = field(default_factory=list)  # the real line's straights and how straight they stayed
    real: np.ndarray | None = None  # the real line on the page as fitted to (~1 mm samples)
    real_u: np.ndarray | None = None  # where on it (arc length) each of the fit's corners was fitted to ...
    board_s: np.ndarray | None = None  # ... and where that corner is on the board (arc length from the start line)

    @property
    def worst_bend(self) -> float:
        """The most any straight of the real line turns on the board (degrees; 0 with none)."""
        return max((k.board_deg for k in self.straights), default=0.0)

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
            "problems": [{k: v for k, v in p.as_dict().items() if k != "fixes"} for p in self.problems],  # none given
        }
        if centre_line:
            d["centre_line"] = np.round(self.line.xy[:-1], 2).tolist()
        return d


# ------------------------------------------------------------------------------------------------ page


def to_page(points_xy, scale: float, rotation_deg: float, shift) -> np.ndarray:
    """Source (x east, y north) → page mm (y down): flip y, rotate clockwise by ``rotation_deg``, scale, shift."""
    P = np.asarray(points_xy, dtype=float)[:, :2] * np.array([1.0, -1.0])
    return (P @ rotation(rotation_deg).T) * scale + np.asarray(shift, dtype=float)


def from_page(points_mm, scale: float, rotation_deg: float, shift) -> np.ndarray:
    """:func:`to_page` undone: page mm → source (x east, y north), to rounding. Distances shrink by ``scale``."""
    P = (np.asarray(points_mm, dtype=float)[:, :2] - np.asarray(shift, dtype=float)) / scale
    return (P @ rotation(rotation_deg)) * np.array([1.0, -1.0])


# ------------------------------------------------------------------------------------------------ adapt


def adapt(
    points_xy,
    *,
    paper_box_mm,
    track_width_mm: float,
    min_inner_radius_mm: float = MIN_INNER_RADIUS,
    kerb_mm: float = KERB_W,
    gap_mm: float = GAP,
    clearance_mm: float | None = None,
    margin_mm: float | None = None,
    unit_mm: float = 20.0,
    scale: float | None = None,
    rotation_deg: float | None = None,
    turn_paper: bool = False,
    work: Work | None = None,
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
    can). Raises ValueError for input that is not a loop (fewer than four distinct points, not finite), and
    :class:`TooMuchTrack` for a line longer than the paper can hold at any scale that fits it. ``work``: what the
    fits may spend (:class:`~generator.track.fit.Work`; default :data:`MAX_WORK`, shared by every try of the scale
    ladder); spent, the best board so far is returned with a "budget" problem.
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
    most = capacity(bx, rules)
    length = float(arc_lengths(P)[-1])
    ladder = tuple(sc for sc in ladder if length * sc <= most)  # refused before anything is made at that length
    if not ladder:
        raise TooMuchTrack(
            length * (scale if scale is not None else fit_scale * SCALE_LADDER[-1]),
            most,
            rules.clearance,
            rules.track_width,
        )
    work = work if work is not None else Work(MAX_WORK, within=run_work())
    best = None
    for sc in ladder:
        if work.out:
            break
        res = _attempt(P, sc, rot, bx, turned, rules, unit_mm, work)
        if best is None or res.ok or len(res.problems) < len(best.problems):
            best = res
        if res.ok:
            break
    if work.within is not None and work.spent >= work.limit:
        work.within.spent = max(work.within.spent, work.within.limit)  # no real circuit needs more: the run is over
    if best is not None and best.ok:
        return best
    if best is None or work.out:
        hit = work.binding
        budget = Problem(
            "budget",
            f"adapting the line stopped at Paddock's limit of work ({hit.limit / 1e6:,.0f} million, "
            f"{hit.spent / 1e6:,.0f} million spent)",
            "the centre line is too long or too twisty for this paper",
            where="lap",
            numbers={"limit": hit.limit, "spent": hit.spent},
        )
        if best is None:
            raise Unbuilt(budget)
        best.problems.insert(0, budget)
    return best


def _attempt(P, sc: float, rot: float, box, turned: bool, rules: Rules, unit_mm: float, work: Work) -> Adapted:
    """One adaptation at a fixed scale and rotation, centred in the box: fitted holding the real straights at the
    first of :data:`STRAIGHT_WEIGHTS`, and, where a straight still bends more than BOARD_TOL_DEG on the board (or
    the board breaks a rule), at the others too — the best kept (:func:`_score`)."""
    x0, y0, W, H = box
    page0 = to_page(P, sc, rot, (0.0, 0.0))
    lo, hi = page0.min(axis=0), page0.max(axis=0)
    shift = np.array([x0 + W / 2, y0 + H / 2]) - (lo + hi) / 2
    real = page0 + shift
    L = float(arc_lengths(real)[-1])
    R = resample_loop(real, max(64, math.ceil(L / 1.0)))  # the real line every ~1 mm, for nearest points
    real_crossings = _crossings_of(R)
    exempt = [(ua, ub, rules.crossing_reach(ang, unit_mm)) for ua, ub, _, ang in real_crossings]
    seg = np.diff(np.vstack((R, R[:1])), axis=0)
    th = np.unwrap(np.arctan2(seg[:, 1], seg[:, 0]))
    winding = round((th[-1] - th[0] + float(np.angle(np.exp(1j * (th[0] - th[-1]))))) / (2 * math.pi))
    # the real line's straights, less what the bends at their ends need at the least radius: kept straight
    straights = data_straights(R, unit_mm)
    held = held_parts(R, straights, unit_mm, rules.min_radius)
    h = max(SOLVER_STEP * rules.min_radius, L / MAX_CORNERS)
    best = None
    for weight in STRAIGHT_WEIGHTS if held else STRAIGHT_WEIGHTS[:1]:
        if best is not None and work.out:
            break
        fit = Fit(R, rules, box, h, exempt, winding, held, work, weight)
        res = _board(fit, fit.run(), real, R, sc, rot, shift, box, turned, rules, unit_mm, len(real_crossings))
        if best is None or _score(res) < _score(best):
            best = res
        if best.ok and best.worst_bend <= BOARD_TOL_DEG:
            break
    return best


def _score(res: Adapted) -> tuple:
    """How a board ranks among the fits of one line (lower is better): playable first, then its deviation (% of
    its diagonal) with each degree a held straight bends beyond BOARD_TOL_DEG counting as BEND_PCT."""
    excess = max(0.0, res.worst_bend - BOARD_TOL_DEG)
    return (not res.ok, len(res.problems), res.fidelity.max_pct + BEND_PCT * excess)


def _board(fit, st, real, R, sc, rot, shift, box, turned, rules, unit_mm, real_crossings: int) -> Adapted:
    """The board of a finished fit: its line from the start line, its problems, deviation, changes and straights."""
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
    problems += check_adapted(line, rules, box, unit_mm, crossings, real_crossings)
    fid, dev = measure(line.xy[:-1], real)
    changes = changes_of(line, np.append(dev, dev[0]), st, s_corner, unit_mm)
    kept = []
    now = fit.on_straight(fit.sigma)
    for k, (u0, u1) in enumerate(fit.straights):
        on = np.flatnonzero(now == k)
        if not len(on):
            continue
        corners = np.sort((on + 1) % fit.N)  # δ_k turns corner k+1: the corners held straight
        gaps = np.diff(np.append(corners, corners[0] + fit.N))
        first = corners[(int(np.argmax(gaps)) + 1) % len(corners)]
        last = corners[int(np.argmax(gaps))]
        s0, s1 = float(s_corner[first]), float(s_corner[last])
        kept.append(Kept(u0, u1, s0, s1, heading_range(line, s0, s1)))
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
        straights=kept,
        real=R,
        real_u=su,
        board_s=s_corner,
    )


# ------------------------------------------------------------------------------------------------ helpers


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


def _placement(Q: np.ndarray, box, margin: float, turn_paper: bool, rotation_deg: float | None):
    """(rotation_deg, scale, box, turned) giving the largest board: north up (on the paper as given, or turned
    when that is clearly larger) unless a free rotation is ROTATE_GAIN times larger still."""
    x0, y0, W, H = box
    boxes = [(box, False)] + ([((x0, y0, H, W), True)] if turn_paper and abs(W - H) > 1e-9 else [])
    hull = shapely.get_coordinates(shapely.convex_hull(shapely.multipoints(Q)))  # the extent, turned any way
    if len(hull) >= 3:
        Q = hull

    def scale_at(deg, b):
        w, h = np.ptp(Q @ rotation(deg).T, axis=0)
        return min((b[2] - 2 * margin) / max(w, 1e-12), (b[3] - 2 * margin) / max(h, 1e-12))

    if rotation_deg is not None:
        b, t = max(boxes, key=lambda bt: scale_at(rotation_deg, bt[0]))
        return float(rotation_deg), scale_at(rotation_deg, b), b, t
    best = (0.0, scale_at(0.0, boxes[0][0]), *boxes[0])
    if len(boxes) == 2 and scale_at(0.0, boxes[1][0]) > 1.02 * best[1]:  # turn the paper only for a clear gain
        best = (0.0, scale_at(0.0, boxes[1][0]), *boxes[1])
    free = max(((float(a), scale_at(a, b), b, t) for b, t in boxes for a in range(5, 180, 5)), key=lambda c: c[1])
    return free if free[1] >= ROTATE_GAIN * best[1] else best


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


def crossings_count(P: np.ndarray) -> int:
    """How often the closed line ``P`` (a real centre line, any units) crosses itself, thinned as :func:`adapt`
    thins it (survey noise a hair apart is not a crossing)."""
    P = np.asarray(P, dtype=float)[:, :2]
    Q = _clean(_thin(P, float(extent(P).max()) / THIN))
    return len(_crossings_of(Q)) if len(Q) >= 4 else 0


def _crossings_of(R: np.ndarray) -> list[tuple[float, float, tuple[float, float], float]]:
    """Self-crossings of the closed polyline R: (u_first, u_second, point, angle_deg) in its arc length."""
    n = len(R)
    C = np.vstack((R, R[:1]))
    u = arc_lengths(R)
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
