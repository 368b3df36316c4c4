"""The board a Formula D race is simulated on, read from the board Paddock prints.

:func:`race_board` takes a circuit from :func:`generator.games.formula_d.overlay.load_circuit` (per-lane spaces,
:class:`~generator.track.spaces.LaneGraph`) and its corners as the board marks them
(:func:`~generator.games.formula_d.overlay.corner_marks`: the stepped limits, the stops on the yellow flag) and
keeps what a race needs as plain tuples indexed by space id, cheap to copy to a worker process:

- the moves: from each space one step ``ahead`` in its lane or ``diagonal``ly forward into a neighbouring lane
  (spaces hidden under a tunnel are stepped over: "placed on a space with the same number on the other side");
  each step knows which corner it leaves, whether it crosses the start/finish line and whether it goes straight
  ahead (an overshooting car leaves a corner in its lane: :func:`.rules.reach`);
- the corners: their spaces, stops, turning direction (which lane is the inside), per lane the spaces still to go
  to a corner's exit; every other space belongs to the *approach* of the next corner (a "straight");
- the grid (the board's numbered slots, pole first), the spaces beside each space (for collisions);
- the pit lane as a lane of its own spaces after the track's (ids ``track_n`` on, entry line to exit line, one
  a unit of the printed pit lane), the last one leading onto the track at the pit exit, and the space beside
  each garage: a pitting car drives to its own garage and leaves from there.

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
    mids: tuple[float, ...] = (0.0,)  # centre-line arc length of each pit-lane space's middle, entry first
    garages: tuple[int, ...] = (0,)  # the pit-lane space (0-based along it) beside each garage, garage 1 first
    spaces: tuple[int, ...] = ()  # the pit-lane spaces' ids on the race board (filled in by board_from_graph)

    def garage(self, car: int) -> int:
        """The space id beside car ``car``'s garage (0-based car number: every player has a pit of his own)."""
        return self.spaces[self.garages[car % len(self.garages)]]


@dataclass(frozen=True)
class RaceBoard:
    name: str
    lanes: int
    lap: float  # centre-line length, mm
    lane: tuple[int, ...]
    index: tuple[int, ...]
    mid: tuple[float, ...]  # centre-line arc length of each space's middle (mm from the line)
    succ: tuple[tuple[tuple[int, int, int], ...], ...]  # per space: (next space, corner left or -1, crosses line)
    locked_succ: tuple[tuple[tuple[int, int, int, int], ...], ...]  # the same, straight ahead only (its first)
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
    track_n: int = 0  # spaces on the track; the pit lane's follow (ids track_n …)
    # how far each space's lane is from the inside of its zone's corner (0: the inside lane, or no corner)
    gap: tuple[int, ...] = ()
    # the moves split for :func:`.rules.reach`: ``plain[a]`` the next spaces whose step leaves no corner and
    # crosses no line (the most), ``special[a]`` the rest as in ``succ``; ``locked_*`` straight ahead only
    plain: tuple[tuple[int, ...], ...] = ()
    special: tuple[tuple[tuple[int, int, int, int], ...], ...] = ()
    locked_plain: tuple[tuple[int, ...], ...] = ()
    locked_special: tuple[tuple[tuple[int, int, int, int], ...], ...] = ()

    @property
    def n(self) -> int:
        return len(self.lane)

    def in_pit(self, space: int) -> bool:
        return space >= self.track_n

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
        pit = _pit(g, p, circuit.lap_length)
    return board_from_graph(g, corners, tuple(grid), circuit.name, pit)


def _pit(g, p, lap: float) -> PitInfo:
    """The pit lane ``p`` (a :class:`~generator.track.circuit.PitLane`) as a race needs it: the track spaces where
    it leaves and rejoins, its own spaces (one a unit of the printed pit lane, entry line to exit line) and the
    space beside each garage."""
    from ....track.spaces import nearest_edge

    s_in, s_out, wraps = p.s0 % g.lap_length, p.s1 % g.lap_length, p.s1 >= g.lap_length
    lane = 0 if p.side == "left" else g.lanes - 1
    spaces = [sp for sp in g.lane(lane)]
    n = len(spaces)
    j_in = nearest_edge(spaces, s_in, g.lap_length)  # the first space past the entry edge
    j_out = nearest_edge(spaces, s_out, g.lap_length)
    entry = spaces[(j_in - 1) % n].id
    exit_ = spaces[j_out % n].id
    wraps = wraps or s_out < s_in
    cuts = list(p.unit_s) or [p.s0 + p.taper, p.s1 - p.taper]
    if len(cuts) < 2:
        cuts = [p.s0, p.s1]
    mids = tuple(round(((a + b) / 2) % lap, 3) for a, b in zip(cuts, cuts[1:], strict=False))
    garages = []
    count = len(p.garage_boxes) or p.garages
    if count:
        w = (p.s1 - p.s0 - 2 * p.taper) / count
        for i in range(count):
            s = p.s0 + p.taper + (i + 0.5) * w
            j = next((j for j in range(len(mids)) if cuts[j] <= s < cuts[j + 1]), len(mids) - 1)
            garages.append(j)
    return PitInfo(lane, entry, exit_, wraps, s_in > g.lap_length / 2, p.min_roll, mids, tuple(garages) or (0,))


