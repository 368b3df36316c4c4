"""The race tracker: a cell for every turn of the race (cross it off, circle it when TROUBLE strikes), then the
TROUBLE log in rounds of chips — each round shows the chips of the card as boxes to tick as they are taken, and
one line per chip for the turn, group, form and drivers involved.

Sized for the race: the turn grid has exactly the race's turns, a round exactly its chips. At least two rounds are
printed, and as many more as fill the last page.
"""

from __future__ import annotations

from ...compose.blocks import fit, paragraph, title
from ...compose.colour import GREY, INK, RULE, SHADE, WHITE
from ...fonts import ascent, text_width
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .sheet import HEAD, fill, inner, new_page

PAPER = Paper("a4", "portrait")

CELL_W, CELL_H = 7.9, 6.2  # mm: a turn's cell (at most; narrower when the page is)
ROW = 7.2  # mm: a log line, tall enough to write in
COL_HEAD = 5.6  # mm: the log's column header
BOX = 3.4  # mm: a chip's tick box
BOX_PITCH = 4.4
SHARES = (0.45, 0.8, 1.55, 1.55, 1.05, 1.6, 3.0)  # the log's columns, relative widths
THIN = Style(stroke=RULE, width=0.15)
FRAME = Style(stroke=INK, width=0.3)


