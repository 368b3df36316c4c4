"""Corner, police and finish lines follow space edges: every space of the board is wholly on one side of each
line (measured on the drawn lines against the spaces' outlines)."""

from __future__ import annotations

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
