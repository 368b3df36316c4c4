"""The Formula D kit at the table (issue 42): a field the size of the game box by default, a stand-in for the black
d20 that rolls it exactly, tokens that tell apart in black and white, a place to count the stops made in a corner —
read back from the PDFs or measured on the sheets."""

from __future__ import annotations

import re
from collections import Counter
from itertools import product

import pytest
from conftest import pdf_text, render_gray

from generator.cli import main
from generator.games.formula_d import facts, pack
from generator.games.formula_d.builds import colour_of
from generator.paper import PageSettings
from generator.scene import Circle, Document, Text, walk
from generator.writers import render


def words(sheets, prefix: str) -> str:
    pages = [s.page for s in sheets if s.name.startswith(prefix)]
    return " ".join(t.text for p in pages for t in walk(p.items()) if isinstance(t, Text))


@pytest.fixture(scope="module")
def default_pack():
    return pack.build(PageSettings())


def test_the_default_field_is_the_game_boxs(default_pack, tmp_path, capsys):
    """Ten players, as the game box's ten cars (game.yaml), not four; a road race: one for each GT driver who may
    race. The command says what it chose."""
    cars = facts.game().cars
    assert cars == 10
    for n in range(1, cars + 1):
        assert f"Player {n}" in words(default_pack, "scorecards") and f"Player {n}" in words(default_pack, "dashboards")
    assert pack.default_names(gt=True) == [f"Player {n}" for n in range(1, 10)]  # Marcellin needs the weather
    assert len(pack.default_names(gt=True, weather=True)) == 10
    try:
        main(["pack", "formula-d", "-o", str(tmp_path), "-f", "pdf"])
    except SystemExit as ex:
        assert not ex.code
    assert "no --players given: 10 players, the cars in the game box" in capsys.readouterr().err


def test_the_black_die_stand_in_rolls_a_d20_exactly(default_pack):
    """No black die? The card prints a recipe with ordinary dice; played out, every result 1–20 comes up as often."""
    text = " ".join(words(default_pack, "reference").split())
    m = re.search(r"No black die\? It is a d(\d+): roll one, or a d(\d+) \(a 0 reads \2\), plus (\d+) on a d6's "
                  r"(\d)–(\d)\.", text)  # fmt: skip
    assert m, text[:200]
    faces, base, add, lo, hi = (int(v) for v in m.groups())
    assert faces == facts.rules().black_die == 20
    results = Counter(b + (add if lo <= d6 <= hi else 0) for b, d6 in product(range(1, base + 1), range(1, 7)))
    assert sorted(results) == list(range(1, faces + 1)) and len(set(results.values())) == 1
    assert "no d20? Roll a d10 (a 0 reads 10), plus 10 on a d6's 4–6" in " ".join(words(default_pack, "rules").split())


def test_tokens_tell_apart_in_black_and_white(default_pack):
    """Red and blue tokens printed alike in grey (issue 42): every token carries its car's number on a white disc,
    and the first cars' colours lie apart in grey (measured on the page rendered in greyscale)."""
    page = next(s.page for s in default_pack if s.name.startswith("pieces"))
    numbers = [t.text for t in walk(page.layer("pieces-text").items) if isinstance(t, Text) and t.text.isdigit()]
    assert Counter(numbers) == Counter(str(n) for n in range(1, 11) for _ in range(2))  # the car and a spare
    discs = [c for c in walk(page.layer("pieces-fill").items) if isinstance(c, Circle) and c.style.fill == "#ffffff"]
    assert len(discs) == 20
    (blob,) = render(Document([page]), "pdf")
    grey = render_gray(blob, 50)
    k = 50 / 25.4
    shades = []
    for disc in discs[::2][:4]:  # cars 1–4: red, blue, green, yellow
        x, y = disc.center
        px, py = int((x + 6.0) * k), int((y + 4.2) * k)  # under the name, on the car's colour
        shades.append(int(grey[py - 1 : py + 2, px - 1 : px + 2].mean()))
    assert min(abs(a - b) for i, a in enumerate(shades) for b in shades[i + 1 :]) >= 25, shades
    names = [colour_of(None, i)[1] for i in range(4)]
    assert names == ["red", "blue", "green", "yellow"]


def test_the_dashboard_counts_the_stops_made_in_a_corner(default_pack, tmp_path):
    """A box per stop up to the most a corner asks (3), read back from the dashboards' PDF."""
    page = next(s.page for s in default_pack if s.name.startswith("dashboards"))
    (blob,) = render(Document([page]), "pdf")
    text = " ".join(pdf_text(blob).split())
    assert text.count("STOPS IN THIS CORNER 1 2 3") == 3  # three dashboards to the page
    assert "each time your move ends inside a corner; clear them as you leave it" in text
    assert max(facts.rules().overshoot.eliminated) == 3
    markers = [t.text for t in walk(page.items()) if isinstance(t, Text) and t.size > 5 and t.text.isdigit()]
    assert {"1", "2", "3"} <= set(markers)  # the gear-stick markers carry the car's number, not "P" for Player
