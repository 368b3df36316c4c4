"""What lies along a placed centre line: corners, kerbs, the pit lane and its garages, crossings, the grid and
the danger spaces.

Each function builds one feature from the spec and the circuit's centre line. A feature the spec places outside
the lap (a kerb to unit 60 on a lap of 50) is left out and reported; every other problem is found by
:mod:`generator.track.checks`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
from shapely import LineString, STRtree
from shapely import Polygon as SPoly
from shapely.errors import GEOSException

from . import rules
from .centerline import Line, runs
from .changed import NoPitLane, PitLaneDrawn
from .circuit import (
    GARAGE_D,
    KERB_MIN,
    PIT_GAP,
    START_BAND,
    Circuit,
    Corner,
    CrossingInfo,
    GridSlot,
    Kerb,
    PitLane,
)
from .model import Pit
from .problems import Report

CORNER_R = 6.0  # a bend tighter than this many track widths (radius) is a corner
CORNER_MIN_TURN = math.radians(15)


def clearance(c: Circuit) -> float:
    """Centre line to centre line, the least distance two parts of ``c``'s track need (:func:`.rules.clearance`)."""
    return rules.clearance(2 * c.half_width)


def _merge_runs(runs, gap: int):
    out: list[list[int]] = []
    for a, b in runs:
        if out and a - out[-1][1] <= gap:
            out[-1][1] = b
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


# ------------------------------------------------------------------------------------------------- corners


