"""``paddock pack VARIANT``: every material of one game, into ``OUT/VARIANT/`` plus one merged PDF.

Each variant registers its own sub-command on :data:`pack_app` (``pack_*.py`` beside this file). Without a
variant, ``paddock pack [OPTIONS]`` builds the default one, f1-dice.
"""

from __future__ import annotations

import typer
from typer.core import TyperGroup

from . import app

DEFAULT_VARIANT = "f1-dice"


class _DefaultVariant(TyperGroup):
    """A group that runs DEFAULT_VARIANT when no variant is named (``paddock pack --out x`` works too)."""

    def parse_args(self, ctx, args):
        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h")):
            args = [DEFAULT_VARIANT, *args]
        return super().parse_args(ctx, args)


pack_app = typer.Typer(
    cls=_DefaultVariant,
    help="Build every material of one game into OUT/VARIANT/ plus one merged print-ready PDF. "
    "Without a VARIANT: f1-dice.",
    no_args_is_help=False,
)
app.add_typer(pack_app, name="pack")

from . import pack_f1dice, pack_formula_d  # noqa: E402,F401  (register the variants)
