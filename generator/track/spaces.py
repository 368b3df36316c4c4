"""The spaces of a per-lane board and which space neighbours which — the contract between the circuit
builder (:func:`lane_graph` fills it) and everything that moves cars (Formula D corners, later simulation).

Conventions
- Lanes are numbered 0 … lanes-1 from the LEFT edge of the track to the right, looking in the race direction.
- ``index`` counts the spaces of one lane from the start/finish line, 0 first, in the race direction.
- ``s0``/``s1`` are where the space starts and ends, as arc length (mm) along the track's CENTRE line from the
  start/finish line, so spaces of different lanes can be compared; ``length`` is measured along the space's own
  lane centre.
- ``ahead`` is the next space in the same lane (the one after the last space is space 0 of that lane: the loop).
  ``diagonal`` are the spaces a car may move to diagonally forward in the neighbouring lane(s): for each
  neighbouring lane, the space of that lane whose centre-line span contains (or, failing that, first follows) the
  point :data:`LEVEL` of a unit past this space's end ``s1`` — so a neighbour whose edge lies that close to this
  space's end is level with it, and the move goes to the space starting there (diagonally forward), not to the one
  beside.
- Spaces under a tunnel are ``hidden``: they exist for geometry but cannot be stopped on; their numbers go on the
  far side (road-race rules).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
from shapely import Point as SPoint
from shapely import Polygon as SPoly

Point = tuple[float, float]

#: Space edges of neighbouring lanes this close (a fraction of a unit) are level: see ``diagonal`` above.
LEVEL = 0.2


@dataclass(frozen=True)
class Space:
    id: int  # index into LaneGraph.spaces
    lane: int
    index: int
    s0: float
    s1: float
    length: float
    polygon: tuple[Point, ...]  # outline on the board, mm
    center: Point
    ahead: int  # id of the next space in the same lane
    diagonal: tuple[int, ...] = ()
    hidden: bool = False


@dataclass
class LaneGraph:
    lanes: int
    spaces: list[Space] = field(default_factory=list)
    lap_length: float = 0.0  # centre-line length, mm

    def lane(self, lane: int) -> list[Space]:
        return [s for s in self.spaces if s.lane == lane]

    def count(self, lane: int) -> int:
        return sum(1 for s in self.spaces if s.lane == lane)

    def moves(self, space_id: int) -> tuple[int, ...]:
        """Every space a car on ``space_id`` may move to with one step forward."""
        s = self.spaces[space_id]
        return (s.ahead, *s.diagonal)


def lane_graph(c) -> LaneGraph:
    """The per-lane spaces of circuit ``c`` (a :class:`~generator.track.circuit.Circuit`): each lane cut into
    equal spaces of about one unit along its own centre; spaces under a tunnel's upper pass are hidden."""
    line = c.line
    g = LaneGraph(lanes=c.lanes, lap_length=c.lap_length)
    per_lane: list[list[tuple[float, float, float]]] = []
    for lane in range(c.lanes):
        d = c.lane_offset(lane)
        pts = line.offset(d)
        sig = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))))
        Li = float(sig[-1])
        n = max(1, round(Li / c.unit))
        bounds_sig = np.arange(n + 1) * Li / n
        bounds_s = np.interp(bounds_sig, sig, line.s)
        per_lane.append([(float(bounds_s[j]), float(bounds_s[j + 1]), Li / n) for j in range(n)])
    first_id = []
    nid = 0
    for spaces in per_lane:
        first_id.append(nid)
        nid += len(spaces)
    for lane, spaces in enumerate(per_lane):
        d = c.lane_offset(lane)
        hw = c.lane_width / 2
        n = len(spaces)
        for j, (s0, s1, length) in enumerate(spaces):
            poly = c.strip(s0, s1, d + hw, d - hw)
            sm = (s0 + s1) / 2
            ctr = c.offset_point(sm, d)
            diag = []
            for other in (lane - 1, lane + 1):
                if 0 <= other < c.lanes:
                    diag.append(first_id[other] + _containing(per_lane[other], s1 + LEVEL * c.unit, c.lap_length))
            g.spaces.append(
                Space(
                    id=first_id[lane] + j,
                    lane=lane,
                    index=j,
                    s0=s0,
                    s1=s1,
                    length=length,
                    polygon=tuple(map(tuple, np.round(poly, 4))),
                    center=(round(ctr[0], 4), round(ctr[1], 4)),
                    ahead=first_id[lane] + (j + 1) % n,
                    diagonal=tuple(diag),
                )
            )
    hidden = _under_tunnels(c, g)
    if hidden:
        g.spaces = [replace(sp, hidden=sp.id in hidden) for sp in g.spaces]
    return g


