"""From composed sheets to files: print check, ink saver, tiling, rendering, one all-or-nothing write.

This is the library entry point the CLI uses; code can call :func:`publish` the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .notices import LayoutWarning, warn  # noqa: F401  (composers' warnings; re-exported)
from .paper import DEFAULT_EDGE, PageSpec, Paper, PaperChoice
from .scene import Document, Page
from .writers import PREVIEW_DPI

ALL_FORMATS = ("pdf", "svg", "png")
SWITCH_INTERVAL = 0.001  # s: how often the drawing thread offers Python's lock to the preview workers (see publish)


@dataclass
class Sheet:
    """One composed sheet: ``name`` is its file stem, ``page`` its scene."""

    name: str
    page: Page


def numbered(stem: str, pages: Sequence[Page]) -> list[Sheet]:
    """One sheet per page: ``stem`` alone for one page, ``stem-1``, ``stem-2``… for several."""
    return [Sheet(stem + (f"-{i + 1}" if len(pages) > 1 else ""), p) for i, p in enumerate(pages)]


@dataclass
class OutputOptions:
    """What the user asked of the output: where, which formats, which paper, the printer's edge, tiling.

    Composers never read these directly: a command turns them into the :class:`~generator.paper.PageSpec` each
    sheet is laid out on (:meth:`document_page`, :meth:`page`)."""

    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf", "png")
    paper: PaperChoice | None = None  # --paper; None: each sheet's own paper
    tile_onto: PaperChoice | None = None  # --tile-onto; None: no tiling
    ink_saver: bool = False
    dpi: float = PREVIEW_DPI
    edge: float = DEFAULT_EDGE
    overlap: float = 12.0
    quiet: bool = False

    def page(self, paper: Paper) -> PageSpec:
        """A page of exactly ``paper`` with the user's unprintable edge."""
        return PageSpec(paper, self.edge)

    def document_page(self, preferred: Paper) -> PageSpec:
        """The page for a document sheet (tables, cards, slips): the paper in the printer — ``--tile-onto`` if
        given (documents are laid out on it, never tiled), else ``--paper``, else the sheet's own — in the
        orientation the user named, else the one the sheet prefers."""
        choice = self.tile_onto or self.paper
        if choice is None:
            return self.page(preferred)
        return self.page(choice.resolve(preferred.orientation))

    def board_paper(self) -> PaperChoice | None:
        """The paper a board (a large true-scale sheet, tiled if need be) is asked to go on: ``--paper`` (an
        orientation left open is the board's to choose), or None for the circuit spec's own."""
        return self.paper

    @property
    def tile_paper(self) -> Paper | None:
        return self.tile_onto.resolve("portrait") if self.tile_onto else None


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
    from .compose.printcheck import add_print_check

    page = sheet.page
    check_clear_of_edge(sheet)
    add_print_check(page)
    pages = [page]
    tile = options.tile_paper
    if tile is not None and not fits_on(page, tile):
        from .compose.tiling import tile_pages  # only when tiling (as the ink saver below): not a run's cost

        pages = tile_pages(
            page, tile, edge=options.edge, overlap=options.overlap, free=options.tile_onto.orientation is None
        )
        for p in pages:
            add_print_check(p)
    if options.ink_saver:
        from .compose import inksaver

        pages = inksaver.apply(Document(pages)).pages
    return pages


class Written(list):
    """The paths a :func:`publish` wrote, and ``print_papers``: the paper of each page of its merged print PDF
    (the size label, ``A3``), so a caller can say what to print on without opening the PDF again."""

    print_papers: tuple[str, ...] = ()


