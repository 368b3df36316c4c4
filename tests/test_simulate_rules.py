"""Formula D's rules in the simulation against cases worked by hand from ``../shared/rules/formula-d.txt``, on a
hand-made ring whose spaces line up lane to lane (``tests/sim_boards.py``): space j of every lane is level, a
corner is the same spaces in every lane."""

from __future__ import annotations

import pytest
from sim_boards import Fixed, black, face, place, race, ring

from generator.games.formula_d.simulate.rules import (
    BODY,
    BRAKES,
    ENGINE,
    GEARBOX,
    OUT,
    TIRES,
    blocked_cost,
    downshift_cost,
    gear_options,
    rule_set,
)

N = 40  # spaces in each lane of the ring


def sid(lane: int, index: int) -> int:
    return lane * N + index


def one_car(corners=((10, 12, 1),), driver=None, script=(), **kw):
    board = ring(3, N, corners)
    r = race(board, ("fixed",), script=script, drivers={"fixed": driver or Fixed()}, **kw)
    return r, r.cars[0]


def full_move(r, car, roll):
    """The options of a ``roll`` that move the whole roll (no braking)."""
    layers = r.layers(car, roll)
    return [o for o in r.options(car, roll, layers) if o[1] == roll and o[2] == 0 and not o[5]]


# ------------------------------------------------------------------------------------------------ overshooting


@pytest.mark.parametrize(
    ("tires", "roll", "expect"),
    [
        # the corner is spaces 10–12 and needs 1 stop; from space 9 a roll of 4 ends on 13: one space beyond it
        (6, 4, (None, 5, False)),  # one space: one tire WP
        (6, 5, (None, 4, False)),  # two spaces: two tire WP
        (2, 5, ("spin", 0, True)),  # two spaces with two tire WP left: the last one goes, the car spins
        (1, 4, ("spin", 0, True)),  # the last tire WP: spin
        (1, 5, ("out", 0, False)),  # more tire WP than the car has: out
        (0, 4, ("spin", 0, True)),  # no tire WP left: one space spins it again
        (0, 5, ("out", 0, False)),  # no tire WP left: more than one space puts it out
    ],
)
def test_overshooting_a_one_stop_corner(tires, roll, expect):
    r, car = one_car()
    place(r, car, sid(1, 9), gear=2, wp=(tires, 3, 3, 3, 3, 2))
    options = full_move(r, car, roll)
    assert options and {o[0] for o in options} == {sid(lane, 9 + roll) for lane in range(3)}
    cause, left, _, spin = r.assess(car, options[0])
    what = "out" if cause == "overshoot" else "spin" if spin else None
    assert (what, left if what != "out" else 0, spin) == expect


def test_a_spin_leaves_the_car_where_it_stopped_to_start_again_in_first():
    r, car = one_car(driver=Fixed(gear=2, end=sid(1, 13)), script=[face(rule_set()[0], 2, 4)])
    place(r, car, sid(1, 9), gear=2, wp=(1, 3, 3, 3, 3, 2))
    r.turn(car)
    assert car.space == sid(1, 13) and car.wp[TIRES] == 0 and car.gear == 1 and car.forced == (1,)
    assert r.t.count("spin", 0) == 1 and r.t.count("overshoot_spaces", 0) == 1


@pytest.mark.parametrize(
    ("stops", "made", "out"),
    [(2, 0, True), (2, 1, False), (3, 0, True), (3, 1, True), (3, 2, False)],
)
def test_too_few_stops_put_the_car_out(stops, made, out):
    """Overshooting: a 2-stop corner with no stop, a 3-stop corner with none or one, removes the car."""
    r, car = one_car(corners=((10, 12, stops),))
    place(r, car, sid(1, 11), gear=2, made=made, wp=(6, 3, 3, 3, 3, 2))
    (option, *_) = full_move(r, car, 2)  # 11 → 13: one space beyond the corner
    cause, tires, _, _ = r.assess(car, option)
    assert (cause == "overshoot") is out
    if not out:
        assert tires == 5


def test_braking_avoids_the_overshoot_for_brake_wp():
    r, car = one_car(driver=Fixed(gear=2, end=sid(1, 12)), script=[face(rule_set()[0], 2, 4)])
    place(r, car, sid(1, 9), gear=2)
    r.turn(car)  # rolls 4, brakes one space to stop on the corner's last space
    assert car.space == sid(1, 12) and car.wp[BRAKES] == 2 and car.wp[TIRES] == 6 and car.made == 1


def test_an_overshoot_into_the_next_corner_is_no_stop_there():
    r, car = one_car(
        corners=((10, 12, 1), (14, 16, 1)), driver=Fixed(gear=2, end=sid(1, 14)), script=[face(rule_set()[0], 2, 4)]
    )
    place(r, car, sid(1, 10), gear=2)
    r.turn(car)  # 10 → 14: leaves corner 1 without its stop, ends in corner 2
    assert car.space == sid(1, 14) and car.wp[TIRES] == 4 and car.cur == 1 and car.made == 0


# ------------------------------------------------------------------------------------------------ gears


