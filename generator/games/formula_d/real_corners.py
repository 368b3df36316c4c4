"""A real circuit's corners on its Formula D board: the board's bends measured on the real line
(:func:`real_bends`), every corner of the real circuit (:func:`.real_line.line_corners`) placed on the board, merged
where they lie too close to part, each given the stops its real radius asks, and its zone drawn long enough to
hold them (:func:`declare_corners`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ...errors import GeometryError
from ...track.adapt import from_page, to_page
from ...track.centerline import NEAREST_BY_TREE, PointIndex, circumradius, nearest_points, point_tree
from ...track.circuit import Corner
from .corners import corner_limits, corner_paths
from .real_line import Shape, line_corners, settings, stops_for


def real_bends(circuit, shape=None) -> list[tuple[float, float]]:
    """Each of the circuit's corners measured on the real centre line (the stretch nearest the board's corner):
    its tightest radius (metres; circles through points ``radius_step_m`` apart) and how far it turns (degrees).
    ``shape``: the :class:`Shape` the board was built from (default: the spec's own points, as they are)."""
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
        index = PointIndex(point_tree(shape.source), lambda Q: from_page(Q, scale, rotation, shift), scale, order)
    nearest = nearest_points(page, circuit.line.point(np.concatenate(ends)), index) if ends else []
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


@dataclass(frozen=True)
class RealCorner:
    """A corner of the real circuit (:class:`.real_line.LineCorner`) and where it lies on the board."""

    at_m: float  # its tightest point, along the real line from its first point (the timing line), metres
    radius_m: float  # its tightest radius
    stops: int  # what that radius asks
    s_start: float  # on the board: centre-line arc length from the start line (s_end may pass the lap's end)
    s_end: float
    apex: float


@dataclass
class BoardCorner(Corner):
    """A corner of a real circuit's board: the real circuit's corners it holds (none: a bend of the board whose
    real stretch is no corner of the radius table, yet turns too far to be taken flat out) and, where its zone
    could not be drawn long enough for them, the stops its real radius asks (``wanted``)."""

    real: tuple[RealCorner, ...] = ()
    wanted: int | None = None


def real_corners_on_board(circuit, shape: Shape) -> list[RealCorner]:
    """Every corner of the real circuit (:func:`.real_line.line_corners`, on the real line taken as points
    ``step_m`` apart), placed on the board: the real line's points carried onto the page as the board was
    (``source_to_page``) and followed along the board's centre line from the timing line, point by point, so a
    figure-eight's crossing never sends one to the other pass."""
    if circuit.source_to_page is None:
        return []
    src, P = shape.source, shape.real
    if circuit.spec.start.reverse:  # raced the other way round, as the build took it
        src, P = (np.vstack((X[:1], X[:0:-1])) for X in (src, P))
    P, src = np.vstack((P, P[:1])), np.vstack((src, src[:1]))
    t = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(P, axis=0).T))))
    n = max(8, int(round(t[-1] / settings().step_m)))
    at = np.arange(n) * t[-1] / n
    f = np.interp(at, t, np.arange(len(P)))  # each even point as a fractional index of the given ones
    idx = np.arange(len(P))
    Q = np.column_stack([np.interp(f, idx, P[:, i]) for i in (0, 1)])
    S = np.column_stack([np.interp(f, idx, src[:, i]) for i in (0, 1)])
    s = _follow(circuit.line, to_page(S, *circuit.source_to_page))
    L, out = circuit.lap_length, []
    for c in line_corners(Q):
        a = float(s[c.run[0]] % L)
        span = float((s[c.run[-1]] - s[c.run[0]]) % L)
        out.append(RealCorner(float(at[c.apex]), c.radius_m, c.stops, a, a + span, float(s[c.apex] % L)))
    return out


