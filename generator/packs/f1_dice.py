"""The f1-dice pack: every sheet needed to race the paper-and-dice F1 game (``../shared/rules/f1-dice.txt``)."""

from __future__ import annotations

from pathlib import Path

from ..pipeline import OutputOptions, Sheet


def build(opts: OutputOptions, track: Path | None = None) -> list[Sheet]:
    from ..compose.calibration import calibration_sheet

    return [Sheet("calibration", calibration_sheet())]
