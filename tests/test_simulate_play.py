"""``paddock simulate``, round two: the rules as the rulebook words them (wear booked to the corner overshot, the
pit lane driven, an overtake only when the order of play changes), the figures a designer reads (per corner, per
straight, 95 % intervals), two designs compared, and an exact Markov chain against simulated races."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sim_boards import Fixed, black, face, place, race, ring

from generator.games.formula_d.simulate.race import Race, Setup, batch
from generator.games.formula_d.simulate.rules import OUT, PIT, RUN, TIRES, StaticReach, overshoot, rule_set
from generator.simulate import Cancelled
from generator.simulate.rng import race_random
from generator.simulate.runner import run
from generator.simulate.tally import Tally, hist_mean

N = 40
ROOT = Path(__file__).resolve().parents[1]


def sid(lane: int, index: int) -> int:
    return lane * N + index


# ------------------------------------------------------------------------------------------------ wear


def test_an_overshoots_wear_is_booked_to_the_corner_overshot():
    """A car on the first space of a 1-stop corner (spaces 10–12), no stop made, rolls 4 and ends on space 14, the
    first of the next corner: two spaces past the exit, two tire WP — lost at corner 1, not at corner 2 where the
    move ended (each corner's wear once equalled the previous corner's overshoots)."""
    rs, _ = rule_set()
    board = ring(3, N, ((10, 12, 1), (14, 16, 1)))
    r = race(board, ("fixed",), script=[face(rs, 2, 4)], drivers={"fixed": Fixed(gear=2, end=sid(1, 14))})
    car = place(r, r.cars[0], sid(1, 10), gear=2)
    r.turn(car)
    assert car.space == sid(1, 14) and car.wp[TIRES] == 4
    assert r.t.count("wp", 0, TIRES) == 2 and r.t.count("wp", 1, TIRES) == 0
    assert r.t.count("wp_space", sid(1, 12)) == 2  # on the overshot corner's last space, in the car's lane
    assert r.t.count("overshoot", 0) == 1 and r.t.count("pass", 0) == 1 and r.t.count("pass", 1) == 0


# ------------------------------------------------------------------------------------------------ the pit lane


class Pitting(Fixed):
    """Turns into the pit whenever it may."""

    def choose(self, race, car, gear, roll, layers):
        options = race.options(car, roll, layers)
        return next((o for o in options if o[5]), None) or super().choose(race, car, gear, roll, layers)


def pit_race(script, corners=((10, 12, 1),), pit=(30, 36, 5, (0, 1, 2, 3, 4)), gear=4):
    board = ring(3, N, corners, pit=pit)
    r = race(board, ("fixed",), script=script, drivers={"fixed": Pitting(gear=gear)})
    return r, place(r, r.cars[0], sid(0, 28), gear=2, wp=(2, 3, 3, 3, 3, 2))


def test_a_pit_stop_drives_to_the_cars_own_garage_and_a_slow_stop_leaves_from_it():
    """The pit lane turns off after space 30 of lane 0 and rejoins at 36, five spaces level with 31–35, a garage
    beside each. A car on 28 rolls 4 in 2nd (the least roll, 4): into the pit to its own garage (the first), all
    tire WP back; the black die's 15 is a slow stop. Next round it leaves the garage in 4th: a 7 takes it along the
    four pit spaces ahead, onto 36 and on to 38."""
    rs, _ = rule_set()
    r, car = pit_race([face(rs, 2, 4), black(15), face(rs, 4, 7)])
    r.turn(car)
    b = r.b
    assert car.state == PIT and car.space == b.pit.garage(0) == b.track_n and car.wp[TIRES] == 6
    assert r.t.count("pit") == 1 and r.t.count("pit_slow") == 1 and car.space not in r.occ
    r.turn(car)
    assert car.state == RUN and car.gear == 4 and b.index[car.space] == 38 and car.space < b.track_n


def test_a_quick_stop_moves_half_the_black_die_from_the_garage():
    """The black die's 6: a quick stop, out at once with 3 spaces in 4th — from the garage (the first pit space),
    so it stops on the pit lane's fourth space (it once rejoined the track 15 spaces on for nothing)."""
    rs, _ = rule_set()
    r, car = pit_race([face(rs, 2, 4), black(6)])
    r.turn(car)
    assert car.state == RUN and car.space == r.b.track_n + 3 and car.gear == 4
    assert r.t.count("pit_quick") == 1


