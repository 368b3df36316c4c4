"""RWB TROUBLE from the prints alone (issue 42): seeded races whose TROUBLE is played by the sheets a pack prints
(``rwb_race``) — the chips of the race's card, a chip drawn blind, the printed ACCIDENT table and CRASH flow chart —
failing on a situation the sheets do not cover; the base game's part stood in for by seeded rolls."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import pdf_text
from rwb_race import RULES, Race, Uncovered, flat, printed_facts

from generator.games.rwb_trouble import facts
from generator.games.rwb_trouble.pack import build
from generator.paper import PageSettings
from generator.pipeline import Output, publish


def printed(tmp_path, turns: int, track: str) -> str:
    settings = PageSettings()
    sheets = build(settings, turns=turns, track=track)
    publish(sheets, Output(out=tmp_path, formats=("pdf",), quiet=True), settings, folder="r", merged="print")
    return flat(pdf_text(tmp_path / "r" / "print.pdf"))


@pytest.fixture(scope="module")
def road100(tmp_path_factory) -> str:
    return printed(tmp_path_factory.mktemp("rwb"), 100, "road")


def test_ten_turns_with_six_cars_and_long_races_by_the_printed_sheets(road100, tmp_path):
    """The issue's table (10 turns, 6 cars) and longer races: every TROUBLE settled by the printed words."""
    facts_ = printed_facts(road100)
    assert facts_.chips == {"ACCIDENT": 6, "CRASH": 2, "WRECK": 2}  # 100 turns on a road course, shared out
    assert facts_.accident[8] == (3, 4, 8) and facts_.accident[11] == (4, 6, 11)  # the add-on's examples
    seen: Counter = Counter()
    for seed in range(30):
        seen += Race(facts_, road100, random.Random(seed), cars=6).run(10)
    for seed in range(30):
        seen += Race(facts_, road100, random.Random(100 + seed), cars=24).run(100)
    short = printed(tmp_path, 45, "short")
    facts_short = printed_facts(short)
    assert facts_short.chips == {"ACCIDENT": 1, "CRASH": 2, "WRECK": 1}
    for seed in range(10):
        seen += Race(facts_short, short, random.Random(200 + seed), cars=12).run(45)
    for rule in RULES:  # every situation the sheets settle, met at least once
        assert seen[rule] > 0, f"no race met {rule}"


def test_the_draw_follows_the_chips(road100):
    """The first TROUBLE of a 100-turn road course, drawn blind: each form as often as its chips (6 : 2 : 2); the
    even die split Paddock printed before made it a third each (issue 42)."""
    facts_ = printed_facts(road100)
    first = Counter(Race(facts_, road100, random.Random(seed), cars=24).draw_first() for seed in range(3000))
    wrecks = first["WRECK"] / 3000
    assert abs(wrecks - 0.2) < 0.03 and abs(first["ACCIDENT"] / 3000 - 0.6) < 0.03
    assert facts.draw_text(facts.chip_plan(100, "road")) in road100


def test_a_race_stops_on_a_situation_the_sheets_leave_open(road100):
    cut = road100.replace(RULES["crash_same_place"][0], "")
    with pytest.raises(Uncovered, match="crash_same_place"):
        for seed in range(60):
            Race(printed_facts(cut), cut, random.Random(seed), cars=24).run(100)
