"""The measuring tools, at true scale and in inches: the speed ruler (in two halves to glue together when the paper
is shorter than 18 in), the ±3″ slider that rides on it, the 45° turn gauge, the 1-inch collision gauge and the
grid spacer.

Every length comes from ``templates/monaco/rules.yaml`` (what the rulebook measures: top speed, the change a
turn, the turn-roll bands, the collision distance, the grid gap) and ``tools.yaml`` (the paper tools' own sizes),
in inches, turned into millimetres here with :func:`generator.units.inch_to_mm` and nowhere else.

Layers: ``tool-fill`` (bands and shading), ``tool-ticks`` (ruler ticks), ``tool-lines`` (gauge lines),
``tool-text``, ``tool-cut`` (solid: cut), ``tool-fold`` (dashed: fold).
"""

from __future__ import annotations

import math

from ...compose.blocks import fit, paragraph, title
from ...compose.colour import GREY, INK, WHITE
from ...paper import PageSpec, Paper
from ...scene import Page, Polygon, Polyline, Style, Text, rect
from ...units import inch_to_mm, pt_to_mm
from .facts import frac_in, rules, sheet_texts, tools, turn_bands

PAPER = Paper("a4", "landscape")  # the ruler halves lie along the long side
GAUGES_PAPER = Paper("a4", "portrait")

CUT = Style(stroke=INK, width=0.3)
FOLD = Style(stroke=INK, width=0.25, dash=(2.0, 1.2))
TICK = Style(stroke=INK, width=0.2)
ARM = Style(stroke=INK, width=0.35)
BAND_FILLS = ("#ffffff", "#e3e3e3", "#c8c8c8", "#adadad")
LAYERS = ("tool-fill", "tool-ticks", "tool-lines", "tool-text", "tool-fold", "tool-cut")


def _page(spec: PageSpec, name: str) -> Page:
    page = Page(spec, name)
    for layer in LAYERS:
        page.layer(layer)
    return page


def ruler_halves(length_mm: float) -> list[tuple[float, float]]:
    """The inch ranges of the ruler's parts when at most ``length_mm`` fits on the paper: one part, or halves."""
    top = rules().speed.max
    t = tools().ruler
    need = inch_to_mm(top) + 2 * t.inset_mm
    if need <= length_mm:
        return [(0.0, float(top))]
    parts = 2
    while inch_to_mm(top / parts) + t.inset_mm + inch_to_mm(t.glue_tab_in) > length_mm:
        parts += 1
    step = top / parts
    return [(i * step, (i + 1) * step) for i in range(parts)]


