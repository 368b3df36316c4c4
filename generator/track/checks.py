"""Every check that decides whether a built circuit can print, each problem reported as data (where, numbers,
what to change) to a :class:`~generator.track.problems.Report`.

:func:`generator.track.build.build` runs them in a fixed order, each right after the feature it checks
(``paddock check`` lists problems in that order); :func:`check_lap` runs first and stops the rest when the lap
is too short to rule.
"""

from __future__ import annotations

import math

import numpy as np
from shapely import Polygon as SPoly
from shapely import box, union_all

from ..paper import PAPERS, PaperChoice, papers_by_area
from ..problems import Fix
from .centerline import runs
from .circuit import GARAGE_D, KERB_W, Circuit
from .features import clearance, crossing_reach, garage_width, pit_samples
from .fixes import FitFix, GridFix, LanesFix, PaperFix, SmoothingFix, StartAtFix, StartAutoFix
from .grid import grid_room, grid_starts, grid_turns, start_sign, straight_rows, turning
from .model import board_profile
from .place import content, keeps_shape
from .problems import Report, unit_span
from .request import StartChoice
from .rules import GAP, MIN_CROSSING_DEG, MIN_UNITS, close_pairs

FOLD_MARGIN = 5.0  # mm: an inner border needs radius >= half width + this (room for the kerb)


def points_fixes(c: Circuit) -> tuple[Fix, ...]:
    """What helps a centre line given as points or a CSV: more smoothing, a longer lap on a larger paper, fewer
    lanes."""
    spec = c.spec
    more = max(20.0, round(spec.smoothing * 2 / 10) * 10)
    longer = max(c.units_count + 10, round(c.units_count * 1.5 / 5) * 5)
    family = [p.name for p in papers_by_area(_family(c.paper.name))]
    larger = family[family.index(c.paper.name) + 1] if family.index(c.paper.name) + 1 < len(family) else None
    fixes = [
        SmoothingFix(more, now=spec.smoothing),
        FitFix(
            longer,
            now=spec.fit,
            paper=PaperChoice(larger) if larger else None,
            tile_onto=c.paper.name if larger else None,
        ),
    ]
    if c.lanes > 1:
        fixes.append(LanesFix(c.lanes - 1, now=c.lanes))
    if larger and keeps_shape(spec):  # the same shape, adapted at a larger scale: the least change to the board
        fixes.insert(0, PaperFix(larger, now=c.paper.name, paper=PaperChoice(larger)))
    return tuple(fixes)


def _family(name: str) -> str:
    return PAPERS[name].family


def check_lap(report: Report, c: Circuit) -> bool:
    """A lap of at least MIN_UNITS units; False (and a problem) if shorter: nothing else is checked then."""
    if c.units_count >= MIN_UNITS:
        return True
    report.problem(
        "fit",
        f"the lap is only {c.lap_length:.0f} mm ({c.units_count} units)",
        f"make the circuit longer: a race needs at least {MIN_UNITS} units",
        where="lap",
    )
    return False


def check_fold(report: Report, c: Circuit) -> None:
    """Every bend's inner border keeps a radius of at least half the track plus FOLD_MARGIN."""
    line = c.line
    need = c.half_width + FOLD_MARGIN
    bad = np.abs(line.k) * need >= 1.0
    segments = c.spec.segments is not None
    for i0, i1 in runs(bad[:-1]):
        j = i0 + int(np.argmax(np.abs(line.k[i0:i1])))
        r = 1.0 / abs(line.k[j])
        s = float(line.s[j])
        side = "left" if line.k[j] > 0 else "right"
        u0, u1 = c.unit_at(float(line.s[i0])), c.unit_at(float(line.s[max(i0, i1 - 1)]))
        if segments:
            advice = f"make the corner radius at least {need:.0f} mm"
            advice += " (fewer lanes also help)" if c.lanes > 1 else ""
            fixes = ()
        else:
            advice, fixes = "", points_fixes(c)
        report.problem(
            "fold",
            # Round down, so a radius just short of the minimum never reads as equal to it.
            f"the inner ({side}) border folds: centre-line radius {math.floor(r * 10) / 10:.1f} mm is under the "
            f"{need:g} mm minimum "
            f"(half the {2 * c.half_width:g} mm track plus {FOLD_MARGIN:g} mm)",
            advice,
            ("segments",) if segments else (),
            fixes=fixes,
            where=unit_span(u0, u1),
            s=s,
            unit=c.unit_at(s),
            numbers={"radius_mm": r, "min_radius_mm": need},
        )


