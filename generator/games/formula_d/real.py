"""Formula D boards of real circuits: a centre-line CSV ruled per lane on A2 or A1, its corners declared from the
real circuit (:mod:`.real_corners`) and its longest real straight drawn longer where the board would otherwise hold
no 6th-gear move on it (:mod:`.real_line`).

The rules and their reasons are data, in ``templates/formula-d/real-circuits.yaml``. The board is built by the
circuit engine as any other (the shape-keeping adaptation of ``generator/track/adapt.py``); this module
chooses the paper and the stretch, moves the start line for the grid and words the legend's lines.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ...paper import PAPERS
from ...track import Analysis
from ...track.adapt import to_page
from ...track.features import grid_rows
from ...track.fidelity import measure
from ...track.model import CircuitSpec
from ...track.search import Policy, Tries
from .corners import corner_limits, corner_notes
from .real_corners import declare, declare_corners
from .real_line import (
    Shape,
    corner_mask,
    index_runs,
    longest_real_straight,
    plan_stretch,
    resampled,
    settings,
    stretched_shape,
)

#: Times the start line is moved for the grid (the board built with the line moved has its corners a little
#: elsewhere: checked again).
START_ROUNDS = 4


def is_real(spec) -> bool:
    """A centre line from the real world: a CSV (racetrack-database: metres), not segments drawn for a board nor
    points in any unit (their radii say nothing in metres: their corners get Paddock's suggested stops)."""
    return spec.csv is not None


def formula_d_spec(spec, paper: str):
    """A bare CSV's spec (f1-dice defaults) as a Formula D board on ``paper``: the game's lanes, widths and spaces."""
    return CircuitSpec.model_validate({"name": spec.name, "csv": spec.csv, "game": "formula-d", "paper": paper})


def longest_straight(circuit) -> int:
    """The most spaces between one corner's exit line and the next corner's entry line, counted in the lane where
    that stretch is shortest (a 6th-gear straight must hold the move in every lane); the whole lap without
    corners."""
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
    stretch lies in corners. A place where the line or the grid would stand at a crossing (a figure-eight's bridge:
    :func:`at_crossing`) is never chosen while another is left."""
    L = circuit.lap_length
    u = circuit.unit_length
    need = (grid_rows(circuit) + 0.5) * u  # the grid's rows and half a space of room before the line
    ahead = settings().start_clear_spaces * u

    def cornered(d: float) -> float:
        """How much of the grid and the first moves past the line lie in corners, mm (a crossing: a lap more)."""
        a, b = d % L - need, d % L + ahead  # within a lap of the corners: one lap either way covers it
        crossed = L if at_crossing(circuit, d) else 0.0
        return crossed + sum(
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


def at_crossing(circuit, d: float = 0.0) -> bool:
    """Whether a start line ``d`` mm further round the lap would stand, with its grid, at a crossing: a pass of
    the crossing (with the length the other pass covers, ``reach``) within 3 spaces after the line or within the
    grid's rows and a space before it — the room the circuit engine's check asks (``track/checks.py``), and half a
    space more each way, so the board built with the line there passes it."""
    if not circuit.crossings:
        return False
    L, u = circuit.lap_length, circuit.unit_length
    unit = max(u, circuit.unit)
    grid_len = grid_rows(circuit) * max(u, unit)
    for x in circuit.crossings:
        for p in (x.s_upper, x.s_lower):
            after = (p - d) % L  # how far past the line the pass lies
            if after < x.reach + 3 * unit + u / 2 or L - after < x.reach + grid_len + unit + u / 2:
                return True
    return False


def policy(request, adjust, choose_paper: bool = False) -> Policy:
    """How the search builds a real circuit (``request``: its spec, points, paper and choices) as a Formula D board
    (:meth:`generator.track.Search.run`): its corners declared from the real circuit, its start line moved (if
    need be) to put the grid clear of them. Where the real circuit has a straight long enough for top gear
    (``sixth_gear_stretch.real_straight_m``) and the board holds no 6th-gear straight as it is, that straight is
    lengthened (:func:`stretched`) until it does, up to ``max_stretch``. ``choose_paper`` (a bare CSV, or a spec
    that names no paper): the first of the template's papers that keeps ``keep_corners`` of the real corners and
    has a 6th-gear straight (lengthened or not; none needed where the real circuit has no long straight), else the
    first that builds. ``adjust(spec)`` edits the spec before each build (the pit lane, a road race)."""
    spec = request.spec
    placed = bool(spec.start.at)  # the spec places its start line itself (else: the real timing line)
    cfg = settings()
    how = cfg.sixth_gear_stretch
    want = cfg.sixth_gear_spaces
    real = Shape.of_points(request.points)
    Q = resampled(real.real, cfg.step_m)
    run = longest_real_straight(Q)
    straight_m = float(len(run) * np.hypot(*(Q[1] - Q[0])))
    long = straight_m >= how.real_straight_m
    # a board on too small a sheet merges the real circuit's corners into a few long ones: not the circuit
    corners_needed = math.ceil(cfg.keep_corners * len(index_runs(corner_mask(Q))))
    on = formula_d_spec if spec.game != "formula-d" else (lambda s, name: s.model_copy(update={"paper": name}))
    papers = [(spec, request.paper)] if not choose_paper else [(on(spec, name), None) for name in cfg.papers]
    requests = tuple(request.respec(s, paper=pap, tag=real) for s, pap in papers)

    def judge(tried, done) -> tuple[str, int]:
        """Good: 6th gear, or all a circuit with no long straight can have; small: too few of its corners kept."""
        declared = declare(done.circuit, tried.tag)
        n = longest_straight(declared.circuit)
        if declared.apart < corners_needed:
            return "small", n
        return ("good" if n >= want or not long else "poor"), n

    def reshape(tried, scores: list[int]):
        """The least stretch (and turn) predicted to give the straight 6th gear, more while the boards built from
        a stretch still count too few spaces."""
        extra = how.extra_spaces + sum(want - n for n in scores[1:])
        plan = plan_stretch(Q, run, tried.spec, tried.paper, tried.edge, (want + extra) * tried.spec.unit)
        return None if plan is None else tried.replace(tag=stretched_shape(Q, run, *plan))

    def finish(tried, done, moved: float) -> Analysis:
        c = done.circuit
        out = declare_corners(c, tried.tag)
        d, clear = grid_shift(out)
        clear = clear and d < 1e-6  # the grid where it stands: clear of every corner, or the least in one
        if tried.tag is not real:
            out = _measured_against_real(out, tried.tag, tried.spec)
        papers_tried = [r.spec.paper for r in requests]
        notes = _notes(out, moved % out.lap_length, clear, straight_m, long, papers_tried, tried.spec, placed)
        out = replace(out, notes=out.notes + notes)
        notices = _notices(out, c, done.notices)
        return Analysis(out.spec, request.source, request.paper, out, [], list(out.changes), notices, tried)

    return Policy(
        spec=lambda tried: adjust(_from(tried.spec, tried.tag, real)),
        shift=grid_shift,
        crossed=at_crossing,
        layer=lambda tried, c: declare_corners(c, tried.tag),
        rounds=START_ROUNDS,
        tries=Tries(requests, how.tries, judge, reshape, finish),
    )


def _notes(
    c, moved: float, clear: bool, straight_m: float, long: bool, tried: list[str], spec, placed: bool = False
) -> tuple[str, ...]:
    """The legend's lines on how the board differs from the real circuit: where its start line lies (and that the
    grid could not be kept clear of every corner), that it has no pit lane, that it has no 6th-gear straight (and
    why). ``tried``: the papers built; ``spec``: as given (a pit lane of its own is left out only by a road race,
    which needs no word); ``placed``: the spec placed the start line itself (the move is said from there)."""
    say = settings().legend
    out = []
    if moved > 1e-6:
        L, u = c.lap_length, c.unit_length
        n, way = (moved, "after") if moved <= L / 2 else (L - moved, "before")
        n = max(1, round(n / u))
        line = say.start_moved if clear else say.start_moved_least
        one = say.spec_start if placed else say.real_start  # from where the spec put it, or the timing line
        out.append(line.format(n=n, spaces="space" if n == 1 else "spaces", way=way, one=one))
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


def _notices(declared, undeclared, notices: list[str]) -> list[str]:
    """The build's own notices, but for its Formula D corner notes (on bends that may be no corner), which are
    replaced by those of the board's declared corners."""
    old = {f"{undeclared.name}: {note}" for note in corner_notes(undeclared)}
    return [n for n in notices if n not in old] + [f"{declared.name}: {note}" for note in corner_notes(declared)]
