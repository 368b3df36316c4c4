"""The piecepack's two-sided pieces — 24 tiles and 24 coins — at true scale, on card.

Two ways to print them, the user's pick (``--duplex``):

- ``long`` / ``short``: a front page (tile faces, coin values) and a back page (tile backs — one look for every
  tile, :data:`.pieces.LOOKS` — and coin suits) per sheet of card, printed double-sided flipping on that edge.
  Every back lies exactly behind its face (:mod:`.sides`); a registration mark in the header shows whether the
  printer kept them in line.
  Tiles sit edge to edge so one cut separates two neighbours; the backs' ground runs past the outer cut lines
  (bleed), so a slightly shifted back shows no white edge.
- ``off``: single-sided fold-over strips — each piece's face and back side by side, joined along a fold line.
  Cut round the pair, fold, glue.

Layers: ``ground`` (the backs' ground and bleed), ``pieces``, ``cut``, ``fold``, ``marks``, ``text``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...compose.blocks import fit, paragraph
from ...compose.colour import GREY, INK
from ...errors import InputError
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Group, Page, Polygon, Polyline, Style, Text
from ...units import pt_to_mm
from . import facts, pieces
from .sides import (
    CUT,
    DUPLEX_MODES,
    FOLD,
    Box,
    duplex_region,
    mirror_axis,
    mirror_box,
    mirror_point,
    registration_back,
    registration_front,
    shared_cut_lines,
)

PAPER = Paper("a4", "portrait")
LAYERS = ("ground", "pieces", "cut", "fold", "marks", "text")
HEADER = 17.0  # mm at the top of the region for the title, how to print, the registration mark
BLEED = 1.5  # mm of dirt past the outer cut lines of the tile backs
COIN_GAP = 3.0  # mm between coins
BLOCK_GAP = 6.0  # mm between the tiles and the coins
HINGE = 0.6  # mm: a fold-over coin's two discs overlap by twice this, so they fold on a 6 mm hinge


@dataclass(frozen=True)
class Placement:
    """Where one piece prints: ``sheet`` (0-based), its face box and its back box (page mm).

    Duplex: the back box is on the sheet's back page, mirrored from the face. Fold-over: both are on the one
    page, side by side (``fold`` is the fold line between them)."""

    kind: str  # tile | coin
    suit: facts.Suit
    rank: facts.Rank
    sheet: int
    face: Box
    back: Box
    fold: tuple[tuple[float, float], tuple[float, float]] | None = None


def parse_tile_size(text: str | float | None) -> float:
    """``--tile-size``: inches (``2``, ``2in``, ``1.75 in``) or millimetres (``50mm``); returns inches."""
    lo, hi = facts.inches().tile_min, facts.inches().tile_max
    if text is None:
        return facts.inches().tile
    raw = str(text).strip().lower().replace(" ", "")
    scale = 1.0
    for unit, k in (("mm", 1 / 25.4), ("in", 1.0), ('"', 1.0)):
        if raw.endswith(unit):
            raw, scale = raw[: -len(unit)], k
            break
    try:
        value = float(raw) * scale
    except ValueError:
        raise InputError(
            f"cannot read the tile size '{text}'", field="--tile-size", hint="give inches (2, 2in) or mm (50.8mm)"
        ) from None
    if not lo - 1e-9 <= value <= hi + 1e-9:
        raise InputError(
            f"a tile of {value:g} in is outside {lo:g}–{hi:g} in",
            field="--tile-size",
            hint=f"piecepack tiles are {facts.inches().tile:g} in; coins ({facts.inches().coin:g} in) must fit "
            "on a quarter",
        )
    return value


def _pieces():
    return [(s, r) for s in facts.suits() for r in facts.ranks()]


def _grid(region: Box, top: float, cell_w: float, cell_h: float, gap: float, count: int) -> tuple[list[Box], float]:
    """Up to ``count`` cells in rows from ``top`` down, centred across ``region``; returns them and the y under."""
    x, y, w, h = region
    cols = max(1, int((w + gap + 1e-6) // (cell_w + gap)))
    cols = min(cols, count) if count else cols
    left = x + (w - (cols * cell_w + (cols - 1) * gap)) / 2
    boxes: list[Box] = []
    cy = top
    while len(boxes) < count and cy + cell_h <= y + h + 1e-6:
        for c in range(cols):
            if len(boxes) == count:
                break
            boxes.append((left + c * (cell_w + gap), cy, cell_w, cell_h))
        cy += cell_h + gap
    return boxes, cy - gap


def layout(spec: PageSpec, tile_in: float | None = None, duplex: str = "long") -> list[Placement]:
    """Every tile and coin's place: tiles first, sheet after sheet, then the coins where room is left."""
    if duplex not in DUPLEX_MODES:
        raise InputError(f"unknown duplex mode '{duplex}'", field="--duplex", hint="use long, short or off")
    s = facts.tile_mm(tile_in)
    d = facts.coin_mm()
    if duplex == "off":
        return _layout_fold(spec, s, d)
    axis = mirror_axis(spec, duplex)
    region = _region(spec, duplex)
    if region[2] < s or region[3] < s:
        raise InputError(
            f"a {s:.1f} mm tile does not fit on {spec.paper.label} with a {spec.edge:g} mm edge",
            field="--tile-size",
            hint="use a smaller --tile-size or larger paper",
        )
    out: list[Placement] = []
    todo = list(_pieces())
    sheet, top = 0, region[1]
    while todo:  # tiles
        boxes, bottom = _grid(region, top, s, s, 0.0, len(todo))
        if not boxes:
            sheet, top = sheet + 1, region[1]
            continue
        for (suit, rank), box in zip(todo, boxes, strict=False):
            out.append(Placement("tile", suit, rank, sheet, box, mirror_box(spec, axis, box)))
        todo = todo[len(boxes) :]
        top = bottom
    top = top + BLOCK_GAP if top > region[1] else top
    todo = list(_pieces())
    while todo:  # coins
        boxes, bottom = _grid(region, top, d, d, COIN_GAP, len(todo))
        if not boxes:
            sheet, top = sheet + 1, region[1]
            continue
        for (suit, rank), box in zip(todo, boxes, strict=False):
            out.append(Placement("coin", suit, rank, sheet, box, mirror_box(spec, axis, box)))
        todo = todo[len(boxes) :]
        top = bottom + COIN_GAP
    return out


