"""Real circuits' character on boards: generated circuits Paddock has never seen (tests/synthetic_circuits.py)
and the eight in ../shared/circuits/, each built as ``paddock check NAME.csv`` builds it (f1-dice: two 10 mm
lanes, 2 cm units, A3 or the paper Paddock chooses).

    python benchmarks/bench_circuits.py [N] [--first SEED]     # N generated circuits (default 12)

Prints one line per circuit and then the summary against issue 32's targets: builds at defaults; best-fit
deviation median ≤ 3 % and worst ≤ 6 % of the board's diagonal; the real straights' bend on the board (the most
each straight's heading ranges over, over the part of it the board keeps straight) median ≤ 10°, none > 20°; the
start line's distance from the real one (units).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # as the paddock command does
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from synthetic_circuits import generated_set, measure  # noqa: E402

from generator.track import CircuitSpec, analyse  # noqa: E402
from generator.track.load import read_points  # noqa: E402

CIRCUITS = ROOT.parent / "shared" / "circuits"
LANE_WIDTH = 10.0  # f1-dice: a 20 mm track


def one(name: str, csv: Path) -> dict:
    spec = CircuitSpec(name=name, csv=str(csv), lane_width=LANE_WIDTH)
    done = analyse(spec, csv)
    return measure(done, read_points(csv), best=True)  # x east, y north


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 12
    first = int(sys.argv[sys.argv.index("--first") + 1]) if "--first" in sys.argv else 0
    if "--first" in sys.argv:
        n = int(args[0]) if len(args) > 1 else n
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for syn in generated_set(n, first):
            rows.append((syn.name, one(syn.name, syn.write(Path(tmp) / f"{syn.name}.csv"))))
    for csv in sorted(CIRCUITS.glob("*.csv")):
        rows.append((csv.stem, one(csv.stem, csv)))
    print(
        f"{'circuit':<22} {'builds':<6} {'paper':<5} {'dev max %':>9} {'best fit':>8} {'bend max':>8} {'start off':>9}"
    )
    for name, m in rows:
        bends = [b for _, _, b in m["straights"]]
        print(
            f"{name:<22} {'yes' if m['buildable'] else 'NO':<6} {m['paper'] or '-':<5} "
            f"{m['max_pct'] if m['max_pct'] is not None else float('nan'):>9.2f} "
            f"{m.get('best_pct', float('nan')):>8.2f} "
            f"{max(bends, default=0.0):>8.1f} {m.get('start_off_units', float('nan')):>9.1f}"
        )
    for label, part in (("generated", rows[:n]), ("shared eight", rows[n:]), ("all", rows)):
        ms = [m for _, m in part]
        devs = [m["max_pct"] for m in ms if m["max_pct"] is not None]
        best = [m["best_pct"] for m in ms if "best_pct" in m]
        bends = [b for m in ms for _, _, b in m["straights"]]
        worst = [max((b for _, _, b in m["straights"]), default=0.0) for m in ms]
        starts = [m["start_off_units"] for m in ms if "start_off_units" in m]
        if not ms:
            continue
        print(
            f"\n{label}: {sum(m['buildable'] for m in ms)}/{len(ms)} build at defaults; "
            f"best-fit deviation median {statistics.median(best):.2f} % worst {max(best):.2f} % (targets 3 / 6; as "
            f"placed, the legend's figure: {statistics.median(devs):.2f} % / {max(devs):.2f} %); "
            f"straights {len(bends)}, bend median {statistics.median(bends or [0]):.1f}° max {max(bends or [0]):.1f}° "
            f"(targets 10 / 20), circuits' worst straight median {statistics.median(worst):.1f}°; "
            f"start off the real line: median {statistics.median(starts):.1f} units, max {max(starts):.1f}"
        )


if __name__ == "__main__":
    main()
