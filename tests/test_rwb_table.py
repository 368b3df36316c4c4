"""RWB TROUBLE at the table (issue 30): Paddock's readings where the add-on leaves a race open — how to pick the form
with no agreement (a die over the spaces that still hold chips), where a short track's extras go — each on the
quick card or the chip card and in the summary, read back from the PDFs; the groups said to be the base game's;
`paddock pack rwb-trouble` alone builds and says what it chose; a print PDF that prints right double-sided. From
the 50-turn race played through from the prints: where several drivers moved by one CRASH end up (Paddock's
reading), what REPAIR does in a CRASH on the quick card, the first driver of an ACCIDENT chosen at random, a
write-in for the base game's groups and room in the log for the race's TROUBLE."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import pdf_pages, pdf_text

from generator.cli import main
from generator.games.rwb_trouble import facts
from generator.games.rwb_trouble.chipcard import chip_card_pages
from generator.games.rwb_trouble.pack import build
from generator.games.rwb_trouble.procedures import procedures_page
from generator.games.rwb_trouble.tables import tables_page
from generator.games.rwb_trouble.tracker import tracker_pages
from generator.games.summaries import load, summary_pages
from generator.paper import PageSettings, PageSpec, Paper, PaperChoice
from generator.pipeline import Output, print_order, publish
from generator.scene import Document
from generator.writers import render

A4 = PageSpec(Paper("a4", "portrait"))
ROOT = Path(__file__).resolve().parents[1]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def pdf_of(*pages) -> bytes:
    (blob,) = render(Document(list(pages)), "pdf")
    return blob


def run(*args: str) -> int:
    try:
        main(list(args))
    except SystemExit as ex:
        return int(ex.code or 0)
    return 0


def summary_text() -> str:
    return flat(pdf_text(pdf_of(*summary_pages(load("rwb-trouble"), PageSettings()))))


# -- picking the form --------------------------------------------------------------------------------------------


def test_the_form_is_drawn_blind_weighted_by_the_chips_left():
    """Issue 42: the die split evenly over the spaces left made the first TROUBLE a third each whatever the chips
    (a 100-turn road course: 0.79 WRECKs expected against 0.3 by a blind draw). Paddock's reading now draws a chip
    blind: each form comes up as often as it has chips among those left."""
    plan = facts.chip_plan(100, "road")
    assert facts.first_draw(plan) == [("accident", 6), ("crash", 2), ("wreck", 2)]
    assert facts.draw_text(plan) == "ACCIDENT 6 in 10 · CRASH 2 in 10 · WRECK 2 in 10"
    assert sorted(plan.chips()) == sorted(["accident"] * 6 + ["crash"] * 2 + ["wreck"] * 2)
    rule = (ROOT.parent / "shared" / "rules" / "rwb-trouble.txt").read_text(encoding="utf-8")
    assert "from a distribution determined before the game" in flat(rule)  # the add-on's own ground for it


def test_the_pick_reading_on_the_quick_card_read_back_from_the_pdf():
    plan = facts.chip_plan(50, "road")
    page = chip_card_pages(plan, facts.card_size(), A4)[0]
    text = flat(pdf_text(pdf_of(page)))
    reading = facts.sheets().readings
    assert "PADDOCK'S READING" in text and reading.pick.question in text
    for step in reading.pick.steps:
        assert step in text
    assert "This race's first TROUBLE: ACCIDENT 3 in 5 · CRASH 1 in 5 · WRECK 1 in 5." in text
    assert f"{reading.why} {reading.pick.why[:40]}" in text
    assert "roll one die" not in text.lower()


def test_the_pick_reading_in_the_summary_read_back_from_the_pdf():
    text = summary_text()
    reading = facts.sheets().readings
    assert "draw a chip blind" in text and "1–2 ACCIDENT" not in text
    assert "On a 50-turn road course (3 ACCIDENT chips, 1 CRASH and 1 WRECK) the first TROUBLE is an ACCIDENT 3" in text
    assert reading.pick.question in text and reading.pick.why[:40] in text
    assert reading.share.question in text and reading.share.why[:40] in text
    assert "PADDOCK’S READING OF THE RULEBOOK" in text


# -- a short track -----------------------------------------------------------------------------------------------


def test_a_short_tracks_extras_go_on_crashes_as_paddocks_reading():
    plan = facts.chip_plan(60, "short")
    assert plan.reading and (plan.start("accident"), plan.start("crash"), plan.start("wreck")) == (1, 3, 2)
    card = flat(pdf_text(pdf_of(chip_card_pages(plan, facts.card_size(), A4)[0])))
    assert "Extras +2 on CRASHES and +1 on WRECKS: CRASHES is Paddock's reading for a short track" in card
    tables = flat(pdf_text(pdf_of(tables_page(A4))))
    assert "short track not said 2 of every 3 on CRASHES (Paddock's reading)" in tables
    text = summary_text()
    assert "short track not said 2 of every 3 on CRASHES (Paddock's" in text
    assert facts.sheets().readings.short_track.text[:50] in text
    assert facts.chip_plan(60, "oval").placed == {"accident": 1, "crash": 1, "wreck": 1}  # one each in turn


# -- the groups --------------------------------------------------------------------------------------------------


def test_the_groups_are_said_to_come_from_the_base_game_where_they_are_used():
    plan = facts.chip_plan(50, "road")
    quick = flat(pdf_text(pdf_of(chip_card_pages(plan, facts.card_size(), A4)[0])))
    tables = flat(pdf_text(pdf_of(tables_page(A4))))
    tracker = flat(pdf_text(pdf_of(*tracker_pages(plan, A4))))
    text = summary_text()
    for where, words in (("quick card", quick), ("tables", tables), ("tracker", tracker), ("summary", text)):
        assert "base game's" in words and "TOP" in words, where
    assert facts.sheets().readings.groups in text


# -- found playing a 50-turn race from the prints ------------------------------------------------------------------


def test_several_drivers_moved_by_one_crash_paddocks_reading_on_the_sheet_and_in_the_summary():
    reading = facts.sheets().readings
    r = reading.crash_places
    # the part that is the add-on's: its example counts each drop from the place before the CRASH (11 + 3 = 14th)
    assert [(d.driver + d.roll, d.to) for d in facts.crash_example().dropped] == [(14, 14), (19, 19), (21, 21)]
    sheet = flat(pdf_text(pdf_of(procedures_page(A4))))
    assert f"PADDOCK'S READING: {r.heading}" in sheet
    assert "from his place before the CRASH, or to last place" in sheet  # the chart's box
    for part in (r.text[:70], r.text[-70:], f"{reading.why} {r.why[:50]}"):
        assert part in sheet, part
    text = summary_text()
    assert f"{r.heading}. {r.text[:60]}" in text and r.why[:50] in text
    assert "from your place before the CRASH, or to last place" in text
    letter = PageSpec(Paper("letter", "portrait"))
    assert r.heading in flat(pdf_text(pdf_of(procedures_page(letter))))  # fits the shorter page too


def test_the_quick_card_says_what_repair_does_in_a_crash_and_an_accident():
    plan = facts.chip_plan(50, "road")
    page = chip_card_pages(plan, facts.card_size(), A4)[0]
    card = flat(pdf_text(pdf_of(page)))
    assert "that many drivers of the group roll ESCAPE, then REPAIR where the base game calls for it" in card
    assert "failed twice, REPAIR (pass: to the end of the BOTTOM group; fail: out of the race)" in card
    assert "two dice places back from his place before the CRASH" in card


def test_the_first_driver_of_an_accident_is_chosen_at_random_as_the_add_on_says(request):
    rules = ROOT.parent / "shared" / "rules" / "rwb-trouble.txt"
    if rules.is_file():
        assert "Randomly choose a driver" in rules.read_text(encoding="utf-8")
    tables = flat(pdf_text(pdf_of(tables_page(A4))))
    assert "Choose the first driver at random in the group that had the ACCIDENT" in tables
    assert "Choose the first driver at random inside the group" in summary_text()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_tracker_has_the_groups_to_write_in_and_room_for_the_race(paper):
    plan = facts.chip_plan(50, "road")
    pages = tracker_pages(plan, PageSpec(Paper(paper, "portrait")))
    words = facts.sheets().tracker
    text = flat(pdf_text(pdf_of(pages[0])))
    assert f"{words.groups_write_in} TOP to MIDDLE to BOTTOM to" in text
    assert "Log full? Go on on the back of this sheet." in text
    # the race played from the prints met 18 TROUBLE results: the first page logs four rounds of 5 chips
    rows = [int(t) for t in re.findall(r"(?<![\d·])\b(\d+)\b TOP MID BOT", text)]
    assert rows == list(range(1, 21))


# -- defaults ----------------------------------------------------------------------------------------------------


def test_pack_alone_builds_and_says_what_it_chose(tmp_path, capsys):
    assert run("pack", "rwb-trouble", "-o", str(tmp_path / "a"), "-f", "pdf") == 0
    err = capsys.readouterr().err
    assert "no --turns or --track given: a 50-turn race (the add-on's own example) on a road course" in err
    assert (tmp_path / "a" / "rwb-trouble" / "rwb-trouble-print.pdf").is_file()
    card = flat(pdf_text(tmp_path / "a" / "rwb-trouble" / "chip-card.pdf"))
    assert "50 turns · road course" in card
    assert run("pack", "rwb-trouble", "--track", "oval", "-o", str(tmp_path / "b"), "-q") == 0
    assert capsys.readouterr().err == ""
    assert run("rwb", "chips", "--turns", "40", "-o", str(tmp_path / "c")) == 0
    assert "no --track given: a road course" in capsys.readouterr().err


# -- printing ----------------------------------------------------------------------------------------------------


# Paddock's notices (LayoutWarning): what the sheets say to the user on these papers is not what this tests: the page
# order
@pytest.mark.filterwarnings("ignore::generator.notices.LayoutWarning")
@pytest.mark.parametrize(("paper", "turns"), [("a4", 50), ("letter", 50), ("letter", 400), ("a4", 500)])
def test_the_print_pdf_prints_right_double_sided(tmp_path, paper, turns):
    settings = PageSettings(paper=PaperChoice(paper))
    sheets = build(settings, turns=turns, track="road")
    publish(sheets, Output(out=tmp_path, formats=("pdf",), quiet=True), settings, folder="r", merged="print")
    doc = pdf_pages(tmp_path / "r" / "print.pdf")
    order = print_order([s.side for s in sheets])
    assert len(doc) == len(order)
    for n, at in enumerate(order):
        if at is None:
            assert len(list(doc[n].get_objects())) == 0
            continue
        sheet = sheets[at[0]]
        if sheet.side is not None:
            assert n % 2 == 0, f"{sheet.name} on page {n + 1}, a back"
        if sheet.name == "chip-card":  # on card: the chips' backs fall behind it, flipped on the long edge
            assert sheet.side == "front" and sheets[order[n + 1][0]].name == "chip-card-backs"
        if sheet.name == "chip-card-quick-card":
            assert sheet.side == "alone" and order[n + 1] is None
        if sheet.name == "tables":
            assert sheets[order[n + 1][0]].name == "procedures"  # back to back


def test_the_chip_card_page_holds_the_quick_card_too():
    """The chip card page was two-thirds empty: the quick card fills it; with many chips on small paper it gets a
    page of its own."""
    short = chip_card_pages(facts.chip_plan(50, "road"), facts.card_size(), A4)
    assert len(short) == 2  # the chip card page and the chips' backs
    letter = PageSpec(Paper("letter", "portrait"))
    long = chip_card_pages(facts.chip_plan(500, "road"), facts.card_size(), letter)
    assert len(long) == 3 and "TROUBLE: which form?" in flat(pdf_text(pdf_of(long[2])))
