"""The qualifying sheet (f1-dice §2.1): Q1 with the field pre-printed and each team's Q1–Q3 modifiers, entry lists
for the later sessions, the team-modifier table with the tie-break rules, and a starting grid to fill in.

The sessions are the field's knock-out (:func:`.facts.knockout`): the rulebook's for 24 cars, else Paddock's
reading, said under the title; a field too small for a knock-out runs Q1 alone."""

from __future__ import annotations

from ...compose.blocks import fitted_text, paragraph, title, wrap
from ...compose.colour import GREY, INK, WHITE, ZEBRA
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import Session, dmod, facts, knockout, modifiers, tie_groups
from .sheet import inner, new_page

PAPER = Paper("a4", "landscape")  # the sheet's own paper when the user names none
RULE = Style(stroke=INK, width=0.2)
THIN = Style(stroke="#9a9a9a", width=0.15)
BOX = Style(stroke=INK, width=0.25)
WRITE = Style(stroke=INK, width=0.2, fill=WHITE)


WHAT = "qualifying sheet"  # what a warning about a squeezed name names
GRID_W, LATER_W, GAP = 52.0, 50.0, 6.0  # mm: the starting grid, each later session, between them
GRID_MIN, LATER_MIN = 42.0, 44.0  # … narrowed down to these when the Q1 table needs the room for team names
Q1_FIXED = 92.0  # mm of the Q1 table that is not its team column (swatch, driver, modifiers, roll and total)
MOD_COL = 6.0  # mm: a session's column in the team-modifier table


def _cell(page, text, x, y, width, size, font="condensed", color=INK, anchor="start", what=WHAT) -> None:
    page.add(
        "text",
        fitted_text(
            text, x, y, width, max_size=size, font=font, color=color, anchor=anchor, valign="middle", what=what
        ),
    )


def columns(cw: float, sessions: int) -> tuple[float, float, float]:
    """``(Q1 table, each later session, grid)`` widths (mm) across ``cw``: the later sessions and the grid give up
    room, down to their least, until the Q1 table's team column holds a team name (``TEAM_NAME_WIDTH_MM``)."""
    from ...teams.checks import TEAM_NAME_WIDTH_MM

    n_side = max(sessions - 1, 1)
    gaps = (n_side + 1) * GAP
    want = Q1_FIXED + TEAM_NAME_WIDTH_MM + 1.0
    spare = cw - gaps - want - GRID_W - n_side * LATER_W
    if spare >= 0:
        return cw - gaps - GRID_W - n_side * LATER_W, LATER_W, GRID_W
    give = min(-spare, (GRID_W - GRID_MIN) + n_side * (LATER_W - LATER_MIN))
    k = give / ((GRID_W - GRID_MIN) + n_side * (LATER_W - LATER_MIN))
    later, grid = LATER_W - k * (LATER_W - LATER_MIN), GRID_W - k * (GRID_W - GRID_MIN)
    return cw - gaps - grid - n_side * later, later, grid


def qualifying_sheet(field: TeamField, spec: PageSpec) -> Page:
    page = new_page(spec, f"Qualifying — {field.name}")
    x0, y0, cw, ch = inner(page)
    rules = facts().qualifying
    words = facts().words.qualifying
    n = len(field.drivers)
    ko = knockout(n)
    sizes = [(x.name, x.cars, x.first, x.last) for x in ko.sessions]
    if len(sizes) > 1:
        sub = words.subtitle.format(minimum_result=rules.minimum_result)
    else:
        sub = words.subtitle_one.format(session=sizes[0][0], minimum_result=rules.minimum_result)
    text = page.layer("text")
    top = title(text, f"Qualifying — {field.name}", x0, y0, cw, sub) - 2
    top = paragraph(text, ko.heading(), x0, top, cw, pt_to_mm(8), "condensed-bold", leading=1.25)
    if ko.reading():
        top = paragraph(text, ko.reading(), x0, top + 0.5, cw, pt_to_mm(7), "condensed", GREY, leading=1.25)
    top += 3
    bottom = y0 + ch
    gap = GAP
    # Column widths: Q1 (pre-printed field), one column per later session (or one for the modifier table when
    # Q1 is the only session), the grid.
    q1_w, later_w, grid_w = columns(cw, len(sizes))
    head_h = 11.0
    row_h = min(7.0, (bottom - top - head_h) / max(n, 1))
    x = x0
    _q1_table(page, field, x, top, q1_w, row_h, head_h, ko.sessions[0])
    x += q1_w + gap
    for session in ko.sessions[1:]:
        _blank_session(page, session, x, top, later_w, row_h, head_h)
        x += later_w + gap
    # Team modifiers under the last session, where there is room (in their own column with Q1 alone).
    if len(sizes) > 1:
        mod_top = top + head_h + sizes[-1][1] * row_h + 8
        mx = x - later_w - gap
    else:
        mod_top, mx = top, x
        x += later_w + gap
    _modifier_table(page, field, mx, mod_top, later_w, bottom)
    _grid(page, n, sizes, x, top, grid_w, bottom)
    return page


