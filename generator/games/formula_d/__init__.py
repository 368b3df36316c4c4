"""Formula D (``../shared/rules/formula-d.txt``, advanced, optional and road-race rules): a per-lane board with
corners, stops and long/short paths, scorecards, dashboards and reference cards."""

from .. import Game, register

#: The pack's field when no players are named (``pack.build``: "Player 1" to "Player 4"): a garage each.
PACK_PLAYERS = 4

GAME = register(
    Game(
        id="formula-d",
        package=__name__,
        title="Formula D",
        summary="per-lane board with stops and long/short paths, scorecards, dashboards, reference cards",
        order=20,
    )
)
