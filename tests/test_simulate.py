"""``paddock simulate``: the dice, races against a hand calculation, the drivers, determinism on any number of
processes, races on generated boards, the report and the command line."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sim_boards import place, race, ring

from generator.cli import main
from generator.games.formula_d.simulate.race import Setup, batch
from generator.games.formula_d.simulate.rules import FIN, OUT, StaticReach, rule_set
from generator.simulate import SimOptions
from generator.simulate.rng import race_random
from generator.simulate.runner import run
from generator.simulate.tally import Tally, hist_mean, merged, percentile, spearman_d2, spearman_rho


def run_cli(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


# ------------------------------------------------------------------------------------------------ the dice


def test_the_gear_dice_faces_come_up_equally_often():
    """Each gear's die draws its faces (templates/formula-d/dice.yaml) equally often: a chi-square test."""
    from scipy.stats import chisquare

    rs, _ = rule_set()
    assert rs.faces[1] == (1, 1, 2, 2) and rs.faces[2] == (2, 3, 3, 4, 4, 4)
    assert rs.faces[3] == (4, 5, 6, 6, 7, 7, 8, 8) and rs.faces[4] == tuple(range(7, 13))
    assert rs.faces[5] == tuple(range(11, 21)) and rs.faces[6] == tuple(range(21, 31))
    r = race(ring(), ("simple",))
    r.rng.seed(2024)
    for gear in range(1, 7):
        values = sorted(set(rs.faces[gear]))
        n = 600 * len(rs.faces[gear])
        counts = dict.fromkeys(values, 0)
        for _ in range(n):
            counts[r.gear_die(gear)] += 1
        expected = [n * rs.faces[gear].count(v) / len(rs.faces[gear]) for v in values]
        assert chisquare([counts[v] for v in values], expected).pvalue > 0.001, gear
    blacks = [r.black() for _ in range(4000)]
    assert chisquare([blacks.count(v) for v in range(1, 21)]).pvalue > 0.001


# ------------------------------------------------------------------------------------------------ the tally


def test_percentiles_and_rank_correlation():
    hist = {10: 1, 11: 8, 12: 1}
    assert (percentile(hist, 10), percentile(hist, 50), percentile(hist, 90)) == (10, 11, 11)  # nearest rank
    assert percentile({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1}, 90) == 9
    assert hist_mean(hist) == 11
    assert spearman_rho(spearman_d2([1, 2, 3], [1, 2, 3]), 1, 3) == 1.0
    assert spearman_rho(spearman_d2([1, 2, 3], [3, 2, 1]), 1, 3) == -1.0


# ------------------------------------------------------------------------------------------------ races


def solo_turns(board, kind: str, races: int) -> float:
    rs, _ = rule_set(pit=False)
    static = StaticReach(board, tuple(c.stops for c in board.corners))
    from generator.games.formula_d.simulate.values import value_table

    setup = Setup(board, rs, (kind,), static, value_table(board, rs, static))
    t = batch(setup, 3, 0, races)
    assert t.count("finishers", 1) == races
    return hist_mean(t.hist("turns")), t


def test_turns_on_an_oval_with_one_corner_of_one_stop_match_a_hand_calculation():
    """A ring of 60 spaces: a straight of 30, then a corner of 30 spaces needing one stop — no move (30 at most)
    can jump it, so a lone car changes up a gear every turn and stays in 6th. By hand: the start (1st gear: a
    1-in-20 stall costs a turn, a 1-in-20 great start moves 4; else 1.5 on average), then one turn each in 2nd,
    3rd, 4th and 5th (3.33, 6.125, 9.5 and 15.5 spaces on average), then 6th (25.5) until the car crosses the
    line after two laps and the one space from the grid to the line: 121 spaces."""
    board = ring(3, 60, ((30, 59, 1),), grid=1)
    first = 1 + 1 / 20
    first_spaces = 18 / 20 * 1.5 + 1 / 20 * 4
    climb = 3 + 1 / 3 + 6.125 + 9.5 + 15.5
    left = 121 - first_spaces - climb
    # moves of 25.5 on average (21–30) until the line is crossed: left / 25.5 and, on average, half a move more
    hand = first + 4 + left / 25.5 + 0.5
    turns, t = solo_turns(board, "strong", 120)
    assert turns == pytest.approx(hand, rel=0.08)
    assert t.count("stop", 0, "inside") + t.count("stop", 0, "middle") + t.count("stop", 0, "outside") >= 2 * 120


