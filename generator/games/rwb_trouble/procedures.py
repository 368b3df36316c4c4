"""The TROUBLE procedures: choosing the form from the chips, the ACCIDENT in brief, the CRASH as a flow chart a
player follows at the table (boxes and arrows, legible in black and white), the add-on's CRASH example and WRECKS.

The base game's ESCAPE and REPAIR ranges are not in the add-on: the chart refers to them and never states them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...compose.blocks import heading, paragraph, title, wrap
from ...compose.colour import GREY, INK, SHADE, WHITE
from ...fonts import cap_height
from ...notices import warn
from ...paper import PageSpec, Paper
from ...scene import Page, Polygon, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .sheet import HEAD, example_box, fill, inner, new_page, steps

PAPER = Paper("a4", "portrait")

BODY = pt_to_mm(9)
FLOW = pt_to_mm(9.5)  # type size in the chart's boxes
LINE = Style(stroke=INK, width=0.45)
GAPS = (9.0, 7.5, 6.0, 5.0, 4.0)  # mm: the length of a downward arrow between two boxes, longest that fits first
PAD = 2.2  # mm inside a box
DIAMOND_W, DIAMOND_H = 58.0, 15.0
POINT = 6.0  # mm: how far a question's pointed ends reach out


# -- the chart's pieces ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    text: str
    kind: str  # start | step | question | outcome | out | final

    def lines(self, width: float) -> list[str]:
        return wrap(self.text, width - 2 * PAD - (2 * POINT if self.kind == "question" else 0.0), FLOW, self.font)

    @property
    def font(self) -> str:
        return "bold" if self.kind in ("question", "out", "final") else "regular"

    def height(self, width: float) -> float:
        if self.kind == "question":
            return DIAMOND_H
        return len(self.lines(width)) * FLOW * 1.25 + 2 * PAD - FLOW * 0.25 + 0.6


def draw_node(page: Page, node: Node, x: float, y: float, w: float) -> float:
    """Draw ``node`` with its top-left corner at (x, y), ``w`` wide; returns its height."""
    h = node.height(w)
    shapes, text = page.layer("boxes"), page.layer("text")
    if node.kind == "question":
        cy = y + h / 2  # a question: a box with pointed ends, so it reads apart from the steps
        pts = ((x + POINT, y), (x + w - POINT, y), (x + w, cy), (x + w - POINT, y + h), (x + POINT, y + h), (x, cy))
        shapes.add(Polygon(pts, (), Style(stroke=INK, width=0.45, fill=WHITE)))
    else:
        fills = {"start": HEAD, "outcome": SHADE, "final": SHADE}
        width = {"out": 1.0, "start": 0.6}.get(node.kind, 0.45)
        shapes.add(rect(x, y, w, h, Style(stroke=INK, width=width, fill=fills.get(node.kind, WHITE))))
    lines = node.lines(w)
    step = FLOW * 1.25
    block = (len(lines) - 1) * step + cap_height(FLOW, node.font)
    top = y + (h - block) / 2 + cap_height(FLOW, node.font)
    for i, line in enumerate(lines):
        text.add(Text(line, x + w / 2, top + i * step, FLOW, node.font, INK, anchor="middle"))
    return h


def arrow(page: Page, points: list[tuple[float, float]], label: str | None = None, label_at: str = "start") -> None:
    """A line through ``points`` ending in a filled head; ``label`` (yes / no) beside its first leg."""
    layer = page.layer("rules")
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length, half = 2.6, 1.2
    dx, dy = x2 - x1, y2 - y1
    d = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / d, dy / d
    base = (x2 - ux * length, y2 - uy * length)
    layer.add(Polyline((*points[:-1], base), LINE))
    head = (x2, y2), (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)
    layer.add(Polygon(head, (), Style(stroke=None, fill=INK)))
    if label:
        (ax, ay), (bx, by) = points[0], points[1]
        size = pt_to_mm(8)
        if abs(bx - ax) > abs(by - ay):  # horizontal: the label sits above the line
            page.add("text", Text(label, ax + 2.0, ay - 1.2, size, "condensed-bold", INK))
        else:  # vertical: beside it
            page.add("text", Text(label, ax + 1.6, ay + 1.0, size, "condensed-bold", INK, valign="top"))


# -- the CRASH chart ----------------------------------------------------------------------------------------------


def crash_flow(page: Page, x: float, y: float, w: float, gap: float = GAPS[0]) -> float:
    """The CRASH flow chart across ``w`` mm from the top at ``y``; returns the y under it."""
    words = facts.sheets().procedures
    flow = type(words.flow)(**{k: fill(t, facts.values()) for k, t in words.flow.model_dump(by_alias=True).items()})
    x, w = x + 0.6, w - 1.2  # heavy outlines stay inside the column
    main_w = w * 0.42
    side_x = x + main_w + 20.0
    bus_x = x + w - 3.0
    side_w = bus_x - 5.0 - side_x
    mid = x + main_w / 2
    yes, no = flow.yes, flow.no

    chain = [
        (Node(flow.start, "start"), None),
        (Node(flow.first_pass, "question"), Node(flow.unaffected, "outcome")),
        (Node(flow.again, "step"), None),
        (Node(flow.second_pass, "question"), Node(flow.dropped, "outcome")),
        (Node(flow.repair, "step"), None),
        (Node(flow.repair_pass, "question"), Node(flow.to_bottom, "outcome")),
        (Node(flow.out, "out"), None),
    ]
    ends: list[tuple[float, float]] = []  # right edges of the outcomes, joined to the closing step
    cy = prev_bottom = y
    for i, (node, side) in enumerate(chain):
        nw = DIAMOND_W if node.kind == "question" else main_w
        nx = mid - nw / 2
        h = node.height(nw)
        if side is not None:  # the outcome sits level with its question
            sh = side.height(side_w)
            top = cy + h / 2 - sh / 2
            if top < cy:  # a tall outcome pushes its question down
                cy += cy - top
                top = cy + h / 2 - sh / 2
        if i:
            arrow(page, [(mid, prev_bottom), (mid, cy)], no if chain[i - 1][0].kind == "question" else None)
        draw_node(page, node, nx, cy, nw)
        if side is not None:
            draw_node(page, side, side_x, top, side_w)
            arrow(page, [(nx + nw, cy + h / 2), (side_x, cy + h / 2)], yes)
            ends.append((side_x + side_w, top + sh / 2))
        prev_bottom = cy + h
        cy += h + gap
        if side is not None:
            cy = max(cy, top + sh + 3.0)

    # Every path ends in the closing step: the outcomes join a line down the right, "out" comes straight down.
    final = Node(flow.finally_, "final")
    fy = cy
    fh = final.height(w)
    layer = page.layer("rules")
    for ex, ey in ends:
        layer.add(Polyline(((ex, ey), (bus_x, ey)), LINE))
    top_bus = ends[0][1]
    arrow(page, [(bus_x, top_bus), (bus_x, fy)])
    arrow(page, [(mid, prev_bottom), (mid, fy)])
    draw_node(page, final, x, fy, w)
    return fy + fh


# -- the page -----------------------------------------------------------------------------------------------------


def crash_example_text() -> tuple[str, str]:
    words = facts.sheets().procedures
    v = facts.values()
    ex = facts.crash_example()
    group = facts.group_name(ex.group)
    dropped = [f"#{d.driver}" for d in ex.dropped]
    body = fill(
        words.crash_example,
        v,
        failed_first=ex.failed_first,
        failed_second=ex.failed_second,
        dropped_list=facts.join_words(dropped),
        drops="; ".join(facts.crash_drops()),
    )
    return fill(words.crash_example_title, v, group=group), body


def crash_reading(page: Page, x: float, y: float, w: float) -> float:
    """Paddock's reading of where several drivers moved by one CRASH end up, marked as such, in a ruled box."""
    readings = facts.sheets().readings
    r = readings.crash_places
    text = page.layer("text")
    top, ix, iw = y, x + PAD, w - 2 * PAD
    y = paragraph(text, f"{readings.label.upper()}: {r.heading}", ix, y + PAD, iw, pt_to_mm(8.5), "bold", INK)
    y = paragraph(text, r.text, ix, y + 0.6, iw, BODY, "regular", INK, leading=1.3)
    y = paragraph(text, f"{readings.why} {r.why}", ix, y + 0.6, iw, pt_to_mm(8), "condensed", GREY)
    y += PAD
    page.layer("boxes").add(rect(x, top, w, y - top, Style(stroke=INK, width=0.3, fill=None, dash=(1.2, 0.8))))
    return y


