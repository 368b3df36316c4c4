"""The RWB TROUBLE pack: the chip card, its chips and the quick card, the TROUBLE tables, the procedures (CRASH flow
chart, WRECKS), the race tracker, for one race length and track type (each left out: the add-on's example length,
a road course), and the rule summary (``../shared/rules/rwb-trouble.txt``). Its merged print PDF prints right
double-sided: the pages of pieces to cut out have blank backs."""

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
) -> list[Sheet]:
    """The chip card and the quick card at their own size, with the chips, on the printer's page (``paddock rwb
    chips``): pieces to cut out, so each page has a blank back in the print PDF."""
    from .chipcard import PAPER, chip_card_pages

    plan = facts.chip_plan(turns, track, extras)
    size = facts.card_size(card)
    spec = settings.document_page(PAPER)
    if settings.paper is not None:  # --paper names a sheet size; the card cannot take it, so say where it went
        words = facts.sheets().chip_card
        warn(words.paper_note.format(card_label=size.label, paper=spec.paper.label))
    pages = chip_card_pages(plan, size, spec)
    return [Sheet(s.name, s.page, "alone") for s in numbered("chip-card", pages)]


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
