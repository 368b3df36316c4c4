"""SVG writer (svgwrite): one file per page, width/height in mm, viewBox in mm (1 user unit = 1 mm).

Coordinates are rounded to 0.001 mm; ids are counters, so the same scene always gives the same bytes. Each font
a page uses is embedded as a data URI holding only the glyphs the page draws (a WOFF subset of a few kB instead
of the whole 300 kB font), so the SVG looks the same on a machine without the fonts and stays small. Subsets
are cut with the PDF writer's own TrueType subsetter and given a Unicode cmap with fontTools, cached per glyph
set: a page costs about a millisecond per font. Filled shapes are paths with relative steps in whole thousandths
of a millimetre (exact, shorter than absolute coordinates); attributes SVG defaults to are left out.
"""

from __future__ import annotations

import base64
import io
import math
from functools import lru_cache

import svgwrite

from .. import fonts
from ..scene import Arc, Circle, Document, Group, Page, Polygon, Polyline, Primitive, Style, Text, walk


def num(v: float) -> str:
    """A coordinate rounded to 0.001 mm, without trailing zeros ('-0' becomes '0')."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _set(element, attrs: dict):
    """Set raw (already formatted) attributes and return the element."""
    for key, value in attrs.items():
        element[key] = value
    return element


def _milli(v: int) -> str:
    """Whole thousandths of a millimetre as a decimal: 12345 -> '12.345', -50 -> '-0.05'."""
    sign = "-" if v < 0 else ""
    whole, frac = divmod(abs(v), 1000)
    return sign + (f"{whole}.{frac:03d}".rstrip("0").rstrip(".") if frac else str(whole))


def _ring_d(points) -> str:
    """``M x,y l dx,dy …Z`` with every step in whole thousandths of a millimetre: each vertex lands exactly where
    the absolute coordinate rounded to 0.001 mm would put it."""
    q = [(round(x * 1000), round(y * 1000)) for x, y in points]
    out = [f"M{_milli(q[0][0])},{_milli(q[0][1])}"]
    # a vertex exactly on the straight line through its neighbours (a straight edge drawn a unit at a time) is
    # left out: the same outline in fewer bytes
    merged: list[list[int]] = []
    for (x0, y0), (x1, y1) in zip(q, q[1:], strict=False):
        dx, dy = x1 - x0, y1 - y0
        if merged and merged[-1][0] * dy == merged[-1][1] * dx and merged[-1][0] * dx + merged[-1][1] * dy > 0:
            merged[-1][0] += dx
            merged[-1][1] += dy
        elif dx or dy:
            merged.append([dx, dy])
    steps = [f"{_milli(dx)},{_milli(dy)}" for dx, dy in merged]
    if steps:
        out.append("l" + " ".join(steps))
    return "".join(out) + "Z"


def path_points(d: str) -> list[list[tuple[float, float]]]:
    """The rings of a path this writer wrote (``M x,y l dx,dy …Z``, or absolute ``M x,y x,y …Z``) as absolute
    points in mm: what a test or a tool reading Paddock's SVG needs."""
    import re

    rings: list[list[tuple[float, float]]] = []
    for cmd, body in re.findall(r"([MlLZ])([^MlLZ]*)", d):
        if cmd == "Z":
            continue
        pairs = [tuple(float(v) for v in p.split(",")) for p in body.split()]
        if cmd == "M":
            rings.append([pairs[0], *pairs[1:]])
        elif cmd == "L":
            rings[-1].extend(pairs)
        else:
            x, y = rings[-1][-1]
            for dx, dy in pairs:
                x, y = round(x + dx, 3), round(y + dy, 3)
                rings[-1].append((x, y))
    return rings


@lru_cache(maxsize=256)
def font_subset(key: str, chars: str) -> bytes:
    """A WOFF font holding the glyphs of ``chars`` (sorted, distinct) from the bundled font ``key``, with a
    Unicode cmap. Deterministic: the same characters give the same bytes."""
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables._c_m_a_p import cmap_format_4, cmap_format_12

    face = fonts.ttfont(key).face
    codes = [0, *(ord(ch) for ch in chars if ord(ch) in face.charToGlyph)]  # index 0: the .notdef glyph
    font = TTFont(io.BytesIO(face.makeSubset(codes)), recalcTimestamp=False, recalcBBoxes=False)
    by_index = font["cmap"].getcmap(1, 0).cmap  # reportlab's subset maps the n-th code to its glyph
    unicode = {codes[i]: name for i, name in by_index.items() if i > 0}
    tables = []
    bmp = cmap_format_4(4)
    bmp.platformID, bmp.platEncID, bmp.language = 3, 1, 0
    bmp.cmap = {cp: name for cp, name in unicode.items() if cp <= 0xFFFF}
    tables.append(bmp)
    if any(cp > 0xFFFF for cp in unicode):
        full = cmap_format_12(12)
        full.platformID, full.platEncID, full.language = 3, 10, 0
        full.cmap = unicode
        tables.append(full)
    cmap = newTable("cmap")
    cmap.tableVersion, cmap.tables = 0, tables
    font["cmap"] = cmap
    font.flavor = "woff"
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def _font_face(key: str, chars: str) -> str:
    f = fonts.face(key)
    data = base64.b64encode(font_subset(key, chars)).decode("ascii")
    return (
        f"@font-face {{ font-family: 'Paddock {f.family}'; font-weight: {f.weight}; "
        f"src: url(data:font/woff;base64,{data}) format('woff'); }}"
    )