def _under_tunnels(c, g: LaneGraph) -> set[int]:
    """Ids of the spaces a tunnel's upper pass covers (more than 15 % of the space)."""
    hidden: set[int] = set()
    for cr in c.crossings:
        if cr.kind != "tunnel":
            continue
        cover = SPoly(c.strip(cr.s_upper - cr.reach, cr.s_upper + cr.reach, c.half_width, -c.half_width))
        for sp in g.spaces:
            if c.lap_distance(np.array((sp.s0 + sp.s1) / 2), cr.s_lower) > cr.reach + c.unit:
                continue
            poly = SPoly(sp.polygon)
            if poly.intersection(cover).area > 0.15 * poly.area:
                hidden.add(sp.id)
    return hidden


LANE_LETTERS = "abcdefg"  # a tunnel's tag per lane: T1a in the left lane, T1b in the next … (at most 7 lanes)


def tunnel_tag_spaces(c, cr) -> list[Space]:
    """The spaces either side of tunnel ``cr`` that carry its tag, lane by lane from the left: the last space
    before the lane's hidden ones, then the first after them."""
    out = []
    for lane in range(c.lanes):
        spaces = c.graph.lane(lane)
        hidden = [sp.index for sp in spaces if sp.hidden and c.lap_distance(np.array(sp.s0), cr.s_lower) < 3 * cr.reach]
        if hidden:
            out.append(spaces[(min(hidden) - 1) % len(spaces)])
            out.append(spaces[(max(hidden) + 1) % len(spaces)])
    return out


def tunnel_tags(c) -> dict[int, str]:
    """Per-lane boards: the tag each space either side of a tunnel carries, by space id. A car leaving a tagged
    space goes on to "the space with the same number" beyond the tunnel (road-race rules), in its own lane, so
    each lane's pair has its own tag: ``T{n}`` (n counts the circuit's crossings from 1) and the lane's letter."""
    if c.graph is None:
        return {}
    out: dict[int, str] = {}
    for n, cr in enumerate(c.crossings):
        if cr.kind != "tunnel":
            continue
        for sp in tunnel_tag_spaces(c, cr):
            out[sp.id] = f"T{n + 1}{LANE_LETTERS[sp.lane]}"
    return out


def numbered_spaces(c) -> frozenset[int]:
    """Per-lane boards: ids of the spaces whose number is printed — every ``action_every``-th space of each lane,
    but none hidden under a tunnel and none under a grid slot (the slot's own number stands there: pole "1" is
    not printed over a "50")."""
    if c.graph is None:
        return frozenset()
    slots = [SPoly(s.outline).buffer(1.0) for s in c.grid]
    every = c.spec.action_every
    return frozenset(
        sp.id
        for sp in c.graph.spaces
        if (sp.index + 1) % every == 0 and not sp.hidden and not any(g.contains(SPoint(sp.center)) for g in slots)
    )


def _containing(spaces, s: float, L: float) -> int:
    s = s % L
    for j, (a, b, _) in enumerate(spaces):
        if a - 1e-6 <= s < b - 1e-6:
            return j
    for j, (a, _, _) in enumerate(spaces):
        if a >= s:
            return j
    return 0


