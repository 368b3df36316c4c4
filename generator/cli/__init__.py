"""The ``paddock`` command. Thin: parse arguments, call the library, report errors.

Sub-commands live in sibling modules that import only typer at module level; the heavy libraries load inside
the commands, so ``paddock --help`` stays fast.
"""

from __future__ import annotations

import errno
import os
import sys
import warnings

import typer

from ..messages import escape, fit_line
from .root import app

__all__ = ["app", "main"]


_REGISTERED = False
#: New objects between two young-generation passes of the cycle collector while a command runs (Python's: 700).
GC_YOUNG = 10_000
#: Young passes between two passes of the middle generation while a command runs (Python's: 10).
GC_MIDDLE = 100


def _register() -> None:
    """Add every command to ``app`` — once per process, the only guard: ``main`` called again in one process
    (tests, tools) must not add each game's commands again (the app would grow, and every later call slow down,
    with each call; the test suite's time grew with the square of its CLI calls)."""
    global _REGISTERED
    if _REGISTERED:
        return
    from . import calibrate, cars, pack, preview, rules, simulate, track  # noqa: F401  (each adds its commands to `app`)

    pack.register_games()
    _REGISTERED = True


def _one_command(args: list[str]):
    """For ``paddock pack [GAME] …``, ``paddock check …`` and ``paddock track …``: an app holding only that
    command, or None for the whole app. Building every command of every game (each game's CLI module imported,
    a click object made for every option) cost ~20 ms a run that the one command never used; what the command
    parses, prints and does is the same either way. Help on the groups (``pack --help``, ``--list``) and
    anything else gets the whole app."""
    from .root import new_app

    name = args[0] if args else None
    if name == "pack":
        from .. import games
        from .pack import add_game, new_pack_group

        rest = args[1:]
        known = {g.id: g for g in games.all_games()}
        if rest and rest[0] in known:
            game = known[rest[0]]
        elif not rest or (rest[0].startswith("-") and rest[0] not in ("--help", "-h", "--list")):
            game = games.default_game()
        else:
            return None
        group = new_pack_group()
        add_game(group, game)
        one = new_app()
        one.add_typer(group, name="pack")
        return one
    if name in ("check", "track"):
        from . import track  # noqa: F401  (adds its commands to the root app: take this one from there)
        from .root import app

        info = next((c for c in app.registered_commands if c.name == name), None)
        if info is None:
            return None
        one = new_app()
        one.registered_commands.append(info)
        return one
    return None


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


def _usage(err) -> str:
    """A parser's usage error (a value out of range, an unknown option or command) as one sentence."""
    text = " ".join(err.format_message().split()).replace(": Input should be", ": it should be")
    ctx = getattr(err, "ctx", None)
    path = getattr(ctx, "command_path", None) or "paddock"
    if text.startswith("No such command") and hasattr(getattr(ctx, "command", None), "list_commands"):
        names = [n for n in ctx.command.list_commands(ctx) if not n.startswith("_")]
        return f"{text.rstrip('.')} — use one of: {', '.join(names)}"
    return f"{text.rstrip('.')} — see '{path} --help'"


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app and turn every user error into one line on stderr and an exit code."""
    import os

    # Paddock's linear algebra is small (the adaptation's ~100-unknown solves): one BLAS thread. OpenBLAS's own
    # threads only spin against each other and other work — `check` of a real circuit took 3x the CPU, and up
    # to 20x the wall time on a busy 2-core machine. Set before numpy loads (the commands import it lazily).
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    # Python's cycle collector runs a young-generation pass every 700 new objects: importing pydantic, typer and
    # numpy (tens of thousands of objects, nearly none of them garbage) sets off hundreds of passes. Every
    # 10,000 is ~5 % faster for `check` and `pack` (measured side by side), collects every cycle all the same,
    # and holds 6 MB more at most (a 600-unit tiled board; off altogether it was 40 MB). Every 10th young pass
    # Python also sweeps the middle generation — every long-lived object the command's imports made, 12–16 ms
    # for the default pack: every 100th, a pack makes none (~3 % faster) and the largest runs (a 600-unit board
    # in three formats, the Formula D pack) peak at the same memory (measured). Called in-process (tests,
    # tools), the collector is set back as it was when the command returns.
    import gc

    was = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, GC_MIDDLE, *was[2:])
    try:
        code = _run(sys.argv[1:] if argv is None else argv)
    finally:
        gc.set_threshold(*was)
    if argv is None:
        _leave(code)
    sys.exit(code)


def _run(args: list[str]) -> int:
    """Run the command line ``args``: its exit code (every error said on stderr)."""
    import os

    from ..errors import EXIT_INPUT, PaddockError
    from ..notices import LayoutWarning

    code = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:  # (the command is chosen inside: a Ctrl-C while it loads is one line too)
            one = _one_command(args)
            if one is None:
                _register()
            command = typer.main.get_command(app if one is None else one)
            result = command.main(args=args, prog_name="paddock", standalone_mode=False)
            code = result if isinstance(result, int) else 0
            if code == 130:  # Ctrl-C in a command: the parser answers it with this code, silently
                say("error", "interrupted; nothing was written")
        except PaddockError as err:
            from .track import cli_error

            err = cli_error(err)  # library errors name spec fields; say them as the command line's options
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
            elif kind == "Abort":
                say("error", "aborted; nothing was written")
                code = 130
            elif hasattr(err, "format_message") and hasattr(err, "exit_code"):  # a usage error from the parser
                say("error", _usage(err))
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
    import contextlib
    import os

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (paddock … | head): nothing more to say
            stream.flush()
    os._exit(code)


def _os_error(err: OSError) -> int:
    """An OS error about a path no check caught (ENAMETOOLONG from a path probed before it is read): the user's
    path and the cause, exit 2 — or, naming no path, a bug."""
    from ..errors import EXIT_INPUT, InputError, os_reason

    if err.filename is None:
        return _internal(err)
    hint = "give a shorter path" if err.errno == errno.ENAMETOOLONG else "check the path"
    say("error", InputError(os_reason(err), file=os.fsdecode(err.filename), hint=hint))
    return EXIT_INPUT


def _internal(err: Exception) -> int:
    """A bug, not a user error: say so briefly."""
    import os

    from ..errors import EXIT_INTERNAL

    if "PADDOCK_DEBUG" in os.environ:
        raise err
    say("internal error", f"{type(err).__name__}: {err} (set PADDOCK_DEBUG=1 for a traceback and please report it)")
    return EXIT_INTERNAL
