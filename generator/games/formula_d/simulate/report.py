"""From a run's tally to the report: key figures, the corner and straight tables, the charts, the board coloured
by overtakes and by wear, the designer's warnings, and the JSON (:class:`~generator.simulate.report.SimReport`).

Where a measure is placed: a *zone* is a corner and the straight before it (its *approach*); an overtake is
counted on the space of the car overtaken; wear is counted by the corner where it was lost — an overshoot's at the
corner overshot (on its last space), the rest where the move that cost it ended (a downshift where it was chosen);
places won or lost through a corner compare a car's place as it enters the zone with its place as it leaves the
corner. A *pass* of a corner is a car going through it (out of it, or over it on an overshoot); a corner's
overshoot share is its overshoots over its passes, its turns the moves that end inside it, per pass.

Every headline figure carries its 95 % confidence interval (``ci95``; the races are the independent units), so
two runs — two designs — can be told apart from their noise.
"""

from __future__ import annotations

import math

from ....simulate import MIN_RACES, too_few
from ....simulate.report import (
    Z95,
    Assumption,
    BoardPicture,
    Chart,
    Comparison,
    Difference,
    Figure,
    HeatMap,
    SimReport,
    Table,
    bars,
    hist_interval,
    interval,
    plus_minus,
    range_text,
    ratio_interval,
    rounded,
    share_interval,
    spread,
    start_marks,
)
from ....simulate.tally import Tally, hist_mean, moments, spearman_rho

CAUSES = ("overshoot", "blocked", "collision", "engine", "road handling", "stopped")
WP_LABELS = ("tires", "brakes", "gearbox", "car body", "engine", "road handling")
#: Warning thresholds (a designer's rules of thumb, Paddock's own).
DNF_WARN = 0.20  # share of cars not finishing
OVERSHOOT_WARN = 0.25  # share of a corner's passes overshot (issue 39: more than a quarter is a corner not taken)
SIXTH_NEVER = 0.05  # share of passes in 6th gear below which 6th is "hardly ever" reached
DECIDES_NOTHING = 0.34  # a corner whose share of overtakes and of wear are both under this × a fair share
POLE_WARN = 0.25  # pole wins this much more often than a fair share (1 in the field): overtaking is too hard
GEARS = ("1", "2", "3", "4", "5", "6")
#: How each computer driver is worded on the report.
DRIVERS = {
    "strong": "strong drivers (look ahead, weigh every roll)",
    "simple": "simple drivers (a newcomer's rules of thumb)",
    "mixed": "mixed drivers (simple and strong, alternating)",
}


def build_report(circuit, board, rs, taken, tally: Tally, settings: dict) -> SimReport:
    data, tables, charts, figures, extra = figures_of(board, rs, tally, settings)
    corner_data, straights = data["corners"], data["straights"]
    cars = settings["cars"]
    per = 1.0 / max(1, tally.count("races"))
    space_ov = {k[0]: v for k, v in tally.by("overtake").items()}
    for k, v in tally.by("start_overtake").items():
        space_ov[k[0]] = space_ov.get(k[0], 0) + v
    space_wp = {k[0]: v for k, v in tally.by("wp_space").items()}
    data["spaces"] = _spaces(board, space_ov, space_wp, per)
    report = SimReport(
        game="formula-d",
        board=circuit.spec.title if getattr(circuit.spec, "title", None) else circuit.name,
        source=settings.pop("file", None),
        title="how it plays",
        settings=settings,
        assumptions=[Assumption(*a) for a in taken],
        figures=figures,
        warnings=grid_warnings(board, cars, rs.grid_owed)
        + warnings(corner_data, straights, data["dnf_rate"], data["pole_wins"], cars, extra["races"], extra["where"]),
        tables=tables,
        charts=charts,
        data=data,
        drivers=DRIVERS.get(settings.get("ai") or ""),
        illustrate=lambda: _pictures(circuit, board, space_ov, space_wp, per),
    )
    return report


