"""Tiling a large sheet onto smaller paper."""

from __future__ import annotations

import pytest
from conftest import pdf_pages, pdf_text
from shapely.geometry import Point, box
from shapely.ops import unary_union

from generator import writers
from generator.compose.printcheck import add_print_check
from generator.compose.tiling import MIN_OVERLAP, plan, row_name, tile_pages
from generator.errors import GeometryError
from generator.paper import PageSpec, Paper, PaperChoice
from generator.scene import Document, Group, Page, Polyline, Style
from generator.units import PT_PER_MM


def big_page(paper=Paper("a3", "landscape")) -> Page:
    page = Page(PageSpec(paper), "Big board")
    for i in range(0, int(paper.width), 20):
        page.add("grid", Polyline(((i, 0), (i, paper.height)), Style(width=0.3)))
    add_print_check(page)
    return page


@pytest.mark.parametrize(
    "source,target",
    [
        (Paper("a3", "landscape"), Paper("a4", "portrait")),
        (Paper("a2", "landscape"), Paper("a4", "portrait")),
        (Paper("a1", "portrait"), Paper("letter", "portrait")),
        (Paper("tabloid", "landscape"), Paper("letter", "landscape")),
    ],
)
def test_every_point_of_the_source_lands_on_a_tile(source, target):
    src = big_page(source)
    p = plan(src, target)
    windows = unary_union([box(x, y, x + w, y + h) for x, y, w, h in (t.window for t in p.tiles)])
    sheet = box(0, 0, src.width, src.height)
    assert sheet.difference(windows).area == pytest.approx(0, abs=1e-6)
    # Neighbours overlap by at least the glue width.
    for t in p.tiles:
        for u in p.tiles:
            if (u.row, u.col) in ((t.row, t.col + 1), (t.row + 1, t.col)):
                a = box(t.window[0], t.window[1], t.window[0] + t.window[2], t.window[1] + t.window[3])
                b = box(u.window[0], u.window[1], u.window[0] + u.window[2], u.window[1] + u.window[3])
                inter = a.intersection(b).bounds
                shared = min(inter[2] - inter[0], inter[3] - inter[1])
                assert shared >= MIN_OVERLAP - 1e-9


def test_windows_stay_inside_the_printable_area_of_the_tile():
    src = big_page()
    edge = 6.0
    pages = tile_pages(src, Paper("a4", "portrait"), edge=edge)
    for page in pages[:-1]:
        (group,) = [g for g in page.layers["content"].items if isinstance(g, Group)]
        x, y, w, h = group.clip
        assert x >= edge - 1e-9 and y >= edge - 1e-9
        assert x + w <= page.width - edge + 1e-9 and y + h <= page.height - edge + 1e-9


def test_registration_marks_fall_in_the_overlaps():
    src = big_page()
    p = plan(src, Paper("a4", "portrait"))
    assert p.marks
    for mx, my in p.marks:
        holders = [
            t
            for t in p.tiles
            if box(*t.window[:2], t.window[0] + t.window[2], t.window[1] + t.window[3]).contains(
                Point(mx, my).buffer(3.6)
            )
        ]  # the whole mark (radius 3.5 mm) prints
        assert len(holders) >= 2, f"mark at {(mx, my)} is on {len(holders)} tile(s)"


def test_tile_pages_are_exactly_the_target_paper_and_labelled():
    src = big_page()
    pages = tile_pages(src, Paper("a4", "portrait"))
    for page in pages:
        add_print_check(page)
    (pdf,) = writers.render(Document(pages), "pdf")
    doc = pdf_pages(pdf)
    p = plan(src, Paper("a4", "portrait"))
    assert len(doc) == len(p.tiles) + 1  # + the assembly page
    for i in range(len(doc)):
        w, h = doc[i].get_size()
        assert sorted((w, h)) == pytest.approx(sorted((210 * PT_PER_MM, 297 * PT_PER_MM)), abs=0.01)
    text = pdf_text(pdf)
    for t in p.tiles:
        assert f"Tile {t.label}" in text
    assert "Assembly" in text and "registration marks" in text


def test_row_names_go_past_z():
    assert [row_name(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]


def test_a_sheet_that_already_fits_is_not_tiled(tmp_path):
    from generator.paper import PageSettings
    from generator.pipeline import Sheet, prepare

    page = Page(PageSpec(Paper("a4", "portrait")), "small")
    pages = prepare(Sheet("small", page), PageSettings(tile_onto=PaperChoice("a4", "portrait")))
    assert pages == [page]


def test_too_narrow_overlap_is_refused():
    with pytest.raises(GeometryError, match="at least 10 mm"):
        plan(big_page(), Paper("a4", "portrait"), overlap=5)


def test_a_blank_tile_is_not_printed_and_nothing_drawn_is_lost():
    from generator.compose.tiling import ink

    paper = Paper("a3", "landscape")
    page = Page(PageSpec(paper), "Corner drawing")
    page.add("art", Polyline(((20, 20), (150, 20), (150, 120)), Style(width=1.0)))  # only the top-left
    p = plan(page, Paper("a4", "portrait"))
    assert p.skipped and len(p.tiles) < len(p.tiles) + len(p.skipped)
    windows = unary_union([box(x, y, x + w, y + h) for x, y, w, h in (t.window for t in p.tiles)])
    assert ink(page).difference(windows).area == pytest.approx(0, abs=1e-6)
    pages = tile_pages(page, Paper("a4", "portrait"))
    assert len(pages) == len(p.tiles) + 1


def test_registration_marks_keep_off_what_is_drawn_where_the_overlap_has_room():
    from generator.compose.tiling import MARK_CLEAR, ink
    from generator.track import board_sheet, default_spec, load

    page = board_sheet(load(default_spec())).page
    p = plan(page, Paper("a4", "portrait"))
    drawn = ink(page)
    assert p.marks
    on_ink = [m for m in p.marks if drawn.intersects(Point(m).buffer(MARK_CLEAR - 0.01))]
    assert not on_ink, on_ink