def corners(report: Report, c: Circuit) -> list[Corner]:
    """The spec's corners, else every bend tighter than CORNER_R track widths turning CORNER_MIN_TURN or more."""
    line = c.line
    L = line.length
    spec = c.spec
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

    def make_wrapped(i0: int, i1: int, stops=None, name=None) -> Corner | None:
        """A corner from sample ``i0`` over the start line to sample ``i1`` of the next lap: its ``s_end`` lies
        past the lap's end (``s_end`` > L), as the spaces' corner limits take it round the lap."""
        n = len(line.s) - 1  # the last sample closes the loop on the first
        ks = np.concatenate((line.k[i0:n], line.k[: i1 + 1]))
        if len(ks) == 0:
            return None
        j = int(np.argmax(np.abs(ks)))
        apex = float(line.s[i0 + j]) if i0 + j < n else float(line.s[i0 + j - n])
        turn = float(-((line.th[n] - line.th[i0]) + (line.th[min(i1, n)] - line.th[0])))
        kmax = abs(float(ks[j]))
        return Corner(
            s_start=float(line.s[i0]),
            s_end=L + float(line.s[min(i1, n)]),
            apex=apex,
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
            if cs.from_ > c.units_count or cs.to > c.units_count:
                report.problem(
                    "corner",
                    f"corner {i} runs from unit {cs.from_} to {cs.to} on a lap of {c.units_count} units",
                    "give units within the lap ('to' before 'from' runs over the start line)",
                    ("corners", i),
                    where=f"corners[{i}]",
                )
                continue
            i0 = int(np.searchsorted(line.s, a))
            i1 = int(np.searchsorted(line.s, b))
            # 'to' before 'from': the corner runs over the start/finish line
            cr = make(i0, i1, cs.stops, cs.name) if cs.to >= cs.from_ else make_wrapped(i0, i1, cs.stops, cs.name)
            if cr:
                out.append(cr)
        return out
    thr = 1.0 / (CORNER_R * 2 * c.half_width)
    k = line.k[:-1]
    exact = spec.segments is not None
    for sign in (1, -1):
        mask = sign * k > thr
        for i0, i1 in _merge_runs(runs(mask), gap=max(2, int(u / max(L / len(k), 1e-9)))):
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


# --------------------------------------------------------------------------------------------------- kerbs


def kerbs(report: Report, c: Circuit) -> list[Kerb]:
    """The spec's kerbs; with ``kerbs: auto`` one on the inside of each corner where it bends that way."""
    spec = c.spec
    if spec.kerbs == "none":
        return []
    if spec.kerbs == "auto":
        line = c.line
        thr = 1.0 / (CORNER_R * 2 * c.half_width)
        out = []
        for cr in c.corners:
            sign = 1.0 if cr.direction == "left" else -1.0
            L = c.lap_length
            # a corner over the start line (s_end past the lap's end) gets its kerbs either side of the line
            parts = [(cr.s_start, min(cr.s_end, L))] + ([(0.0, cr.s_end - L)] if cr.s_end > L else [])
            for p0, p1 in parts:
                i0, i1 = int(np.searchsorted(line.s, p0)), int(np.searchsorted(line.s, p1))
                mask = sign * line.k[i0:i1] > thr
                for a, b in runs(mask):
                    s0, s1 = float(line.s[i0 + a]), float(line.s[min(i0 + b, len(line.s) - 1)])
                    if s1 - s0 > 2.0 and c.offset_length(s0, s1, sign * c.half_width) >= KERB_MIN:
                        out.append(Kerb(s0, s1, cr.direction))
        return out
    out = []
    for i, ks in enumerate(spec.kerbs):
        if ks.from_ > c.units_count or ks.to > c.units_count:
            report.problem(
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


# ----------------------------------------------------------------------------------------------- crossings


def _chunks(line: Line, step: int = 32):
    n = len(line.xy)
    out = []
    for a in range(0, n - 1, step):
        b = min(n - 1, a + step)
        out.append((a, b, LineString(line.xy[a : b + 1])))
    return out


def self_crossings(line: Line) -> list[tuple[float, float, tuple[float, float], float]]:
    """Where the centre line crosses itself: ``(s_first, s_second, point, angle°)``, in the order of s_first."""
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
    out = []
    for sa, sb, pt in found:
        ta, tb = line.heading(sa), line.heading(sb)
        ang = abs(math.degrees(math.atan2(math.sin(tb - ta), math.cos(tb - ta))))
        out.append((sa, sb, pt, min(ang, 180 - ang)))
    return out


def crossing_reach(c: Circuit, angle: float) -> float:
    """How far (mm, along each pass either side of a crossing at ``angle``°) the other pass covers the track."""
    return rules.crossing_reach(clearance(c), c.half_width, angle, c.unit)


def crossings(c: Circuit, found) -> list[CrossingInfo]:
    """The declared crossings at the places ``found`` by :func:`self_crossings` (in order; extras ignored)."""
    out = []
    for d, (sa, sb, pt, ang) in zip(c.spec.crossings, found, strict=False):
        su, sl = (sb, sa) if d.upper == "second" else (sa, sb)
        out.append(CrossingInfo(d.kind, su, sl, pt, ang, min(crossing_reach(c, ang), c.lap_length / 4)))
    return out


# -------------------------------------------------------------------------------------------------- pit lane


def pit_lane(report: Report, c: Circuit, spec=None, check=None) -> PitLane | None:
    """The pit lane beside the track from the spec's units (a smoothstep taper in and out) and its garages
    (``spec``: a pit lane of the spec's kind other than the spec's own). A bare centre line's board, which has no
    spec to declare one, gets :func:`bare_pit`'s, each place tried checked by ``check`` (``checks.check_pit``),
    unless the board has problems already."""
    if spec is None and c.spec.pit is None:
        if not is_bare_line(c) or check is None or report.problems:
            return None
        pit = bare_pit(c, check)
        if pit is not None:
            a, b = c.unit_at(pit.s0 % c.lap_length), c.unit_at((pit.s1 - 1e-6) % c.lap_length)
            report.changes.append(PitLaneDrawn(a, b, pit.side))
        else:
            report.changes.append(NoPitLane())
        return pit
    spec = spec or c.spec.pit
    u = c.unit_length
    L = c.lap_length
    if spec.from_ > c.units_count or spec.to > c.units_count:
        report.problem(
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
        report.problem(
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
    s, inner, outer = pit_samples(c, pit)
    p = line.point(s)
    th = line.heading(s)
    nrm = np.column_stack((np.sin(th), -np.cos(th))) * sign
    ptin = p + nrm * inner[:, None]
    ptout = p + nrm * outer[:, None]
    poly = np.vstack((ptin, ptout[::-1]))
    pit.polygon = tuple(map(tuple, np.round(poly, 4)))
    pit.unit_s = pit_units(c, pit)
    _garages(c, pit)
    return pit


def _garages(c: Circuit, pit: PitLane) -> None:
    """The pit lane's garages along the outer edge of its full-width part."""
    if not pit.garages:
        return
    line = c.line
    sign = 1.0 if pit.side == "left" else -1.0
    g0 = pit.s0 + pit.taper
    w = garage_width(pit)
    for i in range(pit.garages):
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


def is_bare_line(c: Circuit) -> bool:
    """A board ruled across of a centre line given as a CSV on its own (``paddock track Monza.csv``, ``pack
    --track X.csv``): no spec file says where its pit lane goes."""
    return c.spec.csv is not None and c.spec.units == "across" and Path(str(c.source or "")).suffix.lower() == ".csv"


#: A bare line's pit lane runs along the grid's straight: (units behind the grid, units after the line), the
#: longest first, shorter when the longer do not fit; at least BARE_PIT_MIN units in all.
BARE_PIT_ENDS = ((3, 4), (2, 3), (4, 1), (1, 4), (1, 2), (6, 0), (0, 6))
BARE_PIT_MIN = 6


def bare_pit(c: Circuit, check) -> PitLane | None:
    """The pit lane of a bare centre line's board: beside the straight the grid stands on, as a real circuit's
    pit lane runs beside its start line, on the side with room (the infield first), its garages one per two
    grid slots. The longest that checks clean (no fold, clear of the track elsewhere, on the paper); None when
    none does."""

    n = c.units_count
    rows = grid_rows(c)
    garages = max(1, math.ceil(c.spec.grid / 2))
    # the infield is left of the race direction for an anticlockwise lap on the page (y down: negative area)
    x, y = c.line.xy[:-1, 0], c.line.xy[:-1, 1]
    area = 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    sides = ("left", "right") if area < 0 else ("right", "left")
    u = c.unit_length
    for behind, ahead in BARE_PIT_ENDS:
        span = rows + behind + ahead
        if span < BARE_PIT_MIN or span > n // 2:
            continue
        first = (n - rows - behind) % n + 1
        last = (ahead - 1) % n + 1
        s = np.linspace(-(rows + behind) * u, ahead * u, 4 * span + 1)
        k = c.line.curvature(s % c.lap_length)
        for side in sides:
            sign = 1.0 if side == "left" else -1.0
            reach = c.half_width + PIT_GAP + c.lane_width + GARAGE_D
            if float((k * sign).max()) * reach >= 1:  # it would fold on the inside of a bend: not worth building
                continue
            spec = Pit(side=side, **{"from": first}, to=last, garages=garages)
            scratch = Report(c.source, None)
            pit = pit_lane(scratch, c, spec)
            if pit is None or scratch.problems or not _sound(pit):
                continue
            c.pit = pit
            try:
                check(scratch, c)
            except GEOSException:  # a track outline too broken to measure against: no pit lane on it
                scratch.problems.append(None)
            c.pit = None
            if not scratch.problems:
                return pit
    return None


def _sound(pit: PitLane) -> bool:
    """The pit lane's outline and every garage are simple polygons (none folds over itself on a bend)."""
    return all(SPoly(ring).is_valid for ring in (pit.polygon, *(r for r, _ in pit.garage_boxes)))


def with_garages(c: Circuit, pit: PitLane, garages: int) -> PitLane:
    """``pit`` with ``garages`` garages along its full-width part (a pack's garage per team)."""
    out = replace(pit, garages=garages, garage_boxes=[])
    _garages(c, out)
    return out


def pit_units(c: Circuit, pit: PitLane) -> tuple[float, ...]:
    """The unit lines of the pit lane's full-width part (entry line first, exit line last): one unit apart along
    the middle of the pit lane, as arc lengths of the track's centre line."""
    a, b = pit.s0 + pit.taper, pit.s1 - pit.taper
    if b <= a:
        return ()
    sign = 1.0 if pit.side == "left" else -1.0
    s = c.sample_s(a, b)
    pts = c.offset_line(a, b, sign * (c.half_width + PIT_GAP + pit.width / 2))
    sig = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))))
    n = max(1, round(float(sig[-1]) / c.unit))
    return tuple(float(v) for v in np.interp(np.linspace(0.0, float(sig[-1]), n + 1), sig, s))


