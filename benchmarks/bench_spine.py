"""Benchmark: `paddock --help` and `paddock pack f1-dice`, as ratios to the floor (see common.py).

Targets (issue 2): --help under 2x the floor (the CLI imports lazily), the default pack under 8x.
Run from the repository root:  python benchmarks/bench_spine.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from common import floor_seconds, paddock, time_command  # noqa: E402

TARGETS = {"paddock --help": 2.0, "paddock pack f1-dice": 8.0}


def main() -> int:
    floor = floor_seconds()
    print(f"floor (import reportlab, shapely, svgwrite, Pillow; write an empty A3 PDF): {floor:.3f} s")
    with tempfile.TemporaryDirectory() as tmp:
        runs = {
            "paddock --help": paddock("--help"),
            "paddock pack f1-dice": paddock("pack", "f1-dice", "--out", tmp, "--quiet"),
        }
        ok = True
        for name, argv in runs.items():
            seconds = time_command(argv, repeat=3)
            ratio = seconds / floor
            target = TARGETS[name]
            ok &= ratio < target
            print(
                f"{name:24s} {seconds:7.3f} s  {ratio:5.2f}x floor  (target < {target:g}x)"
                f"  {'ok' if ratio < target else 'OVER'}"
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
