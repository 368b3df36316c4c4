"""Shared test helpers: read PDFs back (pypdfium2, a pip wheel, so a fresh machine has it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Collection imports every test module, its asserts rewritten by pytest, and the package: from cached bytecode
# (__pycache__, ignored by git) that is ~3 CPU-seconds, from source ~7 — on a busy 2-core machine the difference
# between ~10 s and ~25 s before the first test. Where PYTHONDONTWRITEBYTECODE is set, the suite still keeps its
# own cache so that only the first run pays (issue 43: "collection alone took 115 s").
sys.dont_write_bytecode = False

# Every hypothesis test runs the same examples on every run (derandomized: a red suite is the code's doing, never
# the draw's) and has no deadline (a loaded machine must not turn it red: speed is measured in benchmarks/). A test's
# own @settings add to this profile.
try:
    from hypothesis import settings as _hypothesis

    _hypothesis.register_profile("paddock", derandomize=True, deadline=None)
    _hypothesis.load_profile("paddock")
except ImportError:  # the test extras not installed: the hypothesis tests cannot run anyway
    pass

# One BLAS thread, as the command sets for itself (generator/cli/__init__.py): OpenBLAS's threads only spin against
# each other and the other test worker (a Formula D real board built in a test took 5x the CPU of the command).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def pdf_pages(data: bytes | Path):
    import pypdfium2 as pdfium

    if isinstance(data, Path):
        data = data.read_bytes()
    return pdfium.PdfDocument(data)


def pdf_text(data: bytes | Path) -> str:
    """All text of a PDF, page after page, as PDFium extracts it."""
    doc = pdf_pages(data)
    return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


def pdftotext(path: Path) -> str | None:
    """Text as poppler's pdftotext reads it, or None where poppler is not installed."""
    exe = shutil.which("pdftotext")
    if not exe:
        return None
    return subprocess.run([exe, "-enc", "UTF-8", str(path), "-"], check=True, capture_output=True).stdout.decode()


def render_gray(data: bytes, dpi: float, page: int = 0):
    """A page rendered to a greyscale numpy array (0 = black)."""
    import numpy as np

    doc = pdf_pages(data)
    image = doc[page].render(scale=dpi / 72).to_pil().convert("L")
    return np.asarray(image)


@pytest.fixture
def scene():
    """A page that uses every primitive and every font: the calibration sheet."""
    from generator.compose.calibration import PAPER, calibration_sheet
    from generator.paper import PageSpec

    return calibration_sheet(PageSpec(PAPER))
