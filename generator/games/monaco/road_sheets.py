"""Drawing road pieces onto their sheets.

Every marking is defined along the band (positions ``s`` and offsets ``d``, mm) and drawn only where it falls on a
piece, then moved onto the sheet by the piece's placement. Markings that repeat (lane dashes, kerb blocks) are laid
out from absolute positions along the road, so they run on unbroken from one piece to the next.

Every word and number on a piece reads upright when the piece lies in its place: it is drawn at one angle in the
band's own frame (``upright``: for a circuit, the frame its layout plan is drawn in), whatever way the piece is
turned on the paper. At every join both pieces carry half of each alignment mark (a diamond, split by the cut)
and the other piece's number; where the sheet has room, a piece runs on past its end as a glue tab that the next
piece covers.

The road is a light tint with crisp edges by default (``tone="light"``: little toner, the painted lines grey), or
the full grey of asphalt with white lines (``tone="full"``); ``--ink-saver`` turns either into hatching.

Page layers: ``road`` (surfaces, glue tabs), ``marks`` (lines, kerbs, chequers, grid and pit boxes, join marks),
``labels`` (numbers and words), ``cut`` (the outline of every piece and its tab, exactly on its edge).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...compose.colour import INK, WHITE
from ...paper import PageSpec, Paper
from ...scene import Page, Polygon, Polyline, Style, Text
from ...units import inch_to_mm, pt_to_mm
from .facts import road
from .pieces import Piece

PAPER = Paper("a4", "portrait")  # pieces: the paper in the printer (they are turned freely)

KERB_RED = "#d0312d"
CUT = Style(stroke=INK, width=0.3)
DARK = "#3a3a3a"
TAB_FILL = "#f7f7f7"
FULL_WIDTH = 95.0  # mm: on a road narrower than this (double road of 1⅞ in lanes), the words are drawn smaller
FOLD = Style(stroke=INK, width=0.2, dash=(1.5, 1.0))


@dataclass(frozen=True)
class Tone:
    """How dark the road prints: its surface, the pit area's, and the painted lines and boxes."""

    road: str
    pit: str
    paint: Style
    kerb_edge: Style | None = None  # a hairline round the white kerb blocks, where the road is too pale to show them


#: ``light`` (the default): a pale tint, crisp black edges, grey lines — half the toner of ``full``, asphalt grey
#: with white lines, a hairline of grey round them so they still show where --ink-saver hatches the road. The light
#: road and its pit area share one tint (the pit lane's dashed line and boxes mark it): a paler one would turn
#: paper-white, or blotchy, in the 256-colour PNG previews.
TONES = {
    "light": Tone("#eeeeee", "#eeeeee", Style(stroke=None, fill="#b8b8b8"), Style(stroke="#9a9a9a", width=0.12)),
    "full": Tone("#dcdcdc", "#e9e9e9", Style(stroke="#8c8c8c", width=0.12, fill=WHITE)),
}


def check_tone(tone: str) -> str:
    """``tone`` if it is one of :data:`TONES`, else an :class:`InputError` naming them."""
    from ...errors import InputError
    from ...messages import quote

    if tone not in TONES:
        raise InputError(f"unknown road tone {quote(tone)}", field="--road-tone", hint="use " + " or ".join(TONES))
    return tone


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


def along(band, s0: float, s1: float, d) -> np.ndarray:
    s = band.samples(s0, s1)
    left, right = band.offsets(s)
    dd = d(left, right) if callable(d) else np.full_like(s, d)
    return band.at(s, dd)


def tup(pts: np.ndarray) -> tuple:
    return tuple((round(float(x), 4), round(float(y), 4)) for x, y in pts)


