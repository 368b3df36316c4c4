"""The board page of a circuit: track, units, kerbs, start line, grid, pit lane, crossings, numbers — and, drawn by
:mod:`.legend`, its title, legend and podium, in the colours of :mod:`.palette`.

Drawing only: it reads a built :class:`~generator.track.circuit.Circuit` (its geometry, features and spaces) and
never builds or checks anything. Labels go on free paper (:class:`~generator.compose.freespace.FreeSpace`), which
:func:`draw_board` hands back with the page so an overlay can place its own labels in what is left.

Layers, bottom to top: ``track`` (surface, marked squares, danger spaces), ``kerbs``, ``units`` (unit and lane
lines, borders), ``features`` (start line, grid, pit lane, police line, tunnel portals), ``bridges`` (the upper
pass of each crossing, redrawn whole), ``labels`` (numbers, title, legend, podium). Overlays (Formula D corner
lines and flags) go on new layers above these.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from shapely import LineString, MultiLineString, Point, union_all
from shapely import Polygon as SPoly
from shapely.affinity import rotate

from ..compose.freespace import FreeSpace, text_box
from ..errors import GeometryError
from ..fonts import text_width
from ..scene import WHITE, Page, Polygon, Polyline, Style, Text, bounds
from ..units import pt_to_mm
from .circuit import KERB_W, PIT_GAP, START_BAND, Circuit
from .legend import draw_podium, draw_title, words
from .numbers import action_units, draw_numbers, fit_number, label_rotation, pts, text_up, upright
from .palette import (
    ACTION_FRAME,
    ACTION_PITCH,
    ACTION_STRIPE,
    ACTION_UNIT,
    ASPHALT,
    COUNTED,
    DANGER,
    GRID_NO,
    HIDDEN,
    INK,
    KERB_RED,
    LINE,
    MUTED,
    PIT,
    POLICE,
)
from .spaces import numbered_spaces, tunnel_tag_spaces, tunnel_tags

LAYERS = ("track", "kerbs", "units", "features", "bridges", "labels")


def _poly(a: np.ndarray, style: Style) -> Polygon:
    return Polygon(pts(a), (), style)


def _line(a: np.ndarray, style: Style, closed: bool = False) -> Polyline:
    return Polyline(pts(a), style, closed)


def _overlap(a: float, b: float, s0: float, s1: float, L: float):
    """Parts of [s0, s1] (on the loop) inside the window [a, b] (window may run past 0 or L)."""
    out = []
    for k in (-1, 0, 1):
        lo, hi = max(a, s0 + k * L), min(b, s1 + k * L)
        if hi - lo > 1e-6:
            out.append((lo, hi))
    return out


@dataclass
class Board:
    """A drawn board: the page, and the paper still free for labels (the track and every label taken)."""

    page: Page
    free: FreeSpace


def footprint(c: Circuit):
    """The paper the track, its kerbs and the pit lane with its garages cover (a shapely geometry)."""
    step = max(1, len(c.line.xy) // 1500)
    geoms = [LineString(c.line.xy[::step]).buffer(c.half_width + KERB_W + 1.0, quad_segs=4)]
    if c.pit is not None:
        geoms.append(SPoly(c.pit.polygon).buffer(1.0))
        geoms.extend(SPoly(r).buffer(0.5) for r, _ in c.pit.garage_boxes)
    return union_all(geoms)


def draw_board(c: Circuit) -> Board:
    """The board page of ``c`` and its free paper."""
    page = Page(c.page, c.spec.title or c.name)
    for name in LAYERS:
        page.layer(name)
    free = FreeSpace(page.content_box, footprint(c))
    L = c.lap_length
    _draw_track(page, c, 0.0, L, main=True)
    _draw_pit(page, c, free)
    _draw_start(page, c, free)
    _draw_police(page, c, free)
    _draw_crossings(page, c)
    draw_numbers(page, c, free)
    draw_title(page, c, free)
    if c.spec.podium:
        draw_podium(page, c, free)
    _clear_of_edge(page, c)
    return Board(page, free)


def _clear_of_edge(page: Page, c: Circuit) -> None:
    """Nothing of the board in the printer's unprintable edge (a home printer would cut it off): a located
    GeometryError, never a warning the board is printed past."""
    x0, y0, x1, y1 = bounds(page.items())
    e = page.edge
    worst = max(e - x0, e - y0, x1 - (page.width - e), y1 - (page.height - e))
    if worst > 0.05 and not c.problems:  # a board with problems (one that does not fit, say) is drawn to show them
        raise GeometryError(
            f"{c.name}: the board draws {worst:.1f} mm into the {e:g} mm unprintable edge of {c.paper.name.upper()}",
            file=c.source,
            hint="a larger paper (--paper), a smaller board (--fit N units) or a smaller --edge",
        )


# ----------------------------------------------------------------------------------------------- track body


def _unit_fills(c: Circuit) -> dict[int, str]:
    """Fill colour of units (across mode) that are not plain asphalt."""
    fills: dict[int, str] = {}
    if c.graph is None:
        for u in action_units(c):
            fills[u] = ACTION_UNIT
        for u in c.hidden_units():
            fills[u] = HIDDEN
    return fills


def _draw_track(page: Page, c: Circuit, a: float, b: float, main: bool, layer_override: str | None = None) -> None:
    """Everything of the track between arc lengths a and b (a window; may wrap)."""
    L = c.lap_length
    half = c.half_width
    lay = (lambda name: page.layer(layer_override)) if layer_override else page.layer
    surface = Style(stroke=None, fill=ASPHALT)
    lay("track").add(_poly(c.strip(a, b, half, -half), surface))
    thin = Style(stroke=LINE, width=0.3)
    if c.graph is None:
        fills = _unit_fills(c)
        for u, color in sorted(fills.items()):
            s0, s1 = c.unit_bounds(u)
            for lo, hi in _overlap(a, b, s0, s1, L):
                lay("track").add(_poly(c.strip(lo, hi, half, -half), Style(stroke=None, fill=color)))
        for u in action_units(c):
            s0, s1 = c.unit_bounds(u)
            for lo, hi in _overlap(a, b, s0, s1, L):
                _action_marks(lay("track"), c, lo, hi)
        for d in c.spec.danger:
            s0, s1 = c.unit_bounds(d.unit)
            dl, dr = half, -half
            if d.lane is not None:
                dl = half - (d.lane - 1) * c.lane_width
                dr = dl - c.lane_width
            for lo, hi in _overlap(a, b, s0, s1, L):
                lay("track").add(_poly(c.strip(lo, hi, dl, dr), Style(stroke=None, fill=DANGER)))
        # unit lines across the whole track
        u = c.unit_length
        for j in range(c.units_count):
            s = j * u
            for k in (-1, 0, 1):
                if a - 1e-6 <= s + k * L <= b + 1e-6 and not (j == 0 and main):
                    p0 = c.offset_point(s, half)
                    p1 = c.offset_point(s, -half)
                    lay("units").add(Polyline((p0, p1), thin))
                    break
        # lane lines: the rulebook dropped the bisecting line on 2-lane boards
        if c.lanes >= 3:
            for i in range(1, c.lanes):
                d = half - i * c.lane_width
                lay("units").add(_line(c.offset_line(a, b, d), Style(stroke=LINE, width=0.25, dash=(2.0, 2.0))))
    else:
        numbered = numbered_spaces(c)  # a tinted space always carries its number (none under a grid slot)
        for sp in c.graph.spaces:
            color = DANGER if sp.id in c.danger_spaces else HIDDEN if sp.hidden else None
            if color is None and sp.id in numbered:
                color = COUNTED
            d = c.lane_offset(sp.lane)
            hw = c.lane_width / 2
            for lo, hi in _overlap(a, b, sp.s0, sp.s1, L):
                if color:
                    lay("track").add(_poly(c.strip(lo, hi, d + hw, d - hw), Style(stroke=None, fill=color)))
            for k in (-1, 0, 1):
                if a - 1e-6 <= sp.s0 + k * L <= b + 1e-6 and not (sp.index == 0 and main):
                    p0 = c.offset_point(sp.s0, d + hw)
                    p1 = c.offset_point(sp.s0, d - hw)
                    lay("units").add(Polyline((p0, p1), thin))
                    break
        for i in range(1, c.lanes):
            d = half - i * c.lane_width
            lay("units").add(_line(c.offset_line(a, b, d), Style(stroke=LINE, width=0.3)))
    # kerbs
    for kb in c.kerbs:
        for lo, hi in _overlap(a, b, kb.s0, kb.s1, L):
            _draw_kerb(lay("kerbs"), c, lo, hi, kb.side)
    border = Style(stroke=INK, width=0.6, join="round")
    closed = main and abs(b - a - L) < 1e-6
    for d in (half, -half):
        lay("units").add(
            _line(c.offset_line(a, b, d)[:-1] if closed else c.offset_line(a, b, d), border, closed=closed)
        )


def _action_marks(layer, c: Circuit, s0: float, s1: float) -> None:
    """An action unit's stripes (ink strokes, clipped to the unit) and bold frame just inside its edges."""
    half = c.half_width
    inset = ACTION_FRAME / 2 + 0.15
    cell = SPoly(c.strip(s0 + inset, s1 - inset, half - inset, -half + inset))
    if not cell.is_valid or cell.is_empty:
        return
    ctr = cell.centroid
    minx, miny, maxx, maxy = cell.bounds
    r = math.hypot(maxx - minx, maxy - miny)
    k = int(r / ACTION_PITCH) + 1
    lines = MultiLineString(
        [((ctr.x - r, ctr.y + j * ACTION_PITCH), (ctr.x + r, ctr.y + j * ACTION_PITCH)) for j in range(-k, k + 1)]
    )
    th = math.degrees(float(c.line.heading((s0 + s1) / 2)))
    cut = rotate(lines, th + 45, origin=ctr).intersection(cell)
    stripe = Style(stroke=INK, width=ACTION_STRIPE, cap="butt")
    for part in getattr(cut, "geoms", [cut]):
        if isinstance(part, LineString) and not part.is_empty:
            layer.add(Polyline(pts(np.array(part.coords)), stripe))
    ring = np.array(cell.exterior.coords)[:-1]
    layer.add(Polyline(pts(ring), Style(stroke=INK, width=ACTION_FRAME, join="miter"), True))


