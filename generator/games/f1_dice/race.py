"""The race sheet: a lap counter per car (a box to tick each time it crosses the line, and where and why it
retired), the lap chart (the order on track after every lap, grid first) and the finishing order with each
place's points, ready to copy into the standings.

Every car has a code (its monogram, made unique in the field) that the lap chart and the finishing order are
written with. A long race whose lap chart has no room beside the counter gets it on a page of its own.
"""

from __future__ import annotations

from ...compose.blocks import fit, fitted_text, paragraph, title
from ...compose.colour import GREY, INK, WHITE, ZEBRA
from ...fonts import ascent, text_width
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import RaceFacts, points_system
from .facts import facts as game_facts
from .sheet import inner, new_page
from .slips import wing_text

PAPER = Paper("a4", "landscape")
RULE = Style(stroke=INK, width=0.25)
THIN = Style(stroke="#9a9a9a", width=0.15)
BOX = Style(stroke=INK, width=0.2, fill=WHITE)
HEAD = pt_to_mm(7.5)
SMALL = pt_to_mm(6.5)
GAP = 6.0
FINISH_W = 50.0
CHART_COL_MIN = 9.0  # mm: a lap column narrower than this cannot take a code: the chart goes on its own page
CHART_COL_MAX = 28.0
LAP_BOX = 5.0  # mm: a lap box of the counter (narrower for a long race, down to LAP_BOX_MIN)
LAP_BOX_MIN = 3.6
SWATCH_W, CODE_W, CAR_W, OUT_W = 3.0, 10.0, 44.0, 18.0  # the counter's columns but its boxes (mm)
COUNTER_FIXED = SWATCH_W + CODE_W + CAR_W + 1 + OUT_W


def codes(field: TeamField) -> list[str]:
    """Each car's code, in the field's order: its monogram (``VET``), with a digit added where two would be alike."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for _, driver in field.drivers:
        code = driver.initials
        seen[code] = seen.get(code, 0) + 1
        out.append(code if seen[code] == 1 else f"{code}{seen[code]}")
    return out


def race_sheet(
    field: TeamField, circuit_name: str, facts: RaceFacts, spec: PageSpec, points_id: str | None = None
) -> list[Page]:
    """For ``field`` on the board ``facts`` describes: the counter, the chart and the finishing order (a row per
    car), on one page, or two when the lap chart needs the width of a page."""
    words = game_facts().words.race
    page = new_page(spec, f"Race sheet — {circuit_name}")
    x0, y0, cw, ch = inner(page)
    text = page.layer("text")
    sub = words.subtitle.format(laps_said=facts.laps_said, lap_units=facts.lap_units, action_list=facts.action_list)
    top = title(text, words.title.format(circuit=circuit_name), x0, y0, cw) - 1
    top = paragraph(text, sub, x0, top, cw, pt_to_mm(8), leading=1.25) + 2.5
    bottom = y0 + ch
    cars = len(field.drivers)
    head_h = 8.0
    rows_top = top + 6.5 + head_h  # under a block title and its header
    row_h = min(7.0, (bottom - rows_top - 9) / max(cars, 1))
    boxes = facts.laps + 1  # the start's S box, then one a lap
    box = max(LAP_BOX_MIN, min(LAP_BOX, (cw - FINISH_W - GAP - COUNTER_FIXED) / boxes))
    counter_w = COUNTER_FIXED + boxes * box
    chart_w = cw - counter_w - FINISH_W - 2 * GAP
    beside = (chart_w - 8) / (facts.laps + 1) >= CHART_COL_MIN
    _counter(page, field, x0, top, counter_w, head_h, row_h, facts.laps, box, words)
    fx = x0 + counter_w + GAP
    if beside:
        chart_w = min(chart_w, 8.0 + (facts.laps + 1) * CHART_COL_MAX)
        _chart(page, fx, top, chart_w, head_h, row_h, cars, facts.laps, words)
        fx += chart_w + GAP
    _finish(page, fx, top, FINISH_W, head_h, row_h, cars, points_id, words)
    if beside:
        return [page]
    second = new_page(spec, f"Lap chart — {circuit_name}")
    x0, y0, cw, ch = inner(second)
    head = f"{facts.laps_said} of {facts.lap_units} units. {words.chart_note}"
    top = title(second.layer("text"), f"{words.chart_heading} — {circuit_name}", x0, y0, cw, head)
    row_h = min(7.0, (y0 + ch - top - 6.5 - head_h - 4) / max(cars, 1))
    chart_w = min(cw, 8.0 + (facts.laps + 1) * CHART_COL_MAX)
    _chart(second, x0, top, chart_w, head_h, row_h, cars, facts.laps, words)
    return [page, second]


def _header(page, label, x, y, w, h, anchor="middle") -> None:
    page.add("shade", rect(x, y, w, h, Style(stroke=None, fill="#e6e6e6")))
    tx = x + w / 2 if anchor == "middle" else x + 1.2
    page.add(
        "text",
        Text(
            label,
            tx,
            y + h / 2,
            fit(label, "condensed-bold", HEAD, w - 1.5),
            "condensed-bold",
            INK,
            anchor=anchor,
            valign="middle",
        ),
    )


def _block_title(page, label, x, y) -> float:
    s = pt_to_mm(10.5)
    page.add("text", Text(label, x, y + ascent(s, "bold"), s, "bold", INK))
    return y + 6.5


def _flag(page, x, y, w, h) -> None:
    """A small chequered flag: the last lap's box."""
    n, m = 4, 2
    for i in range(n):
        for j in range(m):
            if (i + j) % 2 == 0:
                page.add("grid", rect(x + i * w / n, y + j * h / m, w / n, h / m, Style(stroke=None, fill=INK)))
    page.add("grid", rect(x, y, w, h, Style(stroke=INK, width=0.15)))


