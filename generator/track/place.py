"""Putting a circuit on paper: which paper and orientation, how far to turn it, at what scale (points and CSV
only), centred in the page's content box clear of the printer's edge — and, when it does not fit, the smallest
paper it would fit (fit advice, from :data:`generator.paper.PAPERS`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..errors import InputError
from ..paper import PAPERS, PageSpec, Paper, PaperChoice, papers_by_area
from ..problems import Fix
from . import rules
from .adapt import TooMuchTrack, Unbuilt, adapt
from .centerline import Line, extent
from .circuit import GARAGE_D, KERB_W, PIT_GAP
from .fixes import OrientationFix, PaperFix
from .model import CircuitSpec, board_profile
from .problems import Report

ANGLES = [math.radians(a) for a in range(0, 180, 5)]  # the turns tried, radians
_COS_SIN = (np.array([math.cos(a) for a in ANGLES]), np.array([math.sin(a) for a in ANGLES]))  # as _bbox_rot's
FALLBACK_FAMILY = "iso"  # fit advice tries the paper family asked for and this one


class Placement(NamedTuple):
    paper: Paper
    angle: float  # radians, clockwise on the page
    scale: float  # paper mm per source unit
    fits: bool
    need: tuple[float, float]  # the footprint's width and height on the page, mm


def margin(spec: CircuitSpec) -> float:
    """Paper kept clear round the centre line on both sides: half the track, the kerbs, a hair."""
    return rules.margin(spec.lanes * spec.lane_width)


def pit_points(spec: CircuitSpec, line: Line, scale: float) -> np.ndarray:
    """Source-coordinate points of the pit lane's outer edge (garages included), for fitting the page."""
    if spec.pit is None:
        return np.zeros((0, 2))
    u = spec.unit / scale
    L = line.length
    s0 = (spec.pit.from_ - 1) * u
    s1 = spec.pit.to * u
    if s1 <= s0:
        s1 += L
    s = np.linspace(s0, s1, 60)
    off = (spec.lanes * spec.lane_width / 2 + PIT_GAP + spec.lane_width + GARAGE_D + 1.0) / scale
    sign = 1.0 if spec.pit.side == "left" else -1.0
    th = line.heading(s)
    return line.point(s) + np.column_stack((np.sin(th), -np.cos(th))) * off * sign


def content(paper: Paper, edge: float) -> tuple[float, float, float, float]:
    return PageSpec(paper, edge).content_box


def _bbox_rot(xy: np.ndarray, angle: float) -> tuple[float, float, float, float]:
    c, s = math.cos(angle), math.sin(angle)
    x = xy[:, 0] * c - xy[:, 1] * s
    y = xy[:, 0] * s + xy[:, 1] * c
    return float(x.min()), float(y.min()), float(x.max()), float(y.max())


def _bboxes_rot(xy: np.ndarray) -> list[tuple[float, float, float, float]]:
    """:func:`_bbox_rot` for every angle of :data:`ANGLES` at once (the same arithmetic, the same numbers)."""
    c, s = _COS_SIN
    x = xy[:, :1] * c - xy[:, 1:] * s
    y = xy[:, :1] * s + xy[:, 1:] * c
    return list(zip(*(v.tolist() for v in (x.min(0), y.min(0), x.max(0), y.max(0))), strict=True))


def papers(spec: CircuitSpec, paper: Paper | PaperChoice | None) -> list[Paper]:
    """The papers to try: exactly ``paper``; or its size (the spec's when None) in the orientation asked for —
    the choice's, else the spec's, both when that is 'auto'."""
    if isinstance(paper, Paper):
        return [paper]
    name = paper.name if paper is not None else spec.paper
    orient = paper.orientation if paper is not None and paper.orientation else spec.orientation
    if orient == "auto":
        return [Paper(name, "landscape"), Paper(name, "portrait")]
    return [Paper(name, orient)]


