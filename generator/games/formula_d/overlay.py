"""The Formula D layer on a per-lane board: corner entry and exit lines, a yellow flag with the stops, the green
(long) and red (short) path counts, and the pit lane's minimum roll to enter.

The counts are computed on the board's own spaces (:mod:`generator.formula_d.corners`); nothing is typed in.
The board itself, with its numbered grid (pole = 1, at the front) and garages, comes from ``generator.track``,
and so does the paper still free for labels (the board's :class:`~generator.compose.freespace.FreeSpace`): the
flags, the pit mark and the key go there, clear of the track and of every label the board placed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from ...fonts import ascent, text_width
from ...notices import warn
from ...paper import DEFAULT_EDGE
from ...scene import Circle, Page, Polygon, Polyline, Style, Text, rect
from ...units import pt_to_mm
from .circuit import DEFAULT_BOARD, load_circuit  # noqa: F401  (the board every sheet is drawn on)
from .corners import CornerPaths, corner_paths, suggest_stops

LAYER = "formula-d"
INK = "#1a1a1a"
FLAG = "#f6c915"
FLAG_SUGGESTED = "#fbe9a0"  # stops Paddock suggests (the spec gives none): paler, dashed, "2?"
GREEN = "#1e8c3a"
POLICE = "#1f56c9"  # the board's police blue
HOWL = "#7b2fa0"  # "the engines are howling" zones (road races)
HOWL_OPACITY = 0.3
RED = "#c62828"
CORNER_TINT = "#fff6d6"  # a corner's spaces, tinted lightly: a pale cream, lighter than the track in greyscale too
CORNER_OPACITY = 0.5
ARROW = "#4a4a4a"  # lane changes between offset spaces ("following the arrows")
ARROW_REACH = 3.5  # mm either side of the lane border
NUM = pt_to_mm(10)
BOX_H = 6.0


@dataclass(frozen=True)
class CornerMark:
    index: int
    s_start: float
    s_end: float
    radius: float
    stops: int
    stops_suggested: bool
    paths: CornerPaths
    name: str | None = None  # the spec's corner name, printed above the flag


def corner_marks(circuit) -> list[CornerMark]:
    from ...errors import GeometryError

    out = []
    for i, c in enumerate(circuit.corners):
        try:
            paths = corner_paths(circuit.graph, c.s_start, c.s_end)
        except GeometryError as err:  # said of the user's circuit, and of which corner
            err.message = f"corner {i + 1}{f' ({c.name})' if c.name else ''}: {err.message}"
            err.file = err.file or (str(circuit.source) if circuit.source else None)
            raise
        stops = c.stops or suggest_stops(c.radius, paths.short)
        out.append(CornerMark(i + 1, c.s_start, c.s_end, c.radius, stops, c.stops is None, paths, c.name))
    return out


def stepped_line(circuit, edges: tuple[float, ...], extra: float = 0.0) -> tuple[tuple[float, float], ...]:
    """A line across the track that follows space edges: across lane ``i`` at centre-line arc length
    ``edges[i]`` (a space edge of that lane), stepping along the lane border to the next lane's edge. ``extra``
    mm past each track edge. Points from the left edge to the right, page mm."""
    import numpy as np

    lap = circuit.lap_length
    hw = circuit.lane_width / 2
    # unwrap: each lane's edge taken within half a lap of the first lane's
    ss = [edges[0]]
    for s in edges[1:]:
        ss.append(ss[-1] + ((s - ss[-1] + lap / 2) % lap - lap / 2))
    pts: list[tuple[float, float]] = []
    for lane, s in enumerate(ss):
        d = circuit.lane_offset(lane)
        if lane == 0:
            pts.append(circuit.offset_point(s, d + hw + extra))
        elif abs(s - ss[lane - 1]) > 1e-6:  # the step: along the border between this lane and the one before
            a, b = ss[lane - 1], s
            seg = circuit.offset_line(min(a, b), max(a, b), d + hw)
            pts.extend(map(tuple, (seg if a < b else seg[::-1])[1:]))
        pts.append(circuit.offset_point(s, d - hw - (extra if lane == circuit.lanes - 1 else 0.0)))
    out = [pts[0]]
    for p in pts[1:]:
        if np.hypot(p[0] - out[-1][0], p[1] - out[-1][1]) > 1e-6:
            out.append(p)
    return tuple((round(float(x), 4), round(float(y), 4)) for x, y in out)


def police_edges(circuit) -> tuple[float, ...] | None:
    """The police line (spec: ``police_line``, at the end of that unit) snapped per lane to the nearest space
    edge: a car has crossed it when it leaves the last space before it."""
    from .corners import nearest_edge

    unit = circuit.spec.police_line
    if unit is None or circuit.graph is None:
        return None
    s = circuit.unit_bounds(unit)[1] % circuit.lap_length
    g = circuit.graph
    return tuple(g.lane(lane)[nearest_edge(g.lane(lane), s, g.lap_length)].s0 for lane in range(g.lanes))


NAME = pt_to_mm(6.5)  # a corner's name, above its flag
NAME_H = NAME * 1.3


def _label_size(mark: CornerMark) -> tuple[float, float]:
    w = _boxes_w(mark)
    if mark.name:
        return max(w, text_width(mark.name, NAME, "condensed-bold")), BOX_H + 2.5 + NAME_H
    return w, BOX_H + 2.5


def _boxes_w(mark: CornerMark) -> float:
    return sum(_box_w(t) for t in (_stops_text(mark), str(mark.paths.long), str(mark.paths.short))) + 2 * 1.0 + 2.2


def _stops_text(mark: CornerMark) -> str:
    return f"{mark.stops}?" if mark.stops_suggested else str(mark.stops)


def _box_w(text: str) -> float:
    return max(BOX_H, text_width(text, NUM, "bold") + 2.4)


def _draw_label(layer, mark: CornerMark, x: float, y: float) -> None:
    """The corner's name over its flag (stops), green (long), red (short), left to right, centred on (x, y)."""
    w, h = _label_size(mark)
    if mark.name:
        layer.add(Text(mark.name, x, y - h / 2 + NAME * 0.85, NAME, "condensed-bold", INK, anchor="middle"))
        y += NAME_H / 2
    w = _boxes_w(mark)
    cx = x - w / 2
    top = y - BOX_H / 2
    # the flag: a pole and a yellow cloth with the stops
    layer.add(
        Polyline(((cx + 0.4, top - 1.2), (cx + 0.4, top + BOX_H + 1.3)), Style(stroke=INK, width=0.6, cap="round"))
    )
    fx = cx + 1.0
    fw = _box_w(_stops_text(mark))
    cloth = ((fx, top), (fx + fw, top + 0.6), (fx + fw, top + BOX_H - 0.6), (fx, top + BOX_H))
    if mark.stops_suggested:  # Paddock's suggestion, not the spec's: a pale flag, dashed, with a "?"
        layer.add(Polygon(cloth, (), Style(stroke=INK, width=0.3, fill=FLAG_SUGGESTED, dash=(0.8, 0.5))))
    else:
        layer.add(Polygon(cloth, (), Style(stroke=INK, width=0.3, fill=FLAG)))
    layer.add(Text(_stops_text(mark), fx + fw / 2, y, NUM, "bold", INK, anchor="middle", valign="middle"))
    bx = fx + fw + 1.2
    for value, colour in ((mark.paths.long, GREEN), (mark.paths.short, RED)):
        # green filled, red outlined: told apart in greyscale too
        bw = _box_w(str(value))
        layer.add(rect(bx, top, bw, BOX_H, _path_box(colour)))
        ink = "#ffffff" if colour == GREEN else RED
        layer.add(Text(str(value), bx + bw / 2, y, NUM, "bold", ink, anchor="middle", valign="middle"))
        bx += bw + 1.0


