"""Formula D boards of real circuits: a centre-line CSV ruled per lane on A2 or A1, its corners found from the
board's curvature and their stops from the real circuit's radius, and its longest real straight drawn longer where
the board would otherwise hold no 6th-gear move on it.

The rules and their reasons are data, in ``templates/formula-d/real-circuits.yaml``. The board is built by the
circuit engine as any other (the shape-keeping adaptation of ``generator/track/adapt.py``); this module
chooses the paper and the stretch, and declares the corners on the built :class:`~generator.track.Circuit`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from . import facts


def settings():
    """How a real circuit becomes a board (``real-circuits.yaml``, typed: :class:`.models.RealCircuits`)."""
    return facts.real()


def is_real(spec) -> bool:
    """A centre line from the real world: a CSV (racetrack-database: metres), not segments drawn for a board nor
    points in any unit (their radii say nothing in metres: their corners get Paddock's suggested stops)."""
    return spec.csv is not None


def formula_d_spec(spec, paper: str):
    """A bare CSV's spec (f1-dice defaults) as a Formula D board on ``paper``: the game's lanes, widths and spaces."""
    from ...track.model import CircuitSpec

    return CircuitSpec.model_validate({"name": spec.name, "csv": spec.csv, "game": "formula-d", "paper": paper})


def _circumradius(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    ab = np.linalg.norm(b - a, axis=-1)
    bc = np.linalg.norm(c - b, axis=-1)
    ca = np.linalg.norm(a - c, axis=-1)
    cross = np.abs((b - a)[:, 0] * (c - a)[:, 1] - (b - a)[:, 1] * (c - a)[:, 0])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(cross > 1e-12, ab * bc * ca / (2 * np.maximum(cross, 1e-12)), np.inf)


def real_bends(circuit, shape=None) -> list[tuple[float, float]]:
    """Each of the circuit's corners measured on the real centre line (the stretch nearest the board's corner):
    its tightest radius (metres; circles through points ``radius_step_m`` apart) and how far it turns (degrees).
    ``shape``: the :class:`Shape` the board was built from (default: the spec's own points, as they are)."""
    from ...track.adapt import from_page, to_page

    if circuit.source_to_page is None:
        return [(math.inf, k.angle) for k in circuit.corners]
    shape = shape or Shape.of(circuit.spec, circuit.source)
    src, P = shape.source, shape.real
    order = None  # point i of src is point order[i] of shape.source
    if circuit.spec.start.reverse:  # raced the other way round, as the build took it
        src, P = (np.vstack((X[:1], X[:0:-1])) for X in (src, P))
        order = np.concatenate(([0], np.arange(len(src) - 1, 0, -1)))
    closed = np.vstack((P, P[:1]))
    s = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(closed, axis=0), axis=1))))
    lap = float(s[-1])

    xs_, ys_ = np.ascontiguousarray(closed[:, 0]), np.ascontiguousarray(closed[:, 1])  # not copied at every call

    def at(x: np.ndarray) -> np.ndarray:
        x = x % lap
        return np.column_stack((np.interp(x, s, xs_), np.interp(x, s, ys_)))

    page = to_page(src, *circuit.source_to_page)
    h = settings().radius_step_m
    ends = [np.linspace(k.s_start, k.s_end, 24)[[0, -1]] % circuit.lap_length for k in circuit.corners]
    index = None
    if len(src) * 2 * len(ends) > NEAREST_BY_TREE:  # a survey-grade line: searched in its own coordinates
        scale, rotation, shift = circuit.source_to_page
        index = _Index(_tree(shape.source), lambda Q: from_page(Q, scale, rotation, shift), scale, order)
    nearest = _nearest_points(page, circuit.line.point(np.concatenate(ends)), index) if ends else []
    out = []
    for i, _k in enumerate(circuit.corners):
        a, b = float(s[nearest[2 * i]]), float(s[nearest[2 * i + 1]])
        if b < a:
            b += lap
        xs = np.arange(a, b + 1e-9, max(lap / 4000, 0.5))
        r = _circumradius(at(xs - h), at(xs), at(xs + h))
        d = np.diff(at(xs), axis=0)
        heading = np.unwrap(np.arctan2(d[:, 1], d[:, 0])) if len(d) else np.zeros(1)
        out.append((float(r.min()) if len(r) else math.inf, abs(math.degrees(float(heading[-1] - heading[0])))))
    return out


