"""The *Monaco!* pack: everything a group needs to race besides the toy cars and the dice.

The road of a circuit cut into numbered pieces with its layout plan (default: the shipped Monaco-like circuit at
double width), optionally a modular set, the measuring tools (speed ruler and slider, turn, collision and grid
gauges), a speed dial and a card per car, and the practice, race, season and squad sheets.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError
from ...paper import PageSettings
from ...scene import Sheet, numbered
from ...teams import load_field
from ...units import MM_PER_INCH

DEFAULT_TEAMS = "monaco-example"
DEFAULT_TRACK = "monte-carlo.yaml"


def default_track() -> Path:
    from ...data import track_specs_dir

    return track_specs_dir() / DEFAULT_TRACK


def build(
    settings: PageSettings,
    teams: str | Path | None = None,
    track: Path | None = None,
    width: str | None = None,
    lap: str | None = None,
    lane_width: str | None = None,
    car_length: str | None = None,
    points: str | None = None,
    races: int | None = None,
    laps: int = 3,
    modular: str | None = None,
    tone: str = "light",
) -> list[Sheet]:
    from .between import PAPER as BETWEEN_PAPER
    from .between import between_sheet
    from .cards import PAPER as CARDS_PAPER
    from .cards import monaco_card_pages
    from .dials import PAPER as DIALS_PAPER
    from .dials import dial_pages
    from .facts import length_option, points_scale, road, rules
    from .practice import PAPER as PRACTICE_PAPER
    from .practice import practice_sheet, sharp_bends
    from .racelog import PAPER as RACE_PAPER
    from .racelog import race_log
    from .roadkit import circuit_kit, modular_kit
    from .squads import PAPER as SQUADS_PAPER
    from .squads import squad_sheet
    from .standings import DEFAULT_RACES, standings_sheet
    from .standings import PAPER as STANDINGS_PAPER
    from .tools import GAUGES_PAPER, gauges_page, ruler_page
    from .tools import PAPER as TOOLS_PAPER

    field = load_field(teams or DEFAULT_TEAMS)
    if not any(d.monaco for _, d in field.drivers):
        from ...data import is_shipped
        from ...teams.models import resolve

        path = resolve(teams or DEFAULT_TEAMS)
        mine = not is_shipped(path)  # a user's teams file: the error names it
        raise InputError(
            f"the field '{field.name}' has no Monaco! ratings",
            file=path if mine else None,
            field=None if mine else "--teams",
            hint="give each driver 'monaco: {skill: …, tech: …}', or dice them with 'paddock season dice'",
        )
    points_scale(points)  # refuse a bad --points before drawing anything
    from .road_sheets import check_tone

    width = width or road().default_width
    tone = check_tone(tone)
    kit = circuit_kit(
        track or default_track(),
        settings,
        width,
        length_option(lap, "--lap"),
        length_option(lane_width, "--lane-width"),
        length_option(car_length, "--car-length"),
        grid=len(field.drivers),
        tone=tone,
    )
    sheets: list[Sheet] = list(kit.sheets)
    if modular is not None:
        lane = length_option(lane_width, "--lane-width")
        sheets += modular_kit(modular or None, settings, width, lane, tone=tone).sheets
    sheets.append(Sheet("tools-ruler", ruler_page(settings.document_page(TOOLS_PAPER))))
    sheets.append(Sheet("tools-gauges", gauges_page(settings.document_page(GAUGES_PAPER))))
    sheets += numbered("speed-dials", dial_pages(field, settings.document_page(DIALS_PAPER)))
    sheets += numbered("monaco-cards", monaco_card_pages(field, settings.text_page(CARDS_PAPER)))
    bends = sharp_bends(kit.road.corners, rules().turn.free_angle_deg, MM_PER_INCH)
    practice = practice_sheet(field, settings.text_page(PRACTICE_PAPER), kit.road.lap_in, bends)
    sheets += numbered("practice", practice)
    sheets.append(Sheet("race-log", race_log(field, settings.text_page(RACE_PAPER), laps, points)))
    standings = standings_sheet(field, settings.text_page(STANDINGS_PAPER), points, races or DEFAULT_RACES)
    sheets.append(Sheet("standings", standings))
    sheets.append(Sheet("squads", squad_sheet(field, settings.text_page(SQUADS_PAPER))))
    sheets.append(Sheet("between-seasons", between_sheet(field, settings.text_page(BETWEEN_PAPER))))
    from ..summaries import summary_sheets

    sheets += summary_sheets("monaco", settings)
    return sheets