def test_the_move_out_of_the_pits_obeys_the_corner_after_the_exit():
    """A 2-stop corner right after the pit exit (spaces 37–38). The last garage (pit space 5, level with 35) and a
    quick stop of 10: 5 spaces, over 36, 37 and 38 and out past the corner with no stop: out of the race, as any
    car (the exit move once stopped before the next corner at no cost)."""
    rs, _ = rule_set()
    r, car = pit_race([face(rs, 2, 4), black(10)], corners=((10, 12, 1), (37, 38, 2)), pit=(30, 36, 5, (4,)))
    r.turn(car)
    assert car.state == OUT and car.cause == "overshoot"
    assert r.t.count("dnf_at", 1, "overshoot") == 1


def test_a_pit_lane_over_the_line_completes_the_lap():
    """A pit lane from after space 36 round to 4 (over the start/finish line), the garage on its sixth space
    (level with space 2): a car turning in at the end of its first lap has crossed the line."""
    rs, _ = rule_set()
    r, car = pit_race([face(rs, 2, 4), black(15)], pit=(36, 4, 7, (5,)))
    place(r, car, sid(0, 34), gear=2, wp=(2, 3, 3, 3, 3, 2))
    r.turn(car)
    assert car.state == PIT and car.laps == 1 and r.b.index[car.space] == 5


# ------------------------------------------------------------------------------------------------ overtakes


def two_cars(script):
    rs, _ = rule_set()
    r = race(ring(3, N, ((30, 32, 1),)), ("fixed", "fixed"), script=script, drivers={"fixed": Fixed(gear=2)})
    a, b = r.cars
    place(r, a, sid(0, 5), gear=2)
    place(r, b, sid(2, 8), gear=2)
    r.round = 5
    r._sync(a)  # the order as the cars stand: b ahead
    return rs, r, a, b


def test_drawing_level_is_no_overtake_and_getting_clear_ahead_is_one():
    """a (lane 0) three spaces behind b (lane 2): a 3 puts it level — the order of play treats them as level, no
    overtake; next round a 2 puts it two spaces ahead: one overtake, counted on b's space."""
    rs = rule_set()[0]
    _, r, a, b = two_cars([face(rs, 2, 3), face(rs, 2, 2)])
    r.turn(a)
    r._held()
    assert r.b.index[a.space] == 8 and r.overtakes == [0, 0]
    r.round += 1
    r.turn(a)
    r._held()
    assert r.b.index[a.space] == 10 and r.overtakes == [0, 1] and r.t.count("overtake", b.space) == 1


def test_passed_and_passed_back_within_a_round_changes_no_place():
    rs = rule_set()[0]
    _, r, a, b = two_cars([face(rs, 2, 4), face(rs, 2, 3)])
    r.turn(a)  # 5 → 9: ahead of b on 8
    r.turn(b)  # 8 → 11: ahead again
    r._held()
    assert r.overtakes == [0, 0] and not r.t.count("overtake", sid(2, 8))


def test_overtakes_at_the_start_are_counted_apart():
    rs = rule_set()[0]
    _, r, a, b = two_cars([face(rs, 2, 4)])
    r.round = 1
    r.turn(a)
    r._held()
    assert r.overtakes == [1, 0] and r.t.count("start_overtake", b.space) == 1


# ------------------------------------------------------------------------------------------------ the chain


def target(index: int, made: int) -> int:
    """The fixed gear policy of the Markov check (a bold one, so that cars overshoot and some go out): in the corner
    (spaces 20–23) 1st until a stop is made, then 2nd; 1st within 2 spaces of it, 2nd within 6, else 3rd."""
    if 20 <= index <= 23:
        return 1 if made < 1 else 2
    to = (20 - index) % 30
    return 1 if to <= 2 else 2 if to <= 6 else 3