def _draw_kerb(layer, c: Circuit, s0: float, s1: float, side: str) -> None:
    """Alternating red and white blocks in the band just outside the track edge, red at both ends, the whole
    band outlined in red (closed, so no line runs on past the blocks)."""
    sign = 1.0 if side == "left" else -1.0
    d0 = sign * c.half_width
    d1 = sign * (c.half_width + KERB_W)
    layer.add(_poly(c.strip(s0, s1, d0, d1), Style(stroke=None, fill=WHITE)))
    for i, (a, b) in enumerate(c.kerb_blocks(s0, s1, side)):
        if i % 2 == 0:
            layer.add(_poly(c.strip(a, b, d0, d1), Style(stroke=None, fill=KERB_RED)))
    layer.add(_poly(c.strip(s0, s1, d0, d1), Style(stroke=KERB_RED, width=0.25, fill=None, join="round")))


# ----------------------------------------------------------------------------------------------- features


def _side_room(c: Circuit, free: FreeSpace, s: float, size: float) -> int:
    """+1 if the left side of the track at s has more free paper than the right, else -1."""
    best, pick = -1.0, 1
    for sign in (1, -1):
        score = 0.0
        for extra in (4, 8, 14, 22):
            p = Point(c.offset_point(s, sign * (c.half_width + KERB_W + extra + size)))
            if free.open(p):
                score += 1
        if score > best:
            best, pick = score, sign
    return pick


