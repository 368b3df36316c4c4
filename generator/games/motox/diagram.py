"""A course diagram: the whole course on one page, drawn to a stated scale so it fits A4.

A laid-out MotoX course of 24 two-inch tiles is far larger than a sheet of paper, so the diagram is a plan, not
a board: it says its scale (``1:k`` for the tiles being printed) and carries a one-tile scale bar. It shows every
tile with its four spaces and its number in the order of play, the start tile, the finish line (the edge of the
last tile facing away from the rest), every ramp with its height in coins and its raised edge, the race
direction, and the tile and coin counts.

Layers: ``tiles``, ``ramps``, ``grid``, ``route``, ``marks``, ``text``.
"""

from __future__ import annotations

from ...compose.blocks import fit, paragraph
from ...compose.colour import GREY, INK, WHITE, mix
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Circle, Page, Polygon, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts, pieces
from .course import HEADINGS, Course

PAPER = Paper("a4", "landscape")
LAYERS = ("tiles", "ramps", "grid", "route", "marks", "text")
SCALES = (1, 1.25, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50)
HEAD = 25.0  # mm: title, counts, footprint, scale
FOOT = 27.0  # mm: how to use the course, and the legend
MARGIN = 0.55  # tiles of room round the course for the finish flag and labels
START = "#2e7d32"
START_FILL = "#d6ecd2"
RAMP = "#e07b00"
ROUTE = "#5b4a3a"
ILLEGAL = "#c62828"


def preferred_paper(course: Course) -> Paper:
    """A4 turned the way the course is longer."""
    w, h = extent(course)
    return Paper("a4", "landscape" if w >= h else "portrait")


def extent(course: Course) -> tuple[float, float]:
    xs = [p[0] for p in course.positions]
    ys = [p[1] for p in course.positions]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def choose_scale(course: Course, box_w: float, box_h: float, tile: float) -> float:
    """The largest of the usual scales (1:1, 1:1.5, 1:2 …) at which the course and its margins fit the box."""
    w, h = extent(course)
    for k in SCALES:
        side = tile / k
        if (w + 2 * MARGIN) * side <= box_w and (h + 2 * MARGIN) * side <= box_h:
            return k
    return SCALES[-1]


def _ratio(k: float) -> str:
    return f"1:{k:g}"


def course_page(course: Course, spec: PageSpec, tile_in: float | None = None, problems: int = 0) -> Page:
    """The diagram of ``course`` on ``spec``; ``problems`` > 0 marks it as breaking the building rules."""
    page = Page(spec, f"MotoX course: {course.name}")
    for name in LAYERS:
        page.layer(name)
    text = page.layer("text")
    x0, y0, cw, ch = spec.content_box
    x0, y0, cw, ch = x0 + 0.3, y0 + 0.3, cw - 0.6, ch - 0.6
    tile = facts.tile_mm(tile_in)
    tile_label = f"{facts.inches().tile if tile_in is None else tile_in:g}-inch"

    # Title and counts.
    size = pt_to_mm(16)
    title = f"MotoX course: {course.name}"
    size = fit(title, "bold", size, cw * 0.62, "course title")
    text.add(Text(title, x0, y0 + ascent(size, "bold"), size, "bold", INK))
    coins = course.coins_used()
    ramps = len(course.ramps)
    counts = (
        f"{course.n} tiles · {ramps} ramp{'s' if ramps != 1 else ''} ({coins} coins) · {course.players} players, "
        f"{facts.tiles_per_player(course.players)} tiles and {facts.coins_per_player(course.players)} building "
        "coins each"
    )
    if course.names:
        counts += " · " + ", ".join(course.names)
    line_y = y0 + ascent(size, "bold") + 2.0
    s2 = fit(counts, "regular", pt_to_mm(8.5), cw * 0.62, "course counts")
    text.add(Text(counts, x0, line_y + ascent(s2), s2, "regular", INK))
    line_y += ascent(s2) + 1.8
    room = footprint(course, tile_in)
    s4 = fit(room, "regular", pt_to_mm(8.5), cw * 0.62, "course footprint")
    text.add(Text(room, x0, line_y + ascent(s4), s4, "regular", INK))
    line_y += ascent(s4) + 1.8
    if course.notes:
        line_y = paragraph(text, course.notes, x0, line_y, cw * 0.62, pt_to_mm(8), "condensed", GREY)
    if problems:
        warn_text = f"Not a legal course: {problems} building rule(s) broken — run paddock motox check"
        s3 = fit(warn_text, "bold", pt_to_mm(9), cw * 0.62, "warning")
        text.add(Text(warn_text, x0, line_y + ascent(s3, "bold") + 0.5, s3, "bold", ILLEGAL))

    # The course, to scale.
    area = (x0, y0 + HEAD, cw, ch - HEAD - FOOT)
    k = choose_scale(course, area[2], area[3], tile)
    side = tile / k
    _scale_note(page, x0 + cw, y0, k, side, tile, tile_label)
    w, h = extent(course)
    minx = min(p[0] for p in course.positions)
    miny = min(p[1] for p in course.positions)
    ox = area[0] + (area[2] - w * side) / 2 - minx * side
    oy = area[1] + (area[3] - h * side) / 2 - miny * side
    draw_course(page, course, ox, oy, side)
    _using(page, x0, y0 + ch - FOOT + 1.5, cw)
    _legend(page, x0, y0 + ch - 12.0, cw)
    return page


