"""Teams, drivers and cars: team specs, presets, car slips, Formula D tokens, Monaco! cards, seasons.

The API other parts of Paddock use (Formula D reuses the liveries and tokens):

    load_field(ref)                 a preset name ("f1-2011") or a YAML path → TeamField (teams → drivers)
    preset_names()                  the presets shipped under templates/teams/
    parse_colour(text), text_on(bg) colours as "#rrggbb"; dark or light ink by contrast
    livery_items(team, x, y, w, h)  a team's livery filling a rectangle (nose down, or nose="right")
    slip_pages(field, unit)         rear-wing car slips on A4 (f1-dice §1.2), scaled for the board unit
"""

from __future__ import annotations

from ..compose.colour import contrast, parse_colour, text_on
from .livery import livery_items
from .models import Driver, MonacoStats, Qualifying, Team, TeamField, load_field, parse_field, preset_names
from .slips import slip_items, slip_pages

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
    "slip_items",
    "slip_pages",
    "text_on",
]
