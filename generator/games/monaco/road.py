"""The *Monaco!* road: a circuit's centre line at toy-car scale, widened to 'double' or 'quadruple' road with the
wider pit area, and checked for what stops it being cut from paper and raced on.

The circuit comes from the shared circuit engine (:mod:`generator.track`, read only): its centre line, measured
from the start line in the race direction, its kerbs, corners, crossings and pit. Paddock scales that line to the
lap length asked for (or keeps the spec's proportions: its track width becomes the road's width), then offsets it
by half the road's width on either side. Everything here is millimetres on the floor; the road's own numbers are
inches in ``templates/monaco/road.yaml``, turned into millimetres once, in :func:`road_numbers`.

``s`` is arc length (mm) along the road's centre line from the start/finish line in the race direction; offsets
are positive to the left of the race direction, as in the circuit engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

import numpy as np

from ...errors import InputError
from ...problems import Problem, geometry_error
from ...units import MM_PER_INCH, inch_to_mm
from .facts import feet_inches, road

WIDTHS = ("double", "quadruple")


@dataclass(frozen=True)
class RoadNumbers:
    """The road's sizes in mm, from road.yaml (inches) and the options."""

    lanes: int
    lane_w: float
    car_len: float
    car_w: float
    min_inner_r: float
    min_gap: float
    pit_lanes: int
    pit_len: float
    pit_taper: float
    box_gap: float
    grid_gap: float

    @property
    def half(self) -> float:
        return self.lanes * self.lane_w / 2

    @property
    def width(self) -> float:
        return self.lanes * self.lane_w


def road_numbers(width: str = "double", lane_width_in: float | None = None, car_length_in: float | None = None):
    from .facts import rules

    r = road()
    if width not in r.widths.names():
        raise InputError(f"unknown road width '{str(width)[:20]}'", field="--width", hint="use double or quadruple")
    return RoadNumbers(
        lanes=r.widths.lanes(width),
        lane_w=inch_to_mm(lane_width_in or r.lane_width_in),
        car_len=inch_to_mm(car_length_in or r.car.length_in),
        car_w=inch_to_mm(r.car.width_in),
        min_inner_r=inch_to_mm(r.min_inner_radius_in),
        min_gap=inch_to_mm(r.min_gap_in),
        pit_lanes=r.pit.lanes,
        pit_len=inch_to_mm(r.pit.length_in),
        pit_taper=inch_to_mm(r.pit.taper_in),
        box_gap=inch_to_mm(r.pit.box_gap_in),
        grid_gap=inch_to_mm(rules().grid_spacing_in),
    )


@dataclass
class PitArea:
    """The wider part of the road where cars stop: a pit lane beside the road on ``side`` from ``s0`` to ``s1``
    (``s1`` may pass the lap length: it wraps), ramping in and out over ``taper``."""

    side: str
    s0: float
    s1: float
    taper: float
    width: float
    boxes: list[tuple[float, float]] = field(default_factory=list)  # (s from, s to) of each pit box

    @property
    def sign(self) -> float:
        return 1.0 if self.side == "left" else -1.0


@dataclass
class Mark:
    """A kerb or a corner along the road (toy mm)."""

    s0: float
    s1: float
    side: Literal["left", "right"]  # the inside of the bend
    angle: float = 0.0  # corners: how far the road turns, degrees
    apex: float = 0.0


