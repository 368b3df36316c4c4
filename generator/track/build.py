"""From a validated spec to a placed circuit — the order of the steps, each done by its own module:

shape (:mod:`.shape`) → start line → placement on paper (:mod:`.place`) → features (:mod:`.features`), each
checked right after it is built (:mod:`.checks`) → per-lane spaces (:mod:`.spaces`).

:func:`analyse` never raises for geometry: it returns an :class:`Analysis` with the circuit (when there is one to
return) and every :class:`~generator.problems.Problem`, which ``paddock check`` prints. :func:`build`
raises one :class:`~generator.errors.GeometryError` listing them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..paper import DEFAULT_EDGE, Paper, PaperChoice
from ..problems import Fix, Problem, geometry_error
from . import checks, features
from .centerline import extent
from .circuit import Circuit
from .load import csv_path, source_points
from .model import CircuitSpec
from .place import (
    adapt_to,
    centred,
    content,
    fit_problem,
    fitting_paper,
    keeps_shape,
    lap_paper,
    papers,
    place,
)
from .problems import Report
from .shape import points_line, polyline_length, segments_line
from .spaces import lane_graph

#: A game's notes on a board of that game for its designer, in words (warnings, not problems): the hook a game
#: supplies (``generator.games.board_notes`` looks up the spec's game); the engine knows no game's rules.
Notes = Callable[[Circuit], list[str]]


@dataclass
class Analysis:
    """What building a spec gave: the circuit (None when its centre line could not be made) and its problems."""

    spec: CircuitSpec
    source: Path | None
    paper: Paper | PaperChoice | None  # the paper asked for (None: the spec's own)
    circuit: Circuit | None
    problems: list[Problem]
    changes: list[str]  # what 'close: auto' changed, in words

    @property
    def buildable(self) -> bool:
        return self.circuit is not None and not self.problems


def analyse(
    spec: CircuitSpec,
    path: str | Path | None = None,
    lines=None,
    paper: Paper | PaperChoice | None = None,
    edge: float = DEFAULT_EDGE,
    *,
    advice: bool = True,
    keep_shape: bool = True,
    notes: Notes | None = None,
) -> Analysis:
    """Build what can be built; raises only InputError (for points that cannot make a loop).

    With ``advice`` (the default) every fix a problem suggests has been tried: only fixes that build are kept
    (a smoothing or lap length too small is raised until it builds, within :data:`TRIALS` builds). Without
    ``keep_shape`` a centre line of points is never adapted to the board's rules (:func:`keeps_shape`): for a
    caller that checks the line by rules of its own (a Monaco road). ``notes``: the board's game's notes for its
    designer (``generator.games.board_notes``), said as warnings for every circuit built without a problem."""
    # the centre line's points, read once for every build this analysis makes (a start moved for the grid, the
    # fixes tried): a 300,000-point file is not read and compared again for each
    from .adapt import RUN_WORK
    from .fit import run_budget

    seen: dict = {}
    with run_budget(RUN_WORK):  # every adaptation this analysis makes (fixes tried too) spends from one budget
        done = _analyse(spec, path, lines, paper, edge, keep_shape, seen, notes)
        done = _start_for_grid(done, spec, path, lines, paper, edge, keep_shape, seen, notes)
        if not done.spec.crossings:
            for i, p in enumerate(done.problems):
                if p.kind == "crossing" and p.field == "crossings" and not p.fixes:
                    done.problems[i] = replace(p, fixes=(Fix("crossing", "bridge"), Fix("crossing", "tunnel")))
        if advice and done.problems:
            _try_fixes(done, lines, edge, seen, notes)
    return done


def _start_for_grid(done: Analysis, spec, path, lines, paper, edge, keep_shape, seen=None, notes=None) -> Analysis:
    """A spec (or a bare centre line) that does not place its start line gets one where its grid stands on straight
    track: the nearest place round the lap where every row of the grid, and the unit after the line, turns at
    most ``ROW_TURN_DEG`` and the grid at most ``GRID_TURN_DEG`` in all (its slots stay rectangular in their
    lanes), else the straightest place the lap has (:func:`.grid.grid_starts`). The move is said as a change."""
    from .grid import (
        clear_of_crossings,
        fewer_for_straight,
        grid_score,
        grid_starts,
        grid_turns,
        real_line_grid,
    )

    c = done.circuit
    # a line of points (a real circuit) has its start moved off a crossing; a designer's segments keep theirs
    at_crossing = [p for p in done.problems if p.kind == "crossing" and p.field == "start" and spec.segments is None]
    movable = [p for p in done.problems if p.kind == "grid"] + at_crossing  # what moving the start line mends
    placed = Report(path, lines).line_of("start") is not None and spec._start != "auto"
    if c is None or len(movable) < len(done.problems) or placed or spec._start in ("real", "placed"):
        return done
    by_unit = spec.pit or spec.corners is not None or isinstance(spec.kerbs, list) or spec.danger or spec.police_line
    if by_unit:  # the spec numbers units from where the line is now: moving it would move them too
        return done
    starts = clear_of_crossings(c, grid_starts(c) or ([0.0] if at_crossing else []))
    grid = spec.grid
    if starts and keeps_shape(spec) and "grid" not in spec.model_fields_set:
        # a real line's default grid where no place holds it all on straight track: as many cars as one does
        starts, grid = fewer_for_straight(c, starts)
        real = real_line_grid(spec, c, starts, grid, at_crossing)
        if real is not None:
            again = _analyse(real, path, lines, paper, edge, keep_shape, seen, notes)
            if again.buildable:
                fix = None  # the whole grid where it stands on straight track, said only if it builds
                if real.grid < grid:
                    whole = _started(spec, starts[0], grid, c.lap_length)
                    if _analyse(whole, path, lines, paper, edge, keep_shape, seen, notes).buildable:
                        fix = starts[0]
                return _kept_real_line(again, spec, grid, fix)
    if not starts or (starts[0] == 0 and not movable and grid == spec.grid):
        return done
    for t in starts[:3]:  # the next best when a place cannot be built (a crossing at the grid, say)
        moved = _started(spec, t, grid, c.lap_length)
        at = moved.start.at
        again = _analyse(moved, path, lines, paper, edge, keep_shape, seen, notes)
        if again.buildable:
            break
    else:
        return done
    fewer = grid < spec.grid
    turns = grid_turns(again.circuit, 0.0) if again.circuit is not None else grid_turns(c, t)
    straight = grid_score(turns) <= 1
    if fewer:
        _fewer(again, spec, grid)
    by, way = abs(t) / spec.unit, "forward" if t > 0 else "back"
    if t != 0:
        where = (
            "stands on straight track behind it"
            if straight
            else "stands on the straightest stretch of the lap (none is straight for all of it: its rows turn up to "
            f"{turns[1:].max():.0f}° each)"
        )
        again.changes.append(
            f"start line moved {by:g} unit{'s' if by != 1 else ''} {way} (start.at {at:g}), so the grid of {grid} "
            f"{where}"
        )
    moved_c = again.circuit
    if moved_c is not None and keeps_shape(spec) and spec.start.at == 0 and by >= 1:  # the real line, marked
        why = "on straight track" if straight else "on the straightest track"
        moved_c.real_start = (
            float(-t % moved_c.lap_length),
            f"real start line: the race starts {by:g} unit{'s' if by != 1 else ''} "
            f"{'after' if t > 0 else 'before'} it, its grid {why}",
        )
    return again


def _started(spec, t: float, grid: int, lap_length: float):
    """``spec`` with its start line ``t`` mm on from where it is now (round the lap) and a grid of ``grid``."""
    from .grid import start_sign

    at = round((spec.start.at + start_sign(spec) * t / spec.unit) % (lap_length / spec.unit), 3)
    return spec.model_copy(update={"start": spec.start.model_copy(update={"at": at}), "grid": grid})


def _fewer(again: Analysis, spec, grid: int) -> Analysis:
    """Said of a board whose grid is ``grid`` where ``spec`` asked more: no straight of the circuit holds more."""
    again.changes.append(
        f"a grid of {grid} (not {spec.grid}): no straight of the circuit holds more cars on straight track"
    )
    if again.circuit is not None:
        again.circuit.notes = (*again.circuit.notes, f"a grid of {grid}: no straight holds more")
    return again


def _kept_real_line(again: Analysis, spec, grid: int, move: float | None) -> Analysis:
    """The board kept at the real start line with a smaller grid than ``grid`` (or the ``grid`` no straight holds
    more than), said with the fix that gives the whole grid: the start line ``move`` mm on (None: none builds)."""
    cars = again.spec.grid
    c = again.circuit
    if cars == grid:  # as many as any straight holds: the real line holds them too
        return _fewer(again, spec, grid)
    fix = ""
    if move is not None:
        by, way = abs(move) / spec.unit, "forward" if move > 0 else "back"
        fix = f"; --grid {grid} moves the start line {by:g} units {way}, where {grid} stand on straight track"
    again.changes.append(f"a grid of {cars} (not {spec.grid}) behind the real start line, the most it holds{fix}")
    c.notes = (*c.notes, f"a grid of {cars} behind the real start line: no more fit there")
    return again


#: An adapted board further than this (% of its diagonal) from the real line is said to keep the shape loosely.
LOOSE_PCT = 8.0
#: At most this many extra builds are spent trying the fixes of one analysis.
TRIALS = 8
#: Ladders a failing fix climbs: smoothing (mm) × these, lap length (units) × these.
SMOOTHING_LADDER = (1, 2, 4, 8)
FIT_LADDER = (1, 1.5, 2)


def _try_fixes(done: Analysis, lines, edge: float, seen=None, notes=None) -> None:
    """Keep, in every problem of ``done``, only the fixes that build (each tried once, whatever problem asked)."""
    from .load import override

    budget = [TRIALS]
    tried: dict = {}

    def builds(fix) -> bool:
        key = (fix.field, fix.value, fix.paper, fix.tile_onto)
        if key not in tried:
            if budget[0] <= 0:
                return False
            budget[0] -= 1
            try:
                spec = done.spec
                if fix.field in ("smoothing", "fit", "lanes"):
                    spec = override(spec, {fix.field: fix.value}, done.source)
                    spec._crossing = done.spec._crossing
                if fix.field == "crossing":
                    spec = spec.model_copy()
                    spec._crossing = fix.value
                if fix.field == "start.at":  # the start line there, as given
                    spec = spec.model_copy(update={"start": spec.start.model_copy(update={"at": fix.value})})
                    spec._start = "placed"
                if fix.field == "grid":  # a smaller grid, its start line placed for it as the build places it
                    spec = spec.model_copy(update={"grid": fix.value})
                    spec._grid_asked = True
                if fix.field == "start":  # Paddock places the start line
                    spec = spec.model_copy()
                    spec._start = "auto"
                paper = fix.paper if fix.paper is not None else done.paper
                again = _analyse(spec, done.source, lines, paper, edge, seen=seen, notes=notes)
                # as the command builds it when the fix is followed: its start line placed for its grid
                again = _start_for_grid(again, spec, done.source, lines, paper, edge, True, seen, notes)
                tried[key] = again.buildable
            except Exception:  # a fix the spec cannot take is not advice
                tried[key] = False
        return tried[key]

    def working(fix):
        if fix.field == "smoothing":
            ladder = sorted({min(500.0, float(fix.value) * f) for f in SMOOTHING_LADDER})
        elif fix.field == "fit" and isinstance(fix.value, int):
            ladder = sorted({min(2000, round(fix.value * f / 5) * 5) for f in FIT_LADDER})
        elif fix.field == "grid":  # the most cars that build, of a few fewer
            step = max(1, done.spec.lanes)
            ladder = sorted({max(step, fix.value * k // 4 // step * step) for k in (4, 3, 2, 1)}, reverse=True)
        else:
            ladder = [fix.value]
        for v in ladder:
            cand = replace(fix, value=v)
            if builds(cand):
                return cand
        return None

    for i, p in enumerate(done.problems):
        if not p.fixes:
            continue
        kept = tuple(f for f in (working(f) for f in p.fixes) if f is not None)
        if kept != p.fixes:
            advice = p.advice
            if not kept and not advice:
                advice = "none of the options tried builds it (more smoothing, a longer lap, fewer lanes)"
            done.problems[i] = replace(p, fixes=kept, advice=advice)


def _analyse(spec, path, lines, paper, edge, keep_shape=True, seen: dict | None = None, notes=None) -> Analysis:
    """One build of ``spec``. ``seen`` (csv path -> points) keeps the points of a centre-line file already read by
    another build of the same analysis."""
    path = Path(path) if path else None
    report = Report(path, lines)

    def points():
        if seen is None or spec.csv is None:
            return source_points(spec, path, report)
        key = csv_path(spec, path)
        if key not in seen:
            seen[key] = source_points(spec, path, report)
        return seen[key]

    done = Analysis(spec, path, paper, None, report.problems, report.changes)
    if spec.segments is not None:
        raw = segments_line(spec, report)
        if raw is None:
            return done
        fixed = 1.0
        P = None
    elif keep_shape and keeps_shape(spec):
        return _adapted(done, report, spec, points(), paper, edge, notes)
    else:
        P = points()
        L_raw = polyline_length(P)
        if spec.fit == "page":
            _, _, W, H = content(papers(spec, paper)[0], edge)
            ext = float(extent(P).max())
            est = (min(W, H) + max(W, H)) / 2 / ext  # rough paper-mm per source unit
            fixed = None
        else:
            est = spec.fit * spec.unit / L_raw
        raw = points_line(spec, P, est)
        if spec.fit != "page":
            fixed = spec.fit * spec.unit / raw.length
    # start line and direction (start.at is in units: on paper for segments, estimated for points)
    sc0 = fixed if fixed is not None else place(spec, raw, None, paper, edge).scale
    start = spec.start.at * spec.unit / sc0
    if start >= raw.length:
        report.problem(
            "closure",
            f"the start is {spec.start.at:g} units along a lap of {raw.length * sc0 / spec.unit:.1f} units",
            "use a smaller 'start.at'",
            ("start", "at"),
            where="start.at",
        )
        start = 0.0
    raw = raw.rolled(start, spec.start.reverse)
    pap, ang, sc, fits, need = place(spec, raw, fixed, paper, edge)
    if not fits and fixed is None:
        sc = 1e-3  # a page too small for even the track's width: reported below
    placed = centred(spec, raw.transformed(ang, sc), pap, edge)
    if not fits:
        report.unfit = True
        fit_problem(report, pap, need, fitting_paper(spec, raw, fixed, pap, edge), edge)
    kind = spec._crossing
    if kind is None and P is not None:  # a real figure-eight, smoothed: a bridge as when its shape is kept
        from .adapt import crossings_count

        kind = "bridge" if crossings_count(P) else None
    done.circuit = c = _along(report, spec, placed, pap, sc, math.degrees(ang), edge, kind, notes)
    done.spec = c.spec
    if P is not None and fits:
        # the smoothed line measured against the real one, carried onto the page exactly as it was placed (a
        # survey-grade line thinned first, as the adaptation thins it: 6 s -> 0.1 s for 300,000 points)
        from .adapt import thinned
        from .fidelity import measure

        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        real = (P @ rot.T) * sc + (placed.xy[0] - (raw.xy[0] @ rot.T) * sc)
        c.fidelity = measure(placed.xy[:-1], thinned(real))[0]
        c.source_to_page = (sc, math.degrees(ang), tuple(float(v) for v in real[0] - (P[0] @ rot.T) * sc))
        c.north = (math.sin(ang), -math.cos(ang)) if spec.csv is not None else None
    return done


def _adapted(done: Analysis, report: Report, spec: CircuitSpec, P: np.ndarray, paper, edge: float, notes=None):
    """The circuit of a real centre line ``P`` (source units, y down), adapted keeping its shape."""
    from .adapt import Unbuilt

    if spec.start.reverse:
        P = np.vstack((P[:1], P[:0:-1]))
    try:
        lap = isinstance(spec.fit, int)
        if lap:  # the search for the lap's scale made once for the fixes and the start lines tried
            got = _cached((spec, paper, edge, "lap"), P, lambda: _adapt_lap(spec, P, paper, edge, report))
        else:
            got = _adapt_once(spec, P, paper, edge)
        if got is None:
            return done
        pap, res = got
    except InputError as err:  # a line that cannot be adapted: said of the user's file
        if err.file is None and report.path is not None:
            err.file = str(report.path)
            err.line = report.line_of("csv" if spec.csv else "points")
        raise
    except Unbuilt as err:  # this analysis's work was spent before this board was made: its limit, said
        p = err.problem
        report.problem(p.kind, p.message, p.advice, ("csv" if spec.csv else "points",), where=p.where)
        return done
    line = res.line
    start = spec.start.at * spec.unit
    if start >= line.length:
        report.problem(
            "closure",
            f"the start is {spec.start.at:g} units along a lap of {line.length / spec.unit:.1f} units",
            "use a smaller 'start.at'",
            ("start", "at"),
            where="start.at",
        )
    elif start > 0:
        line = line.rolled(start, False)
    for p in res.problems:
        if p.kind in ("closure", "fit"):
            report.problem(p.kind, p.message, p.hint, where=p.where, s=p.s, unit=p.unit, numbers=dict(p.numbers))
    # a real figure-eight (the adaptation keeps where the real line crosses itself): a bridge unless told otherwise
    kind = spec._crossing or ("bridge" if res.crossings else None)
    c = _along(report, spec, line, pap, res.scale, res.rotation_deg, edge, kind, notes)
    done.spec = c.spec
    c.fidelity = res.fidelity
    if res.fidelity.max_pct > LOOSE_PCT and not report.problems:
        from ..notices import warn

        warn(
            f"{spec.name}: the board keeps the real shape only loosely (up to {res.fidelity.max_mm:.0f} mm, "
            f"{res.fidelity.max_pct:.0f} % of its size, off the real line); a larger paper or fewer lanes keep it "
            "better"
        )
    c.source_to_page = (res.scale, res.rotation_deg, res.shift)
    c.north = res.north if spec.csv is not None else None
    c.notes = (*c.notes, *_bent(c, res, start))
    if c.graph is None:  # a board ruled in per-lane spaces says its merged corners its own way (its game's layer)
        from . import character

        legend, full = character.notes(c, res, start, P)
        c.notes = (*c.notes, *legend)
        report.changes.extend(full)
    done.circuit = c
    return done


def _bent(c, res, start: float) -> list[str]:
    """The legend's lines for the real line's straights the board could not keep straight (each turning more than
    :data:`.straights.BOARD_TOL_DEG`): where, by how much, and why."""
    from .straights import BOARD_TOL_DEG

    out = []
    for k in res.straights:
        if k.board_deg > BOARD_TOL_DEG:
            a, b = c.unit_at((k.s0 - start) % c.lap_length), c.unit_at((k.s1 - start) % c.lap_length)
            out.append(
                f"the straight at units {a}–{b} bends {k.board_deg:.0f}° here: the bends either side need its room "
                "at the board's least radius"
            )
    return out


#: The last few adaptations: (everything but the start line's place, the points, the result) (see _adapt_once).
_ADAPTED: list[tuple[tuple, np.ndarray, tuple]] = []


#: A lap of ``fit`` units is adapted at most this many times, its scale corrected each time by the lengths got.
LAP_TRIES = 6


def _adapt_lap(spec: CircuitSpec, P: np.ndarray, paper, edge: float, report: Report):
    """The real line ``P`` adapted keeping its shape at the scale of a lap of ``spec.fit`` units → (paper,
    :class:`~generator.track.adapt.Adapted`), or None (a "fit" problem said) when no paper allowed holds it.

    The adapted lap is not the real one's length times the scale (bends widened to the least radius cut their
    corners: Budapest's board is 13 % shorter), so the scale starts from the board as large as the page holds (the
    default board, kept when its lap is already ``fit`` units: ``--fit`` of the default's length builds the default
    board) and is corrected by the lengths got (in proportion, then between the closest shorter and longer laps); the
    closest lap is kept."""
    n = spec.fit
    want = n * spec.unit
    units = lambda got: max(1, round(got[1].line.length / spec.unit))  # noqa: E731
    tried = [_adapt_once(spec.model_copy(update={"fit": "page"}), P, paper, edge)]
    for _ in range(LAP_TRIES):
        if units(tried[-1]) == n:
            break
        short = [(g[1].scale, g[1].line.length) for g in tried if units(g) < n]
        long = [(g[1].scale, g[1].line.length) for g in tried if units(g) > n]
        if short and long:  # bracketed: the secant between the closest on each side, kept off their ends
            (s0, L0), (s1, L1) = max(short, key=lambda t: t[1]), min(long, key=lambda t: t[1])
            t = min(0.75, max(0.25, (want - L0) / (L1 - L0))) if L1 > L0 else 0.5
            scale = s0 + t * (s1 - s0)
        else:
            scale = tried[-1][1].scale * want / max(tried[-1][1].line.length, 1e-9)
        ok, nearest, need, larger = lap_paper(spec, P, scale, paper, edge)
        if ok is None:
            report.unfit = True
            fit_problem(report, nearest, need, larger, edge)
            return None
        tried.append(_adapt_once(spec, P, paper, edge, scale))
    return min(tried[1:] or tried, key=lambda got: (not got[1].ok, abs(got[1].line.length - n * spec.unit)))


def _adapt_once(spec: CircuitSpec, P: np.ndarray, paper, edge: float, scale: float | None = None):
    """:func:`adapt_to`, once for a line and a board: moving the start line (as placing the grid does) only rolls
    the adapted line, so the adaptation of the same points, rules and paper is reused rather than fitted again."""
    return _cached((spec, paper, edge, scale), P, lambda: adapt_to(spec, P, paper, edge, scale=scale))


def _cached(what: tuple, P: np.ndarray, make):
    """``make()``, or what it gave for the same ``what`` (spec, paper, edge, scale) and points ``P`` lately."""
    spec, *rest = what
    # the grid's size and the start line's place do not change the adaptation (adapt_to never reads them)
    key = (spec.model_dump_json(exclude={"start": {"at"}, "grid": True}), *(repr(v) for v in rest))
    for k, Q, res in _ADAPTED:
        # the same read-only array (a centre line read once), else the same numbers: compared, not copied into a
        # key and hashed (9.6 MB twice for a 300,000-point line)
        if k == key and ((Q is P and not P.flags.writeable) or (Q.shape == P.shape and np.array_equal(Q, P))):
            return res
    res = make()
    if res is not None:
        _ADAPTED.append((key, P if not P.flags.writeable else P.copy(), res))
        if len(_ADAPTED) > 4:
            _ADAPTED.pop(0)
    return res


def _along(
    report: Report,
    spec: CircuitSpec,
    line,
    paper: Paper,
    scale: float,
    rotation: float,
    edge: float,
    crossing: str | None = None,
    notes: Notes | None = None,
):
    """The circuit on its placed centre line: features built and checked, in the order problems are listed; with
    no problem, its game's ``notes`` said as warnings."""
    c = Circuit(
        spec=spec,
        source=report.path,
        name=spec.name,
        lanes=spec.lanes,
        lane_width=spec.lane_width,
        unit=spec.unit,
        paper=paper,
        line=line,
        scale=scale,
        rotation=rotation,
        units_count=max(1, round(line.length / spec.unit)),
        corners=[],
        kerbs=[],
        pit=None,
        crossings=[],
        graph=None,
        problems=report.problems,
        changes=report.changes,
        lines=report.lines,
        edge=edge,
    )
    if not checks.check_lap(report, c):
        return c
    checks.check_fold(report, c)
    checks.check_room_for_car(report, c)
    c.corners = features.corners(report, c)
    c.kerbs = features.kerbs(report, c)
    found = features.self_crossings(c.line)
    if found and not spec.crossings and crossing:
        # crossings found but none declared, and a kind for them (--crossing, or a real figure-eight): declare them
        from .model import Crossing

        c.spec = spec = spec.model_copy(update={"crossings": [Crossing(kind=crossing) for _ in found]})
        n = len(found)
        report.changes.append(f"the track crosses itself {'once' if n == 1 else f'{n} times'}: drawn as a {crossing}")
    c.crossings = features.crossings(c, found)
    checks.check_crossings(report, c, found)
    checks.check_proximity(report, c)
    c.pit = features.pit_lane(report, c, check=checks.check_pit)  # a bare centre line's gets one by its grid
    if c.pit is not None and spec.pit is not None:
        checks.check_pit(report, c)
    if spec.units == "per-lane":
        c.graph = lane_graph(c)
        c.danger_spaces = features.danger_spaces(c)
    c.grid = features.grid(c)
    c.grid_units = features.grid_units(c)
    checks.check_positions(report, c)
    checks.check_grid(report, c)
    if not report.problems and notes is not None:
        from ..notices import warn

        for note in notes(c):
            warn(f"{c.name}: {note}")
    return c


def build(
    spec: CircuitSpec,
    path: str | Path | None = None,
    lines=None,
    paper: Paper | PaperChoice | None = None,
    edge: float = DEFAULT_EDGE,
    notes: Notes | None = None,
) -> Circuit:
    """The circuit of ``spec``; raises one GeometryError listing every problem (``.problems`` keeps them)."""
    done = analyse(spec, path, lines, paper, edge, notes=notes)
    if done.problems:
        raise geometry_error(done.problems, done.source)
    return done.circuit
