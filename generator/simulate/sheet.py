"""The printable report of a simulation: two pages composed from a :class:`~.report.SimReport`, knowing no game.

Page 1 — how the circuit plays at a glance: the board drawn twice, coloured by where places change and by where
wear points are lost (each with its key), the key figures, and the warnings for the designer. Page 2 — the
tables (corners, straights …) and small bar charts. Both are text sheets (``settings.text_page``): the board is
shown to fit, not at true scale. Colours run from pale to dark, so the pictures read in greyscale too.
"""

from __future__ import annotations

from ..compose.blocks import BODY, SMALL, Column, auto_columns, bullets, fit, heading, paragraph, table, title
from ..compose.colour import GREY, INK, RULE, mix
from ..fonts import text_width
from ..paper import PageSpec, Paper
from ..scene import Circle, Group, Page, Polygon, Polyline, Style, Text, rect
from ..units import pt_to_mm
from .report import BoardPicture, Chart, Comparison, HeatMap, SimReport

PAPER = Paper("a4", "landscape")
RAMPS = {  # pale → dark, the luminance falling all the way: legible in greyscale
    "blue": ("#eef4fb", "#9ecae1", "#4292c6", "#08519c", "#08214a"),
    "red": ("#fff1e6", "#fdae6b", "#f16913", "#b23a04", "#5a1a02"),
}
ACCENT = "#9b1c12"  # a highlighted bar: dark red, darker than the others in greyscale too
BAR = "#86a3c0"
GAP = 6.0
LABEL_R = 2.1  # mm: a corner number's circle on the maps
MIN_CHART_H = 40.0  # mm: the least height a chart gets under the tables on page 2


def report_pages(report: SimReport | Comparison, spec: PageSpec) -> list[Page]:
    """The report's pages on ``spec`` (a text page: A4 landscape unless the user chose otherwise); two designs
    compared: the comparison, then each design's two pages."""
    if isinstance(report, Comparison):
        return [_comparison(report, spec)] + report_pages(report.a, spec) + report_pages(report.b, spec)
    return [_overview(report, spec), _details(report, spec)]


def _comparison(c: Comparison, spec: PageSpec) -> Page:
    """Page 1 of two designs compared: which is which, the differences larger than their noise, then every other
    figure compared, and each design's warnings."""
    page = Page(spec, f"{c.board} — {c.title}")
    text, rules = page.layer("text"), page.layer("rules")
    x0, y0, cw, ch = _box(page)
    y = top = title(text, f"{c.board}: {c.title}", x0, y0, cw, c.subtitle)
    a, b = c.a.source or c.a.board, c.b.source or c.b.board
    y = paragraph(text, f"A: {a}  ·  B: {b}", x0, y, cw, BODY)
    y += 2
    clear, rest = c.clear, [d for d in c.differences if not d.clear]
    cols = ("Figure", "A", "B", "B − A (95 % interval)")
    lw = cw * 0.62
    y = heading(text, rules, "Differences larger than their noise", x0, y, lw)
    if clear:
        rows = tuple((d.label, d.text(d.a), d.text(d.b), d.diff_text()) for d in clear)
        y = _table(page, cols, rows, x0, y, lw)
    else:
        y = paragraph(text, "None: at this many races the two designs race alike.", x0, y, lw, BODY, color=GREY)
    y += 3
    if rest:
        y = heading(text, rules, "Within the noise", x0, y, lw)
        rows = tuple((d.label, d.text(d.a), d.text(d.b), d.diff_text()) for d in rest)
        y = _table(page, cols, rows, x0, y, lw)
    note = "Race i of each design rolls the same dice (common random numbers); an interval is the paired races' "
    note += "95 % interval of the difference. A difference is clear when its interval leaves out 0."
    if c.note:
        note += f" {c.note[0].upper()}{c.note[1:]}."
    paragraph(text, note, x0, y + 1.2, lw, SMALL, color=GREY)
    rx, rw = x0 + lw + GAP, cw - lw - GAP
    ry = heading(text, rules, "Warnings for the designer", rx, top, rw)
    for name, r in (("A", c.a), ("B", c.b)):
        lines = r.warnings or ["none"]
        ry = bullets(text, [f"{name}: {w}" for w in lines], rx, ry, rw, size=SMALL) + 1
    return page