def figures_of(board, rs, tally: Tally, settings: dict) -> tuple:
    """The run's figures from its tally, needing no picture of the board: ``(data, tables, charts, figures,
    extra)`` — ``data`` the JSON's game figures (without the per-space list), ``extra`` what the warnings need."""
    races = max(1, tally.count("races"))
    cars = settings["cars"]
    corners = board.corners
    per = 1.0 / races
    turns = tally.hist("turns")
    rounds = tally.hist("rounds")
    finishers = hist_mean(tally.hist("finishers"))
    dnf = {cause: tally.count("dnf", cause) for cause in CAUSES if tally.count("dnf", cause)}
    dnf_rate = sum(dnf.values()) / (races * cars)
    dnf_ci = hist_interval(tally.hist("dnf_race"))
    overtakes = tally.hist("overtakes_race")
    start_overtakes = tally.hist("start_overtakes")
    ov_zone: dict = {}
    for (space,), v in tally.by("overtake").items():
        ov_zone[space] = v
    wp_zone: dict = {}
    for (zone, _), v in tally.by("wp").items():
        wp_zone[zone] = wp_zone.get(zone, 0) + v
    rows, corner_data = [], []
    for c in corners:
        k = c.index
        ov_in = sum(v for sp, v in ov_zone.items() if board.corner[sp] == k)
        ov_app = sum(v for sp, v in ov_zone.items() if board.zone[sp] == k and board.corner[sp] < 0)
        wp = wp_zone.get(k, 0)
        lines = {line: tally.count("stop", k, line) for line in ("inside", "middle", "outside")}
        stops_made = sum(lines.values()) or 1
        ov_lines = {line: tally.count("overtake_line", k, line) for line in ("inside", "middle", "outside")}
        dnfs = sum(v for (zone, _), v in tally.by("dnf_at").items() if zone == k)
        per_lane = [sum(1 for i in c.spaces if board.lane[i] == lane) for lane in range(board.lanes)]
        passes = tally.count("pass", k)
        shots = tally.count("overshoot", k)
        _, wp_mean, wp_var = moments(tally, ("corner_wp", k))

        entry = {
            "corner": k + 1,
            "name": c.name or None,
            "label": c.label,
            "stops": c.stops,
            "long": c.long,
            "short": c.short,
            "spaces_per_lane": per_lane,
            "passes_per_race": round(passes * per, 3),
            "overshoot_share": round(shots / passes, 4) if passes else None,
            "overshoot_share_ci95": rounded(share_interval(shots, passes), 4),
            "turns_in_corner": round(tally.count("in_corner", k) / passes, 3) if passes else None,
            "overtakes_per_race": round((ov_in + ov_app) * per, 3),
            "overtakes_in_corner_per_race": round(ov_in * per, 3),
            "overtakes_on_approach_per_race": round(ov_app * per, 3),
            "places_gained_per_race": round(tally.count("gained", k) * per, 3),
            "places_lost_per_race": round(tally.count("lost", k) * per, 3),
            "wp_lost_per_race": round(wp * per, 3),
            "wp_lost_per_race_ci95": rounded(interval(wp_mean, wp_var, races)),
            "wp_lost_by_zone_per_race": {
                WP_LABELS[z]: round(tally.count("wp", k, z) * per, 3) for z in range(6) if tally.count("wp", k, z)
            },
            "overshoots_per_race": round(shots * per, 3),
            "overshoot_spaces_per_race": round(tally.count("overshoot_spaces", k) * per, 3),
            "spins_per_race": round(tally.count("spin", k) * per, 3),
            "dnf_per_race": round(dnfs * per, 4),
            "stops_by_line": {line: round(n / stops_made, 3) for line, n in lines.items()},
            "overtakes_by_line": {line: round(n * per, 3) for line, n in ov_lines.items()},
        }
        corner_data.append(entry)
        inside = lines["inside"] / stops_made
        share = entry["overshoot_share"]
        rows.append(
            (
                str(k + 1),
                c.name if c.label != f"corner {k + 1}" else "",  # "C3" says nothing the number does not
                str(c.stops),
                f"{c.long}/{c.short}",
                f"{entry['overtakes_per_race']:.2f}",
                f"+{entry['places_gained_per_race']:.1f} / −{entry['places_lost_per_race']:.1f}",
                f"{entry['wp_lost_per_race']:.1f}",
                "–" if share is None else f"{100 * share:.0f} %",
                "–" if entry["turns_in_corner"] is None else f"{entry['turns_in_corner']:.1f}",
                f"{100 * entry['dnf_per_race'] / cars:.1f} %",
                f"{100 * inside:.0f} %",
            )
        )
    straights = []
    srows = []
    for c in corners:
        k = c.index
        visits = tally.count("visit", k)
        sixth = tally.count("sixth", k)
        lengths = [sum(1 for i in range(board.track_n) if board.zone[i] == k and board.corner[i] < 0
                       and board.lane[i] == ln) for ln in range(board.lanes)]  # fmt: skip
        share = sixth / visits if visits else 0.0
        if not any(lengths):  # corners back to back: no straight between them
            continue
        moves = sum(tally.count("gear_on", k, g) for g in range(1, 7))
        gears = {str(g): round(tally.count("gear_on", k, g) / moves, 4) if moves else 0.0 for g in range(1, 7)}
        straights.append(
            {
                "before_corner": k + 1,
                "name": f"before {c.label}",
                "main": k == board.main_zone,
                "spaces_per_lane": lengths,
                "gear_share": gears,
                "sixth_gear_share": round(share, 3),
            }
        )
        main = " (main straight)" if k == board.main_zone else ""
        srows.append(
            (f"to corner {k + 1}{main}", "/".join(map(str, lengths)))
            + tuple(f"{100 * gears[g]:.0f} %" if gears[g] else "–" for g in GEARS)
            + (f"{100 * share:.0f} %",)
        )
    win_from = tally.hist("win_from")
    wins = sum(win_from.values())
    pole = win_from.get(1, 0) / wins if wins else 0.0
    pole_ci = share_interval(win_from.get(1, 0), wins)
    rho = spearman_rho(tally.count("d2"), races, cars)
    stops_per_lap = sum(c.stops for c in corners)
    mean_turns = hist_mean(turns)
    turns_ci = hist_interval(turns)
    pits = tally.count("pit") * per
    moves = sum(tally.count("gear", g) for g in range(1, 7))
    gear_share = {str(g): round(tally.count("gear", g) / moves, 4) if moves else 0.0 for g in range(1, 7)}
    spt, spt_ci = ratio_interval(tally, "spaces", "turns_taken")
    fin_ci = hist_interval(tally.hist("finishers"))
    lap_ci = None if turns_ci is None else (turns_ci[0] / rs.laps, turns_ci[1] / rs.laps)
    headline = {
        "turns": (mean_turns, turns_ci),
        "turns_per_lap": (mean_turns / rs.laps, lap_ci),
        "spaces_per_turn": (spt, spt_ci),
        "dnf_rate": (dnf_rate, None if dnf_ci is None else (dnf_ci[0] / cars, dnf_ci[1] / cars)),
        "finishers_per_race": (finishers, fin_ci),
        "overtakes": (hist_mean(overtakes), hist_interval(overtakes)),
        "start_overtakes": (hist_mean(start_overtakes), hist_interval(start_overtakes)),
        "pole_wins": (pole, pole_ci),
    }
    data = {
        "laps": rs.laps,
        "headline": {
            key: {"mean": None if v != v else round(v, 4), "ci95": rounded(ci, 4)} for key, (v, ci) in headline.items()
        },
        "turns": spread(turns),
        "rounds": spread(rounds),
        "turns_per_lap": round(mean_turns / rs.laps, 2) if turns else None,
        "spaces_per_turn": None if spt != spt else round(spt, 3),
        "gear_share": gear_share,
        "finishers_per_race": round(finishers, 3),
        "dnf_rate": round(dnf_rate, 4),
        "dnf_per_race": {cause: round(v * per, 4) for cause, v in dnf.items()},
        "overtakes": spread(overtakes),
        "start_overtakes": spread(start_overtakes),
        "pit_stops_per_race": round(pits, 3),
        "pole_wins": round(pole, 4),
        "wins_by_grid": {str(g): round(v / wins, 4) for g, v in win_from.items()} if wins else {},
        "grid_finish_spearman": None if math.isnan(rho) else round(rho, 4),
        "hand_made": {
            "stops_per_lap": stops_per_lap,
            "stops_per_race": stops_per_lap * rs.laps,
            "spaces_per_corner": [{"corner": c.index + 1, "long": c.long, "short": c.short} for c in corners],
        },
        "corners": corner_data,
        "straights": straights,
        "drivers": _drivers(tally, races),
    }
    worst = sorted(dnf.items(), key=lambda kv: (-kv[1], kv[0]))
    nth = ("1st", "2nd", "3rd", "4th", "5th", "6th")
    top = ", ".join(f"{nth[i]} {100 * gear_share[g]:.0f} %" for i, g in enumerate(GEARS) if gear_share[g] >= 0.005)
    figures = [
        Figure("Turns per race (the winner's)", range_text(turns)),
        Figure("Turns per lap", f"{mean_turns / rs.laps:.2f}{plus_minus(lap_ci, 2)}" if turns else "–"),
        Figure("Spaces a car moves a turn", f"{spt:.2f}{plus_minus(spt_ci, 2)}" if spt == spt else "–"),
        Figure("Moves by gear", top or "–"),
        Figure("Stops per lap (the flags' sum)", f"{stops_per_lap} ({stops_per_lap * rs.laps} a race)"),
        Figure(
            "Finishers",
            f"{finishers:.1f} of {cars} (DNF {100 * dnf_rate:.1f}{plus_minus(headline['dnf_rate'][1], 1, 100)} %)",
        ),
        Figure(
            "Out of the race, per race",
            ", ".join(f"{cause} {v * per:.2f}" for cause, v in worst) or "none",
        ),
        Figure("Overtakes per race", range_text(overtakes)),
        Figure(
            "Overtakes at the start (first round)",
            f"{hist_mean(start_overtakes):.1f}{plus_minus(hist_interval(start_overtakes))}" if start_overtakes else "–",
        ),
        Figure("Pole wins", f"{100 * pole:.0f}{plus_minus(pole_ci, 0, 100)} % of races (fair: {100 / cars:.0f} %)"),
        Figure("Grid and finish (Spearman ρ)", "–" if math.isnan(rho) else f"{rho:.2f}"),
        Figure("Pit stops per race", f"{pits:.1f}"),
    ]
    if len(data["drivers"]) > 1:
        figures.append(
            Figure(
                "Average place by driver",
                ", ".join(f"{kind} {d['mean_place']:.1f}" for kind, d in sorted(data["drivers"].items())),
            )
        )
    columns = ("#", "Name", "Stops", "Long/short", "Overtakes", "Places won/lost", "WP lost", "Overshot",
               "Turns in it", "Out", "Stops inside")  # fmt: skip
    if not any(r[1] for r in rows):  # no corner named: no empty column
        columns, rows = columns[:1] + columns[2:], [r[:1] + r[2:] for r in rows]
    tables = [
        Table(
            "Corners",
            columns,
            tuple(rows),
            "Per race. Overtakes count in a corner and on the straight before it; WP lost by the corner where it "
            "was lost (an overshoot's at the corner overshot); places won or lost through a corner compare a car's "
            "place entering the straight before it with its place leaving the corner. 'Overshot': the share of "
            "passes that overshoot it; 'Turns in it': moves ending inside it, per pass; 'Out': the share of cars "
            "put out there; 'Stops inside': the share of stops made in the inside lane.",
        ),
        Table(
            "Straights: the gears cars drive them in",
            ("Straight", "Spaces per lane", "1st", "2nd", "3rd", "4th", "5th", "6th", "Passes in 6th"),
            tuple(srows),
            "The share of the moves made along each straight in each gear, and of cars' passes along it with a move "
            "in 6th gear.",
        ),
    ]
    charts = [
        Chart("Turns per race (the winner's)", *bars(turns), "{:.0%}"),
        Chart(
            "Wins by grid slot",
            tuple(str(g) for g in range(1, cars + 1)),
            tuple(win_from.get(g, 0) / wins if wins else 0.0 for g in range(1, cars + 1)),
            "{:.0%}",
            highlight=(0,),
        ),
        Chart("Moves by gear", GEARS, tuple(gear_share[g] for g in GEARS), "{:.0%}", "every move of every car"),
        Chart(
            "Overtakes per race, by corner",
            tuple(str(c.index + 1) for c in corners),
            tuple(d["overtakes_per_race"] for d in corner_data),
            "{:.1f}",
            "in the corner and on the straight before it",
        ),
        Chart(
            "Overshoots, share of passes, by corner",
            tuple(str(c.index + 1) for c in corners),
            tuple(d["overshoot_share"] or 0.0 for d in corner_data),
            "{:.0%}",
        ),
        Chart(
            "Wear points lost per race, by zone",
            WP_LABELS,
            tuple(sum(tally.count("wp", k, z) for k in range(-1, len(corners))) * per for z in range(6)),
            "{:.1f}",
        ),
    ]
    return data, tables, charts, figures, {"races": races, "where": _dnf_where(tally, per)}


