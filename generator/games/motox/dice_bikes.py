"""The four dice, as fold-and-glue cube nets, and the four bikes (the piecepack's pawns), as fold-up standees.

A die net is the usual cross: the front face with the top, left and right faces round it and the bottom and
back faces below. Opposite faces add up to the piecepack's ``die_opposite_sum`` (null–5, ace–4, 2–3). Seven
glue tabs (one per edge the net leaves open) close the cube.

A bike standee is one strip: base tab, the bike upside down, the fold that becomes the top, the bike upright,
base tab. Fold in the middle and glue the two bikes back to back; fold the tabs out the opposite ways to stand
it on one 1-inch space.

Layers: ``tabs``, ``pieces``, ``cut``, ``fold``, ``text``.
"""

from __future__ import annotations

from functools import cache

from ...compose.blocks import paragraph
from ...compose.colour import GREY, INK
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Layer, Page, Polygon, Polyline, Style, Text
from ...units import pt_to_mm
from . import facts, pieces
from .sides import CUT, FOLD, shared_cut_lines
from .symbols import suit_symbol

PAPER = Paper("a4", "portrait")
LAYERS = ("tabs", "pieces", "cut", "fold", "text")
TAB = 5.0  # mm, glue tab depth
TAB_FILL = "#e4e4e4"
HEADER = 17.0
GAP = 8.0

# The net: face name -> (column, row) of a 3 × 4 grid, and which rank it shows (by value).
NET = {"top": (1, 0), "left": (0, 1), "front": (1, 1), "right": (2, 1), "bottom": (1, 2), "back": (1, 3)}
FACE_VALUE = {"front": 1, "back": 4, "top": 2, "bottom": 3, "left": 0, "right": 5}
# Glue tabs: (face, side) — each closes one cube edge the net leaves open.
TABS = (
    ("top", "left"),
    ("top", "right"),
    ("bottom", "left"),
    ("bottom", "right"),
    ("back", "left"),
    ("back", "right"),
    ("back", "bottom"),
)


def net_size() -> tuple[float, float]:
    s = facts.die_mm()
    return 3 * s, 4 * s + TAB


def _face_box(x: float, y: float, s: float, face: str) -> tuple[float, float, float, float]:
    c, r = NET[face]
    return (x + c * s, y + r * s, s, s)


def _tab(box, side: str) -> tuple[tuple[float, float], ...]:
    x, y, s, _ = box
    t, k = TAB, TAB * 0.8  # depth, and how far the slanted ends come in
    if side == "left":
        return ((x, y), (x - t, y + k), (x - t, y + s - k), (x, y + s))
    if side == "right":
        return ((x + s, y), (x + s + t, y + k), (x + s + t, y + s - k), (x + s, y + s))
    if side == "bottom":
        return ((x, y + s), (x + k, y + s + t), (x + s - k, y + s + t), (x + s, y + s))
    return ((x, y), (x + k, y - t), (x + s - k, y - t), (x + s, y))


def die_net(page: Page, x: float, y: float, suit: facts.Suit) -> None:
    """The net of the die of ``suit`` with its top-left corner at (x, y)."""
    s = facts.die_mm()
    by_value = {r.value: r for r in facts.ranks()}
    boxes = {f: _face_box(x, y, s, f) for f in NET}
    for face, box in boxes.items():
        pieces.die_face(page.layer("pieces"), box[0], box[1], s, suit, by_value[FACE_VALUE[face]])
    outline = []
    for face, side in TABS:
        pts = _tab(boxes[face], side)
        page.add("tabs", Polygon(pts, (), Style(stroke=None, fill=TAB_FILL)))
        outline.append(pts)
    # Cut: the tabs' slanted sides and the faces' open edges; fold: every edge two faces or a face and a tab share.
    for pts in outline:
        page.add("cut", Polyline(pts, CUT))
    lines = shared_cut_lines(list(boxes.values()))
    tabbed = {_edge(boxes[f], side) for f, side in TABS}
    inner = _inner_edges(boxes)
    for a, b in lines:
        for seg in _split(a, b, s):
            key = (tuple(round(v, 4) for v in seg[0]), tuple(round(v, 4) for v in seg[1]))
            page.add(
                "fold" if key in inner or key in tabbed else "cut",
                Polyline(seg, FOLD if key in inner or key in tabbed else CUT),
            )