def _draw_start(page: Page, c: Circuit, free: FreeSpace) -> None:
    feats = page.layer("features")
    half = c.half_width
    q = START_BAND
    cols = max(2, round(2 * half / q))
    w = 2 * half / cols
    for row in range(2):
        for col in range(cols):
            s0, s1 = -q + row * q, row * q
            dl = half - col * w
            color = INK if (row + col) % 2 == 0 else WHITE
            feats.add(_poly(c.strip(s0, s1, dl, dl - w), Style(stroke=None, fill=color)))
    feats.add(
        _line(np.vstack((c.strip(-q, q, half, -half), c.strip(-q, q, half, -half)[:1])), Style(stroke=INK, width=0.3))
    )
    # grid slots behind the line. Units across: the number on a white disc, so slot and action unit both read
    # where the grid stands on one (its stripes and frame show round the disc); per-lane spaces: the number alone
    across = c.graph is None
    size = pt_to_mm(9)
    for slot in c.grid:
        feats.add(_line(np.array(slot.outline), Style(stroke=INK, width=0.35)))
        x, y = slot.centre
        number, fs = str(slot.number), size
        if across:
            r = min(2.6, c.lane_width * 0.3)
            disc = tuple((x + r * math.cos(k / 20 * math.tau), y + r * math.sin(k / 20 * math.tau)) for k in range(20))
            feats.add(Polygon(pts(np.array(disc)), (), Style(stroke=GRID_NO, width=0.2, fill=WHITE)))
            fs = fit_number(number, size, 1.7 * r)
        # upright like the unit numbers, dark enough to read across the table
        feats.add(Text(number, x, y, fs, "bold", GRID_NO, "middle", "middle"))
    _start_label_and_arrow(page, c, free)
    if c.real_start is not None:  # the real start line, where the race does not start: dashed across the track
        s = c.real_start[0]
        p = c.line.point(np.array([s]))[0]
        th = float(c.line.heading(np.array([s]))[0])
        nx, ny = math.sin(th), -math.cos(th)
        ends = np.array([p + np.array([nx, ny]) * (half + 1.0), p - np.array([nx, ny]) * (half + 1.0)])
        feats.add(_line(ends, Style(stroke=INK, width=0.6, dash=(0.8, 0.6))))
        _real_start_label(page, c, free, s)


