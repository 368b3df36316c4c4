"""PDF writer (reportlab): vector, page box exactly the paper size, fonts embedded, deterministic."""

from __future__ import annotations

import io
from functools import cache

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.canvas import FILL_EVEN_ODD

from .. import fonts
from ..scene import Arc, Circle, Document, Group, Polygon, Polyline, Primitive, Style, Text
from ..units import PT_PER_MM

CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}


@cache
def _register(key: str) -> str:
    name = fonts.pdf_name(key)
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(fonts._ttfont(key))
    return name


def render(document: Document) -> list[bytes]:
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
        for item in page.items():
            _draw(c, item)
        c.restoreState()
        c.showPage()
    c.save()
    return [buf.getvalue()]


def _apply(c, style: Style) -> tuple[int, int]:
    do_stroke = int(style.stroke is not None and style.width > 0)
    do_fill = int(style.fill is not None)
    if do_stroke:
        c.setStrokeColor(HexColor(style.stroke))
        c.setLineWidth(style.width)
        c.setLineCap(CAPS[style.cap])
        c.setLineJoin(JOINS[style.join])
        c.setDash(list(style.dash) if style.dash else [])
        c.setStrokeAlpha(style.opacity)
    if do_fill:
        c.setFillColor(HexColor(style.fill))
        c.setFillAlpha(style.opacity)
    return do_stroke, do_fill


def _ring(path, pts, close: bool = True) -> None:
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)
    if close:
        path.close()


def _draw(c, item: Primitive) -> None:
    if isinstance(item, Polyline):
        if len(item.points) < 2:
            return
        s, f = _apply(c, item.style)
        p = c.beginPath()
        _ring(p, item.points, close=item.closed)
        c.drawPath(p, stroke=s, fill=f if item.closed else 0)
    elif isinstance(item, Polygon):
        s, f = _apply(c, item.style)
        p = c.beginPath()
        _ring(p, item.exterior)
        for hole in item.holes:
            _ring(p, hole)
        c.drawPath(p, stroke=s, fill=f, fillMode=FILL_EVEN_ODD)
    elif isinstance(item, Circle):
        s, f = _apply(c, item.style)
        c.circle(item.center[0], item.center[1], item.r, stroke=s, fill=f)
    elif isinstance(item, Arc):
        s, _ = _apply(c, item.style)
        cx, cy = item.center
        r = item.r
        p = c.beginPath()
        p.arc(cx - r, cy - r, cx + r, cy + r, startAng=item.start, extent=item.sweep)
        c.drawPath(p, stroke=s, fill=0)
    elif isinstance(item, Text):
        _text(c, item)
    elif isinstance(item, Group):
        c.saveState()
        if item.clip is not None:
            x, y, w, h = item.clip
            p = c.beginPath()
            p.rect(x, y, w, h)
            c.clipPath(p, stroke=0, fill=0)
        c.transform(item.scale, 0, 0, item.scale, item.offset[0], item.offset[1])
        for child in item.items:
            _draw(c, child)
        c.restoreState()
    else:  # pragma: no cover - the scene has no other primitives
        raise TypeError(f"cannot draw {type(item).__name__}")


def _text(c, item: Text) -> None:
    name = _register(item.font)
    dx = -fonts.anchor_shift(item.text, item.anchor, item.size, item.font)
    c.saveState()
    c.translate(item.x, item.y)
    if item.rotation:
        c.rotate(item.rotation)
    c.scale(1, -1)
    c.setFillColor(HexColor(item.color))
    c.setFont(name, item.size)
    c.drawString(dx, -fonts.baseline_drop(item.valign, item.size, item.font), item.text)
    c.restoreState()
