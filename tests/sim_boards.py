"""Hand-made Formula D boards for the simulation's tests: a ring of straight lanes whose spaces line up (space j of
every lane spans the same stretch), so a move's spaces can be counted by hand; and a scripted die."""

from __future__ import annotations

import random

from generator.games.formula_d.simulate.board import CornerInfo, PitInfo, board_from_graph
from generator.games.formula_d.simulate.race import Race, Setup
from generator.games.formula_d.simulate.rules import RUN, StaticReach, rule_set
from generator.simulate.tally import Tally
from generator.track.spaces import LaneGraph, Space

UNIT = 24.0


def ring(lanes: int = 3, n: int = 40, corners=((10, 12, 1),), grid: int = 10, direction: str = "left", pit=None):
    """``lanes`` lanes of ``n`` spaces; corners as (first index, last index, stops) in every lane; ``grid`` slots
    behind the line, pole first (rows of ``lanes``); ``pit``: ``(entry, exit, spaces, garages)`` — a pit lane
    beside lane 0 turning off after space ``entry`` and back onto space ``exit`` of that lane, of ``spaces``
    spaces level with the lane's spaces from ``entry + 1`` on, with the garages beside the pit spaces listed."""
    g = LaneGraph(lanes=lanes, lap_length=n * UNIT)
    for lane in range(lanes):
        for j in range(n):
            sid = lane * n + j
            diag = tuple(other * n + (j + 1) % n for other in (lane - 1, lane + 1) if 0 <= other < lanes)
            x0, y0 = j * UNIT, lane * 16.0
            poly = ((x0, y0), (x0 + UNIT, y0), (x0 + UNIT, y0 + 16), (x0, y0 + 16))
            ahead = lane * n + (j + 1) % n
            g.spaces.append(Space(sid, lane, j, j * UNIT, (j + 1) * UNIT, UNIT, poly, (x0 + 12, y0 + 8), ahead, diag))
    infos = []
    for k, (a, b, stops) in enumerate(corners):
        spaces = frozenset(lane * n + j for lane in range(lanes) for j in range(a, b + 1))
        first = tuple(lane * n + a for lane in range(lanes))
        last = tuple(lane * n + b for lane in range(lanes))
        inside = 0 if direction == "left" else lanes - 1
        infos.append(CornerInfo(k, f"corner {k + 1}", stops, inside, spaces, first, last, b - a + 1, b - a + 1))
    slots = []
    for slot in range(grid):
        row, lane = divmod(slot, lanes)
        slots.append(lane * n + (n - 1 - row))
    info = None
    if pit is not None:
        entry, exit_, count, garages = pit
        mids = tuple(((entry + 1 + j) % n + 0.5) * UNIT for j in range(count))
        wraps = exit_ < entry
        info = PitInfo(0, entry, exit_, wraps, entry > n / 2, None, mids, tuple(garages))
    return board_from_graph(g, infos, tuple(slots), "ring", info)


class Script(random.Random):
    """A random stream whose ``random()`` returns the scripted values first, then a seeded stream's."""

    def __init__(self, values=(), seed: int = 7):
        super().__init__(seed)
        self.values = list(values)

    def random(self) -> float:
        if self.values:
            return self.values.pop(0)
        return super().random()

    def getrandbits(self, k: int) -> int:  # shuffling (the grid) draws bits, never the scripted values
        return super().getrandbits(k)


def black(result: int, sides: int = 20) -> float:
    """The ``random()`` value that makes the black die show ``result``."""
    return (result - 0.5) / sides


def face(rs, gear: int, value: int) -> float:
    """The ``random()`` value that makes gear ``gear``'s die show ``value``."""
    faces = rs.faces[gear]
    return (faces.index(value) + 0.5) / len(faces)


def race(board, kinds=("simple",), script=(), rules=(), assume=None, drivers=None):
    """A race on ``board`` with cars of ``kinds``; ``drivers`` maps a kind to a driver object (default: the
    game's own)."""
    from generator.games.formula_d.simulate.drivers import make_driver

    rs, _ = rule_set(rules, assume, pit=board.pit is not None)
    static = StaticReach(board, tuple(c.stops for c in board.corners))
    values = None
    if "strong" in kinds:
        from generator.games.formula_d.simulate.values import value_table

        values = value_table(board, rs, static)
    setup = Setup(board, rs, tuple(kinds), static, values)
    made = {k: make_driver(k, setup) for k in set(kinds) if k in ("simple", "strong")}
    made.update(drivers or {})
    return Race(setup, Script(script), Tally(), made)


def place(r, car, space: int, gear: int = 2, made: int = 0, wp=None, laps: int = 0):
    """Put ``car`` on ``space`` (in its corner with ``made`` stops), in ``gear``, past the start."""
    if r.occ.get(car.space) is car:
        del r.occ[car.space]
    b = r.b
    car.space, car.gear, car.laps, car.start, car.state = space, gear, laps, 0, RUN
    car.cur = b.corner[space]
    car.made = made
    car.prog = laps * b.lap + b.mid[space]
    if wp is not None:
        car.wp = list(wp)
    r.occ[space] = car
    return car


class Fixed:
    """A driver told its gear and where to end (the furthest by default, then the lowest space id)."""

    kind = "fixed"

    def __init__(self, gear: int | None = None, end=None):
        self.want_gear, self.end = gear, end

    def gear(self, race, car, options):
        return self.want_gear if self.want_gear in options else options[-1]

    def choose(self, race, car, gear, roll, layers):
        plain = [o for o in race.options(car, roll, layers) if not o[5]]
        if self.end is not None:
            return next(o for o in plain if o[0] == self.end)
        return max(plain, key=lambda o: (o[1], -o[2], -o[0]))

    def slipstream(self, race, car, gear, options):
        return None
