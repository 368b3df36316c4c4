"""*Monaco!* facts, read once from ``templates/monaco/*.yaml`` into typed, frozen models: the rulebook's numbers
(``rules.yaml`` → :class:`Rules`), Paddock's choices for the road at toy-car scale (``road.yaml`` → :class:`Road`),
the tools (``tools.yaml`` → :class:`Tools`) and the wording of the sheets (``sheets.yaml`` → :class:`Sheets`).
Every sheet that prints a number takes it from here, as an attribute: a key misspelt in a file, or missing from
it, is refused when the facts are loaded, with the file, line and field, never at print time.

Inches are the game's unit and stay inches here; sheets turn them into millimetres with
:func:`generator.units.inch_to_mm` where they draw.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ...errors import InputError
from ...units import MM_PER_INCH
from ...words import ordinal  # noqa: F401  (its sheets number places with it)

#: A length or count as the YAML writes it: a whole number stays an int (it prints as ``6``, not ``6.0``).
Num = int | float


class _Facts(BaseModel):
    """A block of facts: every key known (a misspelt one is refused at load, with its file and line), frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- rules.yaml: the rulebook's numbers ------------------------------------------------------------------------


class Range(_Facts):
    min: int
    max: int


class Speed(_Facts):
    min: int
    max: int
    change_per_turn: int
    unit: str


class Turn(_Facts):
    free_angle_deg: Num
    free_speed_in: Num
    band_in: Num
    add: int


class SpinOff(_Facts):
    restart_speed_in: Num
    damage_roll_add: int


class Die(_Facts):
    die: int


class PitStop(_Facts):
    turns_die: int


class Collision(_Facts):
    twice: int
    injury_dice: list[int]


class Points(_Facts):
    given: dict[int, int]
    reading: list[int]
    reading_name: str


class Examples(_Facts):
    speed_in: int
    move_roll: int
    turn_roll: int


class Rules(_Facts):
    rating: Range
    cost_per_rating_point: int
    squad_max: int
    speed: Speed
    move_die: int
    collision_distance_in: Num
    grid_spacing_in: Num
    race_win_rating_bonus: int
    start_speed_in: Num  # Paddock's reading: the race's starting speed (rules.yaml says why)
    turn: Turn
    spin_off: SpinOff
    mechanical: Die
    pit_stop: PitStop
    damage_out_roll: int
    collision: Collision
    points: Points
    examples: Examples


# -- road.yaml: the road at toy-car scale --------------------------------------------------------------------


class Widths(_Facts):
    """Lanes across the road, by road width."""

    double: int
    quadruple: int

    def names(self) -> tuple[str, ...]:
        return tuple(type(self).model_fields)

    def lanes(self, width: str) -> int:
        return {"double": self.double, "quadruple": self.quadruple}[width]


class Car(_Facts):
    length_in: Num
    width_in: Num


class EdgeLine(_Facts):
    inset_in: Num
    width_in: Num


class LaneLine(_Facts):
    width_in: Num
    dash_in: Num
    gap_in: Num


class Kerb(_Facts):
    width_in: Num
    block_in: Num


class Pit(_Facts):
    lanes: int
    length_in: Num
    taper_in: Num
    box_gap_in: Num


class Radii(_Facts):
    tight: Num
    wide: Num


class RadiiByWidth(_Facts):
    double: Radii
    quadruple: Radii

    def of(self, width: str) -> Radii:
        return {"double": self.double, "quadruple": self.quadruple}[width]


class SampleLayout(_Facts):
    name: str
    lap: list[str]  # piece ids in race order, a curve with the way it turns: "curve-90-tight left"


class Modular(_Facts):
    straights_in: list[Num]
    curve_angles_deg: list[Num]
    radii_in: RadiiByWidth
    pit_section_in: Num
    start_section_in: Num
    start_line_from_end_in: Num
    default_set: str
    layouts: list[SampleLayout]


