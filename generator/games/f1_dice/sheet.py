"""What every f1-dice sheet shares: its layer stack and the box it fills."""

from __future__ import annotations

from ...paper import PageSpec
from ...scene import Page

# Bottom to top: shading never hides text.
LAYERS = ("shade", "grid", "swatch", "boxes", "rules", "text")


def new_page(spec: PageSpec, title: str) -> Page:
    page = Page(spec, title)
    for name in LAYERS:
        page.layer(name)
    return page


def inner(page: Page) -> tuple[float, float, float, float]:
    """The content box less a hair, so strokes on its edge stay inside it."""
    x, y, w, h = page.content_box
    return (x + 0.3, y + 0.3, w - 0.6, h - 0.6)
