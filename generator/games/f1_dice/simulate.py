"""The paper-and-dice F1 game raced on its board many times (``paddock simulate --game f1-dice``), by the rules of
``../shared/rules/f1-dice.txt`` (section numbers below are the rulebook's):

- *2.1 Qualifying*: every car rolls one die plus its team's modifier for the session (``d-x`` is at least 1); after
  Q1 the slowest take the last grid places, after Q2 the next slowest (:func:`.facts.session_sizes`), the rest
  race Q3 for the front. A dead heat goes to the driver with "the higher chance in reality" — the team higher in
  the rulebook's table, then the team-mate listed first — and between teams whose modifiers are all equal, to a
  deciding die.
- *2.2 Race*: one die a move; cars roll in the order they stand on the track (level cars: the one that arrived
  first), each once a round. A unit holds as many cars as the track has lanes: a full unit blocks the track — a
  car that would pass or reach it lines up behind it. A car that arrives on a marked unit (every ``action_every``th,
  none under the grid) makes the action roll (1 out, 2 back three, 3 back two, 4 nothing, 5 on two, 6 on three);
  one that queues behind a blocked action unit does not. The race ends when every car has crossed the line; level
  finishers in the order they arrived. Moving back lands on the first unit at or behind the target with room;
  moving on is blocked like a move; an action roll's move makes no second action roll (Paddock's reading).
- *The quick race* (``--rules quick``): two dice — the front runners move the sum, the midfield the higher, the
  backmarkers the lower (the teams file's ``tier``); a double 1 crashes the car out.

The game has no choices for a driver to make: the dice decide every move, so ``--ai`` has nothing to choose.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from ...simulate import MIN_RACES, too_few
from ...simulate.report import (
    BoardPicture,
    Chart,
    Figure,
    HeatMap,
    SimReport,
    Table,
    bars,
    corner_ends,
    hist_interval,
    plus_minus,
    range_text,
    rounded,
    share_interval,
    spread,
    start_marks,
)
from ...simulate.rng import race_random
from ...simulate.tally import Tally, hist_mean, spearman_d2, spearman_rho

OPTIONAL = ("quick",)
MAX_ROUNDS = 2000
DNF_WARN = 0.20
POLE_WARN = 0.30
BLOCK_WARN = 1.5  # a unit that holds cars up this many times a race after the first lap, or more


@dataclass(frozen=True)
class F1Setup:
    units: int  # units in a lap
    laps: int
    room: int  # cars a unit holds side by side (the lanes)
    action: frozenset[int]  # the marked units (1 … units)
    effects: tuple[tuple[str, int], ...]  # effects[roll] = (effect, units)
    grid: tuple[int, ...]  # the race position of each grid slot, pole first (0 = the unit behind the line)
    qualifying: tuple[tuple[int, int, int], ...]  # per car: Q1, Q2, Q3 modifiers
    tie: tuple[
        tuple[int, int, int], ...
    ]  # per car: (its team's modifiers' place in the table, its team, its place in the team)
    drop: tuple[int, ...]  # cars out after each session but the last
    tier: tuple[str, ...]  # per car (the quick race)
    die: int
    least: int  # the least qualifying result
    quick: bool = False


def simulate(track: Path | None, options, progress=None) -> SimReport:
    from ...paper import PageSettings
    from ...simulate.runner import run
    from ...teams import load_field
    from .facts import DEFAULT_TEAMS, check_laps, session_sizes
    from .facts import facts as game_facts
    from .pack import board_circuit, race_facts

    if options.against is not None:
        raise InputError(
            f"{options.against}: comparing two designs is for Formula D boards",
            field="SPEC",
            hint="race each f1-dice board on its own (the same --seed races the same dice)",
        )
    bad = sorted(set(options.rules) - set(OPTIONAL))
    if bad:
        raise InputError(f"--rules {bad[0]}: no such f1-dice rule", field="--rules", hint="use quick (the quick race)")
    if options.assume:
        key = sorted(options.assume)[0]
        raise InputError(f"--assume {key}: the f1-dice simulation assumes no numbers", field="--assume")
    if options.ai not in (None, "strong", "simple", "mixed"):
        raise InputError(f"--ai {options.ai}: no such driver", field="--ai", hint="use strong, simple or mixed")
    field = load_field(DEFAULT_TEAMS)
    if options.cars is not None:
        try:
            cut = field.first_cars(options.cars)
        except ValueError as err:
            raise InputError(f"--cars {options.cars}: {err}", field="--cars") from None
        if len(cut.drivers) < options.cars <= len(field.drivers):
            from ...notices import warn

            racing = f"{len(cut.drivers)} cars race, the first {len(cut.teams)} teams"
            warn(f"--cars {options.cars}: {racing} (a team races whole)")
        field = cut
    n = len(field.drivers)
    if options.laps is not None:
        check_laps(options.laps)
    circuit = board_circuit(track, n, PageSettings(), garages=len(field.teams))
    facts = race_facts(circuit, options.laps)
    units = facts.lap_units
    table = game_facts().actions.rolls
    effects = [("none", 0)] * 7
    for row in table:
        effects[row.roll] = (row.effect, row.units or 0)
    slots = sorted(circuit.grid, key=lambda s: s.number)
    grid = tuple(-s.row for s in slots)[:n]  # the front row stands on the unit behind the line
    if len(grid) < n:
        raise InputError(f"the board has {len(circuit.grid)} grid slots for {n} cars", field="--cars")
    groups: dict = {}
    tie = []
    for ti, team in enumerate(field.teams):
        q = team.qualifying
        key = (q.q1, q.q2, q.q3) if q else (0, 0, 0)
        g = groups.setdefault(key, len(groups))
        tie += [(g, ti, di) for di in range(len(team.drivers))]
    sizes = session_sizes(n)
    q = game_facts().qualifying
    setup = F1Setup(
        units=units,
        laps=facts.laps,
        room=circuit.lanes,
        action=frozenset(facts.action_units),
        effects=tuple(effects),
        grid=grid,
        qualifying=tuple(
            (t.qualifying.q1, t.qualifying.q2, t.qualifying.q3) if t.qualifying else (0, 0, 0) for t, _ in field.drivers
        ),
        tie=tuple(tie),
        drop=tuple(last - first + 1 for _, _, first, last in sizes[:-1]),
        tier=tuple(t.tier or "midfield" for t, _ in field.drivers),
        die=q.die_sides,
        least=q.minimum_result,
        quick="quick" in options.rules,
    )
    tally = run(batch, setup, options.races, options.seed, options.jobs, progress, cancel=options.cancel)
    settings = {
        "file": str(track) if track is not None else None,
        "races": options.races,
        "cars": n,
        "laps": facts.laps,
        "seed": options.seed,
        "ai": None,
        "rules": sorted(options.rules),
    }
    return _report(circuit, setup, field, tally, settings, options.ai is not None)


# ----------------------------------------------------------------------------------------------- the race


def batch(setup: F1Setup, seed: int, first: int, count: int) -> Tally:
    tally = Tally()
    for i in range(first, first + count):
        _race(setup, race_random(seed, i), tally)
    return tally


def qualify(setup: F1Setup, rng) -> list[int]:
    """The grid (car numbers, pole first) after the three sessions (*2.1*)."""
    running = list(range(len(setup.qualifying)))
    grid_back: list[list[int]] = []
    die, least = setup.die, setup.least
    for session in range(3):
        results = {c: max(least, int(rng.random() * die) + 1 + setup.qualifying[c][session]) for c in running}
        # a deciding die between teams of equal standing; team-mates: the one listed first
        deciding = {t: rng.random() for t in sorted({setup.tie[c][1] for c in running})}
        tie = setup.tie
        ranked = sorted(running, key=lambda c: (-results[c], tie[c][0], deciding[tie[c][1]], tie[c][1], tie[c][2]))
        if session < len(setup.drop) and setup.drop[session] < len(ranked):
            cut = len(ranked) - setup.drop[session]
            grid_back.insert(0, ranked[cut:])
            running = ranked[:cut]
        else:
            return ranked + [c for part in grid_back for c in part]
    return running + [c for part in grid_back for c in part]


def _race(setup: F1Setup, rng, t: Tally) -> None:
    n = len(setup.qualifying)
    order = qualify(setup, rng)
    pos = [0] * n
    stamp = [0] * n
    grid = [0] * n
    for slot, car in enumerate(order):
        pos[car] = setup.grid[slot]
        stamp[car] = slot
        grid[car] = slot + 1
    clock = n
    room, units = setup.room, setup.units
    finish_line = setup.laps * units
    on: dict[int, int] = {}
    for c in range(n):
        on[pos[c]] = on.get(pos[c], 0) + 1
    running = set(range(n))
    finished: list[int] = []
    out: list[tuple[int, str]] = []
    overtakes = 0
    rnd = 0

    def unit(p: int) -> int:
        return (p - 1) % units + 1

    def leave(c: int) -> None:
        on[pos[c]] -= 1

    def forward(c: int, steps: int) -> int:
        """Where ``c`` ends moving ``steps`` units on: behind the first full unit in the way."""
        p = pos[c]
        for k in range(1, steps + 1):
            q = p + k
            if q > finish_line:
                return q
            if on.get(q, 0) >= room:
                t.add("blocked", unit(q))
                if q > units:  # after the first lap: the start's queues have thinned out
                    t.add("blocked_later", unit(q))
                return q - 1
        return p + steps

    def passes(c: int, p0: int, p1: int, s0: int) -> int:
        """Count the cars ``c`` got past moving from ``p0`` (arrived at ``s0``) to ``p1``, where they stood."""
        got = 0
        for o in running:
            if o == c:
                continue
            q = pos[o]
            was_ahead = q > p0 or (q == p0 and stamp[o] < s0)
            if was_ahead and q < p1:
                got += 1
                t.add("overtake", unit(q))
            elif was_ahead and q == p1:
                pass  # level: still ahead (it arrived first)
            elif not was_ahead and (q > p1 or (q == p1 and p1 < p0)):
                t.add("fallback", unit(p0))
        return got

    while running and rnd < MAX_ROUNDS:
        rnd += 1
        for c in sorted(running, key=lambda c: (-pos[c], stamp[c])):
            if c not in running:
                continue
            if setup.quick:
                a, b = int(rng.random() * setup.die) + 1, int(rng.random() * setup.die) + 1
                if a == 1 and b == 1:
                    leave(c)
                    running.discard(c)
                    out.append((c, "crash"))
                    t.add("dnf_unit", unit(pos[c]), "crash")
                    continue
                tier = setup.tier[c]
                roll = a + b if tier == "front" else max(a, b) if tier == "midfield" else min(a, b)
            else:
                roll = int(rng.random() * setup.die) + 1
            p0, s0 = pos[c], stamp[c]
            p1 = forward(c, roll)
            leave(c)
            overtakes += passes(c, p0, p1, s0)
            if p1 > finish_line:
                running.discard(c)
                finished.append(c)
                if len(finished) == 1:
                    t.add("win_round", rnd)
                continue
            pos[c] = p1
            clock += 1
            stamp[c] = clock
            on[p1] = on.get(p1, 0) + 1
            if p1 != p0 and p1 > 0 and unit(p1) in setup.action:
                r = int(rng.random() * 6) + 1
                effect, k = setup.effects[r]
                u = unit(p1)
                t.add("action", u, r)
                if effect == "retire":
                    leave(c)
                    running.discard(c)
                    out.append((c, "accident or engine"))
                    t.add("dnf_unit", u, "accident or engine")
                elif effect == "move" and k:
                    leave(c)
                    if k > 0:
                        p2 = forward(c, k)
                    else:
                        p2 = p1 + k
                        while on.get(p2, 0) >= room:
                            p2 -= 1
                    overtakes += passes(c, p1, p2, clock)  # moving back passes no one: others gain
                    if p2 > finish_line:
                        running.discard(c)
                        finished.append(c)
                        if len(finished) == 1:
                            t.add("win_round", rnd)
                        continue
                    pos[c] = p2
                    clock += 1
                    stamp[c] = clock
                    on[p2] = on.get(p2, 0) + 1
    for c in sorted(running, key=lambda c: (-pos[c], stamp[c])):
        out.append((c, "stopped"))
    t.add("races")
    t.add("rounds", rnd)
    t.add("overtakes_race", overtakes)
    t.add("finishers", len(finished))
    for _, cause in out:
        t.add("dnf", cause)
    t.add("dnf_race", len(out))
    if finished:
        t.add("win_from", grid[finished[0]])
    # classification: the finishers in order, then the cars out, the last out first (they got furthest)
    classified = finished + [c for c, _ in reversed(out)]
    place = {c: i + 1 for i, c in enumerate(classified)}
    t.add("d2", n=spearman_d2([grid[c] for c in classified], [place[c] for c in classified]))
    t.add("q_d2", n=spearman_d2([c + 1 for c in range(n)], [grid[c] for c in range(n)]))
    for c in classified:
        t.add("place_from", grid[c], place[c])


# ----------------------------------------------------------------------------------------------- the report


def _report(circuit, setup: F1Setup, field, tally: Tally, settings: dict, ai_given: bool) -> SimReport:
    races = max(1, tally.count("races"))
    n = settings["cars"]
    per = 1.0 / races
    rounds = tally.hist("rounds")
    overtakes = tally.hist("overtakes_race")
    finishers = hist_mean(tally.hist("finishers"))
    dnf = {k[0]: v for k, v in tally.by("dnf").items()}
    dnf_rate = sum(dnf.values()) / (races * n)
    win_from = tally.hist("win_from")
    wins = sum(win_from.values())
    pole = win_from.get(1, 0) / wins if wins else 0.0
    rho = spearman_rho(tally.count("d2"), races, n)
    q_rho = spearman_rho(tally.count("q_d2"), races, n)
    by_unit_ov = {k[0]: v for k, v in tally.by("overtake").items()}
    by_unit_block = {k[0]: v for k, v in tally.by("blocked").items()}
    actions = []
    for u in sorted(setup.action):
        rolls = [tally.count("action", u, r) for r in range(1, 7)]
        total = sum(rolls)
        actions.append(
            {
                "unit": u,
                "rolls_per_race": round(total * per, 3),
                "retirements_per_race": round(rolls[0] * per, 4),
                "blocked_per_race": round(by_unit_block.get(u, 0) * per, 3),
            }
        )
    corners = []
    for i, k in enumerate(circuit.corners):
        a, b = circuit.unit_at(k.s_start), circuit.unit_at(k.s_end % circuit.lap_length)
        span = [u for u in range(1, setup.units + 1) if (u - a) % setup.units <= (b - a) % setup.units]
        corners.append(
            {
                "corner": i + 1,
                "units": [a, b],
                "overtakes_per_race": round(sum(by_unit_ov.get(u, 0) for u in span) * per, 3),
                "held_up_per_race": round(sum(by_unit_block.get(u, 0) for u in span) * per, 3),
            }
        )
    dnf_ci = hist_interval(tally.hist("dnf_race"))
    headline = {
        "winner_rounds": (hist_mean(tally.hist("win_round")), hist_interval(tally.hist("win_round"))),
        "rounds": (hist_mean(rounds), hist_interval(rounds)),
        "dnf_rate": (dnf_rate, None if dnf_ci is None else (dnf_ci[0] / n, dnf_ci[1] / n)),
        "overtakes": (hist_mean(overtakes), hist_interval(overtakes)),
        "pole_wins": (pole, share_interval(win_from.get(1, 0), wins)),
    }
    data = {
        "laps": setup.laps,
        "lap_units": setup.units,
        "headline": {
            key: {"mean": None if v != v else round(v, 4), "ci95": rounded(ci, 4)} for key, (v, ci) in headline.items()
        },
        "rounds": spread(rounds),
        "winner_rounds": spread(tally.hist("win_round")),
        "finishers_per_race": round(finishers, 3),
        "dnf_rate": round(dnf_rate, 4),
        "dnf_per_race": {k: round(v * per, 4) for k, v in sorted(dnf.items())},
        "overtakes": spread(overtakes),
        "pole_wins": round(pole, 4),
        "wins_by_grid": {str(g): round(v / wins, 4) for g, v in win_from.items()} if wins else {},
        "grid_finish_spearman": None if rho != rho else round(rho, 4),
        "team_table_grid_spearman": None if q_rho != q_rho else round(q_rho, 4),
        "action_units": actions,
        "corners": corners,
        "units": [
            {
                "unit": u,
                "overtakes_per_race": round(by_unit_ov.get(u, 0) * per, 4),
                "held_up_per_race": round(by_unit_block.get(u, 0) * per, 4),
            }
            for u in sorted(set(by_unit_ov) | set(by_unit_block))
        ],
    }
    figures = [
        Figure("Rounds to the winner's finish", range_text(tally.hist("win_round"))),
        Figure("Rounds per race (until the last car is in)", range_text(rounds)),
        Figure("Race", f"{setup.laps} laps of {setup.units} units, {len(setup.action)} action squares a lap"),
        Figure(
            "Finishers",
            f"{finishers:.1f} of {n} (DNF {100 * dnf_rate:.1f}{plus_minus(headline['dnf_rate'][1], 1, 100)} %)",
        ),
        Figure("Out of the race, per race", ", ".join(f"{k} {v * per:.2f}" for k, v in sorted(dnf.items())) or "none"),
        Figure("Overtakes per race", range_text(overtakes)),
        Figure("Pole wins", f"{100 * pole:.0f}{plus_minus(headline['pole_wins'][1], 0, 100)} % of races"),
        Figure("Grid and finish (Spearman ρ)", "–" if rho != rho else f"{rho:.2f}"),
        Figure("Team table and grid (Spearman ρ)", "–" if q_rho != q_rho else f"{q_rho:.2f}"),
    ]
    later_counts = {k[0]: v for k, v in tally.by("blocked_later").items()}  # the start's queues left out
    later = {u: v * per for u, v in later_counts.items()}
    rolls = sum(v for k, v in tally.by("action").items()) * per
    causes = {k: v * per for k, v in dnf.items()}
    warnings = _warnings(races, dnf_rate, pole, later, causes, rolls, setup, circuit.spec.action_every)
    if ai_given:
        from ...notices import warn

        warn("the dice decide every f1-dice move: --ai changes nothing")
    tables = [
        Table(
            "Action squares",
            ("Unit", "Rolls", "Out (roll of 1)", "Held up before it"),
            tuple(
                (
                    str(a["unit"]),
                    f"{a['rolls_per_race']:.2f}",
                    f"{a['retirements_per_race']:.2f}",
                    f"{a['blocked_per_race']:.2f}",
                )  # fmt: skip
                for a in actions
            ),
            "Per race: action rolls made on the square, cars put out there, cars held up by a full square.",
        ),
        Table(
            "Corners",
            ("#", "Units", "Overtakes", "Held up"),
            tuple(
                (
                    str(c["corner"]),
                    f"{c['units'][0]}–{c['units'][1]}",
                    f"{c['overtakes_per_race']:.2f}",
                    f"{c['held_up_per_race']:.2f}",
                )  # fmt: skip
                for c in corners
            ),
            "Per race, on the corner's units: overtakes, and cars held up behind a full unit.",
        ),
    ]
    charts = [
        Chart("Rounds per race", *bars(rounds), "{:.0%}"),
        Chart(
            "Wins by grid slot",
            tuple(str(g) for g in range(1, min(n, 12) + 1)),
            tuple(win_from.get(g, 0) / wins if wins else 0.0 for g in range(1, min(n, 12) + 1)),
            "{:.0%}",
            highlight=(0,),
        ),
        Chart("Finishers per race", *bars(tally.hist("finishers")), "{:.0%}", f"cars of {n} that finish"),
        Chart("Overtakes per race", *bars(overtakes), "{:.0%}"),
        Chart(
            "Overtakes per race, by corner",
            tuple(str(c["corner"]) for c in corners),
            tuple(c["overtakes_per_race"] for c in corners),
            "{:.1f}",
            "on the corner's units",
        ),
    ]
    return SimReport(
        game="f1-dice",
        board=circuit.spec.title if getattr(circuit.spec, "title", None) else circuit.name,
        source=settings.pop("file", None),
        title="how it plays",
        settings=settings,
        figures=figures,
        warnings=warnings,
        tables=tables,
        charts=charts,
        data=data,
        illustrate=lambda: _pictures(circuit, setup, by_unit_ov, later_counts, per),
    )


def _warnings(
    races: int,
    dnf_rate: float,
    pole: float,
    held_up: dict,
    causes: dict | None = None,
    rolls: float = 0.0,
    setup: F1Setup | None = None,
    every: int | None = None,
) -> list[str]:
    """Too many cars out — and why: in this game only the dice put a car out (the action roll's 1, the quick
    race's double 1), so the warning says how many rolls the board's action squares make and what would change
    it —, a pole that wins too often, a unit that keeps holding cars up once the start's queues have thinned (none
    from too few races to tell). ``causes``: cars out per race by cause; ``rolls``: action rolls per race."""
    if races < MIN_RACES:
        return [too_few(races)]
    out = []
    if dnf_rate >= DNF_WARN:
        out.append(_dnf_warning(dnf_rate, causes or {}, rolls, setup, every))
    if pole >= POLE_WARN:
        out.append(f"pole wins {100 * pole:.0f} % of races: the qualifying decides the race")
    for u, v in sorted(held_up.items(), key=lambda kv: (-kv[1], kv[0]))[:3]:
        if v >= BLOCK_WARN:
            out.append(f"unit {u} holds cars up {v:.1f} times a race after the first lap: the track is blocked there")
    return out


def _dnf_warning(rate: float, causes: dict, rolls: float, setup: F1Setup | None, every: int | None) -> str:
    """``DNF rate 48 %: 4 action squares a lap × 3 laps make 69 action rolls a race, and a 1 retires the car
    (11.6 a race). …``: the dice's doing, and the spec's or the command's numbers that would change it."""
    head = f"DNF rate {100 * rate:.0f} %"
    parts = []
    retired = causes.get("accident or engine", 0.0)
    if retired and setup is not None:
        squares = len(setup.action)
        parts.append(
            f"{squares} action square{'s' if squares != 1 else ''} a lap × {setup.laps} laps make {rolls:.0f} "
            f"action rolls a race, and a 1 retires the car ({retired:.1f} a race)"
        )
    if causes.get("crash"):
        parts.append(f"the quick race's double 1 crashes {causes['crash']:.1f} cars a race")
    if not parts:
        return f"{head}: that many cars do not finish"
    change = "race fewer laps (--laps)"
    if retired:
        now = f", now {every}" if every else ""
        change = f"space the action squares wider (the spec's action_every{now}) or {change}"
    return f"{head}: {'; '.join(parts)}. The game's dice, not the layout: {change} to lower it"