class Limits(_Facts):
    min: Num
    max: Num


class Budget(_Facts):
    lap_in: Limits
    lane_width_in: Limits
    car_length_in: Limits
    pieces: int


class Road(_Facts):
    lane_width_in: Num
    widths: Widths
    default_width: str
    car: Car
    grid_slots: int
    min_inner_radius_in: Num
    min_gap_in: Num
    edge_line: EdgeLine
    lane_line: LaneLine
    kerb: Kerb
    chequer_in: Num
    pit: Pit
    default_paper: str
    piece_gap_mm: Num
    start_clear_in: Num
    budget: Budget
    modular: Modular


# -- tools.yaml: the paper tools' own sizes --------------------------------------------------------------------


class Ruler(_Facts):
    tick_in: Num
    height_mm: Num
    inset_mm: Num
    glue_tab_in: Num
    cm: bool


class Slider(_Facts):
    margin_mm: Num


class TurnGauge(_Facts):
    radius_in: Num
    copies: int


class StripGauge(_Facts):
    length_in: Num
    copies: int


class Dial(_Facts):
    diameter_mm: Num
    per_page: int


class Tools(_Facts):
    ruler: Ruler
    slider: Slider
    turn_gauge: TurnGauge
    collision_gauge: StripGauge
    grid_spacer: StripGauge
    dial: Dial


# -- sheets.yaml: Paddock's wording ----------------------------------------------------------------------------


class RoadWords(_Facts):
    plan_subtitle: str
    plan_notes: list[str]
    pieces_title: str


class ModularWords(_Facts):
    title: str
    subtitle: str
    notes: list[str]
    columns: list[str]


class ToolWords(_Facts):
    ruler_title: str
    ruler_subtitle: str
    ruler_notes: list[str]
    gauges_title: str
    gauges_subtitle: str
    turn_note: str
    turn_hands: list[str]
    collision_strip: str
    collision_note: str
    grid_note: str


class DialWords(_Facts):
    title: str
    note: str


class PracticeWords(_Facts):
    title: str
    subtitle: str
    dice_head: str
    dice_sub: str
    sizing: str
    notes: list[str]
    grid_head: str


class RaceWords(_Facts):
    title: str
    subtitle: str
    notes: list[str]
    speed_head: str
    speed_sub: str


class StandingsWords(_Facts):
    title: str
    subtitle: str
    reading: str
    custom: str
    between: str


class SquadWords(_Facts):
    title: str
    subtitle: str
    notes: list[str]


class BetweenWords(_Facts):
    title: str
    subtitle: str
    steps: list[str]
    columns: list[str]
    column_subs: list[str]


class Sheets(_Facts):
    road: RoadWords
    modular: ModularWords
    tools: ToolWords
    dials: DialWords
    practice: PracticeWords
    race: RaceWords
    standings: StandingsWords
    squads: SquadWords
    between: BetweenWords


# -- loading ---------------------------------------------------------------------------------------------------

#: Each file of ``templates/monaco/`` and the model it is read into (``summary.yaml`` is read by the shared rule
#: summary reader, :func:`generator.compose.summary.read`, into its own strict model).
FILES = {"rules.yaml": Rules, "road.yaml": Road, "tools.yaml": Tools, "sheets.yaml": Sheets}


class Facts(BaseModel):
    """Every *Monaco!* fact, typed."""

    model_config = ConfigDict(frozen=True)
    rules: Rules
    road: Road
    tools: Tools
    sheets: Sheets


def load(folder: str | Path) -> Facts:
    """Read and check every file of ``folder`` (a copy of ``templates/monaco``): an unknown or missing key, or a
    value of the wrong type, is an :class:`InputError` naming the file, line and field."""
    from ...specs import parse_yaml, validate

    out = {}
    for name, model in FILES.items():
        path = Path(folder) / name
        data, lines = parse_yaml(path.read_text(encoding="utf-8"), path, trusted=True)
        out[name.removesuffix(".yaml")] = validate(model, data, path, lines)
    return Facts(**out)


