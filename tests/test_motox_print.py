"""MotoX at the table (issue 30): Paddock's race readings on the rider's card and in the summary, read back from the
PDFs; a generic piecepack whose tile backs are pixel-identical; a merged print PDF that prints right double-sided
(page parity); the front page; a course for the riders asked and shipped courses by name; the course diagram."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import pdf_pages, pdf_text

from generator import writers
from generator.cli import main
from generator.games.motox import facts, pieces
from generator.games.motox.pack import build, choose_course, piecepack_sheets
from generator.games.summaries import load, summary_pages
from generator.paper import PageSettings, PageSpec, Paper, PaperChoice
from generator.pipeline import Output, print_order, publish
from generator.scene import Document, Text, walk

TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "motox"


def run(*args: str) -> int:
    """``paddock ARGS``: the exit code."""
    try:
        main(list(args))
    except SystemExit as ex:
        return int(ex.code or 0)
    return 0


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00ad", "")).strip()


def readings():
    return facts.sheets().readings.race


# -- readings ----------------------------------------------------------------------------------------------------


def test_every_race_question_of_the_issue_has_a_reading():
    ids = {r.id for r in readings()}
    assert ids >= {"pass", "bike_in_the_way", "ramp_short", "ramps_in_a_row", "null_in_the_air", "coins_on_reentry"}
    for r in readings():
        assert r.question.endswith("?") and r.reading and r.why
        assert len(r.why) < 130, f"{r.id}: the reason is one line"


def test_readings_on_the_riders_card_read_back_from_the_pdf(tmp_path):
    settings = PageSettings()
    sheets = [s for s in build(settings) if s.name.startswith("reference")]
    publish(sheets, Output(out=tmp_path, formats=("pdf",), quiet=True), settings, folder="motox")
    backs = flat(" ".join(pdf_text(tmp_path / "motox" / f"{s.name}.pdf") for s in sheets if "back" in s.name))
    fronts = flat(" ".join(pdf_text(tmp_path / "motox" / f"{s.name}.pdf") for s in sheets if "front" in s.name))
    assert backs.count("Paddock's readings") >= 4  # marked on every card
    why = facts.sheets().readings.why
    for r in readings():
        assert r.question in backs
        first = flat(r.reading.format(max_dice=facts.max_dice()))[:40]
        assert first in backs, r.id
        assert f"{why} {r.why[:40]}" in backs, r.id
    assert "decide before you roll" in fronts  # the front points the way
    assert "back: a bike in the way" in fronts and "back: a ramp ahead" in fronts


@pytest.mark.parametrize("booklet", [False, True], ids=["a4", "booklet"])
def test_readings_in_the_summary_read_back_from_the_pdf(booklet):
    pages = summary_pages(load("motox"), PageSettings(), booklet=booklet)
    (blob,) = writers.render(Document(pages), "pdf")
    text = flat(pdf_text(blob))
    assert text.count("PADDOCK’S READING OF THE RULEBOOK") >= len(readings()) + 3 + 1  # race, building, a laid course
    for r in readings():
        assert r.question in text, r.id
        assert flat(r.reading.format(max_dice=facts.max_dice()))[:40] in text, r.id
        assert r.why[:40] in text, r.id


def test_the_same_reading_on_card_and_in_summary():
    """One place for each reading: the summary quotes the card's words."""
    from generator.games.motox.summary import values

    v = values()
    for r in readings():
        assert r.question in v[f"reading_{r.id}"] and r.why in v[f"reading_{r.id}"]


# -- a generic piecepack -----------------------------------------------------------------------------------------


def _backs(spec, look):
    """Every tile back of the set: (sheet, its box, what is drawn there)."""
    from generator.games.motox.piecepack_sheet import layout, piecepack_pages
    from generator.scene import Group

    pages = piecepack_pages(spec, None, "long", look)[1::2]
    groups = [[i for i in page.layers["pieces"].items if isinstance(i, Group)] for page in pages]
    out = []
    for p in (p for p in layout(spec) if p.kind == "tile"):
        (g,) = [g for g in groups[p.sheet] if g.offset == p.back[:2]]
        out.append((p.sheet, p.back, g.items))
    return pages, out


