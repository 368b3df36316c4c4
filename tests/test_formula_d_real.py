"""Formula D boards of real circuits (issue 15): a centre-line CSV ruled per lane on A2 or A1, its corners found
from curvature and their stops from the real circuit's radius (templates/formula-d/real-circuits.yaml).

Two circuits here, to keep the run short; every circuit in ../shared/circuits/ is built by
``benchmarks/formula_d_real.py``."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from shapely import LineString, Polygon

from generator.games.formula_d import real, real_corners, real_line
from generator.games.formula_d.overlay import LAYER, corner_marks, formula_d_board, load_circuit, stepped_line
from generator.paper import PaperChoice
from generator.scene import Text, walk

SHARED = Path(__file__).parents[2] / "shared" / "circuits"
IMS = SHARED / "IMS.csv"
MONZA = SHARED / "Monza.csv"
pytestmark = pytest.mark.skipif(not IMS.is_file() or not MONZA.is_file(), reason="no ../shared/circuits")


@pytest.fixture(scope="module")
def ims():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_circuit(IMS)


@pytest.fixture(scope="module")
def monza():
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        c = load_circuit(MONZA, paper=PaperChoice("a2"))
    return c, [str(w.message) for w in said]


def _clear_grid(c) -> None:
    corner = set().union(*(m.paths.spaces for m in corner_marks(c)))
    for slot in c.grid:
        outline = Polygon(slot.outline)
        under = {sp.id for sp in c.graph.spaces if Polygon(sp.polygon).intersection(outline).area > 1.0}
        assert under and not under & corner, f"grid slot {slot.number} lies in a corner"


def test_a_csv_becomes_a_three_lane_formula_d_board_with_a_sixth_gear_straight(ims):
    """IMS: the A2 board has no straight of 21 spaces in every lane between its four corners, so it goes on A1."""
    assert ims.spec.game == "formula-d" and ims.spec.units == "per-lane" and ims.lanes == 3
    assert ims.spec.paper == "a1"
    assert real.longest_straight(ims) >= 21
    assert len(ims.grid) == 10
    _clear_grid(ims)


def test_corners_and_stops_come_from_the_real_circuit(ims):
    """IMS's four turns are 90° of about 190-215 m real radius: four corners of one stop (fast corners)."""
    marks = corner_marks(ims)
    assert len(marks) == 4
    assert all(round(k.angle) in range(80, 95) for k in ims.corners)
    assert [m.stops for m in marks] == [1, 1, 1, 1]
    assert not any(m.stops_suggested for m in marks)  # declared, printed as the board's own
    for radius, turn in real_corners.real_bends(ims):
        assert 150 < radius < 260 and 75 < turn < 100


def test_the_board_draws_stepped_lines_along_space_edges(ims):
    page = formula_d_board(IMS, circuit=ims)
    drawn = [i.points for i in page.layer(LAYER).items if hasattr(i, "points")]
    for m in corner_marks(ims):
        for edges in (m.paths.limits.entry, m.paths.limits.exit):
            line = LineString(stepped_line(ims, edges))
            inner = [Polygon(sp.polygon).buffer(-0.05) for sp in ims.graph.spaces]
            assert not any(line.intersection(p).length > 1e-6 for p in inner)
            assert stepped_line(ims, edges, 1.2) in drawn


def test_monza_on_a2_keeps_its_slow_corners_slow(monza):
    c, said = monza
    assert c.paper.name == "a2" and c.lanes == 3 and len(c.grid) == 10
    marks = corner_marks(c)
    stops = [m.stops for m in marks]
    assert 2 in stops and 1 in stops  # the chicanes (real radius about 14-20 m) and Curva Grande (about 180 m)
    assert all(1 <= s <= m.paths.short for s, m in zip(stops, marks, strict=True))
    _clear_grid(c)
    assert not [s for s in said if "grid slot" in s]  # the start line moved the grid clear of every corner


@pytest.fixture(scope="module")
def monza_bare():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_circuit(MONZA)


def test_stretching_a_straight_keeps_every_heading_and_closes_the_loop():
    from generator.track.load import read_points

    Q = real_line.resampled(read_points(MONZA), 5.0)
    run = real_line.longest_real_straight(Q)
    assert 1100 <= len(run) * 5.0 <= 1300  # Monza's main straight, Parabolica to the first chicane: about 1.2 km
    S = real_line.stretched(Q, run, 2.0)
    d0, d1 = np.roll(Q, -1, 0) - Q, np.roll(S, -1, 0) - S  # the closing segment included: the loop closes
    l0, l1 = np.hypot(*d0.T), np.hypot(*d1.T)
    cross = (d0[:, 0] * d1[:, 1] - d0[:, 1] * d1[:, 0]) / (l0 * l1)
    assert np.abs(cross).max() < 1e-9 and ((d0 * d1).sum(1) > 0).all()  # every heading as it was
    ratio = l1 / l0
    assert np.allclose(ratio[run], 2.0)
    corner = real_line.corner_mask(Q)
    assert ratio.min() >= 0.5 - 1e-9
    assert np.abs(ratio[corner] - 1).max() < 0.15  # the corners keep their shape; the other straights give way