def draw_ruler(page: Page, x: float, y: float, a: float, b: float, last: bool, label: str) -> float:
    """The ruler from ``a`` to ``b`` inches with its left end at ``x``; returns its width (mm).

    The first part's 0 is ``inset_mm`` from its end; a later part's left edge *is* its first inch mark (it is glued
    over the previous part's tab, edge on that part's mark). All but the last part run on past ``b`` as a glue tab.
    """
    t = tools().ruler
    h = float(t.height_mm)
    first = a == 0
    left = t.inset_mm if first else 0.0
    x_of = lambda v: x + left + inch_to_mm(v - a)  # noqa: E731  (inches on this part → page mm)
    end = x_of(b) + (t.inset_mm if last else inch_to_mm(t.glue_tab_in))
    fill, ticks, text = page.layer("tool-fill"), page.layer("tool-ticks"), page.layer("tool-text")
    band_h = 7.0
    # turn-roll bands along the top
    for lo, hi, add in turn_bands():
        x0 = x_of(max(a, lo - 1 if lo > 0 else lo))
        x1 = x_of(min(b, hi))
        if x1 - x0 <= 0.01:
            continue
        shade = BAND_FILLS[min(add, len(BAND_FILLS) - 1)]
        fill.add(rect(x0, y, x1 - x0, band_h, Style(stroke=INK, width=0.15, fill=shade)))
        words = f"turn roll +{add}" if add else "turn roll +0"
        span = f"{lo}–{hi}″" if lo != hi else f"{lo}″"
        s = pt_to_mm(6.5)
        if x1 - x0 > 30:
            text.add(
                Text(f"{span}: {words}", (x0 + x1) / 2, y + band_h / 2, s, "condensed-bold", INK, "middle", "middle")
            )
    # inch ticks every quarter, numbered every inch
    q = t.tick_in
    n = round((b - a) / q)
    base = y + band_h
    for i in range(n + 1):
        v = a + i * q
        px = x_of(v)
        whole = abs(v - round(v)) < 1e-9
        half = abs(v * 2 - round(v * 2)) < 1e-9
        length = 9.0 if whole else 6.0 if half else 3.5
        ticks.add(Polyline(((px, base), (px, base + length)), TICK))
        if whole:
            # a number on a part's cut edge stands inside it, beside its tick
            anchor, nx = ("start", px + 0.8) if px - x < 3 else ("middle", px)
            text.add(Text(f"{round(v)}", nx, base + length + 3.6, pt_to_mm(9), "bold", INK, anchor, "middle"))
    text.add(
        Text(
            "inches",
            x_of(a) + (inch_to_mm(0.5) if first else 2.0),
            base + 15.5,
            pt_to_mm(6.5),
            "condensed",
            GREY,
            "start" if not first else "middle",
            "middle",
        )
    )
    # a centimetre scale along the lower edge, from the same zero
    if t.cm:
        bottom = y + h
        mm0 = inch_to_mm(a)
        mm1 = inch_to_mm(b)
        k = math.ceil(mm0 - 1e-9)
        while k <= mm1 + 1e-9:
            if k % 5 == 0:
                px = x + left + (k - mm0)
                long = k % 10 == 0
                ticks.add(Polyline(((px, bottom), (px, bottom - (4.0 if long else 2.2))), TICK))
                if long and k > 0 and (px - x_of(a) > 3 or first) and x_of(b) - px > 3:
                    text.add(Text(f"{k // 10}", px, bottom - 5.6, pt_to_mm(6), "condensed", GREY, "middle", "middle"))
            k += 1
        text.add(Text("cm", x_of(b) - 3.0, bottom - 5.6, pt_to_mm(6), "condensed", GREY, "middle", "middle"))
    # the glue tab and the outline
    if not last:
        tab = page.layer("tool-fill")
        tab.add(rect(x_of(b), y, end - x_of(b), h, Style(stroke=None, fill="#f0f0f0")))
        text.add(
            Text("glue", (x_of(b) + end) / 2, y + h / 2, pt_to_mm(6.5), "condensed-bold", GREY, "middle", "middle", 90)
        )
        page.add("tool-fold", Polyline(((x_of(b), y), (x_of(b), y + h)), Style(stroke=INK, width=0.2, dash=(1.0, 0.8))))
    text.add(Text(label, x_of(a) + (2.0 if not first else -left + 1.2), y + h + 3.2, pt_to_mm(6.5), "condensed", GREY))
    page.add("tool-cut", rect(x, y, end - x, h, CUT))
    return end - x


def draw_slider(page: Page, x: float, y: float, ruler_h: float) -> tuple[float, float]:
    """A sleeve that slides along the ruler: its window shows the speeds within ±3″ of the pointer. Returns its
    (width, height)."""
    change = rules().speed.change_per_turn
    margin = float(tools().slider.margin_mm)
    window = inch_to_mm(2 * change)
    w = window + 2 * margin
    panel = ruler_h + 1.5
    flap = 8.0
    h = 2 * panel + flap
    text = page.layer("tool-text")
    # front panel with the window (cut out), back panel, glue flap
    page.add("tool-cut", rect(x, y, w, h, CUT))
    for fy in (y + panel, y + 2 * panel):
        page.add("tool-fold", Polyline(((x, fy), (x + w, fy)), FOLD))
    wy0, wy1 = y + 1.0, y + panel - 8.0
    page.add("tool-cut", rect(x + margin, wy0, window, wy1 - wy0, CUT))
    page.add("tool-fill", rect(x + margin, wy0, window, wy1 - wy0, Style(stroke=None, fill=WHITE)))
    mid = x + margin + window / 2
    tip = wy1 + 0.8
    page.add(
        "tool-lines",
        Polygon(((mid - 2.0, tip + 3.2), (mid + 2.0, tip + 3.2), (mid, tip)), (), Style(stroke=None, fill=INK)),
    )
    label_y = y + panel - 2.6
    text.add(Text("speed now", mid, label_y, pt_to_mm(6.5), "condensed-bold", INK, "middle", "middle"))
    for sign, px in ((-1, x + margin), (1, x + margin + window)):
        page.add("tool-lines", Polyline(((px, wy1), (px, wy1 + 3.5)), ARM))
        word = f"−{change}″ slowest" if sign < 0 else f"+{change}″ fastest"
        text.add(Text(word, px, label_y, pt_to_mm(6.5), "condensed", INK, "start" if sign < 0 else "end", "middle"))
    text.add(Text("cut out the window", mid, (wy0 + wy1) / 2, pt_to_mm(7), "condensed", GREY, "middle", "middle"))
    text.add(
        Text("back of the slider", x + w / 2, y + panel + panel / 2, pt_to_mm(7), "condensed", GREY, "middle", "middle")
    )
    text.add(
        Text("glue", x + w / 2, y + 2 * panel + flap / 2, pt_to_mm(6.5), "condensed-bold", GREY, "middle", "middle")
    )
    return w, h