def check_crossings(report: Report, c: Circuit, found, start: StartChoice | None = None) -> None:
    """Each place the track crosses itself is a declared crossing at 30° or more, clear of the start and grid;
    every declared crossing exists. ``start``: how the caller placed the start line (said in its fix)."""
    declared = c.spec.crossings
    L = c.lap_length
    for n, (sa, sb, pt, ang) in enumerate(found):
        if n >= len(declared):
            report.problem(
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
        if ang < MIN_CROSSING_DEG:
            report.problem(
                "crossing",
                f"crossing {n} meets at only {ang:.0f}°",
                f"cross at {MIN_CROSSING_DEG}° or more so both passes stay readable",
                ("crossings", n),
                where=f"crossings[{n}]",
                s=sa,
                unit=c.unit_at(sa),
                numbers={"angle_deg": ang},
            )
        reach = crossing_reach(c, ang)
        grid_len = math.ceil(c.spec.grid / c.lanes) * c.unit_length
        for s_pass in (sa, sb):
            if s_pass < reach + 3 * c.unit or L - s_pass < reach + grid_len + c.unit:
                report.problem(
                    "crossing",
                    f"the start line or the grid lies at crossing {n} (unit {c.unit_at(s_pass)})",
                    "move the start ('start.at') away from the crossing",
                    ("start",),
                    fixes=(StartAutoFix("auto", now=start or "placed"),),
                    where=f"crossings[{n}]",
                    s=s_pass,
                    unit=c.unit_at(s_pass),
                )
                break
    for n in range(len(found), len(declared)):
        report.problem(
            "crossing",
            f"crossing {n} is declared but the track crosses itself only {len(found)} time(s)",
            "remove the extra entry from 'crossings'",
            ("crossings", n),
            where=f"crossings[{n}]",
        )


def check_proximity(report: Report, c: Circuit) -> None:
    """Two parts of the track (other than at a declared crossing) keep the track width, kerbs and GAP apart."""
    need_mm = clearance(c)
    _, s, a, b, dist = close_pairs(c.line, need_mm, [(cr.s_upper, cr.s_lower, cr.reach) for cr in c.crossings])
    if len(a) == 0:
        return
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
    if c.spec.segments is None:
        advice, fixes = "move these parts apart", points_fixes(c)
    else:
        advice, fixes = "move these parts apart, or declare a crossing if they cross", ()
    for a0, a1, b0, b1, g in places:
        g = np.array(g)
        k = g[np.argmin(dist[g])]
        need = (
            f"they need {need_mm:.0f} mm (track width {2 * c.half_width:.0f} + kerbs {2 * KERB_W:.0f} + {GAP:.0f} mm)"
        )
        if b0 <= a1 + 1:  # the two passes overlap: one stretch of track doubling back on itself
            where = unit_span(a0, max(a1, b1))
            msg = f"the track at {where} comes within {dist[k]:.1f} mm of itself (centre lines); {need}"
        else:
            wa, wb = unit_span(a0, a1), unit_span(b0, b1)
            where = f"{wa} ↔ {wb}"
            verb = "comes" if a0 == a1 else "come"
            msg = f"{wa} {verb} within {dist[k]:.1f} mm of {wb} (centre lines); {need}"
        report.problem(
            "proximity",
            msg,
            advice,
            fixes=fixes,
            where=where,
            s=float(s[a[k]]),
            unit=int(a0),
            numbers={"distance_mm": float(dist[k]), "needed_mm": need_mm},
        )


def check_pit(report: Report, c: Circuit) -> None:
    """The pit lane does not fold on the inside of a bend, has room for its garages, keeps off the track
    elsewhere and stays on the printable paper."""
    pit = c.pit
    sign = 1.0 if pit.side == "left" else -1.0
    s, _, outer = pit_samples(c, pit)
    # a pit lane on the inside of a bend folds if the bend is tighter than its outer edge
    kside = c.line.curvature(s) * sign
    folded = kside * (outer + GARAGE_D) >= 1
    if folded.any():
        j = int(np.argmax(kside))
        report.problem(
            "pit",
            f"the pit lane folds on the inside of the bend at unit {c.unit_at(s[j])} (radius {1 / kside[j]:.0f} mm)",
            "put the pit lane on the other side or along a straight",
            ("pit",),
            where=f"unit {c.unit_at(s[j])}",
            s=float(s[j]),
            unit=c.unit_at(s[j]),
        )
    if pit.garages and garage_width(pit) < 6:
        report.problem(
            "pit",
            f"{pit.garages} garages leave {garage_width(pit):.1f} mm each",
            "use fewer garages or a longer pit lane",
            ("pit", "garages"),
            where="pit.garages",
        )
    # overlap with the racing surface elsewhere, and the paper
    shape = SPoly(pit.polygon).buffer(0)
    surface = c.surface(exclude=(pit.s0 - pit.taper, pit.s1 + pit.taper))
    if surface is not None and shape.intersects(surface):
        inter = shape.intersection(surface)
        if inter.area > 1.0:
            cx, cy = inter.centroid.x, inter.centroid.y
            report.problem(
                "pit",
                f"the pit lane overlaps the track near ({cx:.0f}, {cy:.0f}) mm ({inter.area:.0f} mm²)",
                "move the pit lane to the other side or to another straight",
                ("pit",),
                where="pit",
                numbers={"overlap_mm2": float(inter.area)},
            )
    # every garage clear of the track elsewhere and of its kerbs (a garage printed over the track edge hides it)
    if surface is not None and pit.garage_boxes:
        near = surface.buffer(KERB_W, quad_segs=2)
        hit = [i for i, (ring, _) in enumerate(pit.garage_boxes) if SPoly(ring).intersects(near)]
        if hit:
            cx, cy = pit.garage_boxes[hit[0]][1]
            report.problem(
                "pit",
                f"garage {hit[0] + 1} of the pit lane lies on the track or its kerbs near ({cx:.0f}, {cy:.0f}) mm",
                "move the pit lane to the other side or to another straight, or give it fewer garages",
                ("pit", "garages"),
                where="pit",
                numbers={"garages_on_track": len(hit)},
            )
    x, y, W, H = content(c.paper, c.edge)
    full = shape
    if pit.garage_boxes:
        full = union_all([shape] + [SPoly(r) for r, _ in pit.garage_boxes])
    if not report.unfit and not box(x, y, x + W, y + H).contains(full):
        report.problem(
            "pit",
            "the pit lane or its garages leave the printable area",
            "put the pit lane on the other side or along another straight",
            ("pit", "side"),
            where="pit",
        )


def check_positions(report: Report, c: Circuit) -> None:
    """Danger spaces and the police line lie within the lap; the grid fits a third of it."""
    spec = c.spec
    for i, d in enumerate(spec.danger):
        if d.unit > c.units_count:
            report.problem(
                "danger",
                f"danger space at unit {d.unit} on a lap of {c.units_count} units",
                "give a unit within the lap",
                ("danger", i, "unit"),
                where=f"danger[{i}]",
            )
    if spec.police_line is not None and spec.police_line > c.units_count:
        report.problem(
            "police",
            f"police line at unit {spec.police_line} on a lap of {c.units_count} units",
            "give a unit within the lap",
            ("police_line",),
            where="police_line",
        )
    if spec.grid:
        rows = math.ceil(spec.grid / c.lanes)
        if rows > c.units_count // 3:
            report.problem(
                "grid",
                f"{spec.grid} grid slots need {rows} units behind the line, a third of the lap is {c.units_count // 3}",
                "use fewer grid slots",
                ("grid",),
                where="grid",
                fixes=(GridFix(c.units_count // 3 * c.lanes, now=spec.grid),) if spec.segments is None else (),
                numbers={"most_cars": c.units_count // 3 * c.lanes},
            )


# ------------------------------------------------------------------------------------------- room for a car


def room_for_car(c: Circuit) -> float | None:
    """The fraction of a unit the inner edge of every unit must hold (its game's ``room_for_car``), or None."""
    frac = board_profile(c.spec.game).get("room_for_car")
    return float(frac) if frac else None


def min_car_radius(c: Circuit) -> float | None:
    """The least centre-line radius at which every unit's inner edge holds ``room_for_car`` of a unit."""
    frac = room_for_car(c)
    return None if frac is None else c.half_width / (1.0 - frac)


def unit_edges(c: Circuit) -> tuple[np.ndarray, np.ndarray]:
    """The length of every unit's left and right edge (mm), measured along the offset track borders."""
    line = c.line
    bounds = np.arange(c.units_count + 1) * c.unit_length
    out = []
    for d in (c.half_width, -c.half_width):
        pts = line.offset(d)
        sig = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))))
        at = np.interp(bounds, line.s, sig)
        out.append(np.diff(at))
    return out[0], out[1]


