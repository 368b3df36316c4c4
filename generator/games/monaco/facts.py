"""*Monaco!* facts, read once from ``templates/monaco/*.yaml``: the rulebook's numbers (``rules.yaml``), Paddock's
choices for the road at toy-car scale (``road.yaml``), the tools (``tools.yaml``) and the wording of the sheets
(``sheets.yaml``). Every sheet that prints a number takes it from here.

Inches are the game's unit and stay inches here; sheets turn them into millimetres with
:func:`generator.units.inch_to_mm` where they draw.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...errors import InputError
from ...units import MM_PER_INCH
from . import GAME


def rules() -> dict[str, Any]:
    return GAME.facts("rules.yaml")


def road() -> dict[str, Any]:
    return GAME.facts("road.yaml")


def tools() -> dict[str, Any]:
    return GAME.facts("tools.yaml")


def sheet_texts() -> dict[str, Any]:
    """Paddock's wording for the sheets (``{braces}`` are filled in from the numbers)."""
    return GAME.facts("sheets.yaml")


# -- the rulebook's arithmetic -------------------------------------------------------------------------------


def turn_roll_add(speed: int) -> int:
    """What a turn of more than 45° adds to the skill roll at ``speed`` inches: 1 for each 6″ or part of 6″
    above 6″ (monaco.txt 6c: 13″ adds 2)."""
    t = rules()["turn"]
    above = speed - t["free_speed_in"]
    return 0 if above <= 0 else math.ceil(above / t["band_in"]) * t["add"]


def turn_bands() -> list[tuple[int, int, int]]:
    """``(lowest speed, highest speed, add)`` for every band of the speed range: (0, 6, 0), (7, 12, 1), (13, 18, 2)."""
    sp = rules()["speed"]
    out: list[tuple[int, int, int]] = []
    for v in range(sp["min"], sp["max"] + 1):
        add = turn_roll_add(v)
        if out and out[-1][2] == add:
            out[-1] = (out[-1][0], v, add)
        else:
            out.append((v, v, add))
    return out


def top_speed(skill: int, tech: int) -> int:
    """The fastest a car can go: the best die roll plus both ratings, at most the rulebook's 18″."""
    r = rules()
    return min(r["speed"]["max"], r["move_die"] + skill + tech)


# -- points --------------------------------------------------------------------------------------------------


def points_scale(text: str | None = None) -> list[int]:
    """The points for 1st, 2nd … : Paddock's reading of the rulebook, or ``--points`` such as ``10-8-6-5-4-3-2-1``.

    The given scale must not rise from one place to the next."""
    if text is None:
        return list(rules()["points"]["reading"])
    parts = [p for p in re.split(r"[-,\s]+", str(text).strip()) if p]
    try:
        scale = [int(p) for p in parts]
    except ValueError:
        raise InputError(
            f"cannot read the points '{str(text)[:40]}'",
            field="--points",
            hint="give whole numbers, e.g. 10-8-6-5-4-3-2-1",
        ) from None
    if not scale or len(scale) > 20 or any(p < 0 for p in scale):
        raise InputError(
            f"'{str(text)[:40]}' is not a points scale",
            field="--points",
            hint="give 1 to 20 places, e.g. 10-8-6-5-4-3-2-1",
        )
    for i in range(1, len(scale)):
        if scale[i] > scale[i - 1]:
            raise InputError(
                f"place {i + 1} would score more than place {i} ({scale[i]} > {scale[i - 1]})",
                field="--points",
                hint="list the points from the winner down",
            )
    return scale


def points_is_reading(scale: list[int]) -> bool:
    return list(scale) == list(rules()["points"]["reading"])


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# -- lengths -------------------------------------------------------------------------------------------------

_UNITS_IN = {
    "in": 1.0,
    "inch": 1.0,
    "inches": 1.0,
    '"': 1.0,
    "″": 1.0,
    "ft": 12.0,
    "foot": 12.0,
    "feet": 12.0,
    "'": 12.0,
    "′": 12.0,
    "m": 1000 / MM_PER_INCH,
    "cm": 10 / MM_PER_INCH,
    "mm": 1 / MM_PER_INCH,
}


def parse_length(text: str, option: str, default_unit: str = "in") -> float:
    """A length typed on the command line (``12ft``, ``3.5m``, ``140in``, ``2``) in inches."""
    raw = str(text).strip().lower().replace(" ", "")
    m = re.fullmatch(r"([0-9]*\.?[0-9]+)([a-z\"'″′]*)", raw)
    unit = (m.group(2) if m else "") or default_unit
    if not m or unit not in _UNITS_IN:
        raise InputError(
            f"cannot read the length '{str(text)[:40]}'",
            field=option,
            hint="give a number with in, ft, m, cm or mm, e.g. 12ft or 3.5m",
        )
    value = float(m.group(1)) * _UNITS_IN[unit]
    if value <= 0:
        raise InputError(f"the length '{text}' must be more than 0", field=option)
    return value


def inches(v: float, digits: int = 1) -> str:
    """``12″``, ``2.5″``: inches as the sheets print them."""
    s = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return f"{s}″"


def feet_inches(v: float) -> str:
    """``9 ft 2 in`` for 110 inches (rounded to the inch)."""
    n = round(v)
    ft, rest = divmod(n, 12)
    if ft == 0:
        return f"{rest} in"
    return f"{ft} ft" + (f" {rest} in" if rest else "")


_EIGHTHS = {1: "⅛", 2: "¼", 3: "⅜", 4: "½", 5: "⅝", 6: "¾", 7: "⅞"}


def frac_in(v: float, mark: str = "″") -> str:
    """Inches the way a ruler reads them: ``1⅞″``, ``3¾″``, ``7½″`` (decimals when not a whole eighth)."""
    eighths = round(v * 8)
    if abs(eighths / 8 - v) > 1e-6:
        return inches(v, 2) if mark == "″" else inches(v, 2)[:-1] + mark
    whole, part = divmod(eighths, 8)
    text = (str(whole) if whole or not part else "") + _EIGHTHS.get(part, "")
    return text + mark
