"""The typed models of ``templates/rwb-trouble/*.yaml``: the add-on's numbers (``rules.yaml``) and Paddock's wording
and layout choices for the sheets (``sheets.yaml``).

Each file is read once into its model (:func:`load`): a key misspelt, missing or of the wrong type fails there,
naming the file, the line and the field — and so does a name that refers to nothing (a divisor for a group the
add-on does not have, extras on a space the card does not have). Sheets read attributes, never string keys.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

T = TypeVar("T", bound=BaseModel)


class Fact(BaseModel):
    """A part of a facts file: frozen, and no key it does not know."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- rules.yaml ------------------------------------------------------------------------------------------------


class Dice(Fact):
    count: int = Field(ge=1)
    sides: int = Field(ge=2)


class Form(Fact):
    key: str
    name: str
    plural: str


class Group(Fact):
    key: str
    name: str


class AccidentExample(Fact):
    group: str
    dice: tuple[int, int]
    first: int  # the driver the Driver Finder picked
    named: tuple[str, ...]  # the drivers the add-on names
    more: bool = False  # the add-on goes on past them ("etc.")


class Accident(Fact):
    divisor: dict[str, int]
    rounding: Literal["up", "down"]
    examples: tuple[AccidentExample, ...]


class Dropped(Fact):
    driver: int  # the driver's place
    roll: int  # the 2d6 rolled

    @property
    def to(self) -> int:
        """The place the driver drops back to."""
        return self.driver + self.roll


class CrashExample(Fact):
    group: str
    failed_first: int
    failed_second: int
    dropped: tuple[Dropped, ...]
    into_group: str


class Crash(Fact):
    escape_rolls: int
    drop_dice: int
    repair_passed: str
    repair_failed: str
    example: CrashExample


class Chips(Fact):
    colour: str
    per_space: int
    base_turns: int
    extra_every: int = Field(ge=1)
    example_turns: int


class Track(Fact):
    name: str
    extras_on: str | None  # where the add-on suggests the extra chips go; None: it says nothing


class Rules(Fact):
    credit: str
    base_game: str
    dice: Dice
    forms: tuple[Form, ...]
    groups: tuple[Group, ...]
    accident: Accident
    crash: Crash
    chips: Chips
    tracks: dict[str, Track]

    @model_validator(mode="after")
    def _names_refer(self) -> Rules:
        """Every group or space named elsewhere in the file is one the file defines."""
        from ...specs import FieldError

        groups = {g.key for g in self.groups}
        forms = {f.key for f in self.forms}
        if set(self.accident.divisor) != groups:
            raise FieldError(
                f"the divisors are for {', '.join(self.accident.divisor)}, the groups are {', '.join(groups)}",
                ("accident", "divisor"),
            )
        for i, ex in enumerate(self.accident.examples):
            if ex.group not in groups:
                raise FieldError(f"no group '{ex.group}'", ("accident", "examples", i, "group"))
        for field in ("group", "into_group"):
            if getattr(self.crash.example, field) not in groups:
                raise FieldError(f"no group '{getattr(self.crash.example, field)}'", ("crash", "example", field))
        for key, track in self.tracks.items():
            if track.extras_on is not None and track.extras_on not in forms:
                raise FieldError(f"no space '{track.extras_on}'", ("tracks", key, "extras_on"))
        return self


# -- sheets.yaml -----------------------------------------------------------------------------------------------


class Defaults(Fact):
    turns: str
    track: str
    note: str


class Limits(Fact):
    max_turns: int = Field(ge=1)


class CardPaper(Fact):
    """A chip card's size, landscape: in inches or in millimetres."""

    label: str
    width_in: float | None = None
    height_in: float | None = None
    width_mm: float | None = None
    height_mm: float | None = None

    @model_validator(mode="after")
    def _one_unit(self) -> CardPaper:
        inches = self.width_in is not None and self.height_in is not None
        mm = self.width_mm is not None and self.height_mm is not None
        if inches == mm:
            raise ValueError("give width_in and height_in, or width_mm and height_mm")
        return self


class ChipSizes(Fact):
    max_size_mm: float
    min_size_mm: float


class PickReading(Fact):
    """How to choose the form with no agreement: a chip drawn blind from those left on the card."""

    question: str
    steps: tuple[str, ...]
    why: str
    chances: str


