"""The f1-dice board: the circuit built for a field (a grid slot for every car, a garage per team, the race
length printed beside the start line, a box for the pole-sitter's name), and what it says beside it.

The game's board hooks (:class:`generator.games.Game`): :func:`board` and :func:`board_facts` (the preview).
:func:`board_circuit` is the pack's (and the simulation's) board for a field; :func:`race_facts` what every sheet
printed with it agrees on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

from shapely import Point, box

from ... import track as circuits
from ...compose.blocks import fit
from ...data import is_shipped
from ...errors import InputError
from ...fonts import text_width
from ...messages import quote
from ...notices import warn
from ...paper import PageSettings
from ...problems import Fix, geometry_error
from ...scene import Polyline, Sheet, Style, Text, rect
from ...teams import load_field
from ...track.changed import NoPitLane, PitLaneDrawn
from ...track.checks import check_grid
from ...track.features import garage_width, with_garages
from ...track.numbers import action_units
from ...track.palette import INK, MUTED
from ...track.search import most_that_builds
from ...units import pt_to_mm
from ...words import ordinal
from .. import BoardFacts, board_notes
from .facts import DEFAULT_TEAMS, RaceFacts, check_laps, default_laps
from .facts import facts as game_facts


def board(
    spec_path, settings, teams=None, laps=None, pit=True, cars=None, start=None, grid=None, problems=None
) -> tuple:
    """The pack's board: a grid slot for every car of the field (``teams``, default the pack's; its first ``cars``
    as ``pack --cars`` races them), a garage per team, the race length (``laps``) printed beside the start, the
    start line where ``start`` puts it. ``grid`` is refused: the field sets the grid. ``problems``: a list the
    board's problems go into instead of being raised (see :meth:`generator.games.Game.board`)."""
    if grid is not None:
        raise InputError(
            f"--grid {grid}: an f1-dice board has a grid slot for every car of the field",
            field="--grid",
            hint="race a smaller field with --cars N",
        )
    field = load_field(teams or DEFAULT_TEAMS)
    if cars is not None:
        field = first_cars(field, cars)
    if laps is not None:
        check_laps(laps)
    circuit = board_circuit(
        spec_path, len(field.drivers), settings, garages=len(field.teams), pit=pit, start=start, problems=problems
    )
    return circuit, board_sheet(circuit, race_facts(circuit, laps))


def board_facts(circuit, laps: int | None = None) -> BoardFacts:
    """The race the board prints beside its start line, and where the action roll is made."""
    facts = race_facts(circuit, laps)
    race = f"{facts.laps_said}, {facts.race_units} units"
    return BoardFacts(figures=(("Race", race), ("Action roll", f"every {ordinal(facts.action_every)} unit")))


def first_cars(field, cars: int):
    """The first ``cars`` cars of ``field``, in its order: whole teams while they fit, then the first drivers of
    the next team (it races the cars that fit; its garage and qualifying line stay its own)."""
    least = game_facts().race.min_cars
    if cars < least:
        raise InputError(
            f"--cars {cars}: the game is raced from {least} cars up", field="--cars", hint=f"give {least} or more"
        )
    if cars > len(field.drivers):
        warn(f"--cars {cars}: {quote(field.name)} has {len(field.drivers)} cars; they all race")
    if cars >= len(field.drivers):
        return field
    kept, n = [], 0
    for team in field.teams:
        room = cars - n
        if room <= 0:
            break
        if len(team.drivers) > room:
            warn(
                f"--cars {cars}: {quote(team.name)} races {room} of its {len(team.drivers)} cars (the first {cars} "
                f"cars of {quote(field.name)} race)"
            )
            team = team.model_copy(update={"drivers": team.drivers[:room]})
        kept.append(team)
        n += len(team.drivers)
    return field.model_copy(update={"teams": kept})


def board_sheet(circuit, facts: RaceFacts) -> Sheet:
    """The board with the race length printed on free paper near the start line, and a box beside pole position
    for the pole-sitter's name (the rulebook: "write the name of the driver in pole position beside that unit")."""
    board = circuits.draw_board(circuit)
    say = game_facts().words
    head = say.board_laps.format(LAPS=facts.laps_said.upper())
    note = say.board_laps_note.format(race_units=facts.race_units, nth=ordinal(facts.action_every))
    big, small = pt_to_mm(14), pt_to_mm(7)
    w = max(text_width(head, big, "bold"), text_width(note, small, "regular")) + 2
    h = big * 1.2 + small * 1.6 + 2
    sx, sy = circuit.point_at(0.0)
    spot = board.free.find(w, h, [(sx - w / 2, sy + 15), (sx - w / 2, sy - h - 15)], step=4.0)
    if spot is not None:
        x, y = spot[0] + 1, spot[1] + 1
        board.free.take(box(spot[0], spot[1], spot[0] + w, spot[1] + h))
        lab = board.page.layer("labels")
        lab.add(Text(head, x, y + big * 0.95, big, "bold", INK))
        lab.add(Text(note, x, y + big * 1.2 + small * 1.1, small, "regular", MUTED))
    _pole_box(board, circuit, say.board_pole)
    return Sheet(circuits.board_stem(circuit.name), board.page)