def board_from_graph(g, corners: list[CornerInfo], grid: tuple[int, ...], name: str = "board", pit=None) -> RaceBoard:
    """A :class:`RaceBoard` from a :class:`~generator.track.spaces.LaneGraph` ``g``, its corners (in lap order),
    grid (space ids, pole first) and pit lane (a :class:`PitInfo`, its ``spaces`` left empty: numbered here)."""
    from dataclasses import replace

    spaces = g.spaces
    tn = len(spaces)
    lap = g.lap_length
    hidden = [sp.hidden for sp in spaces]

    def skip(i: int) -> int:
        seen = 0
        while hidden[i] and seen < tn:
            i = spaces[i].ahead
            seen += 1
        return i

    ahead = [skip(sp.ahead) for sp in spaces]
    lane = [sp.lane for sp in spaces]
    index = [sp.index for sp in spaces]
    mid = [round((sp.s0 + ((sp.s1 - sp.s0) % lap if lap else sp.s1 - sp.s0) / 2) % lap, 3) for sp in spaces]
    if pit is not None:  # the pit lane's spaces, one after another, the last leading onto the track
        ids = tuple(range(tn, tn + len(pit.mids)))
        pit = replace(pit, spaces=ids)
        ahead += [i + 1 for i in ids[:-1]] + [pit.exit]
        lane += [pit.lane] * len(ids)
        index += list(range(len(ids)))
        mid += list(pit.mids)
        hidden += [False] * len(ids)
    n = len(ahead)
    corner = [-1] * n
    for c in corners:
        for i in c.spaces:
            corner[i] = c.index
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
        last = corners[k].last[lane[i]]
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
        diagonal = spaces[a].diagonal if a < tn else ()
        for b in dict.fromkeys((ahead[a], *(skip(d) for d in diagonal))):
            if hidden[b]:
                continue
            straight = 1 if b == ahead[a] else 0
            out.append((b, _exit(a, b, corner, zone), 1 if mid[b] < mid[a] - lap / 2 else 0, straight))
        succ.append(tuple(out))
    side = []
    for a in range(n):
        near = []
        for b in range(tn if a < tn else 0):
            sa, sb = spaces[a], spaces[b]
            if b == a or hidden[b] or abs(sb.lane - sa.lane) != 1:
                continue
            if _overlap(sa.s0, sa.s1, sb.s0, sb.s1, lap) > 0.25 * min(_span(sa, lap), _span(sb, lap)):
                near.append(b)
        side.append(tuple(near))
    # the spaces right behind each (a car ending there is behind it: a collision roll); none in the pit lane
    behind: list[list[int]] = [[] for _ in range(n)]
    for a in range(tn):
        if not hidden[a] and ahead[a] != a:
            behind[ahead[a]].append(a)
    main = zone[next((sp.id for sp in spaces if sp.index == 0 and not sp.hidden), 0)]
    return RaceBoard(
        name=name,
        lanes=g.lanes,
        lap=lap,
        lane=tuple(lane),
        index=tuple(index),
        mid=tuple(mid),
        succ=tuple(succ),
        locked_succ=tuple(tuple(m for m in s if m[3]) for s in succ),
        plain=tuple(tuple(m[0] for m in s if m[1] < 0 and not m[2]) for s in succ),
        special=tuple(tuple(m for m in s if m[1] >= 0 or m[2]) for s in succ),
        locked_plain=tuple(tuple(m[0] for m in s if m[3] and m[1] < 0 and not m[2]) for s in succ),
        locked_special=tuple(tuple(m for m in s if m[3] and (m[1] >= 0 or m[2])) for s in succ),
        gap=tuple(abs(lane[i] - corners[zone[i]].inside) if zone[i] >= 0 else 0 for i in range(n)),
        ahead=tuple(ahead),
        corner=tuple(corner),
        zone=tuple(zone),
        side=tuple(side),
        behind=tuple(tuple(b) for b in behind),
        to_exit=tuple(to_exit),
        to_entry=tuple(to_entry),
        corners=tuple(corners),
        grid=tuple(grid),
        main_zone=main,
        pit=pit,
        track_n=tn,
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