def _follow(line, points: np.ndarray, back: float = 10.0, res: float = 0.5) -> np.ndarray:
    """Where each of ``points`` (page mm, in order along a loop) lies on ``line``: the nearest point for the first,
    then for each the nearest within ``back`` mm behind the last one's and three steps ahead of it (so the answer
    follows the loop and never jumps to another part of it); arc lengths, increasing (past the lap's end)."""
    B, S, L = line.xy, line.s, line.length
    xs, ys = np.ascontiguousarray(B[:, 0]), np.ascontiguousarray(B[:, 1])
    out = np.empty(len(points))
    out[0] = S[int(np.argmin(np.hypot(*(B[:-1] - points[0]).T)))]
    steps = np.hypot(*np.diff(points, axis=0).T)
    for j in range(1, len(points)):
        cand = out[j - 1] + np.arange(-back, 3 * steps[j - 1] + back + res, res)
        at = cand % L
        d = np.hypot(np.interp(at, S, xs) - points[j][0], np.interp(at, S, ys) - points[j][1])
        out[j] = cand[int(np.argmin(d))]
    return out


@dataclass(frozen=True)
class Declared:
    """A real circuit's board with its corners declared (:func:`declare`); ``apart``: how many corners the board
    keeps apart at its scale, before any is merged with a neighbour to hold its stops (what tells whether a paper
    is large enough for the circuit)."""

    circuit: object
    apart: int


def declare(circuit, shape: Shape | None = None) -> Declared:
    """``circuit`` with its corners declared from the real circuit (:class:`BoardCorner`), and the legend's lines
    on them: the board's bends not taken flat out, every corner of the radius table on the board (a bend of the
    board holds it, else it is declared where it lies), overlapping and chicane-close corners merged, each with the
    stops of its slowest part and its zone drawn long enough to hold them (:func:`_hold_stops`). ``shape``: what
    the board was built from (default: the spec's points as they are)."""
    shape = shape or Shape.of(circuit.spec, circuit.source)
    L, u = circuit.lap_length, circuit.unit_length
    found = real_corners_on_board(circuit, shape)
    # each corner of the real circuit is held by the bend of the board its tightest point lies in, else by the bend
    # it overlaps most; none: it is declared where it lies
    bends = list(circuit.corners)
    holder = [_holder(bends, rc, L) for rc in found]
    join = settings().join_within_spaces * u
    kept: list[BoardCorner] = []
    for i, (k, (r, turn)) in enumerate(zip(bends, real_bends(circuit, shape), strict=True)):
        # the real bend's own turn: a bend the adaptation made where the real line runs straight is no corner
        held = tuple(rc for rc, h in zip(found, holder, strict=True) if h == i)
        groups = _groups(held, L, join)
        if len(groups) > 1:  # a long bend of the board holding real corners that lie apart on it: one corner each
            kept += [_corner_at(circuit, g) for g in groups]
            continue
        own = stops_for(r, turn)
        if own is None and not held:
            continue
        stops = max([own or 0] + [rc.stops for rc in held])
        radius = min([r] + [rc.radius_m for rc in held])
        kept.append(BoardCorner(**vars(k) | {"stops": stops, "real_radius_m": radius, "real": held}))
    kept += [
        _corner_at(circuit, g) for g in _groups([rc for rc, h in zip(found, holder, strict=True) if h is None], L, join)
    ]
    merged = _join_chicanes(_merge_overlapping(kept, L), L, join, 4 * join)
    apart = len(merged)
    merged = _hold_stops(merged, circuit.graph, L, u, settings().max_extend_spaces)
    out = []
    for k in merged:
        # numbered round the lap on the board (C1 …) unless the spec names it: the `corners` table's rows
        out.append(replace(k, name=k.name or settings().corner_name.format(n=len(out) + 1)))
    return Declared(replace(circuit, corners=out, notes=circuit.notes + _corner_lines(out)), apart)


def declare_corners(circuit, shape: Shape | None = None):
    """``circuit`` with its corners declared from the real circuit (:func:`declare`)."""
    return declare(circuit, shape).circuit


