"""The fonts Paddock ships (Roboto and Roboto Condensed, Apache-2.0), their metrics and glyph coverage.

The font files live inside the package so every install, on every OS, draws with the same glyphs. Writers
embed them; composers use :func:`text_width` and :func:`fit_size` to lay text out, and :func:`check_text`
turns a character the font lacks into a clear error instead of a blank box on paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
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
def _ttfont(key: str):
    from reportlab.pdfbase import ttfonts

    _fast_face_class()  # made from reportlab's own class, before that is stood in for below
    face = ttfonts.TTFontFace
    ttfonts.TTFontFace = _cached_face  # what TTFont builds its face with, for this one call
    try:
        font = ttfonts.TTFont(pdf_name(key), str(font_path(key)))
    finally:
        ttfonts.TTFontFace = face
    # Every PDF of a run embeds the same subset (see writers/pdf.py) and the SVG writer asks for the same ones:
    # cut each distinct subset once.
    make = font.face.makeSubset
    cut = lru_cache(maxsize=64)(lambda codes: make(list(codes)))
    font.face.makeSubset = lambda subset: cut(tuple(subset))
    return font


@cache
def _fast_face_class():
    """reportlab's TrueType face, its metrics read a third faster: the glyph widths (``hmtx``) and glyph offsets
    (``loca``), 3,360 of each per font, are unpacked in one call per table, and reportlab's own parser takes them
    one by one from an iterator instead of one ``struct`` call each. The same face, attribute for attribute
    (tested), ~10 ms less per run for the four fonts."""
    import struct

    from reportlab.pdfbase.ttfonts import TTFontFace

    class FastFace(TTFontFace):
        def seek_table(self, tag, offset_in_table=0):
            pos = TTFontFace.seek_table(self, tag, offset_in_table)
            if self.__dict__.get("_bulk") and tag in ("hmtx", "loca") and offset_in_table == 0:
                data, size = self._ttf_data, self.table[tag]["length"]
                self.read_ushort = iter(struct.unpack_from(f">{size // 2}H", data, pos)).__next__
                if tag == "loca":
                    self.read_ulong = iter(struct.unpack_from(f">{size // 4}L", data, pos)).__next__
                    self._loca = (pos, size)
            return pos

        def extractInfo(self, charInfo=1):
            self._bulk = True
            try:
                TTFontFace.extractInfo(self, charInfo)
            finally:
                for name in ("_bulk", "read_ushort", "read_ulong"):
                    self.__dict__.pop(name, None)
            loca = self.__dict__.pop("_loca", None)
            if loca is not None:  # where reportlab's parser leaves its read pointer: past the offsets it read
                pos, size = loca
                self._pos = pos + (self.numGlyphs + 1) * (size // (self.numGlyphs + 1))

    return FastFace


#: The face attributes that are reportlab's ``TTFNameBytes`` (bytes that know their text), and those a cached face
#: does not keep: the font file's bytes (read from the file, as parsing does) and a function.
_NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")
_NOT_KEPT = ("_ttf_data", "_pdfScale")


def _cached_face(filename: str, validate: int = 0, subfontIndex: int = 0):  # noqa: N803  (reportlab's names)
    """A font's face as the fast face class parses it, kept parsed between runs in Paddock's cache (see
    :mod:`generator.cache`; four fonts parsed took ~8 ms of every run that prints text), keyed by the file's
    name, size and checksum. The same face attribute for attribute (tested); anything amiss with what the
    cache holds, and the file is parsed."""
    import os
    import zlib

    from .cache import parsed_fonts

    cls = _fast_face_class()
    if validate or subfontIndex:
        return cls(filename, validate=validate, subfontIndex=subfontIndex)
    with open(filename, "rb") as f:
        info = os.fstat(f.fileno())
        data = f.read()
    key = (os.path.basename(filename), info.st_size, zlib.crc32(data))  # the font, wherever it is installed
    store = parsed_fonts()
    kept = store.get(key)
    if isinstance(kept, dict):
        try:
            return _face_from(cls, kept, data, filename)
        except Exception:  # not what a parse keeps: parse again (and keep that)
            pass
    face = cls(filename)
    store.put(key, {k: v for k, v in face.__dict__.items() if k not in _NOT_KEPT})
    return face


def _face_from(cls, kept: dict, data: bytes, filename: str):
    """A face of ``cls`` from the attributes a parse kept (perhaps of the same font elsewhere) and the font file."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    face = cls.__new__(cls)
    face.__dict__.update(kept)
    for name in _NAMES:
        value = face.__dict__.get(name)
        if type(value) is bytes:
            face.__dict__[name] = TTFNameBytes(value)
    face._ttf_data = data
    face.filename = filename
    units = int(face.unitsPerEm)  # reportlab's own scale for the font's design units
    if units == 1000:
        face._pdfScale = lambda x: x
    else:
        mult = 1000 / units
        face._pdfScale = lambda x: x * mult
    return face


def pdf_name(key: str) -> str:
    return "Paddock-" + face(key).file.removesuffix(".ttf")


_PRINTABLE_ASCII = "".join(map(chr, range(0x20, 0x7F))) + "\n"


@cache
def coverage(key: str) -> frozenset[int]:
    return frozenset(_ttfont(key).face.charToGlyph)


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
    return _ttfont(key).stringWidth(text, size)


def ascent(size: float, key: str = "regular") -> float:
    return _ttfont(key).face.ascent / 1000 * size


def descent(size: float, key: str = "regular") -> float:
    """Positive distance below the baseline."""
    return -_ttfont(key).face.descent / 1000 * size


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
