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
  neighbouring lane, the space of that lane whose centre-line span contains (or, failing that, first follows)
  this space's end ``s1``.
- Spaces under a tunnel are ``hidden``: they exist for geometry but cannot be stopped on; their numbers go on the
  far side (road-race rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

Point = tuple[float, float]


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
                    diag.append(first_id[other] + _containing(per_lane[other], s1, c.lap_length))
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
    from shapely import Polygon as SPoly

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


def _containing(spaces, s: float, L: float) -> int:
    s = s % L
    for j, (a, b, _) in enumerate(spaces):
        if a - 1e-6 <= s < b - 1e-6:
            return j
    for j, (a, _, _) in enumerate(spaces):
        if a >= s:
            return j
    return 0
