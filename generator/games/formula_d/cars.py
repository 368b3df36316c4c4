"""``paddock cars``: the Formula D part — car tokens the size of a board space, two per driver."""

from __future__ import annotations

from ...paper import PageSettings
from ...scene import Sheet, numbered


def car_sheets(field, settings: PageSettings, tokens: bool = True, **_) -> list[Sheet]:
    if not tokens:
        return []
    from .tokens import PAPER, token_pages

    return numbered("car-tokens", token_pages(field, settings.document_page(PAPER)))
