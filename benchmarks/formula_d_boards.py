"""How Formula D's boards race (issue 39): the default board, the compact board and every real circuit of
../shared/circuits/, each built as ``paddock pack formula-d`` builds it (ten cars) and raced by the simulator's
strong drivers (``play_figures``: 200 races, seed 1 — the figures of ``paddock simulate --races 200 --seed 1``).

For each board: its paper and spaces a lap (lane by lane), the mean spaces a car moves a turn, the winner's turns
a lap, the share of moves in 5th + 6th gear and in 6th, 6th gear's share of the moves on the main straight, the
corner overshot in the largest share of its passes, the cars out of the race, and the corners whose every path
is as long as their stops (every move through them one space).

    python benchmarks/formula_d_boards.py                  # measure (~5 min), print the table
    python benchmarks/formula_d_boards.py --write          # … and write benchmarks/formula_d_boards.json and the
                                                           #     table in docs/formula-d.md
    python benchmarks/formula_d_boards.py --races 40 Monza # fewer races, some boards only (nothing written)

The table in docs/formula-d.md is :func:`table` of the JSON, between its two markers;
tests/test_formula_d_boards.py checks that they agree (the races themselves are too slow for the suite).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CIRCUITS = ROOT.parent / "shared" / "circuits"
FIGURES = ROOT / "benchmarks" / "formula_d_boards.json"
DOC = ROOT / "docs" / "formula-d.md"
BEGIN, END = "<!-- formula_d_boards.py: begin -->", "<!-- formula_d_boards.py: end -->"
CARS = 10


def boards() -> list[tuple[str, Path | None, str | None]]:
    """(name, file or None for the default, --paper or None) of every board measured."""
    out: list[tuple[str, Path | None, str | None]] = [("default", None, None), ("compact (--paper a2)", None, "a2")]
    out += [(p.stem, p, None) for p in sorted(CIRCUITS.glob("*.csv"))]
    return out


def measure(path: Path | None, paper: str | None, races: int = 200, seed: int = 1) -> dict:
    """One board's figures (see the module's docstring)."""
    from generator.games.formula_d.circuit import load_circuit
    from generator.games.formula_d.overlay import corner_marks
    from generator.games.formula_d.simulate import play_figures
    from generator.paper import PaperChoice

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = load_circuit(path, PaperChoice(paper) if paper else None, garages=CARS)
    f = play_figures(c, races=races, seed=seed, cars=CARS)
    g = f["gear_share"]
    corners = [k for k in f["corners"] if k["overshoot_share"] is not None]
    worst = max(corners, key=lambda k: k["overshoot_share"], default=None)
    main = next((s for s in f["straights"] if s["main"]), None)
    marks = corner_marks(c)
    return {
        "paper": c.paper.name.upper(),
        "lap_spaces": [c.graph.count(lane) for lane in range(c.graph.lanes)],
        "spaces_per_turn": f["spaces_per_turn"],
        "turns_per_lap": f["turns_per_lap"],
        "gear_share": g,
        "top_gears": round(g["5"] + g["6"], 4),
        "sixth_on_main_straight": None if main is None else main["gear_share"]["6"],
        "worst_overshoot": None if worst is None else worst["overshoot_share"],
        "worst_corner": None if worst is None else worst["label"],
        "dnf_rate": f["dnf_rate"],
        "corners": len(marks),
        "forced_corners": sum(1 for m in marks if m.paths.long <= m.stops),
    }


def table(figures: dict) -> str:
    """The Markdown table of ``figures`` (board name -> :func:`measure`), as docs/formula-d.md prints it."""
    head = (
        "| board | paper | spaces a lap | spaces a turn | turns a lap | 5th + 6th | 6th | 6th on the main straight "
        "| most overshot corner | DNF | corners one space a move |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for name, d in figures["boards"].items():
        lap = "–".join(str(n) for n in sorted({min(d["lap_spaces"]), max(d["lap_spaces"])}))
        main = "–" if d["sixth_on_main_straight"] is None else f"{100 * d['sixth_on_main_straight']:.0f} %"
        worst = "–" if d["worst_corner"] is None else f"{d['worst_corner']}: {100 * d['worst_overshoot']:.0f} %"
        rows.append(
            f"| {name} | {d['paper']} | {lap} | {d['spaces_per_turn']:.1f} | {d['turns_per_lap']:.1f} "
            f"| {100 * d['top_gears']:.0f} % | {100 * d['gear_share']['6']:.1f} % | {main} | {worst} "
            f"| {100 * d['dnf_rate']:.1f} % | {d['forced_corners']} of {d['corners']} |"
        )
    foot = f"\n\n{figures['races']} races of {figures['cars']} strong drivers each, seed {figures['seed']}."
    return head + "\n".join(rows) + foot


def doc_section(text: str) -> str:
    """What docs/formula-d.md holds between the markers."""
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip()


def write_doc(figures: dict) -> None:
    text = DOC.read_text(encoding="utf-8")
    before, rest = text.split(BEGIN, 1)
    after = rest.split(END, 1)[1]
    DOC.write_text(f"{before}{BEGIN}\n{table(figures)}\n{END}{after}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="boards to measure (default: all)")
    ap.add_argument("--races", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write the JSON and the doc's table")
    args = ap.parse_args(argv)
    out = {"races": args.races, "seed": args.seed, "cars": CARS, "boards": {}}
    for name, path, paper in boards():
        if args.names and not any(n.lower() in name.lower() for n in args.names):
            continue
        out["boards"][name] = d = measure(path, paper, args.races, args.seed)
        print(name, json.dumps(d), file=sys.stderr, flush=True)
    print(table(out))
    if args.write:
        if args.names:
            print("--write measures every board: give no names", file=sys.stderr)
            return 2
        FIGURES.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        write_doc(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
