"""Where a circuit's grid stands: how much the centre line turns under each row of a grid behind a start line
(:func:`grid_turns`), how many rows stand on straight track, and where round the lap the start line could go so
that the whole grid does (:func:`grid_starts`, :func:`grid_shift`). :meth:`generator.track.search.Search.placed` moves
the start there when the spec leaves it open; :func:`generator.track.checks.check_grid` says how far it must move
when the spec places it.
"""

from __future__ import annotations

import math

import numpy as np

from .circuit import Circuit
from .features import CORNER_MIN_TURN, crossing_reach, grid_rows, self_crossings
from .place import keeps_shape

#: Lengths along the track closer than this (mm) are the same point: a unit that ends where a bend begins is not in it.
EPS_MM = 0.01


def in_corner(c: Circuit, unit: int) -> bool:
    a, b = c.unit_bounds(unit)
    L = c.lap_length
    for cr in c.corners:
        for k in (-1, 0, 1):
            if a < cr.s_end + k * L - EPS_MM and cr.s_start + k * L + EPS_MM < b:  # touching is not inside
                return True
    return False


#: A grid row (the unit of track a row of slots stands on) may turn at most this much along its length (degrees):
#: less than the least turn that makes a corner (features.CORNER_MIN_TURN), so a gentle kink or curve in a straight
#: does not disqualify it; its slots stay rectangular boxes in their lanes (the long sides of a slot 8 mm wide then
#: differ by at most 8 mm × 0.26 = 2.1 mm).
ROW_TURN_DEG = math.degrees(CORNER_MIN_TURN)
#: The whole grid, with the unit after the line, may turn at most this much in all (degrees): a grid along a gently
#: curving straight, never round a bend.
GRID_TURN_DEG = 40.0
#: Start lines tried by :func:`grid_starts` are this many units apart round the lap.
START_STEP_UNITS = 0.5


def turning(c: Circuit):
    """A function giving the total absolute turning (radians) of the centre line from arc length 0 to ``s``, for any
    ``s`` (negative or past the lap: counted round the lap), so the turning along [a, b] is ``f(b) − f(a)``."""
    line = c.line
    F = np.concatenate(([0.0], np.cumsum(np.abs(np.diff(line.th)))))
    L, total = c.lap_length, float(F[-1])

    def f(s):
        s = np.asarray(s, dtype=float)
        q = np.floor(s / L)
        return np.interp(s - q * L, line.s, F) + q * total

    return f


def grid_turns(c: Circuit, at: float = 0.0, rows: int | None = None, f=None) -> np.ndarray:
    """Degrees the centre line turns along what a grid behind a start line at arc length ``at`` stands on: first
    the half unit after the line (the start line, the pole car's first move), then each row's unit, nearest the
    line first."""
    f = f or turning(c)
    rows = grid_rows(c) if rows is None else rows
    u = c.unit_length
    ends = np.concatenate(([at + u / 2], at - u * np.arange(rows + 1)))  # at + u/2, at, at − u, … at − rows·u
    return np.degrees(f(ends[:-1]) - f(ends[1:]))


def straight_rows(turns: np.ndarray) -> int:
    """How many rows of a grid (:func:`grid_turns`), from the line back, stand on straight track: each unit
    turning at most ROW_TURN_DEG and, with the half unit after the line, at most GRID_TURN_DEG in all (0 when that
    half unit turns more than ROW_TURN_DEG itself)."""
    ok = (turns <= ROW_TURN_DEG) & (np.cumsum(turns) <= GRID_TURN_DEG)
    return max(0, int(np.argmin(ok)) - 1) if not ok.all() else len(turns) - 1


def grid_score(turns: np.ndarray) -> float:
    """How far a grid's units (:func:`grid_turns`) are from standing on straight track: at most 1 when every unit
    turns at most ROW_TURN_DEG and all of them together at most GRID_TURN_DEG."""
    return max(float(turns.max()) / ROW_TURN_DEG, float(turns.sum()) / GRID_TURN_DEG)


