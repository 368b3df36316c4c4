"""The chip card and its chips: an index card (5 × 3 in; A6 or A7 on request) with a space for ACCIDENTS, CRASHES and
WRECKS, and the blue chips to cut out, sized to sit in those spaces.

The card keeps its own size whatever the paper: it is drawn at true size on the printer's page, with cut marks at
its corners and on every cut line of the chips. The number of chips on each space is computed from the race length
and the track (:func:`facts.chip_plan`), never typed. Each chip's face names its space; its back, printed on the
next page to land behind it (the sheet turned over its long edge), reads TROUBLE and is the same on every chip, so
a chip drawn blind (Paddock's reading, on the quick card) gives nothing away.
"""

from __future__ import annotations

from ...compose.blocks import fit, paragraph, wrap
from ...compose.colour import GREY, INK, SHADE, WHITE
from ...fonts import LEGIBLE_FLOOR, ascent, text_width
from ...notices import warn
from ...paper import PageSpec, Paper
from ...scene import Circle, Page, Polyline, Style, Text, rect
from ...units import pt_to_mm
from . import facts
from .sheet import BLUE, MARK, MARK_GAP, NAVY, RED, card_scale, corner_marks, fill, grid_marks, inner, new_page

PAPER = Paper("a4", "portrait")

LABEL_BAND = 5.6  # mm at the reference size: the band with a space's name
COUNT_NOTE = pt_to_mm(6)  # the words under a space's count, at the reference size


def chip_size(card: facts.CardSize) -> float:
    """A chip's side: as large as Paddock allows, but no larger than the chip spot of a space on this card."""
    c = facts.sheets().chips
    return max(c.min_size_mm, min(c.max_size_mm, _spot(card)))


def _scale(card: facts.CardSize) -> float:
    return card_scale(card)


def _note_size(k: float) -> float:
    return max(LEGIBLE_FLOOR, COUNT_NOTE * k)


def _spot(card: facts.CardSize) -> float:
    """The side of the dashed square in each space where the chips sit: what the count beside it leaves."""
    k = _scale(card)
    pad, gap = 3.2 * k, 2.4 * k
    space_w = (card.width - 2 * pad - 2 * gap) / 3
    words = facts.sheets().chip_card
    count_w = text_width(words.start, _note_size(k), "condensed")
    return space_w - count_w - 6.5 * k


def _card_texts(plan: facts.ChipPlan) -> tuple[str, str, list[str]]:
    """(race line, count line, notes under the spaces) for ``plan``."""
    words = facts.sheets().chip_card
    v = facts.values(plan)
    race = fill(words.race, v)
    count = fill(words.count if plan.extras else words.count_none, v)
    notes = [fill(words.counting, v)]
    if plan.extras:
        if plan.chosen:
            notes.append(fill(words.extras_chosen, v))
        elif plan.reading:
            notes.append(fill(words.extras_reading, v))
        elif "extras_space" not in v:
            notes.append(fill(words.extras_even, v))
        else:
            notes.append(fill(words.extras_suggested, v))
    notes.append(fill(words.use, v))
    return race, count, notes


def draw_card(page: Page, plan: facts.ChipPlan, card: facts.CardSize, x: float, y: float) -> None:
    """The card at true size with its top-left corner at (x, y)."""
    words = facts.sheets().chip_card
    text, boxes, shade = page.layer("text"), page.layer("boxes"), page.layer("shade")
    w, h = card.width, card.height
    k = _scale(card)
    pad, gap = 3.2 * k, 2.4 * k
    ix, iw = x + pad, w - 2 * pad
    boxes.add(rect(x, y, w, h, Style(stroke="#bdbdbd", width=0.15)))
    race, count, notes = _card_texts(plan)

    # Title band: the form of the card on the left, the race on the right; a red stripe under it.
    band = 7.6 * k
    shade.add(rect(x, y, w, band, Style(stroke=None, fill=NAVY)))
    shade.add(rect(x, y + band, w, 0.9 * k, Style(stroke=None, fill=RED)))
    ts = fit(words.title, "bold", pt_to_mm(11) * k, iw * 0.45, "chip card title")
    text.add(Text(words.title, ix, y + band / 2, ts, "bold", WHITE, valign="middle"))
    rs = fit(race, "condensed-bold", pt_to_mm(9) * k, iw * 0.52, "chip card race line")
    text.add(Text(race, ix + iw, y + band / 2, rs, "condensed-bold", WHITE, anchor="end", valign="middle"))
    cy = y + band + 0.9 * k + 1.6 * k
    cs = fit(count, "bold", pt_to_mm(7.5) * k, iw, "chip card count")
    text.add(Text(count, ix, cy + ascent(cs, "bold"), cs, "bold", INK))
    cy += ascent(cs, "bold") + 1.8 * k

    # Notes at the bottom, as large as the room the spaces leave allows (a space needs its label band and spot).
    space_w = (iw - 2 * gap) / 3
    spot = _spot(card)
    need = LABEL_BAND * k + spot + 3.0 * k
    ns = pt_to_mm(8) * k
    while True:
        lines = sum(len(wrap(n, iw, ns, "condensed")) for n in notes)
        notes_h = lines * ns * 1.18 + (len(notes) - 1) * 0.6 * k
        space_h = y + h - pad - notes_h - 1.8 * k - cy
        if space_h >= need or ns <= LEGIBLE_FLOOR:
            break
        ns = max(LEGIBLE_FLOOR, ns - pt_to_mm(0.25))
    chip = chip_size(card)
    for i, key in enumerate(facts.form_keys()):
        sx = ix + i * (space_w + gap)
        _space(page, plan, key, sx, cy, space_w, space_h, spot, chip, k)
    ny = cy + space_h + 1.8 * k
    for note in notes:
        ny = paragraph(text, note, ix, ny, iw, ns, "condensed", INK, leading=1.18) + 0.6 * k
    if ny - 0.6 * k > y + h - pad + 0.3:
        warn(f"chip card: the notes run {ny - (y + h - pad):.1f} mm past the {card.label}")


