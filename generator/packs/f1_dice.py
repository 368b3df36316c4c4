"""The f1-dice pack: every sheet needed to race the paper-and-dice F1 game (``../shared/rules/f1-dice.txt``).

Board, car slips for the field, the qualifying sheet, the race reference card (turn order, blocking, action
roll, quick-race rules, points systems) and the championship standings sheet. Game facts come from
``templates/f1-dice/*.yaml`` and the field's teams file; nothing here types a rule number in.
"""

from __future__ import annotations

from pathlib import Path

from ..compose.colour import DARK
from ..compose.layout import wrap
from ..data import template
from ..errors import InputError
from ..fonts import ascent, fit_size
from ..paper import Paper
from ..pipeline import OutputOptions, Sheet, warn
from ..scene import Page, Polyline, Style, Text, rect
from ..teams import load_field
from ..teams.models import TeamField
from ..teams.slips import dmod, slip_pages
from ..units import pt_to_mm

INK = DARK
GREY = "#6b6b6b"
RULE = Style(stroke=INK, width=0.2)
THIN = Style(stroke="#9a9a9a", width=0.15)
BOX = Style(stroke=INK, width=0.25)
SHADE = "#eeeeee"
DEFAULT_TEAMS = "f1-2011"
DEFAULT_RACES = 19


# -- game facts ---------------------------------------------------------------------------------------------


def qualifying_rules() -> dict:
    return template("f1-dice/qualifying.yaml")


def action_table() -> dict:
    return template("f1-dice/action-roll.yaml")


def points_systems() -> dict:
    return template("f1-dice/points.yaml")


def race_rules() -> dict:
    return template("f1-dice/rules.yaml")


def points_system(system_id: str | None) -> dict:
    data = points_systems()
    wanted = system_id or data["default"]
    for system in data["systems"]:
        if system["id"] == wanted or "-".join(str(p) for p in system["points"]) == wanted:
            return system
    ids = ", ".join(s["id"] for s in data["systems"])
    raise InputError(f"unknown points system '{wanted}'", field="--points", hint=f"use one of {ids}")


def session_sizes(n: int) -> list[tuple[str, int, int, int]]:
    """``(session, cars taking part, first grid place decided, last)`` for a field of ``n`` cars."""
    rules = qualifying_rules()
    out = []
    running = n
    for name in rules["sessions"]:
        drop = rules["out_after"].get(name)
        if drop is None or running - drop < 1:
            out.append((name, running, 1, running))
            break
        out.append((name, running, running - drop + 1, running))
        running -= drop
    return out


def tie_groups(field: TeamField) -> list[list[str]]:
    """Teams whose three modifiers are all equal: in a dead heat between them the players roll a deciding die."""
    groups: dict[tuple, list[str]] = {}
    for t in field.teams:
        if t.qualifying:
            q = t.qualifying
            groups.setdefault((q.q1, q.q2, q.q3), []).append(t.name)
    return [g for g in groups.values() if len(g) > 1]


# -- small drawing helpers -----------------------------------------------------------------------------------


LAYERS = ("shade", "grid", "swatch", "boxes", "rules", "text")


def new_page(paper: Paper, title: str) -> Page:
    """A page with the layers every f1-dice sheet uses, bottom to top (shading never hides text)."""
    page = Page(paper, title)
    for name in LAYERS:
        page.layer(name)
    return page


def inner(page: Page) -> tuple[float, float, float, float]:
    """The content box less a hair, so strokes on its edge stay inside it."""
    x, y, w, h = page.content_box
    return (x + 0.3, y + 0.3, w - 0.6, h - 0.6)


def _title(page: Page, title: str, subtitle: str | None = None) -> float:
    """Title and one line under it at the top of the content box; returns the y below them."""
    x0, y0, cw, _ = inner(page)
    size = pt_to_mm(16)
    page.add("text", Text(title, x0, y0 + ascent(size, "bold"), size, "bold", INK))
    y = y0 + ascent(size, "bold") + 2
    if subtitle:
        s, ok = fit_size(subtitle, "regular", pt_to_mm(8.5), cw)
        if not ok:
            warn(f"'{title}': the line under the title is too long")
        page.add("text", Text(subtitle, x0, y + ascent(s), s, "regular", INK))
        y += ascent(s) + 2.5
    return y + 2


