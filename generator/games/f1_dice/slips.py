"""Rear-wing car slips (f1-dice §1.2), laid out on A4 for quick cutting with a ruler and a knife.

A slip is a 10 × 25 mm strip: the top 5 mm is the rear wing (the driver's name), the 10 × 20 mm below it the car
body in team livery. Cut round the solid outline, fold the wing up along the dashed line. For a board whose unit
is not 2 cm every dimension scales by ``unit / 20``.

Slips sit on a grid whose columns and rows are the same across the whole page, separated by gutters; marks at
the grid's edges extend every cut line, so a ruler laid through a pair of marks cuts a whole column or row.
Layers: ``slip-livery`` (fills), ``slip-text``, ``slip-cut`` (solid outlines), ``slip-fold`` (dashed), ``labels``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...compose.blocks import fit, page_title, wrap
from ...compose.colour import INK, WHITE, text_on
from ...fonts import ascent, fit_size
from ...notices import warn
from ...paper import PageSpec, Paper
from ...scene import Circle, Page, Polyline, Primitive, Style, Text, rect
from ...teams.livery import livery_items
from ...teams.models import Driver, Team, TeamField, wing_lettering
from ...units import pt_to_mm
from .facts import dmod, facts

PAPER = Paper("a4", "portrait")

GUTTER_X = 3.0  # between columns: room for two knife cuts
GUTTER_Y = 4.0
LABEL_CELLS = 2  # a team's label takes the room of two slips
LABEL_SWATCH = 2.2  # mm: the label's colour swatch (the team's first colour; its second beside it, 0.6 as wide)
MARK = 3.0  # length of the cut marks outside the grid
CUT = Style(stroke=INK, width=0.2)
FOLD = Style(stroke=INK, width=0.18, dash=(0.7, 0.5))
GUIDE = Style(stroke="#9a9a9a", width=0.12)


@dataclass(frozen=True)
class Cell:
    kind: str  # "driver" | "spare" | "blank" | "label"
    team: Team | None = None
    driver: Driver | None = None


def slip_items(x: float, y: float, team: Team | None, driver: Driver | None, scale: float = 1.0) -> dict:
    """The primitives of one slip with its top-left corner at (x, y), grouped by layer name.

    ``team`` None gives a blank slip for a hand-drawn livery; ``driver`` None a livery slip with a blank wing.
    """
    size = facts().cars.slip
    w, h, wing = size.width * scale, size.length * scale, size.wing * scale
    out: dict[str, list[Primitive]] = {"slip-livery": [], "slip-text": [], "slip-cut": [], "slip-fold": []}
    if team is not None:
        c = team.colours
        if driver is None:  # a spare: a white wing framed in the team's colour, to write a name on in pencil
            band = min(0.9 * scale, wing / 4)
            out["slip-livery"].append(rect(x, y, w, wing, Style(stroke=None, fill=c.primary)))
            out["slip-livery"].append(
                rect(x + band, y + band, w - 2 * band, wing - 2 * band, Style(stroke=None, fill=WHITE))
            )
        else:
            out["slip-livery"].append(rect(x, y, w, wing, Style(stroke=None, fill=c.primary)))
        out["slip-livery"].extend(livery_items(team, x, y + wing, w, h - wing))
        if driver is not None:
            text = wing_text(driver, scale)
            font, size, ok = wing_lettering(text, scale)
            if not ok:
                warn(f"car slip: '{text}' is below the legible size on a {w:.1f} mm wing")
            out["slip-text"].append(
                Text(text, x + w / 2, y + wing / 2, size, font, text_on(c.primary), anchor="middle", valign="middle")
            )
            if driver.number is not None:
                r = 2.3 * scale
                cx, cy = x + w / 2, y + wing + (h - wing) * 0.47
                out["slip-livery"].append(Circle((cx, cy), r, Style(stroke=INK, width=0.1, fill="#ffffff")))
                num = str(driver.number)
                size, _ = fit_size(num, "condensed-bold", 2.6 * scale, 1.6 * r)
                out["slip-text"].append(
                    Text(num, cx, cy, size, "condensed-bold", INK, anchor="middle", valign="middle")
                )
    else:
        # Blank: a faint outline of the body's tyres to draw round.
        for tx in (x, x + w * 0.8):
            out["slip-livery"].append(rect(tx, y + wing + (h - wing) * 0.05, w * 0.2, (h - wing) * 0.17, GUIDE))
            out["slip-livery"].append(rect(tx, y + wing + (h - wing) * 0.76, w * 0.2, (h - wing) * 0.15, GUIDE))
    out["slip-cut"].append(rect(x, y, w, h, CUT))
    # The fold dashes in ink that shows on the livery (white on a dark car), black on blank slips.
    fold = FOLD if team is None else FOLD.with_(stroke=text_on(team.colours.primary))
    out["slip-fold"].append(Polyline(((x, y + wing), (x + w, y + wing)), fold))
    return out


def wing_text(driver: Driver, scale: float = 1.0) -> str:
    """What the slip writes on the driver's wing: the short name or surname, or the initials where that does not
    fit at a legible size (the race sheet names the car the same way)."""
    text = driver.wing_name
    return text if wing_lettering(text, scale)[2] else driver.initials


def team_cells(team: Team, spares: int = 1) -> list[Cell]:
    cells = [Cell("label", team)] + [Cell("label-more", team)] * (LABEL_CELLS - 1)
    cells += [Cell("driver", team, d) for d in team.drivers]
    cells += [Cell("spare", team)] * spares
    return cells


def layout_rows(field: TeamField | None, columns: int, spares: int = 1) -> list[list[Cell]]:
    """Teams packed into rows of ``columns`` cells, never split across rows; gaps filled with blank slips."""
    rows: list[list[Cell]] = []
    row: list[Cell] = []
    for team in field.teams if field else []:
        cells = team_cells(team, spares)
        while len(cells) > columns:  # a team wider than a row continues on the next, label repeated
            head, rest = cells[:columns], cells[columns:]
            if row:
                rows.append(row + [Cell("blank")] * (columns - len(row)))
                row = []
            rows.append(head)
            cells = head[:LABEL_CELLS] + rest
        if len(row) + len(cells) > columns:
            rows.append(row + [Cell("blank")] * (columns - len(row)))
            row = []
        row += cells
    if row:
        rows.append(row + [Cell("blank")] * (columns - len(row)))
    return rows


def base_unit() -> float:
    """The board unit the rulebook's slip size belongs to (mm)."""
    return float(facts().board.unit)