POLE_BOXES = ((42.0, 10.0), (28.0, 12.0))  # mm: room to write a name; the narrower one where the wide one is far
POLE_NEAR = 30.0  # mm from grid slot 1 to the box's nearest point: "beside that unit"


def _pole_box(board, circuit, label: str) -> None:
    """A box to write the pole-sitter's name in, on free paper beside grid slot 1 (the pole lane's side first),
    else as near it as there is: the wide box, or a narrower one where only that fits near the slot (between two
    straights, say)."""
    pole = next((slot for slot in circuit.grid if slot.number == 1), None)
    if pole is None:
        return
    s = -(pole.row + 0.5) * circuit.unit_length
    sign = 1.0 if circuit.lane_offset(pole.lane) >= 0 else -1.0
    found = []
    for w, h in POLE_BOXES:
        prefer = []
        for side in (sign, -sign):
            for extra in (4.0, 8.0, 14.0):
                for along in (0.0, -1.0, 1.0, -2.0):
                    cx, cy = circuit.offset_point(
                        s + along * circuit.unit_length, side * (circuit.half_width + extra + h)
                    )
                    prefer.append((cx - w / 2, cy - h / 2))
        spot = board.free.find(w + 1, h + 1, prefer, step=3.0)  # half a millimetre round it for its stroke
        if spot is not None:
            far = Point(pole.centre).distance(box(spot[0], spot[1], spot[0] + w + 1, spot[1] + h + 1))
            found.append((far > POLE_NEAR, far, spot, w, h))
            if far <= POLE_NEAR:
                break
    if not found:
        return
    _, _, spot, w, h = min(found, key=lambda f: f[:2])
    board.free.take(box(spot[0], spot[1], spot[0] + w + 1, spot[1] + h + 1))
    x, y = spot[0] + 0.5, spot[1] + 0.5
    lab = board.page.layer("labels")
    lab.add(rect(x, y, w, h, Style(stroke=INK, width=0.35, fill="#ffffff")))
    size = fit(label, "condensed-bold", pt_to_mm(6), w - 2.4)
    lab.add(Text(label, x + 1.2, y + 1.0 + size * 0.8, size, "condensed-bold", MUTED))
    lab.add(Polyline(((x + 1.5, y + h - 2.0), (x + w - 1.5, y + h - 2.0)), Style(stroke=MUTED, width=0.15)))


@dataclass(frozen=True)
class CarsFix(Fix):
    """A smaller field: the pack races the first ``value`` cars (``--cars``)."""

    field: ClassVar[str] = "cars"

    def spec_text(self) -> str:
        return f"race a field of {self.value} cars"

    def option_text(self) -> str:
        return f"race a smaller field (--cars {self.value})"


def _fewer_cars(problem, spec, path, start=None):
    """A grid the board cannot hold, re-said for the pack: a smaller field always fits (``--cars``). For a real
    centre line (its grid then goes where the line is straightest) and for Paddock's own boards, which the user
    does not edit, that is the fix; a circuit the user drew keeps its own advice (lengthen the straight, move
    the start line) with the smaller field as another fix."""
    if problem.kind != "grid":
        return problem
    here = problem.numbers.get("straight_units", 0) * spec.lanes  # what the straight behind the line holds
    if start in ("real", "placed"):  # the start line where --start put it: only its own straight counts
        if not (here and "rows" in problem.numbers):
            return replace(problem, fixes=())
        advice = f"the straight behind the start line holds a grid of at most {here} cars"
        return replace(problem, advice=advice, fixes=(CarsFix(here),))
    # a real line's grid goes where the line is straightest (its most); a drawn circuit's stays behind its line
    anywhere = problem.numbers.get("most_cars") if spec.segments is None or "rows" not in problem.numbers else None
    most = anywhere or here
    if not most:
        return problem
    if spec.segments is None or is_shipped(path):
        advice = (
            f"no straight of the circuit holds the grid of more than {most} cars"
            if anywhere
            else f"the straight behind its line holds a grid of at most {most} cars"
        )
        # Paddock's own board: nothing in its file for the user to change, so no file line to point at
        line = None if is_shipped(path) else problem.line
        return replace(problem, advice=advice, fixes=(CarsFix(most),), line=line)
    return replace(problem, fixes=(*problem.fixes, CarsFix(most)))


