"""Corner, police and finish lines follow space edges: every space of the board is wholly on one side of each
line (measured on the drawn lines against the spaces' outlines)."""

from __future__ import annotations

from pathlib import Path

import pytest
from shapely import LineString, Polygon

from generator.games.formula_d.overlay import corner_marks, load_circuit, police_edges, stepped_line
from generator.track import shipped

SPEC = next(p for p in shipped() if p.name == "formula-d-style.yaml")


@pytest.fixture(scope="module")
def circuit():
    return load_circuit(SPEC)


def _cuts(line, circuit) -> list[tuple[int, float]]:
    """(space id, length of the line inside the space's interior) for every space the line runs through."""
    geom = LineString(line)
    out = []
    for sp in circuit.graph.spaces:
        inner = Polygon(sp.polygon).buffer(-0.05)  # the interior, 0.05 mm in from the space's edges
        cut = geom.intersection(inner).length
        if cut > 1e-6:
            out.append((sp.id, cut))
    return out


def test_corner_lines_never_cross_a_space(circuit):
    marks = corner_marks(circuit)
    assert marks
    for m in marks:
        for edges in (m.paths.limits.entry, m.paths.limits.exit):
            line = stepped_line(circuit, edges)
            assert _cuts(line, circuit) == [], f"corner {m.index}"


def test_corner_spaces_lie_between_the_lines(circuit):
    """The spaces counted as the corner are exactly those from each lane's entry edge to its exit edge."""
    g = circuit.graph
    for m in corner_marks(circuit):
        lim = m.paths.limits
        for lane in range(g.lanes):
            run, i = [], lim.first[lane]
            while True:
                run.append(i)
                if i == lim.last[lane]:
                    break
                i = g.spaces[i].ahead
            assert {j for j in m.paths.spaces if g.spaces[j].lane == lane} == set(run)
            assert g.spaces[run[0]].s0 == lim.entry[lane] and g.spaces[run[-1]].s1 == lim.exit[lane]


def test_a_straight_line_would_have_cut_spaces(circuit):
    """The check above can fail: a line straight across the middle of a corner cuts spaces."""
    m = corner_marks(circuit)[1]
    edges = ((m.s_start + m.s_end) / 2,) * circuit.lanes
    assert _cuts(stepped_line(circuit, edges), circuit)


def test_police_line_never_crosses_a_space(circuit):
    edges = police_edges(circuit)
    assert edges is not None
    assert _cuts(stepped_line(circuit, edges), circuit) == []


def test_finish_line_is_a_space_edge_in_every_lane(circuit):
    """The board's start/finish line lies across the track at s = 0, where every lane's space 0 begins."""
    g = circuit.graph
    for lane in range(g.lanes):
        assert g.lane(lane)[0].s0 == 0.0
    assert _cuts(stepped_line(circuit, (0.0,) * circuit.lanes), circuit) == []


@pytest.fixture(scope="module")
def howling(tmp_path_factory):
    """The Corniche with an "engines are howling" zone from unit 48 across the start line to unit 3."""
    text = SPEC.read_text(encoding="utf-8").replace("police_line: 10", "police_line: 10\nhowling: [{from: 48, to: 3}]")
    path = tmp_path_factory.mktemp("howl") / "howl.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_howling_zone_shows_on_a_spec_that_declares_it(howling):
    from generator.games.formula_d.overlay import HOWL, LAYER, formula_d_board, howling_zones
    from generator.scene import Polygon as ScenePolygon
    from generator.scene import Text, walk

    circuit = load_circuit(howling)
    (zone,) = howling_zones(circuit)
    # across the start line: in every lane the zone's last space is one of the lane's first few
    for lane in range(circuit.lanes):
        assert circuit.graph.spaces[zone.last[lane]].index < 4
        assert circuit.graph.spaces[zone.first[lane]].index > circuit.graph.count(lane) - 4
    for edges in (zone.entry, zone.exit):
        assert _cuts(stepped_line(circuit, edges), circuit) == []
    page = formula_d_board(howling, road_race=True)
    items = list(walk(page.layer(LAYER).items))
    tinted = [i for i in items if isinstance(i, ScenePolygon) and i.style.fill == HOWL]
    spaces = [i for i in tinted if Polygon(i.exterior).area > 100]  # not the key's 3.2 mm swatch
    assert len(spaces) == len(zone.spaces) == len(tinted) - 1  # every space of the zone, tinted
    assert "ENGINES HOWLING" in {i.text for i in items if isinstance(i, Text)}
    plain = formula_d_board(SPEC, road_race=True)
    assert not [i for i in walk(plain.layer(LAYER).items) if isinstance(i, ScenePolygon) and i.style.fill == HOWL]


def test_tunnel_tags_are_distinct_per_lane():
    """A car leaving a tagged space goes to the space with the same tag beyond the tunnel, in its own lane: every
    lane has its own tag, printed twice (before and after the tunnel)."""
    from collections import Counter

    from generator.games.formula_d.overlay import formula_d_board
    from generator.scene import Text

    page = formula_d_board(SPEC)
    tags = Counter(t.text for t in page.layer("labels").items if isinstance(t, Text) and t.text.startswith("T1"))
    assert tags == {"T1a": 2, "T1b": 2}