def _layout_fold(spec: PageSpec, s: float, d: float) -> list[Placement]:
    region = _region(spec, "off")
    # Tile pairs side by side (fold line upright) or one above the other: whichever puts more on a page.
    across = len(_grid(region, region[1], 2 * s, s, 0.0, 99)[0])
    down = len(_grid(region, region[1], s, 2 * s, 0.0, 99)[0])
    if max(across, down) == 0:
        raise InputError(
            f"a fold-over pair of {s:.1f} mm tiles does not fit on {spec.paper.label}",
            field="--tile-size",
            hint="use a smaller --tile-size, larger paper or --duplex long",
        )
    pw, ph = (2 * s, s) if across >= down else (s, 2 * s)
    out: list[Placement] = []
    todo = list(_pieces())
    sheet, top = 0, region[1]
    while todo:
        boxes, bottom = _grid(region, top, pw, ph, 0.0, len(todo))
        if not boxes:
            sheet, top = sheet + 1, region[1]
            continue
        for (suit, rank), (bx, by, _, _) in zip(todo, boxes, strict=False):
            if pw > ph:
                face, back = (bx, by, s, s), (bx + s, by, s, s)
                fold = ((bx + s, by), (bx + s, by + s))
            else:
                face, back = (bx, by, s, s), (bx, by + s, s, s)
                fold = ((bx, by + s), (bx + s, by + s))
            out.append(Placement("tile", suit, rank, sheet, face, back, fold))
        todo = todo[len(boxes) :]
        top = bottom
    top = top + BLOCK_GAP if top > region[1] else top
    todo = list(_pieces())
    pair_w = 2 * d - 2 * HINGE
    while todo:
        boxes, bottom = _grid(region, top, pair_w, d, COIN_GAP, len(todo))
        if not boxes:
            sheet, top = sheet + 1, region[1]
            continue
        for (suit, rank), (bx, by, _, _) in zip(todo, boxes, strict=False):
            face, back = (bx, by, d, d), (bx + d - 2 * HINGE, by, d, d)
            half = math.sqrt((d / 2) ** 2 - (d / 2 - HINGE) ** 2)
            fx = bx + d - HINGE
            out.append(
                Placement("coin", suit, rank, sheet, face, back, ((fx, by + d / 2 - half), (fx, by + d / 2 + half)))
            )
        todo = todo[len(boxes) :]
        top = bottom + COIN_GAP
    return out