def _dnf_where(tally: Tally, per: float) -> dict:
    """Cars put out per race, by cause, then by zone (-1: none)."""
    out: dict = {}
    for (zone, cause), v in tally.by("dnf_at").items():
        out.setdefault(cause, {})[zone] = v * per
    for (cause,) in tally.by("dnf"):  # causes with no place (a car stopped in the pits) still count
        out.setdefault(cause, {})
    return out


def warnings(
    corners: list[dict],
    straights: list[dict],
    dnf_rate: float,
    pole: float,
    cars: int,
    races: int,
    dnf_where: dict | None = None,
) -> list[str]:
    """What a designer should look at, from the figures: a main straight never taken in 6th gear, a corner
    overshot in more than a quarter of its passes (and the fix: a longer zone, a stop fewer), a corner that decides
    nothing, too many cars out (and what put most of them out, where), a pole that wins too often (none from too
    few races to tell). ``dnf_where``: cars out per race by cause, then by zone."""
    if races < MIN_RACES:
        return [too_few(races)]
    out = []
    for s in straights:
        if s["sixth_gear_share"] < SIXTH_NEVER and (s["main"] or max(s["spaces_per_lane"]) >= 21):
            which = "the main straight" if s["main"] else f"the straight to corner {s['before_corner']}"
            if s["sixth_gear_share"] == 0:
                out.append(f"6th gear is never reached on {which}")
            else:
                share = f"{100 * s['sixth_gear_share']:.1f} % of passes"
                out.append(f"6th gear is hardly ever reached on {which} ({share})")
    for c in corners:
        share = c.get("overshoot_share")
        if share is not None and share > OVERSHOOT_WARN:
            stops = c.get("stops")
            fewer = (
                f" or give it {stops - 1} stop{'s' if stops > 2 else ''} instead of {stops}"
                if stops and stops > 1
                else ""
            )
            out.append(
                f"{c['label']} is overshot in {100 * share:.0f} % of passes: draw its zone a space or two longer "
                f"(its entry earlier){fewer}"
            )
    fair = 1.0 / max(1, len(corners))
    ov = sum(x["overtakes_per_race"] for x in corners)
    wp = sum(x["wp_lost_per_race"] for x in corners)
    idle = []
    for c in corners:
        ov_share = c["overtakes_per_race"] / ov if ov else 0.0
        wp_share = c["wp_lost_per_race"] / wp if wp else 0.0
        if len(corners) > 1 and ov_share < DECIDES_NOTHING * fair and wp_share < DECIDES_NOTHING * fair:
            idle.append((ov_share + wp_share, c["label"], ov_share, wp_share))
    for _, label, ov_share, wp_share in sorted(idle)[:3]:
        share = f"{100 * ov_share:.0f} % of the overtakes and {100 * wp_share:.0f} % of the wear"
        out.append(f"{label} decides nothing: {share}")
    if len(idle) > 3:
        out.append(f"… and {len(idle) - 3} more corners decide next to nothing (see the corners table)")
    if dnf_rate >= DNF_WARN:
        out.append(_dnf_warning(dnf_rate, dnf_where or {}, corners))
    if pole >= 1 / max(1, cars) + POLE_WARN:
        out.append(f"pole wins {100 * pole:.0f} % of races (1 in {cars} would be fair): overtaking is too hard")
    return out


