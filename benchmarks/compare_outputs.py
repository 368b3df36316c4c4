"""Does a change keep Paddock's output? Run a fixed set of commands with one source tree, then compare two runs.

    python benchmarks/compare_outputs.py run OUT [--source TREE] [--jobs 2] [--only PATTERN]
    python benchmarks/compare_outputs.py compare BEFORE AFTER [--dpi 150]

``run`` executes every command below with the ``generator`` package of ``TREE`` (default: this checkout; for the
code before a change, ``git archive BASE | tar -x -C /tmp/base`` and pass ``--source /tmp/base``; ``python -P``
keeps this folder's own package out of the way), in ``TREE``'s folder: its ``track_specs/`` are the shipped ones
(a shipped board is named by its title, a user's file by its path), and the inputs and the paths printed are the
same strings for both runs. ``TREE/../shared`` must be the shared rulebooks and circuits (``ln -s`` it beside a
tree unpacked elsewhere). Each command gets a folder ``OUT/<name>/`` holding its files and ``run.txt``: its exit
code, stdout and stderr (the output folder's path replaced by ``OUT``).

``compare`` lists every file that differs. A PDF that differs in bytes is rendered at ``--dpi`` with poppler's
``pdftoppm`` and compared pixel by pixel: "pixels same" is a pass, as the byte-identical files are. It exits 1 if
any file differs (or is missing on one side), 0 otherwise.

The commands: every game's pack (PDF + SVG), with ``--ink-saver``, a board tiled onto A4, ``paddock track`` and
``paddock check --json`` of every spec in ``track_specs/`` and the eight circuits in ``../shared/circuits/``, a
real circuit's Formula D and f1-dice packs, Formula D's ``check``/``corners`` of every real circuit, the options
a board's build takes (start, grid, fit, crossing, lanes, paper, smoothing), the spec errors in
``tests/bad_specs/`` and two short ``simulate`` runs.
"""

from __future__ import annotations

import argparse
import filecmp
import fnmatch
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "circuits"
GAMES = ("f1-dice", "formula-d", "monaco", "motox", "rwb-trouble")


