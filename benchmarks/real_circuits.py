"""The README's table of real circuits, generated (never typed): every centre line in ../shared/circuits/ built
through the product exactly as ``paddock check NAME.csv`` does (f1-dice: two 10 mm lanes, 2 cm units, A3), with
its units, its deviation from the real line and a small preview of the real outline beside the board's.

    python benchmarks/real_circuits.py            # prints the Markdown table, writes track_specs/previews/real-*.png
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.track import CircuitSpec, analyse  # noqa: E402
from generator.track.load import read_points  # noqa: E402

CIRCUITS = ROOT.parent / "shared" / "circuits"
PREVIEWS = ROOT / "track_specs" / "previews"
LANE_WIDTH = 10.0  # f1-dice: a 20 mm track


def preview(real: np.ndarray, board: np.ndarray, path: Path, h: int = 110) -> None:
    """Two panels: the real outline (grey) and the board's centre line (black), each north up and to scale."""
    from PIL import Image, ImageDraw

    lo = np.minimum(real.min(axis=0), board.min(axis=0))
    hi = np.maximum(real.max(axis=0), board.max(axis=0))
    pad = 6
    k = (h - 2 * pad) / max(float(hi[1] - lo[1]), 1e-9)
    w = int(np.ceil(float(hi[0] - lo[0]) * k)) + 2 * pad
    img = Image.new("L", (2 * w + 8, h), 255)
    draw = ImageDraw.Draw(img)
    for i, (xy, ink) in enumerate(((real, 140), (board, 0))):
        pts = (xy - lo) * k + pad + np.array([i * (w + 8), 0])
        draw.line([tuple(p) for p in np.round(pts, 1)] + [tuple(np.round(pts[0], 1))], fill=ink, width=2)
    img.save(path, optimize=True)


def main() -> None:
    PREVIEWS.mkdir(exist_ok=True)
    rows = []
    for csv in sorted(CIRCUITS.glob("*.csv")):
        spec = CircuitSpec(name=csv.stem, csv=str(csv), lane_width=LANE_WIDTH)
        done = analyse(spec, csv)
        c = done.circuit
        sc, rot, shift = c.source_to_page
        a = np.radians(rot)
        R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        real = (read_points(csv) * np.array([1.0, -1.0])) @ R.T * sc + np.array(shift)
        png = PREVIEWS / f"real-{csv.stem.lower()}.png"
        preview(real, c.line.xy[:-1], png)
        f = c.fidelity
        rows.append(
            f"| {csv.stem} | {'yes' if done.buildable else 'no'} | {c.units_count} | {c.paper.label} "
            f"| {f.max_mm:.1f} mm ({f.max_pct:.1f} %) | {f.mean_mm:.1f} mm ({f.mean_pct:.1f} %) "
            f"| ![{csv.stem}](track_specs/previews/{png.name}) |"
        )
    print("| circuit | builds | units | paper | deviation, max | deviation, mean | real · board |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
