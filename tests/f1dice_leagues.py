"""Generated home leagues for the f1-dice tests: team files as a user writes them (1–15 teams of 1–4 drivers, 2
cars or more, any qualifying modifiers in the rulebook's range, names in the scripts the bundled font prints, short
and long).

Nothing here is tuned to the shipped 2011 field: names, colours, modifiers and tiers are all drawn."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import strategies as st

#: Letters of the scripts the bundled font (Roboto) prints: Latin with accents, Greek, Cyrillic.
ALPHABETS = (
    "abcdefghijklmnopqrstuvwxyz",
    "áàâäãåæçéèêëíìîïñóòôöõøœßúùûüýÿłńśźżčďěňřšťůž",
    "αβγδεζηθικλμνξοπρστυφχψω",
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
)
#: The rulebook's range of qualifying modifiers (f1-dice.txt §2.1: d−4 … d+3).
MODIFIERS = st.integers(min_value=-4, max_value=3)


@st.composite
def word(draw, min_size: int = 1, max_size: int = 9) -> str:
    letters = draw(st.sampled_from(ALPHABETS))
    w = draw(st.text(st.sampled_from(letters), min_size=min_size, max_size=max_size))
    return w[0].upper() + w[1:]


@st.composite
def person(draw) -> str:
    """A driver's name: one to three words, short ("Bo") or long ("Αλεξάνδρα Παπαδοπούλου")."""
    return " ".join(draw(st.lists(word(), min_size=1, max_size=3)))


@st.composite
def league(draw, max_teams: int = 15) -> dict:
    """A teams file's data: unique team and driver names (Paddock refuses repeats, rightly)."""
    n_teams = draw(st.integers(1, max_teams))
    sizes = draw(st.lists(st.integers(1, 4), min_size=n_teams, max_size=n_teams))
    if sum(sizes) < 2:  # the game is raced from 2 cars up (a field of one is refused: test_f1dice_table.py)
        sizes[0] = 2
    team_names = draw(st.lists(word(2, 12), min_size=n_teams, max_size=n_teams, unique_by=str.casefold))
    names = draw(st.lists(person(), min_size=sum(sizes), max_size=sum(sizes), unique_by=str.casefold))
    colours = st.integers(0, 0xFFFFFF).map(lambda v: f"#{v:06x}")
    teams, k = [], 0
    for i, (team, size) in enumerate(zip(team_names, sizes, strict=True)):
        entry: dict = {
            "name": team,
            "colours": {"primary": draw(colours), "secondary": draw(colours)},
            "livery": draw(st.sampled_from(["plain", "stripe", "twin-stripe", "two-tone", "nose"])),
            "drivers": [{"name": names[k + j]} for j in range(size)],
        }
        k += size
        if draw(st.booleans()) or i == 0:
            entry["qualifying"] = {"q1": draw(MODIFIERS), "q2": draw(MODIFIERS), "q3": draw(MODIFIERS)}
        tier = draw(st.sampled_from([None, "front", "midfield", "back"]))
        if tier:
            entry["tier"] = tier
        teams.append(entry)
    return {"name": draw(word(3, 12)) + " League", "teams": teams}


def write(data: dict, folder: Path, name: str = "league.yaml") -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def fixed_league(sizes: list[int], seed: int = 0) -> dict:
    """A league with teams of ``sizes`` drivers, its names and modifiers drawn from ``seed`` (no search: for a
    test that needs one league of a given shape)."""
    import random

    rng = random.Random(seed)

    def name(lo: int, hi: int) -> str:
        letters = rng.choice(ALPHABETS)
        w = "".join(rng.choice(letters) for _ in range(rng.randint(lo, hi)))
        return w[0].upper() + w[1:]

    teams = []
    for i, size in enumerate(sizes):
        teams.append(
            {
                "name": f"{name(3, 9)} {i + 1}",
                "colours": {"primary": f"#{rng.randrange(0x1000000):06x}"},
                "qualifying": {q: rng.randint(-4, 3) for q in ("q1", "q2", "q3")},
                "drivers": [{"name": f"{name(2, 7)} {name(3, 10)} {i + 1}{j + 1}"} for j in range(size)],
            }
        )
    return {"name": f"{name(4, 10)} League", "teams": teams}
