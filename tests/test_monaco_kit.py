"""Monaco! tools and sheets: true inches measured on the rendered PDF, the gauge's angle, and the points, bands and
ranges read back from the PDFs agreeing with the data they are drawn from."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from conftest import pdf_text, render_gray

from generator import writers
from generator.games.monaco import facts
from generator.games.monaco.dials import PAPER as DIALS_PAPER
from generator.games.monaco.dials import dial_pages
from generator.games.monaco.practice import PAPER as PRACTICE_PAPER
from generator.games.monaco.practice import practice_sheet
from generator.games.monaco.racelog import PAPER as RACE_PAPER
from generator.games.monaco.racelog import race_log
from generator.games.monaco.squads import PAPER as SQUADS_PAPER
from generator.games.monaco.squads import squad_sheet
from generator.games.monaco.standings import PAPER as STANDINGS_PAPER
from generator.games.monaco.standings import standings_sheet
from generator.games.monaco.tools import GAUGES_PAPER, PAPER, gauges_page, ruler_page
from generator.paper import PageSpec
from generator.scene import Document, Polyline
from generator.teams import load_field
from generator.units import MM_PER_INCH

DPI = 254  # 10 pixels a millimetre


def pdf(*pages) -> bytes:
    (blob,) = writers.render(Document(list(pages), "test"), "pdf")
    return blob


@pytest.fixture(scope="module")
def field():
    return load_field("monaco-example")


# -- the speed ruler -------------------------------------------------------------------------------------------


def _runs(row: np.ndarray) -> list[float]:
    """Centres (px) of the dark runs along a row of pixels."""
    dark = row < 128
    edges = np.diff(np.concatenate(([0], dark.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return [(a + b - 1) / 2 for a, b in zip(starts, ends, strict=True)]


def test_the_speed_ruler_measures_18_true_inches_in_the_pdf():
    page = ruler_page(PageSpec(PAPER))
    image = render_gray(pdf(page), DPI)
    ticks = [i for i in page.layers["tool-ticks"].items if isinstance(i, Polyline)]
    inch = [t for t in ticks if abs((t.points[1][1] - t.points[0][1]) - 9.0) < 1e-9]  # the numbered inch ticks
    rows = sorted({round(t.points[0][1], 6) for t in inch})
    assert len(rows) == 2, "the 18 in ruler comes in two halves on A4"
    total = 0.0
    for y in rows:
        xs_scene = sorted(t.points[0][0] for t in inch if abs(t.points[0][1] - y) < 1e-6)
        row = image[
            int(round((y + 7.5) * DPI / MM_PER_INCH)), :
        ]  # through the inch ticks only (half ticks stop at 6 mm)
        lo, hi = xs_scene[0] - 1.0, xs_scene[-1] + 1.0
        centres = [c / DPI * MM_PER_INCH for c in _runs(row) if lo <= c / DPI * MM_PER_INCH <= hi]
        assert len(centres) == 10, centres  # 0–9 and 9–18
        span = centres[-1] - centres[0]
        assert abs(span - 9 * MM_PER_INCH) <= 0.25
        for a, b in zip(centres, centres[1:], strict=False):
            assert abs((b - a) - MM_PER_INCH) <= 0.15
        total += span
    assert abs(total - 457.2) <= 0.5


def test_ruler_bands_and_numbers_read_back():
    text = pdf_text(pdf(ruler_page(PageSpec(PAPER))))
    bands = facts.turn_bands()
    assert bands == [(0, 6, 0), (7, 12, 1), (13, 18, 2)]  # monaco.txt 6c: 13″ adds 2
    for lo, hi, add in bands:
        assert f"{lo}–{hi}″: turn roll +{add}" in text
    for v in range(19):
        assert re.search(rf"(^|\s){v}(\s|$)", text), v
    assert "±3″" in text and "−3″ slowest" in text and "+3″ fastest" in text


def test_slider_window_is_six_inches():
    page = ruler_page(PageSpec(PAPER))
    cuts = [i for i in page.layers["tool-cut"].items if isinstance(i, Polyline) and i.closed]
    widths = {round(max(p[0] for p in c.points) - min(p[0] for p in c.points), 6) for c in cuts}
    assert round(6 * MM_PER_INCH, 6) in widths


# -- gauges ----------------------------------------------------------------------------------------------------


def _arm_angle(image, cx, cy, r, around) -> float:
    """The angle (degrees, counter-clockwise from +x) of the dark line crossing the circle of radius ``r`` mm
    round (cx, cy) mm nearest ``around``."""
    angles = np.arange(around - 6, around + 6, 0.01)
    px = (cx + r * np.cos(np.radians(angles))) * DPI / MM_PER_INCH
    py = (cy - r * np.sin(np.radians(angles))) * DPI / MM_PER_INCH
    values = image[np.round(py).astype(int), np.round(px).astype(int)]
    dark = angles[values < 128]
    assert len(dark), f"no line near {around}° at r = {r} mm"
    return float(dark.mean())


def test_the_turn_gauge_is_45_degrees_in_the_pdf():
    page = gauges_page(PageSpec(GAUGES_PAPER))
    image = render_gray(pdf(page), DPI)
    arms = [i for i in page.layers["tool-lines"].items if isinstance(i, Polyline) and len(i.points) == 2]
    cx, cy = arms[0].points[0]  # the first gauge's corner
    directions = []
    for around in (0.0, 45.0):
        p1 = _arm_angle(image, cx, cy, 35.0, around)
        p2 = _arm_angle(image, cx, cy, 60.0, around)
        a = np.array([35 * math.cos(math.radians(p1)), 35 * math.sin(math.radians(p1))])
        b = np.array([60 * math.cos(math.radians(p2)), 60 * math.sin(math.radians(p2))])
        directions.append(math.degrees(math.atan2(*(b - a)[::-1])))
    assert abs((directions[1] - directions[0]) - facts.rules().turn.free_angle_deg) <= 0.2


def test_collision_gauge_and_grid_spacer_are_an_inch():
    page = gauges_page(PageSpec(GAUGES_PAPER))
    heights = [
        round(max(p[1] for p in c.points) - min(p[1] for p in c.points), 6)
        for c in page.layers["tool-cut"].items
        if isinstance(c, Polyline) and c.closed
    ]
    assert heights.count(round(MM_PER_INCH, 6)) == 8  # four collision gauges, four grid spacers
    text = pdf_text(pdf(page))
    assert "45°" in text and "exactly 1″ wide" in text


# -- sheets: points, bands, ranges -----------------------------------------------------------------------------


def test_standings_print_paddocks_reading_of_the_points(field):
    text = pdf_text(pdf(standings_sheet(field, PageSpec(STANDINGS_PAPER))))
    scale = facts.points_scale()
    assert scale == [10, 8, 6, 5, 4, 3, 2, 1]
    assert " · ".join(f"{facts.ordinal(i + 1)} {p}" for i, p in enumerate(scale)) in text
    assert "Paddock reads them as Formula 1's 2003–2009 scale (10-8-6-5-4-3-2-1)" in text
    for t, d in field.drivers:
        assert d.name in text and t.name in text
    assert "Teams" in text


def test_points_option_changes_every_sheet(field):
    custom = "9-6-4-3-2-1"
    standings = pdf_text(pdf(standings_sheet(field, PageSpec(STANDINGS_PAPER), custom, races=5)))
    assert "1st 9 · 2nd 6 · 3rd 4 · 4th 3 · 5th 2 · 6th 1" in standings and "Paddock reads" not in standings
    race = pdf_text(pdf(race_log(field, PageSpec(RACE_PAPER), 3, custom)))
    assert "Points: 1st 9, 2nd 6, 3rd 4, 4th 3, 5th 2, 6th 1." in race
    from generator.errors import InputError

    with pytest.raises(InputError, match="place 2 would score more than place 1"):
        facts.points_scale("5-8-1")


def test_race_log_ranges_agree_with_the_rules(field):
    text = pdf_text(pdf(race_log(field, PageSpec(RACE_PAPER))))
    r = facts.rules()
    assert f"at most {r.speed.max}″" in text and f"at most {r.speed.change_per_turn}″ a turn" in text
    assert f"a {r.damage_out_roll} puts the car out" in text
    assert f"adding {r.spin_off.damage_roll_add}" in text
    for t, d in field.drivers:  # top speed: one die + skill + tech, at most 18
        top = min(18, 6 + d.monaco.skill + d.monaco.tech)
        assert f"{d.name} ({t.name})" in text
        assert re.search(rf"(^|\s){top}(\s|$)", text)


def test_speed_dials_show_every_speed_and_shade_the_unreachable(field):
    pages = dial_pages(field, PageSpec(DIALS_PAPER))
    text = pdf_text(pdf(pages[0]))
    assert "Rosa Bonheur" in text and "top 13″" in text  # skill 3 + tech 4 + 6
    for v in range(19):
        assert text.count(f"{v}") >= 1


def test_practice_and_squads_sheets(field):
    practice = pdf_text(pdf(*practice_sheet(field, PageSpec(PRACTICE_PAPER))))
    assert "Fewest dice takes pole" in practice and "dice off" in practice and "1st" in practice
    squads = pdf_text(pdf(squad_sheet(field, PageSpec(SQUADS_PAPER))))
    assert "At most 4 cars a team" in squads
    assert "squad cost 21" in squads and "squad cost 16" in squads  # 6+6+4+5 and 5+4+3+4
    assert "Evian 2CV" in squads
