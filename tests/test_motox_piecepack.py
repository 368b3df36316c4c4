"""The MotoX print-and-play piecepack, measured: tile and coin sizes from the SVG, every piece present, dice nets
that fold to a proper die, backs exactly behind their faces when printed duplex, fold-over strips, ink saver."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from generator import writers
from generator.compose import inksaver
from generator.errors import InputError
from generator.games.motox import dice_pawns, facts, pieces
from generator.games.motox.piecepack_sheet import layout, parse_tile_size, piecepack_pages
from generator.games.motox.sides import RINGS
from generator.paper import PageSpec, Paper
from generator.scene import Circle, Document, Group, Polygon, Polyline, Text, walk
from generator.writers import svg

SVG = "{http://www.w3.org/2000/svg}"
A4 = PageSpec(Paper("a4", "portrait"))
TILE = 50.8
COIN = 19.05


@pytest.fixture(scope="module")
def duplex_pages():
    return piecepack_pages(A4, None, "long", "motox")  # the MotoX look: dirt squares to measure


def svg_layer(page, name: str):
    (blob,) = writers.render(Document([page]), "svg")
    root = ET.fromstring(blob)
    return next(g for g in root.iter(SVG + "g") if g.get("id") == f"layer-{name}")


def points(attr: str) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in attr.split()]


# -- sizes measured from the SVG -----------------------------------------------------------------------------


def test_tiles_are_two_inches_measured_between_their_cut_lines(duplex_pages):
    front = duplex_pages[0]
    xs, ys = set(), set()
    for el in svg_layer(front, "cut").iter(SVG + "polyline"):
        (x0, y0), (x1, y1) = points(el.get("points"))
        if abs(x0 - x1) < 1e-6:
            xs.add(round(x0, 3))
        else:
            ys.add(round(y0, 3))
    for coords in (sorted(xs), sorted(ys)):
        gaps = [b - a for a, b in itertools.pairwise(coords)]
        assert len(gaps) >= 2
        assert all(abs(g - TILE) <= 0.1 for g in gaps), gaps


def test_tile_backs_show_four_one_inch_squares(duplex_pages):
    """The squares of each back sit on a 25.4 mm pitch, two by two, and fill their quarter but for the rut."""
    back = duplex_pages[1]
    squares = []
    for el in svg_layer(back, "pieces").iter(SVG + "path"):
        if el.get("fill") != pieces.DIRT:
            continue
        pts = [p for ring in svg.path_points(el.get("d")) for p in ring]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        squares.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    tiles_on_page = sum(1 for p in layout(A4) if p.kind == "tile" and p.sheet == 0)
    assert len(squares) == 4 * tiles_on_page
    for _x, _y, w, h in squares:
        assert abs(w - h) < 0.01
        assert abs(w - (25.4 - 2 * pieces.INSET * TILE)) < 0.05
    # Pitch: the quarters' corners (square corner less inset) fall on a 25.4 mm grid.
    inset = pieces.INSET * TILE
    corners_x = sorted({round(x - inset, 2) for x, _, _, _ in squares})
    assert all(abs(b - a - 25.4) <= 0.1 for a, b in itertools.pairwise(corners_x))


def test_coins_are_three_quarters_of_an_inch(duplex_pages):
    circles = [el for page in duplex_pages[::2] for el in svg_layer(page, "cut").iter(SVG + "circle")]
    assert len(circles) == facts.coin_count()
    for el in circles:
        assert abs(2 * float(el.get("r")) - COIN) <= 0.02


def test_tile_size_option(tmp_path):
    assert parse_tile_size("2.5in") == 2.5
    assert parse_tile_size("50.8mm") == pytest.approx(2.0)
    pages = piecepack_pages(A4, 2.5, "long")
    tiles = [p for p in layout(A4, 2.5) if p.kind == "tile"]
    assert {round(p.face[2], 3) for p in tiles} == {63.5}
    assert len(pages) % 2 == 0
    with pytest.raises(InputError, match="outside 1.5–2.5 in"):
        parse_tile_size("4")
    with pytest.raises(InputError, match="cannot read the tile size"):
        parse_tile_size("big")


# -- every piece ----------------------------------------------------------------------------------------------


def test_all_24_tiles_and_24_coins_each_once():
    placed = layout(A4)
    want = {(s.id, r.id) for s in facts.suits() for r in facts.ranks()}
    for kind in ("tile", "coin"):
        got = [(p.suit.id, p.rank.id) for p in placed if p.kind == kind]
        assert len(got) == 24 and set(got) == want


def test_faces_read_back_from_the_scene(duplex_pages):
    """Counted on the drawn pages: numerals 2–5 in every suit colour on tiles, in black on coins; an ace symbol per
    suit on tiles; four coin spirals; every suit's symbol on coin backs."""
    fronts = [i for p in duplex_pages[::2] for i in walk(p.layers["pieces"].items)]
    backs = [i for p in duplex_pages[1::2] for i in walk(p.layers["pieces"].items)]
    colours = {s.colour: s.id for s in facts.suits()}
    tile_numerals = {
        (colours[t.color], t.text) for t in fronts if isinstance(t, Text) and t.color in colours and t.size > 20
    }
    numerals = {r.numeral for r in facts.ranks() if r.numeral}
    # Moons are black: their tile numerals are the big ones; coin values are black and small.
    assert tile_numerals == {(s.id, n) for s in facts.suits() for n in numerals}
    coin_values = [t.text for t in fronts if isinstance(t, Text) and t.size < 12]
    assert sorted(coin_values) == sorted(n for n in numerals for _ in facts.suits())
    spirals = [i for i in fronts if isinstance(i, Polyline) and i.style.cap == "round"]
    assert len(spirals) == len(facts.suits())
    # Ace tiles: one large symbol (polygons spanning more than 20 mm) per suit.
    big = [i for i in fronts if isinstance(i, Polygon) and _span(i.exterior) > 8 and i.style.fill in colours]
    assert {colours[i.style.fill] for i in big} == {s.id for s in facts.suits()}
    # Coin backs: inside each coin's back the suit symbol of its face, in that suit's colour only.
    for p in (p for p in layout(A4) if p.kind == "coin"):
        bx, by, d, _ = p.back
        inside = {
            i.style.fill
            for i in backs
            if isinstance(i, Polygon)
            and _span(i.exterior) > 3  # not the small direction mark
            and all(bx <= x <= bx + d and by <= y <= by + d for x, y in i.exterior)
            and i.style.fill in colours
        }
        assert inside == {p.suit.colour}, (p.suit.id, p.rank.id)