#: Above this many point pairs, the nearest points of a line are found through a tree (see _nearest_points).
NEAREST_BY_TREE = 2_000_000


@dataclass(frozen=True)
class _Index:
    """A tree over the points of ``P`` as they were in other coordinates, for :func:`_nearest_points`: ``to_tree``
    maps points of ``P``'s coordinates into the tree's, where distances are ``scale`` times shorter; leaf ``j`` of
    the tree is point ``order[j]`` of ``P`` (None: point ``j``)."""

    tree: object
    to_tree: Callable[[np.ndarray], np.ndarray]
    scale: float = 1.0
    order: np.ndarray | None = None


def _tree(P: np.ndarray):
    """An STRtree over the points of ``P``."""
    import shapely

    return shapely.STRtree(shapely.points(P))


def _nearest_points(P: np.ndarray, Q: np.ndarray, index: _Index | None = None) -> list[int]:
    """For each point of ``Q``, ``np.argmin(np.hypot(*(P - q).T))``: the index of its nearest point of ``P``, the
    lowest of equally near ones. Through an STRtree for a survey-grade ``P`` (a 300,000-point line measured point
    by point took seconds): its nearest distance bounds the candidates, which are then measured as above. ``index``:
    that tree already made, in other coordinates (see :class:`_Index`)."""
    if len(P) * len(Q) <= NEAREST_BY_TREE:
        return [int(np.argmin(np.hypot(*(P - q).T))) for q in Q]
    import shapely

    if index is None:
        index = _Index(_tree(P), lambda X: X)
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


# ------------------------------------------------------------------------------------------------ 6th gear


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
    def of(spec, source) -> Shape:
        from ...track.load import csv_path, read_points

        P = read_points(csv_path(spec, source)) if spec.csv is not None else np.asarray(spec.points, dtype=float)
        return Shape(P, P)


def _resampled(P: np.ndarray, step: float) -> np.ndarray:
    """The closed line ``P`` as points ``step`` apart (about) along it, the first point kept."""
    from ...track.centerline import arc_lengths, resample_loop

    return resample_loop(P, max(8, int(round(float(arc_lengths(P)[-1]) / step))))


def real_corners(Q: np.ndarray) -> np.ndarray:
    """Which points of the evenly spaced real line ``Q`` (metres) lie in a corner of the real circuit: a bend
    (radius under ``bend_radius_m``) that is not taken flat out (:func:`stops_for`)."""
    cfg = settings()
    h = float(np.hypot(*(Q[1] - Q[0])))
    k = max(1, int(round(cfg.radius_step_m / h)))
    r = _circumradius(np.roll(Q, k, 0), Q, np.roll(Q, -k, 0))
    d = np.roll(Q, -1, 0) - Q
    th = np.arctan2(d[:, 1], d[:, 0])
    dth = (np.roll(th, -1) - th + math.pi) % (2 * math.pi) - math.pi
    corner = np.zeros(len(Q), bool)
    for run in _runs(r < cfg.bend_radius_m):
        if stops_for(float(r[run].min()), abs(math.degrees(float(dth[run].sum())))) is not None:
            corner[run] = True
    return corner


def _runs(mask: np.ndarray) -> list[np.ndarray]:
    """The runs of True in the closed ``mask`` (a run over the end joined to the one at the start), as indices."""
    from ...track.centerline import cyclic_runs

    return [np.arange(a, b) % len(mask) for a, b in cyclic_runs(mask)]


def longest_real_straight(Q: np.ndarray) -> np.ndarray:
    """Indices of the longest run of the evenly spaced real line ``Q`` between two real corners (flat-out kinks
    included): the straight a real car takes in top gear."""
    runs = _runs(~real_corners(Q))
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
    stiff = np.where(real_corners(Q), cfg.corner_stiffness, 1.0)
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


