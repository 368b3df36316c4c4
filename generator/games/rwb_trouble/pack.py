"""The RWB TROUBLE pack: the chip card and its chips, the TROUBLE tables, the procedures (CRASH flow chart, WRECKS),
the race tracker, for one race length and track type, and the rule summary (``../shared/rules/rwb-trouble.txt``)."""

from __future__ import annotations

from ...notices import warn
from ...paper import PageSettings
from ...pipeline import Sheet, numbered
from . import facts


def chip_sheets(
    settings: PageSettings,
    turns: int | str | None = None,
    track: str | None = None,
    extras: str | None = None,
    card: str | None = None,
) -> list[Sheet]:
    """The chip card at its own size, with its chips, on the printer's page (``paddock rwb chips``)."""
    from .chipcard import PAPER, chip_card_page

    plan = facts.chip_plan(turns, track, extras)
    size = facts.card_size(card)
    spec = settings.document_page(PAPER)
    if settings.paper is not None:  # --paper names a sheet size; the card cannot take it, so say where it went
        words = facts.sheets().chip_card
        warn(words.paper_note.format(card_label=size.label, paper=spec.paper.label))
    return [Sheet("chip-card", chip_card_page(plan, size, spec))]


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
    sheets.append(Sheet("tables", tables_page(settings.text_page(TABLES_PAPER))))
    sheets.append(Sheet("procedures", procedures_page(settings.text_page(PROCEDURES_PAPER))))
    sheets += numbered("tracker", tracker_pages(plan, settings.text_page(TRACKER_PAPER)))
    sheets += summary_sheets("rwb-trouble", settings)
    return sheets
