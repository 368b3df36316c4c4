"""Long (green) and short (red) paths counted on real boards, against counts worked out by hand.

Each board is built by the circuit engine from segments, so the counts run on the board's own spaces
(``LaneGraph``). By hand: a lane at offset d from the centre line has a lap of (straights + Σ arc radius ± d ×
angle); it is cut into n = round(lap / unit) equal spaces of q = lap / n. A corner lies from x0 to x1 along that
lane; its entry and exit lines are the space edges nearest to x0 and x1, so the lane holds
round(x1 / q) − round(x0 / q) corner spaces. Every x / q below is at least 0.2 of a space from a half, so the
edges are not in doubt. Lanes count from the left, so on a left-hand corner lane 0 is the inside.
"""

from __future__ import annotations

import math

import pytest

from generator.games.formula_d.corners import corner_paths, plausible_short
from generator.track import build
from generator.track.model import CircuitSpec


def _arc(r, a, turn="left"):
    return {"arc": {"radius": r, "angle": a, "turn": turn}}


def _circuit(segments, lanes, lane_width=20, unit=20, paper="a2", **extra):
    spec = {
        "name": "hand count",
        "game": "formula-d",
        "lanes": lanes,
        "lane_width": lane_width,
        "unit": unit,
        "paper": paper,
        "segments": segments,
        "grid": 0,
        "kerbs": "none",
        "podium": False,
        **extra,
    }
    return build(CircuitSpec.model_validate(spec))


def _square(side, r):
    """Four 90° left corners of centre radius r, straights of ``side``; the start halfway along a straight."""
    segs = [{"straight": side / 2}]
    for i in range(4):
        segs += [_arc(r, 90), {"straight": side if i < 3 else side / 2}]
    return segs


def _stadium(straight, r):
    """Two 180° left corners; the start in the middle of a straight of 2 × ``straight``."""
    return [{"straight": straight}, _arc(r, 180), {"straight": 2 * straight}, _arc(r, 180), {"straight": straight}]


def _per_lane(c, paths):
    return [sum(1 for i in paths.spaces if c.graph.spaces[i].lane == lane) for lane in range(c.lanes)]


def _first(c):
    k = c.corners[0]
    return corner_paths(c.graph, k.s_start, k.s_end)


def test_90_degrees_two_lanes():
    # centre radius 55, straights 90; lane centres at r = 45 and 65
    # lane 0: lap 642.7 → 32 × 20.09; corner 45.0–115.7 = 2.24–5.76 spaces → 4
    # lane 1: lap 768.4 → 38 × 20.22; corner 45.0–147.1 = 2.23–7.27 spaces → 5
    c = _circuit(_square(90, 55), 2)
    p = _first(c)
    assert _per_lane(c, p) == [4, 5]
    assert (p.long, p.short, p.long_lane) == (5, 4, 1)


def test_90_degrees_three_lanes():
    # centre radius 70; lane centres at r = 50, 70, 90
    # lane 0: lap 674.2 → 34 × 19.83; corner 45.0–123.5 = 2.27–6.23 spaces → 4
    # lane 1: lap 799.8 → 40 × 20.00; corner 45.0–155.0 = 2.25–7.75 spaces → 6
    # lane 2: lap 925.5 → 46 × 20.12; corner 45.0–186.4 = 2.24–9.26 spaces → 7
    c = _circuit(_square(90, 70), 3)
    p = _first(c)
    assert _per_lane(c, p) == [4, 6, 7]
    assert (p.long, p.short, p.long_lane) == (7, 4, 2)
    assert {c.graph.spaces[i].lane for i in p.short_path} == {0}


def test_180_degrees_two_lanes():
    # centre radius 55; lanes at r = 45 and 65
    # lane 0: lap 602.7 → 30 × 20.09; corner 80.0–221.4 = 3.98–11.02 spaces → 7
    # lane 1: lap 728.4 → 36 × 20.23; corner 80.0–284.2 = 3.95–14.05 spaces → 10
    c = _circuit(_stadium(80, 55), 2)
    p = _first(c)
    assert _per_lane(c, p) == [7, 10]
    assert (p.long, p.short) == (10, 7)


def test_180_degrees_three_lanes():
    # centre radius 70; lanes at r = 50, 70, 90
    # lane 0: lap 634.2 → 32 × 19.82; corner 80.0–237.1 = 4.04–11.96 spaces → 8
    # lane 1: lap 759.8 → 38 × 20.00; corner 80.0–299.9 = 4.00–15.00 spaces → 11
    # lane 2: lap 885.5 → 44 × 20.12; corner 80.0–362.7 = 3.98–18.02 spaces → 14
    c = _circuit(_stadium(80, 70), 3)
    p = _first(c)
    assert _per_lane(c, p) == [8, 11, 14]
    assert (p.long, p.short) == (14, 8)


