"""Put a large sheet onto smaller paper: tiles with a glue overlap, cut lines, labels, registration marks,
and an assembly page that shows how the tiles fit together.

Geometry (all mm). A tile page of the target paper shows a *window* of the source page inside its printable
area (less a label strip). Neighbouring windows overlap by ``overlap`` mm. To assemble, cut each tile that has a
neighbour above or to the left along its dashed cut line (the window's top / left edge), lay it over that
neighbour so the registration marks coincide, and glue it on the overlap strip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import GeometryError
from ..paper import DEFAULT_EDGE, FOOTER_BAND, PageSpec, Paper
from ..scene import Group, Page, Polygon, Polyline, Style, Text, rect
from ..units import pt_to_mm
from .blocks import wrap
from .printcheck import LAYER as PRINT_CHECK

MIN_OVERLAP = 10.0
LABEL_BAND = 5.0  # mm at the top of each tile's printable area for its label and neighbour hints
CUT = Style(stroke="#000000", width=0.25, dash=(2.0, 1.5))
REG = Style(stroke="#000000", width=0.2)
GLUE = Style(stroke=None, fill="#000000", opacity=0.06)


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    window: tuple[float, float, float, float]  # x, y, w, h on the source page
    origin: tuple[float, float]  # where the window's top-left lies on the tile page

    @property
    def label(self) -> str:
        return f"{row_name(self.row)}{self.col + 1}"


def row_name(i: int) -> str:
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(65 + r) + name
    return name


def _splits(total: float, window: float, overlap: float) -> tuple[list[float], float]:
    """Start positions and size of the fewest equal windows (each at most ``window``) that cover [0, total]
    with neighbours sharing exactly ``overlap``."""
    if total <= window:
        return [0.0], total
    n = math.ceil((total - overlap) / (window - overlap))
    size = (total + (n - 1) * overlap) / n
    stride = size - overlap
    return [i * stride for i in range(n)], size


@dataclass(frozen=True)
class TilePlan:
    source: Page
    paper: Paper
    tiles: tuple[Tile, ...]
    rows: int
    cols: int
    overlap: float

    @property
    def marks(self) -> list[tuple[float, float]]:
        """Registration mark positions on the source page: in the middle of each overlap strip."""
        pts = []
        xs = sorted({t.window[0] for t in self.tiles})
        ys = sorted({t.window[1] for t in self.tiles})
        w = self.tiles[0].window[2]
        h = self.tiles[0].window[3]
        W, H = self.source.width, self.source.height
        for x in xs[1:]:  # vertical overlap strips: [x, previous window end]
            mx = (x + (xs[xs.index(x) - 1] + w)) / 2
            for k in range(1, 4):
                pts.append((mx, H * k / 4))
        for y in ys[1:]:
            my = (y + (ys[ys.index(y) - 1] + h)) / 2
            for k in range(1, 4):
                pts.append((W * k / 4, my))
        return pts


def plan(
    source: Page, target: Paper, *, edge: float = DEFAULT_EDGE, overlap: float = 12.0, free: bool = True
) -> TilePlan:
    """Lay out the windows on ``target`` paper; with ``free``, in whichever orientation needs fewest pages."""
    if overlap < MIN_OVERLAP:
        raise GeometryError(
            f"a glue overlap of {overlap:g} mm is too narrow",
            field="overlap",
            hint=f"use at least {MIN_OVERLAP:g} mm",
        )
    best = None
    for paper in (target, target.rotated()) if free else (target,):
        ww = paper.width - 2 * edge
        wh = paper.height - 2 * edge - LABEL_BAND - FOOTER_BAND
        if ww <= overlap * 2 or wh <= overlap * 2:
            continue
        xs, sw = _splits(source.width, ww, overlap)
        ys, sh = _splits(source.height, wh, overlap)
        cand = (len(xs) * len(ys), paper.orientation != target.orientation, paper, xs, ys, sw, sh)
        if best is None or cand[:2] < best[:2]:
            best = cand
    if best is None:
        raise GeometryError(f"{target.label} paper is too small to tile onto with a {edge:g} mm edge")
    _, _, paper, xs, ys, ww, wh = best
    tiles = tuple(
        Tile(r, c, (x, y, ww, wh), (edge, edge + LABEL_BAND)) for r, y in enumerate(ys) for c, x in enumerate(xs)
    )
    return TilePlan(source, paper, tiles, len(ys), len(xs), overlap)


def _reg_mark(x: float, y: float, r: float = 2.2) -> list:
    return [
        Polyline(((x - r * 1.6, y), (x + r * 1.6, y)), REG),
        Polyline(((x, y - r * 1.6), (x, y + r * 1.6)), REG),
        Polygon(
            tuple((x + r * math.cos(a / 16 * math.tau), y + r * math.sin(a / 16 * math.tau)) for a in range(16)),
            (),
            Style(stroke="#000000", width=0.2, fill=None),
        ),
    ]


def tile_pages(
    source: Page, target: Paper, *, edge: float = DEFAULT_EDGE, overlap: float = 12.0, free: bool = True
) -> list[Page]:
    """The tile pages for ``source`` on ``target`` paper, followed by the assembly page."""
    p = plan(source, target, edge=edge, overlap=overlap, free=free)
    marks = [m for xy in p.marks for m in _reg_mark(*xy)]
    content = tuple(source.items()) + tuple(marks)
    by_pos = {(t.row, t.col): t for t in p.tiles}
    pages = []
    small = pt_to_mm(7)
    for t in p.tiles:
        page = Page(PageSpec(p.paper, edge), f"{source.title} — tile {t.label} of {len(p.tiles)}")
        x, y, w, h = t.window
        ox, oy = t.origin
        page.add("content", Group(content, offset=(ox - x, oy - y), clip=(ox, oy, w, h)))
        guide = page.layer("tiling")
        # Glue strips: where the neighbour to the right / below will lie on this tile.
        right = by_pos.get((t.row, t.col + 1))
        below = by_pos.get((t.row + 1, t.col))
        if right:
            gx = ox + right.window[0] - x
            guide.add(rect(gx, oy, ox + w - gx, h, GLUE))
        if below:
            gy = oy + below.window[1] - y
            guide.add(rect(ox, gy, w, oy + h - gy, GLUE))
        # Cut lines on the sides that go over a neighbour.
        if t.col > 0:
            guide.add(Polyline(((ox, edge), (ox, oy + h + 2)), CUT))
        if t.row > 0:
            guide.add(Polyline(((edge, oy), (ox + w + 2, oy)), CUT))
        guide.add(rect(ox, oy, w, h, Style(stroke="#999999", width=0.1)))
        hints = [f"Tile {t.label}"]
        if t.col > 0:
            hints.append(f"cut on the dashed line, lay over {by_pos[(t.row, t.col - 1)].label}")
        if t.row > 0:
            hints.append(f"cut on the dashed line, lay over {by_pos[(t.row - 1, t.col)].label}")
        if right or below:
            hints.append("glue on the grey strip")
        guide.add(
            Text(
                "  ·  ".join(hints),
                ox + 2,
                edge + LABEL_BAND / 2,
                small,
                "condensed-bold",
                anchor="start",
                valign="middle",
            )
        )
        guide.add(Text(t.label, ox + w - 1, edge + LABEL_BAND / 2, pt_to_mm(10), "bold", anchor="end", valign="middle"))
        pages.append(page)
    pages.append(assembly_page(p, edge=edge))
    return pages


def assembly_page(p: TilePlan, *, edge: float = DEFAULT_EDGE) -> Page:
    """One page showing the whole sheet scaled down, with the tile windows drawn and labelled."""
    page = Page(PageSpec(p.paper, edge), f"{p.source.title} — how the {len(p.tiles)} tiles fit")
    bx, by, bw, bh = page.content_box
    head = pt_to_mm(14)
    page.add("text", Text(f"Assembly: {p.source.title}", bx, by + head, head, "bold"))
    size = pt_to_mm(8)
    intro = (
        f"{len(p.tiles)} tiles of {p.paper.label}, {p.rows} row(s) × {p.cols} column(s), glue overlap "
        f"{p.overlap:g} mm. Trim each tile on its dashed line and lay it over its neighbour above or to the left, "
        "matching the registration marks; glue on the grey strip. The tiles print at true size: this picture "
        "does not (measure the scale bars below it, never the ones in the picture)."
    )
    y = by + head + 5
    for line in wrap(intro, bw, size):
        page.add("text", Text(line, bx, y, size, "regular"))
        y += size * 1.3
    top = y + 2
    scale = min(bw / p.source.width, (bh - (top - by)) / p.source.height)
    sx = bx + (bw - p.source.width * scale) / 2
    # The picture leaves out the sheet's own scale bars: scaled down, they would no longer measure true.
    picture = tuple(item for name, layer in p.source.layers.items() if name != PRINT_CHECK for item in layer.items)
    page.add(
        "content",
        Group(
            picture,
            offset=(sx, top),
            scale=scale,
            clip=(sx, top, p.source.width * scale, p.source.height * scale),
        ),
    )
    frame = page.layer("tiling")
    frame.add(rect(sx, top, p.source.width * scale, p.source.height * scale, Style(width=0.3)))
    for t in p.tiles:
        x, y, w, h = t.window
        frame.add(
            rect(
                sx + x * scale,
                top + y * scale,
                w * scale,
                h * scale,
                Style(stroke="#c0392b", width=0.35, dash=(1.5, 1.0)),
            )
        )
        cx, cy = sx + (x + w / 2) * scale, top + (y + h / 2) * scale
        frame.add(rect(cx - 6, cy - 4, 12, 8, Style(stroke="#c0392b", width=0.3, fill="#ffffff")))
        frame.add(
            Text(
                t.label,
                sx + (x + w / 2) * scale,
                top + (y + h / 2) * scale,
                pt_to_mm(16),
                "bold",
                "#c0392b",
                anchor="middle",
                valign="middle",
            )
        )
    return page
