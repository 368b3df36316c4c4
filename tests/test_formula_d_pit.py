"""The pit on a Formula D board: its minimum roll is a blank box unless the spec or --pit-roll sets it (the
rulebook gives no number); a road race (--gt) prints no pit lane and no pit-stop card."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pdf_text

from generator.games.formula_d import pack as formula_d
from generator.games.formula_d.overlay import LAYER
from generator.paper import PageSettings
from generator.pipeline import Output, publish
from generator.scene import Polygon, Text, walk

PIT_LABEL = "MIN. ROLL TO ENTER THE PIT"


def _build(tmp, **kw):
    settings, output = PageSettings(), Output(out=tmp, formats=("pdf",), quiet=True)
    sheets = formula_d.build(settings, players="Ann,Bob", **kw)
    publish(sheets, output, settings, folder="formula-d", merged="formula-d-print")
    board = next(s for s in sheets if s.name == "board")
    return board.page, tmp / "formula-d"


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("race"))


@pytest.fixture(scope="module")
def road(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("road"), gt=True)


def _roll_box(page):
    """The min-roll box (a white square right of its label) and every text drawn inside it."""
    items = list(walk(page.layer(LAYER).items))
    label = next(i for i in items if isinstance(i, Text) and i.text == PIT_LABEL)
    squares = [i for i in items if isinstance(i, Polygon) and i.style.fill == "#ffffff" and len(i.exterior) == 4]
    box = min(squares, key=lambda p: abs(p.exterior[0][1] - label.y) + abs(p.exterior[0][0] - label.x))
    (x0, y0), (x1, y1) = box.exterior[0], box.exterior[2]
    assert x0 > label.x and y0 < label.y < y1  # right of its label, level with it
    inside = [i.text for i in items if isinstance(i, Text) and x0 < i.x < x1 and y0 < i.y < y1]
    return box, inside


def test_min_roll_box_is_blank_by_default(race):
    page, folder = race
    box, inside = _roll_box(page)
    assert inside == []
    text = pdf_text(folder / "board.pdf")
    assert PIT_LABEL in text
    assert "roll of" not in text  # the legend does not invent a roll either


def test_pit_roll_option_fills_the_box(tmp_path):
    page, _ = _build(tmp_path, pit_roll=5)
    _, inside = _roll_box(page)
    assert inside == ["5"]


# Paddock's notices (LayoutWarning): the GT drivers' write-ins said to the user; here the pit lane
@pytest.mark.filterwarnings("ignore::generator.notices.LayoutWarning")
def test_road_race_has_no_pit_lane_and_no_pit_card(race, road):
    _, race_folder = race
    _, road_folder = road
    assert "PIT IN" in pdf_text(race_folder / "board.pdf")
    board = pdf_text(road_folder / "board.pdf")
    assert "PIT IN" not in board and "PIT LANE" not in board and PIT_LABEL not in board
    race_cards = "".join(pdf_text(p) for p in sorted(race_folder.glob("reference-*.pdf")))
    road_cards = "".join(pdf_text(p) for p in sorted(road_folder.glob("reference-*.pdf")))
    assert "Pit stops" in race_cards and "Pit stops" not in road_cards
    assert "Road races (GT)" in road_cards


def test_pit_lane_is_a_lane_of_spaces_with_a_box_per_car():
    """The default board's pit lane (the circuit engine's): spaces about one unit long between its bold entry and
    exit lines, and at least one garage per car."""
    import numpy as np

    from generator.games.formula_d.overlay import load_circuit

    c = load_circuit(None)
    assert c.pit is not None and c.pit.units >= 4
    steps = np.diff(np.array(c.pit.unit_s))
    assert np.all(steps > 0.5 * c.unit) and np.all(steps < 1.5 * c.unit)
    assert c.pit.garages >= 10
    small = load_circuit(Path(__file__).parent / "formula_d" / "square-2-lanes.yaml", garages=6)
    assert small.pit.garages == 6  # the fixture gives 4 boxes: raised to the 6 cars