def test_the_strong_drivers_table_sees_a_corner_right_after_the_line():
    """Two spaces past the line, a corner of two stops (spaces 1–2). From space 38, 5th gear (11–20 spaces, at most
    3 braked) always leaves that corner with no stop: out. On the last lap the line ends the race first and 5th is
    the quickest gear there is; with a lap still to race every face of it puts the car out. (The table once
    ignored corners past the line on every lap: on boards whose first corner follows the line, the strong drivers
    crossed it flat out and were put out, 82 % of the field on monza-like.yaml.)"""
    from generator.games.formula_d.simulate.values import OUT_TURNS, value_table

    board = ring(3, 40, ((1, 2, 2), (20, 22, 1)), grid=3)
    rs, _ = rule_set(pit=False)
    static = StaticReach(board, (2, 1))
    table = value_table(board, rs, static)
    state = static.base[1 * 40 + 38]
    assert table.final_e[5][state][0] < 1 and table.final_e[5][state][1] == 0  # over the line: done, every face
    # every face out: its cost, less at most the lap the crossing saves
    assert table.more_e[5][state][0] >= OUT_TURNS - table.lap
    assert table.more[4][state] < OUT_TURNS  # from 4th it changes down and makes its stops


def test_a_worn_car_reads_its_own_table():
    """A corner of three stops on spaces 10–12. Two spaces before it, after a move in 4th: a car with its gearbox
    and brakes changes down to 1st (two gears skipped) and makes its stops; a car with no gearbox WP can only go
    to 3rd (4–8 spaces, no braking without brake WP) and leaves the corner with no stop at all: out, whatever it
    rolls. The strong driver reads the worn table when its gearbox or brakes are spent."""
    from generator.games.formula_d.simulate.values import OUT_TURNS, value_table

    board = ring(3, 40, ((10, 12, 3),), grid=3)
    rs, _ = rule_set(pit=False)
    static = StaticReach(board, (3,))
    table = value_table(board, rs, static)
    state = static.base[1 * 40 + 8]
    assert table.more[4][state] < OUT_TURNS / 2
    assert table.worn.more[4][state] >= OUT_TURNS - table.worn.lap
    assert table.of(3, 3) is table and table.of(0, 3) is table.worn and table.of(2, 0) is table.worn


def test_the_strong_driver_beats_the_simple_one_on_the_default_board():
    """Mixed fields (odd cars simple, even strong) on Paddock's Formula D board: the strong drivers finish ahead.
    (Over 500 races: ``benchmarks/simulate.py``; a few here keep the suite quick.)"""
    from generator.games.formula_d.simulate import simulate

    report = simulate(None, SimOptions(races=24, ai="mixed", seed=5))
    drivers = report.data["drivers"]
    assert drivers["strong"]["mean_place"] < drivers["simple"]["mean_place"] - 2
    assert drivers["strong"]["wins"] > 0.8


def test_races_are_the_same_on_any_number_of_processes():
    board = ring(3, 40, ((10, 13, 2), (25, 27, 1)), grid=6)
    rs, _ = rule_set(pit=False)
    static = StaticReach(board, tuple(c.stops for c in board.corners))
    setup = Setup(board, rs, ("simple",) * 6, static)
    one = run(batch, setup, 12, seed=9, jobs=1, size=5)
    two = run(batch, setup, 12, seed=9, jobs=2, size=2)
    assert one == two and one.count("races") == 12
    assert run(batch, setup, 12, seed=10, jobs=1) != one


