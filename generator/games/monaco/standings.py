"""Season standings (monaco.txt 5b and A): points per driver per race and per team, with the points scale the
season is played to — Paddock's reading of the rulebook unless ``--points`` says otherwise."""

from __future__ import annotations

from ...compose.blocks import title
from ...errors import InputError
from ...paper import PageSpec, Paper
from ...scene import Page, Text
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import ordinal, points_is_reading, points_scale, rules, sheet_texts
from .sheet import Col, form, inner, new_page, notes

PAPER = Paper("a4", "landscape")
DEFAULT_RACES = 8


def points_legend(scale: list[int]) -> str:
    return " · ".join(f"{ordinal(i + 1)} {p}" for i, p in enumerate(scale))


def standings_sheet(field: TeamField, spec: PageSpec, points: str | None = None, races: int = DEFAULT_RACES) -> Page:
    r = rules()
    words = sheet_texts().standings
    scale = points_scale(points)
    page = new_page(spec, words.title.format(field=field.name))
    x0, y0, cw, ch = inner(spec)
    text = page.layer("text")
    top = title(
        text, words.title.format(field=field.name), x0, y0, cw, words.subtitle.format(points=points_legend(scale))
    )
    if points_is_reading(scale):
        note = words.reading.format(name=r.points.reading_name, scale="-".join(map(str, scale)))
    else:
        note = words.custom
    top = notes(page, [note], x0, top, cw) + 1.5
    name_w, team_w, total_w = min(42.0, cw * 0.16), min(30.0, cw * 0.12), 14.0
    wins = 3  # race wins this season, each +1 skill at once (ticks; a fourth win is rare)
    skill_w = 9.0 + 5.2 * wins + 0.6 + 13.0
    race_w = (cw - name_w - team_w - 2 * total_w - skill_w) / races
    if race_w < 7.0:
        raise InputError(
            f"{races} races do not fit on {spec.paper.label}", field="--races", hint="use fewer races or larger paper"
        )
    race_cols = [Col(str(i + 1), race_w, "box", sub="race") for i in range(races)]
    drivers = list(field.drivers)
    n_teams = len(field.teams)
    rows_d = len(drivers) + 2
    rows_t = n_teams + 1
    room = y0 + ch - top - 2 * 10.0 - 16 - 14
    row_h = min(8.0, room / (rows_d + rows_t))
    cols = [
        Col("driver", name_w),
        Col("team", team_w),
        Col("skill", 9.0, align="middle", sub="at start"),
        Col("wins", 5.2 * wins + 0.6, "ticks", wins, sub=f"+{r.race_win_rating_bonus} skill each"),
        Col("skill", 13.0, "box", sub="now"),
        *race_cols,
        Col("total", total_w, "box"),
        Col("place", total_w, "box"),
    ]
    rows = [[d.name, t.name, d.monaco.skill if d.monaco else ""] for t, d in drivers] + [["", "", ""]] * 2
    swatches = [t.colours.primary for t, _ in drivers] + [None, None]
    y = form(page, x0, top, cols, rows, row_h, 10.0, swatches)
    y += 5
    text.add(Text("Teams", x0, y + 3.2, pt_to_mm(10), "bold"))
    y += 5
    cols_t = [
        Col("team", name_w + team_w + skill_w),
        *race_cols,
        Col("total", total_w, "box"),
        Col("place", total_w, "box"),
    ]
    rows_team = [[t.name] for t in field.teams] + [[""]]
    swatches_t = [t.colours.primary for t in field.teams] + [None]
    y = form(page, x0, y, cols_t, rows_team, row_h, 10.0, swatches_t)
    between = words.between.format(bonus=r.race_win_rating_bonus, top=r.rating.max)
    notes(page, [between], x0, y + 3, cw)
    return page
