"""Speed dials: one per car, 0 to 18 inches round a speedometer, with a pointer to cut out and pin at the centre.

The turn-roll bands are shaded round the scale (as on the ruler), the speeds the car cannot reach (above one die
plus its skill and tech) are blacked out, and the car's driver and number stand in the middle in team colours.
"""

from __future__ import annotations

import math

from ...compose.blocks import fit, grid_pages
from ...compose.colour import GREY, INK, WHITE, text_on
from ...paper import PageSpec, Paper
from ...scene import Circle, Page, Polygon, Polyline, Style, Text
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import rules, sheet_texts, tools, top_speed, turn_bands

PAPER = Paper("a4", "portrait")
LAYERS = ("dial-fill", "dial-lines", "dial-text", "dial-cut")
SWEEP = 270.0  # degrees of the scale, from lower left round the top to lower right
START = 135.0  # where 0 sits, degrees clockwise from +x (page y down)
BANDS = ("#ffffff", "#e3e3e3", "#c8c8c8", "#adadad")


def _angle(v: float) -> float:
    top = rules().speed.max
    return math.radians(START + SWEEP * v / top)


def _at(cx: float, cy: float, r: float, v: float) -> tuple[float, float]:
    a = _angle(v)
    return (cx + r * math.cos(a), cy + r * math.sin(a))


def _sector(cx, cy, r0, r1, v0, v1, steps: int = 12) -> tuple:
    outer = [_at(cx, cy, r1, v0 + (v1 - v0) * i / steps) for i in range(steps + 1)]
    inner = [_at(cx, cy, r0, v1 - (v1 - v0) * i / steps) for i in range(steps + 1)]
    return tuple(outer + inner)


def dial(page: Page, x: float, y: float, w: float, h: float, entry) -> None:
    """One dial (and its pointer) in the box (x, y, w, h). ``entry`` is (team, driver) or None for a blank dial."""
    sp = rules().speed
    top = sp.max
    d = float(tools().dial.diameter_mm)
    r = d / 2
    cx, cy = x + r + 1, y + r + 1
    fill, lines, text = page.layer("dial-fill"), page.layer("dial-lines"), page.layer("dial-text")
    team, driver = entry if entry else (None, None)
    reach = top_speed(driver.monaco.skill, driver.monaco.tech) if driver and driver.monaco else top
    # bands of the turn roll, and the speeds out of reach
    for lo, hi, add in turn_bands():
        v0 = max(0.0, lo - 0.5)
        v1 = min(float(top), hi + 0.5)
        fill.add(Polygon(_sector(cx, cy, r - 8.5, r - 3.0, v0, v1), (), Style(stroke=None, fill=BANDS[min(add, 3)])))
    if reach < top:
        fill.add(Polygon(_sector(cx, cy, r - 8.5, r - 3.0, reach + 0.5, top + 0.5), (), Style(stroke=None, fill=INK)))
    for v in range(0, top + 1):
        p0 = _at(cx, cy, r - 8.5, v)
        p1 = _at(cx, cy, r - 3.0, v)
        lines.add(Polyline((p0, p1), Style(stroke=WHITE if v > reach else INK, width=0.3)))
        tx, ty = _at(cx, cy, r - 12.5, v)
        text.add(
            Text(
                str(v),
                tx,
                ty,
                pt_to_mm(8 if v % 6 else 9),
                "bold" if v % 6 == 0 else "condensed",
                INK,
                "middle",
                "middle",
            )
        )
    # the middle: driver, team colours, the pivot
    if team is not None:
        fill.add(Circle((cx, cy + 9.5), 6.2, Style(stroke=INK, width=0.2, fill=team.colours.primary)))
        num = str(driver.number) if driver.number is not None else driver.initials
        text.add(
            Text(num, cx, cy + 9.5, pt_to_mm(11), "condensed-bold", text_on(team.colours.primary), "middle", "middle")
        )
        name = driver.name
        s = fit(name, "condensed-bold", pt_to_mm(8), r * 1.1, "speed dial")
        text.add(Text(name, cx, cy - 6.0, s, "condensed-bold", INK, "middle", "middle"))
        sub = f"skill {driver.monaco.skill} · tech {driver.monaco.tech} · top {reach}″" if driver.monaco else team.name
        s2 = fit(sub, "condensed", pt_to_mm(6.5), r * 1.1, "speed dial")
        text.add(Text(sub, cx, cy - 2.6, s2, "condensed", INK, "middle", "middle"))
    else:
        text.add(Text("driver:", cx - r * 0.5, cy - 6.0, pt_to_mm(7), "condensed", GREY, "start", "middle"))
        lines.add(Polyline(((cx - r * 0.5, cy - 2.5), (cx + r * 0.5, cy - 2.5)), Style(stroke=GREY, width=0.2)))
    text.add(
        Text(
            f"speed in inches · ±{sp.change_per_turn}″ a turn",
            cx,
            cy + r - 6.5,
            pt_to_mm(6.5),
            "condensed",
            INK,
            "middle",
            "middle",
        )
    )
    lines.add(Polyline(((cx - 1.5, cy), (cx + 1.5, cy)), Style(stroke=INK, width=0.2)))
    lines.add(Polyline(((cx, cy - 1.5), (cx, cy + 1.5)), Style(stroke=INK, width=0.2)))
    page.add("dial-cut", Circle((cx, cy), r, Style(stroke=INK, width=0.3)))
    # the pointer, to cut out and pin through its hole at the dial's centre
    px = x + d + 6.0
    length = r - 4.0
    pw = 5.0
    pts = (
        (px, y + 2),
        (px + pw / 2, y + 2 + 7),
        (px + pw / 2, y + 2 + length + 4),
        (px - pw / 2, y + 2 + length + 4),
        (px - pw / 2, y + 2 + 7),
    )
    page.add("dial-cut", Polyline(pts, Style(stroke=INK, width=0.3), closed=True))
    hole = (px, y + 2 + length)
    lines.add(Circle(hole, 0.8, Style(stroke=INK, width=0.2)))
    del h, w


def dial_pages(field: TeamField | None, spec: PageSpec, blanks: int = 2) -> list[Page]:
    """A dial per rated driver of ``field`` (in team order) and ``blanks`` blank ones."""
    words = sheet_texts().dials
    entries: list = [(t, d) for t, d in field.drivers if d.monaco] if field else []
    entries += [None] * blanks
    d = float(tools().dial.diameter_mm)
    name = words.title + (f" — {field.name}" if field else "")
    pages = grid_pages(
        spec,
        name,
        entries,
        d + 14.0,
        d + 4.0,
        6.0,
        16.0,
        LAYERS,
        "dial-text",
        lambda page, e, x, y: dial(page, x, y, d + 14.0, d + 4.0, e),
    )
    x0, y0, cw, _ = spec.content_box
    for page in pages:
        s = fit(words.note, "regular", pt_to_mm(7.5), cw, "speed dials")
        page.add("dial-text", Text(words.note, x0, y0 + 11.0, s, "regular", INK))
    return pages
