"""The game registry: every game Paddock serves is one package under ``generator/games/`` that registers itself.

A game package holds everything of one game: its facts (read from ``templates/<game id>/``), one module per sheet,
its pack (the sheets ``paddock pack GAME`` prints) and its ``cli`` module (the ``pack`` command's options and any
commands of its own). Its ``__init__`` defines a subclass of :class:`Game` and registers one instance; the
subclass's methods import the game's modules when called, so the ``__init__`` stays cheap to import and the CLI
can discover every game for ``--help`` without loading a drawing library.

    from generator import games
    for game in games.all_games(): ...
    sheets = games.get("formula-d").pack(PageSettings(), players="Ann,Bob")
    circuit, sheet = games.board_of("my.yaml", PageSettings())     # the board the spec's game prints

Shared libraries (circuits in ``generator.track``, teams and liveries in ``generator.teams``, layout blocks in
``generator.compose``) serve every game; a game never imports another game.
"""

from __future__ import annotations

import pkgutil
from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from pathlib import Path

    from ..paper import PageSettings
    from ..scene import Sheet
    from ..simulate import SimOptions
    from ..simulate.report import SimReport
    from ..teams import Field
    from ..track import Circuit


@dataclass(frozen=True)
class BoardFacts:
    """What a game says about one of its boards beside it (``paddock preview``): ``figures``, (label, value)
    pairs ("Race", "3 laps"); ``tables``, each ``{"title": …, "columns": [...], "rows": [[...], ...]}``
    (Formula D's corners: stops, the green and red paths)."""

    figures: tuple[tuple[str, str], ...] = ()
    tables: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Game(ABC):
    """One game: ``id`` names its pack, its ``templates/`` folder and its output folder.

    A game gives its pack (:meth:`pack`); where it has a rule summary, the numbers and tables the summary's text
    is filled from (:meth:`values`, :meth:`tables`); where it has car pieces, those for a field
    (:meth:`car_sheets`)."""

    id: str  # "f1-dice"
    title: str  # "the paper-and-dice F1 game"
    summary: str  # one line for `paddock pack --list`
    default: bool = False  # `paddock pack` with no game builds this one
    order: int = 50  # listing order

    @property
    def package(self) -> str:
        """The game's package: where its subclass is defined."""
        return type(self).__module__

    @abstractmethod
    def pack(self, settings: PageSettings, **options: Any) -> list[Sheet]:
        """Every sheet of ``paddock pack <id>``, laid out on ``settings``; ``options`` are the pack's own."""

    def values(self, **facts: Any) -> dict[str, str]:
        """Every ``{placeholder}`` of the game's rule summary, from its facts; ``facts`` are what a pack knows (its
        board, its field) so the summary says what the pack's other sheets say."""
        return {}

    def tables(self, **facts: Any) -> dict[str, dict]:
        """The rule summary's tables (``{"columns": [...], "rows": [[...]]}``), from the same facts as its sheets."""
        return {}

    def car_sheets(self, field: Field, settings: PageSettings, **options: Any) -> list[Sheet]:
        """The game's car pieces for ``field`` (``paddock cars``); none by default."""
        return []

    def board_notes(self, circuit: Any) -> list[str]:
        """What a designer of a circuit board for this game (a spec's ``game``) should look at, in words (see
        :func:`board_notes`); none by default."""
        return []

    def board(self, spec_path: str | Path, settings: PageSettings, **options: Any) -> tuple[Circuit, Sheet]:
        """The board of the circuit ``spec_path`` (a spec or a centre-line CSV) exactly as this game's pack prints
        it (its composer, its layer over the track), laid out on ``settings``: the built circuit and the sheet.
        Raises what the pack raises (an InputError, a GeometryError listing the problems). By default the plain
        board of ``paddock track`` (:func:`plain_board`); ``options`` are the game's own (none by default)."""
        return plain_board(spec_path, settings)

    def board_facts(self, circuit: Any) -> BoardFacts:
        """What the game says beside its board (``circuit``, as :meth:`board` built it): none by default."""
        return BoardFacts()

    def board_analysis(
        self, path: Any, paper: Any = None, edge: float | None = None, overrides: dict | None = None
    ) -> Any:
        """A circuit spec built as this game's pack prints its board (its spaces, paper and corners), for ``check``
        and ``track``: an :class:`~generator.track.Analysis` (never raising for geometry), or None where the
        circuit engine's own build is the game's board."""
        return None

    def board_page(self, circuit: Any) -> Any:
        """The page of the board :meth:`board_analysis` built, as this game's pack prints it (its layer on the
        engine's)."""
        return None

    def simulate(self, board: Path | None, options: SimOptions, progress=None) -> SimReport:
        """Race ``board`` (a spec or CSV; None: the game's default board) ``options.races`` times with computer
        drivers and report how it plays (``paddock simulate``); ``progress(n)`` is told as races finish. A game
        that cannot be simulated says so, naming those that can."""
        can = ", ".join(g.id for g in all_games() if g.simulates) or "none"
        raise InputError(f"Paddock cannot simulate {self.title} races", field="--game", hint=f"simulate {can}")

    @property
    def simulates(self) -> bool:
        """Whether the game gives :meth:`simulate`."""
        return type(self).simulate is not Game.simulate

    def module(self, name: str) -> ModuleType:
        """A module of the game's package, imported on first use (``pack``, ``summary``, ``cars`` …): the
        package's ``__init__``, which registers the game, never imports its modules itself."""
        return import_module(f"{self.package}.{name}")

    def cli(self) -> ModuleType:
        """The game's command-line module: its ``pack`` command and, optionally, ``register(app)`` for its own."""
        return self.module("cli")

    def facts(self, relative: str) -> Any:
        """A YAML file under ``templates/<id>/``, parsed once."""
        from ..data import template

        return template(f"{self.id}/{relative}")


