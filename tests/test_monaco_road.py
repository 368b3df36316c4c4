"""Monaco! road: pieces that fit the paper, put back together into exactly the road band, sharing their cut lines;
the road its width everywhere; folds and parts too close refused with where and what lap would do; the modular
set and its sheet count; the `paddock road` command."""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely import LineString, Point, Polygon, unary_union

from generator.cli import main
from generator.errors import GeometryError
from generator.games.monaco.pieces import rotate
from generator.games.monaco.roadkit import circuit_kit, modular_kit
from generator.paper import PageSettings, PaperChoice
from generator.track import default_spec
from generator.units import MM_PER_INCH


@pytest.fixture(scope="module")
def kit():
    """The pack's road: the default Monaco-like circuit at double width, pieces on A4."""
    return circuit_kit(default_spec(), PageSettings(), "double", grid=6)


def back(p) -> np.ndarray:
    """A piece's outline as placed on its sheet, put back where it belongs on the road by undoing its placement."""
    on_sheet = p.to_sheet(p.ring)
    return rotate(on_sheet - np.asarray(p.shift), -p.angle)


def test_every_piece_fits_its_sheet_inside_the_unprintable_edge(kit):
    spec = kit.sheets[1].page.spec
    x0, y0, w, h = spec.content_box
    assert x0 >= spec.edge and y0 >= spec.edge
    for p in kit.pieces:
        pts = p.to_sheet(p.ring)
        assert pts[:, 0].min() >= x0 and pts[:, 0].max() <= x0 + w, p.number
        assert pts[:, 1].min() >= y0 and pts[:, 1].max() <= y0 + h, p.number
    # no two pieces on one sheet overlap, and scissors fit between them
    for sheet in {p.sheet for p in kit.pieces}:
        polys = [Polygon(p.to_sheet(p.ring)) for p in kit.pieces if p.sheet == sheet]
        for i in range(len(polys)):
            for j in range(i + 1, len(polys)):
                assert polys[i].distance(polys[j]) >= 3.9


def test_pieces_put_back_cover_the_road_band_exactly(kit):
    road = kit.road
    s = np.linspace(0, road.lap, 6000, endpoint=False)
    left, right = road.offsets(s)
    band = Polygon(road.at(s, left)).symmetric_difference(Polygon(road.at(s, right)))
    pieces = [Polygon(back(p)) for p in kit.pieces]
    union = unary_union(pieces)
    assert abs(union.area - band.area) / band.area < 1e-3
    assert union.symmetric_difference(band).area / band.area < 1e-3
    assert abs(sum(p.area for p in pieces) - band.area) / band.area < 1e-3  # no overlaps either


def test_neighbours_share_their_cut_line(kit):
    pieces = sorted(kit.pieces, key=lambda p: p.number)
    for a, b in zip(pieces, pieces[1:] + pieces[:1], strict=True):
        ring_a, ring_b = back(a), back(b)
        entry = (ring_b[-1], ring_b[0])  # piece b's first cut: right end, left end
        for end in entry:
            assert np.hypot(*(ring_a - end).T).min() <= 0.1, (a.number, b.number)
        boundary = Polygon(ring_a).exterior
        cut = LineString(entry)
        for t in np.linspace(0, 1, 11):
            assert boundary.distance(cut.interpolate(t, normalized=True)) <= 0.1


def test_the_road_is_its_width_everywhere(kit):
    road = kit.road
    width = road.n.width
    assert abs(width - 2 * 1.875 * MM_PER_INCH) < 1e-9  # double road of 1⅞ in lanes
    measured = 0
    for p in kit.pieces:
        poly = Polygon(back(p))
        for s in np.arange(p.s0 + 5, p.s1 - 5, 15.0):
            if road.pit_extra(np.array([s]))[0] > 0:
                continue
            th = road.heading(s)
            c = road.line.point(s)
            n = np.array([math.sin(th), -math.cos(th)])
            cut = poly.intersection(LineString([c - 3 * width * n, c + 3 * width * n]))
            here = Point(c)
            chord = min(getattr(cut, "geoms", [cut]), key=lambda g: g.distance(here))  # the pass through c
            assert abs(chord.length - width) <= 0.3, (p.number, s)
            measured += 1
    assert measured > 100