def _groups(rcs, L: float, gap: float) -> list[tuple[RealCorner, ...]]:
    """The real corners ``rcs`` in groups that lie apart on the board: corners whose spans overlap or come within
    ``gap`` (mm) of each other are one group (one corner on the board)."""
    out: list[list[RealCorner]] = []
    for rc in sorted(rcs, key=lambda rc: rc.s_start):
        if out and rc.s_start - max(o.s_end for o in out[-1]) < gap:
            out[-1].append(rc)
        else:
            out.append([rc])
    if len(out) > 1 and out[0][0].s_start + L - max(o.s_end for o in out[-1]) < gap:  # over the start line
        out[0] = out.pop() + out[0]
    return [tuple(g) for g in out]


def _corner_at(circuit, group: tuple[RealCorner, ...]) -> BoardCorner:
    """Corners of the real circuit, one group of :func:`_groups`, declared where they lie on the board (at least a
    space long): the board's own radius and turn there, the stops of the slowest."""
    line, L, u = circuit.line, circuit.lap_length, circuit.unit_length
    a = group[0].s_start
    b = max(a + ((rc.s_end - a) % L if rc.s_end - a < 0 else rc.s_end - a) for rc in group)
    rc = min(group, key=lambda rc: rc.radius_m)
    if b - a < u:
        mid = (a + b) / 2
        a, b = mid - u / 2, mid + u / 2
    if a < 0:
        a, b = a + L, b + L
    xs = np.linspace(a, b, 64)
    th = np.unwrap(line.heading(xs % L))
    turn = -float(th[-1] - th[0])  # left positive, as the circuit's corners
    k = np.interp(xs % L, line.s, line.k)
    j = int(np.argmax(np.abs(k)))
    left = turn > 0 if abs(math.degrees(turn)) >= 10 else k[j] > 0  # a chicane: the way of its tightest part
    return BoardCorner(
        s_start=a,
        s_end=b,
        apex=rc.apex,
        radius=1.0 / abs(float(k[j])) if abs(k[j]) > 1e-12 else math.inf,
        angle=abs(math.degrees(turn)),
        direction="left" if left else "right",
        stops=max(g.stops for g in group),
        real_radius_m=rc.radius_m,
        real=group,
    )


def _holder(bends: list, rc: RealCorner, L: float) -> int | None:
    """Which of the board's ``bends`` holds the real corner ``rc``: the first its tightest point lies in, else the
    one it overlaps most; None if it overlaps none."""
    for i, k in enumerate(bends):
        if (rc.apex - k.s_start) % L <= (k.s_end - k.s_start):
            return i
    best, pick = 0.0, None
    for i, k in enumerate(bends):
        shared = _shared(k, rc, L)
        if shared > best:
            best, pick = shared, i
    return pick


def _shared(a, b, L: float) -> float:
    """How much track (mm) two spans round the lap share."""
    return sum(max(0.0, min(a.s_end, b.s_end + m * L) - max(a.s_start, b.s_start + m * L)) for m in (-1, 0, 1))


