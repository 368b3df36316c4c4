"""Formula D races simulated on the board Paddock prints (``paddock simulate --game formula-d``).

- :mod:`.board` — the printed board as a race needs it (spaces and moves, corners, grid, pit lane);
- :mod:`.rules` — the rulebook's numbers and the rules of a move (corners, overshooting, braking, blocking);
- :mod:`.values` — the turns-to-go table the strong driver reads the board with;
- :mod:`.drivers` — the computer drivers (``simple``, ``strong``);
- :mod:`.race` — one race played out, counted into a tally; its ``batch`` runs races in a worker;
- :mod:`.report` — the tally as a report (figures, tables, charts, heat maps, warnings, JSON).
"""

from __future__ import annotations

from pathlib import Path

from ....errors import InputError

AI_LEVELS = ("strong", "simple", "mixed")  # mixed: the cars alternate simple and strong drivers


def simulate(track: Path | None, options, progress=None):
    """Race the board ``track`` (Paddock's Formula D board when None) ``options.races`` times: the report."""
    from ....simulate.runner import run
    from .. import facts
    from ..overlay import corner_marks, load_circuit
    from .board import race_board
    from .race import Setup, batch
    from .report import build_report
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
    tally = run(batch, setup, options.races, options.seed, options.jobs, progress)
    settings = {
        "file": str(track) if track is not None else None,
        "races": options.races,
        "cars": cars,
        "laps": rs.laps,
        "seed": options.seed,
        "ai": ai,
        "rules": sorted(options.rules),
    }
    return build_report(circuit, board, rs, taken, tally, settings)
