"""The MotoX pack — a front page with the dice and pawns, the two-sided tiles and coins, a two-sided card per rider,
the rule summary and a course diagram — and the piecepack alone (``paddock piecepack``).

The course is a shipped one (by name: ``twisty``), a spec file (``--course``) or one dealt at random (``--seed``);
with none named, the shipped course for the players asked. The riders' cards follow its players. A course that
breaks the building rules is refused (exit 3): check it with ``paddock motox check`` first.

The merged print PDF prints right double-sided: each sheet says which side of the paper it must fall on
(:class:`~generator.scene.Sheet`), so a page of pieces to cut out has a blank back and every back lies behind
its front; the front page says which pages to print on card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import GeometryError, InputError
from ...paper import PageSettings
from ...pipeline import print_order
from ...scene import Sheet, numbered

DEFAULT_COURSE = "twisty"


def sample_courses() -> list[Path]:
    from ...data import templates_dir

    return sorted((templates_dir() / "motox" / "courses").glob("*.yaml"))


def shipped_course(path: str | Path) -> Path:
    """``path`` itself when it exists; else a course Paddock ships by that name (``three-riders``, or
    ``three-riders.yaml``), so ``--course three-riders`` works from any folder."""
    path = Path(path)
    if path.exists():
        return path
    if path.parent == Path("."):
        for candidate in sample_courses():
            if path.name in (candidate.stem, candidate.name):
                return candidate
    return path


@dataclass
class Group:
    """Sheets printed together, and what the print plan says of them; ``extras``: they hold the dice and pawns."""

    sheets: list[Sheet]
    what: str
    card: bool
    extras: bool = False


def _side(duplex: str, side: str) -> str | None:
    return None if duplex == "off" else side


def piecepack_groups(
    settings: PageSettings, tile_in: float, duplex: str = "long", look: str = "generic"
) -> list[Group]:
    """The tiles and coins (two-sided: a front and a back page per sheet of card, or fold-over pages), with the
    dice and pawns where the last sheet has room for them (a sheet of card not left half blank)."""
    from .dice_pawns import pawn_word
    from .piecepack_sheet import PAPER, extras_fit, layout, piecepack_pages

    # The paper as it lies: the user's orientation, or whichever needs fewer sheets (portrait on a tie).
    candidates = [settings.document_page(PAPER), settings.document_page(PAPER.rotated())]
    spec = min(candidates, key=lambda c: max(p.sheet for p in layout(c, tile_in, duplex)))
    extras = extras_fit(spec, tile_in, duplex, look)
    pages = piecepack_pages(spec, tile_in, duplex, look, extras)
    also = f", dice and {pawn_word(look)}s" if extras else ""
    if duplex == "off":
        sheets = numbered("tiles-coins", pages)
        what = f"tiles and coins, fold-over{also}"
    else:
        sheets = []
        for k in range(0, len(pages), 2):
            n = f"-{k // 2 + 1}" if len(pages) > 2 else ""
            sheets += [Sheet(f"tiles-coins{n}-front", pages[k], "front"), Sheet(f"tiles-coins{n}-back", pages[k + 1])]
        what = f"tiles and coins, fronts and backs{also}"
    return [Group(sheets, what, True, extras)]


def with_cover(settings: PageSettings, groups: list[Group], text, duplex: str, look: str = "generic") -> list[Sheet]:
    """``groups`` after the front page (with the dice and pawns, or followed by their own page), the front page
    telling which pages to print how."""
    from . import facts
    from .cover import PAPER, PrintRow, cover_page, type_size
    from .dice_pawns import dice_pawns_pages, pawn_word

    spec = settings.document_page(PAPER)
    words = facts.piecepack().cover

    def heads(dice: bool) -> list[Group]:
        front = Sheet("front-page", _placeholder(spec), _side(duplex, "alone"))
        if any(g.extras for g in groups):  # the dice and pawns are on a sheet of pieces
            return [Group([front], "this page", False)]
        if dice:
            return [Group([front], words.this_page.format(pawn=pawn_word(look)), True)]
        own = [
            Sheet(s.name, s.page, _side(duplex, "alone")) for s in numbered("dice-pawns", dice_pawns_pages(spec, look))
        ]
        return [Group([front], "this page", False), Group(own, f"dice and {pawn_word(look)}s", True)]

    def plan(head: list[Group]) -> tuple[list[Sheet], list]:
        every = head + groups
        sheets = [s for g in every for s in g.sheets]
        order = print_order([s.side for s in sheets])
        page_of = {id(sheets[at[0]]): n for n, at in enumerate(order, 1) if at is not None}
        rows = []
        for g in every:
            numbers = [page_of[id(s)] for s in g.sheets]
            lo, hi = min(numbers), max(numbers)
            rows.append(PrintRow(str(lo) if lo == hi else f"{lo}–{hi}", g.what, g.card))
        return sheets, rows

    sheets, rows = plan(heads(True))
    dice = not any(g.extras for g in groups) and type_size(spec, text, rows, duplex, look, dice=True) is not None
    if not dice:  # elsewhere, or no room for the dice under the words: they get a page of their own
        sheets, rows = plan(heads(False))
    sheets[0] = Sheet("front-page", cover_page(spec, text, rows, duplex, look, dice), sheets[0].side)
    return sheets


def _placeholder(spec):
    from ...scene import Page

    return Page(spec, "")


def piecepack_sheets(
    settings: PageSettings, tile_size: str | float | None = None, duplex: str = "long", look: str = "generic"
) -> list[Sheet]:
    """The piecepack alone (``paddock piecepack``): the front page with the dice and pawns, tiles and coins."""
    from .cover import piecepack_text
    from .piecepack_sheet import parse_tile_size

    tile_in = parse_tile_size(tile_size)
    groups = piecepack_groups(settings, tile_in, duplex, look)
    return with_cover(settings, groups, piecepack_text(look, tile_in), duplex, look)


def load_checked(path: Path):
    """A course from a file, refused with its first problem if it breaks the building rules."""
    from ...notices import warn
    from .checks import check, warnings

    course, problems = check(path)
    if not problems:
        for p in warnings(course):
            warn(f"{path}:{p.line or ''}: {p}")
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


def course_for(players: int) -> Path | None:
    """The shipped course for ``players`` riders: Twisty for its number, else the first that is for them."""
    from .course import load_course

    courses = sample_courses()
    preferred = sorted(courses, key=lambda p: p.stem != DEFAULT_COURSE)
    return next((p for p in preferred if load_course(p).players == players), None)


def choose_course(course: Path | str | None, seed: int | None, players: int | None):
    """The course a pack draws: ``--seed`` deals one; ``--course`` names a file or a shipped course; with neither,
    the shipped course for ``players`` (a course dealt with seed 1 when none is for them)."""
    from .builder import deal_course
    from .facts import player_range

    if course is not None and seed is not None:
        raise InputError("give either --course or --seed, not both", field="--seed")
    if players is not None:
        lo, hi = player_range()
        if not lo <= players <= hi:
            raise InputError(f"MotoX is for {lo}–{hi} players, not {players}", field="--players")
    if seed is not None:
        return deal_course(players or 4, seed).course
    if course is None:
        path = course_for(players or 4) if players is not None else shipped_course(DEFAULT_COURSE)
        if path is None:
            return deal_course(players, 1).course
        return load_checked(path)
    path = shipped_course(course)
    loaded = load_checked(path)
    if players is not None and players != loaded.players:
        raise InputError(
            f"--players {players} but the course {path.name} is for {loaded.players}",
            field="--players",
            hint="leave --players out to race it with its own riders, or leave --course out for a course for "
            f"{players}",
        )
    return loaded


def build(
    settings: PageSettings,
    course: Path | str | None = None,
    seed: int | None = None,
    players: int | None = None,
    tile_size: str | float | None = None,
    duplex: str = "long",
    look: str = "generic",
) -> list[Sheet]:
    from ..summaries import summary_sheets
    from . import facts
    from .cover import CoverText, piecepack_text
    from .diagram import course_page, preferred_paper
    from .piecepack_sheet import parse_tile_size
    from .reference import PAPER as REFERENCE_PAPER
    from .reference import reference_pages, spares
    from .summary import values

    chosen = choose_course(course, seed, players)
    tile_in = parse_tile_size(tile_size)
    groups = piecepack_groups(settings, tile_in, duplex, look)
    cards = reference_pages(settings.text_page(REFERENCE_PAPER), chosen.players, chosen.names, duplex)
    if duplex == "off":
        riders = [Sheet(s.name, s.page) for s in numbered("reference", cards)]
        what = "riders' cards, to fold"
    else:
        riders = []
        for k in range(0, len(cards), 2):
            n = f"-{k // 2 + 1}" if len(cards) > 2 else ""
            riders += [Sheet(f"reference{n}-front", cards[k], "front"), Sheet(f"reference{n}-back", cards[k + 1])]
        what = "riders' cards, fronts and backs"
    groups.append(Group(riders, what, True))
    rules = summary_sheets("motox", settings)
    if rules:
        rules[0] = Sheet(rules[0].name, rules[0].page, _side(duplex, "front"))
    groups.append(Group(rules, "rule summary", False))
    page = course_page(chosen, settings.text_page(preferred_paper(chosen)), tile_in)
    groups.append(Group([Sheet("course", page)], f"course diagram: {chosen.name}", False))
    base = piecepack_text(look, tile_in)
    words = facts.sheets().pack
    spare = " and a spare" if spares(chosen.players, duplex) else ""
    v = values() | {"cards": f"{chosen.players} riders' cards{spare}", "course": chosen.name}
    text = CoverText(
        words.title.format(**v),
        words.subtitle.format(**v),
        (words.credit.format(**v), *base.credits),
        (*base.checklist, *(c.format(**v) for c in words.checklist)),
    )
    return with_cover(settings, groups, text, duplex, look)
