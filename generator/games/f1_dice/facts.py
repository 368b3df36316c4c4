"""The f1-dice game facts: every ``templates/f1-dice/*.yaml`` read once into typed models, and the arithmetic the
sheets share (qualifying sessions, race length, points systems).

    f = facts()                      # the game's numbers and words, validated once per process
    f.board.action_every, f.qualifying.out_after["Q1"], f.words.race.title

A misspelt or missing key in one of the files is refused when it is loaded, naming the file, the line and the
field, never later when a sheet prints it. Maps keyed by data (``out_after`` by session, the quick-race ``tiers``
by team tier) stay dicts inside the models. The rule summary (``summary.yaml``) is the summary model's
(:mod:`generator.compose.summary`): it is validated when it is read.

Every sheet that prints a number takes it from here (or from the circuit it is printed with, for the board's own
numbers such as ``action_every``), so a number lives in one place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...errors import InputError
from ...teams.models import Team, TeamField
from ...words import ordinal  # noqa: F401  (its sheets number places with it)

DEFAULT_TEAMS = "f1-2011"
DEFAULT_RACES = 19

Tier = Literal["front", "midfield", "back"]
Count = Annotated[int, Field(ge=1)]


class _Facts(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- the rulebook's numbers -----------------------------------------------------------------------------------


class ActionRoll(_Facts):
    roll: Count
    title: str
    effect: Literal["retire", "move", "none"]
    units: int | None  # units moved (forward +, back −); None when the car retires


class ActionTable(_Facts):
    """``action-roll.yaml``: the roll made on arriving at a marked unit."""

    rolls: list[ActionRoll] = Field(min_length=1)

    @property
    def worst(self) -> ActionRoll:
        """The roll that sends a car furthest back."""
        return min((r for r in self.rolls if r.effect == "move"), key=lambda r: r.units)

    @property
    def retire(self) -> ActionRoll:
        return next(r for r in self.rolls if r.effect == "retire")


class BoardFacts(_Facts):
    """``board.yaml``: the board defaults a circuit spec of the game gets (read by the circuit engine too)."""

    lanes: Count
    lane_width: float = Field(gt=0)
    unit: float = Field(gt=0)
    units: Literal["across", "per-lane"]
    action_every: Count
    room_for_car: float = Field(gt=0, lt=1)


class Slip(_Facts):
    width: float = Field(gt=0)
    length: float = Field(gt=0)
    wing: float = Field(gt=0)

    @property
    def body(self) -> float:
        return self.length - self.wing


class Lettering(_Facts):
    margin_x: float = Field(ge=0)
    margin_y: float = Field(ge=0)
    max_size: float = Field(gt=0)


class CarFacts(_Facts):
    """``cars.yaml``: the car slip at the board's unit and the lettering on its wing."""

    slip: Slip
    lettering: Lettering


class Players(_Facts):
    max: Count
    stretch: Count


class QuickRace(_Facts):
    dice: Count
    crash_double: Count


class GameFacts(_Facts):
    """``game.yaml``: who plays and with which dice."""

    players: Players
    race_dice: Count
    quick_race: QuickRace


class PointsSystem(_Facts):
    id: str
    label: str
    points: list[int] = Field(min_length=1)
    note: str
    best_results: Count | None = None

    @property
    def scale(self) -> str:
        """``25-18-15-12-10-8-6-4-2-1``."""
        return "-".join(str(p) for p in self.points)


class PointsFacts(_Facts):
    """``points.yaml``: the points systems, first place first."""

    default: str
    systems: list[PointsSystem] = Field(min_length=1)

    @property
    def default_system(self) -> PointsSystem:
        return next(s for s in self.systems if s.id == self.default)

    @property
    def best_of(self) -> PointsSystem:
        """The system that counts only a driver's best results."""
        return next(s for s in self.systems if s.best_results)


class QualifyingFacts(_Facts):
    """``qualifying.yaml``: the sessions and how many drop out after each (a map keyed by session) in the field
    the rulebook writes for, and Paddock's reading for any other field."""

    sessions: list[str] = Field(min_length=1)
    out_after: dict[str, Count]
    rulebook_field: Count
    min_cars: Count
    die_sides: Count
    minimum_result: int


