"""The race reference card (f1-dice §2.2–2.3): turn order, blocking, the action roll on every marked unit,
finishing, the quick-race rules with the field's tiers, and the three points systems."""

from __future__ import annotations

from ...compose.blocks import bullets, heading, paragraph, title
from ...compose.colour import GREY, INK, WHITE
from ...fonts import ascent, text_width
from ...paper import PageSpec, Paper
from ...scene import Page, Polyline, Style, Text, rect
from ...teams.models import TeamField
from ...units import pt_to_mm
from .facts import RaceFacts, knockout, points_system, tie_groups
from .facts import facts as game_facts
from .sheet import inner, new_page

PAPER = Paper("a4", "portrait")
BODY = pt_to_mm(8.5)


def fill(text: str, facts: RaceFacts) -> str:
    """Paddock's wording with the board's and the race's numbers filled in."""
    r = game_facts().race
    return text.format(
        action_every=facts.action_every,
        action_nth=facts.action_nth,
        action_list=facts.action_list,
        laps=facts.laps,
        laps_said=facts.laps_said,
        lap_units=facts.lap_units,
        race_units=facts.race_units,
        rounds=facts.rounds,
        target_units=r.target_units,
        die_average=r.die_average,
    )


BODY_SIZES = (8.5, 8.0, 7.5, 7.0)  # pt: the rules' size, the largest that fits the card


def reference_sheet(
    field: TeamField, spec: PageSpec, facts: RaceFacts, points_id: str | None = None, pit_lane: bool = True
) -> Page:
    """The card for a race on a board described by ``facts`` (its action squares, lap, the race length): the rules
    at the largest of :data:`BODY_SIZES` at which both columns fit the page."""
    for pt in BODY_SIZES:
        page, bottom = _card(field, spec, facts, points_id, pit_lane, pt_to_mm(pt))
        if bottom <= page.content_box[1] + page.content_box[3]:
            break
    return page


def _card(field, spec, facts, points_id, pit_lane, body) -> tuple[Page, float]:
    """The card with its rules at ``body`` mm, and the lowest point it reaches."""
    rules = game_facts().rules
    words = game_facts().words.reference
    page = new_page(spec, "Race reference")
    x0, y0, cw, ch = inner(page)
    text, rule = page.layer("text"), page.layer("rules")
    y = title(text, rules.title, x0, y0, cw, words.subtitle)
    col_gap = 8.0
    col_w = (cw - col_gap) / 2
    # Left: the action roll, the rules of the race (and qualifying, where it fits). Right: race length, quick race,
    # points, house rules.
    ly = _action_box(page, x0, y, col_w, facts)
    for section in rules.sections:
        ly = heading(text, rule, section.heading, x0, ly + 3, col_w)
        ly = bullets(text, [fill(i, facts) for i in section.items], x0, ly, col_w, body)
    rx = x0 + col_w + col_gap
    ry = heading(text, rule, words.race_heading, rx, y, col_w)
    s = pt_to_mm(10)
    text.add(Text(fill(words.race_line, facts), rx, ry + ascent(s, "bold"), s, "bold", INK))
    ry += ascent(s, "bold") + 2.5
    if facts.laps_default:
        ry = paragraph(text, fill(words.race_reason, facts), rx, ry, col_w, pt_to_mm(7.5), "condensed") + 1.5
    qr = rules.quick_race
    ry = heading(text, rule, qr.heading, rx, ry + 3, col_w)
    ry = bullets(text, qr.items, rx, ry, col_w, body)
    tiers = {"front": [], "midfield": [], "back": []}
    for t in field.teams:
        if t.tier:
            tiers[t.tier].append(t.name)
    if any(tiers.values()):
        ry += 1
        untiered = [t.name for t in field.teams if not t.tier]  # the players place them: never left off the card
        groups = [(words.tiers[key], names) for key, names in tiers.items() if names]
        for label, names in groups + ([(words.tier_none, untiered)] if untiered else []):
            s = pt_to_mm(8)
            text.add(Text(label, rx, ry + ascent(s, "condensed-bold"), s, "condensed-bold", INK))
            ry = paragraph(text, ", ".join(names), rx, ry + 4.0, col_w, s, "condensed", leading=1.3) + 1.0
        note = words.tier_note.format(field=field.name)
        ry = paragraph(text, note, rx, ry, col_w, pt_to_mm(7), "condensed", leading=1.3) + 2
    else:  # the players split the field (Rule #3): a line to write each group's teams on
        ry += 1
        s = pt_to_mm(8)
        for label in words.tiers.values():
            text.add(Text(label, rx, ry + ascent(s, "condensed-bold"), s, "condensed-bold", INK))
            lx = rx + text_width(label, s, "condensed-bold") + 2
            page.add("rules", Polyline(((lx, ry + 3.4), (rx + col_w, ry + 3.4)), Style(stroke=GREY, width=0.15)))
            ry += 6.0
        note = words.tier_blank.format(field=field.name)
        ry = paragraph(text, note, rx, ry, col_w, pt_to_mm(7), "condensed", leading=1.3) + 2
    ry = _points_box(page, rx, ry + 3, col_w, points_id)
    # the qualifying rules under the race's where they fit, else under the points
    scratch = new_page(spec, "")
    if ly + 3 + _qualifying(scratch, field, x0, 0.0, col_w, body) <= y0 + ch:
        ly = _qualifying(page, field, x0, ly + 3, col_w, body)
    else:
        ry = _qualifying(page, field, rx, ry + 1, col_w, body)
    if pit_lane:
        ry = _pit_box(page, rx, ry + 3, col_w, y0 + ch)
    return page, max(ly, ry)


