"""``paddock pack motox``, ``paddock piecepack`` and ``paddock motox check|course|draw``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...command import output_options, publish, publish_pack

TileSizeOption = Annotated[
    str | None,
    typer.Option("--tile-size", help="Tile side: inches (2, 2in) or mm (50.8mm); coins and dice keep their size."),
]
DuplexOption = Annotated[
    str,
    typer.Option(
        "--duplex",
        help="Two-sided pieces: long (front and back pages, flip on the long edge), short (flip on the short edge) "
        "or off (single-sided fold-over strips).",
    ),
]
#: The riders motox.txt allows (rules.yaml ``players``; a test holds the help to it): the help says the range the
#: command accepts, and a number outside it is refused by the pack with the same range (no typer range, which
#: would print a second one).
PLAYERS_HELP = "Riders: 3 or 4 (MotoX is for 3–4 players)."
PlayersOption = Annotated[int | None, typer.Option("--players", help=PLAYERS_HELP)]
LookOption = Annotated[
    str,
    typer.Option(
        "--look",
        help="Tile backs and pawns: generic (a plain piecepack, every back alike) or motox (the dirt track and "
        "bikes, every back alike too).",
    ),
]
CourseArgument = Annotated[
    str, typer.Argument(help="A course spec (YAML), or a shipped course by name: twisty, big-jumps, three-riders.")
]


def _look(value: str) -> str:
    from ...errors import InputError
    from .pieces import LOOKS

    if value not in LOOKS:
        raise InputError(f"unknown look '{value[:30]}'", field="--look", hint="use " + " or ".join(LOOKS))
    return value


def _say_how_to_print(written, duplex: str, opts) -> None:
    """After the summary line: how to print the merged PDF (its front page says it too)."""
    if opts.output.quiet or not any(p.name.endswith("-print.pdf") for p in written):
        return
    if duplex == "off":
        how = "single-sided"
    else:
        how = f"double-sided, flipping on the {duplex} edge (blank pages are the backs of pieces you cut out)"
    typer.echo(f"  print it {how}, at 100 %; its front page lists which pages go on card", err=True)


@output_options
def pack(
    course: Annotated[
        str | None,
        typer.Option("--course", help="A course spec (YAML), or a shipped course by name (twisty, three-riders …)."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Deal and build a random course with this seed.")] = None,
    players: PlayersOption = None,
    tile_size: TileSizeOption = None,
    duplex: DuplexOption = "long",
    look: LookOption = "generic",
    *,
    opts,
) -> None:
    """MotoX for the piecepack: a print-and-play piecepack, a two-sided card per rider, the rules, a course
    diagram (a shipped course for the riders asked, unless --course or --seed says otherwise)."""
    from . import GAME

    sheets = GAME.pack(
        opts.pages, course=course, seed=seed, players=players, tile_size=tile_size, duplex=duplex, look=_look(look)
    )
    _say_how_to_print(publish_pack("motox", sheets, opts), duplex, opts)


@output_options
def piecepack(tile_size: TileSizeOption = None, duplex: DuplexOption = "long", *, opts) -> None:
    """A print-and-play piecepack: 24 tiles, 24 coins, 4 dice, 4 pawns, true scale, on card, with a front page."""
    from .pack import piecepack_sheets

    written = publish(
        piecepack_sheets(opts.pages, tile_size, duplex),
        opts,
        folder="piecepack",
        merged="piecepack-print",
        title="Paddock — piecepack",
    )
    _say_how_to_print(written, duplex, opts)


motox_app = typer.Typer(help="MotoX courses: check one against the building rules, deal a random one, draw one.")


#: A problem in ``motox check --json``: these keys, where set, in this order.
ANSWER_KEYS = ("kind", "message", "hint", "tile", "line")


def _answer(p) -> dict:
    """One problem of ``motox check --json``."""
    d = p.as_dict()
    return {k: d[k] for k in ANSWER_KEYS if k in d}


@motox_app.command("check")
def check_cmd(
    course: CourseArgument,
    json_out: Annotated[bool, typer.Option("--json", help="Print a machine-readable answer.")] = False,
) -> None:
    """Check a course against motox.txt's building rules: exit 0 if legal, 3 listing every problem, 2 if unreadable."""
    import json

    from ...errors import EXIT_GEOMETRY, PaddockError
    from ...problems import check_lines
    from . import facts
    from .checks import check, warnings
    from .pack import shipped_course

    course = shipped_course(course)
    try:
        crs, problems = check(course)
    except PaddockError as err:
        if not json_out:
            raise
        # An unreadable spec still gets its machine-readable answer (and keeps its exit code).
        problem = {"kind": "input", "message": err.message, "hint": err.hint or ""}
        problem.update({k: getattr(err, k) for k in ("line", "field") if getattr(err, k) is not None})
        answer = {"name": None, "file": str(course), "legal": False, "problems": [problem]}
        typer.echo(json.dumps(answer, indent=2, ensure_ascii=False))
        raise typer.Exit(code=err.exit_code) from None
    warned = warnings(crs)
    summary = {
        "name": crs.name,
        "file": str(course),
        "tiles": crs.n,
        "ramps": [{"tile": r.tile, "height": r.height, "edge": r.edge} for r in crs.ramp_list()],
        "coins": crs.coins_used(),
        "players": crs.players,
        "legal": not problems,
        "problems": [_answer(p) for p in problems],
        "warnings": [_answer(p) for p in warned],
    }
    if json_out:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        ramps = len(crs.ramps)
        typer.echo(
            f"{course}: {crs.name} — {crs.n} tiles, {ramps} ramp{'s' if ramps != 1 else ''} "
            f"({crs.coins_used()} of {facts.building_coins()} building coins), {crs.players} players"
        )
        if not problems:
            typer.echo("  OK: a legal MotoX course")
        for line in check_lines(course, problems):
            typer.echo(line)
        for line in check_lines(course, warned, lambda p: f"warning: {p}"):
            typer.echo(line)
    if problems:
        raise typer.Exit(code=EXIT_GEOMETRY)


