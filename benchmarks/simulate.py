"""``paddock simulate`` on the board ``paddock pack formula-d`` prints (ten cars): speed, processes, memory, the
drivers, and how the board plays (issue 44's targets; the figures docs/simulate.md prints).

    python benchmarks/simulate.py                 # every measure (several minutes)
    python benchmarks/simulate.py --quick         # a tenth of the races
    python benchmarks/simulate.py --write-docs    # and write the figures into docs/simulate.md

Targets: 1,000 races with strong drivers in at most 30 s of CPU on one core; 10,000 with simple drivers in at most
60 s; ``--jobs 2`` at least 1.8 times as fast as ``--jobs 1`` on 200 strong races (racing only: the board and the
drivers' tables are built once, before either); memory flat in the number of races; the strong driver ahead of the
simple one over 500 mixed races. CPU seconds are this process's (``--jobs 1`` races in it); on a machine busy with
other work they are the fairer number, and the speed-up of ``--jobs 2`` is then also given from the CPU the two
processes used.
"""

from __future__ import annotations

import re
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.games.formula_d.simulate import prepare  # noqa: E402
from generator.games.formula_d.simulate.race import Setup, batch  # noqa: E402
from generator.games.formula_d.simulate.report import build_report  # noqa: E402
from generator.simulate import SimOptions  # noqa: E402
from generator.simulate.runner import run  # noqa: E402
from generator.simulate.tally import hist_mean  # noqa: E402

DOCS = ROOT / "docs" / "simulate.md"
START, END = "<!-- benchmarks/simulate.py: start -->", "<!-- benchmarks/simulate.py: end -->"


def cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(setup, races: int, jobs: int = 1, seed: int = 1):
    w0, c0 = time.perf_counter(), cpu()
    tally = run(batch, setup, races, seed, jobs)
    return tally, time.perf_counter() - w0, cpu() - c0


