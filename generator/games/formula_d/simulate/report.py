"""From a run's tally to the report: key figures, the corner and straight tables, the charts, the board coloured
by overtakes and by wear, the designer's warnings, and the JSON (:class:`~generator.simulate.report.SimReport`).

Where a measure is placed: a *zone* is a corner and the straight before it (its *approach*); an overtake is
counted on the space of the car overtaken; wear is counted where the move that cost it ended (a downshift where
it was chosen); places won or lost through a corner compare a car's place as it enters the zone with its place
as it leaves the corner.
"""

from __future__ import annotations

import math

from ....simulate import MIN_RACES, too_few
from ....simulate.report import (
    Assumption,
    BoardPicture,
    Chart,
    Figure,
    HeatMap,
    SimReport,
    Table,
    bars,
    range_text,
    spread,
    start_marks,
)
from ....simulate.tally import Tally, hist_mean, spearman_rho

CAUSES = ("overshoot", "blocked", "collision", "engine", "road handling", "stopped")
WP_LABELS = ("tires", "brakes", "gearbox", "car body", "engine", "road handling")
#: Warning thresholds (a designer's rules of thumb, Paddock's own).
DNF_WARN = 0.20  # share of cars not finishing
SIXTH_NEVER = 0.05  # share of passes in 6th gear below which 6th is "hardly ever" reached
DECIDES_NOTHING = 0.34  # a corner whose share of overtakes and of wear are both under this × a fair share
POLE_WARN = 0.35


