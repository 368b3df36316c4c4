"""One Formula D race, played out: the start, the rounds, every move and black-die check, the pit stops, the
finish — and what a designer wants counted, added to a :class:`~generator.simulate.tally.Tally`.

The rulebook's sections, in the order a turn meets them: *Start formation* (the grid by the black die, the start
roll: 1 stalls, 20 moves 4 spaces at once), *Order of play* (the car in front first; level cars: the higher gear,
then the inside of the corner), *Gears* (up one at a time; down with the *Changing down* costs), the move
(:mod:`.rules`: corners, overshooting, braking, blocking), *Damage and road handling* (a roll for every damage
marker passed), *Collision* (ending beside or behind a car), *Motor damage* (20 in 5th or 30 in 6th: every car in
5th or 6th tests its engine), *Slipstreaming* and *Weather* when asked, *Pit stop* (the pit lane driven: in to the
car's own garage, out from it), and the finish ("the race ends when all cars have crossed the finishing line").

An overtake is a change in the order of play: a car that ends a move more than half a space ahead of a car that
was ahead of it (drawing level is no overtake: the order of play treats level cars as level), still ahead when
the round ends. Those of the first round, the start, are counted apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key

from ....simulate.rng import race_random
from ....simulate.tally import Tally, sample, spearman_d2
from .rules import (
    BODY,
    BRAKES,
    ENGINE,
    FIN,
    GEARBOX,
    HANDLING,
    OUT,
    PIT,
    RUN,
    TIRES,
    blocked_cost,
    downshift_cost,
    gear_options,
    out_by_overshoot,
    overshoot,
    reach,
)

MAX_ROUNDS = 400  # a race still running after this many rounds is stopped (a board no car can get round)
DEPTH = 30


@dataclass(frozen=True)
class Setup:
    """Everything a race needs, sent once to each worker process."""

    board: object  # RaceBoard
    rules: object  # RuleSet
    kinds: tuple[str, ...]  # the driver of each car
    static: object  # StaticReach: the moves on the empty board
    values: object = None  # ValueTable, for strong drivers


class Car:
    __slots__ = (
        "n", "kind", "driver", "space", "gear", "laps", "cur", "made", "wp", "state", "start", "forced", "pits",
        "turns", "grid", "place", "cause", "prog", "zone_rank", "touched", "sixth", "out_prog", "boxed",
    )  # fmt: skip

    def __init__(self, n: int, kind: str, driver, space: int, grid: int, wp: tuple[int, ...], laps: int, prog):
        self.n, self.kind, self.driver, self.space, self.grid = n, kind, driver, space, grid
        self.gear, self.laps, self.cur, self.made = 0, laps, -1, 0
        self.wp = list(wp)
        self.state, self.start, self.forced, self.pits, self.turns = RUN, 1, None, 0, 0
        self.place, self.cause, self.prog, self.out_prog = 0, None, prog, 0.0
        self.zone_rank, self.touched, self.sixth = grid, (), set()
        self.boxed = False  # in its garage (a pit stop): off the pit lane, in no one's way


def batch(setup: Setup, seed: int, first: int, count: int) -> Tally:
    """Races ``first`` … ``first + count - 1`` of the run seeded ``seed``: their tally."""
    from .drivers import make_driver

    tally = Tally()
    drivers = {kind: make_driver(kind, setup) for kind in sorted(set(setup.kinds))}
    for i in range(first, first + count):
        Race(setup, race_random(seed, i), tally, drivers).run()
    return tally


#: The race figures two designs are compared on, race by race (:func:`pair_batch`).
PAIRED = ("turns", "dnf", "overtakes", "start_overtakes", "pole_win")
#: A per-race ratio (spaces a turn) kept whole for the paired sums: in millionths.
MILLIONTHS = 1_000_000


def pair_batch(setups: tuple[Setup, Setup], seed: int, first: int, count: int) -> Tally:
    """Races ``first`` … ``first + count - 1`` on two designs with the same dice (race ``i`` of each from the
    same stream): their tallies, keyed ``(0, …)`` and ``(1, …)``, and the race-by-race differences (second less
    first) of the :data:`PAIRED` figures, of the spaces a turn (millionths) and of each corner's WP lost (when
    the designs have as many corners), sampled under ``("pair", …)``."""
    from .drivers import make_driver

    sides = (Tally(), Tally())
    pairs = Tally()
    drivers = [{kind: make_driver(kind, s) for kind in sorted(set(s.kinds))} for s in setups]
    for i in range(first, first + count):
        a = Race(setups[0], race_random(seed, i), sides[0], drivers[0]).run()
        b = Race(setups[1], race_random(seed, i), sides[1], drivers[1]).run()
        for name in PAIRED:
            if a[name] is not None and b[name] is not None:
                sample(pairs, name, b[name] - a[name])
        if a["turns_taken"] and b["turns_taken"]:
            ra, rb = a["spaces"] / a["turns_taken"], b["spaces"] / b["turns_taken"]
            sample(pairs, "spaces_per_turn", round(MILLIONTHS * (rb - ra)))
        if len(a["corner_wp"]) == len(b["corner_wp"]):
            for k, (wa, wb) in enumerate(zip(a["corner_wp"], b["corner_wp"], strict=True)):
                sample(pairs, ("corner_wp", k), wb - wa)
    out = Tally()
    for side, t in enumerate(sides):
        for key, v in t.items():
            out[(side, *key)] = v
    for key, v in pairs.items():
        out[("pair", *key)] = v
    return out


class Race:
    def __init__(self, setup: Setup, rng, tally: Tally, drivers: dict):
        b, rs = setup.board, setup.rules
        self.b, self.rs, self.rng, self.t = b, rs, rng, tally
        self.values = setup.values
        self.static = setup.static
        self.stops = tuple(c.stops for c in b.corners)
        self.occ: dict[int, Car] = {}
        self.damage: set[int] = set()
        self.finished: list[Car] = []
        self.round = 0
        self.overtakes = [0, 0]  # at the start (the first round), in the race
        self.passes: dict = {}  # this round's passes: (car, car passed) -> (space passed on, line)
        self.level = b.lap / max(1.0, b.track_n / b.lanes)  # the length of an average space along the lap
        self.tol = self.level / 2  # cars within half a space of each other are level
        self.ahead: dict = {}  # (car, car) -> 1 if the first was last seen ahead of the second (the grid's at first)
        self.spaces = 0  # spaces moved by every car, this race
        self.corner_wp = [0] * len(b.corners)  # WP lost by the corner where it was lost, this race
        # counted a move at a time, added to the tally when the race ends: moves by gear, and per straight (zone)
        # moves by gear, passes along it, passes with a move in 6th gear
        self.gears = [0] * 7
        self.gear_on = [[0] * 7 for _ in b.corners]
        self.visits = [0] * len(b.corners)
        self.sixths = [0] * len(b.corners)
        self.cache = None  # (car, layers) the driver already worked out this turn
        self.rows = None  # what the driver worked out choosing its gear, for choosing its move (its own key)
        self.overshot = -1  # the corner whose overshoot put a car out, as :meth:`assess` last found it
        self.weather = 0
        self.rain = rs.rain
        if rs.weather:  # *Weather conditions*: the chart is rolled before the race
            self.weather = self._chart(self.black())
            self.rain = self.rain or self.weather >= 2
        # *Start formation*: the black die sets the grid (ties re-rolled): a random order
        order = list(range(len(setup.kinds)))
        rng.shuffle(order)
        self.cars: list[Car] = [None] * len(order)  # type: ignore[list-item]
        for pos, n in enumerate(order):
            space = b.grid[pos]
            laps = -1 if b.mid[space] > b.lap / 2 else 0
            kind = setup.kinds[n]
            car = Car(n, kind, drivers[kind], space, pos + 1, rs.build, laps, laps * b.lap + b.mid[space])
            k = b.corner[space]
            if k >= 0:  # a grid slot inside a corner (Paddock's reading, --assume grid_owed): stops owed there
                car.cur, car.made = k, max(0, self.stops[k] - rs.grid_owed)
            self.cars[n] = car
            self.occ[space] = car
        for a in self.cars:
            for o in self.cars:
                if a.n < o.n:
                    self.ahead[(a.n, o.n)] = 1 if a.grid < o.grid else 0

    # ------------------------------------------------------------------------------------------------ dice
    def black(self) -> int:
        return int(self.rng.random() * self.rs.black) + 1

    def gear_die(self, gear: int) -> int:
        faces = self.rs.faces[gear]
        return faces[int(self.rng.random() * len(faces))]

    def _chart(self, roll: int) -> int:
        good, changeable, rain_changeable = self.rs.weather_chart
        return 0 if roll <= good else 1 if roll <= changeable else 2 if roll <= rain_changeable else 3

    # ------------------------------------------------------------------------------------------------ race
    def run(self) -> dict:
        """Race to the end, counted into the tally: the race's headline figures (``turns``: the winner's, None if
        no car finished; ``dnf``; ``overtakes`` and ``start_overtakes``; ``pole_win``; ``spaces`` moved and
        ``car_turns`` taken by every car)."""
        cars = self.cars
        b = self.b
        play = cmp_to_key(self._before)
        while self.round < MAX_ROUNDS:
            self.round += 1
            # *Order of play*: the car in front first; level cars (within half a space): the higher gear, then
            # the inside of the corner; then the grid. Cars in the pit lane wait for the cars on the track.
            track = [c for c in cars if c.state == RUN and c.space < b.track_n]
            if not track and not any(c.state == PIT or c.state == RUN for c in cars):
                break
            track.sort(key=play)
            pit = [c for c in cars if c.state == PIT or (c.state == RUN and c.space >= b.track_n)]
            pit.sort(key=lambda c: (-c.prog, c.grid))
            for car in track + pit:
                if car.state in (RUN, PIT):
                    car.turns += 1
                    self.turn(car)
            self._held()
            if not any(c.state in (RUN, PIT) for c in cars):
                break
        for c in cars:
            if c.state in (RUN, PIT):  # stopped: a board no car can get round
                self.out(c, "stopped", c.space if c.state == RUN else None)
        return self._count(b)

    def _before(self, a: Car, c: Car) -> int:
        """The order of play between two cars on the track: -1 if ``a`` plays first."""
        if abs(a.prog - c.prog) > self.tol:
            return -1 if a.prog > c.prog else 1
        ka = (-a.gear, self._inside(a), a.grid)
        kc = (-c.gear, self._inside(c), c.grid)
        return -1 if ka < kc else 1 if ka > kc else 0

    def _inside(self, car: Car) -> int:
        return self.b.gap[car.space]

    def turn(self, car: Car) -> None:
        rs = self.rs
        self.cache = self.rows = None
        if car.state == PIT:
            return self.leave_pit(car)

        if car.start == 1:  # *Start formation*: the start roll before engaging 1st gear
            roll = self.black()
            car.start = 0
            if roll <= rs.stall[1]:
                car.start = 2  # stalled: next round starts in 1st without rolling again
                self.t.add("stall")
                return None
            if roll >= rs.great[0]:
                self.t.add("great_start")
                return self.move(car, 1, rs.great_spaces)
            return self.move(car, 1, self.gear_die(1))
        if car.start == 2:
            car.start = 0
            return self.move(car, 1, self.gear_die(1))
        if car.forced is not None:
            options, car.forced = car.forced, None
            gear = car.driver.gear(self, car, options)
        else:
            w = car.wp
            options = gear_options(rs, car.gear, w[GEARBOX], w[BRAKES], w[ENGINE])
            gear = car.driver.gear(self, car, options)
            gb, br, en = downshift_cost(rs, car.gear, gear)
            if gb or br or en:
                self.lose(car, car.space, GEARBOX, gb)
                self.lose(car, car.space, BRAKES, br)
                self.lose(car, car.space, ENGINE, en)
                if en:  # *Damage and road handling*: an engine WP lost leaves a damage marker
                    self.damage.add(car.space)
                if w[ENGINE] <= 0:
                    return self.out(car, "engine", car.space)
        return self.move(car, gear, self.gear_die(gear))

    def layers(self, car: Car, depth: int) -> list[dict]:
        """Where ``car`` can get this turn (see :func:`.rules.reach`), worked out once a turn."""
        if self.cache is not None and self.cache[0] is car and self.cache[1] >= depth:
            return self.cache[2]
        b, occ = self.b, self.occ
        static = self.static
        head = None
        if car.cur == b.corner[car.space]:
            sid = static.state(b, car.space, car.made, self.stops)
            sure = static.clear(sid, depth, occ, self.damage)
            head = static.layers[sid][: sure + 1]
            if sure >= depth or len(head) <= sure:  # nothing in the way (or the empty board ends there)
                self.cache = (car, depth, head)
                return head
        layers = reach(b, car.space, car.cur, car.made, self.stops, depth, occ, self.damage, head)
        self.cache = (car, depth, layers)
        return layers

    def options(self, car: Car, roll: int, layers: list[dict], braking: bool = True) -> list[tuple]:
        """Every way the move may end: ``(space, spaces moved, spaces braked, spaces blocked, path state, pit)``;
        without ``braking``, only the whole roll (or as far as a blocked car gets) and the pit."""
        reached = len(layers) - 1
        full, left = (roll, 0) if roll <= reached else (reached, roll - reached)
        brake = self.rs.brake_wp
        most = car.wp[BRAKES] // brake if brake and braking else 0
        out = []
        for k in range(0, most + 1):
            d = full - k
            if d < 1 and not (d == 0 and k == 0):
                break
            for e, st in layers[d].items():
                out.append((e, d, k, left, st, 0))
        pit = self.b.pit
        if pit is not None and roll >= self.rs.pit_roll and self.may_pit(car):
            for d in range(0, min(reached, roll - 1) + 1):
                st = layers[d].get(pit.entry)
                if st is not None and not st[1]:
                    out.append((pit.entry, d, 0, 0, st, 1))
                    break
        return out

    def assess(self, car: Car, option: tuple, book: list | None = None) -> tuple:
        """What an option does to ``car``: ``(cause it is out for or None, tires left, brakes left, spins)``.
        ``book``: given a list, the tire WP each overshoot costs is added to it as ``(corner, WP)``. In the pit lane
        braking, and waiting behind a car, cost nothing (*Pit stop*: those rules do not apply there)."""
        rs = self.rs
        e, d, k, left, st, _ = option
        free = e >= self.b.track_n
        brakes = car.wp[BRAKES] - (0 if free else k * rs.brake_wp)
        tires = car.wp[TIRES]
        if left and not free:
            cost = blocked_cost(rs, left)
            if cost is None or brakes < cost[0] or tires < cost[1]:
                return ("blocked", tires, brakes, False)
            brakes -= cost[0]
            tires -= cost[1]
        spin = False
        events, line = st[1], st[2]
        if events:
            finishing = line and car.laps + 1 >= rs.laps
            stops = self.stops
            for corner, made, step in events:
                if finishing and step > line:
                    continue
                if out_by_overshoot(rs, stops[corner], made):
                    self.overshot = corner
                    return ("overshoot", tires, brakes, spin)
                had = tires
                what, tires = overshoot(rs, tires, d - step + 1)
                if what == "out":
                    self.overshot = corner
                    return ("overshoot", tires, brakes, spin)
                if book is not None:
                    book.append((corner, had - tires))
                spin = spin or what == "spin"
        return (None, tires, brakes, spin)

    def move(self, car: Car, gear: int, roll: int) -> None:
        layers = self.layers(car, roll)
        choice = car.driver.choose(self, car, gear, roll, layers)
        self.apply(car, gear, roll, choice)

    def apply(self, car: Car, gear: int, roll: int, option: tuple, slip: bool = False) -> None:
        b, rs, t = self.b, self.rs, self.t
        e, d, k, left, st, pit = option
        book: list = []
        if k or left or st[1]:
            cause, tires, brakes, spin = self.assess(car, option, book)
        else:  # the common move: no braking, nothing in the way, no corner overshot
            cause, tires, brakes, spin = None, car.wp[TIRES], car.wp[BRAKES], False
        start = car.space
        p0 = car.prog
        if car.wp[BRAKES] != brakes:
            self.lose(car, e, BRAKES, car.wp[BRAKES] - brakes)
        for corner, n in book:  # an overshoot's wear, booked to the corner overshot
            self.lose(car, b.corners[corner].last[b.lane[e]], TIRES, n, corner)
        if car.wp[TIRES] != tires:  # what is left: a blocked car's
            self.lose(car, e, TIRES, car.wp[TIRES] - tires)
        if left and e < b.track_n:
            t.add("blocked", b.zone[e])
        events = st[1]
        if events and st[2] and car.laps + 1 >= rs.laps:  # past the finishing line no corner counts
            events = tuple(ev for ev in events if ev[2] <= st[2])
        for corner, _, step in events:
            t.add("overshoot", corner)
            t.add("overshoot_spaces", corner, n=d - step + 1)
        self._passed(car, e, events)
        if self.occ.get(start) is car:
            del self.occ[start]
        car.boxed = False
        car.space = e
        if st[2]:
            car.laps += 1
        car.prog = car.laps * b.lap + b.mid[e]
        self.spaces += d
        self.gears[gear] += 1
        if pit:
            return self.enter_pit(car, gear)
        if cause is not None:  # out where it happened: an overshoot in the corner it overshot
            return self.out(car, cause, e, self.overshot if cause == "overshoot" else None)
        if car.laps >= rs.laps:
            return self.finish(car)
        self.occ[e] = car
        car.gear = gear
        if spin:
            car.gear, car.forced = 1, (1,)
            t.add("spin", events[-1][0] if events else b.zone[e])
        ke = b.corner[e]
        if ke < 0:
            car.cur, car.made = -1, 0
        else:
            t.add("in_corner", ke)
            if st[1]:
                car.cur, car.made = ke, 0  # an overshoot ending in the next corner is no stop there
            else:
                car.made = car.made + 1 if ke == car.cur else 1
                car.cur = ke
                t.add("stop", ke, b.line_of(e))
        self._moved(car, start, p0, gear, e)
        if e >= b.track_n:  # the pit lane: no collision, no damage marker, no slipstream
            return None
        if st[3] and not self._danger(car, st[3]):
            return None
        if not self._collision(car):
            return None
        if rs.strain[gear] and roll == rs.strain[gear]:
            self._engines()
            if car.state != RUN:
                return None
        if rs.slipstream and not slip and car.state == RUN:
            self._slipstream(car, gear)
        return None

    def _passed(self, car: Car, end: int, events: tuple) -> None:
        """Count the corners a move took the car through: the one it was in, if it ends outside it, and any it
        overshot on the way (the passes an overshoot is a share of)."""
        cur = car.cur
        if cur >= 0 and self.b.corner[end] != cur:
            self.t.add("pass", cur)
        for corner, _, _ in events:
            if corner != cur:
                self.t.add("pass", corner)

    # ----------------------------------------------------------------------------------- black-die checks
    def _hit(self, lo_hi: tuple[int, int], rain: tuple[int, int]) -> bool:
        lo, hi = rain if self.rain else lo_hi
        return lo <= self.black() <= hi

    def _danger(self, car: Car, hits: int) -> bool:
        """*Damage and road handling*: a roll for each damage marker passed or landed on. False if out."""
        for _ in range(hits):
            self.t.add("danger_roll")
            if self._hit(self.rs.handling, self.rs.handling_rain):
                self.lose(car, car.space, HANDLING, 1)
                if car.wp[HANDLING] <= 0:
                    self.out(car, "road handling", car.space)
                    return False
        return True

    def _collision(self, car: Car) -> bool:
        """*Collision*: ending beside or behind another car. False if out."""
        occ = self.occ
        e = car.space
        touching = self.b.ahead[e] in occ
        if not touching:
            for s in self.b.side[e]:
                if s in occ:
                    touching = True
                    break
        if touching:
            self.t.add("collision_roll")
            if self._hit(self.rs.collision, self.rs.collision_rain):
                self.lose(car, e, BODY, 1)
                self.damage.add(e)
                if car.wp[BODY] <= 0:
                    self.out(car, "collision", e)
                    return False
        return True

    def _engines(self) -> None:
        """*Motor damage*: every car in 5th or 6th gear rolls for its engine."""
        self.t.add("engine_test")
        for c in self.cars:
            if c.state == RUN and c.gear >= 5 and self._hit(self.rs.engine, self.rs.engine_rain):
                self.lose(c, c.space, ENGINE, 1)
                self.damage.add(c.space)
                if c.wp[ENGINE] <= 0:
                    self.out(c, "engine", c.space)
        if self.rs.weather and self.weather in (1, 2):  # a changeable sky may change
            line = self._chart(self.black())
            if line == 0:
                self.weather -= 1
            elif line == 3:
                self.weather += 1
            self.rain = self.rs.rain or self.weather >= 2

    def _slipstream(self, car: Car, gear: int) -> None:
        """*Slipstreaming* (optional): stopped right behind a car, both in 4th or higher and this one as fast or
        faster, a car may add 3 spaces, changing lanes to get by; again if that ends behind another car."""
        rs = self.rs
        while car.state == RUN and gear >= rs.slip_gear:
            front = self.occ.get(self.b.ahead[car.space])
            if front is None or front.gear < rs.slip_gear or front.gear > gear:
                return
            self.cache = None
            layers = self.layers(car, rs.slip_spaces)
            options = [o for o in self.options(car, rs.slip_spaces, layers) if not o[5] and not o[3]]
            choice = car.driver.slipstream(self, car, gear, options)
            if choice is None:
                return
            self.t.add("slipstream")
            self.apply(car, gear, 0, choice, slip=True)

    # -------------------------------------------------------------------------------------------- the pits
    def may_pit(self, car: Car) -> bool:
        """*Pit stop*: at the end of a lap but the last, once per lap (two stops in three laps)."""
        pit, laps = self.b.pit, self.rs.laps
        if car.pits >= laps - 1:
            return False
        if pit.wraps or pit.entry_late:
            return 0 <= car.laps <= laps - 2
        return 1 <= car.laps <= laps - 1

    def enter_pit(self, car: Car, gear: int) -> None:
        """Into the pit lane at its entry and on to the car's own garage (no exact roll needed): all tire WP back,
        then the black die: 1–10 out at once, (roll / 2, rounded up) spaces in 4th gear from the garage; 11–20 out
        next round."""
        b = self.b
        pit = b.pit
        self.t.add("pit")
        car.pits += 1
        garage = pit.garage(car.n)
        if b.mid[garage] < b.mid[car.space] - b.lap / 2:  # the garage lies past the start/finish line
            car.laps += 1
        car.space = garage
        car.prog = car.laps * b.lap + b.mid[garage]
        car.state, car.boxed = PIT, True
        self._sync(car)
        lost = self.rs.build[TIRES] - car.wp[TIRES]
        self.t.add("tires_back", n=lost)
        car.wp[TIRES] = self.rs.build[TIRES]
        car.cur, car.made, car.gear = -1, 0, self.rs.pit_exit_gear
        roll = self.black()
        lo, hi = self.rs.pit_quick
        if lo <= roll <= hi:  # quick: out at once, (roll / 2, rounded up) spaces in 4th gear
            self.t.add("pit_quick")
            self._leave(car, self.rs.pit_exit_gear, -(-roll // 2))
        else:
            self.t.add("pit_slow")

    def leave_pit(self, car: Car) -> None:
        """A slow stop's next round: out of the garage in 4th gear or lower (no downshift costs in the pit lane),
        the gear die's roll."""
        gear = car.driver.gear(self, car, tuple(range(1, self.rs.pit_exit_gear + 1)))
        car.gear = gear
        self._leave(car, gear, self.gear_die(gear))

    def _leave(self, car: Car, gear: int, spaces: int) -> None:
        """Out of the garage: a move of ``spaces`` along the pit lane and on onto the track, as any move there (a
        corner after the pit exit is a corner like any other). A car standing on the pit lane beside the garage
        keeps it in: it waits (no WP: the pit lane's rules)."""
        if car.space in self.occ:
            car.state = PIT
            return
        car.state = RUN
        self.cache = None
        self.move(car, gear, spaces)
        if car.state == RUN:
            car.zone_rank = self.rank(car)

    # -------------------------------------------------------------------------------------------- outcomes
    def lose(self, car: Car, space: int, zone: int, n: int, corner: int | None = None) -> None:
        """``car`` loses ``n`` WP of ``zone`` on ``space``: counted there and at the corner whose zone it is
        (``corner``: another, e.g. the corner an overshoot left)."""
        if n <= 0:
            return
        car.wp[zone] -= n
        k = self.b.zone[space] if corner is None else corner
        self.t.add("wp", k, zone, n=n)
        self.t.add("wp_space", space, n=n)
        if k >= 0:
            self.corner_wp[k] += n

    def out(self, car: Car, cause: str, space: int | None, zone: int | None = None) -> None:
        """``car`` is out, for ``cause``, on ``space``: counted in ``zone`` (default: the space's)."""
        if self.occ.get(car.space) is car:
            del self.occ[car.space]
        car.state, car.cause, car.out_prog = OUT, cause, car.prog
        if space is not None:
            if space < self.b.track_n:
                self.damage.add(space)
            self.t.add("dnf_at", self.b.zone[space] if zone is None else zone, cause)
            self.t.add("dnf_space", space)

    def finish(self, car: Car) -> None:
        car.state = FIN
        self.finished.append(car)
        car.place = len(self.finished)

    def rank(self, car: Car) -> int:
        p = car.prog
        return 1 + len(self.finished) + sum(1 for c in self.cars if c.state in (RUN, PIT) and c.prog > p)

    def _moved(self, car: Car, start: int, p0: float, gear: int, end: int) -> None:
        """Count what a move did: the cars it got clear ahead of (an overtake if it holds to the round's end,
        :meth:`_held`), places won or lost through a corner, the gears used on the straights."""
        b, t = self.b, self.t
        p1 = car.prog
        tol = self.tol
        for other in self.cars:
            if other is not car and other.state <= PIT and p0 <= other.prog + tol < p1:
                self.passes[(car.n, other.n)] = (other.space, b.line_of(end))
        z0, z1 = b.zone[start], b.zone[end]
        if z0 < 0:
            return
        if z0 != z1:
            r = self.rank(car)
            delta = car.zone_rank - r
            if delta > 0:
                t.add("gained", z0, n=delta)
            elif delta < 0:
                t.add("lost", z0, n=-delta)
            car.zone_rank = r
        # the straights (approaches) this move was on: its gear there, and 6th gear on each pass along one
        count = len(b.corners)
        touched = [z0] if b.corner[start] < 0 else []
        z = z0
        while z != z1:
            z = (z + 1) % count
            touched.append(z)
        if b.corner[end] < 0 and z1 not in touched:
            touched.append(z1)
        gear_on, seen = self.gear_on, car.touched
        for z in touched:
            gear_on[z][gear] += 1
            if z not in seen:
                self.visits[z] += 1
                car.sixth.discard(z)
            if gear == 6 and z not in car.sixth:
                self.sixths[z] += 1
                car.sixth.add(z)
        car.touched = tuple(touched)

    def _held(self) -> None:
        """The round's overtakes that held: the order between the two cars changed (the passer is still more than
        half a space ahead, or over the line first) — a car passed and passed back within the round, or only
        drawn level, changed no place. Then the order of every pair as the round leaves it."""
        t, b, cars, ahead, tol = self.t, self.b, self.cars, self.ahead, self.tol
        start = self.round == 1
        for (n, m), (space, line) in self.passes.items():
            a, o = cars[n], cars[m]
            key = (n, m) if n < m else (m, n)
            if ahead[key] == (1 if n < m else 0):  # already ahead of it
                continue
            if a.state == FIN:
                held = o.state != FIN or a.place < o.place
            else:
                held = a.state <= PIT and o.state <= PIT and a.prog > o.prog + tol
            if not held:
                continue
            ahead[key] = 1 if n < m else 0
            self.overtakes[0 if start else 1] += 1
            if start:
                t.add("start_overtake", space)
            else:
                t.add("overtake", space)
                t.add("overtake_line", b.zone[space], line)
        self.passes.clear()

    def _sync(self, car: Car) -> None:
        """The order between ``car`` and every other car as they stand, after a jump no move made (into the pits:
        to its garage)."""
        for o in self.cars:
            if o is not car and o.state <= PIT and abs(car.prog - o.prog) > self.tol:
                key = (car.n, o.n) if car.n < o.n else (o.n, car.n)
                self.ahead[key] = 1 if (car.prog > o.prog) == (car.n < o.n) else 0

    def _count(self, b) -> dict:
        t = self.t
        cars = self.cars
        t.add("races")
        t.add("rounds", self.round)
        t.add("overtakes_race", self.overtakes[1])
        t.add("start_overtakes", self.overtakes[0])
        fin = self.finished
        t.add("finishers", len(fin))
        out = sorted((c for c in cars if c.state == OUT), key=lambda c: (-c.out_prog, c.grid))
        for c in out:
            t.add("dnf", c.cause)
        t.add("dnf_race", len(out))
        if fin:
            win = fin[0]
            t.add("turns", win.turns)
            t.add("win_from", win.grid)
            t.add("win_kind", win.kind)
        for c in fin:
            t.add("car_turns", c.turns)
        order = fin + out
        for place, c in enumerate(order, 1):
            c.place = place
            t.add("place", c.kind, place)
            t.add("place_from", c.grid, place)
        t.add("d2", n=spearman_d2([c.grid for c in order], [c.place for c in order]))
        for g, v in enumerate(self.gears):
            if v:
                t.add("gear", g, n=v)
        for z, row in enumerate(self.gear_on):
            for g, v in enumerate(row):
                if v:
                    t.add("gear_on", z, g, n=v)
            if self.visits[z]:
                t.add("visit", z, n=self.visits[z])
            if self.sixths[z]:
                t.add("sixth", z, n=self.sixths[z])
        t.add("moved", n=self.spaces)
        turns = sum(c.turns for c in cars)
        sample(t, "spaces", self.spaces)
        sample(t, "turns_taken", turns)
        t.add("xy", "spaces", "turns_taken", n=self.spaces * turns)
        for k, wp in enumerate(self.corner_wp):
            sample(t, ("corner_wp", k), wp)
        return {
            "turns": fin[0].turns if fin else None,
            "dnf": len(out),
            "overtakes": self.overtakes[1],
            "start_overtakes": self.overtakes[0],
            "pole_win": 1 if fin and fin[0].grid == 1 else 0,
            "spaces": self.spaces,
            "turns_taken": turns,
            "corner_wp": tuple(self.corner_wp),
        }
