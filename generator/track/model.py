"""The circuit spec: pydantic models of a ``track_specs/*.yaml`` file.

Lengths are millimetres on paper; positions along the track are **unit numbers** counted from the start/finish
line in the race direction (unit 1 is the first box after the line). The JSON Schema shipped as
``track_specs/circuit.schema.json`` is generated from these models (``python -m generator.track.schema``).
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from ..data import template, templates_dir
from ..fonts import missing_glyphs
from ..paper import PAPER_NAMES
from ..specs import FieldError, Float, Int

# Limits that keep every command on any spec within seconds and a few hundred MB (README, "Limits"):
MAX_SEGMENTS = 2000  # segments in a centre line
MAX_POINTS = 10_000  # points given inline (a longer centre line belongs in a CSV)
MAX_ITEMS = 500  # corners, kerbs, danger spaces, crossings
MAX_UNIT = 10_000  # a unit number (a board holds at most 2,000 units)
MAX_LAP_MM = 100_000  # the centre line of segments: 100 m, far more than fits on A1
MAX_COORD = 1e9  # an inline point's coordinate (any unit: points are scaled to fit)
MIN_SPAN = 1e-6  # the least extent of inline points (or a CSV's): below it scaling them up loses every digit
UnitNo = Annotated[Int, Field(ge=1, le=MAX_UNIT)]

# The fields a game's board defaults give a value when the spec leaves them out.
PROFILE_FIELDS = ("lanes", "lane_width", "unit", "units", "action_every")


def board_games() -> tuple[str, ...]:
    """The games whose boards the circuit engine rules: those with board defaults of their own, a
    ``templates/<game>/board.yaml`` (the engine names no game; the templates do)."""
    return tuple(sorted(p.parent.name for p in templates_dir().glob("*/board.yaml")))


def board_profile(game: str) -> dict:
    """The board defaults of ``game`` (``templates/<game>/board.yaml``): lanes, lane width, unit, ruling."""
    return template(f"{game}/board.yaml")


#: The game a spec that names none is a board of (``templates/board/spec.yaml``).
DEFAULT_GAME = template("board/spec.yaml")["game"]


def _printable(v: str) -> str:
    """A name the board prints: every character in the bundled font (else said of the spec's field, not while
    the board is drawn)."""
    bad = missing_glyphs(v, "bold")
    if bad:
        raise ValueError(f"the bundled font cannot print {', '.join(repr(c) for c in bad)}")
    return v


CornerName = Annotated[str, Field(max_length=40), AfterValidator(_printable)]


class _Model(BaseModel):
    # defer_build: a model's validator is built when it first validates, not when this module is imported; a
    # circuit's parts are then built once, inside the circuit's own validator (~10 ms less per run)
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class ArcSpec(_Model):
    radius: Annotated[Float, Field(ge=0.1, le=20000, description="Centre-line radius in mm.")]
    angle: Annotated[Float, Field(gt=0, le=360, description="How far the track turns, degrees.")]
    turn: Literal["left", "right"] = Field(description="Which way the track turns, in the race direction.")
    transition: Annotated[
        Float,
        Field(
            ge=0,
            le=20000,
            description="Length (mm) of a smooth easing (clothoid) at each end of the arc; 0 = a plain arc.",
        ),
    ] = 0.0
    # Formula D: the arc is a corner, from the unit it begins in to the unit it ends in (as a 'corners' entry)
    stops: Annotated[Int | None, Field(ge=1, le=3, description="Formula D: a corner with these stops.")] = None
    name: Annotated[CornerName | None, Field(description="Formula D: a corner of this name.")] = None


class Segment(_Model):
    """One piece of centre line: ``straight: LENGTH`` or ``arc: {radius, angle, turn}``."""

    straight: Annotated[Float | None, Field(gt=0, le=20000, description="A straight: its length in mm.")] = None
    arc: ArcSpec | None = None

    @model_validator(mode="after")
    def _one(self) -> Segment:
        if (self.straight is None) == (self.arc is None):
            raise ValueError("a segment is either 'straight: LENGTH' or 'arc: {radius, angle, turn}'")
        return self

    @property
    def length(self) -> float:
        if self.arc is None:
            return self.straight or 0.0
        return self.arc.radius * math.radians(self.arc.angle) + self.arc.transition


class Start(_Model):
    at: Annotated[
        Float,
        Field(
            ge=0,
            le=MAX_UNIT,
            description="Where the start/finish line is, in units from the beginning of the centre line.",
        ),
    ] = 0.0
    reverse: bool = Field(False, description="Race the centre line backwards.")


class Pit(_Model):
    side: Literal["left", "right"] = Field("right", description="Side of the track, looking in the race direction.")
    from_: Annotated[UnitNo, Field(alias="from", description="Unit where the pit entry leaves the track.")]
    to: Annotated[UnitNo, Field(description="Unit where the pit exit rejoins (may wrap past the line).")]
    garages: Annotated[Int, Field(ge=0, le=30, description="Number of garages along the pit lane.")] = 10
    min_roll: Annotated[
        Int | None,
        Field(
            ge=1,
            le=30,
            description="Formula D: the minimum roll of the gear die needed to enter the pit (omitted: not set).",
        ),
    ] = None


class KerbSpec(_Model):
    from_: Annotated[UnitNo, Field(alias="from", description="First unit with a kerb.")]
    to: Annotated[UnitNo, Field(description="Last unit with a kerb.")]
    side: Literal["left", "right"]


class CornerSpec(_Model):
    """A corner declared by hand (otherwise corners are found from curvature)."""

    from_: Annotated[UnitNo, Field(alias="from", description="First unit of the corner.")]
    to: Annotated[UnitNo, Field(description="Last unit of the corner.")]
    stops: Annotated[Int | None, Field(ge=1, le=3, description="Formula D: stops required in the corner.")] = None
    name: CornerName | None = None


class Danger(_Model):
    unit: Annotated[UnitNo, Field(description="Unit (per-lane: the space of each lane at that unit).")]
    lane: Annotated[Int | None, Field(ge=1, le=7, description="Lane 1 = left edge; omitted = every lane.")] = None


class Zone(_Model):
    """A stretch of track from one unit to another (may wrap past the start line), e.g. Formula D's road-race
    "engines are howling" zone."""

    from_: Annotated[UnitNo, Field(alias="from", description="First unit of the zone.")]
    to: Annotated[UnitNo, Field(description="Last unit of the zone (before 'from': it wraps past the line).")]


class Crossing(_Model):
    kind: Literal["bridge", "tunnel"] = "bridge"
    upper: Literal["first", "second"] = Field(
        "second", description="Which pass (counted from the start line) goes over the other."
    )


class CircuitSpec(_Model):
    """A circuit for print. Give the centre line as ``segments``, ``points`` or ``csv``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, json_schema_extra={"title": "Paddock circuit"})

    name: Annotated[str, Field(min_length=1, max_length=60)]
    game: Literal[board_games()] = Field(  # type: ignore[valid-type]
        DEFAULT_GAME,
        description="The game whose board this is: its board defaults (templates/<game>/board.yaml) fill the "
        "fields below that the spec leaves out.",
    )
    paper: Literal[PAPER_NAMES] = "a3"  # type: ignore[valid-type]
    orientation: Literal["auto", "landscape", "portrait"] = "auto"
    lanes: Annotated[
        Int | None, Field(ge=1, le=7, description="Number of lanes (default: the game's; f1-dice 2, once 7).")
    ] = None
    lane_width: Annotated[
        Float | None, Field(ge=5, le=60, description="Width of one lane, mm (default: the game's).")
    ] = None
    unit: Annotated[
        Float | None, Field(ge=5, le=60, description="Length of one unit along the track, mm (default: the game's).")
    ] = None
    units: Literal["across", "per-lane"] | None = Field(
        None,
        description="across: one line across the track per unit (f1-dice); per-lane: Formula D spaces "
        "(default: the game's).",
    )
    action_every: Annotated[
        Int | None, Field(ge=1, le=100, description="Mark and number every Nth unit (default: the game's).")
    ] = None

    segments: Annotated[list[Segment] | None, Field(max_length=MAX_SEGMENTS)] = None
    points: Annotated[
        list[
            tuple[
                Annotated[Float, Field(ge=-MAX_COORD, le=MAX_COORD)],
                Annotated[Float, Field(ge=-MAX_COORD, le=MAX_COORD)],
            ]
        ]
        | None,
        Field(max_length=MAX_POINTS),
    ] = None
    csv: Annotated[str | None, Field(min_length=1, max_length=1024)] = Field(
        None, description="Centre-line CSV (racetrack-database x_m,y_m,... or x,y), relative."
    )
    fit: Literal["page"] | Annotated[Int, Field(ge=10, le=2000)] = Field(
        "page", description="Points/CSV: 'page' (largest that fits) or the lap length in units."
    )
    smoothing: Annotated[
        Float,
        Field(
            ge=0,
            le=500,
            description="Points/CSV: how far (mm on paper) the direction of the centre line is averaged; more "
            "smoothing widens tight corners (0 = the spline through the points).",
        ),
    ] = 0.0
    real_start_at: Annotated[
        Float | None,
        Field(
            ge=0,
            le=MAX_COORD,
            description="Points/CSV whose first point is not on the real start/finish line: how far along the centre "
            "line (in its own units: metres for a racetrack-database CSV) from its first point the real line is.",
        ),
    ] = None
    close: Literal["strict", "auto"] = Field(
        "strict", description="Segments: 'auto' spreads a closing gap over the straights."
    )

    start: Start = Start()
    grid: Annotated[Int, Field(ge=0, le=40, description="Grid slots behind the start line.")] = 10
    pit: Pit | None = None
    podium: bool = True
    kerbs: Literal["auto", "none"] | Annotated[list[KerbSpec], Field(max_length=MAX_ITEMS)] = "auto"
    corners: Annotated[list[CornerSpec] | None, Field(max_length=MAX_ITEMS)] = None
    danger: Annotated[list[Danger], Field(max_length=MAX_ITEMS)] = []
    police_line: Annotated[UnitNo | None, Field(description="Police line at the end of this unit.")] = None
    howling: Annotated[list[Zone], Field(max_length=MAX_ITEMS)] = Field(
        [],
        description="Formula D road races: 'the engines are howling' zones; a car ending its move there rolls the "
        "black die on the shooting table.",
    )
    crossings: Annotated[list[Crossing], Field(max_length=MAX_ITEMS)] = []
    title: Annotated[str | None, Field(min_length=1, max_length=80)] = Field(
        None, description="Title printed on the board (default: name)."
    )

    @field_validator("name", "title")
    @classmethod
    def _printable(cls, v: str | None) -> str | None:
        return v if v is None else _printable(v)

    @model_validator(mode="after")
    def _game_defaults(self) -> CircuitSpec:
        """Fill what the spec leaves out from its game's board profile: one place for each game number."""
        profile = board_profile(self.game)
        for key in PROFILE_FIELDS:
            if getattr(self, key) is None:
                setattr(self, key, profile[key])
        return self

    @model_validator(mode="after")
    def _one_centre_line(self) -> CircuitSpec:
        given = [k for k in ("segments", "points", "csv") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "give the centre line exactly once: segments, points or csv"
                + (f" (got {', '.join(given)})" if given else "")
            )
        if self.segments is not None and self.real_start_at is not None:
            raise FieldError(
                "real_start_at applies to a centre line given as points or a CSV; this spec uses segments",
                ("real_start_at",),
                "give the start line with 'start: {at: N}' (units along the segments)",
            )
        if self.segments is not None and len(self.segments) < 2:
            raise FieldError("a circuit needs at least two segments", ("segments",))
        if self.points is not None and len(self.points) < 4:
            raise FieldError("a circuit needs at least four points", ("points",))
        if self.points is not None:
            span = max(max(p[i] for p in self.points) - min(p[i] for p in self.points) for i in (0, 1))
            if span < MIN_SPAN:
                raise FieldError(
                    f"the points span only {span:.3g}; they are scaled to fit, but not from nothing",
                    ("points",),
                    f"give coordinates that span at least {MIN_SPAN:g} (in any unit)",
                )
        if self.segments is not None:
            lap = sum(seg.length for seg in self.segments)
            if lap > MAX_LAP_MM:
                raise FieldError(
                    f"the segments add up to {lap / 1000:.1f} m; a board takes at most {MAX_LAP_MM / 1000:.0f} m",
                    ("segments",),
                    "the largest paper, A1, holds a few metres of track",
                )
        for i, d in enumerate(self.danger):
            if d.lane is not None and d.lane > self.lanes:
                raise FieldError(
                    f"danger lane {d.lane} but the track has {self.lanes} lane(s)",
                    ("danger", i, "lane"),
                    f"use a lane from 1 to {self.lanes}",
                )
        return self
