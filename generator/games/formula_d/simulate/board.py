"""The board a Formula D race is simulated on, read from the board Paddock prints.

:func:`race_board` takes a circuit from :func:`generator.games.formula_d.overlay.load_circuit` (per-lane spaces,
:class:`~generator.track.spaces.LaneGraph`) and its corners as the board marks them
(:func:`~generator.games.formula_d.overlay.corner_marks`: the stepped limits, the stops on the yellow flag) and
keeps what a race needs as plain tuples indexed by space id, cheap to copy to a worker process:

- the moves: from each space one step ``ahead`` in its lane or ``diagonal``ly forward into a neighbouring lane
  (spaces hidden under a tunnel are stepped over: "placed on a space with the same number on the other side");
  each step knows which corner it leaves and whether it crosses the start/finish line;
- the corners: their spaces, stops, turning direction (which lane is the inside), per lane the spaces still to go
  to a corner's exit; every other space belongs to the *approach* of the next corner (a "straight");
- the grid (the board's numbered slots, pole first), the spaces beside each space (for collisions), the pit lane.

:func:`board_from_graph` builds the same from a hand-made :class:`LaneGraph` and corner limits (the tests' boards).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ....errors import InputError


@dataclass(frozen=True)
class CornerInfo:
    index: int  # 0-based, in lap order
    name: str  # the spec's name, or ""
    stops: int
    inside: int  # the inside lane (0: the left lane, for a left-hand corner)
    spaces: frozenset[int]
    first: tuple[int, ...]  # per lane: the corner's first and last space
    last: tuple[int, ...]
    long: int = 0  # the board's green and red numbers
    short: int = 0

    @property
    def label(self) -> str:
        """``corner 3 (Moulin)``, or ``corner 3`` when the spec names none (or only numbers it: ``C3``)."""
        n = self.index + 1
        plain = not self.name or self.name.strip().lower() in (str(n), f"c{n}", f"t{n}", f"corner {n}")
        return f"corner {n}" + ("" if plain else f" ({self.name})")


@dataclass(frozen=True)
class PitInfo:
    lane: int  # the track lane beside the pit lane
    entry: int  # the last space of that lane before the pit entry: a car passing it may turn in
    exit: int  # the first space of that lane after the pit exit: where a car rejoins
    wraps: bool  # the pit lane crosses the start/finish line (a car in the pits completes a lap there)
    entry_late: bool  # the entry lies in the second half of the lap (a stop "at the end of" the lap it is on)
    min_roll: int | None  # the board's own minimum roll (spec pit.min_roll), if it gives one


@dataclass(frozen=True)
class RaceBoard:
    name: str
    lanes: int
    lap: float  # centre-line length, mm
    lane: tuple[int, ...]
    index: tuple[int, ...]
    mid: tuple[float, ...]  # centre-line arc length of each space's middle (mm from the line)
    succ: tuple[tuple[tuple[int, int, int], ...], ...]  # per space: (next space, corner left or -1, crosses line)
    locked_succ: tuple[tuple[tuple[int, int, int], ...], ...]  # the same, straight ahead only (its first)
    ahead: tuple[int, ...]
    corner: tuple[int, ...]  # the corner a space is in, or -1
    zone: tuple[int, ...]  # the corner whose zone a space is in: its own, or the next one's approach (-1: none)
    side: tuple[tuple[int, ...], ...]  # spaces beside (neighbouring lanes, overlapping)
    behind: tuple[tuple[int, ...], ...]  # the spaces whose next space ahead is this one
    to_exit: tuple[int, ...]  # steps ahead in the lane to the last space of the zone's corner (0 on it)
    to_entry: tuple[int, ...]  # steps ahead in the lane to the zone's corner's first space (0 inside it)
    corners: tuple[CornerInfo, ...]
    grid: tuple[int, ...]  # space id of each grid slot, pole first
    main_zone: int  # the zone whose approach holds the start/finish line: the main straight
    pit: PitInfo | None = None

    @property
    def n(self) -> int:
        return len(self.lane)

    def line_of(self, space: int) -> str:
        """``inside``/``middle``/``outside`` of the zone's corner for ``space``'s lane."""
        k = self.zone[space]
        if k < 0 or self.lanes == 1:
            return "middle"
        gap = abs(self.lane[space] - self.corners[k].inside)
        return "inside" if gap == 0 else "outside" if gap == self.lanes - 1 else "middle"


def race_board(circuit, marks) -> RaceBoard:
    """The race board of a per-lane ``circuit`` and its corner ``marks`` (what the board prints)."""
    from shapely import Point
    from shapely import Polygon as SPoly

    g = circuit.graph
    if g is None:
        raise InputError("the board has no per-lane spaces to race on", hint="load it with Formula D's lanes")
    corners = []
    for m in marks:
        c = circuit.corners[m.index - 1]
        inside = 0 if c.direction == "left" else g.lanes - 1
        lim = m.paths.limits
        name = m.name or ""
        corners.append(
            CornerInfo(m.index - 1, name, m.stops, inside, lim.spaces, lim.first, lim.last, m.paths.long, m.paths.short)
        )
    # each grid slot on the space under its centre (the slot is drawn over one space of its lane), pole first; a
    # slot over a space an earlier slot took (two rows on one short inside-lane space of a corner) on the nearest
    # free space: a car to a space
    grid: list[int] = []
    free = [sp for sp in g.spaces if not sp.hidden]
    for slot in circuit.grid:
        pt = Point(slot.centre)
        on = [sp.id for sp in free if sp.id not in grid and SPoly(sp.polygon).contains(pt)]
        if not on:
            left = [sp for sp in free if sp.id not in grid]
            if not left:
                break
            on = [min(left, key=lambda sp: math.dist(sp.center, slot.centre)).id]
        grid.append(on[0])
    pit = None
    if circuit.pit is not None:
        p = circuit.pit
        pit = _pit(g, p.side, p.s0 % g.lap_length, p.s1 % g.lap_length, p.s1 >= g.lap_length, p.min_roll)
    return board_from_graph(g, corners, tuple(grid), circuit.name, pit)


def _pit(g, side: str, s_in: float, s_out: float, wraps: bool, min_roll) -> PitInfo:
    from ....track.spaces import nearest_edge

    lane = 0 if side == "left" else g.lanes - 1
    spaces = [sp for sp in g.lane(lane)]
    n = len(spaces)
    j_in = nearest_edge(spaces, s_in, g.lap_length)  # the first space past the entry edge
    j_out = nearest_edge(spaces, s_out, g.lap_length)
    entry = spaces[(j_in - 1) % n].id
    exit_ = spaces[j_out % n].id
    wraps = wraps or s_out < s_in
    return PitInfo(lane, entry, exit_, wraps, s_in > g.lap_length / 2, min_roll)


def board_from_graph(g, corners: list[CornerInfo], grid: tuple[int, ...], name: str = "board", pit=None) -> RaceBoard:
    """A :class:`RaceBoard` from a :class:`~generator.track.spaces.LaneGraph` ``g``, its corners (in lap order)
    and grid (space ids, pole first)."""
    spaces = g.spaces
    n = len(spaces)
    lap = g.lap_length
    hidden = [sp.hidden for sp in spaces]

    def skip(i: int) -> int:
        seen = 0
        while hidden[i] and seen < n:
            i = spaces[i].ahead
            seen += 1
        return i

    corner = [-1] * n
    for c in corners:
        for i in c.spaces:
            corner[i] = c.index
    ahead = [skip(sp.ahead) for sp in spaces]
    mid = [round((sp.s0 + ((sp.s1 - sp.s0) % lap if lap else sp.s1 - sp.s0) / 2) % lap, 3) for sp in spaces]
    # the zone: a corner's own spaces, or the approach to the next corner met going ahead in the lane
    zone = list(corner)
    to_entry = [0] * n
    if corners:
        for i in range(n):
            if corner[i] >= 0:
                continue
            j, steps = i, 0
            while corner[j] < 0 and steps <= n:
                j = ahead[j]
                steps += 1
            zone[i] = corner[j]
            to_entry[i] = steps
    to_exit = [0] * n
    for i in range(n):
        k = zone[i]
        if k < 0:
            continue
        last = corners[k].last[spaces[i].lane]
        j, steps = i, 0
        while j != last and steps <= n:
            j = ahead[j]
            steps += 1
        to_exit[i] = steps
    succ = []
    for a in range(n):
        if hidden[a]:
            succ.append(())
            continue
        out = []
        for b in dict.fromkeys((ahead[a], *(skip(d) for d in spaces[a].diagonal))):
            left = _exit(a, b, corner, zone)
            if hidden[b] or (left >= 0 and b != ahead[a]):  # a car leaves a corner in its own lane
                continue
            out.append((b, left, 1 if mid[b] < mid[a] - lap / 2 else 0))
        succ.append(tuple(out))
    side = []
    for a in range(n):
        sa = spaces[a]
        near = []
        for b in range(n):
            sb = spaces[b]
            if b == a or hidden[b] or abs(sb.lane - sa.lane) != 1:
                continue
            if _overlap(sa.s0, sa.s1, sb.s0, sb.s1, lap) > 0.25 * min(_span(sa, lap), _span(sb, lap)):
                near.append(b)
        side.append(tuple(near))
    main = zone[next((sp.id for sp in spaces if sp.index == 0 and not sp.hidden), 0)]
    return RaceBoard(
        name=name,
        lanes=g.lanes,
        lap=lap,
        lane=tuple(sp.lane for sp in spaces),
        index=tuple(sp.index for sp in spaces),
        mid=tuple(mid),
        succ=tuple(succ),
        locked_succ=tuple(s[:1] for s in succ),
        ahead=tuple(ahead),
        corner=tuple(corner),
        zone=tuple(zone),
        side=tuple(side),
        behind=tuple(tuple(a for a in range(n) if ahead[a] == b and not hidden[a] and a != b) for b in range(n)),
        to_exit=tuple(to_exit),
        to_entry=tuple(to_entry),
        corners=tuple(corners),
        grid=tuple(grid),
        main_zone=main,
        pit=pit,
    )


def _exit(a: int, b: int, corner, zone) -> int:
    """The corner a step from ``a`` to ``b`` leaves (its exit line crossed), or -1."""
    k = zone[a]
    if k < 0:
        return -1
    if corner[a] == k and corner[b] != k:
        return k
    if corner[a] < 0 and corner[b] != k and zone[b] != k:  # stepped over a corner one space deep
        return k
    return -1


def _span(sp, lap: float) -> float:
    return (sp.s1 - sp.s0) % lap if lap else sp.s1 - sp.s0


def _overlap(a0: float, a1: float, b0: float, b1: float, lap: float) -> float:
    """Length shared by two stretches of centre line (round the lap)."""
    la, lb = (a1 - a0) % lap, (b1 - b0) % lap
    best = 0.0
    for shift in (-lap, 0.0, lap):
        lo = max(a0, b0 + shift)
        hi = min(a0 + la, b0 + shift + lb)
        best = max(best, hi - lo)
    return best