@pytest.mark.parametrize("look", pieces.LOOKS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_tile_back_is_the_same_drawing(look, paper):
    """Face down, no tile gives itself away: every back of the set is one drawing, placed by an offset."""
    _, backs = _backs(PageSpec(Paper(paper, "portrait")), look)
    assert len(backs) == facts.tile_count()
    assert len({items for _, _, items in backs}) == 1


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm is not installed")
@pytest.mark.parametrize("look", pieces.LOOKS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tile_backs_are_pixel_identical(tmp_path, look, paper):
    """Printed, every back is the same to the pixel. Tiles are 2 in on a 2 in pitch, so at a whole number of dots
    per inch every back starts at the same fraction of a pixel and the crops compare exactly. (Rendered by
    poppler, as a printer driver would: PDFium moves thin strokes by a fraction of a pixel with their place on
    the page, which no drawing can prevent.)"""
    import numpy as np
    from PIL import Image

    spec = PageSpec(Paper(paper, "portrait"))
    pages, backs = _backs(spec, look)
    x0, y0 = backs[0][1][:2]

    def clear(dpi: int) -> float:
        """How far the backs' corners fall from a pixel's edge or middle: on one, the rasteriser's rounding
        decides which pixel an edge darkens, and a last-digit difference in the offset flips it."""
        return min(min(f % 0.5, 0.5 - f % 0.5) for f in (x0 / 25.4 * dpi, y0 / 25.4 * dpi))

    dpi = max(range(90, 131), key=clear)
    px = round(facts.inches().tile * dpi)
    left, top = int(x0 / 25.4 * dpi) + 1, int(y0 / 25.4 * dpi) + 1  # a pixel clear of the cut lines
    crops = []
    for k, page in enumerate(pages):
        (blob,) = writers.render(Document([page]), "pdf")
        (tmp_path / "back.pdf").write_bytes(blob)
        cmd = ["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "back.pdf", f"back-{k}"]
        subprocess.run(cmd, cwd=tmp_path, check=True)
        image = np.asarray(Image.open(tmp_path / f"back-{k}.png").convert("RGB"))
        for sheet, box, _ in backs:
            if sheet != k:
                continue
            dx, dy = (box[0] - x0) / 25.4 * dpi, (box[1] - y0) / 25.4 * dpi
            assert abs(dx - round(dx)) < 1e-6 and abs(dy - round(dy)) < 1e-6  # whole pixels apart
            x, y = left + round(dx), top + round(dy)
            crops.append(image[y : y + px - 2, x : x + px - 2].astype(int))
    assert len(crops) == facts.tile_count()
    differ = [int((c != crops[0]).any(axis=2).sum()) for c in crops]
    if look == "generic":  # the default: pixel-identical
        assert not any(differ), f"tile backs differ from the first in {differ} pixels ({dpi} dpi)"
    else:  # the same drawing (above); poppler's sub-pixel rounding may shade a pebble's edge pixel a shade apart
        assert max(differ) <= 3 and max(int(np.abs(c - crops[0]).max()) for c in crops) <= 4, differ


def test_the_generic_piecepack_names_no_game(tmp_path):
    assert run("piecepack", "-o", str(tmp_path), "-f", "pdf", "-q") == 0
    text = pdf_text(tmp_path / "piecepack" / "piecepack-print.pdf")
    assert "motox" not in text.lower() and "bike" not in text.lower()
    assert "Piecepack" in text and "pawn" in text


def test_the_motox_look_is_an_option_of_the_motox_pack():
    plain = build(PageSettings())
    motox = build(PageSettings(), look="motox")

    def fills(sheets):
        return {
            i.style.fill
            for s in sheets
            if s.name.startswith("tiles")
            for i in walk(s.page.items())
            if getattr(i, "style", None) is not None
        }

    assert pieces.DIRT in fills(motox) and pieces.DIRT not in fills(plain)
    assert run("pack", "motox", "--look", "mud", "-o", "/tmp/never", "-q") == 2


# -- printing double-sided ---------------------------------------------------------------------------------------


def _blank(page) -> bool:
    return len(list(page.get_objects())) == 0


CASES = list(itertools.product(("long", "short"), ("a4", "letter"), (3, 4)))


# Paddock's notices (LayoutWarning): on letter the reference card's text may run past its foot, said to the user; here
# the page order
@pytest.mark.filterwarnings("ignore::generator.notices.LayoutWarning")
@pytest.mark.parametrize(("duplex", "paper", "players"), CASES, ids=[f"{d}-{p}-{n}" for d, p, n in CASES])
def test_the_print_pdf_prints_right_double_sided(tmp_path, duplex, paper, players):
    """Page parity: every page of pieces to cut out is on a front with a blank back; every sheet made to print
    back to back starts on a front, its back on the page after; the front page says which pages are which."""
    settings = PageSettings(paper=PaperChoice(paper))
    sheets = build(settings, players=players, duplex=duplex)
    out = Output(out=tmp_path, formats=("pdf",), quiet=True)
    publish(sheets, out, settings, folder="motox", merged="motox-print", title="motox")
    doc = pdf_pages(tmp_path / "motox" / "motox-print.pdf")
    order = print_order([s.side for s in sheets])
    assert len(doc) == len(order)
    for n, at in enumerate(order):
        if at is None:
            assert _blank(doc[n]), f"page {n + 1} should be blank"
            continue
        sheet = sheets[at[0]]
        assert not _blank(doc[n])
        if sheet.side in ("front", "alone"):
            assert n % 2 == 0, f"{sheet.name} falls on page {n + 1}, a back"
        if sheet.side == "alone":
            assert order[n + 1] is None, f"{sheet.name} has something on its back"
        if sheet.side == "front" and sheet.name.endswith("-front"):
            back = sheets[order[n + 1][0]]
            assert back.name == sheet.name.replace("-front", "-back"), (sheet.name, back.name)
    # Every sheet to cut out is on a front with a blank back: the cover (dice), tiles, cards.
    for s in sheets:
        if s.name.startswith(("front-page", "tiles", "reference", "dice")) and not s.name.endswith("-back"):
            assert s.side is not None, s.name
    # The front page's plan names the pages as they are.
    cover = flat(doc[0].get_textpage().get_text_range())
    tiles = [n + 1 for n, at in enumerate(order) if at is not None and sheets[at[0]].name.startswith("tiles")]
    assert f"{tiles[0]}–{tiles[-1]} tiles and coins" in cover
    assert f"flipping on the {duplex} edge" in cover


def test_single_sided_print_has_no_blanks(tmp_path):
    sheets = build(PageSettings(), duplex="off")
    assert {s.side for s in sheets} == {None}
    assert print_order([s.side for s in sheets]) == [(k, 0) for k in range(len(sheets))]
    text = flat(" ".join(t.text for t in walk(sheets[0].page.items()) if isinstance(t, Text)))
    assert "single-sided" in text


def test_print_order_pads_where_needed():
    assert print_order([None, "front", None]) == [(0, 0), None, (1, 0), (2, 0)]
    assert print_order(["alone", "front", None, "alone"]) == [(0, 0), None, (1, 0), (2, 0), (3, 0), None]
    assert print_order(["front", None, None, "front", None]) == [(0, 0), (1, 0), (2, 0), None, (3, 0), (4, 0)]
    with pytest.raises(ValueError):
        print_order(["sideways"])


# -- the front page ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_front_page_has_title_credits_licence_checklist_and_the_dice(paper):
    sheets = piecepack_sheets(PageSettings(paper=PaperChoice(paper)))
    page = sheets[0].page
    text = flat(" ".join(t.text for t in walk(page.items()) if isinstance(t, Text)))
    assert "Piecepack A print-and-play set" in text
    assert "James Kyle" in text and "public domain" in text and "MIT licence" in text
    for piece in ("24 tiles", "24 coins", "4 dice", "4 pawns"):
        assert piece in text
    assert "How to print this file" in text
    # The dice and pawns fill the rest of the page (no separate dice sheet on A4 or letter).
    assert "Suns die" in text and "Arms pawn" in text
    assert not any(s.name.startswith("dice") for s in sheets)


def test_the_dice_get_their_own_page_when_the_front_page_has_no_room():
    sheets = piecepack_sheets(PageSettings(paper=PaperChoice("letter"), edge=15.0))
    assert [s.name for s in sheets][:2] == ["front-page", "dice-pawns"]
    assert sheets[1].side == "alone"


# -- courses -----------------------------------------------------------------------------------------------------


def test_players_3_gets_a_course_for_3():
    assert choose_course(None, None, 3).players == 3
    assert choose_course(None, None, 4).name == "Twisty"
    assert choose_course("three-riders", None, None).name == "Three Riders"
    assert choose_course("big-jumps.yaml", None, 4).name == "Big Jumps"


def test_pack_motox_players_3_builds(tmp_path):
    assert run("pack", "motox", "--players", "3", "-o", str(tmp_path), "-f", "pdf", "-q") == 0
    text = flat(pdf_text(tmp_path / "motox" / "course.pdf"))
    assert "3 players" in text


def test_a_shipped_course_by_name_everywhere(tmp_path, capsys):
    assert run("pack", "motox", "--course", "three-riders", "-o", str(tmp_path), "-f", "pdf", "-q") == 0
    assert run("motox", "draw", "twisty", "-o", str(tmp_path), "-f", "pdf", "-q") == 0
    assert (tmp_path / "motox" / "course-twisty.pdf").is_file()
    assert run("motox", "check", "big-jumps") == 0
    assert "Big Jumps" in capsys.readouterr().out
    assert run("pack", "motox", "--course", "three-riders", "--players", "4", "-o", str(tmp_path), "-q") == 2
    assert run("motox", "check", "no-such-course") == 2


# -- the course diagram ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["twisty", "big-jumps", "three-riders"])
def test_diagram_numbers_sit_inside_their_tiles(name):
    """Each tile's number lies well inside its own tile (a quarter in from its edges), so the numbers of two tiles
    never meet at a shared corner."""
    from generator.games.motox.checks import check
    from generator.games.motox.diagram import course_page, preferred_paper

    course, _ = check(TEMPLATES / "courses" / f"{name}.yaml")
    page = course_page(course, PageSettings().text_page(preferred_paper(course)))
    numbers = {
        int(t.text): (t.x, t.y)
        for t in walk(page.layers["text"].items)
        if isinstance(t, Text) and t.text.isdigit() and t.font == "condensed-bold"  # ramp heights: bold, white
    }
    assert sorted(numbers) == list(range(1, course.n + 1))
    squares = page.layers["tiles"].items  # one per tile, in play order (drawn before any ramp)
    assert len(squares) == course.n
    for t, (x, y) in numbers.items():
        xs = [p[0] for p in squares[t - 1].exterior]
        ys = [p[1] for p in squares[t - 1].exterior]
        side = max(xs) - min(xs)
        margin = min(x - min(xs), max(xs) - x, y - min(ys), max(ys) - y)
        assert margin >= 0.2 * side, f"tile {t}: its number is {margin:.1f} mm from its edge"


def test_diagram_says_footprint_dealt_course_and_who_starts():
    from generator.games.motox.checks import check
    from generator.games.motox.diagram import course_page, preferred_paper

    course, _ = check(TEMPLATES / "courses" / "twisty.yaml")
    page = course_page(course, PageSettings().text_page(preferred_paper(course)))
    text = flat(" ".join(t.text for t in walk(page.items()) if isinstance(t, Text)))
    assert "On the table: 9 × 8 tiles, 46 × 41 cm" in text
    assert "replaces the building phase" in text and "Paddock's reading" in text
    assert "moves first" in text and "Deal the other 12 coins" in text