def _segment_at(c: Circuit, s: float) -> int | None:
    """Segments spec: the index of the segment under arc length ``s`` of the placed line (None otherwise)."""
    spec = c.spec
    if spec.segments is None:
        return None
    lengths = np.array([seg.length for seg in spec.segments])
    total = float(lengths.sum())
    start = spec.start.at * spec.unit
    raw = (start - s) if spec.start.reverse else (start + s)
    raw = raw % total
    return int(min(np.searchsorted(np.cumsum(lengths), raw, side="right"), len(lengths) - 1))


def check_room_for_car(report: Report, c: Circuit) -> None:
    """Room for a car in every unit: the inner edge of every unit holds ``room_for_car`` of a unit (f1-dice: half
    a 20 mm car, 10 mm), so the centre-line radius is at least half the track / (1 − that fraction)."""
    frac = room_for_car(c)
    if frac is None:
        return
    u = c.unit_length
    need_edge = frac * u
    need_r = min_car_radius(c)
    left, right = unit_edges(c)
    inner = np.minimum(left, right)
    bad = inner < need_edge - 1e-3
    line = c.line
    spans = []
    for i0, i1 in runs(bad):
        a, b = i0 * u, i1 * u
        spans.append((a - u, b + u))
        j0, j1 = np.searchsorted(line.s, [a, b])
        j1 = max(j1, j0 + 1)
        j = j0 + int(np.argmax(np.abs(line.k[j0:j1])))
        r = 1.0 / max(abs(float(line.k[j])), 1e-12)
        s = float(line.s[j])
        k = i0 + int(np.argmin(inner[i0:i1]))
        side = "right" if right[k] < left[k] else "left"
        seg = _segment_at(c, s)
        want = math.ceil(need_r * 10) / 10
        if seg is not None:
            loc = ("segments", seg)
            advice = f"make the radius of segment {seg + 1} at least {want:g} mm"
            fixes = ()
        else:
            loc = ("smoothing",) if c.spec.csv is not None else ("points",)
            advice, fixes = "widen the bend", points_fixes(c)
        holds = "half" if frac == 0.5 else f"{frac:g} of"
        report.problem(
            "room",
            f"no room for a car: the inner ({side}) edge of unit {k + 1} is {math.floor(inner[k] * 10) / 10:.1f} mm, "
            f"under {holds} a car ({frac * c.unit:g} mm); centre-line radius "
            f"{math.floor(r * 10) / 10:.1f} mm, the least on this {2 * c.half_width:g} mm track is {want:g} mm",
            advice,
            loc,
            fixes=fixes,
            where=unit_span(i0 + 1, i1),
            s=s,
            unit=k + 1,
            numbers={
                "inner_edge_mm": float(inner[k]),
                "min_edge_mm": need_edge,
                "radius_mm": r,
                "min_radius_mm": need_r,
            },
        )
    # A fold in the same bend asks for less (half the track + 5 mm): the room message, with its segment's line and
    # the larger radius, is the one to follow — two different minimums for one arc would only confuse.
    report.problems[:] = [
        p
        for p in report.problems
        if not (p.kind == "fold" and p.s is not None and any(a <= p.s <= b for a, b in spans))
    ]