def _span(ring) -> float:
    xs, ys = zip(*ring, strict=True)
    return max(max(xs) - min(xs), max(ys) - min(ys))


def test_suit_symbols_are_shapes_not_glyphs(duplex_pages):
    """No text on any piece but rank numerals: suits are polygons."""
    texts = {t.text for p in duplex_pages for t in walk(p.layers["pieces"].items) if isinstance(t, Text)}
    assert texts <= {r.numeral for r in facts.ranks()}


# -- dice ----------------------------------------------------------------------------------------------------


def _fold_net():
    """Fold the net: each face's outward normal and, for each net edge, the cube edge it becomes.

    Faces are unit squares at grid cells; folding a neighbour across a shared edge turns it 90° about that edge.
    A face's frame is (normal, u, v) with u along the net's +x and v along +y."""
    cells = {f: c for f, c in dice_pawns.NET.items()}
    root = "front"
    frames = {root: ((0, 0, 1), (1, 0, 0), (0, 1, 0))}
    todo = [root]
    while todo:
        f = todo.pop()
        n, u, v = frames[f]
        cx, cy = cells[f]
        for g, (gx, gy) in cells.items():
            if g in frames or abs(gx - cx) + abs(gy - cy) != 1:
                continue
            dx, dy = gx - cx, gy - cy
            # Step across the edge in direction d (u or v): the neighbour's normal becomes d, its d becomes -n.
            d = u if dx else v
            d = tuple(x * (dx or dy) for x in d)
            new_n = d
            neg_n = tuple(-x for x in n)
            if dx:
                frames[g] = (new_n, tuple(x * dx for x in neg_n), v)
            else:
                frames[g] = (new_n, u, tuple(x * dy for x in neg_n))
            todo.append(g)
    return frames