def test_hairpin_two_lanes():
    # centre radius 28: the inside lane turns on r = 18
    # lane 0: lap 433.1 → 22 × 19.69; corner 80.0–136.5 = 4.06–6.94 spaces → 3
    # lane 1: lap 558.8 → 28 × 19.96; corner 80.0–199.4 = 4.01–9.99 spaces → 6
    c = _circuit(_stadium(80, 28), 2)
    p = _first(c)
    assert _per_lane(c, p) == [3, 6]
    assert (p.long, p.short) == (6, 3)


def test_hairpin_three_lanes_of_the_default_size():
    # lanes 16 mm, spaces about 24 mm (the Formula D default); centre radius 30, lanes at r = 14, 30, 46
    # lane 0: lap 568.0 → 24 × 23.67; corner 120.0–164.0 = 5.07–6.93 spaces → 2
    # lane 1: lap 668.5 → 28 × 23.87; corner 120.0–214.2 = 5.03–8.97 spaces → 4
    # lane 2: lap 769.0 → 32 × 24.03; corner 120.0–264.5 = 4.99–11.01 spaces → 6
    c = _circuit(_stadium(120, 30), 3, lane_width=16, unit=24)
    p = _first(c)
    assert _per_lane(c, p) == [2, 4, 6]
    assert (p.long, p.short) == (6, 2)


def _corniche():
    """Right 180° (r 40), a long straight, a left 270° loop (r 80) passing under itself, right 90° (r 45)."""
    return [
        {"straight": 12.7},
        _arc(40, 180, "right"),
        {"straight": 203.4},
        _arc(80, 270),
        {"straight": 115},
        _arc(45, 90, "right"),
        {"straight": 65.6},
    ]


@pytest.mark.parametrize(
    ("lanes", "lane_width", "unit", "counts"),
    [
        # lane 0: lap 970.0 → 46 × 21.09; corner 373.2–703.0 = 17.70–33.34 spaces → 15
        # lane 1: lap 970.0 → 46 × 21.09; corner 310.3–734.5 = 14.72–34.83 spaces → 20
        (2, 20, 21, [15, 20]),
        # lane 0: lap 970.0 → 49 × 19.80; corner 379.5–699.9 = 19.17–35.35 spaces → 16
        # lane 1: lap 970.0 → 49 × 19.80; corner 341.8–718.8 = 17.26–36.31 spaces → 19
        # lane 2: lap 970.0 → 49 × 19.80; corner 304.1–737.6 = 15.36–37.26 spaces → 22
        (3, 12, 20, [16, 19, 22]),
    ],
)
def test_270_degree_loop(lanes, lane_width, unit, counts):
    c = _circuit(_corniche(), lanes, lane_width, unit, crossings=[{"kind": "tunnel"}])
    loop = next(k for k in c.corners if k.angle > 260)
    p = corner_paths(c.graph, loop.s_start, loop.s_end)
    assert _per_lane(c, p) == counts
    assert (p.long, p.short) == (max(counts), min(counts))


def test_corner_across_the_start_line():
    # The start line halfway round a 180° corner (centre radius 70, 2 lanes at r = 60 and 80): the corner runs
    # from the last quarter turn of the lap to the first.
    # lane 0: lap 697.0 → 35 × 19.91; corner 602.7–791.2 (past the lap) = 30.27–39.73 spaces → 10
    # lane 1: lap 822.7 → 41 × 20.06; corner 697.0–948.3 (past the lap) = 34.74–47.26 spaces → 12
    segs = [_arc(70, 90), {"straight": 160}, _arc(70, 180), {"straight": 160}, _arc(70, 90)]
    c = _circuit(segs, 2)
    quarter = 70 * math.pi / 2
    p = corner_paths(c.graph, c.lap_length - quarter, quarter)
    assert _per_lane(c, p) == [10, 12]
    assert (p.long, p.short) == (12, 10)
    # the lines lie either side of the start: lane 0 enters at its space 30 and leaves at the end of space 4
    lane0 = c.graph.lane(0)
    assert p.limits.first[0] == lane0[30].id and p.limits.last[0] == lane0[4].id


