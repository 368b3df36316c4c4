"""The print spine's writers: exact page boxes, true scale, agreement between formats, determinism."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import pdf_pages, render_gray
from PIL import Image

from generator import writers
from generator.compose.printcheck import add_print_check
from generator.paper import SIZES_MM, PageSpec, Paper
from generator.scene import Document, Page, Polyline, Style, Text
from generator.units import PT_PER_MM

ALL_PAPERS = [Paper(name, o) for name in SIZES_MM for o in ("portrait", "landscape")]


def blank(paper: Paper, title: str = "test") -> Document:
    page = Page(PageSpec(paper), title)
    add_print_check(page)
    return Document([page])


def test_a3_landscape_is_exactly_1190_55_by_841_89_points():
    (pdf,) = writers.render(blank(Paper("a3", "landscape")), "pdf")
    w, h = pdf_pages(pdf)[0].get_size()
    assert w == pytest.approx(1190.55, abs=0.01)
    assert h == pytest.approx(841.89, abs=0.01)
    # The MediaBox is written with its fractions, never truncated to whole points.
    assert re.search(rb"/MediaBox \[ 0 0 1190\.55\d* 841\.889\d* \]", pdf)


@pytest.mark.parametrize("paper", ALL_PAPERS, ids=lambda p: f"{p.name}-{p.orientation}")
def test_pdf_page_box_equals_paper(paper):
    (pdf,) = writers.render(blank(paper), "pdf")
    w, h = pdf_pages(pdf)[0].get_size()
    assert w == pytest.approx(paper.width * PT_PER_MM, abs=0.01)
    assert h == pytest.approx(paper.height * PT_PER_MM, abs=0.01)
    if paper.orientation == "landscape":
        assert w > h


@pytest.mark.parametrize("paper", ALL_PAPERS, ids=lambda p: f"{p.name}-{p.orientation}")
def test_svg_size_and_viewbox_in_mm(paper):
    (svg,) = writers.render(blank(paper), "svg")
    root = ET.fromstring(svg)
    fmt = lambda v: f"{v:g}"  # noqa: E731
    assert root.get("width") == f"{fmt(paper.width)}mm"
    assert root.get("height") == f"{fmt(paper.height)}mm"
    assert root.get("viewBox") == f"0 0 {fmt(paper.width)} {fmt(paper.height)}"


def test_several_pages_in_one_pdf_one_svg_per_page():
    doc = Document([Page(PageSpec(Paper("a4", "portrait")), "one"), Page(PageSpec(Paper("a3", "landscape")), "two")])
    (pdf,) = writers.render(doc, "pdf")
    pages = pdf_pages(pdf)
    assert len(pages) == 2
    assert pages[1].get_size()[0] == pytest.approx(1190.55, abs=0.01)
    assert len(writers.render(doc, "svg")) == 2
    assert writers.file_names("board", "svg", 2) == ["board-01.svg", "board-02.svg"]


def _runs(row: np.ndarray) -> tuple[int, int]:
    dark = np.flatnonzero(row < 128)
    return int(dark[0]), int(dark[-1])


def test_scale_bars_measure_true_at_254_dpi():
    """254 dpi = 10 px per mm: the 10 cm bar spans 1000 ± 3 px, the 4 in bar 1016 ± 3 px."""
    page = Page(PageSpec(Paper("a4", "portrait")), "scale")
    add_print_check(page)
    (pdf,) = writers.render(Document([page]), "pdf")
    img = render_gray(pdf, 254)
    x, y, w, h = page.printable
    from generator.compose.printcheck import BAR_GAP, BAR_H, BAR_TOP
    from generator.scene import FOOTER_BAND

    top = y + h - FOOTER_BAND
    for bar_top, length in ((top + BAR_TOP, 100.0), (top + BAR_TOP + BAR_H + BAR_GAP, 101.6)):
        row = round((bar_top + 0.08) * 10)  # inside the top frame of the bar
        band = img[row, : round((x + length + 1.0) * 10)]
        left, right = _runs(band)
        measured = (right - left + 1) / 10
        assert measured == pytest.approx(length, abs=0.3), f"bar of {length} mm measured {measured} mm"
        assert left / 10 == pytest.approx(x, abs=0.2)


def test_print_check_footer_says_how_to_print():
    from conftest import pdf_text

    (pdf,) = writers.render(blank(Paper("a3", "landscape"), "Monza board"), "pdf")
    text = pdf_text(pdf)
    for needle in ("10 cm", "4 in", "Monza board", "A3 landscape", "print at 100 % / actual size"):
        assert needle in text


def test_three_writers_agree(scene):
    add_print_check(scene)
    doc = Document([scene])
    dpi = 100
    (pdf,) = writers.render(doc, "pdf")
    (svg,) = writers.render(doc, "svg")
    (png,) = writers.render(doc, "png", dpi=dpi)
    # Page size.
    w_pt, h_pt = pdf_pages(pdf)[0].get_size()
    root = ET.fromstring(svg)
    assert float(root.get("width").removesuffix("mm")) == pytest.approx(w_pt / PT_PER_MM, abs=1e-3)
    assert float(root.get("height").removesuffix("mm")) == pytest.approx(h_pt / PT_PER_MM, abs=1e-3)
    image = Image.open(io.BytesIO(png))
    assert image.size[0] == pytest.approx(scene.width / 25.4 * dpi, abs=1)
    assert image.size[1] == pytest.approx(scene.height / 25.4 * dpi, abs=1)
    assert image.info["dpi"][0] == pytest.approx(dpi, abs=0.01)
    # SVG holds the same content: every text, and every polyline at the same coordinates.
    ns = "{http://www.w3.org/2000/svg}"
    svg_texts = sorted(t.text for t in root.iter(ns + "text"))
    scene_texts = sorted(t.text for t in scene.items() if isinstance(t, Text))
    assert svg_texts == scene_texts
    svg_lines = [el.get("points") for el in root.iter(ns + "polyline")]
    scene_lines = [i for i in scene.items() if isinstance(i, Polyline) and not i.closed]
    assert len(svg_lines) == len(scene_lines)
    for el, item in zip(svg_lines, scene_lines, strict=True):
        pts = [tuple(map(float, p.split(","))) for p in el.split()]
        assert np.allclose(pts, item.points, atol=6e-4)


def _ink(gray: np.ndarray, n: int) -> np.ndarray:
    """Ink per n x n tile (0 = white, 1 = solid black): anti-aliasing moves ink between pixels, never away."""
    d = 255.0 - gray
    h, w = (d.shape[0] // n) * n, (d.shape[1] // n) * n
    return d[:h, :w].reshape(h // n, n, w // n, n).sum(axis=(1, 3)) / (n * n * 255)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm is not installed")
def test_png_preview_looks_like_the_pdf_in_an_independent_rasteriser(scene, tmp_path):
    """The preview (PDFium, palette-quantised) against poppler's rendering of the same PDF: every 4 mm tile holds
    the same ink within 10 % of its area (the two rasterisers anti-alias differently, never by more). A preview
    missing one scale bar fails the same comparison."""
    add_print_check(scene)
    doc = Document([scene])
    dpi, n = 100, 17
    (pdf,) = writers.render(doc, "pdf")
    (png,) = writers.render(doc, "png", dpi=dpi)
    (tmp_path / "p.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", "-png", "-singlefile", "p.pdf", "ref"], cwd=tmp_path, check=True
    )
    poppler = _ink(np.asarray(Image.open(tmp_path / "ref.png").convert("L")).astype(float), n)
    mine = np.asarray(Image.open(io.BytesIO(png)).convert("L")).astype(float)
    assert _ink(mine, n).shape == poppler.shape
    assert np.abs(_ink(mine, n) - poppler).max() < 0.10
    from generator.compose.printcheck import BAR_TOP
    from generator.scene import FOOTER_BAND

    x, y, w, h = scene.printable
    row = round((y + h - FOOTER_BAND + BAR_TOP) * dpi / 25.4)
    without_bar = mine.copy()
    without_bar[row - 2 : row + 3, round(x * dpi / 25.4) : round((x + 100) * dpi / 25.4)] = 255
    assert np.abs(_ink(without_bar, n) - poppler).max() > 0.10


def test_svg_embeds_only_the_glyphs_a_page_draws_and_draws_them_exactly(scene):
    """Each font is a WOFF subset of the page's characters: every one maps to the very outline and advance of
    the bundled font, nothing else is in it, and the page stays small."""
    import base64

    from fontTools.ttLib import TTFont

    from generator import fonts

    (svg,) = writers.render(Document([scene]), "svg")
    css = ET.fromstring(svg).find(".//{http://www.w3.org/2000/svg}style").text
    faces = re.findall(
        r"font-family: 'Paddock ([^']+)'; font-weight: (\d+); src: url\(data:font/woff;base64,([^)]+)\)", css
    )
    used: dict[str, set[str]] = {}
    for t in scene.items():
        if isinstance(t, Text):
            used.setdefault(t.font, set()).update(t.text)
    assert len(faces) == len(used)
    assert len(svg) < 120_000  # four whole fonts alone were 1.6 MB
    for family, weight, data in faces:
        key = next(k for k, f in fonts.FONTS.items() if f.family == family and f.weight == int(weight))
        sub = TTFont(io.BytesIO(base64.b64decode(data)))
        full = TTFont(fonts.font_path(key))
        sub_cmap, full_cmap = sub.getBestCmap(), full.getBestCmap()
        assert set(sub_cmap) == {ord(ch) for ch in used[key]}
        for cp, name in sub_cmap.items():
            mine, theirs = sub["glyf"][name], full["glyf"][full_cmap[cp]]
            assert mine.getCoordinates(sub["glyf"])[0] == theirs.getCoordinates(full["glyf"])[0], chr(cp)
            assert sub["hmtx"][name] == full["hmtx"][full_cmap[cp]], chr(cp)


def test_png_dark_pixels_match_svg_geometry():
    """A 2 cm square drawn in the scene lands on the same pixels in the PNG as its SVG coordinates say."""
    page = Page(PageSpec(Paper("a4", "portrait")), "square")
    page.add("x", Polyline(((50, 50), (70, 50), (70, 70), (50, 70)), Style(width=0.5), closed=True))
    (png,) = writers.render(Document([page]), "png", dpi=254)
    img = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    cols = np.flatnonzero(img[600] < 128)  # row at y = 60 mm
    assert cols[0] / 10 == pytest.approx(50 - 0.25, abs=0.15)
    assert (cols[-1] + 1) / 10 == pytest.approx(70 + 0.25, abs=0.15)


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_two_runs_are_byte_identical(fmt):
    from generator.compose.calibration import PAPER, calibration_sheet

    def once():
        page = calibration_sheet(PageSpec(PAPER))
        add_print_check(page)
        return writers.render(Document([page]), fmt, dpi=72)

    assert once() == once()


def test_pdf_has_no_timestamp_and_embeds_every_font(scene):
    (pdf,) = writers.render(Document([scene]), "pdf")
    assert b"/CreationDate" not in pdf or b"D:20000101000000" in pdf
    fonts = re.findall(rb"/BaseFont /([A-Za-z0-9+\-]+)", pdf)
    assert fonts, "no fonts found"
    for name in fonts:
        assert b"+" in name, f"font {name!r} is not an embedded subset"
    assert pdf.count(b"/FontFile2") == len(set(fonts))


def test_svg_outlines_leave_out_only_vertices_exactly_on_a_straight_edge():
    """A straight edge drawn a unit at a time is one step in the SVG path: the same outline (no area gained or
    lost), fewer bytes; a vertex that turns, however little, is kept."""
    from shapely import Polygon as SPolygon

    from generator.scene import Polygon
    from generator.writers.svg import _ring_d, path_points

    ring = [(0, 0), (1, 0), (2, 0), (2, 0), (3.0004, 0), (3, 1), (3, 2), (1.5, 2.002), (0, 2)]
    d = _ring_d(ring)
    (got,) = path_points(d)
    assert got == [(0, 0), (3, 0), (3, 2), (1.5, 2.002), (0, 2)]  # 3.0004 rounds onto the line; 2.002 turns
    assert SPolygon(got).symmetric_difference(SPolygon([(round(x, 3), round(y, 3)) for x, y in ring])).area < 1e-9
    page = Page(PageSpec(Paper("a4", "portrait")), "t")
    page.layer("x").add(Polygon(tuple(ring), (), Style(fill="#000000", stroke=None)))
    svg = writers.render(Document([page]), "svg")[0].decode()
    assert d in svg


def test_bounds_are_the_extremes_of_every_point_drawn():
    """`bounds` finds a path's extremes before moving them through its groups: the same numbers as moving every
    point (scales and offsets that round), strokes and clip rectangles included."""
    import random

    from generator.scene import Circle, Group, Polygon, bounds, fill, stroke

    rng = random.Random(7)

    def pts(n):
        return tuple((rng.uniform(-300, 300) / 7, rng.uniform(-300, 300) / 3) for _ in range(n))

    def naive(items, dx=0.0, dy=0.0, k=1.0):
        out = []
        for it in items:
            if isinstance(it, Group):
                out += naive(it.items, dx + k * it.offset[0], dy + k * it.offset[1], k * it.scale)
                continue
            pad = it.style.width / 2 if it.style.stroke else 0.0
            ring = it.points if isinstance(it, Polyline) else it.exterior if isinstance(it, Polygon) else None
            if ring is None:
                ring = [(it.center[0] - it.r, it.center[1] - it.r), (it.center[0] + it.r, it.center[1] + it.r)]
            xs, ys = [dx + k * x for x, _ in ring], [dy + k * y for _, y in ring]
            out.append((min(xs) - pad * k, min(ys) - pad * k, max(xs) + pad * k, max(ys) + pad * k))
        return out

    for _ in range(200):
        leaves = [
            Polyline(pts(rng.randint(2, 40)), stroke(width=rng.choice([0.1, 0.25, 1 / 3]))),
            Polygon(pts(rng.randint(3, 40)), (), fill("#ff0000")),
            Circle((rng.uniform(0, 100), rng.uniform(0, 100)), rng.uniform(0.1, 9)),
        ]
        offset, scale = (rng.uniform(-50, 50) / 3, rng.uniform(-50, 50) / 7), rng.choice([1.0, 0.1, 1 / 3, 2.54])
        items = [leaves[0], Group((leaves[1], Group((leaves[2],), offset, scale)), offset[::-1], 1 / scale)]
        boxes = naive(items)
        want = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        assert bounds(items) == want