@dataclass
class Road:
    name: str
    source: Path | None
    width_name: str
    n: RoadNumbers
    line: object  # generator.track Line at toy scale (mm)
    scale: float  # floor mm per mm of the circuit as the engine placed it
    board: object  # the circuit (its units name places for the spec's author)
    pit: PitArea | None
    kerbs: list[Mark]
    corners: list[Mark]
    crossings: list[tuple[float, float, float]]  # (s upper, s lower, reach)
    grid: list[tuple[float, float]]  # (nose, tail) of each grid slot, pole first; negative: before the line
    closed: bool = True  # a loop (a circuit); the modular set's pieces are open
    start_at: float | None = 0.0  # where the start/finish line is (None: this road has none)
    _cuts: dict = field(default_factory=dict, repr=False)

    @property
    def lap(self) -> float:
        return self.line.length

    @property
    def lap_in(self) -> float:
        return self.lap / MM_PER_INCH

    @property
    def half(self) -> float:
        return self.n.half

    # --- the band ---
    def pit_extra(self, s) -> np.ndarray:
        """How far the pit area widens the road on its side at ``s`` (0 … pit width, smooth ramps)."""
        s = np.asarray(s, dtype=float)
        p = self.pit
        if p is None:
            return np.zeros_like(s)
        u = np.mod(s - p.s0, self.lap)
        span = p.s1 - p.s0
        a = np.clip(u / p.taper, 0, 1)
        b = np.clip((span - u) / p.taper, 0, 1)
        f = np.where(u <= span, np.minimum(a, b), 0.0)
        return p.width * f * f * (3 - 2 * f)

    def offsets(self, s) -> tuple[np.ndarray, np.ndarray]:
        """Left and right edge at ``s`` as signed offsets from the centre line (left positive)."""
        s = np.asarray(s, dtype=float)
        extra = self.pit_extra(s)
        left = np.full_like(s, self.half)
        right = np.full_like(s, -self.half)
        if self.pit is not None:
            if self.pit.side == "left":
                left = left + extra
            else:
                right = right - extra
        return left, right

    def samples(self, s0: float, s1: float) -> np.ndarray:
        """``s0``, every centre-line sample strictly between, ``s1`` (may run past the lap: wraps)."""
        return np.concatenate(([s0], self._between(s0, s1)[1], [s1]))

    def _between(self, s0: float, s1: float) -> tuple[np.ndarray, np.ndarray]:
        """Indices and positions of the centre-line samples strictly between ``s0`` and ``s1``."""
        L = self.lap
        ss = self.line.s[:-1]
        idx, pos = [], []
        for k in range(math.floor(s0 / L), math.floor(s1 / L) + 1):
            lo = int(np.searchsorted(ss, s0 - k * L + 1e-6, side="left"))
            hi = int(np.searchsorted(ss, s1 - k * L - 1e-6, side="right"))
            if hi > lo:
                idx.append(np.arange(lo, hi))
                pos.append(ss[lo:hi] + k * L)
        if not idx:
            return np.zeros(0, int), np.zeros(0)
        return np.concatenate(idx), np.concatenate(pos)

    @cached_property
    def _edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Left and right edge points at every centre-line sample (computed once)."""
        s = self.line.s[:-1]
        left, right = self.offsets(s)
        return self.at(s, left), self.at(s, right)

    def at(self, s, d) -> np.ndarray:
        """Points ``d`` mm left of the centre line at ``s``."""
        s = np.asarray(s, dtype=float)
        p = self.line.point(s)
        th = self.line.heading(s)
        d = np.asarray(d, dtype=float)
        return p + np.stack((np.sin(th), -np.cos(th)), axis=-1) * (d[..., None] if d.ndim else d)

    def heading(self, s) -> float:
        return float(self.line.heading(s))

    def cut(self, s: float) -> tuple[np.ndarray, np.ndarray]:
        """The cut across the road at ``s``: (right end, left end). Both pieces either side use these points."""
        key = round(float(s), 9)
        hit = self._cuts.get(key)
        if hit is None:
            left, right = self.offsets(np.array([s]))
            hit = self._cuts[key] = (self.at(s, right[0]), self.at(s, left[0]))
        return hit

    def outline(self, s0: float, s1: float) -> np.ndarray:
        """The piece of road from ``s0`` to ``s1``: left edge forward, then right edge back (a closed ring)."""
        idx, _ = self._between(s0, s1)
        lp, rp = self._edges
        r0, l0 = self.cut(s0)
        r1, l1 = self.cut(s1)
        return np.vstack(([l0], lp[idx], [l1], [r1], rp[idx][::-1], [r0]))

    def edge(self, s0: float, s1: float, d) -> np.ndarray:
        """A line ``d`` mm left of the centre (a number, or ``"left"`` / ``"right"`` for an edge, or a callable
        of the edge offsets) from ``s0`` to ``s1``."""
        s = self.samples(s0, s1)
        if callable(d):
            d = d(*self.offsets(s))
        return self.at(s, d)

    # --- numbers for people ---
    def where(self, s0: float, s1: float | None = None) -> str:
        """A place along the road for a message: inches from the start line and the circuit spec's units."""
        if self.board is None:
            return f"{self.name}, {s0 / MM_PER_INCH:.0f} in from its end"
        s0 = s0 % self.lap
        s1 = s0 if s1 is None else s1 % self.lap
        a, b = s0 / MM_PER_INCH, s1 / MM_PER_INCH
        u0 = self.board.unit_at(s0 / self.scale)
        u1 = self.board.unit_at(s1 / self.scale)
        inch = f"{a:.0f} in" if abs(b - a) < 1 else f"{a:.0f}–{b:.0f} in"
        unit = f"unit {u0}" if u0 == u1 else f"units {u0}–{u1}"
        return f"{inch} from the start line (spec {unit})"


