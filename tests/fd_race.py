"""A Formula D race played from the kit a pack prints (issue 42): seeded computer drivers, every number read from
the printed sheets — the dashboard's gears, the cards' ordinary dice and black-die stand-in, downshift wear,
braking, the blocked table, the black-die checks, overshooting, the board's pit roll and corners, the weather
chart, each car's WP off its scorecard — and every situation settled by words the sheets print (:data:`RULES`). A
situation whose number or words the sheets leave out (a write-in left blank) stops the race with
:class:`Uncovered`, naming it.

The board is raced single file along its middle lane, as many cars abreast on a space as the board has lanes: where
the board's spaces and corners are is the one thing taken from the circuit itself (its middle lane and
:func:`~generator.games.formula_d.overlay.corner_marks`), the stops each corner asks are checked against the flags
the board prints.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field

RULES: dict[str, tuple[str, ...]] = {
    "gears": ("GEAR · SPACES MOVED",),
    "shift_up": ("Shift up one gear at a time",),
    "downshift": ("Down: skip up to 3 gears",),
    "ordinary_dice": ("Roll the ordinary die the table gives for your gear",),
    "black_die": ("No black die? It is a d20",),
    "order": ("Each round the cars move in their order on track, leader first",),
    "level": ("Two cars level: the one in the higher gear moves first",),
    "start": ("Each player rolls the black die: the highest takes pole",),
    "stall": ("Stalled Miss this round",),
    "great_start": ("Great start Move 4 spaces at once, still in 1st gear",),
    "blocked": ("Blocked by cars you cannot pass: move as far as you can, count the spaces you could not use",),
    "blocked_out": ("Short of the brake and tire WP to pay: out of the race",),
    "brake": ("you may spend brake WP at any time to move fewer spaces than the die shows",),
    "corner_stop": ("each time your move ends inside a corner; clear them as you leave it",),
    "overshoot": ("Leave a corner without all your stops and you lose 1 tire WP per space you went past its exit",),
    "overshoot_out": ("Out of the race at once: 2-stop corner with 0 stops made; 3-stop corner with 0 or 1",),
    "spin": ("Lose your last tire WP overshooting: spin on the spot",),
    "spin_out": ("or lose more tire WP than you have: out",),
    "next_corner": ("A stop that lands in the next corner does not count for it",),
    "collision": ("Collision: check when your move ends beside or behind a car",),
    "engine": ("Engine: a 20 in 5th or a 30 in 6th makes every car in 5th or 6th check, after the move",),
    "marker": ("put a damage marker on that space", "Pass over or stop on one: road-handling check"),
    "zone_out": ("Lose the last WP of any of these zones: out of the race",),
    "pit": ("Enter by rolling at least the board's minimum on your gear's die",),
    "pit_stop": ("Quick: halve the roll, rounding up, and leave in gear 4 with that many spaces",),
    "pit_slow": ("Slow: stay in the pit this round; next round leave in gear 4 or lower",),
    "weather": ("Roll the black die on the circuit's weather chart",),
    "rain": ("In rain: collision on",),
    "finish": ("play on until every car has crossed, for the ranking",),
    "nitro": ("once a lap, after rolling the gear die, add as many spaces as the gear's number",),
    "checkpoint": ("At the finishing line (checkpoint): all tire WP back plus 2 WP for the other zones",),
}

ZONES = ("TIRES", "BRAKES", "GEARBOX", "CAR BODY", "ENGINE", "ROAD HANDLING")


class Uncovered(AssertionError):
    """A situation the printed sheets do not settle."""


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def span(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("–")
    return int(lo), int(hi or lo)


@dataclass
class Printed:
    gears: dict[int, tuple[int, int]]
    dice: dict[int, str]  # gear -> the ordinary-dice recipe the card prints
    downshift: dict[int, tuple[int, int, int | None]]  # gears skipped -> (gearbox, brake, engine WP); None: blank
    brake_per_space: int | None
    blocked: dict[int, tuple[int, int]]  # spaces lost -> (brake, tire) WP
    blocked_out: int
    out_stops: dict[int, set[int]]  # stops required -> stops made that put a car out
    checks: dict[str, tuple[int, int]]  # collision / engine / marker: the black die's losing range, good weather
    rain: dict[str, tuple[int, int]]
    pit_roll: int | None
    weather: list[tuple[tuple[int, int], str]] | None  # (black die range, weather) or None: ranges blank
    laps: int
    lanes: int
    wp: list[dict[str, int] | None]  # each scorecard's WP, None where a zone is a write-in


def printed_facts(text: str) -> Printed:
    """Every number of the race, read from the pack's text."""

    def find(pattern: str, what: str) -> re.Match:
        m = re.search(pattern, text)
        if m is None:
            raise Uncovered(f"the sheets do not print {what}")
        return m

    dash = find(r"GEAR · SPACES MOVED(.*?)1st", "gears")[1]
    gears = {int(g): span(r) for g, r in re.findall(r"(\d) (\d+–\d+)", dash)}
    table = find(r"Ordinary die (.*?) No black die", "the ordinary dice")[1]
    dice = {int(g): r.strip() for g, r in re.findall(r"(\d) \d+–\d+ (d\d+(?: \+ \d+|:.*?))(?= \d \d+–\d+ |$)", table)}
    rows = find(r"Gears skipped Gearbox WP Brake WP Engine WP (.*?) Down:", "the downshift wear")[1]
    downshift = {}
    for n, a, b, c in re.findall(r"(\d) gears? (\d+)\*? (\d+)\*?(?: (\d+)\*?)?(?= \d gear| \*|$)", rows):
        downshift[int(n)] = (int(a), int(b), int(c) if c else None)
    brake = re.search(r"Brake WP per space not moved (\d+)\*?", text)
    blocked_rows = find(r"Spaces remaining Brake WP Tire WP (.*?) The car is out", "the blocked table")[1]
    cells = [int(v) for v in blocked_rows.split()]
    blocked = {cells[i]: (cells[i + 1], cells[i + 2]) for i in range(0, len(cells) - 1, 3)}
    out_stops = {}
    m = find(r"Out of the race at once: 2-stop corner with ([\d or]+) stops made; 3-stop corner with ([\d or]+) stops",
             "overshooting")  # fmt: skip
    for req, made in ((2, m[1]), (3, m[2])):
        out_stops[req] = {int(v) for v in made.split(" or ")}
    r = r"(\d+(?:–\d+)?)(?: \(rain \S+\))?"
    m = find(rf"Collision {r} Engine {r} Damage marker {r}", "the black-die checks")
    checks = {"collision": span(m[1]), "engine": span(m[2]), "marker": span(m[3])}
    m = find(r"In rain: collision on (\S+), engine damage on (\S+), road handling lost on (\S+?)\.", "rain")
    rain = {"collision": span(m[1]), "engine": span(m[2]), "marker": span(m[3])}
    pit = re.search(r"MIN\. ROLL TO ENTER THE PIT (\d+)", text)
    chart = find(r"Black die Weather Effect on race (.*?) (?:\*|Changeable:)", "the weather chart")[1]
    ranges = re.findall(r"(\d+–\d+)\*? (Good|Changeable|Rain, changeable|Rain)", chart)
    weather = [(span(r), w) for r, w in ranges] if ranges else None
    laps = int(find(r"RACE: (\d+) LAPS?", "the race length")[1])
    lanes = int(find(r"(\d+) lanes ·", "the lanes")[1])
    wp = []
    for m in re.finditer(r"TIRES(.{0,400}?)ROAD HANDLING( \d+\*? WP| WP: ____)", text):
        block = "TIRES" + m[1] + "ROAD HANDLING" + m[2]
        values = {}
        for z in ZONES:
            v = re.search(re.escape(z) + r"(?: (\d+)\*? WP| WP: ____)", block)
            values[z] = int(v[1]) if v and v[1] else None
        wp.append(values if None not in values.values() else None)
    return Printed(gears, dice, downshift, int(brake[1]) if brake else None, blocked, max(blocked) + 1, out_stops,
                   checks, rain, int(pit[1]) if pit else None, weather, laps, lanes, wp)  # fmt: skip


