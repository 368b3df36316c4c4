"""Writers turn a :class:`~generator.scene.Document` into files. They know file formats and nothing of games.

``render(document, fmt)`` returns the bytes of each file (one PDF for all pages; one SVG or PNG per page);
``write(document, path)`` picks the writer from the path's extension. Writer modules are imported lazily so
that ``paddock --help`` does not pay for reportlab or Pillow.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI reads PREVIEW_DPI for --help: keep this module light
    from ..scene import Document

from .png import PREVIEW_DPI  # the PNG previews' default resolution (why 96: see png.py); png.py is light

FORMATS = {"pdf": "pdf", "svg": "svg", "png": "png"}
MULTI_PAGE = {"pdf"}  # formats that hold several pages in one file


def check_document(document: Document) -> None:
    """Refuse a document with a string the font cannot draw, before any writer starts."""
    from ..fonts import check_text
    from ..scene import Text, walk

    for page in document.pages:
        for item in walk(page.items()):
            if isinstance(item, Text):
                check_text(item.text, item.font)


def check(document: Document, formats: tuple[str, ...], *, dpi: float = PREVIEW_DPI) -> None:
    """Everything that can refuse a document, before any bytes are made: glyphs, and PNG size at ``dpi``."""
    check_document(document)
    if "png" in formats:
        from ..units import PT_PER_MM
        from .png import check_pixels

        check_pixels([(p.width * PT_PER_MM, p.height * PT_PER_MM) for p in document.pages], dpi)


def render(document: Document, fmt: str, *, dpi: float = PREVIEW_DPI) -> list[bytes]:
    """Bytes of the file(s) for ``fmt``: one for PDF, one per page for SVG and PNG."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    check(document, (fmt,), dpi=dpi)
    module = import_module(f".{FORMATS[fmt]}", __name__)
    if fmt == "png":
        return module.render(document, dpi=dpi)
    return module.render(document)


def render_all(
    document: Document,
    formats: tuple[str, ...],
    *,
    dpi: float = PREVIEW_DPI,
    glyphs: dict | None = None,
    checked: bool = False,
) -> dict[str, list[bytes]]:
    """Bytes for several formats at once; the PNG preview is rasterised from the PDF rather than drawn twice.

    ``glyphs`` (font → characters of a whole run) makes every PDF of the run share its font subsets (see
    :mod:`.pdf`); ``checked`` skips :func:`check` when the caller has already run it."""
    if not checked:
        check(document, formats, dpi=dpi)
    out: dict[str, list[bytes]] = {}
    pdf_bytes = None
    for fmt in formats:
        if fmt in ("pdf", "png") and pdf_bytes is None:
            (pdf_bytes,) = import_module(".pdf", __name__).render(document, glyphs)
        if fmt == "pdf":
            out[fmt] = [pdf_bytes]
        elif fmt == "png":
            out[fmt] = rasterise(pdf_bytes, dpi=dpi)
        elif fmt in FORMATS:
            out[fmt] = import_module(f".{FORMATS[fmt]}", __name__).render(document)
        else:
            raise ValueError(f"unknown format {fmt!r}")
    return out


def rasterise(pdf_bytes: bytes, dpi: float = PREVIEW_DPI) -> list[bytes]:
    """PNG previews of each page of a PDF that :func:`render_all` made (what its ``png`` entry holds)."""
    return import_module(".png", __name__).rasterise(pdf_bytes, dpi=dpi)


def merge_pdfs(pdfs: list[bytes], title: str) -> bytes:
    """One PDF of the pages of ``pdfs`` (written by :func:`render_all` with the same ``glyphs``), fonts shared."""
    from .pdfmerge import merge

    return merge(pdfs, title)


def file_names(stem: str, fmt: str, pages: int) -> list[str]:
    """``stem.pdf``; ``stem.svg`` for one page or ``stem-01.svg``, ``stem-02.svg``… for several."""
    if fmt in MULTI_PAGE or pages == 1:
        return [f"{stem}.{fmt}"]
    digits = max(2, len(str(pages)))
    return [f"{stem}-{i:0{digits}d}.{fmt}" for i in range(1, pages + 1)]


def write(document: Document, path: str | Path, *, dpi: float = PREVIEW_DPI) -> list[Path]:
    """Write ``document`` to ``path``, choosing the writer by extension; returns the files written."""
    from ..safeio import atomic_write

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"cannot tell the format of {path.name}: use .pdf, .svg or .png")
    blobs = render(document, fmt, dpi=dpi)
    names = file_names(path.stem, fmt, len(blobs))
    written = []
    for name, blob in zip(names, blobs, strict=True):
        target = path.with_name(name)
        atomic_write(target, blob)
        written.append(target)
    return written
