"""Drawing road pieces onto their sheets, and the layout plan.

Every marking is defined along the band (positions ``s`` and offsets ``d``, mm) and drawn only where it falls on a
piece, then moved onto the sheet by the piece's placement. Markings that repeat (lane dashes, kerb blocks) are laid
out from absolute positions along the road, so they run on unbroken from one piece to the next.

Page layers: ``road`` (surfaces), ``marks`` (lines, kerbs, chequers, grid and pit boxes), ``labels`` (numbers and
words), ``cut`` (the outline of every piece, exactly on its edge), ``plan`` (the layout plan).
"""

from __future__ import annotations

import math

import numpy as np

from ...compose.blocks import fitted_text, paragraph, title
from ...compose.colour import INK, WHITE
from ...paper import PageSpec, Paper
from ...scene import Page, Polygon, Polyline, Style, Text
from ...units import MM_PER_INCH, inch_to_mm, pt_to_mm
from .facts import feet_inches, frac_in, road, sheet_texts
from .pieces import Piece, rotate

PAPER = Paper("a4", "portrait")  # pieces: the paper in the printer (they are turned freely)
PLAN_PAPER = Paper("a4", "landscape")

ROAD_FILL = "#dcdcdc"
PIT_FILL = "#e9e9e9"
KERB_RED = "#d0312d"
CUT = Style(stroke=INK, width=0.3)
DARK = "#3a3a3a"


# -- geometry along the band -----------------------------------------------------------------------------------


def overlap(a: float, b: float, s0: float, s1: float, lap: float | None) -> list[tuple[float, float]]:
    """The parts of ``[a, b]`` (repeated every ``lap`` round a loop) that fall in ``[s0, s1]``."""
    out = []
    shifts = (0,) if lap is None else range(math.floor((s0 - b) / lap), math.ceil((s1 - a) / lap) + 1)
    for k in shifts:
        lo, hi = max(a + k * (lap or 0), s0), min(b + k * (lap or 0), s1)
        if hi - lo > 1e-6:
            out.append((lo, hi))
    return out


def _strip(band, s0: float, s1: float, d0, d1) -> np.ndarray:
    """The ring between offsets ``d0`` and ``d1`` (numbers or callables of the edge offsets) from s0 to s1."""
    s = band.samples(s0, s1)
    left, right = band.offsets(s)
    a = d0(left, right) if callable(d0) else np.full_like(s, d0)
    b = d1(left, right) if callable(d1) else np.full_like(s, d1)
    return np.vstack((band.at(s, a), band.at(s, b)[::-1]))


def _line(band, s0: float, s1: float, d) -> np.ndarray:
    s = band.samples(s0, s1)
    left, right = band.offsets(s)
    dd = d(left, right) if callable(d) else np.full_like(s, d)
    return band.at(s, dd)


def _tup(pts: np.ndarray) -> tuple:
    return tuple((round(float(x), 4), round(float(y), 4)) for x, y in pts)


class _Drawer:
    """Draws the markings of one piece (or, for the plan, of the whole band) onto a page."""

    def __init__(self, page: Page, band, piece: Piece | None, transform, scale: float = 1.0) -> None:
        self.page = page
        self.band = band
        self.piece = piece
        self.tf = transform  # band points → page points
        self.k = scale  # page mm per band mm (the plan draws small)
        self.lap = band.lap if getattr(band, "closed", False) else None
        self.s0 = piece.s0 if piece else 0.0
        self.s1 = piece.s1 if piece else band.lap
        self.turn = 0.0  # degrees the whole drawing is turned (the plan)

    def parts(self, a: float, b: float) -> list[tuple[float, float]]:
        return overlap(a, b, self.s0, self.s1, self.lap)

    def poly(self, layer: str, ring: np.ndarray, style: Style) -> None:
        self.page.add(layer, Polygon(_tup(self.tf(ring)), (), style))

    def line(self, layer: str, pts: np.ndarray, style: Style, closed: bool = False) -> None:
        self.page.add(layer, Polyline(_tup(self.tf(pts)), style, closed))

    def angle(self, s: float) -> float:
        """The road's heading at ``s`` on the page, degrees clockwise from +x."""
        th = self.band.heading(s)
        if self.piece is not None:
            th = self.piece.heading(th)
        return math.degrees(th) + self.turn

    def text(self, label: str, s: float, d: float, size: float, font="condensed-bold", colour=DARK, turn=90.0):
        """Text centred on the point ``d`` left of the centre at ``s``, reading across the road (``turn`` 90:
        upright to a driver coming along it)."""
        x, y = self.tf(self.band.at(np.array([s]), np.array([d])))[0]
        self.page.add(
            "labels",
            Text(label, float(x), float(y), size, font, colour, "middle", "middle", (self.angle(s) + turn) % 360),
        )


