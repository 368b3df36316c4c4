"""Small layout helpers every composer uses: text fitted to a box, with a warning when it cannot fit."""

from __future__ import annotations

from ..fonts import LEGIBLE_FLOOR, check_text, fit_size, text_width
from ..pipeline import warn
from ..scene import BLACK, Text


def fitted_text(
    text: str,
    x: float,
    y: float,
    width: float,
    *,
    max_size: float,
    height: float | None = None,
    font: str = "regular",
    color: str = BLACK,
    anchor: str = "start",
    valign: str = "baseline",
    rotation: float = 0.0,
    floor: float = LEGIBLE_FLOOR,
) -> Text:
    """A :class:`Text` as large as ``max_size`` but shrunk to fit ``width`` (and ``height``) mm.

    Below the legible ``floor`` it stays at the floor and a :class:`~generator.pipeline.LayoutWarning` names the
    string, so the user learns that it overflows its box instead of finding out on paper.
    """
    check_text(text, font)
    size, fits = fit_size(text, font, max_size, width, height, floor)
    if not fits:
        warn(f'"{text}" does not fit its {width:.1f} mm box even at the smallest legible size; shorten it')
    return Text(text, x, y, size, font, color, anchor, valign, rotation)


def wrap(text: str, width: float, size: float, font: str = "regular") -> list[str]:
    """Greedy word wrap to ``width`` mm; a word longer than the line is left whole (the caller fits it)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, size, font) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines
