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

    def board(
        self,
        spec_path,
        settings,
        players=PACK_PLAYERS,
        gt=False,
        pit_roll=None,
        cars=None,
        laps=None,
        start=None,
        grid=None,
        problems=None,
    ):
        """The pack's board: ruled per lane, the corner lines, flags and paths, a garage per player (``cars``
        players when given), the race length (``laps``); ``start`` and ``grid`` replace the spec's as
        ``check --game formula-d`` takes them."""
        from ...errors import InputError
        from ...pipeline import Sheet
        from ...problems import geometry_error
        from .builds import PLAYERS_MAX

        MAX_LAPS = self.module("cli").MAX_LAPS  # noqa: N806 — the pack's own limit, read where it lives

        if cars is not None:
            if not 1 <= cars <= PLAYERS_MAX:
                raise InputError(f"--cars {cars}", field="--cars", hint=f"a Formula D race has 1 to {PLAYERS_MAX} cars")
            players = cars
        if laps is not None and not 1 <= laps <= MAX_LAPS:
            raise InputError(f"--laps {laps}", field="--laps", hint=f"the pack prints races of 1 to {MAX_LAPS} laps")
        overlay, board = self.module("overlay"), self.module("board")
        paper, edge = settings.board_paper(), settings.edge
        overrides = {"start": start, "grid": grid}
        if problems is None:
            circuit = overlay.load_circuit(spec_path, paper, edge, road_race=gt, garages=players, overrides=overrides)
        else:
            done = board.board_analysis(spec_path, paper, edge, gt, players, overrides)
            problems.extend(done.problems)
            if done.circuit is None:
                raise geometry_error(done.problems, done.source)
            circuit = done.circuit
        page = overlay.formula_d_board(
            spec_path,
            n_cars=players,
            pit_roll=pit_roll,
            paper=paper,
            edge=edge,
            road_race=gt,
            circuit=circuit,
            laps=laps,
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
