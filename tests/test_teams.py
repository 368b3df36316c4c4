"""Team specs: presets, validation with located errors, colours and contrast."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import InputError
from generator.teams import load_field, parse_colour, parse_field, preset_names, text_on

FIXTURES = Path(__file__).parent / "teams_fixtures"

LINEUPS_2011 = {
    "Red Bull": {"Sebastian Vettel", "Mark Webber"},
    "McLaren": {"Lewis Hamilton", "Jenson Button"},
    "Ferrari": {"Fernando Alonso", "Felipe Massa"},
    "Mercedes": {"Michael Schumacher", "Nico Rosberg"},
    "Renault": {"Nick Heidfeld", "Vitaly Petrov"},
    "Force India": {"Adrian Sutil", "Paul di Resta"},
    "Williams": {"Rubens Barrichello", "Pastor Maldonado"},
    "Toro Rosso": {"Sébastien Buemi", "Jaime Alguersuari"},
    "Sauber": {"Kamui Kobayashi", "Sergio Pérez"},
    "Lotus": {"Jarno Trulli", "Heikki Kovalainen"},
    "Virgin": {"Timo Glock", "Jérôme d'Ambrosio"},
    "Hispania": {"Vitantonio Liuzzi", "Narain Karthikeyan"},
}


def test_presets_are_addressable_by_name():
    assert {"f1-2011", "monaco-example"} <= set(preset_names())
    field = load_field("f1-2011")
    assert len(field.teams) == 12 and len(field.drivers) == 24
    assert {t.name: {d.name for d in t.drivers} for t in field.teams} == LINEUPS_2011


def test_tie_break_order_puts_button_before_hamilton():
    mclaren = next(t for t in load_field("f1-2011").teams if t.name == "McLaren")
    assert [d.name for d in mclaren.drivers] == ["Jenson Button", "Lewis Hamilton"]


def test_monaco_example_has_the_rulebook_characters():
    field = load_field("monaco-example")
    names = {t.name for t in field.teams}
    assert names == {"Team L'Escargot", "Red Cow"}
    marcel = next(d for _, d in field.drivers if d.name == "Marcel Proust")
    assert (marcel.monaco.skill, marcel.monaco.tech, marcel.monaco.car) == (6, 6, "Evian 2CV")
    assert marcel.monaco.cost == 12
    assert any(d.name == "Amalie Proust" for _, d in field.drivers)


def _field(**team):
    base = {"name": "T", "colours": {"primary": "#ff0000"}, "drivers": [{"name": "Ann Example"}]}
    base.update(team)
    return {"name": "X", "teams": [base]}


def test_colours_parse_and_bad_colour_is_located():
    assert parse_colour("red") == "#ff0000"
    assert parse_colour("#0af") == "#00aaff"
    with pytest.raises(InputError) as err:
        parse_field(_field(colours={"primary": "blurple"}), "t.yaml")
    assert "teams[0].colours.primary" in str(err.value) and "blurple" in str(err.value)


def test_ratings_run_from_1_to_6():
    with pytest.raises(InputError) as err:
        parse_field(_field(drivers=[{"name": "Ann Example", "monaco": {"skill": 7, "tech": 3}}]), "t.yaml")
    assert "teams[0].drivers[0].monaco.skill" in str(err.value) and "1 to 6" in str(err.value)


def test_a_name_that_cannot_fit_the_wing_is_refused():
    with pytest.raises(InputError) as err:
        parse_field(_field(drivers=[{"name": "Ann Example", "short": "Extraordinarily-long"}]), "t.yaml")
    assert "drivers[0].short" in str(err.value)


def test_text_is_dark_on_light_and_light_on_dark():
    assert text_on("#ffffff") == "#1a1a1a"
    assert text_on("#f4d000") == "#1a1a1a"
    assert text_on("#1b2a59") == "#ffffff"
    assert text_on("#d40000") == "#ffffff"


def test_oversized_monaco_squad_is_a_clean_error(capsys):
    path = FIXTURES / "oversized-squad.yaml"
    with pytest.raises(SystemExit) as exit_:
        main(["cars", str(path), "--out", "/tmp/paddock-never", "-q"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"{path}:11:" in err  # the fifth driver's line
    assert "teams[0].drivers[4]" in err and "at most 4" in err
    assert "Traceback" not in err
