"""``paddock simulate`` on Paddock's Formula D board (Circuit de la Garenne, ten cars): speed, memory, processes
and the drivers (issue 34's targets).

    python benchmarks/simulate.py            # every measure (several minutes)
    python benchmarks/simulate.py --quick    # a tenth of the races

Targets: 1,000 races with strong drivers in at most 60 s on one core; 10,000 with simple drivers in at most 60 s;
memory flat in the number of races; ``--jobs 2`` close to twice as fast as ``--jobs 1``; the strong driver ahead
of the simple one over 500 mixed races. Times are wall and CPU seconds of this process (``--jobs 1`` races in
it); on a machine busy with other work the CPU time is the fairer number.
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.games.formula_d.overlay import corner_marks, load_circuit  # noqa: E402
from generator.games.formula_d.simulate.board import race_board  # noqa: E402
from generator.games.formula_d.simulate.race import Setup, batch  # noqa: E402
from generator.games.formula_d.simulate.rules import StaticReach, rule_set  # noqa: E402
from generator.games.formula_d.simulate.values import value_table  # noqa: E402
from generator.simulate.runner import run  # noqa: E402
from generator.simulate.tally import hist_mean  # noqa: E402


def setups():
    t0 = time.perf_counter()
    circuit = load_circuit(None)
    board = race_board(circuit, corner_marks(circuit))
    rs, _ = rule_set(pit=board.pit is not None, board_pit_roll=board.pit.min_roll)
    static = StaticReach(board, tuple(c.stops for c in board.corners))
    values = value_table(board, rs, static)
    made = time.perf_counter() - t0

    def setup(kinds):
        return Setup(board, rs, kinds, static, values)

    return setup, made


def timed(setup, races: int, jobs: int = 1, seed: int = 1):
    w0, c0 = time.perf_counter(), time.process_time()
    tally = run(batch, setup, races, seed, jobs)
    return tally, time.perf_counter() - w0, time.process_time() - c0


def main() -> int:
    quick = "--quick" in sys.argv
    k = 10 if quick else 1
    setup, made = setups()
    print(f"board, rules, empty-board moves and the strong driver's table: {made:.2f} s (once a run)")
    rows = []
    ok = True
    for kind, races, target in (("strong", 1000 // k, 60.0 / k), ("simple", 10_000 // k, 60.0 / k)):
        tally, wall, cpu = timed(setup((kind,) * 10), races)
        turns = hist_mean(tally.hist("turns"))
        rows.append((f"{races:,} races, {kind} drivers, --jobs 1", wall, cpu, target, f"{turns:.1f} turns"))
        ok &= cpu <= target
    for row in rows:
        print(f"| {row[0]} | {row[1]:.1f} s wall | {row[2]:.1f} s CPU | target ≤ {row[3]:.0f} s | {row[4]} |")
    # memory: the peak of Python's allocations while racing, for ten times the races
    peaks = []
    for races in (100 // k * 2, 1000 // k * 2):
        tracemalloc.start()
        run(batch, setup(("simple",) * 10), races, 1, 1)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    few, many = 100 // k * 2, 1000 // k * 2
    print(
        f"| memory: peak while racing {peaks[0] / 1e6:.2f} MB for {few} races, {peaks[1] / 1e6:.2f} MB for {many} "
        f"| ratio {peaks[1] / peaks[0]:.2f} (flat: about 1) |"
    )
    # processes: the same races on one and on two. On a machine whose other work takes the cores, wall time shows
    # nothing; the CPU the two workers used (they are this process's children) shows how the work splits.
    import resource

    races = 400 // k
    one, w1, c1 = timed(setup(("strong",) * 10), races, jobs=1)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    two, w2, _ = timed(setup(("strong",) * 10), races, jobs=2)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    same = "the same tallies" if one == two else "DIFFERENT tallies"
    print(
        f"| {races} strong races: --jobs 1 {w1:.1f} s wall ({c1:.1f} s CPU), --jobs 2 {w2:.1f} s wall "
        f"({workers:.1f} s CPU in the two workers) | wall speed-up {w1 / w2:.2f}×, on two free cores about "
        f"{c1 / (workers / 2):.2f}× | {same} |"
    )
    ok &= one == two
    # the drivers: odd cars simple, even strong, 500 races
    races = 500 // k
    tally, wall, _ = timed(setup(tuple(("simple", "strong")[i % 2] for i in range(10))), races, seed=7)
    place = {}
    for (kind, p), v in tally.by("place").items():
        n, s = place.get(kind, (0, 0))
        place[kind] = (n + v, s + v * p)
    wins = {key[0]: v for key, v in tally.by("win_kind").items()}
    mean = {kind: s / n for kind, (n, s) in place.items()}
    print(
        f"| {races} mixed races: mean place strong {mean['strong']:.2f}, simple {mean['simple']:.2f}; wins strong "
        f"{wins.get('strong', 0)}, simple {wins.get('simple', 0)} | {wall:.1f} s |"
    )
    ok &= mean["strong"] < mean["simple"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
