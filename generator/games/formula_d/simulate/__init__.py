"""Formula D races simulated on the board Paddock prints (``paddock simulate --game formula-d``).

- :mod:`.board` — the printed board as a race needs it (spaces and moves, corners, grid, pit lane and garages);
- :mod:`.rules` — the rulebook's numbers and the rules of a move (corners, overshooting, braking, blocking);
- :mod:`.values` — the turns-to-go table the strong driver reads the board with;
- :mod:`.drivers` — the computer drivers (``simple``, ``strong``);
- :mod:`.race` — one race played out, counted into a tally; its ``batch`` runs races in a worker (``pair_batch``:
  race ``i`` of two designs, with the same dice);
- :mod:`.report` — the tally as a report (figures, tables, charts, heat maps, warnings, JSON), and two reports
  compared.

For code that races a board it built (the board designer's play checks): :func:`play_figures`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ....errors import InputError

AI_LEVELS = ("strong", "simple", "mixed")  # mixed: the cars alternate simple and strong drivers
FIX_RACES = 200  # at most as many races of a corner's fix (a warning's, play.raced_fixes) as of the board


@dataclass(frozen=True)
class Prepared:
    """A board made ready to race: the circuit as printed, its race board, the rules and assumptions taken, the
    race setup and the report's settings."""

    circuit: object
    board: object
    rules: object
    taken: list
    setup: object
    settings: dict


def prepare(track: Path | None, options, circuit=None) -> Prepared:
    """The board ``track`` (Paddock's Formula D board when None; ``circuit``: one already built by
    :func:`~generator.games.formula_d.overlay.load_circuit`) ready to race as ``options`` ask."""
    from .. import facts
    from ..overlay import corner_marks, load_circuit
    from .board import race_board
    from .race import Setup
    from .rules import StaticReach, rule_set
    from .values import value_table

    ai = options.ai or "strong"
    if ai not in AI_LEVELS:
        raise InputError(f"--ai {ai}: no such driver for Formula D", field="--ai", hint=f"use {', '.join(AI_LEVELS)}")
    if options.laps is not None:
        raise InputError(
            f"--laps {options.laps}: a Formula D race is {facts.game().laps} laps",
            field="--laps",
            hint="leave out --laps (--rules three-laps races the optional three-lap race)",
        )
    wanted = options.cars or facts.game().cars
    if circuit is None:
        circuit = load_circuit(track, garages=wanted)
    marks = corner_marks(circuit)
    board = race_board(circuit, marks)
    cars = options.cars or min(wanted, len(board.grid))
    if cars < 1 or cars > len(board.grid):
        raise InputError(
            f"--cars {cars}: the board has {len(board.grid)} grid slots",
            field="--cars",
            hint=f"race at most {len(board.grid)} cars, or give the spec 'grid: {cars}'",
        )
    if not board.corners:
        raise InputError("the board has no corners: a Formula D race needs corners to stop in", file=track)
    pit = board.pit
    in_corner = any(board.corner[s] >= 0 for s in board.grid[:cars])
    rs, taken = rule_set(options.rules, options.assume, pit is not None, pit.min_roll if pit else None, in_corner)
    kinds = tuple(("simple", "strong")[i % 2] if ai == "mixed" else ai for i in range(cars))
    static = StaticReach(board, tuple(c.stops for c in board.corners))
    values = value_table(board, rs, static) if "strong" in kinds else None
    setup = Setup(board, rs, kinds, static, values)
    settings = {
        "file": str(track) if track is not None else None,
        "races": options.races,
        "cars": cars,
        "laps": rs.laps,
        "seed": options.seed,
        "ai": ai,
        "rules": sorted(options.rules),
    }
    return Prepared(circuit, board, rs, taken, setup, settings)


def simulate(track: Path | None, options, progress=None, circuit=None):
    """Race the board ``track`` (Paddock's Formula D board when None) ``options.races`` times: the report; with
    ``options.against``, the two boards raced with the same dice and compared (a
    :class:`~generator.simulate.report.Comparison`)."""
    from ....simulate.runner import run
    from .race import batch
    from .report import build_report

    if options.against is not None:
        return compare(track, options.against, options, progress)
    p = prepare(track, options, circuit)
    tally = run(batch, p.setup, options.races, options.seed, options.jobs, progress, cancel=options.cancel)
    report = build_report(p.circuit, p.board, p.rules, p.taken, tally, dict(p.settings))
    if circuit is None:  # a spec's corner overshot too often: its fix built and raced (play.raced_fixes)
        from ..play import raced_fixes
        from .report import OVERSHOOT_WARN

        cars, ai, races = p.settings["cars"], options.ai or "strong", min(options.races, FIX_RACES)
        build = lambda corners: _with_corners(track, corners, cars)  # noqa: E731
        race = lambda c: play_figures(c, races, options.seed, cars, ai, rules=tuple(options.rules))  # noqa: E731
        raced_fixes(track, p.circuit, report, build, race, OVERSHOOT_WARN)
    return report


