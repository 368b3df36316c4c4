"""Paddock's default Formula D board (track_specs/formula-d-circuit.yaml): a full-size board that plays like one."""

from __future__ import annotations

import warnings

import pytest
from conftest import pdf_text
from shapely import Point
from shapely import Polygon as SPoly

from generator.games.formula_d.corners import corner_notes
from generator.games.formula_d.overlay import DEFAULT_BOARD, LAYER, corner_marks, formula_d_board, load_circuit
from generator.scene import Text, walk


@pytest.fixture(scope="module")
def circuit():
    return load_circuit(None)


@pytest.fixture(scope="module")
def marks(circuit):
    return corner_marks(circuit)


def test_it_is_the_default(circuit):
    assert circuit.source.name == DEFAULT_BOARD
    assert circuit.spec.paper == "a1"  # full size (issue 39): the compact board is formula-d-compact.yaml


def test_three_lanes_ten_slots_and_corners_of_one_two_and_three_stops(circuit, marks):
    assert circuit.lanes == 3
    assert len(circuit.grid) == 10
    assert {m.stops for m in marks} == {1, 2, 3}
    assert not any(m.stops_suggested for m in marks)
    assert all(m.name for m in marks)


def test_a_straight_long_enough_for_sixth_gear(circuit, marks):
    """From the last corner's exit line to the first corner's entry line: at least 21 spaces in every lane (a
    6th-gear move is 21-30 spaces)."""
    g = circuit.graph
    for lane in range(circuit.lanes):
        last, first = marks[-1].paths.limits.last[lane], marks[0].paths.limits.first[lane]
        n, i = 0, g.spaces[last].ahead
        while i != first:
            n, i = n + 1, g.spaces[i].ahead
        assert n >= 21, f"lane {lane}: {n} spaces"


def test_grid_is_clear_of_every_corner_and_pole_is_on_the_inside(circuit, marks):
    corner_spaces = set().union(*(m.paths.spaces for m in marks))
    for slot in circuit.grid:
        outline = SPoly(slot.outline)
        under = {sp.id for sp in circuit.graph.spaces if SPoly(sp.polygon).intersection(outline).area > 1.0}
        assert under and not under & corner_spaces, f"slot {slot.number}"
    first = circuit.corners[0]
    inside_lane = 0 if first.direction == "left" else circuit.lanes - 1
    pole = next(s for s in circuit.grid if s.number == 1)
    assert pole.lane == inside_lane and pole.row == 0


def test_check_has_nothing_to_say(circuit):
    assert corner_notes(circuit) == []


def test_labels_stay_off_the_track_and_the_grid(circuit):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every label found its room
        page = formula_d_board()
    track = circuit.surface().buffer(circuit.kerb_width)
    slots = [SPoly(s.outline) for s in circuit.grid]
    for t in walk(page.layer(LAYER).items):
        if isinstance(t, Text):
            p = Point(t.x, t.y)
            assert not track.contains(p), t.text
            assert not any(s.contains(p) for s in slots), t.text
    # the board's own space numbers: none under a grid slot (pole "1" is not printed over a "60")
    for t in page.layer("labels").items:
        if isinstance(t, Text):
            assert not any(s.buffer(1.0).contains(Point(t.x, t.y)) for s in slots), t.text


def test_corner_names_read_back_from_the_pdf(tmp_path, marks):
    from generator.games.formula_d import pack as formula_d
    from generator.paper import PageSettings
    from generator.pipeline import Output, publish

    settings, output = PageSettings(), Output(out=tmp_path, formats=("pdf",), quiet=True)
    sheets = [s for s in formula_d.build(settings, players="Ann,Bob") if s.name == "board"]
    publish(sheets, output, settings, folder="formula-d")
    text = pdf_text(tmp_path / "formula-d" / "board.pdf")
    for m in marks:
        assert m.name in text
    assert "Circuit de la Garenne" in text
