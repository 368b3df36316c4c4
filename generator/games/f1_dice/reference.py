"""The race reference card (f1-dice §2.2–2.3): turn order, blocking, the action roll on every marked unit,
finishing, the quick-race rules with the field's tiers, and the three points systems."""

from __future__ import annotations

from ...compose.blocks import bullets, heading, paragraph, title
from ...compose.colour import GREY, INK, WHITE
from ...fonts import ascent
from ...paper import PageSpec, Paper
from ...scene import Page, Style, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import action_table, points_system, points_systems, race_rules, sheet_texts
from .sheet import inner, new_page

PAPER = Paper("a4", "portrait")


def fill(text: str, action_every: int) -> str:
    examples = ", ".join(str(action_every * k) for k in (1, 2, 3))
    return text.format(action_every=action_every, action_examples=examples)


def reference_sheet(field: TeamField, spec: PageSpec, action_every: int, points_id: str | None = None) -> Page:
    """``action_every``: the board's marked-unit interval (the circuit's, so card and board always agree)."""
    rules = race_rules()
    words = sheet_texts()["reference"]
    page = new_page(spec, "Race reference")
    x0, y0, cw, ch = inner(page)
    text, rule = page.layer("text"), page.layer("rules")
    y = title(text, rules["title"], x0, y0, cw, words["subtitle"])
    col_gap = 8.0
    col_w = (cw - col_gap) / 2
    # Left: the action roll and the rules. Right: quick race and points.
    ly = _action_box(page, x0, y, col_w, action_every)
    for section in rules["sections"]:
        ly = heading(text, rule, section["heading"], x0, ly + 3, col_w)
        ly = bullets(text, [fill(i, action_every) for i in section["items"]], x0, ly, col_w, pt_to_mm(8.5))
    rx = x0 + col_w + col_gap
    qr = rules["quick_race"]
    ry = heading(text, rule, qr["heading"], rx, y, col_w)
    ry = bullets(text, qr["items"], rx, ry, col_w, pt_to_mm(8.5))
    tiers = {"front": [], "midfield": [], "back": []}
    for t in field.teams:
        if t.tier:
            tiers[t.tier].append(t.name)
    if any(tiers.values()):
        ry += 1
        for key, names in tiers.items():
            if not names:
                continue
            s = pt_to_mm(8)
            text.add(Text(words["tiers"][key], rx, ry + ascent(s, "condensed-bold"), s, "condensed-bold", INK))
            ry = paragraph(text, ", ".join(names), rx, ry + 4.0, col_w, s, "condensed", leading=1.3) + 1.0
        note = words["tier_note"].format(field=field.name)
        ry = paragraph(text, note, rx, ry, col_w, pt_to_mm(7), "condensed", leading=1.3) + 2
    _points_box(page, rx, ry + 3, col_w, points_id)
    return page


def _action_box(page, x, y, w, action_every: int) -> float:
    table = action_table()
    words = sheet_texts()["reference"]
    y = heading(page.layer("text"), page.layer("rules"), fill(words["action_heading"], action_every), x, y, w)
    row = 8.5
    for i, r in enumerate(table["rolls"]):
        ry = y + i * row
        if i % 2 == 0:
            page.add("shade", rect(x, ry, w, row, Style(stroke=None, fill="#f2f2f2")))
        cy = ry + row / 2
        page.add("boxes", rect(x + 1.5, cy - 3, 6, 6, Style(stroke=INK, width=0.3, fill=WHITE)))
        page.add("text", Text(str(r["roll"]), x + 4.5, cy, pt_to_mm(10), "bold", INK, anchor="middle", valign="middle"))
        page.add("text", Text(r["title"], x + 10, cy, pt_to_mm(9), "bold", INK, valign="middle"))
        effects = words["effects"]
        if r["effect"] in ("retire", "none"):
            effect = effects[r["effect"]]
        else:
            u = r["units"]
            effect = effects["forward" if u > 0 else "back"].format(units=abs(u))
        page.add("text", Text(effect, x + w - 1.5, cy, pt_to_mm(9), "regular", INK, anchor="end", valign="middle"))
    return y + row * len(table["rolls"]) + 1


def _points_box(page, x, y, w, points_id) -> float:
    data = points_systems()
    words = sheet_texts()["reference"]
    chosen = points_system(points_id)["id"]
    text = page.layer("text")
    y = heading(text, page.layer("rules"), words["points_heading"], x, y, w)
    n = max(len(s["points"]) for s in data["systems"])
    cell = w / n
    for system in data["systems"]:
        on = system["id"] == chosen
        label = system["label"] + (words["this_championship"] if on else "")
        text.add(Text(label, x, y + ascent(pt_to_mm(8.5), "bold"), pt_to_mm(8.5), "bold", INK))
        y += 5.0
        for k in range(n):
            cx = x + k * cell
            text.add(Text(f"{k + 1}.", cx + cell / 2, y + 1.8, pt_to_mm(6), "condensed", GREY, "middle", "middle"))
            scoring = k < len(system["points"])
            fill_ = ("#fff3c4" if on else WHITE) if scoring else WHITE
            stroke = INK if scoring else "#cccccc"
            page.add("boxes", rect(cx + 0.4, y + 3.4, cell - 0.8, 6, Style(stroke=stroke, width=0.2, fill=fill_)))
            if scoring:
                text.add(
                    Text(str(system["points"][k]), cx + cell / 2, y + 6.4, pt_to_mm(9), "bold", INK, "middle", "middle")
                )
        y += 11.0
        y = paragraph(text, system["note"], x, y, w, pt_to_mm(7.5), "condensed", leading=1.3) + 2.5
    return y