@st.composite
def boards(draw):
    lanes = draw(st.integers(1, 4))
    n = draw(st.integers(24, 70))
    k = draw(st.integers(1, 4))
    starts = sorted(draw(st.lists(st.integers(2, n - 8), min_size=k, max_size=k, unique=True)))
    corners = []
    last = -1
    for a in starts:
        if a <= last + 1:
            continue
        b = min(a + draw(st.integers(0, 6)), n - 4)
        if b < a:
            continue
        corners.append((a, b, draw(st.integers(1, min(3, b - a + 1)))))
        last = b
    cars = draw(st.integers(1, min(8, lanes * 3)))
    pit = None
    if draw(st.booleans()):  # a pit lane beside lane 0, anywhere (over the line too), its garages anywhere along it
        entry, count = draw(st.integers(0, n - 1)), draw(st.integers(1, 8))
        garages = tuple(draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=cars)))
        pit = (entry, (entry + count + 1) % n, count, garages)
    return ring(lanes, n, tuple(corners), grid=cars, pit=pit), cars


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from(["simple", "strong"]), st.integers(0, 10**6))
def test_every_race_on_a_generated_board_ends_with_every_car_placed(made, kind, seed):
    board, cars = made
    r = race(board, (kind,) * cars)
    r.rng = race_random(seed, 0)
    seen = []
    apply = r.apply

    def check(car, gear, roll, option, slip=False):
        apply(car, gear, roll, option, slip)
        spaces = [c.space for c in r.cars if c.state == 0]
        seen.append(len(spaces) == len(set(spaces)) and all(min(c.wp) >= 0 or c.state == OUT for c in r.cars))

    r.apply = check
    r.run()
    assert all(seen)
    assert all(c.state in (FIN, OUT) for c in r.cars)
    assert sorted(c.place for c in r.cars) == list(range(1, cars + 1))
    assert r.t.count("races") == 1 and sum(v for k, v in r.t.items() if k[0] == "dnf") + len(r.finished) == cars


# ------------------------------------------------------------------------------------------------ f1-dice


def test_f1_dice_qualifying_follows_the_team_table():
    from generator.games.f1_dice.simulate import F1Setup, qualify

    setup = F1Setup(
        units=40, laps=2, room=2, action=frozenset({10, 20}), effects=(("none", 0),) * 7, grid=(0, 0, -1, -1),
        qualifying=((6, 6, 6), (6, 6, 6), (-5, -5, -5), (-5, -5, -5)),
        tie=((0, 0, 0), (0, 0, 1), (1, 1, 0), (1, 1, 1)), drop=(1, 1), tier=("front",) * 4, die=6, least=1,
    )  # fmt: skip
    grids = [qualify(setup, race_random(1, i)) for i in range(50)]
    # d+6 always beats d−5 (at least 1): the two strong cars take the front row, in any order
    assert all(set(g[:2]) == {0, 1} for g in grids)
    # d−5 is at least 1: the weak pair always tie in Q1 (1 and 1), and the team-mate listed first wins every time
    assert all(g[2:] == [2, 3] for g in grids)


def test_f1_dice_dead_heats_between_team_mates_go_to_the_first_listed():
    """The rulebook: a dead heat goes to the driver with the higher chance in reality, "as per qualifying list";
    team-mates have the same modifiers, so the first listed wins every tie (once a coin: 50 %). Two teams of equal
    modifiers: a deciding die between the teams, each about half the time."""
    from generator.games.f1_dice.simulate import F1Setup, qualify

    setup = F1Setup(
        units=40, laps=2, room=2, action=frozenset(), effects=(("none", 0),) * 7, grid=(0, 0, -1, -1),
        qualifying=((-9, -9, -9),) * 4, tie=((0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)), drop=(),
        tier=("front",) * 4, die=6, least=1,
    )  # fmt: skip
    grids = [qualify(setup, race_random(2, i)) for i in range(400)]  # every result the least: all four tie
    assert all(g.index(0) < g.index(1) and g.index(2) < g.index(3) for g in grids)
    first = sum(g[0] == 0 for g in grids)
    assert 150 < first < 250 and {g[0] for g in grids} == {0, 2}


