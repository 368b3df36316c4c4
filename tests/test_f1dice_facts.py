"""The f1-dice facts are typed: every file of ``templates/f1-dice/`` loads into its model, and a misspelt key in a
copy of one is refused at load time with the file, the line and the field."""

from __future__ import annotations

import shutil

import pytest

from generator.data import templates_dir
from generator.errors import InputError
from generator.games.f1_dice import facts as f1

FOLDER = templates_dir() / "f1-dice"


def test_every_template_of_the_game_loads():
    yamls = {p.name for p in FOLDER.glob("*.yaml")}
    assert yamls == set(f1.FILES) | {"summary.yaml"}  # a new file gets a model (the summary has its own)
    facts = f1.load(FOLDER)
    assert facts.board.action_every == 10 and facts.cars.slip.body == 20
    assert facts.qualifying.out_after == {"Q1": 7, "Q2": 7}  # a map keyed by session stays a dict
    assert set(facts.words.reference.tiers) == {"front", "midfield", "back"}
    from generator.games.summaries import load

    assert load("f1-dice").sections  # the summary, through the summary model


def _copy(tmp_path):
    folder = tmp_path / "f1-dice"
    shutil.copytree(FOLDER, folder)
    return folder


@pytest.mark.parametrize(
    ("name", "key", "typo"),
    [
        ("board.yaml", "action_every:", "action_evry:"),
        ("sheets.yaml", "  chart_heading:", "  chart_heding:"),
        ("points.yaml", "    best_results:", "    best_result:"),
        ("action-roll.yaml", "effect: retire", "efect: retire"),
        ("cars.yaml", "  wing:", "  wings:"),
    ],
)
def test_a_misspelt_key_is_refused_with_its_file_and_line(tmp_path, name, key, typo):
    folder = _copy(tmp_path)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(key) == 1, key
    line = text[: text.index(key)].count("\n") + 1
    path.write_text(text.replace(key, typo), encoding="utf-8")
    with pytest.raises(InputError) as info:
        f1.load(folder)
    err = info.value
    assert err.file == str(path) and err.line == line, str(err)
    assert typo.strip(" :").split(":")[0] in (err.field or ""), str(err)
    assert f"{path}:{line}" in str(err)


def test_a_missing_key_and_a_wrong_type_are_refused_at_load(tmp_path):
    folder = _copy(tmp_path)
    path = folder / "race.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("min_laps: 2", "min_laps: two"), encoding="utf-8")
    with pytest.raises(InputError, match=r"race\.yaml:\d+: field 'min_laps'"):
        f1.load(folder)
    path.write_text(text.replace("max_laps: 30\n", ""), encoding="utf-8")
    with pytest.raises(InputError, match=r"field 'max_laps': this field is required"):
        f1.load(folder)