def test_the_pit_area_widens_the_road_by_a_lane(kit):
    road = kit.road
    pit = road.pit
    mid = (pit.s0 + pit.s1) / 2
    left, right = road.offsets(np.array([mid]))
    assert abs((left - right)[0] - (road.n.width + road.n.lane_w)) < 1e-6
    assert pit.boxes, "room for at least one pit box"


def test_grid_slots_an_inch_apart_pole_first(kit):
    grid = kit.road.grid
    assert grid[0][0] == 0.0  # pole at the line
    for (_, tail_a), (nose_b, _) in zip(grid, grid[1:], strict=False):
        assert abs((tail_a - nose_b) - MM_PER_INCH) < 1e-9


def test_plan_says_lap_in_inches_and_pieces(kit):
    from generator.scene import Text, walk

    plan = kit.sheets[0].page
    text = " ".join(t.text for t in walk(plan.items()) if isinstance(t, Text))
    assert f"lap {kit.road.lap_in:.0f} in" in text
    assert f"{len(kit.pieces)} pieces on {kit.sheet_count} A4 sheets" in text
    from generator.games.monaco.road_plan import sheet_runs

    for k, line in enumerate(sheet_runs(kit.pieces)):  # "sheet 3: 5–7", "sheet 4: 5, 24" (a short last piece)
        nums = sorted(p.number for p in kit.pieces if p.sheet == k)
        assert line.startswith(f"sheet {k + 1}: {nums[0]}") and line.endswith(str(nums[-1])) and line in text
    assert "on the floor at the scale of this plan" in text


RING = """name: Ring
segments:
  - straight: 200
  - arc: {radius: 80, angle: 180, turn: left}
  - straight: 200
  - arc: {radius: 80, angle: 180, turn: left}
"""


def test_lap_option_scales_the_road_and_a3_and_letter_pieces_fit_their_paper(tmp_path):
    spec = tmp_path / "ring.yaml"
    spec.write_text(RING)
    for paper, lap_in in (("a3", None), ("letter", 7 * 12)):
        k = circuit_kit(spec, PageSettings(paper=PaperChoice(paper)), "double", lap_in=lap_in, grid=2)
        if lap_in is not None:
            assert abs(k.road.lap_in - lap_in) < 1e-6
        page = k.sheets[1].page.spec
        assert page.paper.name == paper
        x0, y0, w, h = page.content_box
        for p in k.pieces:
            pts = p.to_sheet(p.ring)
            assert x0 <= pts[:, 0].min() and pts[:, 0].max() <= x0 + w
            assert y0 <= pts[:, 1].min() and pts[:, 1].max() <= y0 + h


# -- refused roads ---------------------------------------------------------------------------------------------

HAIRPIN = """name: Tight
segments:
  - straight: 300
  - arc: {radius: 30, angle: 180, turn: right}
  - straight: 300
  - arc: {radius: 30, angle: 180, turn: right}
"""


def bone() -> str:
    """A dog-bone circuit: gentle bends everywhere, but its waist brings two parts of the lap close together."""
    t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    pts = [
        [round(float(200 * math.cos(a)), 1), round(float(100 * math.sin(a) * (0.2 + 0.8 * math.cos(a) ** 2)), 1)]
        for a in t
    ]
    return f"name: Bone\npoints: {pts}\n"


def test_a_folding_road_is_a_located_error(tmp_path):
    spec = tmp_path / "tight.yaml"
    spec.write_text(HAIRPIN)
    with pytest.raises(GeometryError) as info:
        circuit_kit(spec, PageSettings(), "quadruple", lap_in=60)
    msg = str(info.value)
    assert str(spec) in msg and "folds" in msg
    assert "in from the start line (spec unit" in msg
    assert "--lap" in msg and "builds" in msg
    hint = msg.split("a lap of ")[1]
    feet = float(hint.split("--lap ")[1].split("ft")[0])
    circuit_kit(spec, PageSettings(), "quadruple", lap_in=feet * 12, grid=2)  # and it does build


