"""The report of a simulation, as any game fills it: what was run, the key figures, tables, bar charts, the board
coloured by a measure (heat maps), the warnings for a designer, the values assumed where a rulebook leaves a
number open, and ``data``: the full figures as JSON.

The printable sheet (:mod:`.sheet`) and the command's text summary are both made from this model; the JSON is
:meth:`SimReport.as_dict`. Nothing here knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .tally import hist_mean, moments, percentile

Point = tuple[float, float]


@dataclass(frozen=True)
class Assumption:
    """A number the rulebook leaves open, the value the simulation used, and why (one line)."""

    key: str  # the name ``--assume`` takes
    label: str
    value: Any
    why: str


@dataclass(frozen=True)
class Figure:
    """One key figure: ``label`` and its value as printed (``"24.3 (20–29)"``)."""

    label: str
    value: str
    note: str = ""


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""


@dataclass(frozen=True)
class Chart:
    """A bar chart: one bar per label; ``value_format`` formats a value for its label (``"{:.0%}"``)."""

    title: str
    labels: tuple[str, ...]
    values: tuple[float, ...]
    value_format: str = "{:g}"
    note: str = ""
    highlight: tuple[int, ...] = ()  # bars drawn in the accent colour


@dataclass(frozen=True)
class HeatMap:
    """The board coloured by one measure: ``cells`` are (outline in board mm, value); a cell of value 0 is left
    as the board shows it. ``unit`` words the key (``"overtakes per race"``)."""

    title: str
    cells: tuple[tuple[tuple[Point, ...], float], ...]
    unit: str
    ramp: str = "blue"  # blue | red
    value_format: str = "{:.2f}"


@dataclass(frozen=True)
class BoardPicture:
    """The board drawn as it prints (``items``: scene primitives in board mm), the part of it worth showing
    (``box``: x0, y0, x1, y1), labels placed on it at a fixed printed size (``(x, y, text)``, board mm) and
    ``over``: primitives drawn over the heat in their own colours (the start/finish line and the way the race
    runs, :func:`start_marks`)."""

    items: tuple
    box: tuple[float, float, float, float]
    labels: tuple[tuple[float, float, str], ...] = ()
    over: tuple = ()


def start_marks(circuit) -> tuple:
    """The start/finish line across the track (a little past its edges) and an arrowhead just after it pointing
    the way the race runs, in board mm, scaled to the track's width: what a heat map would otherwise cover."""
    from ..scene import Polygon, Polyline, Style

    hw = circuit.half_width
    a, b = circuit.offset_point(0.0, hw + 1.5), circuit.offset_point(0.0, -hw - 1.5)
    width = max(0.8, hw * 0.12)
    under = Polyline((a, b), Style(stroke="#ffffff", width=width * 2.2))  # reads on the darkest heat too
    line = Polyline((a, b), Style(stroke="#000000", width=width))
    tx, ty = circuit.tangent_at(hw * 0.4)
    nx, ny = circuit.normal_at(hw * 0.4)
    x, y = circuit.point_at(hw * 0.4)
    size = hw * 0.9
    head = Polygon(
        (
            (x + tx * size, y + ty * size),
            (x + nx * size * 0.45, y + ny * size * 0.45),
            (x - nx * size * 0.45, y - ny * size * 0.45),
        ),  # fmt: skip
        (),
        Style(stroke="#ffffff", width=max(0.3, hw * 0.04), fill="#000000"),
    )
    return (under, line, head)


