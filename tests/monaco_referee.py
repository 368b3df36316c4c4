"""A scripted *Monaco!* race played from the facts the pack's sheets print (issue 42): the referee reads the cars'
ratings and the rules' numbers back from the race log, the lap and the grid gap from the practice sheet, takes
the bends, the pit lane and the car's length from the road the pieces print, rolls seeded dice and notes every
situation the race runs into. Each situation names the words that settle it on the race log (the sheet the table
races from); a situation no sheet settles is what the test fails on.

The cars run in single file along the road (a car level with another is beside it, closer than the collision
distance); each driver goes as fast as the dice allow but slows in time to take a sharp bend at the speed that adds
nothing to the skill roll, and keeps clear of the car ahead where a slower speed allowed this turn does that."""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass

#: Every situation the referee can meet and the words on the race log that settle it (whitespace aside).
SETTLED = {
    "turn order": "Pole moves first, then play passes to the left",
    "race start speed": "Start: every car is at 0″ on the grid",
    "start crossing": "its first crossing is the start, not a lap",
    "lap crossing": "tick a lap each time it crosses the line after that",
    "wins": "First car to complete the agreed laps wins",
    "speed capped by the change": "change speed by at most 3″ a turn",
    "speed capped by the dice": "Move: one die + skill + tech inches, at most 18″",
    "dice total below speed less the change": "A total below your speed − 3″: move speed − 3″ all the same",
    "sharp bend": "A turn of more than 45°: roll a die + 1 for each 6″ (or part of it) of speed over 6″",
    "spin-off": "the driver's skill or more spins the car off. It restarts at 0″ next turn and rolls for damage",
    "fault": "the car's tech or more means a fault",
    "fault beside the pit boxes": "already past the entry, beside the boxes: next lap",
    "second fault before the stop": "A second fault before the stop changes nothing",
    "pit stop": "go in the next time the car reaches the pit entry, the move ending in its pit box",
    "pit die": "In the pits roll one die: a 6 puts the car out of the race, any other roll is the turns it stays",
    "rejoins from the pits": "then it rejoins at the pit exit from 0″",
    "exactly the collision distance apart": "Exactly 1″ apart is clear",
    "closer than the collision distance": "Ending closer than 1″ to another car: both roll a die + skill",
    "collision: both spin off": "One total more than 2 times the other: both spin off",
    "collision: both written off": "Both dice the same",
    "collision: drivers hurt": "double six: both drivers hurt too",
    "collision: no harm": "Otherwise no harm done",
}


@dataclass(frozen=True)
class Facts:
    """What the sheets print, read back (inches), and the road's bends and pit lane."""

    cars: tuple[tuple[str, int, int], ...]  # (name, skill, tech) in grid order
    top: int
    change: int
    start: int
    free_deg: int
    add: int
    band: int
    free_speed: int
    restart: int
    spin_add: int
    out_roll: int
    coll: float
    twice: int
    lap: float
    car_len: float
    grid_gap: float
    bends: tuple[tuple[float, int], ...]  # (where, skill rolls): sharp bends, inches from the line
    pit: tuple[float, float]  # pit entry and exit, inches from the line (the exit may lie past a lap)


def _num(pattern: str, text: str, *groups: int) -> tuple[int, ...]:
    m = re.search(pattern, text)
    assert m, pattern
    return tuple(int(m[g]) for g in groups)


