"""The f1-dice board as the rulebook draws it, measured: a 2 cm track of two 10 mm lanes (§1.1), 20 mm units,
room for a car in every unit, a grid slot for every car of the field, action units that survive any printer and
the race length printed on the board."""

from __future__ import annotations

import io
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw
from shapely import LineString
from shapely import Polygon as SPoly

from generator import track
from generator.compose import inksaver
from generator.data import template
from generator.errors import GeometryError
from generator.games.f1_dice import board as f1_board
from generator.games.f1_dice import pack as f1_pack
from generator.paper import PageSettings
from generator.scene import Document
from generator.teams import load_field
from generator.track import numbers as board_mod
from generator.track.checks import min_car_radius, unit_edges
from generator.writers import render

F1_SPECS = ["albert-park", "figure-eight", "monte-carlo", "monza-like", "oval", "three-lane"]
DPI = 60


def spec_path(name: str) -> Path:
    from generator.data import track_specs_dir

    return track_specs_dir() / f"{name}.yaml"


@pytest.fixture(scope="module")
def circuits():
    return {name: track.load(spec_path(name)) for name in F1_SPECS}


@pytest.fixture(scope="module")
def field_board():
    """The pack's board for the 2011 field, and the race facts printed with it."""
    settings = PageSettings()
    field = load_field("f1-2011")
    c = f1_pack.board_circuit(None, len(field.drivers), settings)
    facts = f1_pack.race_facts(c)
    return c, facts, f1_pack.board_sheet(c, facts).page, len(field.drivers)


def test_the_f1_dice_default_is_a_2_cm_track_of_two_10_mm_lanes():
    profile = template("f1-dice/board.yaml")
    assert profile["lanes"] * profile["lane_width"] == 20
    # room for a car: half a car, the slip less its wing (cars.yaml)
    slip = template("f1-dice/cars.yaml")["slip"]
    assert profile["room_for_car"] * profile["unit"] == (slip["length"] - slip["wing"]) / 2 == 10


