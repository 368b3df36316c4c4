"""The layout plan of a circuit's road: the whole circuit small, every piece numbered in lap order from the start
line, the pieces shaded by the sheet they are printed on, the start, the pit, the race direction, which pieces each
sheet holds, and a scale bar of whole feet on the floor.

The plan is the frame the road is laid in: :func:`plan_turn` says how the circuit is turned on it, and the words
on every piece are drawn upright in that frame (:mod:`.road_sheets`), so a piece lying in its place reads the way
the plan does.
"""

from __future__ import annotations

import math

import numpy as np

from ...compose.blocks import fitted_text, paragraph, title
from ...compose.colour import INK, WHITE
from ...paper import PageSpec, Paper
from ...scene import Page, Polygon, Polyline, Style, Text
from ...units import MM_PER_INCH, inch_to_mm, pt_to_mm
from .facts import feet_inches, frac_in, road, sheet_texts
from .pieces import Piece, rotate
from .road_sheets import Drawer, along, arrow, draw_start, tup

PAPER = Paper("a4", "landscape")
SIDE_W = 70.0  # mm: the column of notes right of the plan
SHADES = ("#d2d2d2", "#ededed")  # pieces on odd and even sheets


def _extent(road_) -> np.ndarray:
    """Points of both edges of the road (and the pit): its extent on the floor."""
    s = np.linspace(0, road_.lap, 400, endpoint=False)
    left, right = road_.offsets(s)
    return np.vstack((road_.at(s, left), road_.at(s, right)))


def _plan_box(spec: PageSpec) -> tuple[float, float]:
    """The room for the drawing (a nominal title height: the turn must not depend on the subtitle's wording)."""
    _, _, cw, ch = spec.content_box
    return cw - SIDE_W - 10, ch - 30


def plan_turn(road_, spec: PageSpec) -> float:
    """Degrees the circuit is turned on its plan: a quarter turn if that draws it clearly larger."""
    pts = _extent(road_)
    bw, bh = _plan_box(spec)
    best = None
    for turn in (0.0, 90.0):
        q = rotate(pts, turn)
        lo, hi = q.min(axis=0), q.max(axis=0)
        k = min(bw / (hi[0] - lo[0]), bh / (hi[1] - lo[1]))
        if best is None or k > best[0] * 1.02:
            best = (k, turn)
    return best[1]


def sheet_runs(pieces: list[Piece]) -> list[str]:
    """``sheet 1: 1–3`` for every sheet, in sheet order (pieces in lap order)."""
    by_sheet: dict[int, list[int]] = {}
    for p in pieces:
        by_sheet.setdefault(p.sheet, []).append(p.number)
    out = []
    for k in sorted(by_sheet):
        nums = sorted(by_sheet[k])
        runs: list[list[int]] = []
        for n in nums:
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        text = ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
        out.append(f"sheet {k + 1}: {text}")
    return out


