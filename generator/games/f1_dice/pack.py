"""The f1-dice pack: every sheet needed to race the paper-and-dice F1 game (``../shared/rules/f1-dice.txt``).

Board, car slips for the field, the qualifying sheet, the race reference card and the championship standings.
The board's own numbers (unit, action squares) come from the circuit it is printed with, so every sheet of the
pack says the same as the board.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import GeometryError, InputError
from ...fonts import text_width
from ...paper import PageSettings
from ...scene import Sheet, numbered
from ...teams import load_field
from ..summaries import summary_sheets
from .facts import DEFAULT_RACES, DEFAULT_TEAMS, RaceFacts, check_laps, default_laps, points_system
from .qualifying import PAPER as QUALIFYING_PAPER
from .qualifying import qualifying_sheet
from .race import PAPER as RACE_PAPER
from .race import race_sheet
from .reference import PAPER as REFERENCE_PAPER
from .reference import reference_sheet
from .slips import PAPER as SLIPS_PAPER
from .slips import slip_pages
from .standings import PAPER as STANDINGS_PAPER
from .standings import constructors_sheet, standings_sheet


def build(
    settings: PageSettings,
    track: Path | None = None,
    teams: str | Path | None = None,
    points: str | None = None,
    races: int = DEFAULT_RACES,
    laps: int | None = None,
    pit: bool = True,
    cars: int | None = None,
    start: str | None = None,
) -> list[Sheet]:
    """Every sheet of the pack. ``cars``: race the first ``cars`` cars of the field (:func:`first_cars`), e.g.
    for a board whose straight cannot hold the whole field's grid; ``start``: the board's start line (units,
    'auto' or 'real', as ``paddock track --start``)."""
    field = load_field(teams or DEFAULT_TEAMS)
    if cars is not None:
        field = first_cars(field, cars)
    _plain_die(field)
    points_system(points)  # refuse a bad --points before drawing anything
    if laps is not None:
        check_laps(laps)
    circuit = board_circuit(track, len(field.drivers), settings, garages=len(field.teams), pit=pit, start=start)
    _say_changes(circuit, track)
    facts = race_facts(circuit, laps)
    sheets: list[Sheet] = [board_sheet(circuit, facts)]
    sheets += numbered("car-slips", slip_pages(field, settings.document_page(SLIPS_PAPER), circuit.spec.unit))
    sheets.append(Sheet("qualifying", qualifying_sheet(field, settings.text_page(QUALIFYING_PAPER))))
    reference = reference_sheet(field, settings.text_page(REFERENCE_PAPER), facts, points, circuit.pit is not None)
    sheets.append(Sheet("race-reference", reference))
    name = circuit.spec.title or circuit.name
    sheets += numbered("race-sheet", race_sheet(field, name, facts, settings.text_page(RACE_PAPER), points))
    standings_page = settings.text_page(STANDINGS_PAPER)
    sheets.append(Sheet("standings", standings_sheet(field, standings_page, points, races)))
    sheets.append(Sheet("constructors", constructors_sheet(field, standings_page, points, races)))
    sheets += summary_sheets("f1-dice", settings, race_facts=facts, field=field)
    return sheets


def _say_changes(circuit, track: Path | None) -> None:
    """What building the user's circuit changed, said as ``paddock track`` says it: on a bare centre line, where
    the pit lane went or that none fits, and where the start line moved for the grid. (A spec's ``close: auto``
    lengthening is ``paddock track``'s to word; Paddock's own boards change nothing the user could act on.)"""
    from ...data import is_shipped
    from ...notices import warn

    if track is None or not Path(track).is_file() or is_shipped(track):
        return
    for change in circuit.changes:
        if not change.startswith("segment "):
            warn(f"{Path(track).name}: {change}")


def board_sheet(circuit, facts: RaceFacts) -> Sheet:
    """The board with the race length printed on free paper near the start line, and a box beside pole position
    for the pole-sitter's name (the rulebook: "write the name of the driver in pole position beside that unit")."""
    from shapely import box

    from ... import track as circuits
    from ...outputs import safe_name
    from ...scene import Text
    from ...track.legend import ordinal
    from ...track.palette import INK, MUTED
    from ...units import pt_to_mm
    from .facts import facts as game_facts

    board = circuits.draw_board(circuit)
    say = game_facts().words
    head = say.board_laps.format(laps=facts.laps)
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
    return Sheet(safe_name(circuit.name.lower().replace(" ", "-")), board.page)


