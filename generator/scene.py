"""The drawing model: pages of named layers of primitives, all in millimetres.

Coordinates: origin at the page's top-left corner, x to the right, y downwards (as on the printed sheet and in
SVG). Angles are in degrees, measured from +x towards +y, so a positive angle turns clockwise on the page.
Font sizes are the em size in mm (use :func:`generator.units.pt_to_mm` to think in points).

Composers build these objects; writers (``generator.writers``) turn them into files. Nothing here knows a file
format, and nothing here knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from .fonts import anchor_shift, ascent, baseline_drop, descent, text_width
from .paper import DEFAULT_EDGE, FOOTER_BAND, PageSpec, Paper  # noqa: F401  (re-exported for composers)

Point = tuple[float, float]
Color = str  # "#rrggbb"

BLACK = "#000000"
WHITE = "#ffffff"


@dataclass(frozen=True)
class Style:
    """How a primitive is stroked and filled. ``None`` means no stroke / no fill. Widths and dashes in mm."""

    stroke: Color | None = BLACK
    width: float = 0.25
    fill: Color | None = None
    dash: tuple[float, ...] | None = None
    cap: Literal["butt", "round", "square"] = "butt"
    join: Literal["miter", "round", "bevel"] = "miter"
    opacity: float = 1.0

    def with_(self, **changes) -> Style:
        return replace(self, **changes)


def stroke(color: Color = BLACK, width: float = 0.25, dash: tuple[float, ...] | None = None, **kw) -> Style:
    return Style(stroke=color, width=width, fill=None, dash=dash, **kw)


def fill(color: Color, outline: Color | None = None, width: float = 0.25, **kw) -> Style:
    return Style(stroke=outline, width=width, fill=color, **kw)


@dataclass(frozen=True)
class Polyline:
    points: tuple[Point, ...]
    style: Style = Style()
    closed: bool = False


@dataclass(frozen=True)
class Polygon:
    """A filled area with optional holes (even-odd). Rings need not repeat their first point."""

    exterior: tuple[Point, ...]
    holes: tuple[tuple[Point, ...], ...] = ()
    style: Style = Style(stroke=None, fill=BLACK)


@dataclass(frozen=True)
class Circle:
    center: Point
    r: float
    style: Style = Style()


@dataclass(frozen=True)
class Arc:
    """Part of a circle from ``start`` sweeping ``sweep`` degrees (positive = clockwise on the page)."""

    center: Point
    r: float
    start: float
    sweep: float
    style: Style = Style()


ANCHORS = ("start", "middle", "end")
VALIGNS = ("baseline", "middle", "top", "bottom")


@dataclass(frozen=True)
class Text:
    """One line of text. ``(x, y)`` is the anchor point; ``rotation`` turns the text about it (clockwise)."""

    text: str
    x: float
    y: float
    size: float = 3.5
    font: str = "regular"  # a key of generator.fonts.FONTS
    color: Color = BLACK
    anchor: str = "start"
    valign: str = "baseline"
    rotation: float = 0.0

    def __post_init__(self) -> None:
        if self.anchor not in ANCHORS:
            raise ValueError(f"anchor must be one of {ANCHORS}")
        if self.valign not in VALIGNS:
            raise ValueError(f"valign must be one of {VALIGNS}")


@dataclass(frozen=True)
class Group:
    """Other primitives seen through a transform: ``page = offset + scale * local``, optionally clipped.

    ``clip`` is a rectangle ``(x, y, w, h)`` in page coordinates. Tiling and assembly pages use groups to show
    a window onto another page without copying its geometry.
    """

    items: tuple[Primitive, ...]
    offset: Point = (0.0, 0.0)
    scale: float = 1.0
    clip: tuple[float, float, float, float] | None = None


Primitive = Polyline | Polygon | Circle | Arc | Text | Group


@dataclass
class Layer:
    name: str
    items: list[Primitive] = field(default_factory=list)

    def add(self, *items: Primitive) -> None:
        self.items.extend(items)

    def extend(self, items: Iterable[Primitive]) -> None:
        self.items.extend(items)


@dataclass
class Page:
    """One sheet of paper: its page spec (paper, unprintable edge, footer band), a title for the footer and
    ordered layers."""

    spec: PageSpec
    title: str = ""
    layers: dict[str, Layer] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.spec, PageSpec):
            raise TypeError("Page needs a PageSpec (paper, edge): page settings are passed explicitly")

    @property
    def paper(self) -> Paper:
        return self.spec.paper

    @property
    def edge(self) -> float:
        return self.spec.edge

    @property
    def width(self) -> float:
        return self.spec.width

    @property
    def height(self) -> float:
        return self.spec.height

    def layer(self, name: str) -> Layer:
        """The layer called ``name``, created on top of the others if new."""
        if name not in self.layers:
            self.layers[name] = Layer(name)
        return self.layers[name]

    def add(self, layer: str, *items: Primitive) -> None:
        self.layer(layer).add(*items)

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) inside the unprintable edge."""
        return self.spec.printable

    @property
    def content_box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) a composer may fill: the printable area less the print-check band at the bottom."""
        return self.spec.content_box

    def items(self) -> Iterator[Primitive]:
        for layer in self.layers.values():
            yield from layer.items


@dataclass
class Document:
    """Pages that print together, plus warnings gathered while composing them (e.g. text that would not fit)."""

    pages: list[Page] = field(default_factory=list)
    title: str = "Paddock"
    warnings: list[str] = field(default_factory=list)

    def add(self, page: Page) -> Page:
        self.pages.append(page)
        return page


#: Where a sheet must fall when the merged print PDF is printed double-sided (see :class:`Sheet`).
Side = Literal["front", "alone"] | None
SIDES: tuple[Side, ...] = (None, "front", "alone")


@dataclass
class Sheet:
    """One composed sheet: ``name`` is its file stem, ``page`` its scene.

    ``side`` says where it must fall when the merged print PDF is printed double-sided: None, on either side of
    a sheet of paper; ``front``, on a front (the next page being its back: a pair made to print back to back);
    ``alone``, on a front with nothing on its back (a sheet of pieces to cut out). The merged PDF puts blank
    pages in where they are needed (:func:`generator.pipeline.print_order`)."""

    name: str
    page: Page
    side: Side = None


def numbered(stem: str, pages: Sequence[Page]) -> list[Sheet]:
    """One sheet per page: ``stem`` alone for one page, ``stem-1``, ``stem-2``… for several."""
    return [Sheet(stem + (f"-{i + 1}" if len(pages) > 1 else ""), p) for i, p in enumerate(pages)]


def bounds(items: Iterable[Primitive]) -> tuple[float, float, float, float] | None:
    """(min x, min y, max x, max y) of everything drawn, in page mm (stroke widths and text boxes included)."""
    box = [float("inf"), float("inf"), float("-inf"), float("-inf")]

    def grow(x0: float, y0: float, x1: float, y1: float) -> None:
        box[0], box[1] = min(box[0], x0), min(box[1], y0)
        box[2], box[3] = max(box[2], x1), max(box[3], y1)

    def visit(item: Primitive, dx: float, dy: float, k: float) -> None:
        if isinstance(item, Group):
            if item.clip is not None:  # a clipped group never draws outside its clip (an over-estimate)
                x, y, w, h = item.clip
                grow(dx + k * x, dy + k * y, dx + k * (x + w), dy + k * (y + h))
                return
            for child in item.items:
                visit(child, dx + k * item.offset[0], dy + k * item.offset[1], k * item.scale)
            return
        if isinstance(item, Text):
            x = item.x - anchor_shift(item.text, item.anchor, item.size, item.font)
            base = item.y + baseline_drop(item.valign, item.size, item.font)
            w = text_width(item.text, item.size, item.font)
            top, bottom = base - ascent(item.size, item.font), base + descent(item.size, item.font)
            pts = [(x, top), (x + w, top), (x + w, bottom), (x, bottom)]
            pad = 0.0
            if item.rotation:
                c, s_ = math.cos(math.radians(item.rotation)), math.sin(math.radians(item.rotation))
                pts = [
                    (item.x + (px - item.x) * c - (py - item.y) * s_, item.y + (px - item.x) * s_ + (py - item.y) * c)
                    for px, py in pts
                ]
        else:
            style = item.style
            pad = style.width / 2 if style.stroke else 0.0
            if isinstance(item, Polyline):
                pts = item.points
            elif isinstance(item, Polygon):
                pts = item.exterior
            else:  # Circle, Arc (the whole circle: a safe over-estimate)
                cx, cy = item.center
                pts = [(cx - item.r, cy - item.r), (cx + item.r, cy + item.r)]
            if k > 0:
                # x -> dx + k·x keeps the order of the numbers (rounding included): the extremes of the moved
                # points are the moved extremes, found without moving every point
                xs, ys = zip(*pts, strict=True)
                lo_x, lo_y, hi_x, hi_y = min(xs), min(ys), max(xs), max(ys)
                grow(dx + k * lo_x - pad * k, dy + k * lo_y - pad * k, dx + k * hi_x + pad * k, dy + k * hi_y + pad * k)
                return
        xs = [dx + k * p[0] for p in pts]
        ys = [dy + k * p[1] for p in pts]
        grow(min(xs) - pad * k, min(ys) - pad * k, max(xs) + pad * k, max(ys) + pad * k)

    for item in items:
        visit(item, 0.0, 0.0, 1.0)
    return None if box[0] == float("inf") else (box[0], box[1], box[2], box[3])


def walk(items: Iterable[Primitive]) -> Iterator[Primitive]:
    """Every primitive, descending into groups."""
    for item in items:
        if isinstance(item, Group):
            yield from walk(item.items)
        else:
            yield item


def rect(x: float, y: float, w: float, h: float, style: Style = Style()) -> Polyline | Polygon:
    """An axis-aligned rectangle: a closed polyline, or a polygon when the style fills."""
    pts = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    if style.fill is not None:
        return Polygon(pts, (), style)
    return Polyline(pts, style, closed=True)


def polyline(points: Sequence[Sequence[float]], style: Style = Style(), closed: bool = False) -> Polyline:
    return Polyline(tuple((float(x), float(y)) for x, y in points), style, closed)
