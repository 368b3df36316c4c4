"""Formula D boards that race like Formula D (issue 39): the full-size default board raced by the simulator's
strong drivers, the compact board on smaller paper and its legend, the full-size board tiled, every shipped board
built. The races are few and seeded (the same figures every run); ``benchmarks/formula_d_boards.py`` races 200."""

from __future__ import annotations

import pytest
from conftest import pdf_pages, pdftotext

from generator.cli import main
from generator.data import track_specs_dir
from generator.games.formula_d.circuit import COMPACT_BOARD, DEFAULT_BOARD, board_path, load_circuit
from generator.paper import PaperChoice

RACES = 60  # ~4 s of strong drivers' races: enough for every figure to clear its target with room


@pytest.fixture(scope="module")
def figures():
    """The default board as the pack prints it (ten cars, a garage each), raced once for the module."""
    from generator.games.formula_d.simulate import play_figures

    return play_figures(load_circuit(None, garages=10), races=RACES, seed=1, cars=10)


def test_the_default_board_is_raced_in_top_gears(figures):
    """The targets of issue 39: ≥ 8 spaces a turn, 5th + 6th ≥ 20 % of the moves and 6th used, 10-20 turns a lap."""
    assert figures["spaces_per_turn"] >= 8.0
    gears = figures["gear_share"]
    assert sorted(gears) == ["1", "2", "3", "4", "5", "6"]
    assert gears["5"] + gears["6"] >= 0.20 and gears["6"] > 0.0
    assert 10 <= figures["turns_per_lap"] <= 20


def test_the_default_boards_corners_can_be_taken(figures):
    """No corner overshot by the strong drivers in more than a quarter of its passes; few cars out."""
    assert len(figures["corners"]) == 5
    for corner in figures["corners"]:
        assert corner["overshoot_share"] is not None and corner["overshoot_share"] <= 0.25, corner
    assert figures["dnf_rate"] <= 0.05
    main = next(s for s in figures["straights"] if s["main"])
    assert main["gear_share"]["6"] > 0.0  # 6th gear on the main straight


@pytest.mark.parametrize(
    ("paper", "board"), [(None, DEFAULT_BOARD), ("a1", DEFAULT_BOARD), ("a2", COMPACT_BOARD), ("a3", COMPACT_BOARD)]
)
def test_smaller_paper_takes_the_compact_board(paper, board):
    assert board_path(None, paper=PaperChoice(paper) if paper else None).name == board
    assert board_path(None, road_race=True, paper=PaperChoice("a2")).name == "formula-d-road.yaml"


def test_every_shipped_formula_d_board_builds():
    specs = [p for p in sorted(track_specs_dir().glob("*.yaml")) if "game: formula-d" in p.read_text("utf-8")]
    assert {DEFAULT_BOARD, COMPACT_BOARD} <= {p.name for p in specs}
    for path in specs:
        c = load_circuit(path)
        assert c.graph is not None and c.corners, path.name


def _run(capsys, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as ex:
        main([str(a) for a in args])
    return ex.value.code, capsys.readouterr().err


def test_the_compact_boards_legend_says_how_it_plays(tmp_path, capsys):
    code, err = _run(capsys, "pack", "formula-d", "--paper", "a2", "-o", tmp_path, "-f", "pdf", "--players", "A,B")
    assert code == 0, err
    text = pdftotext(tmp_path / "formula-d" / "board.pdf")
    if text is None:
        pytest.skip("poppler's pdftotext is not installed")
    assert "Petit circuit de la Garenne" in text
    assert "a short board: mostly 2nd–4th gear (62 spaces a lap" in " ".join(text.split())
    assert "board: one A2 page (page 1 of the print PDF)" in err


def test_the_full_size_board_says_its_tiles(tmp_path, capsys):
    """On A1 whole, or tiled onto A4: 15 tiles and an assembly page, each exactly A4 (the tiles portrait), and the
    pack says where."""
    code, err = _run(capsys, "pack", "formula-d", "--tile-onto", "a4", "-o", tmp_path, "-f", "pdf", "--players", "A,B")
    assert code == 0, err
    assert "board: the A1 sheet tiled onto 15 A4 pages and an assembly page (pages 1–16 of the print PDF)" in err
    doc = pdf_pages(tmp_path / "formula-d" / "board.pdf")
    assert len(doc) == 16
    for i in range(len(doc)):
        w, h = doc[i].get_size()
        assert (round(w, 1), round(h, 1)) == ((595.3, 841.9) if i < 15 else (841.9, 595.3)), i
    text = pdftotext(tmp_path / "formula-d" / "board.pdf")
    assert text is None or "Circuit de la Garenne" in text