def _edge(box, side: str):
    x, y, s, _ = box
    seg = {
        "left": ((x, y), (x, y + s)),
        "right": ((x + s, y), (x + s, y + s)),
        "top": ((x, y), (x + s, y)),
        "bottom": ((x, y + s), (x + s, y + s)),
    }[side]
    return tuple(tuple(round(v, 4) for v in p) for p in seg)


def _inner_edges(boxes) -> set:
    """Edges two faces of the net share (the cube's folds)."""
    seen: dict = {}
    for box in boxes.values():
        for side in ("left", "right", "top", "bottom"):
            e = _edge(box, side)
            seen[e] = seen.get(e, 0) + 1
    return {e for e, n in seen.items() if n == 2}


def _split(a, b, s: float):
    """A merged straight line cut back into face-long pieces."""
    (x0, y0), (x1, y1) = a, b
    n = max(1, round((abs(x1 - x0) + abs(y1 - y0)) / s))
    return [
        ((x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n), (x0 + (x1 - x0) * (i + 1) / n, y0 + (y1 - y0) * (i + 1) / n))
        for i in range(n)
    ]


# -- bikes ---------------------------------------------------------------------------------------------------


@cache
def _bike_shape():
    """A motocross bike and rider, facing right, in a unit box (x 0–1, y 0–1, y down), as shapely geometry."""
    from shapely.geometry import LineString, Point
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    def limb(*pts, w):
        return LineString(pts).buffer(w / 2, cap_style=1, join_style=1)

    wheels = [Point(c, 0.78).buffer(0.19, 32).difference(Point(c, 0.78).buffer(0.115, 32)) for c in (0.19, 0.81)]
    hubs = [Point(c, 0.78).buffer(0.045, 16) for c in (0.19, 0.81)]
    body = SPolygon([(0.3, 0.5), (0.62, 0.47), (0.7, 0.53), (0.56, 0.72), (0.38, 0.72), (0.28, 0.58)])
    seat = limb((0.16, 0.5), (0.5, 0.49), w=0.07)
    swingarm = limb((0.19, 0.78), (0.42, 0.66), w=0.06)
    fork = limb((0.66, 0.36), (0.81, 0.78), w=0.06)
    fender = limb((0.7, 0.5), (0.92, 0.55), w=0.045)
    rear_fender = limb((0.1, 0.47), (0.24, 0.52), w=0.05)
    bars = limb((0.62, 0.35), (0.7, 0.33), w=0.05)
    torso = limb((0.38, 0.45), (0.46, 0.22), w=0.13)
    arm = limb((0.47, 0.25), (0.58, 0.35), (0.65, 0.34), w=0.065)
    leg = limb((0.38, 0.46), (0.55, 0.52), (0.5, 0.68), w=0.085)
    helmet = Point(0.5, 0.12).buffer(0.085, 24)
    visor = limb((0.56, 0.1), (0.64, 0.12), w=0.035)
    return unary_union(
        [*wheels, *hubs, body, seat, swingarm, fork, fender, rear_fender, bars, torso, arm, leg, helmet, visor]
    )


def _polys(geom, place, colour: str) -> list[Polygon]:
    out = []
    for part in getattr(geom, "geoms", [geom]):
        ring = tuple(place(x, y) for x, y in part.exterior.coords[:-1])
        holes = tuple(tuple(place(x, y) for x, y in h.coords[:-1]) for h in part.interiors)
        out.append(Polygon(ring, holes, Style(stroke=None, fill=colour)))
    return out


def bike(layer: Layer, x: float, y: float, w: float, h: float, colour: str, upside_down: bool = False) -> None:
    """The bike in ``colour`` filling a ``w`` × ``h`` box (its wheels on the box's bottom edge, or top)."""
    size = min(w, h) * 0.86
    ox, oy = x + (w - size) / 2, y + h - size - (h - size) * 0.15

    def place(u, v):
        px, py = ox + u * size, oy + v * size
        if upside_down:  # turned half a turn about the box's centre
            px, py = 2 * x + w - px, 2 * y + h - py
        return (round(px, 4), round(py, 4))

    layer.extend(_polys(_bike_shape(), place, colour))


