"""From composed sheets to files: print check, ink saver, tiling, rendering, one all-or-nothing write.

This is the library entry point the CLI uses; code can call :func:`publish` the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .messages import quote
from .notices import LayoutWarning, warn  # noqa: F401  (composers' warnings; re-exported)
from .paper import PageSettings, Paper
from .scene import SIDES, Document, Page, Sheet, bounds
from .writers import FORMATS as ALL_FORMATS  # noqa: F401  (the formats --format may name)
from .writers import PREVIEW_DPI, WRITERS, check


def print_order(sides: Sequence[str | None], counts: Sequence[int] | None = None) -> list[tuple[int, int] | None]:
    """The pages of a merged print PDF printed double-sided: (sheet, page of that sheet) in order, None for a blank
    page — one before a ``front`` or ``alone`` sheet that would fall on a back, one after each page of an
    ``alone`` sheet. ``counts``: each sheet's pages (1 each by default)."""
    out: list[tuple[int, int] | None] = []
    for k, side in enumerate(sides):
        if side not in SIDES:
            raise ValueError(f"unknown side {side!r}")
        if side is not None and len(out) % 2:
            out.append(None)
        for n in range((counts or [1] * len(sides))[k]):
            out.append((k, n))
            if side == "alone":
                out.append(None)
    return out


@dataclass(frozen=True)
class Output:
    """What the user asked of the files: where (``--out``), which formats, the previews' resolution, the ink
    saver, and whether to say what was written. Composers never see it (they get the
    :class:`~generator.paper.PageSettings`)."""

    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf", "png")
    dpi: float = PREVIEW_DPI
    ink_saver: bool = False
    quiet: bool = False


def fits_on(page: Page, paper: Paper) -> bool:
    w, h = page.width, page.height
    return (w <= paper.width + 1e-6 and h <= paper.height + 1e-6) or (
        w <= paper.height + 1e-6 and h <= paper.width + 1e-6
    )


def check_clear_of_edge(sheet: Sheet) -> None:
    """Warn when a sheet draws into the printer's unprintable edge: a home printer would cut it off."""
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


def prepare(sheet: Sheet, pages: PageSettings, ink_saver: bool = False) -> list[Page]:
    """The printable pages of one sheet: print check added, tiled onto ``pages.tile_onto`` if it does not fit,
    ink saver applied. (The composers of the print check, the tiles and the ink saver are imported here, and the
    output set and the workers' pool in :func:`publish`: at the top of this module, which every command imports,
    they cost ``paddock --help`` ~60 ms and ~11 ms of its ~110 ms; see benchmarks/README.md.)"""
    from .compose import inksaver
    from .compose.printcheck import add_print_check
    from .compose.tiling import tile_pages

    page = sheet.page
    check_clear_of_edge(sheet)
    add_print_check(page)
    out = [page]
    tile = pages.tile_paper
    if tile is not None and not fits_on(page, tile):
        out = tile_pages(page, tile, edge=pages.edge, overlap=pages.overlap, free=pages.tile_onto.orientation is None)
        for p in out:
            add_print_check(p)
    if ink_saver:
        out = inksaver.apply(Document(out)).pages
    return out


class Written(list):
    """The paths a :func:`publish` wrote, and ``print_papers``: the paper of each page of its merged print PDF
    (the size label, ``A3``), so a caller can say what to print on without opening the PDF again."""

    print_papers: tuple[str, ...] = ()
    #: The sheets larger than A3, each as (name, its paper's size label, the size label of the pages it was printed
    #: on, how many, the first and last of them in the merged print PDF: 1-based, 0 without one).
    large: tuple[tuple[str, str, str, int, int, int], ...] = ()


