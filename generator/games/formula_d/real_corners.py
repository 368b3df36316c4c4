"""A real circuit's corners on its Formula D board: the board's bends measured on the real line
(:func:`real_bends`), every corner of the real circuit (:func:`.real_line.corner_mask`) placed on the board, merged
where they lie too close to part, each given the stops its real radius asks, and its zone drawn long enough to
hold them (:func:`declare_corners`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .real_line import Shape, circumradius, settings, stops_for


def real_bends(circuit, shape=None) -> list[tuple[float, float]]:
    """Each of the circuit's corners measured on the real centre line (the stretch nearest the board's corner):
    its tightest radius (metres; circles through points ``radius_step_m`` apart) and how far it turns (degrees).
    ``shape``: the :class:`Shape` the board was built from (default: the spec's own points, as they are)."""
    from ...track.adapt import from_page, to_page

    if circuit.source_to_page is None:
        return [(math.inf, k.angle) for k in circuit.corners]
    shape = shape or Shape.of(circuit.spec, circuit.source)
    src, P = shape.source, shape.real
    order = None  # point i of src is point order[i] of shape.source
    if circuit.spec.start.reverse:  # raced the other way round, as the build took it
        src, P = (np.vstack((X[:1], X[:0:-1])) for X in (src, P))
        order = np.concatenate(([0], np.arange(len(src) - 1, 0, -1)))
    closed = np.vstack((P, P[:1]))
    s = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(closed, axis=0), axis=1))))
    lap = float(s[-1])

    xs_, ys_ = np.ascontiguousarray(closed[:, 0]), np.ascontiguousarray(closed[:, 1])  # not copied at every call

    def at(x: np.ndarray) -> np.ndarray:
        x = x % lap
        return np.column_stack((np.interp(x, s, xs_), np.interp(x, s, ys_)))

    page = to_page(src, *circuit.source_to_page)
    h = settings().radius_step_m
    ends = [np.linspace(k.s_start, k.s_end, 24)[[0, -1]] % circuit.lap_length for k in circuit.corners]
    index = None
    if len(src) * 2 * len(ends) > NEAREST_BY_TREE:  # a survey-grade line: searched in its own coordinates
        scale, rotation, shift = circuit.source_to_page
        index = _Index(_tree(shape.source), lambda Q: from_page(Q, scale, rotation, shift), scale, order)
    nearest = _nearest_points(page, circuit.line.point(np.concatenate(ends)), index) if ends else []
    out = []
    for i, _k in enumerate(circuit.corners):
        a, b = float(s[nearest[2 * i]]), float(s[nearest[2 * i + 1]])
        if b < a:
            b += lap
        xs = np.arange(a, b + 1e-9, max(lap / 4000, 0.5))
        r = circumradius(at(xs - h), at(xs), at(xs + h))
        d = np.diff(at(xs), axis=0)
        heading = np.unwrap(np.arctan2(d[:, 1], d[:, 0])) if len(d) else np.zeros(1)
        out.append((float(r.min()) if len(r) else math.inf, abs(math.degrees(float(heading[-1] - heading[0])))))
    return out


#: Above this many point pairs, the nearest points of a line are found through a tree (see _nearest_points).
NEAREST_BY_TREE = 2_000_000


@dataclass(frozen=True)
class _Index:
    """A tree over the points of ``P`` as they were in other coordinates, for :func:`_nearest_points`: ``to_tree``
    maps points of ``P``'s coordinates into the tree's, where distances are ``scale`` times shorter; leaf ``j`` of
    the tree is point ``order[j]`` of ``P`` (None: point ``j``)."""

    tree: object
    to_tree: Callable[[np.ndarray], np.ndarray]
    scale: float = 1.0
    order: np.ndarray | None = None


def _tree(P: np.ndarray):
    """An STRtree over the points of ``P``."""
    import shapely

    return shapely.STRtree(shapely.points(P))


