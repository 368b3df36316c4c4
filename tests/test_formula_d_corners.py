"""Long/short path counts through corners, on hand-built per-lane boards whose answers are worked out by hand."""

from __future__ import annotations

import math

import pytest

from generator.games.formula_d.corners import corner_paths, corner_spaces, suggest_stops
from generator.track.spaces import LaneGraph, Space

UNIT = 20.0  # mm: one space is about one 2 cm lane unit long, along its own lane
LANE_W = 20.0  # mm between lane centres


def board(segments: list[tuple[str, float, float]], lanes: int, turn: str = "left") -> LaneGraph:
    """A per-lane board from segments ``("straight", length, 0)`` / ``("arc", centre radius, degrees)``.

    Each lane of each segment is cut into ``round(lane length / UNIT)`` equal spaces, as the circuit builder
    rules them. Lanes count from the left: on a left turn lane 0 is the inside. ``s0``/``s1`` are centre-line
    positions; ``diagonal`` follows the LaneGraph convention (the neighbour-lane space containing ``s1``).
    """
    spans: list[list[tuple[float, float, float]]] = [[] for _ in range(lanes)]
    s = 0.0
    for kind, a, b in segments:
        centre_len = a if kind == "straight" else a * math.radians(b)
        for lane in range(lanes):
            offset = (lane - (lanes - 1) / 2) * LANE_W  # to the right of the centre line
            if kind == "straight":
                lane_len = a
            else:
                r = a + offset if turn == "left" else a - offset
                lane_len = r * math.radians(b)
            n = max(1, round(lane_len / UNIT))
            for k in range(n):
                end = s + centre_len if k + 1 == n else s + centre_len * (k + 1) / n  # exact joins
                spans[lane].append((s + centre_len * k / n, end, lane_len / n))
        s += centre_len
    spaces: list[Space] = []
    first: list[int] = []
    for lane in range(lanes):
        first.append(len(spaces))
        for index, (s0, s1, length) in enumerate(spans[lane]):
            spaces.append(Space(len(spaces), lane, index, s0, s1, length, (), (0.0, 0.0), ahead=-1))

    def containing(lane: int, x: float) -> int:
        for sp in spaces:
            if sp.lane == lane and sp.s0 <= x < sp.s1:
                return sp.id
        return first[lane]  # past the end: space 0 of the lane (the loop)

    out = []
    for sp in spaces:
        last = sp.index == len(spans[sp.lane]) - 1
        ahead = first[sp.lane] if last else sp.id + 1
        diagonal = tuple(containing(n, sp.s1) for n in (sp.lane - 1, sp.lane + 1) if 0 <= n < lanes)
        out.append(Space(sp.id, sp.lane, sp.index, sp.s0, sp.s1, sp.length, (), (0.0, 0.0), ahead, diagonal))
    return LaneGraph(lanes, out, s)


def corner_at(graph: LaneGraph, before: float, radius: float, degrees: float) -> tuple[float, float]:
    return before, before + radius * math.radians(degrees)


def test_90_degree_corner_two_lanes():
    # Centre radius 70 mm, lanes 20 mm apart: lane centres at r = 60 (inside) and 80 (outside).
    #   inside : 60·π/2 = 94.25 mm / 20 = 4.71 → 5 spaces
    #   outside: 80·π/2 = 125.66 mm / 20 = 6.28 → 6 spaces
    # Cutting across cannot beat the inside lane (its spaces are the longest along the centre line): short 5.
    g = board([("straight", 60, 0), ("arc", 70, 90), ("straight", 60, 0)], lanes=2)
    p = corner_paths(g, *corner_at(g, 60, 70, 90))
    assert (p.long, p.short) == (6, 5)
    assert p.long_lane == 1
    assert {g.spaces[i].lane for i in p.short_path} == {0}
    assert len(p.spaces) == 11


def test_90_degree_corner_three_lanes():
    # Centre radius 80 mm, three lanes: lane centres at r = 60, 80, 100.
    #   lane 0: 60·π/2 = 94.25 / 20 = 4.71 → 5;  lane 1: 125.66 / 20 = 6.28 → 6;  lane 2: 157.08 / 20 = 7.85 → 8
    # long = 8 (outside lane 2), short = 5 (inside lane 0).
    g = board([("straight", 60, 0), ("arc", 80, 90), ("straight", 60, 0)], lanes=3)
    p = corner_paths(g, *corner_at(g, 60, 80, 90))
    assert (p.long, p.short) == (8, 5)
    assert p.long_lane == 2


def test_right_hand_corner_mirrors_the_lanes():
    # The same 3-lane corner turning right: lane 0 (left) is now the outside, 8 spaces; lane 2 the inside, 5.
    g = board([("straight", 60, 0), ("arc", 80, 90), ("straight", 60, 0)], lanes=3, turn="right")
    p = corner_paths(g, *corner_at(g, 60, 80, 90))
    assert (p.long, p.short) == (8, 5)
    assert p.long_lane == 0
    assert {g.spaces[i].lane for i in p.short_path} == {2}