def _real_start_label(page: Page, c: Circuit, free: FreeSpace, s: float) -> None:
    """REAL START beside the real start line's dashed mark (so the mark never reads as a pit lane's entry)."""
    d = c.half_width + KERB_W + 1.5
    label_near(page, c, free, s, words()["labels"]["real_start"], (d, -d), "labels")


def label_near(page: Page, c: Circuit, free: FreeSpace, s: float, text: str, offsets, layer: str) -> None:
    """``text`` beside the track at arc length ``s`` on free paper: at each of ``offsets`` (mm from the centre
    line, signed: the first is tried first) moving out and along the track until clear; else the nearest free
    paper, with a thin leader to the track there. No free paper at all is a GeometryError: a mark the board
    cannot explain is never printed silently."""
    fsize = pt_to_mm(6)
    font = "condensed-bold"
    L = c.lap_length
    half_h = fsize * 0.5
    for along in (0.0, 4.0, -4.0, 8.0, -8.0, 12.0, -12.0):
        at = (s + along) % L
        rot = upright(math.degrees(float(c.line.heading(at))))
        for extra in (0.0, 1.5, 3.0, 5.0, 8.0):
            for d in offsets:
                x, y = c.offset_point(at, d + math.copysign(half_h + extra, d))
                box = text_box(text, x, y, fsize, font, rotation=rot)
                if free.free(box):
                    page.layer(layer).add(Text(text, x, y, fsize, font, INK, "middle", "middle", rot))
                    free.take(box)
                    return
    w, h = text_width(text, fsize, font) + 2.0, fsize * 1.6
    px, py = c.point_at(s % L)
    spot = free.find(w, h, [(px - w / 2, py - h / 2)], step=3.0)
    if spot is None and c.problems:  # a board with problems, drawn to show them: the label where it falls
        spot = (px - w / 2, py - h / 2)
    if spot is None:
        raise GeometryError(
            f"{c.name}: no free paper on {c.paper.name.upper()} for the label {text}",
            file=c.source,
            hint="a larger paper (--paper) or a smaller board (--fit N units)",
        )
    x, y = spot[0] + w / 2, spot[1] + h / 2
    box = text_box(text, x, y, fsize, font)
    ends = [Point(c.offset_point(s % L, d)) for d in (c.half_width + 1.0, -c.half_width - 1.0)]
    near = min(ends, key=box.distance)
    far = box.exterior.interpolate(box.exterior.project(near))
    page.layer(layer).add(Polyline(((near.x, near.y), (far.x, far.y)), Style(stroke=MUTED, width=0.2)))
    page.layer(layer).add(Text(text, x, y, fsize, font, INK, "middle", "middle"))
    free.take(box)