def _turns(page: Page, plan: facts.ChipPlan, x: float, y: float, w: float) -> float:
    """One numbered cell per turn; returns the y under the grid."""
    words = facts.sheets().tracker
    text, rules = page.layer("text"), page.layer("rules")
    hs = pt_to_mm(9)
    text.add(Text(words.turns_heading, x, y + ascent(hs, "bold"), hs, "bold", INK))
    y += ascent(hs, "bold") + 2.0
    cols = max(1, min(25, int(w // CELL_W)))
    cw = w / cols
    rows = -(-plan.turns // cols)
    size = pt_to_mm(6.5)
    for t in range(plan.turns):
        r, c = divmod(t, cols)
        cx, cy = x + c * cw, y + r * CELL_H
        rules.add(rect(cx, cy, cw, CELL_H, THIN))
        text.add(Text(str(t + 1), cx + 0.8, cy + 0.8, size, "condensed", GREY, valign="top"))
    last = plan.turns - (rows - 1) * cols  # cells in the last row
    full, low = x + (cols if rows > 1 else last) * cw, y + rows * CELL_H
    step = (
        ((full, y + (rows - 1) * CELL_H), (x + last * cw, y + (rows - 1) * CELL_H)) if last < cols and rows > 1 else ()
    )
    outline = ((x, y), (full, y), *step, (x + last * cw, low) if step else (full, low), (x, low))
    rules.add(Polyline(outline, FRAME, closed=True))
    return y + rows * CELL_H


def _round_head_height(plan: facts.ChipPlan, w: float, more: bool = False) -> float:
    """A round's band: one line for its name when it goes on from the page before, else as tall as its boxes."""
    return 3.0 + (1 if more else _box_lines(plan, w)) * BOX_PITCH - (BOX_PITCH - BOX)


def _space_width(w: float) -> tuple[float, float]:
    """(width of the round's name, width of each space) in a round's band."""
    name_w = 30.0
    return name_w, (w - name_w) / len(facts.form_keys())


def _box_lines(plan: facts.ChipPlan, w: float) -> int:
    _, sw = _space_width(w)
    per_line = max(1, int((sw - 22.0) // BOX_PITCH))
    most = max(plan.start(k) for k in facts.form_keys())
    return max(1, -(-most // per_line))


def _round_head(page: Page, plan: facts.ChipPlan, n: int, more: bool, x: float, y: float, w: float) -> float:
    """A round's band: its name and, for each space, a box per chip to tick as it is taken."""
    words = facts.sheets().tracker
    text, shade, boxes = page.layer("text"), page.layer("shade"), page.layer("boxes")
    h = _round_head_height(plan, w, more)
    shade.add(rect(x, y, w, h, Style(stroke=None, fill=SHADE)))
    name_w, sw = _space_width(w)
    label = fill(words.round_more if more else words.round, {}, n=n)
    s = fit(label, "bold", pt_to_mm(8.5), (w if more else name_w) - 2, "tracker round")
    text.add(Text(label, x + 1.5, y + 1.5, s, "bold", INK, valign="top"))
    if more:  # the boxes to tick are at the round's start, on the page before
        return y + h
    per_line = max(1, int((sw - 22.0) // BOX_PITCH))
    for i, key in enumerate(facts.form_keys()):
        sx = x + name_w + i * sw
        f = facts.form(key)
        ls = fit(f.plural, "condensed-bold", pt_to_mm(7.5), 20.0, "tracker space")
        text.add(Text(f.plural, sx, y + 1.5, ls, "condensed-bold", INK, valign="top"))
        for b in range(plan.start(key)):
            r, c = divmod(b, per_line)
            bx = sx + 21.0 + c * BOX_PITCH
            by = y + 1.5 + r * BOX_PITCH
            boxes.add(rect(bx, by, BOX, BOX, Style(stroke=INK, width=0.25, fill=WHITE)))
    return y + h


def _column_edges(x: float, w: float) -> list[float]:
    total = sum(SHARES)
    xs = [x]
    for s in SHARES:
        xs.append(xs[-1] + w * s / total)
    return xs


def _column_head(page: Page, x: float, y: float, w: float) -> float:
    words = facts.sheets().tracker
    xs = _column_edges(x, w)
    page.layer("shade").add(rect(x, y, w, COL_HEAD, Style(stroke=None, fill=HEAD)))
    for i, label in enumerate(words.columns):
        cw = xs[i + 1] - xs[i]
        s = fit(label, "condensed-bold", pt_to_mm(7.5), cw - 1.6, "tracker column")
        page.add(
            "text",
            Text(label, (xs[i] + xs[i + 1]) / 2, y + COL_HEAD / 2, s, "condensed-bold", INK, "middle", "middle"),
        )
    return y + COL_HEAD


def _log_row(page: Page, number: int, x: float, y: float, w: float) -> float:
    words = facts.sheets().tracker
    xs = _column_edges(x, w)
    text, rules = page.layer("text"), page.layer("rules")
    cy = y + ROW / 2
    text.add(Text(str(number), (xs[0] + xs[1]) / 2, cy, pt_to_mm(7.5), "condensed", GREY, "middle", "middle"))
    for col, marks in ((2, words.group_marks), (3, words.form_marks)):
        cw = xs[col + 1] - xs[col]
        step = cw / len(marks)
        for k, m in enumerate(marks):
            text.add(Text(m, xs[col] + (k + 0.5) * step, cy, pt_to_mm(7), "condensed", GREY, "middle", "middle"))
    rules.add(Polyline(((x, y + ROW), (x + w, y + ROW)), THIN))
    for xv in xs[1:-1]:
        rules.add(Polyline(((xv, y), (xv, y + ROW)), THIN))
    rules.add(Polyline(((x, y), (x, y + ROW)), FRAME))
    rules.add(Polyline(((x + w, y), (x + w, y + ROW)), FRAME))
    return y + ROW


GROUP_BLANK = (8.0, 12.0)  # mm: room to write a place number, narrowest and widest


def _groups_width(blank: float) -> float:
    """The groups line's width with blanks ``blank`` mm long."""
    words = facts.sheets().tracker
    size = pt_to_mm(8.5)
    label = text_width(words.groups_write_in, size, "bold") + 4.0
    entry = [text_width(fill(words.groups_blank, {}, group=g.name), size) for g in facts.groups()]
    return label + sum(entry) + len(entry) * (text_width(words.groups_to, size) + 2 * blank + 4 * 1.2 + 4.0)


def _groups(page: Page, x: float, y: float, w: float) -> float:
    """A line ``w`` mm long, baseline at ``y``, to write in the places each group holds: the base game's rule,
    which the add-on does not give."""
    words = facts.sheets().tracker
    size = pt_to_mm(8.5)
    page.add("text", Text(words.groups_write_in, x, y, size, "bold", INK))
    names = [fill(words.groups_blank, {}, group=g.name) for g in facts.groups()]
    blank = min(GROUP_BLANK[1], GROUP_BLANK[0] + (w - _groups_width(GROUP_BLANK[0])) / (2 * len(names)))
    tx = x + text_width(words.groups_write_in, size, "bold") + 4.0
    for name in names:
        for part in (name, words.groups_to):
            page.add("text", Text(part, tx, y, size, "regular", INK))
            lx = tx + text_width(part, size) + 1.2
            page.layer("rules").add(Polyline(((lx, y + 0.8), (lx + blank, y + 0.8)), FRAME))
            tx = lx + blank + 1.2
        tx += 4.0
    return y + 1.0


def tracker_pages(plan: facts.ChipPlan, spec: PageSpec) -> list[Page]:
    """The turn grid and the TROUBLE log, as many pages as at least two rounds of chips need."""
    words = facts.sheets().tracker
    v = facts.values(plan)
    min_rounds = words.min_rounds
    pages: list[Page] = []

    def start_page() -> tuple[Page, float, float, float, float]:
        page = new_page(spec, words.title)
        pages.append(page)
        x0, y0, cw, ch = inner(page)
        y = title(page.layer("text"), words.title, x0, y0, cw, fill(words.subtitle, v))
        return page, x0, y, cw, y0 + ch

    page, x, y, w, bottom = start_page()
    y = _turns(page, plan, x, y, w) + 4.0
    hs = pt_to_mm(9)
    page.add("text", Text(words.log_heading, x, y + ascent(hs, "bold"), hs, "bold", INK))
    room = w - text_width(words.log_heading, hs, "bold") - 6.0  # the groups share the log heading's line
    _groups(
        page,
        x + w - min(room, _groups_width(GROUP_BLANK[1])),
        y + ascent(hs, "bold"),
        min(room, _groups_width(GROUP_BLANK[1])),
    )
    y += ascent(hs, "bold") + 2.5  # clear of the write-in lines under the groups
    y = paragraph(page.layer("text"), fill(words.round_hint, v), x, y, w, pt_to_mm(7.5), "regular", GREY) + 2.0
    head = _round_head_height(plan, w)
    number = 0
    r = 0
    while True:
        r += 1
        need_all = head + COL_HEAD + plan.total * ROW
        if r > min_rounds and y + need_all > bottom:
            break
        if y + head + COL_HEAD + ROW > bottom:
            page, x, y, w, bottom = start_page()
        y = _round_head(page, plan, r, False, x, y, w)
        y = _column_head(page, x, y, w)
        for _ in range(plan.total):
            if y + ROW > bottom:
                page.layer("rules").add(Polyline(((x, y), (x + w, y)), FRAME))
                page, x, y, w, bottom = start_page()
                y = _round_head(page, plan, r, True, x, y, w)
                y = _column_head(page, x, y, w)
            number += 1
            y = _log_row(page, number, x, y, w)
        page.layer("rules").add(Polyline(((x, y), (x + w, y)), FRAME))
        y += 4.0
    if len(pages) > 1:
        from ...compose.blocks import page_title

        for i, p in enumerate(pages):
            p.title = page_title(i + 1, len(pages), words.title)
    return pages