@pytest.mark.parametrize("name", F1_SPECS)
def test_track_width_units_and_room_for_a_car(circuits, name):
    c = circuits[name]
    assert c.lane_width == 10
    lpts, rpts = c.line.offset(c.half_width), c.line.offset(-c.half_width)
    if not c.crossings:
        assert LineString(lpts).hausdorff_distance(LineString(rpts)) == pytest.approx(2 * c.half_width, abs=0.05)
    # everywhere (a crossing too): each point of one edge is the track width from the nearby part of the other
    n = len(lpts)
    d = []
    for i in range(0, n - 1, max(1, n // 400)):
        near = LineString(rpts[max(0, i - 60) : i + 60])
        d.append(near.distance(LineString(lpts[i : i + 2]).centroid))
    assert min(d) == pytest.approx(2 * c.half_width, abs=0.05) and max(d) == pytest.approx(2 * c.half_width, abs=0.05)
    if c.lanes == 2:
        assert 2 * c.half_width == 20.0
    assert c.unit_length == pytest.approx(20.0, rel=0.02)
    le, re = unit_edges(c)
    inner = np.minimum(le, re)
    assert inner.min() >= 0.5 * c.unit_length - 1e-3
    assert inner.min() >= 10.0 * 0.98
    assert min_car_radius(c) == pytest.approx(c.half_width * 2)


def test_a_bend_too_tight_for_a_car_is_a_located_error(tmp_path):
    spec = tmp_path / "tight.yaml"
    spec.write_text(
        "name: Tight\nsegments:\n  - straight: 300\n  - arc: {radius: 17, angle: 180, turn: left}\n"
        "  - straight: 300\n  - arc: {radius: 17, angle: 180, turn: left}\nstart: {at: 12}\n",
        encoding="utf-8",
    )
    with pytest.raises(GeometryError) as info:
        track.load(spec)
    msg = str(info.value)
    assert "no room for a car" in msg and "make the radius of segment 2 at least 20 mm" in msg
    assert str(spec) in msg
    room = [p for p in info.value.problems if p.kind == "room"]
    assert [p.line for p in room] == [4, 6]  # the lines of segments 2 and 4, the two bends
    assert info.value.exit_code == 3


def test_the_grid_holds_the_field_on_straight_track(field_board):
    c, facts, _, cars = field_board
    assert len(c.grid) == cars == facts.grid == 24
    assert {s.lane for s in c.grid if s.number == 1} == {0}  # pole on the left, as the qualifying sheet's P1
    corners = [SPoly(c.strip(cr.s_start, cr.s_end, c.half_width, -c.half_width)).buffer(0) for cr in c.corners]
    for slot in c.grid:
        box = SPoly(slot.outline)
        assert box.area > 100
        for geom in corners:
            assert box.intersection(geom).area < 1e-6, slot.number
    # every 10th unit is an action unit, the one under the grid too (unit 50 of 59: the grid covers 48-59)
    every = list(range(c.spec.action_every, c.units_count + 1, c.spec.action_every))
    assert list(facts.action_units) == board_mod.action_units(c) == every
    assert set(every) & set(c.grid_units)


def test_grid_slots_and_the_action_unit_under_them_both_read(field_board):
    """Where the grid stands on an action unit, its stripes show round the slots and both numbers read: the
    unit's on its tab, each slot's on a white disc; the text reads back from the PDF."""
    import pypdfium2

    c, _, page, _ = field_board
    under = [u for u in board_mod.action_units(c) if u in c.grid_units]
    assert under
    img = _grey(page)
    for u in under:
        a, b = c.unit_bounds(u)
        cell = SPoly(c.strip(a + 1, b - 1, c.half_width - 1, -c.half_width + 1))
        plain = [v for v in range(2, 10) if v not in board_mod.action_units(c)][0]
        pa, pb = c.unit_bounds(plain)
        base = _mean(img, SPoly(c.strip(pa + 1, pb - 1, c.half_width - 1, -c.half_width + 1)))
        assert abs(_mean(img, cell) - base) >= 0.2 * base  # the striped unit still stands out
    doc = pypdfium2.PdfDocument(render(Document([page]), "pdf")[0])
    text = doc[0].get_textpage().get_text_range()
    doc.close()
    words = text.split()
    for u in under:
        assert str(u) in words
    for slot in c.grid:
        assert str(slot.number) in words


def test_every_fifth_unit_is_numbered_small_and_the_pole_has_a_box(field_board):
    from generator.scene import Text, walk

    c, _, page, _ = field_board
    texts = [i for i in walk(page.items()) if isinstance(i, Text)]
    small = {t.text for t in texts if t.size < 2.2 and t.text.isdigit()}
    expect = {str(u) for u in board_mod.numbered_units(c)}
    assert expect and expect <= small
    assert {"5", "15", "25", "35", "45"} <= expect  # between the action units, off the grid
    assert any(t.text.startswith("POLE POSITION") for t in texts)


def test_a_field_larger_than_the_straight_is_a_located_error(tmp_path):
    """On a circuit of the user's: the spec line and how to lengthen the straight, and the field that fits as
    another fix. On Paddock's own board (nothing for the user to edit): the field that fits, the board named by
    its title, never a file inside the package."""
    settings = PageSettings()
    mine = tmp_path / "my-circuit.yaml"
    mine.write_text(spec_path("monza-like").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(GeometryError) as info:
        f1_pack.board_circuit(mine, 24, settings)
    msg = str(info.value)
    assert "24 grid slots" in msg and "units of straight behind the start line" in msg
    assert "lengthen the straight before the line" in msg and f"{mine}:" in msg
    straight = info.value.problems[0].numbers["straight_units"]
    assert [f.value for f in info.value.problems[0].fixes if f.field == "cars"] == [2 * straight]
    with pytest.raises(GeometryError) as info:
        f1_pack.board_circuit(spec_path("monza-like"), 24, settings)
    msg = str(info.value)
    assert msg.startswith("the board Autodromo Veloce: grid: 24 grid slots") and ".yaml" not in msg
    assert f"race a field of {2 * straight} cars" in msg
    f1_pack.board_circuit(spec_path("monza-like"), 2 * straight, settings)  # and that field fits


def _grey(page) -> Image.Image:
    return Image.open(io.BytesIO(render(Document([page]), "png", dpi=DPI)[0])).convert("L")


def _mean(img: Image.Image, poly) -> float:
    k = DPI / 25.4
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).polygon([(x * k, y * k) for x, y in poly.exterior.coords], fill=255)
    a, m = np.asarray(img, float), np.asarray(mask) > 0
    return float(a[m].mean())


@pytest.mark.parametrize("ink", [False, True], ids=["colour", "ink-saver"])
def test_action_units_stand_out_in_greyscale(field_board, ink):
    c, _, page, _ = field_board
    if ink:
        page = inksaver.apply(Document([page])).pages[0]
    img = _grey(page)
    marked = board_mod.action_units(c)
    assert marked
    skip = set(marked) | set(c.grid_units) | {1, c.units_count}
    plain = [u for u in range(2, c.units_count) if u not in skip][:10]

    def cell(u):
        a, b = c.unit_bounds(u)
        return SPoly(c.strip(a + 1, b - 1, c.half_width - 1, -c.half_width + 1))

    base = np.mean([_mean(img, cell(u)) for u in plain])
    for u in marked:
        assert abs(_mean(img, cell(u)) - base) >= 0.25 * base, u


def test_laps_read_back_from_the_board(field_board, tmp_path):
    import pypdfium2

    c, facts, page, _ = field_board
    pdf = tmp_path / "board.pdf"
    pdf.write_bytes(render(Document([page]), "pdf")[0])
    doc = pypdfium2.PdfDocument(str(pdf))
    text = doc[0].get_textpage().get_text_range()
    doc.close()
    assert f"RACE: {facts.laps} LAPS" in text
    assert f"{facts.laps * c.units_count} units" in text
    for u in board_mod.action_units(c):
        assert str(u) in text
    assert math.isclose(facts.lap_units, c.units_count)


def _hexagon_csv(folder: Path) -> Path:
    """A bare centre line (racetrack-database format) of six straights and six wide bends."""
    import shapely

    hexagon = shapely.Polygon([(300 * np.cos(a), 300 * np.sin(a)) for a in np.radians(np.arange(30, 390, 60))])
    ring = hexagon.buffer(-60).buffer(60, quad_segs=16).exterior
    csv = folder / "Hexagon_Ring.csv"
    np.savetxt(csv, [ring.interpolate(d).coords[0] for d in np.arange(0, ring.length, 2.0)], delimiter=",")
    return csv


def test_a_bare_centre_line_gets_a_pit_lane_and_the_pack_says_where(tmp_path):
    """A CSV centre line has no pit lane of its own; the rulebook draws one (§1.1). The pack's board gets one
    beside the grid's straight: 2 cm units clear of the racing surface, PIT IN and PIT OUT, a garage per team
    of the field, and the pack says where it went, naming the user's file (as ``paddock track`` does)."""
    from generator.notices import LayoutWarning
    from generator.track.circuit import PIT_GAP
    from generator.track.legend import words

    csv = _hexagon_csv(tmp_path)
    field = load_field("f1-2011").first_cars(6)
    settings = PageSettings()
    with pytest.warns(LayoutWarning, match=r"Hexagon_Ring\.csv: a pit lane drawn beside the grid's straight"):
        sheets = f1_pack.build(settings, track=csv, cars=6)
    c = f1_pack.board_circuit(csv, 6, settings, garages=len(field.teams))
    assert c.pit is not None and c.pit.units >= 4
    assert c.pit.garages == len(field.teams) == len(c.pit.garage_boxes) == 3
    assert SPoly(c.pit.polygon).buffer(0).intersection(c.surface()).area < 1.0
    lengths = [
        c.offset_length(a, b, (c.half_width + PIT_GAP + c.lane_width / 2) * (1 if c.pit.side == "left" else -1))
        for a, b in zip(c.pit.unit_s[:-1], c.pit.unit_s[1:], strict=True)
    ]
    assert all(v == pytest.approx(20, rel=0.02) for v in lengths), lengths
    say = words()["labels"]
    board = sheets[0].page
    assert {say["pit_in"], say["pit_out"]} <= {getattr(t, "text", None) for t in board.layers["features"].items}
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        f1_pack.build(settings, track=csv, cars=6, pit=False)  # --no-pit: no pit lane, and nothing said of one
    assert not any("pit lane" in str(w.message) for w in said)
    assert f1_pack.board_circuit(csv, 6, settings, pit=False).pit is None


@pytest.mark.parametrize("name", F1_SPECS)
def test_the_pole_box_stands_beside_grid_slot_1(name):
    """The rulebook: write the pole-sitter's name "beside that unit". On every shipped board the box is within
    4 cm of slot 1 (a narrower box where only that fits near it), on the paper and off the track."""
    from shapely import Point, box

    from generator.scene import Text

    c = f1_pack.board_circuit(spec_path(name), 6, PageSettings(), garages=3)
    page = f1_pack.board_sheet(c, f1_pack.race_facts(c)).page
    labels = page.layers["labels"].items
    i = next(k for k, t in enumerate(labels) if isinstance(t, Text) and t.text.startswith("POLE POSITION"))
    xs, ys = zip(*labels[i - 1].exterior, strict=True)
    frame = box(min(xs), min(ys), max(xs), max(ys))
    assert (max(xs) - min(xs), max(ys) - min(ys)) in f1_board.POLE_BOXES
    pole = next(s for s in c.grid if s.number == 1)
    assert Point(pole.centre).distance(frame) <= 40.0
    x, y, w, h = page.content_box
    assert box(x, y, x + w, y + h).contains(frame)
    assert frame.intersection(c.surface()).area == 0


def test_the_command_line_names_paddocks_own_board_by_its_title(tmp_path, capsys):
    """A league too big for the default board's straight: the error the user reads names the board by its title
    and the field that fits, never a file inside the package."""
    from f1dice_leagues import fixed_league, write

    from generator.cli import main

    teams = write(fixed_league([3] * 10, seed=3), tmp_path)  # 30 cars
    with pytest.raises(SystemExit) as info:
        main(["pack", "f1-dice", "--teams", str(teams), "--out", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert info.value.code == 3
    assert err.startswith("paddock: error: the board Monte Carlo: grid: 30 grid slots"), err
    assert "(--cars 26)" in err and "track_specs" not in err and ".yaml" not in err