def _session_header(page, heading, note, x, y, w, columns):
    page.add("text", Text(heading, x, y + ascent(pt_to_mm(11), "bold"), pt_to_mm(11), "bold", INK))
    if note:
        _cell(page, note, x + w, y + 1.6, w - 14, pt_to_mm(7), "condensed", GREY, anchor="end")
    hy = y + 9.6
    for label, cx, anchor in columns:
        page.add("text", Text(label, cx, hy, pt_to_mm(6.5), "condensed", GREY, anchor=anchor, valign="bottom"))


def _q1_table(page, field: TeamField, x, top, w, row_h, head_h, session: Session):
    sessions = facts().qualifying.sessions
    box_w = 9.0
    mod_w = 8.0
    total_x = x + w - box_w
    roll_x = total_x - box_w - 1.5
    mods_x = roll_x - 2.5 - mod_w * len(sessions)
    team_x = x + 6 + 38
    cols = [("driver", x + 6, "start"), ("team", team_x, "start")]
    cols += [(s, mods_x + mod_w * (i + 0.5), "middle") for i, s in enumerate(sessions)]
    cols += [("roll", roll_x + box_w / 2, "middle"), ("total", total_x + box_w / 2, "middle")]
    _session_header(page, session.name, session.header(), x, top, w, cols)
    y = top + head_h
    for i, (team, driver) in enumerate(field.drivers):
        cy = y + row_h * (i + 0.5)
        if i % 2 == 0:
            page.add("shade", rect(x, y + row_h * i, w, row_h, Style(stroke=None, fill=ZEBRA)))
        c = team.colours
        page.add(
            "swatch", rect(x + 0.5, cy - row_h * 0.32, 3.5, row_h * 0.64, Style(stroke=INK, width=0.1, fill=c.primary))
        )
        _cell(page, driver.name, x + 6, cy, team_x - x - 8, pt_to_mm(8), "condensed-bold")
        _cell(page, team.name, team_x, cy, mods_x - team_x - 2, pt_to_mm(7.5), "condensed")
        mods = modifiers(team)
        for k, _s in enumerate(sessions):
            bold = k == 0
            _cell(
                page,
                dmod(mods[k]),
                mods_x + mod_w * (k + 0.5),
                cy,
                mod_w,
                pt_to_mm(7.5),
                "condensed-bold" if bold else "condensed",
                INK if bold else GREY,
                anchor="middle",
            )
        for bx in (roll_x, total_x):
            page.add("boxes", rect(bx, cy - row_h * 0.38, box_w, row_h * 0.76, WRITE))
    page.add("rules", Polyline(((x, y), (x + w, y)), RULE))
    page.add("rules", Polyline(((x, y + row_h * len(field.drivers)), (x + w, y + row_h * len(field.drivers))), RULE))