def declare_corners(circuit, shape: Shape | None = None):
    """``circuit`` with its corners declared from the real circuit: flat-out bends dropped, every other corner
    given its stops (by real radius, never more than its shortest path has spaces). ``shape``: what the board
    was built from (default: the spec's points as they are)."""
    from .corners import corner_paths

    kept = []
    for k, (r, turn) in zip(circuit.corners, real_bends(circuit, shape), strict=True):
        # the real bend's own turn: a bend the adaptation made where the real line runs straight is no corner
        stops = stops_for(r, turn)
        if stops is None:
            continue
        kept.append(replace(k, stops=stops, real_radius_m=r))
    out = []
    join = settings().join_within_spaces * circuit.unit_length
    for k in _join_chicanes(_merge_overlapping(kept, circuit.lap_length), circuit.lap_length, join, 4 * join):
        short = corner_paths(circuit.graph, k.s_start, k.s_end).short
        # numbered round the lap on the board (C1 …) unless the spec names it: the `corners` table's rows
        name = k.name or settings().corner_name.format(n=len(out) + 1)
        out.append(replace(k, stops=max(1, min(k.stops, short)), name=name))
    return replace(circuit, corners=out)


def _merge_overlapping(corners: list, lap: float) -> list:
    """Bends found turning each way are found apart, so a short right-hand flick can lie inside a long left-hand
    complex: on the board one corner with one pair of lines, the stops of the slower part."""
    out: list = []
    for k in sorted(corners, key=lambda k: k.s_start):
        if out and k.s_start < out[-1].s_end:
            out[-1] = _merged(out[-1], k)
        else:
            out.append(k)
    while len(out) > 1 and out[-1].s_end > lap and out[-1].s_end - lap > out[0].s_start:  # over the line
        last = out.pop()
        first = out.pop(0)
        out.append(_merged(last, replace(first, s_start=first.s_start + lap, s_end=first.s_end + lap, apex=first.apex)))
    return out


def _join_chicanes(corners: list, lap: float, gap: float, longest: float) -> list:
    """A chicane: two short corners turning opposite ways less than ``gap`` (mm) apart, together no longer than
    ``longest``, are one corner (one pair of lines, the stops of the slower half, counted over both halves' spaces:
    a 1-space half can no longer cap a hairpin-slow chicane at 1 stop). Pairs only: a chain of bends stays apart."""
    out: list = []
    joined = False
    for k in corners:
        prev = out[-1] if out else None
        if (
            prev is not None
            and not joined
            and prev.direction != k.direction
            and k.s_start - prev.s_end < gap
            and k.s_end - prev.s_start <= longest
        ):
            out[-1] = replace(_merged(prev, k), direction=prev.direction)
            joined = True
        else:
            out.append(k)
            joined = False
    return out


def _merged(a, b):
    tight = a if a.radius <= b.radius else b
    wide = a if a.angle >= b.angle else b
    return replace(
        wide,
        s_start=min(a.s_start, b.s_start),
        s_end=max(a.s_end, b.s_end),
        apex=tight.apex,
        radius=tight.radius,
        real_radius_m=min(a.real_radius_m or math.inf, b.real_radius_m or math.inf),
        stops=max(a.stops, b.stops),
        name=a.name or b.name,
    )


def longest_straight(circuit) -> int:
    """The most spaces between one corner's exit line and the next corner's entry line, counted in the lane where
    that stretch is shortest (a 6th-gear straight must hold the move in every lane); the whole lap without
    corners."""
    from .corners import corner_limits

    g = circuit.graph
    if not circuit.corners:
        return min(g.count(lane) for lane in range(g.lanes))
    lims = [corner_limits(g, k.s_start, k.s_end) for k in circuit.corners]
    best = 0
    for i, lim in enumerate(lims):
        nxt = lims[(i + 1) % len(lims)]
        run = math.inf
        for lane in range(g.lanes):
            n, j = 0, g.spaces[lim.last[lane]].ahead
            while j != nxt.first[lane] and n <= g.count(lane):
                n, j = n + 1, g.spaces[j].ahead
            if n > g.count(lane) or j in lim.spaces:  # the corners meet or overlap here: no straight
                n = 0
            run = min(run, n)
        best = max(best, int(run))
    return best


