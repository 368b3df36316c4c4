"""Putting road pieces on sheets of paper: as few sheets as the packer finds, pieces turned freely.

A sheet is the paper's printable box on a raster of :data:`RES` mm. What lies on it is kept twice: exactly (shapely
polygons) and as a raster grown by the gap scissors need. A free place for a piece at one angle is found for every
position at once by correlating the piece's raster with the sheet's (an FFT); the lowest, then leftmost free place
over all the angles tried wins (the classic bottom-left rule), and is checked exactly before it is taken.

Two ways to fill sheets with it:

- :func:`fill_loop` (a circuit's road): the road is cut *while* it is packed. Starting at the start line, each
  piece is made as long as still fits the sheet being filled (found by bisection on its length); when less than
  :data:`MIN_PIECE` of road fits, the next sheet begins. So the pieces are numbered in lap order, every sheet holds
  a run of consecutive pieces and the first sheets hold the first pieces; and a sheet's leftover room takes a
  short piece instead of staying blank.
- :func:`first_fit` (the modular set, whose parts have fixed shapes): each part on the first sheet with room,
  largest first.

Geometry only (mm); the pieces are drawn by :mod:`.road_sheets`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...errors import GeometryError, InputError
from ...units import MM_PER_INCH
from .pieces import FIT_MARGIN, Piece, fit_angles, hull, rotate

RES = 2.0  # mm: the packing raster on A4 or letter (every place it finds is checked exactly)
CELLS = 120  # … and on larger paper, coarser: about this many cells across the paper's geometric mean side
TRY_ANGLES: tuple[float, ...] = ()  # besides the angles that square a piece to the paper and the roomiest ones
MIN_PIECE = 3 * MM_PER_INCH  # the shortest piece worth cutting (a join costs the players a little care)
TAIL_SHEET = 2 * MIN_PIECE  # a last sheet holding less road than this goes onto the sheets before, where they have room
TAIL_SHIFT = MIN_PIECE / 3  # … or else the lap is cut once more from this much further back
BISECT_TO = 4.0  # mm: how close the longest piece that fits is found
PIECE_COST = 40.0  # mm of road a sheet must take further along to be worth one more piece to cut and join
CANDIDATES = 12  # raster places checked exactly, per angle, before the angle is given up


@dataclass
class Sheet:
    occupied: np.ndarray  # raster of what is placed, grown by the gap
    shapes: list = field(default_factory=list)  # shapely polygons placed (pieces and their tabs)
    owners: list = field(default_factory=list)  # the number of the piece each shape belongs to
    spectrum: np.ndarray | None = None  # FFT of ``occupied``, kept until the next placement


def _smooth(n: int) -> int:
    """The smallest size ≥ ``n`` whose only factors are 2, 3 and 5 (the FFT's fast sizes)."""
    while True:
        m = n
        for f in (2, 3, 5):
            while m % f == 0:
                m //= f
        if m == 1:
            return n
        n += 1


def squared_angles(ring: np.ndarray) -> list[float]:
    """The four angles (degrees) that turn ``ring``'s smallest bounding rectangle square to the paper."""
    h = hull(ring)
    edges = np.diff(h, axis=0)
    turn = np.degrees(-np.arctan2(edges[:, 1], edges[:, 0]))
    a = np.radians(turn)
    c, s = np.cos(a), np.sin(a)
    x = np.outer(c, h[:, 0]) - np.outer(s, h[:, 1])
    y = np.outer(s, h[:, 0]) + np.outer(c, h[:, 1])
    area = (x.max(axis=1) - x.min(axis=1)) * (y.max(axis=1) - y.min(axis=1))
    best = float(turn[int(np.argmin(area))])
    return [round((best + k * 90) % 360, 6) for k in range(4)]


class Packer:
    """Sheets of one printable ``box`` (x, y, w, h); pieces kept ``gap`` mm apart and :data:`FIT_MARGIN` inside."""

    def __init__(self, box: tuple[float, float, float, float], gap: float) -> None:
        self.box = box
        self.gap = gap
        x0, y0, W, H = box
        self.res = res = max(RES, math.sqrt(W * H) / CELLS)
        pad = int(math.ceil(gap / res)) + 2
        self.shape = (_smooth(int(math.ceil(H / res)) + 2 * pad), _smooth(int(math.ceil(W / res)) + 2 * pad))
        self.origin = (x0 - pad * res, y0 - pad * res)
        self.sheets: list[Sheet] = []

    @property
    def inner(self) -> tuple[float, float]:
        """The room a piece may use: the box less the margin either side."""
        return self.box[2] - 2 * FIT_MARGIN, self.box[3] - 2 * FIT_MARGIN

    def new_sheet(self) -> int:
        self.sheets.append(Sheet(np.zeros(self.shape, bool)))
        return len(self.sheets) - 1

    def _raster(self, poly) -> np.ndarray:
        """Cells whose middles the polygon(s) cover: a cell either way does not matter, as every place the raster
        finds is checked exactly (the raster errs towards finding too many places, never too few)."""
        from PIL import Image, ImageDraw

        rows, cols = self.shape
        img = Image.new("1", (cols, rows), 0)
        draw = ImageDraw.Draw(img)
        for g in getattr(poly, "geoms", [poly]):
            pts = [((x - self.origin[0]) / self.res, (y - self.origin[1]) / self.res) for x, y in g.exterior.coords]
            draw.polygon(pts, fill=1)
        return np.asarray(img, dtype=bool)

    def angles(self, ring: np.ndarray) -> list[float]:
        """Angles worth trying for ``ring``: squared to the paper, the roomiest on an empty sheet, then every 45°."""
        W, H = self.inner
        roomy = fit_angles(ring, W, H)[:2]
        out = [*squared_angles(ring), *roomy, *((a + 180) % 360 for a in roomy), *TRY_ANGLES]
        return list(dict.fromkeys(round(a % 360, 6) for a in out))

    def spot(self, ring: np.ndarray, k: int, angles: list[float]) -> tuple[float, tuple[float, float]] | None:
        """The lowest, then leftmost free place for ``ring`` on sheet ``k`` at one of ``angles``:
        ``(angle, shift)`` with ``sheet point = rotate(ring point, angle) + shift``; None if there is none."""
        from shapely import Polygon

        sh = self.sheets[k]
        x0, y0, W, H = self.box
        if sh.spectrum is None:
            sh.spectrum = np.fft.rfft2(sh.occupied.astype(float))
        empty = not sh.shapes
        best = None
        for ang in angles:
            pts = rotate(ring, ang)
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            span = hi - lo
            res = self.res
            ni = int((W - 2 * FIT_MARGIN - span[0]) // res)
            nj = int((H - 2 * FIT_MARGIN - span[1]) // res)
            if ni < 0 or nj < 0:
                continue
            base = np.array([x0 + FIT_MARGIN - lo[0], y0 + FIT_MARGIN - lo[1]])
            if empty:  # nothing to avoid: the top left corner
                cands = [(0, 0)]
            else:
                mask = self._raster(Polygon(pts + base))
                hits = np.fft.irfft2(sh.spectrum * np.conj(np.fft.rfft2(mask.astype(float))), s=self.shape)
                free = hits[: nj + 1, : ni + 1] < 0.5
                if not free.any():
                    continue
                js, is_ = np.nonzero(free)
                order = np.lexsort((is_, js))[:CANDIDATES]
                cands = [(int(js[q]), int(is_[q])) for q in order]
            for j, i in cands:
                key = (j * res + span[1], i, ang)  # the piece's lowest edge, then leftmost
                if best is not None and key >= best[0]:
                    break
                shift = base + np.array([i * res, j * res])
                poly = Polygon(pts + shift)
                if all(poly.distance(other) >= self.gap - 1e-6 for other in sh.shapes):
                    best = (key, ang, (float(shift[0]), float(shift[1])))
                    break
        return None if best is None else (best[1], best[2])

    def place(self, piece: Piece, k: int, angle: float, shift) -> None:
        piece.sheet, piece.angle, piece.shift = k, float(angle), (float(shift[0]), float(shift[1]))
        self.take(k, piece.to_sheet(piece.ring), piece.number)

    def take(self, k: int, pts: np.ndarray, owner: int = 0) -> None:
        """Mark the polygon ``pts`` (sheet mm), part of piece ``owner``, as used on sheet ``k``."""
        from shapely import Polygon

        sh = self.sheets[k]
        poly = Polygon(pts)
        sh.shapes.append(poly)
        sh.owners.append(owner)
        sh.occupied |= self._raster(poly.buffer(self.gap - self.res, 4))
        sh.spectrum = None

    def free_for(self, k: int, pts: np.ndarray, owner: int = 0) -> bool:
        """Whether the polygon ``pts`` (sheet mm) lies inside the box and clear of everything on sheet ``k`` but
        piece ``owner`` (which it may touch)."""
        from shapely import Polygon

        x0, y0, W, H = self.box
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        if lo[0] < x0 + FIT_MARGIN or lo[1] < y0 + FIT_MARGIN or hi[0] > x0 + W - FIT_MARGIN:
            return False
        if hi[1] > y0 + H - FIT_MARGIN:
            return False
        poly = Polygon(pts)
        sh = self.sheets[k]
        return all(
            poly.distance(other) >= self.gap - 1e-6
            for other, who in zip(sh.shapes, sh.owners, strict=True)
            if who != owner
        )


# ------------------------------------------------------------------------------------------------ glue tabs

TAB_DEPTH = 10.0  # mm past the piece's end
TAB_INSET = 6.0  # mm in from each edge of the road at the cut (the tab hides under the next piece)
TAB_CHAMFER = 6.0  # mm more at its far end


def tab_ring(band, s: float, depth: float = TAB_DEPTH) -> np.ndarray:
    """A glue tab from the cut at ``s`` on along the road for ``depth`` (negative: back along it), inside the
    neighbour's outline and narrowing away from the cut."""
    ss = s + np.linspace(0.0, depth, 6)
    left, right = band.offsets(ss)
    inset = TAB_INSET + np.abs(ss - s) / abs(depth) * TAB_CHAMFER
    return np.vstack((band.at(ss, left - inset), band.at(ss[::-1], (right + inset)[::-1])))


def add_tabs(pieces: list[Piece], packer: Packer, joined) -> dict[int, list[tuple[str, np.ndarray]]]:
    """A glue tab at every join ``joined(piece)`` says follows a piece (the piece and the next one), where a sheet
    has room for it without growing (inside the printable box, scissors' gap from everything else): past the
    piece's end, under the next piece, or else before the next piece's start, under this one. Returns the tabs
    (band frame) by piece number: ``[("end" | "start", ring), …]``."""
    out: dict[int, list] = {}
    for p in pieces:
        nxt = joined(p)
        if nxt is None:
            continue
        for piece, end, s, depth in ((p, "end", p.s1, TAB_DEPTH), (nxt, "start", nxt.s0, -TAB_DEPTH)):
            ring = tab_ring(piece.band, s, depth)
            pts = piece.to_sheet(ring)
            if packer.free_for(piece.sheet, pts, piece.number):
                packer.take(piece.sheet, pts, piece.number)
                out.setdefault(piece.number, []).append((end, ring))
                break
    return out


# ---------------------------------------------------------------------------------------- a circuit's road

#: Ways to fill one sheet, each tried in turn: the sheet cut into columns × rows, every piece at most one cell
#: large (two columns make pieces short enough for two to lie side by side). The way that takes the road furthest
#: along wins, a piece more counting as :data:`PIECE_COST` less road (ties: the fewer pieces). Rows, and finer
#: angles, were tried on the shipped circuits: no fewer sheets, three times the time.
WAYS = ((1, 1), (2, 1))


def fill_loop(band, box, gap: float, start: float, paper_label: str, max_pieces: int) -> tuple[list[Piece], Packer]:
    """The closed ``band`` cut into pieces from ``start`` once round, numbered from 1 in lap order and placed: each
    sheet takes as much of the road, in consecutive pieces, as the best of :data:`WAYS` fits on it. Returns the
    pieces and the packer (its sheets).

    A lap whose end is left as a short strip on a sheet of its own (:func:`_rehome_tail` found no room for it
    before) is cut once more from :data:`TAIL_SHIFT` further back (piece 1 takes that much road before the line,
    every cut after it moves): the cut with fewer sheets is kept, or at as many sheets the one whose last sheet
    holds more road (on the default circuit: a 9.4 in piece instead of a 3 in strip)."""
    pieces, packer = _fill_loop(band, box, gap, start, paper_label, max_pieces)
    if _tail(packer, pieces):
        again = _fill_loop(band, box, gap, start - TAIL_SHIFT, paper_label, max_pieces)
        if (len(again[1].sheets), -_last_road(*reversed(again))) < (len(packer.sheets), -_last_road(packer, pieces)):
            return again
    return pieces, packer


def _last_road(packer: Packer, pieces: list[Piece]) -> float:
    last = len(packer.sheets) - 1
    return sum(p.s1 - p.s0 for p in pieces if p.sheet == last)


def _tail(packer: Packer, pieces: list[Piece]) -> float:
    """The road (mm) on a last sheet that holds less than :data:`TAIL_SHEET` (0: none such)."""
    road = _last_road(packer, pieces)
    return road if len(packer.sheets) > 1 and road < TAIL_SHEET else 0.0


def _fill_loop(band, box, gap: float, start: float, paper_label: str, max_pieces: int) -> tuple[list[Piece], Packer]:
    packer = Packer(box, gap)
    W, H = packer.inner
    end = start + band.lap
    pieces: list[Piece] = []
    s = start
    while s < end - 1e-6:
        best = None
        for cols, rows in WAYS:
            cell = ((W - (cols - 1) * gap) / cols, (H - (rows - 1) * gap) / rows)
            trial = Packer(box, gap)
            placed = _fill_sheet(trial, band, s, end, cell)
            if placed:
                key = (-(placed[-1][1] - PIECE_COST * len(placed)), len(placed))
                if best is None or key < best[0]:
                    best = (key, trial.sheets[0], placed)
        if best is None:
            from .pieces import too_wide

            raise too_wide(band, s, paper_label, W, H)
        _, sheet, placed = best
        sheet.owners = [len(pieces) + 1 + i for i in range(len(placed))]
        packer.sheets.append(sheet)
        k = len(packer.sheets) - 1
        for s0, s1, angle, shift in placed:
            piece = Piece(len(pieces) + 1, s0, s1, band.outline(s0, s1), band)
            piece.sheet, piece.angle, piece.shift = k, angle, shift
            pieces.append(piece)
        if len(pieces) > max_pieces:
            raise InputError(
                f"this road needs more than {max_pieces} pieces on {paper_label}: Paddock prints at most {max_pieces}",
                field="--lap",
                hint="use a shorter lap (--lap), a narrower road (--lane-width) or larger paper (--paper a3)",
            )
        s = placed[-1][1]
    _rehome_tail(packer, pieces)
    return pieces, packer


def _rehome_tail(packer: Packer, pieces: list[Piece]) -> None:
    """A last sheet holding only a short strip of road (less than :data:`TAIL_SHEET`: the end of the lap that
    did not fit the sheet before) is no sheet worth printing: its pieces go on the latest earlier sheets with room
    (the plan says which sheet holds each piece), and the sheet is dropped."""
    if not _tail(packer, pieces):
        return
    last = len(packer.sheets) - 1
    for p in [p for p in pieces if p.sheet == last]:
        for k in range(last - 1, -1, -1):
            found = packer.spot(p.ring, k, packer.angles(p.ring))
            if found is not None:
                packer.place(p, k, *found)
                break
        else:
            return  # no room anywhere: it keeps its sheet (a piece moved before it stays where it went, too)
    packer.sheets.pop()


def _fill_sheet(packer: Packer, band, s: float, end: float, cell: tuple[float, float]) -> list:
    """Pieces from ``s`` on, in order, on the packer's one (new) sheet while they fit, each at most ``cell`` large:
    ``[(s0, s1, angle, shift), …]`` (empty: not even the shortest piece fits)."""
    k = packer.new_sheet()
    placed: list = []
    while s < end - 1e-6:
        rest = end - s
        got = _longest_here(packer, band, s, rest, k, cell)
        if got is None:
            break
        length, angle, shift = got
        if length < rest and rest - length < MIN_PIECE:  # leave no sliver for the end
            if rest - MIN_PIECE < MIN_PIECE:
                break  # the rest goes whole onto the next sheet
            length = rest - MIN_PIECE  # shorter: still fits where it was found
        s1 = end if rest - length < 1e-6 else s + length
        piece = Piece(0, s, s1, band.outline(s, s1), band)
        packer.place(piece, k, angle, shift)
        placed.append((s, s1, piece.angle, piece.shift))
        s = s1
    return placed


def _longest_here(packer: Packer, band, s: float, rest: float, k: int, cell: tuple[float, float]):
    """The longest piece from ``s`` (at most ``rest``, at least :data:`MIN_PIECE`, or the whole ``rest`` when it is
    shorter) that fits within ``cell`` and on sheet ``k`` now: ``(length, angle, shift)``, or None."""

    def attempt(length: float):
        ring = band.outline(s, s + length)
        if not fit_angles(ring, *cell):
            return None
        return packer.spot(ring, k, packer.angles(ring))

    longest = 2 * (cell[0] + cell[1])  # no piece of road that fits the cell is longer
    if rest <= longest:
        found = attempt(rest)
        if found is not None:
            return rest, *found
    if rest <= MIN_PIECE:
        return None
    found = attempt(MIN_PIECE)
    if found is None:
        return None
    lo, hi = MIN_PIECE, min(rest, longest)
    best = found
    while hi - lo > BISECT_TO:
        mid = (lo + hi) / 2
        got = attempt(mid)
        if got is None:
            hi = mid
        else:
            lo, best = mid, got
    return lo, *best


# ------------------------------------------------------------------------------------------ the modular set


def first_fit(pieces: list[Piece], box, gap: float, paper_label: str = "the paper") -> Packer:
    """Each piece (fixed shape) on the first sheet with room for it, the largest first. Sheets are then numbered by
    the first piece (in the given order) they hold. Returns the packer (its sheets)."""
    packer = Packer(box, gap)
    W, H = packer.inner
    angle_cache: dict = {}
    for p in sorted(pieces, key=lambda p: (-round(p.area, 3), p.number)):
        key = p.kind or id(p)
        if key not in angle_cache:
            if not fit_angles(p.ring, W, H):
                raise GeometryError(
                    f"piece {p.label or p.number} does not fit the printable area of {paper_label}",
                    hint="print on larger paper (--paper a3) or narrow the road (--lane-width)",
                )
            angle_cache[key] = packer.angles(p.ring)
        for k in range(len(packer.sheets)):
            spot = packer.spot(p.ring, k, angle_cache[key])
            if spot is not None:
                packer.place(p, k, *spot)
                break
        else:
            k = packer.new_sheet()
            packer.place(p, k, *packer.spot(p.ring, k, angle_cache[key]))
    first: dict[int, int] = {}
    for p in pieces:
        first.setdefault(p.sheet, len(first))
    for p in pieces:
        p.sheet = first[p.sheet]
    packer.sheets = [packer.sheets[old] for old, _ in sorted(first.items(), key=lambda kv: kv[1])]
    return packer
