"""MotoX's building rules (motox.txt), checked on a course as laid on the table: :func:`check_course` returns every
:class:`~generator.problems.Problem`, each naming the tile (``tile``), what is wrong, what to change (``advice``)
and where in the spec (``loc``, and its ``line`` once :func:`locate` has looked it up). The course itself (the
spec, the tiles, how two tiles lie) is :mod:`.course`.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

from ...problems import Problem
from . import facts
from .course import HEADINGS, Course, Pos, RampSpec, load_course, relation, touches


def _fmt(p: Pos) -> str:
    return f"[{p[0]:g}, {p[1]:g}]"


def _free_spots(course: Course, tile: int) -> list[Pos]:
    """Where tile ``tile`` could go: lined up edge to edge with the tile before it, touching no other."""
    px, py = course.pos(tile - 1)
    out = []
    for dx, dy in HEADINGS.values():
        cand = (px + dx, py + dy)
        if all(not touches(course.pos(j), cand) for j in range(1, tile - 1)):
            out.append(cand)
    return out


def _spot_hint(course: Course, tile: int) -> str:
    spots = _free_spots(course, tile)
    if not spots:
        return f"tile {tile - 1} has no free edge left: turn the track earlier"
    return "put it at " + " or ".join(_fmt(p) for p in spots)


def _tile_loc(course: Course, tile: int) -> tuple:
    if course.spec is not None and course.spec.path is not None:
        return ("path", course.tile_entries[tile - 1])
    return ("tiles", tile - 1)


def _suggest(course: Course, exclude: int | None = None) -> str:
    """`` (such as tile 5, 9)``: straight tiles whose ramp has room, or a note that there are none."""
    room = [t for t in course.straight_tiles() if t != exclude and course.ramps.get(t, 0) < facts.max_ramp()]
    if not room:
        return " (the course has none with room yet)"
    return " (such as tile " + ", ".join(str(t) for t in room[:4]) + ")"


def check_course(course: Course) -> list[Problem]:
    """Every way ``course`` breaks motox.txt's building rules (empty: a legal course)."""
    problems: list[Problem] = []
    total = facts.tile_count()
    n = course.n
    where = ("path",) if course.spec is not None and course.spec.path is not None else ("tiles",)
    if n != total:
        more = total - n
        problems.append(
            Problem(
                "count",
                f"the course has {n} tile{'s' if n != 1 else ''}; every one of the {total} tiles is dealt and played",
                f"add {more} tile{'s' if more != 1 else ''} after tile {n}"
                if more > 0
                else ("take away the last tile" if more == -1 else f"take away the last {-more} tiles"),
                loc=where,
            )
        )
    for t in range(2, n + 1):
        p = course.pos(t)
        prev = course.pos(t - 1)
        loc = _tile_loc(course, t)
        on = [j for j in range(1, t) if relation(course.pos(j), p) == "overlap"]
        if on:
            hint = _spot_hint(course, t)
            problems.append(Problem("overlap", f"tile {t} at {_fmt(p)} lies on tile {on[0]}", hint, tile=t, loc=loc))
            continue
        rel = relation(prev, p)
        dx, dy = p[0] - prev[0], p[1] - prev[1]
        if rel == "offset" and (abs(dx) == 1) != (abs(dy) == 1):
            fixed = (prev[0] + dx, prev[1]) if abs(dx) == 1 else (prev[0], prev[1] + dy)
            problems.append(
                Problem(
                    "offset",
                    f"tile {t} at {_fmt(p)} is half a tile off tile {t - 1}: its two edge spaces do not line up "
                    f"with those of tile {t - 1}",
                    f"slide it to {_fmt(fixed)}",
                    tile=t,
                    loc=loc,
                )
            )
        elif rel != "edge":
            problems.append(
                Problem(
                    "adjacent",
                    f"tile {t} at {_fmt(p)} is not next to tile {t - 1}, the last tile played: it must share a whole "
                    "edge with it",
                    _spot_hint(course, t),
                    tile=t,
                    loc=loc,
                )
            )
        others = [j for j in range(1, t - 1) if touches(course.pos(j), p)]
        if others:
            names = " and ".join(f"tile {j}" for j in others)
            problems.append(
                Problem(
                    "touch",
                    f"tile {t} at {_fmt(p)} touches {names} as well as tile {t - 1}: a new tile may touch only the "
                    "last tile played (corners may meet)",
                    _spot_hint(course, t) if _free_spots(course, t) else "turn the track earlier so it runs clear",
                    tile=t,
                    loc=loc,
                )
            )
    problems += _check_ramps(course)
    return problems