def commands() -> dict[str, list[str]]:
    """Every command compared, by a name that is its output folder. ``{out}`` is that folder."""
    specs = sorted(p for p in (ROOT / "track_specs").iterdir() if p.suffix in (".yaml", ".csv"))
    circuits = sorted(SHARED.glob("*.csv"))

    def rel(p: Path) -> str:  # the path as a user types it
        return os.path.relpath(p, ROOT)

    def files(*args: str, fmt: str = "pdf") -> list[str]:  # a command writing files into its folder
        return [*args, "-o", "{out}", "-f", fmt]

    spa, monza, fig8 = rel(SHARED / "Spa.csv"), rel(SHARED / "Monza.csv"), "track_specs/figure-eight.yaml"
    jobs: dict[str, list[str]] = {"pack-default": files("pack", fmt="pdf,svg")}
    for game in GAMES:
        jobs[f"pack-{game}"] = files("pack", game, fmt="pdf,svg")
        jobs[f"pack-{game}-ink"] = files("pack", game, "--ink-saver")
    jobs["pack-formula-d-tiled"] = files("pack", "formula-d", "--tile-onto", "a4")
    jobs["track-tiled"] = files("track", "track_specs/monza-like.yaml", "--tile-onto", "a4")
    jobs["track-tiled-real"] = files("track", spa, "--tile-onto", "a4")
    for spec in [*specs, *circuits]:
        name = spec.stem
        jobs[f"track-{name}"] = files("track", rel(spec), fmt="pdf,svg")
        jobs[f"check-{name}"] = ["check", rel(spec), "--json"]
        jobs[f"check-text-{name}"] = ["check", rel(spec)]
    for spec in circuits:
        name = spec.stem
        jobs[f"check-fd-{name}"] = ["check", rel(spec), "--game", "formula-d", "--json"]
        jobs[f"corners-{name}"] = ["corners", rel(spec), "--json"]
        jobs[f"check-f1-{name}"] = ["check", rel(spec), "--game", "f1-dice", "--json"]
    for name in ("Spa", "Monza", "Melbourne"):
        csv = rel(SHARED / f"{name}.csv")
        jobs[f"pack-formula-d-{name}"] = files("pack", "formula-d", "--track", csv)
        jobs[f"pack-f1-dice-{name}"] = files("pack", "f1-dice", "--track", csv)
        jobs[f"pack-f1-dice-{name}-cars12"] = files("pack", "f1-dice", "--cars", "12", "--track", csv)
    for name in ("formula-d-circuit", "formula-d-road", "formula-d-style", "monte-carlo"):
        jobs[f"pack-formula-d-{name}"] = files("pack", "formula-d", "--track", f"track_specs/{name}.yaml")
    jobs["pack-f1-dice-monza-like"] = files("pack", "f1-dice", "--track", "track_specs/monza-like.yaml")
    jobs["pack-f1-dice-monza-like-cars14"] = files(
        "pack", "f1-dice", "--cars", "14", "--track", "track_specs/monza-like.yaml"
    )
    jobs["pack-f1-dice-albert-park"] = files("pack", "f1-dice", "--track", "track_specs/albert-park.yaml")
    jobs["pack-f1-dice-melbourne-start"] = files(
        "pack", "f1-dice", "--start", "auto", "--track", "track_specs/melbourne.csv"
    )
    jobs["simulate-f1-dice-monza"] = ["simulate", monza, "--cars", "10", "--races", "20", "--json"]
    jobs["pack-f1-dice-cars4"] = files("pack", "f1-dice", "--cars", "4", "--start", "real", "--track", monza)
    jobs["pack-monaco-csv"] = files("pack", "monaco", "--track", monza)
    variants = {
        "start-real": [spa, "--start", "real"],
        "start-auto": ["track_specs/oval.yaml", "--start", "auto"],
        "start-units": [spa, "--start", "12"],
        "grid-30": [spa, "--grid", "30"],
        "grid-4": ["track_specs/monte-carlo.yaml", "--grid", "4"],
        "fit-80": [monza, "--fit", "80"],
        "fit-page": [rel(SHARED / "Budapest.csv"), "--fit", "page"],
        "crossing-tunnel": [fig8, "--crossing", "tunnel"],
        "crossing-bridge-imscsv": [rel(SHARED / "IMS.csv"), "--crossing", "bridge"],
        "lanes-3": [rel(SHARED / "Catalunya.csv"), "--lanes", "3"],
        "lanes-1": ["track_specs/albert-park.yaml", "--lanes", "1"],
        "paper-a1": [rel(SHARED / "Silverstone.csv"), "--paper", "a1"],
        "paper-a4": ["track_specs/oval.yaml", "--paper", "a4"],
        "smoothing-30": [rel(SHARED / "BrandsHatch.csv"), "--smoothing", "30"],
        "edge-20": [rel(SHARED / "Melbourne.csv"), "--edge", "20"],
        "game-fd-start-real": [spa, "--game", "formula-d", "--start", "real"],
        "game-fd-paper-a1": [monza, "--game", "formula-d", "--paper", "a1"],
    }
    for name, args in variants.items():
        jobs[f"check-{name}"] = ["check", *args, "--json"]
        if "--game" not in args:
            jobs[f"track-{name}"] = files("track", *args)
    for bad in sorted((ROOT / "tests" / "bad_specs").glob("*.yaml")):
        jobs[f"bad-check-{bad.stem}"] = ["check", rel(bad)]
        jobs[f"bad-check-json-{bad.stem}"] = ["check", rel(bad), "--json"]
        jobs[f"bad-track-{bad.stem}"] = files("track", rel(bad))
    jobs["simulate-formula-d"] = ["simulate", "--game", "formula-d", "--races", "20", "--json"]
    jobs["simulate-f1-dice-spa"] = ["simulate", spa, "--races", "20", "--json"]
    jobs["simulate-sheet"] = files("simulate", "track_specs/formula-d-circuit.yaml", "--races", "10")
    return jobs


