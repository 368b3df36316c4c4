"""``paddock pack f1-dice``: board, car slips, qualifying, action table, reference card, points, standings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import output_options, publish
from .pack import pack_app


@pack_app.command("f1-dice")
@output_options
def f1_dice(
    track: Annotated[Path | None, typer.Option("--track", help="Circuit spec (YAML) or centre-line CSV.")] = None,
    *,
    opts,
) -> None:
    """The paper-and-dice F1 game: everything needed to race, in one merged PDF."""
    from ..packs import f1_dice as variant

    sheets = variant.build(opts, track=track)
    publish(sheets, opts, folder="f1-dice", merged="f1-dice-print", title="Paddock — f1-dice pack")
