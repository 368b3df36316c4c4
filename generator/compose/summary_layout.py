"""A rule summary laid out on pages: two columns on A4 / letter portrait (one on a booklet's A5 page), the title
block over the first page's columns, a footer with the source and the page number, as many pages as the text
needs.

    layout = compose(summary, PageSpec(PAPER))                      # A4 pages
    layout = compose(summary, PageSpec(BOOKLET_PAPER), booklet=True)  # A5 pages imposed two-up (:mod:`.booklet`)

The chunks (:mod:`.summary_chunks`) are poured into columns in order: a chunk that keeps with the next moves to
the next column with it, and a last page with next to nothing on it is saved, where it can be, by tighter spacing
between sections and blocks (the text itself never shrinks). The summary arrives as a model and a
:class:`~generator.paper.PageSpec`: this module knows no game and no file format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..fonts import ascent, cap_height, text_width
from ..notices import warn
from ..paper import PageSpec, Paper
from ..scene import Page, Polyline, Style, Text, rect
from ..units import pt_to_mm
from . import booklet as imposed
from .blocks import page_title, rich_line, rich_wrap
from .colour import GREY, INK
from .summary import Summary
from .summary_chunks import A4_TYPE, BAR_W, BOOKLET_TYPE, EXAMPLE_BAR, Chunk, Draw, Type, chunks_of

PAPER = Paper("a4", "portrait")  # the summary's own paper when the user names none
LAYERS = ("tint", "shade", "boxes", "rules", "text")  # bottom to top: fills never hide text
EXAMPLE_TINT = "#fbf0d5"  # a warm cream: light grey in greyscale
READING_FRAME = Style(stroke=GREY, width=0.3, dash=(1.2, 0.8))
INSET = 4.0  # mm inside the content box: a rulebook's margins, not a card's
COLUMN_GAP = 7.0
MIN_COLUMN = 85.0  # mm: as many columns as fit at least this wide (2 on A4 / letter portrait, 1 on A5)
FOOTER_H = 6.0  # the page footer under the columns: source and page number
SQUEEZE_BELOW = 0.25  # a last page less full than this tries tighter spacing …
SQUEEZES = (0.75, 0.5)  # … between sections and blocks, by these factors


@dataclass
class Placement:
    chunk: Chunk
    page: int  # logical page, 0-based
    column: int
    y: float  # top, in the logical page's frame (0 = the frame's top)
    index: int | None = None  # the chunk's place in the flowed list (None: a table header repeated)


@dataclass
class Layout:
    """A composed summary: the physical pages, what lies where, and the boxes text may fill (for checks)."""

    pages: list[Page]
    placements: list[Placement]
    logical_pages: int  # pages of text (A4 pages, or A5 pages of a booklet, blanks included)
    columns: int
    boxes: list[list[tuple[float, float, float, float]]]  # per physical page: (x, y, w, h) of the title block,
    # each column and the footer: every line of text lies inside one of them
    order: list[list[int]] = field(default_factory=list)  # per physical page: logical page numbers, left to right


def _flow(
    chunks: list[Chunk], columns: int, top: Callable[[int], float], bottom: float, problems: list[str]
) -> list[Placement]:
    """Pour the chunks into columns, page after page (``top(page)`` of the first free line, ``bottom`` of all);
    a piece taller than a column is noted in ``problems``."""
    out: list[Placement] = []
    page, col, y, empty = 0, 0, top(0), True
    force_to = -1
    i, n = 0, len(chunks)
    while i < n:
        ch = chunks[i]
        before = 0.0 if empty else ch.before
        head = ch.head.height if (empty and ch.head is not None) else 0.0
        need = before + head + ch.height
        j = i
        group = need
        while chunks[j].keep and j + 1 < n and i > force_to:
            j += 1
            group += chunks[j].before + chunks[j].height
        fits = y + (need if i <= force_to else group) <= bottom + 1e-6
        if not fits and empty:
            if y + need > bottom + 1e-6:
                problems.append(f"summary: a piece {need:.0f} mm tall does not fit a column; it runs past the foot")
            elif i > force_to:
                force_to = j  # a group taller than a column: break it where it must
            fits = True
        if not fits:
            col += 1
            if col == columns:
                page, col = page + 1, 0
            y, empty = top(page), True
            continue
        if head:
            out.append(Placement(ch.head, page, col, y))
            y += head
        y += before
        out.append(Placement(ch, page, col, y, i))
        y += ch.height
        empty = False
        i += 1
    return out


def _balanced(
    chunks: list[Chunk], placements: list[Placement], columns: int, top: Callable[[int], float], bottom: float
) -> list[Placement]:
    """``placements`` with the last page's text shared evenly between its columns, rather than the first column
    filled and the others left blank: the last page's chunks poured again into the shortest columns they fit."""
    if columns < 2 or not placements:
        return placements
    last = placements[-1].page
    first = min(p.index for p in placements if p.page == last and p.index is not None)
    tail = chunks[first:]

    def pour(foot: float) -> list[Placement] | None:
        placed = _flow(tail, columns, lambda p: top(last) if p == 0 else 0.0, foot, [])
        return placed if placed and placed[-1].page == 0 else None

    lo, hi = top(last), bottom
    best = pour(hi)
    if best is None:
        return placements
    for _ in range(24):  # bisect the lowest foot at which the tail still fits the page
        mid = (lo + hi) / 2
        trial = pour(mid)
        if trial is None:
            lo = mid
        else:
            hi, best = mid, trial
        if hi - lo < 0.5:
            break
    if max(p.column for p in best) < columns - 1:  # still one column (a single chunk): nothing to share
        return placements
    moved = [Placement(p.chunk, last, p.column, p.y, None if p.index is None else p.index + first) for p in best]
    return [p for p in placements if p.page != last] + moved


