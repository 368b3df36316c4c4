"""``paddock preview``: from a save to the new board on screen, in a real browser (Debian's headless Chromium).

    python benchmarks/bench_preview.py [EDITS]

For the default f1-dice board (Monte Carlo), the default Formula D board (Circuit de la Garenne) and a real
circuit's centre line (Spa-Francorchamps from ``../shared/circuits/``, as an f1-dice board of 18 cars: a spec
naming the CSV, whose points are moved a little by each save), the file is saved EDITS times (default 30),
switching between two versions that each change the board, a save every ``GAP`` seconds; each time the page
reports the frame the new board was painted in (``window.pvShown``, after two animation frames), and the time
from the save to it is kept. The median, p95 and worst are reported, and the median and p95 as ratios to the
floor (``common.py``) measured in the same run. Targets (issue 41, on a quiet machine): p95 ≤ 1 s for f1-dice,
≤ 2 s for Formula D, ≤ 3 s for the real circuit.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(Path(__file__).parent)]

from common import floor_seconds  # noqa: E402
from preview_browser import Server, browser, close, missing, save, wait_for  # noqa: E402

GAP = 1.5  # s between saves: each build finishes before the next save (a save that supersedes is not timed)


def boards() -> dict[str, tuple]:
    """name -> (spec file, one version, another, target p95 in s, options, the file saved and its two versions)."""
    from generator import track

    specs = {p.name: p.read_text(encoding="utf-8") for p in track.shipped()}
    monte = specs["monte-carlo.yaml"]
    shorter = monte.replace("straight: 286.8 ", "straight: 266.8 ").replace("straight: 163.2 ", "straight: 143.2 ")
    garenne = specs["formula-d-circuit.yaml"]
    fewer = garenne.replace("stops: 3, name: Moulin", "stops: 2, name: Moulin")
    assert fewer != garenne, "the Formula D edit no longer changes the default board: edit another corner"
    out = {
        "f1-dice (Monte Carlo, A3)": ("monte-carlo.yaml", monte, shorter, 1.0, (), None),
        "Formula D (Circuit de la Garenne, A1)": ("garenne.yaml", garenne, fewer, 2.0, (), None),
    }
    real = ROOT.parent / "shared" / "circuits" / "Spa.csv"
    if real.is_file():
        text = real.read_text(encoding="utf-8")
        rows = text.splitlines()
        i = next(k for k, r in enumerate(rows) if r and not r.startswith("#")) + 40
        x, y, *rest = rows[i].split(",")
        moved = "\n".join(rows[:i] + [",".join([f"{float(x) + 2.0:.3f}", y, *rest])] + rows[i + 1 :]) + "\n"
        spec = "name: Spa-Francorchamps\ncsv: spa.csv\n"
        out["real circuit (Spa CSV, f1-dice, --cars 18)"] = (
            "spa.yaml",
            spec,
            spec,
            3.0,
            ("--cars", "18"),
            ("spa.csv", text, moved),
        )
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure_board(driver, folder: Path, name: str, a: str, b: str, edits: int, args=(), saved_file=None):
    spec = folder / name
    spec.write_text(a, encoding="utf-8")
    edited, a, b = (spec, a, b) if saved_file is None else (folder / saved_file[0], *saved_file[1:])
    edited.write_text(a, encoding="utf-8")
    server = Server(spec, *args)
    try:
        driver.get(server.url)
        shown = wait_for(driver, "return window.pvShown", 120)
        assert shown, "no first board"
        times = []
        for i in range(edits):
            saved = save(edited, b if i % 2 == 0 else a)
            last = shown["board"]
            shown = wait_for(driver, f"const s = window.pvShown; return s && s.board > {last} ? s : null", 30)
            assert shown, f"no redraw after save {i + 1}"
            times.append((shown["at"] - saved) / 1000)
            time.sleep(GAP)
        return times
    finally:
        server.stop()


def main() -> None:
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    why = missing()
    if why:
        sys.exit(f"cannot run: {why}")
    floor = floor_seconds()
    print(f"floor: {floor:.3f} s; {edits} saves per board, one every {GAP:g} s\n")
    print("| board | median | p95 | worst | median × floor | p95 × floor | target p95 |")
    print("|---|---|---|---|---|---|---|")
    driver = browser()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for label, (name, a, b, target, args, saved_file) in boards().items():
                t = measure_board(driver, Path(tmp), name, a, b, edits, args, saved_file)
                med, high = statistics.median(t), p95(t)
                mark = "met" if high <= target else "MISSED"
                print(
                    f"| {label} | {med:.2f} s | {high:.2f} s | {max(t):.2f} s | {med / floor:.1f} | "
                    f"{high / floor:.1f} | ≤ {target:g} s ({mark}) |",
                    flush=True,
                )
    finally:
        close(driver)


if __name__ == "__main__":
    main()
