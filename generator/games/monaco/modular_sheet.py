"""The modular set's cover sheet: what the set holds, how many parts and sheets it prints on, how the pieces join."""

from __future__ import annotations

from ...compose.blocks import Column, bullets, table, title
from ...paper import PageSpec, Paper
from ...scene import Page
from ...units import MM_PER_INCH, pt_to_mm
from .facts import frac_in, road, sheet_texts
from .modular import SetPlan

PAPER = Paper("a4", "portrait")


def set_page(plan: SetPlan, spec: PageSpec, paper_label: str) -> Page:
    words = sheet_texts()["modular"]
    n = plan.pieces[0].band.n
    page = Page(spec, words["title"].format(width=plan.width))
    x0, y0, cw, _ = spec.content_box
    layer = page.layer("text")
    count = sum(c for _, c, _ in plan.entries)
    sub = words["subtitle"].format(
        road=frac_in(n.width / MM_PER_INCH),
        lanes=n.lanes,
        lane=frac_in(n.lane_w / MM_PER_INCH),
        pieces=count,
        parts=len(plan.pieces),
        sheets=plan.sheets,
        paper=paper_label,
    )
    y = title(layer, words["title"].format(width=plan.width), x0, y0, cw, sub)
    cols = [Column(t, share) for t, share in zip(words["columns"], (0.8, 3.0, 0.8, 0.8, 0.7), strict=True)]
    rows = [[k.label, k.name, str(c), str(p), str(c * p)] for k, c, p in plan.entries]
    rows.append(["", "in all", str(count), "", str(len(plan.pieces))])
    y = table(layer, x0, y + 2, cw, cols, rows, pt_to_mm(9)) + 5
    example = road()["modular"]["default_set"].split(",")[0]
    bullets(layer, [t.format(example=example) for t in words["notes"]], x0, y, cw, pt_to_mm(8.5))
    return page
