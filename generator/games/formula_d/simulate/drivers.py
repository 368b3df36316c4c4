"""The computer drivers: a simple rule-based one and a strong one.

Both choose a gear among those the rules allow, then, once the die is rolled, where the move ends among every
way the rules allow (:meth:`~.race.Race.options`: the full roll, braking, the pit).

**simple** — what a newcomer does. Gear: the highest whose average roll does not carry the car past the end of
the corner it still owes stops to (leaving a space for each further stop), else the lowest allowed. Move: not out,
no spin, the fewest wear points, the fewest damage markers, then the furthest, then the lane with the most
room if more stops are owed in the corner, else the inside line. Pits when down to two tire WP.

**strong** — looks ahead. For each gear it may choose it takes every face of that gear's die, and for each face
every space the move may end on (and every braking option), scoring each outcome by the turns still needed from
there (:mod:`.values`: the board's turns-to-go for a car alone, by space, gear and stops made) plus the wear
points it costs — priced by how many the car has left and how much of the race is left — the risk of a
collision where it stops and of damage markers on the way, the engine rolls a move in 5th or 6th invites (its
own top face and the other cars' in those gears: with its last engine WP a failed roll puts it out), and being
put out. A face's outcome is its best
space; a gear's cost is the mean over its faces plus a multiple of their spread: wary of risk in front, taking
more when behind. It pits when the tire WP it gets back are worth more than the time.

Every gear is first weighed on the empty board (the table's expectations over the same faces and spaces, worked
out once); with no car or damage marker within reach of the best of them that decides. Otherwise the three best
are weighed again, face by face and space by space, with the other cars where they stand and the car's own wear
points.
"""

from __future__ import annotations

import math

from .rules import (
    BODY,
    BRAKES,
    ENGINE,
    GEARBOX,
    HANDLING,
    PIT,
    RUN,
    TIRES,
    blocked_cost,
    downshift_cost,
    out_by_overshoot,
    overshoot,
)
from .values import OUT_TURNS, PRICE

KINDS = ("simple", "strong")
SHORTLIST = 3  # gears the strong driver weighs with the other cars in view


def make_driver(kind: str, setup):
    if kind == "simple":
        return Simple()
    if kind == "strong":
        return Strong(setup)
    raise ValueError(kind)


class Simple:
    kind = "simple"
    pit_below = 2

    def gear(self, race, car, options) -> int:
        b = race.b
        i = car.space
        k = b.zone[i]
        if k < 0:
            return max(options)
        owed = race.stops[k] - (car.made if car.cur == k else 0)
        if owed > 0:
            limit = b.to_exit[i] - (owed - 1)
        else:  # done here: the next corner's exit is the limit
            last = b.corners[k].last[b.lane[i]]
            nxt = b.ahead[last]
            k2 = b.zone[nxt]
            limit = b.to_exit[i] + 1 + b.to_exit[nxt] - (race.stops[k2] - 1 if k2 >= 0 else 0)
        means = race.rs.means
        fit = [g for g in options if means[g] <= limit]
        return max(fit) if fit else min(options)

    def choose(self, race, car, gear, roll, layers):
        """The whole roll if that costs nothing, else the best of every option, braking included."""
        choice, free = self._best(race, car, race.options(car, roll, layers, braking=False))
        if free:
            return choice
        return self._best(race, car, race.options(car, roll, layers))[0]

    def _best(self, race, car, options):
        best, best_key = None, None
        pit = car.wp[TIRES] <= self.pit_below
        b = race.b
        corner, to_exit, gap, stops = b.corner, b.to_exit, b.gap, race.stops
        cur, made = car.cur, car.made
        for o in options:
            e, d, k, left, st, in_pit = o
            if k or left or st[1] or in_pit:  # braking, blocked, overshooting or the pit: what does it cost?
                cause, tires, brakes, spin = race.assess(car, o)
                if in_pit:
                    if pit and cause is None:
                        return o, True
                    continue
                spent = (car.wp[TIRES] - tires) + (car.wp[BRAKES] - brakes)
                out = cause is not None
            else:
                out, spin, spent = False, False, 0
            c = corner[e]
            # stops still to make in this corner: the lane with the most room; else the inside line
            owed = c >= 0 and not st[1] and stops[c] > (made + 1 if c == cur else 1)
            key = (out, spin, spent, st[3], -d, -to_exit[e] if owed else gap[e], e)
            if best_key is None or key < best_key:
                best, best_key = o, key
        return best, best_key is not None and not (best_key[0] or best_key[1] or best_key[2] or best_key[3])

    def slipstream(self, race, car, gear, options):
        good = [o for o in options if race.assess(car, o) == (None, car.wp[TIRES], car.wp[BRAKES], False)]
        return max(good, key=lambda o: (o[1], -o[0])) if good else None