def _space(page, plan, key, x, y, w, h, spot, chip, k) -> None:
    """One space: its name, the dashed square where the chips sit, and how many start there."""
    text, boxes = page.layer("text"), page.layer("boxes")
    f = facts.form(key)
    boxes.add(rect(x, y, w, h, Style(stroke=INK, width=0.35)))
    page.layer("shade").add(rect(x, y, w, LABEL_BAND * k, Style(stroke=None, fill=SHADE)))
    ls = fit(f.plural, "bold", pt_to_mm(8.5) * k, w - 2 * k, "chip space")
    text.add(Text(f.plural, x + w / 2, y + 2.8 * k, ls, "bold", INK, anchor="middle", valign="middle"))
    # The chip spot, left; the starting count, right.
    body_top = y + LABEL_BAND * k
    body_h = h - LABEL_BAND * k
    side = min(spot, body_h - 3.0 * k)
    px = x + 2.5 * k
    py = body_top + (body_h - side) / 2
    boxes.add(rect(px, py, side, side, Style(stroke=GREY, width=0.2, dash=(1.0, 0.8))))
    if side >= chip:  # a faint ring where a chip lies
        boxes.add(Circle((px + side / 2, py + side / 2), chip * 0.36, Style(stroke="#c8c8c8", width=0.3)))
    n = plan.start(key)
    cx = (px + side + x + w) / 2
    cw = x + w - (px + side) - 1.5 * k
    words = facts.sheets().chip_card
    mid = body_top + body_h / 2
    big = pt_to_mm(20) * k
    text.add(Text(str(n), cx, mid + 0.6 * k, big, "bold", INK, anchor="middle", valign="baseline"))
    under = words.start
    us = fit(under, "condensed", _note_size(k), cw, "chip space")
    text.add(Text(under, cx, mid + 0.6 * k + 1.3 * k, us, "condensed", INK, anchor="middle", valign="top"))


def draw_chip(page: Page, x: float, y: float, side: float, label: str, ground: bool = True) -> None:
    """One blue chip: a square to cut out (``ground``: filled here; a back's ground is drawn once under them all),
    a white ring and ``label`` in white — the space it belongs to on its face, TROUBLE on its back."""
    if ground:
        page.layer("chips").add(rect(x, y, side, side, Style(stroke=None, fill=BLUE)))
    page.layer("boxes").add(Circle((x + side / 2, y + side / 2), side * 0.41, Style(stroke=WHITE, width=0.45)))
    s = fit(label, "condensed-bold", pt_to_mm(5.5) * side / 12, side * 0.7, "chip")
    page.layer("text").add(Text(label, x + side / 2, y + side / 2, s, "condensed-bold", WHITE, "middle", "middle"))


BLEED = 1.5  # mm: the backs' blue runs this far past the outer cut lines, so a slightly shifted back shows no white


