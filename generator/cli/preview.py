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
        typer.Option("--sim", help="After each rebuild, race the board (100 races) and list the designer's warnings."),
    ] = False,
) -> None:
    """Preview a circuit's board in the browser as its game prints it; every save redraws it (Ctrl-C stops)."""
    from .. import games
    from ..command import refuse_empty
    from ..errors import InputError
    from ..paper import PageSettings, parse_paper_choice
    from ..preview.server import Preview, bind, serve
    from ..problems import option_wording

    refuse_empty({"game": game, "paper": paper, "tile_onto": tile_onto}, {"tile_onto": "--tile-onto"})

    def choice(text, option):
        if text is None:
            return None
        try:
            return parse_paper_choice(text)
        except InputError as err:
            err.field = option
            raise

    settings = PageSettings(paper=choice(paper, "--paper"), tile_onto=choice(tile_onto, "--tile-onto"), edge=edge)
    if game is not None:
        games.get(game)  # an unknown game is refused before the server starts
    from ..track.load import shipped

    spec = shipped(spec)  # a circuit Paddock ships may be named as in the README (monte-carlo)
    if not spec.is_file():
        raise InputError("file not found", file=spec, hint="check the path")
    said = lambda line: typer.echo(line, err=True)  # noqa: E731
    notes = ()
    if sim:
        from .simulate import preview_notes

        notes = preview_notes(spec, game)
    preview = Preview(
        spec, settings, game, wording=option_wording, notes=notes, say=said, said_change=lambda change: change.line
    )
    serve(preview, bind(preview, port), open_browser)
