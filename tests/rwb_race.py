"""A Red White & Blue Racin' race's TROUBLE played by the add-on sheets alone (issue 42): the chips a pack prints for
the race, the form drawn blind (Paddock's reading), ACCIDENTs by the printed table, CRASHes by the printed flow
chart, every situation settled by words the sheets print (:data:`RULES`); a situation whose words are missing
stops the race with :class:`Uncovered`.

The base game is not Paddock's to print (the add-on says so, and so do the sheets): which turns bring TROUBLE, the
groups, the Driver Finder and the ESCAPE and REPAIR rolls are this test's stand-ins, each a seeded coin flip, as a
table would roll them from its own copy of the base game.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

RULES: dict[str, tuple[str, ...]] = {
    "chips": ("at the start",),
    "draw": ("Take up every chip left on the card and mix them, TROUBLE side up", "its face is the form"),
    "shut": ("An empty space stays shut until all are empty; then set the chips out again as at the start",),
    "accident_table": ("Dice total Chance TOP ÷ 3 MIDDLE ÷ 2 BOTTOM",),
    "accident_first": ("Choose the first driver at random in the group that had the ACCIDENT",),
    "accident_wrap": ("Past the last driver of the group, carry on from its first. Never take a driver of another",),
    "accident_all": ("when the number is larger than the group, every driver of the group is involved, once each",),
    "accident_repair": ("that many drivers of the group roll ESCAPE, then REPAIR where the base game calls for it",),
    "crash_first": ("Every driver of the group rolls ESCAPE, as the base game says. Note who fails; nobody moves yet",),
    "crash_again": ("Roll ESCAPE a second time",),
    "crash_drop": ("drop back that many places from his place before the CRASH, or to last place",),
    "crash_last": ("or to last place",),
    "crash_repair_pass": ("Goes to the end of the BOTTOM group",),
    "crash_repair_fail": ("Out of the race",),
    "crash_same_place": ("Two on one place: the one who ran ahead keeps it, the other goes right behind",),
    "crash_order": ("sent to the end of the BOTTOM group after REPAIR go behind everyone, dropped drivers too",),
    "close_up": ("Then the rest close up",),
    "wreck": ("WRECK: the base game's TROUBLE, as it stands",),
}


class Uncovered(AssertionError):
    """A situation the printed sheets do not settle."""


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class Printed:
    chips: dict[str, int]  # form name -> chips at the start (the race's chip card)
    accident: dict[int, tuple[int, int, int]]  # dice total -> drivers (TOP, MIDDLE, BOTTOM)


def printed_facts(text: str) -> Printed:
    """The race's chips (its chip card) and the ACCIDENT table (the tables sheet), read from the print PDF."""
    plural = {"ACCIDENTS": "ACCIDENT", "CRASHES": "CRASH", "WRECKS": "WRECK"}
    chips = {plural[m[0]]: int(m[1]) for m in re.findall(r"(ACCIDENTS|CRASHES|WRECKS) (\d+) at the start", text)}
    i = text.find("Dice total Chance TOP ÷ 3 MIDDLE ÷ 2 BOTTOM")
    table = re.sub(r" ex\. \d", "", text[i : i + 700])
    rows = re.findall(r"(\d+) \d+/36 · [\d.]+ % (\d+) (\d+) (\d+)", table)
    accident = {int(t): (int(a), int(b), int(c)) for t, a, b, c in rows}
    if len(chips) != 3 or sorted(accident) != list(range(2, 13)):
        raise Uncovered(f"the sheets do not print the chips ({chips}) or the ACCIDENT table ({sorted(accident)})")
    return Printed(chips, accident)