def read_facts(log_layout: str, log: str, practice: str, road_) -> Facts:
    """The cars and the rules' numbers from the race log (its text, and ``pdftotext -layout``), the lap and the
    grid gap from the practice sheet; the bends, the pit lane and the car's length from the road the pieces
    print."""
    flat = " ".join(log.split())
    cars = []
    for line in log_layout.splitlines():
        row = re.match(r"\s*\d+ (.+?) \(.+?\)\s+(\d)\s+(\d)\s+(\d+)\s*$", line)
        if row:
            cars.append((row[1], int(row[2]), int(row[3])))
    top, change = _num(r"one die \+ skill \+ tech inches, at most (\d+)″; change speed by at most (\d+)″", flat, 1, 2)
    (start,) = _num(r"Start: every car is at (\d+)″", flat, 1)
    free, add, band, free_speed = _num(
        r"A turn of more than (\d+)°: roll a die \+ (\d+) for each (\d+)″ \(or part of it\) of speed over (\d+)″",
        flat,
        1,
        2,
        3,
        4,
    )
    restart, spin_add = _num(r"It restarts at (\d+)″ next turn and rolls for damage as above, adding (\d+)", flat, 1, 2)
    (out_roll,) = _num(r"a (\d) puts the car out of the race", flat, 1)
    (coll,) = _num(r"Ending closer than (\d+)″ to another car", flat, 1)
    (twice,) = _num(r"One total more than (\d+) times the other", flat, 1)
    practice_flat = " ".join(practice.split())
    (lap,) = _num(r"practice laps of the (\d+) in lap", practice_flat, 1)
    assert abs(lap - road_.lap_in) < 0.5
    (gap,) = _num(r"each next car (\d+)″ of road behind the car ahead", practice_flat, 1)
    mm = 25.4
    corners = sorted(road_.corners, key=lambda c: c.apex)
    bends = tuple((c.apex / mm, math.ceil(abs(c.angle) / 90)) for c in corners if abs(c.angle) > free)
    return Facts(
        tuple(cars), top, change, start, free, add, band, free_speed, restart, spin_add, out_roll, coll, twice,
        road_.lap_in, road_.n.car_len / mm, gap, bends, (road_.pit.s0 / mm, road_.pit.s1 / mm),
    )  # fmt: skip