def run_one(name: str, argv: list[str], out: Path, source: Path) -> str:
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    args = [a.replace("{out}", str(folder)) for a in argv]
    env = dict(os.environ, PYTHONPATH=str(source), COLUMNS="100", PYTHONHASHSEED="0")
    env.pop("PADDOCK_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-P", "-m", "generator", *args],
        cwd=source,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    text = f"$ paddock {' '.join(argv)}\nexit {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    (folder / "run.txt").write_text(text.replace(str(folder), "OUT"))
    return f"{name}: exit {done.returncode}"


def run(out: Path, source: Path, jobs: int, only: str | None) -> None:
    if not (source.parent / "shared" / "circuits").is_dir():
        sys.exit(f"{source.parent / 'shared'} is not the shared folder: link it there (ln -s {SHARED.parent} ...)")
    todo = {k: v for k, v in commands().items() if only is None or fnmatch.fnmatch(k, only)}
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for line in pool.map(lambda kv: run_one(kv[0], kv[1], out, source), todo.items()):
            print(line, flush=True)


def same_pixels(a: Path, b: Path, dpi: float) -> bool:
    """Whether two PDFs render to the same pixels at ``dpi`` (poppler's pdftoppm), page by page."""
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb = Path(tmp, "a"), Path(tmp, "b")
        for pdf, stem in ((a, pa), (b, pb)):
            subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(stem)], check=True)
        ra = sorted(Path(tmp).glob("a*.png"))
        rb = sorted(Path(tmp).glob("b*.png"))
        if len(ra) != len(rb):
            return False
        from PIL import Image, ImageChops

        for x, y in zip(ra, rb, strict=True):
            ix, iy = Image.open(x), Image.open(y)
            if ix.size != iy.size or ImageChops.difference(ix.convert("RGB"), iy.convert("RGB")).getbbox():
                return False
    return True


def compare(before: Path, after: Path, dpi: float, only: str | None = None) -> int:
    def files(root: Path) -> set[str]:
        return {
            str(p.relative_to(root))
            for p in root.rglob("*")
            if p.is_file() and (only is None or fnmatch.fnmatch(p.relative_to(root).parts[0], only))
        }

    a, b = files(before), files(after)
    bad = 0
    pixels = 0
    for rel in sorted(a | b):
        if rel not in a or rel not in b:
            print(f"only in {'after' if rel in b else 'before'}: {rel}")
            bad += 1
        elif not filecmp.cmp(before / rel, after / rel, shallow=False):
            if rel.endswith(".pdf") and same_pixels(before / rel, after / rel, dpi):
                print(f"pixels same: {rel}")
                pixels += 1
            else:
                print(f"differs: {rel}")
                bad += 1
    print(f"{len(a | b)} files: {len(a | b) - bad - pixels} byte-identical, {pixels} pixel-identical, {bad} differ")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--source", type=Path, default=ROOT)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--only", help="run only the commands whose name matches this pattern (fnmatch)")
    r.add_argument("--list", action="store_true", help="list the commands and exit")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--dpi", type=float, default=150)
    c.add_argument("--only", help="compare only the commands whose name matches this pattern (fnmatch)")
    args = ap.parse_args()
    if args.cmd == "run":
        if args.list:
            for name, argv in commands().items():
                print(f"{name}: paddock {' '.join(argv)}")
            return
        run(args.out.resolve(), args.source.resolve(), args.jobs, args.only)
    else:
        sys.exit(compare(args.before, args.after, args.dpi, args.only))


if __name__ == "__main__":
    main()
