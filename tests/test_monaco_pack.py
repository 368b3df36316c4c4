"""`paddock pack monaco`: every sheet, on the paper asked for and clear of the printer's edge; the merged PDF."""

from __future__ import annotations

import warnings

import pytest
from conftest import pdf_pages

from generator.cli import main
from generator.games.monaco.pack import build
from generator.paper import PageSettings, PaperChoice
from generator.pipeline import prepare

PAPERS = {"letter": PaperChoice("letter"), "a4": PaperChoice("a4", "portrait")}


@pytest.fixture(scope="module")
def packs() -> dict[str, tuple[PageSettings, list]]:
    """The pack built once per paper (10 mm edge) for the module's tests."""
    out = {}
    for key, paper in PAPERS.items():
        settings = PageSettings(paper=paper, edge=10.0)
        out[key] = (settings, build(settings))
    return out


@pytest.mark.parametrize("key", list(PAPERS))
def test_pack_holds_every_sheet_on_the_paper_asked_for(packs, key):
    paper = PAPERS[key]
    settings, sheets = packs[key]
    names = [s.name for s in sheets]
    for stem in (
        "road-plan",
        "road-01",
        "tools-ruler",
        "tools-gauges",
        "speed-dials",
        "monaco-cards-1",  # the cards, then their backs (for printing on both sides)
        "monaco-cards-2",
        "practice",
        "race-log",
        "standings",
        "squads",
        "between-seasons",
    ):
        assert stem in names, stem
    for sheet in sheets:
        assert sheet.page.paper.name == paper.name, sheet.name
        assert sheet.page.edge == 10.0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prepare(sheet, settings)
        assert not [w for w in caught if "unprintable edge" in str(w.message)], sheet.name


def test_pack_grid_has_a_slot_per_car(packs):
    _, sheets = packs["a4"]
    from generator.scene import Text, walk

    road = next(s for s in sheets if s.name == "road-plan")
    assert road.page.title.startswith("Monte Carlo")
    texts = {t.text for s in sheets if s.name.startswith("road-0") for t in walk(s.page.items()) if isinstance(t, Text)}
    assert {"1", "2", "3", "4"} <= texts  # four cars in the example field


def test_pack_command_writes_one_merged_pdf(tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["pack", "monaco", "--out", str(tmp_path), "-f", "pdf", "-q"])
    assert e.value.code == 0
    folder = tmp_path / "monaco"
    merged = pdf_pages(folder / "monaco-print.pdf")
    singles = sorted(folder.glob("*.pdf"))
    assert len(singles) > 10
    assert len(merged) == sum(len(pdf_pages(p)) for p in singles if p.name != "monaco-print.pdf")


def test_a_field_without_ratings_is_refused():
    from generator.errors import InputError

    with pytest.raises(InputError, match="no Monaco! ratings"):
        build(PageSettings(), teams="f1-2011")
