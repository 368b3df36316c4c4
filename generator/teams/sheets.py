"""Every car sheet of a field, as pipeline sheets: slips, Formula D tokens, Monaco! cards."""

from __future__ import annotations

from ..pipeline import Sheet
from .cards import monaco_card_pages, token_pages
from .models import TeamField
from .slips import BASE_UNIT, slip_pages


def _numbered(stem: str, pages) -> list[Sheet]:
    return [Sheet(stem + (f"-{i + 1}" if len(pages) > 1 else ""), p) for i, p in enumerate(pages)]


def car_sheets(field: TeamField, unit: float = BASE_UNIT, blank_rows: int = 2, tokens: bool = True) -> list[Sheet]:
    """Car slips; Monaco! cards when the field has ratings; Formula D-size tokens when asked."""
    sheets = _numbered("car-slips", slip_pages(field, unit, blank_rows=blank_rows))
    if any(d.monaco for _, d in field.drivers):
        sheets += _numbered("monaco-cards", monaco_card_pages(field))
    if tokens:
        sheets += _numbered("car-tokens", token_pages(field))
    return sheets