def place(
    spec: CircuitSpec, raw: Line, fixed_scale: float | None, paper: Paper | PaperChoice | None, edge: float
) -> Placement:
    """Choose paper orientation, rotation and (for points, ``fixed_scale`` None) scale for the centre line
    ``raw`` (already measured from the start line)."""
    m = margin(spec)
    step = max(1, len(raw.xy) // 600)
    xy = raw.xy[::step]
    boxes = _bboxes_rot(xy)
    # at a fixed scale the pit lane is the same at every angle: its points and their boxes made once
    fixed_pit = None
    if fixed_scale is not None and spec.pit is not None:
        fixed_pit = _bboxes_rot(pit_points(spec, raw, max(fixed_scale, 1e-6)))
    best = None
    for pi, pap in enumerate(papers(spec, paper)):
        _, _, W, H = content(pap, edge)
        for ai, ang in enumerate(ANGLES):
            x0, y0, x1, y1 = boxes[ai]
            w, h = x1 - x0, y1 - y0
            sc = fixed_scale if fixed_scale is not None else min((W - 2 * m) / max(w, 1e-9), (H - 2 * m) / max(h, 1e-9))
            for _ in range(2 if fixed_scale is None else 1):
                sc = max(sc, 1e-6)
                if spec.pit is None:
                    px0, py0, px1, py1 = x0, y0, x1, y1
                elif fixed_pit is not None:
                    px0, py0, px1, py1 = fixed_pit[ai]
                else:
                    px0, py0, px1, py1 = _bbox_rot(pit_points(spec, raw, sc), ang)
                lo_x, lo_y = min(x0 - m / sc, px0), min(y0 - m / sc, py0)
                hi_x, hi_y = max(x1 + m / sc, px1), max(y1 + m / sc, py1)
                need = ((hi_x - lo_x) * sc, (hi_y - lo_y) * sc)
                if fixed_scale is None:
                    sc = sc * min(W / need[0], H / need[1]) * 0.999
            need = (need[0], need[1]) if fixed_scale is not None else ((hi_x - lo_x) * sc, (hi_y - lo_y) * sc)
            slack = min(W - need[0], H - need[1])
            fits = slack >= -1e-6 and sc * min(w, h) > 0
            square = ang in (0.0, math.pi / 2)  # turned by a multiple of 90°: the drawing stays square to the page
            if fixed_scale is None:
                key = (fits, sc * (1.0 if ai == 0 else 0.985 if square else 0.97) * (1.0 if pi == 0 else 0.995))
            else:
                # keep the designer's drawing square to the page (upright first, on the preferred paper) whenever
                # that fits, and when nothing fits: a free rotation only where it is the one thing that fits
                key = (fits, square, ai == 0, pi == 0, slack)
            if best is None or key > best[0]:
                best = (key, pap, ang, sc, fits, need)
    _, pap, ang, sc, fits, need = best
    return Placement(pap, ang, sc, fits, need)


def centred(spec: CircuitSpec, placed: Line, paper: Paper, edge: float) -> Line:
    """``placed`` moved so its footprint (track, kerbs, pit lane) sits in the middle of the content box."""
    cx, cy, W, H = content(paper, edge)
    m = margin(spec)
    pts = np.vstack((placed.xy - m, placed.xy + m, pit_points(spec, placed, 1.0)))
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    shift = np.array([cx + (W - (x1 - x0)) / 2 - x0, cy + (H - (y1 - y0)) / 2 - y0])
    return Line(placed.s, placed.xy + shift, placed.th, placed.k)


def candidate_papers(paper: Paper) -> list[Paper]:
    """Every paper to try for a circuit that does not fit ``paper``: each size of its family (and of the
    fallback family) no smaller than it, smallest first, in both orientations — ``paper`` itself left out."""
    family = PAPERS[paper.name].family
    area = PAPERS[paper.name].short * PAPERS[paper.name].long
    out = []
    for size in papers_by_area():
        if size.family not in (family, FALLBACK_FAMILY) or size.short * size.long < area - 1e-6:
            continue
        if size.name == paper.name:
            orients = [paper.orientation, paper.rotated().orientation]
        else:
            orients = ["landscape", "portrait"]
        out += [Paper(size.name, o) for o in orients if Paper(size.name, o) != paper]
    return out


def fitting_paper(spec: CircuitSpec, raw: Line, fixed: float | None, paper: Paper, edge: float) -> Paper | None:
    """The smallest paper, in the orientation that fits, on which the builder would place ``raw``: each
    candidate is tried with every rotation, as :func:`place` does."""
    for cand in candidate_papers(paper):
        if place(spec, raw, fixed, cand, edge).fits:
            return cand
    return None


def _needs(need, have, label: str) -> str:
    """ "needs W × H mm but PAPER offers W × H mm (… too wide)", to as many decimals as show the overflow."""
    over = [n - h for n, h in zip(need, have, strict=True)]
    shows = [d for d in (0, 1, 2) if all(round(n, d) > round(h, d) for n, h in zip(need, have, strict=True) if n > h)]
    d = shows[0] if shows else 2
    too = [
        f"{o:.{d}f} mm too {word}" if round(o, d) else f"under 0.01 mm too {word}"
        for o, word in zip(over, ("wide", "tall"), strict=True)
        if o > 0
    ]
    w, h = (f"{v[0]:.{d}f} × {v[1]:.{d}f} mm" for v in (need, have))
    said = f"the circuit needs {w} but {label} offers {h}"
    return said + (f" ({', '.join(too)})" if too else "")


def fit_problem(report: Report, paper: Paper, need, ok: Paper | None, edge: float) -> None:
    """Report that the circuit needs ``need`` (w, h mm) but ``paper`` offers less; ``ok`` is a paper that fits."""
    _, _, W, H = content(paper, edge)
    fixes: tuple[Fix, ...] = ()
    if ok is None:
        largest = (candidate_papers(paper) or [paper])[-1]
        advice = f"shorten the circuit: it does not fit even {largest.size_label}"
    else:
        advice = f"it fits {ok.label}"
        choice = PaperChoice(ok.name, ok.orientation)
        if ok.name == paper.name:
            fixes = (OrientationFix(ok.orientation, now=paper.orientation, paper=choice),)
        else:
            fixes = (
                PaperFix(ok.name, now=paper.name, paper=choice),
                PaperFix(ok.name, now=paper.name, paper=choice, tile_onto=paper.name),
            )
    report.problem(
        "fit",
        _needs(need, (W, H), paper.label),
        advice,
        ("paper",),
        fixes=fixes,
        where="paper",
        numbers={"need_w_mm": need[0], "need_h_mm": need[1], "have_w_mm": W, "have_h_mm": H},
    )


# ------------------------------------------------------------------------------------------ a real centre line


def pit_margin(spec: CircuitSpec) -> float:
    """Paper kept clear round the centre line: :func:`margin`, or the pit lane and its garages when there is one
    (on either side: the adaptation does not know which side of every stretch it will lie)."""
    if spec.pit is None:
        return margin(spec)
    return spec.lanes * spec.lane_width / 2 + PIT_GAP + spec.lane_width + GARAGE_D + 1.0


def north_up_scale(Q: np.ndarray, box, m: float) -> float:
    """The largest scale at which the points ``Q`` (y down, not turned) fit the box ``(x, y, w, h)`` ``m`` inside."""
    w, h = extent(Q)
    return min((box[2] - 2 * m) / max(float(w), 1e-12), (box[3] - 2 * m) / max(float(h), 1e-12))


def lap_paper(spec: CircuitSpec, P: np.ndarray, scale: float, paper, edge: float):
    """Where a real line ``P`` (source units, y down) adapted north up at ``scale`` fits: (the first of the papers
    allowed that holds it or None, the allowed paper nearest to holding it, its footprint (w, h mm), the smallest
    larger paper that holds it or None)."""
    m = pit_margin(spec)
    w, h = (float(v) for v in extent(P))
    need = (w * scale + 2 * m, h * scale + 2 * m)
    allowed = papers(spec, paper)
    fits = lambda pap: north_up_scale(P, content(pap, edge), m) >= scale * (1 - 1e-9)  # noqa: E731
    ok = next((pap for pap in allowed if fits(pap)), None)
    nearest = max(allowed, key=lambda pap: north_up_scale(P, content(pap, edge), m))
    larger = None if ok is not None else next((pap for pap in candidate_papers(nearest) if fits(pap)), None)
    return ok, nearest, need, larger


def adapt_to(spec: CircuitSpec, P: np.ndarray, paper: Paper | PaperChoice | None, edge: float, work=None, scale=None):
    """A real centre line ``P`` (source units, y down, in the race direction from the start line) adapted to the
    board, keeping its shape (:mod:`.adapt`) → (paper, :class:`~generator.track.adapt.Adapted`).

    North stays up (a circuit turned on the page is much harder to recognise): of the papers allowed (both
    orientations when 'auto') the one with the larger north-up board is tried first, then the other. The
    engine's own rules are used: kerb width, the gap between two parts of the track, the margin kept round the
    track (and its pit lane). ``work``: what the fits may spend (:class:`~generator.track.fit.Work`, shared with the
    caller's other builds); raises :class:`~generator.track.adapt.Unbuilt` when it was spent before any board.
    ``scale`` (paper mm per source unit) fixes the size (a lap of ``--fit`` units) instead of the largest that fits."""
    north_xy = P * np.array([1.0, -1.0])  # x east, y north, as the adaptation takes it
    m = pit_margin(spec)
    cands = sorted(
        ((pap, content(pap, edge)) for pap in papers(spec, paper)),
        key=lambda pb: -north_up_scale(P, pb[1], m),
    )
    width = spec.lanes * spec.lane_width
    kw = dict(track_width_mm=width, kerb_mm=KERB_W, gap_mm=rules.GAP, margin_mm=m, unit_mm=spec.unit)
    # the game's room for a car in every unit (checks.check_room_for_car): a unit's inner edge holds `frac` of a
    # unit when the centre-line radius is half the track / (1 − frac), an inner border of (half the track) ×
    # frac / (1 − frac) — more than the adaptation's own least on a wide track
    frac = float(board_profile(spec.game).get("room_for_car") or 0.0)
    if 0 < frac < 1:
        kw["min_inner_radius_mm"] = max(rules.MIN_INNER_RADIUS, width / 2 * frac / (1 - frac))
    best = None
    refused = None
    field = "csv" if spec.csv else "points"
    for pap, box in cands:
        try:
            res = adapt(north_xy, paper_box_mm=box, rotation_deg=0.0, scale=scale, work=work, **kw)
        except TooMuchTrack as err:  # this way round; perhaps not the other
            refused = refused or err
            continue
        except Unbuilt as err:  # the work is spent: the best board so far, if any, says so
            if best is None:
                raise
            if not any(p.kind == "budget" for p in best[1].problems):
                best[1].problems.insert(0, err.problem)
            break
        except ValueError as err:  # points that make no loop (the loader refuses most of them first)
            raise InputError(str(err), field=field, hint="give points round a loop") from None
        if res.ok:
            return pap, res
        if best is None or len(res.problems) < len(best[1].problems):
            best = (pap, res)
    if best is None:
        raise InputError(
            refused.said(cands[0][0].label),
            field=field,
            hint="give the centre line of a circuit: a loop that goes round once, without zig-zags or spirals",
        )
    return best


def keeps_shape(spec: CircuitSpec) -> bool:
    """A centre line given as points or a CSV, not smoothed, is adapted to the board keeping its shape
    (:mod:`.adapt`), as large as the page allows or at the scale of a lap of ``fit`` units; smoothing takes the
    older smoothing path."""
    return spec.segments is None and not spec.smoothing
