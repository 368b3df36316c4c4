"""Long and short paths through a corner, counted on the board's own spaces (a :class:`LaneGraph`).

A Formula D corner carries two numbers: green, the spaces on the longest path through it, and red, the spaces on
the shortest. Players count them by hand on a printed board; here they are computed from the spaces and their
neighbours, so they always agree with the board as ruled.

Definitions (see ``generator/track/spaces.py`` for the graph's conventions)
- A space is *in* the corner when the centre-line midpoint of its span ``[s0, s1]`` lies in ``[s_start, s_end]``
  (taken round the lap, so a corner may straddle the start/finish line). Hidden (tunnel) spaces count zero.
- A path through the corner starts on a corner space a car can reach from outside the corner, moves one space at
  a time (``ahead`` or ``diagonal``) and ends on a corner space from which a move leaves the corner.
- **short** = the fewest corner spaces on such a path, lane changes allowed (a car cuts across to the inside).
- **long** = the most corner spaces on such a path that keeps its lane: the outside line. Zigzagging across lanes
  is not counted; a car that wants to stay longer in a corner brakes instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...errors import GeometryError
from ...track.spaces import LaneGraph, Space


@dataclass(frozen=True)
class CornerPaths:
    long: int
    short: int
    long_lane: int  # the lane of the longest path
    short_path: tuple[int, ...]  # space ids of one shortest path, in order
    spaces: frozenset[int]  # ids of every space in the corner


def _rel(x: float, start: float, lap: float) -> float:
    return (x - start) % lap if lap > 0 else x - start


def _mid(sp: Space, lap: float) -> float:
    length = (sp.s1 - sp.s0) % lap if lap > 0 else sp.s1 - sp.s0
    return sp.s0 + length / 2


def corner_spaces(graph: LaneGraph, s_start: float, s_end: float) -> frozenset[int]:
    """Ids of the spaces whose centre-line midpoint lies between ``s_start`` and ``s_end`` (round the lap)."""
    lap = graph.lap_length
    span = _rel(s_end, s_start, lap)
    return frozenset(sp.id for sp in graph.spaces if 0 <= _rel(_mid(sp, lap), s_start, lap) <= span)


def corner_paths(graph: LaneGraph, s_start: float, s_end: float) -> CornerPaths:
    """Count the longest and the shortest path through the corner between ``s_start`` and ``s_end``."""
    inside = corner_spaces(graph, s_start, s_end)
    if not inside:
        raise GeometryError(
            f"no space of the board lies in the corner from {s_start:.0f} to {s_end:.0f} mm",
            hint="the corner is shorter than one space: widen it or leave it out of the spec",
        )
    spaces = graph.spaces

    def weight(i: int) -> int:
        return 0 if spaces[i].hidden else 1

    entries = sorted(
        {t for sp in spaces if sp.id not in inside for t in graph.moves(sp.id) if t in inside},
    )
    if not entries:
        raise GeometryError("the corner cannot be entered: no space outside it leads into it")

    visiting: set[int] = set()

    @cache
    def shortest(i: int) -> tuple[int, tuple[int, ...]]:
        if i in visiting:
            raise GeometryError("the board's spaces loop back on themselves inside a corner")
        visiting.add(i)
        moves = graph.moves(i)
        best: tuple[int, tuple[int, ...]] | None = None
        if any(t not in inside for t in moves):
            best = (0, ())
        for t in moves:
            if t in inside:
                n, path = shortest(t)
                if best is None or n < best[0] or (n == best[0] and (t, *path) < best[1]):
                    best = (n, (t, *path))
        visiting.discard(i)
        if best is None:  # cannot happen on a loop, but never crash on a dead end
            best = (10**9, ())
        return best[0] + weight(i), best[1]

    n_best, path_best, entry_best = None, (), -1
    for e in entries:
        n, path = shortest(e)
        if n_best is None or n < n_best:
            n_best, path_best, entry_best = n, path, e
    short = n_best
    short_path = (entry_best, *path_best)

    def lane_run(i: int) -> int:
        n, seen = 0, set()
        while i in inside and i not in seen:
            seen.add(i)
            n += weight(i)
            i = spaces[i].ahead
        return n

    long, long_lane = max((lane_run(e), -spaces[e].lane) for e in entries)
    return CornerPaths(long=long, short=short, long_lane=-long_lane, short_path=short_path, spaces=inside)


def suggest_stops(radius_mm: float, short: int | None = None) -> int:
    """Stops for a corner whose spec gives none: from its centre-line radius (``templates/formula-d/sheets.yaml``),
    never more than the spaces on its shortest path (a car must be able to stop that many times inside)."""
    from .facts import sheets

    stops = 1
    for row in sheets()["stops_by_radius"]:
        if row["max_radius_mm"] is None or radius_mm <= row["max_radius_mm"]:
            stops = int(row["stops"])
            break
    if short is not None:
        stops = max(1, min(stops, short))
    return stops
