"""The game registry: every game Paddock serves is one package under ``generator/games/`` that registers itself.

A game package holds everything of one game: its facts (read from ``templates/<game id>/``), one module per sheet,
its ``pack`` (the list of sheets ``paddock pack GAME`` prints) and its ``cli`` (the ``pack`` command's options and
any commands of its own). Its ``__init__`` only calls :func:`register` — it stays cheap to import, so the CLI can
discover every game for ``--help`` without loading a drawing library.

    from generator import games
    for game in games.all_games(): ...
    games.get("formula-d").pack_module().build(...)

Shared libraries (circuits in ``generator.track``, teams and liveries in ``generator.teams``, layout blocks in
``generator.compose``) serve every game; a game never imports another game.
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

from ..errors import InputError


@dataclass(frozen=True)
class Game:
    """One game: ``id`` names its pack, its ``templates/`` folder and its output folder."""

    id: str  # "f1-dice"
    title: str  # "the paper-and-dice F1 game"
    summary: str  # one line for `paddock pack --list`
    package: str  # "generator.games.f1_dice"
    default: bool = False  # `paddock pack` with no game builds this one
    order: int = 50  # listing order
    # what a designer of a circuit board for this game (a spec's ``game``) should look at, in words: "module.function"
    # in the package, a function of the built circuit giving a list of notes (see :func:`board_notes`)
    board_notes: str | None = None

    def module(self, name: str) -> ModuleType:
        """A module of the game's package, imported on first use (``pack``, ``cli``, ``facts`` …)."""
        return import_module(f"{self.package}.{name}")

    def has(self, name: str) -> bool:
        from importlib.util import find_spec

        return find_spec(f"{self.package}.{name}") is not None

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
    if game is None or game.board_notes is None:
        return []
    module, function = game.board_notes.rsplit(".", 1)
    return getattr(game.module(module), function)(circuit)


def default_game() -> Game:
    return next(g for g in all_games() if g.default)


def car_sheets(field, opts, **options) -> list:
    """Every game's car pieces for ``field`` (``paddock cars``): each game with a ``cars`` module adds its own —
    ``car_sheets(field, opts, **options)`` — in listing order. Options a game does not use are ignored."""
    sheets: list = []
    for game in all_games():
        if game.has("cars"):
            sheets += game.module("cars").car_sheets(field, opts, **options)
    return sheets