def test_hairpin_180_degrees():
    # Centre radius 50 mm, 180°, 2 lanes at r = 40 and 60:
    #   inside : 40·π = 125.66 / 20 = 6.28 → 6;  outside: 60·π = 188.50 / 20 = 9.42 → 9
    g = board([("straight", 40, 0), ("arc", 50, 180), ("straight", 40, 0)], lanes=2)
    p = corner_paths(g, *corner_at(g, 40, 50, 180))
    assert (p.long, p.short) == (9, 6)


def test_diagonal_moves_shorten_a_chicane():
    # Left 90° then right 90° (centre radius 70, 2 lanes). Each bend alone: inside 5, outside 6.
    # Taken as one corner, staying in a lane costs 5 + 6 = 11 either way (lane 0 is inside, then outside).
    # Crossing over where the bends meet: the 5 inside spaces of the first bend, then a diagonal move onto the
    # first space of lane 1 — the inside of the second bend — and its 4 others: 5 + 5 = 10.
    g_left = board([("straight", 60, 0), ("arc", 70, 90), ("straight", 60, 0)], lanes=2)
    assert corner_paths(g_left, 60, 60 + 70 * math.pi / 2).short == 5
    segs = [("straight", 60, 0), ("arc", 70, 90), ("arc", 70, 90), ("straight", 60, 0)]
    # Build the S with the second arc turning right: mirror lane radii for it by building lanes explicitly.
    g = _s_bend(segs)
    start, end = 60, 60 + 2 * 70 * math.pi / 2
    p = corner_paths(g, start, end)
    assert p.long == 11
    assert p.short == 10
    assert [g.spaces[i].lane for i in p.short_path] == [0] * 5 + [1] * 5


def _s_bend(segs):
    """Left-then-right bend: build it as a left board and a right board glued on the centre line."""
    lanes = 2
    left = board(segs[:2], lanes, "left")
    right = board(segs[2:], lanes, "right")
    shift = left.lap_length
    spaces: list[Space] = []
    per_lane: list[list[tuple[float, float, float]]] = [[] for _ in range(lanes)]
    for g, off in ((left, 0.0), (right, shift)):
        for sp in g.spaces:
            per_lane[sp.lane].append((sp.s0 + off, sp.s1 + off, sp.length))
    for lane in range(lanes):
        for index, (s0, s1, length) in enumerate(per_lane[lane]):
            spaces.append(Space(len(spaces), lane, index, s0, s1, length, (), (0.0, 0.0), -1))
    first = {lane: min(sp.id for sp in spaces if sp.lane == lane) for lane in range(lanes)}
    out = []
    for sp in spaces:
        last = sp.index == len(per_lane[sp.lane]) - 1
        ahead = first[sp.lane] if last else sp.id + 1
        diag = []
        for n in (sp.lane - 1, sp.lane + 1):
            if 0 <= n < lanes:
                hit = [o.id for o in spaces if o.lane == n and o.s0 <= sp.s1 < o.s1]
                diag.append(hit[0] if hit else first[n])
        out.append(Space(sp.id, sp.lane, sp.index, sp.s0, sp.s1, sp.length, (), (0.0, 0.0), ahead, tuple(diag)))
    return LaneGraph(lanes, out, left.lap_length + right.lap_length)


def test_corner_across_the_start_line():
    # The 2-lane corner of the first test, with the lap's start moved so the corner straddles s = 0.
    g = board([("straight", 60, 0), ("arc", 70, 90), ("straight", 60, 0)], lanes=2)
    lap = g.lap_length
    shift = 60 + 70 * math.pi / 4  # the start line now sits halfway round the corner
    moved = [
        Space(
            sp.id,
            sp.lane,
            sp.index,
            (sp.s0 - shift) % lap,
            (sp.s1 - shift) % lap or lap,
            sp.length,
            (),
            (0, 0),
            sp.ahead,
            sp.diagonal,
        )
        for sp in g.spaces
    ]
    g2 = LaneGraph(2, moved, lap)
    p = corner_paths(g2, (60 - shift) % lap, (60 + 70 * math.pi / 2 - shift) % lap)
    assert (p.long, p.short) == (6, 5)


def test_corner_spaces_by_midpoint():
    g = board([("straight", 60, 0), ("arc", 70, 90), ("straight", 60, 0)], lanes=2)
    ids = corner_spaces(g, 60, 60 + 70 * math.pi / 2)
    assert sorted(g.spaces[i].index for i in ids if g.spaces[i].lane == 0) == [3, 4, 5, 6, 7]


@pytest.mark.parametrize(
    ("radius", "short", "stops"), [(40, None, 3), (45, None, 3), (70, None, 2), (110, None, 2), (200, None, 1)]
)
def test_suggested_stops_follow_the_radius(radius, short, stops):
    assert suggest_stops(radius, short) == stops


def test_suggested_stops_never_exceed_the_shortest_path():
    assert suggest_stops(40, short=2) == 2
    assert suggest_stops(40, short=0) == 1
