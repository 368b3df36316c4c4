"""Where things on the preview's board come from in the spec: every unit (or per-lane space) with its number and
the spec lines it belongs to — the segment under it, the point or CSV row nearest it, the corner it is in — and
where a problem is on the board (:func:`mark`). A click on the board names them (``page.html``). Page mm, as the
board's SVG viewBox.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

#: The most points a board's numbers are shown for (a 2,000-unit board's units, a 7-lane board's spaces).
MAX_SPOTS = 6000


def _r(v: float, digits: int = 2) -> float:
    return round(float(v), digits)


def mark(problem, circuit) -> dict | None:
    """Where ``problem`` is on the board of ``circuit``, in page mm: ``x``, ``y`` (the worst point) and ``path``,
    the centre line over the unit it names (or a unit's length round its point). None when it has no place (the
    paper, the lap as a whole)."""
    try:
        lap, u = circuit.lap_length, circuit.unit_length
        s = problem.s
        where = problem.where or ""
        if s is None and problem.unit is not None:
            a, b = circuit.unit_bounds(problem.unit)
            s = (a + b) / 2
        if s is None and where.startswith("pit") and circuit.pit is not None:
            xy = np.asarray(circuit.pit.polygon, dtype=float)
            return {"x": _r(xy[:, 0].mean()), "y": _r(xy[:, 1].mean()), "path": []}
        if s is None and (where == "grid" or where.startswith("start")):
            s = 0.0
        if s is None and where.startswith("segment ") and circuit.spec.segments is not None:
            s = segment_s(circuit, int(where.split()[1].rstrip(",:")) - 1)
        if s is None or not np.isfinite(s):
            return None
        s %= lap
        a, b = s - u / 2, s + u / 2  # a unit's length round the point
        if problem.unit is not None:
            a0, b0 = circuit.unit_bounds(problem.unit)
            if a0 - 1e-6 <= s <= b0 + 1e-6:  # the unit it names, where the point lies in it
                a, b = a0, b0
        x, y = circuit.point_at(s)
        path = circuit.offset_line(a % lap, a % lap + (b - a), 0.0)
        return {"x": _r(x), "y": _r(y), "path": np.round(np.asarray(path, dtype=float), 2).tolist()}
    except Exception:  # noqa: BLE001 — a circuit that failed its checks may not answer every question
        return None


def segment_s(circuit, k: int) -> float | None:
    """The arc length on the board of the middle of spec segment ``k`` (0-based)."""
    spec = circuit.spec
    if spec.segments is None or not 0 <= k < len(spec.segments):
        return None
    lengths = np.array([seg.length for seg in spec.segments], dtype=float)
    total = float(lengths.sum())
    mid = float(lengths[:k].sum() + lengths[k] / 2) * circuit.lap_length / total
    start = spec.start.at * spec.unit * circuit.lap_length / total
    return (start - mid) % circuit.lap_length if spec.start.reverse else (mid - start) % circuit.lap_length


def _segment_at(circuit, s: float) -> int | None:
    """The spec segment (0-based) under arc length ``s`` of the board (the lap as the segments lay it out, the
    few mm ``close: auto`` changed spread over it)."""
    spec = circuit.spec
    if spec.segments is None:
        return None
    lengths = np.array([seg.length for seg in spec.segments], dtype=float)
    total = float(lengths.sum())
    k = total / circuit.lap_length
    start = spec.start.at * spec.unit
    raw = ((start - s * k) if spec.start.reverse else (start + s * k)) % total
    return int(min(np.searchsorted(np.cumsum(lengths), raw, side="right"), len(lengths) - 1))


def _segment_text(seg) -> str:
    if seg.straight is not None:
        return f"straight {seg.straight:g} mm"
    if seg.arc is not None:
        return f"arc r {seg.arc.radius:g} mm, {seg.arc.angle:g}°"
    return "clothoid"


class Locator:
    """The spec lines of what lies at a place on the board of ``circuit`` (built from ``path``)."""

    def __init__(self, circuit, path: Path) -> None:
        self.c = circuit
        self.path = Path(path)
        self.lines = circuit.lines or {}
        spec = circuit.spec
        self.points_page = None
        self.csv_rows: list[int] | None = None
        if spec.segments is None and circuit.source_to_page is not None:
            self._points()

    def _points(self) -> None:
        """The source points carried onto the page, and (for a CSV) the file line of each."""
        from ..track.adapt import to_page
        from ..track.load import csv_path, read_points

        spec = self.c.spec
        try:
            if spec.points is not None:
                P = np.asarray(spec.points, dtype=float)
            else:
                csv = csv_path(spec, self.c.source)
                P = np.asarray(read_points(csv), dtype=float)
                self.csv = csv
                self.csv_rows = _data_rows(csv)
            self.points_page = to_page(P, *self.c.source_to_page)
        except Exception:  # noqa: BLE001 — the board stands without its points' lines
            self.points_page = None

    def line(self, *key) -> int | None:
        return self.lines.get(tuple(key)) if isinstance(self.lines, dict) else None

    def refs(self, s: float, xy) -> list[dict]:
        """What lies at arc length ``s`` (the point ``xy``): ``{"what", "line"}`` each."""
        c, out = self.c, []
        k = _segment_at(c, s)
        if k is not None:
            seg = c.spec.segments[k]
            out.append({"what": f"segment {k + 1} ({_segment_text(seg)})", "line": self.line("segments", k)})
        elif self.points_page is not None and len(self.points_page):
            d = np.hypot(*(self.points_page - np.asarray(xy, dtype=float)).T)
            i = int(np.argmin(d))
            if self.csv_rows is not None:
                row = self.csv_rows[i] if i < len(self.csv_rows) else None
                out.append({"what": f"point {i + 1} of {self.csv.name}", "line": row, "file": str(self.csv)})
            else:
                out.append({"what": f"point {i + 1}", "line": self.line("points", i) or self.line("points")})
        for j, corner in enumerate(c.corners):
            if _within(s, corner.s_start, corner.s_end, c.lap_length):
                name = f" {corner.name}" if corner.name else ""
                out.append({"what": f"corner {j + 1}{name}", "line": self._corner_line(j, s)})
        return out

    def _corner_line(self, j: int, s: float) -> int | None:
        """The spec line of board corner ``j``: its ``corners`` entry (matched by its units), else the arc it is."""
        spec = self.c.spec
        unit = int((s % self.c.lap_length) // self.c.unit_length) + 1
        for i, entry in enumerate(spec.corners or []):
            a, b = entry.from_, entry.to
            inside = a <= unit <= b if a <= b else (unit >= a or unit <= b)
            if inside and self.line("corners", i) is not None:
                return self.line("corners", i)
        k = _segment_at(self.c, s)
        return self.line("segments", k) if k is not None else None


def _within(s: float, a: float, b: float, lap: float) -> bool:
    return (s - a) % lap <= (b - a) % lap if b - a < lap else True


def _data_rows(csv: Path) -> list[int]:
    """The file line of each point of a centre-line CSV, in order (blank, ``#`` and header lines skipped)."""
    from ..inputs import read_text

    rows = []
    for no, raw in enumerate(read_text(csv, what="centre-line CSV").splitlines(), 1):
        t = raw.strip()
        if t and not t.startswith("#") and (t[0].isdigit() or t[0] in "+-."):
            rows.append(no)
    return rows


def spots(circuit, locator: Locator) -> dict:
    """Every unit (or each lane's spaces) of the board: ``spots``, ``[x, y, label, ref]`` (page mm, the number
    shown, an index into ``refs``), and ``refs``, each ``{"what", "line"}`` list once; ``size``, the type size in
    mm that fits a unit."""
    out, refs, index = [], [], {}

    def ref_of(s, xy) -> int:
        found = locator.refs(s, xy)
        key = repr(found)
        if key not in index:
            index[key] = len(refs)
            refs.append(found)
        return index[key]

    c = circuit
    if c.graph is not None:
        size = min(c.unit_length, c.lane_width) * 0.3
        for sp in c.graph.spaces[:MAX_SPOTS]:
            if sp.hidden:
                continue
            x, y = sp.center
            s = (sp.s0 + sp.length / 2) % c.lap_length if math.isfinite(sp.s0) else 0.0
            out.append([_r(x), _r(y), str(sp.index + 1), ref_of(s, (x, y))])
    else:
        size = min(c.unit_length, 2 * c.half_width) * 0.25
        for u in range(1, min(c.units_count, MAX_SPOTS) + 1):
            a, b = c.unit_bounds(u)
            s = (a + b) / 2
            x, y = c.point_at(s)
            out.append([_r(x), _r(y), str(u), ref_of(s, (x, y))])
    return {"spots": out, "refs": refs, "size": _r(size)}
