"""The ``paddock`` command. Thin: parse arguments, call the library, report errors.

Sub-commands live in sibling modules that import only typer at module level; the heavy libraries load inside
the commands, so ``paddock --help`` stays fast.
"""

from __future__ import annotations

import sys
import warnings

import typer

from .root import app

__all__ = ["app", "main"]


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
            from .track import cli_error

            err = cli_error(err)  # library errors name spec fields; say them as the command line's options
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
