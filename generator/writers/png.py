"""PNG preview writer: one image per page, rasterised from the PDF writer's output with PDFium.

Rendering the PDF itself (rather than drawing the scene a second time) guarantees the preview looks like what
prints. Pixel size is the page size at ``dpi``; the PNG records the dpi so viewers can show it at true size.

**Resolution.** The default, :data:`PREVIEW_DPI` = 96, is the CSS reference pixel: a browser or image viewer at
100 % shows a 96-dpi preview at the sheet's true size on a typical screen, an A4 page (794 × 1123 px) or an A3
board (1587 × 1123 px) fits a laptop screen, and a 2 cm lane unit is 76 px. The smallest text Paddock prints
(5 pt) is still a readable 7 px there; the PDF is what prints. ``--dpi`` asks for more (up to
:data:`MAX_PIXELS` per page).

**Palette.** A sheet is a few inks on white plus their anti-aliased edges, so each page is quantised to a
256-colour palette (octree, chosen on a quarter of the pixels, then each pixel takes its nearest entry; no
dithering: edges stay crisp and flat fills stay flat) before encoding: the file is a third of the RGB one and
encodes three times faster, and looks the same (mean difference under 1.5 % of full scale, paper exactly white:
the octree's near-white bucket is set back to the paper's white).
"""

from __future__ import annotations

import io
import math
import threading
from functools import cache
from typing import TYPE_CHECKING

from ..errors import InputError
from ..units import PT_PER_MM

if TYPE_CHECKING:
    from ..scene import Document

PREVIEW_DPI = 96.0  # the default resolution: see above

#: The most pixels one PNG page may have (A3 at 400 dpi is 31 million): bounds memory (~10 bytes a pixel while
#: rendering, quantising and encoding) to well under a gigabyte.
MAX_PIXELS = 40_000_000
COLOURS = 256
COMPRESS_LEVEL = 3  # zlib level: 6 saves a fifth of the bytes for twice the encoding time

#: PDFium is not thread-safe: previews are rasterised on worker threads (see :func:`generator.pipeline.publish`),
#: and this lock keeps two of them from calling it together (Pillow's part, :func:`encode`, needs no lock).
_PDFIUM = threading.Lock()


def render(document: Document, dpi: float = PREVIEW_DPI) -> list[bytes]:
    from . import pdf

    check_pixels([(p.width * PT_PER_MM, p.height * PT_PER_MM) for p in document.pages], dpi)
    (pdf_bytes,) = pdf.render(document)
    return rasterise(pdf_bytes, dpi)


def pixels(size_pt: tuple[float, float], dpi: float) -> tuple[int, int]:
    """Width and height in pixels of a page of ``size_pt`` points at ``dpi`` (as PDFium rounds them)."""
    return round(size_pt[0] * dpi / 72), round(size_pt[1] * dpi / 72)