OVER_THE_LINE = Path(__file__).parent / "formula_d" / "over-the-line.yaml"


def test_a_corner_over_the_start_line_works_end_to_end():
    """A spec corner from unit 38 over the line to unit 3 (``to`` before ``from``) on a square of 90° corners of
    centre radius 70 mm, 3 lanes of 20 mm; the centre line begins halfway round that corner.

    By hand: lane laps 674.2 / 799.8 / 925.5 mm → 34 / 40 / 46 spaces of 19.83 / 20.00 / 20.12 mm. The corner
    runs on the centre line from 37 units (739.8 mm) to 3 units (60.0 mm) of the next lap; a lane at offset d
    from the centre is d × 315° shorter there (the arcs before it), d × 45° shorter at the exit:
    lane 0 (r 50): entry 629.9 / 19.83 = 31.77 → edge 32 (2 spaces before the line), exit 44.3 / 19.83 = 2.23
    → edge 2: 4 spaces; lane 1: 37.00 → 37 (3), 3.00 → 3: 6 spaces; lane 2 (r 90): 849.8 / 20.12 = 42.24 → 42
    (4), 75.7 / 20.12 = 3.76 → 4: 8 spaces."""
    from generator.games.formula_d.overlay import LAYER, formula_d_board
    from generator.scene import Polyline, Text, walk

    c = load_circuit(OVER_THE_LINE)
    k = c.corners[0]
    assert (round(k.angle), k.direction, k.radius) == (90, "left", pytest.approx(70.0, abs=0.5))
    assert k.s_start < c.lap_length < k.s_end  # taken round the lap
    m = corner_marks(c)[0]
    g = c.graph
    per_lane = [sum(1 for i in m.paths.spaces if g.spaces[i].lane == lane) for lane in range(3)]
    assert per_lane == [4, 6, 8]
    assert (m.paths.long, m.paths.short, m.stops, m.stops_suggested) == (8, 4, 2, False)
    # in every lane the corner holds the lane's last spaces and its first ones
    for lane, before in enumerate((2, 3, 4)):
        idx = sorted(g.spaces[i].index for i in m.paths.spaces if g.spaces[i].lane == lane)
        n = g.count(lane)
        assert idx == list(range(per_lane[lane] - before)) + list(range(n - before, n))
    # the stepped lines follow space edges, and the board draws them
    lines = [stepped_line(c, e) for e in (m.paths.limits.entry, m.paths.limits.exit)]
    for line in lines:
        assert _cuts(line, c) == []
    page = formula_d_board(OVER_THE_LINE)
    items = list(walk(page.layer(LAYER).items))
    drawn = [i.points for i in items if isinstance(i, Polyline)]
    for edges in (m.paths.limits.entry, m.paths.limits.exit):
        assert stepped_line(c, edges, 1.2) in drawn
    assert "Over the Line" in {i.text for i in items if isinstance(i, Text)}


def test_the_board_itself_tags_tunnels_per_lane_and_numbers_no_space_under_the_grid(circuit):
    """Tags and numbering are decided on the circuit (spaces.tunnel_tags, spaces.numbered_spaces) and drawn by
    the board: the plain board, without the Formula D layer, already shows them."""
    from shapely import Point
    from shapely import Polygon as SPoly

    from generator.scene import Text
    from generator.track import draw_board
    from generator.track.spaces import numbered_spaces, tunnel_tags

    tags = tunnel_tags(circuit)
    g = circuit.graph
    assert sorted(tags.values()) == ["T1a", "T1a", "T1b", "T1b"]
    for i, tag in tags.items():  # each lane's pair: the lane's own letter
        assert tag[-1] == "ab"[g.spaces[i].lane]
    texts = [t for t in draw_board(circuit).page.layer("labels").items if isinstance(t, Text)]
    assert sorted(t.text for t in texts if t.text.startswith("T1")) == ["T1a", "T1a", "T1b", "T1b"]
    # the compact board's grid covers the 60th space of lane 1 and the 70th of lane 3
    circuit = load_circuit(next(p for p in shipped() if p.name == "formula-d-compact.yaml"))
    g = circuit.graph
    texts = [t for t in draw_board(circuit).page.layer("labels").items if isinstance(t, Text)]
    numbered = numbered_spaces(circuit)
    every = circuit.spec.action_every
    slots = [SPoly(s.outline).buffer(1.0) for s in circuit.grid]
    under = [sp for sp in g.spaces if (sp.index + 1) % every == 0 and any(s.contains(Point(sp.center)) for s in slots)]
    assert under, "the test needs a numbered space under the grid"
    assert not numbered & {sp.id for sp in under}
    at = {(round(t.x, 3), round(t.y, 3)): t.text for t in texts if t.text.isdigit()}
    for i in numbered:  # every numbered space carries its number at its centre …
        sp = g.spaces[i]
        assert at[round(sp.center[0], 3), round(sp.center[1], 3)] == str(sp.index + 1)
    for (x, y), _ in at.items():  # … and no number of the labels layer sits in a grid slot
        assert not any(s.contains(Point(x, y)) for s in slots)