def _qualifying(page, field: TeamField, x, y, w, body: float = BODY) -> float:
    """The field's knock-out (and Paddock's reading of it, for a field the rulebook does not write for) and the
    dead-heat rules."""
    words = game_facts().words.reference
    text = page.layer("text")
    ko = knockout(len(field.drivers))
    named = [t.name for t in field.teams if t.tie_break == "rulebook"]
    lines = [ko.heading(), *([ko.reading()] if ko.reading() else []), words.tie_break_team]
    lines.append(words.tie_break_rulebook.format(teams=", ".join(named)) if named else words.tie_break_yours)
    groups = tie_groups(field)
    if groups:
        lines.append(words.tie_break_group.format(groups="; ".join(" / ".join(g) for g in groups)))
    y = heading(text, page.layer("rules"), words.qualifying_heading, x, y, w)
    return bullets(text, lines, x, y, w, body)


def _pit_box(page, x, y, w, bottom) -> float:
    """The players' own pit-stop rule: the rulebook has a pit lane but no rule for it."""
    words = game_facts().words.reference
    text = page.layer("text")
    y = heading(text, page.layer("rules"), words.pit_heading, x, y, w)
    y = paragraph(text, words.pit_text, x, y, w, pt_to_mm(8), leading=1.3) + 2
    h = max(18.0, min(34.0, bottom - y - 2))
    page.add("boxes", rect(x, y, w, h, Style(stroke=INK, width=0.3, fill=WHITE)))
    for k in range(1, int(h // 7)):
        yy = y + k * 7
        page.add("rules", Polyline(((x + 2, yy), (x + w - 2, yy)), Style(stroke="#b0b0b0", width=0.15)))
    return y + h


def _action_box(page, x, y, w, facts: RaceFacts) -> float:
    table = game_facts().actions
    words = game_facts().words.reference
    y = heading(page.layer("text"), page.layer("rules"), fill(words.action_heading, facts), x, y, w)
    row = 8.5
    for i, r in enumerate(table.rolls):
        ry = y + i * row
        if i % 2 == 0:
            page.add("shade", rect(x, ry, w, row, Style(stroke=None, fill="#f2f2f2")))
        cy = ry + row / 2
        page.add("boxes", rect(x + 1.5, cy - 3, 6, 6, Style(stroke=INK, width=0.3, fill=WHITE)))
        page.add("text", Text(str(r.roll), x + 4.5, cy, pt_to_mm(10), "bold", INK, anchor="middle", valign="middle"))
        page.add("text", Text(r.title, x + 10, cy, pt_to_mm(9), "bold", INK, valign="middle"))
        effect = words.effects.of(r)
        page.add("text", Text(effect, x + w - 1.5, cy, pt_to_mm(9), "regular", INK, anchor="end", valign="middle"))
    return y + row * len(table.rolls) + 1


def _points_box(page, x, y, w, points_id) -> float:
    data = game_facts().points
    words = game_facts().words.reference
    chosen = points_system(points_id).id
    text = page.layer("text")
    y = heading(text, page.layer("rules"), words.points_heading, x, y, w)
    n = max(len(s.points) for s in data.systems)
    cell = w / n
    for system in data.systems:
        on = system.id == chosen
        label = system.label + (words.this_championship if on else "")
        text.add(Text(label, x, y + ascent(pt_to_mm(8.5), "bold"), pt_to_mm(8.5), "bold", INK))
        y += 5.0
        for k in range(n):
            cx = x + k * cell
            text.add(Text(f"{k + 1}.", cx + cell / 2, y + 1.8, pt_to_mm(6), "condensed", GREY, "middle", "middle"))
            scoring = k < len(system.points)
            fill_ = ("#fff3c4" if on else WHITE) if scoring else WHITE
            stroke = INK if scoring else "#cccccc"
            page.add("boxes", rect(cx + 0.4, y + 3.4, cell - 0.8, 6, Style(stroke=stroke, width=0.2, fill=fill_)))
            if scoring:
                text.add(
                    Text(str(system.points[k]), cx + cell / 2, y + 6.4, pt_to_mm(9), "bold", INK, "middle", "middle")
                )
        y += 11.0
        y = paragraph(text, system.note, x, y, w, pt_to_mm(7.5), "condensed", leading=1.3) + 2.5
    return y