def _check_ramps(course: Course) -> list[Problem]:
    problems: list[Problem] = []
    n = course.n
    top = facts.max_ramp()
    coins = facts.building_coins()
    spec_ramps = (
        course.spec.ramps if course.spec is not None else [RampSpec(tile=t, height=h) for t, h in course.ramps.items()]
    )
    counts = Counter(r.tile for r in spec_ramps)
    reported_twice: set[int] = set()
    reported_high: set[int] = set()
    for i, r in enumerate(spec_ramps):
        t = r.tile
        loc = ("ramps", i)
        if counts[t] > 1 and t not in reported_twice:
            reported_twice.add(t)
            problems.append(
                Problem(
                    "ramp-twice",
                    f"tile {t} has {counts[t]} ramp entries",
                    f"give it one entry with the whole height ({course.ramps[t]} coins)",
                    tile=t,
                    loc=(*loc, "tile"),
                )
            )
        if t > n:
            problems.append(
                Problem(
                    "ramp-tile",
                    f"there is no tile {t}: the course has {n}",
                    "name a tile of the course",
                    tile=t,
                    loc=(*loc, "tile"),
                )
            )
            continue
        if t in (1, n):
            what = "the start tile" if t == 1 else "the finish tile"
            problems.append(
                Problem(
                    "ramp-end",
                    f"tile {t} is {what}: a ramp needs a tile with tiles before and after it, all three in line",
                    "move the ramp to a straight tile" + _suggest(course, t),
                    tile=t,
                    loc=(*loc, "tile"),
                )
            )
        else:
            turn = course.turn(t)
            if turn in ("left", "right", "back"):
                problems.append(
                    Problem(
                        "ramp-turn",
                        f"the ramp is on tile {t}, where the track turns {turn}: a ramp's tile must be in line "
                        "with the tiles before and after it",
                        "move it to a straight tile" + _suggest(course, t),
                        tile=t,
                        loc=(*loc, "tile"),
                    )
                )
            edge = course.raised_edge(t)
            if r.edge is not None and edge is not None and r.edge != edge:
                problems.append(
                    Problem(
                        "ramp-edge",
                        f"the ramp on tile {t} lifts its {r.edge} edge",
                        f"lift the {edge} edge, the one tile {t + 1} meets (farthest along the track from the start)",
                        tile=t,
                        loc=(*loc, "edge"),
                    )
                )
        if course.ramps.get(t, 0) > top and t not in reported_high:
            reported_high.add(t)
            h = course.ramps[t]
            problems.append(
                Problem(
                    "ramp-height",
                    f"the ramp on tile {t} is {h} coins high; a jump ramp may be at most {top} high",
                    f"move {h - top} coin{'s' if h - top != 1 else ''} to another straight tile" + _suggest(course, t),
                    tile=t,
                    loc=(*loc, "height"),
                )
            )
    used = course.coins_used()
    if used < coins:
        problems.append(
            Problem(
                "coins",
                f"coins left over: the ramps use {used} of the {coins} coins dealt for building",
                f"add {coins - used} coin{'s' if coins - used != 1 else ''} to ramps on straight tiles, at most {top} "
                "high each" + _suggest(course),
                loc=("ramps",),
            )
        )
    elif used > coins:
        problems.append(
            Problem(
                "coins",
                f"the ramps use {used} coins, but only {coins} are dealt for building",
                f"take {used - coins} coin{'s' if used - coins != 1 else ''} off the ramps",
                loc=("ramps",),
            )
        )
    straight = course.straight_tiles()
    need = math.ceil(coins / top)
    if len(straight) < need:
        problems.append(
            Problem(
                "room",
                f"the course has {len(straight)} straight tile{'s' if len(straight) != 1 else ''} that can take a "
                f"ramp, room for {len(straight) * top} coins; the {coins} building coins need at least {need}",
                "lay longer straights: a ramp's tile must be in line with the tiles before and after it",
                loc=where_of(course),
            )
        )
    return problems


