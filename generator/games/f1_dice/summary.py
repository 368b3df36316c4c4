"""The f1-dice rule summary's numbers and tables (``templates/f1-dice/summary.yaml`` holds the words).

Everything comes from the facts the pack's other sheets print: the board (``board.yaml``: lanes, unit, action
squares), the car slip, qualifying, the action roll and the points systems, and the 2011 field's team modifiers
and quick-race tiers (``templates/teams/f1-2011.yaml``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .facts import DEFAULT_RACES, DEFAULT_TEAMS, RaceFacts, dmod, ordinal, session_sizes, tie_groups
from .facts import facts as game_facts
from .slips import PAPER as SLIP_PAPER

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _word(n: int) -> str:
    return WORDS.get(n, str(n))


def _cm(mm: float) -> str:
    return f"{mm / 10:g}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@cache
def _field():
    """The default field, read once per process: both :func:`values` and :func:`tables` ask for it."""
    from ...teams import load_field

    return load_field(DEFAULT_TEAMS)


def _board_paper() -> str:
    from ...paper import Paper
    from ...track.model import CircuitSpec

    return Paper(CircuitSpec.model_fields["paper"].default).size_label


def _places(first: int, last: int) -> str:
    return f"{first}–{last}" if first != last else str(first)


def _race_reading(facts: RaceFacts | None) -> str:
    """What Paddock reads the race length as: this board's default (or chosen) laps, or the rule behind them."""
    r = game_facts().race
    if facts is not None:
        return (
            f"This pack's race is {facts.laps} laps of {facts.lap_units} units ({facts.race_units} units), about "
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
    field (``--teams``, ``--cars``), else the default one."""
    f = game_facts()
    b = f.board
    every = int(race_facts.action_every if race_facts else b.action_every)
    if race_facts:
        shown = race_facts.action_units[:3]
        grid_note = f.words.reference.grid_note if race_facts.action_under_grid else ""
    else:
        shown, grid_note = [every * k for k in (1, 2, 3)], ""
    s = f.cars.slip
    q = f.qualifying
    game = f.game
    field = field or _field()
    sizes = session_sizes(len(field.drivers))
    worst, retire = f.actions.worst, f.actions.retire
    best, default = f.points.best_of, f.points.default_system
    ties = tie_groups(field)
    tie = ties[0] if ties else None
    teams = {t.name: t for t in field.teams}
    pair = next(t for t in field.teams if len(t.drivers) > 1)
    mods = sorted({t.qualifying.session(q.sessions[0]) for t in field.teams if t.qualifying}, reverse=True)
    positive = next((m for m in mods if m > 0), mods[0])
    out = {
        "board_paper": _board_paper(),
        "slip_paper": SLIP_PAPER.size_label,
        "mod_example": dmod(positive),
        "mod_value": str(positive),
        "lanes": str(b.lanes),
        "lanes_word": _word(b.lanes),
        "lane_cm": _cm(b.lane_width),
        "lane_mm": f"{b.lane_width:g}",
        "track_cm": _cm(b.lane_width * b.lanes),
        "room_mm": f"{b.room_for_car * b.unit:g}",
        "unit_cm": _cm(b.unit),
        "action_every": str(every),
        "action_nth": ordinal(every),
        "action_list": ", ".join(str(u) for u in shown) + " …",
        "action_grid_note": grid_note,
        "slip_w": f"{s.width:g}",
        "slip_l": f"{s.length:g}",
        "slip_wing": f"{s.wing:g}",
        "slip_body": f"{s.body:g}",
        "die_sides": str(q.die_sides),
        "minimum_result": str(q.minimum_result),
        "sessions": _and(q.sessions),
        "session_count": _word(len(q.sessions)),
        "first_session": q.sessions[0],
        "last_session": q.sessions[-1],
        "field": field.name,
        "field_cars": str(len(field.drivers)),
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
        "teammate_first": pair.drivers[0].name,
        "teammate_second": pair.drivers[1].name,
        "teammates_team": pair.name,
    }
    for name, cars, first, last in sizes:
        key = name.lower()
        out[f"{key}_cars"] = str(cars)
        out[f"{key}_places"] = _places(first, last)
        out[f"{key}_out"] = str(last - first + 1)
    if tie:
        a, b_ = teams[tie[0]], teams[tie[1]]
        out["tie_a"] = f"{a.drivers[0].name} ({a.name})"
        out["tie_b"] = f"{b_.drivers[0].name} ({b_.name})"
    return out


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
    return {
        "action_roll": {
            "columns": ["Roll", {"title": "What happens", "align": "start"}, {"title": "Move", "align": "start"}],
            "rows": [[r.roll, r.title, effect(r)] for r in f.actions.rolls],
        },
        "sessions": {
            "columns": ["Session", "Cars", "Grid places settled", "Slowest out"],
            "rows": [
                [name, cars, _places(first, last), last - first + 1 if first > 1 else "–"]
                for name, cars, first, last in session_sizes(len(field.drivers))
            ],
        },
        "team_modifiers": {
            "columns": [{"title": "Team", "align": "start"}, *q.sessions],
            "rows": [
                [t.name, *(dmod(t.qualifying.session(s)) for s in q.sessions)] for t in field.teams if t.qualifying
            ],
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
            "rows": [[*tier_words[k].split(" — ", 1), ", ".join(names)] for k, names in tiers.items() if names],
        },
    }
