"""Benchmark the print spine: commands as ratios to the floor measured in the same run, and output sizes.

    python benchmarks/bench_spine.py            # from the repository root; ~45 s

The floor (see common.py) and the commands take turns, nine rounds, so a busy machine slows them alike; a
command's "x floor" is the median over the rounds of its time divided by the floor's in the same round.
Paddock's modules are byte-compiled first, as `pip install` does (a checkout run with PYTHONDONTWRITEBYTECODE=1
would otherwise compile ~50 modules on every command). Targets (issue 17):

- `paddock --help` <= 0.5x the floor (the CLI imports lazily);
- `paddock pack` (f1-dice: PDF + PNG previews + merged print PDF) <= 3x; `paddock pack formula-d` <= 3.5x;
- the default board's SVG <= 150 kB and its PDF <= 120 kB; the f1-dice pack folder <= 1.5 MB.

Each command's CPU time (all its threads) is reported beside its wall time, as a ratio to the floor's: the
packs rasterise their PNG previews on worker threads while the next PDFs are drawn, so on a machine with a core
to spare the wall time is the smaller; on one with none (other jobs running) the two agree.

Also reported, without a target: the SVG pack (`-f svg`; it must not be slower than it was, 4.0x the floor when
every page embedded four whole fonts) and the Formula D pack with a players file (moved here from a unit test
that asserted wall-clock time).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from common import floor_argv, measure, paddock  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TIME_TARGETS = {"paddock --help": 0.5, "paddock pack": 3.0, "paddock pack formula-d": 3.5}
ROUNDS = 9  # each command and the floor once a round; "x floor" is the median of the rounds' ratios
KB = 1000


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))


def main() -> int:
    import compileall

    # force: compileall trusts a .pyc whose recorded time matches to the second, but import also checks the size,
    # so a file rewritten within that second (a git checkout, a stash) would be compiled again on every run
    compileall.compile_dir(ROOT / "generator", quiet=1, force=True)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        players = ROOT / "tests" / "formula_d" / "players.yaml"
        runs = {
            "floor": floor_argv(tmp),
            "paddock --help": paddock("--help"),
            "paddock pack": paddock("pack", "--out", str(t / "a"), "--quiet"),
            "paddock pack formula-d": paddock("pack", "formula-d", "--out", str(t / "b"), "--quiet"),
            "paddock pack -f svg": paddock("pack", "--out", str(t / "c"), "-f", "svg", "--quiet"),
        }
        if players.is_file():
            runs["pack formula-d --players-file"] = paddock(
                "pack", "formula-d", "--players-file", str(players), "--out", str(t / "d"), "--quiet"
            )
        cpu: dict[str, float] = {}
        ratios: dict[str, float] = {}
        seconds = measure(runs, repeat=ROUNDS, cpu=cpu, ratios=ratios)
        floor = seconds.pop("floor")
        floor_cpu = cpu.pop("floor")
        print(f"floor (import reportlab, shapely, svgwrite, Pillow; write an empty A3 PDF): {floor:.3f} s")
        print(f"{'':32s} {'wall':>8s}  {'x floor':>7s}  {'CPU x floor':>11s}")
        for name, s in seconds.items():
            ratio = ratios[name]
            target = TIME_TARGETS.get(name)
            verdict = ""
            if target is not None:
                ok &= ratio <= target
                verdict = f"(target <= {target:g}x)  {'ok' if ratio <= target else 'OVER'}"
            print(f"{name:32s} {s:6.3f} s  {ratio:6.2f}x  {cpu[name] / floor_cpu:10.2f}x  {verdict}")

        board = t / "board"
        from subprocess import run

        run(paddock("track", str(ROOT / "track_specs" / "monte-carlo.yaml"), "-o", str(board), "-f", "svg,pdf", "-q"))
        sizes = {
            "board SVG (monte-carlo.svg)": ((board / "monte-carlo.svg").stat().st_size, 150 * KB),
            "board PDF (monte-carlo.pdf)": ((board / "monte-carlo.pdf").stat().st_size, 120 * KB),
            "f1-dice pack folder (PDF + PNG)": (folder_bytes(t / "a" / "f1-dice"), 1500 * KB),
            "f1-dice pack as SVG": (folder_bytes(t / "c" / "f1-dice"), None),
        }
        for name, (size, target) in sizes.items():
            verdict = ""
            if target is not None:
                ok &= size <= target
                verdict = f"(target <= {target / KB:,.0f} kB)  {'ok' if size <= target else 'OVER'}"
            print(f"{name:32s} {size / KB:8,.0f} kB  {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