class ShareReading(Fact):
    """Where the extra chips go when the players do not say: shared out, mostly on the track's space."""

    question: str
    text: str
    why: str


class TrackReading(Fact):
    """Where a track's extra chips go when the add-on names no space."""

    track: str
    extras_on: str
    text: str
    why: str
    table: str


class CrashReading(Fact):
    """Where several drivers moved by one CRASH end up: the add-on's example counts, but says no more."""

    heading: str
    text: str
    why: str


class Readings(Fact):
    label: str
    why: str
    pick: PickReading
    share: ShareReading
    short_track: TrackReading
    groups: str
    crash_places: CrashReading


class QuickCard(Fact):
    title: str
    subtitle: str
    forms_heading: str
    accident: str
    crash: str
    wreck: str


class ChipCardWords(Fact):
    title: str
    race: str
    count: str
    count_none: str
    counting: str
    extras_suggested: str
    extras_even: str
    extras_chosen: str
    extras_reading: str
    use: str
    start: str
    chip_label: str
    page_title: str
    page_note: str
    chips_heading: str
    backs_title: str
    backs_note: str
    paper_note: str
    quick_heading: str


class TablesWords(Fact):
    title: str
    accident_heading: str
    accident_intro: str
    total_column: str
    chance_column: str
    drivers_heading: str
    drivers_column: str
    chance_note: str
    pick_heading: str
    pick: tuple[str, ...]
    reading: str
    examples_heading: str
    chips_heading: str
    chips_columns: int = Field(ge=1)
    turns_row: str
    extras_row: str
    total_row: str
    chips_more: str
    tracks_heading: str
    track_column: str
    extras_column: str
    extras_free: str
    share_column: str
    share_on: str
    share_even: str
    reading_note: str
    example_mark: str
    example_title: str
    example_top: str
    example_bottom: str


class Flow(Fact):
    """The CRASH flow chart's boxes and arrow labels."""

    start: str
    first_pass: str
    unaffected: str
    again: str
    second_pass: str
    dropped: str
    repair: str
    repair_pass: str
    to_bottom: str
    out: str
    finally_: str = Field(alias="finally")
    yes: str
    no: str


class ProceduresWords(Fact):
    title: str
    which_heading: str
    which: tuple[str, ...]
    accident_heading: str
    accident: str
    crash_heading: str
    crash_intro: str
    flow: Flow
    crash_example_title: str
    crash_example: str
    wreck_heading: str
    wreck: str
    base_note: str


class TrackerWords(Fact):
    title: str
    subtitle: str
    turns_heading: str
    round: str
    round_more: str
    log_heading: str
    round_hint: str
    groups_write_in: str
    groups_blank: str
    groups_to: str
    columns: tuple[str, ...]
    group_marks: tuple[str, ...]
    form_marks: tuple[str, ...]
    min_rounds: int = Field(ge=1)


class Sheets(Fact):
    limits: Limits
    track_options: tuple[str, ...]
    default_track: str
    defaults: Defaults
    readings: Readings
    cards: dict[str, CardPaper]
    default_card: str
    chips: ChipSizes
    chip_card: ChipCardWords
    tables: TablesWords
    procedures: ProceduresWords
    tracker: TrackerWords
    quick_card: QuickCard

    @model_validator(mode="after")
    def _names_refer(self) -> Sheets:
        from ...specs import FieldError

        if self.default_card not in self.cards:
            raise FieldError(f"no card '{self.default_card}' among the cards", ("default_card",))
        if self.default_track not in self.track_options:
            raise FieldError(f"no track '{self.default_track}' among the track options", ("default_track",))
        return self


# -- loading ---------------------------------------------------------------------------------------------------

FILES: dict[str, type[Fact]] = {"rules.yaml": Rules, "sheets.yaml": Sheets}


def read(model: type[T], path: str | Path) -> T:
    """``path`` read into ``model``; a misspelt, missing or wrong key is an InputError naming file, line and field."""
    from ...data import is_shipped
    from ...specs import load_yaml, validate

    data, lines = load_yaml(path, trusted=is_shipped(path))
    return validate(model, data, path, lines)


@cache
def load(name: str) -> Fact:
    """The shipped ``templates/rwb-trouble/<name>``, read into its model once."""
    from ...data import templates_dir

    return read(FILES[name], templates_dir() / "rwb-trouble" / name)