def _counter(page, field: TeamField, x, top, w, head_h, row_h, laps, box, words) -> None:
    """A row per car: its colours, code, driver's name and the name on its wing (and number), the start's S box
    and a box per lap, and where it retired."""
    y = _block_title(page, words.counter_heading, x, top)
    lx = x + SWATCH_W + CODE_W + CAR_W + 1
    ox = x + w - OUT_W
    _header(page, words.code_column, x, y, SWATCH_W + CODE_W, head_h)
    _header(page, words.car_column, x + SWATCH_W + CODE_W, y, CAR_W, head_h, "start")
    _header(page, words.laps_column, lx, y, (laps + 1) * box, head_h * 0.55, "start")
    for k in range(laps + 1):  # S for the start, the lap numbers, the last one under a chequered flag
        bx = lx + k * box
        ny = y + head_h * 0.55
        page.add("shade", rect(bx, ny, box, head_h * 0.45, Style(stroke=None, fill="#e6e6e6")))
        if k == laps:
            _flag(page, bx + box * 0.15, ny + 0.4, box * 0.7, head_h * 0.45 - 0.8)
        else:
            label = words.start_column if k == 0 else str(k)
            font = "condensed-bold" if k == 0 else "condensed"
            size = fit(label, font, pt_to_mm(6), box - 0.6, "race sheet: lap counter")
            page.add("text", Text(label, bx + box / 2, ny + head_h * 0.225, size, font, INK, "middle", "middle"))
    _header(page, words.out_column, ox, y, OUT_W, head_h)
    y += head_h
    what = "race sheet: lap counter"
    for i, ((team, driver), code) in enumerate(zip(field.drivers, codes(field), strict=True)):
        ry = y + i * row_h
        cy = ry + row_h / 2
        if i % 2 == 0:
            page.add("shade", rect(x, ry, w, row_h, Style(stroke=None, fill=ZEBRA)))
        colour = Style(stroke=INK, width=0.1, fill=team.colours.primary)
        page.add("swatch", rect(x + 0.4, cy - row_h * 0.32, SWATCH_W - 0.8, row_h * 0.64, colour))
        size = min(pt_to_mm(8), row_h * 0.6)
        page.add(
            "text",
            fitted_text(
                code,
                x + SWATCH_W + 1,
                cy,
                CODE_W - 1.5,
                max_size=size,
                font="condensed-bold",
                valign="middle",
                what=what,
            ),
        )
        # the driver's name, and beside it (grey) what the slip's wing says, so a slip finds its row
        wing = wing_text(driver) + (f" #{driver.number}" if driver.number is not None else "")
        cx, right = x + SWATCH_W + CODE_W, x + SWATCH_W + CODE_W + CAR_W - 1.0
        wing_size = fit(wing, "condensed-bold", size * 0.9, CAR_W * 0.4, what)
        page.add("text", Text(wing, right, cy, wing_size, "condensed-bold", GREY, "end", "middle"))
        room = right - cx - text_width(wing, wing_size, "condensed-bold") - 1.5
        page.add(
            "text", fitted_text(driver.name, cx, cy, room, max_size=size, font="condensed", valign="middle", what=what)
        )
        bh = min(row_h * 0.76, box - 0.8)
        for k in range(laps + 1):
            page.add("boxes", rect(lx + k * box + 0.4, cy - bh / 2, box - 0.8, bh, BOX))
        page.add("boxes", rect(ox + 1, cy - bh / 2, 6.5, bh, BOX))
        page.add("boxes", rect(ox + 8.5, cy - bh / 2, OUT_W - 9.5, bh, BOX))
    page.add("rules", rect(x, y, w, len(field.drivers) * row_h, RULE))
    note_y = y + len(field.drivers) * row_h + 1.5
    paragraph(page.layer("text"), words.counter_note, x, note_y, w, SMALL, "condensed", GREY, leading=1.2)


