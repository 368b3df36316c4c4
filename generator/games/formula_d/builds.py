"""Players and their cars' wear points: the standard build, custom builds, the road-race GT drivers.

A custom build shares ``custom_total`` WP over the six zones within the rulebook's ranges; a bad build gets one
message naming the zone and how far it is out. GT drivers come with the values legible in the rulebook; the
rest (``None``) are supplied by the player or printed as write-ins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from ...errors import InputError
from . import facts
from .models import Driver

ALIASES = {
    "tires": "tires",
    "tyres": "tires",
    "tire": "tires",
    "tyre": "tires",
    "brakes": "brakes",
    "brake": "brakes",
    "gearbox": "gearbox",
    "gears": "gearbox",
    "body": "car_body",
    "car_body": "car_body",
    "carbody": "car_body",
    "engine": "engine",
    "handling": "road_handling",
    "road_handling": "road_handling",
    "roadhandling": "road_handling",
}
GT_MAX = 14  # the most boxes a scorecard row holds; GT values are not limited by the custom-build ranges


def zone_key(name: str) -> str | None:
    return ALIASES.get(re.sub(r"[\s\-]+", "_", name.strip().lower()).replace("__", "_"))


@dataclass(frozen=True)
class Player:
    name: str
    colour: str  # #rrggbb
    colour_name: str
    build: dict[str, int | None]  # zone key -> WP; None = write in (a GT value the rulebook does not show)
    kind: Literal["standard", "custom", "gt"] = "standard"
    driver: Driver | None = None
    driver_name: str | None = None
    notes: list[str] = field(default_factory=list)
    house: frozenset[str] = frozenset()  # zones whose WP is Paddock's house rule (--house-rules), not the rulebook's
    number: int = 0  # the car's number in the field (1 …): on its tokens, marker and cards, legible in any ink


def numbered(players: list[Player]) -> list[Player]:
    """The field with its cars numbered 1, 2, … in order."""
    return [replace(p, number=i + 1) for i, p in enumerate(players)]


def with_house_rules(players: list[Player]) -> list[Player]:
    """GT drivers' zones the rulebook's text does not show (``None``) given Paddock's house rule: the standard
    car's WP there, marked as such on the cards; a players file's own ``wp:`` stays as given."""
    standard = facts.standard_build()
    out = []
    for p in players:
        gaps = frozenset(k for k, v in p.build.items() if v is None)
        if p.kind != "gt" or not gaps:
            out.append(p)
            continue
        build = {k: standard[k] if v is None else v for k, v in p.build.items()}
        notes = [n for n in p.notes if "not legible" not in n]
        out.append(replace(p, build=build, house=gaps, notes=notes))
    return out


def check_build(wp: dict[str, int], where: str = "") -> None:
    """Raise InputError unless ``wp`` is a legal custom build: every zone, each within range, the right total."""
    keys = facts.zone_keys()
    ranges = facts.wp_ranges()
    total = facts.rules().wear.custom_total
    missing = [k for k in keys if k not in wp]
    if missing:
        raise InputError(
            f"the build gives no WP for {', '.join(facts.zone_label(k).lower() for k in missing)}",
            field=where or "wp",
            hint="give all six zones: tires, brakes, gearbox, body, engine, handling",
        )
    for k in keys:
        lo, hi = ranges[k]
        v = wp[k]
        label = facts.zone_label(k)
        if v > hi:
            raise InputError(
                f"{label.lower()} has {v} WP, {v - hi} over the most allowed ({hi})",
                field=where or "wp",
                hint=f"{label.lower()} takes {lo}–{hi} WP",
            )
        if v < lo:
            raise InputError(
                f"{label.lower()} has {v} WP, {lo - v} under the least allowed ({lo})",
                field=where or "wp",
                hint=f"{label.lower()} takes {lo}–{hi} WP",
            )
    got = sum(wp[k] for k in keys)
    if got != total:
        diff = got - total
        more = f"{diff} more" if diff > 0 else f"{-diff} fewer"
        raise InputError(
            f"the build adds up to {got} WP, {more} than the {total} to share",
            field=where or "wp",
            hint="move WP between zones until they add up to " + str(total),
        )


def parse_wp(text: str, option: str = "--wp") -> dict[str, int]:
    """``tires=8,brakes=3,...`` -> {zone key: WP}."""
    from ...specs import quote

    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        key = zone_key(name) if sep else None
        if key is None:
            raise InputError(
                f"cannot read {quote(part)}",
                field=option,
                hint="write zone=WP pairs: tires=8,brakes=3,gearbox=2,body=2,engine=3,handling=2",
            )
        if key in out:
            raise InputError(
                f"{facts.zone_label(key).lower()} is given twice ({quote(name.strip())})",
                field=option,
                hint="give each zone once",
            )
        value = value.strip()
        if not (value.isascii() and value.isdigit() and len(value) <= 3):
            raise InputError(f"{quote(value)} is not a whole number of WP for {quote(name.strip())}", field=option)
        out[key] = int(value)
    return out


def colour_of(name: str | None, index: int, where: str = "colour") -> tuple[str, str]:
    """(hex, printed name) of a car colour: a palette name, ``#rrggbb``, or the palette's next default."""
    sheet = facts.sheets()
    palette = sheet.colours
    if not name:
        key = sheet.default_colours[index % len(sheet.default_colours)]
        return palette[key], key
    n = name.strip().lower()
    if n in palette:
        return palette[n], n
    if re.fullmatch(r"#[0-9a-f]{6}", n):
        return n, n
    raise InputError(
        f"unknown car colour {_quote(name)}",
        field=where,
        hint="use " + ", ".join(palette) + " or #rrggbb",
    )