def grid_room(c: Circuit) -> tuple[int, int, int] | None:
    """``(rows, behind, ahead)`` for a board ruled across: the grid's rows (``lanes`` slots, one unit each), the
    straight-enough units behind the start line (each turning at most ROW_TURN_DEG, together with the unit after
    the line at most GRID_TURN_DEG) and after it; None for no grid, a per-lane board (its game places its own grid)
    or a grid longer than a third of the lap (check_positions says so)."""
    rows = grid_rows(c)
    if c.graph is not None or not rows or rows > c.units_count // 3:
        return None
    n = c.units_count
    f = turning(c)
    back = grid_turns(c, 0.0, n // 2, f)
    total = np.cumsum(back)
    behind = 0
    while behind < n // 2 and back[behind + 1] <= ROW_TURN_DEG and total[behind + 1] <= GRID_TURN_DEG:
        behind += 1
    fwd = grid_turns(c, (n // 2) * c.unit_length, n // 2, f)[1:][::-1]  # the units after the line, nearest first
    ahead = 0
    while ahead < len(fwd) - 1 and fwd[ahead] <= ROW_TURN_DEG:
        ahead += 1
    return rows, behind, ahead


def grid_starts(c: Circuit) -> list[float]:
    """Where the start line could stand so that the grid behind it is on straight track, best first, as arc lengths
    of the centre line as it is now (0: where it is): every START_STEP_UNITS round the lap, those whose grid scores
    at most 1 (:func:`grid_score`) nearest the line first (forward before back), then the others straightest
    first. Empty for no grid of this kind (see :func:`grid_room`)."""
    rows = grid_rows(c)
    if c.graph is not None or not rows or rows > c.units_count // 3:
        return []
    L = c.lap_length
    step = START_STEP_UNITS * c.unit
    f = turning(c)
    cands = []
    for k in range(math.ceil(L / 2 / step)):
        for t in (k * step, -k * step) if k else (0.0,):  # forward before back
            score = grid_score(grid_turns(c, t, rows, f))
            cands.append((max(score, 1.0), k, t < 0, score, t))
    cands.sort()
    return [t for *_, t in cands]


def grid_shift(c: Circuit) -> float | None:
    """Units the start line should move forward (negative: back) so that the grid stands on the straightest track
    nearest it (:func:`grid_starts`): 0 when it already stands there, or there is no grid of this kind; None for
    a grid longer than a third of the lap (check_positions says so)."""
    if not c.spec.grid or c.graph is not None:
        return 0
    starts = grid_starts(c)
    return starts[0] / c.unit if starts else None


def start_sign(spec) -> int:
    """Which way ``start.at`` grows along the race: backwards (−1) when the spec races a line of segments or a
    smoothed line backwards; a shape-kept line of points is reversed before the start is measured along it (+1)."""
    return -1 if spec.start.reverse and not keeps_shape(spec) else 1


#: A real circuit's start line is kept with a smaller grid (at least half of it) where the nearest place that holds
#: the whole grid is further than this many units away.
NEAR_UNITS = 5


def real_line_grid(spec, c: Circuit, starts: list[float], grid: int, at_crossing):
    """A real circuit's board whose grid does not stand on straight track behind its real start line, when the
    nearest place that holds ``grid`` cars is more than NEAR_UNITS away: the spec with the real line kept and as
    many cars as stand behind it — at least half of ``grid`` — else None (the start moves)."""
    if at_crossing or spec.start.at != 0 or not starts or abs(starts[0]) <= NEAR_UNITS * spec.unit:
        return None
    cars = min(grid, straight_rows(grid_turns(c, 0.0, grid_rows(c))) * c.lanes)
    if 2 * cars < grid:
        return None
    return spec.model_copy(update={"grid": cars})


def fewer_for_straight(c, starts: list[float]) -> tuple[list[float], int]:
    """Where no start line of ``starts`` has the whole grid on straight track: the most cars one has (whole rows;
    none: the grid as it is) and the places that have them, nearest the line first (forward before back)."""
    f = turning(c)
    if grid_score(grid_turns(c, starts[0], None, f)) <= 1:
        return starts, c.spec.grid
    rows = grid_rows(c)
    held = {t: straight_rows(grid_turns(c, t, rows, f)) for t in starts}
    most = max(held.values())
    if most < 1:
        return starts, c.spec.grid
    best = sorted((t for t in starts if held[t] >= most), key=lambda t: (abs(t), t < 0))
    return best, min(c.spec.grid, most * c.lanes)


def clear_of_crossings(c, starts: list[float]) -> list[float]:
    """Of the start lines ``starts`` (arc lengths from where the line is now), those whose line and grid lie clear
    of every place the track crosses itself (as :func:`.checks.check_crossings` asks), in their order; when the
    grid of none is clear, places every START_STEP_UNITS round the lap that are, nearest first."""
    found = self_crossings(c.line)
    if not found or not starts:
        return starts
    L = c.lap_length
    grid_len = math.ceil(c.spec.grid / c.lanes) * c.unit_length

    def clear(t: float) -> bool:
        for sa, sb, _pt, ang in found:
            reach = crossing_reach(c, ang)
            for s_pass in (sa, sb):
                d = (s_pass - t) % L
                if d < reach + 3 * c.unit or L - d < reach + grid_len + c.unit:
                    return False
        return True

    ok = [t for t in starts if clear(t)]
    if ok:
        return ok
    step = START_STEP_UNITS * c.unit
    around = sorted((k * step for k in range(1, int(L / step))), key=lambda t: min(t, L - t))
    return [t if t <= L / 2 else t - L for t in around if clear(t)]
