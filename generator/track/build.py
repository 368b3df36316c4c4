"""One build of a board: a :class:`~generator.track.request.BoardRequest` → an :class:`Analysis`, in order:

shape (:mod:`.shape`, or a real line adapted keeping its shape: :mod:`.adapt`) → start line → placement on paper
(:mod:`.place`) → features (:mod:`.features`), each checked right after it is built (:mod:`.checks`) → per-lane
spaces (:mod:`.spaces`).

:func:`build` is pure: it builds the request it is given, once — no retries, no caches, no warnings said. What
it changed of the spec is typed data (:mod:`.changed`); what a designer should read beside the board (a game's
notes, a shape kept only loosely) is ``notices``, said by whoever shows the board. Which requests to build (a
start line moved for the grid, a fix tried, a lap's scale, a paper) is :mod:`.search`'s to decide.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..paper import Paper, PaperChoice
from ..problems import Problem
from . import bent, character, checks, features
from .adapt import Unbuilt, crossings_count, thinned
from .centerline import extent
from .changed import BendLost, Change, CrossingsDrawn
from .circuit import Circuit
from .fidelity import measure
from .model import CircuitSpec, Crossing
from .place import adapt_to, centred, content, fit_problem, fitting_paper, keeps_shape, papers, place
from .problems import Report
from .request import BoardRequest
from .shape import points_line, polyline_length, segments_line
from .spaces import lane_graph
from .straights import BOARD_TOL_DEG

#: An adapted board further than this (% of its diagonal) from the real line is said to keep the shape loosely.
LOOSE_PCT = 8.0
#: What adapts a real line to a board (:func:`.place.adapt_to`, or a search's remembering one).
Adapt = Callable[..., tuple]


@dataclass
class Analysis:
    """What building a request gave: the circuit (None when its centre line could not be made), its problems,
    what it changed (typed, :mod:`.changed`), what a designer should read beside it (``notices``), and the
    request it was built from (what a fix or a moved start line builds on)."""

    spec: CircuitSpec
    source: Path | None
    paper: Paper | PaperChoice | None  # the paper asked for (None: the spec's own)
    circuit: Circuit | None
    problems: list[Problem]
    changes: list[Change]
    notices: list[str] = field(default_factory=list)
    request: BoardRequest | None = None

    @property
    def buildable(self) -> bool:
        return self.circuit is not None and not self.problems


def build(request: BoardRequest, adapt: Adapt = adapt_to) -> Analysis:
    """The board of ``request``, built once: its :class:`Analysis`. Raises only InputError (for points that
    cannot make a loop). ``adapt``: what adapts a real line to the board (a search passes its own, which
    remembers the lines it adapted)."""
    spec = request.spec
    report = request.report()
    paper, edge = request.paper, request.edge
    done = Analysis(spec, request.source, paper, None, report.problems, report.changes, request=request)
    if spec.segments is not None:
        raw = segments_line(spec, report)
        if raw is None:
            return done
        fixed = 1.0
        P = None
    elif request.keep_shape and keeps_shape(spec):
        return _adapted(done, report, request, spec, adapt)
    else:
        P = request.points
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
    kind = request.crossing
    if kind is None and P is not None:  # a real figure-eight, smoothed: a bridge as when its shape is kept
        kind = "bridge" if crossings_count(P) else None
    done.circuit = c = _along(report, request, spec, placed, pap, sc, math.degrees(ang), kind, done.notices)
    done.spec = c.spec
    if P is not None and fits:
        # the smoothed line measured against the real one, carried onto the page exactly as it was placed (a
        # survey-grade line thinned first, as the adaptation thins it: 6 s -> 0.1 s for 300,000 points)
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        real = (P @ rot.T) * sc + (placed.xy[0] - (raw.xy[0] @ rot.T) * sc)
        c.fidelity = measure(placed.xy[:-1], thinned(real))[0]
        c.source_to_page = (sc, math.degrees(ang), tuple(float(v) for v in real[0] - (P[0] @ rot.T) * sc))
        c.north = (math.sin(ang), -math.cos(ang)) if spec.csv is not None else None
    return done


def located(err: InputError, request: BoardRequest) -> InputError:
    """A real line that cannot be adapted, said of the user's file (its ``csv``/``points`` line)."""
    if err.file is None and request.source is not None:
        err.file = str(request.source)
        err.line = request.report().line_of("csv" if request.spec.csv else "points")
    return err