def publish(
    sheets: Sequence[Sheet],
    options: OutputOptions,
    folder: str = "",
    merged: str | None = None,
    title: str = "Paddock",
    progress: Callable[[str], None] | None = None,
    job: str | None = None,
) -> Written:
    """Render every sheet in every format (and a merged PDF of all of them), then write all files at once.

    Nothing is written unless everything rendered: a failure half-way leaves earlier output untouched.
    ``job`` names the output set in the folder's manifest (default: the folder, else the sheets' names): a
    later run of the same job removes the files it wrote before and no longer writes (see :mod:`.safeio`).
    """
    from . import writers
    from .safeio import OutputSet, safe_name

    if job is None:
        job = f"{safe_name(folder)}/" if folder else ",".join(sorted({safe_name(s.name) for s in sheets}))
    outputs = OutputSet(options.out, job=job)
    prefix = (safe_name(folder) + "/") if folder else ""
    docs = []
    for sheet in sheets:
        doc = Document(prepare(sheet, options), sheet.page.title or title)
        writers.check(doc, options.formats, dpi=options.dpi)  # refuse before anything is drawn
        docs.append(doc)
    merge = bool(merged) and len(sheets) > 1
    formats = options.formats + (("pdf",) if merge and "pdf" not in options.formats else ())
    glyphs = None
    if "pdf" in formats:
        from .writers.pdf import glyphs_of

        glyphs = glyphs_of(p for doc in docs for p in doc.pages)
    later = "png" in formats and len(docs) > 1
    direct = tuple(dict.fromkeys(("pdf", *(f for f in formats if f != "png")))) if later else formats
    pool = None
    whole = None
    switch = None

    def draw(i: int) -> dict:
        """Sheet ``i``'s files; its previews drawn here, or handed to the workers (a future) when there are any."""
        rendered = writers.render_all(docs[i], direct, dpi=options.dpi, glyphs=glyphs, checked=True)
        if later:
            pdf, dpi = rendered["pdf"][0], options.dpi
            rendered["png"] = pool.submit(writers.rasterise, pdf, dpi) if pool else writers.rasterise(pdf, dpi)
        return rendered

    # A second core draws sheets too: a child process (see _Helper) draws them from the last one back while this
    # one draws from the first on, each sheet's PDF and its preview. Where there can be no child (one core,
    # not Linux, threads), the second core makes the previews on worker threads: PNG previews are rasterised
    # from each sheet's PDF by PDFium and Pillow, which run outside Python's interpreter lock, so they are made
    # while the next sheets' PDFs are drawn. Two workers: while one rasterises a page (PDFium, not thread-safe,
    # is called under a lock: one thread at a time) the other quantises and encodes the page before, so once
    # the last PDF is drawn both cores finish the previews. Each file depends only on its sheet (and a PNG only
    # on its PDF): the same bytes either way.
    helper = _Helper.start(len(docs), draw) if len(docs) > 1 else None
    if later and helper is None:
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="paddock-png")
        # The workers hold Python's lock only between their PDFium and Pillow calls, but each time they want it
        # back they wait for the main thread to let go: every 5 ms by default, so a preview made beside the
        # drawing of PDFs took five times as long as alone and was mostly made after the last PDF. Letting go
        # every 1 ms (while the workers run) makes them nearly as fast as alone, for a few per cent of the main
        # thread's time.
        switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        results: list = [None] * len(docs)
        for i in range(len(docs)):
            if helper is not None and not helper.claim(i):
                break  # this sheet and every one after it are the child's
            results[i] = draw(i)
            if progress:
                progress(sheets[i].name)
        if helper is not None:
            # (a command that drew every sheet itself does not wait for the child: it is stopped)
            theirs = helper.results() if None in results else {}
            for i in range(len(docs)):
                if results[i] is None:  # the child's, or what it did not draw (it failed, or did not answer)
                    results[i] = theirs[i] if i in theirs else draw(i)
                    if progress:
                        progress(sheets[i].name)
        # The merged print PDF is built from the written PDFs (with worker threads, while they finish the previews).
        whole = writers.merge_pdfs([b for r in results for b in r["pdf"]], title) if merge else None
        for sheet, rendered in zip(sheets, results, strict=True):
            stem = safe_name(sheet.name)
            for fmt in formats:
                if fmt not in options.formats:
                    continue
                blobs = rendered[fmt]
                if pool is not None and fmt == "png":
                    blobs = blobs.result()
                for name, blob in zip(writers.file_names(stem, fmt, len(blobs)), blobs, strict=True):
                    outputs.add(prefix + name, blob, source=_source(sheet))
    finally:
        if helper is not None:
            helper.stop()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
            sys.setswitchinterval(switch)
    if whole is not None:
        outputs.add(prefix + safe_name(merged) + ".pdf", whole, source="the merged print PDF")
    written = Written(outputs.commit())
    if whole is not None:
        written.print_papers = tuple(p.paper.size_label for doc in docs for p in doc.pages)
    return written


