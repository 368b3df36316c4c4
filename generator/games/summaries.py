"""A game's rule summary: its ``templates/<game>/summary.yaml`` read with the numbers of the game's ``summary``
module (``values(**facts)`` fills the placeholders, ``tables(**facts)`` gives the tables), laid out on the paper
the user asked for — for ``paddock rules GAME`` and for each pack's ``rules`` sheets.

    summary = load("formula-d")                              # the model (generator.compose.summary)
    pages = summary_pages(summary, settings, booklet=True)       # settings: the command's PageSettings
    sheets = summary_sheets("f1-dice", settings, race_facts=facts, field=field)   # a pack's rules-1, rules-2 …

The registry side of the summary: the model (:mod:`generator.compose.summary`), its layout
(:mod:`generator.compose.summary_layout`) and its Markdown (:mod:`generator.writers.markdown`) know no game.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..compose.booklet import BOOKLET_PAPER
from ..compose.summary import Summary, read
from ..compose.summary_layout import PAPER, compose
from ..errors import InputError
from ..notices import warn
from ..scene import Page
from . import Game, all_games, get

if TYPE_CHECKING:
    from ..paper import PageSettings
from ..scene import Sheet


def summary_path(game_id: str) -> Path:
    from ..data import templates_dir

    return templates_dir() / game_id / "summary.yaml"


def has_summary(game_id: str) -> bool:
    return summary_path(game_id).is_file()


def games_with_summary() -> list[Game]:
    """Every registered game that has a ``templates/<id>/summary.yaml``, in listing order."""
    return [g for g in all_games() if has_summary(g.id)]


def load(game_id: str, **facts: Any) -> Summary:
    """The summary of ``game_id``: its ``summary.yaml`` validated, placeholders filled from the game's
    ``values(**facts)`` and tables taken from its ``tables(**facts)`` (the pack's field, say). Every problem names
    the file, line and field."""
    path = summary_path(game_id)
    if not path.is_file():
        get(game_id)  # an unknown game says so first
        have = ", ".join(g.id for g in games_with_summary()) or "none"
        raise InputError(
            f"the game '{game_id}' has no rule summary yet (templates/{game_id}/summary.yaml)",
            hint=f"games with one: {have}",
        )
    game = get(game_id)
    return read(path, game_id, game.values(**facts), game.tables(**facts))


def summary_pages(summary: Summary, settings: PageSettings, *, booklet: bool = False) -> list[Page]:
    """The summary's pages on the paper the user asked for: a booklet on a landscape sheet whatever ``--paper``
    says of the orientation."""
    if booklet:
        spec = settings.text_page(BOOKLET_PAPER)
        if spec.paper.orientation != "landscape":
            warn(f"a booklet is imposed on {spec.paper.size_label} landscape (two pages side by side), not portrait")
            spec = spec.rotated()
        return compose(summary, spec, booklet=True).pages
    return compose(summary, settings.text_page(PAPER)).pages


def summary_sheets(
    game_id: str, settings: PageSettings, *, booklet: bool = False, optional: bool = True, **facts: Any
) -> list[Sheet]:
    """The rule summary of ``game_id`` as pack sheets (``rules-1``, ``rules-2`` …). ``facts`` reach the game's
    ``values()`` (e.g. the board's ``action_every``), so the summary says what the pack's other sheets say."""
    from ..scene import numbered

    summary = load(game_id, **facts).only(optional)
    return numbered("rules-booklet" if booklet else "rules", summary_pages(summary, settings, booklet=booklet))
