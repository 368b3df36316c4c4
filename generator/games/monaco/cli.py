"""``paddock season dice`` and ``paddock season next``: *Monaco!* seasons (monaco.txt A4–5)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

season_app = typer.Typer(help="Monaco! seasons: dice a field, or apply the changes between two seasons.")

SeedOption = Annotated[int, typer.Option("--seed", help="Seed for the dice: the same seed gives the same file.")]
OutOption = Annotated[
    Path | None, typer.Option("--out", "-o", help="The new teams file (default: beside you, named after TEAMS).")
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Do not list what changed.")]


def _load(teams: str):
    from ...specs import load_yaml
    from ...teams.models import load_field, resolve

    path = resolve(teams)
    field = load_field(path)
    data, _ = load_yaml(path)
    return path, field, data


def _write(data: dict, header: str, target: Path, log: list[str], quiet: bool) -> None:
    from ...safeio import atomic_write
    from .season import season_file

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
    from .season import dice_field

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
    from .season import load_results, next_season, require_monaco

    path, field, data = _load(teams)
    require_monaco(field, path)
    winners = load_results(results, field)
    new, log = next_season(data, winners, seed)
    target = out or Path(f"{path.stem}-next-{seed}.yaml")
    header = f"{field.name}: next season, by `paddock season next {teams} --results {results} --seed {seed}`"
    _write(new, header, target, log, quiet)


def register(app: typer.Typer) -> None:
    """The game's own commands on the root app."""
    app.add_typer(season_app, name="season")
