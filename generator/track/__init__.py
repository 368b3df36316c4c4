"""Circuits: from a spec (YAML) or a real centre line (CSV) to a placed, checked circuit and its board page.

The public API — what the games, the command line and the tests use::

    from generator import track
    request = track.read_request("my.yaml", overrides={"lanes": 3}, paper=None, profile=game.board_profile)
    done = track.Search().board(request)            # an Analysis: .circuit (or None), .problems, .changes, .notices
    circuit = track.load(track.default_spec())      # or load("my.yaml") / load("Budapest.csv"); GeometryError
    circuit.lap_length, circuit.point_at(s), circuit.tangent_at(s), circuit.normal_at(s), circuit.offset_point(s, d)
    circuit.corners, circuit.kerbs, circuit.pit, circuit.crossings, circuit.grid, circuit.graph  # features, spaces
    result = track.check("my.yaml")                 # never raises for geometry: result.circuit, result.problems
    board = track.draw_board(circuit)               # board.page (a scene Page), board.free (its FreeSpace)
    sheet = track.board_sheet(circuit)              # the board as a Sheet (generator.scene)

- A :class:`BoardRequest` is one board asked for, read once and frozen (:mod:`.request`): the spec, its points,
  the paper, the edge and the caller's typed choices (start line, crossings, grid), and the game's
  :class:`BoardProfile` (its notes; its :class:`Policy`, what its search may try). :func:`.build.build` builds a
  request once, purely; a :class:`Search` (:mod:`.search`) is the one place that rebuilds: the lap's scale, the
  start line moved for the grid, each fix tried, a game's papers and shapes.
- ``s`` is arc length (mm) along the centre line from the start/finish line in the race direction; ``d`` a
  distance to the LEFT of it (negative: right); all coordinates are page mm (y down).
- A :class:`Problem` (:mod:`generator.problems`, shared with every input Paddock checks) says what stops a circuit
  printing: ``kind``, ``where``, ``message``, ``numbers`` and what to change — ``advice`` in words and ``fixes``,
  typed :class:`~generator.problems.Fix` es (:mod:`.fixes`) that word themselves in spec fields or as the command
  line's options, and build themselves.
- What a build changed is typed (:mod:`.changed`); what a designer should read beside the board (a game's notes,
  a shape kept only loosely) is an analysis's ``notices``: :func:`load`, :func:`check`, :func:`analyse` and
  :func:`build` say them as warnings.
- ``overrides`` (``load``, ``check``, ``read_request``, ``load_spec``): spec fields a caller replaces — ``lanes``,
  ``smoothing``, ``fit``, ``grid`` (:data:`OVERRIDABLE`) — and the choices ``start`` and ``crossing``; a bad one
  raises :class:`~generator.errors.OverrideError` (an InputError with key, value, reason).

The modules, each knowing one thing: ``model`` (the spec), ``load`` (files, overrides, points), ``request`` (a
board asked for), ``centerline`` (closed lines and helpers on them), ``shape`` (the spec's centre line), ``place``
(paper, turn, scale, fit advice), ``adapt`` (a real centre line kept in shape: ``fit`` and its ``qp``,
``adapt_checks``, ``changes``), ``rules`` (the board's geometry rules, once), ``circuit`` (the built circuit and
its geometry), ``features`` (corners, kerbs, pit lane, crossings, grid slots), ``grid`` (where the grid stands
straight), ``spaces`` (per-lane spaces), ``checks`` (every problem), ``problems`` (the Report that collects them),
``fixes`` and ``changed`` (what would mend it, what was changed), ``build`` (one build, in order), ``search`` (which
builds), ``summary`` (the ``--json`` answers), ``board``, ``legend``, ``palette`` (drawing only), ``schema`` (the
spec's JSON Schema).
"""

from __future__ import annotations

from pathlib import Path

from ..data import track_specs_dir
from ..errors import OverrideError
from ..notices import warn
from ..outputs import safe_name
from ..paper import DEFAULT_EDGE, Paper, PaperChoice
from ..problems import Fix, Problem, geometry_error, hint_text
from ..scene import Sheet
from .board import draw_board
from .build import Analysis
from .circuit import Circuit, Corner, CrossingInfo, GridSlot, Kerb, PitLane
from .fixes import fix_for
from .load import OVERRIDABLE, Choices, load_choices, load_spec
from .model import CircuitSpec
from .request import BoardProfile, BoardRequest, Notes, make_request, read_request
from .search import Policy, Search
from .spaces import LaneGraph, Space

