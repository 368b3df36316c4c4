"""The f1-dice game facts, read once from ``templates/f1-dice/*.yaml`` (numbers) and the field's teams file.

Every sheet that prints a number takes it from here (or from the circuit it is printed with, for the board's
own numbers such as ``action_every``), so a number lives in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import InputError
from ...teams.models import TeamField
from . import GAME

DEFAULT_TEAMS = "f1-2011"
DEFAULT_RACES = 19


def qualifying_rules() -> dict[str, Any]:
    return GAME.facts("qualifying.yaml")


def action_table() -> dict[str, Any]:
    return GAME.facts("action-roll.yaml")


def points_systems() -> dict[str, Any]:
    return GAME.facts("points.yaml")


def race_rules() -> dict[str, Any]:
    return GAME.facts("rules.yaml")


def sheet_texts() -> dict[str, Any]:
    """Paddock's wording for the sheets (``{braces}`` are filled in from the numbers)."""
    return GAME.facts("sheets.yaml")


def board() -> dict[str, Any]:
    """The board defaults: lanes, lane width, unit, every how many units an action square."""
    return GAME.facts("board.yaml")


def slip() -> dict[str, float]:
    """A car slip at the board's unit: width, length, wing (mm)."""
    return {k: float(v) for k, v in GAME.facts("cars.yaml")["slip"].items()}


def points_system(system_id: str | None) -> dict[str, Any]:
    data = points_systems()
    wanted = system_id or data["default"]
    for system in data["systems"]:
        if system["id"] == wanted or "-".join(str(p) for p in system["points"]) == wanted:
            return system
    ids = ", ".join(s["id"] for s in data["systems"])
    raise InputError(f"unknown points system '{str(wanted)[:40]}'", field="--points", hint=f"use one of {ids}")


def session_sizes(n: int) -> list[tuple[str, int, int, int]]:
    """``(session, cars taking part, first grid place decided, last)`` for a field of ``n`` cars."""
    rules = qualifying_rules()
    out = []
    running = n
    for name in rules["sessions"]:
        drop = rules["out_after"].get(name)
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


def race() -> dict[str, Any]:
    """Race-length defaults (the rulebook sets none)."""
    return GAME.facts("race.yaml")


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
        return round(self.race_units / float(race()["die_average"]))

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
    r = race()
    laps = round(float(r["target_units"]) / max(lap_units, 1))
    return int(min(max(laps, r["min_laps"]), r["max_laps"]))


def check_laps(laps: int) -> int:
    r = race()
    if not r["min_laps"] <= laps <= r["max_laps"]:
        raise InputError(f"a race of {laps} laps", field="--laps", hint=f"give {r['min_laps']} to {r['max_laps']} laps")
    return laps
