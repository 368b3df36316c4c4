"""What of a real circuit's character its board could not keep: the real line's bends that the board's least radius
and clearances merge into one bend, smooth away, or push out into a loop — in words for the legend, so a designer
sees "the bends at 1.20 and 1.31 km are one bend here" rather than finding it out by comparing maps.

A *bend* is measured the same way on both lines, at the board's scale: a core along which the heading (over chords
a quarter of a unit long on the real line, :data:`~.straights.CHORD_UNITS` of a unit on the board) turns one way at
a radius under :data:`MAX_RADIUS_WIDTHS` track widths, with its easing in and out, turning at least
:data:`MIN_TURN_DEG` in all. Each real bend is carried to the board by the fit's own correspondence (where on the
real line each of the board's corners was fitted to) and belongs to the board bend turning the same way there:

- two or more real bends in one bend of the board: *merged* ("drawn as one");
- a real bend the board turns the other way, less than :data:`SMOOTHED_SHARE` of it or :data:`SMOOTHED_LOSS_DEG`
  less: *smoothed* (neighbours on the board said together: a chicane, esses);
- a board bend turning :data:`LOOP_EXTRA_DEG` more than its one real bend: swung out into a *loop* (a hairpin
  whose sides lie closer than the board's clearance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .centerline import arc_lengths
from .straights import CHORD_UNITS, PER_UNIT, chord_headings, heading_range

#: A bend: tighter than this many track widths (radius) ...
MAX_RADIUS_WIDTHS = 6.0
#: ... turning at least this much (degrees).
MIN_TURN_DEG = 25.0
#: Turns the same way closer than this (units) are one bend.
JOIN_UNITS = 0.5
#: The real line's heading is measured over chords this long (units; or twice its points' spacing, if longer): a
#: chicane of 50 m is a few mm on an A3 board, lost in the straights' chords.
CHORD_REAL_UNITS = 0.25
#: A real bend the board turns less than this share of is smoothed ...
SMOOTHED_SHARE = 0.5
#: ... or turns this much less (degrees): a 177° hairpin drawn as a 90° bend.
SMOOTHED_LOSS_DEG = 60.0
#: A board bend turning this much (degrees) more than its real bends is a loop.
LOOP_EXTRA_DEG = 45.0
#: How far (units) past the ends of a board bend's core a real bend's apex may fall and still be part of it.
REACH_UNITS = 0.5


@dataclass(frozen=True)
class Bend:
    """A bend of a closed line: from arc length ``s0`` to ``s1`` (``s1`` may pass the lap), its apex (the sharpest
    point) and its turn (degrees, signed: the same sign is the same way)."""

    s0: float
    s1: float
    apex: float
    turn_deg: float
    c0: float = 0.0  # its core: where it turns tighter than the threshold
    c1: float = 0.0


@dataclass(frozen=True)
class Lost:
    """Something of the real line's character the board lost: ``kind`` merged | smoothed | loop, on the board from
    ``s0`` to ``s1``, the real bends concerned (their apexes along the real line, metres) and their turns."""

    kind: str
    s0: float
    s1: float
    real_m: tuple[float, ...]
    real_turns: tuple[float, ...]
    board_turn: float


def bends(xy: np.ndarray, unit_mm: float, track_mm: float, chord_mm: float | None = None) -> list[Bend]:
    """The bends of the closed polyline ``xy`` (page mm, at the board's scale), in order along it, its heading
    measured over chords ``chord_mm`` long (:data:`~.straights.CHORD_UNITS` of a unit unless given)."""
    chord = CHORD_UNITS * unit_mm if chord_mm is None else chord_mm
    s, th = chord_headings(np.asarray(xy, float), min(unit_mm / PER_UNIT, chord / 3), chord)
    n = len(s)
    step = float(s[1] - s[0])
    gain = th[-1] - th[0] + (th[1] - th[0])  # the heading's gain once round the lap
    k = np.gradient(np.concatenate((th[-2:] - gain, th, th[:2] + gain)), step)[2:-2]  # curvature, round the lap
    hard = 1.0 / (MAX_RADIUS_WIDTHS * track_mm)
    # a bend's core: a run turning one way tighter than the threshold (two with a short gap between them: one)
    sign = np.where(np.abs(k) > hard, np.sign(k), 0).astype(int)
    if not sign.any():
        return []
    first = int(np.flatnonzero(sign != np.roll(sign, 1))[0]) if (sign != sign[0]).any() else 0
    order = (np.arange(n) + first) % n  # the walk round the lap starts where the sign changes
    runs: list[list[int]] = []  # [sign, p0, p1) in walk positions
    for p, i in enumerate(order):
        v = int(sign[i])
        if runs and runs[-1][0] == v:
            runs[-1][2] = p + 1
        else:
            runs.append([v, p, p + 1])
    gap = JOIN_UNITS * unit_mm / step
    cores: list[list[int]] = []
    for r in runs:
        if r[0] == 0:
            continue
        if cores and cores[-1][0] == r[0] and r[1] - cores[-1][2] < gap:
            cores[-1][2] = r[2]
        else:
            cores.append(list(r))
    th3 = np.concatenate((th - gain, th, th + gain))  # a lap either side, unwrapped

    def heading(p: int) -> float:  # at walk position p (round the lap either way)
        return float(th3[p + first + n])

    out = []
    for j, (v, p0, p1) in enumerate(cores):
        # its turn counts its easing in and out too: on, while it turns the same way past a quarter of the
        # threshold, up to its neighbours' cores
        lo = cores[j - 1][2] if j else cores[-1][2] - n
        hi = cores[j + 1][1] if j + 1 < len(cores) else cores[0][1] + n
        a, b = p0, p1 - 1
        while a - 1 > lo and v * k[order[(a - 1) % n]] > hard / 4:
            a -= 1
        while b + 1 < hi and v * k[order[(b + 1) % n]] > hard / 4:
            b += 1
        turn = math.degrees(heading(b) - heading(a))
        if abs(turn) < MIN_TURN_DEG:
            continue
        seg = order[p0:p1]
        apex = int(seg[int(np.argmax(np.abs(k[seg])))])
        c0 = float(s[order[p0]])
        s0 = float(s[order[a % n]])
        out.append(Bend(s0, s0 + (b - a) * step, float(s[apex]), turn, c0, c0 + (p1 - p0 - 1) * step))
    return sorted(out, key=lambda b: b.s0)


def _turn_between(xy_line, s0: float, s1: float) -> float:
    """Degrees the board's line (a :class:`~.centerline.Line`) turns from ``s0`` to ``s1`` (signed)."""
    L = xy_line.length
    t = np.linspace(s0, s1 if s1 >= s0 else s1 + L, 64)
    th = np.unwrap(xy_line.heading(np.mod(t, L)))
    return math.degrees(float(th[-1] - th[0]))


def pairing(real_xy: np.ndarray, L: float, real_u: np.ndarray, board_s: np.ndarray):
    """Arc length on the real line ``real_xy`` → arc length on a board of lap ``L``, by the fit's own pairs
    (``real_u``: where on the real line each of the board's corners was fitted; ``board_s``: that corner on the
    board), interpolated between them, round the lap either way."""
    Lr = float(arc_lengths(real_xy)[-1])
    order = np.argsort(real_u)
    u, sb = real_u[order], board_s[order]
    sb = np.unwrap(sb / L * 2 * math.pi) * L / (2 * math.pi)  # board arc length, rising along the real line
    u = np.concatenate((u - Lr, u, u + Lr))  # a lap either side: the pairing runs on over the start line
    sb = np.concatenate((sb - L, sb, sb + L))

    def to_board(x: float) -> float:
        return float(np.interp(x % Lr, u, sb) % L)

    return to_board


def lost(
    real_xy: np.ndarray,
    board,
    real_u: np.ndarray,
    board_s: np.ndarray,
    unit_mm: float,
    track_mm: float,
    metres_per_mm: float,
    chord_mm: float | None = None,
) -> list[Lost]:
    """What the board (a :class:`~.centerline.Line`) lost of the real line ``real_xy`` (page mm): ``real_u`` and
    ``board_s`` pair points of the two (the real line's arc length where each of the board's corners was fitted,
    and that corner's arc length on the board), in the board's order."""
    L = board.length
    to_board = pairing(real_xy, L, real_u, board_s)
    real = bends(real_xy, unit_mm, track_mm, chord_mm)
    board_bends = bends(board.xy[:-1], unit_mm, track_mm)
    reach = REACH_UNITS * unit_mm
    # each real bend belongs to the board bend turning the same way that its apex falls in (or the nearest within
    # reach); a bend the board turns the other way there, or not at all, belongs to none
    home: dict[int, list[int]] = {}
    for i, b in enumerate(real):
        w = to_board(b.apex)
        best, far = None, reach
        for j, bb in enumerate(board_bends):
            d = _outside(w, bb.c0, bb.c1, L)
            if d <= far and bb.turn_deg * b.turn_deg > 0:
                best, far = j, d
        if best is not None:
            home.setdefault(best, []).append(i)
    out: list[Lost] = []

    def where(group) -> tuple[float, float]:  # on the board, from the first real bend's start to the last's end
        return to_board(real[group[0]].s0), to_board(real[group[-1]].s1)

    for j, inside in home.items():
        bb = board_bends[j]
        turns = tuple(real[i].turn_deg for i in inside)
        metres = tuple(real[i].apex * metres_per_mm for i in inside)
        if len(inside) >= 2:
            out.append(Lost("merged", *where(inside), metres, turns, bb.turn_deg))
        elif abs(bb.turn_deg) - abs(turns[0]) >= LOOP_EXTRA_DEG:
            out.append(Lost("loop", *where(inside), metres, turns, bb.turn_deg))
        elif _smoothed(turns[0], bb.turn_deg):
            out.append(Lost("smoothed", *where(inside), metres, turns, bb.turn_deg))
    homed = {i for inside in home.values() for i in inside}
    for i, b in enumerate(real):
        if i in homed:
            continue
        s0, s1 = to_board(b.s0), to_board(b.s1)
        got = _turn_between(board, s0, s1)
        if _smoothed(b.turn_deg, got):
            out.append(Lost("smoothed", s0, s1, (b.apex * metres_per_mm,), (b.turn_deg,), got))
    # smoothed bends next to one another on the board (a chicane, esses): one line, the most the board turns there
    kept = sorted((x for x in out if x.kind != "smoothed"), key=lambda x: x.s0)
    runs: list[Lost] = []
    for x in sorted((x for x in out if x.kind == "smoothed"), key=lambda x: x.s0):
        last = runs[-1] if runs else None
        if last is not None and (x.s0 - last.s1) % L <= unit_mm:
            runs[-1] = _joined(board, last, x)
        else:
            runs.append(x)
    if len(runs) > 1 and (runs[0].s0 - runs[-1].s1) % L <= unit_mm:  # one run over the board's start
        runs = [_joined(board, runs[-1], runs[0]), *runs[1:-1]]
    return sorted([*kept, *runs], key=lambda x: x.s0)


def _joined(board, a: Lost, b: Lost) -> Lost:
    """Two smoothed runs next to one another on the board (``b`` after ``a``), as one."""
    most = max(abs(a.board_turn), abs(b.board_turn), heading_range(board, a.s0, b.s1))
    return Lost("smoothed", a.s0, b.s1, (*a.real_m, *b.real_m), (*a.real_turns, *b.real_turns), most)


def _smoothed(real_turn: float, board_turn: float) -> bool:
    """A real bend of ``real_turn`` degrees is smoothed on a board turning ``board_turn`` there: the other way, or
    less than SMOOTHED_SHARE of it, or SMOOTHED_LOSS_DEG less."""
    if board_turn * real_turn < 0:
        return True
    got, want = abs(board_turn), abs(real_turn)
    return got < SMOOTHED_SHARE * want or want - got >= SMOOTHED_LOSS_DEG


def _outside(w: float, s0: float, s1: float, L: float) -> float:
    """How far (mm along a lap of ``L``) ``w`` lies outside the stretch ``s0``–``s1`` (0 inside it)."""
    if (w - s0) % L <= (s1 - s0) % L:
        return 0.0
    return min((s0 - w) % L, (w - s1) % L)


#: The legend names at most this many; the rest are counted (``paddock check`` lists them all).
LEGEND_MAX = 4


def said(lost_: Lost, units: str) -> str:
    """One thing the board lost, in words, ``units`` where it is on the board ("units 23–27"). A bend's way is
    said as the race goes (on the page, y down, a turn clockwise is to the right)."""
    n = len(lost_.real_m)
    if lost_.kind == "merged":
        way = _way(lost_.real_turns[0])
        return f"{units}: {n} {way} bends of the real line ({_km(lost_.real_m)}) drawn as one, too close for the board"
    first = lost_.real_turns[0]
    if lost_.kind == "smoothed" and n > 1:
        at = ", ".join(
            f"{abs(t):.0f}° {_way(t)} at {m / 1000:.2f}" for t, m in zip(lost_.real_turns, lost_.real_m, strict=True)
        )
        most = abs(lost_.board_turn)
        return f"{units}: {n} bends of the real line ({at} km) turn at most {most:.0f}° here, too tight for the board"
    bend = f"the real line's {abs(first):.0f}° {_way(first)} bend ({_km(lost_.real_m)})"
    if lost_.kind == "smoothed":
        if lost_.board_turn * first < 0:
            return f"{units}: {bend} turns the other way here, too tight for the board"
        return f"{units}: {bend} turns only {abs(lost_.board_turn):.0f}° here, too tight for the board"
    return f"{units}: {bend} swings out to {abs(lost_.board_turn):.0f}° here, its sides too close for the board"


def _way(turn_deg: float) -> str:
    return "right" if turn_deg > 0 else "left"


def _km(metres: tuple[float, ...]) -> str:
    return ", ".join(f"{m / 1000:.2f}" for m in metres) + " km"


def notes(c, res, start: float, P: np.ndarray) -> tuple[list[str], list[str]]:
    """For a board ruled in units (``c``, a :class:`~.circuit.Circuit`) adapted from the real line ``P`` (source
    units) by ``res`` (:class:`~.adapt.Adapted`), its start line ``start`` mm after the real one: the legend's lines
    (at most :data:`LEGEND_MAX`, the rest counted) and every line in full (for ``check`` and the command's notes)."""
    if res.real is None or res.real_u is None or len(P) < 4:
        return [], []
    spacing = float(np.median(np.hypot(*np.diff(np.asarray(P, float)[:, :2], axis=0).T))) * res.scale
    chord = max(CHORD_REAL_UNITS * res.unit_mm, 2 * spacing)
    found = lost(res.real, res.line, res.real_u, res.board_s, res.unit_mm, res.rules.track_width, 1 / res.scale, chord)
    L = c.lap_length
    full = []
    for x in sorted(found, key=lambda x: (x.s0 - start) % L):  # in the board's order from its start line
        a, b = c.unit_at((x.s0 - start) % L), c.unit_at((x.s1 - start) % L)
        full.append(said(x, f"unit {a}" if a == b else f"units {a}–{b}"))
    if len(full) <= LEGEND_MAX:
        return full, full
    named = max(0, LEGEND_MAX - 1)
    rest = len(full) - named
    more = (
        f"{'and ' if named else ''}{rest} more bends of the real line not kept as they are (paddock check lists them)"
    )
    return [*full[:named], more], full
