"""From a validated spec to a placed circuit — the order of the steps, each done by its own module:

shape (:mod:`.shape`) → start line → placement on paper (:mod:`.place`) → features (:mod:`.features`), each
checked right after it is built (:mod:`.checks`) → per-lane spaces (:mod:`.spaces`).

:func:`analyse` never raises for geometry: it returns an :class:`Analysis` with the circuit (when there is one to
return) and every :class:`~generator.track.problems.Problem`, which ``paddock check`` prints. :func:`build`
raises one :class:`~generator.errors.GeometryError` listing them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..paper import DEFAULT_EDGE, Paper, PaperChoice
from . import checks, features
from .circuit import Circuit
from .load import source_points
from .model import CircuitSpec
from .place import centred, content, fit_problem, fitting_paper, papers, place
from .problems import Problem, Report, geometry_error
from .shape import points_line, polyline_length, segments_line
from .spaces import lane_graph


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
) -> Analysis:
    """Build what can be built; raises only InputError (for points that cannot make a loop)."""
    path = Path(path) if path else None
    report = Report(path, lines)
    done = Analysis(spec, path, paper, None, report.problems, report.changes)
    if spec.segments is not None:
        raw = segments_line(spec, report)
        if raw is None:
            return done
        fixed = 1.0
    else:
        P = source_points(spec, path, report)
        L_raw = polyline_length(P)
        if spec.fit == "page":
            _, _, W, H = content(papers(spec, paper)[0], edge)
            ext = float(np.ptp(P, axis=0).max())
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
    done.circuit = _along(report, spec, placed, pap, sc, math.degrees(ang), edge)
    return done


def _along(report: Report, spec: CircuitSpec, line, paper: Paper, scale: float, rotation: float, edge: float):
    """The circuit on its placed centre line: features built and checked, in the order problems are listed."""
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
    c.crossings = features.crossings(c, found)
    checks.check_crossings(report, c, found)
    checks.check_proximity(report, c)
    if spec.pit is not None:
        c.pit = features.pit_lane(report, c)
        if c.pit is not None:
            checks.check_pit(report, c)
    if spec.units == "per-lane":
        c.graph = lane_graph(c)
        c.danger_spaces = features.danger_spaces(c)
    c.grid = features.grid(c)
    c.grid_units = features.grid_units(c)
    checks.check_positions(report, c)
    checks.check_grid(report, c)
    if not report.problems:
        from ..notices import warn

        for note in checks.formula_d_corners(c):
            warn(f"{c.name}: {note}")
    return c


def build(
    spec: CircuitSpec,
    path: str | Path | None = None,
    lines=None,
    paper: Paper | PaperChoice | None = None,
    edge: float = DEFAULT_EDGE,
) -> Circuit:
    """The circuit of ``spec``; raises one GeometryError listing every problem (``.problems`` keeps them)."""
    done = analyse(spec, path, lines, paper, edge)
    if done.problems:
        raise geometry_error(done.problems, done.source)
    return done.circuit