def test_s_bend_short_path_crosses_over():
    # Left 90° then right 90° (centre radius 65, 2 lanes at r = 55 and 75), counted as one corner.
    # Keeping a lane: lane 0: lap 1604.0 → 80 × 20.05; corner 180.0–384.2 = 8.98–19.16 → 10
    #                 lane 1: lap 1729.6 → 86 × 20.11; corner 180.0–384.2 = 8.95–19.10 → 10
    # Cutting across: the 4 spaces of lane 0 wholly in the left bend (its inside), then diagonally onto lane 1's
    # space that straddles the join of the bends, then lane 1's 4 spaces wholly in the right bend (its inside):
    # 4 + 1 + 4 = 9.
    a, r = 180, 65
    segs = [
        {"straight": a},
        _arc(r, 90),
        _arc(r, 90, "right"),
        {"straight": a},
        _arc(r, 180),
        {"straight": 2 * a + 2 * r},
        _arc(2 * r, 180),
    ]
    c = _circuit(segs, 2, paper="a1", close="auto")
    p = corner_paths(c.graph, a, a + r * math.pi)
    assert _per_lane(c, p) == [10, 10]
    assert (p.long, p.short) == (10, 9)
    lanes = [c.graph.spaces[i].lane for i in p.short_path]
    assert lanes[0] == 0 and lanes[-1] == 1 and lanes == sorted(lanes)


def test_no_step_back_across_the_entry_line():
    """A diagonal move from a corner space onto a space before the entry line is not a way out of the corner:
    the short path never counts fewer spaces than the inside lane holds on a plain corner."""
    for segs, lanes in ((_square(90, 70), 3), (_stadium(80, 70), 3), (_stadium(80, 55), 2)):
        c = _circuit(segs, lanes)
        for k in c.corners:
            p = corner_paths(c.graph, k.s_start, k.s_end)
            assert p.short == min(_per_lane(c, p))
            assert plausible_short(p, c.graph) is None


def test_check_lists_undeclared_bends_and_implausible_corners():
    import warnings

    from generator.games.formula_d.corners import corner_notes

    segs = _square(90, 70)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = _circuit(segs, 3, corners=[{"from": 3, "to": 8, "stops": 1}])
    notes = corner_notes(c)
    # the three corners left out are listed, by their units; the declared one is fine
    assert sum("bend at unit" in n and "not among the declared corners" in n for n in notes) == 3
    # a corner of two units asking three stops: its shortest path has only two spaces
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c2 = _circuit(segs, 3, corners=[{"from": 3, "to": 4, "stops": 3}])
    notes = corner_notes(c2)
    assert "corner 1: 3 stops but its shortest path has 2 space(s)" in notes
    assert sum("not among the declared corners" in n for n in notes) == 3  # the first bend is declared, in part


def test_check_names_grid_slots_inside_a_corner():
    import warnings

    from generator.games.formula_d.corners import corner_notes

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # the start 45 mm after a corner: two rows of the grid fit, the third is in the corner
        ok = _circuit(_square(90, 70), 3, grid=6)
        c = _circuit(_square(90, 70), 3, grid=9)
    assert not [n for n in corner_notes(ok) if "grid slot" in n]
    (note,) = [n for n in corner_notes(c) if "grid slot" in n]
    assert note.startswith("corner 4: grid slot(s) 7, 8, 9 lie in the corner")


def test_the_notes_reach_the_engine_through_the_games_hook():
    """The circuit engine says a board's notes only through the hook its caller passes: Formula D's, found by the
    spec's game (``games.board_notes``), as one warning each for a board built without a problem."""
    import warnings
    from dataclasses import replace

    from generator import games
    from generator.games.formula_d.corners import corner_notes

    spec = CircuitSpec.model_validate(
        {
            "name": "hand count",
            "game": "formula-d",
            "lanes": 3,
            "lane_width": 20,
            "unit": 20,
            "paper": "a2",
            "segments": _square(90, 70),
            "grid": 0,
            "kerbs": "none",
            "podium": False,
            "corners": [{"from": 3, "to": 4, "stops": 3}],
        }
    )
    with warnings.catch_warnings(record=True) as quiet:
        warnings.simplefilter("always")
        c = build(spec)
    assert not quiet  # no hook, no notes: the engine knows no game's rules
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        build(spec, notes=games.board_notes)
    notes = corner_notes(c)
    assert games.board_notes(c) == notes and "corner 1: 3 stops but its shortest path has 2 space(s)" in notes
    assert [str(w.message) for w in said] == [f"hand count: {n}" for n in notes]
    assert games.board_notes(replace(c, spec=c.spec.model_copy(update={"game": "f1-dice"}))) == []  # no hook