class Drawer:
    """Draws the markings of one piece (or, for the plan, of the whole band) onto a page."""

    def __init__(
        self, page: Page, band, piece: Piece | None, transform, scale: float = 1.0, tone: str = "light", upright=0.0
    ) -> None:
        self.page = page
        self.band = band
        self.piece = piece
        self.tf = transform  # band points → page points
        self.k = scale  # page mm per band mm (the plan draws small)
        self.tone = TONES[tone]
        self.upright = upright  # degrees, in the band's frame, at which words read upright in place
        self.lap = band.lap if band.closed else None
        self.s0 = piece.s0 if piece else 0.0
        self.s1 = piece.s1 if piece else band.lap
        self.turn = 0.0  # degrees the whole drawing is turned (the plan)

    def parts(self, a: float, b: float) -> list[tuple[float, float]]:
        return overlap(a, b, self.s0, self.s1, self.lap)

    def poly(self, layer: str, ring: np.ndarray, style: Style) -> None:
        self.page.add(layer, Polygon(tup(self.tf(ring)), (), style))

    def line(self, layer: str, pts: np.ndarray, style: Style, closed: bool = False) -> None:
        self.page.add(layer, Polyline(tup(self.tf(pts)), style, closed))

    def angle(self, s: float) -> float:
        """The road's heading at ``s`` on the page, degrees clockwise from +x."""
        th = self.band.heading(s)
        if self.piece is not None:
            th = self.piece.heading(th)
        return math.degrees(th) + self.turn

    def rotation(self) -> float:
        """The angle on the page (degrees, clockwise) at which a word reads upright with the piece in its place."""
        return (self.upright + (self.piece.angle if self.piece is not None else 0.0) + self.turn) % 360

    def text(self, label: str, s: float, d: float, size: float, font="condensed-bold", colour=DARK, below=0.0):
        """Text centred on the point ``d`` left of the centre at ``s`` (moved ``below`` mm down the upright text's
        own frame), upright with the piece in its place."""
        p = self.band.at(np.array([s]), np.array([d]))
        a = math.radians(self.upright)
        p = p + below * np.array([[-math.sin(a), math.cos(a)]])
        x, y = self.tf(p)[0]
        text = Text(label, float(x), float(y), size, font, colour, "middle", "middle", self.rotation())
        self.page.add("labels", text)


# -- the markings ----------------------------------------------------------------------------------------------


def draw_surface(dr: Drawer) -> None:
    band = dr.band
    dr.poly("road", band.outline(dr.s0, dr.s1), Style(stroke=None, fill=dr.tone.road))
    pit = band.pit
    if pit is None:
        return
    sign = pit.sign
    for a, b in dr.parts(pit.s0, pit.s1):
        d_main = sign * band.half
        ring = _strip(band, a, b, d_main, (lambda lt, rt: lt) if sign > 0 else (lambda lt, rt: rt))
        dr.poly("road", ring, Style(stroke=None, fill=dr.tone.pit))


def paint(dr: Drawer, a: float, b: float, d0, d1) -> None:
    """A painted band along the road from ``a`` to ``b`` between offsets ``d0`` and ``d1`` (numbers, or callables
    of the edge offsets), where it falls on the piece."""
    style = dr.tone.paint
    if style.stroke is not None:
        style = style.with_(width=style.width * dr.k)
    for lo, hi in dr.parts(a, b):
        dr.poly("marks", _strip(dr.band, lo, hi, d0, d1), style)


def paint_box(dr: Drawer, tail: float, nose: float, d_lo: float, d_hi: float, w: float) -> None:
    """The outline of a box on the road, ``w`` wide, cut where the box runs over a join."""
    paint(dr, tail, nose, d_hi - w, d_hi)
    paint(dr, tail, nose, d_lo, d_lo + w)
    paint(dr, nose - w, nose, d_lo + w, d_hi - w)
    paint(dr, tail, tail + w, d_lo + w, d_hi - w)


def _dashes(dr: Drawer, a: float, b: float, d0: float, d1: float) -> None:
    """Dashes counted from the start of the road, so they run on unbroken from piece to piece."""
    dash, gap = inch_to_mm(road().lane_line.dash_in), inch_to_mm(road().lane_line.gap_in)
    period = dash + gap
    for lo, hi in dr.parts(a, b):
        for k in range(math.floor(lo / period), math.ceil(hi / period) + 1):
            for x, y in overlap(k * period, k * period + dash, lo, hi, None):
                paint(dr, x, y, d0, d1)


def draw_lines(dr: Drawer) -> None:
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


def draw_kerbs(dr: Drawer) -> None:
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
                    red = k % 2 == 0
                    edge = dr.tone.kerb_edge
                    style = Style(stroke=None, fill=KERB_RED) if red or edge is None else edge.with_(fill=WHITE)
                    dr.poly("marks", ring, style)
                k += 1


def draw_start(dr: Drawer) -> None:
    """The chequered start/finish line across the road (not the pit lane)."""
    band = dr.band
    at = band.start_at
    if at is None:
        return
    q = inch_to_mm(road().chequer_in)
    cols = max(2, round(band.n.width / q))
    w = band.n.width / cols
    for row in range(2):
        for a, b in dr.parts(at + row * q, at + (row + 1) * q):
            for c in range(cols):
                if (row + c) % 2:
                    continue
                d0 = band.half - c * w
                dr.poly("marks", _strip(band, a, b, d0, d0 - w), Style(stroke=None, fill=INK))
    for a, b in dr.parts(at, at + 2 * q):
        dr.line("marks", _strip(band, a, b, band.half, -band.half), Style(stroke=INK, width=0.2 * dr.k), closed=True)


