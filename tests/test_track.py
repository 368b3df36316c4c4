"""Circuits: measured geometry of every shipped board, bad specs, the CLI, the schema, property tests."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely import LineString
from shapely import Polygon as SPoly

from generator import track
from generator.errors import GeometryError, PaddockError
from generator.track import CircuitSpec

SPECS = track.shipped()
SPECS_BY_NAME = {p.stem: p for p in SPECS}
BAD = sorted((Path(__file__).parent / "bad_specs").glob("*.yaml"))
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "circuits"


PER_LANE = [p for p in SPECS if track.load_spec(p)[0].units == "per-lane"]
WITH_PIT = [p for p in SPECS if track.load_spec(p)[0].pit is not None]


@pytest.fixture(scope="module", params=SPECS, ids=lambda p: p.stem)
def circuit(request):
    return track.load(request.param)


@pytest.fixture(scope="module", params=PER_LANE, ids=lambda p: p.stem)
def per_lane_circuit(request):
    return track.load(request.param)


@pytest.fixture(scope="module", params=WITH_PIT, ids=lambda p: p.stem)
def pit_circuit(request):
    return track.load(request.param)


def test_there_are_the_circuits_the_issue_asks_for():
    specs = {p.stem: p for p in SPECS}
    assert len(specs) >= 7
    modes = {track.load(p).unit_mode for p in SPECS}
    assert modes == {"across", "per-lane"}
    assert any(track.load(p).lanes == 3 for p in SPECS)
    assert any(track.load(p).crossings for p in SPECS)
    assert any(track.load_spec(p)[0].csv for p in SPECS)


def test_unit_count_and_lengths(circuit):
    c = circuit
    assert c.units_count == round(c.lap_length / c.unit)
    # each unit measured along the drawn centre line
    for u in range(1, c.units_count + 1):
        s0, s1 = c.unit_bounds(u)
        length = LineString(c.offset_line(s0, s1, 0.0)).length
        assert abs(length - c.unit) <= 0.02 * c.unit, (u, length)


def test_per_lane_spaces_measured_along_their_lane(per_lane_circuit):
    c = per_lane_circuit
    assert c.graph is not None
    for lane in range(c.lanes):
        spaces = c.graph.lane(lane)
        assert len(spaces) == c.graph.count(lane) >= 8
        for sp in spaces:
            length = LineString(c.offset_line(sp.s0, sp.s1, c.lane_offset(lane))).length
            assert abs(length - c.unit) <= 0.02 * c.unit
            assert c.graph.spaces[sp.ahead].lane == lane
            for d in sp.diagonal:
                assert abs(c.graph.spaces[d].lane - lane) == 1
    # the outside of the loop has more spaces than the inside
    counts = [c.graph.count(i) for i in range(c.lanes)]
    assert len(set(counts)) > 1 or c.line.turning == pytest.approx(0, abs=0.1)


def test_lane_borders_at_exact_distance(circuit):
    c = circuit
    centre = LineString(c.line.xy)
    for i in range(c.lanes + 1):
        d = abs(c.half_width - i * c.lane_width)
        if d == 0:
            continue
        border = LineString(c.border(i))
        if c.crossings:  # near a crossing the other pass is closer: measure one way, locally
            pts = c.border(i)[::7]
            dist = [centre.distance(__import__("shapely").Point(p)) for p in pts]
            assert max(dist) <= d + 0.05
            continue
        assert centre.hausdorff_distance(border) == pytest.approx(d, abs=0.05)
        assert border.hausdorff_distance(centre) == pytest.approx(d, abs=0.05)


def test_kerbs_only_on_corners_inside(circuit):
    c = circuit
    for kb in c.kerbs:
        s = np.linspace(kb.s0, kb.s1, 40)[1:-1]
        k = c.line.curvature(s)
        sign = 1 if kb.side == "left" else -1
        # kerbs sit on the inside of the bend: the side the centre of curvature is on
        assert np.mean(sign * k > 0) > 0.8, kb
        assert any(cr.s_start - 1 <= kb.s0 and kb.s1 <= cr.s_end + 1 for cr in c.corners)


def test_pit_lane_never_crosses_the_racing_surface(pit_circuit):
    c = pit_circuit
    assert c.pit is not None
    surface = c.surface()
    assert SPoly(c.pit.polygon).buffer(0).intersection(surface).area < 1.0


def test_board_page_stays_inside_the_content_box(circuit):
    from generator.scene import Polygon, Polyline, Text, walk

    page = track.board_sheet(circuit).page
    x, y, w, h = page.content_box
    for item in walk(page.items()):
        pts = (
            item.points
            if isinstance(item, Polyline)
            else item.exterior
            if isinstance(item, Polygon)
            else [(item.x, item.y)]
            if isinstance(item, Text)
            else []
        )
        for px, py in pts:
            assert x - 0.01 <= px <= x + w + 0.01 and y - 0.01 <= py <= y + h + 0.01, item
    for name in ("track", "kerbs", "units", "features", "labels"):
        assert name in page.layers


def test_same_input_same_bytes():
    from generator.scene import Document
    from generator.writers import render

    a = render(Document([track.board_sheet(track.load(SPECS[0])).page]), "pdf")
    b = render(Document([track.board_sheet(track.load(SPECS[0])).page]), "pdf")
    assert a == b


def test_default_spec_is_a_two_lane_a3_board():
    c = track.load(track.default_spec())
    assert c.lanes == 2 and c.paper.name == "a3" and c.graph is None
    track.board_sheet(c)  # draws (its time is measured in benchmarks/, not here)


def test_public_geometry_api():
    c = track.load(track.default_spec())
    L = c.lap_length
    for s in np.linspace(0, L, 17):
        tx, ty = c.tangent_at(s)
        nx, ny = c.normal_at(s)
        assert math.hypot(tx, ty) == pytest.approx(1)
        assert tx * nx + ty * ny == pytest.approx(0, abs=1e-9)
        # the left normal, page coordinates (y down): heading +x → left is -y
        assert (tx * ny - ty * nx) == pytest.approx(-1)
    assert c.point_at(0) == pytest.approx(c.point_at(L), abs=1e-6)
    for cr in c.corners:
        assert cr.s_start <= cr.apex <= cr.s_end and cr.radius > c.half_width and cr.direction in ("left", "right")


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_specs_give_their_message_and_exit_code(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    code, expected = first.removeprefix("# expect: ").split(" ", 1)
    with pytest.raises(PaddockError) as info:
        track.load(path)
    err = info.value
    assert err.exit_code == int(code)
    assert expected in str(err)
    assert str(path) in str(err)


def _check_json(path, *args) -> dict:
    from typer.testing import CliRunner

    import generator.cli.track  # noqa: F401  (registers the commands)
    from generator.cli import app

    return json.loads(CliRunner().invoke(app, ["check", str(path), "--json", *args]).stdout)


def test_cli_check_json_and_exit_codes(tmp_path):
    from typer.testing import CliRunner

    import generator.cli.track  # noqa: F401  (registers the commands)
    from generator.cli import app

    runner = CliRunner()
    ok = runner.invoke(app, ["check", str(SPECS[0]), "--json"])
    assert ok.exit_code == 0
    data = json.loads(ok.stdout)
    for key in ("name", "lanes", "unit_mode", "lap_mm", "units", "corners", "paper", "fits", "problems"):
        assert key in data
    bad = runner.invoke(app, ["check", str(Path(__file__).parent / "bad_specs" / "fold.yaml")])
    assert bad.exit_code == 3 and "folds" in bad.stdout
    out = runner.invoke(app, ["track", str(SPECS[0]), "--out", str(tmp_path), "-f", "pdf", "-q"])
    assert out.exit_code == 0, out.output
    assert list(tmp_path.glob("*.pdf"))


def test_close_auto_reports_what_it_changed():
    spec = CircuitSpec(
        name="Auto",
        close="auto",
        segments=[
            {"straight": 200},
            {"arc": {"radius": 80, "angle": 180, "turn": "left"}},
            {"straight": 170},
            {"arc": {"radius": 80, "angle": 180, "turn": "left"}},
        ],
    )
    result = track.analyse(spec)
    assert not result.problems and result.changes and result.buildable
    c = result.circuit
    assert abs(np.hypot(*(c.line.xy[-2] - c.line.xy[0]))) < 1.5


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared circuits not present")
def test_real_circuit_csv_builds_keeping_its_shape_north_up():
    spec = CircuitSpec(name="Budapest", csv=str(SHARED / "Budapest.csv"), lane_width=10)  # f1-dice: 20 mm track
    c = track.build(spec)
    assert c.rotation == 0.0 and c.north == pytest.approx((0.0, -1.0))
    assert c.fidelity is not None and c.fidelity.max_pct < 8.0


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared circuits not present")
def test_real_circuit_barely_smoothed_gives_a_clear_report():
    with pytest.raises(GeometryError) as info:
        track.load(SHARED / "Budapest.csv", overrides={"smoothing": 1})
    kinds = {p.kind for p in info.value.problems}
    assert "fold" in kinds
    assert "unit" in str(info.value)


def test_schema_is_current():
    from generator.data import track_specs_dir
    from generator.track.schema import schema_text

    shipped = (track_specs_dir() / "circuit.schema.json").read_text(encoding="utf-8")
    assert shipped == schema_text(), "run: python -m generator.track.schema"


def test_figure_eight_needs_its_crossing():
    spec, _, _ = track.load_spec(next(p for p in SPECS if p.stem == "figure-eight"))
    data = spec.model_dump(by_alias=True, exclude_none=True)
    data["crossings"] = []
    result = track.analyse(CircuitSpec.model_validate(data))
    assert result.circuit is None and result.problems and result.problems[0].kind == "turning"


# ------------------------------------------------------------------------------------------- property tests

segment = st.one_of(
    st.builds(lambda n: {"straight": n}, st.floats(5, 400)),
    st.builds(
        lambda r, a, t, tr: {"arc": {"radius": r, "angle": a, "turn": t, "transition": tr}},
        st.floats(5, 300),
        st.floats(1, 360),
        st.sampled_from(["left", "right"]),
        st.sampled_from([0.0, 0.0, 20.0]),
    ),
)


@settings(max_examples=50, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(segment, min_size=2, max_size=12), st.integers(1, 4), st.sampled_from(["strict", "auto"]))
def test_random_segments_build_or_fail_cleanly(segments, lanes, close):
    spec = CircuitSpec(name="Random", lanes=lanes, close=close, segments=segments)
    try:
        result = track.analyse(spec)
    except PaddockError:
        return
    if result.buildable:
        track.board_sheet(result.circuit)


def _assert_well_built(c) -> None:
    """Closed, simple (unless it declares crossings), and its units counted: units × unit within 2 % of the lap."""
    from shapely import LinearRing

    assert np.hypot(*(c.line.xy[-1] - c.line.xy[0])) < 1e-6
    assert c.spec.crossings or LinearRing(c.line.xy[:-1]).is_simple
    assert abs(c.units_count * c.unit - c.lap_length) <= 0.02 * c.lap_length + c.unit / 2


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(2, 7), st.floats(0.0, 0.4), st.floats(0, 6.28)), min_size=1, max_size=3),
    st.integers(12, 60),
    st.floats(1.0, 1000.0),
)
def test_random_smooth_point_clouds_build_closed_simple_and_counted(harmonics, n, size):
    """A smooth closed cloud (a wavy circle) adapted at defaults: built closed, simple, counted, its deviation
    reported — or refused with problems of the engine's kinds."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    r = 1 + sum(a * np.cos(k * t + ph) for k, a, ph in harmonics)
    points = np.column_stack((r * np.cos(t), r * np.sin(t))) * size
    spec = CircuitSpec(name="Cloud", points=points.tolist(), lane_width=10)
    result = track.analyse(spec, advice=False)
    if result.buildable:
        _assert_well_built(result.circuit)
        assert result.circuit.fidelity is not None and result.circuit.fidelity.max_pct < 25
    else:
        assert result.problems and {p.kind for p in result.problems} <= {
            "fold",
            "proximity",
            "fit",
            "crossing",
            "closure",
        }


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.floats(-1000, 1000), st.floats(-1000, 1000)), min_size=4, max_size=40),
    st.integers(20, 120),
)
def test_random_point_clouds_build_or_fail_cleanly(points, fit):
    """Any cloud, smoothed to a lap of ``fit`` units: an input error, or problems, or a well-built circuit."""
    try:
        spec = CircuitSpec(name="Cloud", points=points, fit=fit, smoothing=40.0)
        result = track.analyse(spec, advice=False)
    except PaddockError:
        return
    if result.buildable:
        _assert_well_built(result.circuit)
    else:
        assert result.problems


