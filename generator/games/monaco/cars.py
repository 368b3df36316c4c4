"""``paddock cars``: the *Monaco!* part — a card per driver, for a field with *Monaco!* ratings."""

from __future__ import annotations

from ...pipeline import OutputOptions, Sheet, numbered


def car_sheets(field, opts: OutputOptions, **_) -> list[Sheet]:
    if not any(d.monaco for _, d in field.drivers):
        return []
    from .cards import PAPER, monaco_card_pages

    return numbered("monaco-cards", monaco_card_pages(field, opts.document_page(PAPER)))