class Policy(Fixed):
    kind = "policy"

    def gear(self, race, car, options):
        if len(options) == 1:
            return options[0]
        want = target(race.b.index[car.space], car.made if car.cur >= 0 else 0)
        return max(car.gear - 1, min(car.gear + 1, want))


def chain(rs) -> tuple[float, float, float]:
    """The exact chance to finish, mean turns of a finish and mean overshoots a race of one car on a one-lane ring
    of 30 spaces with a 2-stop corner on 20–23, under :func:`target` — worked from the rulebook as a Markov chain
    over (distance from the grid, gear, stops made, tire WP, spun, started), independent of the engine. The car
    starts a space behind the line: 61 spaces make the race."""
    faces = rs.faces
    end = 61
    finish = turns = shots = 0.0
    # state → probability, probability × turns so far, probability × overshoots so far
    mass: dict = {(0, 1, 0, 6, 0, 1): [1.0, 0.0, 0.0]}

    def add(state, p, pt, ps):
        m = mass.setdefault(state, [0.0, 0.0, 0.0])
        m[0] += p
        m[1] += pt
        m[2] += ps

    def move(p, gear, made, tires, spaces, w, wt, ws):
        """The car at distance ``p`` moves ``spaces`` in ``gear`` (taken with weight ``w``)."""
        nonlocal finish, turns, shots
        q = p + spaces
        i0, i1 = (29 + p) % 30, (29 + q) % 30
        inside = 20 <= i0 <= 23
        first = p - (i0 - 20) if inside else p + (20 - i0) % 30  # the distance of the corner's first space
        over = None  # (stops made, spaces past the exit) of a corner left without its two stops
        if q > first + 3 and (not inside or made < 2):
            over = (made if inside else 0, q - (first + 3))
        spin = 0
        if over is not None:
            ws += w
            if over[0] == 0:  # a 2-stop corner left with no stop: out
                shots += ws
                return
            what, tires = overshoot(rs, tires, over[1])
            if what == "out":
                shots += ws
                return
            spin = 1 if what == "spin" else 0
        if q >= end:
            finish += w
            turns += wt
            shots += ws
            return
        now_inside = 20 <= i1 <= 23
        made = (0 if over is not None else made + 1 if inside else 1) if now_inside else 0
        add((q, 1 if spin else gear, made, tires, spin, 0), w, wt, ws)

    while mass:
        state = min(mass)  # the least distance first: every move goes forward
        p, gear, made, tires, spun, started = state
        w, wt, ws = mass.pop(state)
        wt += w  # this turn
        if started == 1:  # the start roll: 1 stalls, 20 moves 4 at once, else the 1st-gear die
            add((p, 1, made, tires, 0, 2), w / 20, wt / 20, ws / 20)
            move(p, 1, made, tires, 4, w / 20, wt / 20, ws / 20)
            rest = 18 / 20
        elif started == 2:
            rest = 1.0
        if started:
            for f in faces[1]:
                k = rest / len(faces[1])
                move(p, 1, made, tires, f, w * k, wt * k, ws * k)
            continue
        g = 1 if spun else max(gear - 1, min(gear + 1, target((29 + p) % 30, made)))
        for f in faces[g]:
            k = 1 / len(faces[g])
            move(p, g, made, tires, f, w * k, wt * k, ws * k)
    return finish, turns / finish, shots


def test_the_engine_agrees_with_an_exact_markov_chain():
    """One car, one lane, a 2-stop corner and a fixed gear policy: the chance to finish, the turns of a finish and
    the overshoots a race, worked exactly (:func:`chain`), against simulated races — within four standard
    errors. (With 20,000 races: 0.9690 against 0.9694, 19.297 turns against 19.306, 1.6108 against 1.6094.)"""
    rs, _ = rule_set(pit=False)
    p, turns, shots = chain(rs)
    assert 0.9 < p < 0.999 and 10 < turns < 40 and shots > 0.5  # the chain is not trivial
    board = ring(1, 30, ((20, 23, 2),), grid=1)
    setup = Setup(board, rs, ("policy",), StaticReach(board, (2,)), None)
    tally = Tally()
    races = 5000
    drivers = {"policy": Policy()}
    for i in range(races):
        Race(setup, race_random(11, i), tally, drivers).run()
    done = tally.count("finishers", 1)
    se = (p * (1 - p) / races) ** 0.5
    assert abs(done / races - p) < 4 * se
    hist = tally.hist("turns")
    mean = hist_mean(hist)
    sd = (sum(c * (v - mean) ** 2 for v, c in hist.items()) / done) ** 0.5
    assert abs(mean - turns) < 4 * sd / done**0.5
    assert abs(tally.count("overshoot", 0) / races - shots) < 4 * 1.5 / races**0.5  # a race's count: sd under 1.5