def test_parts_too_close_are_a_located_error(tmp_path):
    spec = tmp_path / "bone.yaml"
    spec.write_text(bone())
    with pytest.raises(GeometryError) as info:
        circuit_kit(spec, PageSettings(), "double", lap_in=100, grid=2)
    msg = str(info.value)
    assert "comes within 0.7 in of itself" in msg and "collision distance" in msg
    assert msg.count("in from the start line (spec unit") == 2  # both places named
    assert "--smoothing" in msg  # a centre line of points: smoothing is one cure


def test_cli_exit_codes(tmp_path, capsys):
    spec = tmp_path / "tight.yaml"
    spec.write_text(HAIRPIN)
    with pytest.raises(SystemExit) as e:
        main(["road", str(spec), "--width", "quadruple", "--lap", "5ft", "--out", str(tmp_path)])
    assert e.value.code == 3
    assert "folds" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["road", str(spec), "--lap", "twelve", "--out", str(tmp_path)])
    assert e.value.code == 2
    assert "--lap" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.pdf"))


def test_paddock_road_writes_the_pieces_and_says_how_many(tmp_path, capsys):
    spec = tmp_path / "oval.yaml"
    spec.write_text(
        "name: Ring\nsegments:\n  - straight: 200\n  - arc: {radius: 80, angle: 180, turn: left}\n"
        "  - straight: 200\n  - arc: {radius: 80, angle: 180, turn: left}\ngrid: 4\n"
    )
    with pytest.raises(SystemExit) as e:
        main(["road", str(spec), "--grid", "2", "--out", str(tmp_path), "-f", "pdf"])
    assert e.value.code == 0
    err = capsys.readouterr().err
    assert "double road 3¾″ wide" in err and "A4 sheets" in err
    folder = tmp_path / "ring-road"
    assert (folder / "road-plan.pdf").is_file() and (folder / "ring-road-print.pdf").is_file()
    assert (folder / "road-01.pdf").is_file()


# -- the modular set -------------------------------------------------------------------------------------------


def test_modular_set_parts_fit_and_are_counted():
    k = modular_kit("straight-6=3,curve-90-wide=1,pit=1", PageSettings(), "double")
    spec = k.sheets[1].page.spec
    x0, y0, w, h = spec.content_box
    for p in k.pieces:
        pts = p.to_sheet(p.ring)
        assert x0 <= pts[:, 0].min() and pts[:, 0].max() <= x0 + w
        assert y0 <= pts[:, 1].min() and pts[:, 1].max() <= y0 + h
    labels = [p.label for p in k.pieces]
    assert labels.count("S6") == 3
    assert "C90W-1" in labels and "C90W-2" in labels  # a 90° curve of 12 in radius does not fit A4 whole
    assert k.sheet_count < len(k.pieces)  # the 6 in straights share sheets
    assert len(k.sheets) == k.sheet_count + 1  # the set's cover sheet and the sheets of parts
    from generator.scene import Text, walk

    cover = " ".join(t.text for t in walk(k.sheets[0].page.items()) if isinstance(t, Text))
    assert f"on {k.sheet_count} A4 sheets" in cover


def test_modular_curve_is_its_angle_and_radius():
    from generator.games.monaco.modular import band_for, kinds

    kind = next(k for k in kinds("double") if k.id == "curve-90-tight")
    band = band_for(kind, "double")
    turn = math.degrees(abs(band.line.heading(band.lap) - band.line.heading(0.0)))
    assert abs(turn - 90) < 1e-9
    centre = band.line.point(band.lap / 2)
    r = kind.radius_in * MM_PER_INCH
    assert abs(np.hypot(centre[0], centre[1] + r) - r) < 1e-6  # a left turn: round (0, -r), y down the page


def test_a_bad_set_is_refused():
    from generator.errors import InputError

    with pytest.raises(InputError, match="unknown piece 'hairpin=2'"):
        modular_kit("hairpin=2", PageSettings(), "double")