def _edge_key(frames, face, side):
    """The cube edge (a pair of face normals) that ``side`` of ``face`` becomes."""
    n, u, v = frames[face]
    towards = {"left": tuple(-x for x in u), "right": u, "top": tuple(-x for x in v), "bottom": v}[side]
    return frozenset((n, towards))


def test_die_nets_fold_to_a_die():
    frames = _fold_net()
    normals = {f: fr[0] for f, fr in frames.items()}
    assert len(set(normals.values())) == 6  # six faces, no two on the same side
    value = dice_pawns.FACE_VALUE
    assert sorted(value.values()) == sorted(r.value for r in facts.ranks())
    for f, g in itertools.combinations(normals, 2):
        if normals[f] == tuple(-x for x in normals[g]):
            assert value[f] + value[g] == facts.die_opposite_sum(), (f, g)
    # Every one of the cube's 12 edges is closed exactly once: a fold of the net or a glue tab.
    folds = set()
    for f, g in itertools.combinations(dice_pawns.NET, 2):
        (fx, fy), (gx, gy) = dice_pawns.NET[f], dice_pawns.NET[g]
        if abs(fx - gx) + abs(fy - gy) == 1:
            folds.add(frozenset((normals[f], normals[g])))
    tabs = [_edge_key(frames, f, side) for f, side in dice_pawns.TABS]
    assert len(folds) == 5 and len(tabs) == 7
    assert len(folds | set(tabs)) == 12 and not folds & set(tabs)


def test_dice_sheet_draws_four_nets_with_suit_coloured_faces():
    (page,) = dice_pawns.dice_pawns_pages(A4)
    items = list(walk(page.layers["pieces"].items))
    colours = {s.colour for s in facts.suits()}
    numerals = [t for t in items if isinstance(t, Text)]
    assert len(numerals) == 4 * 4 and {t.color for t in numerals} == colours
    tabs = [i for i in page.layers["tabs"].items if isinstance(i, Polygon)]
    assert len(tabs) == 4 * 7
    # Face size: the fold lines are one die edge long.
    s = facts.die_mm()
    for line in page.layers["fold"].items:
        (x0, y0), (x1, y1) = line.points[0], line.points[-1]
        length = abs(x1 - x0) + abs(y1 - y0)
        assert abs(length - s) < 0.01 or abs(length - facts.bike_mm()[0]) < 0.01


