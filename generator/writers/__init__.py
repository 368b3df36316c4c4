"""Writers turn a :class:`~generator.scene.Document` into files. They know file formats and nothing of games.

One table, :data:`WRITERS`, names every format: its file extension, whether one file holds every page (a PDF) or
each page is a file of its own (SVG, PNG), and the module that renders it. Every writer module has
``render(document, dpi) -> list[bytes]`` (one blob per file). A writer may instead make its files from another
writer's (``derived_from``): the PNG previews are rasterised from the PDF, so what a preview shows is what
prints; such a module also has ``derive(blob, dpi)``. Writer modules are imported on first use, so
``paddock --help`` does not pay for reportlab or Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI reads PREVIEW_DPI for --help: keep this module light
    from ..scene import Document

from .png import PREVIEW_DPI  # the PNG previews' default resolution (why 96: see png.py); png.py is light


@dataclass(frozen=True)
class Writer:
    """One file format."""

    format: str  # what --format says: "pdf"
    extension: str  # the file name's ending, without the dot
    multi_page: bool  # one file holds every page (else a file per page)
    module: str  # the module under generator.writers that renders it
    derived_from: str | None = None  # another format whose bytes this one is made from

    def render(self, document: Document, dpi: float = PREVIEW_DPI) -> list[bytes]:
        """The bytes of the file(s) of ``document``: one for a multi-page format, else one per page."""
        check(document, (self.format,), dpi=dpi)
        return import_module(f".{self.module}", __name__).render(document, dpi=dpi)

    def derive(self, source: bytes, dpi: float = PREVIEW_DPI) -> list[bytes]:
        """This format's files made from the bytes ``source`` of the format it is derived from."""
        return import_module(f".{self.module}", __name__).derive(source, dpi=dpi)

    def file_names(self, stem: str, pages: int) -> list[str]:
        """``stem.pdf``; ``stem.svg`` for one page or ``stem-01.svg``, ``stem-02.svg``… for several."""
        if self.multi_page or pages == 1:
            return [f"{stem}.{self.extension}"]
        digits = max(2, len(str(pages)))
        return [f"{stem}-{i:0{digits}d}.{self.extension}" for i in range(1, pages + 1)]


WRITERS: dict[str, Writer] = {
    w.format: w
    for w in (
        Writer("pdf", "pdf", multi_page=True, module="pdf"),
        Writer("svg", "svg", multi_page=False, module="svg"),
        Writer("png", "png", multi_page=False, module="png", derived_from="pdf"),
    )
}
FORMATS = tuple(WRITERS)


def writer(fmt: str) -> Writer:
    """The writer of format ``fmt``; a ``ValueError`` for one Paddock does not write (a bug: the CLI checks)."""
    try:
        return WRITERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}") from None


def check(document: Document, formats: tuple[str, ...], *, dpi: float = PREVIEW_DPI) -> None:
    """Everything that can refuse a document, before any bytes are made: glyphs, and PNG size at ``dpi``."""
    from ..fonts import check_text
    from ..scene import Text, walk

    for page in document.pages:
        for item in walk(page.items()):
            if isinstance(item, Text):
                check_text(item.text, item.font)
    if "png" in formats:
        from ..units import PT_PER_MM
        from .png import check_pixels

        check_pixels([(p.width * PT_PER_MM, p.height * PT_PER_MM) for p in document.pages], dpi)


def render(document: Document, fmt: str, *, dpi: float = PREVIEW_DPI) -> list[bytes]:
    """Bytes of the file(s) for ``fmt``: one for PDF, one per page for SVG and PNG."""
    return writer(fmt).render(document, dpi=dpi)


def file_names(stem: str, fmt: str, pages: int) -> list[str]:
    return writer(fmt).file_names(stem, pages)


def write(document: Document, path: str | Path, *, dpi: float = PREVIEW_DPI) -> list[Path]:
    """Write ``document`` to ``path``, choosing the writer by extension; returns the files written."""
    from ..outputs import atomic_write

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in WRITERS:
        raise ValueError(f"cannot tell the format of {path.name}: use .pdf, .svg or .png")
    w = WRITERS[fmt]
    blobs = w.render(document, dpi=dpi)
    written = []
    for name, blob in zip(w.file_names(path.stem, len(blobs)), blobs, strict=True):
        target = path.with_name(name)
        atomic_write(target, blob)
        written.append(target)
    return written