def ruler_page(spec: PageSpec) -> Page:
    """The speed ruler (in as many parts as the paper needs) and its ±3″ slider."""
    words = sheet_texts().tools
    sp = rules().speed
    page = _page(spec, words.ruler_title)
    x0, y0, cw, ch = spec.content_box
    x0, cw = x0 + 0.5, cw - 1.0
    layer = page.layer("tool-text")
    top = title(
        layer,
        words.ruler_title,
        x0,
        y0,
        cw,
        words.ruler_subtitle.format(top=sp.max, change=sp.change_per_turn, tick=frac_in(tools().ruler.tick_in)),
    )
    t = tools().ruler
    h = float(t.height_mm)
    halves = ruler_halves(cw)
    y = top + 1
    for i, (a, b) in enumerate(halves):
        last = i == len(halves) - 1
        name = f"part {i + 1} of {len(halves)}: {a:g}–{b:g} in" if len(halves) > 1 else f"0–{b:g} in"
        if i:
            name += f" — glue its left end over part {i}'s tab, edge on the {a:g} in mark"
        draw_ruler(page, x0, y, a, b, last, name)
        y += h + 8
    sw, sh = draw_slider(page, x0, y, h)
    notes = [line.format(change=sp.change_per_turn, top=sp.max) for line in words.ruler_notes]
    nx, ny, nw = x0 + sw + 8, y, cw - sw - 8
    if nw < 70:  # no room beside the slider: under it
        nx, ny, nw = x0, y + sh + 6, cw
    for line in notes:
        ny = paragraph(layer, line, nx, ny, nw, pt_to_mm(8)) + 1.8
    return page


# -- gauges ----------------------------------------------------------------------------------------------------


def draw_turn_gauge(page: Page, cx: float, cy: float, hand: int = 1, label: str = "") -> float:
    """A quarter-circle card with its corner at (cx, cy): one straight edge along the car's heading before the
    move (pointing right on the page), the arc on the side the road turns to — above the edge for a left turn
    (``hand`` 1), below it for a right turn (``hand`` −1: the left gauge mirrored, its words still upright). A turn
    that ends beyond the 45° arm needs a skill roll. ``label`` names the hand. Returns the radius (mm)."""
    r = inch_to_mm(tools().turn_gauge.radius_in)
    free = rules().turn.free_angle_deg
    text = page.layer("tool-text")
    a = math.radians(free)

    def at(radius: float, t: float) -> tuple[float, float]:  # t: radians turned from the heading
        return (cx + radius * math.cos(t), cy - hand * radius * math.sin(t))

    # the part beyond the free angle, shaded: a skill roll
    pts = [(cx, cy)] + [at(r, a + (math.pi / 2 - a) * i / 24) for i in range(25)]
    page.add("tool-fill", Polygon(tuple(pts), (), Style(stroke=None, fill="#dedede")))
    page.add("tool-cut", Polyline((at(r, 0.0), (cx, cy), at(r, math.pi / 2)), CUT))
    page.add("tool-cut", Polyline(tuple(at(r, math.pi / 2 * i / 90) for i in range(91)), CUT))
    arm = at(r, a)
    page.add("tool-lines", Polyline(((cx, cy), arm), ARM))
    page.add("tool-lines", Polyline(((cx, cy), at(r, 0.0)), ARM))
    for i in range(1, 9):  # every 10°, short
        if i * 10 == free:
            continue
        t = math.radians(i * 10)
        page.add("tool-lines", Polyline((at(r - 4, t), at(r, t)), TICK))
    s = pt_to_mm(7.5)
    for words, mid in ((f"up to {free:g}°: no roll", a / 2), ("more: skill roll", (a + math.pi / 2) / 2)):
        x, y = at(r * 0.6, mid)
        text.add(Text(words, x, y, s, "condensed-bold", INK, "middle", "middle", -hand * math.degrees(mid)))
    text.add(Text(f"{free:g}°", arm[0] - 5.0, arm[1] + hand * 1.0, pt_to_mm(9), "bold", INK, "middle", "middle"))
    edge = cy - hand * 2.2
    text.add(Text("heading before the turn", cx + r / 2, edge, pt_to_mm(6.5), "condensed", INK, "middle", "middle"))
    if label:  # over the heading's words, upright
        text.add(Text(label, cx + r / 2, cy - hand * 6.5, pt_to_mm(8.5), "bold", INK, "middle", "middle"))
    return r