def procedures_page(spec: PageSpec) -> Page:
    """The page with the chart's arrows as long as the paper allows (shorter on Letter than on A4)."""
    _, y0, _, ch = spec.content_box
    for gap in GAPS:
        page, bottom = _procedures(spec, gap)
        if bottom <= y0 + ch:
            return page
    warn(f"TROUBLE procedures run {bottom - (y0 + ch):.1f} mm past the page's content box")
    return page


def _procedures(spec: PageSpec, flow_gap: float) -> tuple[Page, float]:
    words = facts.sheets().procedures
    v = facts.values()
    page = new_page(spec, words.title)
    x0, y0, cw, ch = inner(page)
    text, rules = page.layer("text"), page.layer("rules")
    y = title(text, words.title, x0, y0, cw, facts.credit())
    gap = 7.0
    col = (cw - gap) / 2
    rx = x0 + col + gap
    ly = heading(text, rules, words.which_heading, x0, y, col)
    ly = steps(text, [fill(s, v) for s in words.which], x0, ly, col, BODY)
    ry = heading(text, rules, words.accident_heading, rx, y, col)
    ry = paragraph(text, fill(words.accident, v), rx, ry, col, BODY, leading=1.3) + 2.5
    ry = heading(text, rules, words.wreck_heading, rx, ry, col)
    ry = paragraph(text, fill(words.wreck, v), rx, ry, col, BODY, leading=1.3)

    y = max(ly, ry) + 4.0
    y = heading(text, rules, words.crash_heading, x0, y, cw)
    y = paragraph(text, fill(words.crash_intro, v), x0, y, cw, BODY, leading=1.3) + 3.0
    y = crash_flow(page, x0, y, cw, flow_gap) + 5.0
    head, body = crash_example_text()
    y = example_box(page, head, body, x0, y, cw, BODY) + 3.0
    y = crash_reading(page, x0, y, cw) + 3.0
    y = paragraph(text, words.base_note, x0, y, cw, pt_to_mm(7.5), "condensed", GREY)
    return page, y
