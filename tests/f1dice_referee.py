"""A scripted f1-dice race played from the facts the pack's sheets print (issue 42): the referee reads the race
length, the lap, the action squares and the action-roll table back from the PDFs, rolls seeded dice for every car,
and notes every situation the race runs into. Each situation names the words that settle it on the sheets a table
plays from (the race sheet, the race reference card, the rule summary); a situation no sheet settles is what the
test fails on.

The referee plays by Paddock's reading where the rulebook is silent (the sheets say which); it plays no rule the
sheets do not print, so a situation it meets that they do not cover is one the players would meet too."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

#: Every situation the referee can meet, the sheet that must settle it, and the words that do (whitespace aside).
SETTLED = {
    "start crossing": ("race", "a car's first crossing is the start, not a lap"),
    "start crossing (card)": ("card", "that crossing is the start, not a lap"),
    "lap crossing": ("race", "a lap box each time it crosses the line after that"),
    "finish": ("race", "the box under the flag is its last lap"),
    "level cars roll": ("card", "Two cars level on the same unit roll in the order they arrived there"),
    "move past a pair": ("card", "A car whose roll would take it past them stops behind them instead"),
    "move onto a full unit": ("card", "A roll that would land on the blocked unit also ends in the queue behind them"),
    "arrives on an action square": ("card", "A car that arrives on one makes the action roll"),
    "action square blocked": ("card", "If the action square is blocked, the car queues at the first free unit behind"),
    "action: out": ("card", "out of the race"),
    "action: no change": ("card", "no change"),
    "action forward": ("card", "units (forward)"),
    "action back": ("card", "units (back)"),
    "action forward past a pair": ("card", "Forward, it stops behind two cars side by side in its way"),
    "action forward onto a full unit": ("card", "or on the unit it would reach"),
    "action back onto a full unit": ("card", "Back, onto a unit already holding two cars, it drops on to the first unit behind with room"),  # noqa: E501
    "action move onto an action square": ("card", "It never makes a second action roll"),
    "action move finishes": ("card", "A car finishes when it crosses the line at the end of its last lap"),
    "dropped back behind a car yet to roll": ("card", "waits until everyone else has rolled this round"),
    "finish together": ("card", "Cars that arrive together finish in the order they arrived"),
    "retired: write the lap and why": ("race", "A for action roll 1"),
    # no sheet covers these: the referee fails if it ever meets one
    "action back over the line": (None, ""),
}


@dataclass(frozen=True)
class Facts:
    """What the sheets print, read back."""

    laps: int
    lap_units: int
    action_units: frozenset[int]
    actions: dict[int, tuple[str, int]]  # roll → ("out" | "none" | "move", units)
    lanes: int
    grid: int


def read_facts(race: str, card_layout: str, board: str) -> Facts:
    """The facts from the race sheet's subtitle, the card's action-roll table (``pdftotext -layout``) and the
    board's legend."""
    flat = " ".join(race.split())
    m = re.search(r"(\d+) laps? of (\d+) units; action squares on units ((?:\d+, )*\d+(?: and \d+)?)\.", flat)
    assert m, flat[:300]
    units = frozenset(int(v) for v in re.split(r", | and ", m[3]))
    actions = {}
    effect = r"(out of the race|no change|([−+])(\d+) units \((?:back|forward)\))"
    for line in card_layout.splitlines():
        row = re.match(r"\s*([1-6])\s{2,}\S.*?\s{2,}" + effect, line)
        if row:
            roll = int(row[1])
            if row[2] == "out of the race":
                actions[roll] = ("out", 0)
            elif row[2] == "no change":
                actions[roll] = ("none", 0)
            else:
                actions[roll] = ("move", int(row[4]) * (1 if row[3] == "+" else -1))
    assert sorted(actions) == [1, 2, 3, 4, 5, 6], card_layout[:600]
    flat_board = " ".join(board.split())
    lanes = int(re.search(r"(\d+) lanes ·", flat_board)[1])
    grid = int(re.search(r"(\d+) grid slots behind the line", flat_board)[1])
    return Facts(int(m[1]), int(m[2]), units, actions, lanes, grid)


