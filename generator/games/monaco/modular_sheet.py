"""The modular set's cover sheet: what the set holds, how many parts and sheets it prints on, how the pieces join,
and sample laps to build from it (with the parts each takes, and what this set lacks for it)."""

from __future__ import annotations

from ...compose.blocks import Column, bullets, table, title
from ...paper import PageSpec, Paper
from ...scene import Page
from ...units import MM_PER_INCH, pt_to_mm
from .facts import frac_in, sheet_texts
from .modular import SetPlan

PAPER = Paper("a4", "portrait")


def set_page(plan: SetPlan, spec: PageSpec, paper_label: str) -> Page:
    words = sheet_texts().modular
    n = plan.pieces[0].band.n
    page = Page(spec, words.title.format(width=plan.width))
    x0, y0, cw, ch = spec.content_box
    x0, cw = x0 + 0.5, cw - 1.0
    layer = page.layer("text")
    count = sum(c for _, c, _ in plan.entries)
    sub = words.subtitle.format(
        road=frac_in(n.width / MM_PER_INCH),
        lanes=n.lanes,
        lane=frac_in(n.lane_w / MM_PER_INCH),
        pieces=count,
        parts=len(plan.pieces),
        sheets=plan.sheets,
        paper=paper_label,
    )
    y = title(layer, words.title.format(width=plan.width), x0, y0, cw, sub)
    cols = [Column(t, share) for t, share in zip(words.columns, (0.8, 3.0, 0.8, 0.8, 0.7), strict=True)]
    rows = [[k.label, k.name, str(c), str(p), str(c * p)] for k, c, p in plan.entries]
    rows.append(["", "in all", str(count), "", str(len(plan.pieces))])
    y = table(layer, x0, y + 2, cw, cols, rows, pt_to_mm(9)) + 5
    example = "straight-12=4,curve-90-tight=8"
    y = bullets(layer, [t.format(example=example) for t in words.notes], x0, y, cw, pt_to_mm(8.5)) + 4
    y = _sketches(page, plan, x0, y, cw, 40.0) + 8
    _layouts(page, plan, x0, y, cw, y0 + ch - y)
    return page


def _sketches(page: Page, plan: SetPlan, x: float, y: float, w: float, h: float) -> float:
    """Every kind of piece drawn small at one scale, with its label: what the set looks like laid out. Returns the
    y below."""
    import numpy as np

    from ...compose.colour import INK
    from ...scene import Polygon, Style, Text
    from .modular import band_for

    shapes = []
    for kind, _, _ in plan.entries:
        band = band_for(kind, plan.width)
        ring = band.outline(0.0, band.lap)
        shapes.append((kind, ring - ring.min(axis=0), np.ptp(ring, axis=0)))
    gap = 8.0
    k = min(
        0.25,
        (w - gap * (len(shapes) - 1)) / sum(size[0] for _, _, size in shapes),
        (h - 10) / max(size[1] for _, _, size in shapes),
    )
    cx = x
    for kind, ring, size in shapes:
        pts = tuple((round(float(px * k + cx), 4), round(float(py * k + y), 4)) for px, py in ring)
        page.add("sketch", Polygon(pts, (), Style(stroke=INK, width=0.25, fill="#dcdcdc")))
        page.add(
            "text",
            Text(kind.label, cx + size[0] * k / 2, y + size[1] * k + 4, pt_to_mm(8), "condensed-bold", INK, "middle"),
        )
        cx += size[0] * k + gap
    bottom = y + max(s[1] for _, _, s in shapes) * k + 9
    page.add("text", Text(f"drawn at 1:{1 / k:.0f}", x, bottom, pt_to_mm(7), "condensed", INK))
    return bottom


def _layouts(page: Page, plan: SetPlan, x: float, y: float, w: float, h: float) -> None:
    """The sample laps side by side at one scale: every piece outlined and labelled, the start piece dark; under
    each its name, the parts it takes and what this set lacks for it."""
    import numpy as np

    from ...compose.blocks import paragraph
    from ...compose.colour import INK
    from ...scene import Polygon, Style, Text
    from .layouts import sample_layouts

    laps = sample_layouts(plan.width)
    if not laps or h < 60:
        return
    have = {k.id: c for k, c, _ in plan.entries}
    page.add("text", Text("Sample laps to build", x, y + 3.5, pt_to_mm(10), "bold", INK))
    y += 8
    gap = 6.0
    cell = (w - gap * (len(laps) - 1)) / len(laps)
    spans = [np.ptp(np.vstack([s.ring for s in t.steps]), axis=0) for t in laps]
    k = min(min(cell / sx, min(cell, h - 40) / sy) for sx, sy in spans)
    room = max(sy for _, sy in spans) * k
    for i, t in enumerate(laps):
        pts = np.vstack([s.ring for s in t.steps])
        lo, span = pts.min(axis=0), np.ptp(pts, axis=0)
        cx = x + i * (cell + gap) + (cell - span[0] * k) / 2
        cy = y + (room - span[1] * k) / 2
        for s in t.steps:
            ring = (s.ring - lo) * k + np.array([cx, cy])
            fill = "#4a4a4a" if s.kind.start else "#e4e4e4"
            tup = tuple((round(float(a), 4), round(float(b), 4)) for a, b in ring)
            page.add("sketch", Polygon(tup, (), Style(stroke=INK, width=0.2, fill=fill)))
            mx, my = ring.mean(axis=0)
            colour = "#ffffff" if s.kind.start else INK
            page.add("sketch-labels", Text(s.kind.label, float(mx), float(my), pt_to_mm(5), "condensed-bold", colour,
                                           "middle", "middle"))  # fmt: skip
        tx = x + i * (cell + gap)
        ty = y + room + 4
        page.add("text", Text(t.name, tx, ty, pt_to_mm(8.5), "bold", INK))
        need = t.parts()
        short = {kid: n - have.get(kid, 0) for kid, n in need.items() if n > have.get(kid, 0)}
        labels = {s.kind.id: s.kind.label for s in t.steps}
        lacks = (
            "this set has every piece"
            if not short
            else "this set lacks " + ", ".join(f"{n} {labels[kid]}" for kid, n in short.items())
        )
        paragraph(page.layer("text"), f"{t.listing()}; {lacks}.", tx, ty + 1.5, cell, pt_to_mm(7))
