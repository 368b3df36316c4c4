"""The TROUBLE tables: drivers involved in an ACCIDENT for every dice total and group, the chance of each number of
drivers, how to pick them, and the add-on's two worked examples marked on the table.

Nothing here is typed in: every cell is computed from the divisors, the rounding and the dice in
``templates/rwb-trouble/rules.yaml`` (:mod:`facts`).
"""

from __future__ import annotations

from ...compose.blocks import Column, fit, heading, paragraph, table, title
from ...compose.colour import GREY, INK, RULE, ZEBRA
from ...paper import PageSpec, Paper
from ...scene import Circle, Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .sheet import BLUE, example_box, fill, inner, new_page, steps
from .sheet import HEAD as HEAD_FILL

PAPER = Paper("a4", "portrait")

BODY = pt_to_mm(9)
ROW = 8.0  # mm: a row of the lookup
HEAD = 9.5  # mm: the lookup's header row


def example_text(ex: facts.WorkedAccident, n: int) -> tuple[str, str]:
    """The title and text of the add-on's worked example ``n``, told in Paddock's words from the facts."""
    words = facts.sheets().tables
    v = facts.values()
    group = facts.group_name(ex.group)
    a, b = ex.dice
    more = dict(
        die_a=a,
        die_b=b,
        total=ex.total,
        divisor=facts.divisor(ex.group),
        exact=facts.exact_quotient(ex.total, facts.divisor(ex.group)),
        drivers=ex.drivers,
        first=ex.first,
        named=facts.named_drivers(ex),
        group=group,
    )
    body = words.example_top if facts.divisor(ex.group) != 1 else words.example_bottom
    return fill(words.example_title, v, n=n, group=group), fill(body, v, **more)


def _lookup(page: Page, x: float, y: float, w: float) -> float:
    """Dice total × group → drivers, with each total's chance; the examples ringed. Returns the y under it."""
    words = facts.sheets().tables
    text, rules, shade, boxes = page.layer("text"), page.layer("rules"), page.layer("shade"), page.layer("boxes")
    keys = facts.group_keys()
    shares = [1.0, 1.45] + [1.0] * len(keys)
    total_share = sum(shares)
    xs = [x]
    for s in shares:
        xs.append(xs[-1] + w * s / total_share)
    heads = [words.total_column, words.chance_column, *(facts.group_column(k) for k in keys)]
    shade.add(rect(x, y, w, HEAD, Style(stroke=None, fill=HEAD_FILL)))
    for i, label in enumerate(heads):
        cw = xs[i + 1] - xs[i]
        s = fit(label, "condensed-bold", pt_to_mm(8.5), cw - 2, "lookup header")
        text.add(Text(label, (xs[i] + xs[i + 1]) / 2, y + HEAD / 2, s, "condensed-bold", INK, "middle", "middle"))
    top = y + HEAD
    examples = {(ex.total, ex.group): k for k, ex in enumerate(facts.accident_examples(), 1)}
    rows = facts.accident_table()
    for r, (total, ways, drivers) in enumerate(rows):
        ry = top + r * ROW
        if r % 2:
            shade.add(rect(x, ry, w, ROW, Style(stroke=None, fill=ZEBRA)))
        cy = ry + ROW / 2
        text.add(Text(str(total), (xs[0] + xs[1]) / 2, cy, pt_to_mm(11), "bold", INK, "middle", "middle"))
        chance = facts.chance_text(ways)
        s = fit(chance, "condensed", pt_to_mm(8), xs[2] - xs[1] - 2, "chance")
        text.add(Text(chance, (xs[1] + xs[2]) / 2, cy, s, "condensed", GREY, "middle", "middle"))
        for i, key in enumerate(keys):
            cx = (xs[i + 2] + xs[i + 3]) / 2
            text.add(Text(str(drivers[key]), cx, cy, pt_to_mm(11), "bold", INK, "middle", "middle"))
            n = examples.get((total, key))
            if n is not None:  # ring the example's cell and name it
                boxes.add(Circle((cx, cy), ROW * 0.46, Style(stroke=BLUE, width=0.45)))
                mark = fill(words.example_mark, {}, n=n)
                right = xs[i + 3] - 0.8
                text.add(Text(mark, right, ry + 0.7, pt_to_mm(6.5), "condensed-bold", BLUE, "end", "top"))
        rules.add(Polyline(((x, ry + ROW), (x + w, ry + ROW)), Style(stroke=RULE, width=0.15)))
    bottom = top + len(rows) * ROW
    for xv in xs[1:-1]:
        rules.add(Polyline(((xv, top), (xv, bottom)), Style(stroke=RULE, width=0.15)))
    rules.add(Polyline(((xs[2], y), (xs[2], bottom)), Style(stroke=INK, width=0.35)))
    rules.add(rect(x, y, w, bottom - y, Style(stroke=INK, width=0.35)))
    return bottom


