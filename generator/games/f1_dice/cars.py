"""``paddock cars``: the f1-dice part — rear-wing slips for every driver of the field (f1-dice §1.2)."""

from __future__ import annotations

from ...paper import PageSettings
from ...scene import Sheet, numbered


def car_sheets(field, settings: PageSettings, unit: float | None = None, blank_rows: int = 2, **_) -> list[Sheet]:
    from .slips import PAPER, slip_pages

    return numbered("car-slips", slip_pages(field, settings.document_page(PAPER), unit, blank_rows=blank_rows))
