"""Monaco! seasons (monaco.txt A4–5): dicing, and the between-season rules on a hand-checked example."""

from __future__ import annotations

import pytest
import yaml

from generator.cli import main
from generator.errors import InputError
from generator.games.monaco.season import dice_field, load_results, next_season
from generator.teams import load_field


def _data(preset: str) -> dict:
    from generator.specs import load_yaml
    from generator.teams.models import resolve

    return load_yaml(resolve(preset))[0]


def _drivers(data: dict) -> dict[str, list[tuple[str, int, int]]]:
    return {
        t["name"]: [(d["name"], d["monaco"]["skill"], d["monaco"]["tech"]) for d in t["drivers"]] for t in data["teams"]
    }


def test_hand_checked_next_season():
    # Before: L'Escargot = Marcel 6/6, Amalie 4/5; Red Cow = Hurst 5/4, Bonheur 3/4.
    # Amalie wins a race (4 → 5) and Marcel wins one (6 stays 6: the top rating).
    # L'Escargot: Marcel (6) retires, Amalie (5) must move to the only other squad, Red Cow.
    # Red Cow: Hurst (5) retires, Bonheur (3) moves to L'Escargot.
    # Bonheur takes the first free seat at L'Escargot (Marcel's car), Amalie the first at Red Cow (Hurst's);
    # the seats left are filled by diced recruits; with two cars a squad re-dices both (best and worst).
    new, log = next_season(_data("monaco-example"), ["Amalie Proust", "Marcel Proust"], seed=7)
    after = _drivers(new)
    escargot, red_cow = after["Team L'Escargot"], after["Red Cow"]
    assert escargot[0][:2] == ("Rosa Bonheur", 3)
    assert red_cow[0][:2] == ("Amalie Proust", 5)
    assert escargot[1][0].startswith("Rookie") and red_cow[1][0].startswith("Rookie")
    names = {n for team in after.values() for n, _, _ in team}
    assert "Marcel Proust" not in names and "Damien Hurst" not in names
    assert "Marcel Proust (Team L'Escargot) retires" in log
    assert "race win: Marcel Proust skill 6 → 6" in log
    # Seats keep their cars: Bonheur now drives an Evian 2CV, Amalie a Bullock.
    cars = {d["name"]: d["monaco"].get("car") for t in new["teams"] for d in t["drivers"]}
    assert cars["Rosa Bonheur"] == "Evian 2CV" and cars["Amalie Proust"] == "Bullock RC1"
    for team in after.values():
        for _, skill, tech in team:
            assert 1 <= skill <= 6 and 1 <= tech <= 6


def test_worst_and_best_car_only_are_rediced():
    data = {
        "name": "Three",
        "game": "monaco",
        "teams": [
            {
                "name": "A",
                "colours": {"primary": "#ff0000"},
                "drivers": [
                    {"name": "Ann A", "monaco": {"skill": 2, "tech": 3}},
                    {"name": "Bea B", "monaco": {"skill": 5, "tech": 6}},
                    {"name": "Cat C", "monaco": {"skill": 4, "tech": 1}},
                    {"name": "Dot D", "monaco": {"skill": 1, "tech": 4}},
                ],
            },
            {
                "name": "B",
                "colours": {"primary": "#0000ff"},
                "drivers": [{"name": "Eve E", "monaco": {"skill": 3, "tech": 2}}],
            },
        ],
    }
    new, _ = next_season(data, [], seed=1)
    a = new["teams"][0]["drivers"]
    # Bea (5) retires and Cat (4) moves to B, the only squad with a free seat (Eve, B's best, retired).
    # A's cars: 3, 6, 1, 4 — the best (6) and the worst (1) are re-diced, Ann's and Dot's keep their tech.
    assert [d["name"] for d in a][0] == "Ann A" and a[0]["monaco"]["tech"] == 3  # middle car untouched
    assert a[3]["name"] == "Dot D" and a[3]["monaco"]["tech"] == 4  # middle car untouched
    b = new["teams"][1]["drivers"]
    assert b[0]["name"] == "Cat C" and b[0]["monaco"]["skill"] == 4


def test_same_seed_same_file_and_other_seed_other_file(tmp_path):
    files = []
    for seed, name in ((5, "a"), (5, "b"), (6, "c")):
        target = tmp_path / f"{name}.yaml"
        with pytest.raises(SystemExit) as exit_:
            main(["season", "dice", "monaco-example", "--seed", str(seed), "--out", str(target), "-q"])
        assert exit_.value.code == 0
        files.append(target.read_bytes())
    assert files[0] == files[1] and files[0] != files[2]
    field = load_field(tmp_path / "a.yaml")  # the written file is a valid teams file
    assert len(field.drivers) == 4


def test_dicing_is_deterministic_and_in_range():
    a, _ = dice_field(_data("f1-2011"), 11)
    b, _ = dice_field(_data("f1-2011"), 11)
    assert a == b
    ratings = [v for t in _drivers(a).values() for _, s, k in t for v in (s, k)]
    assert set(ratings) <= set(range(1, 7)) and len(set(ratings)) > 1


def test_next_season_cli_writes_the_file(tmp_path):
    results = tmp_path / "results.yaml"
    results.write_text("races:\n  - {name: Monaco, winner: Amalie Proust}\n", encoding="utf-8")
    out = tmp_path / "next.yaml"
    with pytest.raises(SystemExit) as exit_:
        main(["season", "next", "monaco-example", "--results", str(results), "--seed", "3", "--out", str(out), "-q"])
    assert exit_.value.code == 0
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert data["teams"][1]["drivers"][0]["name"] == "Amalie Proust"


def test_unknown_winner_is_located(tmp_path):
    results = tmp_path / "results.yaml"
    results.write_text("races:\n  - {name: Monaco, winner: Marcel Proust}\n  - {winner: Nobody}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_results(results, load_field("monaco-example"))
    assert f"{results}:3" in str(err.value) and "races[1].winner" in str(err.value)


def test_next_season_needs_ratings(tmp_path, capsys):
    results = tmp_path / "r.yaml"
    results.write_text("races: []\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["season", "next", "f1-2011", "--results", str(results), "--out", str(tmp_path / "x.yaml")])
    assert exit_.value.code == 2
    assert "season dice" in capsys.readouterr().err
    assert not (tmp_path / "x.yaml").exists()
