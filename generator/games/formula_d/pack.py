"""The Formula D pack: a board with its corners marked, a scorecard and a dashboard per player, the pieces (car
tokens, damage markers), the reference cards and the rule summary (``../shared/rules/formula-d.txt``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...errors import InputError
from ...notices import warn
from ...paper import PAPERS, PageSettings
from ...scene import Sheet, numbered
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
    laps: int | None = None,
    house_rules: bool = False,
) -> list[Sheet]:
    """Every sheet of the pack. ``laps``: the race's length (default the rulebook's); ``house_rules``: the
    write-ins the rulebook's text leaves blank filled with Paddock's suggestions, printed as such."""
    from . import builds, facts
    from .dashboard import PAPER as DASHBOARD_PAPER
    from .dashboard import dashboard_pages
    from .overlay import formula_d_board, load_circuit
    from .pieces import PAPER as PIECES_PAPER
    from .pieces import piece_pages
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
        names = builds.split_names(players) if players else default_names(gt, weather)
        roster = builds.players_from_names(names, builds.parse_wp(wp) if wp else None, gt=gt, weather=weather)
    roster = builds.numbered(builds.with_house_rules(roster) if house_rules else roster)
    for p in roster:
        for note in p.notes:
            warn(note)

    if gt and pit_roll is not None:
        warn("--pit-roll is left out: a road race (--gt) uses no pits, so its board has no pit lane")
    circuit = load_circuit(track, settings.board_paper(), settings.edge, road_race=gt, garages=len(roster))
    suggested = False
    if house_rules and pit_roll is None and circuit.pit is not None and circuit.pit.min_roll is None:
        pit_roll, suggested = facts.house().pit_min_roll.value, True  # the box the board would leave blank
    board = formula_d_board(
        track,
        n_cars=len(roster),
        pit_roll=pit_roll,
        paper=settings.board_paper(),
        edge=settings.edge,
        road_race=gt,
        circuit=circuit,
        laps=laps,
        pit_suggested=suggested,
    )
    pits = circuit.pit is not None  # a board with no pit lane (a real circuit's CSV): no pit card, no pit WP box
    if not gt and not pits and pit_roll is not None:
        warn("--pit-roll is left out: the board has no pit lane")
    # cards, scorecards and pieces go on --paper only where it is a printer's paper: on a board's paper (A2, A1)
    # they keep their own (A4), and only the board grows
    sheet = settings if _printer_paper(settings) else replace(settings, paper=None)
    sheets: list[Sheet] = [Sheet("board", board)]
    score = scorecard_pages(roster, sheet.text_page(SCORECARD_PAPER), weather, tyres, pits=pits, laps=laps)
    sheets += numbered("scorecards", score)
    sheets += numbered("dashboards", dashboard_pages(roster, sheet.text_page(DASHBOARD_PAPER), house_rules))
    sheets += numbered("pieces", piece_pages(roster, sheet.document_page(PIECES_PAPER)))
    cards = reference_pages(sheet.text_page(REFERENCE_PAPER), gt, pits, laps, house_rules)
    sheets += numbered("reference", cards)
    sheets += summary_sheets("formula-d", sheet, laps=laps, house_rules=house_rules)
    return sheets


def default_names(gt: bool = False, weather: bool = False) -> list[str]:
    """The field when ``--players`` is left out: as many cars as the game box holds (game.yaml ``cars``), or as many
    GT drivers as may race (without the weather rules, one fewer)."""
    from . import facts

    count = facts.game().cars
    if gt:
        count = min(count, sum(1 for d in facts.gt_drivers() if weather or not d.needs_weather))
    return [f"Player {i + 1}" for i in range(count)]


def _printer_paper(settings: PageSettings) -> bool:
    """Whether ``--paper`` (if given) is one a home printer takes — no larger than A3 — so every sheet goes on it;
    ``--tile-onto`` names the printer's paper itself."""
    if settings.paper is None or settings.tile_onto is not None:
        return True
    big = PAPERS[settings.paper.name]
    return big.short * big.long <= PAPERS["a3"].short * PAPERS["a3"].long