def grid_shift(circuit) -> tuple[float, bool]:
    """How far (mm, forward round the lap) to move the start line so that the grid behind it (one row of
    ``lanes`` slots per space) and the first ``start_clear_spaces`` past it stand clear of every corner — 0 when
    they already do, else the nearest such place either way (a real line's first point is its timing line, often
    just past a chicane) — and whether that place is clear; where none is, the place where the least of that
    stretch lies in corners."""
    from ...track.features import grid_rows

    L = circuit.lap_length
    u = circuit.unit_length
    need = (grid_rows(circuit) + 0.5) * u  # the grid's rows and half a space of room before the line
    ahead = settings().start_clear_spaces * u

    def cornered(d: float) -> float:
        """How much of the grid and the first moves past the line lie in corners, mm."""
        a, b = d % L - need, d % L + ahead  # within a lap of the corners: one lap either way covers it
        return sum(
            max(0.0, min(b, k.s_end + m * L) - max(a, k.s_start + m * L)) for k in circuit.corners for m in (-1, 0, 1)
        )

    n = int(L // u)
    best = (math.inf, 0.0)
    for j in range(n):
        for d in (j * u, -j * u):
            over = cornered(d)
            if over <= 0.0:
                return d % L, True
            best = min(best, (over, d % L))
    return best[1], False


def _quiet_build(spec, path, lines, paper, edge):
    """Build, keeping the build's notices aside: a real circuit's corners are declared after the build, so the
    Formula D corner notices the build gave (on bends that may be no corner) are said again on the final board."""
    import warnings

    from ... import track as tr
    from .corners import corner_notes

    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        c = tr.build(spec, path, lines, paper, edge, notes=corner_notes)
    return c, said


def real_board(spec, path, lines, paper=None, edge=None, adjust=None, choose_paper: bool = False):
    """Build a real circuit as a Formula D board, its corners declared from the real circuit and its start line
    moved (if need be) to put the grid clear of them. Where the real circuit has a straight long enough for top
    gear (``sixth_gear_stretch.real_straight_m``) and the board holds no 6th-gear straight as it is, that
    straight is lengthened (:func:`stretched`) until it does, up to ``max_stretch``. ``choose_paper`` (a bare CSV,
    or a spec that names no paper): the first of the template's papers that keeps ``keep_corners`` of the real
    corners and has a 6th-gear straight (lengthened or not; none needed where the real circuit has no long
    straight), else the first that builds. ``adjust(spec)`` edits the spec before each build (the pit lane, a
    road race)."""
    from ...errors import PaddockError
    from ...paper import DEFAULT_EDGE

    edge = DEFAULT_EDGE if edge is None else edge
    adjust = adjust or (lambda s: s)
    cfg = settings()
    how = cfg.sixth_gear_stretch
    want = cfg.sixth_gear_spaces
    real = Shape.of(spec, path)
    Q = _resampled(real.real, how.step_m)
    run = longest_real_straight(Q)
    straight_m = float(len(run) * np.hypot(*(Q[1] - Q[0])))
    long = straight_m >= how.real_straight_m
    # a board on too small a sheet merges the real circuit's corners into a few long ones: not the circuit
    corners_needed = math.ceil(cfg.keep_corners * len(_runs(real_corners(Q))))
    on = formula_d_spec if spec.game != "formula-d" else (lambda s, name: s.model_copy(update={"paper": name}))
    tries = [(spec, paper)] if not choose_paper else [(on(spec, name), None) for name in cfg.papers]
    first = chosen = None
    error = None
    for s, pap in tries:
        # as it is first; then, for a real straight long enough, the least stretch (and turn) predicted to give
        # it 6th gear, more while the board built still counts too few spaces
        extra, plan = how.extra_spaces, None
        for _ in range(how.tries):
            shape = real if plan is None else _stretched_shape(Q, run, *plan)
            try:
                c, said = _quiet_build(adjust(_from(s, shape, real)), path, lines, pap, edge)
            except PaddockError as err:
                error = error or err
                break
            declared = declare_corners(c, shape)
            n = longest_straight(declared)
            first = first or (s, pap, shape, c, said)
            if len(declared.corners) < corners_needed:
                break
            if n >= want or not long:  # 6th gear, or all a circuit with no long straight can have
                chosen = (s, pap, shape, c, said)
                break
            if plan is not None:
                extra += want - n
            plan = plan_stretch(Q, run, s, pap, edge, (want + extra) * s.unit)
            if plan is None:
                break
        if chosen:
            break
    if first is None:
        raise error
    spec, pap, shape, c, said = chosen or first
    moved = 0.0
    for _ in range(4):  # the board built with the line moved has its corners a little elsewhere: checked again
        d, _ = grid_shift(declare_corners(c, shape))
        if d < 1e-6:
            break
        moved += d
        at = round(spec.start.at + d / spec.unit, 3)
        spec = spec.model_copy(update={"start": spec.start.model_copy(update={"at": at})})
        c, said = _quiet_build(adjust(_from(spec, shape, real)), path, lines, pap, edge)
    out = declare_corners(c, shape)
    d, clear = grid_shift(out)
    clear = clear and d < 1e-6  # the grid where it stands: clear of every corner, or the least in one
    if shape is not real:
        out = _measured_against_real(out, shape, spec)
    tried = [t[0].paper for t in tries]
    out = replace(out, notes=out.notes + _notes(out, moved % out.lap_length, clear, straight_m, long, tried, spec))
    _say_notices(out, c, said)
    return out


def _notes(c, moved: float, clear: bool, straight_m: float, long: bool, tried: list[str], spec) -> tuple[str, ...]:
    """The legend's lines on how the board differs from the real circuit: where its start line lies (and that the
    grid could not be kept clear of every corner), that it has no pit lane, that it has no 6th-gear straight (and
    why). ``tried``: the papers built; ``spec``: as given (a pit lane of its own is left out only by a road race,
    which needs no word)."""
    from ...paper import PAPERS

    say = settings().legend
    out = []
    if moved > 1e-6:
        L, u = c.lap_length, c.unit_length
        n, way = (moved, "after") if moved <= L / 2 else (L - moved, "before")
        n = max(1, round(n / u))
        line = say.start_moved if clear else say.start_moved_least
        out.append(line.format(n=n, spaces="space" if n == 1 else "spaces", way=way))
    elif not clear:
        out.append(say.grid_in_corner)
    if c.pit is None and spec.pit is None:
        out.append(say.no_pit)
    if longest_straight(c) < settings().sixth_gear_spaces:
        if not long:
            out.append(say.no_sixth_gear.format(m=round(straight_m, -1)))
        else:
            larger = [p for p in settings().papers if PAPERS[p].long > PAPERS[c.paper.name].long and p not in tried]
            line = say.no_sixth_gear_paper.format(paper=larger[-1]) if larger else say.no_sixth_gear_corners
            out.append(line)
    return tuple(out)


def _stretched_shape(Q: np.ndarray, run: np.ndarray, k: float, deg: float, orientation: str):
    """The real line ``Q`` with its straight ``run`` ``k`` times as long, turned ``deg`` anticlockwise."""
    from ...track.centerline import rotation

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
    from ...track.place import content, margin, papers

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


def _from(spec, shape: Shape, real: Shape):
    """``spec`` built from ``shape``: the spec itself when the shape is the real circuit as it is, else the spec
    with the lengthened points in place of its CSV (or points)."""
    if shape is real:
        return spec
    points = [(float(x), float(y)) for x, y in shape.source]
    return spec.model_copy(update={"csv": None, "points": points, "orientation": shape.orientation})


def _measured_against_real(c, shape: Shape, spec):
    """A board built from a lengthened shape, measured against the real circuit (not against the shape): the real
    line carried onto the page by the similarity (scale, turn, shift) that best fits it to where the board put
    the shape's points; north from the board's own turn; and the stretch, for the legend."""
    from ...track.adapt import to_page
    from ...track.fidelity import measure

    src, P = shape.source, shape.real
    if spec.start.reverse:
        src, P = (np.vstack((X[:1], X[:0:-1])) for X in (src, P))
    target = to_page(src, *c.source_to_page)
    real = P * np.array([1.0, -1.0])  # y down, as the page
    mr, mt = real.mean(axis=0), target.mean(axis=0)
    A, B = real - mr, target - mt
    U, S, Vt = np.linalg.svd(A.T @ B)
    if np.linalg.det(U @ Vt) < 0:  # a turn, never a mirror image
        U[:, -1] *= -1
        S[-1] *= -1
    R = U @ Vt
    scale = float(S.sum() / (A * A).sum())
    fidelity = measure(c.line.xy, (A @ R) * scale + mt)[0]
    north = np.array([0.0, -1.0]) @ R  # the real line's north (y down), turned as it lies on the board
    return replace(c, fidelity=fidelity, north=(float(north[0]), float(north[1])), stretch=shape.stretch)


def _say_notices(declared, undeclared, said) -> None:
    """The build's own notices, but for its Formula D corner notes (on bends that may be no corner), which are
    replaced by those of the board's declared corners."""
    import warnings

    from ...notices import warn
    from .corners import corner_notes

    old = {f"{undeclared.name}: {note}" for note in corner_notes(undeclared)}
    for w in said:
        if str(w.message) not in old:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    for note in corner_notes(declared):
        warn(f"{declared.name}: {note}")
