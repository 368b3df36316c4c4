"""The RWB TROUBLE pack: the chip card, its chips (faces and backs) and the quick card, the TROUBLE tables, the
procedures (CRASH flow chart, WRECKS), the race tracker, for one race length and track type (each left out: the
add-on's example length, a road course), and the rule summary (``../shared/rules/rwb-trouble.txt``). Its merged
print PDF prints right double-sided, flipping on the long edge: the chips' backs fall behind their faces, a page of
pieces with nothing behind it has a blank back."""

from __future__ import annotations

from ...notices import warn
from ...paper import PageSettings
from ...scene import Sheet, numbered
from . import facts


def chip_sheets(
    settings: PageSettings,
    turns: int | str | None = None,
    track: str | None = None,
    extras: str | None = None,
    card: str | None = None,
    stem: str = "chip-card",
) -> list[Sheet]:
    """The chip card and the quick card at their own size, with the chips, on the printer's page, and the chips'
    backs on the page after it: one sheet of card printed double-sided; the quick card, where it gets a page of
    its own, with a blank back. ``stem`` names the files (``paddock rwb chips`` names them by the race)."""
    from .chipcard import PAPER, chip_card_pages

    plan = facts.chip_plan(turns, track, extras)
    size = facts.card_size(card)
    spec = settings.document_page(PAPER)
    if settings.paper is not None:  # --paper names a sheet size; the card cannot take it, so say where it went
        words = facts.sheets().chip_card
        warn(words.paper_note.format(card_label=size.label, paper=spec.paper.label))
    front, backs, *quick = chip_card_pages(plan, size, spec)
    sheets = [Sheet(stem, front, "front"), Sheet(f"{stem}-backs", backs)]
    return sheets + [Sheet(f"{stem}-quick-card", q, "alone") for q in quick]


def race_stem(turns: int | str | None, track: str | None) -> str:
    """``chips-80-turns-road``: the files of ``paddock rwb chips`` for one race, named apart from the pack's own
    ``chip-card`` (a pack and a chips run for another race write into one folder side by side: issue 45)."""
    plan = facts.chip_plan(turns, track)
    return f"chips-{plan.turns}-turns-{plan.track}"


def build(
    settings: PageSettings,
    turns: int | str | None = None,
    track: str | None = None,
    extras: str | None = None,
    card: str | None = None,
) -> list[Sheet]:
    from ..summaries import summary_sheets
    from .procedures import PAPER as PROCEDURES_PAPER
    from .procedures import procedures_page
    from .tables import PAPER as TABLES_PAPER
    from .tables import tables_page
    from .tracker import PAPER as TRACKER_PAPER
    from .tracker import tracker_pages

    sheets = chip_sheets(settings, turns, track, extras, card)
    plan = facts.chip_plan(turns, track, extras)
    # Printed double-sided: the tables and the procedures back to back; the tracker and the rules each from a front.
    sheets.append(Sheet("tables", tables_page(settings.text_page(TABLES_PAPER)), "front"))
    sheets.append(Sheet("procedures", procedures_page(settings.text_page(PROCEDURES_PAPER))))
    tracker = numbered("tracker", tracker_pages(plan, settings.text_page(TRACKER_PAPER)))
    rules = summary_sheets("rwb-trouble", settings)
    for group in (tracker, rules):
        group[0] = Sheet(group[0].name, group[0].page, "front")
    return sheets + tracker + rules
