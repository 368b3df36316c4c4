"""The race sheet: a lap chart (the order on track after every lap, grid first), the retirements with the lap and
the reason, and the finishing order with each place's points, ready to copy into the standings."""

from __future__ import annotations

from ...compose.blocks import fit, title
from ...compose.colour import GREY, INK, WHITE, ZEBRA
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from .facts import RaceFacts, points_system
from .facts import facts as game_facts
from .sheet import inner, new_page

PAPER = Paper("a4", "landscape")
RULE = Style(stroke=INK, width=0.25)
THIN = Style(stroke="#9a9a9a", width=0.15)
HEAD = pt_to_mm(7.5)
RETIRE_MIN = 92.0  # mm: driver, lap and the three reasons to tick
SMALL = pt_to_mm(6.5)


def race_sheet(cars: int, circuit_name: str, facts: RaceFacts, spec: PageSpec, points_id: str | None = None) -> Page:
    """For a field of ``cars`` on the board ``facts`` describes: a row per position, a column per lap."""
    words = game_facts().words.race
    page = new_page(spec, f"Race sheet — {circuit_name}")
    x0, y0, cw, ch = inner(page)
    text = page.layer("text")
    sub = words.subtitle.format(laps=facts.laps, lap_units=facts.lap_units)
    top = title(text, words.title.format(circuit=circuit_name), x0, y0, cw, sub)
    bottom = y0 + ch
    head_h = 8.0
    row_h = min(7.0, (bottom - top - head_h - 12) / max(cars, 1))
    # Three blocks side by side: the lap chart (a column per lap, up to ~28 mm each), the finishing order and the
    # retirements, which take what the chart leaves (at least enough for the three reasons to tick).
    finish_w, gap = 50.0, 6.0
    chart_w = min(cw - finish_w - RETIRE_MIN - 2 * gap, 8.0 + (facts.laps + 1) * 28.0)
    retire_w = cw - chart_w - finish_w - 2 * gap
    _chart(page, x0, top, chart_w, head_h, row_h, cars, facts.laps, words)
    fx = x0 + chart_w + gap
    _finish(page, fx, top, finish_w, head_h, row_h, cars, points_id, words)
    _retirements(page, fx + finish_w + gap, top, retire_w, head_h, bottom, words)
    return page


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
    return y + ascent(s, "bold") + 2.0


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
    _header(page, "Driver", x + pos_w, y, w - pos_w - pts_w, head_h, "start")
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
    note = f"{system.label}: {system.scale}"
    page.add("text", Text(note, x, y + cars * row_h + 3.2, fit(note, "condensed", SMALL, w), "condensed", GREY))


def _retirements(page, x, top, w, head_h, bottom, words) -> None:
    y = _block_title(page, words.retire_heading, x, top)
    names, lap, why = words.retire_columns
    name_w, lap_w = w * 0.34, 8.0
    why_w = w - name_w - lap_w
    _header(page, names, x, y, name_w, head_h, "start")
    _header(page, lap, x + name_w, y, lap_w, head_h)
    _header(page, why, x + name_w + lap_w, y, why_w, head_h, "start")
    y += head_h
    row_h = 8.0
    rows = int((bottom - 10 - y) // row_h)
    reasons = words.reasons
    for r in range(rows):
        ry = y + r * row_h
        if r % 2 == 0:
            page.add("shade", rect(x, ry, w, row_h, Style(stroke=None, fill=ZEBRA)))
        page.add(
            "grid", rect(x + name_w + 1, ry + 1.2, lap_w - 2, row_h - 2.4, Style(stroke=INK, width=0.2, fill=WHITE))
        )
        bx = x + name_w + lap_w + 1.0
        step = (why_w - 2) / len(reasons)
        for k, reason in enumerate(reasons):
            cx = bx + k * step
            page.add("boxes", rect(cx, ry + row_h / 2 - 1.3, 2.6, 2.6, Style(stroke=INK, width=0.2, fill=WHITE)))
            size = fit(reason, "condensed", pt_to_mm(6), step - 4)
            page.add("text", Text(reason, cx + 3.4, ry + row_h / 2, size, "condensed", INK, valign="middle"))
    page.add("rules", rect(x, y, w, rows * row_h, RULE))
    note = words.reasons_note
    page.add("text", Text(note, x, y + rows * row_h + 3.2, fit(note, "condensed", SMALL, w), "condensed", GREY))