def _title_block(summary: Summary, width: float, t: Type) -> tuple[float, Draw]:
    kicker = pt_to_mm(7.5)
    title_lines = rich_wrap(summary.title, width, t.title, "bold", "bold")
    sub_lines = rich_wrap(summary.subtitle, width, t.subtitle) if summary.subtitle else []
    tstep, sstep = t.title * 1.1, t.subtitle * 1.3
    height = kicker * 1.6 + len(title_lines) * tstep + 1.2 + len(sub_lines) * sstep + 5.5

    def draw(page: Page, x: float, y: float, w: float) -> None:
        page.add("text", Text("RULE SUMMARY", x, y + ascent(kicker, "condensed-bold"), kicker, "condensed-bold", GREY))
        yy = y + kicker * 1.6
        for line in title_lines:
            rich_line(page.layer("text"), line, x, yy + ascent(t.title, "bold"), t.title, INK)
            yy += tstep
        yy += 1.2
        for line in sub_lines:
            rich_line(page.layer("text"), line, x, yy + ascent(t.subtitle), t.subtitle, GREY)
            yy += sstep
        yy += 1.6
        page.add("rules", rect(x, yy, w, 0.9, Style(stroke=None, fill=INK)))

    return height, draw


def _footer(summary: Summary, n: int, count: int, width: float, t: Type, number_left: bool) -> Draw:
    size = t.footer
    number = f"{n} / {count}"
    nw = text_width(number, size, "condensed-bold")
    source = summary.credit
    room = width - nw - 6
    sw = text_width(source, size, "condensed")
    if sw > room:
        warn(f"summary footer: the source line is {sw - room:.0f} mm too long for the page; shorten it")

    def draw(page: Page, x: float, y: float, w: float) -> None:
        page.add("rules", Polyline(((x, y), (x + w, y)), Style(stroke=GREY, width=0.2)))
        base = y + 1.4 + cap_height(size) + 0.8
        if number_left:
            page.add("text", Text(number, x, base, size, "condensed-bold", INK))
            page.add("text", Text(source, x + w, base, size, "condensed", GREY, anchor="end"))
        else:
            page.add("text", Text(source, x, base, size, "condensed", GREY))
            page.add("text", Text(number, x + w, base, size, "condensed-bold", INK, anchor="end"))

    return draw