def _path_box(colour: str) -> Style:
    """The long path's box is filled green; the short path's is white with a thick red frame."""
    if colour == RED:
        return Style(stroke=RED, width=0.8, fill="#ffffff")
    return Style(stroke=INK, width=0.3, fill=colour)


def _place(free, circuit, s: float, w: float, h: float, sides: tuple[float, ...], side_first: bool = False):
    """The nearest free spot beside the track at ``s``: trying both sides at each distance, or (``side_first``)
    every distance on the first side before the other."""
    from shapely import box

    extras = (2.0, 5.0, 9.0, 14.0, 20.0, 28.0, 38.0, 48.0, 58.0)
    order = [(e, sg) for sg in sides for e in extras] if side_first else [(e, sg) for e in extras for sg in sides]
    for extra, sign in order:
        for ds in (0.0, -8.0, 8.0, -16.0, 16.0):
            d = sign * (circuit.half_width + circuit.kerb_width + extra + max(w, h) / 2)
            x, y = circuit.offset_point(s + ds, d)
            g = box(x - w / 2 - 0.5, y - h / 2 - 0.5, x + w / 2 + 0.5, y + h / 2 + 0.5)
            if free.free(g):
                free.take(g)
                return x, y
    return None


def overlay(
    board,
    circuit,
    marks: list[CornerMark],
    pit_roll: int | None = None,
    laps: int | None = None,
    pit_suggested: bool = False,
) -> None:
    """Draw the Formula D layer on ``board`` (what :func:`generator.track.draw_board` gave for ``circuit``),
    its labels in the board's free paper: ``laps``, the race length in the key (default: the rulebook's);
    ``pit_suggested``: ``pit_roll`` is Paddock's suggestion (``--house-rules``), printed as such."""
    from .facts import game

    page, free = board.page, board.free
    layer = page.layer(LAYER)
    line = Style(stroke=INK, width=0.7, join="miter", cap="butt")
    tint = Style(stroke=None, fill=CORNER_TINT, opacity=CORNER_OPACITY)
    from ...track.spaces import numbered_spaces

    marked = numbered_spaces(circuit) | set(circuit.danger_spaces)  # spaces the board fills: they keep their colour
    for m in marks:  # every other space of a corner tinted lightly, under its lines
        for i in sorted(m.paths.spaces - marked):
            layer.add(Polygon(circuit.graph.spaces[i].polygon, (), tint))
    howling = howling_zones(circuit)
    for i, zone in enumerate(howling):
        _draw_zone(layer, free, circuit, zone, i)
    arrows = lane_changes(circuit, {i for m in marks for i in m.paths.spaces})
    for a, b in arrows:
        _arrow(layer, circuit, a, b)
    for m in marks:
        lim = m.paths.limits
        for edges in (lim.entry, lim.exit):
            pts = stepped_line(circuit, edges, 1.2)
            layer.add(Polyline(pts, Style(stroke="#ffffff", width=1.5, join="miter")))
            layer.add(Polyline(pts, line))
    police = police_edges(circuit)
    if police is not None:
        pts = stepped_line(circuit, police, 1.5)
        layer.add(Polyline(pts, Style(stroke="#ffffff", width=1.6, join="miter")))
        layer.add(Polyline(pts, Style(stroke=POLICE, width=1.0, dash=(2.0, 1.0), join="miter")))
        _police_label(layer, free, circuit, police)
    for m in marks:
        w, h = _label_size(m)
        mid = (m.s_start + (m.s_end - m.s_start) / 2) % circuit.lap_length
        corner = circuit.corners[m.index - 1]
        inside = 1.0 if corner.direction == "left" else -1.0  # the normal points left
        spot = _place(free, circuit, mid, w, h, (inside, -inside))
        if spot is None:
            warn(f"corner {m.index}: no free room beside the track for its flag and path numbers")
            continue
        _leader(layer, circuit, mid, spot, w, h)
        _draw_label(layer, m, *spot)
    if circuit.pit is not None:
        # The board's own number (spec: pit.min_roll) unless the command overrides it.
        roll = pit_roll if pit_roll is not None else circuit.pit.min_roll
        _pit_mark(layer, free, circuit, roll, pit_suggested and pit_roll is not None)
    laps = game().laps if laps is None else laps
    flags = {"suggested": any(m.stops_suggested for m in marks), "corner": bool(marks), "arrows": bool(arrows)}
    flags |= {"police": police is not None, "howling": bool(howling)}
    _key(layer, free, page, laps, flags)


