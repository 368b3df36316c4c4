"""MotoX's rule summary content (``templates/motox/summary.yaml``): the values its ``{placeholders}`` take and the
tables it shows, computed from the game's facts — the same facts the reference card, the checker and the course
builder read, so the summary and the card always agree."""

from __future__ import annotations

from . import facts


def _num(x: float) -> str:
    return f"{x:g}"


def _and(words: list[str]) -> str:
    """``a, b and c``."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def values() -> dict[str, str]:
    """Every number the summary and the cards quote, and Paddock's readings (``reading_<id>``), as the summary's
    reading boxes print them."""
    out = numbers()
    readings = facts.sheets().readings
    for r in readings.race:
        out[f"reading_{r.id}"] = reading_text(r.question, r.reading.format(**out), readings.why, r.why)
    dealt = readings.dealt
    out["reading_dealt"] = reading_text(dealt.heading + "?", dealt.text.format(**out), readings.why, dealt.why)
    return out


def reading_text(question: str, reading: str, why_label: str, why: str) -> str:
    """A reading as one paragraph: the question in bold, Paddock's reading, and its reason."""
    return f"**{question}** {reading} {why_label} {why}"


def numbers() -> dict[str, str]:
    """The numbers of the rulebook and the piecepack the wording quotes, as text."""
    r = facts.rules()
    lo, hi = facts.player_range()
    race = r.race
    dice = facts.dice_by_rank()
    tile_in = facts.inches().tile
    return {
        "credit": r.credit,
        "players_min": str(lo),
        "players_max": str(hi),
        "minutes": str(r.minutes),
        "suits": str(len(facts.suits())),
        "ranks": str(len(facts.ranks())),
        "numerals": _and([r.numeral for r in facts.ranks() if r.numeral]),
        "rank_names": _and([r.name for r in facts.ranks()]),
        "tiles": str(facts.tile_count()),
        "coins": str(facts.coin_count()),
        "coin_groups": {2: "two", 3: "three"}.get(r.setup.coin_groups, str(r.setup.coin_groups)),
        "building_coins": str(facts.building_coins()),
        "race_coins": str(facts.coin_count() - facts.building_coins()),
        "max_ramp": str(facts.max_ramp()),
        "ramps_needed": str(-(-facts.building_coins() // facts.max_ramp())),
        **{f"dice_{facts.ordinal(i + 1)}": str(n) for i, n in enumerate(dice)},
        "places": str(len(dice)),
        "max_dice": str(facts.max_dice()),
        "ace_value": str(race.ace_value),
        "null_turn": str(race.null_turn),
        "extra_dice_per_coin": str(race.extra_dice_per_coin),
        "tile_in": _num(tile_in),
        "space_in": _num(tile_in / facts.spaces_per_edge()),
        "spaces_per_tile": str(facts.spaces_per_edge() ** 2),
        "coin_in": _num(facts.inches().coin),
        "die_in": _num(facts.inches().die),
        "tile_mm": f"{facts.tile_mm():.1f}",
        "space_mm": f"{facts.tile_mm() / facts.spaces_per_edge():.1f}",
        "die_opposite_sum": str(facts.die_opposite_sum()),
    }


def tables() -> dict[str, dict]:
    dice = facts.dice_by_rank()
    lo, hi = facts.player_range()
    race_coins = facts.coin_count() - facts.building_coins()
    return {
        "dice_by_rank": {
            "columns": ["Your place", *(facts.ordinal(i + 1) for i in range(len(dice)))],
            "rows": [["Dice you roll", *(str(n) for n in dice)]],
        },
        "deal": {
            "columns": ["Players", "Tiles each", "Building coins each", "Race coins each"],
            "rows": [
                [str(n), str(facts.tiles_per_player(n)), str(facts.coins_per_player(n)), str(race_coins // n)]
                for n in range(lo, hi + 1)
            ],
        },
        "pieces": {
            "columns": ["Piece", "How many", "What it is in MotoX"],
            "rows": [
                [
                    "Tiles",
                    str(facts.tile_count()),
                    f"the track, laid face down: each {_num(facts.inches().tile)} in tile is "
                    f"{facts.spaces_per_edge() ** 2} spaces",
                ],
                ["Coins", str(facts.coin_count()), "half build the jump ramps, half are spent in the race"],
                ["Dice", str(len(facts.suits())), "rolled for movement: more dice the further back you are"],
                ["Pawns", str(len(facts.suits())), "the bikes, one per player"],
            ],
        },
    }
