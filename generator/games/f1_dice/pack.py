"""The f1-dice pack: every sheet needed to race the paper-and-dice F1 game (``../shared/rules/f1-dice.txt``).

Board, car slips for the field, the qualifying sheet, the race reference card and the championship standings.
The board's own numbers (unit, action squares) come from the circuit it is printed with, so every sheet of the
pack says the same as the board.
"""

from __future__ import annotations

from pathlib import Path

from ...data import is_shipped
from ...messages import quote
from ...notices import warn
from ...paper import PageSettings
from ...scene import Sheet, numbered
from ...teams import load_field
from ...teams.models import resolve
from ...track.changed import SegmentLengthened
from ..summaries import summary_sheets
from .board import board_circuit, board_sheet, first_cars, race_facts
from .facts import DEFAULT_RACES, DEFAULT_TEAMS, check_cars, check_laps, points_system
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
    check_cars(field, _source(teams))
    _plain_die(field)
    _no_tier(field, _source(teams))
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
    if track is None or not Path(track).is_file() or is_shipped(track):
        return
    for change in circuit.changes:
        if not isinstance(change, SegmentLengthened):
            warn(f"{Path(track).name}: {change}")


def _source(teams) -> str | None:
    """The user's teams file, for a message about it (None: a shipped preset)."""
    path = resolve(teams or DEFAULT_TEAMS)
    return None if is_shipped(path) else str(path)


def _no_tier(field, source: str | None) -> None:
    """Teams the teams file puts in no quick-race group (``tier``) while others have one: said once, naming the
    file (the reference card and the rule summary list them under "no group yet")."""
    if not any(t.tier for t in field.teams):
        return  # no split at all: the sheets leave the whole split to the players
    bare = [t.name for t in field.teams if not t.tier]
    if bare:
        names = ", ".join(quote(n) for n in bare[:4]) + (f" and {len(bare) - 4} more" if len(bare) > 4 else "")
        where = f"{source}: " if source else ""
        warn(
            f"{where}{names}: no 'tier' for the quick race; the race reference and the rule summary list "
            f"{'it' if len(bare) == 1 else 'them'} under 'no group yet' for the players to place"
        )


def _plain_die(field) -> None:
    """Teams the teams file gives no qualifying modifiers roll the plain die (d) in every session: said once."""
    bare = [t.name for t in field.teams if t.qualifying is None]
    if bare:
        names = ", ".join(quote(n) for n in bare[:4]) + (f" and {len(bare) - 4} more" if len(bare) > 4 else "")
        warn(
            f"{names}: no qualifying modifiers in the teams file; Paddock's reading: they roll the plain die (d) "
            "in every session"
        )