_GAMES: dict[str, Game] = {}
_DISCOVERED = False


def register(game: Game) -> Game:
    """Called by each game package's ``__init__``."""
    if game.id in _GAMES and _GAMES[game.id] != game:
        raise ValueError(f"two games registered as '{game.id}'")
    _GAMES[game.id] = game
    return game


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            import_module(f"{__name__}.{info.name}")
    _DISCOVERED = True


def all_games() -> list[Game]:
    """Every registered game, in listing order."""
    _discover()
    return sorted(_GAMES.values(), key=lambda g: (g.order, g.id))


def get(game_id: str) -> Game:
    """The game called ``game_id``; an :class:`InputError` naming the known ones otherwise."""
    _discover()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(g.id for g in all_games())
        raise InputError(f"unknown game '{str(game_id)[:40]}'", hint=f"use one of {known}") from None


def board_notes(circuit) -> list[str]:
    """The notes of the game ``circuit``'s spec names (``game: formula-d``) on its board, for its designer: that
    game's ``board_notes`` hook (none for a game without one). Whoever builds a circuit from a user's spec passes
    this to the circuit engine (``track.load(…, notes=games.board_notes)``), which says them as warnings; the
    engine itself knows no game."""
    _discover()
    game = _GAMES.get(circuit.spec.game)
    return game.board_notes(circuit) if game is not None else []


def plain_board(spec_path, settings, overrides: dict | None = None):
    """The board ``paddock track`` draws of ``spec_path`` on ``settings``: the circuit (its spec's game's notes
    said as warnings) and its sheet. ``overrides``: spec fields replaced (``track.OVERRIDABLE``)."""
    from .. import track

    circuit = track.load(spec_path, settings.board_paper(), overrides, settings.edge, notes=board_notes)
    return circuit, track.board_sheet(circuit)


def board_of(spec_path, settings, game: str | None = None, **options) -> tuple[Any, Sheet]:
    """The board of ``spec_path`` as the pack of ``game`` (default: the game the spec names, ``game:``, f1-dice
    when it names none) prints it: see :meth:`Game.board`."""
    return board_game(spec_path, game).board(spec_path, settings, **options)


def board_game(spec_path, game: str | None = None) -> Game:
    """The game whose board ``spec_path`` is: ``game`` if given, else the one its spec names (its ``game``
    field: f1-dice by default). The spec is read for that (an InputError where it cannot be)."""
    if game is None:
        from ..track import load_spec

        spec, _, _ = load_spec(spec_path)
        game = spec.game
    return get(game)


def default_game() -> Game:
    return next(g for g in all_games() if g.default)


def car_sheets(field, settings, **options) -> list:
    """Every game's car pieces for ``field`` (``paddock cars``), in listing order. Options a game does not use
    are ignored."""
    return [sheet for game in all_games() for sheet in game.car_sheets(field, settings, **options)]