def footprint(course: Course, tile_in: float | None = None) -> str:
    """The room the course takes on the table: ``On the table: 8 × 7 tiles, 41 × 36 cm (2-inch tiles)``."""
    w, h = extent(course)
    side = facts.tile_mm(tile_in)
    size = facts.inches().tile if tile_in is None else tile_in
    return (
        f"On the table: {w:g} × {h:g} tiles, {w * side / 10:.0f} × {h * side / 10:.0f} cm with {size:g}-inch tiles, "
        "and a hand's width round it for the riders"
    )


def _using(page: Page, x: float, y: float, w: float) -> None:
    """How to race a course laid from this diagram: Paddock's reading, marked as such, with its reason."""
    from .summary import values

    note = facts.sheets().readings
    dealt = note.dealt
    text = page.layer("text")
    s = pt_to_mm(7.5)
    label = f"{dealt.heading} (Paddock's reading)"
    text.add(Text(label, x, y + ascent(s, "bold"), s, "bold", INK))
    yy = y + ascent(s, "bold") + 1.0
    body = f"{dealt.text.format(**values())} {note.why} {dealt.why}"
    paragraph(text, body, x, yy, w, s, "condensed", INK, leading=1.15)


def _scale_note(page: Page, right: float, top: float, k: float, side: float, tile: float, label: str) -> None:
    text = page.layer("text")
    s = pt_to_mm(8)
    words = "true scale" if k == 1 else f"scale {_ratio(k)}, to fit the page (not true scale)"
    line1 = f"Drawn at {words}"
    line2 = f"for {label} tiles ({tile:.1f} mm): one tile is {side:.1f} mm here"
    text.add(Text(line1, right, top + ascent(s, "bold"), s, "bold", INK, anchor="end"))
    text.add(Text(line2, right, top + ascent(s) + 4.0, s, "regular", INK, anchor="end"))
    # A one-tile scale bar with its quarters.
    by = top + 12.5
    bx = right - side
    layer = page.layer("marks")
    layer.add(rect(bx, by, side, 2.2, Style(stroke=INK, width=0.2, fill=WHITE)))
    layer.add(rect(bx, by, side / 2, 2.2, Style(stroke=None, fill=INK)))
    text.add(Text("1 tile", bx - 1.5, by + 1.1, pt_to_mm(7), "condensed", INK, anchor="end", valign="middle"))