def lane_changes(circuit, corner_spaces: set[int] | None = None) -> list[tuple[int, int]]:
    """The lane changes the board draws as arrows (the rulebook's "following the arrows", in corners): every
    diagonal move of the board's :class:`~generator.track.LaneGraph` (space id to space id) that starts or ends in a
    corner (``corner_spaces``; None: anywhere) onto a space that does not start level with the end of the space moved
    from (within :data:`~generator.track.spaces.LEVEL` of a unit) — there "diagonally forward" alone would leave a
    player guessing. None on the straights, where the key's words settle it (the space beside your front edge), and
    none to or from a hidden space."""
    from ...track.spaces import LEVEL

    g = circuit.graph
    if g is None:
        return []
    L, tol = g.lap_length, LEVEL * circuit.unit_length
    out = []
    for sp in g.spaces:
        for t in sp.diagonal:
            target = g.spaces[t]
            if sp.hidden or target.hidden:
                continue
            if corner_spaces is not None and sp.id not in corner_spaces and t not in corner_spaces:
                continue
            if abs((target.s0 - sp.s1 + L / 2) % L - L / 2) > tol:
                out.append((sp.id, t))
    return out


ARROW_STEPS = 8  # points along an arrow's shaft: enough for it to bend with the lanes in the tightest corner
ARROW_BACK = 0.5  # an arrow's tail: this share of its space back from the space's end (its middle)
ARROW_INTO = 0.45  # its head: this share of ARROW_REACH into the lane moved to, so opposite moves keep apart


