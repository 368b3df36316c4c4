"""Shared benchmark helpers: the floor every Paddock timing is reported against.

The floor is a fresh Python process that imports reportlab, shapely, svgwrite and Pillow and writes one empty A3
PDF: the least any Paddock command that draws can cost on this machine. Timings are reported as ratios to it,
so they compare across machines.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR_SCRIPT = """
import sys
import reportlab, shapely, svgwrite, PIL.Image
from reportlab.pdfgen import canvas
c = canvas.Canvas(sys.argv[1], pagesize=(1190.5512, 841.8898), invariant=1)
c.showPage()
c.save()
"""


def time_command(argv: list[str], repeat: int = 5, cwd: str | None = None) -> float:
    """Median wall time (s) of running ``argv`` in a fresh process, after one warm-up run."""
    subprocess.run(argv, check=True, capture_output=True, cwd=cwd)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, cwd=cwd)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(
    runs: dict[str, list[str]],
    repeat: int = 5,
    cwd: str | None = None,
    cpu: dict[str, float] | None = None,
    ratios: dict[str, float] | None = None,
) -> dict[str, float]:
    """Median wall time (s) of each command, the commands taking turns (one round = each once) so that a busy
    machine slows all of them alike; one warm-up round first. ``cpu``, if given, receives each command's median
    CPU time (user + system, all its threads): what a machine with no core to spare would wait. ``ratios``, if
    given (and ``runs`` has a "floor"), receives each command's median over the rounds of its time divided by the
    floor's in the same round: a slow or quick moment moves both, so this is steadier than a ratio of medians."""
    import resource

    times: dict[str, list[float]] = {name: [] for name in runs}
    cpus: dict[str, list[float]] = {name: [] for name in runs}
    for rnd in range(repeat + 1):
        for name, argv in runs.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, cwd=cwd)
            if rnd:
                times[name].append(time.perf_counter() - t0)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if cpu is not None:
        cpu.update({name: statistics.median(t) for name, t in cpus.items()})
    if ratios is not None and "floor" in times:
        floor = times["floor"]
        for name, t in times.items():
            ratios[name] = statistics.median(a / f for a, f in zip(t, floor, strict=True))
    return {name: statistics.median(t) for name, t in times.items()}


def floor_argv(folder: str) -> list[str]:
    """argv of the floor: it writes ``folder/empty.pdf``."""
    return [sys.executable, "-c", FLOOR_SCRIPT, str(Path(folder) / "empty.pdf")]


def floor_seconds(repeat: int = 5) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "empty.pdf")
        return time_command([sys.executable, "-c", FLOOR_SCRIPT, out], repeat)


def paddock(*args: str) -> list[str]:
    """argv running the installed package's CLI with this interpreter."""
    return [sys.executable, "-m", "generator", *args]
