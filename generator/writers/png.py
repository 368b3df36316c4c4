"""PNG preview writer: one image per page, rasterised from the PDF writer's output with PDFium.

Rendering the PDF itself (rather than drawing the scene a second time) guarantees the preview looks like what
prints. Pixel size is the page size at ``dpi``; the PNG records the dpi so viewers can show it at true size.

**Resolution.** The default, :data:`PREVIEW_DPI` = 96, is the CSS reference pixel: a browser or image viewer at
100 % shows a 96-dpi preview at the sheet's true size on a typical screen, an A4 page (794 × 1123 px) or an A3
board (1587 × 1123 px) fits a laptop screen, and a 2 cm lane unit is 76 px. The smallest text Paddock prints
(5 pt) is still a readable 7 px there; the PDF is what prints. ``--dpi`` asks for more (up to
:data:`MAX_PIXELS` a page and :data:`MAX_RUN_PIXELS` for every page of a run together).

**Palette.** A sheet is a few inks on white plus their anti-aliased edges, so each page is quantised to a
256-colour palette (octree, chosen on a quarter of the pixels, then each pixel takes its nearest entry; no
dithering: edges stay crisp and flat fills stay flat) before encoding: the file is a third of the RGB one and
encodes three times faster, and looks the same (mean difference under 1.5 % of full scale, paper exactly white:
the octree's near-white bucket is set back to the paper's white).
"""

from __future__ import annotations

import io
import threading
from typing import TYPE_CHECKING

from ..errors import InputError
from ..units import PT_PER_MM

if TYPE_CHECKING:
    from ..scene import Document

PREVIEW_DPI = 96.0  # the default resolution: see above

#: The most pixels one PNG page may have (A3 at 400 dpi is 31 million): bounds memory (~10 bytes a pixel while
#: rendering, quantising and encoding) to well under a gigabyte.
MAX_PIXELS = 40_000_000
#: The most pixels of previews one run makes, every page together: time grows with them (~15 ns a pixel to
#: rasterise, quantise and encode), so a run stays within seconds — the Monaco! pack (32 pages) up to ~310 dpi,
#: the other packs up to ~500 dpi. Past this, ``--dpi`` is refused (the PDF, not the preview, is what prints).
MAX_RUN_PIXELS = 300_000_000
COLOURS = 256
COMPRESS_LEVEL = 3  # zlib level: 6 saves a fifth of the bytes for twice the encoding time

#: PDFium is not thread-safe: previews are rasterised on worker threads (see :func:`generator.pipeline.publish`),
#: and this lock keeps two of them from calling it together (Pillow's part, :func:`encode`, needs no lock).
_PDFIUM = threading.Lock()


def render(document: Document, dpi: float = PREVIEW_DPI) -> list[bytes]:
    """Each page of ``document`` as a PNG at ``dpi``, rasterised from its PDF."""
    from . import pdf

    check_pixels([(p.width * PT_PER_MM, p.height * PT_PER_MM) for p in document.pages], dpi)
    (pdf_bytes,) = pdf.render(document)
    return derive(pdf_bytes, dpi)


def pixels(size_pt: tuple[float, float], dpi: float) -> tuple[int, int]:
    """Width and height in pixels of a page of ``size_pt`` points at ``dpi`` (as PDFium rounds them)."""
    return round(size_pt[0] * dpi / 72), round(size_pt[1] * dpi / 72)


