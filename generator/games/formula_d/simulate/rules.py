"""Formula D's race rules as the simulation plays them (``../shared/rules/formula-d.txt``, advanced rules; the
section names below are the rulebook's). Every number comes from ``templates/formula-d/`` through
:func:`rule_set`; where the rulebook leaves one open the simulation takes it as an assumption (``--assume``) and
the report says which value it used.

The rules here are pure: given a car and the board they say where a move can end and what it costs. The race
(:mod:`.race`) rolls the dice and applies them.

Moving (*Driving code*). A move of ``n`` spaces is ``n`` steps, each one space ahead in the lane or diagonally
forward into the next lane (Paddock's reading of the lost pictures: a lane change is part of the move, by the
shortest route). A car never drives through another car, never backwards, and ends on a free space.

Corners (*Driving code in the corners*, *Overshooting*). A car must end ``stops`` moves inside a corner's limits
before it may leave it. A move that leaves a corner without them overshoots: each space beyond the exit line costs a
tire WP (booked to the corner overshot); with two stops short (a 2-stop corner with none, a 3-stop corner with one
or none) the car is out. Losing the last tire WP that way spins the car (next turn in 1st gear); with no tire WP
left, an overshoot of one space spins it again and a longer one puts it out; losing more tire WP than the car has
puts it out. An *overshooting* car keeps to its lane coming out of the corner — the step over the exit line and the
rest of the move go straight ahead (so, blocked there, it cannot drive round: it brakes) — and its move ending in
the next corner is no stop there: the rulebook says both in its *Overshooting* section, of the car that overshoots.
A car that made its stops leaves a corner as it drives anywhere, changing lanes as it likes. A car starting the race
on a grid slot inside a corner owes it no stops (Paddock's reading, ``grid_owed``: the rulebook's grids stand on a
straight, and its rule is for a car driving into a corner).

Braking (*Braking*, *Blocking*). Brake WP shorten a move at any time (``brake_wp`` per space: an assumption). A car
that cannot move its whole roll because cars block every way moves as far as it can and pays the blocked table
for the spaces left (7 or more: out; without the brake and tire WP to pay: out).
"""

from __future__ import annotations

from dataclasses import dataclass

from ....errors import InputError

TIRES, BRAKES, GEARBOX, BODY, ENGINE, HANDLING = range(6)
RUN, PIT, FIN, OUT = range(4)  # a car: racing, in the pits (a slow stop), finished, out
ZONES = ("tires", "brakes", "gearbox", "car_body", "engine", "road_handling")

#: Optional rules ``--rules`` may name (``three-laps``: the optional three-lap race with two pit stops).
OPTIONAL = ("slipstream", "weather", "rain", "three-laps")


@dataclass(frozen=True)
class RuleSet:
    """The numbers of the race, read once from the game's facts (and the assumptions)."""

    faces: tuple[tuple[int, ...], ...]  # faces[gear] (index 0 unused)
    black: int  # the black die's sides
    stall: tuple[int, int]  # start roll: stalled
    great: tuple[int, int]  # start roll: great start
    great_spaces: int
    blocked: tuple[tuple[int, int], ...]  # blocked[spaces left] = (brake WP, tire WP); index 0 unused
    blocked_out: int  # this many spaces left (or more): out
    downshift: tuple[tuple[int, int, int], ...]  # downshift[gears skipped] = (gearbox, brake, engine WP)
    overshoot_out: dict  # stops required -> stops made that put the car out
    collision: tuple[int, int]  # black-die results that cost a car body WP (good weather)
    engine: tuple[int, int]
    handling: tuple[int, int]
    collision_rain: tuple[int, int]
    engine_rain: tuple[int, int]
    handling_rain: tuple[int, int]
    strain: tuple[int, ...]  # strain[gear]: the roll that tests the engines (0: none)
    build: tuple[int, ...]  # WP per zone at the start, in ZONES order
    pit_quick: tuple[int, int]
    pit_exit_gear: int
    slip_gear: int
    slip_spaces: int
    laps: int
    brake_wp: int  # brake WP per space not moved (assumed)
    pit_roll: int  # least gear-die roll to enter the pit (the board's, or assumed)
    weather_chart: tuple[int, int, int]  # highest black-die result for good, changeable, rain-changeable
    slipstream: bool = False
    weather: bool = False
    rain: bool = False
    grid_owed: int = 0  # stops a car starting inside a corner owes there (assumed; only a grid in a corner asks)

    @property
    def top_gear(self) -> int:
        return len(self.faces) - 1

    def max_face(self, gear: int) -> int:
        return self.faces[gear][-1]

    @property
    def means(self) -> tuple[float, ...]:
        """The average roll of each gear's die (index 0 unused)."""
        return self._means

    def __post_init__(self) -> None:
        object.__setattr__(self, "_means", (0.0,) + tuple(sum(f) / len(f) for f in self.faces[1:]))
        object.__setattr__(self, "_gears", {})  # gear_options, worked out once per case