class RaceLength(_Facts):
    """``race.yaml``: Paddock's race-length default (the rulebook sets none)."""

    target_units: Count
    die_average: float = Field(gt=0)
    min_laps: Count  # the default race's fewest laps
    fewest_laps: Count  # the fewest --laps accepts (a sprint)
    max_laps: Count
    min_cars: Count  # the smallest field the pack races


# -- Paddock's words ------------------------------------------------------------------------------------------


class RuleSection(_Facts):
    heading: str
    items: list[str] = Field(min_length=1)


class RuleTexts(_Facts):
    """``rules.yaml``: the reference card's rules in Paddock's words."""

    title: str
    sections: list[RuleSection] = Field(min_length=1)
    quick_race: RuleSection


class QualifyingWords(_Facts):
    subtitle: str
    subtitle_one: str
    minimum_note: str
    dead_heat: str
    tie_group: str


class Effects(_Facts):
    retire: str
    none: str
    forward: str
    back: str

    def of(self, roll: ActionRoll) -> str:
        """What ``roll`` does, in words: "out of the race", "+2 units (forward)"."""
        if roll.effect == "retire":
            return self.retire
        if roll.effect == "none":
            return self.none
        return (self.forward if roll.units > 0 else self.back).format(units=abs(roll.units))


class KnockoutWords(_Facts):
    session: str
    session_one: str
    last: str
    header: str
    header_one: str
    header_last: str
    rulebook: str
    paddock: str
    reading: str


class ReferenceWords(_Facts):
    subtitle: str
    action_heading: str
    effects: Effects
    tiers: dict[Tier, str]
    tier_none: str
    tier_note: str
    tier_blank: str
    race_heading: str
    race_line: str
    race_reason: str
    pit_heading: str
    pit_text: str
    qualifying_heading: str
    tie_break_team: str
    tie_break_rulebook: str
    tie_break_yours: str
    tie_break_group: str
    points_heading: str
    this_championship: str


class StandingsWords(_Facts):
    subtitle: str
    best: str
    constructors_subtitle: str


class RaceWords(_Facts):
    title: str
    subtitle: str
    chart_heading: str
    chart_note: str
    grid_column: str
    lap_column: str
    finish_heading: str
    finish_note: str
    points_column: str
    counter_heading: str
    code_column: str
    car_column: str
    laps_column: str
    out_column: str
    start_column: str
    counter_note: str


class SummaryWords(_Facts):
    """The rule summary's examples and notes: one of each set is printed, the one the pack's field bears out."""

    mod_plus: str
    mod_minus: str
    teammates: str
    dead_heat_tie: str
    dead_heat_teams: str
    dead_heat_mates: str
    dead_heat_any: str
    knockout_rulebook: str
    knockout_reading: str
    tiers_given: str
    tiers_blank: str


class SheetWords(_Facts):
    """``sheets.yaml``: Paddock's wording for the sheets (``{braces}`` filled in from the numbers)."""

    qualifying: QualifyingWords
    knockout: KnockoutWords
    reference: ReferenceWords
    standings: StandingsWords
    race: RaceWords
    summary: SummaryWords
    board_laps: str
    board_laps_note: str
    board_pole: str


# -- loading --------------------------------------------------------------------------------------------------

#: Each fact file of ``templates/f1-dice/`` and its model (``summary.yaml`` is the summary model's).
FILES: dict[str, type[_Facts]] = {
    "action-roll.yaml": ActionTable,
    "board.yaml": BoardFacts,
    "cars.yaml": CarFacts,
    "game.yaml": GameFacts,
    "points.yaml": PointsFacts,
    "qualifying.yaml": QualifyingFacts,
    "race.yaml": RaceLength,
    "rules.yaml": RuleTexts,
    "sheets.yaml": SheetWords,
}


@dataclass(frozen=True)
class Facts:
    """Every fact file of the game, typed."""

    actions: ActionTable
    board: BoardFacts
    cars: CarFacts
    game: GameFacts
    points: PointsFacts
    qualifying: QualifyingFacts
    race: RaceLength
    rules: RuleTexts
    words: SheetWords


def load(folder: Path) -> Facts:
    """Every fact file in ``folder`` (``templates/f1-dice/`` or a copy of it), validated: a problem is an
    :class:`InputError` naming the file, the line and the field."""
    from ...specs import parse_yaml, validate

    models = {}
    for name, model in FILES.items():
        path = folder / name
        data, lines = parse_yaml(path.read_text(encoding="utf-8"), path, trusted=True)
        models[name] = validate(model, data, path, lines)
    return Facts(*(models[name] for name in FILES))


