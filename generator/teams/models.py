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
from ..data import is_shipped, template, templates_dir
from ..errors import GlyphError, InputError
from ..specs import FieldError, Int, LineMap, clean_name, load_yaml, located, name_key, quote, validate

LIVERIES = ("plain", "stripe", "twin-stripe", "two-tone", "nose")
TIERS = ("front", "midfield", "back")
GAMES = ("f1-dice", "monaco", "formula-d")

# Longest a driver's full name may print: the name columns of the qualifying and standings sheets and the
# Monaco! card hold this width (mm) at 8 pt condensed bold.
NAME_WIDTH_MM = 44.0
NAME_SIZE_MM = 8 / 72 * 25.4
MONOGRAM_MAX = 4
# The largest field Paddock lays out: every sheet lists each driver (slips, qualifying, standings, cards), and the
# cost of a pack grows with the field; a real F1 grid has 20-26 cars.
MAX_TEAMS = 30
MAX_DRIVERS = 60


def monaco_rules() -> dict:
    return template("monaco/rules.yaml")


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
    field = validate(TeamField, data, path, lines)
    check_field(field, path, lines)
    return field


def parse_field(data: dict, path: str | Path = "<teams>", lines: LineMap | None = None) -> TeamField:
    lines = lines or LineMap()
    field = validate(TeamField, data, path, lines)
    check_field(field, path, lines)
    return field


def check_field(field: TeamField, path: str | Path, lines: LineMap) -> None:
    """The checks a schema cannot say: squad sizes, unique names, glyphs, names that fit on paper."""
    from ..fonts import text_width

    def fail(message: str, loc: tuple, hint: str | None = None) -> None:
        raise located(InputError(message, hint=hint), path, lines, loc)

    _glyphs(field.name, path, lines, ("name",))  # the field's name heads sheets: said here, of this file
    squad_max = monaco_rules()["squad_max"] if field.is_monaco else 0  # Monaco!'s rules: read for Monaco! fields only
    seen: dict[str, tuple] = {}  # a driver's name_key: where it was
    numbers: dict[int, tuple] = {}  # a car number: where it was
    team_names: dict[str, int] = {}
    for ti, team in enumerate(field.teams):
        first = team_names.setdefault(name_key(team.name), ti)
        if first != ti:
            said = "" if team.name == field.teams[first].name else f" and {quote(field.teams[first].name)}"
            fail(
                f"two teams are called {quote(team.name)}{said} (teams {first + 1} and {ti + 1}; case, spaces and "
                "invisible characters do not tell names apart)",
                ("teams", ti, "name"),
                "give each team its own name",
            )
        _glyphs(team.name, path, lines, ("teams", ti, "name"))
        if field.is_monaco and len(team.drivers) > squad_max:
            fail(
                f"a Monaco! squad has at most {squad_max} cars, {quote(team.name)} has {len(team.drivers)}",
                ("teams", ti, "drivers", squad_max),
                f"move drivers from the {squad_max + 1}th on to another team",
            )
        if field.game == "f1-dice" and team.qualifying is None:
            fail(
                "an f1-dice team needs its qualifying modifiers",
                ("teams", ti),
                "add e.g. 'qualifying: {q1: 2, q2: 1, q3: 0}'",
            )
        for di, d in enumerate(team.drivers):
            loc = ("teams", ti, "drivers", di)
            key = name_key(d.name)
            if key in seen:
                other = field.teams[seen[key][1]].drivers[seen[key][3]].name
                said = "" if other == d.name else f" (as {quote(other)} at line {lines.line((*seen[key], 'name'))})"
                fail(
                    f"the driver {quote(d.name)} is listed twice{said}",
                    (*loc, "name"),
                    "each driver races for one team; names that differ only in case, spaces or invisible "
                    "characters are one name",
                )
            seen[key] = loc
            if d.number is not None:
                if d.number in numbers:
                    ot, od = numbers[d.number][1], numbers[d.number][3]
                    fail(
                        f"car number {d.number} is given twice: {quote(field.teams[ot].drivers[od].name)} (line "
                        f"{lines.line((*numbers[d.number], 'number'))}) and {quote(d.name)}",
                        (*loc, "number"),
                        "give every car its own number",
                    )
                numbers[d.number] = loc
            for key in ("name", "short", "monogram"):
                value = getattr(d, key)
                if value:
                    _glyphs(value, path, lines, (*loc, key))
            if d.monaco and d.monaco.car:
                _glyphs(d.monaco.car, path, lines, (*loc, "monaco", "car"))
            if text_width(d.name, NAME_SIZE_MM, "condensed-bold") > NAME_WIDTH_MM:
                fail(
                    f"the name {quote(d.name)} is too long to print in the name columns",
                    (*loc, "name"),
                    "shorten it (a given name can be an initial)",
                )
            if d.short and not wing_fits(d.short):
                fail(
                    f"{quote(d.short)} does not fit a {template('f1-dice/cars.yaml')['slip']['width']:g} mm car wing "
                    "at a legible size",
                    (*loc, "short"),
                    "use a shorter name or a nickname",
                )
            if not wing_fits(d.initials):
                fail(f"the monogram {quote(d.initials)} does not fit a car wing", (*loc, "monogram"), "use 2–3 letters")
            if field.is_monaco and d.monaco is None:
                fail(
                    "a Monaco! driver needs ratings",
                    (*loc,),
                    "add e.g. 'monaco: {skill: 4, tech: 3}' or dice them with 'paddock season dice'",
                )


def _glyphs(text: str, path, lines, loc) -> None:
    from ..fonts import check_text

    try:
        check_text(text, "condensed-bold")
    except GlyphError as err:
        raise located(err, path, lines, loc) from None


def wing_box() -> tuple[float, float, float]:
    """``(width, height, largest size)`` of the writable part of an f1-dice car's wing at a 2 cm unit (mm), from
    ``templates/f1-dice/cars.yaml``: a margin each side keeps letters clear of the knife and the fold."""
    cars = template("f1-dice/cars.yaml")
    slip, letters = cars["slip"], cars["lettering"]
    return (
        slip["width"] - 2 * letters["margin_x"],
        slip["wing"] - 2 * letters["margin_y"],
        letters["max_size"],
    )


def wing_lettering(text: str, scale: float = 1.0) -> tuple[str, float, bool]:
    """``(font, size, fits)`` for ``text`` on a wing: bold if it fits at a legible size, else condensed."""
    from ..fonts import fit_size

    w, h, biggest = wing_box()
    size = 0.0
    for font in ("condensed-bold", "condensed"):
        size, ok = fit_size(text, font, biggest * scale, w * scale, h * scale)
        if ok:
            return font, size, True
    return "condensed", size, False


def wing_fits(text: str, scale: float = 1.0) -> bool:
    return wing_lettering(text, scale)[2]


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
