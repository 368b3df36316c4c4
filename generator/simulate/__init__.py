"""Racing a board many times: what every game's simulation shares, knowing no game.

A game's rules of the race live in its own package (``generator/games/<game>/``); this package gives them:

- :mod:`.rng` — one seeded random stream per race (``race_random(seed, i)``), so race ``i`` is the same race
  whichever process runs it;
- :mod:`.runner` — ``run(batch, setup, races, seed, jobs)``: races in batches over ``jobs`` processes (the
  standard library's ``ProcessPoolExecutor``), each batch returning a :class:`~.tally.Tally` of whole numbers
  that is merged as it arrives (memory flat in the number of races; the same sums for any ``jobs``);
- :mod:`.tally` — the counts a race leaves (``Tally``), histograms and their percentiles, rank correlation;
- :mod:`.report` — the report model (``SimReport``: figures, tables, charts, the board's heat maps, warnings,
  the assumptions made where a rulebook leaves a number open) and its JSON;
- :mod:`.sheet` — the printable report, composed as scene pages; :mod:`.progress` — the progress bar.

A game offers simulation through its :meth:`generator.games.Game.simulate` hook (``paddock simulate``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

#: The most races one command may run, and the most processes it may use: every input that makes work has a budget.
MAX_RACES = 100_000
MAX_JOBS = 64
#: Races a quick run makes (``paddock check --sim``, a designer's warnings).
QUICK_RACES = 200
#: Fewer races than this tell a designer nothing: no warnings but one saying so.
MIN_RACES = 50


def too_few(races: int) -> str:
    return f"only {races} races: too few to warn about anything (race {MIN_RACES} or more)"


@dataclass(frozen=True)
class SimOptions:
    """What ``paddock simulate`` was asked, as every game receives it. ``rules``: the optional rules in play (the
    game's names); ``assume``: values for numbers the rulebook leaves open (the game's keys); ``ai``: the
    computer drivers' level (a game's own names, e.g. ``simple``/``strong``/``mixed``); ``against``: a second
    board to compare; ``cancel``: asked between batches whether to stop."""

    races: int = 1000
    cars: int | None = None
    seed: int = 1
    ai: str | None = None
    jobs: int = 1
    rules: tuple[str, ...] = ()
    assume: dict = field(default_factory=dict)
    laps: int | None = None
    #: a second design to race beside the first with the same dice (``paddock simulate A B``): the game answers
    #: with a :class:`~.report.Comparison` instead of one report
    against: Path | None = None
    #: told nothing, asked between batches: a true answer stops the run (:class:`Cancelled`) — the live preview's
    #: way to drop a run its next save made stale
    cancel: Callable[[], bool] | None = None


class Cancelled(Exception):
    """A run stopped because its ``cancel`` asked it to (nothing is reported)."""