class Strong(Simple):
    kind = "strong"

    def __init__(self, setup):
        self.values = setup.values
        self.static = setup.static
        self.weights = [tuple((v, f.count(v) / len(f)) for v in sorted(set(f))) for f in setup.rules.faces]
        self._touching: tuple = (None, None)  # (car, round, space, cars on the board) → spaces touching a car

    # -- the race situation
    def prices(self, race, car) -> tuple[float, ...]:
        """Turns one WP of each zone is worth to this car now: more when few are left and much race is left."""
        left = max(0.0, min(1.0, 1.0 - (car.laps + race.b.mid[car.space] / race.b.lap) / race.rs.laps))
        return tuple(PRICE[z] * (0.4 + left) * 3.0 / (car.wp[z] + 1) for z in range(6))

    def risk(self, race, car) -> float:
        """How much a gear's spread of outcomes counts against it: wary in front, bold at the back."""
        n = sum(1 for c in race.cars if c.state in (RUN, PIT)) + len(race.finished)
        r = race.rank(car)
        if n <= 1 or r <= max(1, n // 3):
            return 0.35
        if r > 2 * n // 3:
            return -0.25
        return 0.1

    def engine_risk(self, race, car, gear: int, prices) -> float:
        """Turns a move in ``gear`` risks on the engine (*Motor damage*): in 5th or 6th the car rolls for its engine
        whenever a move in that gear rolls the top face — its own now, and each of the other cars' in 5th or 6th
        before it moves again. With one engine WP left a failed roll puts it out: a careful driver then keeps out
        of the top gears while others race in them."""
        rs = race.rs
        top = rs.strain[gear]
        if not top:
            return 0.0
        faces = rs.faces
        tests = faces[gear].count(top) / len(faces[gear])
        for c in race.cars:
            if c is not car and c.state == RUN and c.gear >= 5 and rs.strain[c.gear]:
                tests += faces[c.gear].count(rs.strain[c.gear]) / len(faces[c.gear])
        lo, hi = rs.engine_rain if race.rain else rs.engine
        return tests * (hi - lo + 1) / rs.black * (OUT_TURNS if car.wp[ENGINE] <= 1 else prices[ENGINE])

    def context(self, race, car, prices) -> tuple:
        """What every end of this turn's move shares: the spaces where ending means a collision roll (right behind
        or beside another car), the turns that roll costs, and the turns a damage marker's roll costs."""
        b, rs = race.b, race.rs
        key = (car.n, race.round, car.space, len(race.occ))
        if self._touching[0] == key:  # the gear, then the move: the cars stand where they stood
            touching = self._touching[1]
        else:
            touching = set()
            for sp, other in race.occ.items():
                if other is not car:
                    touching.update(b.behind[sp])
                    touching.update(b.side[sp])
            self._touching = (key, touching)
        lo, hi = rs.collision_rain if race.rain else rs.collision
        collide = (hi - lo + 1) / rs.black * (OUT_TURNS if car.wp[BODY] <= 1 else prices[BODY])
        lo, hi = rs.handling_rain if race.rain else rs.handling
        danger = (hi - lo + 1) / rs.black * (OUT_TURNS if car.wp[HANDLING] <= 1 else prices[HANDLING])
        return touching, collide, danger, {}

    def end(self, race, car, e: int, d: int, st: tuple, tires: int, prices, context) -> tuple | None:
        """Ending a move of ``d`` spaces on ``e`` (path state ``st``) with ``tires`` tire WP before any overshoot:
        ``(value table or None when over the finishing line, state, extra turns, spins)``, or None if it puts the
        car out."""
        rs, b = race.rs, race.b
        touching, collide, danger, memo = context
        extra = -d * 0.001
        spin = False
        laps = car.laps + (1 if st[2] else 0)
        if st[1]:
            key = (st[1], st[2], d, tires)
            over = memo.get(key)
            if over is None:
                over = memo[key] = self._overshoots(race, car, st, d, tires, prices, laps >= rs.laps)
            if not over:
                return None
            extra += over[0]
            spin = over[1]
        if laps >= rs.laps:
            return (None, 0, extra - d * 0.01, False)
        if e in touching:
            extra += collide
        if st[3]:
            extra += st[3] * danger
        k = b.corner[e]
        state = self.static.base[e]
        if k >= 0 and not st[1]:
            state += min(car.made + 1 if k == car.cur else 1, race.stops[k])
        values = self.values.of(car.wp[GEARBOX], car.wp[BRAKES])
        table = values.final if laps == rs.laps - 1 else values.more
        return (table, state, extra + (rs.laps - 1 - laps) * values.lap, spin)

    def _overshoots(self, race, car, st, d: int, tires: int, prices, finishing: bool) -> tuple | bool:
        """(turns the tire WP lost are worth, spins) for a path's overshoots, or False if they put the car out."""
        rs, stops = race.rs, race.stops
        have, spin = tires, False
        for corner, made, step in st[1]:
            if finishing and step > st[2]:
                continue
            if out_by_overshoot(rs, stops[corner], made):
                return False
            what, tires = overshoot(rs, tires, d - step + 1)
            if what == "out":
                return False
            spin = spin or what == "spin"
        return ((have - tires) * prices[TIRES], spin)

    @staticmethod
    def value(entry, gear: int) -> float:
        table, state, extra, spin = entry
        if table is None:
            return extra
        return table[1 if spin else gear][state] + extra

    def score(self, race, car, gear, option, prices, context=None) -> float:
        """Turns to the finish after ``option`` in ``gear``, wear and risks priced in."""
        e, d, k, left, st, pit = option
        cause, tires, brakes, spin = race.assess(car, option)
        if cause is not None:
            return OUT_TURNS + 30 - d * 0.01
        rs, b = race.rs, race.b
        cost = (car.wp[BRAKES] - brakes) * prices[BRAKES]
        if pit:
            laps = car.laps + (1 if b.pit.wraps else 0)
            values = self.values.of(car.wp[GEARBOX], car.wp[BRAKES])
            v = values.final if laps == rs.laps - 1 else values.more
            state = self.static.state(b, b.pit.garage(car.n), 0, race.stops)  # out from its own garage
            cost += (car.wp[TIRES] - tires) * prices[TIRES] - (rs.build[TIRES] - tires) * prices[TIRES]
            return v[rs.pit_exit_gear][state] + (rs.laps - 1 - laps) * values.lap + 0.5 + cost
        # the tires a blocked car pays come off before any overshoot (as race.assess counts them)
        paid = car.wp[TIRES] - (blocked_cost(rs, left) or (0, 0))[1] if left else car.wp[TIRES]
        entry = self.end(race, car, e, d, st, paid, prices, context or self.context(race, car, prices))
        if entry is None:
            return OUT_TURNS + 30 - d * 0.01
        return self.value(entry, gear) + cost + (car.wp[TIRES] - paid) * prices[TIRES]

    # -- the choices
    def gear(self, race, car, options) -> int:
        if len(options) == 1:
            return options[0]
        rs, b = race.rs, race.b
        risk = self.risk(race, car)
        top = rs.faces[max(options)][-1]
        forced = car.state == PIT  # out of the pits: any gear up to 4th, free
        static = self.static
        normal = car.wp[TIRES] >= 3 and car.wp[BRAKES] >= 1 and car.wp[BODY] >= 2 and car.wp[HANDLING] >= 2
        if not forced and car.cur == b.corner[car.space]:
            sid = static.state(b, car.space, car.made, race.stops)
            ranked = self._gear_alone(race, car, options, sid, risk)
            # nothing within reach of the board's best gear (a space beyond its longest move, where ending right
            # behind a car would cost a collision roll): the other cars can only make the other gears worse
            far = rs.faces[ranked[0]][-1]
            if normal and static.clear(sid, far + 1, race.occ, race.damage) > far:
                return ranked[0]
            # others in reach: the board's own three best gears, looked at again with the cars where they are
            options = sorted(ranked[:SHORTLIST])
            top = rs.faces[max(options)][-1]
        prices = self.prices(race, car)
        most = car.wp[BRAKES] // rs.brake_wp if rs.brake_wp else 0
        lowest = max(1, min(rs.faces[g][0] for g in options) - most)
        layers = race.layers(car, top)
        reached = len(layers) - 1
        rows, ends = self._rows(race, car, layers, lowest, prices)
        race.rows = ((car.n, car.space, car.laps, tuple(car.wp), id(layers)), rows, ends, lowest)
        brake = rs.brake_wp * prices[BRAKES]
        tires = car.wp[TIRES]
        best, best_cost = options[0], math.inf
        for g in options:
            cost = 0.0
            if not forced:
                gb, br, en = downshift_cost(rs, car.gear, g)
                if en and car.wp[ENGINE] <= en:
                    continue
                cost = gb * prices[GEARBOX] + br * prices[BRAKES] + en * prices[ENGINE]
            cost += self.engine_risk(race, car, g, prices)
            faces = rs.faces[g]
            at = [math.inf] * (reached + 1)
            for d in range(max(lowest, faces[0] - most), min(reached, faces[-1]) + 1):
                m = OUT_TURNS + 30
                for table, state, extra, spin in rows[d]:
                    v = (table[1 if spin else g][state] if table else 0.0) + extra
                    if v < m:
                        m = v
                at[d] = m
            mean = sq = 0.0
            for f, w in self.weights[g]:
                if f <= reached:
                    o = at[f]
                    for kk in range(1, min(most, f - 1) + 1):
                        alt = at[f - kk] + kk * brake
                        if alt < o:
                            o = alt
                else:  # blocked: as far as it can, paying for the rest
                    pay = blocked_cost(rs, f - reached)
                    if pay is None or car.wp[BRAKES] < pay[0] or tires < pay[1] or reached == 0:
                        o = OUT_TURNS + 30
                    else:
                        o = at[reached] + pay[0] * prices[BRAKES] + pay[1] * prices[TIRES]
                mean += w * o
                sq += w * o * o
            total = cost + mean + risk * math.sqrt(max(0.0, sq - mean * mean))
            if total < best_cost:
                best, best_cost = g, total
        return best

    def _rows(self, race, car, layers, lowest: int, prices) -> tuple[list, list]:
        """For each distance from ``lowest``, every end as ``(value table or None, state, extra turns, spins)``, and
        the spaces they end on (an end that puts the car out is left out of both)."""
        b, rs = race.b, race.rs
        context = self.context(race, car, prices)
        touching = context[0]
        laps = car.laps
        values = self.values.of(car.wp[GEARBOX], car.wp[BRAKES])
        table = values.final if laps == rs.laps - 1 else values.more
        offset = (rs.laps - 1 - laps) * values.lap
        corner, base, stops = b.corner, self.static.base, race.stops
        cur, made = car.cur, car.made
        tires = car.wp[TIRES]
        end = self.end
        memo = context[3]
        rows: list = [()] * len(layers)
        ends: list = [()] * len(layers)
        collide, danger = context[1], context[2]
        # after crossing the line: the next lap's table, or the race is over
        over_line = laps + 1 >= rs.laps
        table2 = values.final if laps + 1 == rs.laps - 1 else values.more
        offset2 = (rs.laps - 2 - laps) * values.lap
        for d in range(lowest, len(layers)):
            row = []
            append = row.append
            where = []
            at = where.append
            for e, st in layers[d].items():
                if st[1]:  # overshoots: worked out (and remembered) by end()
                    if memo.get((st[1], st[2], d, tires)) is False:
                        continue  # overshoots that put the car out, as a path before this one found
                    x = end(race, car, e, d, st, tires, prices, context)
                    if x is not None:
                        append(x)
                        at(e)
                    continue
                at(e)
                if st[2] and over_line:
                    append((None, 0, -d * 0.011, False))
                    continue
                k = corner[e]
                state = base[e] if k < 0 else base[e] + min(made + 1 if k == cur else 1, stops[k])
                extra = -d * 0.001
                if e in touching:
                    extra += collide
                if st[3]:
                    extra += st[3] * danger
                if st[2]:
                    append((table2, state, offset2 + extra, False))
                else:
                    append((table, state, offset + extra, False))
            rows[d] = row
            ends[d] = where
        return rows, ends

    def _gear_alone(self, race, car, options, sid: int, risk: float) -> list[int]:
        """The gears best first as the board's own expectations (:mod:`.values`) rank them: what decides with no
        car or damage marker within reach, and the shortlist when there is one."""
        rs = race.rs
        prices = self.prices(race, car)
        values = self.values.of(car.wp[GEARBOX], car.wp[BRAKES])
        table = values.final_e if car.laps == rs.laps - 1 else values.more_e
        ranked = []
        for g in options:
            gb, br, en = downshift_cost(rs, car.gear, g)
            if en and car.wp[ENGINE] <= en:
                continue
            mean, spread = table[g][sid]
            wear = gb * prices[GEARBOX] + br * prices[BRAKES] + en * prices[ENGINE]
            wear += self.engine_risk(race, car, g, prices)
            ranked.append((wear + mean + risk * spread, g))
        return [g for _, g in sorted(ranked)] or [options[-1]]

    def choose(self, race, car, gear, roll, layers):
        """The option of the fewest turns to go, wear and risks priced in (:meth:`score`); an end that leaves no
        corner, crosses no line, passes no damage marker and touches no car is worked out here directly."""
        prices = self.prices(race, car)
        context = self.context(race, car, prices)
        touching, collide, danger = context[0], context[1], context[2]
        rs, b = race.rs, race.b
        laps = car.laps
        values = self.values.of(car.wp[GEARBOX], car.wp[BRAKES])
        row = (values.final if laps == rs.laps - 1 else values.more)[gear]
        offset = (rs.laps - 1 - laps) * values.lap
        last = laps + 1 >= rs.laps  # over the line the race is over
        row2 = (values.final if laps + 1 == rs.laps - 1 else values.more)[gear]
        offset2 = (rs.laps - 2 - laps) * values.lap
        brake_wp = rs.brake_wp
        corner, base, stops, track_n = b.corner, self.static.base, race.stops, b.track_n
        cur, made = car.cur, car.made
        known = race.rows
        if known is not None and known[0] != (car.n, car.space, car.laps, tuple(car.wp), id(layers)):
            known = None  # worked out for another position, another wear (a downshift's cost), other layers
        looked: dict = {}
        best, best_key = None, None
        for o in race.options(car, roll, layers):
            e, d, k, left, st, pit = o
            if known is not None and not left and not pit and d >= known[3] and (st[1] or (st[2] and last)):
                # as the gear's choice worked it out: the entry's value, the braking priced
                ends = looked.get(d)
                if ends is None:
                    ends = looked[d] = dict(zip(known[2][d], known[1][d], strict=True))
                entry = ends.get(e)
                if entry is None:  # an end that puts the car out
                    value = OUT_TURNS + 30 - d * 0.01
                else:
                    value = self.value(entry, gear) + ((k * brake_wp) * prices[BRAKES] if e < track_n else 0.0)
            elif left or pit or st[1] or (st[2] and last):
                value = self.score(race, car, gear, o, prices, context)
            else:
                c = corner[e]
                state = base[e] if c < 0 else base[e] + min(made + 1 if c == cur else 1, stops[c])
                extra = -d * 0.001  # summed as score() sums it, to the last bit: the same choices
                if e in touching:
                    extra += collide
                if st[3]:
                    extra += st[3] * danger
                value = row2[state] + (extra + offset2) if st[2] else row[state] + (extra + offset)
                value += (k * brake_wp) * prices[BRAKES] if e < track_n else 0.0
            key = (value, e, k)
            if best_key is None or key < best_key:
                best, best_key = o, key
        return best

    def slipstream(self, race, car, gear, options):
        if not options:
            return None
        prices = self.prices(race, car)
        stay = (car.space, 0, 0, 0, (0, (), 0, 0), 0)
        here = self.score(race, car, gear, stay, prices)
        best = min(options, key=lambda o: (self.score(race, car, gear, o, prices), o[0]))
        return best if self.score(race, car, gear, best, prices) < here else None