# -- the markings ----------------------------------------------------------------------------------------------


def draw_surface(dr: _Drawer) -> None:
    band = dr.band
    dr.poly("road", band.outline(dr.s0, dr.s1), Style(stroke=None, fill=ROAD_FILL))
    pit = band.pit
    if pit is None:
        return
    sign = pit.sign
    for a, b in dr.parts(pit.s0, pit.s1):
        d_main = sign * band.half
        ring = _strip(band, a, b, d_main, (lambda lt, rt: lt) if sign > 0 else (lambda lt, rt: rt))
        dr.poly("road", ring, Style(stroke=None, fill=PIT_FILL))


# Painted markings: white, with a hairline of grey round them so they still show where --ink-saver turns the road
# into hatching.
PAINT = Style(stroke="#8c8c8c", width=0.12, fill=WHITE)


def paint(dr: _Drawer, a: float, b: float, d0, d1) -> None:
    """A white band along the road from ``a`` to ``b`` between offsets ``d0`` and ``d1`` (numbers, or callables of
    the edge offsets), where it falls on the piece."""
    for lo, hi in dr.parts(a, b):
        dr.poly("marks", _strip(dr.band, lo, hi, d0, d1), PAINT.with_(width=PAINT.width * dr.k))


def paint_box(dr: _Drawer, tail: float, nose: float, d_lo: float, d_hi: float, w: float) -> None:
    """The outline of a box on the road, ``w`` wide, cut where the box runs over a join."""
    paint(dr, tail, nose, d_hi - w, d_hi)
    paint(dr, tail, nose, d_lo, d_lo + w)
    paint(dr, nose - w, nose, d_lo + w, d_hi - w)
    paint(dr, tail, tail + w, d_lo + w, d_hi - w)


def _dashes(dr: _Drawer, a: float, b: float, d0: float, d1: float) -> None:
    """Dashes counted from the start of the road, so they run on unbroken from piece to piece."""
    dash, gap = inch_to_mm(road().lane_line.dash_in), inch_to_mm(road().lane_line.gap_in)
    period = dash + gap
    for lo, hi in dr.parts(a, b):
        for k in range(math.floor(lo / period), math.ceil(hi / period) + 1):
            for x, y in overlap(k * period, k * period + dash, lo, hi, None):
                paint(dr, x, y, d0, d1)


def draw_lines(dr: _Drawer) -> None:
    """Edge lines (round the pit area too), lane dashes, the pit lane's dashed line."""
    band = dr.band
    inset, width = inch_to_mm(road().edge_line.inset_in), inch_to_mm(road().edge_line.width_in)
    paint(dr, dr.s0, dr.s1, lambda lt, rt: lt - inset, lambda lt, rt: lt - inset - width)
    paint(dr, dr.s0, dr.s1, lambda lt, rt: rt + inset, lambda lt, rt: rt + inset + width)
    lw = inch_to_mm(road().lane_line.width_in)
    for i in range(1, band.n.lanes):
        d = band.half - i * band.n.lane_w
        _dashes(dr, dr.s0, dr.s1, d - lw / 2, d + lw / 2)
    pit = band.pit
    if pit is not None:
        d = pit.sign * band.half
        _dashes(dr, pit.s0 + pit.taper / 2, pit.s1 - pit.taper / 2, d - width / 2, d + width / 2)


def draw_kerbs(dr: _Drawer) -> None:
    band = dr.band
    w = inch_to_mm(road().kerb.width_in)
    block = inch_to_mm(road().kerb.block_in)
    for kb in band.kerbs:
        sign = 1.0 if kb.side == "left" else -1.0
        for a, b in dr.parts(kb.s0, kb.s1):
            # blocks of one length along the centre line, counted from the kerb's start so both pieces agree
            n0 = math.floor((a - kb.s0) / block + 1e-9)
            k = n0
            while kb.s0 + k * block < b - 1e-6:
                lo, hi = max(a, kb.s0 + k * block), min(b, kb.s0 + (k + 1) * block)
                if hi - lo > 1e-6:
                    if sign > 0:
                        ring = _strip(band, lo, hi, lambda lt, rt: lt, lambda lt, rt: lt - w)
                    else:
                        ring = _strip(band, lo, hi, lambda lt, rt: rt, lambda lt, rt: rt + w)
                    fill = KERB_RED if k % 2 == 0 else WHITE
                    dr.poly("marks", ring, Style(stroke=None, fill=fill))
                k += 1


