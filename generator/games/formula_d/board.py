"""Which board Formula D races on: a circuit spec (or a real circuit's CSV) ruled per lane as the pack prints it.

Every command that shows a Formula D board — ``pack formula-d``, ``corners``, and ``check``/``track`` of a
``game: formula-d`` spec (or ``check --game formula-d``) — builds it here, so they agree on its paper, spaces and
corners: :func:`board_analysis` (never raises for geometry: the problems, as ``check`` lists them) and
:func:`load_circuit` (the circuit, or one GeometryError listing them). A spec's arcs may declare corners
(``arc: {…, stops: 2, name: Lavoir}``): :func:`arc_corners`.
"""

from __future__ import annotations

import math
from pathlib import Path

from ...paper import DEFAULT_EDGE

DEFAULT_BOARD = "formula-d-circuit.yaml"  # Circuit de la Garenne: 3 lanes, A2, the pack's default board
ROAD_BOARD = "formula-d-road.yaml"  # Circuit de la Vieille Ville: the road race's (--gt) default board
#: The longest real lap (metres, as a real circuit's CSV gives it) made into a board: the real line is measured in
#: points a few metres apart (``step_m``), so a CSV in millimetres (a 6,000 km "lap") asked for a 9.27 GiB array.
#: The longest circuits raced are ~25 km (the Nordschleife and the Grand Prix track together).
MAX_REAL_LAP_M = 100_000


def board_path(track: Path | None, road_race: bool = False) -> Path:
    """``track``, or the shipped Formula D board — the road-race circuit for a road race — (else Paddock's default
    circuit, else any shipped circuit)."""
    from ... import track as tr

    if track is not None:
        return Path(track)
    shipped = tr.shipped()
    first = [ROAD_BOARD, DEFAULT_BOARD] if road_race else [DEFAULT_BOARD]
    preferred = [p for name in first for p in shipped if p.name == name] + [tr.default_spec()] + shipped
    path = next((p for p in preferred if p.is_file()), None)
    if path is None:
        raise FileNotFoundError("Paddock ships no circuit spec")
    return path


def board_analysis(
    track: Path | None,
    paper=None,
    edge: float = DEFAULT_EDGE,
    road_race: bool = False,
    garages: int = 0,
    overrides: dict | None = None,
):
    """The board to race on as an :class:`~generator.track.Analysis` (its circuit, or the problems that stop it
    building): ``track`` or Paddock's default, ruled per lane. A road race (``road_race``) has no pit lane: the
    rulebook's road races do not use the pits. ``garages`` (the number of cars, when known): at least one pit box
    per car, as every player has his own pit. ``overrides``: spec fields replaced (``check``'s and ``track``'s
    ``--lanes``, ``--smoothing`` …). A real circuit (a CSV) is built by :func:`.real.real_board`."""
    from ...track.adapt import RUN_WORK
    from ...track.fit import run_budget

    with run_budget(RUN_WORK):  # the papers and start lines a real circuit's board tries spend from one budget
        return _board_analysis(track, paper, edge, road_race, garages, overrides)


def _board_analysis(track, paper, edge, road_race, garages, overrides):
    from ... import track as tr
    from ...errors import GeometryError
    from . import real
    from .corners import corner_notes

    spec, lines, path = tr.load_spec(board_path(track, road_race), overrides)

    def adjust(spec):
        spec = arc_corners(spec)
        if spec.units != "per-lane":
            spec = spec.model_copy(update={"units": "per-lane"})
        if road_race and spec.pit is not None:
            spec = spec.model_copy(update={"pit": None})
        elif spec.pit is not None and garages > spec.pit.garages:
            spec = spec.model_copy(update={"pit": spec.pit.model_copy(update={"garages": min(garages, 30)})})
        return spec

    if real.is_real(spec) and spec.corners is None and (spec.game == "formula-d" or path.suffix.lower() == ".csv"):
        # a real circuit: a bare CSV (or a spec naming no paper) becomes a Formula D board on A2 or A1; its corners
        # and stops come from the real circuit (real_corners.py, templates/formula-d/real-circuits.yaml)
        bare = path.suffix.lower() == ".csv"
        if bare and paper is not None:
            spec = real.formula_d_spec(spec, spec.paper)
        choose = paper is None and (bare or "paper" not in spec.model_fields_set)  # no paper asked for or named
        check_real_lap(spec, path, lines)
        try:
            c = real.real_board(spec, path, lines, paper, edge, adjust, choose_paper=choose)
        except GeometryError as err:  # every paper tried fails: the problems of the board as the spec asks it
            if getattr(err, "problems", None):
                done = tr.analyse(adjust(real.formula_d_spec(spec, spec.paper)), path, lines, paper, edge)
                # never a board of another kind (no real corners, no legend) in place of the one that failed
                return done if done.problems else tr.Analysis(spec, path, paper, None, list(err.problems), [])
            raise
        return tr.Analysis(c.spec, path, paper, c, [], list(c.changes))
    if not _start_open(spec):
        return tr.analyse(adjust(spec), path, lines, paper, edge, notes=corner_notes)
    return _start_for_grid(spec, adjust, path, lines, paper, edge)