def check_pixels(sizes_pt, dpi: float) -> None:
    """Refuse, before anything is drawn, previews of more than :data:`MAX_PIXELS` a page or
    :data:`MAX_RUN_PIXELS` in all (``sizes_pt``: every page of the run); say which dpi fits."""
    sizes = list(sizes_pt)
    for size in sizes:
        w, h = pixels(size, dpi)
        if w * h > MAX_PIXELS:
            most = int(72 * (MAX_PIXELS / (size[0] * size[1])) ** 0.5)
            raise InputError(
                f"a PNG of this {size[0] / PT_PER_MM:.0f} × {size[1] / PT_PER_MM:.0f} mm page at {dpi:g} dpi would be "
                f"{w:,} × {h:,} pixels; Paddock makes PNGs of at most {MAX_PIXELS // 1_000_000} million pixels",
                field="--dpi",
                hint=f"use --dpi {most} or less (the PDF is what prints), or leave png out of --format",
            )
    total = sum(w * h for w, h in (pixels(size, dpi) for size in sizes))
    if total > MAX_RUN_PIXELS:
        area = sum(a * b for a, b in sizes)
        most = int(72 * (MAX_RUN_PIXELS / area) ** 0.5)
        raise InputError(
            f"the PNG previews of these {len(sizes)} pages at {dpi:g} dpi would be {total / 1e6:,.0f} million pixels; "
            f"Paddock makes at most {MAX_RUN_PIXELS // 1_000_000} million pixels of previews a run",
            field="--dpi",
            hint=f"use --dpi {most} or less (the PDF is what prints), or leave png out of --format",
        )


def _palette(image):
    """``image`` on a 256-colour palette, the paper kept exactly white."""
    from PIL import Image

    # The palette is chosen on a quarter of the pixels (every other pixel of every other row: the inks and their
    # edges are all there, in their own proportions) and every pixel then takes its nearest entry. On the
    # packs' 19 pages against the full-colour render: mean difference 0.52 % (0.54 % when chosen on the page
    # averaged down to half size, as before), no pixel off by more than a quarter of full scale, and 40 % less
    # time than the averaging (which read every pixel to make the half-size page).
    sample = image.resize((image.width // 2, image.height // 2), Image.Resampling.NEAREST)
    chosen = sample.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    q = image.quantize(palette=chosen, dither=Image.Dither.NONE)
    paper = q.getpixel((0, 0))  # a corner lies in the unprintable edge: paper
    palette = q.getpalette()
    if min(palette[3 * paper : 3 * paper + 3]) >= 244:
        palette[3 * paper : 3 * paper + 3] = [255, 255, 255]
        q.putpalette(palette)
    return q


def derive(pdf_bytes: bytes, dpi: float = PREVIEW_DPI) -> list[bytes]:
    """Each page of a PDF (Paddock's own) as palette PNG bytes at ``dpi``."""
    return [encode(image, dpi) for image in pixmaps(pdf_bytes, dpi)]


def encode(image, dpi: float = PREVIEW_DPI) -> bytes:
    """One page's RGB pixels (from :func:`pixmaps`) as palette PNG bytes. Pillow only, no PDFium: previews of
    several pages may be encoded on several threads at once (Pillow's quantiser and zlib release Python's lock)."""
    image = _palette(image)
    buf = _Named()
    image.save(buf, dpi=(dpi, dpi), compress_level=COMPRESS_LEVEL)
    return buf.getvalue()


class _Named(io.BytesIO):
    """Bytes in memory that Pillow takes for a ``.png`` file: it then loads its PNG writer alone. Told the format
    instead, it first loads the writers of BMP, GIF, JPEG and PPM as well (~16 ms, once in every process that
    makes a preview). Pillow reads the name only for its extension; a PNG records no file name."""

    name = "preview.png"


def pixmaps(pdf_bytes: bytes, dpi: float = PREVIEW_DPI) -> list:
    """Each page of a PDF rasterised by PDFium at ``dpi``: RGB Pillow images, paper white."""
    with _PDFIUM:
        return _pixmaps(pdf_bytes, dpi)


def _pixmaps(pdf_bytes: bytes, dpi: float) -> list:
    import pypdfium2

    doc = pypdfium2.PdfDocument(pdf_bytes)
    out = []
    try:
        for page in doc:
            try:
                check_pixels([page.get_size()], dpi)
                # RGBx (four bytes a pixel, byte order reversed) on white: Pillow keeps RGB as four bytes a pixel
                bitmap = page.render(scale=dpi / 72, rev_byteorder=True, prefer_bgrx=True, draw_annots=True)
                out.append(bitmap.to_pil().convert("RGB"))
            finally:
                page.close()
    finally:
        doc.close()
    return out