def _chart(page, x, top, w, head_h, row_h, cars, laps, words) -> None:
    y = _block_title(page, words.chart_heading, x, top)
    pos_w = 8.0
    columns = [words.grid_column] + [words.lap_column.format(n=n) for n in range(1, laps + 1)]
    col_w = (w - pos_w) / len(columns)
    _header(page, "Pos", x, y, pos_w, head_h)
    for i, label in enumerate(columns):
        _header(page, label if col_w >= 9 else label.replace("Lap ", ""), x + pos_w + i * col_w, y, col_w, head_h)
    y += head_h
    for r in range(cars):
        ry = y + r * row_h
        if r % 2 == 0:
            page.add("shade", rect(x, ry, w, row_h, Style(stroke=None, fill=ZEBRA)))
        page.add(
            "text", Text(f"P{r + 1}", x + pos_w / 2, ry + row_h / 2, SMALL, "condensed-bold", INK, "middle", "middle")
        )
        for i in range(len(columns)):
            page.add("grid", rect(x + pos_w + i * col_w, ry, col_w, row_h, THIN))
    page.add("rules", rect(x, y, w, cars * row_h, RULE))
    page.add("rules", Polyline(((x + pos_w + col_w, y - head_h), (x + pos_w + col_w, y + cars * row_h)), RULE))


def _finish(page, x, top, w, head_h, row_h, cars, points_id, words) -> None:
    system = points_system(points_id)
    pts = system.points
    y = _block_title(page, words.finish_heading, x, top)
    pos_w, pts_w = 8.0, 9.0
    _header(page, "Pos", x, y, pos_w, head_h)
    _header(page, words.code_column, x + pos_w, y, w - pos_w - pts_w, head_h, "start")
    _header(page, words.points_column, x + w - pts_w, y, pts_w, head_h)
    y += head_h
    for r in range(cars):
        ry = y + r * row_h
        if r % 2 == 0:
            page.add("shade", rect(x, ry, w, row_h, Style(stroke=None, fill=ZEBRA)))
        page.add(
            "text", Text(f"P{r + 1}", x + pos_w / 2, ry + row_h / 2, SMALL, "condensed-bold", INK, "middle", "middle")
        )
        page.add("rules", Polyline(((x + pos_w + 1, ry + row_h - 1.2), (x + w - pts_w - 1, ry + row_h - 1.2)), THIN))
        value = str(pts[r]) if r < len(pts) else "–"
        page.add(
            "text",
            Text(
                value,
                x + w - pts_w / 2,
                ry + row_h / 2,
                SMALL,
                "condensed-bold",
                INK if r < len(pts) else GREY,
                "middle",
                "middle",
            ),
        )
    page.add("rules", rect(x, y, w, cars * row_h, RULE))
    note = words.finish_note.format(label=system.label, scale=system.scale)
    paragraph(page.layer("text"), note, x, y + cars * row_h + 1.5, w, SMALL, "condensed", GREY, leading=1.2)