def _text(page, text, x, y, width, size, font="regular", color=INK, anchor="start", valign="middle", layer="text"):
    s, ok = fit_size(text, font, size, width)
    if not ok:
        warn(f'"{text}" does not fit its {width:.1f} mm box at a legible size')
    page.add(layer, Text(text, x, y, s, font, color, anchor=anchor, valign=valign))


def _paragraph(page: Page, text: str, x: float, y: float, width: float, size: float, font="regular") -> float:
    """Wrapped text from top ``y``; returns the y below it."""
    lead = size * 1.3
    for line in wrap(text, width, size, font):
        page.add("text", Text(line, x, y + ascent(size, font), size, font, INK))
        y += lead
    return y


# -- qualifying ----------------------------------------------------------------------------------------------


def qualifying_sheet(field: TeamField, paper: Paper | None = None) -> Page:
    paper = paper or Paper("a4", "landscape")
    page = new_page(paper, f"Qualifying — {field.name}")
    x0, y0, cw, ch = inner(page)
    rules = qualifying_rules()
    sizes = session_sizes(len(field.drivers))
    sub = (
        "Roll one die per driver and add the team's modifier for the session (a result is never below "
        f"{rules['minimum_result']}). The slowest drop out and take the back of the grid; the rest go again."
    )
    top = _title(page, f"Qualifying — {field.name}", sub)
    bottom = y0 + ch
    gap = 6.0
    # Column widths: Q1 (pre-printed field), one column per later session, the grid.
    grid_w = 52.0
    later_w = 50.0
    n_later = len(sizes) - 1
    q1_w = cw - grid_w - n_later * later_w - (n_later + 1) * gap
    n = len(field.drivers)
    head_h = 11.0
    row_h = min(7.0, (bottom - top - head_h) / max(n, 1))
    x = x0
    _q1_table(page, field, x, top, q1_w, row_h, head_h, sizes[0])
    x += q1_w + gap
    for session, cars, first, last in sizes[1:]:
        _blank_session(page, session, cars, first, last, x, top, later_w, row_h, head_h, sizes)
        x += later_w + gap
    # Team modifiers under the last session, where there is room.
    last_rows = sizes[-1][1]
    mod_top = top + head_h + last_rows * row_h + 8
    mx = x - later_w - gap
    _modifier_table(page, field, mx, mod_top, later_w, bottom)
    _grid(page, n, sizes, x, top, grid_w, bottom)
    return page


def _session_header(page, title, note, x, y, w, columns):
    page.add("text", Text(title, x, y + ascent(pt_to_mm(11), "bold"), pt_to_mm(11), "bold", INK))
    if note:
        _text(page, note, x + w, y + 1.6, w - 14, pt_to_mm(7), "condensed", GREY, anchor="end")
    hy = y + 9.6
    for label, cx, anchor in columns:
        page.add("text", Text(label, cx, hy, pt_to_mm(6.5), "condensed", GREY, anchor=anchor, valign="bottom"))


