"""``paddock pack GAME``: every material of one game, into ``OUT/GAME/`` plus one merged PDF.

The games come from the registry (:mod:`generator.games`): each game's ``cli`` module defines ``pack``, a
sub-command here with that function's options. Without a game, ``paddock pack [OPTIONS]`` builds the default.
"""

from __future__ import annotations

import typer
from typer.core import TyperGroup

from .root import app


class _DefaultGame(TyperGroup):
    """A group that runs the default game when none is named (``paddock pack --out x`` works too)."""

    def parse_args(self, ctx, args):
        from .. import games

        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h", "--list")):
            args = [games.default_game().id, *args]
        return super().parse_args(ctx, args)


def new_pack_group() -> typer.Typer:
    """An empty ``pack`` group (its ``--list`` and the default game when none is named), no games yet."""
    group = typer.Typer(
        cls=_DefaultGame,
        help="Build every material of one game into OUT/GAME/ plus one merged print-ready PDF. "
        "Without a GAME: the default (see --list).",
        no_args_is_help=False,
        invoke_without_command=True,
    )
    group.callback()(_pack)
    return group


def add_game(group: typer.Typer, game) -> None:
    """``paddock pack GAME``: the game's ``pack`` command on ``group``."""
    command = game.cli().pack
    group.command(game.id, help=command.__doc__)(command)


def _pack(
    list_: bool = typer.Option(False, "--list", help="List the games and what their packs hold, then exit."),
) -> None:
    if list_:
        from .. import games

        for game in games.all_games():
            mark = " (default)" if game.default else ""
            typer.echo(f"{game.id}{mark}: {game.title} — {game.summary}")
        raise typer.Exit()


def register_games() -> None:
    """A ``pack`` sub-command per game that has one, and each game's own commands. Called once per process, by
    :func:`generator.cli._register` (which holds the only guard)."""
    from .. import games

    for game in games.all_games():
        add_game(pack_app, game)
        module = game.cli()
        if hasattr(module, "register"):
            module.register(app)


pack_app = new_pack_group()
app.add_typer(pack_app, name="pack")
