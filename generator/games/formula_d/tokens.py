"""Formula D-size car tokens for a field: two per driver, nose to the right, number and short name on the livery."""

from __future__ import annotations

from ...compose.blocks import fit, grid_pages
from ...compose.colour import INK
from ...paper import PageSpec, Paper
from ...scene import Page, Style, Text, rect
from ...teams.livery import livery_items
from ...teams.models import TeamField
from ...units import pt_to_mm
from . import facts

PAPER = Paper("a4", "portrait")
CUT = Style(stroke=INK, width=0.2)


def token_size() -> tuple[float, float]:
    """(length, width) mm: Paddock's size (the rulebook gives none), to sit inside one space of the board."""
    t = facts.sheets().token
    return t.length, t.width


def token_pages(field: TeamField, spec: PageSpec) -> list[Page]:
    """Formula D-size car tokens (nose to the right), two per driver, with the number and short name."""
    length, width = token_size()

    def token(page: Page, entry, x: float, y: float) -> None:
        # small enough to sit in one space: the livery, and on a white label the number over the short name
        team, driver = entry
        page.layer("token-fill").extend(livery_items(team, x, y, length, width, nose="right"))
        box_w, box_h = length - 4.0, width - 3.0
        bx, by = x + (length - box_w) / 2, y + (width - box_h) / 2
        page.layer("token-fill").add(rect(bx, by, box_w, box_h, Style(stroke=None, fill="#ffffff")))
        lines = [driver.wing_name] if driver.number is None else [str(driver.number), driver.wing_name]
        sizes = [pt_to_mm(7.5), pt_to_mm(5.5)][-len(lines) :]
        fonts = ["bold", "condensed-bold"][-len(lines) :]
        step = box_h / len(lines)
        for i, (text, size, font) in enumerate(zip(lines, sizes, fonts, strict=True)):
            s = fit(text, font, size, box_w - 0.8, "car token")
            page.layer("token-text").add(
                Text(text, x + length / 2, by + step * (i + 0.5), s, font, INK, "middle", "middle")
            )
        page.layer("token-cut").add(rect(x, y, length, width, CUT))

    entries = [(t, d) for t, d in field.drivers for _ in range(2)]
    return grid_pages(
        spec,
        f"Car tokens — {field.name}",
        entries,
        length,
        width,
        3.0,
        9.0,
        ("token-fill", "token-text", "token-cut"),
        "token-text",
        token,
    )
