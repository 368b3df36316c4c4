"""From a validated spec to a placed circuit: centre line, closure, scale and orientation, units, lanes,
corners, kerbs, pit lane, crossings, the per-lane space graph — and every problem that stops it printing.

:func:`analyse` never raises for geometry: it returns the circuit (when there is one to return) and the list of
:class:`Problem`s, which ``paddock check`` prints. :func:`build` raises one :class:`GeometryError` listing them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import GeometryError, InputError
from ..paper import DEFAULT_EDGE, PageSpec, Paper, PaperChoice
from .centerline import (
    Line,
    clean_points,
    line_from_pieces,
    periodic_spline,
    piece_starts,
    pieces_from_segments,
    read_csv,
    resample_closed,
    smooth_closed,
)
from .model import CircuitSpec
from .spaces import LaneGraph, Space

KERB_W = 3.0  # mm, kerb band outside the track edge
KERB_BLOCK = 4.0  # mm, target length of one red or white kerb block along the track edge
KERB_MIN_BLOCK = 2.0  # mm, shortest block; a kerb is at least three blocks (red, white, red)
KERB_MIN = 3 * KERB_MIN_BLOCK  # mm along the track edge: a found (auto) kerb shorter than this is left out
FOLD_MARGIN = 5.0  # mm: an inner border needs radius >= half width + this (room for the kerb)
GAP = 2.0  # mm of clear paper between two parts of the track (beyond their kerbs)
PIT_GAP = 4.0  # mm between the track edge and the pit lane
GARAGE_D = 9.0  # mm, depth of a garage box beside the pit lane
CLOSE_TOL = 0.5  # mm: a loop closer than this is closed silently (spread over the straights)
TURN_TOL = math.radians(0.1)
CORNER_R = 6.0  # a bend tighter than this many track widths (radius) is a corner
CORNER_MIN_TURN = math.radians(15)


@dataclass
class Problem:
    """One reason a circuit cannot print: what, where, the numbers, and what to change."""

    kind: str  # fold | proximity | crossing | pit | fit | closure | turning
    message: str
    hint: str
    where: str = ""
    s: float | None = None
    unit: int | None = None
    numbers: dict = field(default_factory=dict)
    line: int | None = None  # spec line, where the problem belongs to one field
    field: str | None = None

    def as_dict(self) -> dict:
        d = {"kind": self.kind, "where": self.where, "message": self.message, "hint": self.hint}
        if self.s is not None:
            d["s_mm"] = round(self.s, 1)
        if self.unit is not None:
            d["unit"] = self.unit
        if self.numbers:
            d["numbers"] = {k: (round(v, 2) if isinstance(v, float) else v) for k, v in self.numbers.items()}
        if self.line is not None:
            d["line"] = self.line
        if self.field:
            d["field"] = self.field
        return d

    def __str__(self) -> str:
        loc = f"{self.where}: " if self.where else ""
        return f"{loc}{self.message} — {self.hint}"


@dataclass
class Corner:
    s_start: float
    s_end: float
    apex: float
    radius: float  # tightest centre-line radius, mm
    angle: float  # turning, degrees (positive)
    direction: str  # left | right
    stops: int | None = None
    name: str | None = None

    def as_dict(self, unit_len: float) -> dict:
        return {
            "unit": int(self.apex // unit_len) + 1,
            "s_start_mm": round(self.s_start, 1),
            "s_end_mm": round(self.s_end, 1),
            "apex_mm": round(self.apex, 1),
            "radius_mm": round(self.radius, 1),
            "angle_deg": round(self.angle, 1),
            "direction": self.direction,
            **({"stops": self.stops} if self.stops else {}),
        }


@dataclass
class Kerb:
    s0: float
    s1: float
    side: str  # left | right


@dataclass
class PitLane:
    side: str
    s0: float  # where the entry leaves the track edge (may exceed the lap length: wraps)
    s1: float  # where the exit rejoins
    taper: float
    width: float
    garages: int
    polygon: tuple  # outline of the pit lane surface, page mm
    garage_boxes: list  # [(polygon points, centre)]
    min_roll: int | None = None  # Formula D: minimum gear-die roll to enter the pit (spec 'pit.min_roll')

    def offsets(self, s: np.ndarray, half: float) -> tuple[np.ndarray, np.ndarray]:
        """Inner and outer edge distance from the centre line (positive) at arc lengths ``s`` (s0 … s1)."""
        a = np.clip((s - self.s0) / self.taper, 0, 1)
        b = np.clip((self.s1 - s) / self.taper, 0, 1)
        f = np.minimum(a, b)
        f = f * f * (3 - 2 * f)  # smoothstep
        inner = half + PIT_GAP * f
        outer = half + (PIT_GAP + self.width) * f
        return inner, outer


@dataclass
class CrossingInfo:
    kind: str
    s_upper: float
    s_lower: float
    point: tuple[float, float]
    angle: float  # degrees between the passes
    reach: float  # mm along each pass either side of the crossing that the other pass covers


@dataclass
class Circuit:
    spec: CircuitSpec
    source: Path | None
    name: str
    lanes: int
    lane_width: float
    unit: float
    paper: Paper
    line: Line  # placed centre line, page mm, s from the start line in race direction
    scale: float  # paper mm per source unit (1 for segments)
    rotation: float  # degrees the source was turned on the page
    units_count: int
    corners: list[Corner]
    kerbs: list[Kerb]
    pit: PitLane | None
    crossings: list[CrossingInfo]
    graph: LaneGraph | None
    problems: list[Problem]
    changes: list[str]
    lines: object = None  # spec LineMap
    edge: float = DEFAULT_EDGE  # the printer's unprintable edge the circuit was placed clear of

    @property
    def page(self) -> PageSpec:
        """The page the circuit was placed on: its paper and the unprintable edge."""
        return PageSpec(self.paper, self.edge)

    # --- the public geometry ---
    @property
    def lap_length(self) -> float:
        return self.line.length

    @property
    def half_width(self) -> float:
        return self.lanes * self.lane_width / 2

    @property
    def unit_length(self) -> float:
        """The actual length of one unit along the centre line (lap / units)."""
        return self.lap_length / self.units_count

    @property
    def unit_mode(self) -> str:
        return self.spec.units

    def point_at(self, s: float) -> tuple[float, float]:
        p = self.line.point(s)
        return (float(p[0]), float(p[1]))

    def tangent_at(self, s: float) -> tuple[float, float]:
        th = float(self.line.heading(s))
        return (math.cos(th), math.sin(th))

    def normal_at(self, s: float) -> tuple[float, float]:
        """Unit normal pointing to the LEFT of the race direction (page coordinates, y down)."""
        th = float(self.line.heading(s))
        return (math.sin(th), -math.cos(th))

    def offset_point(self, s: float, d: float) -> tuple[float, float]:
        """The point ``d`` mm left of the centre line at ``s`` (negative: right)."""
        x, y = self.point_at(s)
        nx, ny = self.normal_at(s)
        return (x + d * nx, y + d * ny)

    def lane_offset(self, lane: int) -> float:
        """Distance (left positive) of lane ``lane``'s centre from the centre line; lane 0 is the left lane."""
        return self.half_width - (lane + 0.5) * self.lane_width

    def border(self, i: int) -> np.ndarray:
        """Lane border ``i`` (0 = left edge … lanes = right edge) as a closed polyline, page mm."""
        return self.line.offset(self.half_width - i * self.lane_width)

    def unit_at(self, s: float) -> int:
        """1-based unit number containing arc length ``s``."""
        return int((s % self.lap_length) // self.unit_length) + 1

    def unit_bounds(self, unit: int) -> tuple[float, float]:
        u = self.unit_length
        return ((unit - 1) * u, unit * u)

    @property
    def buildable(self) -> bool:
        return not self.problems

    def summary(self) -> dict:
        u = self.unit_length
        units: int | dict = self.units_count
        if self.graph is not None:
            units = {f"lane {i + 1}": self.graph.count(i) for i in range(self.lanes)}
        out = {
            "name": self.name,
            "file": str(self.source) if self.source else None,
            "lanes": self.lanes,
            "lane_width_mm": self.lane_width,
            "unit_mm": self.unit,
            "unit_mode": self.spec.units,
            "lap_mm": round(self.lap_length, 1),
            "units": units,
            "corners": [c.as_dict(u) for c in self.corners],
            "paper": self.paper.label,
            "fits": not any(p.kind == "fit" for p in self.problems),
            "buildable": self.buildable,
            "problems": [p.as_dict() for p in self.problems],
            "changes": self.changes,
        }
        if self.pit:
            out["pit"] = {
                "side": self.pit.side,
                "from_unit": self.unit_at(self.pit.s0) if self.pit else None,
                "to_unit": self.unit_at(self.pit.s1 - 1e-6),
                "garages": self.pit.garages,
                **({"min_roll": self.pit.min_roll} if self.pit.min_roll is not None else {}),
            }
        return out


# ------------------------------------------------------------------------------------------------- loading


CSV_SMOOTHING = 30.0  # mm: the smoothing a bare centre-line CSV gets (paddock track Budapest.csv)

#: Spec fields the command line can override (``--lanes``, ``--smoothing``, ``--fit``); the last two only mean
#: something for a centre line given as points or a CSV.
OVERRIDABLE = ("lanes", "smoothing", "fit")


def load_spec(path: str | Path, overrides: dict | None = None):
    """A spec file (YAML) or a centre-line CSV → (spec, LineMap, path). Raises InputError.

    ``overrides`` (field → value, from the command line) replace the spec's own values; ``None`` values are
    ignored."""
    from ..specs import LineMap, load_yaml, validate

    path = Path(path)
    if path.suffix.lower() == ".csv":
        if not path.is_file():
            raise InputError("file not found", file=path, hint="check the path")
        name = path.stem.replace("_", " ").replace("-", " ")
        spec = CircuitSpec(name=name, csv=str(path.resolve()), smoothing=CSV_SMOOTHING)
        lines = LineMap()
    else:
        data, lines = load_yaml(path)
        if data is not None and not isinstance(data, dict):
            raise InputError("a circuit spec must be a mapping of fields", file=path, line=1, hint="see the README")
        spec = validate(CircuitSpec, data, path, lines)
    over = {k: v for k, v in (overrides or {}).items() if v is not None}
    if over:
        spec = _override(spec, over, path)
    return spec, lines, path


def _override(spec: CircuitSpec, over: dict, path: Path) -> CircuitSpec:
    from pydantic import ValidationError

    for key in over:
        if key not in OVERRIDABLE:
            raise InputError(f"--{key} cannot be given on the command line", file=path)
    if spec.segments is not None and {"smoothing", "fit"} & over.keys():
        opt = next(k for k in ("smoothing", "fit") if k in over)
        raise InputError(
            f"--{opt} applies to a centre line given as points or a CSV; this spec uses segments",
            file=path,
            hint=f"leave out --{opt}",
        )
    data = spec.model_dump(by_alias=True, exclude_none=True)
    if isinstance(over.get("fit"), str) and over["fit"].strip().lower() != "page":
        try:
            over["fit"] = int(over["fit"])
        except ValueError:
            raise InputError(
                f"--fit {over['fit']}: give 'page' or the lap length in units (e.g. --fit 60)", file=path
            ) from None
    elif isinstance(over.get("fit"), str):
        over["fit"] = "page"
    try:
        return CircuitSpec.model_validate({**data, **over})
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        key = str(err["loc"][0]) if err["loc"] else "option"
        msg = err["msg"].removeprefix("Value error, ")
        raise InputError(f"--{key} {over.get(key, '')}: {msg}", file=path) from None


# ------------------------------------------------------------------------------------------------- analysis


class _Ctx:
    def __init__(self, spec: CircuitSpec, path: Path | None, lines, edge: float = DEFAULT_EDGE) -> None:
        self.spec = spec
        self.edge = edge
        self.path = path
        self.lines = lines
        self.problems: list[Problem] = []
        self.changes: list[str] = []
        self.unfit = False  # the circuit does not fit its paper (reported once; nothing else blamed on it)

    def line_of(self, *loc) -> int | None:
        """The line of the nearest given key on the path ``loc`` (not the top of the file)."""
        if self.lines is None:
            return None
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return None

    def problem(self, kind, message, hint, loc=(), **kw) -> None:
        from ..specs import field_name

        self.problems.append(
            Problem(kind, message, hint, line=self.line_of(*loc) if loc else None, field=field_name(loc) or None, **kw)
        )


def _mm(v: float) -> str:
    """A signed length to one decimal, never "-0.0"."""
    v = round(float(v), 1)
    return f"{v + 0.0:+.1f}" if v else "0.0"


def _units(a: int, b: int) -> str:
    return f"unit {a}" if a == b else f"units {a}–{b}"


def _segments_line(ctx: _Ctx) -> Line | None:
    spec = ctx.spec
    pieces = pieces_from_segments(spec.segments)
    line, end, end_th = line_from_pieces(pieces)
    turn = -end_th
    full = round(turn / (2 * math.pi))
    allowed = (-1, 0, 1) if spec.crossings else (-1, 1)  # a figure-eight turns 0°
    if full not in allowed or abs(turn - full * 2 * math.pi) > TURN_TOL:
        target = 360.0 if turn >= 0 else -360.0
        ctx.problem(
            "turning",
            f"the segments turn {math.degrees(turn):+.1f}° in all (left positive); a loop turns +360° or -360°"
            + (" (0° for a figure-eight)" if spec.crossings else ""),
            f"change the arc angles by {target - math.degrees(turn):+.1f}° in total",
            ("segments",),
            where="segments",
            numbers={"turning_deg": math.degrees(turn)},
        )
        return None
    gap = np.asarray(end) - line.xy[0]
    dist = float(np.hypot(*gap))
    if dist > 1e-6:
        if dist > CLOSE_TOL and spec.close == "strict":
            last = len(spec.segments) - 1
            ctx.problem(
                "closure",
                f"the loop does not close: segment {last + 1} (the last) ends {dist:.1f} mm from the start "
                f"({_mm(gap[0])} mm across, {_mm(gap[1])} mm down the page with segment 1 heading right)",
                "lengthen or shorten straights to close it, or set 'close: auto' to spread the correction",
                ("segments", last),
                where=f"segment {last + 1}",
                numbers={"gap_mm": dist, "dx_mm": float(gap[0]), "dy_mm": float(gap[1])},
            )
            return None
        starts = piece_starts(pieces)
        idx = [i for i, p in enumerate(pieces) if p.straight]
        U = np.array([[math.cos(line.heading(starts[i])), math.sin(line.heading(starts[i]))] for i in idx]).T
        U = U.reshape(2, len(idx))
        delta = np.zeros(len(idx))
        if idx:
            delta = np.linalg.lstsq(U, -gap, rcond=None)[0]  # the least change that closes the loop
        if not idx or np.hypot(*(U @ delta + gap)) > 0.05:
            ctx.problem(
                "closure",
                f"the loop misses its start by {dist:.1f} mm ({_mm(gap[0])} across, {_mm(gap[1])} down) and "
                "its straights cannot close it",
                "add or lengthen straights that run in the direction of the gap, or fix the lengths by hand",
                ("segments",),
                where="segments",
                numbers={"gap_mm": dist},
            )
            return None
        for j, i in enumerate(idx):
            p = pieces[i]
            new = p.length + float(delta[j])
            if new < 1.0:
                ctx.problem(
                    "closure",
                    f"closing the loop would shorten the straight of segment {p.index + 1} to {new:.1f} mm",
                    "the segments are too far from a loop for 'close: auto'; fix the lengths by hand",
                    ("segments", p.index),
                    where=f"segment {p.index + 1}",
                    numbers={"gap_mm": dist},
                )
                return None
            if dist > CLOSE_TOL and abs(delta[j]) >= 0.05:
                ctx.changes.append(f"segment {p.index + 1}: straight {p.length:.1f} → {new:.1f} mm")
            p.length = new
        line, end, _ = line_from_pieces(pieces)
    return line


def _points_source(ctx: _Ctx) -> np.ndarray:
    spec = ctx.spec
    if spec.points is not None:
        P = np.asarray(spec.points, dtype=float)
    else:
        csv = Path(spec.csv)
        if not csv.is_absolute() and ctx.path is not None:
            csv = ctx.path.parent / csv
        P = read_csv(csv)
    if not np.all(np.isfinite(P)):
        raise InputError("points must be finite numbers", file=ctx.path, line=ctx.line_of("points"), field="points")
    P = P * np.array([1.0, -1.0])  # y up (maps, graph paper) → page y down
    span = float(np.ptp(P, axis=0).max())
    if span <= 0:
        raise InputError("all points are the same", file=ctx.path, line=ctx.line_of("points"), field="points")
    P = clean_points(P, span * 1e-6)
    where = {"file": ctx.path, "line": ctx.line_of("points"), "field": "points" if spec.points is not None else "csv"}
    if len(P) < 4:
        raise InputError("fewer than four distinct points", hint="give at least four points round the loop", **where)
    # degenerate loops: the spline through them has a cusp (zero speed), so no heading or curvature exists there
    centred = P - P.mean(axis=0)
    if np.linalg.svd(centred, compute_uv=False)[-1] <= 1e-9 * span * math.sqrt(len(P)):
        raise InputError(
            "all the points lie on one straight line", hint="a circuit needs points that go round a loop", **where
        )
    seg = np.roll(P, -1, axis=0) - P
    nxt = np.roll(seg, -1, axis=0)
    cos = (seg * nxt).sum(axis=1) / (np.linalg.norm(seg, axis=1) * np.linalg.norm(nxt, axis=1))
    back = np.flatnonzero(cos < -1 + 1e-9)
    if len(back):
        x, y = P[(back[0] + 1) % len(P)] * np.array([1.0, -1.0])
        raise InputError(
            f"the centre line turns straight back on itself at the point ({x:g}, {y:g})",
            hint="remove the point or move it off the line of its neighbours",
            **where,
        )
    return P


def _margin(spec: CircuitSpec) -> float:
    """Paper kept clear round the centre line on both sides: half the track, the kerbs, a hair."""
    return spec.lanes * spec.lane_width / 2 + KERB_W + 1.0


def _pit_points(spec: CircuitSpec, line: Line, scale: float) -> np.ndarray:
    """Source-coordinate points of the pit lane's outer edge (garages included), for fitting the page."""
    if spec.pit is None:
        return np.zeros((0, 2))
    u = spec.unit / scale
    L = line.length
    s0 = (spec.pit.from_ - 1) * u
    s1 = spec.pit.to * u
    if s1 <= s0:
        s1 += L
    s = np.linspace(s0, s1, 60)
    off = (spec.lanes * spec.lane_width / 2 + PIT_GAP + spec.lane_width + GARAGE_D + 1.0) / scale
    sign = 1.0 if spec.pit.side == "left" else -1.0
    th = line.heading(s)
    return line.point(s) + np.column_stack((np.sin(th), -np.cos(th))) * off * sign


def _content(paper: Paper, edge: float) -> tuple[float, float, float, float]:
    return PageSpec(paper, edge).content_box


def _bbox_rot(xy: np.ndarray, angle: float) -> tuple[float, float, float, float]:
    c, s = math.cos(angle), math.sin(angle)
    x = xy[:, 0] * c - xy[:, 1] * s
    y = xy[:, 0] * s + xy[:, 1] * c
    return float(x.min()), float(y.min()), float(x.max()), float(y.max())


def _papers(spec: CircuitSpec, paper: Paper | PaperChoice | None) -> list[Paper]:
    """The papers to try: exactly ``paper``; or its size (the spec's when None) in the orientation asked for —
    the choice's, else the spec's, both when that is 'auto'."""
    if isinstance(paper, Paper):
        return [paper]
    name = paper.name if paper is not None else spec.paper
    orient = paper.orientation if paper is not None and paper.orientation else spec.orientation
    if orient == "auto":
        return [Paper(name, "landscape"), Paper(name, "portrait")]
    return [Paper(name, orient)]


ANGLES = [math.radians(a) for a in range(0, 180, 5)]


def _place(ctx: _Ctx, raw: Line, fixed_scale: float | None, paper: Paper | None):
    """Choose paper orientation, rotation and (for points) scale.

    ``raw`` is already measured from the start line. Returns (paper, angle, scale, fits, need)."""
    spec = ctx.spec
    m = _margin(spec)
    step = max(1, len(raw.xy) // 600)
    xy = raw.xy[::step]
    best = None
    for pi, pap in enumerate(_papers(spec, paper)):
        _, _, W, H = _content(pap, ctx.edge)
        for ai, ang in enumerate(ANGLES):
            x0, y0, x1, y1 = _bbox_rot(xy, ang)
            w, h = x1 - x0, y1 - y0
            sc = fixed_scale if fixed_scale is not None else min((W - 2 * m) / max(w, 1e-9), (H - 2 * m) / max(h, 1e-9))
            for _ in range(2 if fixed_scale is None else 1):
                sc = max(sc, 1e-6)
                ex = _pit_points(spec, raw, sc)
                px0, py0, px1, py1 = _bbox_rot(ex, ang) if len(ex) else (x0, y0, x1, y1)
                lo_x, lo_y = min(x0 - m / sc, px0), min(y0 - m / sc, py0)
                hi_x, hi_y = max(x1 + m / sc, px1), max(y1 + m / sc, py1)
                need = ((hi_x - lo_x) * sc, (hi_y - lo_y) * sc)
                if fixed_scale is None:
                    sc = sc * min(W / need[0], H / need[1]) * 0.999
            need = (need[0], need[1]) if fixed_scale is not None else ((hi_x - lo_x) * sc, (hi_y - lo_y) * sc)
            slack = min(W - need[0], H - need[1])
            fits = slack >= -1e-6 and sc * min(w, h) > 0
            square = ang in (0.0, math.pi / 2)  # turned by a multiple of 90°: the drawing stays square to the page
            if fixed_scale is None:
                key = (fits, sc * (1.0 if ai == 0 else 0.985 if square else 0.97) * (1.0 if pi == 0 else 0.995))
            else:
                # keep the designer's drawing square to the page (upright first, on the preferred paper) whenever
                # that fits, and when nothing fits: a free rotation only where it is the one thing that fits
                key = (fits, square, ai == 0, pi == 0, slack)
            if best is None or key > best[0]:
                best = (key, pap, ang, sc, fits, need)
    _, pap, ang, sc, fits, need = best
    return pap, ang, sc, fits, need


def _paper_arg(p: Paper) -> str:
    """The --paper value that asks for exactly ``p`` (a bare name means landscape on the command line)."""
    return p.name if p.orientation == "landscape" else f"{p.name}-portrait"


def fitting_paper(ctx: _Ctx, raw: Line, fixed: float | None, paper: Paper) -> Paper | None:
    """The smallest paper, in the orientation that fits, on which the builder would place ``raw``: each size
    no smaller than ``paper`` is tried in both orientations with every rotation, as :func:`_place` does."""
    from ..paper import SIZES_MM

    names = ["a4", "a3", "a2", "a1"] + (["letter", "tabloid"] if paper.name in ("letter", "tabloid") else [])
    area = SIZES_MM[paper.name][0] * SIZES_MM[paper.name][1]
    names = sorted(
        (n for n in names if SIZES_MM[n][0] * SIZES_MM[n][1] >= area - 1e-6),
        key=lambda n: SIZES_MM[n][0] * SIZES_MM[n][1],
    )
    for name in names:
        orients = [paper.orientation, paper.rotated().orientation] if name == paper.name else ["landscape", "portrait"]
        for orient in orients:
            cand = Paper(name, orient)
            if cand == paper:
                continue
            if _place(ctx, raw, fixed, cand)[3]:
                return cand
    return None


def _fit_problem(ctx: _Ctx, paper: Paper, need, ok: Paper | None) -> None:
    _, _, W, H = _content(paper, ctx.edge)
    if ok is None:
        hint = "shorten the circuit: it does not fit even A1"
    elif ok.name == paper.name:
        hint = f"it fits {ok.label}: use --paper {_paper_arg(ok)} (in the spec: 'orientation: {ok.orientation}')"
    else:
        hint = (
            f"it fits {ok.label}: print it there (--paper {_paper_arg(ok)}; in the spec 'paper: {ok.name}'), "
            f"or tile it onto {paper.name.upper() if paper.name.startswith('a') else paper.name} sheets: "
            f"--paper {_paper_arg(ok)} --tile-onto {paper.name}"
        )
    ctx.problem(
        "fit",
        f"the circuit needs {need[0]:.0f} × {need[1]:.0f} mm but {paper.label} offers {W:.0f} × {H:.0f} mm",
        hint,
        ("paper",),
        where="paper",
        numbers={"need_w_mm": need[0], "need_h_mm": need[1], "have_w_mm": W, "have_h_mm": H},
    )


def analyse(
    spec: CircuitSpec, path: Path | None = None, lines=None, paper: Paper | None = None, edge: float = DEFAULT_EDGE
):
    """Build what can be built. Returns ``(circuit or None, problems, changes)``; raises only InputError."""
    ctx = _Ctx(spec, Path(path) if path else None, lines, edge)
    if spec.segments is not None:
        raw = _segments_line(ctx)
        if raw is None:
            return None, ctx.problems, ctx.changes
        fixed = 1.0
    else:
        P = _points_source(ctx)
        poly = np.vstack((P, P[:1]))
        L_raw = float(np.linalg.norm(np.diff(poly, axis=0), axis=1).sum())
        if spec.fit == "page":
            pap0 = _papers(spec, paper)[0]
            _, _, W, H = _content(pap0, ctx.edge)
            ext = float(np.ptp(P, axis=0).max())
            est = (min(W, H) + max(W, H)) / 2 / ext  # rough paper-mm per source unit
            fixed = None
        else:
            est = spec.fit * spec.unit / L_raw
            fixed = est
        src = P
        if spec.smoothing:
            # a Gaussian of 'smoothing' mm on paper; beyond half the lap the loop is a circle already
            src = smooth_closed(P, min(spec.smoothing / est, L_raw / 2))
        spacing = max(spec.unit / 2, L_raw * est / 400) / est
        ctrl = resample_closed(src, spacing) if (spec.smoothing or len(P) > 400) else P
        if len(ctrl) < 4:
            ctrl = resample_closed(P, L_raw / 8)
        raw = periodic_spline(ctrl, step=L_raw / max(400, L_raw * est / 1.0))
        if fixed is not None:
            fixed = spec.fit * spec.unit / raw.length
    # start line and direction (start.at is in units: on paper for segments, estimated for points)
    sc0 = fixed if fixed is not None else _place(ctx, raw, None, paper)[2]
    start = spec.start.at * spec.unit / sc0
    if start >= raw.length:
        ctx.problem(
            "closure",
            f"the start is {spec.start.at:g} units along a lap of {raw.length * sc0 / spec.unit:.1f} units",
            "use a smaller 'start.at'",
            ("start", "at"),
            where="start.at",
        )
        start = 0.0
    raw = raw.rolled(start, spec.start.reverse)
    pap, ang, sc, fits, need = _place(ctx, raw, fixed, paper)
    if not fits and fixed is None:
        sc = 1e-3  # a page too small for even the track's width: reported below
    placed = raw.transformed(ang, sc)
    # centre the footprint (track, kerbs, pit lane) in the content box
    cx, cy, W, H = _content(pap, ctx.edge)
    m = _margin(spec)
    pts = np.vstack((placed.xy - m, placed.xy + m, _pit_points(spec, placed, 1.0)))
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    shift = np.array([cx + (W - (x1 - x0)) / 2 - x0, cy + (H - (y1 - y0)) / 2 - y0])
    placed = Line(placed.s, placed.xy + shift, placed.th, placed.k)
    if not fits:
        ctx.unfit = True
        _fit_problem(ctx, pap, need, fitting_paper(ctx, raw, fixed, pap))
    circuit = _features(ctx, placed, pap, sc, math.degrees(ang))
    return circuit, ctx.problems, ctx.changes


def build(
    spec: CircuitSpec, path: Path | None = None, lines=None, paper: Paper | None = None, edge: float = DEFAULT_EDGE
) -> Circuit:
    circuit, problems, _ = analyse(spec, path, lines, paper, edge)
    if problems:
        raise geometry_error(problems, path)
    return circuit


def geometry_error(problems: list[Problem], path) -> GeometryError:
    first = problems[0]
    msg = str(first)
    if len(problems) > 1:
        msg = f"{len(problems)} problems:\n" + "\n".join(f"  - {p}" for p in problems)
    err = GeometryError(msg, file=path, line=first.line if len(problems) == 1 else None)
    err.problems = problems
    return err


# ------------------------------------------------------------------------------------------------- features


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) index runs where mask is True."""
    if not mask.any():
        return []
    d = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1), strict=True))


def _features(ctx: _Ctx, line: Line, paper: Paper, scale: float, rotation: float) -> Circuit:
    spec = ctx.spec
    L = line.length
    n_units = max(1, round(L / spec.unit))
    c = Circuit(
        spec=spec,
        source=ctx.path,
        name=spec.name,
        lanes=spec.lanes,
        lane_width=spec.lane_width,
        unit=spec.unit,
        paper=paper,
        line=line,
        scale=scale,
        rotation=rotation,
        units_count=n_units,
        corners=[],
        kerbs=[],
        pit=None,
        crossings=[],
        graph=None,
        problems=ctx.problems,
        changes=ctx.changes,
        lines=ctx.lines,
        edge=ctx.edge,
    )
    if n_units < 8:
        ctx.problem(
            "fit",
            f"the lap is only {L:.0f} mm ({n_units} units)",
            "make the circuit longer: a race needs at least 8 units",
            where="lap",
        )
        return c
    _check_fold(ctx, c)
    c.corners = _corners(ctx, c)
    c.kerbs = _kerbs(ctx, c)
    c.crossings = _crossings(ctx, c)
    _check_proximity(ctx, c)
    if spec.pit is not None:
        c.pit = _pit(ctx, c)
    if spec.units == "per-lane":
        c.graph = lane_graph(c)
    _check_positions(ctx, c)
    return c


def _check_fold(ctx: _Ctx, c: Circuit) -> None:
    line = c.line
    need = c.half_width + FOLD_MARGIN
    bad = np.abs(line.k) * need >= 1.0
    for i0, i1 in _runs(bad[:-1]):
        j = i0 + int(np.argmax(np.abs(line.k[i0:i1])))
        r = 1.0 / abs(line.k[j])
        s = float(line.s[j])
        side = "left" if line.k[j] > 0 else "right"
        u0, u1 = c.unit_at(float(line.s[i0])), c.unit_at(float(line.s[max(i0, i1 - 1)]))
        where = f"unit {u0}" if u0 == u1 else f"units {u0}–{u1}"
        hint = f"make the corner radius at least {need:.0f} mm"
        hint += " (fewer lanes also help)" if c.lanes > 1 else ""
        if ctx.spec.segments is None:
            hint = _points_hint(ctx.spec, c)
        ctx.problem(
            "fold",
            # Round down, so a radius just short of the minimum never reads as equal to it.
            f"the inner ({side}) border folds: centre-line radius {math.floor(r * 10) / 10:.1f} mm is under the "
            f"{need:g} mm minimum "
            f"(half the {2 * c.half_width:g} mm track plus {FOLD_MARGIN:g} mm)",
            hint,
            ("segments",) if ctx.spec.segments is not None else (),
            where=where,
            s=s,
            unit=c.unit_at(s),
            numbers={"radius_mm": r, "min_radius_mm": need},
        )


def _points_hint(spec: CircuitSpec, c: Circuit) -> str:
    """What to change on a centre line given as points: the spec fields and the matching command-line options."""
    more = max(20.0, round(spec.smoothing * 2 / 10) * 10)
    longer = max(c.units_count + 10, round(c.units_count * 1.5 / 5) * 5)
    lanes = f", or fewer lanes (--lanes {c.lanes - 1} / 'lanes: {c.lanes - 1}')" if c.lanes > 1 else ""
    return (
        f"smooth the centre line more (--smoothing {more:g}, or 'smoothing: {more:g}' in a spec; now "
        f"{spec.smoothing:g} mm), make it bigger (--fit {longer} for a {longer}-unit lap on a larger paper, "
        f"e.g. --paper a2 --tile-onto a3){lanes}"
    )


def _corners(ctx: _Ctx, c: Circuit) -> list[Corner]:
    line = c.line
    L = line.length
    spec = ctx.spec
    u = c.unit_length

    def make(i0: int, i1: int, stops=None, name=None) -> Corner | None:
        ks = line.k[i0:i1]
        if len(ks) == 0:
            return None
        j = i0 + int(np.argmax(np.abs(ks)))
        turn = float(-(line.th[min(i1, len(line.th) - 1)] - line.th[i0]))
        kmax = abs(float(line.k[j]))
        return Corner(
            s_start=float(line.s[i0]),
            s_end=float(line.s[min(i1, len(line.s) - 1)]),
            apex=float(line.s[j]),
            radius=1.0 / kmax if kmax > 1e-12 else math.inf,
            angle=abs(math.degrees(turn)),
            direction="left" if turn > 0 else "right",
            stops=stops,
            name=name,
        )

    out: list[Corner] = []
    if spec.corners is not None:
        for i, cs in enumerate(spec.corners):
            a, b = (cs.from_ - 1) * u, cs.to * u
            if cs.from_ > c.units_count or cs.to > c.units_count or cs.to < cs.from_:
                ctx.problem(
                    "corner",
                    f"corner {i} runs from unit {cs.from_} to {cs.to} on a lap of {c.units_count} units",
                    "give units within the lap, 'from' before 'to'",
                    ("corners", i),
                    where=f"corners[{i}]",
                )
                continue
            i0 = int(np.searchsorted(line.s, a))
            i1 = int(np.searchsorted(line.s, b))
            cr = make(i0, i1, cs.stops, cs.name)
            if cr:
                out.append(cr)
        return out
    thr = 1.0 / (CORNER_R * 2 * c.half_width)
    k = line.k[:-1]
    exact = spec.segments is not None
    for sign in (1, -1):
        mask = sign * k > thr
        for i0, i1 in _merge_runs(_runs(mask), gap=max(2, int(u / max(L / len(k), 1e-9)))):
            turn = abs(float(line.th[i1] - line.th[i0]))
            if turn >= CORNER_MIN_TURN:
                cr = make(i0, i1)
                if cr and exact:
                    # sample i carries the curvature of the piece ending there: the arcs (and their easing
                    # clothoids) of this corner turn from the sample before their first curved one to their last
                    # curved one, so a 90° arc measures 90° (the corner's extent stays as found)
                    j0, j1 = i0, i1
                    while j0 > 0 and sign * k[j0 - 1] > 0:
                        j0 -= 1
                    while j1 < len(k) and sign * k[j1] > 0:
                        j1 += 1
                    cr.angle = abs(math.degrees(float(line.th[j1 - 1] - line.th[max(j0 - 1, 0)])))
                if cr:
                    out.append(cr)
    out.sort(key=lambda cr: cr.s_start)
    return out


def _merge_runs(runs, gap: int):
    out: list[list[int]] = []
    for a, b in runs:
        if out and a - out[-1][1] <= gap:
            out[-1][1] = b
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _kerbs(ctx: _Ctx, c: Circuit) -> list[Kerb]:
    spec = ctx.spec
    if spec.kerbs == "none":
        return []
    if spec.kerbs == "auto":
        # on the inside of each corner, only where it actually bends that way
        line = c.line
        thr = 1.0 / (CORNER_R * 2 * c.half_width)
        out = []
        for cr in c.corners:
            sign = 1.0 if cr.direction == "left" else -1.0
            i0, i1 = int(np.searchsorted(line.s, cr.s_start)), int(np.searchsorted(line.s, cr.s_end))
            mask = sign * line.k[i0:i1] > thr
            for a, b in _runs(mask):
                s0, s1 = float(line.s[i0 + a]), float(line.s[min(i0 + b, len(line.s) - 1)])
                if s1 - s0 > 2.0 and _edge_length(c, s0, s1, sign * c.half_width) >= KERB_MIN:
                    out.append(Kerb(s0, s1, cr.direction))
        return out
    out = []
    for i, ks in enumerate(spec.kerbs):
        if ks.from_ > c.units_count or ks.to > c.units_count:
            ctx.problem(
                "kerb",
                f"kerb {i} runs to unit {max(ks.from_, ks.to)} on a lap of {c.units_count} units",
                "give units within the lap",
                ("kerbs", i),
                where=f"kerbs[{i}]",
            )
            continue
        a, b = c.unit_bounds(ks.from_)[0], c.unit_bounds(ks.to)[1]
        if b <= a:
            b += c.lap_length
        out.append(Kerb(a, b, ks.side))
    return out


def _edge_length(c: Circuit, s0: float, s1: float, d: float) -> float:
    return float(np.linalg.norm(np.diff(edge(c, s0, s1, d), axis=0), axis=1).sum())


def kerb_blocks(c: Circuit, kb: Kerb) -> list[tuple[float, float]]:
    """The red and white blocks of a kerb as arc-length ranges (red first and last, so an odd count >= 3).

    Blocks are of equal length measured along the track edge the kerb lies on (about KERB_BLOCK mm each), so
    they stay even through a clothoid where the edge's radius changes."""
    sign = 1.0 if kb.side == "left" else -1.0
    s = sample_s(c, kb.s0, kb.s1)
    pts = edge(c, kb.s0, kb.s1, sign * c.half_width)
    sig = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))))
    length = float(sig[-1])
    n = max(3, round(length / KERB_BLOCK))
    if n % 2 == 0:
        n = n + 1 if length / (n + 1) >= KERB_MIN_BLOCK else n - 1
    n = max(3, n)
    bounds = np.interp(np.linspace(0.0, length, n + 1), sig, s)
    bounds[0], bounds[-1] = kb.s0, kb.s1
    return [(float(a), float(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def _chunks(line: Line, step: int = 32):
    from shapely import LineString

    n = len(line.xy)
    out = []
    for a in range(0, n - 1, step):
        b = min(n - 1, a + step)
        out.append((a, b, LineString(line.xy[a : b + 1])))
    return out


def _crossings(ctx: _Ctx, c: Circuit) -> list[CrossingInfo]:
    from shapely import STRtree

    line = c.line
    L = line.length
    chunks = _chunks(line)
    geoms = [g for _, _, g in chunks]
    tree = STRtree(geoms)
    pairs = tree.query(geoms, predicate="intersects")
    found: list[tuple[float, float, tuple[float, float]]] = []
    nchunk = len(chunks)
    for i, j in zip(pairs[0], pairs[1], strict=True):
        if j <= i + 1 or (i == 0 and j == nchunk - 1):
            continue
        inter = geoms[i].intersection(geoms[j])
        pts = [inter] if inter.geom_type == "Point" else list(getattr(inter, "geoms", []))
        for p in pts:
            if p.geom_type != "Point":
                continue
            sa = float(line.s[chunks[i][0]] + geoms[i].project(p))
            sb = float(line.s[chunks[j][0]] + geoms[j].project(p))
            if any(abs(sa - fa) < 1 and abs(sb - fb) < 1 for fa, fb, _ in found):
                continue
            found.append((sa, sb, (p.x, p.y)))
    found.sort()
    declared = ctx.spec.crossings
    out = []
    clearance = 2 * c.half_width + 2 * KERB_W + GAP
    for n, (sa, sb, pt) in enumerate(found):
        ta, tb = line.heading(sa), line.heading(sb)
        ang = abs(math.degrees(math.atan2(math.sin(tb - ta), math.cos(tb - ta))))
        ang = min(ang, 180 - ang)
        if n >= len(declared):
            ctx.problem(
                "crossing",
                f"the track crosses itself at unit {c.unit_at(sa)} and unit {c.unit_at(sb)} "
                f"(at {pt[0]:.0f}, {pt[1]:.0f} mm on the page) with no crossing declared",
                "add an entry to 'crossings' (kind: bridge or tunnel) or move the track apart",
                ("crossings",),
                where=f"unit {c.unit_at(sa)} × unit {c.unit_at(sb)}",
                s=sa,
                unit=c.unit_at(sa),
                numbers={"angle_deg": ang},
            )
            continue
        d = declared[n]
        if ang < 30:
            ctx.problem(
                "crossing",
                f"crossing {n} meets at only {ang:.0f}°",
                "cross at 30° or more so both passes stay readable",
                ("crossings", n),
                where=f"crossings[{n}]",
                s=sa,
                unit=c.unit_at(sa),
                numbers={"angle_deg": ang},
            )
        su, sl = (sb, sa) if d.upper == "second" else (sa, sb)
        reach = (clearance / 2 + c.half_width) / max(math.sin(math.radians(max(ang, 10))), 0.17) + c.unit
        grid_len = math.ceil(ctx.spec.grid / c.lanes) * c.unit_length
        for s_pass in (sa, sb):
            if s_pass < reach + 3 * c.unit or L - s_pass < reach + grid_len + c.unit:
                ctx.problem(
                    "crossing",
                    f"the start line or the grid lies at crossing {n} (unit {c.unit_at(s_pass)})",
                    "move the start ('start.at') away from the crossing",
                    ("start",),
                    where=f"crossings[{n}]",
                    s=s_pass,
                    unit=c.unit_at(s_pass),
                )
                break
        out.append(CrossingInfo(d.kind, su, sl, pt, ang, min(reach, L / 4)))
    for n in range(len(found), len(declared)):
        ctx.problem(
            "crossing",
            f"crossing {n} is declared but the track crosses itself only {len(found)} time(s)",
            "remove the extra entry from 'crossings'",
            ("crossings", n),
            where=f"crossings[{n}]",
        )
    return out


def _cyc(a, b, L):
    d = np.abs(a - b) % L
    return np.minimum(d, L - d)


def _check_proximity(ctx: _Ctx, c: Circuit) -> None:
    from shapely import STRtree, points

    line = c.line
    L = line.length
    clearance = 2 * c.half_width + 2 * KERB_W + GAP
    step = max(1, int(len(line.s) / max(L / 2.0, 1)))  # ~2 mm
    idx = np.arange(0, len(line.s) - 1, step)
    xy = line.xy[idx]
    s = line.s[idx]
    tree = STRtree(points(xy))
    a, b = tree.query(points(xy), predicate="dwithin", distance=clearance - 1e-6)
    keep = a < b
    a, b = a[keep], b[keep]
    ds = _cyc(s[a], s[b], L)
    keep = ds > clearance * math.pi / 2
    a, b = a[keep], b[keep]
    if len(a) == 0:
        return
    sa, sb = s[a], s[b]
    ok = np.zeros(len(a), bool)
    for cr in c.crossings:
        for p, q in ((cr.s_upper, cr.s_lower), (cr.s_lower, cr.s_upper)):
            ok |= (_cyc(sa, p, L) < cr.reach) & (_cyc(sb, q, L) < cr.reach)
    a, b = a[~ok], b[~ok]
    if len(a) == 0:
        return
    dist = np.hypot(*(xy[a] - xy[b]).T)
    # group into places: by the first pass's unit, then nearby second-pass units
    u = c.unit_length
    ua = (s[a] // u).astype(int)
    ub = (s[b] // u).astype(int)
    order = np.lexsort((ub, ua))
    groups: list[list[int]] = []
    for k in order:
        for g in groups:
            if abs(ua[k] - ua[g[-1]]) <= 4 and abs(ub[k] - ub[g[-1]]) <= 4:
                g.append(k)
                break
        else:
            groups.append([k])
    # one place per pair of unit ranges; ranges that overlap (a hairpin folding onto itself) are one place
    places: list[list] = []  # [a0, a1, b0, b1, members]
    for g in groups:
        rec = [int(ua[g].min()) + 1, int(ua[g].max()) + 1, int(ub[g].min()) + 1, int(ub[g].max()) + 1, list(g)]
        merged = True
        while merged:
            merged = False
            for p in places:
                if rec[0] <= p[1] + 1 and p[0] <= rec[1] + 1 and rec[2] <= p[3] + 1 and p[2] <= rec[3] + 1:
                    places.remove(p)
                    rec = [min(rec[0], p[0]), max(rec[1], p[1]), min(rec[2], p[2]), max(rec[3], p[3]), rec[4] + p[4]]
                    merged = True
                    break
        places.append(rec)
    places.sort(key=lambda p: (p[0], p[2]))
    hint = "move these parts apart, or declare a crossing if they cross"
    if ctx.spec.segments is None:
        hint = _points_hint(ctx.spec, c).replace("smooth", "move these parts apart: smooth", 1)
    for a0, a1, b0, b1, g in places:
        g = np.array(g)
        k = g[np.argmin(dist[g])]
        need = (
            f"they need {clearance:.0f} mm (track width {2 * c.half_width:.0f} + kerbs {2 * KERB_W:.0f} + {GAP:.0f} mm)"
        )
        if b0 <= a1 + 1:  # the two passes overlap: one stretch of track doubling back on itself
            where = _units(a0, max(a1, b1))
            msg = f"the track at {where} comes within {dist[k]:.1f} mm of itself (centre lines); {need}"
        else:
            wa, wb = _units(a0, a1), _units(b0, b1)
            where = f"{wa} ↔ {wb}"
            verb = "comes" if a0 == a1 else "come"
            msg = f"{wa} {verb} within {dist[k]:.1f} mm of {wb} (centre lines); {need}"
        ctx.problem(
            "proximity",
            msg,
            hint,
            where=where,
            s=float(s[a[k]]),
            unit=int(a0),
            numbers={"distance_mm": float(dist[k]), "needed_mm": clearance},
        )


def _pit(ctx: _Ctx, c: Circuit) -> PitLane | None:
    from shapely import Polygon as SPoly
    from shapely import box

    spec = ctx.spec.pit
    u = c.unit_length
    L = c.lap_length
    if spec.from_ > c.units_count or spec.to > c.units_count:
        ctx.problem(
            "pit",
            f"the pit lane runs from unit {spec.from_} to {spec.to} on a lap of {c.units_count} units",
            "give units within the lap",
            ("pit",),
            where="pit",
        )
        return None
    s0 = (spec.from_ - 1) * u
    s1 = spec.to * u
    if s1 <= s0:
        s1 += L
    span = s1 - s0
    if span < 4 * u or span > L / 2:
        ctx.problem(
            "pit",
            f"the pit lane is {span / u:.0f} units long",
            "make it between 4 units and half the lap long",
            ("pit",),
            where="pit",
        )
        return None
    taper = min(1.5 * u, span / 4)
    pit = PitLane(spec.side, s0, s1, taper, c.lane_width, spec.garages, (), [], spec.min_roll)
    sign = 1.0 if spec.side == "left" else -1.0
    line = c.line
    n = max(8, int(span / 1.0))
    s = np.linspace(s0, s1, n + 1)
    inner, outer = pit.offsets(s, c.half_width)
    p = line.point(s)
    th = line.heading(s)
    nrm = np.column_stack((np.sin(th), -np.cos(th))) * sign
    ptin = p + nrm * inner[:, None]
    ptout = p + nrm * outer[:, None]
    poly = np.vstack((ptin, ptout[::-1]))
    pit.polygon = tuple(map(tuple, np.round(poly, 4)))
    # a pit lane on the inside of a bend folds if the bend is tighter than its outer edge
    kside = line.curvature(s) * sign
    folded = kside * (outer + GARAGE_D) >= 1
    if folded.any():
        j = int(np.argmax(kside))
        ctx.problem(
            "pit",
            f"the pit lane folds on the inside of the bend at unit {c.unit_at(s[j])} (radius {1 / kside[j]:.0f} mm)",
            "put the pit lane on the other side or along a straight",
            ("pit",),
            where=f"unit {c.unit_at(s[j])}",
            s=float(s[j]),
            unit=c.unit_at(s[j]),
        )
    # garages along the outer edge of the full-width part
    g0, g1 = s0 + taper, s1 - taper
    if spec.garages:
        w = (g1 - g0) / spec.garages
        for i in range(spec.garages):
            a, b = g0 + i * w + 0.6, g0 + (i + 1) * w - 0.6
            ss = np.linspace(a, b, max(2, int((b - a) / 2)))
            pp = line.point(ss)
            tt = line.heading(ss)
            nn = np.column_stack((np.sin(tt), -np.cos(tt))) * sign
            o = c.half_width + PIT_GAP + c.lane_width
            ring = np.vstack((pp + nn * o, (pp + nn * (o + GARAGE_D))[::-1]))
            mid = line.point((a + b) / 2)
            tm = float(line.heading((a + b) / 2))
            nm = np.array([math.sin(tm), -math.cos(tm)]) * sign
            centre = mid + nm * (o + GARAGE_D / 2)
            pit.garage_boxes.append((tuple(map(tuple, np.round(ring, 4))), (float(centre[0]), float(centre[1]))))
        if w < 6:
            ctx.problem(
                "pit",
                f"{spec.garages} garages leave {w:.1f} mm each",
                "use fewer garages or a longer pit lane",
                ("pit", "garages"),
                where="pit.garages",
            )
    # overlap with the racing surface elsewhere, and the paper
    shape = SPoly(poly).buffer(0)
    surface = racing_surface(c, exclude=(s0 - taper, s1 + taper))
    if surface is not None and shape.intersects(surface):
        inter = shape.intersection(surface)
        if inter.area > 1.0:
            cx, cy = inter.centroid.x, inter.centroid.y
            ctx.problem(
                "pit",
                f"the pit lane overlaps the track near ({cx:.0f}, {cy:.0f}) mm ({inter.area:.0f} mm²)",
                "move the pit lane to the other side or to another straight",
                ("pit",),
                where="pit",
                numbers={"overlap_mm2": float(inter.area)},
            )
    x, y, W, H = _content(c.paper, c.edge)
    full = shape
    if pit.garage_boxes:
        from shapely import union_all

        full = union_all([shape] + [SPoly(r) for r, _ in pit.garage_boxes])
    if not ctx.unfit and not box(x, y, x + W, y + H).contains(full):
        ctx.problem(
            "pit",
            "the pit lane or its garages leave the printable area",
            "put the pit lane on the other side or along another straight",
            ("pit", "side"),
            where="pit",
        )
    return pit


def racing_surface(c: Circuit, exclude: tuple[float, float] | None = None):
    """The track surface as one shapely geometry (optionally leaving out arc lengths ``exclude``)."""
    from shapely import Polygon as SPoly
    from shapely import union_all

    L = c.lap_length
    n = max(8, int(L / (c.unit * 2)))
    bounds = np.linspace(0, L, n + 1)
    polys = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        if exclude is not None:
            e0, e1 = exclude
            mid = (a + b) / 2
            if any(e0 - c.unit <= mid + k * L <= e1 + c.unit for k in (-1, 0, 1)):
                continue
        polys.append(SPoly(strip(c, a, b, c.half_width, -c.half_width)))
    return union_all(polys) if polys else None


def sample_s(c: Circuit, s0: float, s1: float) -> np.ndarray:
    """s0, every centre-line sample strictly between, s1 (s may run past the lap length: it wraps)."""
    L = c.lap_length
    ss = c.line.s
    parts = [np.array([s0])]
    k0 = math.floor(s0 / L)
    for k in range(k0, math.floor(s1 / L) + 1):
        seg = ss[:-1] + k * L
        parts.append(seg[(seg > s0 + 1e-9) & (seg < s1 - 1e-9)])
    parts.append(np.array([s1]))
    return np.concatenate(parts)


def strip(c: Circuit, s0: float, s1: float, d_left: float, d_right: float) -> np.ndarray:
    """Outline of the band between offsets ``d_left`` and ``d_right`` (left positive) from s0 to s1."""
    s = sample_s(c, s0, s1)
    p = c.line.point(s)
    th = c.line.heading(s)
    nrm = np.column_stack((np.sin(th), -np.cos(th)))
    left = p + nrm * d_left
    right = p + nrm * d_right
    return np.vstack((left, right[::-1]))


def edge(c: Circuit, s0: float, s1: float, d: float) -> np.ndarray:
    s = sample_s(c, s0, s1)
    p = c.line.point(s)
    th = c.line.heading(s)
    return p + np.column_stack((np.sin(th), -np.cos(th))) * d


def lane_graph(c: Circuit) -> LaneGraph:
    """Per-lane spaces: each lane cut into equal spaces of about one unit along its own centre."""
    line = c.line
    g = LaneGraph(lanes=c.lanes, lap_length=c.lap_length)
    per_lane: list[list[tuple[float, float, float]]] = []
    for lane in range(c.lanes):
        d = c.lane_offset(lane)
        pts = line.offset(d)
        sig = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))))
        Li = float(sig[-1])
        n = max(1, round(Li / c.unit))
        bounds_sig = np.arange(n + 1) * Li / n
        bounds_s = np.interp(bounds_sig, sig, line.s)
        per_lane.append([(float(bounds_s[j]), float(bounds_s[j + 1]), Li / n) for j in range(n)])
    first_id = []
    nid = 0
    for spaces in per_lane:
        first_id.append(nid)
        nid += len(spaces)
    for lane, spaces in enumerate(per_lane):
        d = c.lane_offset(lane)
        hw = c.lane_width / 2
        n = len(spaces)
        for j, (s0, s1, length) in enumerate(spaces):
            poly = strip(c, s0, s1, d + hw, d - hw)
            sm = (s0 + s1) / 2
            ctr = c.offset_point(sm, d)
            diag = []
            for other in (lane - 1, lane + 1):
                if 0 <= other < c.lanes:
                    diag.append(first_id[other] + _containing(per_lane[other], s1, c.lap_length))
            g.spaces.append(
                Space(
                    id=first_id[lane] + j,
                    lane=lane,
                    index=j,
                    s0=s0,
                    s1=s1,
                    length=length,
                    polygon=tuple(map(tuple, np.round(poly, 4))),
                    center=(round(ctr[0], 4), round(ctr[1], 4)),
                    ahead=first_id[lane] + (j + 1) % n,
                    diagonal=tuple(diag),
                )
            )
    # spaces under a tunnel
    if c.crossings:
        from dataclasses import replace

        from shapely import Polygon as SPoly

        hidden_ids = set()
        for cr in c.crossings:
            if cr.kind != "tunnel":
                continue
            cover = SPoly(strip(c, cr.s_upper - cr.reach, cr.s_upper + cr.reach, c.half_width, -c.half_width))
            for sp in g.spaces:
                if _cyc(np.array((sp.s0 + sp.s1) / 2), cr.s_lower, c.lap_length) > cr.reach + c.unit:
                    continue
                poly = SPoly(sp.polygon)
                if poly.intersection(cover).area > 0.15 * poly.area:
                    hidden_ids.add(sp.id)
        g.spaces = [replace(sp, hidden=sp.id in hidden_ids) for sp in g.spaces]
    return g


def _containing(spaces, s: float, L: float) -> int:
    s = s % L
    for j, (a, b, _) in enumerate(spaces):
        if a - 1e-6 <= s < b - 1e-6:
            return j
    for j, (a, _, _) in enumerate(spaces):
        if a >= s:
            return j
    return 0


def hidden_units(c: Circuit) -> list[int]:
    """Across mode: 1-based units covered by a tunnel's upper pass."""
    out = []
    for cr in c.crossings:
        if cr.kind != "tunnel":
            continue
        for u in range(1, c.units_count + 1):
            a, b = c.unit_bounds(u)
            mid = (a + b) / 2
            if _cyc(np.array(mid), cr.s_lower, c.lap_length) < c.half_width + c.unit_length / 2:
                out.append(u)
    return sorted(set(out))


def _check_positions(ctx: _Ctx, c: Circuit) -> None:
    spec = ctx.spec
    for i, d in enumerate(spec.danger):
        if d.unit > c.units_count:
            ctx.problem(
                "danger",
                f"danger space at unit {d.unit} on a lap of {c.units_count} units",
                "give a unit within the lap",
                ("danger", i, "unit"),
                where=f"danger[{i}]",
            )
    if spec.police_line is not None and spec.police_line > c.units_count:
        ctx.problem(
            "police",
            f"police line at unit {spec.police_line} on a lap of {c.units_count} units",
            "give a unit within the lap",
            ("police_line",),
            where="police_line",
        )
    if spec.grid:
        rows = math.ceil(spec.grid / c.lanes)
        if rows > c.units_count // 3:
            ctx.problem(
                "grid",
                f"{spec.grid} grid slots need {rows} units behind the line, a third of the lap is {c.units_count // 3}",
                "use fewer grid slots",
                ("grid",),
                where="grid",
            )
