"""``paddock pack f1-dice``: board, car slips, qualifying, race reference card, standings."""

from pathlib import Path
from typing import Annotated

import typer

from .common import output_options, publish
from .pack import pack_app


@pack_app.command("f1-dice")
@output_options
def f1_dice(
    track: Annotated[Path | None, typer.Option("--track", help="Circuit spec (YAML) or centre-line CSV.")] = None,
    teams: Annotated[
        str, typer.Option("--teams", help="The field: a preset name (see `paddock cars --list`) or a teams YAML file.")
    ] = "f1-2011",
    points: Annotated[
        str | None,
        typer.Option("--points", help="Points system for the standings: 25-18-15 (default), 10-6-4 or 9-6-4."),
    ] = None,
    races: Annotated[int, typer.Option("--races", min=1, max=40, help="Races in the championship.")] = 19,
    *,
    opts,
) -> None:
    """The paper-and-dice F1 game: everything needed to race, in one merged PDF."""
    from ..packs import f1_dice as variant

    sheets = variant.build(opts, track=track, teams=teams, points=points, races=races)
    publish(sheets, opts, folder="f1-dice", merged="f1-dice-print", title="Paddock — f1-dice pack")