def draw_grid(dr: Drawer, size: float) -> None:
    """One box per car behind the line, pole first, an inch of road between one car and the next."""
    band = dr.band
    half_w = min(band.n.car_w / 2 + 2.0, band.half - 4.0)  # never wider than the road
    for k, (nose, tail) in enumerate(band.grid):
        paint_box(dr, tail, nose, -half_w, half_w, 0.8)
        parts = dr.parts(tail, nose)
        if parts:
            a, b = max(parts, key=lambda ab: ab[1] - ab[0])
            if b - a > size * 1.2:
                dr.text(str(k + 1), (a + b) / 2, 0.0, size, "bold", DARK)


def draw_pit(dr: Drawer, size: float) -> None:
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
                arrow(dr, at, sign * (band.half + extra / 2), min(extra * 0.9, length))


def arrow(dr: Drawer, s: float, d: float, length: float, colour: str = DARK) -> None:
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


MARK = 4.0  # mm: half the width of a join mark along the cut, and its depth into the piece
MARK_IN = 9.0  # mm: join marks this far in from each edge of the road


def _text_extent(dr: Drawer, word: str, size: float, font: str, s: float) -> float:
    """Half the length, along the road at ``s``, of ``word`` drawn upright there."""
    from ...fonts import text_width

    rel = dr.upright - math.degrees(dr.band.heading(s))
    w, h = text_width(word, size, font), size
    return abs(w / 2 * math.cos(math.radians(rel))) + abs(h / 2 * math.sin(math.radians(rel)))


def draw_joins(dr: Drawer, prev: str | None, nxt: str | None, size: float, inner=(False, False)) -> None:
    """At each end, on the cut: half of each alignment mark (the neighbour carries the other half, so the two make
    whole diamonds — or, where two parts of one modular piece join (``inner``), whole discs — when the pieces lie
    true) and, where the neighbour is a given piece, its number with an arrow in the race direction."""
    band = dr.band
    for s, other, sign, own in ((dr.s0, prev, -1.0, inner[0]), (dr.s1, nxt, 1.0, inner[1])):
        th = band.heading(s)
        t = np.array([math.cos(th), math.sin(th)])
        right, left = band.cut(s)
        across = (left - right) / max(float(np.hypot(*(left - right))), 1e-9)
        for d in (band.half - MARK_IN, -(band.half - MARK_IN)):
            c = band.at(np.array([s]), np.array([d]))[0]
            if own:  # a half disc
                arc = np.linspace(0, math.pi, 13)
                pts = [c + across * MARK * math.cos(a) - t * sign * MARK * math.sin(a) for a in arc]
            else:  # half a diamond
                pts = [c + across * MARK, c - t * sign * MARK, c - across * MARK]
            dr.poly("marks", np.array(pts), Style(stroke=None, fill=INK))
        if other is None:
            continue
        # in the middle of the outermost lane away from the pit, clear of the grid boxes on the centre line
        away = -1.0 if band.pit is not None and band.pit.sign > 0 else 1.0
        d = away * (band.half - band.n.lane_w / 2)
        word = f"to {other}" if sign > 0 else f"from {other}"
        ext = _text_extent(dr, word, size, "condensed-bold", s)
        dr.text(word, s - sign * (MARK + 2.0 + ext), d, size, "condensed-bold", DARK)
        arrow(dr, s - sign * (MARK + 2.0 + 2 * ext + 7.0), d, 8.0)


