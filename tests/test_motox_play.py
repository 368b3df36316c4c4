"""MotoX from the prints alone (issue 42): seeded races played by the rules the pack prints (``motox_race``), on
the shipped courses and dealt ones, every situation settled by words read back from the pack's PDF; the race
fails on a situation the sheets do not cover. And the readings that collided before, now one."""

from __future__ import annotations

import random

import pytest
from conftest import pdf_text
from motox_race import RULES, Race, Uncovered, flat, printed_facts

from generator.games.motox.builder import deal_course
from generator.games.motox.pack import build, choose_course
from generator.paper import PageSettings
from generator.pipeline import Output, publish


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> str:
    """Every word of the default MotoX pack, read back from its print PDF."""
    out = tmp_path_factory.mktemp("motox")
    settings = PageSettings()
    publish(build(settings), Output(out=out, formats=("pdf",), quiet=True), settings, folder="motox",
            merged="motox-print")  # fmt: skip
    return flat(pdf_text(out / "motox" / "motox-print.pdf"))


def courses():
    for name, riders in (("twisty", 4), ("three-riders", 3), ("big-jumps", 4)):
        yield name, choose_course(name, None, None), riders
    for seed in (3, 11):
        for riders in (3, 4):
            yield f"seed {seed}", deal_course(riders, seed).course, riders


def test_seeded_races_run_to_a_winner_by_the_printed_rules(printed):
    facts = printed_facts(printed)
    assert facts.dice_by_place == (1, 2, 3, 4) and facts.max_dice == 4 and facts.max_ramp == 3
    assert facts.race_coins == {3: 4, 4: 3}
    seen = {}
    for k, (name, course, riders) in enumerate(courses()):
        for race_no in range(6):
            race = Race(course, facts, printed, random.Random(1000 * k + race_no))
            winner, rounds = race.run(riders)
            assert rounds < 600, name
            for rule, n in race.seen.items():
                seen[rule] = seen.get(rule, 0) + n
    # The races met what the sheets had left open before: a ramp no die beats on a track two spaces wide (the
    # bike stays put), run-offs forced by the dice, flights, kick-starts, ties, turns on nulls.
    for rule in ("ramp_block", "must_move", "run_off", "flight", "reenter_roll", "reenter_fail", "ties", "null_turn",
                 "wiped_rank", "coin_dice", "coin_ace", "ramp_short", "finish_tile", "land_on_bike", "flight_off",
                 "reenter_taken", "several_ramps", "win"):  # fmt: skip
        assert seen.get(rule, 0) > 0, f"no race met {rule}"


def test_a_race_stops_on_a_situation_the_sheets_leave_open(printed):
    """Take a reading off the sheets and the race meets the situation it settled, and says so."""
    facts = printed_facts(printed)
    course = choose_course("twisty", None, None)
    cut = printed.replace(RULES["ramp_block"][0], "")
    with pytest.raises(Uncovered, match="ramp_block"):
        for seed in range(40):
            Race(course, facts, cut, random.Random(seed)).run(4)


def test_the_collided_readings_are_one(printed):
    """A run-off counts as a move, a ramp no die beats stops the bike (sideways too), nulls turn on the ground
    only — said alike on the card, its back and the summary; page 12's old line is gone."""
    assert "If no die beats it, you cannot move this turn." not in printed
    assert "anywhere along the move" not in printed and "at any point of the move." not in printed
    assert printed.count("never in the air") >= 2  # the card and the summary
    assert "never in the air off a ramp" in printed and "A null's turn is made on the ground" in printed
    assert printed.count("you cannot move this turn: stay put, no wipe-out") == 1  # the summary
    assert "You may not move this turn: stay put, no wipe-out, not even sideways" in printed  # the card
    assert "The one furthest along the track: laid later while building" in printed
    assert "a blank face is a null, the suit's symbol is an ace (1)" in printed  # the card's key to the dice
    assert "the spiral is the ace" in printed  # the coins, on the front page