def check_pixels(sizes_pt, dpi: float) -> None:
    """Refuse, before anything is drawn, a page whose PNG would exceed :data:`MAX_PIXELS`; say which dpi fits."""
    for size in sizes_pt:
        w, h = pixels(size, dpi)
        if w * h > MAX_PIXELS:
            most = int(72 * (MAX_PIXELS / (size[0] * size[1])) ** 0.5)
            raise InputError(
                f"a PNG of this {size[0] / PT_PER_MM:.0f} × {size[1] / PT_PER_MM:.0f} mm page at {dpi:g} dpi would be "
                f"{w:,} × {h:,} pixels; Paddock makes PNGs of at most {MAX_PIXELS // 1_000_000} million pixels",
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


def rasterise(pdf_bytes: bytes, dpi: float = PREVIEW_DPI) -> list[bytes]:
    """Each page of a PDF as palette PNG bytes at ``dpi``."""
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


@cache
def _pdfium():
    """PDFium, initialised once per process, through the dozen calls a preview needs: declared here on the library
    pypdfium2 installs (its generated bindings declare ~1,500 and cost ~15 ms to import on every run, on the
    preview worker, holding Python's lock against the drawing thread). A library not where pypdfium2 puts its own
    (a build against a system PDFium) is reached through pypdfium2's bindings instead. (PDFium ignores a second
    initialisation, so pypdfium2 imported as well — the tests read PDFs with it — is fine.)"""
    try:
        return _Pdfium(_library_file())
    except (OSError, AttributeError):  # no library there, or one without a call declared below
        import pypdfium2_raw as raw

        raw.FPDF_InitLibrary()
        return raw


def _library_file() -> str:
    import os
    import sys
    from importlib.util import find_spec

    spec = find_spec("pypdfium2_raw")
    if spec is None or not spec.submodule_search_locations:
        raise OSError("pypdfium2_raw is not installed")
    name = {"win32": "pdfium.dll", "darwin": "libpdfium.dylib"}.get(sys.platform, "libpdfium.so")
    return os.path.join(next(iter(spec.submodule_search_locations)), name)


#: The PDFium calls that take long enough to let go of Python's lock while they run. The others (a page's size,
#: freeing a bitmap …) take microseconds: letting go and taking the lock back beside the busy drawing thread
#: (see publish) cost a preview worker up to a millisecond each, a dozen times a page. Held, the previews made
#: beside the PDFs are twice as many and the wait after the last PDF ~30 % shorter (same pixels).
_LONG_CALLS = {"FPDF_RenderPageBitmap", "FPDF_LoadMemDocument64", "FPDF_LoadPage"}


class _Pdfium:
    """The PDFium calls :func:`_pixmaps` makes, with their C signatures (fpdfview.h); handles are plain pointers."""

    FPDF_ANNOT = 0x01
    FPDF_REVERSE_BYTE_ORDER = 0x10
    FPDFBitmap_BGRx = 3

    def __init__(self, path: str) -> None:
        import ctypes
        from ctypes import c_float, c_int, c_size_t, c_ulong, c_void_p

        lib = ctypes.CDLL(path)
        held = ctypes.PyDLL(path)  # the same library, its calls made without letting go of Python's lock
        signatures = {
            "FPDF_InitLibrary": ((), None),
            "FPDF_LoadMemDocument64": ((c_void_p, c_size_t, c_void_p), c_void_p),
            "FPDF_GetLastError": ((), c_ulong),
            "FPDF_GetPageCount": ((c_void_p,), c_int),
            "FPDF_LoadPage": ((c_void_p, c_int), c_void_p),
            "FPDF_GetPageWidthF": ((c_void_p,), c_float),
            "FPDF_GetPageHeightF": ((c_void_p,), c_float),
            "FPDFBitmap_CreateEx": ((c_int, c_int, c_int, c_void_p, c_int), c_void_p),
            "FPDF_RenderPageBitmap": ((c_void_p, c_void_p, c_int, c_int, c_int, c_int, c_int, c_int), None),
            "FPDFBitmap_Destroy": ((c_void_p,), None),
            "FPDF_ClosePage": ((c_void_p,), None),
            "FPDF_CloseDocument": ((c_void_p,), None),
        }
        for name, (argtypes, restype) in signatures.items():
            fn = getattr(lib if name in _LONG_CALLS else held, name)  # AttributeError on a PDFium without it
            fn.argtypes, fn.restype = argtypes, restype
            setattr(self, name, fn)
        self.FPDF_InitLibrary()


def _pixmaps(pdf_bytes: bytes, dpi: float) -> list:
    # Few calls into PDFium: the thread takes Python's lock back after each one, and beside a busy drawing thread
    # that wait, not PDFium, was most of a preview's time (see publish).
    import ctypes

    from PIL import Image

    raw = _pdfium()
    scale = dpi / 72
    doc = raw.FPDF_LoadMemDocument64(pdf_bytes, len(pdf_bytes), None)
    if not doc:
        raise ValueError(f"PDFium cannot read this PDF (error {raw.FPDF_GetLastError()})")
    out = []
    try:
        for i in range(raw.FPDF_GetPageCount(doc)):
            page = raw.FPDF_LoadPage(doc, i)
            try:
                size = (raw.FPDF_GetPageWidthF(page), raw.FPDF_GetPageHeightF(page))
                check_pixels([size], dpi)
                width, height = math.ceil(size[0] * scale), math.ceil(size[1] * scale)
                # four bytes a pixel in RGBX order (BGRx, byte order reversed), paper white before PDFium draws
                # on it: Pillow keeps RGB as four bytes a pixel, so it takes these rows nearly as they are (the
                # same pixels as three-byte BGR, a third less time to render and hand over)
                stride = 4 * width
                pixels = bytearray(b"\xff") * (stride * height)
                buffer = (ctypes.c_ubyte * len(pixels)).from_buffer(pixels)
                bitmap = raw.FPDFBitmap_CreateEx(width, height, raw.FPDFBitmap_BGRx, buffer, stride)
                try:
                    flags = raw.FPDF_ANNOT | raw.FPDF_REVERSE_BYTE_ORDER
                    raw.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, flags)
                finally:
                    raw.FPDFBitmap_Destroy(bitmap)  # the buffer is ours: PDFium frees only its wrapper
                del buffer
            finally:
                raw.FPDF_ClosePage(page)
            out.append(Image.frombytes("RGB", (width, height), pixels, "raw", "RGBX", stride, 1))
    finally:
        raw.FPDF_CloseDocument(doc)
    return out
