"""The game registry and the page settings every sheet of every pack is laid out with."""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

import pytest

from generator import games
from generator.paper import PageSettings, PaperChoice
from generator.pipeline import prepare

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_installed_by_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "generator").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert found <= listed, f"add to pyproject.toml [tool.setuptools] packages: {sorted(found - listed)}"


def test_games_register_themselves_and_a_default_exists():
    ids = [g.id for g in games.all_games()]
    assert {"f1-dice", "formula-d", "monaco"} <= set(ids)
    assert games.default_game().id == "f1-dice"
    with pytest.raises(Exception, match="unknown game 'chess' — use one of"):
        games.get("chess")


def _pack_sheets(game_id: str, opts: PageSettings, **kw):
    return games.get(game_id).pack(opts, **kw)


@pytest.mark.parametrize("game_id", ["f1-dice", "formula-d"])
def test_paper_and_edge_reach_every_sheet_of_a_pack(game_id):
    """--paper a2 puts every sheet on A2 (the board and the documents alike) — but Formula D's, whose cards,
    scorecards and pieces keep their own A4 (issue 31: A2 is a board's paper, not a printer's); --edge 15 keeps
    every sheet's content 15 mm clear of the paper edge, the board's placement included (no sheet warns it draws
    into the edge)."""
    settings = PageSettings(paper=PaperChoice("a2"), edge=15.0)
    sheets = _pack_sheets(game_id, settings)
    for sheet in sheets:
        own = game_id == "formula-d" and sheet.name != "board"
        assert sheet.page.paper.name == ("a4" if own else "a2"), sheet.name
        assert sheet.page.edge == 15.0, sheet.name
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prepare(sheet, settings)
        assert not [w for w in caught if "unprintable edge" in str(w.message)], sheet.name


def test_tile_onto_names_the_printer_paper_for_documents():
    """With --paper a2 --tile-onto a4 the board goes on A2 (tiled at print time); the documents on A4."""
    settings = PageSettings(paper=PaperChoice("a2"), tile_onto=PaperChoice("a4"))
    sheets = _pack_sheets("formula-d", settings)
    board, *documents = sheets
    assert board.page.paper.name == "a2"
    assert {s.page.paper.name for s in documents} == {"a4"}
    pages = prepare(board, settings)
    assert len(pages) > 2 and {p.paper.name for p in pages} == {"a4"}


def test_cars_follow_the_paper():
    sheets = games.car_sheets(games_field("f1-2011"), PageSettings(paper=PaperChoice("a3")))
    assert sheets and {s.page.paper.name for s in sheets} == {"a3"}


def games_field(name):
    from generator.teams import load_field

    return load_field(name)


def test_action_every_of_the_spec_shows_on_board_and_reference_card(tmp_path):
    """A spec that marks every 5th unit: the board marks 5, 10, 15 … and the card says every 5th unit."""
    from generator.scene import Text, walk
    from generator.track import default_spec

    spec = tmp_path / "fives.yaml"
    spec.write_text(default_spec().read_text(encoding="utf-8") + "action_every: 5\n", encoding="utf-8")
    sheets = _pack_sheets("f1-dice", PageSettings(), track=spec)
    board = sheets[0].page
    numbers = {i.text for i in walk(board.layers["labels"].items) if isinstance(i, Text)}
    assert {"5", "10", "15", "20"} <= numbers
    card = next(s.page for s in sheets if s.name == "race-reference")
    text = " ".join(i.text for i in walk(card.items()) if isinstance(i, Text))
    assert "every 5th unit" in text and "every 10th" not in text
    assert "units 5, 10, 15" in text
