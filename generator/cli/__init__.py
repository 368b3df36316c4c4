"""The ``paddock`` command. Thin: parse arguments, call the library, report errors.

Sub-commands live in sibling modules that import only typer at module level; the heavy libraries load inside
the commands, so ``paddock --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import warnings

import typer

from ..errors import EXIT_INPUT, EXIT_INTERNAL, PaddockError
from ..messages import escape, fit_line
from ..notices import LayoutWarning
from ..problems import in_option_words
from . import calibrate, cars, pack, preview, rules, simulate, track  # noqa: F401  (each adds its commands to `app`)
from .root import app, readable

__all__ = ["app", "main"]


_REGISTERED = False
_COMMAND = None


def _register() -> None:
    """Add every game's commands to ``app`` (``pack GAME`` and each game's own) — once per process, the only
    guard: ``main`` called again in one process (tests, tools) must not add them again (the app would grow with
    each call)."""
    global _REGISTERED
    if not _REGISTERED:
        pack.register_games()
        _REGISTERED = True


def _command():
    """The whole app as one click command, made once per process (``main`` called again in one process reuses it:
    building it costs each call ~20 ms)."""
    global _COMMAND
    if _COMMAND is None:
        _register()
        _COMMAND = typer.main.get_command(app)
        readable(_COMMAND)
    return _COMMAND


LISTED_MAX = 40  # the most lines under the first of a message that lists problems (a check lists them all)


def say(kind: str, text: str) -> None:
    """A message on stderr: its first line as ``paddock: KIND: …``, each further line (a message that lists
    several problems, as ``paddock check`` does) indented on a line of its own; control characters escaped,
    every line at most :data:`~generator.messages.LINE_MAX` long (:func:`fit_line`), at most :data:`LISTED_MAX`
    lines listed. An internal error (Python's words, which may hold line breaks of their own) stays one line."""
    lines = [str(text)] if kind == "internal error" else str(text).split("\n")
    out = [fit_line(f"paddock: {kind}: {escape(lines[0])}")]
    rest = [line.rstrip() for line in lines[1:] if line.strip()]
    for line in rest[:LISTED_MAX]:
        out.append(fit_line(escape(line if line.startswith(" ") else "  " + line)))
    if len(rest) > LISTED_MAX:
        out.append(f"  … and {len(rest) - LISTED_MAX} more")
    typer.echo("\n".join(out), err=True)


def _usage(err, args: list[str] = ()) -> str:
    """A parser's usage error (a value out of range, an unknown option or command) as one sentence, pointing to
    the help of the command it is about (an option's error may come without the command's context: its command
    is then read off the command line)."""
    text = " ".join(err.format_message().split()).replace(": Input should be", ": it should be")
    ctx = getattr(err, "ctx", None)
    path = getattr(ctx, "command_path", None) or _command_path(args)
    if text.startswith("No such command") and hasattr(getattr(ctx, "command", None), "list_commands"):
        names = [n for n in ctx.command.list_commands(ctx) if not n.startswith("_")]
        return f"{text.rstrip('.')} — use one of: {', '.join(names)}"
    return f"{text.rstrip('.')} — see '{path} --help'"


def _command_path(args: list[str]) -> str:
    """``paddock pack monaco`` for ``pack monaco --modular``: the command words at the start of ``args``."""
    words, command = ["paddock"], _COMMAND
    for arg in args:
        sub = getattr(command, "commands", {}).get(arg)
        if sub is None:
            break
        words.append(arg)
        command = sub
    return " ".join(words)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app and turn every user error into one line on stderr and an exit code."""
    # Paddock's linear algebra is small (the adaptation's ~100-unknown solves): one BLAS thread. OpenBLAS's own
    # threads only spin against each other and other work — `check` of a real circuit took 3x the CPU, and up
    # to 20x the wall time on a busy 2-core machine. Set before numpy loads (the commands import it lazily).
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    code = _run(sys.argv[1:] if argv is None else argv)
    if argv is None:
        _leave(code)
    sys.exit(code)


def _run(args: list[str]) -> int:
    """Run the command line ``args``: its exit code (every error said on stderr)."""
    code = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:  # (the command is chosen inside: a Ctrl-C while it loads is one line too)
            command = _command()
            result = command.main(args=args, prog_name="paddock", standalone_mode=False)
            code = result if isinstance(result, int) else 0
            if code == 130:  # Ctrl-C in a command: the parser answers it with this code, silently
                say("error", "interrupted; nothing was written")
        except PaddockError as err:
            err = in_option_words(err)  # library errors name spec fields; say them as the command line's options
            say("error", err)
            code = err.exit_code
        except KeyboardInterrupt:
            say("error", "interrupted; nothing was written")
            code = 130
        except RecursionError:  # nesting no check caught: still the input's fault, still one line
            say("error", "the input is nested too deeply to read")
            code = EXIT_INPUT
        except OSError as err:  # the file system refused a path the user gave (a name too long, a loop of links)
            code = _os_error(err)
        except Exception as err:
            kind = type(err).__name__
            if kind == "Exit":  # --help, --version
                code = getattr(err, "exit_code", 0)
            elif kind == "NoArgsIsHelpError":  # `paddock` (or `paddock motox`) alone: its help, as -h shows it
                typer.echo(err.format_message())
            elif kind == "Abort":
                say("error", "aborted; nothing was written")
                code = 130
            elif hasattr(err, "format_message") and hasattr(err, "exit_code"):  # a usage error from the parser
                say("error", _usage(err, args))
                code = EXIT_INPUT
            else:
                code = _internal(err)
        finally:
            quiet = _quiet(args)
            for w in caught:  # Paddock's own notices; a library's warning is a bug to find, not news for the user
                if (issubclass(w.category, LayoutWarning) and not quiet) or "PADDOCK_DEBUG" in os.environ:
                    say("warning", w.message)
    return code


def _quiet(args: list[str]) -> bool:
    """Whether the command line asks for quiet (``-q``/``--quiet``): errors only, no notices."""
    options = args[: args.index("--")] if "--" in args else args
    return any(a in ("-q", "--quiet") for a in options)


def _leave(code: int) -> None:
    """End the ``paddock`` process at once: every file is written and closed, so skip tearing down numpy,
    shapely, pydantic and reportlab object by object (~80 ms, a tenth of a pack). Code calling :func:`main`
    with ``argv`` gets an ordinary ``SystemExit``."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (paddock … | head): nothing more to say
            stream.flush()
    os._exit(code)


def _os_error(err: OSError) -> int:
    """An OS error about a path no check caught (ENAMETOOLONG from a path probed before it is read): the user's
    path and the cause, exit 2 — or, naming no path, a bug."""
    from ..errors import InputError, os_reason

    if err.filename is None:
        return _internal(err)
    hint = "give a shorter path" if err.errno == errno.ENAMETOOLONG else "check the path"
    say("error", InputError(os_reason(err), file=os.fsdecode(err.filename), hint=hint))
    return EXIT_INPUT


def _internal(err: Exception) -> int:
    """A bug, not a user error: say so briefly."""

    if "PADDOCK_DEBUG" in os.environ:
        raise err
    say("internal error", f"{type(err).__name__}: {err} (set PADDOCK_DEBUG=1 for a traceback and please report it)")
    return EXIT_INTERNAL