@cache
def facts() -> Facts:
    """The shipped facts, read once."""
    from ...data import templates_dir

    return load(templates_dir() / "monaco")


def rules() -> Rules:
    return facts().rules


def road() -> Road:
    return facts().road


def tools() -> Tools:
    return facts().tools


def sheet_texts() -> Sheets:
    """Paddock's wording for the sheets (``{braces}`` are filled in from the numbers)."""
    return facts().sheets


# -- the rulebook's arithmetic -------------------------------------------------------------------------------


def turn_roll_add(speed: int) -> int:
    """What a turn of more than 45° adds to the skill roll at ``speed`` inches: 1 for each 6″ or part of 6″
    above 6″ (monaco.txt 6c: 13″ adds 2)."""
    t = rules().turn
    above = speed - t.free_speed_in
    return 0 if above <= 0 else math.ceil(above / t.band_in) * t.add


def turn_bands() -> list[tuple[int, int, int]]:
    """``(lowest speed, highest speed, add)`` for every band of the speed range: (0, 6, 0), (7, 12, 1), (13, 18, 2)."""
    sp = rules().speed
    out: list[tuple[int, int, int]] = []
    for v in range(sp.min, sp.max + 1):
        add = turn_roll_add(v)
        if out and out[-1][2] == add:
            out[-1] = (out[-1][0], v, add)
        else:
            out.append((v, v, add))
    return out


def top_speed(skill: int, tech: int) -> int:
    """The fastest a car can go: the best die roll plus both ratings, at most the rulebook's 18″."""
    r = rules()
    return min(r.speed.max, r.move_die + skill + tech)


# -- points --------------------------------------------------------------------------------------------------


def points_scale(text: str | None = None) -> list[int]:
    """The points for 1st, 2nd … : Paddock's reading of the rulebook, or ``--points`` such as ``10-8-6-5-4-3-2-1``.

    The given scale must not rise from one place to the next."""
    if text is None:
        return list(rules().points.reading)
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
    return list(scale) == list(rules().points.reading)


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


#: The options that take a length, the unit a bare number is in, and their budget in road.yaml.
_LENGTH_OPTIONS = {
    "--lap": ("ft", "lap_in"),
    "--lane-width": ("in", "lane_width_in"),
    "--car-length": ("in", "car_length_in"),
}


def length_option(text: str | None, option: str) -> float | None:
    """``--lap``, ``--lane-width`` or ``--car-length`` as typed (None: not given), in inches, within its budget."""
    if text is None:
        return None
    unit, _ = _LENGTH_OPTIONS[option]
    return within_budget(parse_length(text, option, unit), option, text)


def within_budget(value_in: float, option: str, text: str | None = None, given: str | None = None) -> float:
    """``value_in`` (inches) if it lies within ``option``'s budget; else an :class:`InputError` that says the value
    (``text`` as typed, or ``given`` in words) and the limits."""
    from ...messages import quote

    lim = getattr(road().budget, _LENGTH_OPTIONS[option][1])
    if lim.min <= value_in <= lim.max:
        return value_in
    what = {"--lap": "lap", "--lane-width": "lane width", "--car-length": "car length"}[option]
    if given is None:
        given = f"the {what} {quote(str(text))} is {value_in:.6g} in" if text else f"the {what} is {value_in:.6g} in"
    word, limit = ("more", lim.max) if value_in > lim.max else ("less", lim.min)
    feet = option == "--lap"
    span = f"{lim.min:g} in to {lim.max:g} in" + (
        f" ({feet_inches(lim.min)} to {feet_inches(lim.max)})" if feet else ""
    )
    raise InputError(
        f"{given}, {word} than the {limit:g} in{f' ({feet_inches(limit)})' if feet else ''} Paddock builds a road for",
        field=option,
        hint=f"give a {what} of {span}",
    )


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