def draw_start(dr: _Drawer) -> None:
    """The chequered start/finish line across the road (not the pit lane)."""
    band = dr.band
    if not getattr(band, "closed", False):
        return
    q = inch_to_mm(road().chequer_in)
    cols = max(2, round(band.n.width / q))
    w = band.n.width / cols
    for row in range(2):
        for a, b in dr.parts(row * q, (row + 1) * q):
            for c in range(cols):
                if (row + c) % 2:
                    continue
                d0 = band.half - c * w
                dr.poly("marks", _strip(band, a, b, d0, d0 - w), Style(stroke=None, fill=INK))
    for a, b in dr.parts(0.0, 2 * q):
        dr.line("marks", _strip(band, a, b, band.half, -band.half), Style(stroke=INK, width=0.2 * dr.k), closed=True)


def draw_grid(dr: _Drawer, size: float) -> None:
    """One box per car behind the line, pole first, an inch of road between one car and the next."""
    band = dr.band
    half_w = band.n.car_w / 2 + 2.0
    for k, (nose, tail) in enumerate(band.grid):
        paint_box(dr, tail, nose, -half_w, half_w, 0.8)
        parts = dr.parts(tail, nose)
        if parts:
            a, b = max(parts, key=lambda ab: ab[1] - ab[0])
            if b - a > size * 1.2:
                dr.text(str(k + 1), (a + b) / 2, 0.0, size, "bold", DARK)


def draw_pit(dr: _Drawer, size: float) -> None:
    band = dr.band
    pit = band.pit
    if pit is None:
        return
    sign = pit.sign
    inner = band.half + 2.5
    outer = band.half + pit.width - 2.5
    lo, hi = sorted((sign * inner, sign * outer))
    for a0, b0 in pit.boxes:
        paint_box(dr, a0, b0, lo, hi, 0.8)
        for a, b in dr.parts(a0, b0):
            if b - a > size * 2.2:
                dr.text("PIT", (a + b) / 2, sign * (inner + outer) / 2, size, "condensed-bold", DARK)
    # entry and exit: an arrow in each ramp, along the middle of the pit lane there, drawn by the piece the ramp's
    # arrow point falls on and kept whole on it
    for s in (pit.s0 + pit.taper * 0.7, pit.s1 - pit.taper * 0.7):
        for a, _ in dr.parts(s, s + 1e-3):
            length = 12.0
            at = min(max(a, dr.s0 + length / 2 + 2.0), dr.s1 - length / 2 - 2.0)
            extra = float(band.pit_extra(np.array([at]))[0])
            if extra > 6.0:
                _arrow(dr, at, sign * (band.half + extra / 2), min(extra * 0.9, length))


def _arrow(dr: _Drawer, s: float, d: float, length: float, colour: str = DARK) -> None:
    """A solid arrow along the road at ``s``, ``d`` left of the centre, pointing in the race direction."""
    band = dr.band
    th = band.heading(s)
    p = band.at(np.array([s]), np.array([d]))[0]
    t = np.array([math.cos(th), math.sin(th)])
    n = np.array([math.sin(th), -math.cos(th)])
    h = length / 2
    w = length * 0.22
    pts = np.array(
        [
            p - t * h + n * w * 0.45,
            p + t * (h - w * 1.6) + n * w * 0.45,
            p + t * (h - w * 1.6) + n * w * 1.1,
            p + t * h,
            p + t * (h - w * 1.6) - n * w * 1.1,
            p + t * (h - w * 1.6) - n * w * 0.45,
            p - t * h - n * w * 0.45,
        ]
    )
    dr.poly("labels", pts, Style(stroke=None, fill=colour))


def draw_joins(dr: _Drawer, prev: str | None, nxt: str | None, size: float) -> None:
    """At each end: two triangles pointing at the cut (they meet point to point with the neighbour's) and the
    neighbour's number with an arrow in the race direction."""
    band = dr.band
    tri = 4.0
    for s, other, sign in ((dr.s0, prev, -1.0), (dr.s1, nxt, 1.0)):
        th = band.heading(s)
        t = np.array([math.cos(th), math.sin(th)])
        right, left = band.cut(s)
        for f in (0.25, 0.75):
            apex = right + (left - right) * f
            n = (left - right) / max(float(np.hypot(*(left - right))), 1e-9)
            base = apex - t * sign * tri
            dr.poly("marks", np.array([apex, base + n * tri * 0.6, base - n * tri * 0.6]), Style(stroke=None, fill=INK))
        if other is None:
            continue
        # in the middle of the outermost lane away from the pit, clear of the grid boxes on the centre line
        away = -1.0 if band.pit is not None and band.pit.sign > 0 else 1.0
        d = away * (band.half - band.n.lane_w / 2)
        word = f"to {other}" if sign > 0 else f"from {other}"
        dr.text(word, s - sign * (tri + 3.5), d, size, "condensed-bold", DARK)
        _arrow(dr, s - sign * (tri + 12.0), d, 8.0)


