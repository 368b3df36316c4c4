"""``paddock cars``: every game's car pieces for a field — f1-dice rear-wing slips, Formula D tokens, *Monaco!*
cards — each game adding its own through the ``cars`` module of its package."""

from __future__ import annotations

from typing import Annotated

import typer

from ..command import output_options, publish
from .root import app


@app.command("cars")
@output_options
def cars(
    teams: Annotated[
        str, typer.Argument(help="A preset name (f1-2011, monaco-example) or a teams YAML file.")
    ] = "f1-2011",
    unit: Annotated[
        float, typer.Option("--unit", min=10, max=40, help="The board's lane unit in mm; slips scale with it.")
    ] = 20.0,
    blank_rows: Annotated[int, typer.Option("--blank-rows", min=0, max=20, help="Rows of blank slips.")] = 2,
    tokens: Annotated[
        bool | None,
        typer.Option(
            "--tokens/--no-tokens",
            help="Formula D car tokens too (default: only for a field whose teams file says 'game: formula-d').",
        ),
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the presets and exit.")] = False,
    *,
    opts,
) -> None:
    """Car slips for every driver of a field (and Monaco! cards and Formula D tokens where the field is for them)."""
    from .. import games
    from ..teams import load_field, preset_names

    if list_:
        for name in preset_names():
            f = load_field(name)
            typer.echo(f"{name}: {f.name} — {len(f.teams)} teams, {len(f.drivers)} drivers")
        return
    field = load_field(teams)
    if tokens is None:  # a field for another game gets no token sheet it did not ask for
        tokens = field.game == "formula-d"
    sheets = games.car_sheets(field, opts.pages, unit=unit, blank_rows=blank_rows, tokens=tokens)
    publish(sheets, opts, folder=cars_folder(teams), merged="cars-print", title=f"Paddock — cars: {field.name}")


def cars_folder(teams: str) -> str:
    """The field's own folder under --out: ``cars-<preset or teams file name>``, so two fields never overwrite
    each other's files."""
    from pathlib import PurePath

    from ..outputs import safe_name

    name = PurePath(teams).stem if teams.lower().endswith((".yaml", ".yml")) else teams
    return f"cars-{safe_name(name.lower(), 'field')}"