def render(document: Document, dpi: float | None = None) -> list[bytes]:
    return [_page(page, document.title).encode("utf-8") for page in document.pages]


class _Ids:
    def __init__(self) -> None:
        self.n = 0

    def next(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def _page(page: Page, title: str) -> str:
    w, h = page.width, page.height
    dwg = svgwrite.Drawing(size=(f"{num(w)}mm", f"{num(h)}mm"), profile="full", debug=False)
    dwg.viewbox(0, 0, w, h)
    dwg["viewBox"] = f"0 0 {num(w)} {num(h)}"
    used: dict[str, set[str]] = {}
    for item in walk(page.items()):
        if isinstance(item, Text):
            used.setdefault(item.font, set()).update(item.text)
    if used:
        css = [_font_face(key, "".join(sorted(used[key]))) for key in sorted(used)]
        dwg.defs.add(dwg.style("\n".join(css)))
    dwg.set_desc(title=page.title or title)
    ids = _Ids()
    for name, layer in page.layers.items():
        g = dwg.g(id=f"layer-{_slug(name)}")
        for item in layer.items:
            g.add(_element(dwg, item, ids))
        dwg.add(g)
    return dwg.tostring()


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)


def _style_attrs(style: Style, closed: bool = True) -> dict:
    a: dict = {}
    a["fill"] = style.fill if (style.fill is not None and closed) else "none"
    if style.stroke is not None and style.width > 0:  # no stroke is SVG's default: nothing to write
        a["stroke"] = style.stroke
        a["stroke_width"] = num(style.width)
        if style.cap != "butt":
            a["stroke_linecap"] = style.cap
        if style.join != "miter":
            a["stroke_linejoin"] = style.join
        if style.dash:
            a["stroke_dasharray"] = " ".join(num(d) for d in style.dash)
    if style.opacity != 1.0:
        a["opacity"] = num(style.opacity)
    return a


def _element(dwg, item: Primitive, ids: _Ids):
    if isinstance(item, Polyline):
        points = [(num(x), num(y)) for x, y in item.points]  # svgwrite joins them as "x,y x,y"
        if item.closed:
            return dwg.polygon(points=points, **_style_attrs(item.style))
        return dwg.polyline(points=points, **_style_attrs(item.style, closed=False))
    if isinstance(item, Polygon):
        d = "".join(_ring_d(ring) for ring in (item.exterior, *item.holes))
        if item.holes:
            return dwg.path(d=d, fill_rule="evenodd", **_style_attrs(item.style))
        return dwg.path(d=d, **_style_attrs(item.style))  # one simple ring: even-odd and non-zero agree
    if isinstance(item, Circle):
        return _set(
            dwg.circle(center=(0, 0), r=1, **_style_attrs(item.style)),
            {"cx": num(item.center[0]), "cy": num(item.center[1]), "r": num(item.r)},
        )
    if isinstance(item, Arc):
        return dwg.path(d=_arc_d(item), **_style_attrs(item.style, closed=False))
    if isinstance(item, Text):
        return _text(dwg, item)
    if isinstance(item, Group):
        inner = dwg.g()
        if item.offset != (0.0, 0.0) or item.scale != 1.0:
            inner["transform"] = f"translate({num(item.offset[0])} {num(item.offset[1])}) scale({num(item.scale)})"
        for child in item.items:
            inner.add(_element(dwg, child, ids))
        if item.clip is None:
            return inner
        cid = ids.next("clip")
        cp = dwg.clipPath(id=cid)
        x, y, w, h = item.clip
        cp.add(_set(dwg.rect(), {"x": num(x), "y": num(y), "width": num(w), "height": num(h)}))
        outer = dwg.g(clip_path=f"url(#{cid})")
        outer.add(cp)
        outer.add(inner)
        return outer
    raise TypeError(f"cannot draw {type(item).__name__}")  # pragma: no cover


def _arc_d(item: Arc) -> str:
    cx, cy = item.center
    r = item.r
    if abs(item.sweep) >= 360:
        return (
            f"M{num(cx + r)},{num(cy)} A{num(r)},{num(r)} 0 1 1 {num(cx - r)},{num(cy)} "
            f"A{num(r)},{num(r)} 0 1 1 {num(cx + r)},{num(cy)}"
        )
    a0 = math.radians(item.start)
    a1 = math.radians(item.start + item.sweep)
    x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
    large = 1 if abs(item.sweep) > 180 else 0
    sweep = 1 if item.sweep > 0 else 0
    return f"M{num(x0)},{num(y0)} A{num(r)},{num(r)} 0 {large} {sweep} {num(x1)},{num(y1)}"


def _text(dwg, item: Text):
    f = fonts.face(item.font)
    x = item.x - fonts.anchor_shift(item.text, item.anchor, item.size, item.font)
    y = item.y + fonts.baseline_drop(item.valign, item.size, item.font)
    el = _set(
        dwg.text(item.text),
        {
            "x": num(x),
            "y": num(y),
            "font-family": f"'Paddock {f.family}', '{f.family}', sans-serif",
            "font-size": num(item.size),
            "fill": item.color,
        },
    )
    if f.weight != 400:
        el["font-weight"] = str(f.weight)
    if item.rotation:
        el["transform"] = f"rotate({num(item.rotation)} {num(item.x)} {num(item.y)})"
    el["xml:space"] = "preserve"
    return el