def race(facts: Facts, laps: int, seed: int) -> tuple[Counter, dict[int, int], list[int]]:
    """One race of ``laps`` laps: the situations met (how often), each finisher's crossings of the line, and the
    finishing order."""
    rng = random.Random(seed)
    f = facts
    n = len(f.cars)
    die = lambda: rng.randint(1, 6)  # noqa: E731
    met: Counter = Counter()
    pitch = f.car_len + f.grid_gap
    pos = {c: -c * pitch for c in range(n)}  # each car's nose; pole's at the line
    speed = dict.fromkeys(range(n), f.start)
    crossings = dict.fromkeys(range(n), 0)
    due = dict.fromkeys(range(n), False)  # a fault: into the pits at the next pit entry
    pit_wait: dict[int, int] = {}  # turns left in the pits
    running, finished = set(range(n)), []
    met["race start speed"] += n

    def cross(c: int, p0: float, p1: float) -> None:
        for k in range(0, laps + 1):
            if p0 <= k * f.lap < p1:
                crossings[c] += 1
                met["start crossing" if k == 0 else "lap crossing"] += 1

    def band_add(v: float) -> int:
        return 0 if v <= f.free_speed else -(-(v - f.free_speed) // f.band) * f.add

    def trouble(c: int, plus: int = 0) -> None:
        if die() + plus >= f.cars[c][2]:
            met["fault"] += 1
            if due[c]:
                met["second fault before the stop"] += 1
            here = pos[c] % f.lap
            s_in, s_out = f.pit
            if s_in <= here or here < s_out - f.lap:
                met["fault beside the pit boxes"] += 1
            due[c] = True

    def gap(a: int, b: int) -> float:
        d = (pos[b] - pos[a] + f.lap / 2) % f.lap - f.lap / 2
        return max(0.0, abs(d) - f.car_len)

    def on_road() -> list[int]:
        return [o for o in running if o not in pit_wait]

    def spin(c: int, at: float) -> None:
        pos[c], speed[c] = at, f.restart
        trouble(c, f.spin_add)

    turns = 0
    while running and turns < 5_000:
        turns += 1
        met["turn order"] += 1
        for c in range(n):
            if c not in running:
                continue
            if c in pit_wait:
                pit_wait[c] -= 1
                if pit_wait[c] <= 0:
                    del pit_wait[c]
                    met["rejoins from the pits"] += 1
                    k = (pos[c] - f.pit[0]) // f.lap
                    p1 = k * f.lap + f.pit[1]
                    cross(c, pos[c], p1)
                    pos[c], speed[c] = p1, f.restart
                    if crossings[c] > laps:
                        running.discard(c)
                        finished.append(c)
                continue
            _, skill, tech = f.cars[c]
            total = min(die() + skill + tech, f.top)
            least = max(speed[c] - f.change, 0)
            if total < least:
                met["dice total below speed less the change"] += 1
                options = [least]
            else:
                most = min(speed[c] + f.change, total)
                met["speed capped by the change" if total > speed[c] + f.change else "speed capped by the dice"] += 1
                options = list(range(int(most), int(least) - 1, -1))
            # slow in time for the next sharp bend; keep clear of other cars where a speed allowed does
            ahead = next((b for b in f.bends if b[0] + f.lap * (pos[c] // f.lap) > pos[c]), None)
            if ahead is not None:
                to_bend = ahead[0] + f.lap * (pos[c] // f.lap) - pos[c]
                safe = [v for v in options if (v <= f.free_speed if v >= to_bend else _can_slow(v, to_bend - v, f))]
                options = safe or options[-1:]
            p0 = pos[c]
            clear = [v for v in options if all(_gap_at(f, p0 + v, pos[o]) >= f.coll for o in on_road() if o != c)]
            v = (clear or options)[0]
            speed[c] = v
            p1 = p0 + v
            # the pit entry, for a car that must go in
            entry = next((k * f.lap + f.pit[0] for k in range(-1, laps + 2) if p0 < k * f.lap + f.pit[0] <= p1), None)
            if due[c] and entry is not None:
                met["pit stop"] += 1
                met["pit die"] += 1
                cross(c, p0, entry)
                pos[c] = entry
                due[c] = False
                roll = die()
                if roll == f.out_roll:
                    running.discard(c)
                else:
                    pit_wait[c] = roll
                continue
            spun = False
            for at, rolls in f.bends:
                where = next((k * f.lap + at for k in range(-1, laps + 2) if p0 < k * f.lap + at <= p1), None)
                if where is None:
                    continue
                met["sharp bend"] += 1
                for _ in range(rolls):
                    if die() + band_add(v) >= skill:
                        met["spin-off"] += 1
                        cross(c, p0, where)
                        spin(c, where)
                        spun = True
                        break
                if spun:
                    break
            if not spun:
                cross(c, p0, p1)
                pos[c] = p1
                trouble(c)
            if crossings[c] > laps:
                met["wins"] += not finished
                running.discard(c)
                finished.append(c)
                continue
            for o in on_road():
                if o == c:
                    continue
                g = gap(c, o)
                if abs(g - f.coll) < 1e-9:
                    met["exactly the collision distance apart"] += 1
                elif g < f.coll:
                    met["closer than the collision distance"] += 1
                    a, b = die(), die()
                    ta, tb = a + skill, b + f.cars[o][1]
                    if a == b:
                        met["collision: both written off"] += 1
                        if a == 6:
                            met["collision: drivers hurt"] += 1
                        running.discard(c)
                        running.discard(o)
                        break
                    if ta > f.twice * tb or tb > f.twice * ta:
                        met["collision: both spin off"] += 1
                        spin(c, pos[c])
                        spin(o, pos[o])
                    else:
                        met["collision: no harm"] += 1
    assert not running, "the race never ended"
    return met, {c: crossings[c] for c in finished}, finished


def _gap_at(f: Facts, a: float, b: float) -> float:
    d = (b - a + f.lap / 2) % f.lap - f.lap / 2
    return max(0.0, abs(d) - f.car_len)


def _can_slow(v: float, room: float, f: Facts) -> bool:
    while v > f.free_speed:
        v -= f.change
        if v <= f.free_speed:
            return True
        if v >= room:
            return False
        room -= v
    return True


def uncovered(met: Counter, log: str) -> list[str]:
    """The situations met that the race log does not settle."""
    flat = " ".join(log.split())
    return [f"{s} ({met[s]}×)" for s in met if " ".join(SETTLED[s].split()) not in flat]
