"""PDF writer (reportlab): vector, page box exactly the paper size, fonts embedded, deterministic.

Lean output: a graphics-state operator (colour, width, dash, cap, join, opacity) is written only when it
changes, content streams are plain Flate (no ASCII85), and each font is embedded once per file as a subset.

**Shared subsets.** ``render(document, glyphs=…)`` embeds each font as the subset of ``glyphs[font]`` — the
characters of a whole run — in code-point order, under a fixed resource name. Every PDF of one run then carries
byte-identical font objects, so :mod:`.pdfmerge` can build the merged print PDF from the files already written
(sharing the fonts once) instead of drawing every page again.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from collections.abc import Iterable, Mapping
from functools import cache
from math import cos, pi, sin

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.canvas import FILL_EVEN_ODD

from .. import fonts
from ..scene import Arc, Circle, Document, Group, Polygon, Polyline, Primitive, Style, Text, walk
from ..units import PT_PER_MM

CAPS = {"butt": 0, "round": 1, "square": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}

rl_config.useA85 = 0  # ASCII85 makes every content stream a quarter larger, for 7-bit channels nobody uses


class _RememberingFlate(pdfdoc.PDFStreamFilterZCompress):
    """reportlab's Flate filter, remembering its last results: every PDF of a run embeds the same font subsets
    and ToUnicode maps (see above), so each is compressed once per run rather than once per file. zlib gives the
    same bytes for the same input, so the files are unchanged; only a digest of each input is kept."""

    KEEP = 64

    def __init__(self) -> None:
        self._done: dict[bytes, bytes] = {}

    def encode(self, text):
        if isinstance(text, str):
            text = text.encode("utf8")
        key = hashlib.blake2b(text, digest_size=20).digest() + len(text).to_bytes(8, "little")
        out = self._done.get(key)
        if out is None:
            out = zlib.compress(text)
            if len(self._done) >= self.KEEP:
                del self._done[next(iter(self._done))]
            self._done[key] = out
        return out


pdfdoc.PDFZCompress = _RememberingFlate()  # font subsets (ttfonts) and page streams (pdfdoc) look it up here


@cache
def _register(key: str) -> str:
    name = fonts.pdf_name(key)
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(fonts._ttfont(key))
    return name


@cache
def _colour(hex_colour: str):
    return HexColor(hex_colour)


def glyphs_of(pages: Iterable) -> dict[str, set[str]]:
    """The characters each font draws on ``pages`` (what :func:`render` embeds for a run)."""
    out: dict[str, set[str]] = {}
    for page in pages:
        for item in walk(page.items()):
            if isinstance(item, Text):
                out.setdefault(item.font, set()).update(item.text)
    return out


def _seed(c, run: Mapping[str, Iterable[str]], used: Mapping[str, set[str]]) -> None:
    """Fix each font's subset (the run's characters and the document's own, in code-point order) and resource
    name before drawing, so every PDF of a run embeds identical font objects. Fonts the document does not use
    are left out."""
    doc = c._doc
    for i, key in enumerate(fonts.FONTS):
        if key not in used:
            continue
        font = pdfmetrics.getFont(_register(key))
        state = font._assignState(doc)
        font.splitString("".join(sorted(set(run.get(key, ())) | used[key])), doc)
        state.internalName = f"P{i + 1}"
        doc.fontMapping[font.fontName] = "/" + state.internalName
        doc.delayedFonts.append(font)


def render(document: Document, glyphs: Mapping[str, Iterable[str]] | None = None) -> list[bytes]:
    """The PDF of ``document``; ``glyphs`` (font → characters) widens each font's subset to a whole run's."""
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
    _seed(c, glyphs or {}, glyphs_of(document.pages))
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
    # what _State.set does, written out: this runs for every path of every page (no closures made, no calls
    # for the values that did not change)
    do_stroke = int(style.stroke is not None and style.width > 0)
    do_fill = int(style.fill is not None and closed)
    now = state.now
    if do_stroke:
        if now["stroke"] != style.stroke:
            c.setStrokeColor(_colour(style.stroke))
            now["stroke"] = style.stroke
        if now["width"] != style.width:
            c.setLineWidth(style.width)
            now["width"] = style.width
        cap = CAPS[style.cap]
        if now["cap"] != cap:
            c.setLineCap(cap)
            now["cap"] = cap
        join = JOINS[style.join]
        if now["join"] != join:
            c.setLineJoin(join)
            now["join"] = join
        dash = tuple(style.dash) if style.dash else ()
        if now["dash"] != dash:
            c.setDash(list(dash))
            now["dash"] = dash
        if now["s_alpha"] != style.opacity:
            c.setStrokeAlpha(style.opacity)
            now["s_alpha"] = style.opacity
    if do_fill:
        if now["fill"] != style.fill:
            c.setFillColor(_colour(style.fill))
            now["fill"] = style.fill
        if now["f_alpha"] != style.opacity:
            c.setFillAlpha(style.opacity)
            now["f_alpha"] = style.opacity
    return do_stroke, do_fill


def _ring(ops: list[str], pts, close: bool = True) -> None:
    """A subpath's operators, as reportlab's ``moveTo``/``lineTo``/``close`` write them (``x y m``, ``x y l``,
    ``h``), with every coordinate formatted in one call rather than one call a point."""
    nums = fp_str([v for p in pts for v in p]).split(" ")
    ops.append(f"{nums[0]} {nums[1]} m")
    ops += [f"{x} {y} l" for x, y in zip(nums[2::2], nums[3::2], strict=True)]
    if close:
        ops.append("h")


def _path(c, rings, close: bool = True):
    """A reportlab path object holding ``rings`` (its code set at once: ``n``, then each subpath)."""
    path = c.beginPath()
    ops = ["n"]
    for pts in rings:
        _ring(ops, pts, close)
    path._code = ops
    return path


def _draw(c, item: Primitive, state: _State) -> None:
    if isinstance(item, Polyline):
        if len(item.points) < 2:
            return
        s, f = _apply(c, item.style, state, closed=item.closed)
        c.drawPath(_path(c, [item.points], close=item.closed), stroke=s, fill=f)
    elif isinstance(item, Polygon):
        s, f = _apply(c, item.style, state)
        c.drawPath(_path(c, [item.exterior, *item.holes]), stroke=s, fill=f, fillMode=FILL_EVEN_ODD)
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
    """One text item: the operators reportlab's ``saveState``, ``translate``/``rotate``/``scale`` (merged into
    one ``cm``), ``drawString`` and ``restoreState`` write, written directly — the canvas's own bookkeeping for
    each call was a third of the PDF's time; the bytes are the same."""
    name = _register(item.font)
    font = _font(name)
    dx = -fonts.anchor_shift(item.text, item.anchor, item.size, item.font)
    # Colour and opacity outside the q/Q: consecutive texts in one ink set it once.
    state.set("fill", item.color, lambda v: c.setFillColor(_colour(v)))
    state.set("f_alpha", 1.0, c.setFillAlpha)
    code = c._code
    code.append("q")
    if item.rotation:
        code.append(f"{fp_str(1, 0, 0, 1, item.x, item.y)} cm")
        cos_r, sin_r = cos(item.rotation * pi / 180), sin(item.rotation * pi / 180)
        _then(code, cos_r, sin_r, -sin_r, cos_r, 0, 0)
        _then(code, 1, 0, 0, -1, 0, 0)
    else:  # what the two steps above come to for upright text, the written numbers the same (a "-0" becomes "0")
        x, y = fp_str(item.x, item.y).split(" ")
        code.append(f"1 0 0 -1 {'0' if x == '-0' else x} {'0' if y == '-0' else y} cm")
    doc = c._doc
    size = fp_str(item.size)
    run = []
    current = -1
    for subset, chars in font.splitString(item.text, doc):
        if subset != current:
            run.append(f"{font.getSubsetInternalName(subset, doc)} {size} Tf {fp_str(item.size * 1.2)} TL")
            current = subset
        run.append(f"({escapePDF(chars)}) Tj")
    y = -fonts.baseline_drop(item.valign, item.size, item.font)
    code.append(f"BT 1 0 0 1 {fp_str(dx, y)} Tm {' '.join(run)} T* ET")
    code.append("Q")


def _then(code: list[str], a, b, c, d, e, f) -> None:
    """Concatenate a matrix to the ``cm`` just written, as reportlab's ``Canvas.transform`` does (from the
    written, rounded numbers)."""
    a0, b0, c0, d0, e0, f0 = map(float, code[-1].split()[-7:-1])
    m = (a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d, a0 * e + c0 * f + e0, b0 * e + d0 * f + f0)
    code[-1] = f"{fp_str(*m)} cm"


@cache
def _font(name: str):
    return pdfmetrics.getFont(name)
