"""From composed sheets to files: print check, ink saver, tiling, rendering, one all-or-nothing write.

This is the library entry point the CLI uses; code can call :func:`publish` the same way.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .paper import Paper
from .scene import DEFAULT_EDGE, Document, Page

ALL_FORMATS = ("pdf", "svg", "png")


class LayoutWarning(UserWarning):
    """Something drew, but not as well as it should (text shrunk below its floor, …)."""


def warn(message: str) -> None:
    warnings.warn(LayoutWarning(message), stacklevel=2)


@dataclass
class Sheet:
    """One composed sheet: ``name`` is its file stem, ``page`` its scene."""

    name: str
    page: Page


@dataclass
class OutputOptions:
    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf", "png")
    paper: Paper | None = None  # a composer's default paper when None
    tile_onto: Paper | None = None
    ink_saver: bool = False
    dpi: float = 150.0
    edge: float = DEFAULT_EDGE
    overlap: float = 12.0
    quiet: bool = False
    extra: dict = field(default_factory=dict)


def fits_on(page: Page, paper: Paper) -> bool:
    w, h = page.width, page.height
    return (w <= paper.width + 1e-6 and h <= paper.height + 1e-6) or (
        w <= paper.height + 1e-6 and h <= paper.width + 1e-6
    )


def check_clear_of_edge(sheet: Sheet) -> None:
    """Warn when a sheet draws into the printer's unprintable edge: a home printer would cut it off."""
    from .scene import bounds

    box = bounds(sheet.page.items())
    if box is None:
        return
    e = sheet.page.edge
    w, h = sheet.page.width, sheet.page.height
    worst = max(e - box[0], e - box[1], box[2] - (w - e), box[3] - (h - e))
    if worst > 0.05:
        warn(
            f"sheet '{sheet.name}' draws {worst:.1f} mm into the {e:g} mm unprintable edge; "
            "a home printer may cut it off (use larger paper, --tile-onto, or a smaller --edge)"
        )


def prepare(sheet: Sheet, options: OutputOptions) -> list[Page]:
    """The printable pages of one sheet: print check added, tiled if asked, ink saver applied."""
    from .compose import inksaver
    from .compose.printcheck import add_print_check
    from .compose.tiling import tile_pages

    page = sheet.page
    check_clear_of_edge(sheet)
    add_print_check(page)
    pages = [page]
    if options.tile_onto is not None and not fits_on(page, options.tile_onto):
        pages = tile_pages(page, options.tile_onto, edge=options.edge, overlap=options.overlap)
        for p in pages:
            add_print_check(p)
    if options.ink_saver:
        pages = inksaver.apply(Document(pages)).pages
    return pages


def publish(
    sheets: Sequence[Sheet],
    options: OutputOptions,
    folder: str = "",
    merged: str | None = None,
    title: str = "Paddock",
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Render every sheet in every format (and a merged PDF of all of them), then write all files at once.

    Nothing is written unless everything rendered: a failure half-way leaves earlier output untouched.
    """
    from . import writers
    from .safeio import OutputSet, safe_name

    outputs = OutputSet(options.out)
    prefix = (safe_name(folder) + "/") if folder else ""
    everything: list[Page] = []
    for sheet in sheets:
        pages = prepare(sheet, options)
        everything.extend(pages)
        doc = Document(pages, sheet.page.title or title)
        stem = safe_name(sheet.name)
        for fmt, blobs in writers.render_all(doc, options.formats, dpi=options.dpi).items():
            for name, blob in zip(writers.file_names(stem, fmt, len(blobs)), blobs, strict=True):
                outputs.add(prefix + name, blob)
        if progress:
            progress(sheet.name)
    if merged and len(sheets) > 1:
        (blob,) = writers.render(Document(everything, title), "pdf")
        outputs.add(prefix + safe_name(merged) + ".pdf", blob)
    return outputs.commit()