def test_a_real_straight_long_enough_for_top_gear_gets_six_gear_on_the_board(monza_bare):
    """Monza's 1.2 km main straight is ~12 spaces at the real proportions on A2, 16 on A1: the board draws it
    longer (the least that gives 21 spaces in every lane), says so, and measures its shape against the real
    circuit, not against what it drew."""
    c = monza_bare
    assert real.longest_straight(c) >= 21
    assert 1.0 < c.stretch <= real_line.settings().sixth_gear_stretch.max_stretch
    assert len(c.corners) >= math.ceil(0.75 * 8)  # Monza's eight corners (chicanes, Lesmos, Ascari, Parabolica)
    page = formula_d_board(MONZA, circuit=c)
    words = [t.text for layer in page.layers.values() for t in walk(layer.items) if isinstance(t, Text)]
    said = f"the longest straight drawn {c.stretch:.1f}".rstrip("0").rstrip(".")
    assert any(w.startswith(said) for w in words)
    assert f"shape within {math.ceil(c.fidelity.max_mm)} mm of the real circuit" in words
    assert c.fidelity.max_mm > 10  # against the real Monza: a stretched straight is not hidden
    assert math.isclose(math.hypot(*c.north), 1.0)
    _clear_grid(c)


def test_the_grid_and_the_first_moves_stand_clear_of_every_corner(monza_bare):
    """The start line stands where the grid behind it and the first 2 spaces past it (a 1st-gear start) are clear
    of every corner; the legend says how far that is from the real timing line."""
    c = monza_bare
    ahead = real_line.settings().start_clear_spaces * c.unit_length
    for k in c.corners:
        for m in (-1, 0, 1):
            a, b = k.s_start + m * c.lap_length, k.s_end + m * c.lap_length
            assert not (a < ahead and b > 0), f"a corner within {ahead:.0f} mm past the line"
    _clear_grid(c)
    assert real.grid_shift(c) == (0.0, True)


def test_the_legend_says_how_the_board_differs_from_the_real_circuit(monza_bare):
    c = monza_bare
    page = formula_d_board(MONZA, circuit=c)
    words = [t.text for layer in page.layers.values() for t in walk(layer.items) if isinstance(t, Text)]
    assert "no pit lane (a CSV gives none): no pit stops, the pack leaves out the pit-stop card" in words
    turn = round(abs(math.degrees(math.atan2(c.north[0], -c.north[1]))))
    assert (f"north: the board is turned {turn}° to fit the sheet" if turn else "north") in words
    assert not any(w.startswith("no 6th-gear straight") for w in words)


def test_a_chicane_is_one_corner():
    """Two short bends turning opposite ways less than a space apart are one corner with the slower half's stops,
    capped by the spaces of both halves; a third bend right after stays a corner of its own."""
    from generator.track.circuit import Corner

    u = 24.0
    a = Corner(100, 130, 115, 34, 40, "right", stops=3)
    b = Corner(140, 160, 150, 34, 40, "left", stops=1)
    c = Corner(170, 200, 185, 34, 40, "right", stops=2)
    out = real_corners._join_chicanes([a, b, c], 5000.0, u, 4 * u)
    assert [(k.s_start, k.s_end, k.stops) for k in out] == [(100, 160, 3), (170, 200, 2)]
    same_way = Corner(140, 160, 150, 34, 40, "right", stops=1)
    assert len(real_corners._join_chicanes([a, same_way], 5000.0, u, 4 * u)) == 2  # a bend that tightens is two corners


def test_a_circuit_with_no_long_straight_is_not_stretched():
    """Brands Hatch's longest straight is ~600 m, under the 700 m a car needs to reach top gear: drawn as it is."""
    from generator.track.load import read_points

    brands = SHARED / "BrandsHatch.csv"
    Q = real_line.resampled(read_points(brands), 5.0)
    assert len(real_line.longest_real_straight(Q)) * 5.0 < real_line.settings().sixth_gear_stretch.real_straight_m


def test_stops_by_real_radius():
    # the bands of issue 39 (the box's boards give 3 stops to their slowest hairpins only): 3 up to 12 m, 2 to 20 m
    assert real_line.stops_for(10, 180) == 3
    assert real_line.stops_for(12, 180) == 3
    assert real_line.stops_for(15, 180) == 2
    assert real_line.stops_for(20, 90) == 2
    assert real_line.stops_for(30, 90) == 1
    assert real_line.stops_for(190, 90) == 1
    assert real_line.stops_for(90, 30) is None  # a fast kink: taken flat out, no corner
    assert real_line.stops_for(15, 30) == 2  # a slow kink (a chicane's flick) is a corner


