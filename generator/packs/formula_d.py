"""The Formula D pack: a board with its corners marked, a scorecard and a dashboard per player, the reference
cards (``../shared/rules/formula-d.txt``)."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..pipeline import OutputOptions, Sheet, warn


def build(
    opts: OutputOptions,
    players: str | None = None,
    players_file: Path | None = None,
    wp: str | None = None,
    gt: bool = False,
    weather: bool = False,
    tyres: bool = False,
    track: Path | None = None,
    pit_roll: int | None = None,
) -> list[Sheet]:
    from ..formula_d import builds
    from ..formula_d.dashboard import dashboard_pages
    from ..formula_d.reference import reference_pages
    from ..formula_d.scorecard import scorecard_pages

    if players_file is not None:
        if players or wp:
            raise InputError(
                "give players either with --players (and --wp) or in --players-file, not both",
                field="--players-file",
            )
        setup = builds.load_players_file(players_file, gt=gt)
        roster, gt, weather, tyres = setup.players, setup.gt, weather or setup.weather, tyres or setup.tyres
    else:
        names = builds.split_names(players or "Player 1,Player 2,Player 3,Player 4")
        roster = builds.players_from_names(names, builds.parse_wp(wp) if wp else None, gt=gt)
    for p in roster:
        for note in p.notes:
            warn(note)

    sheets: list[Sheet] = []
    board = _board(track, roster, pit_roll)
    if board is not None:
        sheets.append(Sheet("board", board))
    for name, pages in (
        ("scorecards", scorecard_pages(roster, weather=weather, tyres=tyres)),
        ("dashboards", dashboard_pages(roster)),
        ("reference", reference_pages(road_race=gt)),
    ):
        for i, page in enumerate(pages):
            sheets.append(Sheet(name if len(pages) == 1 else f"{name}-{i + 1}", page))
    return sheets


def _board(track: Path | None, roster, pit_roll: int | None):
    """The per-lane board with the Formula D overlay, or None (with a warning) while circuits are not ready."""
    try:
        from ..formula_d.overlay import formula_d_board
    except ImportError:  # the circuit engine is not there yet
        warn("circuits are not available in this build: the pack has no board yet")
        return None
    return formula_d_board(track, n_cars=len(roster), pit_roll=pit_roll)
