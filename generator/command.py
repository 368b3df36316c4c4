"""What every drawing command shares, the CLI's and each game's alike: the output options, declared once and added to
a command with ``@output_options`` (the command gets them as :class:`Options`), and :func:`publish` with a progress
line and a one-line summary. A game's command module imports this, never ``generator.cli``."""

from __future__ import annotations

import functools
import inspect
import sys
import typing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated

import typer

from . import pipeline
from .errors import InputError
from .messages import fit_line, quote
from .paper import PAPER_NAMES, PageSettings, parse_paper_choice
from .pipeline import ALL_FORMATS, Output, job_name
from .writers import PREVIEW_DPI

#: The formats ``--format`` may name, as its help and its errors list them ("pdf, svg, png").
FORMAT_LIST = ", ".join(ALL_FORMATS)

OUTPUT_PARAMS = [
    # a str, not a Path: a Path turns --out "" (an unset shell variable) into the current folder
    ("out", Annotated[str, typer.Option("--out", "-o", help="Folder for the generated files.")], "output"),
    ("format", Annotated[str, typer.Option("--format", "-f", help=f"Comma-separated: {FORMAT_LIST}.")], "pdf,png"),
    (
        "paper",
        Annotated[
            str | None,
            typer.Option(
                "--paper",
                help=f"Paper: {', '.join(PAPER_NAMES)}, optionally -portrait/-landscape. Boards go on it; "
                "cards and tables too, unless --tile-onto names the paper in the printer.",
            ),
        ],
        None,
    ),
    (
        "tile_onto",
        Annotated[
            str | None,
            typer.Option(
                "--tile-onto",
                help="Cut large sheets into tiles of this paper, e.g. a4 (glue overlap, assembly page).",
            ),
        ],
        None,
    ),
    (
        "ink_saver",
        Annotated[bool, typer.Option("--ink-saver", help="Outlines and light hatching instead of solid fills.")],
        False,
    ),
    (
        "dpi",
        Annotated[
            float,
            typer.Option("--dpi", min=36, max=1200, help="PNG preview resolution (96: true size on screen)."),
        ],
        PREVIEW_DPI,
    ),
    (
        "edge",
        Annotated[
            float,
            typer.Option("--edge", min=0, max=30, help="Printer's unprintable edge in mm; content keeps clear of it."),
        ],
        6.0,
    ),
    (
        "quiet",
        Annotated[bool, typer.Option("--quiet", "-q", help="Errors only: no progress bar, no summary, no notices.")],
        False,
    ),
]


@dataclass(frozen=True)
class Options:
    """What a command was asked of its sheets: the page settings its composers get, the output its files go to."""

    pages: PageSettings = PageSettings()
    output: Output = Output()
    command: str = ""  # the command as typed, without 'paddock' ("pack formula-d"): what its files are, see publish


CONTEXT = "paddock_context"


def paper_option(text: str | None, option: str):
    """``--paper``/``--tile-onto`` as typed (None: not given), its error said of the option."""
    if text is None:
        return None
    try:
        return parse_paper_choice(text)
    except InputError as err:
        err.field = option
        raise


def make_options(out, format, paper, tile_onto, ink_saver, dpi, edge, quiet) -> Options:
    formats = tuple(dict.fromkeys(f.strip().lower() for f in format.split(",") if f.strip()))
    bad = [f for f in formats if f not in ALL_FORMATS]
    if bad or not formats:
        raise InputError(
            f"unknown format {quote(','.join(bad) or format, 40)}",
            field="--format",
            hint=f"use a comma-separated list of {FORMAT_LIST}",
        )

    pages = PageSettings(
        paper=paper_option(paper, "--paper"), tile_onto=paper_option(tile_onto, "--tile-onto"), edge=edge
    )
    return Options(pages, Output(out=Path(out), formats=formats, dpi=dpi, ink_saver=ink_saver, quiet=quiet))


def _flag(param: inspect.Parameter) -> str:
    """How the user writes a parameter: its first option name (``--players``) or its argument name."""
    for meta in getattr(param.annotation, "__metadata__", ()):
        decls = [getattr(meta, "default", None), *(getattr(meta, "param_decls", None) or ())]
        decls = [d for d in decls if isinstance(d, str) and d.startswith("-")]
        if decls:
            return next((d for d in decls if d.startswith("--")), decls[0])
        if type(meta).__name__ == "ArgumentInfo":
            return param.name.upper()
    return "--" + param.name.replace("_", "-")


def refuse_empty(values: dict, flags: dict[str, str]) -> None:
    """An option given as an empty string (``--players ""``, often an unset shell variable) is an error, never
    silently the default."""
    for name, value in values.items():
        if isinstance(value, str) and not value.strip():
            flag = flags.get(name, "--" + name.replace("_", "-"))
            raise InputError("empty value", field=flag, hint="give a value or leave the option out")


