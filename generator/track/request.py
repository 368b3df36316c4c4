"""A board asked for: everything one build of a circuit needs, read once and frozen.

A :class:`BoardRequest` holds the validated spec (the caller's overrides applied), where it came from (file and
line numbers, for messages), the centre line's points read once (None for segments), the paper and the printer's
edge, and the caller's typed choices — where the start line goes (``start``), what an undeclared self-crossing is
drawn as (``crossing``), whether the grid was asked for (``grid_asked``), whether a line of points keeps its shape
(``keep_shape``) and at what scale (``scale``, a lap of ``fit`` units as the search found it) — and the
:class:`BoardProfile` of the game whose board it is (with what its policy knows of the request, ``tag``). Nothing
rides on the spec model.

:func:`read_request` makes one from a file; :meth:`BoardRequest.respec` gives the same request for another spec
(a start line moved, a fix followed, a game's own spec). :func:`generator.track.build.build` builds one request
once; :class:`generator.track.search.Search` decides which requests to build.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..paper import DEFAULT_EDGE, Paper, PaperChoice
from ..specs import LineMap
from .load import Choices, CrossingKind, StartChoice, load_choices, source_points
from .model import CircuitSpec
from .problems import Report

if TYPE_CHECKING:
    from .circuit import Circuit

#: A game's notes on a board of that game for its designer, in words (said as warnings, never problems).
Notes = Callable[["Circuit"], list[str]]


@dataclass(frozen=True)
class BoardProfile:
    """What a game's boards are to the circuit engine, from the game's own package (its ``circuit.profile``,
    ``Game.board_profile``): its notes for a designer (``notes``) and what its search does beyond the engine's
    (``policy``, a :class:`generator.track.search.Policy`: Formula D's rules on every spec it builds, its papers and
    longer straights, its grid clear of corners). The defaults: the engine's own board."""

    notes: Notes | None = None
    policy: Any = None


ENGINE = BoardProfile()


@dataclass(frozen=True, eq=False)
class BoardRequest:
    """One board asked for (see the module's docstring). ``paper``: a :class:`Paper` exactly, a
    :class:`PaperChoice` (the orientation left to the spec), or None for the spec's own."""

    spec: CircuitSpec
    source: Path | None = None
    lines: LineMap | None = None
    points: np.ndarray | None = None
    paper: Paper | PaperChoice | None = None
    edge: float = DEFAULT_EDGE
    start: StartChoice | None = None
    crossing: CrossingKind | None = None
    grid_asked: bool = False
    keep_shape: bool = True
    scale: float | None = None
    profile: BoardProfile = field(default=ENGINE)
    #: What the game's policy knows of this request (Formula D: the centre line a real circuit's board is built
    #: from, its longest straight perhaps drawn longer); the engine never reads it.
    tag: Any = None

    def replace(self, **changes) -> BoardRequest:
        return replace(self, **changes)

    def respec(self, spec: CircuitSpec, **changes) -> BoardRequest:
        """This request for ``spec``: the points read again only where the spec gives a centre line of points of
        its own (a game's lengthened straight), never the file again."""
        points = self.points
        if spec.points is not None and spec.points is not self.spec.points:
            points = source_points(spec, self.source, self.report())
        elif spec.csv is None:
            points = None if spec.points is None else points
        return replace(self, spec=spec, points=points, **changes)

    def report(self) -> Report:
        """An empty :class:`Report` of this request's file (problems located at its lines)."""
        return Report(self.source, self.lines)


def make_request(
    spec: CircuitSpec,
    source: str | Path | None = None,
    lines: LineMap | None = None,
    choices: Choices | None = None,
    **kw,
) -> BoardRequest:
    """A request for a validated ``spec`` (its points read once, for a centre line of points or a CSV)."""
    source = Path(source) if source else None
    choices = choices or Choices()
    points = None
    if spec.segments is None:
        points = source_points(spec, source, Report(source, lines))
    return BoardRequest(
        spec, source, lines, points, start=choices.start, crossing=choices.crossing, grid_asked=choices.grid, **kw
    )


def read_request(path: str | Path, overrides: dict | None = None, **kw) -> BoardRequest:
    """A spec file (YAML) or a centre-line CSV read once into a request: ``overrides`` (the command line's
    ``--lanes``, ``--fit``, ``--start``, ``--crossing`` …) applied, its points read. Raises InputError."""
    spec, lines, path, choices = load_choices(path, overrides)
    return make_request(spec, path, lines, choices, **kw)
