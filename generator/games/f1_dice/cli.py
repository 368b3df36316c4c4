"""``paddock pack f1-dice``: board, car slips, qualifying, race reference card, standings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...command import output_options, publish_pack


@output_options
def pack(
    track: Annotated[Path | None, typer.Option("--track", help="Circuit spec (YAML) or centre-line CSV.")] = None,
    teams: Annotated[
        str, typer.Option("--teams", help="The field: a preset name (see `paddock cars --list`) or a teams YAML file.")
    ] = "f1-2011",
    points: Annotated[
        str | None,
        typer.Option("--points", help="Points system for the standings: 25-18-15 (default), 10-6-4 or 9-6-4."),
    ] = None,
    races: Annotated[int, typer.Option("--races", min=1, max=40, help="Races in the championship.")] = 19,
    laps: Annotated[
        int | None,
        typer.Option(
            "--laps",
            help="Race length in laps, 1 (a sprint) to 30 (default: the count nearest 150 units of racing for the "
            "board).",
        ),
    ] = None,
    pit: Annotated[
        bool,
        typer.Option(
            "--pit/--no-pit",
            help="Draw the circuit's pit lane (units, in and out lines, a garage per team); --no-pit leaves it off.",
        ),
    ] = True,
    cars: Annotated[
        int | None,
        typer.Option(
            "--cars",
            help="Race the first N cars of the field (2 or more), in its order: whole teams, then the first drivers "
            "of the next (a small field, or a circuit whose straight cannot hold the whole grid).",
        ),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            metavar="UNITS|auto|real",
            help="The board's start line, as `paddock track --start` places it.",
            show_default=False,
        ),
    ] = None,
    *,
    opts,
) -> None:
    """The paper-and-dice F1 game: everything needed to race, in one merged PDF."""
    from . import GAME

    publish_pack(
        "f1-dice",
        GAME.pack(
            opts.pages, track=track, teams=teams, points=points, races=races, laps=laps, pit=pit, cars=cars, start=start
        ),
        opts,
    )