def compose(summary: Summary, spec: PageSpec, *, booklet: bool = False) -> Layout:
    """Lay out ``summary`` on ``spec``'s paper: columns of text page after page, or (``booklet``) half-size pages
    imposed two to a sheet side for folding."""
    t = BOOKLET_TYPE if booklet else A4_TYPE
    cx, cy, cw, ch = spec.content_box
    if booklet:
        fw, fx = imposed.frames(spec, INSET)  # odd pages lie right of the fold, even ones left
    else:
        fw = cw - 2 * INSET

        def fx(n: int) -> float:
            return cx + INSET

    fy, fb = cy + INSET, cy + ch - 1.0
    columns = max(1, int((fw + COLUMN_GAP) // (MIN_COLUMN + COLUMN_GAP)))
    colw = (fw - COLUMN_GAP * (columns - 1)) / columns
    title_h, title_draw = _title_block(summary, fw, t)
    body_bottom = fb - FOOTER_H - fy

    def top(page: int) -> float:
        return title_h if page == 0 else 0.0

    def pour(squeeze: float) -> tuple[list[Placement], list[str], int]:
        tt = replace(t, section_gap=t.section_gap * squeeze, block_gap=t.block_gap * squeeze)
        problems: list[str] = []
        chunks = chunks_of(summary, colw, tt)
        placed = _balanced(chunks, _flow(chunks, columns, top, body_bottom, problems), columns, top, body_bottom)
        pages = (placed[-1].page + 1) if placed else 1
        return placed, problems, imposed.sheets(pages) if booklet else pages

    # Fitting: a last page (or booklet sheet) with next to nothing on it is worth tighter spacing between
    # sections and blocks, if that saves it; the text itself never shrinks.
    placements, problems, sheets = pour(1.0)
    last = placements[-1].page if placements else 0
    filled = sum(p.chunk.height for p in placements if p.page == last)
    if filled < SQUEEZE_BELOW * columns * body_bottom:
        for squeeze in SQUEEZES:
            tighter = pour(squeeze)
            if tighter[2] < sheets:
                placements, problems, sheets = tighter
                break
    for problem in problems:
        warn(problem)
    used = (placements[-1].page + 1) if placements else 1
    count = imposed.pages(used) if booklet else used

    # Where each logical page (1-based) goes: (physical page, x of its frame).
    order = [list(side) for side in imposed.imposition(count)] if booklet else [[n] for n in range(1, count + 1)]
    where = {n: (k, fx(n)) for k, side in enumerate(order) for n in side}
    title = f"{summary.title} — rule summary" + (" (booklet)" if booklet else "")
    pages = []
    footer = None
    for k in range(len(order)):
        page = Page(spec, page_title(k + 1, len(order), title))
        for name in LAYERS:
            page.layer(name)
        if booklet:
            footer = imposed.print_footer(page)  # under the left-hand page: the front cover stays clean
        pages.append(page)
    boxes: list[list[tuple[float, float, float, float]]] = [[] for _ in order]
    if booklet and footer is not None:
        for side in boxes:
            side.append(footer)
    for n in range(1, count + 1):
        k, x = where[n]
        if n > used:
            continue  # a blank page to make the booklet up to a multiple of 4
        if n == 1:
            title_draw(pages[k], x, fy, fw)
        number_left = booklet and imposed.left_of_fold(n)  # the page number on the outer edge
        _footer(summary, n, count, fw, t, number_left)(pages[k], x, fb - FOOTER_H + 1.2, fw)
        ytop = fy + (title_h if n == 1 else 0.0)
        if n == 1:
            boxes[k].append((x, fy, fw, title_h))  # the title block spans the columns
        boxes[k] += [(x + c * (colw + COLUMN_GAP), ytop, colw, fy + body_bottom - ytop) for c in range(columns)]
        boxes[k].append((x, fb - FOOTER_H, fw, FOOTER_H))  # the page footer
    for p in placements:
        k, x = where[p.page + 1]
        p.chunk.draw(pages[k], x + p.column * (colw + COLUMN_GAP), fy + p.y, colw)
    _frames(placements, pages, where, fy, colw)
    return Layout(pages, placements, count, columns, boxes, order)


def _frames(placements: list[Placement], pages: list[Page], where, fy: float, colw: float) -> None:
    spans: dict[tuple[int, int, int], list] = {}
    for p in placements:
        if p.chunk.frame is None:
            continue
        key = (id(p.chunk.frame), p.page, p.column)
        lo, hi = p.y, p.y + p.chunk.height
        if key in spans:
            spans[key][1] = min(spans[key][1], lo)
            spans[key][2] = max(spans[key][2], hi)
        else:
            spans[key] = [p.chunk.frame, lo, hi, p.page, p.column]
    for frame, lo, hi, page, column in spans.values():
        k, x = where[page + 1]
        x += column * (colw + COLUMN_GAP)
        y, h = fy + lo, hi - lo
        if frame.kind == "example":
            pages[k].add("tint", rect(x, y, colw, h, Style(stroke=None, fill=EXAMPLE_TINT)))
            pages[k].add("boxes", rect(x, y, BAR_W, h, Style(stroke=None, fill=EXAMPLE_BAR)))
        else:
            pages[k].add("boxes", rect(x + 0.15, y + 0.15, colw - 0.3, h - 0.3, READING_FRAME))