def _region(spec: PageSpec, duplex: str) -> Box:
    """Where pieces go on a page: under the header, inside what a back page mirrors (duplex) or the content box."""
    if duplex == "off":
        x, y, w, h = spec.content_box
        return (x + 0.3, y + HEADER, w - 0.6, h - HEADER - 0.3)
    rx, ry, rw, rh = duplex_region(spec, mirror_axis(spec, duplex))
    return (rx + BLEED, ry + HEADER, rw - 2 * BLEED, rh - HEADER - BLEED)


def spare_room(spec: PageSpec, tile_in: float | None = None, duplex: str = "long") -> Box:
    """The part of the last sheet's front page the tiles and coins leave free: the whole width of its region,
    under the last row of pieces (its height may be 0)."""
    placed = layout(spec, tile_in, duplex)
    last = max(p.sheet for p in placed)
    # fold-over: face and back side by side on the page; duplex: the backs are on the back page
    boxes = [b for p in placed if p.sheet == last for b in ((p.face, p.back) if duplex == "off" else (p.face,))]
    bottom = max(y + h for _, y, _, h in boxes)
    x, y, w, h = _region(spec, duplex)
    top = bottom + BLOCK_GAP
    return (x, top, w, max(0.0, y + h - top))


def _new_page(spec: PageSpec, title: str) -> Page:
    page = Page(spec, title)
    for name in LAYERS:
        page.layer(name)
    return page


def _header(page: Page, box: Box, title: str, lines: list[str], mark_room: float, mark_left: bool = False) -> None:
    """Title and how-to lines across ``box``, keeping ``mark_room`` mm free for the registration mark."""
    x, y, w, _ = box
    if mark_left:
        x += mark_room
    size = fit(title, "bold", pt_to_mm(11.5), w - mark_room, "sheet title")
    page.add("text", Text(title, x, y + ascent(size, "bold"), size, "bold", INK))
    ty = y + ascent(size, "bold") + 1.6
    for line in lines:
        ty = paragraph(page.layer("text"), line, x, ty, w - mark_room, pt_to_mm(7), "condensed", GREY, 1.2) + 0.4


def _coin_cut(page: Page, box: Box) -> None:
    from ...scene import Circle

    x, y, d, _ = box
    page.add("cut", Circle((x + d / 2, y + d / 2), d / 2, CUT))