def _pictures(circuit, setup: F1Setup, overtakes: dict, blocked: dict, per: float):
    from ... import track as circuits
    from ...scene import bounds

    page = circuits.draw_board(circuit).page
    items = tuple(it for name in ("track", "kerbs", "units", "features", "bridges") for it in page.layer(name).items)
    box = bounds(page.layer("track").items) or (0.0, 0.0, page.width, page.height)
    box = (box[0] - 8, box[1] - 8, box[2] + 8, box[3] + 8)
    hw = circuit.half_width

    def cell(u: int) -> tuple:
        s0, s1 = circuit.unit_bounds(u)
        return tuple(map(tuple, circuit.strip(s0, s1, hw, -hw)))

    maps = [
        HeatMap(
            "Where places change",
            tuple((cell(u), v * per) for u, v in sorted(overtakes.items())),
            "overtakes per race on a unit",
            "blue",
            "{:.2f}",
        ),  # fmt: skip
        HeatMap(
            "Where cars are held up after the first lap",
            tuple((cell(u), v * per) for u, v in sorted(blocked.items())),
            "cars held up per race by a full unit",
            "red",
            "{:.2f}",
        ),  # fmt: skip
    ]
    labels = []
    for i, k in enumerate(circuit.corners):
        mid = (k.s_start + ((k.s_end - k.s_start) % circuit.lap_length) / 2) % circuit.lap_length
        outside = -1.0 if k.direction == "left" else 1.0
        x, y = circuit.offset_point(mid, outside * (hw + circuit.kerb_width + 9.0))
        labels.append((x, y, str(i + 1)))
    return maps, BoardPicture(items, box, tuple(labels), corner_ends(circuit) + start_marks(circuit))