def _start_label_and_arrow(page: Page, c: Circuit, free: FreeSpace) -> None:
    """START · FINISH beside the track just behind the line, and the race-direction arrow beside it just after the
    line, each on free paper (never on the pit lane, its garages or another label). The label moves back along
    the grid and further out until it is clear; the arrow likewise forward. With no free paper at all the arrow
    is drawn on the track surface itself: a board always shows which way to race."""
    half = c.half_width
    u = c.unit_length
    L = c.lap_length
    sign = _side_room(c, free, 0.0, 3)
    lbl = words()["labels"]["start"]
    fsize = pt_to_mm(7)
    lw = text_width(lbl, fsize, "condensed-bold")
    extras = (0.0, 1.5, 3.0, 5.0, 8.0, 12.0)
    placed = None
    side = sign
    back = [-(lw / 2 + 2.0) - j * u / 2 for j in range(int(2 * max(3, math.ceil(c.spec.grid / c.lanes) + 1)))]
    for sl in back:
        if -sl > L / 3:
            break
        rot = upright(math.degrees(float(c.line.heading(sl))))
        for extra in extras:
            for sg in (sign, -sign):
                x, y = c.offset_point(sl, sg * (half + KERB_W + 2.0 + fsize * 0.5 + extra))
                box = text_box(lbl, x, y, fsize, "condensed-bold", rotation=rot)
                if free.free(box):
                    placed = (x, y, rot, box)
                    side = sg
                    break
            if placed:
                break
        if placed:
            break
    if placed is None:  # no room beside the line: the nearest free paper, level
        w, h = lw + 2.0, fsize * 1.6
        sx, sy = c.point_at(0.0)
        spot = free.find(w, h, [(sx - w / 2, sy - h / 2)], step=3.0)
        if spot is not None:
            x, y = spot[0] + w / 2, spot[1] + h / 2
            placed = (x, y, 0.0, text_box(lbl, x, y, fsize, "condensed-bold"))
    if placed is not None:
        x, y, rot, box = placed
        page.layer("labels").add(Text(lbl, x, y, fsize, "condensed-bold", INK, "middle", "middle", rot))
        free.take(box)
    # the arrow: beside the track after the line (the label's side first), moving forward and out until clear
    feats = page.layer("features")
    length = max(u * 1.8, 24.0)
    arrow = None
    for shift in [j * u / 2 for j in range(6)]:  # within about three units of the line
        a0 = 2.0 + shift
        if a0 + length > L / 3:
            break
        bend = float(np.abs(c.line.curvature(np.linspace(a0, a0 + length, 16))).max())
        for extra in extras:
            for sg in (side, -side):
                d = sg * (half + KERB_W + 3.0 + extra)
                if bend * abs(d) > 0.2:  # beside a tight bend the arrow would buckle: not here
                    continue
                geom = LineString(c.offset_line(a0, a0 + length, d)).buffer(2.2)
                if free.free(geom):
                    arrow = (a0, d, geom)
                    break
            if arrow:
                break
        if arrow:
            break
    if arrow is None:  # on the track surface, along the centre line of the first units
        arrow = (2.0, 0.0, None)
    a0, d, geom = arrow
    a1 = a0 + length
    shaft = c.offset_line(a0, a1 - 3.0, d)
    feats.add(_line(shaft, Style(stroke=INK, width=0.7)))
    tip = np.array(c.offset_point(a1, d))
    t = np.array(c.tangent_at(a1))
    n = np.array(c.normal_at(a1))
    head = np.array([tip, tip - 3.5 * t + 1.6 * n, tip - 3.5 * t - 1.6 * n])
    feats.add(_poly(head, Style(stroke=None, fill=INK)))
    if geom is not None:
        free.take(geom)


