"""Put a large sheet onto smaller paper: tiles with a glue overlap, cut lines, labels, registration marks,
and an assembly page that shows how the tiles fit together.

Tiles that would print only blank paper (or only what their neighbours already print) are left out, and of the
two orientations the one needing fewer printed pages wins. Registration marks lie in the glue overlaps only,
on blank paper where the overlap has any (never on the track, a label or a scale bar when it can be helped).

Geometry (all mm). A tile page of the target paper shows a *window* of the source page inside its printable
area (less a label strip). Neighbouring windows overlap by ``overlap`` mm. To assemble, cut each tile that has a
neighbour above or to the left along its dashed cut line (the window's top / left edge), lay it over that
neighbour so the registration marks coincide, and glue it on the overlap strip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

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


MARK_R = 2.2  # radius of a registration mark's circle; its cross reaches 1.6 times that
MARK_CLEAR = MARK_R * 1.6 + 0.8  # blank paper wanted round a mark's centre


def ink(page: Page):
    """What ``page`` draws, as one shapely geometry (filled shapes, stroked lines, text boxes); white fills count
    as paper, their outlines as ink."""
    from shapely import LineString, box, make_valid, union_all
    from shapely import Polygon as SPoly

    from ..scene import bounds

    geoms = []
    for layer in page.layers.values():
        for it in layer.items:
            if isinstance(it, Polyline) and len(it.points) >= 2 and it.style.stroke is not None:
                pts = it.points + (it.points[:1] if it.closed else ())
                geoms.append(LineString(pts).buffer(max(it.style.width, 0.2) / 2, quad_segs=2))
            elif isinstance(it, Polygon) and len(it.exterior) >= 3:
                filled = it.style.fill is not None and str(it.style.fill).lower() not in ("#ffffff", "#fff", "white")
                if filled:
                    geoms.append(make_valid(SPoly(it.exterior, it.holes)))
                elif it.style.stroke is not None:
                    ring = it.exterior + it.exterior[:1]
                    geoms.append(LineString(ring).buffer(max(it.style.width, 0.2) / 2, quad_segs=2))
            else:
                b = bounds([it])
                if b is not None:
                    geoms.append(box(*b))
    return union_all(geoms) if geoms else None


def _window_box(t: Tile):
    from shapely import box

    x, y, w, h = t.window
    return box(x, y, x + w, y + h)


def _printed(tiles: list[Tile], drawn) -> list[Tile]:
    """The tiles worth printing: a tile is left out when everything drawn in its window is also in the windows of
    the tiles kept (emptiest first), so nothing drawn is lost."""
    from shapely import union_all

    if drawn is None or drawn.is_empty:
        return tiles[:1]
    parts = {id(t): drawn.intersection(_window_box(t)) for t in tiles}
    kept = list(tiles)
    for t in sorted(tiles, key=lambda t: (parts[id(t)].area, t.row, t.col)):
        others = [_window_box(u) for u in kept if u is not t]
        if not others:
            break
        rest = parts[id(t)].difference(union_all(others))
        if rest.is_empty or (rest.area < 0.01 and rest.length < 0.5):
            kept.remove(t)
    return [t for t in tiles if t in kept]


@dataclass(frozen=True)
class TilePlan:
    source: Page
    paper: Paper
    tiles: tuple[Tile, ...]  # the tiles printed (blank ones left out)
    rows: int
    cols: int
    overlap: float
    skipped: tuple[Tile, ...] = ()  # tiles of the grid that would print nothing new
    drawn: object = None  # ink(source)

    @property
    def marks(self) -> list[tuple[float, float]]:
        """Registration mark positions on the source page: two in each glue overlap two printed tiles share, on
        blank paper where the overlap has any."""
        from shapely import Point

        by_pos = {(t.row, t.col): t for t in self.tiles}
        pts: list[tuple[float, float]] = []
        drawn = self.drawn
        for t in self.tiles:
            x, y, w, h = t.window
            for nb, vertical in ((by_pos.get((t.row, t.col + 1)), True), (by_pos.get((t.row + 1, t.col)), False)):
                if nb is None:
                    continue
                if vertical:  # the strip [nb.x, x + w] × [y, y + h]
                    mid = (nb.window[0] + x + w) / 2
                    lo, hi = y + MARK_CLEAR, y + h - MARK_CLEAR
                    at = lambda v, m=mid: (m, v)  # noqa: E731
                else:
                    mid = (nb.window[1] + y + h) / 2
                    lo, hi = x + MARK_CLEAR, x + w - MARK_CLEAR
                    at = lambda v, m=mid: (v, m)  # noqa: E731
                if hi <= lo:
                    continue
                cands = [lo + (hi - lo) * i / 60 for i in range(61)]
                free = [v for v in cands if drawn is None or not drawn.intersects(Point(at(v)).buffer(MARK_CLEAR))]
                for goal in (lo + (hi - lo) / 4, lo + 3 * (hi - lo) / 4):
                    pool = free or cands
                    v = min(pool, key=lambda v, g=goal: (abs(v - g), v))
                    if at(v) not in pts:
                        pts.append(at(v))
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
    drawn = ink(source)
    best = None
    for paper in (target, target.rotated()) if free else (target,):
        ww = paper.width - 2 * edge
        wh = paper.height - 2 * edge - LABEL_BAND - FOOTER_BAND
        if ww <= overlap * 2 or wh <= overlap * 2:
            continue
        xs, sw = _splits(source.width, ww, overlap)
        ys, sh = _splits(source.height, wh, overlap)
        grid = [
            Tile(r, c, (x, y, sw, sh), (edge, edge + LABEL_BAND)) for r, y in enumerate(ys) for c, x in enumerate(xs)
        ]
        kept = _printed(grid, drawn)
        cand = (len(kept), paper.orientation != target.orientation, paper, grid, kept, len(ys), len(xs))
        if best is None or cand[:2] < best[:2]:
            best = cand
    if best is None:
        raise GeometryError(f"{target.label} paper is too small to tile onto with a {edge:g} mm edge")
    _, _, paper, grid, kept, rows, cols = best
    skipped = tuple(t for t in grid if t not in kept)
    return TilePlan(source, paper, tuple(kept), rows, cols, overlap, skipped, drawn)


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
    # The sheet's own footer and scale bars stay off the tiles: each tile carries its own, true for that tile.
    content = tuple(item for name, layer in source.layers.items() if name != PRINT_CHECK for item in layer.items)
    content += tuple(marks)
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
        left = by_pos.get((t.row, t.col - 1))
        above = by_pos.get((t.row - 1, t.col))
        if left:
            guide.add(Polyline(((ox, edge), (ox, oy + h + 2)), CUT))
        if above:
            guide.add(Polyline(((edge, oy), (ox + w + 2, oy)), CUT))
        guide.add(rect(ox, oy, w, h, Style(stroke="#999999", width=0.1)))
        hints = [f"Tile {t.label}"]
        if left:
            hints.append(f"cut on the dashed line, lay over {left.label}")
        if above:
            hints.append(f"cut on the dashed line, lay over {above.label}")
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


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def assembly_page(p: TilePlan, *, edge: float = DEFAULT_EDGE) -> Page:
    """One page showing the whole sheet scaled down, with the tile windows drawn and labelled."""
    # The picture is as large as the paper allows: the page lies the way the sheet does.
    lie = "landscape" if p.source.width > p.source.height else "portrait"
    paper = p.paper if p.paper.orientation == lie else replace(p.paper, orientation=lie)
    page = Page(PageSpec(paper, edge), f"{p.source.title} — how the {len(p.tiles)} tiles fit")
    bx, by, bw, bh = page.content_box
    head = pt_to_mm(14)
    page.add("text", Text(f"Assembly: {p.source.title}", bx, by + head, head, "bold"))
    size = pt_to_mm(8)
    intro = (
        f"{len(p.tiles)} tiles of {p.paper.label}, in {_count(p.rows, 'row')} of {_count(p.cols, 'column')}"
        + (f" ({', '.join(s.label for s in p.skipped)} blank: not printed)" if p.skipped else "")
        + ", glue overlap "
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
    for t in p.skipped:  # blank tiles: a thin grey frame, no label (nothing to print there)
        x, y, w, h = t.window
        frame.add(rect(sx + x * scale, top + y * scale, w * scale, h * scale, Style(stroke="#bbbbbb", width=0.2)))
    spots = label_spots(p, LABEL_W / scale, LABEL_H / scale)
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
        mx, my = spots[(t.row, t.col)]
        cx, cy = sx + mx * scale, top + my * scale
        frame.add(rect(cx - LABEL_W / 2, cy - LABEL_H / 2, LABEL_W, LABEL_H, LABEL_BOX))
        frame.add(Text(t.label, cx, cy, pt_to_mm(16), "bold", "#c0392b", anchor="middle", valign="middle"))
    return page


LABEL_W, LABEL_H = 12.0, 8.0  # mm on the assembly page: a tile's label and its white box
LABEL_BOX = Style(stroke="#c0392b", width=0.3, fill="#ffffff")


def label_spots(p: TilePlan, w: float, h: float) -> dict[tuple[int, int], tuple[float, float]]:
    """Where each tile's label goes on the sheet (source mm, the label's centre; ``w`` × ``h`` is its box at the
    sheet's scale): in the part of the tile's window no neighbour shares, on blank paper (never over the
    board's legend, a label or the track) nearest the window's centre; the centre when the window has no blank
    paper big enough."""
    from shapely import box

    others = {(t.row, t.col): _window_box(t) for t in p.tiles}
    out: dict[tuple[int, int], tuple[float, float]] = {}
    taken = []
    for t in p.tiles:
        x, y, ww, hh = t.window
        mine = _window_box(t)
        for key, geom in others.items():
            if key != (t.row, t.col):
                mine = mine.difference(geom)
        centre = (x + ww / 2, y + hh / 2)
        cands = [(x + w / 2 + i * (ww - w) / 24, y + h / 2 + j * (hh - h) / 24) for i in range(25) for j in range(25)]
        cands.sort(key=lambda c: ((c[0] - centre[0]) ** 2 + (c[1] - centre[1]) ** 2, c))
        pick = centre
        for cx, cy in cands:
            b = box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if not mine.contains(b) or (p.drawn is not None and p.drawn.intersects(b)):
                continue
            if any(o.intersects(b) for o in taken):
                continue
            pick = (cx, cy)
            break
        taken.append(box(pick[0] - w / 2, pick[1] - h / 2, pick[0] + w / 2, pick[1] + h / 2))
        out[(t.row, t.col)] = pick
    return out