def _dnf_warning(rate: float, where: dict, corners: list[dict]) -> str:
    """``DNF rate 25 %: most by overshoot, 2.0 cars a race (1.9 of them at corner 1)``: a corner named where it
    puts out half of them or more (an overshoot counts at the corner overshot, the rest in a corner's zone)."""
    head = f"DNF rate {100 * rate:.0f} %"
    totals = {cause: sum(z.values()) for cause, z in where.items()}
    if not totals or not any(totals.values()):
        return f"{head}: that many cars do not finish"
    cause = min(totals, key=lambda c: (-totals[c], c))
    zones = where[cause]
    text = f"{head}: most by {cause}, {totals[cause]:.1f} cars a race"
    named = {c["corner"] - 1: c["label"] for c in corners}
    zone = min(zones, key=lambda z: (-zones[z], z)) if zones else -1
    if zone in named and zones[zone] >= 0.5 * totals[cause]:
        text += f" ({zones[zone]:.1f} of them at {named[zone]})"
    return text


def grid_warnings(board, cars: int, owed: int) -> list[str]:
    """Grid slots standing inside a corner, by corner: the board's fault, whatever the race makes of it (a
    warning even after a short run)."""
    by: dict[int, list[int]] = {}
    for slot, space in enumerate(board.grid[:cars], 1):
        if board.corner[space] >= 0:
            by.setdefault(board.corner[space], []).append(slot)
    out = []
    for k, slots in sorted(by.items()):
        c = board.corners[k]
        which = f"grid slot {slots[0]}" if len(slots) == 1 else f"grid slots {_runs(slots)}"
        owes = f"owing {min(owed, c.stops)} of its {c.stops} stops" if owed else "owing none of its stops"
        out.append(
            f"{which} stand{'s' if len(slots) == 1 else ''} in {c.label}: raced as starting there {owes} "
            "(--assume grid_owed=N); move the start ('start.at') so the grid stands on a straight"
        )
    return out


