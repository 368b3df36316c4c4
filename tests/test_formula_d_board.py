"""The Formula D layer on real per-lane boards built by the circuit engine."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from generator.games.formula_d.overlay import LAYER, corner_marks, formula_d_board, load_circuit, overlay
from generator.scene import Polygon, Polyline, Text, walk

FIXTURES = Path(__file__).parent / "formula_d"


def lane_bounds(arc_mm: float, space_mm: float) -> set[int]:
    """A lane's spaces in a corner: its arc over its space length, give or take the one space that straddles each
    end (the board rules spaces over the whole lap, so they need not start where the corner starts)."""
    q = arc_mm / space_mm
    return {math.floor(q), math.ceil(q)}


@pytest.mark.parametrize(
    ("lanes", "radius", "inside", "outside"),
    [
        # 2 lanes, centre radius 70: lane centres at r = 60 and 80 mm.
        #   inside 60·π/2 = 94.25 mm ≈ 4.7 spaces → 4 or 5;  outside 80·π/2 = 125.66 mm ≈ 6.3 → 6 or 7
        (2, 70, 60, 80),
        # 3 lanes, centre radius 80: lane centres at r = 60, 80, 100 mm.
        #   inside 94.25 mm → 4 or 5;  outside 100·π/2 = 157.08 mm ≈ 7.9 → 7 or 8
        (3, 80, 60, 100),
    ],
)
def test_real_board_corners_count_what_the_geometry_says(lanes, radius, inside, outside):
    circuit = load_circuit(FIXTURES / f"square-{lanes}-lanes.yaml")
    assert circuit.graph is not None and circuit.graph.lanes == lanes
    marks = corner_marks(circuit)
    assert len(marks) == 4
    g = circuit.graph
    for m in marks:
        c = circuit.corners[m.index - 1]
        assert c.radius == pytest.approx(radius, rel=0.01)
        inner_len = g.lane(0)[0].length  # a left turn: lane 0 is the inside
        outer_len = g.lane(lanes - 1)[0].length
        assert m.paths.short in lane_bounds(inside * math.pi / 2, inner_len)
        assert m.paths.long in lane_bounds(outside * math.pi / 2, outer_len)
        assert m.paths.long_lane == lanes - 1
        assert m.stops_suggested and 1 <= m.stops <= m.paths.short


def test_overlay_draws_lines_flags_and_numbers():
    page = formula_d_board(FIXTURES / "square-2-lanes.yaml", n_cars=3, pit_roll=7)
    circuit = load_circuit(FIXTURES / "square-2-lanes.yaml")
    marks = corner_marks(circuit)
    items = list(walk(page.layer(LAYER).items))
    # entry and exit lines: two strokes each (white under black), stepped across the whole track: they start
    # and end 1.2 mm past its edges
    across = [i for i in items if isinstance(i, Polyline) and i.style.stroke == "#1a1a1a" and i.style.width == 0.7]
    assert len(across) == 2 * len(marks)
    for line in across:
        for x, y in (line.points[0], line.points[-1]):
            d = min(math.hypot(x - px, y - py) for px, py in circuit.line.xy)
            assert d == pytest.approx(circuit.half_width + 1.2, abs=0.3)
    texts = [i.text for i in items if isinstance(i, Text)]
    for m in marks:
        assert texts.count(str(m.paths.long)) >= 1 and texts.count(str(m.paths.short)) >= 1
    flag_fills = ("#f6c915", "#fbe9a0")  # stops from the spec; stops Paddock suggests
    flags = [i for i in items if isinstance(i, Polygon) and i.style.fill in flag_fills and i.style.width == 0.3]
    assert len(flags) == len(marks)
    assert "7" in texts and "MIN. ROLL TO ENTER THE PIT" in texts


def test_overlay_labels_stay_on_the_paper_and_off_the_track():
    from shapely import LineString, Point

    circuit = load_circuit(FIXTURES / "square-2-lanes.yaml")
    page = formula_d_board(FIXTURES / "square-2-lanes.yaml")
    track = LineString(circuit.line.xy).buffer(circuit.half_width + 3.0)
    x, y, w, h = page.content_box
    for item in walk(page.layer(LAYER).items):
        if isinstance(item, Text):
            assert x <= item.x <= x + w and y <= item.y <= y + h
            assert not track.contains(Point(item.x, item.y)), item.text


def test_board_is_deterministic():
    from generator import writers
    from generator.scene import Document

    blobs = [writers.render(Document([formula_d_board(FIXTURES / "square-3-lanes.yaml")]), "pdf")[0] for _ in range(2)]
    assert blobs[0] == blobs[1]


def test_corners_command_prints_the_counts(capsys):
    import json

    from generator.cli import main

    with pytest.raises(SystemExit) as ex:
        main(["corners", str(FIXTURES / "square-3-lanes.yaml"), "--json"])
    assert ex.value.code == 0
    data = json.loads(capsys.readouterr().out)
    marks = corner_marks(load_circuit(FIXTURES / "square-3-lanes.yaml"))
    assert [(c["long"], c["short"]) for c in data["corners"]] == [(m.paths.long, m.paths.short) for m in marks]


def test_pack_cli_with_a_players_file(tmp_path):
    from conftest import pdf_text

    from generator.cli import main

    with pytest.raises(SystemExit) as ex:
        main(["pack", "formula-d", "--players-file", str(FIXTURES / "players.yaml"), "--track",
              str(FIXTURES / "square-2-lanes.yaml"), "-o", str(tmp_path), "-f", "pdf", "-q"])  # fmt: skip
    assert ex.value.code == 0
    text = pdf_text(tmp_path / "formula-d" / "formula-d-print.pdf")
    for name in ("Ann", "Béla", "Csaba"):
        assert name in text
    assert "MIN. ROLL TO ENTER THE PIT" in text


def test_corners_json_entries_are_check_json_entries_plus_the_counts(capsys):
    """`corners --json` and `check --json` give a corner with the same keys and values; corners adds the stops it
    uses, the two path counts and the spaces per lane."""
    import json

    from generator.cli import main

    spec = FIXTURES / "square-3-lanes.yaml"
    answers = []
    for command in ("check", "corners"):
        with pytest.raises(SystemExit) as ex:
            main([command, str(spec), "--json"])
        assert ex.value.code == 0
        answers.append(json.loads(capsys.readouterr().out))
    check, data = answers
    assert (data["name"], data["file"], data["lanes"]) == (check["name"], check["file"], check["lanes"])
    assert len(data["corners"]) == len(check["corners"]) == 4
    for mine, theirs in zip(data["corners"], check["corners"], strict=True):
        assert set(mine) == set(theirs) | {
            "stops_suggested",
            "long",
            "short",
            "spaces_per_lane",
            "real_radius_m",
            "from",
            "to",
        }
        same = {k: v for k, v in theirs.items() if k != "stops"}
        assert {k: v for k, v in mine.items() if k in same} == same
        assert theirs["stops"] is None and mine["stops_suggested"] and mine["stops"] >= 1


def test_overlay_labels_go_in_the_boards_free_space():
    """The overlay is handed the board's free paper: its labels keep off the track and off every label the
    board placed (title, legend, numbers, start), without re-deriving them from the page."""
    from generator import track

    circuit = load_circuit(FIXTURES / "square-2-lanes.yaml")
    board = track.draw_board(circuit)
    boards = list(board.free.taken)
    assert boards  # the board took room for its own labels
    marks = corner_marks(circuit)
    overlay(board, circuit, marks, pit_roll=5)
    mine = board.free.taken[len(boards) :]
    assert len(mine) == len(marks) + 2  # a flag per corner, the pit mark, the key
    for g in mine:
        assert board.free.box.contains(g) and not board.free.blocked.intersects(g)
        assert not any(g.intersects(t) for t in boards)


def test_corners_table_names_each_corner_as_the_board_does(capsys):
    """A player matches the table to the board by name, not by counting corners."""
    from generator.cli import main

    with pytest.raises(SystemExit) as ex:
        main(["corners"])  # the default board, whose corners are named
    assert ex.value.code == 0
    out = capsys.readouterr().out
    names = [m.name for m in corner_marks(load_circuit(None)) if m.name]
    assert names and all(name in out for name in names)


def test_numbered_spaces_stand_apart_in_greyscale_and_from_the_corner_flags():
    """Every 10th space of a lane is tinted to count moves by: the tint must survive a black-and-white printer
    (measured on the rendered page, against the plain spaces) and must not be the corners' yellow flag."""
    import io

    import numpy as np
    from PIL import Image, ImageDraw

    from generator.scene import Document
    from generator.track import board as board_mod
    from generator.track.spaces import numbered_spaces
    from generator.writers import render

    circuit = load_circuit(FIXTURES / "square-2-lanes.yaml")
    page = formula_d_board(FIXTURES / "square-2-lanes.yaml", n_cars=3)
    dpi = 50
    grey = Image.open(io.BytesIO(render(Document([page]), "png", dpi=dpi)[0])).convert("L")
    a, k = np.asarray(grey, float), dpi / 25.4

    def mean(sp) -> float:
        from shapely import Polygon as SPoly

        inner = SPoly(sp.polygon).buffer(-2.0)  # clear of the lines round the space and its number
        mask = Image.new("L", grey.size, 0)
        ImageDraw.Draw(mask).polygon([(x * k, y * k) for x, y in inner.exterior.coords], fill=255)
        return float(np.median(a[np.asarray(mask) > 0]))

    numbered = numbered_spaces(circuit)
    spaces = [sp for sp in circuit.graph.spaces if not sp.hidden and sp.id not in circuit.danger_spaces]
    tinted = [mean(sp) for sp in spaces if sp.id in numbered]
    plain = [mean(sp) for sp in spaces if sp.id not in numbered][:20]
    assert tinted and plain
    assert max(tinted) <= 0.85 * np.median(plain)
    flags = {i.style.fill for i in walk(page.layer(LAYER).items) if isinstance(i, Polygon) and i.style.fill}
    assert board_mod.COUNTED not in flags