def test_corners_command_reads_a_csv(capsys):
    from generator.cli import main

    with pytest.raises(SystemExit) as ex:
        main(["corners", str(IMS), "--json"])
    assert ex.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lanes"] == 3 and [r["stops"] for r in out["corners"]] == [1, 1, 1, 1]
    # each row is found on the board by its name over the flag, and says the real radius its stops come from
    assert [r["name"] for r in out["corners"]] == ["C1", "C2", "C3", "C4"]
    assert all(150 < r["real_radius_m"] < 260 for r in out["corners"])
    with pytest.raises(SystemExit):
        main(["corners", str(IMS)])
    table = capsys.readouterr().out
    assert (
        "real radius m" in table
        and "stops from the real radius: 3 up to 12 m, 2 up to 20 m, 1 wider; never more than the short path" in table
    )


def test_a_board_with_no_pit_lane_gets_a_pack_without_pits(monkeypatch):
    """A CSV gives no pit lane: the pack leaves out the pit-stop card and the scorecards' pit WP box (as for a
    road race), and says why a --pit-roll is not used; the board's legend says there are no pits."""
    from generator.games.formula_d import pack
    from generator.paper import PageSettings

    monkeypatch.setattr(pack, "summary_sheets", lambda *a, **k: [])
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        sheets = pack.build(PageSettings(), track=IMS, pit_roll=4)
    assert any("--pit-roll is left out: the board has no pit lane" in str(w.message) for w in said)

    def words(name):
        pages = [sh.page for sh in sheets if sh.name.startswith(name)]
        return " ".join(
            t.text for p in pages for ly in p.layers.values() for t in walk(ly.items) if isinstance(t, Text)
        )

    assert "Pit stops" not in words("reference") and "Pit WP" not in words("scorecards")
    assert "no pit lane" in words("board")


def test_where_no_place_is_clear_the_grid_stands_where_least_of_it_is_in_a_corner():
    """A lap of corners a few spaces apart: no place holds the grid and the first moves clear; the line goes where
    the least of that stretch lies in corners, and says it is not clear."""
    from types import SimpleNamespace

    from generator.track.circuit import Corner

    u, L = 24.0, 24.0 * 40
    corners = [Corner(s, s + 3 * u, s + u, 40, 90, "left") for s in np.arange(0, L, 6 * u)]  # 3 in, 3 out
    corners[2] = Corner(12 * u, 12 * u + u, 12 * u, 40, 90, "left")  # a short one: the least overlap is near it
    c = SimpleNamespace(
        lap_length=L, unit_length=u, corners=corners, crossings=(), spec=SimpleNamespace(grid=10), lanes=3
    )
    d, clear = real.grid_shift(c)
    assert not clear
    rows = 4 + 0.5
    a, b = d - rows * u, d + 2 * u

    def overlap(a, b):
        return sum(max(0, min(b, k.s_end + m * L) - max(a, k.s_start + m * L)) for k in corners for m in (-1, 0, 1))

    assert overlap(a, b) == min(overlap(x - rows * u, x + 2 * u) for x in np.arange(0, L, u))


def test_a_spec_naming_a_csv_and_no_paper_gets_its_paper_chosen(tmp_path):
    """`game: formula-d` and a CSV in a spec, no paper: chosen as for a bare CSV (IMS: A1, for 6th gear)."""
    spec = tmp_path / "ims.yaml"
    spec.write_text(f"name: Indianapolis\ncsv: {IMS}\ngame: formula-d\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = load_circuit(spec)
    assert c.paper.name == "a1" and c.name == "Indianapolis" and real.longest_straight(c) >= 21


def test_a_move_back_past_half_a_lap_is_measured_against_the_corners_it_meets():
    """A corner just before the line and another from 5 spaces after it: no place holds the grid (4.5 spaces) and
    the first moves (2) clear. A move back of most of a lap lands just after the line: it must meet the corner
    before the line there, not miss it for lying a lap away (Budapest on A2 once stood its grid in a corner)."""
    from types import SimpleNamespace

    from generator.track.circuit import Corner

    u, L = 24.0, 24.0 * 40
    corners = [Corner(5 * u, 35.9 * u, 20 * u, 40, 90, "left"), Corner(36 * u, 39.9 * u, 38 * u, 40, 90, "right")]
    c = SimpleNamespace(
        lap_length=L, unit_length=u, corners=corners, crossings=(), spec=SimpleNamespace(grid=10), lanes=3
    )
    assert real.grid_shift(c)[1] is False
