"""Cutting a road into pieces that fit the paper, and packing the pieces onto as few sheets as it can.

A *band* is anything with ``outline(s0, s1)`` (the ring of the road between two positions along it, left edge
forward then right edge back) and ``cut(s)`` (the straight cut across the road at ``s``): the circuit's road
(:class:`~generator.games.monaco.road.Road`) and the modular set's straights and curves. Both pieces either side of
a cut take its two end points from ``cut(s)``, so neighbours share their cut line exactly.

Cutting walks along the band and makes every piece as long as fits inside the paper's printable box at some angle
(the pieces are turned freely), then evens the lengths out so no piece is a sliver. Packing is first-fit
decreasing: the largest pieces first, each on the first sheet where it fits at some angle clear of the others by
``gap`` (found on a 2 mm raster by correlating occupancy masks, then checked exactly with shapely), else on a new
sheet. Geometry only (mm); drawing the pieces is :mod:`.road_sheets`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...errors import GeometryError
from ...units import MM_PER_INCH

ANGLE_STEP = 2.0  # degrees: orientations tried when fitting a piece to the paper (and every hull edge square)
PACK_ANGLES = tuple(range(0, 360, 30))  # orientations tried when packing beside other pieces
RES = 1.0  # mm: the packing raster
FIT_MARGIN = 1.0  # mm kept inside the printable box (half the widest line drawn on a piece, and a hair)


@dataclass
class Piece:
    """One numbered piece: from ``s0`` to ``s1`` along its band; ``ring`` in the band's coordinates. Placed on
    ``sheet`` by ``sheet point = R(angle) · band point + shift`` (angle in degrees, clockwise on the page)."""

    number: int
    s0: float
    s1: float
    ring: np.ndarray
    band: object = None
    label: str = ""
    sheet: int = -1
    angle: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)
    fit: list[float] = field(default_factory=list)  # angles at which it fits an empty sheet
    kind: str = ""  # pieces of one kind have the same shape (the modular set)

    def to_sheet(self, pts) -> np.ndarray:
        return rotate(np.asarray(pts, dtype=float), self.angle) + np.asarray(self.shift)

    def heading(self, th: float) -> float:
        """A direction on the band (radians) as it lies on the sheet."""
        return th + math.radians(self.angle)

    @property
    def area(self) -> float:
        x, y = self.ring[:, 0], self.ring[:, 1]
        return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def rotate(pts: np.ndarray, deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return pts @ np.array([[c, s], [-s, c]])


def _hull(ring: np.ndarray) -> np.ndarray:
    from shapely import MultiPoint

    h = MultiPoint(ring).convex_hull
    return np.asarray(h.exterior.coords) if h.geom_type == "Polygon" else ring


def fit_angles(ring: np.ndarray, W: float, H: float) -> list[float]:
    """Angles (degrees) at which ``ring`` turned fits a W × H box, the roomiest first (empty: none)."""
    hull = _hull(ring)
    edges = np.diff(hull, axis=0)
    extra = np.degrees(np.arctan2(edges[:, 1], edges[:, 0]))
    angles = np.concatenate((np.arange(0, 180, ANGLE_STEP), np.mod(-extra, 180.0), np.mod(90 - extra, 180.0)))
    a = np.radians(angles)
    c, s = np.cos(a), np.sin(a)
    x = np.outer(c, hull[:, 0]) - np.outer(s, hull[:, 1])
    y = np.outer(s, hull[:, 0]) + np.outer(c, hull[:, 1])
    w = x.max(axis=1) - x.min(axis=1)
    h = y.max(axis=1) - y.min(axis=1)
    slack = np.minimum(W - w, H - h)
    ok = slack >= 0
    order = np.lexsort((angles, -slack))
    return [float(angles[i]) for i in order if ok[i]]


def fits(band, s0: float, s1: float, W: float, H: float) -> bool:
    return bool(fit_angles(band.outline(s0, s1), W, H))


# ------------------------------------------------------------------------------------------------- cutting


def _longest(band, s0: float, limit: float, W: float, H: float, cap: float | None = None) -> float:
    """The furthest ``s1`` (≤ ``limit``, ≤ ``s0 + cap``) such that the piece ``s0 … s1`` fits."""
    top = min(limit, s0 + cap) if cap else limit
    step = 25.0
    lo = s0
    hi = None
    s = s0
    while s < top:
        s = min(top, s + step)
        if fits(band, s0, s, W, H):
            lo = s
        else:
            hi = s
            break
    if hi is None:
        return lo
    while hi - lo > 1.0:
        mid = (lo + hi) / 2
        if fits(band, s0, mid, W, H):
            lo = mid
        else:
            hi = mid
    return lo


def _greedy(band, start: float, end: float, W, H, keepout, cap=None) -> list[float] | None:
    """Cut positions from ``start`` to ``end``: every piece as long as fits (and ``cap``), no cut in ``keepout``."""
    cuts = [start]
    while cuts[-1] < end - 1e-6:
        s1 = _longest(band, cuts[-1], end, W, H, cap)
        if s1 < end - 1e-6:
            for a, b in keepout:
                for k in (-1, 0, 1):
                    lo, hi = a + k * band.lap, b + k * band.lap
                    if lo < s1 < hi:
                        s1 = lo
        if s1 - cuts[-1] < 5.0:
            return None
        cuts.append(s1 if end - s1 > 1e-6 else end)
        if len(cuts) > 400:
            return None
    return cuts


def too_wide(band, s: float, paper_label: str, W: float, H: float) -> GeometryError:
    a, b = band.cut(s)
    w = float(np.hypot(*(b - a)))
    return GeometryError(
        f"the road is {w / MM_PER_INCH:.1f} in wide at {band.where(s)}: no piece fits the {W:.0f} × {H:.0f} mm "
        f"printable area of {paper_label}",
        file=getattr(band, "source", None),
        hint="print on larger paper (--paper a3) or narrow the road (--lane-width, --width double)",
    )


def cut_loop(band, W: float, H: float, keepout=(), paper_label: str = "the paper", origins: int = 4) -> list[Piece]:
    """Numbered pieces round a closed band, piece 1 starting at the cut chosen to give the fewest pieces (ties:
    the least uneven ones)."""
    L = band.lap
    best = None
    clear = [(a, b) for a, b in keepout]
    base = clear[0][1] if clear else 0.0
    for i in range(origins):
        origin = base + i * L / origins
        if any(a < origin < b for a, b in clear):
            continue
        cuts = _greedy(band, origin, origin + L, W, H, clear)
        if cuts is None:
            continue
        lengths = np.diff(cuts)
        key = (len(lengths), -float(lengths.min()))
        if best is None or key < best[0]:
            best = (key, origin, cuts)
    if best is None:
        s = _widest(band)
        raise too_wide(band, s, paper_label, W, H)
    _, origin, cuts = best
    cuts = _even(band, origin, origin + L, W, H, clear, len(cuts) - 1) or cuts
    return [
        Piece(i + 1, a, b, band.outline(a, b), band) for i, (a, b) in enumerate(zip(cuts[:-1], cuts[1:], strict=True))
    ]


def cut_open(band, W: float, H: float, paper_label: str = "the paper") -> list[Piece]:
    """Parts of an open band (a modular piece) from 0 to its length, as even as fits."""
    cuts = _greedy(band, 0.0, band.lap, W, H, ())
    if cuts is None:
        raise too_wide(band, 0.0, paper_label, W, H)
    cuts = _even(band, 0.0, band.lap, W, H, (), len(cuts) - 1) or cuts
    return [
        Piece(i + 1, a, b, band.outline(a, b), band) for i, (a, b) in enumerate(zip(cuts[:-1], cuts[1:], strict=True))
    ]


def _even(band, start, end, W, H, keepout, n) -> list[float] | None:
    """The same number of pieces with the longest as short as possible (a cap on length, found by bisection)."""
    lo, hi = (end - start) / n, end - start
    found = None
    for _ in range(10):
        cap = (lo + hi) / 2
        cuts = _greedy(band, start, end, W, H, keepout, cap)
        if cuts is not None and len(cuts) - 1 <= n:
            found, hi = cuts, cap
        else:
            lo = cap
        if hi - lo < 4.0:
            break
    return found


def _widest(band) -> float:
    s = np.linspace(0, band.lap, 200, endpoint=False)
    left, right = band.offsets(s)
    return float(s[int(np.argmax(left - right))])


# ------------------------------------------------------------------------------------------------- packing


@dataclass
class _Sheet:
    occupied: np.ndarray  # raster of placed pieces grown by half the gap
    shapes: list
    used: float = 0.0
    spectrum: np.ndarray | None = None  # FFT of ``occupied``, kept until the next piece is placed


def _raster(poly, origin: tuple[float, float], shape: tuple[int, int]) -> np.ndarray:
    """Cells of a grid (``shape`` rows × cols, cell (0, 0) at ``origin``, RES mm) that ``poly`` covers. A cell
    or so either way does not matter: every place found on the raster is checked exactly before it is taken."""
    from PIL import Image, ImageDraw

    rows, cols = shape
    img = Image.new("1", (cols, rows), 0)
    draw = ImageDraw.Draw(img)
    for g in getattr(poly, "geoms", [poly]):
        pts = [((x - origin[0]) / RES, (y - origin[1]) / RES) for x, y in g.exterior.coords]
        draw.polygon(pts, fill=1, outline=1)
    return np.asarray(img, dtype=bool)


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


class _Packer:
    """First-fit decreasing onto sheets of one printable box, every piece turned to whichever angle fits best."""

    def __init__(self, box: tuple[float, float, float, float], gap: float) -> None:
        self.box = box
        self.gap = gap
        x0, y0, W, H = box
        pad = int(math.ceil((gap / 2) / RES)) + 2
        self.shape = (_smooth(int(math.ceil(H / RES)) + 2 * pad), _smooth(int(math.ceil(W / RES)) + 2 * pad))
        self.origin = (x0 - pad * RES, y0 - pad * RES)
        self.sheets: list[_Sheet] = []
        self._masks: dict = {}  # (shape key, angle) → (pts, lo, span, base, mask spectrum)

    def run(self, pieces: list[Piece]) -> int:
        x0, y0, W, H = self.box
        for p in pieces:
            p.fit = fit_angles(p.ring, W - 2 * FIT_MARGIN, H - 2 * FIT_MARGIN)
        for p in sorted(pieces, key=lambda p: (-round(p.area, 3), p.number)):
            if not p.fit:
                raise GeometryError(f"piece {p.label or p.number} does not fit the paper", hint="use larger paper")
            for k, sh in enumerate(self.sheets):
                if sh.used + p.area > W * H * 0.9:
                    continue
                spot = self._spot(p, sh)
                if spot is not None:
                    self._place(p, k, *spot)
                    break
            else:
                # a new sheet: in its top corner if the raster finds room there, leaving the rest for others;
                # else (a piece that all but fills the sheet) centred at the angle that fits best
                self.sheets.append(_Sheet(np.zeros(self.shape, bool), []))
                spot = self._spot(p, self.sheets[-1])
                if spot is None:
                    ang = p.fit[0]
                    pts = rotate(p.ring, ang)
                    lo, hi = pts.min(axis=0), pts.max(axis=0)
                    spot = (ang, (x0 + (W - (hi[0] - lo[0])) / 2 - lo[0], y0 + (H - (hi[1] - lo[1])) / 2 - lo[1]))
                self._place(p, len(self.sheets) - 1, *spot)
        return len(self.sheets)

    def _place(self, p: Piece, k: int, angle: float, shift) -> None:
        from shapely import Polygon

        sh = self.sheets[k]
        p.sheet, p.angle, p.shift = k, float(angle), (float(shift[0]), float(shift[1]))
        poly = Polygon(p.to_sheet(p.ring))
        sh.shapes.append(poly)
        sh.occupied |= _raster(poly.buffer(self.gap / 2, 8), self.origin, self.shape)
        sh.used += p.area
        sh.spectrum = None

    def _mask(self, p: Piece, ang: float):
        from shapely import Polygon

        key = (p.kind or id(p), ang)  # modular pieces of one kind share one shape
        hit = self._masks.get(key)
        if hit is None:
            x0, y0, W, H = self.box
            pts = rotate(p.ring, ang)
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            span = hi - lo
            base = np.array([x0 + FIT_MARGIN - lo[0], y0 + FIT_MARGIN - lo[1]])
            mask = _raster(Polygon(pts + base).buffer(self.gap / 2, 8), self.origin, self.shape)
            hit = self._masks[key] = (np.conj(np.fft.rfft2(mask.astype(float))), lo, span, base)
        spectrum, lo, span, base = hit
        return rotate(p.ring, ang), span, base, spectrum

    def _spot(self, p: Piece, sh: _Sheet):
        """The best free place for ``p`` on a sheet: ``(angle, shift)`` highest then leftmost, or None."""
        from shapely import Polygon

        x0, y0, W, H = self.box
        if sh.spectrum is None:
            sh.spectrum = np.fft.rfft2(sh.occupied.astype(float))
        best = None
        angles = [*(a % 360 for a in p.fit[:2]), *((a + 180) % 360 for a in p.fit[:2]), *PACK_ANGLES]
        for ang in dict.fromkeys(round(a, 6) for a in angles):
            pts, span, base, spectrum = self._mask(p, ang)
            ni = int((W - 2 * FIT_MARGIN - span[0]) // RES)
            nj = int((H - 2 * FIT_MARGIN - span[1]) // RES)
            if ni < 0 or nj < 0:
                continue
            # hits[j, i]: overlap of the mask moved by (i, j) cells with what is placed (a correlation)
            hits = np.fft.irfft2(sh.spectrum * spectrum, s=self.shape)
            free = hits[: nj + 1, : ni + 1] < 0.5
            if not free.any():
                continue
            js, is_ = np.nonzero(free)
            bottom = js * RES + span[1]
            for q in np.lexsort((is_, bottom))[:12]:
                j, i = int(js[q]), int(is_[q])
                shift = base + np.array([i * RES, j * RES])
                cand = Polygon(pts + shift)
                if all(cand.distance(other) >= self.gap - 1e-6 for other in sh.shapes):
                    key = (float(bottom[q]), i, ang)
                    if best is None or key < best[0]:
                        best = (key, ang, (float(shift[0]), float(shift[1])))
                    break
        return None if best is None else (best[1], best[2])


def pack(pieces: list[Piece], box: tuple[float, float, float, float], gap: float) -> int:
    """Place every piece on a sheet (sets ``sheet``, ``angle``, ``shift``); returns the number of sheets."""
    return _Packer(box, gap).run(pieces)