def _table(page: Page, columns, rows, x, y, w) -> float:
    cols = auto_columns(columns, rows, w, size=SMALL) or [Column(col) for col in columns]
    return table(page.layer("tables"), x, y, w, cols, rows, size=SMALL, zebra="#f4f4f4")


def ramp_colour(ramp: str, t: float) -> str:
    """The colour a fraction ``t`` (0–1) along a ramp."""
    stops = RAMPS[ramp]
    t = min(1.0, max(0.0, t))
    x = t * (len(stops) - 1)
    i = min(int(x), len(stops) - 2)
    return mix(stops[i], stops[i + 1], x - i)


# ------------------------------------------------------------------------------------------------- page 1


def _box(page: Page) -> tuple[float, float, float, float]:
    """The content box less half a millimetre all round: ruled lines keep their whole width inside it."""
    x0, y0, cw, ch = page.content_box
    return x0 + 0.5, y0 + 0.5, cw - 1.0, ch - 1.0


def _overview(report: SimReport, spec: PageSpec) -> Page:
    page = Page(spec, f"{report.board} — {report.title}")
    text, rules = page.layer("text"), page.layer("rules")
    x0, y0, cw, ch = _box(page)
    y = title(text, f"{report.board}: {report.title}", x0, y0, cw, report.subtitle)
    maps, picture = report.pictures()
    maps = maps[:2]
    if picture is not None and maps:
        w = (cw - GAP * (len(maps) - 1)) / len(maps)
        bx0, by0, bx1, by1 = _extent(picture)
        h = min(ch * 0.52, w * (by1 - by0) / max(1e-6, bx1 - bx0)) + 14
        for i, heat in enumerate(maps):
            _map(page, picture, heat, x0 + i * (w + GAP), y, w, h)
        y += h + 4
    left_w = cw * 0.46
    _figures(page, report, x0, y, left_w)
    rx = x0 + left_w + GAP
    rw = cw - left_w - GAP
    ry = heading(text, rules, "Warnings for the designer", rx, y, rw)
    if report.warnings:
        ry = bullets(text, report.warnings, rx, ry, rw, size=BODY)
        ry += 1
    else:
        ry = paragraph(text, "None: every check of the quick run passed.", rx, ry, rw, BODY, color=GREY)
    if report.assumptions:
        ry += 2
        ry = heading(text, rules, "Numbers the rulebook leaves open", rx, ry, rw)
        lines = [f"{a.label}: {a.value} — {a.why}." for a in report.assumptions]
        ry = bullets(text, lines, rx, ry, rw, size=SMALL)
    return page


def _map(page: Page, picture: BoardPicture, heat: HeatMap, x: float, y: float, w: float, h: float) -> None:
    """The board in the box (x, y, w, h), its cells coloured by ``heat``, the title above and the key below."""
    text = page.layer("text")
    size = pt_to_mm(9)
    text.add(Text(heat.title, x, y + size * 0.8, size, "bold", INK))
    top = y + size * 1.3
    key_h = 7.0
    bw, bh = w, h - (top - y) - key_h
    bx0, by0, bx1, by1 = _extent(picture)
    r = LABEL_R
    margin = r + 0.3 if picture.labels else 0.0  # a label's circle stays whole inside the box
    scale = min((bw - 2 * margin) / (bx1 - bx0), (bh - 2 * margin) / (by1 - by0))
    ox = x + (bw - (bx1 - bx0) * scale) / 2 - bx0 * scale
    oy = top + (bh - (by1 - by0) * scale) / 2 - by0 * scale
    most = max((v for _, v in heat.cells), default=0.0)
    cells = []
    for outline, value in heat.cells:
        if value <= 0 or most <= 0:
            continue
        colour = ramp_colour(heat.ramp, 0.12 + 0.88 * value / most)
        cells.append(Polygon(outline, (), Style(stroke=None, fill=colour)))
    clip = (x, top, bw, bh)
    board = tuple(_faded(item) for item in picture.items)
    page.layer("board").add(Group(board + tuple(cells) + tuple(picture.over), (ox, oy), scale, clip))
    for lx, ly, label in picture.labels:
        px, py = ox + lx * scale, oy + ly * scale
        if not (x + r <= px <= x + bw - r and top + r <= py <= top + bh - r):
            continue
        page.add("labels", Circle((px, py), r, Style(stroke=INK, width=0.25, fill="#ffffff")))
        s = fit(label, "bold", pt_to_mm(7), 2 * r - 0.6, "a corner's number on the report")
        page.add("labels", Text(label, px, py, s, "bold", INK, anchor="middle", valign="middle"))
    _key(page, heat, most, x, top + bh + 1.5, min(w, 90.0))