POLE_BOXES = ((42.0, 10.0), (28.0, 12.0))  # mm: room to write a name; the narrower one where the wide one is far
POLE_NEAR = 30.0  # mm from grid slot 1 to the box's nearest point: "beside that unit"


def _pole_box(board, circuit, label: str) -> None:
    """A box to write the pole-sitter's name in, on free paper beside grid slot 1 (the pole lane's side first),
    else as near it as there is: the wide box, or a narrower one where only that fits near the slot (between two
    straights, say)."""
    from shapely import Point, box

    from ...compose.blocks import fit
    from ...scene import Polyline, Style, Text, rect
    from ...track.palette import INK, MUTED
    from ...units import pt_to_mm

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


def first_cars(field, cars: int):
    """The first ``cars`` cars of ``field``, in its order: whole teams while they fit, then the first drivers of
    the next team (it races the cars that fit; its garage and qualifying line stay its own)."""
    from ...messages import quote
    from ...notices import warn

    if cars < 1:
        raise InputError(f"--cars {cars}", field="--cars", hint="race at least 1 car")
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
            first = "the first car" if cars == 1 else f"the first {cars} cars"
            warn(
                f"--cars {cars}: {quote(team.name)} races {room} of its {len(team.drivers)} cars ({first} of "
                f"{quote(field.name)} {'races' if cars == 1 else 'race'})"
            )
            team = team.model_copy(update={"drivers": team.drivers[:room]})
        kept.append(team)
        n += len(team.drivers)
    return field.model_copy(update={"teams": kept})


def _plain_die(field) -> None:
    """Teams the teams file gives no qualifying modifiers roll the plain die (d) in every session: said once."""
    from ...messages import quote
    from ...notices import warn

    bare = [t.name for t in field.teams if t.qualifying is None]
    if bare:
        names = ", ".join(quote(n) for n in bare[:4]) + (f" and {len(bare) - 4} more" if len(bare) > 4 else "")
        warn(
            f"{names}: no qualifying modifiers in the teams file; Paddock's reading: they roll the plain die (d) "
            "in every session"
        )


def _fewer_cars(problem, spec, path):
    """A grid the board cannot hold, re-said for the pack: a smaller field always fits (``--cars``). For a real
    centre line (its grid then goes where the line is straightest) and for Paddock's own boards, which the user
    does not edit, that is the fix; a circuit the user drew keeps its own advice (lengthen the straight, move
    the start line) with the smaller field as another fix."""
    from dataclasses import replace

    from ...data import is_shipped
    from ...problems import Fix

    if problem.kind != "grid":
        return problem
    here = problem.numbers.get("straight_units", 0) * spec.lanes  # what the straight behind the line holds
    if spec._start in ("real", "placed"):  # the start line where --start put it: only its own straight counts
        if not (here and "rows" in problem.numbers):
            return replace(problem, fixes=())
        advice = f"the straight behind the start line holds a grid of at most {here} cars"
        return replace(problem, advice=advice, fixes=(Fix("cars", here),))
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
        return replace(problem, advice=advice, fixes=(Fix("cars", most),), line=line)
    return replace(problem, fixes=(*problem.fixes, Fix("cars", most)))