# ------------------------------------------------------------------------------------------- review fixes


def test_kerbs_are_red_white_blocks_on_the_track_edge(circuit):
    """Every kerb: an odd number (>= 3) of blocks, red at both ends, each at least KERB_MIN_BLOCK long along the
    track edge; everything drawn on the board's kerbs layer lies in the band just outside the edge (no stray
    strokes): per kerb, a white band, its red blocks and a red outline."""
    from shapely import Point

    from generator.scene import Polygon, Polyline
    from generator.track.circuit import KERB_MIN_BLOCK, KERB_W

    c = circuit
    items = list(track.draw_board(c).page.layers["kerbs"].items)
    for kb in c.kerbs:
        blocks = c.kerb_blocks(kb.s0, kb.s1, kb.side)
        assert len(blocks) >= 3 and len(blocks) % 2 == 1, kb
        assert blocks[0][0] == kb.s0 and blocks[-1][1] == kb.s1
        sign = 1 if kb.side == "left" else -1
        for a, b in blocks:
            assert LineString(c.offset_line(a, b, sign * c.half_width)).length >= KERB_MIN_BLOCK - 0.05, (kb, a, b)
        drawn, items = items[: 2 + (len(blocks) + 1) // 2], items[2 + (len(blocks) + 1) // 2 :]
        centre = LineString(c.offset_line(kb.s0 - 10, kb.s1 + 10, 0.0))
        reds = 0
        for item in drawn:
            pts = item.exterior if isinstance(item, Polygon) else item.points if isinstance(item, Polyline) else []
            assert pts, item
            for p in pts:
                d = centre.distance(Point(p))
                assert c.half_width - 0.05 <= d <= c.half_width + KERB_W + 0.05, (kb, p, d)
            reds += isinstance(item, Polygon) and item.style.fill == "#d62828"
        assert reds == (len(blocks) + 1) // 2
        assert drawn[0].style.fill == "#ffffff" and drawn[-1].style.fill is None
    assert not items  # nothing else on the layer


def test_short_gentle_corners_get_no_stub_kerb():
    """The Monte Carlo chicanes are short bends: each found kerb is a proper one, at least three blocks long."""
    from generator.track.circuit import KERB_MIN

    c = track.load(track.default_spec())
    for kb in c.kerbs:
        sign = 1 if kb.side == "left" else -1
        assert LineString(c.offset_line(kb.s0, kb.s1, sign * c.half_width)).length >= KERB_MIN


def test_every_label_reads_upright(circuit):
    """No text on any board is turned past a quarter turn (it would read upside down)."""
    from generator.scene import Text, walk

    for item in walk(track.board_sheet(circuit).page.items()):
        if isinstance(item, Text):
            assert -90.0 <= item.rotation <= 90.0, item


def test_tunnel_tags_do_not_cover_space_numbers():
    """A numbered space that also carries a tunnel tag prints both, apart, turned the same way."""
    from generator.scene import Text

    c = track.load(next(p for p in SPECS if p.stem == "formula-d-style"))
    page = track.board_sheet(c).page
    texts = [t for t in page.layers["labels"].items if isinstance(t, Text)]
    tags = [t for t in texts if re.fullmatch(r"T\d+[a-g]", t.text)]  # per lane: T1a, T1b
    nums = [t for t in texts if t.text.isdigit()]
    assert tags
    for tag in tags:
        for num in nums:
            assert math.hypot(tag.x - num.x, tag.y - num.y) >= 2.5, (tag, num)
    legend = " ".join(t.text for t in texts)
    assert "move on from T1a to T1a, T1b to T1b" in legend and "Tn = Tn" not in legend


def test_pit_min_roll_reaches_the_built_circuit(tmp_path):
    # the shipped specs set no min_roll (the rulebook gives no number): a spec that sets one as a house rule
    text = SPECS_BY_NAME["formula-d-style"].read_text(encoding="utf-8")
    house = tmp_path / "house.yaml"
    house.write_text(text.replace("garages: 4}", "garages: 4, min_roll: 4}"), encoding="utf-8")
    c = track.load(house)
    assert c.pit is not None and c.pit.min_roll == 4
    assert _check_json(house)["pit"]["min_roll"] == 4
    spec, _, _ = track.load_spec(track.default_spec())
    assert track.build(spec).pit.min_roll is None
    with pytest.raises(Exception, match="less than or equal to 30"):
        CircuitSpec.model_validate({**spec.model_dump(by_alias=True), "pit": {"from": 1, "to": 5, "min_roll": 31}})


def test_watch_rebuilds_on_change_and_survives_a_bad_edit(tmp_path):
    import os

    from generator.cli.track import Watcher
    from generator.command import Options
    from generator.pipeline import Output

    spec = tmp_path / "oval.yaml"
    good = next(p for p in SPECS if p.stem == "oval").read_text(encoding="utf-8")
    spec.write_text(good, encoding="utf-8")
    out = tmp_path / "out"
    said: list[str] = []
    w = Watcher(spec, Options(output=Output(out=out, formats=("svg",), quiet=True)), say=said.append)

    def touch(text: str, bump: int) -> None:
        spec.write_text(text, encoding="utf-8")
        st = spec.stat()
        os.utime(spec, ns=(st.st_atime_ns, st.st_mtime_ns + bump * 10**9))  # a new mtime, however coarse

    assert w.step() and w.builds == 1 and list(out.glob("*.svg"))
    first = next(out.glob("*.svg")).read_bytes()
    assert not w.step()  # nothing changed: no rebuild
    touch(good.replace("lanes: 2", "lanes: 99") if "lanes: 2" in good else "lanes: 99\n" + good, 1)
    assert w.step() and w.errors == 1 and w.builds == 1
    assert any("lanes" in s and str(spec) in s for s in said), said
    assert next(out.glob("*.svg")).read_bytes() == first  # the last good board is kept
    # any edit at all: nested too deep to read, not UTF-8, a folder's worth of nothing — each said, still watching
    for n, text in enumerate(("name: " + "[" * 5000 + "]" * 5000 + "\n", "\udcff", ""), start=2):
        spec.write_bytes(text.encode("utf-8", "surrogateescape"))
        st_ = spec.stat()
        os.utime(spec, ns=(st_.st_atime_ns, st_.st_mtime_ns + n * 10**9))
        assert w.step() and w.errors == n and w.builds == 1, said
        assert said[-1].startswith("paddock: ") and "still watching" in " ".join(said[-2:])
    touch(good, 9)
    assert w.step() and w.builds == 2
    # run() polls max_steps times and stops on Ctrl-C without raising
    naps: list[float] = []
    w.run(interval=0.01, max_steps=3, sleep=naps.append)
    assert naps == [0.01, 0.01] and said[-1] != "paddock: stopped watching"

    def interrupt(_):
        raise KeyboardInterrupt

    w.run(interval=0.01, max_steps=5, sleep=interrupt)
    assert said[-1] == "paddock: stopped watching"


def test_board_words_come_from_the_shared_legend_template():
    """Legend lines and labels are read from templates/board/legend.yaml, numbers filled in, ordinals right."""
    from generator.data import template
    from generator.scene import Text, walk

    words = template("board/legend.yaml")
    c = track.load(SPECS_BY_NAME["formula-d-style"])
    texts = {t.text for t in walk(track.draw_board(c).page.items()) if isinstance(t, Text)}
    garages = f"{c.pit.garages} garage{'' if c.pit.garages == 1 else 's'}"  # "1 garage", "10 garages"
    pit = {"garages": garages, "units": c.pit.units, "what": "spaces"}  # a per-lane board counts spaces
    assert words["legend"]["pit"].format(**pit) in texts  # no min_roll set: no roll claimed
    house = track.build(c.spec.model_copy(update={"pit": c.spec.pit.model_copy(update={"min_roll": 4})}))
    texts_house = {t.text for t in walk(track.draw_board(house).page.items()) if isinstance(t, Text)}
    assert words["legend"]["pit_roll"].format(**pit, roll=4) in texts_house
    assert "enter with a gear-die roll of 4 or more" in words["legend"]["pit_roll"].format(**pit, roll=4)
    assert words["legend"]["tunnel_lanes"] in texts
    assert {words["labels"]["start"], words["labels"]["podium"], words["labels"]["police"]} <= texts
    spec, _, _ = track.load_spec(SPECS_BY_NAME["oval"])
    oval = track.build(spec.model_copy(update={"action_every": 3}))
    texts = {t.text for t in walk(track.draw_board(oval).page.items()) if isinstance(t, Text)}
    assert "every 3rd unit: marked and numbered" in texts


def test_offset_points_is_offset_point_for_arrays():
    c = track.load(SPECS_BY_NAME["oval"])
    s = np.linspace(0, c.lap_length, 37, endpoint=False)
    d = np.linspace(-c.half_width, c.half_width, 37)
    assert np.allclose(c.offset_points(s, d), [c.offset_point(a, b) for a, b in zip(s, d, strict=True)], atol=1e-9)


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(3, 9), st.floats(0.1, 0.35), st.floats(0, 6.28)), min_size=1, max_size=3),
    st.integers(24, 80),
    st.sampled_from([(2, "a3"), (4, "a4")]),
)
def test_random_tight_point_clouds_build_or_give_advice_that_builds(harmonics, n, board):
    """Issue 15: a smooth closed cloud with tight features (high harmonics: hairpins, chicanes, parts close
    together) either builds with its deviation reported, or fails with advice, and every fix of that advice,
    followed, builds. Two lanes on A3 (the f1-dice board) nearly always build; four lanes on A4 seldom do, so
    both outcomes are exercised."""
    from generator.track.load import override

    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    r = 1 + sum(a * np.cos(k * t + ph) for k, a, ph in harmonics)
    points = np.column_stack((r * np.cos(t), r * np.sin(t))) * 300
    lanes, paper = board
    spec = CircuitSpec(name="Tight", points=points.tolist(), lane_width=10, lanes=lanes, paper=paper)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "keeps the real shape only loosely": news for a user, not here
        result = track.analyse(spec)
    if result.buildable:
        assert result.circuit.fidelity is not None and result.circuit.fidelity.max_mm >= 0
        return
    fixes = list(dict.fromkeys(f for p in result.problems for f in p.fixes))
    assert fixes, [str(p) for p in result.problems]
    for f in fixes:
        followed = track.analyse(override(result.spec, {f.field: f.value}), paper=f.paper, advice=False)
        assert followed.buildable, (f, [str(p) for p in followed.problems])


