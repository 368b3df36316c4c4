"""Which board Formula D races on: a circuit spec (or a real circuit's CSV) ruled per lane as the pack prints it.

Every command that shows a Formula D board — ``pack formula-d``, ``corners``, ``preview``, and ``check``/``track``
of a ``game: formula-d`` spec (or ``check --game formula-d``) — builds it here, so they agree on its paper, spaces
and corners: :func:`analysis` of a request (never raises for geometry: the problems, as ``check`` lists them),
:func:`board_analysis` of a file and :func:`load_circuit` (the circuit, or one GeometryError listing them). A
spec's arcs may declare corners (``arc: {…, stops: 2, name: Lavoir}``): :func:`arc_corners`.

:data:`profile` (what Formula D's boards are to the circuit engine: its notes for their designer) and
:func:`analysis` are the game's hooks for its own boards (:class:`generator.games.Game`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from ... import track as tr
from ...errors import GeometryError, InputError
from ...paper import DEFAULT_EDGE, PAPERS
from ...problems import geometry_error
from ...track.centerline import arc_lengths
from ...track.model import CornerSpec
from ...track.search import Policy, by_unit
from . import real
from .corners import corner_notes
from .play import forced_notes, with_play_notes
from .real import at_crossing, grid_shift

DEFAULT_BOARD = "formula-d-circuit.yaml"  # Circuit de la Garenne: 3 lanes, A1 (full size), the pack's default board
COMPACT_BOARD = "formula-d-compact.yaml"  # Petit circuit de la Garenne: A2, the default board on smaller paper
FULL_SIZE = "a1"  # the least paper the full-size default board is printed whole on (else the compact board)
ROAD_BOARD = "formula-d-road.yaml"  # Circuit de la Vieille Ville: the road race's (--gt) default board
#: The longest real lap (metres, as a real circuit's CSV gives it) made into a board: the real line is measured in
#: points a few metres apart (``step_m``), so a CSV in millimetres (a 6,000 km "lap") asked for a 9.27 GiB array.
#: The longest circuits raced are ~25 km (the Nordschleife and the Grand Prix track together).
MAX_REAL_LAP_M = 100_000

#: What Formula D's boards are to the circuit engine: its notes for their designer.
profile = tr.BoardProfile(notes=corner_notes)


def board_path(track: Path | None, road_race: bool = False, paper=None) -> Path:
    """``track``, or the shipped Formula D board — the road-race circuit for a road race; the full-size default
    board, or on a ``paper`` (a :class:`~generator.paper.PaperChoice`) smaller than A1 the compact one — (else
    Paddock's default circuit, else any shipped circuit)."""
    if track is not None:
        return Path(track)
    shipped = tr.shipped()
    first = [ROAD_BOARD, DEFAULT_BOARD] if road_race else [DEFAULT_BOARD]
    if not road_race and paper is not None and compact_paper(paper.name):
        first = [COMPACT_BOARD, DEFAULT_BOARD]
    preferred = [p for name in first for p in shipped if p.name == name] + [tr.default_spec()] + shipped
    path = next((p for p in preferred if p.is_file()), None)
    if path is None:
        raise FileNotFoundError("Paddock ships no circuit spec")
    return path


def compact_paper(name: str) -> bool:
    """Whether the default board on paper ``name`` is the compact one: a paper smaller than A1."""
    full, asked = PAPERS[FULL_SIZE], PAPERS[name]
    return asked.short * asked.long < full.short * full.long * 0.99


def board_analysis(
    track: Path | None,
    paper=None,
    edge: float = DEFAULT_EDGE,
    road_race: bool = False,
    garages: int = 0,
    overrides: dict | None = None,
):
    """The board to race on (``track`` or Paddock's default) as an :class:`~generator.track.Analysis`
    (:func:`analysis`). ``overrides``: spec fields replaced (``check``'s and ``track``'s ``--lanes``,
    ``--smoothing`` …)."""
    request = tr.read_request(board_path(track, road_race, paper), overrides, paper=paper, edge=edge)
    return analysis(request, road_race, garages)


def analysis(request, road_race: bool = False, garages: int = 0):
    """The board of ``request`` ruled per lane, as an :class:`~generator.track.Analysis` (its circuit, or the
    problems that stop it building), its notices said. A road race (``road_race``) has no pit lane: the
    rulebook's road races do not use the pits. ``garages`` (the number of cars, when known): at least one pit box
    per car, as every player has his own pit. A real circuit (a CSV) is searched by :func:`.real.policy`; a spec
    that leaves its start line open has it moved for the grid in rounds (:func:`.real.grid_shift`)."""
    spec, path, paper = request.spec, request.source, request.paper

    def adjust(spec):
        spec = arc_corners(spec)
        if spec.units != "per-lane":
            spec = spec.model_copy(update={"units": "per-lane"})
        if road_race and spec.pit is not None:
            spec = spec.model_copy(update={"pit": None})
        elif spec.pit is not None and garages > spec.pit.garages:
            spec = spec.model_copy(update={"pit": spec.pit.model_copy(update={"garages": min(garages, 30)})})
        return spec

    search = tr.Search()
    if real.is_real(spec) and spec.corners is None and (spec.game == "formula-d" or path.suffix.lower() == ".csv"):
        # a real circuit: a bare CSV (or a spec naming no paper) becomes a Formula D board on A1 (the template's
        # papers); its corners and stops come from the real circuit (real_corners.py, real-circuits.yaml)
        bare = path.suffix.lower() == ".csv"
        if bare and paper is not None:
            request = request.respec(real.formula_d_spec(spec, spec.paper))
        choose = paper is None and (bare or "paper" not in spec.model_fields_set)  # no paper asked for or named
        check_real_lap(request)
        try:
            done = search.run(with_policy(request, real.policy(request, adjust, choose_paper=choose)))
            return tr.said(with_play_notes(done))
        except GeometryError as err:  # every paper tried fails: the problems of the board as the spec asks it
            if not getattr(err, "problems", None):
                raise
            fd = request.respec(adjust(real.formula_d_spec(request.spec, request.spec.paper)))
            done = tr.said(search.board(fd.replace(profile=tr.BoardProfile())))
            # never a board of another kind (no real corners, no legend) in place of the one that failed
            return done if done.problems else tr.Analysis(request.spec, path, paper, None, list(err.problems), [])
    rounds = real.START_ROUNDS if _start_open(spec) else 0
    spec_policy = Policy(lambda r: adjust(r.spec), grid_shift, at_crossing, rounds=rounds)
    done = search.run(with_policy(request, spec_policy))
    rebuild = lambda spec: search.run(with_policy(request.respec(spec), spec_policy))  # noqa: E731
    forced = [n for n in forced_notes(done, rebuild) if n not in done.notices]
    if forced:
        done = replace(done, notices=[*done.notices, *(f"{done.circuit.name}: {n}" for n in forced)])
    return tr.said(with_play_notes(done))


def check_real_lap(request) -> None:
    """Refuse a real circuit's centre line longer, read in metres, than :data:`MAX_REAL_LAP_M` — before any work is
    sized by it — naming the user's file and the limit (exit 2)."""
    lap = float(arc_lengths(request.points)[-1])
    if lap > MAX_REAL_LAP_M:
        bare = request.source.suffix.lower() == ".csv"
        raise InputError(
            f"read in metres (as a real circuit's centre line is), the lap is {lap / 1000:,.0f} km; Formula D makes "
            f"boards of real circuits of at most {MAX_REAL_LAP_M / 1000:,.0f} km",
            file=request.source,
            line=None if bare else request.report().line_of("csv"),
            field=None if bare else "csv",
            hint="give the centre line in metres (one in millimetres is a thousand times too long)",
        )


def with_policy(request, policy: Policy):
    """``request`` searched as Formula D's boards are: its notes, and ``policy``."""
    return request.replace(profile=tr.BoardProfile(notes=corner_notes, policy=policy))


def _start_open(spec) -> bool:
    """Whether the start line is Paddock's to place: the spec writes no ``start``, numbers nothing in units from
    it (:func:`~generator.track.search.by_unit`; an arc's corner is measured from wherever the line stands), and
    has a grid."""
    return "start" not in spec.model_fields_set and not by_unit(spec) and bool(spec.grid)


def load_circuit(
    track: Path | None,
    paper=None,
    edge: float = DEFAULT_EDGE,
    road_race: bool = False,
    garages: int = 0,
    overrides: dict | None = None,
):
    """The circuit to race on (:func:`board_analysis`); one GeometryError listing every problem otherwise."""
    done = board_analysis(track, paper, edge, road_race, garages, overrides)
    if done.problems:
        raise geometry_error(done.problems, done.source)
    return done.circuit


def arc_corners(spec):
    """``spec`` with a corner declared for every arc that names its ``stops`` or ``name``: from the unit the arc
    begins in to the unit it ends in, counted from the start line (as a ``corners`` entry counts them), added to
    the spec's own ``corners``. The units are measured on the segments as written (``close: auto`` may move the
    board's by a fraction of a unit)."""
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
