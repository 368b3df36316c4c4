"""Every car sheet of a field, as pipeline sheets: slips, Formula D tokens, Monaco! cards."""

from __future__ import annotations

from ..pipeline import Sheet
from .models import TeamField
from .slips import BASE_UNIT, slip_pages


def car_sheets(field: TeamField, unit: float = BASE_UNIT, blank_rows: int = 2) -> list[Sheet]:
    sheets: list[Sheet] = []
    pages = slip_pages(field, unit, blank_rows=blank_rows)
    for i, page in enumerate(pages):
        sheets.append(Sheet("car-slips" + (f"-{i + 1}" if len(pages) > 1 else ""), page))
    return sheets
