"""The paper-and-dice F1 game (``../shared/rules/f1-dice.txt``): an A3 board of 2 cm units, rear-wing car slips,
qualifying Q1–Q3 by team, the action roll on every marked unit, three points systems."""

from .. import Game, register


class F1Dice(Game):
    def pack(self, settings, **options):
        return self.module("pack").build(settings, **options)

    def values(self, **facts):
        return self.module("summary").values(**facts)

    def tables(self, **facts):
        return self.module("summary").tables(**facts)

    def car_sheets(self, field, settings, **options):
        return self.module("cars").car_sheets(field, settings, **options)

    def simulate(self, board, options, progress=None):
        return self.module("simulate").simulate(board, options, progress)


GAME = register(
    F1Dice(
        id="f1-dice",
        title="the paper-and-dice F1 game",
        summary="board, car slips, qualifying sheet, race reference card, standings",
        default=True,
        order=10,
    )
)