def output_options(func):
    """Add the shared output options to a Typer command; the command receives them as ``opts`` (:class:`Options`)."""
    sig = inspect.signature(func)
    # Resolve string annotations (modules with `from __future__ import annotations`) so Typer sees the real
    # Annotated[..., typer.Option/Argument] metadata rather than a string.
    hints = typing.get_type_hints(func, include_extras=True)
    params = [
        p.replace(annotation=hints.get(p.name, p.annotation)) for p in sig.parameters.values() if p.name != "opts"
    ]
    for name, annotation, default in OUTPUT_PARAMS:
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default))
    names = [n for n, _, _ in OUTPUT_PARAMS]
    flags = {p.name: _flag(p) for p in params}
    # Typer hands a parameter typed as its Context the running command's context: its path names the command
    params.append(inspect.Parameter(CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context))

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        ctx = kwargs.pop(CONTEXT)
        refuse_empty(kwargs, flags)
        values = {n: kwargs.pop(n) for n in names}
        kwargs["opts"] = replace(make_options(**values), command=" ".join(ctx.command_path.split()[1:]))
        return func(*args, **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)
    # Typer reads the annotations again (twice) when it builds the command: hand it the resolved ones, so the
    # string annotations are evaluated once per command rather than three times on every run.
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper


def publish(sheets, opts: Options, folder: str = "", merged: str | None = None, title: str = "Paddock"):
    """Publish sheets with a one-line progress counter on a terminal (unless --quiet) and a one-line summary."""
    output = opts.output
    progress = None
    if not output.quiet and len(sheets) > 1 and sys.stderr.isatty():
        done = [0]

        def progress(name: str) -> None:
            done[0] += 1
            sys.stderr.write(f"\r\x1b[Krendering {done[0]}/{len(sheets)}: {name[:40]}")
            sys.stderr.flush()

    job = job_name(sheets, folder, merged, command=opts.command)
    try:
        written = pipeline.publish(sheets, output, opts.pages, folder, merged, title, progress=progress, job=job)
    finally:
        if progress is not None:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    if not output.quiet:  # a deep --out keeps its start and its end, the line its 300 characters
        where = output.out / folder if folder else output.out
        target = next((p for p in written if merged and p.name == f"{merged}.pdf"), None)
        typer.echo(fit_line(wrote_line(written, where, named=target is None)), err=True)
        if target is not None:
            typer.echo(fit_line(f"print {target}: {paper_summary(written.print_papers)}"), err=True)
        for line in large_sheets(written.large):
            typer.echo(fit_line(line), err=True)
    return written


def large_sheets(large) -> list[str]:
    """Where each sheet larger than A3 went (:attr:`generator.pipeline.Written.large`): the pages of the print PDF
    its tiles are and how many, or that it is printed whole (and how to tile it)."""
    out = []
    for name, paper, printed, n, first, last in large:
        at = "" if not first else (f" (page {first} of the print PDF)" if first == last else
                                   f" (pages {first}–{last} of the print PDF)")  # fmt: skip
        if printed != paper:
            out.append(f"{name}: the {paper} sheet tiled onto {n - 1} {printed} pages and an assembly page{at}")
        else:
            out.append(f"{name}: one {paper} page{at}: print it whole, or tile it with --tile-onto a3 (or a4)")
    return out


#: The most files a command's last line names one by one; past it, the first few and how many more.
NAMED = 4


def wrote_line(written, where, named: bool = True) -> str:
    """What a command wrote, in one line: each file (``wrote output/oval.pdf, output/oval.png``), or, for many, or
    a pack (whose next line names the file to print), the count and the folder."""
    paths = list(written)
    n = len(paths)
    count = f"{n} file{'s' if n != 1 else ''}"
    if not named:
        return f"wrote {count} to {where}"
    if n <= NAMED:
        return "wrote " + ", ".join(str(p) for p in paths)
    return f"wrote {count} to {where}: {', '.join(p.name for p in paths[:NAMED - 1])} and {n - NAMED + 1} more"


def paper_summary(names) -> str:
    """Which pages need which paper, from each page's size label: "all 13 pages A4", or "page 1 A3, pages 2–12 A4"."""
    names = list(names)
    if len(names) == 1:
        return f"1 page {names[0]}"
    if len(set(names)) == 1:
        return f"all {len(names)} pages {names[0]}"
    runs: list[list] = []
    for i, n in enumerate(names, 1):
        if runs and runs[-1][2] == n and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i, n])
    return ", ".join(f"page {a} {n}" if a == b else f"pages {a}–{b} {n}" for a, b, n in runs)


def publish_pack(game_id: str, sheets, opts: Options):
    """Publish a game's pack into ``OUT/<game>/`` with one merged ``<game>-print.pdf``."""
    return publish(sheets, opts, folder=game_id, merged=f"{game_id}-print", title=f"Paddock — {game_id} pack")