# -- two-sided printing ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "mode"), [("a4", "long"), ("letter", "long"), ("a4", "short")])
def test_every_back_lies_behind_its_face(paper, mode):
    """Mirror the back page about the printer's flip edge: each coin's suit ring and each tile's squares land
    on the face they belong to (±0.2 mm), measured from the drawn pages."""
    spec = PageSpec(Paper(paper, "portrait"))
    pages = piecepack_pages(spec, None, mode, "motox")
    placed = layout(spec, None, mode)
    W, H = spec.width, spec.height

    def flip(x, y):
        return (W - x, y) if mode == "long" else (x, H - y)

    for sheet, (front, back) in enumerate(zip(pages[::2], pages[1::2], strict=True)):
        mine = [p for p in placed if p.sheet == sheet]
        cut = [c for c in front.layers["cut"].items if isinstance(c, Circle)]
        rings = [c for c in walk(back.layers["pieces"].items) if isinstance(c, Circle) and c.r > 5]
        assert len(cut) == len(rings) == sum(p.kind == "coin" for p in mine)
        for c in cut:
            fx, fy = c.center
            match = [r for r in rings if abs(flip(*r.center)[0] - fx) <= 0.2 and abs(flip(*r.center)[1] - fy) <= 0.2]
            assert len(match) == 1
        # Coin backs show the suit of their face.
        for p in (p for p in mine if p.kind == "coin"):
            bx, by = p.back[0] + p.back[2] / 2, p.back[1] + p.back[3] / 2
            fx, fy = flip(bx, by)
            assert abs(fx - (p.face[0] + p.face[2] / 2)) <= 0.2 and abs(fy - (p.face[1] + p.face[3] / 2)) <= 0.2
        # Tiles: the four squares of each back, mirrored, lie inside its face's quarters.
        squares = [  # each back is drawn about its own corner and placed by its group's offset
            Polygon(tuple((x + g.offset[0], y + g.offset[1]) for x, y in i.exterior), (), i.style)
            for g in back.layers["pieces"].items
            if isinstance(g, Group)
            for i in g.items
            if isinstance(i, Polygon) and i.style.fill == pieces.DIRT
        ]
        for p in (p for p in mine if p.kind == "tile"):
            x, y, s, _ = p.face
            inside = 0
            for sq in squares:
                pts = [flip(*q) for q in sq.exterior]
                xs, ys = [q[0] for q in pts], [q[1] for q in pts]
                if min(xs) >= x - 0.2 and max(xs) <= x + s + 0.2 and min(ys) >= y - 0.2 and max(ys) <= y + s + 0.2:
                    inside += 1
            assert inside == 4


def test_registration_mark_lines_up(duplex_pages):
    front, back = duplex_pages[0], duplex_pages[1]
    dot = next(c for c in front.layers["marks"].items if isinstance(c, Circle))
    rings = [c for c in back.layers["marks"].items if isinstance(c, Circle)]
    assert sorted(round(c.r, 2) for c in rings) == sorted(RINGS)
    for ring in rings:
        assert abs(A4.width - ring.center[0] - dot.center[0]) <= 0.01 and abs(ring.center[1] - dot.center[1]) <= 0.01


def test_pieces_keep_inside_both_pages_content_boxes():
    """The back of a duplex sheet mirrors the front: neither may reach the margins or the print-check band."""
    from generator.scene import bounds

    for mode, paper, look in itertools.product(("long", "short"), ("a4", "letter"), pieces.LOOKS):
        spec = PageSpec(Paper(paper, "portrait"))
        for page in piecepack_pages(spec, None, mode, look):
            x, y, w, h = spec.content_box
            bx0, by0, bx1, by1 = bounds(page.items())
            assert bx0 >= x - 0.05 and by0 >= y - 0.05 and bx1 <= x + w + 0.05 and by1 <= y + h + 0.05


def test_fold_over_strips_join_face_and_back_on_a_fold_line():
    placed = layout(A4, None, "off")
    assert {p.sheet for p in placed} == set(range(max(p.sheet for p in placed) + 1))
    for p in placed:
        (x0, y0), (x1, y1) = p.fold
        if p.kind == "tile":
            fx, fy, s, _ = p.face
            bx, by, _, _ = p.back
            # Side by side or one above the other, the fold line is exactly their shared edge.
            if abs(by - fy) < 1e-9:
                assert abs(bx - (fx + s)) < 1e-9 and x0 == x1 == bx and {y0, y1} == {fy, fy + s}
            else:
                assert abs(by - (fy + s)) < 1e-9 and y0 == y1 == by and {x0, x1} == {fx, fx + s}
        else:
            d = p.face[2]
            c0, c1 = p.face[0] + d / 2, p.back[0] + d / 2
            assert abs(x0 - (c0 + c1) / 2) < 1e-9  # the fold is the chord halfway between the two discs
            assert 4 < abs(y1 - y0) < d / 2  # a hinge a few mm long
    pages = piecepack_pages(A4, None, "off")
    assert all(p.layers["fold"].items for p in pages)