def _extent(picture: BoardPicture) -> tuple[float, float, float, float]:
    """The part of the board a map shows: its ``box`` and every label's centre (a corner's number stands off the
    track, and must not fall off the picture)."""
    x0, y0, x1, y1 = picture.box
    for lx, ly, _ in picture.labels:
        x0, y0, x1, y1 = min(x0, lx), min(y0, ly), max(x1, lx), max(y1, ly)
    return x0, y0, x1, y1


def _faded(item):
    """The board drawn in pale greys under the heat: its own colours (kerbs, shaded squares) would read as heat."""
    from dataclasses import replace

    if isinstance(item, Group):
        return replace(item, items=tuple(_faded(i) for i in item.items))
    if isinstance(item, Text):
        return replace(item, color=_grey(item.color))
    style = item.style
    return replace(item, style=replace(style, stroke=_grey(style.stroke), fill=_grey(style.fill)))


def _grey(colour: str | None) -> str | None:
    """A colour as a light grey of the same lightness order (white stays white)."""
    if colour is None or not colour.startswith("#") or len(colour) != 7:
        return colour
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    y = 0.299 * r + 0.587 * g + 0.114 * b
    v = round(150 + 105 * y / 255)  # 150 (black) … 255 (white)
    return f"#{v:02x}{v:02x}{v:02x}"


def _key(page: Page, heat: HeatMap, most: float, x: float, y: float, w: float) -> None:
    """A ramp from 0 to the largest value, labelled with the measure's unit."""
    layer = page.layer("labels")
    size = SMALL
    label = f"{heat.unit}: 0"
    top_label = heat.value_format.format(most)
    lw = text_width(label, size, "condensed") + 1.5
    rw = text_width(top_label, size, "condensed") + 1.5
    bar_w = max(10.0, w - lw - rw)
    steps = 12
    for i in range(steps):
        colour = ramp_colour(heat.ramp, 0.12 + 0.88 * (i + 0.5) / steps)
        layer.add(rect(x + lw + i * bar_w / steps, y, bar_w / steps + 0.05, 3.0, Style(stroke=None, fill=colour)))
    layer.add(rect(x + lw, y, bar_w, 3.0, Style(stroke=INK, width=0.15)))
    layer.add(Text(label, x, y + 1.5, size, "condensed", INK, valign="middle"))
    layer.add(Text(top_label, x + lw + bar_w + 1.0, y + 1.5, size, "condensed", INK, valign="middle"))


def _figures(page: Page, report: SimReport, x: float, y: float, w: float) -> float:
    text, rules = page.layer("text"), page.layer("rules")
    y = heading(text, rules, "Key figures", x, y, w)
    rows = [(f.label, f.value) for f in report.figures]
    cols = auto_columns(("Measure", "Value"), rows, w, size=SMALL, aligns=("start", "start"))
    cols = cols or [Column("Measure", 0.55, "start"), Column("Value", 0.45, "start")]
    return table(page.layer("tables"), x, y, w, cols, rows, size=SMALL, pad=0.8, zebra="#f4f4f4")


# ------------------------------------------------------------------------------------------------- page 2