@dataclass
class SimReport:
    game: str  # the game id
    board: str  # the circuit's name
    source: str | None  # the user's file, or None for Paddock's default board
    title: str
    settings: dict  # races, cars, seed, ai, laps, rules … as the JSON gives them
    assumptions: list[Assumption] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    maps: list[HeatMap] = field(default_factory=list)
    picture: BoardPicture | None = None
    data: dict = field(default_factory=dict)
    drivers: str | None = None  # the computer drivers as the subtitle words them (default: "<ai> drivers")
    # draws the board and its heat maps when a sheet needs them (``picture``/``maps``): JSON and a quick check
    # never pay for drawing the board
    illustrate: Callable[[], tuple[list[HeatMap], BoardPicture]] | None = field(default=None, repr=False)

    def pictures(self) -> tuple[list[HeatMap], BoardPicture | None]:
        if self.picture is None and self.illustrate is not None:
            self.maps, self.picture = self.illustrate()
            self.illustrate = None
        return self.maps, self.picture

    @property
    def subtitle(self) -> str:
        s = self.settings
        parts = [f"{s['races']:,} races", f"{s['cars']} cars"]
        if s.get("laps"):
            parts.append(f"{s['laps']} laps")
        if self.drivers or s.get("ai"):
            parts.append(self.drivers or f"{s['ai']} drivers")
        rules = s.get("rules") or []
        parts.append("optional rules: " + (", ".join(rules) if rules else "none"))
        parts.append(f"seed {s['seed']}")
        return " · ".join(parts)

    def as_dict(self) -> dict:
        """The JSON answer: the run, the assumptions, the warnings and the game's figures (``data``)."""
        return {
            "game": self.game,
            "board": self.board,
            "file": self.source,
            **self.settings,
            "assumptions": [{"key": a.key, "label": a.label, "value": a.value, "why": a.why} for a in self.assumptions],
            "warnings": list(self.warnings),
            **self.data,
        }

    def text_lines(self) -> list[str]:
        """The command's summary on a terminal: the run, the key figures, the warnings, the assumptions."""
        out = [f"{self.board} — {self.title}", f"  {self.subtitle}"]
        width = max((len(f.label) for f in self.figures), default=0)
        out += [f"  {f.label:<{width}}  {f.value}" for f in self.figures]
        if self.warnings:
            out.append(f"  {len(self.warnings)} warning(s) for the designer:")
            out += [f"    - {w}" for w in self.warnings]
        else:
            out.append("  no warnings for the designer")
        for a in self.assumptions:
            out.append(f"  assumed: {a.label} = {a.value} ({a.why}; --assume {a.key}=N)")
        return out


#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959964


def interval(mean: float, var: float, n: int) -> tuple[float, float] | None:
    """The 95 % confidence interval of a mean of ``n`` independent values of variance ``var`` (None: too few)."""
    if n < 2 or math.isnan(var) or math.isnan(mean):
        return None
    half = Z95 * math.sqrt(var / n)
    return (mean - half, mean + half)


def hist_interval(hist: dict) -> tuple[float, float] | None:
    """The 95 % interval of a histogram's mean (one value a race)."""
    n = sum(hist.values())
    if n < 2:
        return None
    mean = hist_mean(hist)
    var = sum(c * (v - mean) ** 2 for v, c in hist.items()) / (n - 1)
    return interval(mean, var, n)


def share_interval(k: int, n: int) -> tuple[float, float] | None:
    """The 95 % interval of a share ``k`` of ``n`` (Wilson's: sound near 0 and 1)."""
    if n <= 0:
        return None
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def ratio_interval(tally, x, y) -> tuple[float, tuple[float, float] | None]:
    """Σx / Σy of two :func:`~.tally.sample`d measures (their product summed as ``("xy", x, y)``) and its 95 %
    interval (the delta method: races are the independent units)."""
    n, mx, vx = moments(tally, x)
    _, my, vy = moments(tally, y)
    if not n or not my:
        return math.nan, None
    r = mx / my
    if n < 2:
        return r, None
    sxy = tally.get(("xy", x, y), 0)
    cov = (sxy - n * mx * my) / (n - 1)
    var = max(0.0, vx - 2 * r * cov + r * r * vy) / (my * my)
    return r, interval(r, var, n)


def rounded(ci, digits: int = 3) -> list | None:
    return None if ci is None else [round(ci[0], digits), round(ci[1], digits)]


def plus_minus(ci, digits: int = 1, scale: float = 1.0, unit: str = "") -> str:
    """`` ± 0.4`` (half the interval's width), or nothing without one."""
    if ci is None:
        return ""
    return f" ± {scale * (ci[1] - ci[0]) / 2:.{digits}f}{unit}"


def spread(hist: dict) -> dict:
    """A histogram of whole numbers as the JSON gives it: mean, 10th, 50th and 90th percentiles, the counts."""
    if not hist:
        return {"mean": None, "ci95": None, "p10": None, "p50": None, "p90": None, "histogram": {}}
    return {
        "mean": round(hist_mean(hist), 3),
        "ci95": rounded(hist_interval(hist)),
        "p10": percentile(hist, 10),
        "p50": percentile(hist, 50),
        "p90": percentile(hist, 90),
        "histogram": {str(k): v for k, v in hist.items()},
    }


def range_text(hist: dict) -> str:
    """``"24.3 ± 0.2 (10th–90th percentile 21–28)"``: a histogram's mean, its 95 % interval and its spread, as
    the figures print it."""
    if not hist:
        return "–"
    ci = plus_minus(hist_interval(hist))
    return f"{hist_mean(hist):.1f}{ci} (10th–90th percentile {percentile(hist, 10)}–{percentile(hist, 90)})"