def _with_corners(track: Path, corners: list[dict], cars: int):
    """The board of the spec ``track`` with ``corners`` (``corners`` entries, as dicts) in place of its own, built
    as :func:`~generator.games.formula_d.overlay.load_circuit` builds it; a GeometryError if it does not build."""
    from .... import track as tr
    from ....problems import geometry_error
    from ....track.model import CornerSpec
    from ..circuit import analysis

    request = tr.read_request(track)
    spec = request.spec.model_copy(update={"corners": [CornerSpec.model_validate(c) for c in corners]})
    done = analysis(request.respec(spec), garages=cars)
    if done.problems or done.circuit is None:
        raise geometry_error(done.problems, done.source)
    return done.circuit


def compare(track_a: Path | None, track_b: Path, options, progress=None):
    """Two designs raced side by side: race ``i`` of each with the same dice (common random numbers), each
    reported, and their differences with 95 % intervals from the paired races."""
    from ....simulate.runner import run
    from .race import pair_batch
    from .report import build_report, compare_reports, split

    a, b = prepare(track_a, options), prepare(track_b, options)
    if a.setup.kinds != b.setup.kinds:
        raise InputError(
            f"the two boards race {len(a.setup.kinds)} and {len(b.setup.kinds)} cars",
            field="--cars",
            hint=f"give --cars {min(len(a.setup.kinds), len(b.setup.kinds))} to race both with the same field",
        )
    tally = run(pair_batch, (a.setup, b.setup), options.races, options.seed, options.jobs, progress,
                cancel=options.cancel)  # fmt: skip
    ta, tb, pairs = split(tally)
    ra = build_report(a.circuit, a.board, a.rules, a.taken, ta, dict(a.settings))
    rb = build_report(b.circuit, b.board, b.rules, b.taken, tb, dict(b.settings))
    return compare_reports(ra, rb, ta, tb, pairs, a.board, b.board)


def play_figures(circuit, races: int = 200, seed: int = 1, cars: int | None = None, ai: str = "strong",
                 jobs: int = 1, rules: tuple[str, ...] = ()) -> dict:  # fmt: skip
    """Race a built Formula D ``circuit`` (from :func:`~generator.games.formula_d.overlay.load_circuit`, built with
    at least ``cars`` garages if it has a pit lane) and return the figures a board is judged by:

    - ``spaces_per_turn``: mean spaces a car moves a turn (every car, every turn), and ``spaces_per_turn_ci95``;
    - ``gear_share``: the share of moves made in each gear, keys ``"1"`` … ``"6"``;
    - ``turns_per_lap`` (the winner's), ``dnf_rate``, ``overtakes`` (a race, the start apart);
    - ``corners``: per corner in lap order ``corner``, ``label``, ``stops``, ``overshoot_share`` (overshoots ÷
      passes; None if no car passed it), ``turns_in_corner``, ``wp_lost_per_race``;
    - ``straights``: per straight ``before_corner``, ``main``, ``spaces_per_lane``, ``gear_share``;
    - ``warnings``: what the report warns a designer of.

    The same as ``paddock simulate --json`` gives under the same keys, without drawing anything."""
    from ....simulate import SimOptions

    options = SimOptions(races=races, seed=seed, cars=cars, ai=ai, jobs=jobs, rules=tuple(rules))
    report = simulate(None, options, circuit=circuit)
    d = report.data
    return {
        "races": races,
        "cars": report.settings["cars"],
        "spaces_per_turn": d["spaces_per_turn"],
        "spaces_per_turn_ci95": d["headline"]["spaces_per_turn"]["ci95"],
        "gear_share": d["gear_share"],
        "turns_per_lap": d["turns_per_lap"],
        "dnf_rate": d["dnf_rate"],
        "overtakes": d["overtakes"]["mean"],
        "corners": [
            {k: c[k] for k in ("corner", "label", "stops", "overshoot_share", "turns_in_corner", "wp_lost_per_race")}
            for c in d["corners"]
        ],
        "straights": [
            {k: s[k] for k in ("before_corner", "main", "spaces_per_lane", "gear_share")} for s in d["straights"]
        ],
        "warnings": list(report.warnings),
    }