def test_a_downshift_of_three_gears():
    rs, taken = rule_set()
    assert downshift_cost(rs, 6, 2) == (1, 1, 1)  # gearbox 1, brakes 1, engine: the assumed 1
    assert taken[0][:3] == ("downshift3_engine", "engine WP for skipping 3 gears", 1)
    assert downshift_cost(rs, 4, 1) == (1, 1, 0)  # two gears skipped
    assert downshift_cost(rs, 6, 4) == (1, 0, 0)  # one
    assert downshift_cost(rs, 6, 5) == (0, 0, 0)
    assert gear_options(rs, 6, 3, 3, 3) == [2, 3, 4, 5, 6]  # never 6th to 1st; never up two
    assert gear_options(rs, 6, 0, 3, 3) == [5, 6]  # no gearbox WP: down one at a time
    assert gear_options(rs, 1, 3, 3, 3) == [1, 2]
    r, car = one_car(driver=Fixed(gear=2), script=[face(rs, 2, 2)])
    place(r, car, sid(1, 0), gear=6)
    r.turn(car)
    assert (car.gear, car.wp[GEARBOX], car.wp[BRAKES], car.wp[ENGINE]) == (2, 2, 2, 2)


def test_the_engine_wp_of_a_three_gear_downshift_can_be_given():
    rs, taken = rule_set(assume={"downshift3_engine": 2})
    assert downshift_cost(rs, 6, 2) == (1, 1, 2)
    assert ("downshift3_engine", "engine WP for skipping 3 gears", 2, "given with --assume") in taken


# ------------------------------------------------------------------------------------------------ blocking


def blocker(r, space):
    other = r.cars[0].__class__(1, "fixed", r.cars[0].driver, space, 2, r.rs.build, 0, 0.0)
    r.cars.append(other)
    return place(r, other, space)


@pytest.mark.parametrize(("roll", "paid"), [(2, (2, 0)), (3, (3, 0)), (4, (3, 1)), (6, (3, 3))])
def test_an_overshooting_car_blocked_on_a_corner_exit(roll, paid):
    """*Overshooting*: coming out of a corner the overshooting car may not change lanes; blocked by a car it
    cannot drive round it and has to brake. On the corner's last space without its stop, a car right past the
    exit blocks it: it stays and pays the blocked table."""
    r, car = one_car()
    place(r, car, sid(1, 12), gear=2, made=0)  # the corner's last space, its stop not made
    blocker(r, sid(1, 13))
    layers = r.layers(car, roll)
    assert len(layers) == 1  # not one space free: straight ahead is taken, a diagonal would overshoot sideways
    (option,) = r.options(car, roll, layers)
    assert option[:4] == (sid(1, 12), 0, 0, roll)
    cause, tires, brakes, _ = r.assess(car, option)
    assert cause is None and (3 - brakes, 6 - tires) == paid == blocked_cost(r.rs, roll)


@pytest.mark.parametrize("roll", [2, 3, 4])
def test_a_car_that_made_its_stops_leaves_a_corner_in_any_lane(roll):
    """The lane rule binds the overshooting car only: with its stop made, a car on the corner's last space with a
    car right past the exit goes round it, diagonally over the exit line, without paying anything."""
    r, car = one_car()
    place(r, car, sid(1, 12), gear=2, made=1)
    blocker(r, sid(1, 13))
    ends = {o[0] for o in full_move(r, car, roll)}
    assert ends == {sid(0, 12 + roll), sid(1, 12 + roll), sid(2, 12 + roll)} - {sid(1, 13)}
    for option in full_move(r, car, roll):
        assert r.assess(car, option) == (None, 6, 3, False)


def test_an_overshooting_car_keeps_its_lane_for_the_rest_of_the_move():
    """From the corner's second space without its stop, a roll of 5 takes the car 3 spaces past the exit: every
    end is in its own lane (the steps inside the corner may still change lanes, to 11 in lane 0 or 2 and on)."""
    r, car = one_car()
    place(r, car, sid(1, 10), gear=2, made=0)
    ends = {o[0] for o in full_move(r, car, 5)}
    assert ends == {sid(0, 15), sid(1, 15), sid(2, 15)}
    r2, car2 = one_car()
    place(r2, car2, sid(1, 12), gear=2, made=0)  # on the last space: the exit step and on, straight ahead
    assert {o[0] for o in full_move(r2, car2, 3)} == {sid(1, 15)}


def test_blocked_seven_spaces_or_without_the_wp_is_out():
    rs, _ = rule_set()
    assert blocked_cost(rs, 7) is None
    r, car = one_car()
    place(r, car, sid(1, 12), gear=2, made=0, wp=(6, 1, 3, 3, 3, 2))  # an overshooting car: it cannot go round
    blocker(r, sid(1, 13))
    (option,) = r.options(car, 2, r.layers(car, 2))
    assert r.assess(car, option)[0] == "blocked"  # two spaces cost two brake WP; it has one


def test_inside_the_corner_a_car_may_still_change_lanes_round_a_car():
    r, car = one_car()
    place(r, car, sid(1, 11), gear=2, made=0)
    blocker(r, sid(1, 13))
    ends = {o[0] for o in full_move(r, car, 3)}
    assert ends == {sid(0, 14), sid(2, 14)}  # overshooting: over to lane 0 or 2 inside the corner, then straight out