# ------------------------------------------------------------------------------------------------ the report


@pytest.fixture(scope="module")
def garenne_json():
    from generator.cli.simulate import quick_run  # noqa: F401  (the command's module loads as the CLI's does)
    from generator.games.formula_d.simulate import simulate
    from generator.simulate import SimOptions

    return simulate(None, SimOptions(races=40, ai="simple", seed=2)).as_dict()


def test_the_json_carries_what_a_designer_reads(garenne_json):
    d = garenne_json
    assert set(d["gear_share"]) == {"1", "2", "3", "4", "5", "6"} and abs(sum(d["gear_share"].values()) - 1) < 1e-3
    assert 2 < d["spaces_per_turn"] < 12
    for key in ("turns", "turns_per_lap", "spaces_per_turn", "dnf_rate", "overtakes", "start_overtakes", "pole_wins"):
        lo, hi = d["headline"][key]["ci95"]
        assert lo <= d["headline"][key]["mean"] <= hi, key
    assert d["overtakes"]["ci95"] and "start_overtakes" in d
    for c in d["corners"]:
        assert 0 <= c["overshoot_share"] <= 1 and c["turns_in_corner"] >= 0 and c["passes_per_race"] > 0
        assert c["wp_lost_per_race_ci95"] is not None
    for s in d["straights"]:
        assert set(s["gear_share"]) == set(d["gear_share"])
    assert any(s["lane"] == "pit" for s in d["spaces"]) or d["pit_stops_per_race"] == 0


def test_play_figures_for_a_built_board():
    """The board designer's check: race a circuit already built and read the figures back."""
    from generator.games.formula_d.overlay import load_circuit
    from generator.games.formula_d.simulate import play_figures

    circuit = load_circuit(None, garages=4)
    got = play_figures(circuit, races=20, seed=3, cars=4, ai="simple")
    assert got["cars"] == 4 and set(got["gear_share"]) == {"1", "2", "3", "4", "5", "6"}
    assert got["spaces_per_turn"] > 0 and len(got["corners"]) == 5
    assert all(0 <= c["overshoot_share"] <= 1 for c in got["corners"])


def test_the_weather_chart_is_the_packs_suggestion():
    from generator.games.formula_d import facts

    rs, _ = rule_set(("weather",))
    tops = tuple(int(v.replace("–", "-").split("-")[-1]) for v in facts.house().weather.value[:3])
    assert rs.weather_chart == tops


def test_a_small_field_is_warned_about_its_own_fair_share():
    from generator.games.formula_d.simulate.report import warnings

    assert warnings([], [], 0.0, 0.45, 4, 200) == []  # 4 cars: a fair share is 25 %, 45 % is no alarm
    (line,) = warnings([], [], 0.0, 0.45, 10, 200)
    assert line.startswith("pole wins 45 % of races (1 in 10 would be fair)")


# ------------------------------------------------------------------------------------------------ two designs