def slip_size(unit: float | None = None) -> tuple[float, float, float]:
    """``(width, length, wing)`` of a slip for a board of ``unit`` mm (the rulebook's at the base unit)."""
    k = (unit or base_unit()) / base_unit()
    s = facts().cars.slip
    return s.width * k, s.length * k, s.wing * k


def slip_pages(
    field: TeamField | None,
    spec: PageSpec,
    unit: float | None = None,
    blank_rows: int = 2,
    spares: int = 1,
    title: str | None = None,
) -> list[Page]:
    """Car slips for every driver of ``field`` (plus a spare livery slip per team and rows of blank slips)."""
    unit = unit or base_unit()
    scale = unit / base_unit()
    w, h, _ = slip_size(unit)
    paper = spec.paper
    x0, y0, cw, ch = spec.content_box
    head = 15.0
    pitch_x, pitch_y = w + GUTTER_X, h + GUTTER_Y
    columns = int((cw - 2 * MARK - 2 + GUTTER_X) // pitch_x)
    rows_per_page = int((ch - head - 2 * MARK - 2 + GUTTER_Y) // pitch_y)
    if columns < LABEL_CELLS + 2 or rows_per_page < 1:
        from ...errors import InputError

        raise InputError(f"car slips for a {unit:g} mm unit do not fit on {paper.label}", hint="use larger paper")
    rows = layout_rows(field, columns, spares)
    blank = [[Cell("blank")] * columns for _ in range(blank_rows)]
    # Fill the last page's free rows with blank slips, up to blank_rows (at least one row of blanks).
    rows += blank
    pages: list[Page] = []
    chunks = [rows[i : i + rows_per_page] for i in range(0, len(rows), rows_per_page)] or [[]]
    name = title or (f"Car slips — {field.name}" if field else "Blank car slips")
    for n, chunk in enumerate(chunks):
        label = page_title(n + 1, len(chunks), name)
        page = Page(spec, label)
        _head(page, label, unit)
        grid_w = columns * pitch_x - GUTTER_X
        gx = x0 + (cw - grid_w) / 2
        gy = y0 + head + MARK + 1
        for r, row in enumerate(chunk):
            for c, cell in enumerate(row):
                x, y = gx + c * pitch_x, gy + r * pitch_y
                if cell.kind == "label":
                    _label(page, cell.team, x, y, LABEL_CELLS * pitch_x - GUTTER_X, h)
                elif cell.kind in ("driver", "spare", "blank"):
                    items = slip_items(x, y, cell.team, cell.driver, scale)
                    for layer, prims in items.items():
                        page.layer(layer).extend(prims)
        _marks(page, gx, gy, columns, len(chunk), w, h, pitch_x, pitch_y)
        pages.append(page)
    return pages


def _head(page: Page, title: str, unit: float) -> None:
    x0, y0, cw, _ = page.content_box
    size = pt_to_mm(15)
    page.add("labels", Text(title, x0, y0 + ascent(size, "bold"), size, "bold", INK))
    w, h, _ = slip_size(unit)
    scale_note = (
        f"{w:g} × {h:g} mm, for a board with {unit / 10:g} cm units"
        if abs(unit - base_unit()) < 1e-9
        else f"{w:g} × {h:g} mm, scaled for a {unit:g} mm board unit"
    )
    line = (
        f"Cut on the solid lines — a ruler laid across the marks at the edges cuts a whole row or column. "
        f"Fold the wing up along the dashed line. Slips {scale_note}."
    )
    s = fit(line, "regular", pt_to_mm(8), cw, "car slips: the instructions")
    page.add("labels", Text(line, x0, y0 + 10.5, s, "regular", INK))


def _label(page: Page, team: Team, x: float, y: float, w: float, h: float) -> None:
    """The team's name (and f1-dice facts) beside its slips, with a swatch of its colours."""
    layer = page.layer("labels")
    c = team.colours
    sw = LABEL_SWATCH
    layer.add(rect(x, y, sw, h, Style(stroke=None, fill=c.primary)))
    layer.add(rect(x + sw, y, sw * 0.6, h, Style(stroke=None, fill=c.second)))
    layer.add(rect(x, y, sw * 1.6, h, Style(stroke=INK, width=0.1)))
    tx = x + sw * 1.6 + 1.5
    tw = x + w - tx
    words, size = label_lines(team.name, tw)
    ty = y + 3.2
    for line in words:
        layer.add(Text(line, tx, ty, size, "condensed-bold", INK))
        ty += size * 1.15
    small = pt_to_mm(6.5)
    facts = []
    if team.tier:
        facts.append({"front": "front runner", "midfield": "midfield", "back": "backmarker"}[team.tier])
    if team.qualifying:
        q = team.qualifying
        facts.append(f"Q1 {dmod(q.q1)}  Q2 {dmod(q.q2)}")
        facts.append(f"Q3 {dmod(q.q3)}")
    ty = y + h - 1.0 - small * 1.2 * (len(facts) - 1)
    for line in facts:
        s3, _ = fit_size(line, "condensed", small, tw)
        layer.add(Text(line, tx, ty, s3, "condensed", INK))
        ty += small * 1.2


def label_width(unit: float | None = None) -> float:
    """The room (mm) for a team's name on its label beside the slips, at a board of ``unit`` mm."""
    w, _, _ = slip_size(unit)
    return LABEL_CELLS * (w + GUTTER_X) - GUTTER_X - LABEL_SWATCH * 1.6 - 1.5


def label_lines(name: str, width: float, lines: int = 2) -> tuple[list[str], float]:
    """``name`` in at most ``lines`` lines of ``width`` mm, as large as fits up to 8 pt: the lines and the size.
    Below the legible floor (a teams file checks names against it) it says so, naming the sheet."""
    from ...fonts import LEGIBLE_FLOOR, text_width

    size = pt_to_mm(8)
    while True:
        words = wrap(name, width, size, "condensed-bold")
        if len(words) <= lines and all(text_width(w, size, "condensed-bold") <= width for w in words):
            return words, size
        if size <= LEGIBLE_FLOOR:
            warn(f"car slips: the team name '{name}' does not fit its {width:.1f} mm label even at 5 pt; shorten it")
            return words, size
        size = max(LEGIBLE_FLOOR, size - 0.05)


def _marks(page: Page, gx, gy, columns, rows, w, h, px, py) -> None:
    """Cut marks outside the grid on every column and row edge, for laying a ruler across the page."""
    if rows == 0:
        return
    layer = page.layer("slip-marks")
    st = Style(stroke=INK, width=0.15)
    top, bottom = gy, gy + (rows - 1) * py + h
    left, right = gx, gx + (columns - 1) * px + w
    for c in range(columns):
        for x in (gx + c * px, gx + c * px + w):
            layer.add(Polyline(((x, top - MARK - 0.5), (x, top - 0.5)), st))
            layer.add(Polyline(((x, bottom + 0.5), (x, bottom + MARK + 0.5)), st))
    for r in range(rows):
        for y in (gy + r * py, gy + r * py + h):
            layer.add(Polyline(((left - MARK - 0.5, y), (left - 0.5, y)), st))
            layer.add(Polyline(((right + 0.5, y), (right + MARK + 0.5, y)), st))
