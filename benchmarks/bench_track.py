"""Circuit build time: a 60-unit board (A2), 600- and 2,000-unit boards tiled onto A4, and ``check`` of a real
circuit's 300,000-point CSV (adapted keeping its shape), as ratios to the floor.

    python benchmarks/bench_track.py

Cost should grow about linearly with the number of units (ten times the units: well under ten times the time
above the floor, since the floor — interpreter, imports, one PDF — is paid once): the time above the floor per
100 units is reported for each board, and should not grow with the board.
"""

from __future__ import annotations

import math
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np  # noqa: E402
from common import floor_argv, floor_seconds, measure, paddock, time_command  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "circuits"


def big_csv(path: Path, n: int = 300_000) -> None:
    """Spa's centre line (or a wavy loop when ../shared is absent) resampled to ``n`` points, racetrack-database
    columns: the size of a survey-grade centre line."""
    src = SHARED / "Spa.csv"
    if src.is_file():
        P = np.loadtxt(src, delimiter=",", comments="#")[:, :2]
    else:
        t = np.linspace(0, 2 * np.pi, 400, endpoint=False)
        P = np.column_stack((np.cos(t), np.sin(t))) * (1000 + 200 * np.cos(3 * t))[:, None]
    Q = np.vstack((P, P[:1]))
    u = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(Q, axis=0).T))))
    s = np.arange(n) * u[-1] / n
    x, y = np.interp(s, u, Q[:, 0]), np.interp(s, u, Q[:, 1])
    rows = np.column_stack((x, y, np.full(n, 6.0), np.full(n, 6.0)))
    np.savetxt(path, rows, delimiter=",", fmt="%.4f", header="x_m,y_m,w_tr_right_m,w_tr_left_m")


def oval_60() -> str:
    return """name: Bench 60
paper: a2
segments:
  - straight: 250
  - arc: {radius: 110, angle: 180, turn: left}
  - straight: 250
  - arc: {radius: 110, angle: 180, turn: left}
"""


def serpentine(units: int = 600, k: int = 8, unit: float = 10.0, lane_width: float = 10.0, r: float = 20.0) -> str:
    """``k`` legs joined by half-turns of radius ``r`` on A1, ``units`` units round: a long circuit that must be
    tiled onto A4 (600 units: eight legs of 1 cm units; 2,000 units: fourteen legs of 5 mm units, 5 mm lanes)."""
    fixed = 120 + (k - 1) * math.pi * r + math.pi * r + (k - 1) * 2 * r - 2 * r
    leg = (units * unit - fixed) / k
    segs = [f"  - straight: {leg + 60:.3f}"]
    for i in range(1, k):
        turn = "right" if i % 2 else "left"
        segs.append(f"  - arc: {{radius: {r}, angle: 180, turn: {turn}}}")
        segs.append(f"  - straight: {leg + (60 if i == k - 1 else 0):.3f}")
    segs.append(f"  - arc: {{radius: {r}, angle: 90, turn: right}}")
    segs.append(f"  - straight: {(k - 1) * 2 * r - 2 * r:.3f}")
    segs.append(f"  - arc: {{radius: {r}, angle: 90, turn: right}}")
    head = (
        f"name: Bench {units}\npaper: a1\nlanes: 2\nlane_width: {lane_width:g}\nunit: {unit:g}\ngrid: 4\n"
        "start: {at: 4}\nsegments:\n"
    )
    return head + "\n".join(segs) + "\n"


def serpentine_600() -> str:
    return serpentine(600)


def serpentine_2000() -> str:
    return serpentine(2000, k=14, unit=5.0, lane_width=5.0, r=18.0)


def main() -> None:
    import compileall

    # byte-compiled first, as `pip install` does (and as bench_spine.py does): a checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would otherwise compile every Paddock module again on every command (~80 ms)
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "generator", quiet=1, force=True)  # see bench_spine
    floor = floor_seconds()
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "b60.yaml").write_text(oval_60(), encoding="utf-8")
        (t / "b600.yaml").write_text(serpentine_600(), encoding="utf-8")
        s60 = time_command(paddock("track", str(t / "b60.yaml"), "--out", str(t / "o"), "-f", "pdf", "-q"))
        s600 = time_command(
            paddock("track", str(t / "b600.yaml"), "--out", str(t / "o"), "-f", "pdf", "--tile-onto", "a4", "-q")
        )
        (t / "b2000.yaml").write_text(serpentine_2000(), encoding="utf-8")
        s2000 = time_command(
            paddock("track", str(t / "b2000.yaml"), "--out", str(t / "o"), "-f", "pdf", "--tile-onto", "a4", "-q"),
            repeat=3,
        )
        big = t / "big.csv"
        big_csv(big)
        runs = {"floor": floor_argv(tmp), "300,000-point CSV": paddock("check", str(big))}
        for csv in sorted(SHARED.glob("*.csv")):
            runs[csv.stem] = paddock("check", str(csv))
        cpu: dict[str, float] = {}
        ratios: dict[str, float] = {}
        both = measure(runs, repeat=9, cpu=cpu, ratios=ratios)
    print(f"floor: {floor:.3f} s; beside the checks {both['floor']:.3f} s")
    print("check (target <= 2 x floor)        wall    x floor  CPU x floor   (x floor: median of 9 rounds' ratios)")
    for name, s in both.items():
        if name != "floor":
            print(f"  {name:28s} {s:6.3f} s  {ratios[name]:6.2f}   {cpu[name] / cpu['floor']:6.2f}")
    boards = (
        ("60 units, A2", 60, s60),
        ("600 units, A1 tiled on A4", 600, s600),
        ("2,000 units, A1 on A4", 2000, s2000),
    )
    for name, units, sec in boards:
        per = (sec - floor) / units * 100
        print(f"track, {name:26s} {sec:6.3f} s = {sec / floor:5.2f} x floor; above it {per * 1000:4.0f} ms / 100 units")


if __name__ == "__main__":
    main()