#: The numbers the rulebook leaves open: key → (label, the house rule giving Paddock's value, why it is open, least,
#: most). The values are the pack's suggestions (``templates/formula-d/house-rules.yaml``): one source for both.
CHART = "each circuit's weather chart sets it"
OPEN = {
    "brake_wp": ("brake WP per space not moved", "brake_wp_per_space", "the rulebook does not say how many", 1, 3),
    "pit_roll": (
        "least roll to enter the pit",
        "pit_min_roll",
        "each board prints its own; this one gives none",
        1,
        30,
    ),
    "downshift3_engine": (
        "engine WP for skipping 3 gears",
        "engine_wp_skip_3",
        "the OCR'd rulebook lost this number",
        0,
        3,
    ),
    "grid_owed": (
        "stops a car starting on a grid slot inside a corner still owes there",
        None,
        "the rulebook's grids stand on a straight: a car starting inside a corner did not drive into it",
        0,
        3,
    ),
    "weather_good": ("weather chart: black die 1–N is good weather", ("weather", 0), CHART, 0, 20),
    "weather_changeable": ("weather chart: up to N is changeable", ("weather", 1), CHART, 0, 20),
    "weather_rain_changeable": ("weather chart: up to N is rain, changeable", ("weather", 2), CHART, 0, 20),
}


def default(key: str) -> int:
    """Paddock's value for an open number: the house rule the pack suggests (0 for ``grid_owed``)."""
    from .. import facts

    source = OPEN[key][1]
    if source is None:
        return 0
    if isinstance(source, tuple):  # a line of the weather chart: the top of its black-die range ("11–14" → 14)
        name, line = source
        text = str(getattr(facts.house(), name).value[line])
        return int(text.replace("–", "-").split("-")[-1])
    return int(getattr(facts.house(), source).value)


def rule_set(
    rules: tuple[str, ...] = (),
    assume: dict | None = None,
    pit: bool = True,
    board_pit_roll: int | None = None,
    grid_in_corner: bool = False,
) -> tuple[RuleSet, list[tuple]]:
    """The race's numbers from ``templates/formula-d/`` (through :mod:`..facts`), the optional ``rules`` in play
    and the ``assume``d values; also the assumptions made, as (key, label, value, why). ``pit``: the board has a
    pit lane, whose least roll to enter is ``board_pit_roll`` (the spec's ``pit.min_roll``) if it gives one;
    ``grid_in_corner``: a grid slot stands inside a corner (the stops a car starting there owes are assumed)."""
    from .. import facts

    assume = dict(assume or {})
    unknown = sorted(set(assume) - set(OPEN))
    if unknown:
        raise InputError(
            f"--assume {unknown[0]}: not a number the simulation assumes", hint=f"use one of {', '.join(OPEN)}"
        )
    bad = sorted(set(rules) - set(OPTIONAL))
    if bad:
        raise InputError(f"--rules {bad[0]}: no such optional rule", hint=f"use any of {', '.join(OPTIONAL)}")
    for key, value in assume.items():
        lo, hi = OPEN[key][3], OPEN[key][4]
        if not isinstance(value, int) or not lo <= value <= hi:
            raise InputError(f"--assume {key}={value}: give a whole number from {lo} to {hi}", field="--assume")
    r = facts.rules()
    game = facts.game()
    dice = facts.dice().root
    faces = [()] + [tuple(sorted(dice[g])) for g in sorted(dice)]
    start = {row.result: (row.from_, row.to) for row in r.start_roll}
    blocked = [(0, 0)] * r.blocked.eliminated_from
    for spaces, brake, tire in r.blocked.rows:
        blocked[int(spaces)] = (int(brake), int(tire))
    taken = []

    def value(key: str, given=None):
        label, _, why, _, _ = OPEN[key]
        if key in assume:
            v = assume[key]
            taken.append((key, label, v, "given with --assume"))
            return v
        if given is not None:
            return given
        v = default(key)
        taken.append((key, label, v, why))
        return v

    down = [(0, 0, 0)]
    for row in r.downshift.rows:
        skipped, gearbox, brake, engine = row
        if engine is None:
            engine = value("downshift3_engine") if int(skipped) == 3 else 0
        down.append((int(gearbox), int(brake), int(engine)))
    strain = [0] * len(faces)
    strain[5] = r.engine_strain.gear5
    strain[6] = r.engine_strain.gear6
    rolls = r.rolls
    build = facts.standard_build()
    weather = "weather" in rules
    chart = (default("weather_good"), default("weather_changeable"), default("weather_rain_changeable"))
    if weather:
        chart = (value("weather_good"), value("weather_changeable"), value("weather_rain_changeable"))
        if not chart[0] <= chart[1] <= chart[2]:
            raise InputError("--assume: the weather chart's bands must rise (good ≤ changeable ≤ rain, changeable)")
    rs = RuleSet(
        faces=tuple(faces),
        black=r.black_die,
        stall=start["Stalled"],
        great=start["Great start"],
        great_spaces=r.great_start_spaces,
        blocked=tuple(blocked),
        blocked_out=r.blocked.eliminated_from,
        downshift=tuple(down),
        overshoot_out=dict(r.overshoot.eliminated),
        collision=rolls.collision.good,
        engine=rolls.engine.good,
        handling=rolls.road_handling.good,
        collision_rain=rolls.collision.rain,
        engine_rain=rolls.engine.rain,
        handling_rain=rolls.road_handling.rain,
        strain=tuple(strain),
        build=tuple(int(build[z]) for z in ZONES),
        pit_quick=r.pit_stop.quick,
        pit_exit_gear=r.pit_stop.exit_gear,
        slip_gear=r.slipstream.min_gear,
        slip_spaces=r.slipstream.bonus_spaces,
        laps=game.three_lap_race if "three-laps" in rules else game.laps,
        brake_wp=value("brake_wp"),
        pit_roll=int(value("pit_roll", board_pit_roll)) if pit else 0,
        slipstream="slipstream" in rules,
        weather=weather,
        rain="rain" in rules,
        weather_chart=chart,
        grid_owed=value("grid_owed") if grid_in_corner or "grid_owed" in assume else 0,
    )
    return rs, taken