# ------------------------------------------------------------------------------------------------ the start


def test_a_start_roll_of_1_stalls_and_the_next_round_starts_in_first():
    rs, _ = rule_set()
    r, car = one_car(script=[black(1), face(rs, 1, 2)])
    start = car.space
    r.turn(car)
    assert car.space == start and car.start == 2 and r.t.count("stall") == 1
    r.turn(car)  # no black die this time: the 1st-gear die, a 2
    assert car.gear == 1 and (r.b.index[car.space] - r.b.index[start]) % N == 2


def test_a_start_roll_of_20_moves_four_spaces_in_first():
    r, car = one_car(script=[black(20)])
    start = car.space
    r.turn(car)
    assert car.gear == 1 and (r.b.index[car.space] - r.b.index[start]) % N == 4 and r.t.count("great_start") == 1


@pytest.mark.parametrize(
    ("owed", "expect"),
    [
        (None, ("run", 6)),  # Paddock's reading: a car starting inside a corner did not drive into it, owes nothing
        (1, ("run", 5)),  # owing one of two stops: one stop short, one space beyond the exit, one tire WP
        (2, ("out", 6)),  # owing both: a 2-stop corner left with no stop removes the car (the rulebook's table)
    ],
)
def test_a_grid_slot_inside_a_corner(owed, expect):
    """The pole stands on the last space of a 2-stop corner (spaces 36–39): its first move, a 1 in 1st gear, leaves
    the corner by one space."""
    rs, _ = rule_set()
    assume = {"grid_owed": owed} if owed is not None else None
    r, car = one_car(corners=((10, 12, 1), (36, 39, 2)), script=[black(10), face(rs, 1, 1)], assume=assume)
    assert car.space == sid(0, 39) and car.cur == 1 and car.made == 2 - (owed or 0)
    r.turn(car)
    assert ("out" if car.state == OUT else "run", car.wp[TIRES]) == expect
    if owed == 2:  # counted at the corner it overshot, not on the straight it ended on
        assert car.cause == "overshoot" and r.t.count("dnf_at", 1, "overshoot") == 1


def test_a_grid_in_a_corner_is_said_and_its_reading_given():
    from generator.games.formula_d.simulate.report import grid_warnings

    rs, taken = rule_set(grid_in_corner=True)
    assert rs.grid_owed == 0 and (taken[-1][0], taken[-1][2]) == ("grid_owed", 0)
    assert "grid_owed" not in {t[0] for t in rule_set()[1]}  # a grid on a straight assumes nothing
    board = ring(3, N, ((10, 12, 1), (37, 39, 2)), grid=9)  # rows of three on spaces 39, 38, 37: in the corner
    (line,) = grid_warnings(board, 9, 0)
    assert line.startswith("grid slots 1–9 stand in corner 2: raced as starting there owing none of its stops")
    assert grid_warnings(board, 9, 1)[0].count("owing 1 of its 2 stops") == 1
    assert grid_warnings(ring(3, N, ((10, 12, 1), (39, 39, 1)), grid=9), 9, 0)[0].startswith("grid slots 1–3 ")


# ------------------------------------------------------------------------------------------------ black die


def test_an_engine_check_after_a_30():
    """A 30 in 6th gear: after the move that car and every car in 5th or 6th roll for the engine; 1–4 costs one."""
    rs, _ = rule_set()
    script = [face(rs, 6, 30), black(4), black(5), black(1)]
    board = ring(3, 80, ((70, 72, 1),))
    r = race(board, ("fixed", "fixed", "fixed"), script=script, drivers={"fixed": Fixed(gear=6)})
    a, b, c = r.cars
    place(r, a, sid(0, 0), gear=6)
    place(r, b, sid(2, 45), gear=5)
    place(r, c, sid(2, 60), gear=4)  # in 4th: no check
    r.turn(a)  # 0 → 30: no one beside it, no collision roll
    assert r.b.index[a.space] == 30 and r.t.count("engine_test") == 1
    assert (a.wp[ENGINE], b.wp[ENGINE], c.wp[ENGINE]) == (2, 3, 3)  # a rolled 4, b rolled 5; c never rolled
    assert a.space in r.damage  # a damage marker where the engine lost a WP
    assert r.rng.values == [black(1)]  # nothing else rolled


def test_a_collision_roll_when_ending_beside_a_car():
    rs, _ = rule_set()
    r = race(ring(3, N), ("fixed", "fixed"), script=[face(rs, 2, 3), black(1)], drivers={"fixed": Fixed(gear=2)})
    a, b = r.cars
    place(r, a, sid(0, 20), gear=2, wp=(6, 3, 3, 1, 3, 2))
    place(r, b, sid(1, 23))
    r.turn(a)  # 20 → 23 in lane 0, beside b: rolls a 1 with its last car body WP
    assert a.state == OUT and a.cause == "collision" and a.wp[BODY] == 0
    assert r.t.count("dnf_at", r.b.zone[sid(0, 23)], "collision") == 1
