"""Monaco! cards: the ratings, costs and speed track, and a gauge of true inches."""

from __future__ import annotations

import pypdfium2
import pytest

from generator.games import car_sheets as all_car_sheets
from generator.games.formula_d.tokens import token_pages
from generator.games.monaco.cards import monaco_card_pages
from generator.paper import PageSettings, page_spec
from generator.pipeline import Output, publish
from generator.scene import Polyline, Text
from generator.teams import load_field

A4 = page_spec("a4", "portrait")


def car_sheets(field):
    return all_car_sheets(field, PageSettings())


def test_card_shows_ratings_costs_and_the_whole_speed_track():
    field = load_field("monaco-example")
    page, back = monaco_card_pages(field, A4)
    texts = [i.text for i in page.layers["card-text"].items if isinstance(i, Text)]
    assert texts.count("Marcel Proust") == 1 and "Team L'Escargot" in texts and "Evian 2CV" in texts
    assert "12" in texts  # Marcel: skill 6 + tech 6 = 12 points
    for v in range(0, 19):
        assert texts.count(str(v)) >= 1
    assert any("±3″" in t for t in texts)


def test_gauge_ticks_are_true_inches():
    page, _ = monaco_card_pages(load_field("monaco-example"), A4)
    lines = [i for i in page.layers["card-lines"].items if isinstance(i, Polyline) and len(i.points) == 2]
    horizontal = [p for p in lines if p.points[0][1] == p.points[1][1]]
    gauge = [p for p in horizontal if abs((p.points[1][0] - p.points[0][0]) - 76.2) < 1e-9]
    assert len(gauge) == 4  # one 3-inch gauge per card


def test_cards_and_tokens_read_back_from_the_pdf(tmp_path):
    field = load_field("monaco-example")
    settings, output = PageSettings(), Output(out=tmp_path, formats=("pdf",), quiet=True)
    publish(car_sheets(field), output, settings, folder="cars", merged="all")
    doc = pypdfium2.PdfDocument(str(tmp_path / "cars" / "all.pdf"))
    text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    for name in ("Marcel Proust", "Amalie Proust", "Team L'Escargot", "Red Cow"):
        assert name in text


def test_tokens_two_per_driver():
    pages = token_pages(load_field("f1-2011"), A4)
    cuts = [i for p in pages for i in p.layers["token-cut"].items]
    assert len(cuts) == 48


def test_cards_only_for_rated_fields():
    names = [s.name for s in car_sheets(load_field("f1-2011"))]
    assert "monaco-cards" not in names and "car-slips" in names
    with pytest.raises(StopIteration):
        next(n for n in names if n.startswith("monaco"))


def test_every_page_of_cards_has_its_backs_mirrored_for_long_edge_duplex():
    """A card's back lies where the card lies once the sheet is turned over on its long edge: its x mirrored about
    the page's middle, its y the same."""
    field = load_field("monaco-example")
    front, back = monaco_card_pages(field, A4)
    assert back.title.endswith("backs")
    width = A4.paper.width

    def cards(page):
        out = {}
        for t in page.layers["card-text"].items:
            if isinstance(t, Text):
                for _, d in field.drivers:
                    if t.text == d.name or t.text.endswith(f"· {d.name}"):
                        out[d.name] = (t.x, t.y)
        return out

    def frames(page):
        return [(i.points[0], i.points[2]) for i in page.layers["card-cut"].items]

    f, b = cards(front), cards(back)
    assert set(f) == set(b) == {d.name for _, d in field.drivers}
    fronts = {name: next(fr for fr in frames(front) if fr[0][0] <= x <= fr[1][0] and fr[0][1] <= y <= fr[1][1])
              for name, (x, y) in f.items()}  # fmt: skip
    backs = {name: next(fr for fr in frames(back) if fr[0][0] <= x <= fr[1][0] and fr[0][1] <= y <= fr[1][1])
             for name, (x, y) in b.items()}  # fmt: skip
    for name in f:
        (fx0, fy0), (fx1, fy1) = fronts[name]
        (bx0, by0), (bx1, by1) = backs[name]
        assert abs((width - fx1) - bx0) < 1e-6 and abs(fy0 - by0) < 1e-6
    text = " ".join(t.text for t in back.layers["card-text"].items if isinstance(t, Text))
    assert "Race wins: +1 skill each, at once (at most 6)" in text and "skill or more spins off" in text
