"""The printer calibration sheet: print it first to check that your printer keeps true scale.

It carries a 2 cm lane-unit grid, 10 cm rulers in both directions, an inch ruler for *Monaco!* moves, a car-slip
outline at true size and a font sample. It also exercises every primitive the scene model has.
"""

from __future__ import annotations

from ..paper import PageSpec, Paper
from ..scene import Arc, Circle, Page, Polygon, Polyline, Style, Text, rect
from ..units import inch_to_mm, pt_to_mm

INK = "#1a1a1a"
ACCENT = "#c0392b"
SAMPLE = "Sergio Pérez, Nico Hülkenberg, Őrs Szűcs, Łukasz Čech — “quotes” ‘single’ … 1–2 • 25 € ± 3″"


def ruler(
    page: Page,
    x: float,
    y: float,
    length_mm: float,
    step: float,
    major: int,
    label: str,
    vertical: bool = False,
    unit: str = "",
) -> None:
    """A ruler with a tick every ``step`` mm, long ticks every ``major`` steps, numbered."""
    layer = page.layer("rulers")
    n = round(length_mm / step)

    def pt(a: float, b: float) -> tuple[float, float]:
        return (x + b, y + a) if vertical else (x + a, y + b)

    layer.add(Polyline((pt(0, 0), pt(length_mm, 0)), Style(stroke=INK, width=0.25)))
    for i in range(n + 1):
        a = i * step
        long = i % major == 0
        layer.add(Polyline((pt(a, 0), pt(a, 4 if long else 2)), Style(stroke=INK, width=0.2)))
        if long:
            tx, ty = pt(a, 6.5)
            layer.add(
                Text(
                    f"{i // major}{unit}",
                    tx,
                    ty,
                    pt_to_mm(7),
                    "condensed",
                    INK,
                    anchor="middle",
                    valign="top",
                    rotation=-90 if vertical else 0,
                )
            )
    lx, ly = pt(length_mm / 2, -2)
    layer.add(Text(label, lx, ly, pt_to_mm(8), "condensed-bold", INK, anchor="middle", rotation=-90 if vertical else 0))


PAPER = Paper("a4", "portrait")


def calibration_sheet(spec: PageSpec) -> Page:
    page = Page(spec, "Printer calibration")
    x0, y0, w, h = page.content_box
    title = pt_to_mm(20)
    page.add("text", Text("Printer calibration", x0, y0 + 3, title, "bold", INK, valign="top"))
    page.add(
        "text",
        Text(
            "Print at 100 % (“actual size”). Every ruler below must measure true; the squares are 2 cm lane units.",
            x0,
            y0 + title + 8,
            pt_to_mm(9),
            "regular",
            INK,
        ),
    )
    top = y0 + title + 18
    ruler(page, x0 + 5, top, 100, 1, 10, "10 cm — centimetres", unit="")
    ruler(page, x0 + 5, top + 22, inch_to_mm(6), inch_to_mm(1) / 4, 4, "6 inches — Monaco! moves", unit="″")
    # 2 cm grid of lane units: 5 × 4 squares.
    gx, gy = x0 + 5, top + 44
    grid = page.layer("grid")
    for i in range(6):
        grid.add(Polyline(((gx + 20 * i, gy), (gx + 20 * i, gy + 80)), Style(stroke=INK, width=0.25)))
    for j in range(5):
        grid.add(
            Polyline(
                ((gx, gy + 20 * j), (gx + 100, gy + 20 * j)),
                Style(stroke=INK, width=0.25, dash=(1.0, 1.0) if j % 4 else None),
            )
        )
    grid.add(Text("2 cm lane units", gx + 50, gy + 86, pt_to_mm(8), "condensed", INK, anchor="middle"))
    # A kerb-coloured arc and a chequered start line, as on a board.
    cx, cy = gx + 150, gy + 40
    grid.add(Arc((cx, cy), 30, 180, 90, Style(stroke="#ffffff", width=3)))
    grid.add(Arc((cx, cy), 30, 180, 90, Style(stroke=ACCENT, width=3, dash=(4, 4))))
    grid.add(Arc((cx, cy), 30, 180, 90, Style(stroke=INK, width=0.2)))
    grid.add(Circle((cx, cy), 2.0, Style(stroke=None, fill=INK)))
    grid.add(Circle((cx, cy), 40.0, Style(stroke=INK, width=0.2, dash=(0.5, 1.5), cap="round")))
    grid.add(
        Text(
            "the dotted circle is 8 cm across; arcs, dashes and fills should print crisp",
            cx,
            cy + 45,
            pt_to_mm(7),
            "condensed",
            INK,
            anchor="middle",
        )
    )
    ring = tuple((cx - 10 + dx, cy + 10 + dy) for dx, dy in ((0, 0), (20, 0), (20, 20), (0, 20)))
    hole = tuple((cx - 5 + dx, cy + 15 + dy) for dx, dy in ((0, 0), (10, 0), (10, 10), (0, 10)))
    grid.add(Polygon(ring, (hole,), Style(stroke=INK, width=0.3, fill=ACCENT)))
    # A rear-wing car slip at true size (10 × 25 mm, wing 5 mm).
    sx, sy = x0 + w - 40, top - 6
    grid.add(rect(sx, sy, 10, 25, Style(stroke=INK, width=0.2)))
    grid.add(Polyline(((sx, sy + 5), (sx + 10, sy + 5)), Style(stroke=INK, width=0.2, dash=(1, 0.8))))
    grid.add(Text("car slip 10 × 25 mm", sx - 3, sy + 12, pt_to_mm(7), "condensed", INK, anchor="end"))
    # Font sample.
    fy = gy + 100
    page.add("text", Text("Font sample", x0, fy, pt_to_mm(10), "bold", INK))
    for k, key in enumerate(("regular", "bold", "condensed", "condensed-bold")):
        page.add("text", Text(SAMPLE, x0, fy + 6 + 5 * k, pt_to_mm(8), key, INK))
    return page
