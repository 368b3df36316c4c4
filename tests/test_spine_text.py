"""Text: the bundled font covers the names players write; missing glyphs are clear errors; fitting shrinks."""

from __future__ import annotations

import warnings

import pytest
from conftest import pdf_text, pdftotext

from generator import fonts, writers
from generator.errors import GlyphError
from generator.paper import PageSpec, Paper
from generator.scene import Document, Page, Text

NAMES = "Sergio Pérez, Nico Hülkenberg, Őrs Szűcs, Łukasz Čech"


def test_font_covers_latin1_latin_extended_a_and_punctuation():
    wanted = [chr(c) for c in range(0xA0, 0x180)] + list("‘’“”–—…•€″′")
    for key in fonts.FONTS:
        assert fonts.missing_glyphs("".join(wanted), key) == []


def test_every_font_draws_printable_ascii():
    # missing_glyphs answers for printable ASCII without opening a font file: this is what lets it
    for key in fonts.FONTS:
        assert fonts.coverage(key) >= set(range(0x20, 0x7F))


def test_font_files_ship_inside_the_package():
    import generator

    for key in fonts.FONTS:
        path = fonts.font_path(key)
        assert path.is_file()
        assert str(path).startswith(str(generator.__path__[0]))


def test_accented_names_read_back_from_the_pdf(tmp_path):
    page = Page(PageSpec(Paper("a4", "portrait")), "names")
    for i, key in enumerate(fonts.FONTS):
        page.add("t", Text(NAMES, 20, 30 + 10 * i, 4, key))
    path = tmp_path / "names.pdf"
    writers.write(Document([page]), path)
    assert pdf_text(path).count(NAMES) == len(fonts.FONTS)
    poppler = pdftotext(path)
    if poppler is not None:
        assert poppler.count(NAMES) == len(fonts.FONTS)


def test_an_emoji_is_a_clean_error_naming_the_string(tmp_path):
    page = Page(PageSpec(Paper("a4", "portrait")), "emoji")
    page.add("t", Text("Lewis 🏎 Hamilton", 20, 30))
    with pytest.raises(GlyphError) as info:
        writers.write(Document([page]), tmp_path / "x.pdf")
    assert "Lewis 🏎 Hamilton" in str(info.value)
    assert "U+1F3CE" in str(info.value)
    assert not list(tmp_path.iterdir())


def test_fit_size_shrinks_to_the_box_and_reports_the_floor():
    long = "Scuderia Toro Rosso Racing Team"
    size, ok = fonts.fit_size(long, "bold", 5.0, 30.0)
    assert ok and fonts.text_width(long, size, "bold") == pytest.approx(30.0, abs=0.01)
    size, ok = fonts.fit_size("x" * 200, "bold", 5.0, 30.0)
    assert not ok and size == fonts.LEGIBLE_FLOOR
    size, ok = fonts.fit_size("short", "regular", 5.0, 100.0, box_h=3.0)
    assert ok and size == pytest.approx(3.0 / 1.17)


def test_fitted_text_warns_when_it_cannot_fit():
    from generator.compose.blocks import fitted_text

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = fitted_text("A very long driver name indeed", 10, 10, 5, max_size=4)
    assert t.size == fonts.LEGIBLE_FLOOR
    assert any("A very long driver name indeed" in str(w.message) for w in caught)
