"""The root ``paddock`` Typer app and its ``--version``. Every command module adds its commands to :data:`app`,
imported from here (not from the package, whose ``main`` imports the command modules: no import loop).
"""

from __future__ import annotations

import re

import typer
from typer.core import TyperGroup

from .. import __version__

#: The commands in the order a newcomer needs them (``paddock`` and ``paddock -h`` list them so): a game's pack
#: first, then its rules and cars, the printer's check, designing circuits, then each game's own commands. A
#: command not named here comes after them, in the order it was added.
ORDER = (
    "pack", "rules", "cars", "calibrate",
    "track", "check", "preview", "simulate", "corners",
    "road", "season", "piecepack", "motox", "rwb",
)  # fmt: skip
HELP = """Print-ready boards, cars, scorecards and rule summaries for tabletop racing games.

Start with `paddock pack` (the paper-and-dice F1 game: board, car slips, sheets and rules) and print the merged
PDF it names at 100 %. `paddock pack --list` names every game; `paddock COMMAND -h` tells more of a command."""


def summary(command) -> str:
    """A command's first sentence, whole (Click would cut it at ~45 characters with "…")."""
    text = " ".join((command.help or "").split("\n\n")[0].split())
    return re.split(r"(?<!\be\.g)(?<!\bi\.e)\.\s", text, maxsplit=1)[0].rstrip(".") + "."


def readable(command) -> None:
    """Every sub-command of ``command`` (the app as one Click command) listed with its first sentence whole, and
    a group named alone (``paddock motox``) showing its help rather than "Missing command"."""
    for sub in getattr(command, "commands", {}).values():
        if sub.help and not sub.short_help:
            sub.short_help = summary(sub)
        if hasattr(sub, "commands") and not sub.invoke_without_command:
            sub.no_args_is_help = True
        readable(sub)


class Commands(TyperGroup):
    """``paddock``'s commands listed in :data:`ORDER`."""

    def list_commands(self, ctx) -> list[str]:
        names = super().list_commands(ctx)
        return sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))


def new_app() -> typer.Typer:
    """An empty ``paddock`` app: the root's settings and ``--version``, no commands yet. ``-h`` is ``--help``
    on every command (a setting its sub-commands inherit)."""
    made = typer.Typer(
        name="paddock",
        cls=Commands,
        help=HELP,
        context_settings={"help_option_names": ["-h", "--help"]},
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    made.callback()(_root)
    return made


def _version(value: bool) -> None:
    if value:
        typer.echo(f"paddock {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """Paddock's root: its help is :data:`HELP`."""


app = new_app()
