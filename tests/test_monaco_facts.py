"""Monaco! facts: every file of templates/monaco read once into typed, frozen models; a key misspelt, missing or
of the wrong type is refused when the facts load, naming the file, the line and the field."""

from __future__ import annotations

import shutil

import pytest
from pydantic import ValidationError

from generator.data import templates_dir
from generator.errors import InputError
from generator.games.monaco import facts


@pytest.fixture
def copy(tmp_path):
    folder = tmp_path / "monaco"
    shutil.copytree(templates_dir() / "monaco", folder)
    return folder


def _edit(path, old: str, new: str) -> int:
    """Replace ``old`` (once) in the file; returns the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


def test_the_shipped_facts_load_typed_and_frozen():
    f = facts.facts()
    assert f is facts.facts()  # read once
    assert f.rules.speed.max == 18 and f.rules.collision.twice == 2 and f.rules.points.given == {1: 10, 2: 8, 8: 1}
    assert f.road.widths.lanes("quadruple") == 4 and f.road.modular.radii_in.of("double").tight == 6
    assert f.tools.turn_gauge.radius_in == 3 and f.sheets.road.plan_notes
    assert isinstance(f.rules.grid_spacing_in, int)  # a whole number stays whole: it prints as 1, not 1.0
    with pytest.raises(ValidationError):
        f.rules.speed.max = 20  # frozen: a sheet cannot change a fact for the next one


@pytest.mark.parametrize(
    "name, old, new, field",
    [
        ("rules.yaml", "change_per_turn: 3", "change_per_trun: 3", "speed.change_per_trun"),
        ("road.yaml", "dash_in: 0.5", "dahs_in: 0.5", "lane_line.dahs_in"),
        ("tools.yaml", "  glue_tab_in: 0.75", "  glue_tab: 0.75", "ruler.glue_tab"),
        ("sheets.yaml", "  grid_head:", "  grid_heading:", "practice.grid_heading"),
    ],
)
def test_a_misspelt_key_fails_at_load_with_file_and_line(copy, name, old, new, field):
    line = _edit(copy / name, old, new)
    with pytest.raises(InputError) as info:
        facts.load(copy)
    err = info.value
    assert str(err.file) == str(copy / name) and err.line == line and err.field == field
    assert "unknown field" in str(err)


def test_a_missing_key_or_a_wrong_type_fails_at_load(copy):
    line = _edit(copy / "rules.yaml", "squad_max: 4", "squad_max: four")
    with pytest.raises(InputError) as info:
        facts.load(copy)
    assert info.value.line == line and info.value.field == "squad_max"
    _edit(copy / "rules.yaml", "squad_max: four", "")
    with pytest.raises(InputError, match="required") as info:
        facts.load(copy)
    assert info.value.field == "squad_max"
