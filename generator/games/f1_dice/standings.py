"""The championship sheets: drivers × races and teams × races, a total and a position, scored with one points
system."""

from __future__ import annotations

from ...compose.blocks import fitted_text, title
from ...compose.colour import INK, WHITE, ZEBRA
from ...errors import InputError
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import DEFAULT_RACES, facts, points_system
from .sheet import inner, new_page

PAPER = Paper("a4", "landscape")
TEAM_W = 26.0  # mm: the drivers' sheet's team column (a teams file's team names fit 1 mm less: teams.checks)
RULE = Style(stroke=INK, width=0.2)
THIN = Style(stroke="#9a9a9a", width=0.15)


def standings_sheet(field: TeamField, spec: PageSpec, points_id: str | None = None, races: int = DEFAULT_RACES) -> Page:
    """The drivers' championship: a row per driver."""
    rows = [(d.name, t.name, t.colours.primary) for t, d in field.drivers]
    return _table(
        spec,
        f"Championship — {field.name}",
        f"Championship standings — {field.name}",
        ("Driver", "Team"),
        rows,
        points_id,
        races,
        facts().words.standings.subtitle,
    )


def constructors_sheet(
    field: TeamField, spec: PageSpec, points_id: str | None = None, races: int = DEFAULT_RACES
) -> Page:
    """The constructors' championship: a row per team, scoring what all its cars score."""
    rows = [
        (t.name, f"{len(t.drivers)} car{'s' if len(t.drivers) > 1 else ''}", t.colours.primary) for t in field.teams
    ]
    return _table(
        spec,
        f"Constructors — {field.name}",
        f"Constructors' championship — {field.name}",
        ("Team", "Cars"),
        rows,
        points_id,
        races,
        facts().words.standings.constructors_subtitle,
    )


def _table(spec, page_title, heading, labels, rows, points_id, races, subtitle) -> Page:
    system = points_system(points_id)
    words = facts().words.standings
    pts = system.scale
    best = words.best.format(n=system.best_results) if system.best_results else ""
    page = new_page(spec, page_title)
    x0, y0, cw, ch = inner(page)
    top = title(page.layer("text"), heading, x0, y0, cw, subtitle.format(points=pts, label=system.label, best=best))
    n = len(rows)
    head_h = 14.0
    row_h = min(10.0, (y0 + ch - top - head_h) / max(n, 1))
    name_w, team_w, total_w, pos_w = 40.0, TEAM_W, 13.0, 9.0
    race_w = (cw - name_w - team_w - total_w - pos_w - 4.5) / races
    if race_w < 6.0:
        raise InputError(
            f"{races} races do not fit on {spec.paper.label}", field="--races", hint="use fewer races or larger paper"
        )
    rx = x0 + name_w + team_w + 1.5
    head = pt_to_mm(8)
    for r in range(races):
        cx = rx + r * race_w
        page.add("boxes", rect(cx, top, race_w, head_h - 1, Style(stroke=INK, width=0.2)))
        page.add(
            "text", Text(str(r + 1), cx + race_w / 2, top + 2.6, pt_to_mm(7), "condensed-bold", INK, "middle", "middle")
        )
    tx = rx + races * race_w + 1.5
    hy = top + head_h - 3
    page.add("text", Text("Total", tx + total_w / 2, hy, head, "condensed-bold", INK, "middle", "middle"))
    page.add("text", Text("Pos", tx + total_w + 1.5 + pos_w / 2, hy, head, "condensed-bold", INK, "middle", "middle"))
    page.add("text", Text(labels[0], x0 + 5, hy, head, "condensed-bold", INK, valign="middle"))
    page.add("text", Text(labels[1], x0 + name_w, hy, head, "condensed-bold", INK, valign="middle"))
    y = top + head_h
    box = Style(stroke=INK, width=0.25, fill=WHITE)
    for i, (name, sub, colour) in enumerate(rows):
        ry = y + i * row_h
        cy = ry + row_h / 2
        if i % 2 == 0:
            page.add("shade", rect(x0, ry, cw, row_h, Style(stroke=None, fill=ZEBRA)))
        page.add(
            "swatch", rect(x0 + 0.5, cy - row_h * 0.32, 3.0, row_h * 0.64, Style(stroke=INK, width=0.1, fill=colour))
        )
        page.add(
            "text",
            fitted_text(
                name, x0 + 5, cy, name_w - 6, max_size=head, font="condensed-bold", valign="middle", what=page.title
            ),
        )
        page.add(
            "text",
            fitted_text(
                sub,
                x0 + name_w,
                cy,
                team_w - 1,
                max_size=pt_to_mm(7.5),
                font="condensed",
                valign="middle",
                what=page.title,
            ),
        )
        for r in range(races):
            page.add("grid", rect(rx + r * race_w, ry, race_w, row_h, THIN))
        page.add("boxes", rect(tx, ry + 0.5, total_w, row_h - 1, box))
        page.add("boxes", rect(tx + total_w + 1.5, ry + 0.5, pos_w, row_h - 1, box))
    page.add("rules", Polyline(((x0, y), (x0 + cw, y)), RULE))
    return page
