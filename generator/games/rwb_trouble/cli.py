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


def _say_how_to_print(written, sheets, opts) -> None:
    """After the summary line: how to print the merged PDF — the edge to flip on and the pages that go on card."""
    from ...pipeline import print_order

    if opts.output.quiet or not any(p.name.endswith("-print.pdf") for p in written):
        return
    order = print_order([s.side for s in sheets])
    card = [n for n, at in enumerate(order, 1) if at is not None and "chip" in sheets[at[0]].name]
    card += [n + 1 for n in card if n + 1 <= len(order) and order[n] is None]  # a blank back of card
    pages = f"{min(card)}–{max(card)}" if len(card) > 1 else str(card[0])
    rest = ", the rest on paper" if len(order) > max(card) else ""
    typer.echo(
        f"  print it double-sided, flipping on the long edge, at 100 %: pages {pages} (the chips, their backs and "
        f"the chip and quick cards) on card (160–250 g/m²){rest}",
        err=True,
    )


@output_options
def pack(turns: Turns = None, track: Track = None, extras: Extras = None, card: Card = None, *, opts) -> None:
    """RWB TROUBLE for Red White & Blue Racin': chip card, chips and quick card, ACCIDENT tables, CRASH flow chart,
    tracker. Without --turns and --track: a 50-turn race on a road course (the add-on's example), said on stderr."""
    from . import GAME

    sheets = GAME.pack(opts.pages, turns=turns, track=track, extras=extras, card=card)
    _say_defaults(turns, track, opts)
    _say_how_to_print(publish_pack("rwb-trouble", sheets, opts), sheets, opts)


@output_options
def chips(turns: Turns = None, track: Track = None, extras: Extras = None, card: Card = None, *, opts) -> None:
    """The TROUBLE chip card, its chips and the quick card for one race, at true size, into OUT/rwb-trouble/."""
    from .pack import chip_sheets, race_stem

    stem = race_stem(turns, track)
    sheets = chip_sheets(opts.pages, turns, track, extras, card, stem=stem)
    _say_defaults(turns, track, opts)
    _say_how_to_print(publish(sheets, opts, folder="rwb-trouble", merged=f"{stem}-print"), sheets, opts)


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
