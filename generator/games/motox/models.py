"""The typed models of ``templates/motox/*.yaml``: the rulebook's numbers (``rules.yaml``), the piecepack's
(``piecepack.yaml``) and Paddock's wording for the sheets (``sheets.yaml``).

Each file is read once into its model (:func:`load`): a key misspelt, missing or of the wrong type fails there,
naming the file, the line and the field, never later at print time. Sheets read attributes, never string keys.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T", bound=BaseModel)


class Fact(BaseModel):
    """A part of a facts file: frozen, and no key it does not know."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- rules.yaml ------------------------------------------------------------------------------------------------


class Players(Fact):
    min: int
    max: int


class Setup(Fact):
    coin_groups: int  # all coins in this many equal groups: one dealt for building, the rest kept for the race


class Building(Fact):
    max_ramp: int
    corner_contact_touches: bool


class Race(Fact):
    dice_by_rank: tuple[int, ...]
    max_dice: int
    ace_value: int
    null_turn: int
    extra_dice_per_coin: int


class Rules(Fact):
    title: str
    version: str
    credit: str
    players: Players
    minutes: int
    setup: Setup
    building: Building
    race: Race


# -- piecepack.yaml --------------------------------------------------------------------------------------------


class Suit(Fact):
    id: str
    name: str
    colour: str
    colour_name: str


class Rank(Fact):
    id: str
    name: str
    value: int
    numeral: str

    @property
    def is_ace(self) -> bool:
        return self.value == 1


class Inches(Fact):
    tile: float
    tile_min: float
    tile_max: float
    coin: float
    die: float
    bike_width: float
    bike_height: float
    bike_base: float


class Cover(Fact):
    """The words of the set's front page."""

    title: str
    subtitle: str
    credits_heading: str
    credits: tuple[str, ...]
    checklist_heading: str
    checklist: tuple[str, ...]
    printing_heading: str
    duplex: str
    single: str
    columns: tuple[str, str, str]
    card: str
    paper: str
    this_page: str
    cut_heading: str


class Piecepack(Fact):
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    inches: Inches
    spaces_per_edge: int
    die_opposite_sum: int
    card_stock: str
    cover: Cover


# -- sheets.yaml -----------------------------------------------------------------------------------------------


class CardSection(Fact):
    """One section of the rider's card: a heading and any of a table, numbered steps, bullets and a paragraph, drawn
    in that order."""

    heading: str
    table: str | None = None
    steps: tuple[str, ...] = ()
    items: tuple[str, ...] = Field((), alias="list")
    text: str | None = None


class Reference(Fact):
    title: str
    subtitle: str
    footer: str
    columns: tuple[tuple[CardSection, ...], ...]


class Reading(Fact):
    """A race question the rulebook leaves open: Paddock's reading of it and, in one line, why."""

    id: str
    question: str
    reading: str
    why: str


class Note(Fact):
    heading: str
    text: str
    why: str


class Readings(Fact):
    title: str
    footer: str
    intro: str
    why: str
    race: tuple[Reading, ...]
    building: Note
    dealt: Note


class PackCover(Fact):
    """The MotoX pack's front page: its title, subtitle, credit and the sheets it adds to the checklist."""

    title: str
    subtitle: str
    credit: str
    checklist: tuple[str, ...]


class Sheets(Fact):
    reference: Reference
    readings: Readings
    pack: PackCover


# -- loading ---------------------------------------------------------------------------------------------------

FILES: dict[str, type[Fact]] = {"rules.yaml": Rules, "piecepack.yaml": Piecepack, "sheets.yaml": Sheets}


def read(model: type[T], path: str | Path) -> T:
    """``path`` read into ``model``; a misspelt, missing or wrong key is an InputError naming file, line and field."""
    from ...data import is_shipped
    from ...specs import load_yaml, validate

    data, lines = load_yaml(path, trusted=is_shipped(path))
    return validate(model, data, path, lines)


@cache
def load(name: str) -> Fact:
    """The shipped ``templates/motox/<name>``, read into its model once."""
    from ...data import templates_dir

    return read(FILES[name], templates_dir() / "motox" / name)