def gt_build(driver: Driver, supplied: dict[str, int] | None, where: str) -> tuple[dict[str, int | None], list[str]]:
    """A GT driver's WP: the rulebook's legible values, with the player's own where given."""
    build: dict[str, int | None] = {k: None if k in driver.uncertain else v for k, v in driver.wp.items()}
    for k, v in (supplied or {}).items():
        if not 1 <= v <= GT_MAX:
            raise InputError(f"{facts.zone_label(k).lower()} has {v} WP; a GT zone takes 1–{GT_MAX}", field=where)
        build[k] = v
    notes = []
    unknown = [
        facts.zone_label(k).lower()
        + (f" (the text reads {driver.uncertain[k]}, uncertain)" if k in driver.uncertain else "")
        for k in facts.zone_keys()
        if build[k] is None
    ]
    if unknown:
        who = driver.name or driver.ability
        notes.append(
            f"GT driver {who}: {', '.join(unknown)} WP not legible in the rulebook — printed as write-ins; "
            "give them in a players file (wp:) to print the boxes, or --house-rules for Paddock's"
        )
    return build, notes


def _quote(value) -> str:
    from ...specs import quote

    return quote(value)


def _fold(text: str) -> str:
    """What two players' names must differ in (letters of every script count: "Иван" and "Пётр" are two)."""
    from ...specs import name_key

    return name_key(text)


def players_from_names(
    names: list[str], wp: dict[str, int] | None = None, gt: bool = False, weather: bool = True
) -> list[Player]:
    """Players from ``--players``: the standard build, or ``--wp`` for all, or the GT drivers in rulebook order
    (without the weather rules, leaving out the drivers the rulebook keeps for weather races)."""
    if not names:
        raise InputError("no players given", field="--players", hint='e.g. --players "Ann,Béla,Csaba"')
    drivers = [d for d in facts.gt_drivers() if weather or not d.needs_weather]
    if gt and len(names) > len(drivers):
        raise InputError(
            f"{len(names)} players but only {len(drivers)} GT drivers"
            + ("" if weather else " without the weather rules (add --weather for all of them)"),
            field="--players",
        )
    if len(names) > PLAYERS_MAX:
        raise InputError(f"{len(names)} players; Formula D races at most {PLAYERS_MAX} cars", field="--players")
    if wp is not None:
        check_build(wp, "--wp")
    out = []
    for i, name in enumerate(names):
        colour, cname = colour_of(None, i)
        if gt:
            build, notes = gt_build(drivers[i], wp if wp else None, "--wp")
            out.append(Player(name, colour, cname, build, "gt", drivers[i], None, notes))
        elif wp is not None:
            out.append(Player(name, colour, cname, dict(wp), "custom"))
        else:
            out.append(Player(name, colour, cname, facts.standard_build()))
    return out


#: The longest player name: it prints on the scorecard's colour strip and the dashboard.
NAME_MAX = 40
PLAYERS_MAX = 10  # Formula D races at most ten cars


def check_name(name: str, where: str) -> None:
    """A player's name: not too long to print, and every character in the bundled font."""
    from ...fonts import check_text
    from ...specs import quote

    if len(name) > NAME_MAX:
        raise InputError(
            f"the name {quote(name, 30)} is longer than {NAME_MAX} characters", field=where, hint="shorten it"
        )
    try:
        check_text(name, "condensed-bold")
    except InputError as err:
        err.field = where
        raise


