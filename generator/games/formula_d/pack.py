"""The Formula D pack: a board with its corners marked, a scorecard and a dashboard per player, the reference
cards (``../shared/rules/formula-d.txt``)."""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError
from ...notices import warn
from ...paper import PageSettings
from ...pipeline import Sheet, numbered
from ..summaries import summary_sheets


def build(
    settings: PageSettings,
    players: str | None = None,
    players_file: Path | None = None,
    wp: str | None = None,
    gt: bool = False,
    weather: bool = False,
    tyres: bool = False,
    track: Path | None = None,
    pit_roll: int | None = None,
) -> list[Sheet]:
    from . import builds
    from .dashboard import PAPER as DASHBOARD_PAPER
    from .dashboard import dashboard_pages
    from .overlay import formula_d_board, load_circuit
    from .reference import PAPER as REFERENCE_PAPER
    from .reference import reference_pages
    from .scorecard import PAPER as SCORECARD_PAPER
    from .scorecard import scorecard_pages

    if players_file is not None:
        if players or wp:
            raise InputError(
                "give players either with --players (and --wp) or in --players-file, not both",
                field="--players-file",
            )
        setup = builds.load_players_file(players_file, gt=gt)
        roster, gt, weather, tyres = setup.players, setup.gt, weather or setup.weather, tyres or setup.tyres
        for p in roster:
            if p.driver and p.driver.needs_weather and not weather:
                warn(
                    f"{p.name} drives {p.driver.name or p.driver.id}, whom the rulebook keeps for races with "
                    "the weather rules: add --weather (or 'weather: true' in the players file)"
                )
    else:
        names = builds.split_names(players or "Player 1,Player 2,Player 3,Player 4")
        roster = builds.players_from_names(names, builds.parse_wp(wp) if wp else None, gt=gt, weather=weather)
    for p in roster:
        for note in p.notes:
            warn(note)

    if gt and pit_roll is not None:
        warn("--pit-roll is left out: a road race (--gt) uses no pits, so its board has no pit lane")
    circuit = load_circuit(track, settings.board_paper(), settings.edge, road_race=gt, garages=len(roster))
    board = formula_d_board(
        track,
        n_cars=len(roster),
        pit_roll=pit_roll,
        paper=settings.board_paper(),
        edge=settings.edge,
        road_race=gt,
        circuit=circuit,
    )
    pits = circuit.pit is not None  # a board with no pit lane (a real circuit's CSV): no pit card, no pit WP box
    if not gt and not pits and pit_roll is not None:
        warn("--pit-roll is left out: the board has no pit lane")
    sheets: list[Sheet] = [Sheet("board", board)]
    score = scorecard_pages(roster, settings.text_page(SCORECARD_PAPER), weather, tyres, pits=pits)
    sheets += numbered("scorecards", score)
    sheets += numbered("dashboards", dashboard_pages(roster, settings.text_page(DASHBOARD_PAPER)))
    sheets += numbered("reference", reference_pages(settings.text_page(REFERENCE_PAPER), road_race=gt, pits=pits))
    sheets += summary_sheets("formula-d", settings)
    return sheets
