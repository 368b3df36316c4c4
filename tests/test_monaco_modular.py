"""Monaco! modular set (issue 29): a start/finish piece with its grid, parts that cannot be taken for other pieces,
and sample laps that close into a lap and keep their parts apart — measured on the floor, piece by piece."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.games.monaco.layouts import closure, sample_layouts, trace
from generator.games.monaco.modular import band_for, kinds
from generator.games.monaco.roadkit import modular_kit
from generator.paper import PageSettings
from generator.scene import Text, walk
from generator.units import MM_PER_INCH


@pytest.fixture(scope="module")
def default_set():
    return modular_kit(None, PageSettings(), "double")


def _texts(page) -> list[str]:
    return [t.text for t in walk(page.items()) if isinstance(t, Text)]


@pytest.mark.parametrize("width", ["double", "quadruple"])
def test_every_sample_lap_closes_and_keeps_its_parts_apart(width):
    laps = sample_layouts(width)
    assert 2 <= len(laps) <= 3
    for t in laps:
        miss, turn = closure(t)
        assert miss < 0.01 and turn < 1e-6, (t.name, miss, turn)  # the last piece ends where the first begins
        assert t.steps[0].kind.start and sum(s.kind.pit for s in t.steps) == 1
        assert t.gap() >= MM_PER_INCH - 1e-6, t.name  # parts a lap apart never within the collision distance
        # and every piece starts exactly where the one before ended (poses chained, no gaps or overlaps at joins)
        for a, b in zip(t.steps, t.steps[1:], strict=False):
            entry = b.ring[[-1, 0]]  # b's first cut: right end, left end
            assert min(np.hypot(*(a.ring - entry[0]).T)) < 1e-6 and min(np.hypot(*(a.ring - entry[1]).T)) < 1e-6


def test_a_lap_that_does_not_close_is_measured_as_open():
    t = trace("open", ["start", "curve-90-tight left", "straight-12"], "double")
    miss, turn = closure(t)
    assert miss > 100 and abs(turn - 90) < 1e-6


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(["straight-6", "straight-12", "curve-45-tight", "curve-90-tight"]), max_size=4),
       st.booleans())  # fmt: skip
def test_any_half_lap_laid_twice_round_closes(half, right):
    """Closure is measured, not assumed: any half lap turning 180° in all, laid twice (start, then pit), closes."""
    turn = "right" if right else "left"
    body = [f"{p} {turn}" if p.startswith("curve") else p for p in half]
    # a half lap must turn 180°: top it up with left 90° curves and undo the random curves' turning
    turned = sum(45 if "45" in p else 90 for p in half if p.startswith("curve")) * (-1 if right else 1)
    need = 180 - turned
    fill = ["curve-90-tight left"] * (need // 90) + ["curve-45-tight left"] * ((need % 90) // 45)
    if need < 0:
        fill = ["curve-90-tight right"] * (-need // 90) + ["curve-45-tight right"] * ((-need % 90) // 45)
    lap = ["start", *body, *fill, "pit", *body, *fill]
    miss, dturn = closure(trace("generated", lap, "double"))
    assert miss < 0.01 and dturn < 1e-6


def test_the_set_has_a_start_piece_with_the_line_and_grid_boxes():
    start = next(k for k in kinds("double") if k.id == "start")
    band = band_for(start, "double")
    assert band.start_at is not None and 0 < band.start_at < band.lap
    assert band.lap - band.start_at == pytest.approx(2 * MM_PER_INCH)  # road left past the line
    assert len(band.grid) >= 3  # 18 in holds the pole and the cars behind it, each an inch apart
    assert band.grid[0][0] == pytest.approx(band.start_at)
    for (_, tail), (nose, _) in zip(band.grid, band.grid[1:], strict=False):
        assert tail - nose == pytest.approx(MM_PER_INCH)
    assert band.grid[-1][1] >= 0  # every box on the piece


def test_the_default_set_prints_the_start_piece_with_chequers_and_boxes(default_set):
    labels = [p.label for p in default_set.pieces]
    assert "START-1" in labels and "START-2" in labels
    sheets = {p.sheet for p in default_set.pieces if p.label.startswith("START")}
    texts = [t for k in sheets for t in _texts(default_set.sheets[1 + k].page)]
    assert {"1", "2", "3"} <= set(texts)  # the grid boxes' numbers


def test_parts_cannot_be_taken_for_other_pieces(default_set):
    """S12's two parts say so under their label, join to each other with half discs (not the half diamonds of a
    piece's own ends) and neither is a 6″ straight's twin on paper."""
    parts = [p for p in default_set.pieces if p.label.startswith("S12-")]
    six = [p for p in default_set.pieces if p.label == "S6"]
    assert parts and six
    for p in parts:
        texts = _texts(default_set.sheets[1 + p.sheet].page)
        part = int(p.label[-1])
        assert f"12″ straight · part {part} of 2" in texts
        assert (f"to S12-{part + 1}" if part == 1 else f"from S12-{part - 1}") in texts
    for p in six:
        assert "6″ straight" in _texts(default_set.sheets[1 + p.sheet].page)
    # the inner join's marks are discs (many points), an outer end's diamonds (three)
    from generator.scene import Polygon as ScenePolygon

    def marks(p):
        page = default_set.sheets[1 + p.sheet].page
        return [len(i.exterior) for i in page.layers["marks"].items if isinstance(i, ScenePolygon)
                and i.style.fill == "#1a1a1a" and len(i.exterior) in (3, 13)]  # fmt: skip

    assert all(marks(p).count(13) >= 2 for p in parts) and all(marks(p).count(3) >= 2 for p in parts)
    assert all(marks(p).count(13) == 0 for p in six)


def test_the_cover_sheet_lists_the_sample_laps_and_what_a_set_lacks():
    full = modular_kit(None, PageSettings(), "double")
    text = " ".join(_texts(full.sheets[0].page))
    assert "Sample laps to build" in text
    for t in sample_layouts("double"):
        assert t.name in text
    assert "this set lacks" not in text
    small = modular_kit("start=1,straight-6=2,curve-90-tight=4,pit=1", PageSettings(), "double")
    text = " ".join(_texts(small.sheets[0].page))
    assert "this set lacks 2 S12" in text


def test_curves_turn_either_way_and_mirror():
    kind = next(k for k in kinds("double") if k.id == "curve-90-tight")
    left, right = band_for(kind, "double"), band_for(kind, "double", right=True)
    assert math.degrees(left.line.heading(left.lap)) == pytest.approx(-90)
    assert math.degrees(right.line.heading(right.lap)) == pytest.approx(90)
    a, b = left.outline(0, left.lap), right.outline(0, right.lap)
    assert np.allclose(np.sort(a[:, 1]), np.sort(-b[:, 1]))  # mirror images across the heading
