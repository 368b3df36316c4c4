"""``paddock cars``: the f1-dice part — rear-wing slips for every driver of the field (f1-dice §1.2)."""

from __future__ import annotations

from ...pipeline import OutputOptions, Sheet, numbered


def car_sheets(field, opts: OutputOptions, unit: float | None = None, blank_rows: int = 2, **_) -> list[Sheet]:
    from .slips import PAPER, slip_pages

    return numbered("car-slips", slip_pages(field, opts.document_page(PAPER), unit, blank_rows=blank_rows))