@motox_app.command("course")
def course_cmd(
    players: Annotated[int, typer.Option("--players", help=PLAYERS_HELP)] = 4,
    seed: Annotated[int, typer.Option("--seed", help="The same seed always gives the same course.")] = 1,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="The course file to write (default: motox-<N>p-seed<S>.yaml).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print the course.")] = False,
) -> None:
    """Deal a piecepack and build a legal random course the way players would; write its spec (YAML)."""
    from ...outputs import atomic_write
    from .builder import course_yaml, deal_course

    built = deal_course(players, seed)
    name = f"motox-{players}p-seed{seed}.yaml"
    target = out / name if out is not None and out.is_dir() else out or Path(name)
    atomic_write(target, course_yaml(built, f"paddock motox course --players {players} --seed {seed}").encode("utf-8"))
    if not quiet:
        c = built.course
        typer.echo(
            f"wrote {target}: {c.n} tiles, {len(c.ramps)} ramps ({c.coins_used()} coins), {players} players", err=True
        )


@output_options
def draw_cmd(
    course: CourseArgument,
    tile_size: TileSizeOption = None,
    *,
    opts,
) -> None:
    """Draw a course diagram (to scale, on A4) into OUT/motox/course-NAME.pdf; a rule-breaking course is drawn
    marked as such, with its problems as warnings."""
    from ...notices import warn
    from ...outputs import safe_name
    from .checks import check, warnings
    from .diagram import course_page, preferred_paper
    from .pack import shipped_course
    from .piecepack_sheet import parse_tile_size

    course = shipped_course(course)
    crs, problems = check(course)
    for p in problems or warnings(crs):
        warn(f"{course}:{p.line or ''}: {p}")
    page = course_page(crs, opts.pages.text_page(preferred_paper(crs)), parse_tile_size(tile_size), len(problems))
    from ...scene import Sheet

    publish([Sheet(f"course-{safe_name(course.stem)}", page)], opts, folder="motox")


motox_app.command("draw")(draw_cmd)


def register(app: typer.Typer) -> None:
    """``paddock piecepack`` and the ``paddock motox`` group."""
    app.command("piecepack")(piecepack)
    app.add_typer(motox_app, name="motox")