def out_by_overshoot(rs: RuleSet, stops: int, made: int) -> bool:
    """Whether leaving a corner of ``stops`` stops after ``made`` puts the car out at once (two stops short or
    more; the rulebook's table for 2- and 3-stop corners, the same reading beyond)."""
    table = rs.overshoot_out.get(stops)
    if table is not None:
        return made in table
    return stops - made >= 2


def overshoot(rs: RuleSet, tires: int, spaces: int) -> tuple[str, int]:
    """What an overshoot of ``spaces`` (one stop short) does to a car with ``tires`` tire WP: ``("ok", left)``,
    ``("spin", 0)`` or ``("out", 0)`` (*Overshooting*)."""
    if tires == 0:
        return ("spin", 0) if spaces <= 1 else ("out", 0)
    if spaces < tires:
        return "ok", tires - spaces
    if spaces == tires:
        return "spin", 0
    return "out", 0


def blocked_cost(rs: RuleSet, left: int) -> tuple[int, int] | None:
    """Brake and tire WP a car pays for ``left`` spaces it could not move (None: the car is out)."""
    if left <= 0:
        return (0, 0)
    if left >= rs.blocked_out:
        return None
    return rs.blocked[left]


def gear_options(rs: RuleSet, gear: int, gearbox: int, brakes: int, engine: int) -> list[int]:
    """The gears a car in ``gear`` may choose (*Gears*, *Changing down*): up one at most, down as far as three
    gears skipped if it has the gearbox (and brake) WP to pay; with no gearbox WP, down one at a time."""
    key = (gear, gearbox > 0, min(brakes, 9))
    got = rs._gears.get(key)
    if got is None:
        got = rs._gears[key] = _gear_options(rs, gear, gearbox, brakes)
    return got


def _gear_options(rs: RuleSet, gear: int, gearbox: int, brakes: int) -> list[int]:
    top = rs.top_gear
    out = [g for g in (gear - 1, gear, gear + 1) if 1 <= g <= top]
    if gearbox > 0:
        for skipped in range(1, len(rs.downshift)):
            g = gear - 1 - skipped
            if g < 1:
                break
            _, brake, _ = rs.downshift[skipped]
            if brakes >= brake:
                out.append(g)
    return sorted(set(out))


def downshift_cost(rs: RuleSet, gear: int, new: int) -> tuple[int, int, int]:
    """(gearbox, brake, engine) WP for changing from ``gear`` to ``new``."""
    skipped = gear - new - 1
    if skipped <= 0:
        return (0, 0, 0)
    return rs.downshift[skipped]


