"""``paddock preview SPEC``: the board in a local web page, redrawn on every save, problems marked on it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .root import app


@app.command("preview")
def preview_cmd(
    spec: Annotated[Path, typer.Argument(help="Circuit spec (YAML) or a centre-line CSV.")],
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            help="Show the board as this game's pack prints it (default: the spec's 'game').",
            show_default=False,
        ),
    ] = None,
    port: Annotated[
        int | None,
        typer.Option(
            "--port",
            min=0,
            max=65535,
            help="Port on 127.0.0.1 (default 8765, or a free one; 0: a free one).",
            show_default=False,
        ),
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the web browser.")] = False,
    paper: Annotated[
        str | None, typer.Option("--paper", help="Paper for the board (default: the spec's).", show_default=False)
    ] = None,
    tile_onto: Annotated[
        str | None,
        typer.Option(
            "--tile-onto", help="Show the tiles the board is cut into on this paper, e.g. a4.", show_default=False
        ),
    ] = None,
    edge: Annotated[
        float,
        typer.Option("--edge", min=0, max=30, help="Printer's unprintable edge in mm; content keeps clear of it."),
    ] = 6.0,
    sim: Annotated[
        bool,
        typer.Option(
            "--sim",
            help="Race each board that prints (100 races, in a process of its own, once the board is shown) and list "
            "the simulator's warnings beside it; a newer save ends a run still racing.",
        ),
    ] = False,
    cars: Annotated[
        int | None,
        typer.Option(
            "--cars",
            min=1,
            max=60,
            help="The field, as the pack races it: f1-dice's first N cars (pack --cars), Formula D's N players.",
            show_default=False,
        ),
    ] = None,
    laps: Annotated[
        int | None,
        typer.Option("--laps", min=1, max=99, help="Race length in laps, as the pack prints it.", show_default=False),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            metavar="UNITS|auto|real",
            help="The start line, as pack --start and track --start place it.",
            show_default=False,
        ),
    ] = None,
    grid: Annotated[
        int | None,
        typer.Option(
            "--grid",
            metavar="N",
            min=0,
            max=200,
            help="Grid slots (spec 'grid'), as track --grid; f1-dice sets its grid by the field (--cars).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Preview a circuit's board in the browser as its game's pack prints it; every save redraws it (Ctrl-C stops)."""
    from .. import games
    from ..command import paper_option, refuse_empty
    from ..errors import InputError
    from ..paper import PageSettings
    from ..preview.server import Preview, bind, serve
    from ..problems import option_wording

    refuse_empty({"game": game, "paper": paper, "tile_onto": tile_onto, "start": start}, {"tile_onto": "--tile-onto"})

    tiles = paper_option(tile_onto, "--tile-onto")
    settings = PageSettings(paper=paper_option(paper, "--paper"), tile_onto=tiles, edge=edge)
    if game is not None:
        games.get(game)  # an unknown game is refused before the server starts
    from ..track.load import shipped

    named = spec
    spec = shipped(spec)  # a circuit Paddock ships may be named as in the README (monte-carlo)
    if not spec.is_file():
        raise InputError("file not found", file=named, hint="check the path")
    # the file itself from now on, wherever the preview is run from: a spec deleted or renamed later is said
    # missing, never replaced by a shipped circuit of the same name
    spec = spec.absolute()
    said = lambda line: typer.echo(line, err=True)  # noqa: E731
    options = {"cars": cars, "laps": laps, "start": start, "grid": grid}
    preview = Preview(
        spec, settings, game, options, wording=option_wording, say=said, said_change=lambda change: change.line, sim=sim
    )
    serve(preview, bind(preview, port), open_browser)