def draw_course(page: Page, course: Course, ox: float, oy: float, side: float) -> None:
    """The tiles, route, start, finish and ramps, a tile ``side`` mm wide, tile (0, 0) at (ox, oy)."""
    tiles, ramps, grid, route, marks, text = (page.layer(n) for n in LAYERS)

    def corner(t: int) -> tuple[float, float]:
        x, y = course.pos(t)
        return ox + x * side, oy + y * side

    def centre(t: int) -> tuple[float, float]:
        x, y = corner(t)
        return x + side / 2, y + side / 2

    thin = Style(stroke=pieces.RUT, width=max(0.12, side * 0.008))
    outline = Style(stroke=ROUTE, width=max(0.25, side * 0.015))
    for t in range(1, course.n + 1):
        x, y = corner(t)
        fill = START_FILL if t == 1 else pieces.DIRT
        tiles.add(rect(x, y, side, side, Style(stroke=None, fill=fill)))
        grid.add(Polyline(((x + side / 2, y), (x + side / 2, y + side)), thin))
        grid.add(Polyline(((x, y + side / 2), (x + side, y + side / 2)), thin))
        grid.add(rect(x, y, side, side, outline))
        ns = min(pt_to_mm(8), side * 0.22)
        # The number in the middle of a quarter of its tile, clear of the route (through the centre and the edges'
        # middles), of a ramp's height disc and of the finish band: well inside the tile, never at a corner it
        # shares with the next tile's number.
        qx, qy = _number_quarter(course, t)
        cx, cy = x + side * (0.25 + 0.5 * qx), y + side * (0.25 + 0.5 * qy)
        text.add(Text(str(t), cx, cy, ns, "condensed-bold", INK, anchor="middle", valign="middle"))

    # Race direction: through the tile centres, an arrowhead on every shared edge, out over the finish line.
    pts = [centre(t) for t in range(1, course.n + 1)]
    fin = course.finish_edge()
    if fin and pts:
        d = HEADINGS[fin]
        cx, cy = pts[-1]
        pts.append((cx + d[0] * side / 2, cy + d[1] * side / 2))
    width = max(0.3, side * 0.035)
    route.add(Polyline(tuple(pts), Style(stroke=ROUTE, width=width, cap="round", join="round")))
    for t in range(1, course.n):
        d = course.step(t)
        if d is None:
            continue
        (ax, ay), (bx, by) = centre(t), centre(t + 1)
        _arrow(route, ((ax + bx) / 2, (ay + by) / 2), d, side * 0.16, ROUTE)

    # Start: the tile shaded green and marked START (bikes begin on its spaces).
    sx, sy = corner(1)
    ls = min(pt_to_mm(9), side * 0.22)
    label_y = sy - 1.2 if course.n < 2 or course.step(1) != (0, -1) else sy + side + 1.2 + ascent(ls, "bold")
    text.add(Text("START", sx + side / 2, label_y, ls, "bold", START, anchor="middle"))

    # Finish line: a chequered band on the last tile's far edge.
    if fin:
        _finish(page, course, corner(course.n), side, fin)

    # Ramps: a wedge rising to the raised edge, the edge drawn thick, the height in a disc by it.
    for r in course.ramp_list():
        if not 1 <= r.tile <= course.n:
            continue
        x, y = corner(r.tile)
        d = HEADINGS[r.edge]
        _ramp(ramps, grid, marks, text, x, y, side, d, r.height)


def _number_quarter(course: Course, t: int) -> tuple[int, int]:
    """The quarter of tile ``t`` for its number, (0, 0) top left to (1, 1) bottom right: the first of top left,
    top right, bottom left, bottom right not holding the ramp's height disc (see :func:`_ramp`) nor touching the
    finish line."""
    busy = set()
    if t in course.ramps:
        edge = course.raised_edge(t)
        if edge is not None:
            d = HEADINGS[edge]
            along = (1 - abs(d[0]), 1 - abs(d[1]))
            # the disc sits in the quarter on the raised side, a quarter tile along the edge from its middle
            qx = 1 if d[0] > 0 or (d[0] == 0 and along[0] > 0) else 0
            qy = 1 if d[1] > 0 or (d[1] == 0 and along[1] > 0) else 0
            busy.add((qx, qy))
    if t == course.n and course.finish_edge() is not None:  # the chequered band along the finish edge
        dx, dy = HEADINGS[course.finish_edge()]
        busy |= {(qx, qy) for qx in (0, 1) for qy in (0, 1) if (dx and qx == (dx > 0)) or (dy and qy == (dy > 0))}
    return next((q for q in ((0, 0), (1, 0), (0, 1), (1, 1)) if q not in busy), (0, 0))