def _draw_pit(page: Page, c: Circuit, free: FreeSpace | None = None) -> None:
    if c.pit is None:
        return
    feats = page.layer("features")
    pit = c.pit
    sign = 1.0 if pit.side == "left" else -1.0
    feats.add(Polygon(pit.polygon, (), Style(stroke=INK, width=0.35, fill=PIT, join="round")))
    # the pit wall: a line between track and pit lane along the full-width part
    wall = c.offset_line(pit.s0 + pit.taper, pit.s1 - pit.taper, sign * (c.half_width + 2.0))
    feats.add(_line(wall, Style(stroke=INK, width=0.5)))
    # the pit lane's units, and its entry and exit lines (bold) where it reaches full width
    inner_d, outer_d = sign * (c.half_width + PIT_GAP), sign * (c.half_width + PIT_GAP + pit.width)
    last = len(pit.unit_s) - 1
    for j, s in enumerate(pit.unit_s):
        bold = j in (0, last)
        style = Style(stroke=INK, width=0.8 if bold else 0.3)
        feats.add(Polyline((c.offset_point(s, inner_d), c.offset_point(s, outer_d)), style))
    say = words()["labels"]
    if pit.unit_s and free is not None:
        out = sign * (c.half_width + PIT_GAP + pit.width + 1.0)
        back = -sign * (c.half_width + KERB_W + 1.5)
        for s, key in ((pit.s0 + pit.taper * 0.55, "pit_in"), (pit.s1 - pit.taper * 0.55, "pit_out")):
            label_near(page, c, free, s, say[key], (out, back), "features")
    size = pt_to_mm(6.5)
    for i, (ring, (x, y)) in enumerate(pit.garage_boxes):
        feats.add(Polygon(ring, (), Style(stroke=INK, width=0.3, fill=WHITE)))
        s = pit.s0 + pit.taper + (i + 0.5) * (pit.s1 - pit.s0 - 2 * pit.taper) / max(1, len(pit.garage_boxes))
        deg = math.degrees(float(c.line.heading(s)))
        feats.add(Text(str(i + 1), x, y, size, "condensed-bold", INK, "middle", "middle", upright(deg)))
    span = pit.s1 - pit.s0 - 2 * pit.taper
    for s in (pit.s0 + pit.taper * 0.5, pit.s1 - pit.taper * 0.5):
        # small chevrons showing the way in and out, in the tapers before the entry line and after the exit line
        inner, outer = pit.offsets(np.array([s]), c.half_width)
        p = np.array(c.offset_point(s, sign * float(inner[0] + outer[0]) / 2))
        t = np.array(c.tangent_at(s))
        n = np.array(c.normal_at(s))
        feats.add(_line(np.array([p - 2 * t + 1.0 * n, p, p - 2 * t - 1.0 * n]), Style(stroke=MUTED, width=0.4)))
    del span


