"""Spec mistakes a designer makes every day: a misspelt key names the field it meant, and a file with two mistakes
says both in its one line, so fixing the first does not lead to a surprise."""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.track import load_spec

STADIUM = """name: T
{lanes}
segments:
  - straight: 240
  - arc: {{radius: 60, angle: 180, {turn}}}
  - straight: 240
  - arc: {{radius: 60, angle: 180, turn: left}}
"""


def _error(tmp_path, text: str) -> str:
    f = tmp_path / "spec.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_spec(f)
    return str(info.value)


def test_a_misspelt_top_level_key_names_the_field_it_meant(tmp_path):
    msg = _error(tmp_path, STADIUM.format(lanes="lanse: 2", turn="turn: left"))
    assert "spec.yaml:2" in msg and "'lanse'" in msg and "did you mean 'lanes'?" in msg


def test_a_misspelt_nested_key_is_one_mistake_not_two(tmp_path):
    msg = _error(tmp_path, STADIUM.format(lanes="lanes: 2", turn="trun: left"))
    assert "spec.yaml:5" in msg and "did you mean 'turn'?" in msg and "required" not in msg


def test_two_mistakes_are_both_named_in_one_line(tmp_path):
    msg = _error(tmp_path, STADIUM.format(lanes="lanse: 2", turn="turn: lef"))
    assert "\n" not in msg
    assert "did you mean 'lanes'?" in msg and "next: segments[1].arc.turn (line 5)" in msg and "'right'" in msg


def test_a_shipped_circuit_is_found_by_name_from_any_folder(tmp_path, monkeypatch):
    """The README's examples name shipped specs; they work outside the project folder too."""
    monkeypatch.chdir(tmp_path)
    for given in ("monte-carlo", "track_specs/monte-carlo.yaml"):
        spec, _, path = load_spec(given)
        assert spec.name == "Monte Carlo" and path.is_file()
    with pytest.raises(InputError, match="not found"):
        load_spec("no-such-circuit.yaml")
