"""Formula D boards of real circuits: a centre-line CSV ruled per lane on A2 (A1 if A2 has no 6th-gear straight),
its corners found from the board's curvature and their stops from the real circuit's radius.

The rules and their reasons are data, in ``templates/formula-d/real-circuits.yaml``. The board is built by the
circuit engine as any other (the shape-keeping adaptation of ``generator/track/adapt.py``); this module only
chooses the paper and declares the corners on the built :class:`~generator.track.Circuit`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from . import facts


def settings() -> dict:
    return facts.GAME.facts("real-circuits.yaml")


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


def real_bends(circuit) -> list[tuple[float, float]]:
    """Each of the circuit's corners measured on the real centre line (the stretch nearest the board's corner):
    its tightest radius (metres; circles through points ``radius_step_m`` apart) and how far it turns (degrees)."""
    from ...track.adapt import to_page
    from ...track.load import read_points

    spec = circuit.spec
    if spec.csv is not None:
        csv = Path(spec.csv)
        if not csv.is_absolute() and circuit.source is not None:
            csv = Path(circuit.source).parent / csv
        P = read_points(csv)
    else:
        P = np.asarray(spec.points, dtype=float)
    if spec.start.reverse:  # raced the other way round, as the build took it
        P = np.vstack((P[:1], P[:0:-1]))
    if circuit.source_to_page is None:
        return [(math.inf, k.angle) for k in circuit.corners]
    closed = np.vstack((P, P[:1]))
    s = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(closed, axis=0), axis=1))))
    lap = float(s[-1])

    def at(x: np.ndarray) -> np.ndarray:
        x = x % lap
        return np.column_stack((np.interp(x, s, closed[:, 0]), np.interp(x, s, closed[:, 1])))

    page = to_page(P, *circuit.source_to_page)
    h = float(settings()["radius_step_m"])
    out = []
    for k in circuit.corners:
        ss = np.linspace(k.s_start, k.s_end, 24) % circuit.lap_length
        near = [int(np.argmin(np.hypot(*(page - p).T))) for p in circuit.line.point(ss)]
        a, b = float(s[near[0]]), float(s[near[-1]])
        if b < a:
            b += lap
        xs = np.arange(a, b + 1e-9, max(lap / 4000, 0.5))
        r = _circumradius(at(xs - h), at(xs), at(xs + h))
        d = np.diff(at(xs), axis=0)
        heading = np.unwrap(np.arctan2(d[:, 1], d[:, 0])) if len(d) else np.zeros(1)
        out.append((float(r.min()) if len(r) else math.inf, abs(math.degrees(float(heading[-1] - heading[0])))))
    return out


def stops_for(radius_m: float, angle_deg: float = 180.0) -> int | None:
    """Stops for a corner of tightest real radius ``radius_m`` turning ``angle_deg`` (None: taken flat out, no
    corner)."""
    cfg = settings()
    if angle_deg < float(cfg["kink_deg"]) and radius_m > float(cfg["kink_flat_out_m"]):
        return None
    for row in cfg["stops_by_real_radius"]:
        if row["max_radius_m"] is None or radius_m <= float(row["max_radius_m"]):
            return int(row["stops"])
    return 1


def declare_corners(circuit):
    """``circuit`` with its corners declared from the real circuit: flat-out bends dropped, every other corner
    given its stops (by real radius, never more than its shortest path has spaces)."""
    from .corners import corner_paths

    kept = []
    for k, (r, turn) in zip(circuit.corners, real_bends(circuit), strict=True):
        # the real bend's own turn: a bend the adaptation made where the real line runs straight is no corner
        stops = stops_for(r, turn)
        if stops is None:
            continue
        kept.append(replace(k, stops=stops))
    out = []
    for k in _merge_overlapping(kept, circuit.lap_length):
        short = corner_paths(circuit.graph, k.s_start, k.s_end).short
        out.append(replace(k, stops=max(1, min(k.stops, short))))
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


def _merged(a, b):
    tight = a if a.radius <= b.radius else b
    wide = a if a.angle >= b.angle else b
    return replace(
        wide,
        s_start=min(a.s_start, b.s_start),
        s_end=max(a.s_end, b.s_end),
        apex=tight.apex,
        radius=tight.radius,
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


def grid_shift(circuit) -> float:
    """How far (mm, forward round the lap) to move the start line so that the grid behind it (one row of
    ``lanes`` slots per space) stands clear of every corner: 0 when it already does, else the nearest such place
    either way (a real line's first point is its timing line, often just past a chicane)."""
    from ...track.features import grid_rows

    L = circuit.lap_length
    u = circuit.unit_length
    need = (grid_rows(circuit) + 0.5) * u  # the grid's rows and half a space of room before the line

    def clear(d: float) -> bool:
        a, b = d - need, d + u / 2  # the grid, and the first half space past the line
        for k in circuit.corners:
            for m in (-1, 0, 1):
                if a < k.s_end + m * L and k.s_start + m * L < b:
                    return False
        return True

    n = int(L // u)
    for j in range(n):
        for d in (j * u, -j * u):
            if clear(d):
                return d % L
    return 0.0


def _quiet_build(spec, path, lines, paper, edge):
    """Build, keeping the build's notices aside: a real circuit's corners are declared after the build, so the
    Formula D corner notices the build gave (on bends that may be no corner) are said again on the final board."""
    import warnings

    from ... import track as tr

    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        c = tr.build(spec, path, lines, paper, edge)
    return c, said


def real_board(spec, path, lines, paper=None, edge=None, adjust=None, choose_paper: bool = False):
    """Build a real circuit as a Formula D board, its corners declared from the real circuit and its start line
    moved (if need be) to put the grid clear of them. ``choose_paper`` (a bare CSV, no paper asked for): the first
    of the template's papers with a 6th-gear straight, else the first that builds. ``adjust(spec)`` edits the
    spec before each build (the pit lane, a road race)."""
    from ...errors import PaddockError
    from ...paper import DEFAULT_EDGE

    edge = DEFAULT_EDGE if edge is None else edge
    adjust = adjust or (lambda s: s)
    if not choose_paper:
        built = [(spec, *_quiet_build(adjust(spec), path, lines, paper, edge))]
    else:
        built, error = [], None
        for name in settings()["papers"]:
            s = formula_d_spec(spec, name)
            try:
                c, said = _quiet_build(adjust(s), path, lines, None, edge)
            except PaddockError as err:
                error = error or err
                continue
            built.append((s, c, said))
            if longest_straight(declare_corners(c)) >= int(settings()["sixth_gear_spaces"]):
                built = [built[-1]]
                break
        if not built:
            raise error
    spec, c, said = built[0]
    d = grid_shift(declare_corners(c))
    if d > 1e-6:
        at = round(spec.start.at + d / spec.unit, 3)
        spec = spec.model_copy(update={"start": spec.start.model_copy(update={"at": at})})
        c, said = _quiet_build(adjust(spec), path, lines, paper if not choose_paper else None, edge)
    out = declare_corners(c)
    _say_notices(out, c, said)
    return out


def _say_notices(declared, undeclared, said) -> None:
    """The build's own notices, but for its Formula D corner notes (on bends that may be no corner), which are
    replaced by those of the board's declared corners."""
    import warnings

    from ...notices import warn
    from ...track.checks import formula_d_corners

    old = {f"{undeclared.name}: {note}" for note in formula_d_corners(undeclared)}
    for w in said:
        if str(w.message) not in old:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    for note in formula_d_corners(declared):
        warn(f"{declared.name}: {note}")
