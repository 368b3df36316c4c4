"""The Formula D rule summary's numbers and tables (``templates/formula-d/summary.yaml`` holds the words).

The tables are the reference cards' own (``reference._tables``: gears, start roll, blocked, downshift, black-die
checks, pit stop, weather, tires, build, shots) plus the team points and the GT drivers, all read from
``rules.yaml``, ``gt-drivers.yaml`` and ``game.yaml``. A number the rulebook's text does not show is ``None``: a
write-in box, never a guess.
"""

from __future__ import annotations

from typing import Any

from ...words import ordinal
from . import facts

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _word(n: int) -> str:
    return WORDS.get(int(n), str(n))


def _driver(d) -> str:
    """The driver's name, or (where the text lost it) the ability that tells the driver apart."""
    return d.name or f"“{d.ability}”"


def values(laps: int | None = None, house_rules: bool = False, **_) -> dict[str, str]:
    """Every ``{placeholder}`` of ``summary.yaml``; ``laps``: the race's length when the pack sets one
    (``--laps``); ``house_rules``: the write-ins' words say Paddock's suggestions (``--house-rules``)."""
    r = facts.rules()
    g = facts.game()
    span = facts.span
    gears = r.gears
    stalled, great = r.start_roll[0], r.start_roll[-1]  # the table runs from a stall (1) to a great start (20)
    rolls = r.rolls
    pit = r.pit_stop
    gt = facts.gt_drivers()
    out = dict(facts.fill_values(laps))
    h = facts.house()
    rule = {"brake": h.brake_wp_per_space, "engine": h.engine_wp_skip_3, "pit": h.pit_min_roll, "weather": h.weather}
    for key, (without, with_) in h.summary.items():
        value = rule[key.split("_")[0]].value if key.split("_")[0] in rule else ""
        out[key] = (with_ if house_rules else without).format(value=value)
    out.update(
        {
            "laps": out["laps"],
            "laps_word": _word(int(out["laps"])),
            "three_laps": str(g.three_lap_race),
            "three_laps_word": _word(g.three_lap_race),
            "cars": str(g.cars),
            "colours": str(g.colours),
            "team_size": _word(g.team_size),
            "gear_dice": _word(g.gear_dice),
            "wp_markers": str(g.markers.wp),
            "damage_markers": str(g.markers.damage),
            "black_die": str(r.black_die),
            "top_gear": ordinal(gears[-1].gear),
            "top_gear_n": str(gears[-1].gear),
            "first_gear": ordinal(gears[0].gear),
            "second_gear": ordinal(gears[1].gear),
            "third_gear": ordinal(gears[2].gear),
            "slip_gear_nth": ordinal(r.slipstream.min_gear),
            "fifth_gear": ordinal(gears[-2].gear),
            "max_skipped": _word(r.downshift.max_skipped),
            "too_many_skipped": _word(r.downshift.max_skipped + 1),
            "great_start": _word(r.great_start_spaces),
            "great_start_lanes": _word(g.great_start_lanes),
            "stall_roll": span(stalled.from_, stalled.to),
            "great_roll": span(great.from_, great.to),
            "collision_good": span(*rolls.collision.good),
            "engine_good": span(*rolls.engine.good),
            "road_good": span(*rolls.road_handling.good),
            "blocked_out": str(r.blocked.eliminated_from),
            "pit_exit_gear": ordinal(pit.exit_gear),
            "spin_limit": _word(g.spin_limit),
            "per_minute": _word(g.qualifying_lap.per_minute),
            "per_space": _word(g.qualifying_lap.per_space),
            "technical_zones": _word(g.technical_stop_zones),
            "soft_bonus": _word(r.tyres.soft_dry_bonus),
            "hard_slide": _word(r.tyres.hard_rain_slide),
            "frog": next(d.name for d in gt if d.id == "marcellin"),
            "gt_count": _word(len(gt)),
            "unnamed": _word(sum(1 for d in gt if not d.name)),
        }
    )
    return out


def tables(house_rules: bool = False, **_) -> dict[str, dict[str, Any]]:
    """The summary's tables, the reference cards' own (with ``house_rules``, Paddock's suggestions marked)."""
    from .reference import _tables

    out: dict[str, dict[str, Any]] = {}
    for name, (columns, rows) in _tables(house_rules).items():
        out[name] = {"columns": [{"title": c.title, "align": c.align} for c in columns], "rows": rows}
    points = facts.rules().team_points
    out["team_points"] = {
        "columns": ["Place", "Team points"],
        "rows": [[ordinal(k + 1), p] for k, p in enumerate(points)],
    }
    gt = facts.gt_drivers()
    out["gt_abilities"] = {
        "columns": [
            {"title": "Driver", "align": "start"},
            {"title": "Ability", "align": "start"},
            {"title": "What it does", "align": "start"},
        ],
        "rows": [[d.name or "(name not in the text)", d.ability, d.text] for d in gt],
    }
    zones = facts.zones()
    out["gt_wp"] = {
        "columns": [{"title": "Driver", "align": "start"}, *(label for _, label in zones)],
        # a value read from a damaged row is printed as read, with a "?": uncertain, never as certain
        "rows": [[_driver(d), *(facts.gt_wp_cell(d, k, house_rules) for k, _ in zones)] for d in gt],
    }
    return out
