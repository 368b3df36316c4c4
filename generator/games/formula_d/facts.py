"""The Formula D game facts, read once from ``templates/formula-d/*.yaml``.

Every sheet that prints a gear range, a table or a points scale takes it from here, so a number lives in one
place. ``None`` in a table means the rulebook's OCR'd text does not show that number: sheets print a write-in
box for it, never a guess.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import GAME


def rules() -> dict[str, Any]:
    return GAME.facts("rules.yaml")


def sheets() -> dict[str, Any]:
    return GAME.facts("sheets.yaml")


def game() -> dict[str, Any]:
    """The race itself and its kit: laps, the three-lap variant, the qualifying lap (``game.yaml``)."""
    return GAME.facts("game.yaml")


def gt() -> dict[str, Any]:
    return GAME.facts("gt-drivers.yaml")


@cache
def zones() -> tuple[tuple[str, str], ...]:
    """(key, label) of the six wear-point zones, in scorecard order."""
    return tuple((z["key"], z["label"]) for z in rules()["wear"]["zones"])


def zone_keys() -> tuple[str, ...]:
    return tuple(k for k, _ in zones())


def zone_label(key: str) -> str:
    return dict(zones())[key]


def standard_build() -> dict[str, int]:
    return dict(rules()["wear"]["standard"])


def wp_ranges() -> dict[str, tuple[int, int]]:
    return {k: (int(lo), int(hi)) for k, (lo, hi) in rules()["wear"]["ranges"].items()}


def span(lo: int, hi: int) -> str:
    """A range as printed: ``1–4``, or ``1`` when it is one number."""
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def cell(value: Any) -> str:
    """A table value as printed; ``None`` (illegible in the rulebook) prints empty, for a write-in."""
    return "" if value is None else str(value)


def gt_drivers() -> list[dict[str, Any]]:
    return list(gt()["drivers"])


def gt_driver(key: str) -> dict[str, Any] | None:
    """A GT driver by id, name or ability (case- and accent-insensitive enough for typing)."""
    want = key.strip().lower()
    for d in gt_drivers():
        names = {d["id"], (d["name"] or "").lower(), d["ability"].lower()}
        if want in names:
            return d
    return None


def fill_values() -> dict[str, str]:
    """Numbers the reference prose quotes, taken from the rules (the ``{braces}`` in sheets.yaml)."""
    r = rules()
    rolls = r["rolls"]
    ranges = wp_ranges()
    others = {v for k, v in ranges.items() if k != "tires"}
    (other,) = others if len(others) == 1 else (None,)
    g = gt()

    def words(stops: list[int]) -> str:
        return " or ".join(str(s) for s in stops)

    return {
        "overshoot_2": words(r["overshoot"]["eliminated"][2]),
        "overshoot_3": words(r["overshoot"]["eliminated"][3]),
        "engine_gear5": str(r["engine_strain"]["gear5"]),
        "engine_gear6": str(r["engine_strain"]["gear6"]),
        "slip_gear": str(r["slipstream"]["min_gear"]),
        "slip_spaces": str(r["slipstream"]["bonus_spaces"]),
        "three_lap_stops": str(r["pit_stop"]["three_lap_race_stops"]),
        "laps": str(game()["laps"]),
        "three_laps": str(game()["three_lap_race"]),
        "quali_minute": _throws(game()["qualifying_lap"]["per_minute"]),
        "quali_overshoot": _throws(game()["qualifying_lap"]["per_space"]),
        "reservoir": str(r["pit_stop"]["reservoir_wp"]),
        "team_reservoir": str(r["pit_stop"]["team_reservoir_wp"]),
        "weather_gear5": str(r["weather"]["change_trigger"]["gear5"]),
        "weather_gear6": str(r["weather"]["change_trigger"]["gear6"]),
        "collision_rain": span(*rolls["collision"]["rain"]),
        "engine_rain": span(*rolls["engine"]["rain"]),
        "road_rain": span(*rolls["road_handling"]["rain"]),
        "custom_total": str(r["wear"]["custom_total"]),
        "tires_range": span(*ranges["tires"]),
        "other_range": span(*other) if other else "",
        "nitro": g["nitro"],
        "gt_tyres": g["tyres"],
        "checkpoint": str(r["road_race"]["checkpoint_bonus_wp"]),
        "police": str(r["road_race"]["police_multiplier"]),
        "police_bonus": str(r["road_race"]["police_bonus_wp"]),
    }


def _throws(n: int) -> str:
    return f"{n} throw" + ("" if n == 1 else "s")