def test_a_bare_real_centre_line_gets_its_grid_on_a_straight():
    """A CSV names no start line: the line moves forward to the first straight that holds the grid (Silverstone's
    centre line starts between bends, where the slots would overlap), and says so."""
    from generator.track.grid import grid_shift, in_corner

    csv = SHARED / "Silverstone.csv"
    if not csv.is_file():
        pytest.skip("no ../shared/circuits/Silverstone.csv")
    spec, lines, path = track.load_spec(csv)
    result = track.analyse(spec, path, lines)
    c = result.circuit
    assert result.buildable and grid_shift(c) == 0
    assert any(str(c_).startswith("start line moved") for c_ in result.changes)
    assert c.grid_units and not any(in_corner(c, u) for u in c.grid_units)


def test_check_json_a_corner_over_the_start_line_ends_past_the_lap(tmp_path):
    """The convention for a corner that runs over the start line ('to' before 'from'): ``s_end_mm`` is past
    ``lap_mm`` — the corner ends ``s_end_mm − lap_mm`` after the line — so its start is before its end, as for
    every other corner (README, corner entry)."""
    text = (Path(__file__).resolve().parents[1] / "track_specs" / "oval.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "oval.yaml"
    spec.write_text(text + "corners:\n  - {from: 40, to: 2, stops: 1}\n", encoding="utf-8")
    data = _check_json(spec)
    assert data["buildable"], data["problems"]
    lap, units = data["lap_mm"], data["units"]
    u = lap / units
    (corner,) = data["corners"]
    assert corner["s_start_mm"] == pytest.approx(39 * u, abs=1.5) and corner["s_start_mm"] < lap
    assert corner["s_end_mm"] > lap and corner["s_end_mm"] - lap == pytest.approx(2 * u, abs=1.5)
    assert corner["s_end_mm"] - corner["s_start_mm"] == pytest.approx((units - 39 + 2) * u, abs=3)


def test_a_bare_csv_is_named_from_its_file_name_in_words(tmp_path):
    """A CSV's file name becomes the board's title: underscores, hyphens and CamelCase are words; capitals kept."""
    from generator.track.load import load_spec

    src = Path(__file__).parents[2] / "shared" / "circuits" / "IMS.csv"
    if not src.is_file():
        pytest.skip("no ../shared/circuits")
    data = src.read_bytes()
    for stem, name in (("BrandsHatch", "Brands Hatch"), ("red_bull-ring", "red bull ring"), ("IMS", "IMS")):
        (tmp_path / f"{stem}.csv").write_bytes(data)
        assert load_spec(tmp_path / f"{stem}.csv")[0].name == name