def race(facts: Facts, seed: int) -> tuple[Counter, dict[int, int], list[int]]:
    """One race with every car of the grid: the situations met (how often), each finisher's line crossings, and
    the finishing order."""
    rng = random.Random(seed)
    L, room = facts.lap_units, facts.lanes
    finish_line = facts.laps * L
    met: Counter = Counter()
    pos = {c: -(c // room) for c in range(facts.grid)}  # grid slot c: row c // lanes behind the line (0: just behind)
    stamp = {c: c for c in range(facts.grid)}
    crossings = dict.fromkeys(range(facts.grid), 0)
    running, finished, clock = set(range(facts.grid)), [], facts.grid

    def unit(p: int) -> int:
        return (p - 1) % L + 1

    def on(p: int) -> int:
        return sum(1 for o in running if pos[o] == p)

    def forward(c: int, steps: int, what: str) -> int:
        p = pos[c]
        for k in range(1, steps + 1):
            q = p + k
            if q > finish_line:
                return q
            if on(q) >= room:
                if what == "move" and unit(q) in facts.action_units and k == steps:
                    met["action square blocked"] += 1
                met[f"{what} past a pair" if k < steps else f"{what} onto a full unit"] += 1
                return q - 1
        return p + steps

    def crossed(c: int, p0: int, p1: int) -> None:
        for line in range(p0 // L if p0 > 0 else 0, facts.laps + 1):
            boundary = line * L  # crossing from boundary to boundary + 1
            if p0 <= boundary < p1:
                crossings[c] += 1
                met["start crossing" if line == 0 else "lap crossing" if line < facts.laps else "finish"] += 1
                if line == 0:
                    met["start crossing (card)"] += 1

    def arrive(c: int, p: int) -> None:
        nonlocal clock
        clock += 1
        pos[c], stamp[c] = p, clock

    rounds = 0
    while running and rounds < 10_000:
        rounds += 1
        order = sorted(running, key=lambda c: (-pos[c], stamp[c]))
        if any(pos[a] == pos[b] for a, b in zip(order, order[1:], strict=False)):
            met["level cars roll"] += 1
        done_this_round = set()
        finishing_now = []
        for c in order:
            if c not in running:
                continue
            done_this_round.add(c)
            p0 = pos[c]
            p1 = forward(c, rng.randint(1, 6), "move")
            crossed(c, p0, p1)
            if p1 > finish_line:
                running.discard(c)
                finished.append(c)
                finishing_now.append(c)
                continue
            if p1 == p0:
                continue
            arrive(c, p1)
            if unit(p1) not in facts.action_units:
                continue
            met["arrives on an action square"] += 1
            effect, units = facts.actions[rng.randint(1, 6)]
            if effect == "out":
                met["action: out"] += 1
                met["retired: write the lap and why"] += 1
                running.discard(c)
                continue
            if effect == "none":
                met["action: no change"] += 1
                continue
            if units > 0:
                met["action forward"] += 1
                p2 = forward(c, units, "action forward")
            else:
                met["action back"] += 1
                p2 = p1 + units
                if on(p2) >= room:
                    met["action back onto a full unit"] += 1
                    while on(p2) >= room:
                        p2 -= 1
                if (p2 - 1) // L < (p1 - 1) // L:
                    met["action back over the line"] += 1
                passed = [o for o in running if o != c and o not in done_this_round and p2 < pos[o] < p1]
                if passed:
                    met["dropped back behind a car yet to roll"] += 1
            crossed(c, p1, p2)
            if p2 > finish_line:
                met["action move finishes"] += 1
                running.discard(c)
                finished.append(c)
                finishing_now.append(c)
                continue
            if p2 != p1:
                arrive(c, p2)
                if unit(p2) in facts.action_units:
                    met["action move onto an action square"] += 1
        if len(finishing_now) > 1:
            met["finish together"] += 1
    assert not running, "the race never ended"
    return met, {c: crossings[c] for c in finished}, finished


def uncovered(met: Counter, texts: dict[str, str]) -> list[str]:
    """The situations met that no sheet settles: ``texts`` by sheet (``race``, ``card``, ``summary``)."""
    flat = {k: " ".join(v.split()) for k, v in texts.items()}
    out = []
    for situation in met:
        sheet, words = SETTLED[situation]
        if sheet is None or " ".join(words.split()) not in flat[sheet]:
            out.append(f"{situation} ({met[situation]}×): not on the {sheet or 'any'} sheet")
    return out
