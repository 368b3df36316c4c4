"""``paddock cars`` (car slips, tokens and Monaco! cards for a field) and ``paddock season`` (Monaco! seasons)."""

from typing import Annotated

import typer

from . import app
from .common import output_options, publish


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
    list_: Annotated[bool, typer.Option("--list", help="List the presets and exit.")] = False,
    *,
    opts,
) -> None:
    """Car slips for every driver of a field (and Monaco! cards and Formula D tokens where the field has them)."""
    from ..teams import load_field, preset_names
    from ..teams.sheets import car_sheets

    if list_:
        for name in preset_names():
            f = load_field(name)
            typer.echo(f"{name}: {f.name} — {len(f.teams)} teams, {len(f.drivers)} drivers")
        return
    field = load_field(teams)
    sheets = car_sheets(field, unit=unit, blank_rows=blank_rows)
    publish(sheets, opts, folder="cars", merged="cars-print", title=f"Paddock — cars: {field.name}")