def _blank_session(page, session: Session, x, top, w, row_h, head_h):
    box_w = 8.0
    total_x = x + w - box_w
    roll_x = total_x - box_w - 1.0
    mod_x = roll_x - box_w - 1.0
    cols = [
        ("driver", x, "start"),
        ("mod", mod_x + box_w / 2, "middle"),
        ("roll", roll_x + box_w / 2, "middle"),
        ("total", total_x + box_w / 2, "middle"),
    ]
    _session_header(page, session.name, session.header(), x, top, w, cols)
    y = top + head_h
    cars = session.cars
    for i in range(cars):
        cy = y + row_h * (i + 0.5)
        if i % 2 == 0:
            page.add("shade", rect(x, y + row_h * i, w, row_h, Style(stroke=None, fill=ZEBRA)))
        page.add("rules", Polyline(((x + 1, cy + row_h * 0.3), (mod_x - 2, cy + row_h * 0.3)), THIN))
        for bx in (mod_x, roll_x, total_x):
            page.add("boxes", rect(bx, cy - row_h * 0.38, box_w, row_h * 0.76, WRITE))
    page.add("rules", Polyline(((x, y), (x + w, y)), RULE))
    page.add("rules", Polyline(((x, y + row_h * cars), (x + w, y + row_h * cars)), RULE))


def _modifier_table(page, field: TeamField, x, y, w, bottom):
    rules = facts().qualifying
    words = facts().words.qualifying
    sessions = rules.sessions
    teams = field.teams
    size = pt_to_mm(7.5)
    row = 4.6
    notes = [words.minimum_note.format(minimum_result=rules.minimum_result), words.dead_heat]
    groups = tie_groups(field)
    if groups:
        notes.append(words.tie_group.format(groups="; ".join(" / ".join(g) for g in groups)))
    note_size = pt_to_mm(6.5)
    note_lines = sum(len(wrap(n, w, note_size, "condensed")) for n in notes)
    need = 6 + row * (len(teams) + 1) + 2.5 + note_lines * note_size * 1.3 + 0.5 * len(notes)
    y = min(y, bottom - need)
    page.add("text", Text("Team modifiers", x, y + ascent(pt_to_mm(9), "bold"), pt_to_mm(9), "bold", INK))
    y += 6
    col_w = MOD_COL
    name_w = w - col_w * len(sessions)
    for k, s in enumerate(sessions):
        page.add(
            "text",
            Text(s, x + name_w + col_w * (k + 0.5), y + row / 2, pt_to_mm(6.5), "condensed", GREY, "middle", "middle"),
        )
    y += row
    for i, t in enumerate(teams):
        cy = y + row * (i + 0.5)
        if i % 2 == 0:
            page.add("shade", rect(x, y + row * i, w, row, Style(stroke=None, fill=ZEBRA)))
        _cell(page, t.name, x + 1, cy, name_w - 2, size, "condensed")
        for k in range(len(sessions)):
            page.add(
                "text",
                Text(
                    dmod(modifiers(t)[k]),
                    x + name_w + col_w * (k + 0.5),
                    cy,
                    size,
                    "condensed-bold",
                    INK,
                    anchor="middle",
                    valign="middle",
                ),
            )
    y += row * len(teams) + 2.5
    for note in notes:
        y = paragraph(page.layer("text"), note, x, y, w, note_size, "condensed", leading=1.3) + 0.5


def _grid(page, n, sizes, x, top, w, bottom):
    page.add("text", Text("Starting grid", x, top + ascent(pt_to_mm(11), "bold"), pt_to_mm(11), "bold", INK))
    y0 = top + 9.0
    per_col = (n + 1) // 2
    stagger = 0.5
    box_h = min(13.0, (bottom - y0) / (per_col + stagger))
    box_w = (w - 3) / 2
    decided = {}
    for s, _cars, first, last in sizes:
        for p in range(first, last + 1):
            decided[p] = s
    for p in range(1, n + 1):
        col = (p - 1) % 2
        row = (p - 1) // 2
        bx = x + col * (box_w + 3)
        by = y0 + row * box_h + (stagger * box_h if col else 0)
        h = box_h - 1.6
        page.add("boxes", rect(bx, by, box_w, h, BOX))
        page.add("boxes", Polyline(((bx, by + h), (bx, by + h + 1.2)), BOX))
        small, tiny = pt_to_mm(7), pt_to_mm(6)
        page.add(
            "text", Text(f"P{p}", bx + 1.2, by + 1.0 + ascent(small, "condensed-bold"), small, "condensed-bold", INK)
        )
        page.add(
            "text",
            Text(
                decided.get(p, ""),
                bx + box_w - 1.2,
                by + 1.0 + ascent(tiny, "condensed"),
                tiny,
                "condensed",
                GREY,
                "end",
            ),
        )
