"""The *Monaco!* rule summary's numbers and tables (``templates/monaco/summary.yaml`` holds the words).

Everything comes from the facts the pack's other sheets print: the rulebook's numbers (``rules.yaml``: ratings,
squads, speeds, the turn roll, spin-offs, pits, collisions, points, seasons) and Paddock's road (``road.yaml``).
The worked examples are the rulebook's own (Marcel Proust at 13″), recomputed from those facts.
"""

from __future__ import annotations

from .facts import frac_in, ordinal, points_scale, road, rules, top_speed, turn_bands, turn_roll_add


def _in(v: float) -> str:
    return frac_in(v)


def values() -> dict[str, str]:
    r = rules()
    rd = road()
    sp = r.speed
    t = r.turn
    lane = rd.lane_width_in
    high, low = r.rating.max, r.rating.min
    per = r.cost_per_rating_point
    change = sp.change_per_turn
    given = dict(r.points.given)
    last = max(given)
    scale = points_scale()
    ex = r.examples
    speed, move_roll, turn_roll = ex.speed_in, ex.move_roll, ex.turn_roll
    add = turn_roll_add(speed)
    return {
        "double": "double",
        "quadruple": "quadruple",
        "double_in": _in(lane * rd.widths.double),
        "quadruple_in": _in(lane * rd.widths.quadruple),
        "squad_max": str(r.squad_max),
        "coll": _in(r.collision_distance_in),
        "low": str(low),
        "high": str(high),
        "proust_cost": str(2 * high * per),
        "rookie_cost": str(2 * low * per),
        "grid_gap": _in(r.grid_spacing_in).replace("″", " in"),
        "top": _in(sp.max),
        "change": _in(change),
        "free_angle": f"{t.free_angle_deg:g}°",
        "free_speed": _in(t.free_speed_in),
        "band": _in(t.band_in),
        "add": str(t.add),
        "bands": ", ".join(f"{lo}–{hi}″ adds {a}" if lo != hi else f"{lo}″ adds {a}" for lo, hi, a in turn_bands()),
        "restart": _in(r.spin_off.restart_speed_in),
        "start": _in(r.start_speed_in),
        "spin_add": str(r.spin_off.damage_roll_add),
        "out": str(r.damage_out_roll),
        "twice": "two" if r.collision.twice == 2 else str(r.collision.twice),
        "places": str(len(scale)),
        "points_name": f"{r.points.reading_name} ({'-'.join(map(str, scale))})",
        "given_1": str(given[1]),
        "given_2": str(given[2]),
        "given_last": str(given[last]),
        "given_last_place": ordinal(last),
        "bonus": str(r.race_win_rating_bonus),
        "ex_speed": _in(speed),
        "ex_roll": str(move_roll),
        "ex_fast": _in(min(speed + change, top_speed(high, high), move_roll + 2 * high)),
        "ex_slow": _in(speed - change),
        "ex_over": _in(speed - t.free_speed_in),
        "ex_add": str(add),
        "ex_die": str(turn_roll),
        "ex_total": str(turn_roll + add),
    }


def tables() -> dict[str, dict]:
    r = rules()
    per = r.cost_per_rating_point
    ratings = range(r.rating.min, r.rating.max + 1)
    scale = points_scale()
    return {
        "ratings": {
            "columns": ["rating", "cost in points", "reads as"],
            "rows": [[str(v), str(v * per), {ratings[0]: "weakest", ratings[-1]: "best"}.get(v, "")] for v in ratings],
        },
        "turn_roll": {
            "columns": ["speed", "add to the die"],
            "rows": [[f"{lo}–{hi}″" if lo != hi else f"{lo}″", f"+{a}"] for lo, hi, a in turn_bands()],
        },
        "points": {
            "columns": ["place", "points"],
            "rows": [[ordinal(i + 1), str(p)] for i, p in enumerate(scale)],
        },
    }