def main() -> int:
    quick = "--quick" in sys.argv
    k = 10 if quick else 1
    c0 = cpu()
    p = prepare(None, SimOptions(ai="strong"))
    made = cpu() - c0
    board, rs, static, values = p.board, p.rules, p.setup.static, p.setup.values

    def setup(kinds):
        return Setup(board, rs, kinds, static, values)

    rows = [("the board, its empty-board moves and the strong driver's tables (once a run)", f"{made:.1f} s", "")]
    ok = True
    for kind, races, target in (("strong", 1000 // k, 30.0 / k), ("simple", 10_000 // k, 60.0 / k)):
        tally, wall, used = timed(setup((kind,) * 10), races)
        turns = hist_mean(tally.hist("turns"))
        met = "met" if used <= target else "NOT met"
        rows.append((f"{races:,} races, {kind} drivers, one core", f"{used:.1f} s ({turns:.1f} turns a race)",
                     f"≤ {target:.0f} s: {met}"))  # fmt: skip
        ok &= used <= target
    # processes: the same races on one and on two (racing only: the setup is built before both)
    races = 200 // k
    one, w1, c1 = timed(setup(("strong",) * 10), races, jobs=1)
    me0, kids0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    two, w2, c2 = timed(setup(("strong",) * 10), races, jobs=2)
    me1, kids1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    here = me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime
    worker = kids1.ru_utime + kids1.ru_stime - kids0.ru_utime - kids0.ru_stime
    same = "the same tallies" if one == two else "DIFFERENT tallies"
    # on two free cores the run takes as long as the busier of the two processes: the speed-up the CPU shows
    free = c1 / max(here, worker)
    rows.append((f"{races} strong races, `--jobs 1` → `--jobs 2`",
                 f"{w1:.1f} s → {w2:.1f} s wall: {w1 / w2:.2f}×; CPU {c1:.1f} s → {here:.1f} s here + {worker:.1f} s "
                 f"in the worker: {free:.2f}× on two free cores; {same}",
                 f"≥ 1.8×: {'met' if w1 / w2 >= 1.8 else 'NOT met'} (wall)"))  # fmt: skip
    ok &= one == two
    # memory: the peak of Python's allocations while racing, for ten times the races
    peaks = []
    for n in (100 // k * 2, 1000 // k * 2):
        tracemalloc.start()
        run(batch, setup(("simple",) * 10), n, 1, 1)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    rows.append((f"memory while racing, {100 // k * 2} → {1000 // k * 2} races",
                 f"{peaks[0] / 1e6:.2f} → {peaks[1] / 1e6:.2f} MB", "flat"))  # fmt: skip
    # the drivers: odd cars simple, even strong
    races = 500 // k
    tally, _, _ = timed(setup(tuple(("simple", "strong")[i % 2] for i in range(10))), races, seed=7)
    place: dict = {}
    for (kind, at), v in tally.by("place").items():
        n, s = place.get(kind, (0, 0))
        place[kind] = (n + v, s + v * at)
    wins = {key[0]: v for key, v in tally.by("win_kind").items()}
    mean = {kind: s / n for kind, (n, s) in place.items()}
    rows.append((f"{races} mixed races", f"mean place strong {mean['strong']:.2f}, simple {mean['simple']:.2f}; "
                 f"wins strong {wins.get('strong', 0)}, simple {wins.get('simple', 0)}", "strong ahead"))  # fmt: skip
    ok &= mean["strong"] < mean["simple"]
    speed = ["| run | measured | target |", "|---|---|---|"] + [f"| {a} | {b} | {c} |" for a, b, c in rows]
    play = play_table(p, 200 // k)
    for line in speed + [""] + play:
        print(line)
    if "--write-docs" in sys.argv:
        write_docs(speed, play, quick)
    return 0 if ok else 1


def play_table(p, races: int) -> list[str]:
    """How the board plays (strong drivers, ten cars, seed 1): the figures issue 39 judges a board by."""
    tally, _, _ = timed(p.setup, races, jobs=1, seed=1)
    settings = dict(p.settings, races=races)
    d = build_report(p.circuit, p.board, p.rules, p.taken, tally, settings).data
    gears = ", ".join(f"{g}: {100 * v:.0f} %" for g, v in d["gear_share"].items() if v >= 0.005)
    spt = d["headline"]["spaces_per_turn"]
    out = [
        f"{p.circuit.name}, {races} races, strong drivers, ten cars, seed 1:",
        "",
        "| figure | value |",
        "|---|---|",
        f"| spaces a car moves a turn (`spaces_per_turn`) | {spt['mean']:.2f} (95 %: {spt['ci95'][0]:.2f}–"
        f"{spt['ci95'][1]:.2f}) |",
        f"| turns a lap (the winner's) | {d['turns_per_lap']:.2f} |",
        f"| moves by gear (`gear_share`) | {gears} |",
        f"| cars out (`dnf_rate`) | {100 * d['dnf_rate']:.1f} % |",
        f"| overtakes a race, at the start | {d['overtakes']['mean']:.1f}, {d['start_overtakes']['mean']:.1f} |",
    ]
    for c in d["corners"]:
        stops = f"{c['stops']} stop{'s' if c['stops'] != 1 else ''}"
        out.append(f"| {c['label']}, {stops}: overshot (`overshoot_share`), turns in it | "
                   f"{100 * c['overshoot_share']:.0f} % of passes, {c['turns_in_corner']:.1f} |")  # fmt: skip
    return out


def write_docs(speed: list[str], play: list[str], quick: bool) -> None:
    when = time.strftime("%Y-%m-%d")
    how = " (`--quick`: a tenth of the races)" if quick else ""
    block = [START, f"Measured {when} by `python benchmarks/simulate.py --write-docs`{how}:", "", *speed, "", *play,
             END]  # fmt: skip
    text = DOCS.read_text()
    new = re.sub(re.escape(START) + ".*?" + re.escape(END), "\n".join(block), text, flags=re.S)
    DOCS.write_text(new)


if __name__ == "__main__":
    sys.exit(main())
