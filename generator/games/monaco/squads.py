"""The squad sheet (monaco.txt A3, B): each team's cars — at most four — with the driver's skill and the car's tech
and what each costs in points, and the squad's total."""

from __future__ import annotations

from ...compose.blocks import title
from ...compose.colour import INK, text_on
from ...paper import PageSpec, Paper
from ...scene import Page, Style, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import rules, sheet_texts
from .sheet import Col, form, inner, new_page, notes

PAPER = Paper("a4", "portrait")


def squad_sheet(field: TeamField, spec: PageSpec, blank_teams: int = 1) -> Page:
    r = rules()
    words = sheet_texts().squads
    cap = r.squad_max
    page = new_page(spec, words.title.format(field=field.name))
    x0, y0, cw, ch = inner(spec)
    text = page.layer("text")
    sub = words.subtitle.format(max=cap, low=r.rating.min, high=r.rating.max)
    top = title(text, words.title.format(field=field.name), x0, y0, cw, sub)
    cols = [
        Col("no.", 10, align="middle"),
        Col("driver", cw - 10 - 44 - 16 * 5),
        Col("skill", 16, align="middle"),
        Col("cost", 16, align="middle"),
        Col("car", 44),
        Col("tech", 16, align="middle"),
        Col("cost", 16, align="middle"),
        Col("car + driver", 16, align="middle"),
    ]
    per = r.cost_per_rating_point
    teams = list(field.teams) + [None] * blank_teams
    band = 7.0
    row_h = min(7.5, (y0 + ch - top - len(teams) * (band + 10 + 10) - 12) / (cap * len(teams)))
    y = top + 1
    for team in teams:
        name = team.name if team else "Team: ____________________________"
        colour = team.colours.primary if team else "#ffffff"
        page.add("swatch", rect(x0, y, cw, band, Style(stroke=INK, width=0.2, fill=colour)))
        total = ""
        rows = []
        if team:
            costs = 0
            for d in team.drivers:
                m = d.monaco
                if m:
                    costs += m.cost
                rows.append(
                    [
                        d.number if d.number is not None else "",
                        d.name,
                        m.skill if m else "",
                        m.skill * per if m else "",
                        (m.car or "") if m else "",
                        m.tech if m else "",
                        m.tech * per if m else "",
                        m.cost if m else "",
                    ]
                )
            total = f"squad cost {costs}"
        rows += [[""] * 8] * (cap - len(rows))
        ink = text_on(colour)
        text.add(Text(name, x0 + 2, y + band / 2, pt_to_mm(10), "bold", ink, valign="middle"))
        if total:
            text.add(Text(total, x0 + cw - 2, y + band / 2, pt_to_mm(9), "condensed-bold", ink, "end", "middle"))
        y = form(page, x0, y + band, cols, rows, row_h, 8.0) + 6
    notes(page, words.notes, x0, y, cw)
    return page