def publish(
    sheets: Sequence[Sheet],
    output: Output,
    pages: PageSettings = PageSettings(),
    folder: str = "",
    merged: str | None = None,
    title: str = "Paddock",
    progress: Callable[[str], None] | None = None,
    job: str | None = None,
) -> Written:
    """Render every sheet in every format (and a merged PDF of all of them), then write all files at once.
    ``pages``: the page settings the sheets were composed with (tiling and the edge apply here too).

    Nothing is written unless everything rendered: a failure half-way leaves earlier output untouched.
    ``job`` names the output set in the folder's manifest (default: :func:`job_name`): a later run of the same
    job removes the files it wrote before and no longer writes, and never another job's (see :mod:`.outputs`).
    """
    from concurrent.futures import ThreadPoolExecutor

    from .outputs import OutputSet, safe_name

    if job is None:
        job = job_name(sheets, folder, merged)
    outputs = OutputSet(output.out, job=job)
    prefix = (safe_name(folder) + "/") if folder else ""
    docs = [Document(prepare(sheet, pages, output.ink_saver), sheet.page.title or title) for sheet in sheets]
    # refuse before anything is drawn: every page's text, and the previews' pixels of the whole run
    check(Document([p for doc in docs for p in doc.pages], title), output.formats, dpi=output.dpi)
    merged_doc = None
    where: dict[int, list[int]] = {}
    if merged:  # even for one sheet: the command names the file to print, always the same one
        printed: list[Page] = []
        for i, at in enumerate(print_order([s.side for s in sheets], [len(d.pages) for d in docs]), 1):
            if at is not None:
                where.setdefault(at[0], []).append(i)
            # a blank page is the back of the page before it: the same paper
            printed.append(Page(printed[-1].spec, "") if at is None else docs[at[0]].pages[at[1]])
        merged_doc = Document(printed, title)
    # the formats a sheet's files are made from: each asked for, and what a derived one is made of (a PNG: its PDF)
    made = tuple(dict.fromkeys(f for fmt in output.formats for f in (WRITERS[fmt].derived_from, fmt) if f))
    pool = None
    # A derived file (a PNG preview, rasterised from the sheet's PDF by PDFium and Pillow, which run outside
    # Python's interpreter lock) is made on worker threads while the next sheets are drawn. Two workers: while one
    # rasterises a page (PDFium, not thread-safe, is called under a lock: one thread at a time) the other quantises
    # and encodes the page before. Each file depends only on its sheet: the same bytes either way.
    if len(docs) > 1 and any(WRITERS[f].derived_from for f in made):
        pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="paddock-png")

    def draw(doc: Document) -> dict:
        """A document's files by format: a list of blobs, or (with workers) a future of one for a derived format."""
        files: dict = {}
        for fmt in made:
            w = WRITERS[fmt]
            if w.derived_from is None:
                files[fmt] = w.render(doc, dpi=output.dpi)
            else:
                (source,) = files[w.derived_from]
                files[fmt] = pool.submit(w.derive, source, output.dpi) if pool else w.derive(source, output.dpi)
        return files

    try:
        results: list = []
        for sheet, doc in zip(sheets, docs, strict=True):
            results.append(draw(doc))
            if progress:
                progress(sheet.name)
        whole = WRITERS["pdf"].render(merged_doc) if merged_doc is not None else None
        for sheet, files in zip(sheets, results, strict=True):
            stem = safe_name(sheet.name)
            for fmt in output.formats:
                blobs = files[fmt]
                if not isinstance(blobs, list):
                    blobs = blobs.result()
                for name, blob in zip(WRITERS[fmt].file_names(stem, len(blobs)), blobs, strict=True):
                    outputs.add(prefix + name, blob, source=_source(sheet))
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    if whole is not None:
        outputs.add(prefix + safe_name(merged) + ".pdf", whole[0], source="the merged print PDF")
    written = Written(outputs.commit())
    if merged_doc is not None:
        written.print_papers = tuple(p.paper.size_label for p in merged_doc.pages)
    written.large = tuple(
        (sheet.name, sheet.page.paper.size_label, doc.pages[0].paper.size_label, len(doc.pages),
         min(where.get(k, [0])), max(where.get(k, [0])))
        for k, (sheet, doc) in enumerate(zip(sheets, docs, strict=True))
        if _area(sheet.page.paper) > _area(Paper("a3"))
    )  # fmt: skip
    return written


def _area(paper: Paper) -> float:
    w, h = paper.size
    return w * h


def job_name(sheets: Sequence[Sheet], folder: str = "", merged: str | None = None, command: str = "") -> str:
    """What a run's files are, for the folder's manifest: the command that made them (``pack formula-d``,
    ``rules``, ``motox draw``), then where and what — the folder and the merged PDF, else the sheets' names
    (``formula-d/formula-d-rules``, ``motox/course-ramps``, ``monza``). A command owns what its job wrote: a
    rerun of ``rules formula-d`` removes a page it no longer makes, never a file of ``pack formula-d`` beside it."""
    from .outputs import safe_name

    what = safe_name(merged) if merged else ",".join(sorted({safe_name(s.name) for s in sheets}))
    where = f"{safe_name(folder)}/{what}" if folder else what
    return f"{command}: {where}" if command else where


def _source(sheet: Sheet) -> str:
    """A sheet as a message names it: by its title (what the player reads on it), else its file stem."""
    return f"the sheet {quote(sheet.page.title.strip() or sheet.name)}"
