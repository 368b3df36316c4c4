"""The typed shape of every YAML file of ``templates/formula-d/`` (pydantic, ``extra="forbid"``, frozen).

:mod:`.facts` loads each file into its model once; sheets read attributes (``facts.rules().pit_stop.exit_gear``),
never string keys, so a misspelt key fails when the facts are loaded — with the file, line and field — not when a
sheet prints. ``None`` where a number may be missing means the rulebook's OCR'd text does not show it: sheets
print a write-in box for it, never a guess.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, model_validator

from ...specs import FieldError


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


Range = tuple[int, int]


# ------------------------------------------------------------------------------------------------ rules.yaml


class Gear(Model):
    gear: int
    min: int
    max: int


class Zone(Model):
    key: str
    label: str


class Wear(Model):
    zones: tuple[Zone, ...]
    standard: dict[str, int]
    custom_total: int
    ranges: dict[str, Range]

    @model_validator(mode="after")
    def _same_zones(self):
        keys = [z.key for z in self.zones]
        for name in ("standard", "ranges"):
            got = list(getattr(self, name))
            if sorted(got) != sorted(keys):
                odd = [k for k in got if k not in keys] or [k for k in keys if k not in got]
                raise FieldError(f"its zones are not the six of 'zones' ({', '.join(odd)})", (name,))
        return self


class Table(Model):
    columns: tuple[str, ...]
    rows: tuple[tuple[int | None, ...], ...]


class Blocked(Table):
    eliminated_from: int


class Downshift(Table):
    max_skipped: int


class StartRoll(Model):
    from_: int = Field(alias="from")
    to: int
    result: str
    effect: str


class Roll(Model):
    zone: str
    good: Range
    rain: Range


class Rolls(Model):
    collision: Roll
    engine: Roll
    road_handling: Roll


class ByTopGears(Model):
    gear5: int
    gear6: int


class Overshoot(Model):
    eliminated: dict[int, tuple[int, ...]]  # stops required -> stops made that put the car out at once


class PitStop(Model):
    quick: Range
    slow: Range
    exit_gear: int
    three_lap_race_stops: int
    reservoir_wp: int
    team_reservoir_wp: int


class Slipstream(Model):
    min_gear: int
    bonus_spaces: int


class WeatherRow(Model):
    weather: str
    effect: str


class Weather(Model):
    chart: tuple[WeatherRow, ...]
    change_trigger: ByTopGears


class Tyre(Model):
    dry: str
    rain: str
    marker: str | None = None


class Tyres(Model):
    hard: Tyre
    soft: Tyre
    rain: Tyre
    soft_dry_bonus: int
    hard_rain_slide: int
    rain_rain_slide: int

    def kind(self, name: str) -> Tyre:
        return {"hard": self.hard, "soft": self.soft, "rain": self.rain}[name]


class Shot(Model):
    from_: int = Field(alias="from")
    to: int
    result: str
    zone: str | None


class RoadRace(Model):
    shots: tuple[Shot, ...]
    police_multiplier: int
    police_bonus_wp: int
    checkpoint_bonus_wp: int


class Braking(Model):
    brake_wp_per_space: int | None


class Rules(Model):
    """``rules.yaml``: the rulebook's numbers and tables."""

    source: str
    black_die: int
    braking: Braking
    gears: tuple[Gear, ...]
    wear: Wear
    blocked: Blocked
    downshift: Downshift
    start_roll: tuple[StartRoll, ...]
    great_start_spaces: int
    rolls: Rolls
    engine_strain: ByTopGears
    overshoot: Overshoot
    pit_stop: PitStop
    slipstream: Slipstream
    weather: Weather
    tyres: Tyres
    team_points: tuple[int, ...]
    road_race: RoadRace


# ------------------------------------------------------------------------------------------------ game.yaml


class Markers(Model):
    wp: int
    damage: int


class QualifyingLap(Model):
    per_minute: int
    per_space: int


class GameFacts(Model):
    """``game.yaml``: the race itself and its kit."""

    laps: int
    three_lap_race: int
    cars: int
    colours: int
    team_size: int
    gear_dice: int
    markers: Markers
    great_start_lanes: int
    spin_limit: int
    qualifying_lap: QualifyingLap
    technical_stop_zones: int


# ------------------------------------------------------------------------------------------ gt-drivers.yaml


class Driver(Model):
    id: str
    name: str | None
    ability: str
    text: str
    ocr: tuple[str, ...] | None
    labels_clipped: bool
    needs_weather: bool = False
    wp: dict[str, int | None]  # zone key -> WP; None: not legible in the rulebook (a write-in)
    # zone key -> the value read from a damaged row: printed as a write-in with the value read, never as certain
    uncertain: dict[str, str] = {}


class GT(Model):
    """``gt-drivers.yaml``: the road race's drivers and their cars."""

    drivers: tuple[Driver, ...]
    nitro: str
    tyres: str


# ---------------------------------------------------------------------------------------------- sheets.yaml


