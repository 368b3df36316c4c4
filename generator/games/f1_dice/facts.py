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

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...errors import InputError
from ...teams.models import TeamField

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
    """``qualifying.yaml``: the sessions and how many drop out after each (a map keyed by session)."""

    sessions: list[str] = Field(min_length=1)
    out_after: dict[str, Count]
    die_sides: Count
    minimum_result: int


class RaceLength(_Facts):
    """``race.yaml``: Paddock's race-length default (the rulebook sets none)."""

    target_units: Count
    die_average: float = Field(gt=0)
    min_laps: Count
    max_laps: Count


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


class ReferenceWords(_Facts):
    subtitle: str
    grid_note: str
    action_heading: str
    effects: Effects
    tiers: dict[Tier, str]
    tier_note: str
    race_heading: str
    race_line: str
    race_reason: str
    pit_heading: str
    pit_text: str
    tie_break_heading: str
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
    grid_column: str
    lap_column: str
    finish_heading: str
    points_column: str
    retire_heading: str
    retire_columns: tuple[str, str, str]
    reasons: list[str] = Field(min_length=1)
    reasons_note: str


class SheetWords(_Facts):
    """``sheets.yaml``: Paddock's wording for the sheets (``{braces}`` filled in from the numbers)."""

    qualifying: QualifyingWords
    reference: ReferenceWords
    standings: StandingsWords
    race: RaceWords
    board_laps: str
    board_laps_note: str


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


def session_sizes(n: int) -> list[tuple[str, int, int, int]]:
    """``(session, cars taking part, first grid place decided, last)`` for a field of ``n`` cars."""
    rules = facts().qualifying
    out = []
    running = n
    for name in rules.sessions:
        drop = rules.out_after.get(name)
        if drop is None or running - drop < 1:
            out.append((name, running, 1, running))
            break
        out.append((name, running, running - drop + 1, running))
        running -= drop
    return out


def tie_groups(field: TeamField) -> list[list[str]]:
    """Teams whose three modifiers are all equal: in a dead heat between them the players roll a deciding die."""
    groups: dict[tuple, list[str]] = {}
    for t in field.teams:
        if t.qualifying:
            q = t.qualifying
            groups.setdefault((q.q1, q.q2, q.q3), []).append(t.name)
    return [g for g in groups.values() if len(g) > 1]


def dmod(m: int) -> str:
    """A qualifying modifier the way the rulebook writes it: d+3, d, d−2."""
    if m == 0:
        return "d"
    return f"d+{m}" if m > 0 else f"d−{-m}"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass(frozen=True)
class RaceFacts:
    """What the board and the race length say, for every sheet printed with that board: the reference card, the
    race sheet and the rule summary read these, so they agree with the board."""

    lap_units: int  # units in one lap
    action_every: int  # every Nth unit is an action square
    laps: int
    laps_default: bool  # True: Paddock's default (race.yaml), not the user's choice
    grid_units: tuple[int, ...] = ()  # units the starting grid stands on (no action square there)

    @property
    def race_units(self) -> int:
        return self.laps * self.lap_units

    @property
    def rounds(self) -> int:
        """About how many rounds the race takes at one die's average."""
        return round(self.race_units / float(facts().race.die_average))

    @property
    def action_under_grid(self) -> bool:
        """True when the grid stands on a unit that would otherwise be an action square (it is left unmarked)."""
        return bool(set(self.grid_units) & set(range(self.action_every, self.lap_units + 1, self.action_every)))

    @property
    def action_units(self) -> list[int]:
        """The units marked as action squares."""
        grid = set(self.grid_units)
        return [u for u in range(self.action_every, self.lap_units + 1, self.action_every) if u not in grid]


def default_laps(lap_units: int) -> int:
    """The lap count nearest ``target_units`` of racing, within the race.yaml bounds."""
    r = facts().race
    laps = round(float(r.target_units) / max(lap_units, 1))
    return int(min(max(laps, r.min_laps), r.max_laps))


def check_laps(laps: int) -> int:
    r = facts().race
    if not r.min_laps <= laps <= r.max_laps:
        raise InputError(f"a race of {laps} laps", field="--laps", hint=f"give {r.min_laps} to {r.max_laps} laps")
    return laps