def _backs(spec: PageSpec, grid: tuple[float, float, int, int, float], total: int, title: str, note: str) -> Page:
    """The chips' backs, each behind its face when the sheet is printed double-sided flipping on its long edge:
    the page mirrored left to right on upright paper, top to bottom on paper lying down."""
    gx, gy, cols, rows, side = grid
    page = new_page(spec, title)
    x0, y0, cw, _ = inner(page)
    portrait = spec.height >= spec.width

    def behind(x: float, y: float, w: float, h: float) -> tuple[float, float]:
        return (spec.width - x - w, y) if portrait else (x, spec.height - y - h)

    full, last = divmod(total, cols)
    parts = [(gx, gy, cols * side, full * side)] if full else []
    if last:
        parts.append((gx, gy + full * side, last * side, side))
    for x, y, w, h in parts:  # the ground: one blue field per block of chips, bled past the cut lines
        bx, by = behind(x - BLEED, y - BLEED, w + 2 * BLEED, h + 2 * BLEED)
        page.layer("chips").add(rect(bx, by, w + 2 * BLEED, h + 2 * BLEED, Style(stroke=None, fill=BLUE)))
    label = facts.sheets().chip_card.chip_label
    for i in range(total):
        r, c = divmod(i, cols)
        draw_chip(page, *behind(gx + c * side, gy + r * side, side, side), side, label, ground=False)
    hs = pt_to_mm(10)
    page.add("text", Text(title, x0, y0 + ascent(hs, "bold"), hs, "bold", INK))
    paragraph(page.layer("text"), note, x0, y0 + ascent(hs, "bold") + 2.0, cw, pt_to_mm(8), "regular", GREY)
    return page


def chip_card_pages(plan: facts.ChipPlan, card: facts.CardSize, spec: PageSpec) -> list[Page]:
    """The chip card at true size on the printer's page, the chips under it and the quick card under them, cut
    marks round each; then the chips' backs (the page to print behind it); the quick card on a page of its own,
    after them, when the first has no room left for it."""
    from .quickcard import draw_quick_card

    words = facts.sheets().chip_card
    v = facts.values(plan) | {"card_label": card.label}
    page = new_page(spec, words.page_title)
    x0, y0, cw, ch = inner(page)
    text = page.layer("text")
    size = pt_to_mm(13)
    text.add(Text(f"{words.page_title}: {fill(words.race, v)}", x0, y0 + ascent(size, "bold"), size, "bold", INK))
    y = y0 + ascent(size, "bold") + 2.0
    y = paragraph(text, fill(words.page_note, v), x0, y, cw, pt_to_mm(8), "regular", GREY) + 1.0
    y = paragraph(text, facts.credit(), x0, y, cw, pt_to_mm(7), "condensed", GREY)
    reach = MARK + MARK_GAP + 0.3
    if card.width + 2 * reach > cw:
        from ...errors import GeometryError

        raise GeometryError(f"the {card.label} does not fit on {spec.paper.label}", hint="use larger paper")
    cx = x0 + (cw - card.width) / 2
    cy = y + reach + 2.0
    draw_card(page, plan, card, cx, cy)
    corner_marks(page.layer("marks"), (cx, cy, card.width, card.height))

    # The chips: a grid of touching squares (one cut per line), marks at both ends of every cut line.
    side = chip_size(card)
    y = cy + card.height + reach + 5.0
    hs = pt_to_mm(10)
    text.add(Text(fill(words.chips_heading, v), x0, y + ascent(hs, "bold"), hs, "bold", INK))
    y += ascent(hs, "bold") + reach + 2.5
    cols = max(1, min(plan.total, int((cw - 2 * reach) // side)))
    rows = -(-plan.total // cols)
    if y + rows * side + reach > y0 + ch:
        from ...errors import GeometryError

        raise GeometryError(
            f"{plan.total} chips of {side:g} mm do not fit under the card on {spec.paper.label}",
            hint="use larger paper or a shorter race",
        )
    gx = x0 + (cw - cols * side) / 2
    for i, key in enumerate(plan.chips()):
        r, c = divmod(i, cols)
        draw_chip(page, gx + c * side, y + r * side, side, facts.form(key).name)
    backs = _backs(spec, (gx, y, cols, rows, side), plan.total, words.backs_title, fill(words.backs_note, v))
    thin = Style(stroke=WHITE, width=0.2)
    for i in range(plan.total):  # a hair line between touching chips, so each reads as one piece
        r, c = divmod(i, cols)
        bx, by = gx + c * side, y + r * side
        page.layer("boxes").add(Polyline(((bx + side, by), (bx + side, by + side)), thin))
        page.layer("boxes").add(Polyline(((bx, by + side), (bx + side, by + side)), thin))
    grid_marks(page.layer("marks"), gx, y, cols, rows, side)

    # The quick card: under the chips where it fits, else on a page of its own.
    y += rows * side + reach + 5.0
    need = ascent(hs, "bold") + reach + 2.5 + card.height + reach
    pages = [page, backs]
    if y + need > y0 + ch:
        page = new_page(spec, words.page_title)
        x0, y0, cw, ch = inner(page)
        y = y0
        pages.append(page)
    page.add("text", Text(words.quick_heading, x0, y + ascent(hs, "bold"), hs, "bold", INK))
    y += ascent(hs, "bold") + reach + 2.5
    draw_quick_card(page, card, cx, y, plan)
    corner_marks(page.layer("marks"), (cx, y, card.width, card.height))
    if len(pages) > 2:
        from ...compose.blocks import page_title

        for i, p in enumerate(pages[::2]):
            p.title = page_title(i + 1, 2, words.page_title)
    return pages