def check_real_lap(spec, path, lines=None) -> None:
    """Refuse a real circuit's centre line longer, read in metres, than :data:`MAX_REAL_LAP_M` — before any work is
    sized by it — naming the user's file and the limit (exit 2)."""
    from ...errors import InputError
    from ...track.centerline import arc_lengths
    from .real import Shape

    lap = float(arc_lengths(Shape.of(spec, path).real)[-1])
    if lap > MAX_REAL_LAP_M:
        bare = Path(path).suffix.lower() == ".csv"
        raise InputError(
            f"read in metres (as a real circuit's centre line is), the lap is {lap / 1000:,.0f} km; Formula D makes "
            f"boards of real circuits of at most {MAX_REAL_LAP_M / 1000:,.0f} km",
            file=path,
            line=None if bare or lines is None else lines.line(("csv",)),
            field=None if bare else "csv",
            hint="give the centre line in metres (one in millimetres is a thousand times too long)",
        )


def _start_open(spec) -> bool:
    """Whether the start line is Paddock's to place: the spec writes no ``start`` and numbers nothing in units
    from it (a pit lane, corners, kerbs, danger spaces, a police line, howling zones would move with it; an arc's
    corner is measured from wherever the line stands), and has a grid."""
    by_unit = (
        spec.pit or spec.corners is not None or isinstance(spec.kerbs, list) or spec.danger or spec.police_line
    ) or spec.howling
    return "start" not in spec.model_fields_set and not by_unit and bool(spec.grid)


def _start_for_grid(spec, adjust, path, lines, paper, edge):
    """A per-lane board whose spec leaves the start line open, built with its line moved the least either way to
    where the grid behind it and the first moves past it stand clear of every corner and off every crossing
    (:func:`.real.grid_shift`), as the README promises (the circuit engine places a grid across the track, a
    game its per-lane grid); the move is said as a change. The first build's notices (a grid in a corner) are
    said only for the board that prints."""
    import warnings

    from ... import track as tr
    from .corners import corner_notes
    from .real import _start_at_crossing, grid_shift, moved_start

    def analyse(s):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            done = tr.analyse(adjust(s), path, lines, paper, edge, notes=corner_notes)
        return done, said

    done, said = analyse(spec)
    moved, cur = 0.0, spec
    for _ in range(4):  # the board built with the line moved has its corners a little elsewhere: checked again
        c = done.circuit
        if c is None or not all(_start_at_crossing(p) for p in done.problems):
            break
        d, _ = grid_shift(c)
        if d < 1e-6 and not done.problems:
            break
        nxt = moved_start(cur, c, d)
        again, heard = analyse(nxt)
        if again.circuit is None or len(again.problems) > len(done.problems):
            break
        done, said, moved, cur = again, heard, (moved + d) % c.lap_length, nxt
    for w in said:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if moved > 1e-6 and done.circuit is not None:
        L, u = done.circuit.lap_length, done.circuit.unit_length
        n, way = (moved, "forward") if moved <= L / 2 else (L - moved, "back")
        n = max(1, round(n / u))
        d, clear = grid_shift(done.circuit)
        why = (
            "the grid and the first moves stand clear of every corner and crossing"
            if clear and d < 1e-6
            else "the least of the grid and the first moves stands in a corner (no place is clear of them all)"
        )
        at = cur.start.at
        done.changes.append(f"start line moved {n} space{'s' if n != 1 else ''} {way} (start.at {at:g}), so {why}")
    return done


def load_circuit(
    track: Path | None,
    paper=None,
    edge: float = DEFAULT_EDGE,
    road_race: bool = False,
    garages: int = 0,
    overrides: dict | None = None,
):
    """The circuit to race on (:func:`board_analysis`); one GeometryError listing every problem otherwise."""
    from ...problems import geometry_error

    done = board_analysis(track, paper, edge, road_race, garages, overrides)
    if done.problems:
        raise geometry_error(done.problems, done.source)
    return done.circuit


def arc_corners(spec):
    """``spec`` with a corner declared for every arc that names its ``stops`` or ``name``: from the unit the arc
    begins in to the unit it ends in, counted from the start line (as a ``corners`` entry counts them), added to
    the spec's own ``corners``. The units are measured on the segments as written (``close: auto`` may move the
    board's by a fraction of a unit)."""
    from ...track.model import CornerSpec

    if spec.segments is None or not any(s.arc and (s.arc.stops or s.arc.name) for s in spec.segments):
        return spec
    L = sum(s.length for s in spec.segments)
    n = max(1, round(L / spec.unit))
    u = L / n
    start = spec.start.at * spec.unit
    found, at = [], 0.0
    for seg in spec.segments:
        a, b = at, at + seg.length
        at = b
        if seg.arc is None or not (seg.arc.stops or seg.arc.name):
            continue
        s0, s1 = ((start - b) % L, (start - a) % L) if spec.start.reverse else ((a - start) % L, (b - start) % L)
        first = min(n, int(s0 // u) + 1)
        last = min(n, max(1, math.ceil(round(s1 / u, 6)))) if s1 > 1e-6 else n
        if first == last and seg.length > u:  # round the lap back into the unit it began in: every unit
            last = (first - 2) % n + 1
        found.append(
            CornerSpec.model_validate({"from": first, "to": last, "stops": seg.arc.stops, "name": seg.arc.name})
        )
    corners = sorted([*(spec.corners or []), *found], key=lambda c: c.from_)
    return spec.model_copy(update={"corners": corners})
