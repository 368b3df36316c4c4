"""MotoX and piecepack facts, read once from ``templates/motox/*.yaml``.

Every sheet, the checker, the course builder and the rule summary take their numbers from here, so each number
lives in one place: the rulebook's in ``rules.yaml``, the piecepack's in ``piecepack.yaml``. Sizes are inches in
the YAML (as the piecepack's makers give them) and millimetres from here on.
"""

from __future__ import annotations

from ...units import inch_to_mm
from ...words import ordinal  # noqa: F401  (its sheets number places with it)
from .models import Inches, Piecepack, Rank, Rules, Sheets, Suit, load


def rules() -> Rules:
    return load("rules.yaml")  # type: ignore[return-value]


def piecepack() -> Piecepack:
    return load("piecepack.yaml")  # type: ignore[return-value]


def sheets() -> Sheets:
    return load("sheets.yaml")  # type: ignore[return-value]


def suits() -> tuple[Suit, ...]:
    return piecepack().suits


def ranks() -> tuple[Rank, ...]:
    return piecepack().ranks


def suit(suit_id: str) -> Suit:
    return next(s for s in suits() if s.id == suit_id)


def tile_count() -> int:
    """Tiles in a piecepack: one per suit and rank. MotoX deals and plays them all."""
    return len(suits()) * len(ranks())


def coin_count() -> int:
    return len(suits()) * len(ranks())


def building_coins() -> int:
    """The coins dealt for building (one of the equal groups); the rest wait for the race."""
    return coin_count() // rules().setup.coin_groups


def player_range() -> tuple[int, int]:
    p = rules().players
    return p.min, p.max


def tiles_per_player(players: int) -> int:
    return tile_count() // players


def coins_per_player(players: int) -> int:
    return building_coins() // players


def max_ramp() -> int:
    return rules().building.max_ramp


def corner_contact_touches() -> bool:
    return rules().building.corner_contact_touches


def dice_by_rank() -> list[int]:
    return list(rules().race.dice_by_rank)


def max_dice() -> int:
    return rules().race.max_dice


# -- sizes (mm) ----------------------------------------------------------------------------------------------


def inches() -> Inches:
    """The piecepack's sizes in inches, as its makers give them."""
    return piecepack().inches


def tile_mm(size_in: float | None = None) -> float:
    """A tile's side in mm (2 in = 50.8 mm unless ``--tile-size`` says otherwise)."""
    return inch_to_mm(inches().tile if size_in is None else size_in)


def coin_mm() -> float:
    return inch_to_mm(inches().coin)


def die_mm() -> float:
    return inch_to_mm(inches().die)


def bike_mm() -> tuple[float, float, float]:
    """(width, height, base tab) of a bike standee, mm."""
    i = inches()
    return inch_to_mm(i.bike_width), inch_to_mm(i.bike_height), inch_to_mm(i.bike_base)


def spaces_per_edge() -> int:
    """Spaces along a tile's edge (the back's quarters: 2 × 2)."""
    return piecepack().spaces_per_edge


def die_opposite_sum() -> int:
    return piecepack().die_opposite_sum