__all__ = [
    "OVERRIDABLE",
    "Analysis",
    "BoardProfile",
    "BoardRequest",
    "Choices",
    "Circuit",
    "CircuitSpec",
    "Corner",
    "CrossingInfo",
    "Fix",
    "GridSlot",
    "Kerb",
    "LaneGraph",
    "Notes",
    "OverrideError",
    "PitLane",
    "Policy",
    "Problem",
    "Search",
    "Space",
    "analyse",
    "board_sheet",
    "board_stem",
    "build",
    "check",
    "default_spec",
    "draw_board",
    "fix_for",
    "hint_text",
    "load",
    "load_choices",
    "load_spec",
    "make_request",
    "read_request",
    "said",
    "shipped",
]

DEFAULT = "monte-carlo.yaml"


def default_spec() -> Path:
    """The f1-dice default board: a 2-lane A3 circuit shipped in track_specs/."""
    return track_specs_dir() / DEFAULT


def shipped() -> list[Path]:
    """Every circuit spec Paddock ships."""
    return sorted(track_specs_dir().glob("*.yaml"))


def said(done: Analysis) -> Analysis:
    """``done`` after its notices (a game's notes on the board, a shape kept only loosely) are said as warnings:
    what a caller showing the board does once."""
    for notice in done.notices:
        warn(notice)
    return done


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
    """A validated spec built as the engine builds it (:meth:`Search.board`); raises only InputError (for points
    that cannot make a loop). With ``advice`` every fix a problem suggests has been tried (only those that build
    are kept). Without ``keep_shape`` a centre line of points is never adapted to the board's rules: for a caller
    that checks the line by rules of its own (a Monaco road). ``notes``: the board's game's notes for its
    designer, said as warnings with the rest of its notices."""
    request = make_request(
        spec, path, lines, paper=paper, edge=edge, keep_shape=keep_shape, profile=BoardProfile(notes=notes)
    )
    return said(Search().board(request, advice))


def build(
    spec: CircuitSpec,
    path: str | Path | None = None,
    lines=None,
    paper: Paper | PaperChoice | None = None,
    edge: float = DEFAULT_EDGE,
    notes: Notes | None = None,
) -> Circuit:
    """A validated spec → a circuit placed on ``paper`` (default: the spec's; a :class:`PaperChoice` leaves the
    orientation to the spec) clear of the printer's ``edge``; raises GeometryError listing every problem."""
    return _circuit(analyse(spec, path, lines, paper, edge, notes=notes))


def load(
    path: str | Path,
    paper: Paper | PaperChoice | None = None,
    overrides: dict | None = None,
    edge=DEFAULT_EDGE,
    notes: Notes | None = None,
) -> Circuit:
    """A YAML spec or a centre-line CSV → a placed, buildable circuit (InputError / GeometryError otherwise)."""
    return _circuit(check(path, paper, overrides, edge, notes))


def check(
    path: str | Path,
    paper: Paper | PaperChoice | None = None,
    overrides: dict | None = None,
    edge=DEFAULT_EDGE,
    notes: Notes | None = None,
) -> Analysis:
    """Validate without drawing: the :class:`Analysis` (spec, circuit or None, problems). Raises only InputError."""
    request = read_request(path, overrides, paper=paper, edge=edge, profile=BoardProfile(notes=notes))
    return said(Search().board(request))


def _circuit(done: Analysis) -> Circuit:
    if done.problems:
        raise geometry_error(done.problems, done.source)
    return done.circuit


def board_stem(name: str) -> str:
    """A board's file stem, from its circuit's name: lower case, spaces as hyphens ("monte-carlo")."""
    return safe_name(name.lower().replace(" ", "-"))


def board_sheet(circuit: Circuit) -> Sheet:
    """The board page of ``circuit`` as a :class:`~generator.scene.Sheet` named after the circuit."""
    return Sheet(board_stem(circuit.name), draw_board(circuit).page)