FREE = (0, (), 0, 0)  # the path state of a move that has left no corner, crossed no line, passed no marker


def reach(
    board, start: int, cur: int, made: int, stops: tuple[int, ...], depth: int, occ, danger=(), head=None
) -> list[dict]:
    """Where a car on ``start`` can be after each number of steps up to ``depth``: ``layers[d]`` maps a space to
    ``(locked, events, line, hits)`` — ``locked`` once the path has overshot a corner (ahead only from then on),
    ``events`` the corners left without their stops as ``(corner, stops made, step)``, ``line`` the step that
    crossed the start/finish line (0: none), ``hits`` the damage-marker spaces passed. ``cur``/``made``: the corner
    the car is in and the stops it made there. ``occ``: spaces other cars stand on. Among paths to a space the one
    leaving the corner latest (fewest spaces beyond it), then passing fewest damage markers, is kept. The layers
    stop where no free space is left (the car is blocked). ``head``: the first layers, already known (from the
    empty board, when no car or marker lies that near)."""
    plain, special = board.plain, board.special
    locked_plain, locked_special = board.locked_plain, board.locked_special
    layers = list(head) if head else [{start: FREE}]
    layer = layers[-1]
    for d in range(len(layers), depth + 1):
        nxt: dict = {}
        get = nxt.get
        for a, state in layer.items():
            if state[0]:
                pl, sp = locked_plain[a], locked_special[a]
            else:
                pl, sp = plain[a], special[a]
            for b in pl:  # the common step: no corner left, no line crossed
                if b in occ:
                    continue
                new = state
                if danger and b in danger:
                    new = (state[0], state[1], state[2], state[3] + 1)
                old = get(b)
                if old is None or old is not new and _better(new, old):
                    nxt[b] = new
            for b, left, crossed, straight in sp:
                if b in occ:
                    continue
                locked, events, line, hits = state
                if left >= 0 and (left != cur or made < stops[left]):  # an overshoot: out in its lane
                    if not straight:
                        continue
                    locked = 1
                    events = events + ((left, made if left == cur else 0, d),)
                hit = danger and b in danger
                new = (locked, events, line or (d if crossed else 0), hits + 1 if hit else hits)
                old = get(b)
                if old is None or _better(new, old):
                    nxt[b] = new
        if not nxt:
            break
        layers.append(nxt)
        layer = nxt
    return layers


def _better(a, b) -> bool:
    if a[1] != b[1]:  # fewer corners overshot, then leaving them later (fewer spaces beyond)
        if len(a[1]) != len(b[1]):
            return len(a[1]) < len(b[1])
        return sum(e[2] for e in a[1]) > sum(e[2] for e in b[1])
    return a[3] < b[3]


class StaticReach:
    """Every state's moves on the empty board (no other car, no damage marker), worked out once for a run: a
    race takes them when no car or marker lies within the distance it rolls (no path can then be cut off), and
    the strong driver's table (:mod:`.values`) is built from them. States are numbered ``base[space] + made``."""

    DEPTH = 30

    def __init__(self, board, stops: tuple[int, ...]) -> None:
        self.base: list[int] = []
        size = 0
        for i in range(board.n):
            self.base.append(size)
            k = board.corner[i]
            size += 1 + (stops[k] if k >= 0 else 0)
        self.layers: list = [None] * size
        self.near: list = [None] * size  # per space: the fewest steps that reach it (-1: none within DEPTH)
        for i in range(board.n):
            if not board.succ[i]:
                continue
            k = board.corner[i]
            for made in range(1 + (stops[k] if k >= 0 else 0)):
                layers = reach(board, i, k, made, stops, self.DEPTH, ())
                near = [-1] * board.n
                for d, layer in enumerate(layers):
                    for sp in layer:
                        if near[sp] < 0:
                            near[sp] = d
                self.layers[self.base[i] + made] = layers
                self.near[self.base[i] + made] = near

    def state(self, board, space: int, made: int, stops) -> int:
        k = board.corner[space]
        return self.base[space] + (min(made, stops[k]) if k >= 0 else 0)

    def clear(self, sid: int, depth: int, occ, danger) -> int:
        """How many steps from state ``sid`` are sure to be as on the empty board: one less than the fewest steps
        to another car or a damage marker (``depth`` + 1 if none lies within ``depth``)."""
        near = self.near[sid]
        first = depth + 1
        for sp in occ:
            d = near[sp]
            if 0 < d < first:
                first = d
        for sp in danger:
            d = near[sp]
            if 0 < d < first:
                first = d
        return first - 1