def test_f1_dice_race(capsys):
    code, out, err = run_cli(capsys, "simulate", "--races", "20", "--json", "-q")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "f1-dice" and data["cars"] == 24 and data["laps"] >= 2
    assert 0.3 < data["dnf_rate"] < 0.7  # about (5/6) to the power of the action rolls a car makes
    assert data["rounds"]["p10"] <= data["rounds"]["p50"] <= data["rounds"]["p90"]
    assert {a["unit"] for a in data["action_units"]} == {10, 20, 30, 40, 50}  # every 10th, the grid's too
    assert set(data["dnf_per_race"]) <= {"accident or engine", "stopped"}
    for key in ("winner_rounds", "rounds", "dnf_rate", "overtakes", "pole_wins"):  # a 95 % interval on each
        lo, hi = data["headline"][key]["ci95"]
        assert lo <= data["headline"][key]["mean"] <= hi
    code, out, err = run_cli(capsys, "simulate", "--races", "20", "--json", "-q", "--rules", "quick")
    quick = json.loads(out)
    assert quick["rules"] == ["quick"] and quick["dnf_per_race"]["crash"] > 0  # a double 1 crashes out
    assert quick["winner_rounds"]["mean"] < data["winner_rounds"]["mean"]  # the front runners add two dice


def test_f1_dice_dnf_rate_is_the_action_rolls():
    """A car alone, 3 laps of 44 units with action squares on units 10, 20, 30 and 40: the share it does not finish
    is what the rulebook's dice give, worked out exactly (a Markov chain over its position: each roll of the die
    1–6, an action roll on arriving on a square — 1 out, 2 back three, 3 back two, 4 nothing, 5 on two, 6 on
    three, its move no second action roll). About 12 squares × 2/7 landed on × 1/6: 44 %; exactly 46.5 %."""
    from generator.games.f1_dice.facts import facts as game_facts
    from generator.games.f1_dice.simulate import F1Setup, batch

    units, laps, squares = 44, 3, (10, 20, 30, 40)
    effects = [("none", 0)] * 7
    for row in game_facts().actions.rolls:
        effects[row.roll] = (row.effect, row.units or 0)
    end = units * laps
    marked = {p for p in range(1, end + 1) if (p - 1) % units + 1 in squares}
    finish = [0.0] * (end + 1)  # the chance to finish from each position, iterated to its fixed point
    for _ in range(300):
        for p in range(end, -1, -1):
            total = 0.0
            for roll in range(1, 7):
                q = p + roll
                if q > end:
                    total += 1
                elif q in marked:
                    after = [q + effects[a][1] if effects[a][0] == "move" else q for a in range(2, 7)]
                    total += sum(1.0 if x > end else finish[x] for x in after) / 6
                else:
                    total += finish[q]
            finish[p] = total / 6
    exact = 1 - finish[0]
    assert 0.46 < exact < 0.47
    setup = F1Setup(
        units=units, laps=laps, room=2, action=frozenset(squares), effects=tuple(effects), grid=(0,),
        qualifying=((0, 0, 0),), tie=((0, 0, 0),), drop=(), tier=("midfield",), die=6, least=1,
    )  # fmt: skip
    races = 4000
    tally = batch(setup, 3, 0, races)
    rate = tally.count("dnf", "accident or engine") / races
    assert abs(rate - exact) < 3 * (exact * (1 - exact) / races) ** 0.5  # within three standard errors


