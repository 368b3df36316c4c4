"""The board's numbers and their place: the marked action units and their tabs, every 5th unit's small number,
per-lane spaces' numbers, and where a number stays in sight (never under a bridge's deck) — and the small page
helpers the board's drawing shares (:mod:`.board`)."""

from __future__ import annotations

import math

import numpy as np

from ..compose.freespace import FreeSpace
from ..fonts import text_width
from ..scene import WHITE, Page, Polygon, Style, Text
from ..units import pt_to_mm
from .circuit import Circuit
from .palette import INK, MUTED
from .spaces import numbered_spaces, tunnel_tags


def pts(a: np.ndarray) -> tuple:
    # rounded to the micrometre by numpy, then made Python floats in one call: a tenth of the time of Python's
    # round() on each number (which rounds a value exactly half a micrometre off by its decimal digits, numpy by
    # its double: the two differ only there, a micrometre, and no board's output changed — every pack and board
    # compared byte for byte)
    return tuple(map(tuple, np.round(np.asarray(a, dtype=float), 3).tolist()))


def upright(deg: float) -> float:
    deg = (deg + 180) % 360 - 180
    if deg > 90:
        deg -= 180
    elif deg < -90:
        deg += 180
    return deg


def action_units(c: Circuit) -> list[int]:
    """Units across: the marked action units — every Nth, but none in a tunnel (the grid's slots are drawn over
    those it stands on, both readable)."""
    skip = set(c.hidden_units())
    return [u for u in range(c.spec.action_every, c.units_count + 1, c.spec.action_every) if u not in skip]


#: Units across: every Nth unit carries its number, small (the action units carry theirs on a tab).
NUMBER_EVERY = 5


def numbered_units(c: Circuit) -> list[int]:
    """Units across that carry a small number: every :data:`NUMBER_EVERY`th, but not an action unit (its number is
    on its tab), a unit under the grid (its slots' numbers are there) or one in a tunnel."""
    skip = set(action_units(c)) | set(c.grid_units) | set(c.hidden_units())
    return [u for u in range(NUMBER_EVERY, c.units_count + 1, NUMBER_EVERY) if u not in skip]


def fit_number(text: str, size: float, width: float) -> float:
    """``size``, or smaller for ``text`` to fit ``width`` (a three-digit grid number on its disc)."""
    w = text_width(text, size, "bold")
    return size if w <= width else size * width / w


def label_rotation(c: Circuit, sp) -> float:
    """Per-lane labels read across the lane, turned upright."""
    return upright(math.degrees(float(c.line.heading((sp.s0 + sp.s1) / 2))) + 90)


def text_up(rot: float) -> tuple[float, float]:
    """The page direction (y down) of "up" for text turned ``rot`` degrees clockwise."""
    r = math.radians(rot)
    return (math.sin(r), -math.cos(r))


def draw_numbers(page: Page, c: Circuit, free: FreeSpace) -> None:
    """The numbers of a board's spaces (per lane) or units (every 5th, small; each action unit on its tab)."""
    labels = page.layer("labels")
    if c.graph is not None:
        size = pt_to_mm(6.5)
        tagged = tunnel_tags(c)
        numbered = numbered_spaces(c)
        for sp in c.graph.spaces:
            if sp.id in numbered:
                rot = label_rotation(c, sp)
                x, y = sp.center
                if sp.id in tagged:  # a tunnel tag goes below the number
                    ux, uy = text_up(rot)
                    x, y = x + 1.7 * ux, y + 1.7 * uy
                labels.add(Text(str(sp.index + 1), x, y, size, "condensed-bold", INK, "middle", "middle", rot))
        return
    small = pt_to_mm(5.5)
    for u in numbered_units(c):  # every 5th unit, small and muted: for saying where a car is
        s0, s1 = c.unit_bounds(u)
        sm = _in_sight(c, s0, s1, (s0 + s1) / 2)
        if sm is None:
            continue
        x, y = c.point_at(sm)
        rot = upright(math.degrees(float(c.line.heading(sm))))
        labels.add(Text(str(u), x, y, small, "condensed-bold", MUTED, "middle", "middle", rot))
    size = pt_to_mm(8)
    grid = set(c.grid_units)
    for u in action_units(c):
        s0, s1 = c.unit_bounds(u)
        # the tab sits on the centre line: between two lanes' grid slots, or, with a lane on the centre line (3
        # lanes), at the back of the unit, clear of that slot's number
        sm = _in_sight(c, s0, s1, s0 + 0.18 * (s1 - s0) if u in grid and c.lanes % 2 else (s0 + s1) / 2)
        if sm is None:  # the whole unit under a bridge: nothing of it to number
            continue
        text = str(u)
        x, y = c.point_at(sm)
        rot = upright(math.degrees(float(c.line.heading(sm))))
        w = text_width(text, size, "condensed-bold") + 1.6
        h = size * 1.05
        rr = math.radians(rot)
        ax, ay = math.cos(rr), math.sin(rr)
        bx, by = -ay, ax
        tab = [
            (x + sx * w / 2 * ax + sy * h / 2 * bx, y + sx * w / 2 * ay + sy * h / 2 * by)
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        labels.add(Polygon(pts(np.array(tab)), (), Style(stroke=INK, width=0.3, fill=WHITE)))
        labels.add(Text(text, x, y, size, "condensed-bold", INK, "middle", "middle", rot))


def _in_sight(c: Circuit, s0: float, s1: float, want: float) -> float | None:
    """Where along the unit ``s0``–``s1`` its number can stand: ``want``, unless a bridge's deck covers it there
    (the unit passes under the bridge), then the place of the unit nearest ``want`` clear of every deck; None when
    the deck covers the whole unit."""
    decks = [cr for cr in c.crossings if cr.kind == "bridge"]
    if not decks:
        return want
    half = c.half_width + 2.6 + 1.5  # the deck's white edge, and room for the number's tab
    lines = [c.offset_line(cr.s_upper - cr.reach, cr.s_upper + cr.reach, 0.0) for cr in decks]

    def covered(s: float) -> bool:
        p = np.array(c.point_at(s))
        for cr, deck in zip(decks, lines, strict=True):
            if c.lap_distance(np.array(s), cr.s_upper) <= cr.reach:  # on the deck itself
                continue
            if np.hypot(*(deck - p).T).min() < half:
                return True
        return False

    if not covered(want):
        return want
    span = (s1 - s0) % c.lap_length
    tries = sorted((s0 + f * span for f in np.linspace(0.1, 0.9, 17)), key=lambda s: abs(s - want))
    return next((s % c.lap_length for s in tries if not covered(s)), None)
