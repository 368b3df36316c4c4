"""Team specs: the YAML a user writes (or a preset Paddock ships), validated into models.

    field = load_field("f1-2011")          # a preset under templates/teams/, or a path to a YAML file
    for team in field.teams: ...

Every problem becomes one :class:`~generator.errors.InputError` naming file, line and field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..compose.colour import parse_colour
from ..data import is_shipped, templates_dir
from ..errors import InputError
from ..specs import FieldError, Int, LineMap, clean_name, load_yaml, quote
from .checks import (  # noqa: F401  (wing_*, NAME_*: what the games import from here)
    NAME_SIZE_MM,
    NAME_WIDTH_MM,
    check_field,
    monaco_rules,
    validated,
    wing_box,
    wing_fits,
    wing_lettering,
)

LIVERIES = ("plain", "stripe", "twin-stripe", "two-tone", "nose")
TIERS = ("front", "midfield", "back")
GAMES = ("f1-dice", "monaco", "formula-d")

MONOGRAM_MAX = 4
# The largest field Paddock lays out: every sheet lists each driver (slips, qualifying, standings, cards), and the
# cost of a pack grows with the field; a real F1 grid has 20-26 cars.
MAX_TEAMS = 30
MAX_DRIVERS = 60


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built on first use (track.model)


class Colours(_Strict):
    primary: str
    secondary: str | None = None
    accent: str | None = None

    @field_validator("primary", "secondary", "accent", mode="before")
    @classmethod
    def _colour(cls, v):
        return None if v is None else parse_colour(v)

    @property
    def second(self) -> str:
        return self.secondary or self.primary

    @property
    def third(self) -> str:
        return self.accent or self.second


class MonacoStats(_Strict):
    """*Monaco!* ratings: driver skill and car tech, 1 (weakest) to 6 (best); each is also its points cost."""

    skill: Int
    tech: Int
    car: str | None = Field(default=None, min_length=1, max_length=30)

    @field_validator("skill", "tech")
    @classmethod
    def _rating(cls, v: int) -> int:
        r = monaco_rules()["rating"]
        if not r["min"] <= v <= r["max"]:
            raise ValueError(f"a rating runs from {r['min']} to {r['max']}, not {v}")
        return v

    @property
    def skill_cost(self) -> int:
        return self.skill * monaco_rules()["cost_per_rating_point"]

    @property
    def tech_cost(self) -> int:
        return self.tech * monaco_rules()["cost_per_rating_point"]

    @property
    def cost(self) -> int:
        return self.skill_cost + self.tech_cost


class Driver(_Strict):
    name: str = Field(min_length=1, max_length=60)
    short: str | None = Field(default=None, min_length=1, max_length=20)
    monogram: str | None = Field(default=None, min_length=1, max_length=MONOGRAM_MAX)
    number: Int | None = Field(default=None, ge=0, le=999)
    monaco: MonacoStats | None = None

    @field_validator("name", "short", "monogram")
    @classmethod
    def _strip(cls, v):
        return None if v is None else clean_name(v)

    @property
    def surname(self) -> str:
        """The family name: everything after the first given name ("Paul di Resta" → "di Resta")."""
        parts = self.name.split(" ")
        return " ".join(parts[1:]) if len(parts) > 1 else self.name

    @property
    def wing_name(self) -> str:
        return self.short or self.surname

    @property
    def initials(self) -> str:
        if self.monogram:
            return self.monogram
        letters = [p[0] for p in self.name.replace("'", " ").split() if p[:1].isalpha()]
        return "".join(letters).upper()[:MONOGRAM_MAX] or self.name[:3].upper()


class Qualifying(_Strict):
    """Die modifiers for the three f1-dice qualifying sessions: ``d+3`` is 3, ``d`` is 0, ``d-2`` is -2."""

    q1: Int = Field(ge=-5, le=6)
    q2: Int = Field(ge=-5, le=6)
    q3: Int = Field(ge=-5, le=6)

    def session(self, name: str) -> int:
        return getattr(self, name.lower())


class Team(_Strict):
    name: str = Field(min_length=1, max_length=40)
    colours: Colours
    livery: Literal["plain", "stripe", "twin-stripe", "two-tone", "nose"] = "plain"
    tier: Literal["front", "midfield", "back"] | None = None
    qualifying: Qualifying | None = None
    # Where the team-mates' order (the f1-dice dead-heat tie-break) comes from: the rulebook names it, or it is
    # Paddock's reading; omitted: the teams file's own order.
    tie_break: Literal["rulebook", "paddock"] | None = None
    drivers: list[Driver] = Field(min_length=1, max_length=MAX_DRIVERS)

    @field_validator("name")
    @classmethod
    def _strip(cls, v):
        return clean_name(v)


class TeamField(_Strict):
    """A whole field: every team that takes part."""

    name: str = Field(default="Teams", min_length=1, max_length=60)
    game: Literal["f1-dice", "monaco", "formula-d"] | None = None
    teams: list[Team] = Field(min_length=1, max_length=MAX_TEAMS)

    @field_validator("name")
    @classmethod
    def _strip(cls, v):
        return clean_name(v)

    @model_validator(mode="after")
    def _field_size(self) -> TeamField:
        n = sum(len(t.drivers) for t in self.teams)
        if n > MAX_DRIVERS:
            raise FieldError(
                f"the field has {n} drivers; Paddock lays out at most {MAX_DRIVERS}",
                ("teams",),
                "split it into two fields",
            )
        return self

    @property
    def drivers(self) -> list[tuple[Team, Driver]]:
        return [(t, d) for t in self.teams for d in t.drivers]

    def first_cars(self, cars: int) -> TeamField:
        """The field cut to its first teams, in order, as many as have ``cars`` cars or fewer in all (a team races
        whole: its drivers share a garage and a qualifying line). ValueError if even the first team has more."""
        kept, n = [], 0
        for team in self.teams:
            if n + len(team.drivers) > cars:
                break
            kept.append(team)
            n += len(team.drivers)
        if not kept:
            raise ValueError(f"the first team of '{self.name}' has {len(self.teams[0].drivers)} cars")
        return self if len(kept) == len(self.teams) else self.model_copy(update={"teams": kept})

    def team_of(self, driver_name: str) -> Team | None:
        for t, d in self.drivers:
            if d.name == driver_name:
                return t
        return None

    @property
    def is_monaco(self) -> bool:
        return self.game == "monaco" or any(d.monaco for _, d in self.drivers)

    def dump(self) -> dict:
        """Plain data for writing back to YAML (only the fields that are set)."""
        return self.model_dump(mode="json", exclude_none=True, exclude_defaults=False)


# -- loading --------------------------------------------------------------------------------------------------


def preset_dir() -> Path:
    return templates_dir() / "teams"


def preset_names() -> list[str]:
    return sorted(p.stem for p in preset_dir().glob("*.yaml"))


def resolve(ref: str | Path) -> Path:
    """A preset name (``f1-2011``) or a path to a teams file."""
    path = Path(ref)
    if path.is_file():
        return path
    cand = preset_dir() / f"{ref}.yaml"
    if not path.suffix and "/" not in str(ref) and cand.is_file():
        return cand
    if path.suffix or path.exists() or path.is_symlink():
        return path  # the shared reader says what is wrong with it (a folder, a pipe, a device …)
    raise InputError(
        f"no teams file or preset called {quote(str(ref))}",
        file=None if not path.suffix else path,
        hint="use a path to a YAML file or one of the presets: " + ", ".join(preset_names()),
    )


def load_field(ref: str | Path) -> TeamField:
    """Load and check a teams file (or preset by name)."""
    path = resolve(ref)
    data, lines = load_yaml(path, trusted=is_shipped(path))
    return parse_field(data, path, lines)


def parse_field(data: dict, path: str | Path = "<teams>", lines: LineMap | None = None) -> TeamField:
    """``data`` (a teams file's) as a field: every problem in it said at once (:mod:`.checks`)."""
    lines = lines or LineMap()
    field = validated(TeamField, data, path, lines, Team, Driver)
    check_field(field, path, lines)
    return field


__all__ = [
    "Colours",
    "Driver",
    "MonacoStats",
    "Qualifying",
    "Team",
    "TeamField",
    "load_field",
    "parse_field",
    "preset_names",
    "resolve",
]