def test_the_dnf_warnings_say_what_puts_cars_out():
    from generator.games.f1_dice.simulate import F1Setup, _warnings
    from generator.games.formula_d.simulate.report import warnings

    setup = F1Setup(
        units=44, laps=3, room=2, action=frozenset({10, 20, 30, 40}), effects=(("none", 0),) * 7, grid=(0,),
        qualifying=((0, 0, 0),), tie=((0, 0, 0),), drop=(), tier=("midfield",), die=6, least=1,
    )  # fmt: skip
    (line,) = _warnings(200, 0.48, 0.1, {}, {"accident or engine": 11.6}, 69.4, setup, 10)
    assert line.startswith("DNF rate 48 %: 4 action squares a lap × 3 laps make 69 action rolls a race")
    assert "a 1 retires the car (11.6 a race)" in line and "the spec's action_every, now 10" in line
    assert "not the layout" in line and "--laps" in line
    corners = [{"corner": k, "label": f"corner {k}", "overtakes_per_race": 1, "wp_lost_per_race": 1} for k in (1, 2)]
    (line,) = warnings(corners, [], 0.25, 0.1, 10, 200, {"overshoot": {1: 1.9, 0: 0.1}, "engine": {0: 0.3}})
    assert line == "DNF rate 25 %: most by overshoot, 2.0 cars a race (1.9 of them at corner 2)"


# ------------------------------------------------------------------------------------------------ the command


def test_the_report_is_the_same_on_any_number_of_processes(capsys):
    args = ("simulate", "--races", "60", "--json", "-q", "--seed", "4")
    one = run_cli(capsys, *args)[1]
    assert run_cli(capsys, *args, "--jobs", "2")[1] == one and json.loads(one)["warnings"]


def test_simulate_json_and_its_seed(capsys):
    args = ("simulate", "--game", "formula-d", "--races", "4", "--cars", "4", "--ai", "simple", "--json", "-q")
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    data = json.loads(out)
    for key in ("turns", "overtakes", "dnf_rate", "corners", "straights", "pole_wins", "hand_made", "assumptions"):
        assert key in data
    assert data["hand_made"]["stops_per_lap"] == 9 and len(data["corners"]) == 5  # 1 + 2 + 2 + 3 + 1
    assert {a["key"] for a in data["assumptions"]} == {"brake_wp", "pit_roll", "downshift3_engine"}
    assert run_cli(capsys, *args)[1] == out  # the same seed: the same races
    assert run_cli(capsys, *args, "--seed", "2")[1] != out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--game", "monaco"), "cannot simulate"),
        (("--game", "formula-d", "--rules", "nitro"), "--rules nitro: no such optional rule"),
        (("--game", "formula-d", "--assume", "brakes"), "write KEY=N"),
        (("--game", "formula-d", "--assume", "brake_wp=9"), "brake_wp=9: give a whole number from 1 to 3"),
        (("--game", "formula-d", "--cars", "11"), "--cars 11: the board has 10 grid slots"),
        (("--game", "formula-d", "--ai", "genius"), "--ai genius"),
        (("--game", "f1-dice", "--rules", "slipstream"), "no such f1-dice rule"),
        (("a.yaml", "b.yaml", "c.yaml"), "3 circuits given: simulate races one, or compares two"),
        (
            (
                "--races",
                "0",
            ),
            "--races",
        ),
    ],
)
def test_simulate_refuses_bad_input_in_one_line(capsys, args, message):
    code, out, err = run_cli(capsys, "simulate", *args, "-q", "--json")
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_report_sheet(capsys, tmp_path):
    code, out, err = run_cli(
        capsys, "simulate", "--game", "formula-d", "--races", "6", "--cars", "6", "--ai", "simple", "-o", str(tmp_path)
    )
    assert code == 0, err
    assert "Turns per race" in out and "assumed: brake WP per space not moved = 1" in out
    folder = tmp_path / "simulate"
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    stem = "circuit-de-la-garenne-formula-d-sim"
    assert names == [f"{stem}-1.pdf", f"{stem}-1.png", f"{stem}-2.pdf", f"{stem}-2.png", f"{stem}-print.pdf"]
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", "-layout", str(folder / f"{stem}-print.pdf"), "-"], capture_output=True, text=True
        ).stdout
        for words in ("Where places change", "Where wear points are lost", "Warnings for the designer", "Corners",
                      "Straights: the gears cars drive them in", "brake WP per space not moved"):  # fmt: skip
            assert words in text