def top_number() -> int:
    """The highest number a die shows (a piecepack's 5)."""
    return max(r.value for r in facts.ranks())


def landing_numbers(course: Course, tile: int, height: int) -> list[int]:
    """The numbers that carry a bike from the front row of ramp tile ``tile`` (the row on its raised edge) over
    a ramp of ``height`` and down on the track, flying straight on (no turn in the air): above the height, and no
    longer than the track straight on past the edge — any length will do where that run crosses the finish line."""
    run, finish = course.run_past(tile)
    return [v for v in range(height + 1, top_number() + 1) if finish or v <= run]


def is_trap(course: Course, tile: int, height: int) -> bool:
    return not landing_numbers(course, tile, height)


def jump_traps(course: Course) -> list[Problem]:
    """Ramps no roll from the ramp tile's front row clears and lands from: a ramp right before a turn, higher than
    the track straight on past it is long. Legal, but a bike in that row either waits for ever or flies off the
    track: a warning, not a breach of the building rules."""
    out: list[Problem] = []
    index = {}
    if course.spec is not None:
        index = {r.tile: i for i, r in enumerate(course.spec.ramps)}
    for t, h in sorted(course.ramps.items()):
        if not course.is_straight(t) or h > facts.max_ramp() or not is_trap(course, t, h):
            continue
        run, _ = course.run_past(t)
        turn = t + run // facts.spaces_per_edge()
        better = [
            u
            for u in course.straight_tiles()
            if u != t
            and course.ramps.get(u, 0) + h <= facts.max_ramp()
            and not is_trap(course, u, course.ramps.get(u, 0) + h)
        ]
        where = " (such as tile " + ", ".join(str(u) for u in better[:4]) + ")" if better else ""
        lower = f" or lower it to {run - 1} coin{'s' if run - 1 != 1 else ''}" if run > 1 else ""
        out.append(
            Problem(
                "jump-trap",
                f"jump trap on tile {t}: its ramp of {h} is {run} spaces before the turn at tile {turn}; from its "
                f"front row only {h + 1} or more crosses, and every such flight lands off the track",
                f"move it to a tile with more track straight on{where}{lower}",
                tile=t,
                numbers={"height": h, "run": run, "turn_tile": turn},
                loc=("ramps", index[t], "tile") if t in index else ("ramps",),
            )
        )
    return out


def where_of(course: Course) -> tuple:
    return ("path",) if course.spec is not None and course.spec.path is not None else ("tiles",)


def locate(course: Course, problems: list[Problem]) -> list[Problem]:
    """Fill each problem's spec line from the course's line map."""
    if course.lines is not None:
        for p in problems:
            if p.loc:
                p.line = course.lines.line(p.loc)
    return problems


def check(path: str | Path) -> tuple[Course, list[Problem]]:
    """Load and check a course file: (course, problems). Raises InputError (exit 2) if it cannot be read."""
    course = load_course(path)
    return course, locate(course, check_course(course))


def warnings(course: Course) -> list[Problem]:
    """What a legal course lets happen that a race should not meet (jump traps), located like its problems."""
    return locate(course, jump_traps(course))