def _grid_that_fits(search, request, problems, cars: int, pit: bool) -> int | None:
    """A grid longer than a third of the lap is refused before any straight is measured: the field that truly
    fits, found by building the board for the largest field the lap allows (and, if its straight is shorter
    still, for the field that straight holds: :func:`generator.track.search.most_that_builds`)."""
    most = next((p.numbers.get("most_cars") for p in problems if p.kind == "grid" and "rows" not in p.numbers), None)

    def fewer(n: int) -> int | None:  # None: a field of n builds; else the field its board's problems say fits
        spec, _, found = _field_board(search, request, n, None, pit)
        worded = [_fewer_cars(p, spec, request.source, request.start) for p in found]
        return next((f.value for p in worded for f in p.fixes if f.field == "cars"), n) if found else None

    return most_that_builds(most, cars, fewer)


def _grid_error(problems, spec, path, fits: int | None = None, start=None):
    """The board's problems as one error, the grid's re-said for the pack (``fits``: the field that was found to
    fit); Paddock's own board is named by its title, not by a file inside the package."""
    if fits:
        problems = [
            replace(p, numbers={**p.numbers, "most_cars": fits}) if p.kind == "grid" and "rows" not in p.numbers else p
            for p in problems
        ]
    # Paddock's own board stands where a file would (the command line re-says the problems under it)
    where = f"the board {spec.title or spec.name}" if is_shipped(path) else path
    return geometry_error([_fewer_cars(p, spec, path, start) for p in problems], where)


def board_circuit(
    track: Path | None,
    cars: int,
    settings: PageSettings,
    garages: int | None = None,
    pit: bool = True,
    start=None,
    problems: list | None = None,
):
    """The board for a field of ``cars``: the circuit with a grid slot for every car (a located GeometryError
    with the fix when the straight behind the line cannot hold them), a garage per team in its pit lane
    (``garages``), or no pit lane (``pit=False``). ``problems``: a list the problems go into instead (the
    circuit as far as it builds is returned; a GeometryError only when there is none)."""
    request = circuits.read_request(
        track or circuits.default_spec(),
        {"start": start},
        paper=settings.board_paper(),
        edge=settings.edge,
        profile=circuits.BoardProfile(notes=board_notes),
    )
    search = circuits.Search()
    spec, done, found = _field_board(search, request, cars, garages, pit)
    if found:
        fits = _grid_that_fits(search, request, found, cars, pit) if done.problems else None
        error = _grid_error(found, spec, request.source, fits, request.start)
        if problems is None or done.circuit is None:
            raise error from None
        problems.extend(error.problems)
    return done.circuit


def _field_board(search, request, cars: int, garages: int | None, pit: bool):
    """``(spec, analysis, problems)``: the board of ``request`` for a field of ``cars`` (its notices said), a
    garage per team in its pit lane (``garages``) or none (``pit=False``), and its problems — the build's, else
    the whole field's on straight track behind the line (:func:`~generator.track.checks.check_grid`)."""
    spec = request.spec
    update: dict = {"grid": cars}
    if not pit:
        update["pit"] = None
    elif spec.pit is not None and garages:
        update["pit"] = spec.pit.model_copy(update={"garages": garages})
    spec = spec.model_copy(update=update)
    done = circuits.said(search.board(request.respec(spec)))
    circuit = done.circuit
    if done.problems:
        return spec, done, done.problems
    if circuit.pit is not None and spec.pit is None:  # a bare centre line's own pit lane
        if not pit:
            circuit.pit = None  # and what the build said of it is not news for a pack without one
            circuit.changes = [c for c in circuit.changes if not isinstance(c, PitLaneDrawn | NoPitLane)]
        elif garages and garages != circuit.pit.garages:
            more = with_garages(circuit, circuit.pit, garages)
            if garage_width(more) >= MIN_GARAGE:
                circuit.pit = more
    report = request.report()
    check_grid(report, circuit, asked=True, start=request.start)  # the whole field on straight track behind it
    return spec, done, report.problems


#: mm: the narrowest garage a pack gives a team in a bare centre line's pit lane (else it keeps one per two cars)
MIN_GARAGE = 6.0


def race_facts(circuit, laps: int | None = None) -> RaceFacts:
    """What every sheet printed with ``circuit`` must agree on: its lap, its action squares, its grid, the race
    length."""
    return RaceFacts(
        lap_units=circuit.units_count,
        action_every=circuit.spec.action_every,
        laps=laps if laps is not None else default_laps(circuit.units_count),
        laps_default=laps is None,
        action_units=tuple(action_units(circuit)),
        grid=len(circuit.grid),
    )
