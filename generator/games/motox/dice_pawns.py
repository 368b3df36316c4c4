"""The four dice, as fold-and-glue cube nets, and the four pawns, as fold-up standees (a piecepack pawn with its
suit, or in the MotoX look a bike and rider).

A die net is the usual cross: the front face with the top, left and right faces round it and the bottom and
back faces below. Opposite faces add up to the piecepack's ``die_opposite_sum`` (null–5, ace–4, 2–3). Seven
glue tabs (one per edge the net leaves open) close the cube.

A standee is one strip: base tab, the figure upside down, the fold that becomes the top, the figure upright,
base tab. Fold in the middle and glue the two halves back to back; fold the tabs out the opposite ways to stand
it on one 1-inch space. The block of dice and pawns goes on the set's front page (:mod:`.cover`) or, where the
front page has no room for it, on a page of its own.

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


# -- pawns ---------------------------------------------------------------------------------------------------


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


@cache
def _pawn_shape():
    """A piecepack pawn in profile, in a unit box (x 0–1, y 0–1, y down, its base on y = 1), as shapely geometry."""
    from shapely.geometry import Point
    from shapely.geometry import Polygon as SPolygon
    from shapely.ops import unary_union

    head = Point(0.5, 0.2).buffer(0.16, 32)
    collar = SPolygon([(0.33, 0.36), (0.67, 0.36), (0.62, 0.42), (0.38, 0.42)])
    body = SPolygon([(0.38, 0.4), (0.62, 0.4), (0.8, 0.86), (0.2, 0.86)])
    base = SPolygon([(0.14, 0.86), (0.86, 0.86), (0.88, 1.0), (0.12, 1.0)])
    return unary_union([head, collar, body, base])


def figure(
    layer: Layer, x: float, y: float, w: float, h: float, suit: facts.Suit, look: str, upside_down: bool = False
) -> None:
    """The pawn of ``suit`` filling a ``w`` × ``h`` box, standing on the box's bottom edge (or top): a piecepack
    pawn with its suit on it, or (``look`` motox) a bike and rider."""
    size = min(w, h) * 0.86
    ox, oy = x + (w - size) / 2, y + h - size - (h - size) * 0.15

    def place(u, v):
        px, py = ox + u * size, oy + v * size
        if upside_down:  # turned half a turn about the box's centre
            px, py = 2 * x + w - px, 2 * y + h - py
        return (round(px, 4), round(py, 4))

    if look == "motox":
        layer.extend(_polys(_bike_shape(), place, suit.colour))
        return
    layer.extend(_polys(_pawn_shape(), place, suit.colour))
    cx, cy = place(0.5, 0.68)
    symbol = suit_symbol(suit.id, cx, cy, size * 0.27, "#ffffff")
    if upside_down:  # the suit turns with its pawn, so it stands upright once the strip is folded

        def turn(ring):
            return tuple((round(2 * cx - px, 4), round(2 * cy - py, 4)) for px, py in ring)

        symbol = [Polygon(turn(p.exterior), tuple(turn(h) for h in p.holes), p.style) for p in symbol]
    layer.extend(symbol)


def standee_size() -> tuple[float, float]:
    w, h, base = facts.bike_mm()
    return w, 2 * h + 2 * base


def standee(page: Page, x: float, y: float, suit: facts.Suit, look: str = "generic") -> None:
    """A pawn (or bike) standee: base tab, the figure upside down, the fold, the figure upright, base tab."""
    w, h, base = facts.bike_mm()
    boxes = [(x, y, w, base), (x, y + base, w, h), (x, y + base + h, w, h), (x, y + base + 2 * h, w, base)]
    figure(page.layer("pieces"), *boxes[1], suit, look, upside_down=True)
    figure(page.layer("pieces"), *boxes[2], suit, look)
    for bx, by, bw, bh in (boxes[0], boxes[3]):
        page.layer("pieces").extend(suit_symbol(suit.id, bx + bw / 2, by + bh / 2, bh * 0.6, suit.colour))
    x0, y0, x1, y1 = x, y, x + w, y + 2 * h + 2 * base
    page.add("cut", Polyline(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), CUT, closed=True))
    for _, by, _, _ in boxes[1:]:
        page.add("fold", Polyline(((x0, by), (x1, by)), FOLD))


# -- the block of dice and pawns, and a page of its own -------------------------------------------------------


def pawn_word(look: str) -> str:
    """What the pawns are called: ``pawn``, or ``bike`` in the MotoX look."""
    return "bike" if look == "motox" else "pawn"


def how_to(look: str) -> str:
    """How to make the dice and pawns, in one paragraph."""
    pawns = pawn_word(look).capitalize() + "s"
    return (
        "Dice: cut on the solid lines, crease every dashed line, glue each grey tab inside the face it meets. "
        f"{pawns}: fold in the middle, glue the two halves back to back, fold the end tabs out opposite ways. "
        "On a die the blank face is the null and the suit's symbol the ace."
    )


def beside_gap(width: float) -> float | None:
    """The gap round the standees standing beside the die nets in ``width`` (after the nets and between the two
    columns of standees): a full one where it fits, half of one where only that fits, or None: the standees go
    under the nets."""
    nw, _ = net_size()
    sw, _ = standee_size()
    for gap in (GAP, GAP / 2):
        if 2 * nw + GAP + 2 * gap + 2 * sw <= width:
            return gap
    return None


def block_size(width: float) -> tuple[float, float]:
    """(width, height) the four die nets and four standees take, side by side if ``width`` allows, else the
    standees in a row under the nets."""
    nw, nh = net_size()
    sw, sh = standee_size()
    gap = beside_gap(width)
    if gap is not None:
        return 2 * nw + GAP + 2 * gap + 2 * sw, max(2 * nh + GAP, 2 * sh + GAP + 4) + LABEL_ROOM
    return max(2 * nw + GAP, 4 * sw + 3 * GAP), 2 * (nh + GAP) + 4 + sh + LABEL_ROOM


LABEL_ROOM = 4.0  # mm above the first row for the pieces' names


def dice_pawns(
    page: Page, x: float, y: float, width: float, look: str = "generic", split: bool = False, how: bool = False
) -> float:
    """The four die nets and four standees from the top at ``y``, centred across ``width``; returns the y under
    them. ``split``: only the nets (the standees go elsewhere). ``how``: how to make them, under the standees
    where they stand beside the nets (see :func:`how_fits`)."""
    nw, nh = net_size()
    sw, sh = standee_size()
    label = pt_to_mm(8)
    suits = facts.suits()
    top = y + LABEL_ROOM
    gap = beside_gap(width)
    side_by_side = gap is not None and not split
    w = block_size(width)[0] if side_by_side else max(2 * nw + GAP, 4 * sw + 3 * GAP)
    nets_x = x + max(0.0, (width - w) / 2)
    for i, suit in enumerate(suits):
        r, c = divmod(i, 2)
        nx, ny = nets_x + c * (nw + GAP), top + r * (nh + GAP)
        die_net(page, nx, ny, suit)
        page.add("text", Text(f"{suit.name} die", nx, ny - 1.5, label, "condensed-bold", GREY))
    bottom = top + 2 * nh + GAP
    if split:
        return bottom
    if side_by_side:
        bx, by, per_row = nets_x + 2 * nw + GAP + gap, top, 2
        step = sw + gap
    else:
        bx, by, per_row = nets_x, top + 2 * (nh + GAP) + 4, 4
        step = sw + GAP
    for i, suit in enumerate(suits):
        r, c = divmod(i, per_row)
        sx, sy = bx + c * step, by + r * (sh + GAP + 4)
        standee(page, sx, sy, suit, look)
        page.add("text", Text(f"{suit.name} {pawn_word(look)}", sx, sy - 1.5, label, "condensed-bold", GREY))
        bottom = max(bottom, sy + sh)
    if how and side_by_side:
        ty = by + 2 * sh + GAP + 4 + 2.0
        paragraph(page.layer("text"), how_to(look), bx, ty, 2 * sw + gap, pt_to_mm(7), "condensed", GREY, 1.15)
    return bottom


def how_fits(width: float, look: str = "generic") -> bool:
    """Whether :func:`dice_pawns` has room for how to make the pieces under the standees beside the nets."""
    from ...compose.blocks import wrap

    nw, nh = net_size()
    sw, sh = standee_size()
    gap = beside_gap(width)
    if gap is None:
        return False
    lines = len(wrap(how_to(look), 2 * sw + gap, pt_to_mm(7), "condensed"))
    return 2 * sh + GAP + 4 + 2.0 + lines * pt_to_mm(7) * 1.15 <= 2 * nh + GAP


def standees(page: Page, x: float, y: float, width: float, look: str = "generic") -> float:
    """The four standees in a row from the top at ``y``; returns the y under them."""
    sw, sh = standee_size()
    label = pt_to_mm(8)
    left = x + max(0.0, (width - (4 * sw + 3 * GAP)) / 2)
    for i, suit in enumerate(facts.suits()):
        sx, sy = left + i * (sw + GAP), y + LABEL_ROOM
        standee(page, sx, sy, suit, look)
        page.add("text", Text(f"{suit.name} {pawn_word(look)}", sx, sy - 1.5, label, "condensed-bold", GREY))
    return y + LABEL_ROOM + sh


def _page(spec: PageSpec, title: str, look: str) -> Page:
    page = Page(spec, f"Piecepack: {title}")
    for name in LAYERS:
        page.layer(name)
    x0, y0, cw, _ = spec.content_box
    x0, y0, cw = x0 + 0.3, y0 + 0.3, cw - 0.6
    head = f"Piecepack · {title}"
    size = pt_to_mm(11.5)
    page.add("text", Text(head, x0, y0 + ascent(size, "bold"), size, "bold", INK))
    stock = facts.piecepack().card_stock
    ty = y0 + ascent(size, "bold") + 1.6
    for line in (f"Single-sided. {stock}", how_to(look)):
        ty = paragraph(page.layer("text"), line, x0, ty, cw, pt_to_mm(7), "condensed", GREY, 1.2) + 0.4
    return page


def dice_pawns_pages(spec: PageSpec, look: str = "generic") -> list[Page]:
    """Four die nets and four standees on a page of their own: one page, or two when the page is too small for
    both."""
    title = f"dice and {pawn_word(look)}s"
    page = _page(spec, title, look)
    x0, y0, cw, ch = spec.content_box
    x0, y0, cw, ch = x0 + 0.3, y0 + 0.3, cw - 0.6, ch - 0.6
    top = y0 + HEADER + 2.0 - LABEL_ROOM
    if top + block_size(cw)[1] <= y0 + ch:
        dice_pawns(page, x0, top, cw, look)
        return [page]
    dice_pawns(page, x0, top, cw, look, split=True)  # no room under the nets: the standees get a page of their own
    more = _page(spec, f"{pawn_word(look)}s", look)
    standees(more, x0, top, cw, look)
    return [page, more]
