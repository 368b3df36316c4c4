"""Free paper for labels: a box on the page less what is blocked (a drawing labels must keep off, as one shapely
geometry) and less every label placed so far.

One :class:`FreeSpace` follows a page through everyone who labels it: the circuit board creates it with the
track's footprint blocked and takes what it places; a game overlay drawn on top (the Formula D corner flags)
is handed the same object and places its labels in what is left, without re-deriving the board's drawing.
"""

from __future__ import annotations

import math

import numpy as np

Box = tuple[float, float, float, float]  # x, y, w, h (mm, y down)


class FreeSpace:
    """Where labels may go: inside ``box``, off ``blocked``, clear of everything :meth:`take` was given."""

    def __init__(self, box: Box, blocked=None) -> None:
        from shapely import box as sbox
        from shapely import prepare

        x, y, w, h = box
        self.box = sbox(x, y, x + w, y + h)
        self.blocked = blocked
        if blocked is not None:
            prepare(blocked)
        self.taken: list = []

    def open(self, geom) -> bool:
        """Inside the box and off what is blocked (labels already placed are not looked at)."""
        return self.box.contains(geom) and (self.blocked is None or not self.blocked.contains(geom))

    def free(self, geom) -> bool:
        """``geom`` (a shapely geometry) lies in the box, off what is blocked and clear of every label taken."""
        if not self.box.contains(geom) or (self.blocked is not None and self.blocked.intersects(geom)):
            return False
        return not any(t.intersects(geom) for t in self.taken)

    def take(self, geom) -> None:
        """Mark ``geom`` as used: no later label goes there."""
        self.taken.append(geom)

    def find(self, w: float, h: float, prefer: list[tuple[float, float]], step: float = 6.0):
        """Top-left corner of a free ``w`` × ``h`` box: the ``prefer`` spots first, then a scan of the box every
        ``step`` mm, nearest to them first. None if there is none. (The box is not taken.)"""
        from shapely import box

        x0, y0, x1, y1 = self.box.bounds
        for px, py in prefer:
            if self.free(box(px, py, px + w, py + h)):
                return px, py
        xs = np.arange(x0, x1 - w + 1e-6, step)
        ys = np.arange(y0, y1 - h + 1e-6, step)
        if len(xs) == 0 or len(ys) == 0:
            return None
        gx, gy = np.meshgrid(xs, ys)
        cand = np.column_stack((gx.ravel(), gy.ravel()))
        pref = np.asarray(prefer)
        dist = np.min(np.linalg.norm(cand[:, None, :] - pref[None, :, :], axis=2), axis=1)
        for i in np.argsort(dist, kind="stable"):
            px, py = cand[i]
            if self.free(box(px, py, px + w, py + h)):
                return float(px), float(py)
        return None


def text_box(text: str, x: float, y: float, size: float, font: str, anchor="middle", pad=0.6, rotation=0.0):
    """The paper a middle-aligned label covers (the font's full ascent and descent, ``pad`` mm round it), turned
    ``rotation``° about its anchor, as a shapely polygon."""
    from shapely import Polygon

    from ..fonts import anchor_shift, ascent, baseline_drop, descent, text_width

    w = text_width(text, size, font)
    x0 = -anchor_shift(text, anchor, size, font) - pad
    base = baseline_drop("middle", size, font)
    top, bottom = base - ascent(size, font) - pad, base + descent(size, font) + pad
    r = math.radians(rotation)
    cs, sn = math.cos(r), math.sin(r)
    corners = [(x0, top), (x0 + w + 2 * pad, top), (x0 + w + 2 * pad, bottom), (x0, bottom)]
    return Polygon([(x + px * cs - py * sn, y + px * sn + py * cs) for px, py in corners])
