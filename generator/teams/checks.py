"""Checking a teams file: every problem found in one pass and said at once, the way ``paddock check`` lists a
circuit's (a first line, "3 problems:", then a line each with the file and line) — one problem alone is said as it
always was, on one line naming the file, line and field.

Two stages: the schema (:func:`validated`: the field, each team and each driver checked apart, so a mistake in
one team does not hide another's), then what a schema cannot say (:func:`check_field`: squad sizes, unique names,
glyphs, names that fit the paper they print on).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..data import template
from ..errors import InputError, PaddockError
from ..problems import Problem, listing
from ..specs import LineMap, field_name, located, name_key, quote, validate

# Longest a driver's full name may print: the name columns of the qualifying and standings sheets and the
# Monaco! card hold this width (mm) at 8 pt condensed bold.
NAME_WIDTH_MM = 44.0
NAME_SIZE_MM = 8 / 72 * 25.4

# The widest a team's name may print, measured with the bundled font at the legible floor (fonts.LEGIBLE_FLOOR,
# 5 pt): on one line in the team columns of the f1-dice qualifying sheet (the Q1 table and the team-modifier
# table) and the standings, which hold at least TEAM_NAME_WIDTH_MM; and in at most two lines of TEAM_LABEL_MM on
# the team's label beside its car slips (two slips wide, less its colour swatch). The sheets fit a name to the
# room they have, larger where there is more (tests/test_teams.py measures the sheets against these).
TEAM_NAME_WIDTH_MM = 24.0
TEAM_LABEL_MM = 17.5
TEAM_LABEL_LINES = 2


def monaco_rules() -> dict:
    return template("monaco/rules.yaml")


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


def team_name_room(name: str) -> str | None:
    """Why ``name`` does not print in the team columns and on the slips' team label at the legible floor (None:
    it does)."""
    from ..compose.blocks import wrap
    from ..fonts import LEGIBLE_FLOOR, text_width

    pt = round(LEGIBLE_FLOOR * 72 / 25.4)
    width = text_width(name, LEGIBLE_FLOOR, "condensed")
    if width > TEAM_NAME_WIDTH_MM:
        return (
            f"it is {width:.1f} mm wide at {pt} pt, and the team columns of the qualifying and standings sheets hold "
            f"{TEAM_NAME_WIDTH_MM:g} mm"
        )
    label = wrap(name, TEAM_LABEL_MM, LEGIBLE_FLOOR, "condensed-bold")
    long = [w for w in label if text_width(w, LEGIBLE_FLOOR, "condensed-bold") > TEAM_LABEL_MM]
    if long:
        w = text_width(long[0], LEGIBLE_FLOOR, "condensed-bold")
        return (
            f"{quote(long[0])} is {w:.1f} mm at {pt} pt, and the team label beside the car slips holds lines of "
            f"{TEAM_LABEL_MM:g} mm"
        )
    if len(label) > TEAM_LABEL_LINES:
        return f"the team label beside the car slips holds it in {TEAM_LABEL_LINES} lines of {TEAM_LABEL_MM:g} mm"
    return None


class Found:
    """The problems of one teams file, each at its key path; :meth:`raise_all` says them as one error."""

    def __init__(self, path: str | Path, lines: LineMap) -> None:
        self.path, self.lines = path, lines
        self.errors: list[PaddockError] = []
        self._under: dict[tuple, list[tuple]] | None = None

    def lines_under(self, at: tuple) -> LineMap:
        """The lines of the part at key path ``at``, keyed from it (the file's key paths indexed once: a file of
        10,000 drivers built this for each of them from every line, 31 s to refuse it)."""
        if self._under is None:
            self._under = {}
            for k in self.lines:
                for n in range(len(k) + 1):
                    self._under.setdefault(k[:n], []).append(k)
        n = len(at)
        sub = LineMap({k[n:]: self.lines[k] for k in self._under.get(at, ())})
        if () not in sub and self.lines.line(at) is not None:
            sub[()] = self.lines.line(at)
        return sub

    def add(self, message: str, loc: tuple, hint: str | None = None) -> None:
        self.errors.append(located(InputError(message, hint=hint), self.path, self.lines, loc))

    def add_error(self, err: PaddockError) -> None:
        self.errors.append(err)

    def raise_all(self) -> None:
        if not self.errors:
            return
        if len(self.errors) == 1:
            raise self.errors[0]
        errors = sorted(self.errors, key=lambda e: e.line or 0)
        problems = [Problem("teams", e.message, advice=e.hint or "", line=e.line, field=e.field) for e in errors]

        def say(p: Problem) -> str:
            return (f"field '{p.field}': " if p.field else "") + p.text()

        err = InputError(listing(problems, say, self.path), file=self.path)
        err.problems = problems
        raise err


# -- the schema, part by part ----------------------------------------------------------------------------------

_STUB_DRIVER = {"name": "Stand In"}
_STUB_TEAM = {"name": "Stand In", "colours": {"primary": "#000000"}, "drivers": [_STUB_DRIVER]}


def validated(model, data: Any, path: str | Path, lines: LineMap, Team, Driver):  # noqa: N803  (the models)
    """``data`` validated as a :class:`~.models.TeamField` (``model``, its ``Team`` and ``Driver``). When it is not
    valid, the field, every team and every driver are checked apart, key by key, and all their problems are said
    at once (one problem: said as it always was)."""
    try:
        return validate(model, data, path, lines)
    except InputError as first:
        teams = data.get("teams") if isinstance(data, dict) else None
        if not isinstance(teams, list) or not teams:
            raise
        found = Found(path, lines)
        _part(found, model, {**data, "teams": [_STUB_TEAM] * len(teams)}, (), {"teams": [_STUB_TEAM]})
        for i, team in enumerate(teams):
            drivers = team.get("drivers") if isinstance(team, dict) else None
            if isinstance(drivers, list) and drivers:
                _part(found, Team, {**team, "drivers": [_STUB_DRIVER] * len(drivers)}, ("teams", i), _STUB_TEAM)
                for j, driver in enumerate(drivers):
                    _part(found, Driver, driver, ("teams", i, "drivers", j), _STUB_DRIVER)
            else:
                _part(found, Team, team, ("teams", i), _STUB_TEAM)
        if len(found.errors) < 2:
            raise first from None
        found.raise_all()
        raise  # not reached: raise_all raises


def _part(found: Found, model, data: Any, at: tuple, stub: dict) -> None:
    """Validate one part of the file (at key path ``at``), its errors located in the whole file: with several
    keys wrong, each key on its own (the others as ``stub``, a valid part), and each required key missing."""
    err = _error(found, model, data, at)
    if err is None:
        return
    if not isinstance(data, dict) or _count(model, data) < 2:
        found.add_error(err)
        return
    for key, value in data.items():
        one = _error(found, model, {**stub, key: value}, at)
        if one is not None:
            found.add_error(one)
    for name, info in model.model_fields.items():
        if info.is_required() and name not in data and (info.alias or name) not in data:
            found.add("this field is required", (*at, name))


def _error(found: Found, model, data: Any, at: tuple) -> InputError | None:
    try:
        validate(model, data, found.path, found.lines_under(at))
    except InputError as err:
        if at:
            own = err.field or ""
            err.field = field_name(at) + ("" if not own else own if own.startswith("[") else "." + own)
        return err
    return None


def _count(model, data: Any) -> int:
    """How many problems pydantic finds in ``data`` (a check that raises at once counts as one)."""
    from pydantic import ValidationError

    try:
        model.model_validate(data)
    except ValidationError as exc:
        return len(exc.errors())
    except Exception:
        return 1
    return 0


# -- what a schema cannot say ----------------------------------------------------------------------------------


def check_field(field, path: str | Path, lines: LineMap) -> None:
    """Squad sizes, unique names, glyphs, names that fit on paper: every problem found, said at once."""
    from ..fonts import text_width

    found = Found(path, lines)
    _glyphs(found, field.name, ("name",))  # the field's name heads sheets: said here, of this file
    squad_max = monaco_rules()["squad_max"] if field.is_monaco else 0  # Monaco!'s rules: read for Monaco! fields only
    seen: dict[str, tuple] = {}  # a driver's name_key: where it was
    numbers: dict[int, tuple] = {}  # a car number: where it was
    team_names: dict[str, int] = {}
    for ti, team in enumerate(field.teams):
        first = team_names.setdefault(name_key(team.name), ti)
        if first != ti:
            said = "" if team.name == field.teams[first].name else f" and {quote(field.teams[first].name)}"
            found.add(
                f"two teams are called {quote(team.name)}{said} (teams {first + 1} and {ti + 1}; case, spaces and "
                "invisible characters do not tell names apart)",
                ("teams", ti, "name"),
                "give each team its own name",
            )
        if _glyphs(found, team.name, ("teams", ti, "name")):
            _team_name(found, team.name, ("teams", ti, "name"))
        if field.is_monaco and len(team.drivers) > squad_max:
            found.add(
                f"a Monaco! squad has at most {squad_max} cars, {quote(team.name)} has {len(team.drivers)}",
                ("teams", ti, "drivers", squad_max),
                f"move drivers from the {squad_max + 1}th on to another team",
            )
        for di, d in enumerate(team.drivers):
            loc = ("teams", ti, "drivers", di)
            key = name_key(d.name)
            if key in seen:
                other = field.teams[seen[key][1]].drivers[seen[key][3]].name
                said = "" if other == d.name else f" (as {quote(other)} at line {lines.line((*seen[key], 'name'))})"
                found.add(
                    f"the driver {quote(d.name)} is listed twice{said}",
                    (*loc, "name"),
                    "each driver races for one team; names that differ only in case, spaces or invisible "
                    "characters are one name",
                )
            else:
                seen[key] = loc
            if d.number is not None:
                if d.number in numbers:
                    ot, od = numbers[d.number][1], numbers[d.number][3]
                    found.add(
                        f"car number {d.number} is given twice: {quote(field.teams[ot].drivers[od].name)} (line "
                        f"{lines.line((*numbers[d.number], 'number'))}) and {quote(d.name)}",
                        (*loc, "number"),
                        "give every car its own number",
                    )
                else:
                    numbers[d.number] = loc
            printable = all(
                _glyphs(found, getattr(d, key), (*loc, key)) for key in ("name", "short", "monogram") if getattr(d, key)
            )
            if d.monaco and d.monaco.car:
                _glyphs(found, d.monaco.car, (*loc, "monaco", "car"))
            if not printable:
                continue
            wide = text_width(d.name, NAME_SIZE_MM, "condensed-bold")
            if wide > NAME_WIDTH_MM:
                pt = round(NAME_SIZE_MM * 72 / 25.4)
                found.add(
                    f"the name {quote(d.name)} is too long to print: it is {wide:.1f} mm wide at {pt} pt, and the "
                    "name columns of the qualifying and standings sheets and the Monaco! card hold "
                    f"{NAME_WIDTH_MM:g} mm",
                    (*loc, "name"),
                    f"shorten it to about {int(NAME_WIDTH_MM / wide * len(d.name))} characters (a given name can be "
                    "an initial)",
                )
            if d.short and not wing_fits(d.short):
                found.add(
                    f"{quote(d.short)} does not fit a {template('f1-dice/cars.yaml')['slip']['width']:g} mm car wing "
                    "at a legible size",
                    (*loc, "short"),
                    "use a shorter name or a nickname",
                )
            if not wing_fits(d.initials):
                found.add(
                    f"the monogram {quote(d.initials)} does not fit a car wing", (*loc, "monogram"), "use 2–3 letters"
                )
            if field.is_monaco and d.monaco is None:
                found.add(
                    "a Monaco! driver needs ratings",
                    (*loc,),
                    "add e.g. 'monaco: {skill: 4, tech: 3}' or dice them with 'paddock season dice'",
                )
    found.raise_all()


def _team_name(found: Found, name: str, loc: tuple) -> None:
    why = team_name_room(name)
    if why is None:
        return
    found.add(
        f"the team name {quote(name)} is too long to print: {why}",
        loc,
        f"shorten it to about {_chars(name)} characters, in words of at most about {_chars(name, TEAM_LABEL_MM)} "
        "(a short form the players know will do)",
    )


def _chars(name: str, room: float = TEAM_NAME_WIDTH_MM) -> int:
    """About how many characters of ``name``'s kind fit ``room`` mm at the legible floor (for the hint)."""
    from ..fonts import LEGIBLE_FLOOR, text_width

    per = text_width(name, LEGIBLE_FLOOR, "condensed-bold") / max(len(name), 1)
    return max(1, int(room / per))


def _glyphs(found: Found, text: str, loc: tuple) -> bool:
    """Whether the bundled font prints every character of ``text``; if not, a problem naming them."""
    from ..errors import GlyphError
    from ..fonts import check_text

    try:
        check_text(text, "condensed-bold")
    except GlyphError as err:
        found.add_error(located(err, found.path, found.lines, loc))
        return False
    return True