@cache
def facts() -> Facts:
    """The game's facts, read once per process."""
    from ...data import templates_dir

    return load(templates_dir() / "f1-dice")


# -- what the sheets share ------------------------------------------------------------------------------------


def points_system(system_id: str | None) -> PointsSystem:
    data = facts().points
    wanted = system_id or data.default
    for system in data.systems:
        if system.id == wanted or system.scale == wanted:
            return system
    ids = ", ".join(s.id for s in data.systems)
    raise InputError(f"unknown points system '{str(wanted)[:40]}'", field="--points", hint=f"use one of {ids}")


def cars_word(n: int) -> str:
    """``1 car``, ``9 cars``."""
    return f"{n} car{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class Session:
    """One qualifying session: the cars that run it and the grid places it settles (``first``…``last``)."""

    name: str
    cars: int
    first: int
    last: int

    @property
    def out(self) -> int:
        """How many drop out after it (0: the last session, which settles the front)."""
        return self.last - self.first + 1 if self.first > 1 else 0

    @property
    def places(self) -> str:
        return f"P{self.first}–P{self.last}" if self.first != self.last else f"P{self.first}"

    def said(self, words: str, one: str, last: str, **extra) -> str:
        """This session in the knock-out's wording: ``words`` when several drop out, ``one`` when one does,
        ``last`` for the session that settles the front."""
        form = last if not self.out else one if self.out == 1 else words
        return form.format(session=self.name, cars=cars_word(self.cars), out=self.out, places=self.places, **extra)

    def header(self) -> str:
        """Over the session's column on the qualifying sheet: ``9 cars · slowest 3 take P7–P9``."""
        w = facts().words.knockout
        return self.said(w.header, w.header_one, w.header_last)


@dataclass(frozen=True)
class Knockout:
    """The qualifying knock-out of a field of ``cars``: the rulebook's for its own field (24 → 17 → 10), else
    Paddock's reading (:func:`knockout`). Every sheet that prints it says it with :meth:`line`."""

    cars: int
    sessions: tuple[Session, ...]

    @property
    def rulebook(self) -> bool:
        return self.cars == facts().qualifying.rulebook_field

    @property
    def sizes(self) -> str:
        """``9, 6 and 3 cars in Q1, Q2 and Q3``: the cars in each session."""
        cars = and_list([str(s.cars) for s in self.sessions]) + (" car" if self.sessions[-1].cars == 1 else " cars")
        return f"{cars} in {and_list([s.name for s in self.sessions])}"

    def line(self) -> str:
        """``Q1: 9 cars, slowest 3 take P7–P9 · Q2: 6 cars, slowest 3 take P4–P6 · Q3: 3 cars for P1–P3``."""
        words = facts().words.knockout
        return " · ".join(s.said(words.session, words.session_one, words.last) for s in self.sessions)

    def heading(self) -> str:
        """The line with what it is: the rulebook's knock-out, or Paddock's reading for this field."""
        words = facts().words.knockout
        if self.rulebook:
            return words.rulebook.format(field=self.cars, sessions=self.line())
        return words.paddock.format(cars=cars_word(self.cars), sessions=self.line())

    def reading(self) -> str | None:
        """Why the knock-out is what it is, when it is Paddock's reading (None for the rulebook's own field)."""
        if self.rulebook:
            return None
        return facts().words.knockout.reading.format(**self.reading_values())

    def reading_values(self) -> dict[str, str]:
        q = facts().qualifying
        return {
            "field": str(q.rulebook_field),
            "rulebook": knockout(q.rulebook_field).sizes,
            "cars": cars_word(self.cars),
            "share": share(),
            "min_cars": str(q.min_cars),
            "sizes": self.sizes,
        }


def share() -> str:
    """The share of the field each knock-out drops: ``7 in 24``."""
    q = facts().qualifying
    out = sorted(set(q.out_after.values()))
    if len(out) == 1:
        return f"{out[0]} in {q.rulebook_field}"
    return ", ".join(f"{name} {v} in {q.rulebook_field}" for name, v in q.out_after.items())