def _runs(numbers: list[int]) -> str:
    """``1–4, 7``."""
    parts, start = [], numbers[0]
    for a, b in zip(numbers, numbers[1:] + [None], strict=True):
        if b != a + 1:
            parts.append(str(start) if start == a else f"{start}–{a}")
            start = b
    return ", ".join(parts)


def _drivers(tally: Tally, races: int) -> dict:
    out = {}
    for (kind, place), v in tally.by("place").items():
        d = out.setdefault(kind, {"cars": 0, "sum": 0})
        d["cars"] += v
        d["sum"] += v * place
    wins = {k[0]: v for k, v in tally.by("win_kind").items()}
    return {
        kind: {
            "mean_place": round(d["sum"] / d["cars"], 3),
            "wins": round(wins.get(kind, 0) / races, 4),
            "cars_per_race": round(d["cars"] / races, 2),
        }
        for kind, d in sorted(out.items())
    }


def _spaces(board, overtakes: dict, wear: dict, per: float) -> list[dict]:
    """Every space where anything happened: lane (1 = left; ``"pit"``: the pit lane), space number in its lane (1 =
    first after the line; in the pit lane: from its entry)."""
    out = []
    for s in sorted(set(overtakes) | set(wear)):
        out.append(
            {
                "lane": board.lane[s] + 1 if s < board.track_n else "pit",
                "space": board.index[s] + 1,
                "overtakes_per_race": round(overtakes.get(s, 0) * per, 4),
                "wp_lost_per_race": round(wear.get(s, 0) * per, 4),
            }
        )
    return out


