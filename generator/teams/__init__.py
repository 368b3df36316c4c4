"""Teams, drivers and liveries: the shared library every game's car pieces are drawn from.

    load_field(ref)                 a preset name ("f1-2011") or a YAML path → TeamField (teams → drivers)
    preset_names()                  the presets shipped under templates/teams/
    parse_colour(text), text_on(bg) colours as "#rrggbb"; dark or light ink by contrast
    livery_items(team, x, y, w, h)  a team's livery filling a rectangle (nose down, or nose="right")

The pieces themselves belong to their games: f1-dice car slips (``generator.games.f1_dice.slips``), Formula D
tokens (``generator.games.formula_d.tokens``), *Monaco!* cards and seasons (``generator.games.monaco``).
"""

from __future__ import annotations

from ..compose.colour import contrast, parse_colour, text_on
from .livery import livery_items
from .models import Driver, MonacoStats, Qualifying, Team, TeamField, load_field, parse_field, preset_names

__all__ = [
    "Driver",
    "MonacoStats",
    "Qualifying",
    "Team",
    "TeamField",
    "contrast",
    "livery_items",
    "load_field",
    "parse_colour",
    "parse_field",
    "preset_names",
    "text_on",
]