RING = """name: My Ring
paper: a3
lanes: 2
segments:
  - straight: 250
  - arc: {radius: 60, angle: 180, turn: left}
  - straight: 250
  - arc: {radius: 60, angle: 180, turn: left}
"""


def test_the_readme_ring_raced_with_its_grid_in_a_corner(tmp_path):
    """The README's example board as Formula D prints it, its start where the spec begins: its 2-space-deep
    straights leave the grid in the second hairpin. Held to that corner's stops, the front row was put out by its
    first move in every race; raced as Paddock reads it, the pole wins often and the designer is told to move the
    start. The report's maps show both corner numbers (off the track, outside its own box) inside the page, and
    the start line."""
    from generator.games.formula_d.simulate import simulate
    from generator.paper import PageSettings
    from generator.scene import Circle, Group
    from generator.simulate.sheet import PAPER, report_pages

    spec = tmp_path / "my-ring.yaml"
    spec.write_text(RING + "start: {at: 0}\n")  # the line where the spec begins: a Formula D board left to place
    report = simulate(spec, SimOptions(races=60, seed=3))  # its own start puts the grid on straight track
    data = report.data
    assert data["dnf_rate"] < 0.1 and data["pole_wins"] > 0.1
    assert report.warnings[0].startswith("grid slots 1–10 stand in corner 2: raced as starting there owing none")
    assert ("grid_owed", 0) in {(a.key, a.value) for a in report.assumptions}
    assert report.tables[0].columns[:2] == ("#", "Stops")  # no corner named: no empty Name column
    strict = simulate(spec, SimOptions(races=60, seed=3, assume={"grid_owed": 2}))
    assert strict.data["dnf_per_race"]["overshoot"] >= 2 and strict.data["pole_wins"] == 0  # the old reading
    page = report_pages(report, PageSettings().text_page(PAPER))[0]
    x0, y0, w, h = page.content_box
    circles = [c for c in page.layer("labels").items if isinstance(c, Circle)]
    assert len(circles) == 4  # corners 1 and 2 on each of the two maps
    for c in circles:
        assert x0 <= c.center[0] - c.r and c.center[0] + c.r <= x0 + w and y0 <= c.center[1] - c.r <= y0 + h
    (board, *_) = [g for g in page.layer("board").items if isinstance(g, Group)]
    assert any(getattr(i, "style", None) and i.style.stroke == "#000000" for i in board.items)  # the start line


def test_two_grid_slots_over_one_space_start_on_two(tmp_path):
    """The ring as a Formula D spec (its own spaces): the grid stands in a hairpin whose inside lane has fewer,
    shorter spaces, and two slots' centres fall on one of them. Each car starts on a space of its own."""
    from generator.games.formula_d.overlay import corner_marks, load_circuit
    from generator.games.formula_d.simulate import simulate
    from generator.games.formula_d.simulate.board import race_board

    spec = tmp_path / "ring-fd.yaml"
    spec.write_text(RING + "game: formula-d\n")
    circuit = load_circuit(spec)
    board = race_board(circuit, corner_marks(circuit))
    assert len(board.grid) == len(circuit.grid) == 10 and len(set(board.grid)) == 10
    for lane in (0, 1):  # rows behind rows: each lane's slots go back space by space
        idx = [board.index[s] for s in board.grid if board.lane[s] == lane]
        assert idx == sorted(idx, reverse=True)
    assert simulate(spec, SimOptions(races=4, ai="simple")).data["finishers_per_race"] > 0