# ------------------------------------------------------------------------------------------------ building


def load_circuit(path: str | Path, overrides: dict | None = None):
    """The circuit as the engine lays it out on its own paper. Problems that belong to the board (folds, parts too
    close, fit at the board's 2 cm lanes) are not the road's: the road is checked at its own scale. Problems of
    the centre line itself (it does not close, crosses itself undeclared) are."""
    from ... import track
    from ...games import board_notes

    spec, lines, path = track.load_spec(path, overrides)
    # the road has rules of its own: the board's are not applied (nor its fixes tried), its game's notes still said
    done = track.analyse(spec, path, lines, advice=False, keep_shape=False, notes=board_notes)
    circuit, problems = done.circuit, done.problems
    own = [p for p in problems if p.kind in ("closure", "turning", "crossing")]
    if circuit is None or own:
        raise geometry_error(own or problems, path)
    return circuit


def default_lap(circuit, n: RoadNumbers) -> float:
    """The lap (mm) that keeps the spec's proportions: the board's track becomes the road."""
    return circuit.lap_length * n.width / (circuit.lanes * circuit.lane_width)


def build_road(
    circuit,
    width: str = "double",
    lap_in: float | None = None,
    lane_width_in: float | None = None,
    car_length_in: float | None = None,
    grid: int | None = None,
    check: bool = True,
) -> Road:
    """The road of ``circuit`` (a :class:`generator.track.Circuit`); raises a located :class:`GeometryError` when
    the road folds, two parts come too close, or the grid or pit does not fit the lap."""
    from .facts import within_budget

    n = road_numbers(width, lane_width_in, car_length_in)
    lap = inch_to_mm(lap_in) if lap_in else default_lap(circuit, n)
    if not lap_in:  # the spec's own proportions: within the lap's budget too
        at = lap / MM_PER_INCH
        within_budget(at, "--lap", given=f"at the spec's own proportions the lap is {at:.6g} in")
    road_ = _assemble(circuit, width, n, lap, grid)
    if check:
        problems = check_road(road_)
        if problems:
            err = geometry_error(problems, circuit.source)
            err.hint = _lap_hint(circuit, width, n, lap, grid, problems)
            raise err
    return road_


def _assemble(circuit, width: str, n: RoadNumbers, lap: float, grid: int | None) -> Road:
    f = lap / circuit.lap_length
    line = circuit.line.transformed(0.0, f)
    L = line.length
    kerbs = [Mark(k.s0 * f, k.s1 * f, k.side) for k in circuit.kerbs]
    corners = [Mark(c.s_start * f, c.s_end * f, c.direction, c.angle, c.apex * f) for c in circuit.corners]
    crossings = [(c.s_upper * f, c.s_lower * f, c.reach * f) for c in circuit.crossings]
    slots = grid if grid is not None else road().grid_slots
    pitch = n.car_len + n.grid_gap
    grid_marks = [(-k * pitch, -k * pitch - n.car_len) for k in range(slots)]
    road_ = Road(
        name=circuit.name,
        source=circuit.source,
        width_name=width,
        n=n,
        line=line,
        scale=f,
        board=circuit,
        pit=None,
        kerbs=kerbs,
        corners=corners,
        crossings=crossings,
        grid=grid_marks,
    )
    road_.pit = _pit_area(circuit, road_, L)
    return road_


