"""Formula D's facts: every YAML of ``templates/formula-d/`` loads into its typed model, and a mistake in one fails
at load, naming the file, the line and the field — not later, when a sheet prints."""

from __future__ import annotations

import shutil

import pytest

from generator.data import templates_dir
from generator.errors import InputError
from generator.games.formula_d import facts
from generator.games.formula_d import models as m


@pytest.fixture
def copy(tmp_path):
    folder = tmp_path / "formula-d"
    shutil.copytree(templates_dir() / "formula-d", folder)
    return folder


def edit(path, old: str, new: str) -> int:
    """Replace the first ``old`` in ``path`` by ``new``; the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")
    return text[:at].count("\n") + 1


def test_every_template_file_is_loaded_into_its_model():
    f = facts.facts()
    assert isinstance(f.rules, m.Rules) and isinstance(f.gt, m.GT) and isinstance(f.real, m.RealCircuits)
    assert f.rules.gears[-1].gear == 6 and f.rules.gears[-1].min == 21
    assert facts.facts() is f  # loaded once
    named = {name for name, _ in facts.FILES.values()}
    on_disk = {p.name for p in (templates_dir() / "formula-d").glob("*.yaml")}
    assert on_disk - named == {"summary.yaml"}  # the rule summary is the shared summary model's


@pytest.mark.parametrize(
    ("name", "old", "new", "field"),
    [
        ("rules.yaml", "  exit_gear: 4", "  exit_gaer: 4", "pit_stop.exit_gaer"),
        ("rules.yaml", "engine: {zone: engine, good", "engine: {zone: engine, godo", "rolls.engine.godo"),
        ("sheets.yaml", "  length: 20", "  lenght: 20", "token.lenght"),
        ("sheets.yaml", '      - text: "The race is', '      - txet: "The race is', "reference[0].blocks[0].txet"),
        ("game.yaml", "spin_limit: 1", "spin_limt: 1", "spin_limt"),
        ("gt-drivers.yaml", "    labels_clipped: true", "    label_clipped: true", "drivers[0].label_clipped"),
        ("real-circuits.yaml", "kink_deg: 60", "kink_degs: 60", "kink_degs"),
        ("board.yaml", "action_every: 10", "action_evry: 10", "action_evry"),
    ],
)
def test_a_misspelt_key_fails_at_load_with_file_and_line(copy, name, old, new, field):
    line = edit(copy / name, old, new)
    with pytest.raises(InputError) as info:
        facts.load(copy)
    err = info.value
    assert err.file == str(copy / name) and err.line == line and err.field == field
    assert "unknown field" in err.message


def test_a_wrong_value_or_zone_fails_at_load(copy):
    line = edit(copy / "rules.yaml", "  exit_gear: 4", "  exit_gear: fourth")
    with pytest.raises(InputError) as info:
        facts.load(copy)
    assert (info.value.line, info.value.field) == (line, "pit_stop.exit_gear")

    shutil.copy(templates_dir() / "formula-d" / "rules.yaml", copy / "rules.yaml")
    line = edit(copy / "gt-drivers.yaml", "wp: {tires: null, brakes", "wp: {tyres: null, brakes")
    with pytest.raises(InputError) as info:
        facts.load(copy)
    assert info.value.line == line and info.value.field == "drivers[0].wp" and "tyres" in info.value.message

    shutil.copy(templates_dir() / "formula-d" / "gt-drivers.yaml", copy / "gt-drivers.yaml")
    line = edit(copy / "sheets.yaml", "[red, blue,", "[rde, blue,")
    with pytest.raises(InputError) as info:
        facts.load(copy)
    assert info.value.line == line and info.value.field == "default_colours[0]"


def test_a_reference_block_is_one_thing(copy):
    line = edit(copy / "sheets.yaml", '      - heading: "Start formation"', '      - {heading: "Start", text: "x"}')
    with pytest.raises(InputError) as info:
        facts.load(copy)
    assert info.value.line == line and "exactly one" in info.value.message


def test_the_gear_dice_faces_must_span_the_rulebooks_ranges(copy):
    """``dice.yaml`` (read by the ordinary-dice table and by any simulator) agrees with ``rules.yaml``'s gears."""
    line = edit(copy / "dice.yaml", "4: [7, 8,", "4: [6, 8,")
    with pytest.raises(InputError) as info:
        facts.load(copy)
    assert info.value.line == line and "gear 4 7–12" in info.value.message
    assert str(info.value.file).endswith("dice.yaml")


def test_a_house_rule_needs_a_range_per_line_of_the_weather_chart(copy):
    line = edit(copy / "house-rules.yaml", '  value: ["1–10", "11–14", "15–17", "18–20"]', '  value: ["1–10", "11–20"]')
    with pytest.raises(InputError) as info:
        facts.load(copy)
    assert info.value.line == line and info.value.field == "weather.value"