def _pictures(circuit, board, overtakes: dict, wear: dict, per: float):
    """The board as printed (track, kerbs, spaces, pit and grid), two heat maps on its spaces, corner numbers."""
    from ....scene import bounds
    from ..overlay import formula_d_board

    page = formula_d_board(circuit=circuit)
    items = tuple(it for name in ("track", "kerbs", "units", "features", "bridges") for it in page.layer(name).items)
    box = bounds(page.layer("track").items) or (0.0, 0.0, page.width, page.height)
    pad = 10.0
    box = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
    g = circuit.graph
    labels = []
    for c, k in zip(circuit.corners, board.corners, strict=True):
        mid = (c.s_start + ((c.s_end - c.s_start) % circuit.lap_length) / 2) % circuit.lap_length
        outside = -1.0 if c.direction == "left" else 1.0
        x, y = circuit.offset_point(mid, outside * (circuit.half_width + circuit.kerb_width + 16.0))
        labels.append((x, y, str(k.index + 1)))

    def outline(space: int) -> tuple:
        if space < board.track_n:
            return g.spaces[space].polygon
        return _pit_space(circuit, space - board.track_n)

    cells_ov = tuple((outline(s), v * per) for s, v in sorted(overtakes.items()))
    cells_wp = tuple((outline(s), v * per) for s, v in sorted(wear.items()))
    maps = [
        HeatMap("Where places change", cells_ov, "overtakes per race on a space", "blue", "{:.2f}"),
        HeatMap("Where wear points are lost", cells_wp, "WP lost per race on a space", "red", "{:.2f}"),
    ]
    return maps, BoardPicture(items, box, tuple(labels), _corner_lines(circuit) + start_marks(circuit))