def _pit_area(circuit, road_: Road, L: float) -> PitArea:
    """The spec's pit (its units scaled to the road) or, without one, a pit area on the outside of the loop along
    the straightest stretch: the one through the start line (ending just past it) when it is long enough, else
    the longest."""
    n = road_.n
    spec = circuit.spec.pit
    if spec is not None:
        u = circuit.unit_length * road_.scale
        s0 = (spec.from_ - 1) * u
        s1 = spec.to * u
        if s1 <= s0:
            s1 += L
        side = spec.side
    else:
        s0, s1, side = _default_pit(road_, min(n.pit_len, L / 4))
    span = s1 - s0
    taper = min(n.pit_taper, span / 4)
    pit = PitArea(side, s0, s1, taper, n.pit_lanes * n.lane_w)
    # pit boxes: one car long each, along the full-width part
    a, b = s0 + taper, s1 - taper
    step = n.car_len + n.box_gap
    count = int((b - a + n.box_gap) // step)
    if count > 0:
        start = a + (b - a - (count * step - n.box_gap)) / 2
        pit.boxes = [(start + i * step, start + i * step + n.car_len) for i in range(count)]
    return pit


def _default_pit(r: Road, length: float) -> tuple[float, float, str]:
    """Where a pit area of ``length`` goes when the spec has none: ``(s0, s1, side)``. It ends a quarter of its
    length past the start line if it can; else it moves back along the lap an inch at a time until its side of the
    road (the outside of the loop first) bends nowhere too tightly for the pit lane."""
    line = r.line
    loop_outside = "right" if line.turning > 0 else "left"
    need = r.half + r.n.pit_lanes * r.n.lane_w + r.n.min_inner_r
    step = MM_PER_INCH
    s1 = 0.25 * length
    while s1 > 0.25 * length - r.lap:
        s = r.samples(s1 - length, s1)
        k = line.curvature(s)
        # the outside of the bends here first (on a figure-eight the loop has no outside), then the other side
        bend = float(np.mean(k))
        outside = loop_outside if abs(bend) * r.lap < 1.0 else ("right" if bend > 0 else "left")
        for side in (outside, "left" if outside == "right" else "right"):
            sign = 1.0 if side == "left" else -1.0
            if np.all(k * sign * need < 1.0):
                return s1 - length, s1, side
        s1 -= step
    return -0.75 * length, 0.25 * length, loop_outside


# ------------------------------------------------------------------------------------------------ checking


#: A road problem's number: how many times longer the lap must be to cure it (inf: a longer lap does not).
LAP_TIMES = "lap_times"


def _cyc(a, b, L):
    d = np.abs(a - b) % L
    return np.minimum(d, L - d)


def check_road(r: Road) -> list[Problem]:
    """Every reason the road cannot be cut and raced: folds, parts too close, a grid or pit that does not fit."""
    out: list[Problem] = []
    out += _check_fold(r)
    out += _check_proximity(r)
    out += _check_grid_and_pit(r)
    return out


def _check_fold(r: Road) -> list[Problem]:
    from ...track.centerline import runs

    line = r.line
    s = line.s[:-1]
    k = line.k[:-1]
    left, right = r.offsets(s)
    inner = np.where(k > 0, left, -right)  # the edge on the inside of the bend
    need = inner + r.n.min_inner_r
    bad = np.abs(k) * need > 1.0
    out = []
    bends: list[list[int]] = []
    for i0, i1 in runs(bad):  # one place per bend: runs closer than the road's width are one
        if bends and s[i0] - s[bends[-1][1] - 1] < r.n.width:
            bends[-1][1] = i1
        else:
            bends.append([i0, i1])
    for i0, i1 in bends:
        j = i0 + int(np.argmax(np.abs(k[i0:i1]) * need[i0:i1]))
        radius = 1 / abs(k[j])
        side = "left" if k[j] > 0 else "right"
        what = "the pit area's" if inner[j] > r.half + 1e-6 else "the road's"
        why = (
            f"{inner[j] / MM_PER_INCH:.1f} in of road and pit lane on that side"
            if inner[j] > r.half + 1e-6
            else f"half its {r.n.width / MM_PER_INCH:g} in width"
        )
        radius_in = math.floor(radius / MM_PER_INCH * 10) / 10
        out.append(
            Problem(
                "fold",
                f"{what} inner ({side}) edge folds: the centre line turns on a {radius_in:.1f} in radius, under the "
                f"{need[j] / MM_PER_INCH:.1f} in it needs ({why} plus {r.n.min_inner_r / MM_PER_INCH:g} in)",
                _bend_hint(r),
                where=r.where(float(s[i0]), float(s[i1 - 1])),
                numbers={LAP_TIMES: need[j] / radius},
            )
        )
    return out


def _bend_hint(r: Road) -> str:
    spec = getattr(r.board, "spec", None)
    if spec is not None and spec.segments is None:
        return "smooth the centre line more (--smoothing)"
    return "widen the bend in the spec"


def _check_proximity(r: Road) -> list[Problem]:
    from shapely import STRtree, linestrings

    L = r.lap
    step = 4.0
    s = np.linspace(0, L, max(64, int(L / step)), endpoint=False)
    left, right = r.offsets(s)
    a_pts, b_pts = r.at(s, right), r.at(s, left)
    segs = linestrings(np.stack((a_pts, b_pts), axis=1))
    tree = STRtree(segs)
    gap = r.n.min_gap
    ia, ib = tree.query(segs, predicate="dwithin", distance=gap - 1e-6)
    keep = ia < ib
    ia, ib = ia[keep], ib[keep]
    width = left - right
    window = (np.maximum(width[ia], width[ib]) + gap) * math.pi / 2
    keep = _cyc(s[ia], s[ib], L) > window
    ia, ib = ia[keep], ib[keep]
    ok = np.zeros(len(ia), bool)
    for su, sl, reach in r.crossings:
        for p, q in ((su, sl), (sl, su)):
            ok |= (_cyc(s[ia], p, L) < reach) & (_cyc(s[ib], q, L) < reach)
    ia, ib = ia[~ok], ib[~ok]
    if len(ia) == 0:
        return []
    from shapely import distance

    dist = distance(segs[ia], segs[ib])
    centre = np.hypot(*(r.line.point(s[ia]) - r.line.point(s[ib])).T)
    # group into places: nearby first passes with nearby second passes
    groups: list[list[int]] = []
    near = 4 * r.n.lane_w
    for k in np.lexsort((s[ib], s[ia])):
        for g in groups:
            last = g[-1]
            if _cyc(s[ia[k]], s[ia[last]], L) < near and _cyc(s[ib[k]], s[ib[last]], L) < near:
                g.append(k)
                break
        else:
            groups.append([k])
    out = []
    for g in groups:
        g = np.array(g)
        k = g[np.argmin(dist[g])]
        wa = r.where(float(s[ia[g]].min()), float(s[ia[g]].max()))
        wb = r.where(float(s[ib[g]].min()), float(s[ib[g]].max()))
        extents = centre[k] - dist[k]
        cure = (extents + gap) / centre[k] if centre[k] > 1e-6 else math.inf
        out.append(
            Problem(
                "proximity",
                (
                    f"the road overlaps itself at {wb}"
                    if dist[k] < 1.0
                    else f"the road comes within {dist[k] / MM_PER_INCH:.1f} in of itself at {wb}"
                )
                + f"; parts of the road need {gap / MM_PER_INCH:g} in between them (the collision distance)",
                "move these parts apart in the spec",
                where=wa,
                numbers={LAP_TIMES: cure},
            )
        )
    return out


def _check_grid_and_pit(r: Road) -> list[Problem]:
    out = []
    if r.grid:
        length = -r.grid[-1][1]
        if length > r.lap / 2:
            out.append(
                Problem(
                    "grid",
                    f"{len(r.grid)} grid slots need {length / MM_PER_INCH:.0f} in behind the start line, more than "
                    f"half the {r.lap_in:.0f} in lap",
                    "print fewer slots (--grid) or use a longer lap",
                    where="grid",
                    numbers={LAP_TIMES: length / (r.lap / 2)},
                )
            )
    p = r.pit
    if p is not None and not p.boxes:
        need = r.n.car_len + 2 * p.taper
        out.append(
            Problem(
                "pit",
                f"the pit area is {(p.s1 - p.s0) / MM_PER_INCH:.0f} in long: no room for one car between its ramps",
                "lengthen the pit in the spec (pit: from/to)",
                where=r.where(p.s0, p.s1),
                numbers={LAP_TIMES: need / (p.s1 - p.s0)},
            )
        )
    return out


def _lap_hint(circuit, width, n: RoadNumbers, lap: float, grid, problems) -> str:
    """The shortest lap (to the half foot) at which the road builds, when a longer lap cures it; for a centre line
    given as points or a CSV, also the smoothing that widens its bends."""
    spec = circuit.spec
    bend = "widen the bends in the spec"
    if spec.segments is None:
        more = max(60.0, round(spec.smoothing * 2 / 10) * 10)
        bend = f"smooth the centre line more (--smoothing {more:g}; now {spec.smoothing:g})"
    need = [p.numbers[LAP_TIMES] for p in problems]
    if any(not math.isfinite(x) or x > 20 for x in need):
        return f"move the parts apart or {bend}, or use a narrower road (--lane-width)"
    factor = max(need) * 1.02
    half_foot = 6 * MM_PER_INCH
    longest = inch_to_mm(road().budget.lap_in.max)
    for _ in range(6):
        trial = math.ceil(lap * factor / half_foot) * half_foot
        if trial > longest:  # past the lap's budget: no lap Paddock builds cures it
            break
        if not check_road(_assemble(circuit, width, n, trial, grid)):
            return (
                f"a lap of {feet_inches(trial / MM_PER_INCH)} or more builds (--lap {trial / MM_PER_INCH / 12:g}ft); "
                f"or {bend}, or use a narrower road (--lane-width)"
            )
        factor *= 1.15
    return f"{bend} or move the parts apart, or use a narrower road (--lane-width)"
