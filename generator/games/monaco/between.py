"""The between-seasons sheet (monaco.txt A4–5): the changes to every squad after a season, on paper with one die —
the same steps, in the same order and with the same ties, as ``paddock season next`` (:mod:`.season`)."""

from __future__ import annotations

from ...compose.blocks import paragraph, title
from ...compose.colour import INK, text_on
from ...paper import PageSpec, Paper
from ...scene import Page, Style, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import rules, sheet_texts
from .sheet import Col, form, inner, new_page

PAPER = Paper("a4", "portrait")
WIDTHS = (8.0, 34.0, 10.0, 24.0, 34.0, 13.0, 26.0, 10.0, 17.0)  # mm, the columns of a squad's box


def between_sheet(field: TeamField, spec: PageSpec, blank_teams: int = 1) -> Page:
    r = rules()
    words = sheet_texts().between
    page = new_page(spec, words.title.format(field=field.name))
    x0, y0, cw, ch = inner(spec)
    text = page.layer("text")
    y = title(text, words.title.format(field=field.name), x0, y0, cw, words.subtitle)
    for i, step in enumerate(words.steps):
        text.add(Text(f"{i + 1}.", x0, y, pt_to_mm(8), "bold", INK, valign="top"))
        y = paragraph(
            text, step.format(bonus=r.race_win_rating_bonus, top=r.rating.max), x0 + 5, y, cw - 5, pt_to_mm(8)
        )
        y += 1.2
    y += 2
    scale = cw / sum(WIDTHS)
    printed = (0, 1, 2, 6, 7)  # seat, driver, skill, car, tech: printed; the rest written in
    cols = [
        Col(head, w * scale, "text" if k in printed else "box", sub=sub, align="middle" if k in (0, 2, 7) else "start")
        for k, (head, sub, w) in enumerate(zip(words.columns, words.column_subs, WIDTHS, strict=True))
    ]
    teams = list(field.teams) + [None] * blank_teams
    seats = r.squad_max
    band = 6.5
    row_h = min(8.0, (y0 + ch - y - len(teams) * (band + 9 + 3)) / (seats * len(teams)))
    for k, team in enumerate(teams):
        name = f"squad {k + 1}: " + (team.name if team else "____________________")
        colour = team.colours.primary if team else "#ffffff"
        page.add("swatch", rect(x0, y, cw, band, Style(stroke=INK, width=0.2, fill=colour)))
        text.add(Text(name, x0 + 2, y + band / 2, pt_to_mm(9), "bold", text_on(colour), valign="middle"))
        rows = []
        drivers = list(team.drivers) if team else []
        for s in range(seats):
            d = drivers[s] if s < len(drivers) else None
            m = d.monaco if d is not None else None
            rows.append(
                [str(s + 1), d.name if d else "", m.skill if m else "", (m.car or "") if m else "", m.tech if m else ""]
            )
        y = form(page, x0, y + band, cols, rows, row_h, 9.0, size=pt_to_mm(7.5)) + 3
    return page
