"""``paddock pack formula-d``: a board with corners marked, a scorecard and dashboard per player, reference cards."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import output_options, publish
from .pack import pack_app


@pack_app.command("formula-d")
@output_options
def formula_d(
    players: Annotated[
        str | None,
        typer.Option("--players", help='Player names, comma-separated: "Ann,Béla,Csaba" (at most 10).'),
    ] = None,
    players_file: Annotated[
        Path | None,
        typer.Option("--players-file", help="YAML players file: names, colours, WP builds, GT drivers."),
    ] = None,
    wp: Annotated[
        str | None,
        typer.Option(
            "--wp", help="One custom build for every player: tires=8,brakes=3,gearbox=2,body=2,engine=3,handling=2."
        ),
    ] = None,
    gt: Annotated[bool, typer.Option("--gt", help="Road race: the ten GT drivers, in rulebook order.")] = False,
    weather: Annotated[
        bool, typer.Option("--weather", help="Weather rules in play: a weather box on scorecards.")
    ] = False,
    tyres: Annotated[bool, typer.Option("--tyres", help="Tire rules in play: a tire box on scorecards.")] = False,
    track: Annotated[Path | None, typer.Option("--track", help="Circuit spec (YAML) for the board.")] = None,
    pit_roll: Annotated[
        int | None,
        typer.Option(
            "--pit-roll",
            min=1,
            max=30,
            help="Minimum roll to enter the pit; overrides the spec's pit.min_roll (neither: a box to write it in).",
        ),
    ] = None,
    *,
    opts,
) -> None:
    """Formula D: a per-lane board with stops and long/short paths, scorecards, dashboards, reference cards."""
    from ..packs import formula_d as variant

    sheets = variant.build(
        opts,
        players=players,
        players_file=players_file,
        wp=wp,
        gt=gt,
        weather=weather,
        tyres=tyres,
        track=track,
        pit_roll=pit_roll,
    )
    publish(sheets, opts, folder="formula-d", merged="formula-d-print", title="Paddock — formula-d pack")
