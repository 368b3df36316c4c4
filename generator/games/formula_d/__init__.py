"""Formula D (``../shared/rules/formula-d.txt``, advanced, optional and road-race rules): a per-lane board with
corners, stops and long/short paths, scorecards, dashboards and reference cards."""

from .. import Game, register


class FormulaD(Game):
    def pack(self, settings, **options):
        return self.module("pack").build(settings, **options)

    def values(self, **facts):
        return self.module("summary").values(**facts)

    def tables(self, **facts):
        return self.module("summary").tables(**facts)

    def car_sheets(self, field, settings, **options):
        return self.module("cars").car_sheets(field, settings, **options)

    def board_notes(self, circuit):
        return self.module("corners").corner_notes(circuit)

    def simulate(self, board, options, progress=None):
        return self.module("simulate").simulate(board, options, progress)


GAME = register(
    FormulaD(
        id="formula-d",
        title="Formula D",
        summary="per-lane board with stops and long/short paths, scorecards, dashboards, reference cards",
        order=20,
    )
)