def _q1_table(page, field: TeamField, x, top, w, row_h, head_h, size_info):
    session, cars, first, last = size_info
    sessions = qualifying_rules()["sessions"]
    box_w = 9.0
    mod_w = 8.0
    total_x = x + w - box_w
    roll_x = total_x - box_w - 1.5
    mods_x = roll_x - 2.5 - mod_w * len(sessions)
    team_x = x + 6 + 38
    cols = [("driver", x + 6, "start"), ("team", team_x, "start")]
    cols += [(s, mods_x + mod_w * (i + 0.5), "middle") for i, s in enumerate(sessions)]
    cols += [("roll", roll_x + box_w / 2, "middle"), ("total", total_x + box_w / 2, "middle")]
    note = f"{cars} cars · slowest {last - first + 1} take P{first}–P{last}" if first > 1 else f"{cars} cars"
    _session_header(page, session, note, x, top, w, cols)
    y = top + head_h
    for i, (team, driver) in enumerate(field.drivers):
        cy = y + row_h * (i + 0.5)
        if i % 2 == 0:
            page.add("shade", rect(x, y + row_h * i, w, row_h, Style(stroke=None, fill="#f4f4f4")))
        c = team.colours
        page.add(
            "swatch", rect(x + 0.5, cy - row_h * 0.32, 3.5, row_h * 0.64, Style(stroke=INK, width=0.1, fill=c.primary))
        )
        _text(page, driver.name, x + 6, cy, team_x - x - 8, pt_to_mm(8), "condensed-bold")
        _text(page, team.name, team_x, cy, mods_x - team_x - 2, pt_to_mm(7.5), "condensed")
        q = team.qualifying
        for k, s in enumerate(sessions):
            text = dmod(q.session(s)) if q else "d"
            bold = k == 0
            _text(
                page,
                text,
                mods_x + mod_w * (k + 0.5),
                cy,
                mod_w,
                pt_to_mm(7.5),
                "condensed-bold" if bold else "condensed",
                INK if bold else GREY,
                anchor="middle",
            )
        for bx in (roll_x, total_x):
            page.add(
                "boxes", rect(bx, cy - row_h * 0.38, box_w, row_h * 0.76, Style(stroke=INK, width=0.2, fill="#ffffff"))
            )
    page.add("rules", Polyline(((x, y), (x + w, y)), RULE))
    page.add("rules", Polyline(((x, y + row_h * len(field.drivers)), (x + w, y + row_h * len(field.drivers))), RULE))


def _blank_session(page, session, cars, first, last, x, top, w, row_h, head_h, sizes):
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
    note = f"{cars} cars · slowest {last - first + 1}: P{first}–P{last}" if first > 1 else f"{cars} cars: P1–P{last}"
    _session_header(page, session, note, x, top, w, cols)
    y = top + head_h
    for i in range(cars):
        cy = y + row_h * (i + 0.5)
        if i % 2 == 0:
            page.add("shade", rect(x, y + row_h * i, w, row_h, Style(stroke=None, fill="#f4f4f4")))
        page.add("rules", Polyline(((x + 1, cy + row_h * 0.3), (mod_x - 2, cy + row_h * 0.3)), THIN))
        for bx in (mod_x, roll_x, total_x):
            page.add(
                "boxes", rect(bx, cy - row_h * 0.38, box_w, row_h * 0.76, Style(stroke=INK, width=0.2, fill="#ffffff"))
            )
    page.add("rules", Polyline(((x, y), (x + w, y)), RULE))
    page.add("rules", Polyline(((x, y + row_h * cars), (x + w, y + row_h * cars)), RULE))


