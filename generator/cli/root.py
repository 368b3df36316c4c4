"""The root ``paddock`` Typer app and its ``--version``. Every command module adds its commands to :data:`app`,
imported from here (not from the package, whose ``main`` imports the command modules: no import loop).
"""

from __future__ import annotations

import typer

from .. import __version__


def new_app() -> typer.Typer:
    """An empty ``paddock`` app: the root's settings and ``--version``, no commands yet."""
    made = typer.Typer(
        name="paddock",
        help="Print-ready circuits, cars, scorecards and reference cards for tabletop racing games.",
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
    """Paddock turns text specs into print-ready materials for tabletop racing games.

    Start with `paddock pack` (the f1-dice game: board, cars, sheets) and print the merged PDF at 100 %.
    """


app = new_app()
