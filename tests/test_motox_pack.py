"""The MotoX pack as a whole: the rule summary's content contract, Paddock's own words, the riders' cards read back
from the PDF, the pack's sheets and options."""

from __future__ import annotations

import re
import string
import warnings
from pathlib import Path

import pytest
import yaml
from conftest import pdf_pages, pdf_text

from generator import games
from generator.cli import main
from generator.games.motox import facts, summary
from generator.games.motox.pack import build, piecepack_sheets
from generator.paper import PageSettings, PaperChoice
from generator.pipeline import Output, prepare, print_order, publish

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT.parent / "shared" / "rules" / "motox.txt"
TEMPLATES = ROOT / "templates" / "motox"


def strings(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in strings(v)]
    return []


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


def grams(text: str, n: int = 8) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


# -- the rule summary's content ---------------------------------------------------------------------------------


def test_summary_placeholders_and_tables_resolve():
    data = yaml.safe_load((TEMPLATES / "summary.yaml").read_text(encoding="utf-8"))
    values = summary.values()
    tables = summary.tables()
    assert data["title"] and data["sections"]
    used = set()
    for text in strings(data):
        for _, name, _, _ in string.Formatter().parse(text):
            if name:
                used.add(name)
                assert name in values, f"{{{name}}} has no value"
        text.format(**values)
    assert used, "the summary takes its numbers from values()"
    table_ids = [b["table"] for sec in data["sections"] for b in sec["blocks"] if "table" in b]
    assert table_ids and all(t in tables for t in table_ids)
    for t in tables.values():
        assert all(len(row) <= len(t["columns"]) for row in t["rows"])
    known = {"text", "list", "steps", "table", "example", "reading", "write_in"}
    assert all(set(b) <= known for sec in data["sections"] for b in sec["blocks"])
    assert data["source"] == facts.rules().credit
    # No number of the rules typed into the YAML (worked examples may illustrate with numbers of their own).
    for sec in data["sections"]:
        for block in sec["blocks"]:
            if "example" not in block:
                for text in strings(block):
                    assert not re.search(r"\d", re.sub(r"\{[^}]*\}", "", text)), text


def test_values_are_the_rulebooks_numbers():
    v = summary.values()
    assert (v["players_min"], v["players_max"], v["minutes"]) == ("3", "4", "30")
    assert (v["tiles"], v["coins"], v["building_coins"], v["max_ramp"], v["max_dice"]) == ("24", "24", "12", "3", "4")
    assert (v["ace_value"], v["null_turn"]) == ("1", "90")
    assert summary.tables()["dice_by_rank"]["rows"] == [["Dice you roll", "1", "2", "3", "4"]]
    deal = summary.tables()["deal"]["rows"]
    assert deal == [["3", "8", "4", "4"], ["4", "6", "3", "3"]]


@pytest.mark.parametrize("name", ["summary.yaml", "sheets.yaml"])
def test_no_sentence_of_the_rulebook_is_copied(name):
    if not RULEBOOK.is_file():
        pytest.skip("the shared rulebooks are not beside the project")
    book = grams(RULEBOOK.read_text(encoding="utf-8"))
    data = yaml.safe_load((TEMPLATES / name).read_text(encoding="utf-8"))
    copied = [(text[:60], g) for text in strings(data) for g in grams(text) & book]
    assert not copied, copied


# -- reference cards --------------------------------------------------------------------------------------------


def test_a_card_per_rider_with_the_rules_numbers(tmp_path):
    settings, output = PageSettings(), Output(out=tmp_path, formats=("pdf",), quiet=True)
    sheets = build(settings, course=TEMPLATES / "courses" / "three-riders.yaml")
    cards = [s for s in sheets if s.name.startswith("reference")]
    assert [s.name for s in cards] == [f"reference-{k}-{side}" for k in (1, 2) for side in ("front", "back")]
    publish(cards, output, settings, folder="motox")
    text = " ".join(pdf_text(tmp_path / "motox" / f"{s.name}.pdf") for s in cards)
    text = re.sub(r"\s+", " ", text)
    # three riders and a spare: two cards to a sheet, none left half blank
    assert text.count("MotoX · rider's card") == 4 and text.count("MotoX · Paddock's readings") == 4
    assert "Dice you roll 1 2 3 4" in text
    assert "a blank face is a null, the suit's symbol is an ace (1)" in text and "one 90° turn" in text
    assert "4 dice at most" in text and "up to 3 coins" in text
    assert "tiles meeting only at a corner do not touch" in text
    assert facts.rules().credit in text


