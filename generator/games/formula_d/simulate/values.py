"""How many turns a car needs from any state to the line: the strong driver's map of the board.

A car alone on the board, in a state (space, the gear of its last move, stops made in the corner it is in),
chooses a gear, rolls, and chooses where to end (or to brake): the expected number of turns to cross the
start/finish line under the best choices is the state's *value*, found by dynamic programming backwards from the
line over the board's moves (every move goes forward, so the states form a chain with no loop). Wear points are
not counted down (a car alone has all it needs) but priced in turns (:data:`PRICE`), and being put out costs
:data:`OUT_TURNS`. The values answer "how good is ending here, in this gear?" for the strong driver
(:mod:`.drivers`), which adds what the table cannot know: the other cars, its own wear points, the race situation.

Two tables: ``final`` (the line ends the race) and ``more`` (another lap follows: crossing the line is worth the
value of where the car lands, less one lap's turns). And the same for a *worn* car, one with no gearbox or no brake
WP left (``worn``): it changes down one gear at a time and cannot brake, so it must arrive at a corner slower — a
car reading the full car's table would come into a 3-stop corner in 3rd gear and find no way to make its stops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .rules import BRAKES, ENGINE, GEARBOX, TIRES, downshift_cost, gear_options, out_by_overshoot

#: Turns one wear point is worth to a car alone (tires, brakes, gearbox, car body, engine, road handling).
PRICE = (0.7, 0.5, 0.5, 1.0, 1.0, 1.0)
#: Turns being put out of the race costs (about a whole race of turns: never worth it).
OUT_TURNS = 60.0
DEPTH = 30


@dataclass(frozen=True)
class ValueTable:
    """``final[g][state]``/``more[g][state]``: the turns to go from a state (numbered as
    :class:`~.rules.StaticReach` numbers them) after a move in gear ``g``; ``final_e``/``more_e[g][state]``: the
    mean and spread of the outcome of choosing gear ``g`` there (before any downshift cost); ``lap``: the turns of
    one lap."""

    final: tuple[tuple[float, ...], ...]
    more: tuple[tuple[float, ...], ...]
    final_e: tuple[tuple[tuple[float, float], ...], ...]
    more_e: tuple[tuple[tuple[float, float], ...], ...]
    lap: float
    worn: ValueTable | None = None  # the tables of a car with no gearbox or no brake WP left

    def of(self, gearbox: int, brakes: int) -> ValueTable:
        """The tables for a car with ``gearbox`` and ``brakes`` WP left."""
        return self.worn if self.worn is not None and (gearbox <= 0 or brakes <= 0) else self


def value_table(board, rs, static) -> ValueTable:
    """The tables for ``board`` under rule set ``rs``, from its moves on the empty board (``static``)."""
    stops = tuple(c.stops for c in board.corners)
    base = static.base
    order = _order(board)
    # the static moves of each state: for every distance, (overshoot cost if the line ends the race, overshoot
    # cost if another lap follows, next state, crosses the line): beyond the finishing line a corner is no more,
    # but after the line of a lap still to race it is (a corner right after the line is overshot as any other)
    moves = {}
    for i in order:
        k = board.corner[i]
        for made in range(1 + (stops[k] if k >= 0 else 0)):
            per_d = []
            for d, layer in enumerate(static.layers[base[i] + made]):
                outs = []
                for e, (_, events, line, _) in layer.items() if d else ():
                    cost = [0.0, 0.0]  # the race ends at the line / another lap follows
                    for corner, made_there, step in events:
                        out = out_by_overshoot(rs, stops[corner], made_there)
                        c = OUT_TURNS if out else (d - step + 1) * PRICE[TIRES]
                        cost[1] += c
                        if not (line and step > line):
                            cost[0] += c
                    ke = board.corner[e]
                    # an overshoot ending in the next corner is no stop there
                    m = 0 if ke < 0 or events else min(made + 1, stops[ke]) if ke == k else 1
                    outs.append((cost[0], cost[1], base[e] + m, line > 0))
                per_d.append(tuple(outs))
            moves[base[i] + made] = per_d
    size = len(static.layers)
    brake = rs.brake_wp * PRICE[BRAKES]
    lane = board.lanes // 2
    start = next(i for i in range(board.n) if board.lane[i] == lane and board.index[i] == 0)
    tables = []
    for worn in (False, True):
        gears = {g: gear_options(rs, g, 0 if worn else 1, 0 if worn else 99, 99) for g in range(1, rs.top_gear + 1)}
        kmax = 0 if worn else max(0, rs.build[BRAKES] // max(1, rs.brake_wp))
        final, final_e = _solve(board, order, base, stops, moves, rs, brake, size, None, gears, kmax)
        lap = final[min(5, rs.top_gear)][base[start]]
        more, more_e = _solve(board, order, base, stops, moves, rs, brake, size, (final, lap), gears, kmax)
        tables.append((final, more, final_e, more_e, lap))
    return ValueTable(*tables[0], worn=ValueTable(*tables[1]))


def _order(board) -> list[int]:
    """Spaces so that every space comes after the spaces its moves lead to (within the lap)."""
    n = board.n
    into = [0] * n
    for a in range(n):
        for b, _, crossed, _ in board.succ[a]:
            if not crossed:
                into[b] += 1
    ready = [a for a in range(n) if into[a] == 0 and board.succ[a]]
    out = []
    while ready:
        a = ready.pop()
        out.append(a)
        for b, _, crossed, _ in board.succ[a]:
            if not crossed:
                into[b] -= 1
                if into[b] == 0:
                    ready.append(b)
    return out[::-1]  # from the line backwards


def _solve(board, order, base, stops, moves, rs, brake, size, then, gears, kmax):
    """One table: ``then`` the final table and a lap's turns (another lap follows) or None; ``gears`` the gears
    each gear may change to, ``kmax`` the most spaces a move may be braked by."""
    faces = rs.faces
    top = rs.top_gear
    v = [[0.0] * size for _ in range(top + 1)]
    ex = [[(0.0, 0.0)] * size for _ in range(top + 1)]
    more = 1 if then else 0  # which overshoot cost counts (see value_table)
    for i in order:
        k = board.corner[i]
        for made in range(1 + (stops[k] if k >= 0 else 0)):
            s = base[i] + made
            per_d = moves[s]
            reached = len(per_d) - 1
            expect = [0.0] * (top + 1)
            for g in range(1, top + 1):
                vg = v[g]
                tg = then[0][g] if then else None
                best = [OUT_TURNS * 2] * (DEPTH + 1)
                for d in range(1, min(reached, faces[g][-1]) + 1):
                    b = OUT_TURNS * 2
                    for *costs, nxt, crossed in per_d[d]:
                        val = costs[more] + ((tg[nxt] - then[1] if tg else 0.0) if crossed else vg[nxt])
                        if val < b:
                            b = val
                    best[d] = b
                total = sq = 0.0
                for f in faces[g]:
                    b = best[f] if f <= reached else OUT_TURNS
                    for kk in range(1, min(kmax, f - 1) + 1):
                        alt = best[f - kk] + kk * brake
                        if alt < b:
                            b = alt
                    total += b
                    sq += b * b
                n = len(faces[g])
                mean = total / n
                expect[g] = mean
                ex[g][s] = (mean, math.sqrt(max(0.0, sq / n - mean * mean)))
            for g in range(1, top + 1):
                best_turns = OUT_TURNS * 2
                for h in gears[g]:
                    gb, br, en = downshift_cost(rs, g, h)
                    c = gb * PRICE[GEARBOX] + br * PRICE[BRAKES] + en * PRICE[ENGINE] + expect[h]
                    if c < best_turns:
                        best_turns = c
                v[g][s] = 1.0 + best_turns
    return tuple(tuple(row) for row in v), tuple(tuple(row) for row in ex)
