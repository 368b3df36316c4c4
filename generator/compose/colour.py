"""Colours: parsing what users write (liveries, car colours) and choosing ink that stays legible on them."""

from __future__ import annotations

# The palette every sheet draws with: one definition of each ink.
INK = "#1a1a1a"  # text and lines
DARK = INK
LIGHT = "#ffffff"  # light ink, on dark fills
WHITE = "#ffffff"
GREY = "#6b6b6b"  # secondary text
RULE = "#9a9a9a"  # thin rules and guides
SHADE = "#eeeeee"  # header fills
ZEBRA = "#f4f4f4"  # alternate table rows
ACCENT = "#c0392b"  # calibration marks, assembly frames


def parse_colour(text: str) -> str:
    """``#rgb``, ``#rrggbb``, ``rgb(…)`` or a CSS colour name, as ``#rrggbb``. ValueError if unreadable."""
    from PIL import ImageColor

    raw = str(text).strip()
    try:
        rgb = ImageColor.getrgb(raw)
    except ValueError:
        raise ValueError(f"cannot read the colour {raw!r}: use #rrggbb (e.g. #d40000) or a CSS name") from None
    r, g, b = rgb[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def _channel(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb`` (0 black … 1 white)."""
    h = colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(background: str) -> str:
    """Dark or light ink, whichever contrasts more with ``background``."""
    return DARK if contrast(DARK, background) >= contrast(LIGHT, background) else LIGHT


def mix(a: str, b: str, t: float) -> str:
    """``a`` moved a fraction ``t`` towards ``b``."""
    ha, hb = a.lstrip("#"), b.lstrip("#")
    out = []
    for i in (0, 2, 4):
        ca, cb = int(ha[i : i + 2], 16), int(hb[i : i + 2], 16)
        out.append(round(ca + (cb - ca) * t))
    return "#" + "".join(f"{c:02x}" for c in out)