# -- the pack ---------------------------------------------------------------------------------------------------


def test_motox_is_a_registered_game_with_its_commands():
    game = games.get("motox")
    assert game.package == "generator.games.motox"
    cli = game.cli()
    assert hasattr(cli, "pack") and hasattr(cli, "register")


def test_pack_sheets_and_pages(tmp_path):
    settings, output = PageSettings(), Output(out=tmp_path, formats=("pdf",), quiet=True)
    sheets = build(settings)
    names = [s.name for s in sheets]
    assert names[:5] == [
        "front-page",
        "tiles-coins-1-front",
        "tiles-coins-1-back",
        "tiles-coins-2-front",
        "tiles-coins-2-back",
    ]
    assert "course" in names and "reference-1-front" in names and "rules-1" in names
    publish(sheets, output, settings, folder="motox", merged="motox-print")
    merged = pdf_pages(tmp_path / "motox" / "motox-print.pdf")
    assert len(merged) == len(print_order([s.side for s in sheets]))
    for i in range(len(merged)):
        w, h = merged[i].get_size()
        assert {round(w * 25.4 / 72, 1), round(h * 25.4 / 72, 1)} == {210.0, 297.0}


# Paddock's notices (LayoutWarning): a 10 mm edge on letter makes the reference card overflow, said to the user; here
# the paper and edge
@pytest.mark.filterwarnings("ignore::generator.notices.LayoutWarning")
def test_paper_and_edge_reach_every_sheet():
    settings = PageSettings(paper=PaperChoice("letter"), edge=10.0)
    for sheet in build(settings, seed=5, players=3, duplex="short"):
        assert sheet.page.paper.name == "letter" and sheet.page.edge == 10.0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prepare(sheet, settings)
        assert not caught, (sheet.name, [str(w.message) for w in caught])


def test_pack_options(tmp_path, capsys):
    single = piecepack_sheets(PageSettings(), duplex="off")
    assert [s.name for s in single][0] == "front-page" and {s.side for s in single} == {None}
    sheets = build(PageSettings(), seed=9, players=3)
    assert sum(s.name.startswith("reference") for s in sheets) == 4  # 3 cards: 2 sheets, each front and back
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad\nplayers: 4\npath: [start, straight]\n", encoding="utf-8")
    with pytest.raises(SystemExit) as ex:
        main(["pack", "motox", "--course", str(bad), "-o", str(tmp_path), "-q"])
    assert ex.value.code == 3
    assert "breaks the building rules" in capsys.readouterr().err
    assert not (tmp_path / "motox").exists()
    with pytest.raises(SystemExit) as ex:
        main(["piecepack", "--duplex", "sideways", "-o", str(tmp_path), "-q"])
    assert ex.value.code == 2


def test_same_input_same_bytes(tmp_path):
    from generator import writers
    from generator.scene import Document

    a = writers.render(Document([s.page for s in build(PageSettings(), seed=2)][:3]), "pdf")
    b = writers.render(Document([s.page for s in build(PageSettings(), seed=2)][:3]), "pdf")
    assert a == b


def test_piecepack_turns_the_paper_to_need_fewer_sheets():
    """On letter, tiles fit 5 × 3 lying down but only 3 × 4 standing up: the pack turns the paper unless the user
    named an orientation."""
    free = [s for s in piecepack_sheets(PageSettings(paper=PaperChoice("letter"))) if s.name.startswith("tiles")]
    assert [s.page.paper.orientation for s in free] == ["landscape"] * 4
    fixed = piecepack_sheets(PageSettings(paper=PaperChoice("letter", "portrait")))
    assert {s.page.paper.orientation for s in fixed} == {"portrait"}
    assert sum(s.name.startswith("tiles-coins") for s in fixed) == 6