def test_ink_saver_turns_large_fills_into_hatching(duplex_pages):
    """With --ink-saver no solid fill larger than a small mark (4 mm²) is left: the dirt, the ruts, suit symbols
    and bikes become outline + hatching."""
    from shapely.geometry import Polygon as SPolygon

    from generator.compose.colour import luminance

    saved = inksaver.apply(Document(list(duplex_pages) + dice_pawns.dice_pawns_pages(A4)))
    for page in saved.pages:
        for item in walk(page.items()):
            style = getattr(item, "style", None)
            if isinstance(item, Polygon) and style.fill and luminance(style.fill) < 0.95:
                assert SPolygon(item.exterior, item.holes).area <= 4.0, item.style.fill


def test_card_stock_note_and_print_instructions_on_the_sheets(duplex_pages):
    text = " ".join(t.text for p in duplex_pages[:1] for t in walk(p.items()) if isinstance(t, Text))
    assert "160–250 g/m²" in text and "double-sided" in text and "long edge" in text
    assert re.search(r"FRONT", text)


def _wedges(page, boxes):
    """The direction mark (a three-point wedge) of each coin whose box is in ``boxes``: its centroid, by box."""
    marks = [i for i in walk(page.layers["pieces"].items) if isinstance(i, Polygon) and len(i.exterior) == 3]
    out = {}
    for box in boxes:
        x, y, d, _ = box
        cx, cy = x + d / 2, y + d / 2
        inside = [m for m in marks if all(x <= px <= x + d and y <= py <= y + d for px, py in m.exterior)]
        # the mark sits just inside the rim: of the coin's three-point shapes, the farthest from its centre
        centroids = [(sum(p[0] for p in m.exterior) / 3, sum(p[1] for p in m.exterior) / 3) for m in inside]
        far = max(centroids, key=lambda c: (c[0] - cx) ** 2 + (c[1] - cy) ** 2)
        assert (far[0] - cx) ** 2 + (far[1] - cy) ** 2 > (0.7 * d / 2) ** 2, f"a direction mark on the coin at {box}"
        out[box] = far
    return out


@pytest.mark.parametrize("mode", ["long", "short"])
@pytest.mark.parametrize("paper", ["a4", "a3", "a2", "a1", "letter", "tabloid"])
def test_coin_backs_stand_the_right_way_up(paper, mode):
    """Every paper × duplex mode, in the orientation the pack picks: turn the printed sheet over its flip edge and
    each coin's two direction marks lie one behind the other (±0.2 mm), so a coin's value and suit point the same
    way (Letter flipped on its long edge printed them opposite: issue 42)."""
    from generator.games.motox.pack import piecepack_groups
    from generator.games.motox.piecepack_sheet import layout
    from generator.games.motox.sides import mirror_axis, mirror_point
    from generator.paper import PageSettings, PaperChoice

    (group,) = piecepack_groups(PageSettings(paper=PaperChoice(paper)), facts.inches().tile, mode)
    pages = [s.page for s in group.sheets]
    spec = pages[0].spec
    axis = mirror_axis(spec, mode)
    placed = [p for p in layout(spec, None, mode) if p.kind == "coin"]
    for k, (front, back) in enumerate(zip(pages[::2], pages[1::2], strict=True)):
        mine = [p for p in placed if p.sheet == k]
        faces, backs = _wedges(front, [p.face for p in mine]), _wedges(back, [p.back for p in mine])
        for p in mine:
            fx, fy = faces[p.face]
            bx, by = mirror_point(spec, axis, backs[p.back])
            assert abs(fx - bx) <= 0.2 and abs(fy - by) <= 0.2, (paper, mode, spec.width > spec.height, p.suit.id)