def draw_number(dr: _Drawer, label: str, sub: str, size: float) -> None:
    """The piece's number, big, where it clashes least with the grid and the start line."""
    band = dr.band
    length = dr.s1 - dr.s0
    busy: list[tuple[float, float]] = []
    q = 2 * inch_to_mm(road().chequer_in)
    busy += overlap(-q, 2 * q, dr.s0, dr.s1, dr.lap)
    for nose, tail in getattr(band, "grid", []):
        busy += overlap(tail, nose, dr.s0, dr.s1, dr.lap)
    best = None
    clear = band.n.car_w / 2 + 2.0 + size * 0.3 * len(label)  # the grid boxes and half the number's width
    away = -1.0 if band.pit is not None and band.pit.sign > 0 else 1.0
    side = away * (band.half - size * 0.3 * len(label) - 3.0)
    for frac in (0.5, 0.38, 0.62, 0.28, 0.72):
        s = dr.s0 + frac * length
        for d in (0.0, side, -side):
            clash = any(a - size < s < b + size for a, b in busy) and abs(d) < clear
            key = (clash, abs(d) > 0, abs(frac - 0.5))
            if best is None or key < best[0]:
                best = (key, s, d)
    _, s, d = best
    dr.text(label, s, d, size, "bold", DARK)
    if sub:
        dr.text(sub, s - size * 0.95, d, size * 0.3, "condensed", DARK)


# -- pages -----------------------------------------------------------------------------------------------------


def loop_joins(pieces: list[Piece]):
    """Neighbours round a circuit: the piece before and after each (the last joins the first)."""
    n = len(pieces)

    def joins(p: Piece) -> tuple[str, str]:
        return str((p.number - 2) % n + 1), str(p.number % n + 1)

    return joins


def piece_pages(
    pieces: list[Piece],
    sheets: int,
    spec: PageSpec,
    title_text: str,
    joins,
    subtitle,
) -> list[Page]:
    """Every sheet of pieces: each piece filled, marked, numbered and outlined for cutting. ``joins(piece)`` names
    the pieces before and after it (None: an end that joins any piece); ``subtitle(piece)`` is the small line by
    its number."""
    pages = [Page(spec, f"{title_text} — sheet {i + 1} of {sheets}") for i in range(sheets)]
    for page in pages:
        for layer in ("road", "marks", "labels", "cut"):
            page.layer(layer)
    for p in pieces:
        page = pages[p.sheet]
        dr = _Drawer(page, p.band, p, p.to_sheet)
        draw_surface(dr)
        draw_lines(dr)
        draw_kerbs(dr)
        draw_start(dr)
        draw_pit(dr, pt_to_mm(9))
        if p.band.grid:
            draw_grid(dr, pt_to_mm(26))
        draw_joins(dr, *joins(p), pt_to_mm(8))
        draw_number(dr, p.label or str(p.number), subtitle(p), pt_to_mm(40))
        page.add("cut", Polyline(_tup(p.to_sheet(p.ring)), CUT, closed=True))
    return pages


