"""Circuits: spec models, centre-line geometry, lanes, units, kerbs, pit lane, validation, board sheets.

Public API (what the packs and the Formula D overlay use)::

    from generator import track
    circuit = track.load(track.default_spec())      # or load("my.yaml") / load("Budapest.csv")
    circuit.lap_length, circuit.point_at(s), circuit.tangent_at(s), circuit.normal_at(s), circuit.corners
    sheet = track.board_sheet(circuit)              # a pipeline Sheet; page layers as in generator.track.board

``s`` is arc length (mm) along the centre line from the start/finish line in the race direction; the normal
points to the left of the race direction; all coordinates are page mm (y down).
"""

from __future__ import annotations

from pathlib import Path

from ..paper import DEFAULT_EDGE
from .build import Circuit, Corner, CrossingInfo, Kerb, PitLane, Problem, analyse, load_spec
from .model import CircuitSpec
from .spaces import LaneGraph, Space

__all__ = [
    "Circuit",
    "CircuitSpec",
    "Corner",
    "CrossingInfo",
    "Kerb",
    "LaneGraph",
    "PitLane",
    "Problem",
    "Space",
    "analyse",
    "board_sheet",
    "build",
    "check",
    "default_spec",
    "error_summary",
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
    spec: CircuitSpec, path: str | Path | None = None, lines=None, paper=None, edge: float = DEFAULT_EDGE
) -> Circuit:
    """A validated spec → a circuit placed on ``paper`` (default: the spec's) clear of the printer's ``edge``;
    raises GeometryError listing every problem."""
    from .build import build as _build

    return _build(spec, Path(path) if path else None, lines, paper, edge)


def load(path: str | Path, paper=None, overrides: dict | None = None, edge: float = DEFAULT_EDGE) -> Circuit:
    """A YAML spec or a centre-line CSV → a placed, buildable circuit (InputError / GeometryError otherwise).

    ``overrides``: spec fields the command line replaces (``lanes``, ``smoothing``, ``fit``)."""
    spec, lines, path = load_spec(path, overrides)
    return build(spec, path, lines, paper, edge)


def check(
    path: str | Path, paper=None, overrides: dict | None = None, edge: float = DEFAULT_EDGE
) -> tuple[Circuit | None, list[Problem], dict]:
    """Validate without drawing: ``(circuit or None, problems, summary dict)``. Raises only InputError."""
    spec, lines, path = load_spec(path, overrides)
    circuit, problems, changes = analyse(spec, path, lines, paper, edge)
    if circuit is not None:
        summary = circuit.summary()
    else:
        summary = {
            "name": spec.name,
            "file": str(path),
            "lanes": spec.lanes,
            "unit_mode": spec.units,
            "lap_mm": None,
            "units": None,
            "corners": [],
            "paper": getattr(paper, "label", None) or (paper.name if paper is not None else spec.paper),
            "fits": False,
            "buildable": False,
            "problems": [p.as_dict() for p in problems],
            "changes": changes,
        }
    return circuit, problems, summary


def error_summary(path: str | Path, err) -> dict:
    """The ``check --json`` summary of a spec that could not be read: the error as its one problem."""
    problem = {"kind": "input", "where": err.field or "", "message": err.message, "hint": err.hint or ""}
    for key in ("file", "line", "field"):
        if getattr(err, key) is not None:
            problem[key] = getattr(err, key)
    return {
        "name": None,
        "file": str(path),
        "lanes": None,
        "unit_mode": None,
        "lap_mm": None,
        "units": None,
        "corners": [],
        "paper": None,
        "fits": False,
        "buildable": False,
        "problems": [problem],
        "changes": [],
    }


def board_sheet(circuit: Circuit, paper=None):
    """The composed board page of ``circuit`` as a pipeline Sheet (re-laid out when ``paper`` differs)."""
    from ..paper import Paper
    from ..pipeline import Sheet
    from .board import board_page

    asked = paper if isinstance(paper, Paper) or paper is None else None
    if paper is not None and asked is None:  # a size with the orientation left open
        same = paper.name == circuit.paper.name and paper.orientation in (None, circuit.paper.orientation)
        if not same:
            circuit = build(circuit.spec, circuit.source, circuit.lines, paper, circuit.edge)
    elif asked is not None and asked != circuit.paper:
        circuit = build(circuit.spec, circuit.source, circuit.lines, asked, circuit.edge)
    from ..safeio import safe_name

    return Sheet(safe_name(circuit.name.lower().replace(" ", "-")), board_page(circuit))