# ------------------------------------------------------------------------------------------------------ grid


def check_grid(report: Report, c: Circuit, asked: bool = False, start: StartChoice | None = None) -> None:
    """Boards ruled across (f1-dice): the grid stands on straight track, every row of slots (one unit behind the
    line each) clear of a corner, when the spec file gives ``grid`` or the caller ``asked`` (a pack sizing the
    grid to its field, or the command line's ``--grid``); ``start``: the start line as the caller placed it
    ("real", "placed": the grid is held to its own straight, and Paddock may place it instead).
    Otherwise say how far the start line must move along its straight, or how much
    longer the straight must be."""
    spec = c.spec
    asked = asked or start in ("real", "placed")  # asked for on the command line
    if not asked and report.line_of("grid") is None:  # a default grid the spec never asked for is not held to it
        return
    room = grid_room(c)
    if room is None:
        return  # none, a per-lane board, or already reported by check_positions
    rows, behind, ahead = room
    if behind >= rows:
        return
    n = c.units_count
    short = rows - behind
    corner_unit = n - behind
    room = ahead - 1  # keep a unit of straight after the line for the start
    sign = start_sign(spec)
    holds = {}  # the most cars a place of the lap holds on straight track, where that is fewer than asked
    if room >= short:
        at = spec.start.at + sign * short
        advice = f"move the start line {short} unit{'s' if short > 1 else ''} further along its straight"
        fixes = (StartAtFix(round(at, 1), now=spec.start.at),)
        loc = ("start", "at")
    else:
        more = (short - max(room, 0)) * c.unit
        drawn = spec.segments is not None  # a designer's segments can be lengthened; a real line cannot
        advice = f"lengthen the straight before the line by at least {more:.0f} mm and move the start along it"
        fixes = ()
        loc = ("start",) if report.line_of("start") else ("segments",) if drawn else ("grid",)
        starts = grid_starts(c)
        most, where = behind, 0.0  # the most rows any place of the lap holds on straight track, and where
        f = turning(c)
        for t in starts:
            k = straight_rows(grid_turns(c, t, rows, f))
            if k > most:
                most, where = k, t
        at_most = round((spec.start.at + sign * where / c.unit) % (c.lap_length / c.unit), 1)
        if most >= rows:  # another straight holds it: say where
            advice = f"move the start line to unit {c.unit_at(where)}, where the straight behind it holds the grid" + (
                f"; or {advice}" if drawn else ""
            )
            fixes = (StartAtFix(at_most, now=spec.start.at),)
            loc = ("start", "at")
        elif most:
            holds = {"most_cars": most * c.lanes}
            fewer = f"race {most * c.lanes} cars or fewer" + (
                f", the start line at unit {c.unit_at(where)} (start.at {at_most:g})" if where else ""
            )
            advice = f"{advice}, or {fewer}" if drawn else f"{fewer}: no straight of the circuit holds more"
            if not drawn:
                fixes = (GridFix(most * c.lanes, now=spec.grid),)
        elif not drawn:
            advice = "no straight of this circuit holds a row of the grid: use a larger paper or fewer lanes"
    if start in ("real", "placed"):  # the start line as the command line placed it: Paddock may place it
        fixes = (*fixes, StartAutoFix("auto", now=start))
    report.problem(
        "grid",
        f"{spec.grid} grid slots ({c.lanes} abreast) need {rows} units of straight behind the start line; "
        f"only {behind} lie between the line and the bend at unit {corner_unit}",
        advice,
        loc,
        fixes=fixes,
        where="grid",
        unit=corner_unit,
        numbers={"slots": spec.grid, "rows": rows, "straight_units": behind, **holds},
    )