def _chances(page: Page, x: float, y: float, w: float) -> float:
    """Number of drivers × group → chance, with a bar for each. Returns the y under it."""
    words = facts.sheets().tables
    text, rules, shade = page.layer("text"), page.layer("rules"), page.layer("shade")
    keys = facts.group_keys()
    by_group = {k: facts.driver_chances(k) for k in keys}
    counts = sorted({n for c in by_group.values() for n in c})
    most = max(v for c in by_group.values() for v in c.values())
    first = w * 0.16
    cw = (w - first) / len(keys)
    row = (ROW * len(facts.totals())) / len(counts)  # the two tables end level
    shade.add(rect(x, y, w, HEAD, Style(stroke=None, fill=HEAD_FILL)))
    heads = [words.drivers_column, *(facts.group_name(k) for k in keys)]
    for i, label in enumerate(heads):
        cx = x + first / 2 if i == 0 else x + first + (i - 0.5) * cw
        s = fit(label, "condensed-bold", pt_to_mm(8.5), (first if i == 0 else cw) - 2, "chance header")
        text.add(Text(label, cx, y + HEAD / 2, s, "condensed-bold", INK, "middle", "middle"))
    top = y + HEAD
    for r, n in enumerate(counts):
        ry = top + r * row
        if r % 2:
            shade.add(rect(x, ry, w, row, Style(stroke=None, fill=ZEBRA)))
        cy = ry + row / 2
        text.add(Text(str(n), x + first / 2, cy, pt_to_mm(10), "bold", INK, "middle", "middle"))
        for i, key in enumerate(keys):
            ways = by_group[key].get(n, 0)
            bx = x + first + i * cw
            if ways:
                bar = (cw - 3) * ways / most
                shade.add(rect(bx + 1.5, ry + row - 1.6, bar, 0.9, Style(stroke=None, fill="#9db4dc")))
            label = facts.chance_text(ways)
            s = fit(label, "condensed", pt_to_mm(8), cw - 2, "chance")
            text.add(Text(label, bx + cw / 2, cy - 0.4, s, "condensed", INK if ways else GREY, "middle", "middle"))
        rules.add(Polyline(((x, ry + row), (x + w, ry + row)), Style(stroke=RULE, width=0.15)))
    bottom = top + len(counts) * row
    for i in range(len(keys)):
        xv = x + first + i * cw
        line = Style(stroke=INK, width=0.35) if i == 0 else Style(stroke=RULE, width=0.15)
        rules.add(Polyline(((xv, top), (xv, bottom)), line))
    rules.add(rect(x, y, w, bottom - y, Style(stroke=INK, width=0.35)))
    return bottom


def _chip_tables(page: Page, x: float, y: float, w: float, col: float, gap: float, v: dict[str, str]) -> float:
    """Chips by race length (left) and where the extras go by track (right): the add-on's suggestion and how a
    pack shares them out (Paddock's reading): the rule summary's tables, drawn here."""
    from .summary import tables

    words = facts.sheets().tables
    text, rules = page.layer("text"), page.layer("rules")
    data = tables()
    chips, tracks = data["chips_by_length"], data["extras_by_track"]
    ly = heading(text, rules, words.chips_heading, x, y, col)
    columns = [Column(chips["columns"][0], 1.7, "start"), *(Column(c) for c in chips["columns"][1:])]
    ly = table(text, x, ly, col, columns, chips["rows"], BODY, zebra=ZEBRA)
    ly = paragraph(text, fill(words.chips_more, v), x, ly + 1.2, col, pt_to_mm(7.5), "condensed", GREY)
    rx = x + col + gap
    ry = heading(text, rules, words.tracks_heading, rx, y, col)
    columns = [
        Column(tracks["columns"][0], 1, "start"),
        Column(tracks["columns"][1], 0.9, "start"),
        Column(tracks["columns"][2], 1.5, "start"),
    ]
    ry = table(text, rx, ry, col, columns, tracks["rows"], BODY, zebra=ZEBRA)
    ry = paragraph(text, words.reading_note, rx, ry + 1.2, col, pt_to_mm(7.5), "condensed", GREY)
    return max(ly, ry)


def tables_page(spec: PageSpec) -> Page:
    words = facts.sheets().tables
    v = facts.values()
    page = new_page(spec, words.title)
    x0, y0, cw, ch = inner(page)
    text, rules = page.layer("text"), page.layer("rules")
    y = title(text, words.title, x0, y0, cw, facts.credit())
    gap = 7.0
    col = (cw - gap) / 2
    rx = x0 + col + gap
    ly = heading(text, rules, words.accident_heading, x0, y, col)
    ry = heading(text, rules, words.drivers_heading, rx, y, col)
    ly = paragraph(text, fill(words.accident_intro, v), x0, ly, col, BODY, leading=1.3) + 2.0
    ry = paragraph(text, fill(words.chance_note, v), rx, ry, col, BODY, leading=1.3) + 2.0
    top = max(ly, ry)
    bottom = max(_lookup(page, x0, top, col), _chances(page, rx, top, col))

    y = bottom + 6.0
    ly = heading(text, rules, words.pick_heading, x0, y, col)
    ly = steps(text, [fill(s, v) for s in words.pick], x0, ly, col, BODY)
    s = pt_to_mm(7.5)
    ly = paragraph(text, words.reading, x0, ly + 0.8, col, s, "condensed", GREY, leading=1.3)
    ry = heading(text, rules, words.examples_heading, rx, y, col)
    for n, ex in enumerate(facts.accident_examples(), 1):
        head, body = example_text(ex, n)
        ry = example_box(page, head, body, rx, ry, col, BODY) + 3.0
    y = max(ly, ry) + 4.0
    y = _chip_tables(page, x0, y, cw, col, gap, v)
    if y > y0 + ch:
        from ...notices import warn

        warn(f"TROUBLE tables run {y - (y0 + ch):.1f} mm past the page's content box")
    return page
