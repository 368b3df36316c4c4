"""Circuits: from a spec (YAML) or a real centre line (CSV) to a placed, checked circuit and its board page.

The public API — what the games, the command line and the tests use::

    from generator import track
    circuit = track.load(track.default_spec())      # or load("my.yaml") / load("Budapest.csv"); GeometryError
    circuit.lap_length, circuit.point_at(s), circuit.tangent_at(s), circuit.normal_at(s), circuit.offset_point(s, d)
    circuit.corners, circuit.kerbs, circuit.pit, circuit.crossings, circuit.grid, circuit.graph  # features, spaces
    result = track.check("my.yaml")                 # never raises for geometry: result.circuit, result.problems
    board = track.draw_board(circuit)               # board.page (a scene Page), board.free (its FreeSpace)
    sheet = track.board_sheet(circuit)              # the board as a Sheet (generator.scene)

- ``s`` is arc length (mm) along the centre line from the start/finish line in the race direction; ``d`` a
  distance to the LEFT of it (negative: right); all coordinates are page mm (y down).
- A :class:`Problem` (:mod:`generator.problems`, shared with every input Paddock checks) says what stops a circuit
  printing: ``kind``, ``where``, ``message``, ``numbers`` and what to change — ``advice`` in words and ``fixes``, a
  tuple of :class:`Fix` (a spec field and its value, a paper, a tiling). Library messages name spec fields, never
  command-line options; the CLI words fixes as its options.
- ``notes`` (``build``, ``load``, ``check``, ``analyse``): a game's notes on its boards for their designer (Formula
  D's corners, stops, grid slots), a function of the built circuit the caller passes — the engine imports no game;
  ``generator.games.board_notes`` gives the notes of whatever game the spec names.
- ``overrides`` (``load``, ``check``, ``load_spec``): spec fields a caller replaces — ``lanes``, ``smoothing``,
  ``fit`` (:data:`OVERRIDABLE`); a bad one raises :class:`OverrideError` (an InputError with key, value, reason).

The modules, each knowing one thing: ``model`` (the spec), ``load`` (files, overrides, points), ``centerline``
(closed lines and helpers on them), ``shape`` (the spec's centre line), ``place`` (paper, turn, scale, fit
advice), ``adapt`` (a real centre line kept in shape: ``fit`` and its ``qp``, ``adapt_checks``, ``changes``),
``rules`` (the board's geometry rules, once), ``circuit`` (the built circuit and its geometry), ``features``
(corners, kerbs, pit lane, crossings, grid slots), ``grid`` (where the grid stands straight), ``spaces`` (per-lane
spaces), ``checks`` (every problem), ``problems`` (the Report that collects them), ``build`` (the order of the
steps), ``board``, ``legend``, ``palette`` (drawing only), ``schema`` (the spec's JSON Schema).
"""

from __future__ import annotations

from pathlib import Path

from ..paper import DEFAULT_EDGE, Paper, PaperChoice
from ..problems import Fix, Problem, hint_text
from .build import Analysis, Notes, analyse
from .build import build as _build
from .circuit import Circuit, Corner, CrossingInfo, GridSlot, Kerb, PitLane
from .load import OVERRIDABLE, OverrideError, load_spec
from .model import CircuitSpec
from .spaces import LaneGraph, Space

__all__ = [
    "OVERRIDABLE",
    "Analysis",
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
    "Problem",
    "Space",
    "analyse",
    "board_sheet",
    "build",
    "check",
    "default_spec",
    "draw_board",
    "hint_text",
    "load",
    "load_spec",
    "shipped",
]

DEFAULT = "monte-carlo.yaml"


def default_spec() -> Path:
    """The f1-dice default board: a 2-lane A3 circuit shipped in track_specs/."""
    from ..data import track_specs_dir

    return track_specs_dir() / DEFAULT


def shipped() -> list[Path]:
    """Every circuit spec Paddock ships."""
    from ..data import track_specs_dir

    return sorted(track_specs_dir().glob("*.yaml"))


def build(
    spec: CircuitSpec,
    path: str | Path | None = None,
    lines=None,
    paper: Paper | PaperChoice | None = None,
    edge: float = DEFAULT_EDGE,
    notes: Notes | None = None,
) -> Circuit:
    """A validated spec → a circuit placed on ``paper`` (default: the spec's; a :class:`PaperChoice` leaves the
    orientation to the spec) clear of the printer's ``edge``; raises GeometryError listing every problem.
    ``notes``: the board's game's notes for its designer, said as warnings (``generator.games.board_notes``)."""
    return _build(spec, path, lines, paper, edge, notes)


def load(
    path: str | Path,
    paper: Paper | PaperChoice | None = None,
    overrides: dict | None = None,
    edge=DEFAULT_EDGE,
    notes: Notes | None = None,
) -> Circuit:
    """A YAML spec or a centre-line CSV → a placed, buildable circuit (InputError / GeometryError otherwise)."""
    spec, lines, path = load_spec(path, overrides)
    return build(spec, path, lines, paper, edge, notes)


def check(
    path: str | Path,
    paper: Paper | PaperChoice | None = None,
    overrides: dict | None = None,
    edge=DEFAULT_EDGE,
    notes: Notes | None = None,
) -> Analysis:
    """Validate without drawing: the :class:`Analysis` (spec, circuit or None, problems). Raises only InputError."""
    spec, lines, path = load_spec(path, overrides)
    return analyse(spec, path, lines, paper, edge, notes=notes)


def draw_board(circuit: Circuit):
    """The board of ``circuit``: ``.page`` (layers as in :mod:`generator.track.board`) and ``.free``, the paper
    still free for labels (an overlay places its own there)."""
    from .board import draw_board as draw

    return draw(circuit)


def board_sheet(circuit: Circuit, paper: Paper | PaperChoice | None = None):
    """The board page of ``circuit`` as a :class:`~generator.scene.Sheet` (the circuit re-placed first when ``paper`` differs)."""
    from ..outputs import safe_name
    from ..scene import Sheet

    if isinstance(paper, PaperChoice):  # a size with the orientation left open
        same = paper.name == circuit.paper.name and paper.orientation in (None, circuit.paper.orientation)
        if not same:
            circuit = build(circuit.spec, circuit.source, circuit.lines, paper, circuit.edge)
    elif paper is not None and paper != circuit.paper:
        circuit = build(circuit.spec, circuit.source, circuit.lines, paper, circuit.edge)
    return Sheet(safe_name(circuit.name.lower().replace(" ", "-")), draw_board(circuit).page)