def _hold_stops(corners: list, graph, L: float, u: float, most: float) -> list:
    """Each corner whose shortest path has fewer spaces than its stops, drawn longer until it holds them (its entry
    earlier and its exit later, half a space at a time in turn, along space edges: the lines snap to them lane by
    lane), at most ``most`` spaces each way and never into a neighbouring corner's spaces. One its neighbours hem
    in is merged with the nearer of them (no more than ``most`` spaces away) and tried again. One that still cannot
    hold them gets as many stops as its shortest path has spaces (at least 1), and keeps what it asked as
    ``wanted``."""
    out = sorted(corners, key=lambda k: k.s_start)
    i = 0
    while i < len(out):
        k = out[i]
        n = len(out)
        near = sorted({(i - 1) % n, (i + 1) % n} - {i})
        others = frozenset().union(*(corner_limits(graph, out[j].s_start, out[j].s_end).spaces for j in near))
        a, b, short = _grown(graph, k, others, L, u, most, k.stops + settings().room_spaces)
        if short >= k.stops or not near:
            if a < 0:
                a, b = a + L, b + L
            want = k.stops if short < k.stops else None
            out[i] = replace(k, s_start=a, s_end=b, stops=max(1, min(k.stops, short)), wanted=want)
            i += 1
            continue
        # hemmed in: merged with the nearer neighbour, if near enough, and tried again
        gaps = {j: _gap(out[j], k, L) for j in near}
        j = min(gaps, key=gaps.get)
        if gaps[j] > most * u:
            out[i] = replace(k, s_start=a % L, s_end=a % L + (b - a), stops=max(1, short), wanted=k.stops)
            i += 1
            continue
        first, second = (out[j], k) if (k.s_start - out[j].s_start) % L < L / 2 else (k, out[j])
        if second.s_start < first.s_start:
            second = replace(second, s_start=second.s_start + L, s_end=second.s_end + L)
        both = _merged(first, second)
        if both.s_start >= L:
            both = replace(both, s_start=both.s_start - L, s_end=both.s_end - L)
        out = [c for m, c in enumerate(out) if m not in (i, j)] + [both]
        out.sort(key=lambda c: c.s_start)
        i = 0  # the merged corner and its neighbours are looked at again
    return out


def _grown(graph, k, others: frozenset, L: float, u: float, most: float, need: int) -> tuple[float, float, int]:
    """Corner ``k`` drawn longer until its shortest path has ``need`` spaces (its stops and room to make them more
    than one way), or as long as it may be (see :func:`_hold_stops`): its span and the spaces on its shortest
    path."""
    a, b = k.s_start, k.s_end
    short = corner_paths(graph, a, b).short
    grown = True
    while short < need and grown:
        grown = False
        for na, nb in ((a - u / 2, b), (a, b + u / 2)):
            if short >= need or k.s_start - na > most * u + 1e-6 or nb - k.s_end > most * u + 1e-6:
                continue
            if nb - na >= L - u or corner_limits(graph, na, nb).spaces & others:
                continue
            try:
                longer = corner_paths(graph, na, nb).short
            except GeometryError:
                continue
            a, b, short, grown = na, nb, max(short, longer), True
    return a, b, short


def _gap(a, b, L: float) -> float:
    """The track (mm) between two corners' spans round the lap, whichever comes first (0 where they touch)."""
    return max(0.0, min((b.s_start - a.s_end) % L, (a.s_start - b.s_end) % L))


def _corner_lines(corners: list) -> tuple[str, ...]:
    """The legend's lines on a real circuit's corners: each corner that holds several of the real circuit's, and
    each that could not be drawn long enough for the stops its real radius asks."""
    say = settings().legend
    out = []
    for k in corners:
        if len(k.real) > 1:
            km = [f"{rc.at_m / 1000:.2f}" for rc in sorted(k.real, key=lambda rc: rc.at_m)]
            at = ", ".join(km[:-1]) + " and " + km[-1]
            out.append(say.merged.format(name=k.name, n=len(k.real), at=at))
        if k.wanted is not None:
            word = "stop" if k.stops == 1 else "stops"
            out.append(
                say.stops_capped.format(
                    name=k.name, stops=k.stops, stop_word=word, want=k.wanted, radius=k.real_radius_m
                )
            )
    return tuple(out)


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
    extra = {"real": tuple(dict.fromkeys(a.real + b.real))} if isinstance(wide, BoardCorner) else {}
    return replace(
        wide,
        **extra,
        s_start=min(a.s_start, b.s_start),
        s_end=max(a.s_end, b.s_end),
        apex=tight.apex,
        radius=tight.radius,
        real_radius_m=min(a.real_radius_m or math.inf, b.real_radius_m or math.inf),
        stops=max(a.stops, b.stops),
        name=a.name or b.name,
    )