def _nearest_points(P: np.ndarray, Q: np.ndarray, index: _Index | None = None) -> list[int]:
    """For each point of ``Q``, ``np.argmin(np.hypot(*(P - q).T))``: the index of its nearest point of ``P``, the
    lowest of equally near ones. Through an STRtree for a survey-grade ``P`` (a 300,000-point line measured point
    by point took seconds): its nearest distance bounds the candidates, which are then measured as above. ``index``:
    that tree already made, in other coordinates (see :class:`_Index`)."""
    if len(P) * len(Q) <= NEAREST_BY_TREE:
        return [int(np.argmin(np.hypot(*(P - q).T))) for q in Q]
    import shapely

    if index is None:
        index = _Index(_tree(P), lambda X: X)
    points = shapely.points(index.to_tree(Q))
    (_, _), dist = index.tree.query_nearest(points, return_distance=True, all_matches=False)
    # every point as near as the nearest, with a margin: GEOS's distance and np.hypot may differ in the last digit,
    # and so may distances measured in the tree's coordinates (1e-9 mm, in the tree's units)
    qi, ti = index.tree.query(points, predicate="dwithin", distance=dist * (1 + 1e-9) + 1e-9 / index.scale)
    pi = ti if index.order is None else index.order[ti]
    d = np.hypot(*(P[pi] - Q[qi]).T)
    order = np.lexsort((pi, d, qi))  # by query, then distance, then index: the first of each query is argmin's
    first = np.concatenate(([True], qi[order][1:] != qi[order][:-1]))
    return [int(v) for v in pi[order][first]]


def declare_corners(circuit, shape: Shape | None = None):
    """``circuit`` with its corners declared from the real circuit: flat-out bends dropped, every other corner
    given its stops (by real radius, never more than its shortest path has spaces). ``shape``: what the board
    was built from (default: the spec's points as they are)."""
    from .corners import corner_paths

    kept = []
    for k, (r, turn) in zip(circuit.corners, real_bends(circuit, shape), strict=True):
        # the real bend's own turn: a bend the adaptation made where the real line runs straight is no corner
        stops = stops_for(r, turn)
        if stops is None:
            continue
        kept.append(replace(k, stops=stops, real_radius_m=r))
    out = []
    join = settings().join_within_spaces * circuit.unit_length
    for k in _join_chicanes(_merge_overlapping(kept, circuit.lap_length), circuit.lap_length, join, 4 * join):
        short = corner_paths(circuit.graph, k.s_start, k.s_end).short
        # numbered round the lap on the board (C1 …) unless the spec names it: the `corners` table's rows
        name = k.name or settings().corner_name.format(n=len(out) + 1)
        out.append(replace(k, stops=max(1, min(k.stops, short)), name=name))
    return replace(circuit, corners=out)


def _merge_overlapping(corners: list, lap: float) -> list:
    """Bends found turning each way are found apart, so a short right-hand flick can lie inside a long left-hand
    complex: on the board one corner with one pair of lines, the stops of the slower part."""
    out: list = []
    for k in sorted(corners, key=lambda k: k.s_start):
        if out and k.s_start < out[-1].s_end:
            out[-1] = _merged(out[-1], k)
        else:
            out.append(k)
    while len(out) > 1 and out[-1].s_end > lap and out[-1].s_end - lap > out[0].s_start:  # over the line
        last = out.pop()
        first = out.pop(0)
        out.append(_merged(last, replace(first, s_start=first.s_start + lap, s_end=first.s_end + lap, apex=first.apex)))
    return out


def _join_chicanes(corners: list, lap: float, gap: float, longest: float) -> list:
    """A chicane: two short corners turning opposite ways less than ``gap`` (mm) apart, together no longer than
    ``longest``, are one corner (one pair of lines, the stops of the slower half, counted over both halves' spaces:
    a 1-space half can no longer cap a hairpin-slow chicane at 1 stop). Pairs only: a chain of bends stays apart."""
    out: list = []
    joined = False
    for k in corners:
        prev = out[-1] if out else None
        if (
            prev is not None
            and not joined
            and prev.direction != k.direction
            and k.s_start - prev.s_end < gap
            and k.s_end - prev.s_start <= longest
        ):
            out[-1] = replace(_merged(prev, k), direction=prev.direction)
            joined = True
        else:
            out.append(k)
            joined = False
    return out


def _merged(a, b):
    tight = a if a.radius <= b.radius else b
    wide = a if a.angle >= b.angle else b
    return replace(
        wide,
        s_start=min(a.s_start, b.s_start),
        s_end=max(a.s_end, b.s_end),
        apex=tight.apex,
        radius=tight.radius,
        real_radius_m=min(a.real_radius_m or math.inf, b.real_radius_m or math.inf),
        stops=max(a.stops, b.stops),
        name=a.name or b.name,
    )