def _adapted(done: Analysis, report: Report, request: BoardRequest, spec: CircuitSpec, adapt: Adapt) -> Analysis:
    """The circuit of a real centre line (the request's points: source units, y down), adapted keeping its shape
    at the request's scale (None: as large as the paper allows)."""
    P = request.points
    if spec.start.reverse:
        P = np.vstack((P[:1], P[:0:-1]))
    try:
        pap, res = adapt(spec, P, request.paper, request.edge, scale=request.scale)
    except InputError as err:
        raise located(err, request) from None
    except Unbuilt as err:  # this search's work was spent before this board was made: its limit, said
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
    kind = request.crossing or ("bridge" if res.crossings else None)
    c = _along(report, request, spec, line, pap, res.scale, res.rotation_deg, kind, done.notices)
    done.spec = c.spec
    c.fidelity = res.fidelity
    if res.fidelity.max_pct > LOOSE_PCT and not report.problems:
        done.notices.append(
            f"{spec.name}: the board keeps the real shape only loosely (up to {res.fidelity.max_mm:.0f} mm, "
            f"{res.fidelity.max_pct:.0f} % of its size, off the real line); a larger paper or fewer lanes keep it "
            "better"
        )
    c.source_to_page = (res.scale, res.rotation_deg, res.shift)
    c.north = res.north if spec.csv is not None else None
    if c.graph is None:  # a board ruled in per-lane spaces says its merged corners its own way (its game's layer)
        straight = _bent_straights(c, res, start)
        legend, full = character.notes(c, res, start, P)
        c.notes = (*c.notes, *straight, *legend)
        report.changes.extend(BendLost(line) for line in (*straight, *full))
    else:
        c.notes = (*c.notes, *_bent(c, res, start))
    done.circuit = c
    return done


def _bent_straights(c, res, start: float) -> list[str]:
    """The legend's (and ``check``'s) line for every straight of the real line the board bends more than
    :data:`.bent.SAID_DEG` (:func:`.bent.bent_straights`: the measure a board is judged by), in the board's order."""
    L = c.lap_length
    out = []
    found = [k for k in bent.bent_straights(res, 1 / res.scale) if k.bend_deg > bent.SAID_DEG]
    for k in sorted(found, key=lambda k: (k.s0 - start) % L):
        a, b = c.unit_at((k.s0 - start) % L), c.unit_at((k.s1 - start) % L)
        out.append(bent.said(k, f"unit {a}" if a == b else f"units {a}–{b}"))
    return out


def _bent(c, res, start: float) -> list[str]:
    """The legend's lines for the real line's straights the board could not keep straight (each turning more than
    :data:`.straights.BOARD_TOL_DEG`): where, by how much, and why."""
    out = []
    for k in res.straights:
        if k.board_deg > BOARD_TOL_DEG:
            a, b = c.unit_at((k.s0 - start) % c.lap_length), c.unit_at((k.s1 - start) % c.lap_length)
            out.append(
                f"the straight at units {a}–{b} bends {k.board_deg:.0f}° here: the bends either side need its room "
                "at the board's least radius"
            )
    return out


def _along(
    report: Report,
    request: BoardRequest,
    spec: CircuitSpec,
    line,
    paper: Paper,
    scale: float,
    rotation: float,
    crossing: str | None,
    notices: list[str],
) -> Circuit:
    """The circuit on its placed centre line: features built and checked, in the order problems are listed; with
    no problem, its game's notes (the request's profile) added to ``notices``."""
    edge = request.edge
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
        c.spec = spec = spec.model_copy(update={"crossings": [Crossing(kind=crossing) for _ in found]})
        report.changes.append(CrossingsDrawn(len(found), crossing))
    c.crossings = features.crossings(c, found)
    checks.check_crossings(report, c, found, request.start)
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
    checks.check_grid(report, c, request.grid_asked, request.start)
    notes = request.profile.notes
    if not report.problems and notes is not None:
        notices += [f"{c.name}: {note}" for note in notes(c)]
    return c