def plan_page(road_, pieces: list[Piece], sheets: int, spec: PageSpec, paper_label: str) -> Page:
    """The whole circuit small: every piece numbered, the start, the pit, the lap in inches and a scale bar."""
    words = sheet_texts().road
    page = Page(spec, f"{road_.name} — road layout plan")
    x0, y0, cw, ch = spec.content_box
    layer = page.layer("text")
    n = road_.n
    sub = words.plan_subtitle.format(
        width=road_.width_name,
        road=frac_in(n.width / MM_PER_INCH),
        lanes=n.lanes,
        lane=frac_in(n.lane_w / MM_PER_INCH),
        lap=f"{road_.lap_in:.0f}",
        feet=feet_inches(road_.lap_in),
        pieces=len(pieces),
        sheets=sheets,
        paper=paper_label,
    )
    top = title(layer, f"{road_.name} — Monaco! road plan", x0, y0, cw, sub)
    side_w = 70.0
    # the plan: outlines of all pieces, turned a quarter if that draws it larger, scaled into the box left of the notes
    bw, bh = cw - side_w - 10, y0 + ch - top - 14
    pts = np.vstack([p.ring for p in pieces])
    best = None
    for turn in (0.0, 90.0):
        q = rotate(pts, turn)
        lo, hi = q.min(axis=0), q.max(axis=0)
        k = min(bw / (hi[0] - lo[0]), bh / (hi[1] - lo[1]))
        if best is None or k > best[0] * 1.02:
            best = (k, turn, lo, hi)
    k, turn, lo, hi = best
    ox = x0 + 1 + (bw - (hi[0] - lo[0]) * k) / 2 - lo[0] * k
    oy = top + 2 + (bh - (hi[1] - lo[1]) * k) / 2 - lo[1] * k

    def tf(p):
        return rotate(np.asarray(p, dtype=float), turn) * k + np.array([ox, oy])

    shades = ("#d6d6d6", "#ebebeb")
    for p in pieces:
        page.add("plan", Polygon(_tup(tf(p.ring)), (), Style(stroke=INK, width=0.25, fill=shades[p.number % 2])))
    dr = _Drawer(page, road_, None, tf, k)
    dr.turn = turn
    draw_start(dr)
    for p in pieces:
        mid = (p.s0 + p.s1) / 2
        x, y = tf(road_.at(np.array([mid]), np.array([0.0])))[0]
        page.add("labels", Text(str(p.number), float(x), float(y), pt_to_mm(9), "bold", INK, "middle", "middle"))
    # the pit area and the race direction
    if road_.pit is not None:
        pit = road_.pit
        page.add(
            "plan",
            Polyline(
                _tup(tf(_line(road_, pit.s0, pit.s1, (lambda lt, rt: lt) if pit.sign > 0 else (lambda lt, rt: rt)))),
                Style(stroke=INK, width=0.6),
            ),
        )
        s = (pit.s0 + pit.s1) / 2
        x, y = tf(road_.at(np.array([s]), np.array([pit.sign * (road_.half + pit.width + 6 / k)])))[0]
        page.add("labels", Text("PIT", float(x), float(y), pt_to_mm(7), "condensed-bold", INK, "middle", "middle"))
    s_arrow = road_.lap * 0.03 + 2 * inch_to_mm(road().chequer_in)
    _arrow(dr, s_arrow, 0.0, 9.0 / k, INK)
    x, y = tf(road_.at(np.array([0.0]), np.array([-(road_.half + 5 / k)])))[0]
    page.add("labels", Text("START", float(x), float(y), pt_to_mm(7), "condensed-bold", INK, "middle", "middle"))
    # scale bar: a whole number of feet on the floor
    # notes on the right
    nx = x0 + cw - side_w
    y = top + 2
    for line in words.plan_notes:
        y = (
            paragraph(
                layer,
                line.format(gap=frac_in(road().min_gap_in), car=frac_in(n.car_len / MM_PER_INCH)),
                nx,
                y,
                side_w,
                pt_to_mm(7.5),
            )
            + 1.6
        )
    y += 2
    layer.add(Text("Which sheet each piece is on", nx, y + 3, pt_to_mm(8), "condensed-bold", INK))
    y += 6
    cols = 3
    colw = side_w / cols
    rows = math.ceil(len(pieces) / cols)
    for i, p in enumerate(pieces):
        c, r = divmod(i, rows)
        layer.add(
            fitted_text(
                f"{p.number}: sheet {p.sheet + 1}",
                nx + c * colw,
                y + r * 3.4 + 2.5,
                colw - 1,
                max_size=pt_to_mm(7.5),
                font="condensed",
            )
        )
    _scale_bar(page, nx, y + rows * 3.4 + 8, k, side_w)
    return page


def _scale_bar(page: Page, x: float, y: float, k: float, room: float) -> None:
    """A bar of a whole number of feet on the floor at the plan's scale ``k`` (plan mm per floor mm)."""
    feet = 0.5
    while inch_to_mm(12 * feet * 2) * k <= room * 0.85:
        feet *= 2
    length = inch_to_mm(12 * feet) * k
    layer = page.layer("plan")
    parts = 4
    seg = length / parts
    for i in range(parts):
        box = np.array([[x + i * seg, y], [x + (i + 1) * seg, y], [x + (i + 1) * seg, y + 1.6], [x + i * seg, y + 1.6]])
        layer.add(Polygon(_tup(box), (), Style(stroke=INK, width=0.15, fill=INK if i % 2 == 0 else WHITE)))
    what = f"{feet:g} ft ({12 * feet:g} in)" if feet >= 1 else f"{12 * feet:g} in"
    label = f"{what} on the floor at the scale of this plan"
    page.add("labels", Text(label, x, y + 5.0, pt_to_mm(7), "condensed", INK))
