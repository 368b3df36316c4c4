"""``paddock pack rwb-trouble`` and ``paddock rwb chips``: the RWB TROUBLE commands.

``--turns`` and ``--track`` are read by Paddock itself (:func:`facts.parse_turns`, :func:`facts.parse_track`), so a
bad value is one line naming the option and what to give, like every other input error.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ...command import output_options, publish, publish_pack

Turns = Annotated[
    str | None,
    typer.Option(
        "--turns", metavar="N", help="Race length in turns: it sets how many chips the card gets (default: 50)."
    ),
]
Track = Annotated[
    str | None,
    typer.Option(
        "--track",
        metavar="TYPE",
        help="Track type: road (default), short, speedway or oval. It decides where the extra chips go: where the "
        "add-on suggests a place (a short track: Paddock's reading, CRASHES); on an oval the card leaves them to you.",
    ),
]
Extras = Annotated[
    str | None,
    typer.Option(
        "--extras",
        metavar="SPACE=N,…",
        help="Place the extra chips yourself, e.g. accident=1,wreck=1 (spaces: accident, crash, wreck); "
        "they must add up to the race's extras.",
    ),
]
Card = Annotated[
    str | None,
    typer.Option("--card", metavar="SIZE", help="Chip card size: index (5 × 3 in, the default), a6 or a7."),
]


def _say_defaults(turns, track, opts) -> None:
    """What was chosen for a race length or a track left out, on stderr (not with --quiet)."""
    from . import facts

    note = facts.defaults_note(turns, track)
    if note and not opts.output.quiet:
        typer.echo(f"paddock: {note}", err=True)


@output_options
def pack(turns: Turns = None, track: Track = None, extras: Extras = None, card: Card = None, *, opts) -> None:
    """RWB TROUBLE for Red White & Blue Racin': chip card, chips and quick card, ACCIDENT tables, CRASH flow chart,
    tracker. Without --turns and --track: a 50-turn race on a road course (the add-on's example), said on stderr."""
    from . import GAME

    sheets = GAME.pack(opts.pages, turns=turns, track=track, extras=extras, card=card)
    _say_defaults(turns, track, opts)
    written = publish_pack("rwb-trouble", sheets, opts)
    if not opts.output.quiet and any(p.name.endswith("-print.pdf") for p in written):
        typer.echo("  print it double-sided (blank pages are the backs of pieces you cut out), at 100 %", err=True)


@output_options
def chips(turns: Turns = None, track: Track = None, extras: Extras = None, card: Card = None, *, opts) -> None:
    """The TROUBLE chip card, its chips and the quick card for one race, at true size, into OUT/rwb-trouble/."""
    from .pack import chip_sheets

    sheets = chip_sheets(opts.pages, turns, track, extras, card)
    _say_defaults(turns, track, opts)
    publish(sheets, opts, folder="rwb-trouble")


rwb_app = typer.Typer(
    help="Red White & Blue Racin' with the Three Forms of TROUBLE add-on.",
    no_args_is_help=True,
)


@rwb_app.callback()
def _rwb() -> None:
    """Red White & Blue Racin' with the Three Forms of TROUBLE add-on (by Laurence Davis)."""


def register(app: typer.Typer) -> None:
    """``paddock rwb chips``."""
    rwb_app.command("chips")(chips)
    app.add_typer(rwb_app, name="rwb")