def arrow_path(circuit, a: int, b: int) -> list[tuple[float, float]]:
    """The shaft of the arrow from space ``a`` to space ``b`` of a neighbouring lane (page mm, tail first), drawn
    as the move goes — diagonally forward, bending with the lanes: from the middle of ``a``, ``ARROW_REACH`` from
    the lane border, over the border where ``a`` and ``b`` lie side by side, to the middle of the part of ``b`` that
    lies ahead of ``a``'s end, just over the border (so the arrow of the opposite move, which runs mostly in the
    other lane, does not cross it). It keeps to ``a`` and ``b`` (where it crosses the border, within half a
    millimetre)."""
    g, L = circuit.graph, circuit.lap_length
    sa, sb = g.spaces[a], g.spaces[b]
    da, db = circuit.lane_offset(sa.lane), circuit.lane_offset(sb.lane)
    border = (da + db) / 2
    sign = 1.0 if db > da else -1.0

    def ahead(s: float) -> float:  # arc length past the start of ``a``
        return (s - sa.s0) % L

    end = ahead(sa.s1)
    start_b = ahead(sb.s0) if ahead(sb.s0) < end + L / 2 else 0.0  # b may start behind a
    tail = end * (1 - ARROW_BACK)
    head = (max(start_b, end) + ahead(sb.s1)) / 2
    out = []
    for i in range(ARROW_STEPS + 1):
        t = i / ARROW_STEPS
        s = sa.s0 + tail + (head - tail) * t
        x, y = circuit.offset_point(s % L, border + sign * ARROW_REACH * (ARROW_INTO * t - (1 - t)))
        out.append((round(float(x), 4), round(float(y), 4)))
    return out