def bars(hist: dict, most: int = 14) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """A histogram as at most ``most`` bars (labels, shares of the total): neighbouring values grouped if need be."""
    if not hist:
        return (), ()
    lo, hi = min(hist), max(hist)
    step = max(1, math.ceil((hi - lo + 1) / most))
    total = sum(hist.values())
    labels, values = [], []
    for a in range(lo, hi + 1, step):
        b = a + step - 1
        labels.append(str(a) if step == 1 else f"{a}–{b}")
        values.append(sum(v for k, v in hist.items() if a <= k <= b) / total)
    return tuple(labels), tuple(values)


def corner_ends(circuit) -> tuple:
    """Where each corner of ``circuit`` begins and ends, as lines across the track (white under black), in board
    mm: for a heat map's ``over`` (a game whose board marks its corners otherwise draws its own)."""
    from ..scene import Polyline, Style

    hw = circuit.half_width
    width = max(0.6, hw * 0.08)
    out = []
    for c in circuit.corners:
        for s in (c.s_start, c.s_end):
            s = s % circuit.lap_length
            a, b = circuit.offset_point(s, hw + 1.0), circuit.offset_point(s, -hw - 1.0)
            out.append(Polyline((a, b), Style(stroke="#ffffff", width=width * 2.4)))
            out.append(Polyline((a, b), Style(stroke="#000000", width=width)))
    return tuple(out)


@dataclass(frozen=True)
class Difference:
    """One figure of two designs: its value on each, the difference (second less first) and the difference's 95 %
    interval; ``clear`` when the interval leaves out 0 (a difference larger than the run's noise)."""

    key: str
    label: str
    a: float
    b: float
    ci: tuple[float, float] | None
    digits: int = 2
    scale: float = 1.0  # printed × scale (100: a share as a percentage)
    unit: str = ""

    @property
    def diff(self) -> float:
        return self.b - self.a

    @property
    def clear(self) -> bool:
        return self.ci is not None and (self.ci[0] > 0 or self.ci[1] < 0)

    def text(self, value: float) -> str:
        return f"{self.scale * value:.{self.digits}f}{self.unit}"

    def diff_text(self) -> str:
        size = self.text(abs(self.diff))
        sign = "" if float(size.rstrip(self.unit) or 0) == 0 else "+" if self.diff > 0 else "−"
        return f"{sign}{size}{plus_minus(self.ci, self.digits, self.scale, self.unit)}"

    def as_dict(self) -> dict:
        return {
            "key": self.key,
            "label": self.label,
            "a": round(self.a, 4),
            "b": round(self.b, 4),
            "difference": round(self.diff, 4),
            "ci95": rounded(self.ci, 4),
            "larger_than_noise": self.clear,
        }


@dataclass
class Comparison:
    """Two designs raced with the same dice: each one's report and their differences. ``differences`` lists every
    figure compared; :attr:`clear` those larger than their noise."""

    a: SimReport
    b: SimReport
    differences: list[Difference]
    note: str = ""

    @property
    def game(self) -> str:
        return self.a.game

    @property
    def board(self) -> str:
        return f"{self.a.board} vs {self.b.board}"

    @property
    def title(self) -> str:
        return "two designs compared"

    @property
    def subtitle(self) -> str:
        return self.a.subtitle + " · the same dice race by race"

    @property
    def clear(self) -> list[Difference]:
        return [d for d in self.differences if d.clear]

    def as_dict(self) -> dict:
        return {
            "game": self.game,
            "compare": [self.a.board, self.b.board],
            "files": [self.a.source, self.b.source],
            "note": self.note,
            "differences": [d.as_dict() for d in self.clear],
            "compared": [d.as_dict() for d in self.differences],
            "a": self.a.as_dict(),
            "b": self.b.as_dict(),
        }

    def text_lines(self) -> list[str]:
        a, b = self.a.source or self.a.board, self.b.source or self.b.board
        out = [f"A: {a}", f"B: {b}", f"  {self.subtitle}"]
        clear = self.clear
        if not clear:
            out.append("  no difference larger than the noise of this many races")
        else:
            out.append(f"  {len(clear)} difference(s) larger than their noise (B − A, with its 95 % interval):")
            width = max(len(d.label) for d in clear)
            out += [f"    {d.label:<{width}}  A {d.text(d.a)}  B {d.text(d.b)}  {d.diff_text()}" for d in clear]
        for name, r in (("A", self.a), ("B", self.b)):
            if r.warnings:
                out.append(f"  {name}: {len(r.warnings)} warning(s): " + "; ".join(r.warnings))
        return out
