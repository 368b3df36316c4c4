"""Formula D's corners on the board's own spaces: the long (green) and short (red) paths through a corner's stepped
limits (the limits themselves are the circuit engine's geometry, :func:`generator.track.spaces.corner_limits`), the
stops Paddock suggests when a spec gives none, and the notes a designer of a Formula D board gets
(:func:`corner_notes`: the game's ``board_notes`` hook).

Paths (the moves are the :class:`~generator.track.spaces.LaneGraph`'s: one space ``ahead`` or one ``diagonal``ly
forward)
- A path **enters** across the entry line: its first space is a corner space reached by one move from a space
  *before* the corner. It moves forward or diagonally forward, never onto a space *before* the corner (that would
  be going back across the entry line), and it **leaves** across the exit line: its last space has a move onto a
  space *after* the corner.
- **short** (red) = the fewest corner spaces on a path; lane changes allowed (a car cuts to the inside).
- **long** (green) = the most corner spaces on a path that keeps its lane: the outside line. Zigzagging across
  lanes is not counted; a car that wants to stay longer in a corner brakes instead.
- Hidden (tunnel) spaces count zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...errors import GeometryError
from ...track.spaces import (  # noqa: F401  (the corner geometry lives with the spaces; Formula D's names)
    CornerLimits,
    LaneGraph,
    corner_limits,
    corner_spaces,
    nearest_edge,
)


@dataclass(frozen=True)
class CornerPaths:
    """A corner's long (green) and short (red) path, counted in spaces (see the rules above)."""

    long: int
    short: int
    long_lane: int  # the lane of the longest path
    short_path: tuple[int, ...]  # space ids of one shortest path, in order
    spaces: frozenset[int]  # ids of every space in the corner
    limits: CornerLimits | None = None


def corner_paths(graph: LaneGraph, s_start: float, s_end: float) -> CornerPaths:
    """Count the longest and the shortest path through the corner between ``s_start`` and ``s_end``."""
    lim = corner_limits(graph, s_start, s_end)
    inside, before, after = lim.spaces, lim.before, lim.after
    spaces = graph.spaces

    def weight(i: int) -> int:
        return 0 if spaces[i].hidden else 1

    entries = sorted({t for b in before for t in graph.moves(b) if t in inside})
    if not entries:
        raise GeometryError("the corner cannot be entered: no space before it leads into it")

    visiting: set[int] = set()

    @cache
    def shortest(i: int) -> tuple[int, tuple[int, ...]]:
        """Fewest corner spaces from ``i`` (counted) to leaving the corner; the path after ``i``."""
        if i in visiting:
            raise GeometryError("the board's spaces loop back on themselves inside a corner")
        visiting.add(i)
        moves = graph.moves(i)
        best: tuple[int, tuple[int, ...]] | None = None
        if any(t in after for t in moves):
            best = (0, ())
        for t in moves:
            if t in inside:
                n, path = shortest(t)
                if best is None or n < best[0] or (n == best[0] and (t, *path) < best[1]):
                    best = (n, (t, *path))
        visiting.discard(i)
        if best is None:  # a dead end (every move goes back before the entry): no path from here
            best = (10**9, ())
        return best[0] + weight(i), best[1]

    n_best, path_best, entry_best = None, (), -1
    for e in entries:
        n, path = shortest(e)
        if n_best is None or n < n_best:
            n_best, path_best, entry_best = n, path, e
    if n_best is None or n_best >= 10**9:
        raise GeometryError("no path leads through the corner from its entry to its exit")

    def lane_run(lane: int) -> int:
        n, i = 0, lim.first[lane]
        while i in inside:
            n += weight(i)
            if i == lim.last[lane]:
                break
            i = spaces[i].ahead
        return n

    long, long_lane = max((lane_run(lane), -lane) for lane in range(graph.lanes))
    return CornerPaths(
        long=long,
        short=n_best,
        long_lane=-long_lane,
        short_path=(entry_best, *path_best),
        spaces=inside,
        limits=lim,
    )