def _corner_lines(circuit) -> tuple:
    """Where each corner begins and ends: its stepped entry and exit lines as the board prints them, drawn over the
    heat (white under black, so they read on the darkest cells)."""
    from ....scene import Polyline, Style
    from ..overlay import corner_marks, stepped_line

    width = max(0.6, circuit.half_width * 0.08)
    out = []
    for m in corner_marks(circuit):
        lim = m.paths.limits
        for edges in (lim.entry, lim.exit):
            pts = stepped_line(circuit, edges, 1.2)
            out.append(Polyline(pts, Style(stroke="#ffffff", width=width * 2.4, join="miter")))
            out.append(Polyline(pts, Style(stroke="#000000", width=width, join="miter")))
    return tuple(out)


def _pit_space(circuit, j: int) -> tuple:
    """The outline of the pit lane's ``j``-th space (between its unit lines ``j`` and ``j + 1``), board mm."""
    from ....track.circuit import PIT_GAP

    pit = circuit.pit
    cuts = list(pit.unit_s) or [pit.s0 + pit.taper, pit.s1 - pit.taper]
    j = min(j, len(cuts) - 2)
    sign = 1.0 if pit.side == "left" else -1.0
    inner, outer = sign * (circuit.half_width + PIT_GAP), sign * (circuit.half_width + PIT_GAP + pit.width)
    return tuple(map(tuple, circuit.strip(cuts[j], cuts[j + 1], max(inner, outer), min(inner, outer))))


# ------------------------------------------------------------------------------------------------ two designs


def split(tally: Tally) -> tuple[Tally, Tally, Tally]:
    """A :func:`~.race.pair_batch` tally as the first design's, the second's and the paired differences."""
    parts = (Tally(), Tally(), Tally())
    for key, v in tally.items():
        parts[{0: 0, 1: 1, "pair": 2}[key[0]]][key[1:]] = v
    return parts


def compare_reports(ra: SimReport, rb: SimReport, ta: Tally, tb: Tally, pairs: Tally, ba, bb) -> Comparison:
    """The two reports and their differences: the headline figures from the races paired (the same dice), the
    corners' overshoot shares as two shares, their WP lost paired — corner by corner when the boards have as many
    corners."""
    from .race import MILLIONTHS

    da, db = ra.data["headline"], rb.data["headline"]
    cars = ra.settings["cars"]
    diffs = []

    def paired(key, label, name, digits=2, scale=1.0, unit="", per=1.0):
        n, mean, var = moments(pairs, name)
        a, b = da[key]["mean"], db[key]["mean"]
        if a is None or b is None:
            return
        ci = interval(mean * per, var * per * per, n)
        diffs.append(Difference(key, label, a, b, ci, digits, scale, unit))

    paired("turns", "turns per race (the winner's)", "turns", 1)
    laps = ra.data["laps"]
    paired("turns_per_lap", "turns per lap", "turns", 2, per=1 / laps)
    paired("spaces_per_turn", "spaces a car moves a turn", "spaces_per_turn", 2, per=1 / MILLIONTHS)
    paired("dnf_rate", "cars out of the race", "dnf", 1, 100, " %", per=1 / cars)
    paired("overtakes", "overtakes per race", "overtakes", 1)
    paired("start_overtakes", "overtakes at the start", "start_overtakes", 1)
    paired("pole_wins", "pole wins", "pole_win", 0, 100, " %")
    note = ""
    ca, cb = ra.data["corners"], rb.data["corners"]
    if len(ca) == len(cb):
        for k, (x, y) in enumerate(zip(ca, cb, strict=True)):
            na, nb = ta.count("pass", k), tb.count("pass", k)
            if na and nb:
                pa, pb = ta.count("overshoot", k) / na, tb.count("overshoot", k) / nb
                se = math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
                ci = (pb - pa - Z95 * se, pb - pa + Z95 * se) if se > 0 else None
                label = f"{x['label']}: overshot (share of passes)"
                key = f"corner_{k + 1}_overshoot_share"
                diffs.append(Difference(key, label, pa, pb, ci, 0, 100, " %"))
            n, mean, var = moments(pairs, ("corner_wp", k))
            label = f"{x['label']}: WP lost a race"
            wa, wb = x["wp_lost_per_race"], y["wp_lost_per_race"]
            diffs.append(Difference(f"corner_{k + 1}_wp_lost_per_race", label, wa, wb, interval(mean, var, n), 1))
    else:
        note = f"corners not compared: the boards have {len(ca)} and {len(cb)} corners"
    return Comparison(ra, rb, diffs, note)
