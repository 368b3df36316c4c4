"""Formula D (``../shared/rules/formula-d.txt``, advanced, optional and road-race rules): a per-lane board with
corners, stops and long/short paths, scorecards, dashboards and reference cards."""

from .. import BoardFacts, Game, register

#: The pack's field when no players are named (``pack.build``: "Player 1" to "Player 4"): a garage each.
PACK_PLAYERS = 4


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

    def board(self, spec_path, settings, players=PACK_PLAYERS, gt=False, pit_roll=None):
        """The pack's board: ruled per lane, the corner lines, flags and paths, a garage per player."""
        from ...scene import Sheet

        overlay = self.module("overlay")
        paper, edge = settings.board_paper(), settings.edge
        circuit = overlay.load_circuit(spec_path, paper, edge, road_race=gt, garages=players)
        page = overlay.formula_d_board(
            spec_path, n_cars=players, pit_roll=pit_roll, paper=paper, edge=edge, road_race=gt, circuit=circuit
        )
        return circuit, Sheet("board", page)

    def board_facts(self, circuit):
        """The corners as the board marks them: stops (``?``: suggested, the spec gives none), the green (long)
        and red (short) paths in spaces."""
        rows = [
            [m.index, m.name or "", f"{m.stops}{'?' if m.stops_suggested else ''}", m.paths.long, m.paths.short]
            for m in self.module("overlay").corner_marks(circuit)
        ]
        corners = {"title": "Corners", "columns": ["#", "name", "stops", "green (long)", "red (short)"], "rows": rows}
        return BoardFacts(tables=(corners,))

    def board_analysis(self, path, paper=None, edge=None, overrides=None):
        from ...paper import DEFAULT_EDGE

        edge = DEFAULT_EDGE if edge is None else edge
        return self.module("board").board_analysis(path, paper, edge, overrides=overrides)

    def board_page(self, circuit):
        return self.module("overlay").formula_d_board(circuit=circuit)

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
