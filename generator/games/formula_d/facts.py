"""The Formula D game facts: every YAML file of ``templates/formula-d/`` loaded once into its typed model
(:mod:`.models`).

Every sheet that prints a gear range, a table or a points scale takes it from here, so a number lives in one
place, and reads it as an attribute: a misspelt key in a template fails when the facts are loaded, naming the
file, line and field. ``None`` in a table means the rulebook's OCR'd text does not show that number: sheets
print a write-in box for it, never a guess. (``summary.yaml`` is the shared rule-summary model's, read by
:mod:`generator.games.summaries`.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from . import models as m

#: Each template file: the field of :class:`Facts` it fills, its name and its model.
FILES: dict[str, tuple[str, type[m.Model]]] = {
    "rules": ("rules.yaml", m.Rules),
    "game": ("game.yaml", m.GameFacts),
    "gt": ("gt-drivers.yaml", m.GT),
    "sheets": ("sheets.yaml", m.Sheets),
    "real": ("real-circuits.yaml", m.RealCircuits),
    "board": ("board.yaml", m.Board),
    "dice": ("dice.yaml", m.Dice),
    "house": ("house-rules.yaml", m.HouseRules),
    "play": ("play.yaml", m.Play),
}


@dataclass(frozen=True)
class Facts:
    rules: m.Rules
    game: m.GameFacts
    gt: m.GT
    sheets: m.Sheets
    real: m.RealCircuits
    board: m.Board
    dice: m.Dice
    house: m.HouseRules
    play: m.Play


def load(folder: Path) -> Facts:
    """Read and validate every file of ``folder`` (a ``templates/formula-d/``); an :class:`InputError` naming the
    file, line and field at the first mistake."""
    from ...errors import InputError
    from ...specs import located, parse_yaml, validate

    out: dict[str, Any] = {}
    lines_of = {}
    for key, (name, model) in FILES.items():
        path = folder / name
        data, lines = parse_yaml(path.read_text(encoding="utf-8"), path, trusted=True)
        out[key] = validate(model, data, path, lines)
        lines_of[key] = (path, lines)
    facts = Facts(**out)
    # across files: every zone a GT driver's WP or a black-die roll names is one of the rules' six
    keys = [z.key for z in facts.rules.wear.zones]
    path, lines = lines_of["gt"]
    for i, d in enumerate(facts.gt.drivers):
        if sorted(d.wp) != sorted(keys):
            odd = [k for k in d.wp if k not in keys] or [k for k in keys if k not in d.wp]
            err = InputError(f"its zones are not the six of rules.yaml's wear zones ({', '.join(odd)})")
            raise located(err, path, lines, ("drivers", i, "wp"))
        if set(d.uncertain) - set(keys):
            err = InputError(f"not a wear zone: {', '.join(sorted(set(d.uncertain) - set(keys)))}")
            raise located(err, path, lines, ("drivers", i, "uncertain"))
    path, lines = lines_of["dice"]
    ranges = {g.gear: (g.min, g.max) for g in facts.rules.gears}
    if sorted(facts.dice.root) != sorted(ranges):
        raise located(InputError(f"give the faces of gears {sorted(ranges)}, one die each"), path, lines, ())
    for gear, faces in facts.dice.root.items():
        if (min(faces), max(faces)) != ranges[gear]:
            err = InputError(f"faces {min(faces)}–{max(faces)}, but rules.yaml gives gear {gear} {span(*ranges[gear])}")
            raise located(err, path, lines, (gear,))
    path, lines = lines_of["house"]
    if len(facts.house.weather.value) != len(facts.rules.weather.chart):
        raise located(InputError("give one range per line of the weather chart"), path, lines, ("weather", "value"))
    path, lines = lines_of["rules"]
    for name in ("collision", "engine", "road_handling"):
        if getattr(facts.rules.rolls, name).zone not in keys:
            raise located(InputError("not one of the wear zones"), path, lines, ("rolls", name, "zone"))
    return facts


@cache
def facts() -> Facts:
    """The shipped facts, loaded once."""
    from ...data import templates_dir

    return load(templates_dir() / "formula-d")


def rules() -> m.Rules:
    return facts().rules


def sheets() -> m.Sheets:
    return facts().sheets


def game() -> m.GameFacts:
    """The race itself and its kit: laps, the three-lap variant, the qualifying lap (``game.yaml``)."""
    return facts().game


def gt() -> m.GT:
    return facts().gt


def real() -> m.RealCircuits:
    """How a real circuit becomes a board (``real-circuits.yaml``)."""
    return facts().real


def board() -> m.Board:
    return facts().board


def play() -> m.Play:
    """How a board plays (``play.yaml``): a short board's legend line, the play checks' words."""
    return facts().play


def dice() -> m.Dice:
    """The gear dice's faces (``dice.yaml``)."""
    return facts().dice