class Block(Model):
    """One block of a reference card: exactly one of a paragraph, a heading, a table (by name) or a write-in."""

    text: str | None = None
    heading: str | None = None
    table: str | None = None
    write_in: str | None = None
    house: Literal["brake_wp_per_space", "engine_wp_skip_3", "pit_min_roll"] | None = None  # fills a write-in

    @model_validator(mode="after")
    def _one(self):
        given = [k for k in ("text", "heading", "table", "write_in") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of text, heading, table, write_in")
        return self


class Card(Model):
    title: str
    # what the race must have for the card to be of use: a pit lane, or cars that may run soft and rain tires
    # (a GT road race's cars run on hard tires only)
    needs: tuple[Literal["pits", "soft_tyres"], ...] = ()
    blocks: tuple[Block, ...]


class RadiusBand(Model):
    max_radius_mm: float | None
    stops: int


class KeyLabels(Model):
    stops: str
    suggested: str
    long: str
    short: str
    corner: str
    arrows: str
    police: str
    howling: str


class BoardLabels(Model):
    howling: str
    race: str
    pit_suggested: str
    key: KeyLabels


class Token(Model):
    length: float
    width: float


class ThreeLapRule(Model):
    """The race card's optional three-lap race: with its pit stops, or (no pit lane on the board) without."""

    pits: str
    no_pits: str


class Sheets(Model):
    """``sheets.yaml``: layout choices and Paddock's own wording."""

    colours: dict[str, str]
    default_colours: tuple[str, ...]
    board_labels: BoardLabels
    stops_by_radius: tuple[RadiusBand, ...]
    three_lap_rule: ThreeLapRule
    reference: tuple[Card, ...]
    road_race: Card
    token: Token

    @model_validator(mode="after")
    def _defaults_named(self):
        for i, name in enumerate(self.default_colours):
            if name not in self.colours:
                raise FieldError(f"{name!r} is not one of 'colours'", ("default_colours", i))
        return self


# --------------------------------------------------------------------------------------- real-circuits.yaml


class RealRadiusBand(Model):
    max_radius_m: float | None
    stops: int


class Stretch(Model):
    real_straight_m: float
    max_stretch: float
    corner_stiffness: float
    min_weight: float
    stretch_step: float
    turn_step_deg: float
    extra_spaces: int
    tries: int


class RealLegend(Model):
    start_moved: str
    start_moved_least: str
    real_start: str
    spec_start: str
    grid_in_corner: str
    no_pit: str
    no_sixth_gear: str
    no_sixth_gear_paper: str
    no_sixth_gear_corners: str
    merged: str
    stops_capped: str


class RealCircuits(Model):
    """``real-circuits.yaml``: how a real circuit's centre line becomes a Formula D board."""

    papers: tuple[str, ...]
    sixth_gear_spaces: int
    keep_corners: float
    start_clear_spaces: int
    join_within_spaces: float
    corner_name: str
    radius_step_m: float
    step_m: float
    max_extend_spaces: float
    room_spaces: int
    kink_deg: float
    kink_flat_out_m: float
    stops_by_real_radius: tuple[RealRadiusBand, ...]
    sixth_gear_stretch: Stretch
    bend_radius_m: float
    legend: RealLegend


# ------------------------------------------------------------------------------------------------ dice.yaml


class Dice(RootModel[dict[int, tuple[int, ...]]]):
    """``dice.yaml``: each gear's die, its faces (every face equally likely)."""

    model_config = ConfigDict(frozen=True)

    def faces(self, gear: int) -> tuple[int, ...]:
        return self.root[gear]


# ----------------------------------------------------------------------------------------- house-rules.yaml


class HouseRule(Model):
    value: int | tuple[str, ...]
    label: str
    reason: str


class GTHouseRule(Model):
    """The GT drivers' WP the text does not show: its numbers are the standard car's (rules.yaml)."""

    label: str
    reason: str


class HouseRules(Model):
    """``house-rules.yaml``: Paddock's suggestions for the numbers the rulebook's text does not show."""

    mark: str
    note: str
    title: str
    intro: str
    brake_wp_per_space: HouseRule
    engine_wp_skip_3: HouseRule
    pit_min_roll: HouseRule
    weather: HouseRule
    gt_wp: GTHouseRule
    summary: dict[
        Literal["brake_gap", "brake_box", "engine_gap", "pit_box", "weather_gap", "gt_gap"], tuple[str, str]
    ]


# ----------------------------------------------------------------------------------------------- board.yaml


class Board(Model):
    """``board.yaml``: what a ``game: formula-d`` circuit spec gets for every field it leaves out (the circuit
    engine reads the same file for its defaults)."""

    lanes: int
    lane_width: float
    unit: float
    units: Literal["per-lane", "across"]
    action_every: int


class PlayLegend(Model):
    short_board: str


class PlayCheck(Model):
    forced: str
    forced_fix: str


class Play(Model):
    """``play.yaml``: how a Formula D board plays — a short board's legend line, the words of its play checks."""

    official_lap_spaces: tuple[int, int]
    short_lap_spaces: int
    legend: PlayLegend
    check: PlayCheck
