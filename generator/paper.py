"""Paper sizes and orientation (ISO 216 and US), in millimetres, and the page spec every sheet is laid out on.

:data:`PAPERS` is the one table of paper sizes: the CLI's ``--paper`` choices, the circuit spec's ``paper`` field
(and its JSON Schema) and the circuit fit advice all derive from it. Adding a paper is one entry here.

A :class:`PageSpec` is what a composer is given: the paper as it lies, the printer's unprintable edge and the band
kept for the print check at the bottom; it answers the box a composer may fill (:attr:`PageSpec.content_box`).
Page settings are passed explicitly, never through global state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .errors import InputError


@dataclass(frozen=True)
class PaperSize:
    name: str
    short: float  # mm
    long: float  # mm
    family: Literal["iso", "us"]  # fit advice suggests sizes of the family the user asked for


# Exact sizes, smallest first within a family. US sizes are defined in inches; 8.5 in = 215.9 mm exactly.
PAPERS: dict[str, PaperSize] = {
    p.name: p
    for p in (
        PaperSize("a4", 210.0, 297.0, "iso"),
        PaperSize("a3", 297.0, 420.0, "iso"),
        PaperSize("a2", 420.0, 594.0, "iso"),
        PaperSize("a1", 594.0, 841.0, "iso"),
        PaperSize("letter", 215.9, 279.4, "us"),
        PaperSize("tabloid", 279.4, 431.8, "us"),
    )
}
PAPER_NAMES: tuple[str, ...] = tuple(PAPERS)
# Kept for callers that want the raw table.
SIZES_MM: dict[str, tuple[float, float]] = {p.name: (p.short, p.long) for p in PAPERS.values()}

ORIENTATIONS = ("portrait", "landscape")

DEFAULT_EDGE = 6.0  # mm: the unprintable edge of a home printer; content stays this far from every paper edge
FOOTER_BAND = 11.0  # mm at the bottom of every page for the print-check strip (scale bars + footer)


def papers_by_area(family: str | None = None) -> list[PaperSize]:
    """Paper sizes, smallest first (of one family, or all)."""
    out = [p for p in PAPERS.values() if family is None or p.family == family]
    return sorted(out, key=lambda p: p.short * p.long)


@dataclass(frozen=True)
class Paper:
    """A sheet of paper: name and orientation. ``width``/``height`` are the page box in mm as it lies."""

    name: str = "a3"
    orientation: str = "landscape"

    def __post_init__(self) -> None:
        if self.name not in PAPERS:
            raise InputError(f"unknown paper '{self.name}'", field="paper", hint="use one of " + ", ".join(PAPER_NAMES))
        if self.orientation not in ORIENTATIONS:
            raise InputError(
                f"unknown orientation '{self.orientation}'",
                field="orientation",
                hint="use portrait or landscape",
            )

    @property
    def size(self) -> tuple[float, float]:
        p = PAPERS[self.name]
        return (p.long, p.short) if self.orientation == "landscape" else (p.short, p.long)

    @property
    def width(self) -> float:
        return self.size[0]

    @property
    def height(self) -> float:
        return self.size[1]

    @property
    def area(self) -> float:
        return self.width * self.height

    def rotated(self) -> Paper:
        other = "portrait" if self.orientation == "landscape" else "landscape"
        return Paper(self.name, other)

    @property
    def label(self) -> str:
        return f"{self.name.upper() if self.name.startswith('a') else self.name.title()} {self.orientation}"

    @property
    def size_label(self) -> str:
        """The size alone: ``A3``, ``Letter``."""
        return self.name.upper() if self.name.startswith("a") else self.name.title()

    @property
    def option(self) -> str:
        """The ``--paper`` value that asks for exactly this paper."""
        return f"{self.name}-{self.orientation}"


@dataclass(frozen=True)
class PaperChoice:
    """What the user asked for with ``--paper``: a size, and an orientation only if they gave one."""

    name: str
    orientation: str | None = None

    def resolve(self, preferred: str = "landscape") -> Paper:
        """The paper in the orientation the user gave, or else the one the sheet prefers."""
        return Paper(self.name, self.orientation or preferred)


def parse_paper_choice(text: str) -> PaperChoice:
    """Parse ``a3``, ``a3-landscape``, ``letter:portrait``, ``A4 portrait``."""
    raw = str(text).strip().lower().replace(":", " ").replace("-", " ").replace("_", " ").split()
    if not raw:
        raise InputError("empty paper name", field="paper", hint="use e.g. a3 or a4-portrait")
    if len(raw) > 2:
        raise InputError(f"cannot read paper '{text[:40]}'", field="paper", hint="use e.g. a3 or a4-portrait")
    name = raw[0]
    orientation = raw[1] if len(raw) > 1 else None
    Paper(name, orientation or "landscape")  # validates both
    return PaperChoice(name, orientation)


@dataclass(frozen=True)
class PageSpec:
    """The page a composer lays a sheet out on: paper as it lies, unprintable edge, print-check band.

    Like ezdxf's ``Page`` with its margins, it is passed to every composer explicitly."""

    paper: Paper = Paper("a4", "portrait")
    edge: float = DEFAULT_EDGE
    footer: float = FOOTER_BAND
    #: Whether the sheet's sizes matter (a board, slips, pieces, tools): it carries the scale bars and "print at
    #: 100 %"; a text sheet (rules, tables, cards) carries a one-line footer.
    to_scale: bool = True

    @property
    def width(self) -> float:
        return self.paper.width

    @property
    def height(self) -> float:
        return self.paper.height

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) inside the unprintable edge."""
        e = self.edge
        return (e, e, self.width - 2 * e, self.height - 2 * e)

    @property
    def content_box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) a composer may fill: the printable area less the print-check band at the bottom."""
        x, y, w, h = self.printable
        return (x, y, w, h - self.footer)

    def rotated(self) -> PageSpec:
        return replace(self, paper=self.paper.rotated())


def page_spec(paper: Paper | str = "a4", orientation: str = "portrait", edge: float = DEFAULT_EDGE) -> PageSpec:
    """Shorthand: ``page_spec("a4", "landscape")``."""
    p = paper if isinstance(paper, Paper) else Paper(paper, orientation)
    return PageSpec(p, edge)


@dataclass(frozen=True)
class PageSettings:
    """What the user asked of the paper, as composers receive it: the paper (``--paper``), the paper in the printer
    when large sheets are tiled (``--tile-onto``), the unprintable edge and the tiles' glue overlap. A composer
    turns it into the :class:`PageSpec` of each sheet (:meth:`document_page`, :meth:`page`); it never sees where
    or in which formats the files are written."""

    paper: PaperChoice | None = None  # --paper; None: each sheet's own paper
    tile_onto: PaperChoice | None = None  # --tile-onto; None: no tiling
    edge: float = DEFAULT_EDGE
    overlap: float = 12.0  # mm of glue overlap between tiles

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

    def text_page(self, preferred: Paper) -> PageSpec:
        """The page for a text sheet (rules, tables, score sheets, cards): as :meth:`document_page`, but its sizes
        do not matter, so it carries no scale bars."""
        return replace(self.document_page(preferred), to_scale=False)

    def board_paper(self) -> PaperChoice | None:
        """The paper a board (a large true-scale sheet, tiled if need be) is asked to go on: ``--paper`` (an
        orientation left open is the board's to choose), or None for the circuit spec's own."""
        return self.paper

    @property
    def tile_paper(self) -> Paper | None:
        """The paper tiles are cut to, portrait unless the user named an orientation."""
        return self.tile_onto.resolve("portrait") if self.tile_onto else None