def pit_samples(c: Circuit, pit: PitLane) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Arc lengths along the pit lane (about 1 mm apart) and its inner and outer edge offsets there."""
    span = pit.s1 - pit.s0
    n = max(8, int(span / 1.0))
    s = np.linspace(pit.s0, pit.s1, n + 1)
    inner, outer = pit.offsets(s, c.half_width)
    return s, inner, outer


def garage_width(pit: PitLane) -> float:
    """Length of one garage along the full-width part of the pit lane (0 without garages)."""
    if not pit.garages:
        return 0.0
    return (pit.s1 - pit.taper - (pit.s0 + pit.taper)) / pit.garages


# ------------------------------------------------------------------------------------------------------ grid


def grid_rows(c: Circuit) -> int:
    """Rows of the grid: one per unit behind the line, ``lanes`` cars abreast."""
    return math.ceil(c.spec.grid / c.lanes) if c.spec.grid else 0


def grid_units(c: Circuit) -> tuple[int, ...]:
    """The units the grid stands on, nearest the line first (the last units of the lap)."""
    n = c.units_count
    return tuple(n - r for r in range(min(grid_rows(c), n)))


def grid(c: Circuit) -> tuple[GridSlot, ...]:
    """The spec's grid slots behind the start line: one row per unit, ``lanes`` abreast, pole (1) at the front on
    the left (as the f1-dice qualifying sheet draws P1); each slot a car's box inside its lane and unit."""
    u = c.unit_length
    out = []
    for k in range(c.spec.grid):
        row, lane = divmod(k, c.lanes)
        front = -row * u - (START_BAND + 1.0 if row == 0 else 1.5)
        back = -(row + 1) * u + 1.5
        d = c.lane_offset(lane)
        hw = c.lane_width / 2 - min(1.0, c.lane_width / 8)
        outline = (
            c.offset_point(back, d + hw),
            c.offset_point(front, d + hw),
            c.offset_point(front, d - hw),
            c.offset_point(back, d - hw),
        )
        out.append(GridSlot(k + 1, row, lane, outline, c.offset_point((front + back) / 2, d)))
    return tuple(out)


# --------------------------------------------------------------------------------------------------- positions


def danger_spaces(c: Circuit) -> frozenset[int]:
    """Per-lane boards: ids of the spaces the spec's ``danger`` marks (each lane's space at the middle of that
    unit, or one lane's). Empty on a board ruled across (its danger units are the spec's own)."""
    out: set[int] = set()
    if c.graph is None:
        return frozenset()
    for d in c.spec.danger:
        s0, s1 = c.unit_bounds(d.unit)
        mid = (s0 + s1) / 2
        lanes = [d.lane - 1] if d.lane is not None else range(c.lanes)
        for lane in lanes:
            for sp in c.graph.spaces:
                if sp.lane == lane and sp.s0 <= mid < sp.s1:
                    out.add(sp.id)
    return frozenset(out)