def draw_strip_gauge(page: Page, x: float, y: float, length: float, width: float, big: str, small: str) -> None:
    """A strip exactly ``width`` mm wide (the inch to measure) and ``length`` long."""
    page.add("tool-cut", rect(x, y, length, width, CUT))
    text = page.layer("tool-text")
    s = fit(big, "bold", pt_to_mm(12), length * 0.3, "gauge")
    text.add(Text(big, x + 2.5, y + width / 2, s, "bold", INK, "start", "middle"))
    s2 = fit(small, "condensed", pt_to_mm(7), length * 0.68, "gauge")
    text.add(Text(small, x + length - 2.0, y + width / 2, s2, "condensed", INK, "end", "middle"))


def gauges_page(spec: PageSpec) -> Page:
    words = sheet_texts().tools
    r = rules()
    tl = tools()
    page = _page(spec, words.gauges_title)
    x0, y0, cw, ch = spec.content_box
    x0, cw = x0 + 0.5, cw - 1.0
    layer = page.layer("tool-text")
    top = title(layer, words.gauges_title, x0, y0, cw, words.gauges_subtitle)
    # turn gauges side by side
    radius = inch_to_mm(tl.turn_gauge.radius_in)
    y = top + 4
    gx = x0
    for i in range(tl.turn_gauge.copies):  # left- and right-hand gauges in turn
        hand = 1 if i % 2 == 0 else -1
        draw_turn_gauge(page, gx, y + radius if hand > 0 else y, hand, words.turn_hands[i % 2])
        gx += radius + 8
    y += radius + 6
    y = paragraph(layer, words.turn_note.format(free=r.turn.free_angle_deg), x0, y, cw, pt_to_mm(8)) + 5
    inch = inch_to_mm(r.collision_distance_in)
    coll_len = inch_to_mm(tl.collision_gauge.length_in)
    for i in range(tl.collision_gauge.copies):
        col, row = divmod(i, 2)
        draw_strip_gauge(
            page,
            x0 + col * (coll_len + 8),
            y + row * (inch + 4),
            coll_len,
            inch,
            f"{r.collision_distance_in:g}″",
            words.collision_strip,
        )
    y += 2 * (inch + 4) + 1
    y = paragraph(layer, words.collision_note.format(d=frac_in(r.collision_distance_in)), x0, y, cw, pt_to_mm(8)) + 5
    gap = inch_to_mm(r.grid_spacing_in)
    spacer_len = inch_to_mm(tl.grid_spacer.length_in)
    for i in range(tl.grid_spacer.copies):
        draw_strip_gauge(
            page, x0 + i * (spacer_len + 6), y, spacer_len, gap, "grid", f"{frac_in(r.grid_spacing_in)} gap"
        )
    y += gap + 5
    paragraph(layer, words.grid_note.format(d=frac_in(r.grid_spacing_in)), x0, y, cw, pt_to_mm(8))
    return page