def draw_number(dr: Drawer, label: str, sub: str, size: float) -> None:
    """The piece's number (or a modular piece's name), big, with ``sub`` small under it: inside the piece and clear
    of its grid boxes and start line, measured as the words lie (upright in place), as near the middle as there is
    room; smaller where the piece holds no room for it at full size."""
    from shapely import Polygon as Shape
    from shapely import union_all

    from ...fonts import text_width

    band = dr.band
    q = 2 * inch_to_mm(road().chequer_in)
    busy = []
    if band.start_at is not None:
        for a, b in overlap(band.start_at - q / 2, band.start_at + 3 * q / 2, dr.s0, dr.s1, dr.lap):
            busy.append(_strip(band, a, b, band.half, -band.half))
    half_w = min(band.n.car_w / 2 + 2.0, band.half - 4.0)  # as draw_grid paints the boxes
    for nose, tail in band.grid:
        for a, b in overlap(tail, nose, dr.s0, dr.s1, dr.lap):
            busy.append(_strip(band, a, b, half_w, -half_w))
    blocked = union_all([Shape(r).buffer(1.5) for r in busy]) if busy else None
    room = Shape(band.outline(dr.s0, dr.s1)).buffer(-2.5)
    th = math.radians(dr.upright)
    u, v = np.array([math.cos(th), math.sin(th)]), np.array([-math.sin(th), math.cos(th)])  # along, down the words
    length = dr.s1 - dr.s0
    best = None
    for k in (1.0, 0.8, 0.65):
        big = size * k
        w = max(text_width(label, big, "bold"), text_width(sub, big * 0.3, "condensed") if sub else 0.0)
        top, bottom = -big * 0.55, big * (0.95 if sub else 0.45)  # from the number's middle, down the words
        for frac in (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82):
            s = dr.s0 + frac * length
            for f in (0.0, 0.35, -0.35, 0.6, -0.6, 0.8, -0.8):
                d = f * band.half
                c = band.at(np.array([s]), np.array([d]))[0] - 0.2 * big * v  # text() moves it up a fifth
                box = Shape([c - w / 2 * u + top * v, c + w / 2 * u + top * v, c + w / 2 * u + bottom * v,
                             c - w / 2 * u + bottom * v])  # fmt: skip
                clash = (blocked.intersection(box).area if blocked is not None else 0.0) + box.difference(room).area
                key = (clash > 0.5, clash, k < 1.0, abs(frac - 0.5) + abs(f) * 0.2)
                if best is None or key < best[0]:
                    best = (key, s, d, big)
        if best[0][0] is False:
            break
    _, s, d, big = best
    dr.text(label, s, d, big, "bold", DARK, below=-big * 0.2)
    if sub:
        dr.text(sub, s, d, big * 0.3, "condensed", DARK, below=big * 0.62)


def draw_tab(dr: Drawer, tab: np.ndarray, at: float, other: str) -> None:
    """A glue tab past the piece's cut at ``at``: piece ``other`` lies over it, its end on the dashed line."""
    band = dr.band
    dr.poly("road", tab, Style(stroke=None, fill=TAB_FILL))
    right, left = band.cut(at)
    dr.line("marks", np.array([right, left]), FOLD)
    th = band.heading(at)
    x, y = dr.tf(tab.mean(axis=0)[None, :])[0]
    along = math.degrees(th) + 90  # along the cut, whichever way reads the right way up in place
    if math.cos(math.radians(along - dr.upright)) < 0:
        along += 180
    angle = (along + (dr.piece.angle if dr.piece is not None else 0.0)) % 360
    word = f"glue: {other} on top"
    dr.page.add("labels", Text(word, float(x), float(y), pt_to_mm(5.5), "condensed", DARK, "middle", "middle", angle))


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
    upright: float = 0.0,
    tabs: dict | None = None,
    tone: str = "light",
    inner=lambda p: (False, False),
) -> list[Page]:
    """Every sheet of pieces: each piece filled, marked, numbered and outlined for cutting. ``joins(piece)`` names
    the pieces before and after it (None: an end that joins any piece) and ``inner(piece)`` says which ends join
    another part of the same modular piece; ``subtitle(piece)`` is the small line under its number; ``upright``
    the angle (band frame) at which words read upright in place; ``tabs`` the glue tab (band frame) of each piece
    number that has room for one."""
    from shapely import Polygon as Shape
    from shapely import union_all

    tabs = tabs or {}
    pages = [Page(spec, f"{title_text} — sheet {i + 1} of {sheets}") for i in range(sheets)]
    for page in pages:
        for layer in ("road", "marks", "labels", "cut"):
            page.layer(layer)
    for p in pieces:
        page = pages[p.sheet]
        dr = Drawer(page, p.band, p, p.to_sheet, tone=tone, upright=upright)
        before, after = joins(p)
        own = tabs.get(p.number, [])
        for end, tab in own:
            draw_tab(dr, tab, p.s1 if end == "end" else p.s0, after if end == "end" else before)
        draw_surface(dr)
        draw_lines(dr)
        draw_kerbs(dr)
        draw_start(dr)
        f = min(1.0, p.band.n.width / FULL_WIDTH)  # words shrink with a narrow road, to stay on it
        draw_pit(dr, pt_to_mm(9) * f)
        if p.band.grid:
            draw_grid(dr, pt_to_mm(26) * f)
        draw_joins(dr, before, after, pt_to_mm(8) * f, inner(p))
        draw_number(dr, p.label or str(p.number), subtitle(p), pt_to_mm(40) * f)
        outline = p.ring
        if own:
            whole = union_all([Shape(p.ring), *(Shape(tab) for _, tab in own)]).buffer(0)
            outline = np.asarray(whole.exterior.coords) if whole.geom_type == "Polygon" else p.ring
        page.add("cut", Polyline(tup(p.to_sheet(outline)), CUT, closed=True))
    return pages