def house() -> m.HouseRules:
    """Paddock's suggested house rules (``house-rules.yaml``), printed only with ``--house-rules``."""
    return facts().house


def zones() -> tuple[tuple[str, str], ...]:
    """(key, label) of the six wear-point zones, in scorecard order."""
    return tuple((z.key, z.label) for z in rules().wear.zones)


def zone_keys() -> tuple[str, ...]:
    return tuple(k for k, _ in zones())


def zone_label(key: str) -> str:
    return dict(zones())[key]


def standard_build() -> dict[str, int]:
    return dict(rules().wear.standard)


def wp_ranges() -> dict[str, tuple[int, int]]:
    return dict(rules().wear.ranges)


def span(lo: int, hi: int) -> str:
    """A range as printed: ``1–4``, or ``1`` when it is one number."""
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def cell(value: Any) -> str:
    """A table value as printed; ``None`` (illegible in the rulebook) prints empty, for a write-in."""
    return "" if value is None else str(value)


def gt_drivers() -> tuple[m.Driver, ...]:
    return gt().drivers


def gt_driver(key: str) -> m.Driver | None:
    """A GT driver by id, name or ability (case- and accent-insensitive enough for typing)."""
    want = key.strip().lower()
    for d in gt_drivers():
        if want in {d.id, (d.name or "").lower(), d.ability.lower()}:
            return d
    return None


def suggested(value) -> str:
    """A house rule's value as a table prints it: marked as Paddock's suggestion."""
    return f"{value}{house().mark}"


def downshift_rows(house_rules: bool = False) -> list[list]:
    """The downshift table's rows; the engine WP the rulebook's text does not show is ``None`` (a write-in), or
    with ``house_rules`` Paddock's suggestion, marked."""
    rule = house().engine_wp_skip_3.value
    return [[suggested(rule) if v is None and house_rules else v for v in row] for row in rules().downshift.rows]


def gt_wp_cell(driver, key: str, house_rules: bool = False) -> int | str | None:
    """A GT driver's WP in zone ``key`` as a table prints it: the rulebook's legible value; with ``house_rules``
    every other the standard car's WP there, marked as Paddock's suggestion; without, a value read from a damaged
    row with a "?" (uncertain, never as certain), else ``None`` (a write-in)."""
    if key not in driver.uncertain and driver.wp[key] is not None:
        return driver.wp[key]
    if house_rules:
        return suggested(standard_build()[key])
    return f"{driver.uncertain[key]}?" if key in driver.uncertain else None


def weather_dice(house_rules: bool = False) -> list[str | None]:
    """The black-die range of each line of the weather chart: each circuit's own, so ``None`` (a write-in), or with
    ``house_rules`` Paddock's suggestion, marked."""
    chart = rules().weather.chart
    return [suggested(v) for v in house().weather.value] if house_rules else [None] * len(chart)


def ordinary_dice(faces: tuple[int, ...]) -> str:
    """How to roll a gear die's ``faces`` with one ordinary die, exactly (every move as often as on the gear die):
    ``d6 + 6`` for faces running evenly from 7 to 12, else a die whose sides share out evenly over the faces,
    each roll read as a move (``d6: 1 = 2, 2–3 = 3, 4–6 = 4``); a d6 first, as every home has one."""
    from collections import Counter

    n = len(faces)
    low = min(faces)
    if sorted(faces) == list(range(low, low + n)) and n in ORDINARY_DICE:
        return f"d{n} + {low - 1}" if low > 1 else f"d{n}"
    counts = sorted(Counter(faces).items())
    for sides in sorted(ORDINARY_DICE, key=lambda d: (d != 6, d)):
        if all(c * sides % n == 0 for _, c in counts):
            parts, roll = [], 1
            for value, c in counts:
                k = c * sides // n
                parts.append(f"{span(roll, roll + k - 1)} = {value}")
                roll += k
            return f"d{sides}: " + ", ".join(parts)
    raise ValueError(f"no single ordinary die gives the faces {faces}")


