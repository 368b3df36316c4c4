"""Ink saver: solid fills become their outline plus light hatching, for cheap home printing.

A scene-to-scene transform, so every writer gets it for free. Dark fills get dense hatching, pale ones (the
track's asphalt, action squares) sparse hatching; white fills and the print-check layer (which must stay
measurable) are left alone. Light text, which stood on a dark fill that is now mostly paper, turns dark, and no
hatch line runs through any text: the hatching stops short of every text box on the page, so names stay crisp.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..scene import Circle, Document, Group, Layer, Page, Polygon, Polyline, Primitive, Style, Text
from .colour import luminance

SPACING = 1.6  # mm between hatch lines on a dark fill
PALE_SPACING = 3.0  # … on a pale one
HATCH_WIDTH = 0.18
OUTLINE_WIDTH = 0.3
KEEP_LAYERS = {"print-check"}
PALE = 0.6  # relative luminance above which a fill counts as pale (#d0d0d0 and lighter)
WHITE = 0.95  # … and above which it is paper-white: nothing to save
DARK_INK = "#1a1a1a"


KNOCKOUT = 0.5  # mm of clear paper kept round text on a hatched fill


def _hatch(shape, color: str, spacing: float = SPACING, clear=None) -> list[Primitive]:
    from shapely.affinity import rotate
    from shapely.geometry import LineString, MultiLineString

    if shape.is_empty:
        return []
    c = shape.centroid
    turned = rotate(shape, -45, origin=c)
    minx, miny, maxx, maxy = turned.bounds
    lines = []
    y = miny + spacing / 2
    while y < maxy:
        lines.append(((minx - 1, y), (maxx + 1, y)))
        y += spacing
    if not lines:
        return []
    cut = rotate(MultiLineString(lines), 45, origin=c).intersection(shape)
    if clear is not None and cut.intersects(clear):
        cut = cut.difference(clear)
    style = Style(stroke=color, width=HATCH_WIDTH)
    parts = getattr(cut, "geoms", [cut])
    out: list[Primitive] = []
    for part in parts:
        if isinstance(part, LineString) and not part.is_empty:
            out.append(Polyline(tuple(part.coords), style))
    return out


def _text_boxes(items) -> object:
    """The paper under every text of ``items`` (one coordinate scope: groups have their own), padded; or None."""
    from shapely import box, union_all

    from ..scene import bounds

    boxes = []
    for item in items:
        if isinstance(item, Text):
            b = bounds([item])
            if b is not None:
                boxes.append(box(b[0] - KNOCKOUT, b[1] - KNOCKOUT, b[2] + KNOCKOUT, b[3] + KNOCKOUT))
    return union_all(boxes) if boxes else None


def _convert_all(items) -> list[Primitive]:
    clear = _text_boxes(items)
    return [p for item in items for p in _convert(item, clear)]


def _convert(item: Primitive, clear=None) -> list[Primitive]:
    from shapely.geometry import Point
    from shapely.geometry import Polygon as SPolygon

    if isinstance(item, Group):
        return [Group(tuple(_convert_all(item.items)), item.offset, item.scale, item.clip)]
    if isinstance(item, Text):
        return [replace(item, color=DARK_INK) if luminance(item.color) > 0.5 else item]
    style = getattr(item, "style", None)
    if style is None or style.fill is None or style.opacity < 1 or luminance(style.fill) > WHITE:
        return [item]
    color = style.fill
    outline = Style(
        stroke=style.stroke or color,
        width=max(style.width, OUTLINE_WIDTH) if style.stroke else OUTLINE_WIDTH,
        dash=style.dash,
    )
    if isinstance(item, Polygon):
        shape = SPolygon(item.exterior, item.holes).buffer(0)
        out: list[Primitive] = [Polyline(item.exterior, outline, closed=True)]
        out += [Polyline(h, outline, closed=True) for h in item.holes]
    elif isinstance(item, Polyline) and item.closed:
        shape = SPolygon(item.points).buffer(0)
        out = [Polyline(item.points, outline, closed=True)]
    elif isinstance(item, Circle):
        shape = Point(item.center).buffer(item.r, 32)
        out = [Circle(item.center, item.r, outline)]
    else:
        return [item]
    if math.sqrt(max(shape.area, 0)) < 2.5:  # tiny marks: a hatch would not show; keep the outline only
        return out if shape.area > 4 else [item]
    return out + _hatch(shape, color, PALE_SPACING if luminance(color) > PALE else SPACING, clear)


def apply(document: Document) -> Document:
    pages = []
    for page in document.pages:
        new = Page(page.spec, page.title)
        clear = _text_boxes([i for name, layer in page.layers.items() if name not in KEEP_LAYERS for i in layer.items])
        for name, layer in page.layers.items():
            if name in KEEP_LAYERS:
                new.layers[name] = layer
            else:
                new.layers[name] = Layer(name, [p for item in layer.items for p in _convert(item, clear)])
        pages.append(new)
    return Document(pages, document.title, list(document.warnings))