def _arrow(layer, at: tuple[float, float], d: tuple[int, int], size: float, colour: str) -> None:
    x, y = at
    dx, dy = d
    px, py = -dy, dx
    tip = (x + dx * size * 0.6, y + dy * size * 0.6)
    a = (x - dx * size * 0.4 + px * size * 0.5, y - dy * size * 0.4 + py * size * 0.5)
    b = (x - dx * size * 0.4 - px * size * 0.5, y - dy * size * 0.4 - py * size * 0.5)
    layer.add(Polygon((tip, a, b), (), Style(stroke=None, fill=colour)))


def _edge_segment(x: float, y: float, side: float, d: tuple[int, int]):
    if d == (1, 0):
        return (x + side, y), (x + side, y + side)
    if d == (-1, 0):
        return (x, y), (x, y + side)
    if d == (0, 1):
        return (x, y + side), (x + side, y + side)
    return (x, y), (x + side, y)


def _ramp(layer, grid, marks, text, x: float, y: float, side: float, d: tuple[int, int], height: int) -> None:
    """A ramp in plan: the tile shaded deeper towards the raised edge, that edge drawn thick, the height by it."""
    bands = 4
    for i in range(bands):
        # Band i runs from i/bands to (i+1)/bands of the way from the low edge to the raised edge.
        t0, t1 = i / bands, (i + 1) / bands
        colour = mix(pieces.DIRT, RAMP, 0.15 + 0.6 * (i + 1) / bands)
        layer.add(Polygon(_band(x, y, side, d, t0, t1), (), Style(stroke=None, fill=colour)))
    (ax, ay), (bx, by) = _edge_segment(x, y, side, d)
    grid.add(Polyline(((ax, ay), (bx, by)), Style(stroke=RAMP, width=max(0.6, side * 0.07), cap="butt")))
    # Height in a disc on the raised side of the tile, clear of the route through the centre.
    px, py = (1 - abs(d[0])), (1 - abs(d[1]))  # along the edge
    r = max(1.6, side * 0.12)
    cx = (ax + bx) / 2 - d[0] * (r + side * 0.1) + px * side * 0.25
    cy = (ay + by) / 2 - d[1] * (r + side * 0.1) + py * side * 0.25
    marks.add(Circle((cx, cy), r, Style(stroke="#ffffff", width=0.25, fill=RAMP)))
    text.add(Text(str(height), cx, cy, r * 1.45, "bold", "#ffffff", anchor="middle", valign="middle"))


def _band(x: float, y: float, side: float, d: tuple[int, int], t0: float, t1: float):
    """The strip of the tile between fractions ``t0`` and ``t1`` of the way towards edge ``d``."""
    if d == (1, 0):
        return ((x + t0 * side, y), (x + t1 * side, y), (x + t1 * side, y + side), (x + t0 * side, y + side))
    if d == (-1, 0):
        return (
            (x + side - t1 * side, y),
            (x + side - t0 * side, y),
            (x + side - t0 * side, y + side),
            (x + side - t1 * side, y + side),
        )
    if d == (0, 1):
        return ((x, y + t0 * side), (x + side, y + t0 * side), (x + side, y + t1 * side), (x, y + t1 * side))
    return (
        (x, y + side - t1 * side),
        (x + side, y + side - t1 * side),
        (x + side, y + side - t0 * side),
        (x, y + side - t0 * side),
    )