def test_the_live_preview_lists_a_quick_runs_warnings(tmp_path):
    """``paddock preview --sim``: after each rebuild the page lists the quick run's warnings beside the board."""
    from generator.cli.simulate import preview_notes
    from generator.paper import PageSettings
    from generator.preview.state import build_view

    spec = tmp_path / "my-ring.yaml"
    spec.write_text(RING + "start: {at: 0}\n")  # the grid in a corner: a warning to list
    view = build_view(spec, PageSettings(), "formula-d", notes=preview_notes(spec, "formula-d", races=50))
    sim = [n["text"] for n in view.state["notes"] if n["source"] == "sim"]
    assert sim and sim[0].startswith("grid slots 1–10 stand in corner 2")
    (line,) = preview_notes(spec, "monaco", races=50)[0][1](None)
    assert line == "Paddock cannot simulate Monaco! races"


def test_check_sim_lists_the_quick_runs_warnings(capsys, monkeypatch):
    import generator.simulate as sim

    monkeypatch.setattr(sim, "QUICK_RACES", 6)
    from generator.cli import simulate as cli_sim

    monkeypatch.setattr(cli_sim, "QUICK_RACES", 6)
    from generator.track import shipped

    spec = next(p for p in shipped() if p.name == "formula-d-circuit.yaml")
    code, out, err = run_cli(capsys, "check", str(spec), "--sim")
    assert code == 0, err
    assert "OK: buildable" in out and "sim (6 races" in out
    code, out, err = run_cli(capsys, "check", str(spec), "--sim", "--json")
    assert json.loads(out)["sim"]["races"] == 6


def test_the_progress_bar_draws_only_on_a_terminal():
    import io

    from generator.simulate.progress import Progress

    quiet = io.StringIO()
    bar = Progress(10, stream=quiet)
    bar(5)
    bar(5)
    bar.close()
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    bar = Progress(10, stream=shown, force=True)
    bar(5)
    assert "5/10 races" in shown.getvalue()
    bar.close()
    assert shown.getvalue().endswith("\r\x1b[K")


def test_a_tally_adds_up_in_any_order():
    a, b = Tally(), Tally()
    a.add("turns", 20)
    b.add("turns", 20)
    b.add("dnf", "engine")
    assert merged([a, b]) == merged([b, a]) and merged([a, b]).hist("turns") == {20: 2}


@pytest.mark.parametrize(
    ("engine", "other_gear", "expect"),
    [
        (3, 5, 5),  # engine WP to spare: 5th down a long straight
        (2, 5, 5),  # one to lose: still worth it
        (1, 5, 4),  # its last: a 20 in 5th (its own, or the car in 5th beside) and a roll of 1-4 would put it out
        (1, 3, 4),  # its last, no one else in the top gears: its own 20 alone is risk enough
    ],
)
def test_the_strong_driver_keeps_its_last_engine_wp_out_of_the_top_gears(engine, other_gear, expect):
    """*Motor damage*: a 20 in 5th (or a 30 in 6th) makes every car in 5th or 6th roll for its engine, and a car
    that loses its last engine WP is out. On a long straight the strong driver changes up from 4th to 5th — unless
    its engine is down to one WP: then each move in 5th risks the race (its own 20, and each other car's in the top
    gears, times 4 in 20). Before it priced that risk, 9 % of the strong drivers' cars went out with a blown
    engine on the full-size default board."""
    from generator.games.formula_d.simulate.rules import gear_options

    rs, _ = rule_set(pit=False)
    r = race(ring(3, 120, ((100, 105, 1),), grid=2), ("strong", "strong"))
    me, other = r.cars
    place(r, other, sid3(120, 2, 40), gear=other_gear)
    place(r, me, sid3(120, 0, 10), gear=4, wp=(6, 3, 3, 3, engine, 2))
    options = gear_options(rs, 4, 3, 3, engine)
    assert me.driver.gear(r, me, options) == expect


def sid3(n: int, lane: int, index: int) -> int:
    return lane * n + index
