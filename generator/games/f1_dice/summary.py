"""The f1-dice rule summary's numbers and tables (``templates/f1-dice/summary.yaml`` holds the words).

Everything comes from the facts the pack's other sheets print: the board (``board.yaml``: lanes, unit, action
squares), the car slip, qualifying, the action roll and the points systems, and the 2011 field's team modifiers
and quick-race tiers (``templates/teams/f1-2011.yaml``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .facts import (
    DEFAULT_RACES,
    DEFAULT_TEAMS,
    RaceFacts,
    and_list,
    cars_word,
    dmod,
    knockout,
    modifiers,
    ordinal,
    tie_groups,
)
from .facts import facts as game_facts
from .slips import PAPER as SLIP_PAPER

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _word(n: int) -> str:
    return WORDS.get(n, str(n))


def _cm(mm: float) -> str:
    return f"{mm / 10:g}"


@cache
def _field():
    """The default field, read once per process: both :func:`values` and :func:`tables` ask for it."""
    from ...teams import load_field

    return load_field(DEFAULT_TEAMS)


def _board_paper() -> str:
    from ...paper import Paper
    from ...track.model import CircuitSpec

    return Paper(CircuitSpec.model_fields["paper"].default).size_label


def _race_reading(facts: RaceFacts | None) -> str:
    """What Paddock reads the race length as: this board's default (or chosen) laps, or the rule behind them."""
    r = game_facts().race
    if facts is not None:
        return (
            f"This pack's race is {facts.laps_said} of {facts.lap_units} units ({facts.race_units} units), about "
            f"{facts.rounds} rounds of one die at {r.die_average} units a roll: Paddock's default is the lap "
            f"count nearest {r.target_units} units of racing. Agree on another if you like."
        )
    return (
        f"Paddock's default is the lap count nearest {r.target_units} units of racing (about "
        f"{round(r.target_units / float(r.die_average))} rounds of one die, at {r.die_average} units a "
        f"roll), and at least {r.min_laps} laps. Agree on another before the start if you like."
    )


def values(race_facts: RaceFacts | None = None, field=None) -> dict[str, str]:
    """``race_facts``: the pack's board and race (its action squares, grid, laps), so the summary says what its
    other sheets show; the default board's interval and the race-length rule otherwise. ``field``: the pack's
    field (``--teams``, ``--cars``), else the default one. Every example and note holds for the field: the dead
    heat is told with two of its drivers that show the rule (or in general, for a field of one car)."""
    f = game_facts()
    b = f.board
    every = int(race_facts.action_every if race_facts else b.action_every)
    if race_facts:
        where = f"on this board: units {race_facts.action_list}"
        first_action = race_facts.action_units[0] if race_facts.action_units else every
    else:
        where, first_action = f"units {every}, {2 * every}, {3 * every} and so on", every
    s = f.cars.slip
    q = f.qualifying
    game = f.game
    field = field or _field()
    ko = knockout(len(field.drivers))
    worst, retire = f.actions.worst, f.actions.retire
    best, default = f.points.best_of, f.points.default_system
    out = {
        "board_paper": _board_paper(),
        "slip_paper": SLIP_PAPER.size_label,
        "lanes": str(b.lanes),
        "lanes_word": _word(b.lanes),
        "lane_cm": _cm(b.lane_width),
        "lane_mm": f"{b.lane_width:g}",
        "track_cm": _cm(b.lane_width * b.lanes),
        "room_mm": f"{b.room_for_car * b.unit:g}",
        "unit_cm": _cm(b.unit),
        "action_every": str(every),
        "action_nth": ordinal(every),
        "action_where": where,
        "action_first": str(first_action),
        "slip_w": f"{s.width:g}",
        "slip_l": f"{s.length:g}",
        "slip_wing": f"{s.wing:g}",
        "slip_body": f"{s.body:g}",
        "die_sides": str(q.die_sides),
        "minimum_result": str(q.minimum_result),
        "sessions_said": _sessions_said(ko),
        "knockout_flow": _knockout_flow(ko, field.name),
        "field": field.name,
        "knockout_reading": _knockout_reading(ko),
        "players_max": str(game.players.max),
        "players_stretch": str(game.players.stretch),
        "race_dice": _word(game.race_dice),
        "quick_dice": _word(game.quick_race.dice),
        "crash_double": str(game.quick_race.crash_double),
        "retire_roll": str(retire.roll),
        "worst_roll": str(worst.roll),
        "worst_units": _word(-worst.units),
        "best_results": str(best.best_results),
        "best_label": best.label,
        "default_points": default.label,
        "races": str(DEFAULT_RACES),
        "race_reading": _race_reading(race_facts),
        "tier_reading": (
            f.words.summary.tiers_given if any(t.tier for t in field.teams) else f.words.summary.tiers_blank
        ).format(field=field.name),
    }
    out.update(_modifier_example(field))
    out.update(_dead_heat(field))
    return out


def _sessions_said(ko) -> str:
    """The sessions the field runs: ``three sessions: Q1, Q2 and Q3``, ``one session, Q1``."""
    names = [s.name for s in ko.sessions]
    if len(names) == 1:
        return f"one session, {names[0]}"
    return f"{_word(len(names))} sessions: {and_list(names)}"


