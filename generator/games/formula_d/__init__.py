"""Formula D (``../shared/rules/formula-d.txt``, advanced, optional and road-race rules): a per-lane board with
corners, stops and long/short paths, scorecards, dashboards and reference cards."""

from .. import Game, register

GAME = register(
    Game(
        id="formula-d",
        title="Formula D",
        summary="per-lane board with stops and long/short paths, scorecards, dashboards, reference cards",
        package=__name__,
        order=20,
        board_notes="corners.corner_notes",
    )
)
