"""``paddock rules GAME``: a game's rule summary — an A4/letter PDF in two columns, an A5 booklet imposed on A4
(``--booklet``), or Markdown (``--format md``). ``paddock rules --list`` names the games that have one."""

from __future__ import annotations

import functools
import inspect
from typing import Annotated

import typer

from ..command import FORMAT_LIST, output_options, publish
from ..errors import InputError
from ..pipeline import ALL_FORMATS
from .root import app

MARKDOWN = "md"
FORMAT = Annotated[
    str,
    typer.Option(
        "--format", "-f", help=f"Comma-separated: {FORMAT_LIST}, {MARKDOWN} (Markdown, for a website or forum)."
    ),
]


def _markdown_format(func):
    """Let ``--format`` also name ``md``: the Markdown is not a scene, so it is taken out of the formats the shared
    options check and handed to the command as ``markdown``."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        formats = [f.strip().lower() for f in kwargs["format"].split(",") if f.strip()]
        bad = [f for f in formats if f not in (*ALL_FORMATS, MARKDOWN)]
        if bad or not formats:
            raise InputError(
                f"unknown format '{','.join(bad) or kwargs['format']}'",
                field="--format",
                hint=f"use a comma-separated list of {FORMAT_LIST}, {MARKDOWN}",
            )
        kwargs["markdown"] = MARKDOWN in formats
        rest = [f for f in formats if f != MARKDOWN]
        kwargs["format"] = ",".join(rest) if rest or not kwargs["markdown"] else "pdf"
        kwargs["scenes"] = bool(rest) or not kwargs["markdown"]
        return func(*args, **kwargs)

    # The command sees `markdown` and `scenes`; the command line does not.
    sig = inspect.signature(func)
    params = []
    for p in sig.parameters.values():
        if p.name in ("markdown", "scenes"):
            continue
        if p.name == "format":
            p = p.replace(annotation=FORMAT)
        params.append(p)
    wrapper.__signature__ = sig.replace(parameters=params)
    return wrapper


def _list() -> None:
    from ..games.summaries import games_with_summary

    for game in games_with_summary():
        typer.echo(f"{game.id}: {game.title}")


@app.command("rules")
@_markdown_format
@output_options
def rules(
    game: Annotated[
        str | None, typer.Argument(help="The game (see --list).", metavar="GAME", show_default=False)
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the games that have a rule summary, then exit.")] = False,
    booklet: Annotated[
        bool,
        typer.Option(
            "--booklet",
            help="A5 pages imposed two to a side of A4 landscape: print both sides (flip on the short edge), "
            "fold in the middle, staple.",
        ),
    ] = False,
    optional: Annotated[
        bool, typer.Option("--optional/--no-optional", help="Include the optional rules and variants.")
    ] = True,
    *,
    opts,
    markdown: bool = False,
    scenes: bool = True,
) -> None:
    """A game's rule summary, in Paddock's own words: `--format md` adds Markdown (e.g. `-f pdf,md`)."""
    if list_:
        _list()
        return
    if game is None:
        from ..errors import InputError

        raise InputError("name a game", field="GAME", hint="see `paddock rules --list`")
    from ..games.summaries import load, summary_pages
    from ..scene import Sheet, numbered
    from ..writers.markdown import markdown as to_markdown

    content = load(game).only(optional)
    folder = content.game
    stem = f"{folder}-rules" + ("-booklet" if booklet else "")
    blob = to_markdown(content).encode("utf-8") if markdown else None
    if scenes:
        pages = summary_pages(content, opts.pages, booklet=booklet)
        sheets = [Sheet(stem, pages[0])] if len(pages) == 1 else numbered(stem, pages)
        publish(sheets, opts, folder=folder, merged=stem if len(pages) > 1 else None, title=content.title)
    if blob is not None:
        from ..outputs import OutputSet

        out = OutputSet(opts.output.out)
        out.add(f"{folder}/{content.game}-rules.md", blob)
        (path,) = out.commit()
        if not opts.output.quiet:
            typer.echo(f"wrote {path}", err=True)
