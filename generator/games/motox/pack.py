"""The MotoX pack: the print-and-play piecepack, a reference card per rider and a course diagram.

The course is a shipped sample, a spec file (``--course``) or one dealt at random (``--seed``); the riders'
cards follow its players. A course that breaks the building rules is refused (exit 3): check it with
``paddock motox check`` first.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import GeometryError, InputError
from ...paper import PageSettings
from ...pipeline import Sheet, numbered

DEFAULT_COURSE = "courses/twisty.yaml"


def sample_courses() -> list[Path]:
    from ...data import templates_dir

    return sorted((templates_dir() / "motox" / "courses").glob("*.yaml"))


def piecepack_sheets(settings: PageSettings, tile_size: str | float | None = None, duplex: str = "long") -> list[Sheet]:
    """The piecepack alone (``paddock piecepack``): tiles and coins (two-sided), dice and bikes."""
    from .dice_bikes import PAPER as DICE_PAPER
    from .dice_bikes import dice_bikes_pages
    from .piecepack_sheet import PAPER, layout, parse_tile_size, piecepack_pages

    tile_in = parse_tile_size(tile_size)
    # The paper as it lies: the user's orientation, or whichever needs fewer sheets (portrait on a tie).
    candidates = [settings.document_page(PAPER), settings.document_page(PAPER.rotated())]
    spec = min(candidates, key=lambda c: max(p.sheet for p in layout(c, tile_in, duplex)))
    pages = piecepack_pages(spec, tile_in, duplex)
    if duplex == "off":
        sheets = numbered("tiles-coins", pages)
    else:
        sheets = []
        for k in range(0, len(pages), 2):
            n = f"-{k // 2 + 1}" if len(pages) > 2 else ""
            sheets += [Sheet(f"tiles-coins{n}-front", pages[k]), Sheet(f"tiles-coins{n}-back", pages[k + 1])]
    sheets += numbered("dice-bikes", dice_bikes_pages(settings.document_page(DICE_PAPER)))
    return sheets


def load_checked(path: Path):
    """A course from a file, refused with its first problem if it breaks the building rules."""
    from .checks import check

    course, problems = check(path)
    if problems:
        p = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise GeometryError(
            f"the course breaks the building rules: {p.message}{more}",
            file=path,
            line=p.line,
            hint=f"{p.hint}; `paddock motox check {path}` lists every problem",
        )
    return course


def choose_course(course: Path | None, seed: int | None, players: int | None):
    from ...data import templates_dir
    from .builder import deal_course

    if course is not None and seed is not None:
        raise InputError("give either --course or --seed, not both", field="--seed")
    if seed is not None:
        return deal_course(players or 4, seed).course
    path = course or templates_dir() / "motox" / DEFAULT_COURSE
    loaded = load_checked(path)
    if players is not None and players != loaded.players:
        raise InputError(
            f"--players {players} but the course is for {loaded.players}",
            field="--players",
            hint="leave --players out, or change players: in the course file",
        )
    return loaded


def build(
    settings: PageSettings,
    course: Path | None = None,
    seed: int | None = None,
    players: int | None = None,
    tile_size: str | float | None = None,
    duplex: str = "long",
) -> list[Sheet]:
    from .diagram import course_page, preferred_paper
    from .piecepack_sheet import parse_tile_size
    from .reference import PAPER as REFERENCE_PAPER
    from .reference import reference_pages

    chosen = choose_course(course, seed, players)
    sheets = piecepack_sheets(settings, tile_size, duplex)
    reference = reference_pages(settings.text_page(REFERENCE_PAPER), chosen.players, chosen.names)
    sheets += numbered("reference", reference)
    page = course_page(chosen, settings.text_page(preferred_paper(chosen)), parse_tile_size(tile_size))
    sheets.append(Sheet("course", page))
    from ..summaries import summary_sheets

    sheets += summary_sheets("motox", settings)
    return sheets