def _details(report: SimReport, spec: PageSpec) -> Page:
    """The tables down the left, charts down the right; charts the right column has no room for fill the left
    column under the tables, side by side (the page is never half empty)."""
    page = Page(spec, f"{report.board} — {report.title} (details)")
    text, rules = page.layer("text"), page.layer("rules")
    x0, y0, cw, ch = _box(page)
    y = title(text, f"{report.board}: the details", x0, y0, cw, report.subtitle)
    charts = list(report.charts[:6])
    chart_w = cw * 0.30 if charts else 0.0
    tw = cw - chart_w - (GAP if charts else 0)
    ty = y
    for t in report.tables:
        ty = heading(text, rules, t.title, x0, ty, tw)
        cols = auto_columns(t.columns, t.rows, tw, size=SMALL)
        if cols is None:
            cols = [Column(c) for c in t.columns]
        ty = table(page.layer("tables"), x0, ty, tw, cols, t.rows, size=SMALL, zebra="#f4f4f4")
        if t.note:
            ty = paragraph(text, t.note, x0, ty + 1.2, tw, SMALL, color=GREY)
        ty += 4
    bottom = y0 + ch
    room = bottom - ty
    below = []
    if len(charts) > 3 and room >= MIN_CHART_H:  # under the tables: as many as fit side by side, up to three
        below = charts[3:]
        charts = charts[:3]
    elif len(charts) > 4:
        charts = charts[:4]
    if charts:
        cx = x0 + tw + GAP
        per = (bottom - y) / len(charts)
        for i, chart in enumerate(charts):
            _chart(page, chart, cx, y + i * per, chart_w, per - 3)
    if below:
        w = (tw - GAP * (len(below) - 1)) / len(below)
        h = min(room, (bottom - y) / 2)
        for i, chart in enumerate(below):
            _chart(page, chart, x0 + i * (w + GAP), bottom - h, w, h - 3)
    return page


def _chart(page: Page, chart: Chart, x: float, y: float, w: float, h: float) -> None:
    """A small bar chart: the title, one bar per label (values written above), labels under the bars."""
    text = page.layer("text")
    size = pt_to_mm(8)
    text.add(Text(chart.title, x, y + size * 0.8, fit(chart.title, "bold", size, w), "bold", INK))
    top = y + size * 1.4
    label_h = 4.0
    note_h = 3.5 if chart.note else 0.0
    plot_h = h - (top - y) - label_h - note_h - 3.0
    n = max(1, len(chart.values))
    most = max((v for v in chart.values), default=0.0) or 1.0
    slot = w / n
    bar = slot * 0.72
    base = top + 3.0 + plot_h
    layer = page.layer("charts")
    layer.add(Polyline(((x, base), (x + w, base)), Style(stroke=INK, width=0.2)))
    small = min(SMALL, max(pt_to_mm(4.5), slot * 0.9 / 2.2))
    for i, (label, value) in enumerate(zip(chart.labels, chart.values, strict=True)):
        bx = x + i * slot + (slot - bar) / 2
        bh = plot_h * value / most if most else 0.0
        colour = ACCENT if i in chart.highlight else BAR
        if bh > 0:
            layer.add(rect(bx, base - bh, bar, bh, Style(stroke=None, fill=colour)))
        shown = chart.value_format.format(value)
        if text_width(shown, small, "condensed") <= slot * 1.05:
            layer.add(Text(shown, bx + bar / 2, base - bh - 0.6, small, "condensed", INK, anchor="middle"))
        if text_width(label, small, "condensed") <= slot * 1.05 or n <= 12:
            s = fit(label, "condensed", small, slot * 1.05, "a bar's label")
            layer.add(Text(label, bx + bar / 2, base + 0.8, s, "condensed", GREY, anchor="middle", valign="top"))
    if chart.note:
        text.add(Text(chart.note, x, base + label_h + 2.4, fit(chart.note, "condensed", SMALL, w), "condensed", GREY))
    layer.add(Polyline(((x, top + 3.0), (x, base)), Style(stroke=RULE, width=0.15)))