def _finish(page: Page, course: Course, at: tuple[float, float], side: float, edge: str) -> None:
    d = HEADINGS[edge]
    x, y = at
    (ax, ay), (bx, by) = _edge_segment(x, y, side, d)
    n = 8
    cell = side / n
    along = (bx - ax) / side, (by - ay) / side
    layer = page.layer("marks")
    for i in range(n):
        for j in range(2):
            ox_ = ax + along[0] * cell * i + d[0] * cell * (j - 1)
            oy_ = ay + along[1] * cell * i + d[1] * cell * (j - 1)
            pts = [
                (ox_, oy_),
                (ox_ + along[0] * cell, oy_ + along[1] * cell),
                (ox_ + along[0] * cell + d[0] * cell, oy_ + along[1] * cell + d[1] * cell),
                (ox_ + d[0] * cell, oy_ + d[1] * cell),
            ]
            colour = INK if (i + j) % 2 == 0 else WHITE
            layer.add(Polygon(tuple(pts), (), Style(stroke=None, fill=colour)))
    # The band's outline, then the word FINISH beyond the line.
    lx = ax - d[0] * cell
    ly = ay - d[1] * cell
    band = ((lx, ly), (lx + along[0] * side, ly + along[1] * side))
    band = (
        *band,
        (band[1][0] + d[0] * 2 * cell, band[1][1] + d[1] * 2 * cell),
        (lx + d[0] * 2 * cell, ly + d[1] * 2 * cell),
    )
    layer.add(Polyline(band, Style(stroke=INK, width=0.2), closed=True))
    s = min(pt_to_mm(9), side * 0.22)
    mx, my = (ax + bx) / 2 + d[0] * (cell + 1.2), (ay + by) / 2 + d[1] * (cell + 1.2)
    if d[0]:
        anchor = "start" if d[0] > 0 else "end"
        page.add("text", Text("FINISH", mx, my, s, "bold", INK, anchor=anchor, valign="middle"))
    else:
        valign = "top" if d[1] > 0 else "bottom"
        page.add("text", Text("FINISH", mx, my, s, "bold", INK, anchor="middle", valign=valign))


def _legend(page: Page, x: float, y: float, w: float) -> None:
    text = page.layer("text")
    marks = page.layer("marks")
    s = pt_to_mm(7.5)
    items = [
        ("start", "Start tile: bikes begin on its spaces"),
        ("finish", "Finish line: ride off the last tile across it"),
        ("ramp", "Ramp: coins under the thick edge; the roll used must beat the number"),
        ("route", "Race direction; numbers give the order the tiles were laid"),
    ]
    col = w / 2
    for i, (kind, words) in enumerate(items):
        cx = x + (i % 2) * col
        cy = y + (i // 2) * 6.5
        sw = 8.0
        if kind == "start":
            marks.add(rect(cx, cy, sw, 4.5, Style(stroke=ROUTE, width=0.25, fill=START_FILL)))
        elif kind == "finish":
            for k in range(5):  # cells under 4 mm² stay solid with --ink-saver
                for j in range(3):
                    colour = INK if (k + j) % 2 == 0 else WHITE
                    marks.add(rect(cx + k * 1.6, cy + j * 1.5, 1.6, 1.5, Style(stroke=None, fill=colour)))
            marks.add(rect(cx, cy, sw, 4.5, Style(stroke=INK, width=0.2)))
        elif kind == "ramp":
            for i, t in enumerate(_band(cx, cy - (sw - 4.5) / 2, sw, (1, 0), k / 4, (k + 1) / 4) for k in range(4)):
                clipped = tuple((px, min(max(py, cy), cy + 4.5)) for px, py in t)
                colour = mix(pieces.DIRT, RAMP, 0.15 + 0.6 * (i + 1) / 4)
                marks.add(Polygon(clipped, (), Style(stroke=None, fill=colour)))
            marks.add(Polyline(((cx + sw, cy), (cx + sw, cy + 4.5)), Style(stroke=RAMP, width=0.9)))
        else:
            marks.add(Polyline(((cx, cy + 2.25), (cx + sw - 2, cy + 2.25)), Style(stroke=ROUTE, width=0.5)))
            _arrow(marks, (cx + sw - 2, cy + 2.25), (1, 0), 3.0, ROUTE)
        text.add(Text(words, cx + sw + 2.5, cy + 2.25, s, "condensed", INK, valign="middle"))
