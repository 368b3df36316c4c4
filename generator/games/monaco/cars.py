"""``paddock cars``: the *Monaco!* part — a card per driver, for a field with *Monaco!* ratings."""

from __future__ import annotations

from ...paper import PageSettings
from ...scene import Sheet, numbered


def car_sheets(field, settings: PageSettings, **_) -> list[Sheet]:
    if not any(d.monaco for _, d in field.drivers):
        return []
    from .cards import PAPER, monaco_card_pages

    return numbered("monaco-cards", monaco_card_pages(field, settings.text_page(PAPER)))