def standee_size() -> tuple[float, float]:
    w, h, base = facts.bike_mm()
    return w, 2 * h + 2 * base


def bike_standee(page: Page, x: float, y: float, suit: facts.Suit) -> None:
    w, h, base = facts.bike_mm()
    boxes = [(x, y, w, base), (x, y + base, w, h), (x, y + base + h, w, h), (x, y + base + 2 * h, w, base)]
    bike(page.layer("pieces"), *boxes[1], suit.colour, upside_down=True)
    bike(page.layer("pieces"), *boxes[2], suit.colour)
    for bx, by, bw, bh in (boxes[0], boxes[3]):
        page.layer("pieces").extend(suit_symbol(suit.id, bx + bw / 2, by + bh / 2, bh * 0.6, suit.colour))
    x0, y0, x1, y1 = x, y, x + w, y + 2 * h + 2 * base
    page.add("cut", Polyline(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), CUT, closed=True))
    for _, by, _, _ in boxes[1:]:
        page.add("fold", Polyline(((x0, by), (x1, by)), FOLD))


# -- the sheet -------------------------------------------------------------------------------------------------


def _page(spec: PageSpec, title: str) -> Page:
    page = Page(spec, f"MotoX piecepack: {title}")
    for name in LAYERS:
        page.layer(name)
    x0, y0, cw, _ = spec.content_box
    x0, y0, cw = x0 + 0.3, y0 + 0.3, cw - 0.6
    head = f"MotoX piecepack · {title}"
    size = pt_to_mm(11.5)
    page.add("text", Text(head, x0, y0 + ascent(size, "bold"), size, "bold", INK))
    stock = facts.piecepack().card_stock
    lines = [
        f"Single-sided. {stock}",
        "Dice: cut on the solid lines, crease every dashed line, glue each grey tab inside the face it meets. "
        "Bikes: fold in the middle, glue the two halves back to back, fold the end tabs out opposite ways.",
    ]
    ty = y0 + ascent(size, "bold") + 1.6
    for line in lines:
        ty = paragraph(page.layer("text"), line, x0, ty, cw, pt_to_mm(7), "condensed", GREY, 1.2) + 0.4
    return page


def dice_bikes_pages(spec: PageSpec) -> list[Page]:
    """Four die nets and four bike standees: on one page, or two when the page is too small for both."""
    page = _page(spec, "dice and bikes")
    pages = [page]
    x0, y0, cw, ch = spec.content_box
    x0, y0, cw, ch = x0 + 0.3, y0 + 0.3, cw - 0.6, ch - 0.6
    nw, nh = net_size()
    sw, sh = standee_size()
    top = y0 + HEADER + 2.0
    label = pt_to_mm(8)
    suits = facts.suits()
    # Nets two by two on the left, bikes two by two on the right (or in a row under the nets on a narrow page).
    # A net's tabs stay inside its 3 × 4 faces' width; only the bottom tab hangs below.
    cols_needed = 2 * nw + GAP + 2 * GAP + 2 * sw
    side_by_side = cols_needed <= cw
    width = cols_needed if side_by_side else max(2 * nw + GAP, 4 * sw + 3 * GAP)
    nets_x = x0 + max(0.0, (cw - width) / 2)
    for i, suit in enumerate(suits):
        r, c = divmod(i, 2)
        nx, ny = nets_x + c * (nw + GAP), top + r * (nh + GAP)
        die_net(page, nx, ny, suit)
        page.add("text", Text(f"{suit.name} die", nx, ny - 1.5, label, "condensed-bold", GREY))
    if side_by_side:
        bx, by, per_row = nets_x + 2 * nw + GAP * 2, top, 2
    else:
        bx, by, per_row = nets_x, top + 2 * (nh + GAP) + 4, 4
        if by + sh > y0 + ch:  # no room under the nets: the bikes get a page of their own
            page = _page(spec, "bikes")
            pages.append(page)
            by = top
    for i, suit in enumerate(suits):
        r, c = divmod(i, per_row)
        sx, sy = bx + c * (sw + GAP), by + r * (sh + GAP + 4)
        bike_standee(page, sx, sy, suit)
        page.add("text", Text(f"{suit.name} bike", sx, sy - 1.5, label, "condensed-bold", GREY))
    return pages
