"""A MotoX race played by the printed rules alone (issue 42): seeded computer riders on a course, every decision
taken by a rule the pack prints — the rider's card, Paddock's readings on its back, the rule summary.

Each situation the race meets is resolved by one entry of :data:`RULES`, a few words that must stand in the
printed text (:meth:`Race.cite`): a situation whose words are missing from the sheets stops the race with
:class:`Uncovered`, naming it. The numbers (dice by place, the most dice, ramp heights, coins each) are read from
the printed text too (:func:`printed_facts`), not from Paddock's facts.

The table: a space is a square of a tile's back, in whole spaces across the table (a tile at grid (X, Y) holds
spaces 2X..2X+1 by 2Y..2Y+1). A move is a path of unit steps; its directions are set by the tile it starts on
(towards the next tile, or either way along the edge they share), a null allows one 90° turn on the ground.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

from generator.games.motox.course import Course

#: Every situation a race can meet, and the printed words that settle it (whitespace-normalised, case-sensitive).
RULES: dict[str, tuple[str, ...]] = {
    "dice_by_place": ("Dice you roll",),
    "ties": ("Level bikes share a place and the place after them is skipped",),
    "nearest": ("The one furthest along the track: laid later while building",),
    "same_tile": ("On one tile, the bike nearer the edge that meets the next tile leads",),
    "wiped_rank": ("A wiped-out bike counts from the space it went off from",),
    "pass": ("Choose to move or to pass before you roll",),
    "must_move": ("a move that runs off the track counts: you wipe out where you leave it",),
    "all_nulls": ("Only nulls on every die: you stay put",),
    "ramp_block": ("you may not move this turn: stay put, no wipe-out, and no sideways move either",),
    "ramp_beat": ("the number you use must beat the ramp's height",),
    "ramp_short": ("A move that stops short of the raised edge, or runs beside it, may use any die",),
    "directions": ("Ride towards the next tile, or sideways, parallel to the edge your tile shares",),
    "start_tile_sets": ("The tile a move starts on sets its directions",),
    "sideways_back": ("never enters the tile you came from",),
    "bike_in_the_way": ("Only when every choice left would do so do you stay put and wipe out from your own space",),
    "null_turn": ("Each null you rolled allows one 90° turn, at any point of the move on the ground",),
    "no_air_turn": ("A null's turn is made on the ground, before the raised edge",),
    "flight": ("Off the ramp the bike flies straight on to the end of its move, over any bike in the way",),
    "several_ramps": ("The number must beat the highest raised edge crossed",),
    "flight_off": ("past the end of the track, it wipes out from the last track space it flew over",),
    "land_on_bike": ("Land on a bike and that bike wipes out",),
    "run_off": ("Your move runs off the track: you are out from the space where you went off",),
    "reenter_roll": ("An ace kick-starts the bike", "then move with the other dice if you like"),
    "reenter_fail": ("No ace: the bike will not start. Try again next turn",),
    "reenter_taken": ("Your space is taken by a bike: no try this turn. Take one discarded coin, if there is one",),
    "leftover": ("the dice left over from a kick-start, which move you only if you like",),
    "coin_dice": ("discard coins for extra dice",),
    "coin_ace": ("a coin discarded before the roll stands in for the ace",),
    "coins_on_reentry": ("Before a re-entry roll you may spend coins for extra dice",),
    "finish_tile": ("The finish line stands in for the next tile: ride towards it or along it",),
    "finish_side": ("off a side is a run-off",),
    "win": ("First across wins",),
    "start": ("each player takes a bike and stands it on any free space of the start tile",),
}


class Uncovered(AssertionError):
    """A situation the printed sheets do not settle."""


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00ad", "")).strip()


@dataclass(frozen=True)
class Printed:
    """The numbers a race needs, as the sheets print them."""

    dice_by_place: tuple[int, ...]
    max_dice: int
    max_ramp: int
    race_coins: dict[int, int]  # players -> race coins each
    null_turn: int
    ace: int


def printed_facts(text: str) -> Printed:
    """The race's numbers read from the pack's text (the rider's card and the rule summary)."""
    dice = re.search(r"Dice you roll((?: \d+)+)", text)
    most = re.search(r"(\d+) dice at most", text)
    ramp = re.search(r"up to (\d+) coins", text)
    deal = re.search(r"Race coins each((?: \d+ \d+ \d+ \d+)+)", text)
    turn = re.search(r"allows one (\d+)° turn", text)
    ace = re.search(r"the suit's symbol is an ace \((\d+)\)", text)
    missing = [n for n, m in (("dice", dice), ("most", most), ("ramp", ramp), ("deal", deal), ("turn", turn),
                              ("ace", ace)) if m is None]  # fmt: skip
    if missing:
        raise Uncovered(f"the sheets do not print {', '.join(missing)}")
    cells = [int(v) for v in deal.group(1).split()]
    coins = {cells[i]: cells[i + 3] for i in range(0, len(cells), 4)}
    return Printed(
        tuple(int(v) for v in dice.group(1).split()),
        int(most.group(1)),
        int(ramp.group(1)),
        coins,
        int(turn.group(1)),
        int(ace.group(1)),
    )


Space = tuple[int, int]
Dir = tuple[int, int]


def left(d: Dir) -> Dir:
    return (d[1], -d[0])


def right(d: Dir) -> Dir:
    return (-d[1], d[0])


@dataclass
class Bike:
    name: str
    space: Space | None  # None: wiped out
    off: Space | None = None  # where it went off the track
    coins: int = 0


@dataclass
class Outcome:
    """Where a path ends: ``kind`` stop | win | off; the space (the last track space for ``off``); the bike
    landed on; whether it flew, turned, and what it was."""

    kind: str
    space: Space
    landed_on: Bike | None
    flew: bool
    turns: int
    value: int
    edges: int = 0  # raised edges crossed
    score: tuple = ()


@dataclass
class Race:
    course: Course
    printed: Printed
    text: str
    rng: random.Random
    bikes: list[Bike] = field(default_factory=list)
    discards: int = 0
    seen: Counter = field(default_factory=Counter)
    log: list[str] = field(default_factory=list)

    # -- the table ---------------------------------------------------------------------------------------------

    def __post_init__(self) -> None:
        self.tile_of: dict[Space, int] = {}
        for t in range(1, self.course.n + 1):
            x, y = (int(v) for v in self.course.pos(t))
            for i in range(2):
                for j in range(2):
                    self.tile_of[(2 * x + i, 2 * y + j)] = t
        self.ramps = dict(self.course.ramps)
        for h in self.ramps.values():
            assert h <= self.printed.max_ramp, "a ramp higher than the sheets allow"

    def cite(self, rule: str) -> None:
        """The printed words that settle this situation, or :class:`Uncovered`."""
        words = RULES[rule]
        for w in words:
            if w not in self.text:
                raise Uncovered(f"{rule}: the sheets do not say {w!r}")
        self.seen[rule] += 1

    def forward(self, tile: int) -> Dir:
        """Towards the next tile; on the finish tile, towards the finish line."""
        n = self.course.n
        if tile == n:
            self.cite("finish_tile")
        d = self.course.step(tile if tile < n else n - 1)
        return d

    def progress(self, space: Space) -> tuple[int, int]:
        """How far along the track: the tile, then the row nearer the edge the next tile meets."""
        t = self.tile_of[space]
        d = self.forward(t)
        x, y = (int(v) for v in self.course.pos(t))
        back = min((2 * x + i) * d[0] + (2 * y + j) * d[1] for i in range(2) for j in range(2))
        return t, space[0] * d[0] + space[1] * d[1] - back

    def where(self, bike: Bike) -> Space:
        if bike.space is None:
            self.cite("wiped_rank")
            return bike.off
        return bike.space

    def place(self, bike: Bike) -> int:
        """The bike's place (1st …), ties sharing and the next place skipped."""
        self.cite("nearest")
        self.cite("same_tile")
        keys = {b.name: self.progress(self.where(b)) for b in self.bikes}
        mine = keys[bike.name]
        ahead = sum(1 for k in keys.values() if k > mine)
        if sum(1 for k in keys.values() if k == mine) > 1:
            self.cite("ties")
        return ahead + 1

    def occupied(self, space: Space, me: Bike) -> Bike | None:
        return next((b for b in self.bikes if b is not me and b.space == space), None)

    # -- moves -------------------------------------------------------------------------------------------------

    def ramp_ahead(self, bike: Bike) -> tuple[int, int] | None:
        """(spaces before it, height) of the raised edge straight on from the bike, if the track reaches it."""
        s = bike.space
        d = self.forward(self.tile_of[s])
        k = 0
        while True:
            nxt = (s[0] + d[0], s[1] + d[1])
            a, b = self.tile_of.get(s), self.tile_of.get(nxt)
            if b is None:
                return None
            if b == a + 1 and a in self.ramps:
                return k, self.ramps[a]
            s, k = nxt, k + 1

    def paths(self, bike: Bike, value: int, nulls: int) -> list[Outcome]:
        """Every legal way to move ``value`` spaces with ``nulls`` turns (:data:`RULES`, the directions)."""
        start = bike.space
        t0 = self.tile_of[start]
        f = self.forward(t0)
        ways = {f, left(f), right(f)}
        out: list[Outcome] = []

        def go(s: Space, d: Dir, steps: int, turns: int, top: int, edges: int) -> None:
            air = edges > 0
            if steps == 0:
                if not top or value > top:  # every raised edge crossed beaten
                    out.append(Outcome("stop", s, self.occupied(s, bike), air, turns, value, edges))
                return
            if turns < nulls and not air:  # a turn before this step, on the ground only
                for nd in (left(d), right(d)):
                    if nd in ways:
                        step(s, nd, steps, turns + 1, top, edges)
            step(s, d, steps, turns, top, edges)

        def step(s: Space, d: Dir, steps: int, turns: int, top: int, edges: int) -> None:
            nxt = (s[0] + d[0], s[1] + d[1])
            a, b = self.tile_of[s], self.tile_of.get(nxt)
            if b is None:  # off the track: across the finish line, or a run-off from s
                if not top or value > top:
                    kind = "win" if a == self.course.n and d == self.forward(a) else "off"
                    out.append(Outcome(kind, s, None, edges > 0, turns, value, edges))
                return
            if b < t0:
                return  # never into the tile before the start tile
            if b == a + 1 and a in self.ramps:
                top, edges = max(top, self.ramps[a]), edges + 1
            if not edges and self.occupied(nxt, bike) is not None:
                return  # never into or across another bike's space on the ground
            go(nxt, d, steps - 1, turns, top, edges)

        for d in ways:
            step(start, d, value, 0, 0, 0)
        return out

    def legal_moves(self, bike: Bike, values: list[int], nulls: int) -> list[Outcome]:
        seen = set()
        moves = []
        for v in sorted(set(values)):
            for o in self.paths(bike, v, nulls):
                key = (o.kind, o.space, o.value, o.flew)
                if key not in seen:
                    seen.add(key)
                    moves.append(o)
        return moves

    def score(self, o: Outcome) -> tuple:
        if o.kind == "win":
            return (3, 0, 0)
        if o.kind == "off":
            return (0, *self.progress(o.space))
        return (2 if o.landed_on is None else 2.5, *self.progress(o.space))

    # -- a turn ------------------------------------------------------------------------------------------------

    def roll(self, n: int) -> list[int]:
        """``n`` piecepack dice: null 0, ace (the printed value), 2 … 5."""
        faces = [0, self.printed.ace, 2, 3, 4, 5]
        return [self.rng.choice(faces) for _ in range(n)]

    def dice_for(self, bike: Bike) -> int:
        self.cite("dice_by_place")
        place = self.place(bike)
        return self.printed.dice_by_place[min(place, len(self.printed.dice_by_place)) - 1]

    def buy(self, bike: Bike, dice: int) -> int:
        """Coins for extra dice, before the roll (a rider at the front, where one die is thin, often buys)."""
        while bike.coins and dice < self.printed.max_dice and self.rng.random() < (0.5 if dice == 1 else 0.2):
            self.cite("coin_dice")
            bike.coins -= 1
            self.discards += 1
            dice += 1
        return dice

    def move(self, bike: Bike, dice: list[int], optional: bool = False) -> str | None:
        """Use one die of ``dice``: the move made (or why none). ``optional``: the dice left over from a
        kick-start, which move the bike only if its rider likes."""
        values = [v for v in dice if v > 0]
        nulls = len(dice) - len(values)
        if not values:
            self.cite("all_nulls")
            return "nulls"
        ahead = self.ramp_ahead(bike)
        if ahead is not None:
            gap, height = ahead
            if all(v > gap for v in values):
                self.cite("ramp_beat")
                if not any(v > height for v in values):
                    self.cite("ramp_block")
                    return "ramp-block"
            elif any(v <= gap for v in values):
                self.cite("ramp_short")
        self.cite("directions")
        self.cite("start_tile_sets")
        if self.course.turn(self.tile_of[bike.space]) in ("left", "right"):
            self.cite("sideways_back")
        moves = self.legal_moves(bike, values, nulls)
        if not moves:
            if optional:
                self.cite("leftover")
                return "declined"
            self.cite("bike_in_the_way")
            bike.off, bike.space = bike.space, None
            return "blocked"
        for o in moves:
            o.score = self.score(o)
        best = max(o.score for o in moves)
        if optional and best[0] < 2:
            self.cite("leftover")
            return "declined"  # only run-offs: the rider keeps the bike where it is
        if best[0] == 0:
            self.cite("must_move")
        choice = self.rng.choice([o for o in moves if o.score == best])
        if choice.turns:
            self.cite("null_turn")
        if choice.flew:
            self.cite("flight")
            self.cite("no_air_turn")
            self.cite("ramp_beat")
            if choice.edges > 1:
                self.cite("several_ramps")
        if choice.kind == "win":
            self.cite("win")
            bike.space = choice.space
            return "win"
        if choice.kind == "off":
            if self.tile_of[choice.space] == self.course.n:
                self.cite("finish_side")
            self.cite("flight_off" if choice.flew else "run_off")
            bike.off, bike.space = choice.space, None
            return "off"
        if choice.landed_on is not None:
            self.cite("land_on_bike")
            other = choice.landed_on
            other.off, other.space = choice.space, None
        bike.space = choice.space
        return "flew" if choice.flew else "moved"

    def reenter(self, bike: Bike) -> str:
        if self.occupied(bike.off, bike) is not None:
            self.cite("reenter_taken")
            if self.discards:
                self.discards -= 1
                bike.coins += 1
            return "taken"
        dice = self.dice_for(bike)
        if bike.coins and self.rng.random() < 0.5:  # a coin for the ace, then a movement roll
            self.cite("coin_ace")
            bike.coins -= 1
            self.discards += 1
            bike.space, bike.off = bike.off, None
            self.cite("pass")
            return "coin-restart:" + (self.move(bike, self.roll(self.buy(bike, dice))) or "")
        if bike.coins:
            self.cite("coins_on_reentry")
        roll = self.roll(self.buy(bike, dice))
        if self.printed.ace not in roll:
            self.cite("reenter_fail")
            return "no-ace"
        self.cite("reenter_roll")
        roll.remove(self.printed.ace)
        bike.space, bike.off = bike.off, None
        return "restart:" + (self.move(bike, roll, optional=True) or "")

    def turn(self, bike: Bike) -> str:
        if bike.space is None:
            return self.reenter(bike)
        self.cite("pass")
        if self.rng.random() < 0.05:
            return "pass"
        dice = self.buy(bike, self.dice_for(bike))
        return self.move(bike, self.roll(dice)) or ""

    def run(self, riders: int, limit: int = 600) -> tuple[str, int]:
        """The race to its winner: (winner, rounds)."""
        self.cite("start")
        coins = self.printed.race_coins[riders]
        start = sorted((s for s, t in self.tile_of.items() if t == 1), key=self.progress, reverse=True)
        self.bikes = [Bike(f"rider {i + 1}", start[i], coins=coins) for i in range(riders)]
        for rounds in range(1, limit + 1):
            for bike in self.bikes:
                what = self.turn(bike)
                self.log.append(f"{rounds} {bike.name}: {what}")
                self.seen["turns"] += 1
                if what.endswith("win"):
                    return bike.name, rounds
        raise Uncovered(f"no winner after {limit} rounds: the race never ends")
