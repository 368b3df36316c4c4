"""The ``paddock`` command. Thin: parse arguments, call the library, report errors.

Sub-commands live in sibling modules that import only typer at module level; the heavy libraries load inside
the commands, so ``paddock --help`` stays fast.
"""

from __future__ import annotations

import sys
import warnings

import typer

from .. import __version__

app = typer.Typer(
    name="paddock",
    help="Print-ready circuits, cars, scorecards and reference cards for tabletop racing games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"paddock {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """Paddock turns text specs into print-ready materials for tabletop racing games.

    Start with `paddock pack` (the f1-dice game: board, cars, sheets) and print the merged PDF at 100 %.
    """


def _register() -> None:
    from . import calibrate, cars, pack, rules, track  # noqa: F401  (each adds its commands to `app`)

    pack.register_games()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app and turn every user error into one line on stderr and an exit code."""
    from ..errors import PaddockError

    _register()
    command = typer.main.get_command(app)
    args = sys.argv[1:] if argv is None else argv
    code = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = command.main(args=args, prog_name="paddock", standalone_mode=False)
            code = result if isinstance(result, int) else 0
        except PaddockError as err:
            typer.echo(f"paddock: error: {err}", err=True)
            code = err.exit_code
        except KeyboardInterrupt:
            typer.echo("paddock: interrupted; nothing was written", err=True)
            code = 130
        except Exception as err:
            kind = type(err).__name__
            if kind == "Exit":  # --help, --version
                code = getattr(err, "exit_code", 0)
            elif kind == "Abort":
                typer.echo("paddock: aborted; nothing was written", err=True)
                code = 130
            elif hasattr(err, "show") and hasattr(err, "exit_code"):  # a usage error from the parser
                err.show()
                code = err.exit_code
            else:
                code = _internal(err)
        finally:
            for w in caught:
                typer.echo(f"paddock: warning: {w.message}", err=True)
    sys.exit(code)


def _internal(err: Exception) -> int:
    """A bug, not a user error: say so briefly."""
    import os

    from ..errors import EXIT_INTERNAL

    if "PADDOCK_DEBUG" in os.environ:
        raise err
    typer.echo(
        f"paddock: internal error: {type(err).__name__}: {err} "
        "(set PADDOCK_DEBUG=1 for a traceback and please report it)",
        err=True,
    )
    return EXIT_INTERNAL