@dataclass
class Race:
    printed: Printed
    text: str
    rng: random.Random
    cars: int
    escape: float = 0.6  # the base game's ESCAPE and REPAIR: stand-in chances
    repair: float = 0.5
    field_: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    left: Counter = field(default_factory=Counter)  # chips left on each space
    seen: Counter = field(default_factory=Counter)
    log: list[str] = field(default_factory=list)

    def cite(self, rule: str) -> None:
        for words in RULES[rule]:
            if words not in self.text:
                raise Uncovered(f"{rule}: the sheets do not say {words!r}")
        self.seen[rule] += 1

    def d6(self, n: int = 2) -> int:
        return sum(self.rng.randint(1, 6) for _ in range(n))

    # -- the base game's stand-ins -----------------------------------------------------------------------------

    def groups(self) -> list[list[int]]:
        """Places (0-based) of TOP, MIDDLE and BOTTOM: the field in thirds, the base game's rule stood in for."""
        n = len(self.field_)
        cuts = [0, round(n / 3), round(2 * n / 3), n]
        return [list(range(cuts[g], cuts[g + 1])) for g in range(3)]

    # -- TROUBLE -----------------------------------------------------------------------------------------------

    def set_out(self) -> None:
        self.cite("chips")
        self.left = Counter(self.printed.chips)

    def draw(self) -> str:
        """The form of a TROUBLE result: a chip drawn blind from those left (Paddock's reading)."""
        if not sum(self.left.values()):
            self.cite("shut")
            self.set_out()
        self.cite("draw")
        pool = [f for f, n in sorted(self.left.items()) for _ in range(n)]
        form = self.rng.choice(pool)
        self.left[form] -= 1
        return form

    def trouble(self, group: int) -> str:
        form = self.draw()
        places = self.groups()[group]
        if not places:
            return f"{form}: an empty group"
        if form == "ACCIDENT":
            return form + ": " + self.accident(group, places)
        if form == "CRASH":
            return form + ": " + self.crash(places)
        self.cite("wreck")
        return form + ": the base game's"

    def accident(self, group: int, places: list[int]) -> str:
        self.cite("accident_table")
        total = self.d6()
        n = self.printed.accident[total][group]
        self.cite("accident_first")
        first = self.rng.randrange(len(places))
        if n > len(places):
            self.cite("accident_all")
            n = len(places)
        if first + n > len(places):
            self.cite("accident_wrap")
        hit = [places[(first + k) % len(places)] for k in range(n)]
        self.cite("accident_repair")
        gone = [self.field_[p] for p in hit if self.rng.random() > self.escape and self.rng.random() > self.repair]
        for name in gone:  # failed ESCAPE and REPAIR: out, as the base game says (a stand-in)
            self.field_.remove(name)
            self.out.append(name)
        return f"{total} → {n} drivers, {len(gone)} out"

    def crash(self, places: list[int]) -> str:
        """The printed flow chart, for every driver of the group, and Paddock's reading of where they end up."""
        self.cite("crash_first")
        before = list(self.field_)
        failed = [p for p in places if self.rng.random() > self.escape]
        if failed:
            self.cite("crash_again")
        twice = [p for p in failed if self.rng.random() > self.escape]
        dropped = {p: p + self.d6() for p in failed if p not in twice}  # from the place before the CRASH
        repaired, gone = [], []
        for p in twice:
            if self.rng.random() <= self.repair:
                self.cite("crash_repair_pass")
                repaired.append(before[p])
            else:
                self.cite("crash_repair_fail")
                gone.append(before[p])
        moved = set(dropped) | set(twice)
        stay = [before[p] for p in range(len(before)) if p not in moved]
        last = len(before) - len(gone) - len(repaired) - 1  # the last place among the cars still in the field
        if dropped:
            self.cite("crash_drop")
        if any(to > last for to in dropped.values()):
            self.cite("crash_last")
        target: dict[int, list[str]] = {}
        for p in sorted(dropped):  # the one who ran ahead before the CRASH first
            target.setdefault(min(dropped[p], last), []).append(before[p])
        if any(len(v) > 1 for v in target.values()):
            self.cite("crash_same_place")
        order: list[str | None] = [None] * (last + 1)
        for to in sorted(target):  # the dropped drivers in their new places first; a taken place: right behind
            for name in target[to]:
                k = to
                while k < len(order) and order[k] is not None:
                    k += 1
                if k == len(order):
                    order.append(None)
                order[k] = name
        if stay:
            self.cite("close_up")
        rest = iter(stay)
        new = [name if name is not None else next(rest, None) for name in order]
        new = [n for n in new if n is not None] + list(rest)
        if repaired:
            self.cite("crash_order")
        self.field_ = new + repaired
        self.out += gone
        assert sorted(self.field_ + gone) == sorted(before), "a driver lost or counted twice"
        return f"{len(failed)} failed once, {len(twice)} twice, {len(dropped)} dropped, {len(gone)} out"

    def draw_first(self) -> str:
        """The form of the race's first TROUBLE."""
        self.set_out()
        return self.draw()

    def run(self, turns: int, trouble_every: float = 0.25) -> Counter:
        """``turns`` turns of a race of ``cars``; a TROUBLE result for a random group on about ``trouble_every``
        of them (the base game's TROUBLE, stood in for)."""
        self.field_ = [f"#{i + 1}" for i in range(self.cars)]
        self.set_out()
        for turn in range(1, turns + 1):
            if self.rng.random() < trouble_every and self.field_:
                group = self.rng.randrange(3)
                self.log.append(f"turn {turn}: {['TOP', 'MIDDLE', 'BOTTOM'][group]} {self.trouble(group)}")
        assert len(self.field_) + len(self.out) == self.cars
        return self.seen
