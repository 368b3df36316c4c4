"""PDF writer (reportlab): vector, page box exactly the paper size, fonts embedded as subsets, deterministic.

Only reportlab's public canvas API is used: paths through ``beginPath``/``drawPath``, text through text objects,
the graphics state through the canvas's setters. Lean output all the same: a graphics-state operator (colour,
width, dash, cap, join, opacity) is written only when it changes, and content streams are plain Flate (no
ASCII85, reportlab's ``rl_config.useA85`` setting).
"""

from __future__ import annotations

import io
from functools import cache
from math import cos, pi, sin

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.canvas import FILL_EVEN_ODD
from reportlab.pdfgen.pathobject import PDFPathObject

from .. import fonts
from ..scene import Arc, Circle, Document, Group, Polygon, Polyline, Primitive, Style, Text
from ..units import PT_PER_MM

CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}

rl_config.useA85 = 0  # ASCII85 makes every content stream a quarter larger, for 7-bit channels nobody uses


@cache
def _register(key: str) -> str:
    """The bundled font ``key`` registered with reportlab (once per process); its PDF name."""
    name = fonts.pdf_name(key)
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(fonts.ttfont(key))
    return name


@cache
def _colour(hex_colour: str):
    return HexColor(hex_colour)


def render(document: Document, dpi: float | None = None) -> list[bytes]:
    """The PDF of ``document``: one file, every page (vector: ``dpi`` means nothing to it)."""
    buf = io.BytesIO()
    first = document.pages[0] if document.pages else None
    size = (first.width * PT_PER_MM, first.height * PT_PER_MM) if first else (595.2756, 841.8898)
    # The canvas starts with our own font rather than Helvetica, so no unembedded base font is referenced.
    c = rl_canvas.Canvas(
        buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=_register("regular"), initialFontSize=10
    )
    c.setTitle(document.title)
    c.setAuthor("Paddock")
    c.setCreator("Paddock")
    c.setProducer("Paddock")
    for page in document.pages:
        w, h = page.width * PT_PER_MM, page.height * PT_PER_MM
        c.setPageSize((w, h))
        c.saveState()
        # 1 user unit = 1 mm, origin top-left, y down — the scene's own coordinates.
        c.transform(PT_PER_MM, 0, 0, -PT_PER_MM, 0, h)
        state = _State(c)
        for item in page.items():
            _draw(c, item, state)
        c.restoreState()
        c.showPage()
    c.save()
    return [buf.getvalue()]


class _State:
    """The graphics state as last written, so an operator is emitted only when its value changes; saved and
    restored with the PDF's own q/Q."""

    KEYS = ("stroke", "fill", "width", "cap", "join", "dash", "s_alpha", "f_alpha")

    def __init__(self, c) -> None:
        self.c = c
        self.now: dict = dict.fromkeys(self.KEYS)  # None: not known, write it
        self.stack: list[dict] = []

    def save(self) -> None:
        self.c.saveState()
        self.stack.append(dict(self.now))

    def restore(self) -> None:
        self.c.restoreState()
        self.now = self.stack.pop()

    def set(self, key: str, value, write) -> None:
        if self.now[key] != value:
            write(value)
            self.now[key] = value


def _apply(c, style: Style, state: _State, closed: bool = True) -> tuple[int, int]:
    """Set what ``style`` needs that is not set already; whether to stroke and to fill."""
    do_stroke = int(style.stroke is not None and style.width > 0)
    do_fill = int(style.fill is not None and closed)
    if do_stroke:
        state.set("stroke", style.stroke, lambda v: c.setStrokeColor(_colour(v)))
        state.set("width", style.width, c.setLineWidth)
        state.set("cap", CAPS[style.cap], c.setLineCap)
        state.set("join", JOINS[style.join], c.setLineJoin)
        state.set("dash", tuple(style.dash) if style.dash else (), lambda v: c.setDash(list(v)))
        state.set("s_alpha", style.opacity, c.setStrokeAlpha)
    if do_fill:
        state.set("fill", style.fill, lambda v: c.setFillColor(_colour(v)))
        state.set("f_alpha", style.opacity, c.setFillAlpha)
    return do_stroke, do_fill


def _path(rings, close: bool = True) -> PDFPathObject:
    """A reportlab path holding each of ``rings`` as a subpath: its operators (``x y m``, ``x y l``, ``h``, as
    the path's ``moveTo``/``lineTo``/``close`` write them) handed to the path object as its code, every
    coordinate of a ring formatted in one call rather than one call a point."""
    ops = ["n"]
    for pts in rings:
        nums = fp_str([v for p in pts for v in p]).split(" ")
        ops.append(f"{nums[0]} {nums[1]} m")
        ops += [f"{x} {y} l" for x, y in zip(nums[2::2], nums[3::2], strict=True)]
        if close:
            ops.append("h")
    return PDFPathObject(code=ops)


def _draw(c, item: Primitive, state: _State) -> None:
    if isinstance(item, Polyline):
        if len(item.points) < 2:
            return
        s, f = _apply(c, item.style, state, closed=item.closed)
        c.drawPath(_path([item.points], close=item.closed), stroke=s, fill=f)
    elif isinstance(item, Polygon):
        s, f = _apply(c, item.style, state)
        c.drawPath(_path([item.exterior, *item.holes]), stroke=s, fill=f, fillMode=FILL_EVEN_ODD)
    elif isinstance(item, Circle):
        s, f = _apply(c, item.style, state)
        c.circle(item.center[0], item.center[1], item.r, stroke=s, fill=f)
    elif isinstance(item, Arc):
        s, _ = _apply(c, item.style, state, closed=False)
        cx, cy = item.center
        r = item.r
        p = c.beginPath()
        p.arc(cx - r, cy - r, cx + r, cy + r, startAng=item.start, extent=item.sweep)
        c.drawPath(p, stroke=s, fill=0)
    elif isinstance(item, Text):
        _text(c, item, state)
    elif isinstance(item, Group):
        state.save()
        if item.clip is not None:
            x, y, w, h = item.clip
            p = c.beginPath()
            p.rect(x, y, w, h)
            c.clipPath(p, stroke=0, fill=0)
        c.transform(item.scale, 0, 0, item.scale, item.offset[0], item.offset[1])
        for child in item.items:
            _draw(c, child, state)
        state.restore()
    else:  # pragma: no cover - the scene has no other primitives
        raise TypeError(f"cannot draw {type(item).__name__}")


def _text(c, item: Text, state: _State) -> None:
    """One text at its anchor, turned by its rotation, upright on the y-down page: in its own graphics state (a
    ``cm`` to the anchor, the glyphs' y flipped back up) and text object (offset by its alignment)."""
    # Colour and opacity outside the q/Q: consecutive texts in one ink set it once.
    state.set("fill", item.color, lambda v: c.setFillColor(_colour(v)))
    state.set("f_alpha", 1.0, c.setFillAlpha)
    c.saveState()
    if item.rotation:
        cos_r, sin_r = cos(item.rotation * pi / 180), sin(item.rotation * pi / 180)
        c.transform(cos_r, sin_r, sin_r, -cos_r, item.x, item.y)
    else:
        c.transform(1, 0, 0, -1, item.x, item.y)
    dx = -fonts.anchor_shift(item.text, item.anchor, item.size, item.font)
    t = c.beginText(dx, -fonts.baseline_drop(item.valign, item.size, item.font))
    t.setFont(_register(item.font), item.size)
    t.textOut(item.text)
    c.drawText(t)
    c.restoreState()
