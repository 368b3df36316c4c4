"""``paddock calibrate``: the printer calibration sheet (rulers in cm and inches, 2 cm grid, a car slip)."""

from __future__ import annotations

from ..command import output_options, publish
from .root import app


@app.command("calibrate")
@output_options
def calibrate(*, opts) -> None:
    """Print this first: every ruler on it must measure true, or your printer is scaling pages."""
    from ..compose.calibration import PAPER, calibration_sheet
    from ..scene import Sheet

    publish([Sheet("calibration", calibration_sheet(opts.pages.document_page(PAPER)))], opts)