#: The dice a household or a games shelf holds.
ORDINARY_DICE = (4, 6, 8, 10, 12, 20)


def black_die_standin() -> str:
    """How to roll the black die without one, exactly (every result as likely): a d20 is an ordinary die; failing
    one, an ordinary die whose faces times the share of a d6 make the black die's (a d10, plus 10 on a d6's
    4–6)."""
    n = rules().black_die
    for base in sorted(ORDINARY_DICE, key=lambda d: (d != 10, d)):
        k = n // base
        if base < n and n % base == 0 and 6 % k == 0:
            per = 6 // k
            zero = f" (a 0 reads {base})" if base == 10 else ""
            adds = [
                f"{j * base} on a d6's {j * per + 1}–{(j + 1) * per}" if per > 1 else f"{j * base} on a d6's {j + 1}"
                for j in range(1, k)
            ]
            return f"a d{base}{zero}, plus " + ", ".join(adds)
    raise ValueError(f"no ordinary dice give a d{n} exactly")


def fill_values(laps: int | None = None, pits: bool = True) -> dict[str, str]:
    """Numbers the reference prose quotes, taken from the rules (the ``{braces}`` in sheets.yaml); ``laps``: the
    race's length when the pack sets one (``--laps``); ``pits``: the board has a pit lane (the three-lap race's
    pit stops are said only then)."""
    r = rules()
    rolls = r.rolls
    ranges = wp_ranges()
    others = {v for k, v in ranges.items() if k != "tires"}
    (other,) = others if len(others) == 1 else (None,)
    g = gt()

    def words(stops: tuple[int, ...]) -> str:
        return " or ".join(str(s) for s in stops)

    three = sheets().three_lap_rule
    out = {
        "black_die_faces": str(r.black_die),
        "black_die_standin": black_die_standin(),
        "overshoot_2": words(r.overshoot.eliminated[2]),
        "overshoot_3": words(r.overshoot.eliminated[3]),
        "engine_gear5": str(r.engine_strain.gear5),
        "engine_gear6": str(r.engine_strain.gear6),
        "slip_gear": str(r.slipstream.min_gear),
        "slip_spaces": str(r.slipstream.bonus_spaces),
        "three_lap_stops": str(r.pit_stop.three_lap_race_stops),
        "laps": str(laps or game().laps),
        "race_laps": f"{laps or game().laps} lap" + ("" if (laps or game().laps) == 1 else "s"),
        "three_laps": str(game().three_lap_race),
        "quali_minute": _throws(game().qualifying_lap.per_minute),
        "quali_overshoot": _throws(game().qualifying_lap.per_space),
        "reservoir": str(r.pit_stop.reservoir_wp),
        "team_reservoir": str(r.pit_stop.team_reservoir_wp),
        "weather_gear5": str(r.weather.change_trigger.gear5),
        "weather_gear6": str(r.weather.change_trigger.gear6),
        "collision_rain": span(*rolls.collision.rain),
        "engine_rain": span(*rolls.engine.rain),
        "road_rain": span(*rolls.road_handling.rain),
        "custom_total": str(r.wear.custom_total),
        "tires_range": span(*ranges["tires"]),
        "other_range": span(*other) if other else "",
        "nitro": g.nitro,
        "gt_tyres": g.tyres,
        "checkpoint": str(r.road_race.checkpoint_bonus_wp),
        "police": str(r.road_race.police_multiplier),
        "police_bonus": str(r.road_race.police_bonus_wp),
    }
    out["three_lap_rule"] = (three.pits if pits else three.no_pits).format(**out)
    return out


def _throws(n: int) -> str:
    return f"{n} throw" + ("" if n == 1 else "s")