# ------------------------------------------------------------------------------------------- corners on spaces
#
# A corner on the board's own spaces (a :class:`LaneGraph`): its limits. (Formula D's long and short paths through
# them, and its stops, are the game's: ``generator/games/formula_d/corners.py``.)
#
# A game that rules every space as wholly inside or wholly outside a corner (Formula D) draws a corner's limits
# as **stepped lines along space edges**, one step per lane, and counts on exactly the spaces between those lines
# — the board shows the rule, nothing is hidden in the arithmetic.
#
# Limits
# - In each lane the **entry edge** is the edge between two spaces of that lane nearest to the corner's start on
#   the centre line (``s_start``), and the **exit edge** the one nearest to its end (``s_end``); both taken round
#   the lap, so a corner may straddle the start/finish line. A lane holds at least one corner space.
# - A lane's corner spaces are those between its entry and exit edges. Every other space of the lane is *before*
#   the corner (nearer its entry, going backwards) or *after* it (nearer its exit, going forwards).


@dataclass(frozen=True)
class CornerLimits:
    """A corner's spaces on the board, per lane: ``first[lane]``/``last[lane]`` are space ids; ``entry[lane]``/
    ``exit[lane]`` the centre-line arc lengths of the lane's entry and exit edges (``s0`` of its first corner
    space, ``s1`` of its last)."""

    first: tuple[int, ...]
    last: tuple[int, ...]
    entry: tuple[float, ...]
    exit: tuple[float, ...]
    spaces: frozenset[int]
    before: frozenset[int]  # every other space nearer the entry than the exit, lane by lane
    after: frozenset[int]


def _rel(x: float, start: float, lap: float) -> float:
    return (x - start) % lap if lap > 0 else x - start


def _gap(a: float, b: float, lap: float) -> float:
    d = abs(a - b) % lap if lap > 0 else abs(a - b)
    return min(d, lap - d) if lap > 0 else d


def nearest_edge(spaces: list[Space], s: float, lap: float) -> int:
    """Index (in the lane) of the space whose START edge is nearest to ``s``; ties go to the later edge."""
    best, pick = math.inf, 0
    for j, sp in enumerate(spaces):
        d = _gap(sp.s0, s, lap)
        if d < best - 1e-9 or (abs(d - best) <= 1e-9 and _rel(sp.s0, s, lap) < lap / 2):
            best, pick = d, j
    return pick


def corner_limits(graph: LaneGraph, s_start: float, s_end: float) -> CornerLimits:
    """The corner between ``s_start`` and ``s_end`` (centre line, round the lap) snapped to space edges, lane by
    lane: see the module's docstring."""
    lap = graph.lap_length
    first, last, entry, exit_, inside, before, after = [], [], [], [], set(), set(), set()
    for lane in range(graph.lanes):
        spaces = graph.lane(lane)
        n = len(spaces)
        a = nearest_edge(spaces, s_start, lap)
        b = nearest_edge(spaces, s_end, lap)
        k = (b - a) % n
        if k == 0:  # shorter than a space here (or the whole lap): the one space nearest the corner's middle
            mid = s_start + _rel(s_end, s_start, lap) / 2
            a = min(range(n), key=lambda j: _gap((spaces[j].s0 + _rel(spaces[j].s1, spaces[j].s0, lap) / 2), mid, lap))
            k = 1
        ids = [spaces[(a + i) % n].id for i in range(k)]
        inside.update(ids)
        rest = n - k
        for i in range(rest):
            sp = spaces[(a + k + i) % n]
            (after if i < (rest + 1) // 2 else before).add(sp.id)
        first.append(ids[0])
        last.append(ids[-1])
        entry.append(graph.spaces[ids[0]].s0)
        exit_.append(graph.spaces[ids[-1]].s1)
    return CornerLimits(
        tuple(first), tuple(last), tuple(entry), tuple(exit_), frozenset(inside), frozenset(before), frozenset(after)
    )


def corner_spaces(graph: LaneGraph, s_start: float, s_end: float) -> frozenset[int]:
    """Ids of the spaces between the corner's stepped entry and exit lines."""
    return corner_limits(graph, s_start, s_end).spaces