def arrow_points(circuit, a: int, b: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Tail and head (page mm) of the arrow from space ``a`` to space ``b`` (:func:`arrow_path`)."""
    path = arrow_path(circuit, a, b)
    return path[0], path[-1]


def _arrow(layer, circuit, a: int, b: int) -> None:
    path = arrow_path(circuit, a, b)
    (px, py), (hx, hy) = path[-2], path[-1]
    d = math.hypot(hx - px, hy - py) or 1.0
    ux, uy = (hx - px) / d, (hy - py) / d
    head = 1.5
    base = (hx - ux * head, hy - uy * head)
    shaft = [p for p in path[:-1] if (p[0] - hx) * ux + (p[1] - hy) * uy < -head] + [base]
    layer.add(Polyline(tuple(shaft), Style(stroke=ARROW, width=0.35, cap="round", join="round")))
    wx, wy = -uy * head * 0.6, ux * head * 0.6
    wings = ((base[0] + wx, base[1] + wy), (base[0] - wx, base[1] - wy))
    layer.add(Polygon(((hx, hy), *wings), (), Style(stroke=None, fill=ARROW)))


def howling_zones(circuit) -> list:
    """The spec's "engines are howling" zones as :class:`CornerLimits` (their spaces between stepped lines)."""
    from .corners import corner_limits

    if circuit.graph is None:
        return []
    L = circuit.lap_length
    out = []
    for z in circuit.spec.howling:
        a = circuit.unit_bounds(z.from_)[0] % L
        b = circuit.unit_bounds(z.to)[1] % L
        out.append(corner_limits(circuit.graph, a, b))
    return out


def _draw_zone(layer, free, circuit, zone, index: int) -> None:
    """A howling zone: its spaces tinted, its limits stepped along space edges, a label beside it."""
    for i in sorted(zone.spaces):
        sp = circuit.graph.spaces[i]
        if not sp.hidden:  # under a tunnel: no car stops there, and the bridge over it stays as drawn
            layer.add(Polygon(sp.polygon, (), Style(stroke=None, fill=HOWL, opacity=HOWL_OPACITY)))
    for edges in (zone.entry, zone.exit):
        layer.add(Polyline(stepped_line(circuit, edges, 1.5), Style(stroke=HOWL, width=1.0, join="miter")))
    from .facts import sheets

    text = sheets().board_labels.howling
    size = pt_to_mm(6.5)
    w, h = text_width(text, size, "condensed-bold") + 1.0, size * 1.4
    L = circuit.lap_length
    a, b = zone.entry[0], zone.exit[0]
    mid = (a + ((b - a) % L) / 2) % L
    spot = _place(free, circuit, mid, w, h, (1.0, -1.0))
    if spot is None:
        warn(f"howling zone {index + 1}: no free room for its label")
        return
    layer.add(Text(text, spot[0], spot[1], size, "condensed-bold", HOWL, "middle", "middle"))


def _police_label(layer, free, circuit, edges) -> None:
    from ...track.legend import words

    label = words()["labels"]["police"]
    size = pt_to_mm(6.5)
    w, h = text_width(label, size, "condensed-bold") + 1.0, size * 1.4
    s = sum(edges) / len(edges)
    spot = _place(free, circuit, s, w, h, (1.0, -1.0))
    if spot is None:
        warn("the police line's label has no free room on the board")
        return
    layer.add(Text(label, spot[0], spot[1], size, "condensed-bold", POLICE, "middle", "middle"))


def _leader(layer, circuit, s: float, spot: tuple[float, float], w: float, h: float) -> None:
    """A thin line from a label that had to go further out back to the track edge it belongs to."""
    from shapely import LineString, box

    x, y = spot
    reach = circuit.half_width + circuit.kerb_width + 0.8
    ends = [circuit.offset_point(s, reach), circuit.offset_point(s, -reach)]
    tx, ty = min(ends, key=lambda p: math.hypot(p[0] - x, p[1] - y))
    outline = box(x - w / 2 - 0.8, y - h / 2 - 0.8, x + w / 2 + 0.8, y + h / 2 + 0.8)
    seg = LineString([(x, y), (tx, ty)]).difference(outline)
    if seg.is_empty or seg.length < 4.0:
        return
    pts = tuple((round(a, 3), round(b, 3)) for a, b in seg.coords)
    layer.add(Polyline(pts, Style(stroke="#6b6b6b", width=0.3, dash=(1.0, 0.7))))
    layer.add(Circle((tx, ty), 0.7, Style(stroke=None, fill="#6b6b6b")))


def _pit_mark(layer, free, circuit, pit_roll: int | None, suggested: bool = False) -> None:
    pit = circuit.pit
    text = "MIN. ROLL TO ENTER THE PIT"
    size = pt_to_mm(6.5)
    tw = text_width(text, size, "condensed-bold")
    w, h = tw + 2 + BOX_H + 1.5, BOX_H + 1
    sign = 1.0 if pit.side == "left" else -1.0
    s = (pit.s0 + pit.taper) % circuit.lap_length
    spot = _place(free, circuit, s, w, h, (sign, -sign), side_first=True)
    if spot is None:
        warn("the pit lane's minimum roll has no free room on the board")
        return
    x, y = spot
    _leader(layer, circuit, s, spot, w, h)
    x0 = x - w / 2
    layer.add(Text(text, x0, y, size, "condensed-bold", INK, valign="middle"))
    bx = x0 + tw + 1.5
    layer.add(rect(bx, y - BOX_H / 2, BOX_H, BOX_H, Style(stroke=INK, width=0.35, fill="#ffffff")))
    if pit_roll is not None:
        ink = "#6b6b6b" if suggested else INK  # Paddock's suggestion (--house-rules): grey, and said so
        layer.add(Text(str(pit_roll), bx + BOX_H / 2, y, NUM, "bold", ink, anchor="middle", valign="middle"))
    if suggested:
        from .facts import sheets

        word = sheets().board_labels.pit_suggested
        layer.add(Text(word, bx + BOX_H / 2, y + BOX_H / 2 + 1.6, pt_to_mm(5), "condensed", ink, "middle", "middle"))


def _key(layer, free, page, laps: int, flags: dict[str, bool]) -> None:
    """A small key: the race length, then what the flag, the two numbers and the board's other marks mean
    (``flags``: which of the optional entries the board needs)."""
    from shapely import box

    from .facts import sheets

    words = sheets().board_labels
    say = words.key
    size = pt_to_mm(6.5)
    head = words.race.format(laps=laps, lap_word="LAP" if laps == 1 else "LAPS")
    hsize = pt_to_mm(8)
    items = [("flag", say.stops), ("long", say.long), ("short", say.short)]
    if flags.get("suggested"):
        items.insert(1, ("suggested", say.suggested))
    for kind in ("corner", "arrows", "police", "howling"):
        if flags.get(kind):
            items.append((kind, getattr(say, kind)))
    pad = 0.6  # the swatches' strokes and the heading's glyphs clear of the spot's edge
    w = max(4 + max(text_width(t, size, "condensed") for _, t in items) + 2, text_width(head, hsize, "bold") + 1)
    w += 2 * pad
    top = ascent(hsize, "bold") + 2.0
    h = top + len(items) * 4.2 + 1 + 2 * pad
    x0, y0, cw, ch = page.content_box
    corners = [(x0 + cw - w, y0 + ch - h), (x0, y0 + ch - h), (x0 + cw - w, y0), (x0, y0)]
    spot = free.find(w, h, corners, step=3.0)  # a corner of the page if free, else the nearest free paper
    if spot is None:
        warn("the Formula D key (flag, green and red numbers) has no free room on the board")
        return
    free.take(box(spot[0], spot[1], spot[0] + w, spot[1] + h))
    x, y = spot[0] + pad, spot[1] + pad
    layer.add(Text(head, x, y + ascent(hsize, "bold"), hsize, "bold", INK))
    swatches = {
        "flag": Style(stroke=INK, width=0.25, fill=FLAG),
        "suggested": Style(stroke=INK, width=0.25, fill=FLAG_SUGGESTED),
        "long": _path_box(GREEN),
        "short": _path_box(RED),
        "corner": Style(stroke=INK, width=0.25, fill=CORNER_TINT, opacity=CORNER_OPACITY),
        "police": Style(stroke=INK, width=0.25, fill=POLICE),
        "howling": Style(stroke=HOWL, width=0.6, fill=HOWL, opacity=HOWL_OPACITY),
    }
    for i, (kind, label) in enumerate(items):
        yy = y + top + 1 + i * 4.2
        if kind == "arrows":
            _key_arrow(layer, x, yy)
        else:
            layer.add(rect(x, yy, 3.2, 3.2, swatches[kind]))
        layer.add(Text(label, x + 4.4, yy + 1.6, size, "condensed", INK, valign="middle"))


def _key_arrow(layer, x: float, y: float) -> None:
    """The key's arrow: as on the board, across a swatch's width."""
    layer.add(Polyline(((x, y + 1.6), (x + 1.9, y + 1.6)), Style(stroke=ARROW, width=0.35, cap="round")))
    layer.add(Polygon(((x + 3.2, y + 1.6), (x + 1.7, y + 0.7), (x + 1.7, y + 2.5)), (), Style(stroke=None, fill=ARROW)))


def formula_d_board(
    track: Path | None = None,
    n_cars: int = 0,
    pit_roll: int | None = None,
    paper=None,
    edge: float = DEFAULT_EDGE,
    road_race: bool = False,
    circuit=None,
    laps: int | None = None,
    pit_suggested: bool = False,
) -> Page:
    """The board page with the Formula D layer on top, placed on ``paper`` (default: the spec's); a road race
    (``road_race``) prints no pit lane. ``circuit``: one :func:`load_circuit` already built (``track``, ``paper``,
    ``road_race`` and ``n_cars`` then only word the warnings)."""
    from ... import track as tr

    if circuit is None:
        circuit = load_circuit(track, paper, edge, road_race, garages=n_cars)
    if n_cars > circuit.spec.grid:
        warn(f"{n_cars} cars but the board has {circuit.spec.grid} grid slots; add 'grid: {n_cars}' to the spec")
    # the board's police line runs straight across the track; Formula D steps it along space edges (overlay)
    drawn = replace(circuit, spec=circuit.spec.model_copy(update={"police_line": None}))
    # the board numbers its spaces (none under a grid slot) and tags each lane's tunnel spaces apart (T1a, T1b)
    board = tr.draw_board(drawn)
    overlay(board, circuit, corner_marks(circuit), pit_roll, laps, pit_suggested)
    return board.page