def piecepack_pages(
    spec: PageSpec, tile_in: float | None = None, duplex: str = "long", look: str = "generic", extras: bool = False
) -> list[Page]:
    """The tiles and coins: front and back page per sheet (``duplex`` long/short), or fold-over pages (off); the
    tile backs in ``look`` (:data:`.pieces.LOOKS`). ``extras``: the dice and pawns (single-sided) in the room
    the pieces leave on the last sheet's front page (:func:`spare_room`, :func:`extras_fit`)."""
    placed = layout(spec, tile_in, duplex)
    sheets = max(p.sheet for p in placed) + 1
    s = facts.tile_mm(tile_in)
    stock = facts.piecepack().card_stock
    pages: list[Page] = []
    for k in range(sheets):
        mine = [p for p in placed if p.sheet == k]
        n = f"sheet {k + 1} of {sheets}" if sheets > 1 else "one sheet"
        if duplex == "off":
            pages.append(_fold_page(spec, mine, n, stock, look))
            continue
        axis = mirror_axis(spec, duplex)
        rx, ry, rw, _ = duplex_region(spec, axis)
        head = (rx, ry, rw, HEADER)
        mark = (rx + rw - 6.0, ry + 6.0)
        edge = "long" if duplex == "long" else "short"
        front = _new_page(spec, f"Piecepack: tiles and coins, {n}, front")
        _header(
            front,
            head,
            f"Piecepack · tiles and coins · {n} · FRONT",
            [
                f"Print this page and the next on one sheet, double-sided, flipping on the {edge} edge. {stock}",
                "Cut on the solid lines. Registration: hold the printed sheet to a light; the cross on the right "
                "should fall inside the smallest ring printed behind it (rings 0.5 mm apart).",
            ],
            16.0,
        )
        registration_front(front.layer("marks"), mark)
        back = _new_page(spec, f"Piecepack: tiles and coins, {n}, back")
        bx, by, bw, bh = mirror_box(spec, axis, head)
        drop = 3.0 if axis == "y" else 0.0  # below the pieces: keep clear of the dirt's bleed
        _header(
            back,
            (bx, by + drop, bw, bh - drop),
            f"Piecepack · {n} · BACK",
            ["Tile backs (all alike: four quarters each) and coin suits. This side up after printing the front."],
            16.0,
            mark_left=axis == "x",
        )
        registration_back(back.layer("marks"), mirror_point(spec, axis, mark))
        _draw_duplex(front, back, mine, s, look, turned=axis == "y")
        pages += [front, back]
    if extras:
        _extras(pages[-1] if duplex == "off" else pages[-2], spare_room(spec, tile_in, duplex), look)
    return pages


def extras_fit(spec: PageSpec, tile_in: float | None = None, duplex: str = "long", look: str = "generic") -> bool:
    """Whether the dice and pawns, with their heading, fit in the last sheet's spare room."""
    from .dice_pawns import block_size

    _, _, w, h = spare_room(spec, tile_in, duplex)
    return _extras_head(w, look) + block_size(w)[1] <= h


HOW_PT = 7.0  # how to make the dice and pawns, where it stands under their heading


def _extras_head(w: float, look: str) -> float:
    """The height of the heading over the dice and pawns on a sheet of pieces, with how to make them when there
    is no room for that beside the pawns."""
    from ...compose.blocks import wrap
    from .dice_pawns import how_fits, how_to

    head = ascent(pt_to_mm(9), "bold") + 2.0
    if not how_fits(w, look):
        head += len(wrap(how_to(look), w, pt_to_mm(HOW_PT), "condensed")) * pt_to_mm(HOW_PT) * 1.2 + 1.0
    return head


def _extras(page: Page, room: Box, look: str) -> None:
    """The dice and pawns under the last pieces: a rule, their heading (and how to make them), the pieces."""
    from .dice_pawns import dice_pawns, how_fits, how_to, pawn_word

    x, y, w, _ = room
    words = facts.piecepack().cover.cut_heading.format(pawn=pawn_word(look))
    size = pt_to_mm(9)
    page.add("cut", Polyline(((x, y - BLOCK_GAP / 2), (x + w, y - BLOCK_GAP / 2)), Style(stroke=GREY, width=0.2)))
    page.add("text", Text(words, x, y + ascent(size, "bold"), size, "bold", INK))
    how = how_fits(w, look)
    if not how:
        paragraph(page.layer("text"), how_to(look), x, y + ascent(size, "bold") + 2.0, w, pt_to_mm(HOW_PT),
                  "condensed", GREY, 1.2)  # fmt: skip
    dice_pawns(page, x, y + _extras_head(w, look), w, look, how=how)