def split_names(text: str) -> list[str]:
    from ...specs import quote

    names = [n.strip() for n in text.split(",")]
    if len(names) > PLAYERS_MAX:
        raise InputError(f"{len(names)} players; Formula D races at most {PLAYERS_MAX} cars", field="--players")
    if any(not _fold(n) for n in names):  # nothing visible: empty, or only invisible characters
        raise InputError("an empty player name", field="--players", hint="separate names with single commas")
    seen: set[str] = set()
    for n in names:
        check_name(n, "--players")
        if _fold(n) in seen:
            raise InputError(f"the player {quote(n)} is listed twice", field="--players")
        seen.add(_fold(n))
    return names


# --- players file -------------------------------------------------------------------------------------------


def _models():
    from pydantic import BaseModel, ConfigDict, Field, field_validator

    from ...specs import Int

    class PlayerSpec(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: str = Field(min_length=1, max_length=NAME_MAX)
        colour: str | None = Field(default=None, max_length=40)
        wp: dict[str, Int] | None = None
        driver: str | None = Field(default=None, max_length=40)
        driver_name: str | None = Field(default=None, max_length=NAME_MAX)

        @field_validator("name", "driver_name")
        @classmethod
        def _name(cls, v):  # a name of no-break spaces printed nothing, and its initial was an IndexError
            from ...specs import clean_name

            return None if v is None else clean_name(v)

        @field_validator("wp")
        @classmethod
        def _zones(cls, v):
            if v is None:
                return v
            out = {}
            for name, value in v.items():
                from ...specs import quote

                key = zone_key(str(name))
                if key is None:
                    raise ValueError(f"unknown zone {quote(name)}; use tires, brakes, gearbox, body, engine, handling")
                if key in out:
                    raise ValueError(f"{facts.zone_label(key).lower()} is given twice ({quote(name)})")
                out[key] = value
            return out

    class PlayersFile(BaseModel):
        model_config = ConfigDict(extra="forbid")
        players: list[PlayerSpec] = Field(min_length=1, max_length=PLAYERS_MAX)
        gt: bool = False
        weather: bool = False
        tyres: bool = False

    return PlayerSpec, PlayersFile


@dataclass
class PlayersSetup:
    players: list[Player]
    gt: bool = False
    weather: bool = False
    tyres: bool = False


def load_players_file(path: str | Path, gt: bool = False) -> PlayersSetup:
    """Read a players file (YAML); every error names the file, line and field."""
    from ...specs import load_yaml, located, quote, validate

    _, PlayersFile = _models()
    data, lines = load_yaml(path)
    spec = validate(PlayersFile, data, path, lines)
    gt = gt or spec.gt
    drivers = facts.gt_drivers()
    used: dict[str, int] = {}
    names: dict[str, int] = {}
    players = []
    for i, p in enumerate(spec.players):
        loc: tuple = ("players", i)
        folded = _fold(p.name)
        if folded in names:
            raise located(InputError(f"the player {quote(p.name)} is listed twice"), path, lines, (*loc, "name"))
        names[folded] = i
        for key in ("name", "driver_name"):
            if getattr(p, key):
                try:
                    check_name(getattr(p, key), key)
                except InputError as err:
                    raise located(err, path, lines, (*loc, key)) from None
        try:
            colour, cname = colour_of(p.colour, i)
        except InputError as err:
            raise located(err, path, lines, (*loc, "colour")) from None
        if gt or p.driver:
            if p.driver:
                driver = facts.gt_driver(p.driver)
                if driver is None:
                    known = ", ".join(d.id for d in drivers)
                    raise located(
                        InputError(f"no GT driver {quote(p.driver)}", hint=f"use one of {known}"),
                        path,
                        lines,
                        (*loc, "driver"),
                    )
            else:
                free = [d for d in drivers if d.id not in used]
                driver = free[0]
            if driver.id in used:
                raise located(
                    InputError(f"GT driver {driver.id} is already driven by player {used[driver.id] + 1}"),
                    path,
                    lines,
                    (*loc, "driver"),
                )
            used[driver.id] = i
            try:
                build, notes = gt_build(driver, p.wp, "wp")
            except InputError as err:
                raise located(err, path, lines, (*loc, "wp")) from None
            players.append(Player(p.name, colour, cname, build, "gt", driver, p.driver_name, notes))
        elif p.wp is not None:
            try:
                check_build(p.wp)
            except InputError as err:
                err.hint = err.hint
                raise located(err, path, lines, (*loc, "wp")) from None
            players.append(Player(p.name, colour, cname, dict(p.wp), "custom"))
        else:
            players.append(Player(p.name, colour, cname, facts.standard_build()))
    return PlayersSetup(players, gt, spec.weather, spec.tyres)