def plan_page(road_, pieces: list[Piece], sheets: int, spec: PageSpec, paper_label: str, turn: float) -> Page:
    """The whole circuit small, turned by ``turn`` (see :func:`plan_turn`)."""
    words = sheet_texts().road
    page = Page(spec, f"{road_.name} — road layout plan")
    x0, y0, cw, ch = spec.content_box
    layer = page.layer("text")
    n = road_.n
    sub = words.plan_subtitle.format(
        width=road_.width_name,
        road=frac_in(n.width / MM_PER_INCH),
        lanes=n.lanes,
        lane=frac_in(n.lane_w / MM_PER_INCH),
        lap=f"{road_.lap_in:.0f}",
        feet=feet_inches(road_.lap_in),
        pieces=len(pieces),
        sheets=sheets,
        paper=paper_label,
    )
    top = title(layer, f"{road_.name} — Monaco! road plan", x0, y0, cw, sub)
    bw, bh = cw - SIDE_W - 10, y0 + ch - top - 14
    q = rotate(np.vstack([p.ring for p in pieces]), turn)
    lo, hi = q.min(axis=0), q.max(axis=0)
    k = min(bw / (hi[0] - lo[0]), bh / (hi[1] - lo[1]))
    ox = x0 + 1 + (bw - (hi[0] - lo[0]) * k) / 2 - lo[0] * k
    oy = top + 2 + (bh - (hi[1] - lo[1]) * k) / 2 - lo[1] * k

    def tf(p):
        return rotate(np.asarray(p, dtype=float), turn) * k + np.array([ox, oy])

    for p in pieces:
        shade = SHADES[p.sheet % 2]
        page.add("plan", Polygon(tup(tf(p.ring)), (), Style(stroke=INK, width=0.25, fill=shade)))
    dr = Drawer(page, road_, None, tf, k)
    dr.turn = turn
    draw_start(dr)
    for p in pieces:
        mid = (p.s0 + p.s1) / 2
        x, y = tf(road_.at(np.array([mid]), np.array([0.0])))[0]
        page.add("labels", Text(str(p.number), float(x), float(y), pt_to_mm(9), "bold", INK, "middle", "middle"))
    # the pit area and the race direction
    if road_.pit is not None:
        pit = road_.pit
        edge = along(road_, pit.s0, pit.s1, (lambda lt, rt: lt) if pit.sign > 0 else (lambda lt, rt: rt))
        page.add("plan", Polyline(tup(tf(edge)), Style(stroke=INK, width=0.6)))
        s = (pit.s0 + pit.s1) / 2
        x, y = tf(road_.at(np.array([s]), np.array([pit.sign * (road_.half + pit.width + 6 / k)])))[0]
        page.add("labels", Text("PIT", float(x), float(y), pt_to_mm(7), "condensed-bold", INK, "middle", "middle"))
    s_arrow = road_.lap * 0.03 + 2 * inch_to_mm(road().chequer_in)
    arrow(dr, s_arrow, 0.0, 9.0 / k, INK)
    x, y = tf(road_.at(np.array([0.0]), np.array([-(road_.half + 5 / k)])))[0]
    page.add("labels", Text("START", float(x), float(y), pt_to_mm(7), "condensed-bold", INK, "middle", "middle"))
    # notes on the right
    nx = x0 + cw - SIDE_W
    y = top + 2
    for line in words.plan_notes:
        text = line.format(gap=frac_in(road().min_gap_in), car=frac_in(n.car_len / MM_PER_INCH))
        y = paragraph(layer, text, nx, y, SIDE_W, pt_to_mm(7.5)) + 1.6
    y += 2
    layer.add(Text("Which pieces each sheet holds", nx, y + 3, pt_to_mm(8), "condensed-bold", INK))
    y += 6
    runs = sheet_runs(pieces)
    cols = 2 if len(runs) <= 40 else 3
    colw = SIDE_W / cols
    rows = math.ceil(len(runs) / cols)
    row_h = min(3.4, max(2.4, (y0 + ch - y - 16) / max(rows, 1)))
    for i, line in enumerate(runs):
        c, r = divmod(i, rows)
        layer.add(
            fitted_text(line, nx + c * colw, y + r * row_h + 2.5, colw - 1, max_size=pt_to_mm(7.5), font="condensed")
        )
    _scale_bar(page, nx, y + rows * row_h + 8, k, SIDE_W)
    return page


def _scale_bar(page: Page, x: float, y: float, k: float, room: float) -> None:
    """A bar of a whole number of feet on the floor at the plan's scale ``k`` (plan mm per floor mm)."""
    feet = 0.5
    while inch_to_mm(12 * feet * 2) * k <= room * 0.85:
        feet *= 2
    length = inch_to_mm(12 * feet) * k
    layer = page.layer("plan")
    parts = 4
    seg = length / parts
    for i in range(parts):
        box = np.array([[x + i * seg, y], [x + (i + 1) * seg, y], [x + (i + 1) * seg, y + 1.6], [x + i * seg, y + 1.6]])
        layer.add(Polygon(tup(box), (), Style(stroke=INK, width=0.15, fill=INK if i % 2 == 0 else WHITE)))
    what = f"{feet:g} ft ({12 * feet:g} in)" if feet >= 1 else f"{12 * feet:g} in"
    label = f"{what} on the floor at the scale of this plan"
    page.add("labels", Text(label, x, y + 5.0, pt_to_mm(7), "condensed", INK))