class _Helper:
    """A forked child (:class:`~generator.forked.Child`) drawing a run's sheets from the last one back while the
    command draws from the first on, until they meet: the sheets' PDFs and previews made on two cores, with no
    lock shared. Each claims a sheet in shared memory before drawing it; the command stops at the first sheet the
    child has claimed, the child at the first the command has. Both may draw the sheet where they meet (a claim
    is not atomic): the command keeps its own. The child's files come back pickled through an in-memory file;
    any sheet the child did not give (it failed, or did not answer in time), the command draws itself. Drawing is
    the same code in either process and depends only on the sheet and the run's glyphs, so every file is the
    same whichever process made it."""

    PARENT, CHILD = 1, 2
    #: How long the command waits for the child to finish the sheet it is on before drawing it itself (s): far
    #: more than any sheet takes; a child that hung only costs this.
    PATIENCE = 120.0

    def __init__(self, child, drawings: int) -> None:
        self.child, self.drawings = child, drawings

    @classmethod
    def start(cls, n: int, draw: Callable[[int], dict]) -> _Helper | None:
        import os

        from .forked import Child, can_fork

        if not (can_fork() and hasattr(os, "memfd_create")):
            return None
        try:
            drawings = os.memfd_create("paddock-drawings", getattr(os, "MFD_CLOEXEC", 0))
        except OSError:  # a kernel or sandbox without it: no child
            return None

        def work(claims) -> int:  # in the child: the answer is the bytes of drawings written
            import pickle

            end = 0
            for i in range(n - 1, -1, -1):
                if claims[i] == cls.PARENT:
                    break
                claims[i] = cls.CHILD
                blob = pickle.dumps((i, draw(i)), protocol=pickle.HIGHEST_PROTOCOL)
                record = memoryview(len(blob).to_bytes(8, "little") + blob)
                while record:
                    record = record[os.write(drawings, record) :]
                end += 8 + len(blob)
            return end

        child = Child.start(work, n)
        if child is None:
            os.close(drawings)
            return None
        return cls(child, drawings)

    def claim(self, i: int) -> bool:
        """Claim sheet ``i`` for the command; False if the child has it (and every sheet after it)."""
        claims = self.child.shared
        if claims[i] == self.CHILD:
            return False
        claims[i] = self.PARENT
        return True

    def results(self) -> dict[int, dict]:
        """The child's files by sheet index, once it has stopped (waiting for it to finish the sheet it is on,
        :data:`PATIENCE` at most); a child that failed or was stopped gives the sheets it finished."""
        import os
        import pickle

        end = self.child.answer(timeout=self.PATIENCE)
        out: dict[int, dict] = {}
        try:
            if end is None:  # no answer (it failed, or did not finish in time): the drawings it did finish
                end = os.fstat(self.drawings).st_size
            data = os.pread(self.drawings, end, 0) if end else b""
            at = 0
            while at + 8 <= len(data):
                size = int.from_bytes(data[at : at + 8], "little")
                if at + 8 + size > len(data):
                    break  # not all there: the command draws the rest
                i, rendered = pickle.loads(data[at + 8 : at + 8 + size])
                out[i] = rendered
                at += 8 + size
        except Exception:  # noqa: BLE001 — whatever did not come back whole, the command draws itself
            pass
        return out

    def stop(self) -> None:
        import contextlib
        import os

        self.child.stop()
        with contextlib.suppress(OSError):
            os.close(self.drawings)


def _source(sheet: Sheet) -> str:
    """A sheet as a message names it: by its title (what the player reads on it), else its file stem."""
    from .specs import quote

    return f"the sheet {quote(sheet.page.title.strip() or sheet.name)}"
