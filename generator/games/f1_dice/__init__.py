"""The paper-and-dice F1 game (``../shared/rules/f1-dice.txt``): an A3 board of 2 cm units, rear-wing car slips,
qualifying Q1–Q3 by team, the action roll on every marked unit, three points systems."""

from .. import Game, register

GAME = register(
    Game(
        id="f1-dice",
        package=__name__,
        title="the paper-and-dice F1 game",
        summary="board, car slips, qualifying sheet, race reference card, standings",
        default=True,
        order=10,
    )
)