def knockout(n: int) -> Knockout:
    """The knock-out of a field of ``n`` cars. The rulebook's numbers drop ``out_after`` cars after a session in
    its field of ``rulebook_field``; Paddock reads any field as dropping the same share, rounded to the nearest car
    (halves up), and ends qualifying with the session whose knock-out would leave fewer than ``min_cars``. In the
    rulebook's own field this is its knock-out exactly (24 → 17 → 10)."""
    q = facts().qualifying
    out: list[Session] = []
    running = n
    for name in q.sessions:
        share_of = q.out_after.get(name)
        drop = math.floor(n * share_of / q.rulebook_field + 0.5) if share_of is not None else 0
        if drop < 1 or running - drop < q.min_cars:
            out.append(Session(name, running, 1, running))
            break
        out.append(Session(name, running, running - drop + 1, running))
        running -= drop
    return Knockout(n, tuple(out))


def session_sizes(n: int) -> list[tuple[str, int, int, int]]:
    """``(session, cars taking part, first grid place decided, last)`` for a field of ``n`` cars."""
    return [(s.name, s.cars, s.first, s.last) for s in knockout(n).sessions]


def modifiers(team: Team) -> tuple[int, ...]:
    """The team's modifier in each session; a team the teams file gives none rolls the plain die (d) in all."""
    q = team.qualifying
    return tuple(q.session(s) if q else 0 for s in facts().qualifying.sessions)


def tie_groups(field: TeamField) -> list[list[str]]:
    """Teams whose modifiers are equal in every session: in a dead heat between them the players roll a
    deciding die."""
    groups: dict[tuple, list[str]] = {}
    for t in field.teams:
        groups.setdefault(modifiers(t), []).append(t.name)
    return [g for g in groups.values() if len(g) > 1]


def dmod(m: int) -> str:
    """A qualifying modifier the way the rulebook writes it: d+3, d, d−2."""
    if m == 0:
        return "d"
    return f"d+{m}" if m > 0 else f"d−{-m}"


@dataclass(frozen=True)
class RaceFacts:
    """What the board and the race length say, for every sheet printed with that board: the reference card, the
    race sheet and the rule summary read these, so they agree with the board."""

    lap_units: int  # units in one lap
    action_every: int  # every Nth unit is an action square
    laps: int
    laps_default: bool  # True: Paddock's default (race.yaml), not the user's choice
    action_units: tuple[int, ...] = ()  # the units the board marks as action squares (every Nth, none in a tunnel)
    grid: int = 0  # grid slots: the cars that race

    @property
    def race_units(self) -> int:
        return self.laps * self.lap_units

    @property
    def laps_said(self) -> str:
        """``3 laps``, ``1 lap`` (a sprint)."""
        return laps_word(self.laps)

    @property
    def rounds(self) -> int:
        """About how many rounds the race takes at one die's average."""
        return round(self.race_units / float(facts().race.die_average))

    @property
    def action_list(self) -> str:
        """``10, 20, 30, 40 and 50`` (``none`` on a lap shorter than one interval)."""
        return and_list([str(u) for u in self.action_units]) or "none"

    @property
    def action_nth(self) -> str:
        return ordinal(self.action_every)


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def default_laps(lap_units: int) -> int:
    """The lap count nearest ``target_units`` of racing, within the race.yaml bounds."""
    r = facts().race
    laps = round(float(r.target_units) / max(lap_units, 1))
    return int(min(max(laps, r.min_laps), r.max_laps))


def laps_word(n: int) -> str:
    """``1 lap``, ``3 laps``."""
    return f"{n} lap{'' if n == 1 else 's'}"


def laps_range() -> str:
    """``1 to 30 laps``: what ``--laps`` accepts, said the same way wherever it is said."""
    r = facts().race
    return f"{r.fewest_laps} to {r.max_laps} laps"


def check_laps(laps: int) -> int:
    r = facts().race
    if not r.fewest_laps <= laps <= r.max_laps:
        raise InputError(f"a race of {laps_word(laps)}", field="--laps", hint=f"give {laps_range()}")
    return laps


def check_cars(field: TeamField, source: str | None = None) -> None:
    """Refuse a field smaller than the pack races (``race.yaml``'s ``min_cars``): ``source`` names where it came
    from (the teams file, or ``--cars N``)."""
    least = facts().race.min_cars
    n = len(field.drivers)
    if n < least:
        raise InputError(
            f"{cars_word(n)} to race: the game is raced from {least} cars up",
            field="--cars" if source is None else None,
            file=source,
            hint=f"give --cars {least} or more" if source is None else f"add drivers: at least {least} in all",
        )