def _knockout_flow(ko, field: str) -> str:
    """How the field's sessions set the grid, leading into the sessions table."""
    first, last = ko.sessions[0], ko.sessions[-1]
    if len(ko.sessions) == 1:
        return (
            f"For the {field} field, {cars_word(first.cars)}, {first.name} alone sets the whole grid: the highest "
            "total takes pole, the lowest starts last."
        )
    return (
        "After each session the slowest drivers drop out and take the last free places on the grid. The others run "
        f"the next session, until {last.name} settles the front. For the {field} field, {cars_word(first.cars)}:"
    )


def _knockout_reading(ko) -> str:
    words = game_facts().words.summary
    return (words.knockout_rulebook if ko.rulebook else words.knockout_reading).format(**ko.reading_values())


def _modifier_example(field) -> dict[str, str]:
    """A modifier of the field to explain ``d+x`` with: the largest non-zero one in the first session, else in any
    (``d+1`` for a field whose teams all roll the plain die)."""
    words = game_facts().words.summary
    mods = [m for t in field.teams for m in modifiers(t)[:1]] + [m for t in field.teams for m in modifiers(t)]
    m = next((v for v in sorted(mods, key=lambda v: (v <= 0, -abs(v))) if v != 0), 1)
    meaning = (words.mod_plus if m > 0 else words.mod_minus).format(n=abs(m))
    return {"mod_example": dmod(m), "mod_meaning": meaning}


def _dead_heat(field) -> dict[str, str]:
    """The dead-heat note and example, told with the field's own drivers: two teams with identical modifiers
    (the deciding die), else two teams (the table's order), else team-mates; in general for a field of one car."""
    words = game_facts().words.summary
    pair = next((t for t in field.teams if len(t.drivers) > 1), None)
    mates = (
        words.teammates.format(first=pair.drivers[0].name, second=pair.drivers[1].name, team=pair.name) if pair else ""
    )
    teams = {t.name: t for t in field.teams}
    ties = tie_groups(field)

    def named(t) -> str:
        return f"{t.drivers[0].name} ({t.name})"

    if ties:
        a, b = teams[ties[0][0]], teams[ties[0][1]]
        example = words.dead_heat_tie.format(a=named(a), b=named(b))
    elif len(field.teams) > 1:
        a, b = field.teams[0], field.teams[1]
        example = words.dead_heat_teams.format(
            a=named(a), b=named(b), a_name=a.drivers[0].name, team_a=a.name, team_b=b.name
        )
    elif pair:
        first, second = pair.drivers[0].name, pair.drivers[1].name
        example = words.dead_heat_mates.format(a=first, b=second, a_name=first, team=pair.name)
    else:
        example = words.dead_heat_any
    return {"teammates_note": mates, "dead_heat_example": example}


def tables(field=None, **_race: object) -> dict[str, dict[str, Any]]:
    """The summary's tables; ``field`` as for :func:`values` (the race's other facts change no table)."""
    field = field or _field()
    f = game_facts()
    q = f.qualifying
    words = f.words.reference

    def effect(r) -> str:
        text = words.effects.of(r)
        return text.capitalize() if r.effect in ("retire", "none") else text

    systems = f.points.systems
    places = max(len(sy.points) for sy in systems)
    tiers = {"front": [], "midfield": [], "back": []}
    for t in field.teams:
        if t.tier:
            tiers[t.tier].append(t.name)
    tier_words = words.tiers
    untiered = [t.name for t in field.teams if not t.tier]
    return {
        "action_roll": {
            "columns": ["Roll", {"title": "What happens", "align": "start"}, {"title": "Move", "align": "start"}],
            "rows": [[r.roll, r.title, effect(r)] for r in f.actions.rolls],
        },
        "sessions": {
            "columns": ["Session", "Cars", "Grid places settled", "Slowest out"],
            "rows": [[x.name, x.cars, x.places, x.out or "–"] for x in knockout(len(field.drivers)).sessions],
        },
        "team_modifiers": {
            "columns": [{"title": "Team", "align": "start"}, *q.sessions],
            "rows": [[t.name, *(dmod(m) for m in modifiers(t))] for t in field.teams],
        },
        "points": {
            "columns": ["Place", *(sy.label for sy in systems)],
            "rows": [
                [ordinal(k + 1), *(sy.points[k] if k < len(sy.points) else "–" for sy in systems)]
                for k in range(places)
            ],
        },
        "quick_race_tiers": {
            "columns": [
                {"title": "Group", "align": "start"},
                {"title": "Moves by", "align": "start"},
                {"title": f"Teams ({field.name})", "align": "start"},
            ],
            # no team of the field in a group: a write-in box for the players' own split; teams the field puts in
            # no group while others have one: a row of their own, for the players to place
            "rows": [
                [*tier_words[k].split(" — ", 1), ", ".join(names) if names else None]
                for k, names in tiers.items()
                if names or not any(tiers.values())
            ]
            + ([[*words.tier_none.split(" — ", 1), ", ".join(untiered)]] if untiered and any(tiers.values()) else []),
        },
    }