def _draw_police(page: Page, c: Circuit, free: FreeSpace) -> None:
    if c.spec.police_line is None:
        return
    s = c.unit_bounds(c.spec.police_line)[1]
    half = c.half_width
    p0 = c.offset_point(s, half + 1.5)
    p1 = c.offset_point(s, -half - 1.5)
    page.layer("features").add(Polyline((p0, p1), Style(stroke=POLICE, width=1.0, dash=(2.0, 1.0))))
    sign = _side_room(c, free, s, 4)
    x, y = c.offset_point(s, sign * (half + KERB_W + 6))
    size = pt_to_mm(6.5)
    label = words()["labels"]["police"]
    page.layer("labels").add(Text(label, x, y, size, "condensed-bold", POLICE, "middle", "middle"))
    free.take(text_box(label, x, y, size, "condensed-bold"))


def _draw_crossings(page: Page, c: Circuit) -> None:
    half = c.half_width
    for n, cr in enumerate(c.crossings):
        a, b = cr.s_upper - cr.reach, cr.s_upper + cr.reach
        lay = page.layer("bridges")
        if cr.kind == "bridge":
            lay.add(_poly(c.strip(a, b, half + 2.6, -half - 2.6), Style(stroke=None, fill=WHITE)))
        _draw_track(page, c, a, b, main=False, layer_override="bridges")
        if cr.kind == "bridge":
            for d in (half + 1.6, -half - 1.6):
                lay.add(_line(c.offset_line(a + 2, b - 2, d), Style(stroke=INK, width=1.2, cap="round")))
        else:
            # tunnel portals where the lower pass dives under
            ext = half / max(math.sin(math.radians(cr.angle)), 0.3) + 1.5
            for s in (cr.s_lower - ext, cr.s_lower + ext):
                p0 = c.offset_point(s, half + 1.5)
                p1 = c.offset_point(s, -half - 1.5)
                lay.add(Polyline((p0, p1), Style(stroke=INK, width=1.6, cap="round")))
        if cr.kind == "tunnel":
            _tunnel_tags(page, c, n, cr)


def _tunnel_tags(page: Page, c: Circuit, n: int, cr) -> None:
    """Tag the spaces either side of a tunnel alike: a car leaving the near one is put on the far one. Per-lane
    boards tag each lane's pair apart (T1a, T1b …: :func:`generator.track.spaces.tunnel_tags`)."""
    size = pt_to_mm(6)
    labels = page.layer("labels")
    if c.graph is not None:
        tags = tunnel_tags(c)
        numbered = numbered_spaces(c)
        for sp in tunnel_tag_spaces(c, cr):
            x, y = sp.center
            rot = label_rotation(c, sp)
            if sp.id in numbered:  # the space's number is printed too: the tag goes below it
                ux, uy = text_up(rot)
                x, y = x - 1.7 * ux, y - 1.7 * uy
            labels.add(Text(tags[sp.id], x, y, size, "condensed-bold", INK, "middle", "middle", rot))
    else:
        tag = f"T{n + 1}"
        hid = [u for u in c.hidden_units() if c.lap_distance(np.array(c.unit_bounds(u)[0]), cr.s_lower) < 3 * cr.reach]
        if hid:
            for u in (min(hid) - 1, max(hid) + 1):
                u = (u - 1) % c.units_count + 1
                s0, s1 = c.unit_bounds(u)
                x, y = c.point_at((s0 + s1) / 2)
                rot = upright(math.degrees(float(c.line.heading((s0 + s1) / 2))))
                labels.add(Text(tag, x, y, size, "condensed-bold", INK, "middle", "middle", rot))


# ----------------------------------------------------------------------------------------------- labels
