"""Two-sided pieces on paper: where a back prints so it lands behind its face, the registration test mark, and
cut lines shared between neighbours.

Duplex printing turns the sheet over one of its edges. Seen from the side each page is read on, a point (x, y)
of the back page lies behind the front's point mirrored about that edge's axis:

- ``long`` edge: a portrait page mirrors x (x → W − x); a landscape page mirrors y;
- ``short`` edge: a portrait page mirrors y (y → H − y); a landscape page mirrors x.

Pieces are laid out in the part of the page that stays inside the content box when mirrored, so the back's
pieces never reach into its margins or its print-check band.
"""

from __future__ import annotations

from collections import defaultdict

from ...compose.colour import INK
from ...paper import PageSpec
from ...scene import Circle, Layer, Polyline, Style

Box = tuple[float, float, float, float]
DUPLEX_MODES = ("long", "short", "off")  # off: single-sided fold-over strips
CUT = Style(stroke="#4a4a4a", width=0.25)
FOLD = Style(stroke="#6b6b6b", width=0.25, dash=(2.0, 1.2))


def mirror_axis(spec: PageSpec, mode: str) -> str:
    """``x`` or ``y``: the coordinate a back page mirrors, for this paper and duplex ``mode``."""
    portrait = spec.height >= spec.width
    if mode == "long":
        return "x" if portrait else "y"
    if mode == "short":
        return "y" if portrait else "x"
    raise ValueError(f"no mirror for duplex mode {mode!r}")


def mirror_point(spec: PageSpec, axis: str, p: tuple[float, float]) -> tuple[float, float]:
    x, y = p
    return (spec.width - x, y) if axis == "x" else (x, spec.height - y)


def mirror_box(spec: PageSpec, axis: str, box: Box) -> Box:
    x, y, w, h = box
    if axis == "x":
        return (spec.width - x - w, y, w, h)
    return (x, spec.height - y - h, w, h)


def duplex_region(spec: PageSpec, axis: str) -> Box:
    """The part of the content box whose mirror image is inside the content box too."""
    x, y, w, h = spec.content_box
    mx, my, _, _ = mirror_box(spec, axis, (x, y, w, h))
    x0, y0 = max(x, mx), max(y, my)
    x1, y1 = min(x + w, mx + w), min(y + h, my + h)
    return (x0, y0, x1 - x0, y1 - y0)


# -- registration test mark ------------------------------------------------------------------------------------

RINGS = (0.5, 1.0, 1.5, 2.0)  # mm: the back's rings round the spot behind the front's cross


def registration_front(layer: Layer, p: tuple[float, float]) -> None:
    """A fine cross with a dot: print it, turn the sheet over, look through it at the back's rings."""
    x, y = p
    arm = 4.0
    style = Style(stroke=INK, width=0.15)
    layer.add(Polyline(((x - arm, y), (x + arm, y)), style))
    layer.add(Polyline(((x, y - arm), (x, y + arm)), style))
    layer.add(Circle((x, y), 0.25, Style(stroke=None, fill=INK)))


def registration_back(layer: Layer, p: tuple[float, float]) -> None:
    """Rings 0.5 mm apart round the point behind the front's cross: read off how far the printer shifted."""
    x, y = p
    for r in RINGS:
        layer.add(Circle((x, y), r, Style(stroke=INK, width=0.12)))
    arm = RINGS[-1] + 1.5
    faint = Style(stroke="#888888", width=0.1)
    layer.add(Polyline(((x - arm, y), (x - RINGS[-1], y)), faint))
    layer.add(Polyline(((x + RINGS[-1], y), (x + arm, y)), faint))
    layer.add(Polyline(((x, y - arm), (x, y - RINGS[-1])), faint))
    layer.add(Polyline(((x, y + RINGS[-1]), (x, y + arm)), faint))


# -- cut lines -------------------------------------------------------------------------------------------------


def _merge(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1] + 1e-6:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def shared_cut_lines(boxes: list[Box]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The edges of boxes laid edge to edge, each drawn once: one cut separates two neighbours."""
    horizontal: dict[float, list[tuple[float, float]]] = defaultdict(list)
    vertical: dict[float, list[tuple[float, float]]] = defaultdict(list)
    for x, y, w, h in boxes:
        for yy in (y, y + h):
            horizontal[round(yy, 6)].append((x, x + w))
        for xx in (x, x + w):
            vertical[round(xx, 6)].append((y, y + h))
    lines = []
    for yy in sorted(horizontal):
        lines += [((a, yy), (b, yy)) for a, b in _merge(horizontal[yy])]
    for xx in sorted(vertical):
        lines += [((xx, a), (xx, b)) for a, b in _merge(vertical[xx])]
    return lines
