"""The fonts Paddock ships (Roboto and Roboto Condensed, Apache-2.0), their metrics and glyph coverage.

The font files live inside the package so every install, on every OS, draws with the same glyphs. Writers
embed them; composers use :func:`text_width` and :func:`fit_size` to lay text out, and :func:`check_text`
turns a character the font lacks into a clear error instead of a blank box on paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .errors import GlyphError

FONT_DIR = Path(__file__).parent / "fonts"


@dataclass(frozen=True)
class FontFace:
    key: str  # what Text.font says
    family: str  # CSS / PDF family name
    file: str
    weight: int = 400


FONTS: dict[str, FontFace] = {
    "regular": FontFace("regular", "Roboto", "Roboto-Regular.ttf", 400),
    "bold": FontFace("bold", "Roboto", "Roboto-Bold.ttf", 700),
    "condensed": FontFace("condensed", "Roboto Condensed", "RobotoCondensed-Regular.ttf", 400),
    "condensed-bold": FontFace("condensed-bold", "Roboto Condensed", "RobotoCondensed-Bold.ttf", 700),
}

# Below this em size (mm) text is no longer comfortably legible on paper: 5 pt.
LEGIBLE_FLOOR = 5 / 72 * 25.4


def face(key: str) -> FontFace:
    try:
        return FONTS[key]
    except KeyError:
        raise ValueError(f"unknown font '{key}'; known: {', '.join(FONTS)}") from None


def font_path(key: str) -> Path:
    return FONT_DIR / face(key).file


@cache
def ttfont(key: str):
    """The bundled font ``key`` as reportlab parses it (metrics, glyph coverage, subsets), once per process."""
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont(pdf_name(key), str(font_path(key)))


def pdf_name(key: str) -> str:
    return "Paddock-" + face(key).file.removesuffix(".ttf")


_PRINTABLE_ASCII = "".join(map(chr, range(0x20, 0x7F))) + "\n"


@cache
def coverage(key: str) -> frozenset[int]:
    return frozenset(ttfont(key).face.charToGlyph)


def missing_glyphs(text: str, key: str = "regular") -> list[str]:
    if text.isascii() and not text.strip(_PRINTABLE_ASCII):
        return []  # every bundled font draws printable ASCII (tested): no font file opened to know it (~50 ms)
    have = coverage(key)
    if have.issuperset(map(ord, text)):  # nearly always: one C-level pass, no set of characters built
        return []
    return sorted({ch for ch in text if ord(ch) not in have and ch not in "\n"})


def check_text(text: str, key: str = "regular") -> None:
    """Raise :class:`GlyphError` naming the string if the font cannot draw every character of it."""
    missing = missing_glyphs(text, key)
    if missing:
        from .specs import quote

        names = ", ".join(f"{quote(ch)} (U+{ord(ch):04X})" for ch in missing[:5])
        if len(missing) > 5:
            names += f" and {len(missing) - 5} more"
        raise GlyphError(
            f"the text {quote(text)} has characters the bundled font cannot print: {names}",
            hint="remove or replace them (Latin, Latin Extended-A, Greek and Cyrillic letters are fine)",
        )


def text_width(text: str, size: float, key: str = "regular") -> float:
    """Advance width of ``text`` in mm at em size ``size`` mm."""
    return ttfont(key).stringWidth(text, size)


def ascent(size: float, key: str = "regular") -> float:
    return ttfont(key).face.ascent / 1000 * size


def descent(size: float, key: str = "regular") -> float:
    """Positive distance below the baseline."""
    return -ttfont(key).face.descent / 1000 * size


def cap_height(size: float, key: str = "regular") -> float:
    # Roboto's cap height is 1456/2048 of the em.
    return 0.711 * size


def fit_size(
    text: str,
    key: str,
    max_size: float,
    box_w: float,
    box_h: float | None = None,
    floor: float = LEGIBLE_FLOOR,
) -> tuple[float, bool]:
    """The largest em size <= ``max_size`` at which ``text`` fits ``box_w`` (and ``box_h``) mm.

    Returns ``(size, fits)``; when even ``floor`` is too big, returns ``(floor, False)`` so the caller can
    say so.
    """
    size = max_size
    if box_h is not None:
        size = min(size, box_h / 1.17)  # ascent + descent of Roboto is ~1.17 em
    w = text_width(text, size, key)
    if w > box_w > 0:
        size = size * box_w / w
    if size < floor:
        return floor, False
    return size, True


def baseline_drop(valign: str, size: float, key: str = "regular") -> float:
    """How far below the anchor point the baseline lies (mm, page y-down) for a vertical alignment."""
    if valign == "middle":
        return cap_height(size, key) / 2
    if valign == "top":
        return cap_height(size, key)
    if valign == "bottom":
        return -descent(size, key)
    return 0.0


def anchor_shift(text: str, anchor: str, size: float, key: str = "regular") -> float:
    """How far left of the anchor point the text starts (mm) for start / middle / end."""
    if anchor == "start":
        return 0.0
    w = text_width(text, size, key)
    return w / 2 if anchor == "middle" else w
