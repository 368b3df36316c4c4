"""PNG preview writer: one image per page, rasterised from the PDF writer's output with PDFium.

Rendering the PDF itself (rather than drawing the scene a second time) guarantees the preview looks like what
prints. Pixel size is the page size at ``dpi``; the PNG records the dpi so viewers can show it at true size.
"""

from __future__ import annotations

import io

from ..scene import Document
from . import pdf


def render(document: Document, dpi: float = 150) -> list[bytes]:
    (pdf_bytes,) = pdf.render(document)
    return rasterise(pdf_bytes, dpi)


def rasterise(pdf_bytes: bytes, dpi: float = 150) -> list[bytes]:
    """Each page of a PDF as PNG bytes at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf_bytes)
    out = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=dpi / 72, may_draw_forms=False).to_pil().convert("RGB")
            buf = io.BytesIO()
            image.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=3)
            out.append(buf.getvalue())
            page.close()
    finally:
        doc.close()
    return out