def _grid_that_fits(problems, track, cars: int, settings, pit: bool, start=None) -> int | None:
    """A grid longer than a third of the lap is refused before any straight is measured: the field that truly
    fits, found by building the board for the largest field the lap allows (and, if its straight is shorter
    still, for the field that straight holds)."""
    most = next((p.numbers.get("most_cars") for p in problems if p.kind == "grid" and "rows" not in p.numbers), None)
    for _ in range(3):
        if not most or most >= cars:
            return None
        try:
            board_circuit(track, most, settings, pit=pit, start=start)
            return most
        except GeometryError as err:
            found = [f.value for p in getattr(err, "problems", ()) for f in p.fixes if f.field == "cars"]
            if not found or found[0] >= most:
                return None
            most = found[0]
    return None


def _grid_error(problems, spec, path, fits: int | None = None):
    """The board's problems as one error, the grid's re-said for the pack (``fits``: the field that was found to
    fit); Paddock's own board is named by its title, not by a file inside the package."""
    from dataclasses import replace

    from ...data import is_shipped
    from ...problems import geometry_error

    if fits:
        problems = [
            replace(p, numbers={**p.numbers, "most_cars": fits}) if p.kind == "grid" and "rows" not in p.numbers else p
            for p in problems
        ]
    # Paddock's own board stands where a file would (the command line re-says the problems under it)
    where = f"the board {spec.title or spec.name}" if is_shipped(path) else path
    return geometry_error([_fewer_cars(p, spec, path) for p in problems], where)


def board_circuit(
    track: Path | None, cars: int, settings: PageSettings, garages: int | None = None, pit: bool = True, start=None
):
    """The board for a field of ``cars``: the circuit with a grid slot for every car (a located GeometryError
    with the fix when the straight behind the line cannot hold them), a garage per team in its pit lane
    (``garages``), or no pit lane (``pit=False``)."""
    from ... import track as circuits
    from ...games import board_notes
    from ...track.checks import check_grid
    from ...track.problems import Report

    spec, lines, path = circuits.load_spec(track or circuits.default_spec(), {"start": start})
    update: dict = {"grid": cars}
    if not pit:
        update["pit"] = None
    elif spec.pit is not None and garages:
        update["pit"] = spec.pit.model_copy(update={"garages": garages})
    spec = spec.model_copy(update=update)
    try:
        circuit = circuits.build(spec, path, lines, settings.board_paper(), settings.edge, notes=board_notes)
    except GeometryError as err:
        if not getattr(err, "problems", None):
            raise
        fits = _grid_that_fits(err.problems, track, cars, settings, pit, start)
        raise _grid_error(err.problems, spec, path, fits) from None
    report = Report(path, lines)
    if circuit.pit is not None and spec.pit is None:  # a bare centre line's own pit lane
        if not pit:
            circuit.pit = None  # and what the build said of it is not news for a pack without one
            circuit.changes = [c for c in circuit.changes if "pit lane" not in c]
        elif garages and garages != circuit.pit.garages:
            from ...track.features import garage_width, with_garages

            more = with_garages(circuit, circuit.pit, garages)
            if garage_width(more) >= MIN_GARAGE:
                circuit.pit = more
    check_grid(report, circuit, asked=True)  # the whole field on straight track behind the line
    if report.problems:
        raise _grid_error(report.problems, spec, path)
    return circuit


#: mm: the narrowest garage a pack gives a team in a bare centre line's pit lane (else it keeps one per two cars)
MIN_GARAGE = 6.0


def race_facts(circuit, laps: int | None = None) -> RaceFacts:
    """What every sheet printed with ``circuit`` must agree on: its lap, its action squares, its grid, the race
    length."""
    from ...track.board import action_units

    return RaceFacts(
        lap_units=circuit.units_count,
        action_every=circuit.spec.action_every,
        laps=laps if laps is not None else default_laps(circuit.units_count),
        laps_default=laps is None,
        action_units=tuple(action_units(circuit)),
        grid=len(circuit.grid),
    )
