"""The game registry: every game Paddock serves is one package under ``generator/games/`` that registers itself.

A game is one home: its package (its facts read from ``templates/<game id>/``, one module per sheet, its pack, its
command-line module) and one registration line in its ``__init__``::

    GAME = register(Game(id="my-game", package=__name__, title="My Game", summary="board, cards"))

The contract is :class:`Game`: a frozen record of the game and its hooks, each a function of one of the game's own
modules found by name when first called — the ``__init__`` imports none of them, so the CLI discovers every game
for ``--help`` without loading a drawing library:

==================  ==========================================================  =====================================
module              functions                                                   what for
==================  ==========================================================  =====================================
``pack``            ``build(settings, **options) -> list[Sheet]``               ``paddock pack GAME`` (required)
``cli``             ``pack(...)``; optionally ``register(app)``                 the pack's options, the game's commands
``summary``         ``values(**facts)``, ``tables(**facts)``                    its rule summary (``paddock rules``)
``cars``            ``car_sheets(field, settings, **options)``                  its car pieces (``paddock cars``)
``circuit``         ``profile``, ``analysis(request)``                          a game that builds boards of its own:
                                                                                its notes and search, check/track
``board``           ``board``, ``board_facts``, ``page``                        its board as its pack prints it: the
                                                                                preview, a pack's board, track
``simulate``        ``simulate(board, options, progress)``                      ``paddock simulate``
==================  ==========================================================  =====================================

    from generator import games
    for game in games.all_games(): ...
    sheets = games.get("formula-d").pack(PageSettings(), players="Ann,Bob")
    circuit, sheet = games.board_of("my.yaml", PageSettings())     # the board the spec's game prints

Shared libraries (circuits in ``generator.track``, teams and liveries in ``generator.teams``, layout blocks in
``generator.compose``) serve every game and name none; a game never imports another game.
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from ..paper import PageSettings
    from ..scene import Page, Sheet
    from ..simulate import SimOptions
    from ..simulate.report import SimReport
    from ..teams import Field
    from ..track import Analysis, BoardProfile, BoardRequest, Circuit


@dataclass(frozen=True)
class BoardFacts:
    """What a game says about one of its boards beside it (``paddock preview``): ``figures``, (label, value)
    pairs ("Race", "3 laps"); ``tables``, each ``{"title": …, "columns": [...], "rows": [[...], ...]}``
    (Formula D's corners: stops, the green and red paths)."""

    figures: tuple[tuple[str, str], ...] = ()
    tables: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Game:
    """One game: ``id`` names its pack, its ``templates/`` folder and its output folder; ``package`` is its home
    (``generator.games.<pkg>``), whose modules give its hooks (see the module's docstring)."""

    id: str  # "f1-dice"
    package: str  # "generator.games.f1_dice"
    title: str  # "the paper-and-dice F1 game"
    summary: str  # one line for `paddock pack --list`
    default: bool = False  # `paddock pack` with no game builds this one
    order: int = 50  # listing order

    def module(self, name: str) -> ModuleType:
        """A module of the game's package, imported on first use."""
        return import_module(f"{self.package}.{name}")

    def has(self, name: str) -> bool:
        """Whether the game's package has the module ``name`` (found without importing it)."""
        return find_spec(f"{self.package}.{name}") is not None

    def _hook(self, module: str, name: str):
        """The function ``name`` of the game's module ``module``, or None where the game has neither."""
        return getattr(self.module(module), name, None) if self.has(module) else None

    def cli(self) -> ModuleType:
        """The game's command-line module: its ``pack`` command and, optionally, ``register(app)`` for its own."""
        return self.module("cli")

    def pack(self, settings: PageSettings, **options: Any) -> list[Sheet]:
        """Every sheet of ``paddock pack <id>``, laid out on ``settings``; ``options`` are the pack's own."""
        return self.module("pack").build(settings, **options)

    def values(self, **facts: Any) -> dict[str, str]:
        """Every ``{placeholder}`` of the game's rule summary, from its facts; ``facts`` are what a pack knows (its
        board, its field) so the summary says what the pack's other sheets say."""
        hook = self._hook("summary", "values")
        return hook(**facts) if hook else {}

    def tables(self, **facts: Any) -> dict[str, dict]:
        """The rule summary's tables (``{"columns": [...], "rows": [[...]]}``), from the same facts as its sheets."""
        hook = self._hook("summary", "tables")
        return hook(**facts) if hook else {}

    def car_sheets(self, field: Field, settings: PageSettings, **options: Any) -> list[Sheet]:
        """The game's car pieces for ``field`` (``paddock cars``); none by default."""
        hook = self._hook("cars", "car_sheets")
        return hook(field, settings, **options) if hook else []

    @property
    def board_profile(self) -> BoardProfile | None:
        """What the game's boards are to the circuit engine (its notes for a designer, what its search may try):
        its ``circuit.profile``, None for a game whose boards are the engine's own."""
        return self._hook("circuit", "profile")

    def board(
        self,
        spec_path: str | Path,
        settings: PageSettings,
        *,
        cars: int | None = None,
        laps: int | None = None,
        start: str | None = None,
        grid: int | None = None,
        problems: list | None = None,
        **options: Any,
    ) -> tuple[Circuit, Sheet]:
        """The board of the circuit ``spec_path`` (a spec or a centre-line CSV) exactly as this game's pack prints
        it (its composer, its layer over the track), laid out on ``settings``: the built circuit and the sheet.
        Raises what the pack raises (an InputError, a GeometryError listing the problems). By default the plain
        board of ``paddock track`` (:func:`plain_board`); ``options`` are the game's own (none by default).

        ``cars``, ``laps``, ``start`` (units, 'auto' or 'real') and ``grid``: what ``paddock preview`` passes on,
        each meaning what the game's pack (or ``paddock track``) means by it; a game refuses one it has no use for
        (an InputError naming the option). ``problems``: a list to collect the board's problems in instead of
        raising them: the board is then built and drawn as far as it builds (a GeometryError only when nothing of
        it can be drawn)."""
        hook = self._hook("board", "board")
        if hook:
            return hook(spec_path, settings, cars=cars, laps=laps, start=start, grid=grid, problems=problems, **options)
        _no_field(self, cars=cars, laps=laps)
        return plain_board(spec_path, settings, {"start": start, "grid": grid}, problems)

    def board_facts(self, circuit: Circuit, laps: int | None = None) -> BoardFacts:
        """What the game says beside its board (``circuit``, as :meth:`board` built it; ``laps``: the race length
        asked, where the game takes it): none by default."""
        hook = self._hook("board", "board_facts")
        return hook(circuit, laps=laps) if hook else BoardFacts()

    def board_analysis(self, request: BoardRequest) -> Analysis:
        """The board of ``request`` as this game's pack prints it (its spaces, paper and corners), for ``check``
        and ``track``: an :class:`~generator.track.Analysis` that never raises for geometry, its notices said. By
        default the circuit engine's board, the game's notes on it said."""
        from .. import track

        hook = self._hook("circuit", "analysis")
        if hook:
            return hook(request)
        return track.said(track.Search().board(request.replace(profile=self.board_profile or request.profile)))

    def board_page(self, circuit: Circuit) -> Page:
        """The page of the board :meth:`board_analysis` built, as ``paddock track`` draws it: the game's layer on
        the engine's board (its ``board.page``, where the game builds boards of its own), or the engine's board."""
        from .. import track

        hook = self._hook("board", "page") if self.has("circuit") else None
        return hook(circuit) if hook else track.draw_board(circuit).page

    def simulate(self, board: Path | None, options: SimOptions, progress=None) -> SimReport:
        """Race ``board`` (a spec or CSV; None: the game's default board) ``options.races`` times with computer
        drivers and report how it plays (``paddock simulate``); ``progress(n)`` is told as races finish. A game
        that cannot be simulated says so, naming those that can."""
        if not self.simulates:
            can = ", ".join(g.id for g in all_games() if g.simulates) or "none"
            raise InputError(f"Paddock cannot simulate {self.title} races", field="--game", hint=f"simulate {can}")
        return self.module("simulate").simulate(board, options, progress)

    @property
    def simulates(self) -> bool:
        """Whether the game races its boards with computer drivers (its ``simulate`` module)."""
        return self.has("simulate")


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
    game's profile's ``notes`` (none for a game without). Whoever builds a circuit from a user's spec passes this
    to the circuit engine (``track.load(…, notes=games.board_notes)``), which says them as warnings; the engine
    itself knows no game."""
    _discover()
    game = _GAMES.get(circuit.spec.game)
    profile = game.board_profile if game is not None else None
    return profile.notes(circuit) if profile is not None and profile.notes is not None else []


def plain_board(spec_path, settings, overrides: dict | None = None, problems: list | None = None):
    """The board ``paddock track`` draws of ``spec_path`` on ``settings``: the circuit (its spec's game's notes
    said as warnings) and its sheet. ``overrides``: spec fields replaced (``track.OVERRIDABLE``, ``start``);
    ``problems``: a list the problems go into instead of being raised (see :meth:`Game.board`)."""
    from .. import track
    from ..problems import geometry_error

    if problems is None:
        circuit = track.load(spec_path, settings.board_paper(), overrides, settings.edge, notes=board_notes)
        return circuit, track.board_sheet(circuit)
    found = track.check(spec_path, settings.board_paper(), overrides, settings.edge, notes=board_notes)
    problems.extend(found.problems)
    if found.circuit is None:
        raise geometry_error(found.problems, found.source)
    return found.circuit, track.board_sheet(found.circuit)


def _no_field(game: Game, **given) -> None:
    """An InputError for ``cars``/``laps`` given to a game whose board has no field or race length of its own."""
    for name, value in given.items():
        if value is not None:
            raise InputError(
                f"--{name} {value}: the board of {game.title} is paddock track's, with no {name} of its own",
                field=f"--{name}",
                hint=f"leave out --{name} (f1-dice and formula-d boards take it)",
            )


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
