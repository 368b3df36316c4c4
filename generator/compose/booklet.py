"""A booklet: half-size pages imposed two to a side of a landscape sheet (A5 on A4), printed on both sides, folded
in the middle and stapled (saddle-stitched). This module knows where each page of text lies — which sheet side,
which half — and nothing of what is on it.

    count = pages(7)                # 8: made up with blanks to a multiple of 4
    imposition(count)               # [(8, 1), (2, 7), (6, 3), (4, 5)]: (left, right) of each sheet side
    width, x = frames(spec, inset)  # a page's text frame: its width, and x(n) of page n on its side
"""

from __future__ import annotations

from collections.abc import Callable

from ..paper import FOOTER_BAND, PageSpec, Paper
from ..scene import Page, Text
from ..units import pt_to_mm

BOOKLET_PAPER = Paper("a4", "landscape")  # the booklet's sheet: two A5 pages side by side
FOLD_MARGIN = 10.0  # mm each side of the fold


def pages(used: int) -> int:
    """Pages of a booklet that holds ``used`` pages of text: blank pages make it up to a multiple of 4."""
    return sheets(used) * 4


def sheets(used: int) -> int:
    """Sheets of paper (each printed on both sides) a booklet of ``used`` pages of text takes."""
    return -(-used // 4)


def imposition(count: int) -> list[tuple[int, int]]:
    """Saddle-stitch order of a booklet of ``count`` pages (a multiple of 4): (left, right) page numbers of each
    sheet side, front then back of the first sheet, and so on. 8 pages: (8, 1), (2, 7), (6, 3), (4, 5)."""
    if count % 4:
        raise ValueError("a saddle-stitched booklet has a multiple of 4 pages")
    sides = []
    for s in range(count // 4):
        sides.append((count - 2 * s, 1 + 2 * s))
        sides.append((2 + 2 * s, count - 1 - 2 * s))
    return sides


def left_of_fold(n: int) -> bool:
    """Page ``n`` (1-based) lies left of the fold: the even pages; its outer edge is its left one."""
    return n % 2 == 0


def frames(spec: PageSpec, inset: float) -> tuple[float, Callable[[int], float]]:
    """The text frame of a booklet page on a sheet side ``spec``: its width, and the x of page ``n``'s frame —
    ``inset`` inside the content box at the outer edge, :data:`FOLD_MARGIN` clear of the fold at the inner one."""
    cx = spec.content_box[0]
    half = spec.width / 2
    width = half - FOLD_MARGIN - (cx + inset)
    left, right = cx + inset, half + FOLD_MARGIN
    return width, lambda n: left if left_of_fold(n) else right


def print_footer(page: Page) -> tuple[float, float, float, float] | None:
    """A text sheet side's one-line print footer (its title and paper) under its left-hand page: on the first
    side that is the back cover, so the front cover (the right half) stays clean. Drawn here, the print check adds
    no other. Returns the footer's box (None on a sheet to scale, which keeps its scale bars)."""
    from ..fonts import fit_size
    from .printcheck import BAR_TOP, LAYER, footer_text

    if page.spec.to_scale:
        return None
    x, y, _, h = page.printable
    top = y + h - FOOTER_BAND
    text = footer_text(page)
    width = page.width / 2 - FOLD_MARGIN - x
    size, _ = fit_size(text, "condensed", pt_to_mm(7), width)
    page.layer(LAYER).add(Text(text, x, top + BAR_TOP + 2.6, size, "condensed", "#666666"))
    return (x, top, width, FOOTER_BAND)