def build_report(circuit, board, rs, taken, tally: Tally, settings: dict) -> SimReport:
    races = max(1, tally.count("races"))
    cars = settings["cars"]
    corners = board.corners
    per = 1.0 / races
    turns = tally.hist("turns")
    rounds = tally.hist("rounds")
    finishers = hist_mean(tally.hist("finishers"))
    dnf = {cause: tally.count("dnf", cause) for cause in CAUSES if tally.count("dnf", cause)}
    dnf_rate = sum(dnf.values()) / (races * cars)
    overtakes = tally.hist("overtakes_race")
    space_ov = {k[0]: v for k, v in tally.by("overtake").items()}
    space_wp = {k[0]: v for k, v in tally.by("wp_space").items()}
    wp_zone: dict = {}
    for (zone, _), v in tally.by("wp").items():
        wp_zone[zone] = wp_zone.get(zone, 0) + v
    rows, corner_data = [], []
    for c in corners:
        k = c.index
        ov_in = sum(v for s, v in space_ov.items() if board.corner[s] == k)
        ov_app = sum(v for s, v in space_ov.items() if board.zone[s] == k and board.corner[s] < 0)
        wp = wp_zone.get(k, 0)
        lines = {line: tally.count("stop", k, line) for line in ("inside", "middle", "outside")}
        stops_made = sum(lines.values()) or 1
        ov_lines = {line: tally.count("overtake_line", k, line) for line in ("inside", "middle", "outside")}
        dnfs = sum(v for (zone, _), v in tally.by("dnf_at").items() if zone == k)
        per_lane = [sum(1 for i in c.spaces if board.lane[i] == lane) for lane in range(board.lanes)]
        entry = {
            "corner": k + 1,
            "name": c.name or None,
            "label": c.label,
            "stops": c.stops,
            "long": c.long,
            "short": c.short,
            "spaces_per_lane": per_lane,
            "overtakes_per_race": round((ov_in + ov_app) * per, 3),
            "overtakes_in_corner_per_race": round(ov_in * per, 3),
            "overtakes_on_approach_per_race": round(ov_app * per, 3),
            "places_gained_per_race": round(tally.count("gained", k) * per, 3),
            "places_lost_per_race": round(tally.count("lost", k) * per, 3),
            "wp_lost_per_race": round(wp * per, 3),
            "wp_lost_by_zone_per_race": {
                WP_LABELS[z]: round(tally.count("wp", k, z) * per, 3) for z in range(6) if tally.count("wp", k, z)
            },
            "overshoots_per_race": round(tally.count("overshoot", k) * per, 3),
            "overshoot_spaces_per_race": round(tally.count("overshoot_spaces", k) * per, 3),
            "spins_per_race": round(tally.count("spin", k) * per, 3),
            "dnf_per_race": round(dnfs * per, 4),
            "stops_by_line": {line: round(n / stops_made, 3) for line, n in lines.items()},
            "overtakes_by_line": {line: round(n * per, 3) for line, n in ov_lines.items()},
        }
        corner_data.append(entry)
        inside = lines["inside"] / stops_made
        rows.append(
            (
                str(k + 1),
                c.name if c.label != f"corner {k + 1}" else "",  # "C3" says nothing the number does not
                str(c.stops),
                f"{c.long}/{c.short}",
                f"{entry['overtakes_per_race']:.2f}",
                f"+{entry['places_gained_per_race']:.1f} / −{entry['places_lost_per_race']:.1f}",
                f"{entry['wp_lost_per_race']:.1f}",
                f"{entry['overshoots_per_race']:.2f}",
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
        lengths = [sum(1 for i in range(board.n) if board.zone[i] == k and board.corner[i] < 0 and board.lane[i] == ln)
                   for ln in range(board.lanes)]  # fmt: skip
        share = sixth / visits if visits else 0.0
        if not any(lengths):  # corners back to back: no straight between them
            continue
        straights.append(
            {
                "before_corner": k + 1,
                "name": f"before {c.label}",
                "main": k == board.main_zone,
                "spaces_per_lane": lengths,
                "sixth_gear_share": round(share, 3),
            }
        )
        main = " (main straight)" if k == board.main_zone else ""
        srows.append((f"to corner {k + 1}{main}", "/".join(map(str, lengths)), f"{100 * share:.0f} %"))
    win_from = tally.hist("win_from")
    wins = sum(win_from.values())
    pole = win_from.get(1, 0) / wins if wins else 0.0
    rho = spearman_rho(tally.count("d2"), races, cars)
    stops_per_lap = sum(c.stops for c in corners)
    mean_turns = hist_mean(turns)
    pits = tally.count("pit") * per
    data = {
        "laps": rs.laps,
        "turns": spread(turns),
        "rounds": spread(rounds),
        "turns_per_lap": round(mean_turns / rs.laps, 2) if turns else None,
        "finishers_per_race": round(finishers, 3),
        "dnf_rate": round(dnf_rate, 4),
        "dnf_per_race": {cause: round(v * per, 4) for cause, v in dnf.items()},
        "overtakes": spread(overtakes),
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
        "spaces": _spaces(board, space_ov, space_wp, per),
    }
    worst = sorted(dnf.items(), key=lambda kv: (-kv[1], kv[0]))
    figures = [
        Figure("Turns per race (the winner's)", range_text(turns)),
        Figure("Turns per lap", f"{mean_turns / rs.laps:.1f}" if turns else "–"),
        Figure("Stops per lap (the flags' sum)", f"{stops_per_lap} ({stops_per_lap * rs.laps} a race)"),
        Figure("Finishers", f"{finishers:.1f} of {cars} (DNF {100 * dnf_rate:.1f} %)"),
        Figure(
            "Out of the race, per race",
            ", ".join(f"{cause} {v * per:.2f}" for cause, v in worst) or "none",
        ),
        Figure("Overtakes per race", range_text(overtakes)),
        Figure("Pole wins", f"{100 * pole:.0f} % of races"),
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
    columns = ("#", "Name", "Stops", "Long/short", "Overtakes", "Places won/lost", "WP lost", "Overshoots",
               "Out", "Stops inside")  # fmt: skip
    if not any(r[1] for r in rows):  # no corner named: no empty column
        columns, rows = columns[:1] + columns[2:], [r[:1] + r[2:] for r in rows]
    tables = [
        Table(
            "Corners",
            columns,
            tuple(rows),
            "Per race. Overtakes and wear count in a corner and on the straight before it; places won or lost through "
            "a corner compare a car's place entering the straight before it with its place leaving the corner. "
            "'Out': the share of cars put out there. 'Stops inside': the share of stops made in the inside lane.",
        ),
        Table(
            "Straights: how often cars reach 6th gear",
            ("Straight", "Spaces per lane", "In 6th gear"),
            tuple(srows),
            "The share of cars' passes along the straight in which a move was made in 6th gear.",
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
        Chart(
            "Overtakes per race, by corner",
            tuple(str(c.index + 1) for c in corners),
            tuple(d["overtakes_per_race"] for d in corner_data),
            "{:.1f}",
            "in the corner and on the straight before it",
        ),
        Chart(
            "Wear points lost per race, by zone",
            WP_LABELS,
            tuple(sum(tally.count("wp", k, z) for k in range(-1, len(corners))) * per for z in range(6)),
            "{:.1f}",
        ),
    ]
    report = SimReport(
        game="formula-d",
        board=circuit.spec.title if getattr(circuit.spec, "title", None) else circuit.name,
        source=settings.pop("file", None),
        title="how it plays",
        settings=settings,
        assumptions=[Assumption(*a) for a in taken],
        figures=figures,
        warnings=grid_warnings(board, cars, rs.grid_owed)
        + warnings(corner_data, straights, dnf_rate, pole, cars, races, _dnf_where(tally, per)),
        tables=tables,
        charts=charts,
        data=data,
        illustrate=lambda: _pictures(circuit, board, space_ov, space_wp, per),
    )
    return report


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
    """What a designer should look at, from the figures: a main straight never taken in 6th gear, a corner that
    decides nothing, too many cars out (and what put most of them out, where), a pole that wins too often (none
    from too few races to tell). ``dnf_where``: cars out per race by cause, then by zone."""
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
    if pole >= POLE_WARN:
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
    """Every space where anything happened: lane (1 = left), space number in its lane (1 = first after the line)."""
    out = []
    for s in sorted(set(overtakes) | set(wear)):
        out.append(
            {
                "lane": board.lane[s] + 1,
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
    cells_ov = tuple((g.spaces[s].polygon, v * per) for s, v in sorted(overtakes.items()))
    cells_wp = tuple((g.spaces[s].polygon, v * per) for s, v in sorted(wear.items()))
    maps = [
        HeatMap("Where places change", cells_ov, "overtakes per race on a space", "blue", "{:.2f}"),
        HeatMap("Where wear points are lost", cells_wp, "WP lost per race on a space", "red", "{:.2f}"),
    ]
    return maps, BoardPicture(items, box, tuple(labels), start_marks(circuit))
