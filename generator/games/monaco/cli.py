"""The *Monaco!* commands: ``paddock pack monaco``, ``paddock road`` (a circuit's road cut into pieces, or the
modular set) and ``paddock season dice`` / ``next`` (monaco.txt A4–5)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...command import output_options, publish, publish_pack

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
    from ...outputs import atomic_write
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


WidthOption = Annotated[
    str | None,
    typer.Option(
        "--width", help="Road width: double (Monaco-like circuits) or quadruple (Monza-like); default double."
    ),
]
LapOption = Annotated[
    str | None,
    typer.Option(
        "--lap",
        help="Lap length along the centre line: 12ft, 3.5m, 140in (a bare number is feet). Default: the spec's "
        "own proportions, its track becoming the road.",
    ),
]
LaneOption = Annotated[
    str | None,
    typer.Option("--lane-width", help="Width of one lane: 1.875 (inches), 2in, 48mm. Default 1⅞ in (1:64 cars)."),
]
ToneOption = Annotated[
    str,
    typer.Option(
        "--road-tone",
        help="light (default): a pale road with crisp edges and grey lines, little toner; full: asphalt grey with "
        "white lines. --ink-saver hatches either.",
    ),
]
CarOption = Annotated[
    str | None, typer.Option("--car-length", help="Car length the grid and pit boxes are drawn for; default 3 in.")
]


@output_options
def pack(
    teams: Annotated[
        str, typer.Option("--teams", help="The field: a preset name (see `paddock cars --list`) or a teams YAML file.")
    ] = "monaco-example",
    track: Annotated[
        Path | None, typer.Option("--track", help="Circuit spec (YAML) or centre-line CSV; default a Monaco-like one.")
    ] = None,
    width: WidthOption = None,
    lap: LapOption = None,
    lane_width: LaneOption = None,
    car_length: CarOption = None,
    points: Annotated[
        str | None,
        typer.Option("--points", help="Points from the winner down, e.g. 10-8-6-5-4-3-2-1 (Paddock's reading)."),
    ] = None,
    races: Annotated[int, typer.Option("--races", min=1, max=30, help="Races in the season.")] = 8,
    laps: Annotated[int, typer.Option("--laps", min=1, max=20, help="Lap boxes on the race log.")] = 3,
    modular: Annotated[
        str | None,
        typer.Option("--modular", help="Add a modular road set: 'default' or e.g. straight-12=4,curve-90-tight=4."),
    ] = None,
    road_tone: ToneOption = "light",
    *,
    opts,
) -> None:
    """Monaco!: road pieces and plan, measuring tools, speed dials, cards, practice, race, season and squad sheets."""
    from . import GAME

    sheets = GAME.pack(
        opts.pages,
        teams=teams,
        track=track,
        width=width,
        lap=lap,
        lane_width=lane_width,
        car_length=car_length,
        points=points,
        races=races,
        laps=laps,
        modular=None if modular is None else ("" if modular == "default" else modular),
        tone=road_tone,
    )
    publish_pack("monaco", sheets, opts)


@output_options
def road_cmd(
    spec: Annotated[
        Path | None, typer.Argument(help="Circuit spec (YAML) or centre-line CSV. Leave out with --modular.")
    ] = None,
    width: WidthOption = None,
    lap: LapOption = None,
    lane_width: LaneOption = None,
    car_length: CarOption = None,
    grid: Annotated[int | None, typer.Option("--grid", min=0, max=40, help="Grid slots to print (default 8).")] = None,
    smoothing: Annotated[
        float | None,
        typer.Option("--smoothing", metavar="MM", help="CSV/points: smooth the centre line (as for `paddock track`)."),
    ] = None,
    modular: Annotated[bool, typer.Option("--modular", help="Print the modular set instead of a circuit.")] = False,
    set_: Annotated[
        str | None,
        typer.Option("--set", help="The modular set: e.g. straight-12=4,straight-6=2,curve-90-tight=4,pit=1."),
    ] = None,
    road_tone: ToneOption = "light",
    *,
    opts,
) -> None:
    """Monaco! road at toy-car scale: a circuit cut into numbered pieces that fit the paper, with a layout plan;
    or (--modular) a set of straights, curves and a pit section to build circuits freely."""
    from ...errors import InputError
    from ...track import board_stem
    from ...units import MM_PER_INCH
    from .facts import feet_inches, frac_in, length_option, road
    from .road_sheets import check_tone
    from .roadkit import circuit_kit, modular_kit

    width = width or road().default_width
    tone = check_tone(road_tone)
    lane = length_option(lane_width, "--lane-width")
    car = length_option(car_length, "--car-length")
    if modular or set_ is not None:
        if spec is not None:
            raise InputError("give a circuit SPEC or --modular, not both", field="--modular")
        kit = modular_kit(set_, opts.pages, width, lane, car, tone=tone)
        stem = f"modular-{width}"
        publish(kit.sheets, opts, folder=stem, merged=f"{stem}-print", title=f"Paddock — Monaco! {stem}")
        if not opts.output.quiet:
            parts = len(kit.pieces)
            typer.echo(
                f"modular set, {width} road: {parts} parts on {kit.sheet_count} {kit.paper_label} sheets", err=True
            )
        return
    if spec is None:
        raise InputError("give a circuit spec (YAML or CSV), or --modular for the modular set", field="SPEC")
    lap_in = length_option(lap, "--lap")
    kit = circuit_kit(spec, opts.pages, width, lap_in, lane, car, grid, {"smoothing": smoothing}, tone=tone)
    r = kit.road
    stem = board_stem(r.name) + "-road"
    publish(kit.sheets, opts, folder=stem, merged=f"{stem}-print", title=f"Paddock — {r.name} road")
    if not opts.output.quiet:
        lap_text = f"lap {r.lap_in:.0f} in ({feet_inches(r.lap_in)})"
        typer.echo(
            f"{r.name}: {width} road {frac_in(r.n.width / MM_PER_INCH)} wide, {lap_text}: "
            f"{len(kit.pieces)} pieces on {kit.sheet_count} {kit.paper_label} sheets",
            err=True,
        )


def register(app: typer.Typer) -> None:
    """The game's own commands on the root app."""
    app.add_typer(season_app, name="season")
    app.command("road")(road_cmd)