def plausible_short(paths: CornerPaths, graph: LaneGraph) -> str | None:
    """Why a corner's red (short) number cannot be right for its size, or None. A shortest path may cut corners
    diagonally but cannot be shorter than half the fewest spaces of any one lane, nor longer than that lane;
    and a car must be able to stop once in the corner."""
    per_lane = [sum(1 for i in paths.spaces if graph.spaces[i].lane == lane) for lane in range(graph.lanes)]
    fewest = min(per_lane)
    if paths.short < 1:
        return "its shortest path has no space to stop on"
    if paths.short > fewest:
        return f"its shortest path ({paths.short}) is longer than its shortest lane ({fewest} spaces)"
    if 2 * paths.short < fewest:
        return f"its shortest path ({paths.short}) is under half its shortest lane ({fewest} spaces)"
    return None


def suggest_stops(radius_mm: float, short: int | None = None) -> int:
    """Stops for a corner whose spec gives none: from its centre-line radius (``templates/formula-d/sheets.yaml``),
    never more than the spaces on its shortest path (a car must be able to stop that many times inside)."""
    from .facts import sheets

    stops = 1
    for row in sheets().stops_by_radius:
        if row.max_radius_mm is None or radius_mm <= row.max_radius_mm:
            stops = row.stops
            break
    if short is not None:
        stops = max(1, min(stops, short))
    return stops


def corner_notes(c) -> list[str]:
    """Formula D boards (``game: formula-d``, per-lane spaces): what a designer should look at, in words — a corner
    whose short (red) number is implausible for its size, a corner asking more stops than its shortest path has
    spaces, a grid slot inside a corner, and (when the spec declares its corners) every bend over 45° the
    declaration leaves out. None stops the board printing: this is the game's ``board_notes`` hook, which the
    circuit engine says as warnings."""
    from dataclasses import replace

    from ...track import features
    from ...track.problems import Report

    if c.graph is None or c.spec.game != "formula-d":
        return []
    from shapely import Polygon as SPoly

    out = []
    slots = [(s.number, SPoly(s.outline)) for s in c.grid]
    for i, k in enumerate(c.corners):
        name = f"corner {i + 1}" + (f" ({k.name})" if k.name else "")
        try:
            paths = corner_paths(c.graph, k.s_start, k.s_end)
        except Exception as err:  # a GeometryError: the corner has no way through
            out.append(f"{name}: {err}")
            continue
        inside = [SPoly(c.graph.spaces[j].polygon) for j in paths.spaces]
        hit = [n for n, slot in slots if any(sp.intersection(slot).area > 1.0 for sp in inside)]
        if hit:
            out.append(
                f"{name}: grid slot(s) {', '.join(map(str, hit))} lie in the corner; move the start ('start.at') "
                "or the corner, or give fewer grid slots"
            )
        if c.spec.corners is not None and _straight(k, c):
            out.append(
                f"{name} is declared on a straight (it turns {k.angle:.0f}°, no tighter than "
                f"{features.CORNER_R:g} track widths of radius); check its 'from' and 'to'"
            )
        why = plausible_short(paths, c.graph)
        if why:
            out.append(f"{name}: {why}; check its 'from' and 'to'")
        if k.stops is not None and k.stops > paths.short:
            out.append(f"{name}: {k.stops} stops but its shortest path has {paths.short} space(s)")
    if c.spec.corners is not None:
        found = features.corners(Report(None, None), replace(c, spec=c.spec.model_copy(update={"corners": None})))
        L = c.lap_length
        for b in found:
            if b.angle <= 45:
                continue
            if not any(_overlaps(b, k, L) for k in c.corners):
                out.append(
                    f"a {b.angle:.0f}° {b.direction} bend at unit {c.unit_at(b.s_start)}–{c.unit_at(b.s_end)} is "
                    "not among the declared corners; declare it under 'corners' if cars must stop there"
                )
    return out


def _straight(k, c) -> bool:
    """Whether a declared corner lies on a straight: it turns less than a bend the board would find
    (``CORNER_MIN_TURN``) and nowhere tighter than ``CORNER_R`` track widths of radius."""
    import math

    from ...track import features

    turn = math.degrees(features.CORNER_MIN_TURN)
    return k.angle < turn and k.radius > features.CORNER_R * 2 * c.half_width


def _overlaps(a, b, L: float) -> bool:
    """Whether two corners' spans (round the lap) share any stretch of track."""
    la, lb = (a.s_end - a.s_start) % L, (b.s_end - b.s_start) % L
    return (b.s_start - a.s_start) % L < la or (a.s_start - b.s_start) % L < lb