def test_two_designs_differing_by_one_corners_stops(tmp_path, capsys):
    """Paddock's compact board and the same board with Virage du Parc at 2 stops instead of 3, raced with the same dice:
    the corner's wear and its overshoot share are among the differences larger than their noise; corners the
    change cannot reach are not."""
    from generator.cli import main

    spec = ROOT / "track_specs" / "formula-d-compact.yaml"
    other = tmp_path / "b.yaml"
    text = spec.read_text()
    assert "stops: 3, name: Virage du Parc" in text
    other.write_text(text.replace("stops: 3, name: Virage du Parc", "stops: 2, name: Virage du Parc"))
    with pytest.raises(SystemExit) as exc:
        main(["simulate", str(spec), str(other), "--races", "40", "--ai", "simple", "--json", "-q"])
    out = capsys.readouterr()
    assert exc.value.code == 0, out.err
    d = json.loads(out.out)
    clear = {x["key"]: x for x in d["differences"]}
    assert "corner_5_wp_lost_per_race" in clear and clear["corner_5_wp_lost_per_race"]["difference"] < 0
    assert "corner_5_overshoot_share" in clear and "corner_2_overshoot_share" not in clear
    assert all(x["larger_than_noise"] for x in d["differences"])
    assert d["a"]["corners"][4]["stops"] == 3 and d["b"]["corners"][4]["stops"] == 2
    every = {x["key"] for x in d["compared"]}
    assert {"turns", "dnf_rate", "overtakes", "pole_wins", "spaces_per_turn"} <= every


def test_a_cancel_stops_a_run_and_its_workers():
    board = ring(3, N, ((10, 13, 2), (25, 27, 1)), grid=6)
    rs, _ = rule_set(pit=False)
    setup = Setup(board, rs, ("simple",) * 6, StaticReach(board, (2, 1)))
    asked = []

    def cancel():
        asked.append(1)
        return len(asked) > 2

    with pytest.raises(Cancelled):
        run(batch, setup, 40, 1, jobs=2, size=2, cancel=cancel)
    import multiprocessing

    assert not multiprocessing.active_children()


# ------------------------------------------------------------------------------------------------ interrupts


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find the workers")
@pytest.mark.parametrize(
    ("how", "when"),
    [("ctrl-c", "racing"), ("sigterm", "racing"), ("sigterm", "starting"), ("ctrl-c", "starting")],
)
def test_an_interrupted_run_says_one_line_writes_nothing_and_leaves_no_worker(tmp_path, how, when):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGTERM to the command, while the
    board is built or while its workers race: one line, exit 130, no file, no warning, no worker left."""
    out = tmp_path / "out"
    cmd = [sys.executable, "-c", "from generator.cli import main; main()", "simulate", "--game", "formula-d",
           "--races", "5000", "--ai", "simple", "--jobs", "3", "-o", str(out)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=ROOT, env={**os.environ, "PYTHONWARNINGS": "default"})  # fmt: skip
    workers: set[int] = set()
    deadline = time.monotonic() + 120  # a bound on waiting, never a measure: the run is far longer than this
    if when == "racing":
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            workers |= {p for p in _children(proc.pid) if "spawn_main" in _cmdline(p)}
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.3)
    else:  # while the board is built (shapely loaded: the command is under way)
        while "shapely" not in _maps(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    lines = err.strip().splitlines()
    assert proc.returncode == 130, err
    assert len(lines) == 1 and "interrupted" in lines[0], err
    assert "leaked" not in err and "Traceback" not in err
    assert not out.exists() or not any(p for p in out.rglob("*") if p.is_file())
    assert not [p for p in workers if _alive(p)]


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _maps(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "maps").read_text()
    except OSError:
        return ""


def test_a_table_of_five_and_the_specs_own_field(tmp_path):
    """Fields of 4–6: the report is for the field raced (its wins chart has a bar a car, the pole's fair share is
    1 in 5), and the quick run of ``check --sim`` and the live preview races the spec's own field (its grid)."""
    from generator.cli.simulate import quick_run
    from generator.games.formula_d.simulate import simulate
    from generator.simulate import SimOptions

    report = simulate(None, SimOptions(races=12, cars=5, ai="simple", seed=4))
    assert report.settings["cars"] == 5 and "5 cars" in report.subtitle
    wins = next(c for c in report.charts if c.title == "Wins by grid slot")
    assert wins.labels == ("1", "2", "3", "4", "5")
    assert any(f.value.endswith("(fair: 20 %)") for f in report.figures if f.label == "Pole wins")
    spec = tmp_path / "six.yaml"
    spec.write_text((ROOT / "track_specs" / "formula-d-circuit.yaml").read_text().replace("grid: 10", "grid: 6"))
    found = quick_run(spec, races=6, bar=False)
    assert "of 6" in found["figures"]["Finishers"]