def _modifier_table(page, field: TeamField, x, y, w, bottom):
    sessions = qualifying_rules()["sessions"]
    teams = [t for t in field.teams if t.qualifying]
    size = pt_to_mm(7.5)
    row = 4.6
    rules = qualifying_rules()
    notes = [f"d = one die; d−x is never below {rules['minimum_result']}."]
    notes.append(
        "Dead heat: the driver of the team higher in this table takes the better place; "
        "between team-mates, the one listed first on this sheet."
    )
    groups = tie_groups(field)
    if groups:
        notes.append("Same three modifiers (" + "; ".join(" / ".join(g) for g in groups) + "): roll a deciding die.")
    note_size = pt_to_mm(6.5)
    note_lines = sum(len(wrap(n, w, note_size, "condensed")) for n in notes)
    need = 6 + row * (len(teams) + 1) + 2.5 + note_lines * note_size * 1.3 + 0.5 * len(notes)
    y = min(y, bottom - need)
    page.add("text", Text("Team modifiers", x, y + ascent(pt_to_mm(9), "bold"), pt_to_mm(9), "bold", INK))
    y += 6
    col_w = 8.0
    name_w = w - col_w * len(sessions)
    for k, s in enumerate(sessions):
        page.add(
            "text",
            Text(
                s,
                x + name_w + col_w * (k + 0.5),
                y + row / 2,
                pt_to_mm(6.5),
                "condensed",
                GREY,
                anchor="middle",
                valign="middle",
            ),
        )
    y += row
    for i, t in enumerate(teams):
        cy = y + row * (i + 0.5)
        if i % 2 == 0:
            page.add("shade", rect(x, y + row * i, w, row, Style(stroke=None, fill="#f4f4f4")))
        _text(page, t.name, x + 1, cy, name_w - 2, size, "condensed")
        for k, s in enumerate(sessions):
            page.add(
                "text",
                Text(
                    dmod(t.qualifying.session(s)),
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
        y = _paragraph(page, note, x, y, w, note_size, "condensed") + 0.5


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
        page.add(
            "text",
            Text(
                f"P{p}", bx + 1.2, by + 1.0 + ascent(pt_to_mm(7), "condensed-bold"), pt_to_mm(7), "condensed-bold", INK
            ),
        )
        page.add(
            "text",
            Text(
                decided.get(p, ""),
                bx + box_w - 1.2,
                by + 1.0 + ascent(pt_to_mm(6), "condensed"),
                pt_to_mm(6),
                "condensed",
                GREY,
                anchor="end",
            ),
        )


# -- reference card ------------------------------------------------------------------------------------------


def reference_sheet(field: TeamField, points_id: str | None = None, paper: Paper | None = None) -> Page:
    paper = paper or Paper("a4", "portrait")
    rules = race_rules()
    page = new_page(paper, "Race reference")
    x0, y0, cw, ch = inner(page)
    y = _title(page, rules["title"], "One die for the race. Keep this card beside the board.")
    col_gap = 8.0
    col_w = (cw - col_gap) / 2
    # Left: the action roll and the rules. Right: quick race and points.
    ly = _action_box(page, x0, y, col_w)
    for section in rules["sections"]:
        ly = _section(page, section["heading"], section["items"], x0, ly + 3, col_w)
    ry = y
    qr = rules["quick_race"]
    ry = _section(page, qr["heading"], qr["items"], x0 + col_w + col_gap, ry, col_w)
    tiers = {"front": [], "midfield": [], "back": []}
    for t in field.teams:
        if t.tier:
            tiers[t.tier].append(t.name)
    rx = x0 + col_w + col_gap
    if any(tiers.values()):
        ry += 1
        labels = {
            "front": "Front runners — sum",
            "midfield": "Midfield — higher die",
            "back": "Backmarkers — lower die",
        }
        for key, names in tiers.items():
            if not names:
                continue
            page.add(
                "text",
                Text(labels[key], rx, ry + ascent(pt_to_mm(8), "condensed-bold"), pt_to_mm(8), "condensed-bold", INK),
            )
            ry = _paragraph(page, ", ".join(names), rx, ry + 4.0, col_w, pt_to_mm(8), "condensed") + 1.0
        ry = (
            _paragraph(
                page, f"(the split for {field.name} — change it to taste)", rx, ry, col_w, pt_to_mm(7), "condensed"
            )
            + 2
        )
    ry = _points_box(page, rx, ry + 3, col_w, points_id)
    return page


def _heading(page, text, x, y, w) -> float:
    size = pt_to_mm(10.5)
    page.add("text", Text(text, x, y + ascent(size, "bold"), size, "bold", INK))
    y += ascent(size, "bold") + 1.6
    page.add("rules", Polyline(((x, y), (x + w, y)), RULE))
    return y + 2.2


def _section(page, heading, items, x, y, w) -> float:
    y = _heading(page, heading, x, y, w)
    size = pt_to_mm(8.5)
    for item in items:
        page.add("text", Text("•", x + 0.5, y + ascent(size), size, "regular", INK))
        y = _paragraph(page, item, x + 4, y, w - 4, size) + 1.2
    return y


def _action_box(page, x, y, w) -> float:
    table = action_table()
    y = _heading(page, f"Action roll — on every {table['every_nth_unit']}th unit", x, y, w)
    row = 8.5
    for i, r in enumerate(table["rolls"]):
        ry = y + i * row
        if i % 2 == 0:
            page.add("shade", rect(x, ry, w, row, Style(stroke=None, fill="#f2f2f2")))
        cy = ry + row / 2
        page.add("boxes", rect(x + 1.5, cy - 3, 6, 6, Style(stroke=INK, width=0.3, fill="#ffffff")))
        page.add("text", Text(str(r["roll"]), x + 4.5, cy, pt_to_mm(10), "bold", INK, anchor="middle", valign="middle"))
        page.add("text", Text(r["title"], x + 10, cy, pt_to_mm(9), "bold", INK, valign="middle"))
        if r["effect"] == "retire":
            effect = "out of the race"
        elif r["effect"] == "none":
            effect = "no change"
        else:
            u = r["units"]
            effect = f"{'+' if u > 0 else '−'}{abs(u)} units ({'forward' if u > 0 else 'back'})"
        page.add("text", Text(effect, x + w - 1.5, cy, pt_to_mm(9), "regular", INK, anchor="end", valign="middle"))
    return y + row * len(table["rolls"]) + 1


def _points_box(page, x, y, w, points_id) -> float:
    data = points_systems()
    chosen = points_system(points_id)["id"]
    y = _heading(page, "Points systems", x, y, w)
    n = max(len(s["points"]) for s in data["systems"])
    label_w = 0.0
    cell = (w - label_w) / n
    for system in data["systems"]:
        on = system["id"] == chosen
        title = system["label"] + ("  — this championship" if on else "")
        page.add("text", Text(title, x, y + ascent(pt_to_mm(8.5), "bold"), pt_to_mm(8.5), "bold", INK))
        y += 5.0
        for k in range(n):
            cx = x + label_w + k * cell
            page.add(
                "text",
                Text(
                    f"{k + 1}.",
                    cx + cell / 2,
                    y + 1.8,
                    pt_to_mm(6),
                    "condensed",
                    GREY,
                    anchor="middle",
                    valign="middle",
                ),
            )
            fill = "#ffffff"
            if k < len(system["points"]):
                fill = "#fff3c4" if on else "#ffffff"
            page.add(
                "boxes",
                rect(
                    cx + 0.4,
                    y + 3.4,
                    cell - 0.8,
                    6,
                    Style(stroke=INK if k < len(system["points"]) else "#cccccc", width=0.2, fill=fill),
                ),
            )
            if k < len(system["points"]):
                page.add(
                    "text",
                    Text(
                        str(system["points"][k]),
                        cx + cell / 2,
                        y + 6.4,
                        pt_to_mm(9),
                        "bold",
                        INK,
                        anchor="middle",
                        valign="middle",
                    ),
                )
        y += 11.0
        y = _paragraph(page, system["note"], x, y, w, pt_to_mm(7.5), "condensed") + 2.5
    return y


# -- standings -----------------------------------------------------------------------------------------------


def standings_sheet(
    field: TeamField, points_id: str | None = None, races: int = DEFAULT_RACES, paper: Paper | None = None
) -> Page:
    paper = paper or Paper("a4", "landscape")
    system = points_system(points_id)
    pts = "-".join(str(p) for p in system["points"])
    extra = f" Count the best {system['best_results']} results." if system.get("best_results") else ""
    page = new_page(paper, f"Championship — {field.name}")
    x0, y0, cw, ch = inner(page)
    top = _title(
        page,
        f"Championship standings — {field.name}",
        f"Points {pts} — {system['label']}.{extra} Write each race's venue at the head of its column.",
    )
    n = len(field.drivers)
    head_h = 14.0
    row_h = min(7.0, (y0 + ch - top - head_h) / max(n, 1))
    name_w, team_w, total_w, pos_w = 40.0, 22.0, 13.0, 9.0
    race_w = (cw - name_w - team_w - total_w - pos_w - 4.5) / races
    if race_w < 6.0:
        raise InputError(
            f"{races} races do not fit on {paper.label}", field="--races", hint="use fewer races or larger paper"
        )
    rx = x0 + name_w + team_w + 1.5
    for r in range(races):
        cx = rx + r * race_w
        page.add("boxes", rect(cx, top, race_w, head_h - 1, Style(stroke=INK, width=0.2)))
        page.add(
            "text",
            Text(
                str(r + 1),
                cx + race_w / 2,
                top + 2.6,
                pt_to_mm(7),
                "condensed-bold",
                INK,
                anchor="middle",
                valign="middle",
            ),
        )
    tx = rx + races * race_w + 1.5
    page.add(
        "text",
        Text(
            "Total",
            tx + total_w / 2,
            top + head_h - 3,
            pt_to_mm(8),
            "condensed-bold",
            INK,
            anchor="middle",
            valign="middle",
        ),
    )
    page.add(
        "text",
        Text(
            "Pos",
            tx + total_w + 1.5 + pos_w / 2,
            top + head_h - 3,
            pt_to_mm(8),
            "condensed-bold",
            INK,
            anchor="middle",
            valign="middle",
        ),
    )
    page.add("text", Text("Driver", x0 + 5, top + head_h - 3, pt_to_mm(8), "condensed-bold", INK, valign="middle"))
    page.add("text", Text("Team", x0 + name_w, top + head_h - 3, pt_to_mm(8), "condensed-bold", INK, valign="middle"))
    y = top + head_h
    for i, (team, driver) in enumerate(field.drivers):
        ry = y + i * row_h
        cy = ry + row_h / 2
        if i % 2 == 0:
            page.add("shade", rect(x0, ry, cw, row_h, Style(stroke=None, fill="#f4f4f4")))
        page.add(
            "swatch",
            rect(
                x0 + 0.5, cy - row_h * 0.32, 3.0, row_h * 0.64, Style(stroke=INK, width=0.1, fill=team.colours.primary)
            ),
        )
        _text(page, driver.name, x0 + 5, cy, name_w - 6, pt_to_mm(8), "condensed-bold")
        _text(page, team.name, x0 + name_w, cy, team_w - 1, pt_to_mm(7.5), "condensed")
        for r in range(races):
            page.add("grid", rect(rx + r * race_w, ry, race_w, row_h, THIN))
        page.add("boxes", rect(tx, ry + 0.5, total_w, row_h - 1, Style(stroke=INK, width=0.25, fill="#ffffff")))
        page.add(
            "boxes", rect(tx + total_w + 1.5, ry + 0.5, pos_w, row_h - 1, Style(stroke=INK, width=0.25, fill="#ffffff"))
        )
    page.add("rules", Polyline(((x0, y), (x0 + cw, y)), RULE))
    return page


# -- the pack ------------------------------------------------------------------------------------------------


def board_sheet_for(track: Path | None, paper: Paper | None) -> tuple[Sheet | None, float | None]:
    """The board from the circuit engineer's API and its lane unit (mm), or (None, None) while it is missing."""
    try:
        from ..track import board_sheet, default_spec, load
    except (ImportError, AttributeError):
        warn("the board is not in this pack yet: generator.track does not provide board_sheet")
        return None, None
    circuit = load(track or default_spec())
    board = board_sheet(circuit, paper)
    if isinstance(board, Page):
        board = Sheet("board", board)
    unit = getattr(getattr(circuit, "spec", None), "unit", None)
    return board, unit


def build(
    opts: OutputOptions,
    track: Path | None = None,
    teams: str | Path | None = None,
    points: str | None = None,
    races: int = DEFAULT_RACES,
    unit: float | None = None,
) -> list[Sheet]:
    field = load_field(teams or DEFAULT_TEAMS)
    if not any(t.qualifying for t in field.teams):
        raise InputError(
            f"the field '{field.name}' has no f1-dice qualifying modifiers",
            field="--teams",
            hint="give each team 'qualifying: {q1: …, q2: …, q3: …}'",
        )
    points_system(points)  # refuse a bad --points before drawing anything
    sheets: list[Sheet] = []
    board, board_unit = board_sheet_for(track, opts.paper)
    if board is not None:
        sheets.append(board)
    unit = unit or board_unit
    slips = slip_pages(field, unit or 20.0)
    for i, page in enumerate(slips):
        sheets.append(Sheet("car-slips" + (f"-{i + 1}" if len(slips) > 1 else ""), page))
    sheets.append(Sheet("qualifying", qualifying_sheet(field)))
    sheets.append(Sheet("race-reference", reference_sheet(field, points)))
    sheets.append(Sheet("standings", standings_sheet(field, points, races)))
    return sheets