def roll_recipe(recipe: str, rng: random.Random) -> int:
    """A roll of the card's ordinary dice: ``d6 + 6``, or ``d8: 1 = 4, 2 = 5, 3–4 = 6``."""
    m = re.fullmatch(r"d(\d+) \+ (\d+)", recipe)
    if m:
        return rng.randint(1, int(m[1])) + int(m[2])
    sides, parts = re.fullmatch(r"d(\d+): (.*)", recipe).groups()
    r = rng.randint(1, int(sides))
    for part in parts.split(", "):
        rolls, value = part.split(" = ")
        lo, hi = span(rolls)
        if lo <= r <= hi:
            return int(value)
    raise Uncovered(f"the ordinary die {recipe!r} gives no move for a {r}")


@dataclass
class Car:
    name: str
    wp: dict[str, int]
    gear: int = 1
    pos: int = 0  # spaces along the middle lane from the start line (negative: on the grid)
    stops: int = 0  # the dashboard's corner-stops track
    corner: int | None = None  # the corner it stands in
    out: bool = False
    done: bool = False
    skip: int = 0  # rounds to miss (a stall, a slow pit stop)
    spin: bool = False
    pitted: bool = False
    nitro_lap: int = -1
    lap_done: int = 0


@dataclass
class Race:
    printed: Printed
    text: str
    rng: random.Random
    length: int  # spaces round the middle lane
    corner_of: dict[int, int]  # middle-lane index -> corner number
    stops: dict[int, int]  # corner number -> stops required
    gt: bool = False
    weather: bool = True
    cars: list[Car] = field(default_factory=list)
    markers: set[int] = field(default_factory=set)
    rain: bool = False
    seen: Counter = field(default_factory=Counter)
    start_wp: dict[str, dict[str, int]] = field(default_factory=dict)
    last_roll: int = 0

    def cite(self, rule: str) -> None:
        for words in RULES[rule]:
            if words not in self.text:
                raise Uncovered(f"{rule}: the sheets do not say {words!r}")
        self.seen[rule] += 1

    def black(self) -> int:
        self.cite("black_die")
        return self.rng.randint(1, 20)

    def check(self, kind: str) -> bool:
        lo, hi = (self.printed.rain if self.rain else self.printed.checks)[kind]
        if self.rain:
            self.cite("rain")
        return lo <= self.black() <= hi

    def lose(self, car: Car, zone: str, n: int = 1, marker: bool = False) -> None:
        car.wp[zone] -= n
        if marker:
            self.cite("marker")
            self.markers.add(car.pos % self.length)
        if car.wp[zone] <= 0 and not car.out:
            self.cite("zone_out")
            car.out = True

    def corner_at(self, pos: int) -> int | None:
        return None if pos < 0 else self.corner_of.get(pos % self.length)

    # -- the turn ---------------------------------------------------------------------------------------------

    def ahead(self, car: Car) -> tuple[int, int]:
        """(spaces to the end of the corner it must still stop in, or to the end of the next corner) from car."""
        p = car.pos + 1
        while self.corner_at(p) is None and p < car.pos + self.length:
            p += 1
        start = p
        c = self.corner_at(p)
        while self.corner_at(p) == c and p < start + self.length:
            p += 1
        return start - car.pos, p - car.pos  # to its entry, past its exit

    def choose_gear(self, car: Car) -> int:
        self.cite("gears")
        g = self.printed.gears
        if car.spin:
            car.spin = False
            return 1
        top = min(car.gear + 1, max(g))
        self.cite("shift_up")
        if car.corner is not None and car.stops < self.stops[car.corner]:
            room = self._room_in_corner(car)
        else:
            entry, exit_ = self.ahead(car)
            room = exit_ - 1  # land before the next corner's exit line
        want = max([k for k in g if k <= top and g[k][1] <= room] or [min(g)])
        return max(want, car.gear - 4)

    def _room_in_corner(self, car: Car) -> int:
        p = car.pos
        while self.corner_at(p + 1) == car.corner:
            p += 1
        return p - car.pos

    def shift(self, car: Car, gear: int) -> None:
        skipped = car.gear - gear - 1
        if skipped > 0:
            self.cite("downshift")
            skipped = min(skipped, max(self.printed.downshift))
            gear = car.gear - skipped - 1
            box, brake, engine = self.printed.downshift[skipped]
            if engine is None:
                raise Uncovered(f"downshift: the engine WP for skipping {skipped} gears is a blank write-in")
            for zone, n in (("GEARBOX", box), ("BRAKES", brake), ("ENGINE", engine)):
                if n:
                    self.lose(car, zone, n)
        car.gear = gear

    def roll(self, car: Car) -> int:
        self.cite("ordinary_dice")
        return roll_recipe(self.printed.dice[car.gear], self.rng)

    def occupied(self, pos: int, me: Car) -> int:
        return sum(1 for c in self.cars if c is not me and not c.out and not c.done and c.pos == pos)

    def move(self, car: Car, spaces: int) -> None:
        """``spaces`` forward: braking to stay in a corner, blocked by full spaces, the corners' stops."""
        # Brake to stop inside the corner still owed stops, when the roll would carry the car out of it.
        if car.corner is not None and car.stops < self.stops[car.corner]:
            room = self._room_in_corner(car)
            if spaces > room:
                self.cite("brake")
                cost = self.printed.brake_per_space
                if cost is None:
                    raise Uncovered("braking: the brake WP a space costs is a blank write-in")
                cut = spaces - max(room, 1)
                if car.wp["BRAKES"] > cut * cost:
                    self.lose(car, "BRAKES", cut * cost)
                    spaces -= cut
        target = car.pos + spaces
        lost = 0
        while target > car.pos and self.occupied(target, car) >= self.printed.lanes:
            target -= 1
            lost += 1
        if lost:
            self.cite("blocked")
            if lost >= self.printed.blocked_out:
                car.out = True
                return
            brake, tire = self.printed.blocked[lost]
            if car.wp["BRAKES"] < brake or car.wp["TIRES"] < tire:
                self.cite("blocked_out")
                car.out = True
                return
            for zone, n in (("BRAKES", brake), ("TIRES", tire)):
                if n:
                    self.lose(car, zone, n)
        self.travel(car, target)

    def travel(self, car: Car, target: int) -> None:
        """Along the middle lane from car.pos to target: corners left, corners entered, markers passed."""
        p = car.pos
        current, stops = car.corner, car.stops
        while p < target:
            p += 1
            if p % self.length in self.markers:
                self.cite("marker")
                if self.check("marker"):
                    self.lose(car, "ROAD HANDLING")
            c = self.corner_at(p)
            if current is not None and c != current:  # over the exit line of the corner it was in
                need = self.stops[current]
                if stops < need:
                    past = target - p + 1
                    if c is not None and p == target:
                        self.cite("next_corner")
                    self.cite("overshoot")
                    if stops in self.printed.out_stops.get(need, set()):
                        self.cite("overshoot_out")
                        car.out = True
                        return
                    if past > car.wp["TIRES"]:
                        self.cite("spin_out")
                        car.out = True
                        return
                    car.wp["TIRES"] -= past
                    if car.wp["TIRES"] == 0:
                        self.cite("spin")
                        car.spin = True
                        car.wp["TIRES"] = 0
                current, stops = None, 0
            if c is not None and c != current:
                current, stops = c, 0
        car.pos = p
        if current is not None:
            self.cite("corner_stop")
            stops += 1
        car.corner, car.stops = current, stops

    def lap_line(self, car: Car, before: int) -> None:
        """Crossing the start line: a lap done — the finish, a GT car's checkpoint, a pit stop after lap 1."""
        while before // self.length < car.pos // self.length and not car.out:
            before += self.length
            car.lap_done += 1
            if car.lap_done >= self.printed.laps:
                self.cite("finish")
                car.done = True
                return
            if self.gt:
                self.cite("checkpoint")
                car.wp["TIRES"] = self.start_wp[car.name]["TIRES"]
            elif car.lap_done == 1 and car.wp["TIRES"] < self.start_wp[car.name]["TIRES"]:
                self.pit(car)

    def pit(self, car: Car) -> None:
        self.cite("pit")
        need = self.printed.pit_roll
        if need is None:
            raise Uncovered("a pit stop: the board's least roll to enter the pit is a blank write-in")
        if self.last_roll < need:
            return
        car.wp["TIRES"] = self.start_wp[car.name]["TIRES"]
        r = self.black()
        if r <= 10:
            self.cite("pit_stop")
            car.gear = 4
            self.travel(car, car.pos + math.ceil(r / 2))
        else:
            self.cite("pit_slow")
            car.skip, car.gear = 1, 4

    def turn(self, car: Car) -> None:
        if car.skip:
            car.skip -= 1
            return
        before = car.pos
        self.shift(car, self.choose_gear(car))
        if car.out:
            return
        spaces = self.roll(car)
        self.last_roll = spaces
        lap = car.pos // self.length
        clear = car.corner is None and self.corner_at(car.pos + spaces + car.gear) is None
        if self.gt and car.nitro_lap < lap and clear:
            self.cite("nitro")
            car.nitro_lap = lap
            spaces += car.gear
        self.move(car, spaces)
        if car.out:
            return
        top = self.printed.gears[car.gear][1]
        if car.gear >= 5 and spaces == top:
            self.cite("engine")
            for other in self.cars:
                if not other.out and not other.done and other.gear >= 5 and self.check("engine"):
                    self.lose(other, "ENGINE", marker=True)
        if any(o is not car and not o.out and not o.done and o.pos in (car.pos, car.pos + 1) for o in self.cars):
            self.cite("collision")
            if self.check("collision"):
                self.lose(car, "CAR BODY", marker=True)
        self.lap_line(car, before)

    def run(self, names: list[str], limit: int = 400) -> list[str]:
        """The race to its end: every car home or out. Returns the finishing order."""
        if self.weather:
            self.cite("weather")
            if self.printed.weather is None:
                raise Uncovered("the weather: the chart's black-die ranges are blank write-ins")
            r = self.black()
            self.rain = any(lo <= r <= hi and w.startswith("Rain") for (lo, hi), w in self.printed.weather)
        wps = [w for w in self.printed.wp]
        if any(w is None for w in wps[: len(names)]):
            raise Uncovered("a car's WP: its scorecard holds a blank write-in")
        self.cite("start")
        order = sorted(names, key=lambda n: -self.black())
        self.cars = [Car(n, dict(wps[names.index(n)]), pos=-1 - i // self.printed.lanes) for i, n in enumerate(order)]
        self.start_wp = {c.name: dict(c.wp) for c in self.cars}
        for car in self.cars:
            r = self.black()
            if r == 1:
                self.cite("stall")
                car.skip = 1
            elif r == 20:
                self.cite("great_start")
                self.travel(car, car.pos + 4)
        home: list[str] = []
        for _ in range(limit):
            racing = [c for c in self.cars if not c.out and not c.done]
            if not racing:
                return home
            self.cite("order")
            if len({c.pos for c in racing}) < len(racing):
                self.cite("level")
            for car in sorted(racing, key=lambda c: (-c.pos, -c.gear)):
                if not car.out and not car.done:
                    self.turn(car)
                    if car.done:
                        home.append(car.name)
        raise Uncovered(f"the race is not over after {limit} rounds")
