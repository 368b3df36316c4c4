"""Formula D boards of every real circuit in ../shared/circuits/ (issues 15 and 31): each CSV built as
``paddock pack formula-d --track NAME.csv`` builds its board — 3 lanes, paper chosen, corners and stops from the
real circuit — with its paper, spaces per lane, longest straight (spaces, in every lane), corners' stops, the
real circuit's corners (of the radius table) on the board and how many of them share a corner with another,
whether every corner's shortest path holds its stops, and whether the grid stands clear of every corner. Slow (A1
boards): the test suite builds them in tests/test_formula_d_real_corners.py.

    python benchmarks/formula_d_real.py              # a Markdown table; exit 1 if a circuit does not build
    python benchmarks/formula_d_real.py --generated  # the same of 12 generated circuits and 2 figure-eights
"""

from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shapely import Polygon  # noqa: E402

from generator.games.formula_d import real  # noqa: E402
from generator.games.formula_d.overlay import corner_marks, load_circuit  # noqa: E402
from generator.games.formula_d.real import longest_straight  # noqa: E402

CIRCUITS = ROOT.parent / "shared" / "circuits"


def grid_clear(c, marks) -> bool:
    """No grid slot lies over a corner's spaces, and the first moves past the line are clear (``grid_shift``)."""
    if real.grid_shift(c) != (0.0, True):
        return False
    corner = set().union(*(m.paths.spaces for m in marks))
    for slot in c.grid:
        outline = Polygon(slot.outline)
        if any(sp.id in corner and Polygon(sp.polygon).intersection(outline).area > 1.0 for sp in c.graph.spaces):
            return False
    return True


def generated() -> list[Path]:
    """Generated circuits in the racetrack-database format (``tests/synthetic_circuits.py``): 12 random loops
    (seeds 0–11: hairpins, chicanes and close passes in turn) and two figure-eights, written to a temporary folder."""
    import tempfile

    import numpy as np

    sys.path.insert(0, str(ROOT / "tests"))
    from synthetic_circuits import figure_eight, random_circuit

    shapes = [
        (
            f"gen{s}",
            random_circuit(s, hairpins=1 + s % 2, chicanes=1 + s % 3, notches=s % 2, size_m=700 + 150 * (s % 4)),
        )
        for s in range(12)
    ] + [("eight1500", figure_eight(1500)), ("eight900", figure_eight(900))]
    folder = Path(tempfile.mkdtemp(prefix="paddock-fd-"))
    out = []
    for name, P in shapes:
        w = np.full(len(P), 6.0)
        path = folder / f"{name}.csv"
        np.savetxt(path, np.column_stack((P, w, w)), delimiter=",", header="x_m,y_m,w_tr_right_m,w_tr_left_m")
        out.append(path)
    return out


def main() -> int:
    failed = 0
    print(
        "| circuit | paper | spaces per lane | longest straight | real straight drawn | shape within "
        "| corners: stops | real corners (merged) | stops held | grid and first moves clear |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in generated() if "--generated" in sys.argv else sorted(CIRCUITS.glob("*.csv")):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                c = load_circuit(path)
        except Exception as err:  # report and carry on: the table shows every circuit
            failed += 1
            print(f"| {path.stem} | — | fails: {err} | | | | | | | |")
            continue
        marks = corner_marks(c)
        spaces = " · ".join(str(c.graph.count(i)) for i in range(c.lanes))
        stops = " ".join(str(m.stops) for m in marks)
        real = sum(len(k.real) for k in c.corners)
        merged = sum(len(k.real) for k in c.corners if len(k.real) > 1)
        held = all(m.paths.short >= m.stops and c.corners[m.index - 1].wanted is None for m in marks)
        print(
            f"| {c.name} | {c.paper.name.upper()} | {spaces} | {longest_straight(c)} | ×{c.stretch:.2f} "
            f"| {math.ceil(c.fidelity.max_mm)} mm | {len(marks)}: {stops} | {real} ({merged}) "
            f"| {'all' if held else 'NO'} | {'yes' if grid_clear(c, marks) else 'NO'} |"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