def _draw_duplex(front: Page, back: Page, mine: list[Placement], s: float, look: str, turned: bool) -> None:
    """The pieces of one sheet on its front and back pages. ``turned``: the sheet turns over its top and bottom
    edge (a back page mirrored in y), so each coin's back is drawn upside down to stand the right way up behind its
    face (:func:`.pieces.coin_suit`)."""
    from shapely.geometry import box as sbox
    from shapely.ops import unary_union

    tiles = [p for p in mine if p.kind == "tile"]
    if tiles:
        # One ground under every back on the page, running BLEED past the outer cut lines, so a back shifted a
        # little in printing shows no white edge.
        outer = unary_union([sbox(bx, by, bx + w, by + h) for bx, by, w, h in (p.back for p in tiles)])
        ground = outer.buffer(BLEED, join_style=2)
        for part in getattr(ground, "geoms", [ground]):
            ring = tuple((round(x, 4), round(y, 4)) for x, y in part.exterior.coords[:-1])
            holes = tuple(tuple((round(x, 4), round(y, 4)) for x, y in h.coords[:-1]) for h in part.interiors)
            back.add("ground", Polygon(ring, holes, Style(stroke=None, fill=pieces.ground_colour(look))))
    for p in mine:
        if p.kind == "tile":
            pieces.tile_face(front.layer("pieces"), p.face[0], p.face[1], s, p.suit, p.rank)
            back.add("pieces", tile_back(p.back, s, look))
        else:
            d = p.face[2]
            pieces.coin_value(front.layer("pieces"), p.face[0] + d / 2, p.face[1] + d / 2, d, p.rank)
            pieces.coin_suit(back.layer("pieces"), p.back[0] + d / 2, p.back[1] + d / 2, d, p.suit, turned)
            _coin_cut(front, p.face)
    for a, b in shared_cut_lines([p.face for p in tiles]):
        front.add("cut", Polyline((a, b), CUT))


def tile_back(box: Box, s: float, look: str) -> Group:
    """One tile back, drawn once about its own corner and placed by an offset: every back of the set is the same
    drawing, so none can be told from another, to the pixel."""
    from ...scene import Layer

    layer = Layer("back")
    pieces.tile_back(layer, 0.0, 0.0, s, look)
    return Group(tuple(layer.items), offset=(box[0], box[1]))


def _fold_page(spec: PageSpec, mine: list[Placement], n: str, stock: str, look: str) -> Page:
    from shapely.geometry import Point
    from shapely.ops import unary_union

    page = _new_page(spec, f"Piecepack: tiles and coins, {n}, fold-over")
    x, y, w, _ = spec.content_box
    _header(
        page,
        (x + 0.3, y, w - 0.6, HEADER),
        f"Piecepack · tiles and coins · {n} · FOLD-OVER",
        [
            f"Single-sided. {stock}",
            "Cut round each pair on the solid lines, fold on the dashed line, glue face to back. "
            "Tiles: face (rank) and back (four quarters). Coins: value and suit.",
        ],
        0.0,
    )
    s = next((p.face[2] for p in mine if p.kind == "tile"), 0.0)
    pairs = []
    for p in mine:
        if p.kind == "tile":
            pieces.tile_face(page.layer("pieces"), p.face[0], p.face[1], s, p.suit, p.rank)
            page.add("pieces", tile_back(p.back, s, look))
            fx0, fy0 = min(p.face[0], p.back[0]), min(p.face[1], p.back[1])
            fx1 = max(p.face[0], p.back[0]) + s
            fy1 = max(p.face[1], p.back[1]) + s
            pairs.append((fx0, fy0, fx1 - fx0, fy1 - fy0))
        else:
            d = p.face[2]
            pieces.coin_value(page.layer("pieces"), p.face[0] + d / 2, p.face[1] + d / 2, d, p.rank)
            pieces.coin_suit(page.layer("pieces"), p.back[0] + d / 2, p.back[1] + d / 2, d, p.suit)
            shape = unary_union(
                [
                    Point(p.face[0] + d / 2, p.face[1] + d / 2).buffer(d / 2, 64),
                    Point(p.back[0] + d / 2, p.back[1] + d / 2).buffer(d / 2, 64),
                ]
            )
            ring = tuple((round(a, 4), round(b, 4)) for a, b in shape.exterior.coords[:-1])
            page.add("cut", Polyline(ring, CUT, closed=True))
        if p.fold:
            page.add("fold", Polyline(p.fold, FOLD))
    for a, b in shared_cut_lines(pairs):
        page.add("cut", Polyline((a, b), CUT))
    return page
