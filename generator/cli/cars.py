"""``paddock cars`` (car slips, tokens and Monaco! cards for a field) and ``paddock season`` (Monaco! seasons)."""

from pathlib import Path
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
    tokens: Annotated[bool, typer.Option("--tokens/--no-tokens", help="Formula D-size car tokens too.")] = True,
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
    sheets = car_sheets(field, unit=unit, blank_rows=blank_rows, tokens=tokens)
    publish(sheets, opts, folder="cars", merged="cars-print", title=f"Paddock — cars: {field.name}")


season_app = typer.Typer(help="Monaco! seasons: dice a field, or apply the changes between two seasons.")
app.add_typer(season_app, name="season")

SeedOption = Annotated[int, typer.Option("--seed", help="Seed for the dice: the same seed gives the same file.")]
OutOption = Annotated[
    Path | None, typer.Option("--out", "-o", help="The new teams file (default: beside you, named after TEAMS).")
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Do not list what changed.")]


def _load(teams: str):
    from ..specs import load_yaml
    from ..teams.models import load_field, resolve

    path = resolve(teams)
    field = load_field(path)
    data, _ = load_yaml(path)
    return path, field, data


def _write(data: dict, header: str, target: Path, log: list[str], quiet: bool) -> None:
    from ..safeio import atomic_write
    from ..teams.season import season_file

    blob = season_file(data, header, target)
    atomic_write(target, blob)
    if not quiet:
        for line in log:
            typer.echo(line, err=True)
        typer.echo(f"wrote {target}", err=True)


@season_app.command("dice")
def season_dice(
    teams: Annotated[str, typer.Argument(help="A teams YAML file or preset name.")],
    seed: SeedOption = 1,
    out: OutOption = None,
    quiet: QuietOption = False,
) -> None:
    """Dice every driver's skill and every car's tech (1–6) and write a new teams file."""
    from ..teams.season import dice_field

    path, field, data = _load(teams)
    new, log = dice_field(data, seed)
    target = out or Path(f"{path.stem}-diced-{seed}.yaml")
    _write(new, f"{field.name}: ratings diced by `paddock season dice {teams} --seed {seed}`", target, log, quiet)


@season_app.command("next")
def season_next(
    teams: Annotated[str, typer.Argument(help="This season's teams file (or preset name).")],
    results: Annotated[
        Path, typer.Option("--results", help="YAML with this season's races and winners: races: [{winner: …}].")
    ],
    seed: SeedOption = 1,
    out: OutOption = None,
    quiet: QuietOption = False,
) -> None:
    """The next season: wins raise skills, best drivers retire, second best move, recruits, cars re-diced."""
    from ..teams.season import load_results, next_season, require_monaco

    path, field, data = _load(teams)
    require_monaco(field, path)
    winners = load_results(results, field)
    new, log = next_season(data, winners, seed)
    target = out or Path(f"{path.stem}-next-{seed}.yaml")
    header = f"{field.name}: next season, by `paddock season next {teams} --results {results} --seed {seed}`"
    _write(new, header, target, log, quiet)
